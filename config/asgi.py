"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne).

Websockets must send an Origin header naming an allowed host (config/origin.py), then pass
session / API-token authentication.
In embedded mode (no REDIS_URL) the serving process also starts the in-process scheduler
that runs bots, clocks and alerts (tables.background.embedded).
"""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from django.conf import settings  # noqa: E402

from config.http import PooledASGIHandler  # noqa: E402
from config.origin import websocket_guard  # noqa: E402
from tables.background import embedded  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402
from tables.live.socket_auth import SocketAuthMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": PooledASGIHandler(settings.HTTP_THREADS),
        "websocket": websocket_guard(
            SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]  # as in routing.py
        ),
    }
)
# Embedded mode (no REDIS_URL): Celery's work and sweeps run in this process; never under pytest
# (tests start the scheduler themselves) nor where Celery workers are configured.
if settings.REDIS_URL is None and "PYTEST_VERSION" not in os.environ:
    embedded.start(embedded.periodic_jobs())

# Everything loaded so far lives as long as the process: keep it out of the collector's scans,
# which otherwise walk it on every full collection (pauses seen as tail latency).
gc.freeze()
