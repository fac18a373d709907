from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from games.api.root import ApiRoot, OfflineRedoc, OfflineSwagger


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


urlpatterns = [
    # The recording API first: it takes most requests, and URLs are tried in order.
    path("api/v1/", ApiRoot.as_view(), name="api-root"),
    path("api/v1/", include("games.api.urls")),
    path("", include("games.pages.urls")),
    path("", include("games.pages.sheet_urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", OfflineSwagger.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", OfflineRedoc.as_view(url_name="schema"), name="api-redoc"),
    # DRF's login form, drawn without style attributes (the Content-Security-Policy refuses them).
    path(
        "api-auth/login/",
        LoginView.as_view(template_name="api_browser/login.html"),
        name="api-auth-login",
    ),
    path("api-auth/", include("rest_framework.urls")),
    path("healthz", health),
]

handler404 = "games.api.http.errors.not_found"
handler500 = "games.api.http.errors.server_error"
handler400 = "games.api.http.errors.bad_request"
