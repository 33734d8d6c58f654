"""Websocket routes: the table socket and the user socket (docs/live.md)."""

from django.urls import URLPattern, path

from .consumers import TableConsumer, UserConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tables/<str:token>/", TableConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
