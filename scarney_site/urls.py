from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from scarney_site.api_root import ApiRoot, OfflineRedoc


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


urlpatterns = [
    # The recording API first: it takes most requests, and URLs are tried in order.
    path("api/v1/", ApiRoot.as_view(), name="api-root"),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("scoring.urls")),
    path("api/v1/", include("games.webhooks.urls")),
    path("", include("games.pages.urls")),
    path("", include("scoring.pages.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", OfflineRedoc.as_view(url_name="schema"), name="api-redoc"),
    path("api-auth/", include("rest_framework.urls")),
    path("healthz", health),
]

handler404 = "scarney_site.errors.not_found"
handler500 = "scarney_site.errors.server_error"
handler400 = "scarney_site.errors.bad_request"
