from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from tables.api import api


class FaviconView(RedirectView):
    """/favicon.ico, which the admin pages (they have no icon link) and some browsers ask for: the
    site's icon. The static URL is looked up per request, once the static files' manifest exists."""

    permanent = False

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("img/favicon.svg")


urlpatterns = [
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("alerts/", include("tables.alerts.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("tables.urls")),
]
