"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne).

Websockets pass the allowed-hosts origin check, then session / API-token authentication.
In embedded mode (no REDIS_URL) the serving process also starts the in-process scheduler
that runs bots, clocks and alerts (tables.embedded).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tables import embedded  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.socket_auth import SocketAuthMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

embedded.start_in_server()
