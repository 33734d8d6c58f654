from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from tables.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("alerts/", include("tables.alerts.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("tables.urls")),
]
