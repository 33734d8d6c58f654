"""Writes the signed guest cookie on the response that created a guest."""

from __future__ import annotations

from .identity import remember_new_guest


class GuestCookieMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        remember_new_guest(request, response)
        return response
