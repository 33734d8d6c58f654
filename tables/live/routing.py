"""Websocket routes: the table socket and the user socket (docs/live.md)."""

from django.urls import URLPattern, path

from tables.live.consumers import TableConsumer
from tables.live.user_socket import UserConsumer

websocket_urlpatterns: list[URLPattern] = [
    # Channels routes ASGI apps with Django's path(), which django-stubs types for views only.
    path("ws/tables/<str:token>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/me/", UserConsumer.as_asgi()),  # type: ignore[arg-type]
]
