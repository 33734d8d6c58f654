"""Websocket routes (the table socket and the user socket)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
