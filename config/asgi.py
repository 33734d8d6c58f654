"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.socket_auth import SocketAuthMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
