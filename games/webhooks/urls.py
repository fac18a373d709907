"""Routes of the webhook endpoints, included under /api/v1/ by scarney_site.urls."""

from django.urls import path

from games.webhooks import api

urlpatterns = [
    path("webhooks/", api.WebhookList.as_view(), name="webhook-list"),
    path("webhooks/<str:pk>/", api.WebhookDetail.as_view(), name="webhook-detail"),
    path(
        "webhooks/<str:pk>/deliveries/",
        api.WebhookDeliveries.as_view(),
        name="webhook-deliveries",
    ),
]
