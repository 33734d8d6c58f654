"""Request-level middleware: the guest cookie, and refusing NUL and other unusable characters
(tables.core.text_input) before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from tables.accounts.identity import remember_new_guest
from tables.core.text_input import request_text_problem


class GuestCookieMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        remember_new_guest(request, response)
        return response


class RefuseNulCharactersMiddleware:
    """A NUL, another control character or invalid Unicode in the URL, query or a form field gets
    a 400 naming the field, before any view runs (tables.core.text_input). Named for the NULs it first
    refused: config/settings.py lists it by that name."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = request_text_problem(request)
        if refused is not None:
            field, problem = refused
            detail = f"{field}: {problem}"
            return JsonResponse({"error": "invalid_input", "detail": detail, "field": field}, status=400)
        return self.get_response(request)
