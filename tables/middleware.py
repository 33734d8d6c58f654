"""Request-level middleware: the guest cookie, and refusing NUL characters before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from .identity import remember_new_guest
from .text_input import request_nul_field


class GuestCookieMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        remember_new_guest(request, response)
        return response


class RefuseNulCharactersMiddleware:
    """A NUL in the URL, query or a form field gets a 400 naming the field, before any view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        field = request_nul_field(request)
        if field is not None:
            detail = f"{field}: must not contain a NUL character"
            return JsonResponse({"error": "invalid_input", "detail": detail, "field": field}, status=400)
        return self.get_response(request)
