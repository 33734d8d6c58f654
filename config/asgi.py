"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne).

Websockets pass the allowed-hosts origin check, then session / API-token authentication.
In embedded mode (no REDIS_URL) the serving process also starts the in-process scheduler
that runs bots, clocks and alerts (tables.embedded).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

import threading  # noqa: E402

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.core.signals import request_finished  # noqa: E402
from django.db import connections  # noqa: E402

from tables import embedded  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.socket_auth import SocketAuthMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


def _close_request_connections(**kwargs) -> None:
    """Under ASGI each HTTP request's sync code runs on a thread of its own that ends with the
    request: a persistent connection (CONN_MAX_AGE) left on it would stay open, orphaned, until
    the database refuses new clients. Long-lived threads (socket consumers, Celery) keep theirs."""
    if threading.current_thread() is threading.main_thread():
        return  # not a request thread (the test client runs views on the main thread)
    if not any(connection.in_atomic_block for connection in connections.all(initialized_only=True)):
        connections.close_all()


request_finished.connect(_close_request_connections, dispatch_uid="config.asgi.close_request_connections")
embedded.start_in_server()
