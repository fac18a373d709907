from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


urlpatterns = [
    # The recording API first: it takes most requests, and URLs are tried in order.
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("scoring.urls")),
    path("", RedirectView.as_view(url="/api/docs/", permanent=False)),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api-auth/", include("rest_framework.urls")),
    path("healthz", health),
]

handler404 = "scarney_site.errors.not_found"
handler500 = "scarney_site.errors.server_error"
handler400 = "scarney_site.errors.bad_request"
