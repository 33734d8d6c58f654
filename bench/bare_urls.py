"""One bare JSON view: what Django alone costs per request, beside the table-state endpoint."""

from django.http import HttpRequest, JsonResponse
from django.urls import path


def hello(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True, "version": 1})


urlpatterns = [path("bare/", hello)]
