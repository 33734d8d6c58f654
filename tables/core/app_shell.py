"""What makes the site an installable app: the web app manifest and the service worker.

The worker is served from the site's root (/sw.js), so its scope is the whole site: a browser
installs a site only when a worker controls the manifest's start URL, and iPhones deliver web
push only to a site added to the home screen. The same file stays reachable at
/static/sw.js, where browsers that subscribed before keep updating their older registration.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from tables.offline import shell

THEME_COLOR = "#0e5a3c"  # the felt of the table (static/css/site.css --felt)
BACKGROUND_COLOR = "#f6f3ec"  # the paper of the pages (--paper)
ICONS = (
    ("img/icons/icon-192.png", "192x192", "any"),
    ("img/icons/icon-512.png", "512x512", "any"),
    ("img/icons/icon-maskable-512.png", "512x512", "maskable"),
)


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the visitor's language."""
    data = {
        "id": "/",
        "name": gettext("Ginmesa · Gin Rummy"),
        "short_name": "Ginmesa",
        "description": gettext("Gin Rummy at persistent tables"),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def _worker_source() -> bytes:
    path = finders.find("sw.js")
    if not path:
        path = str(Path(settings.STATIC_ROOT) / "sw.js")
    return Path(str(path)).read_bytes()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js at the root of the site, so that its scope is every page, after the app
    shell's version and URLs (tables.offline.shell)."""
    worker = _worker_source()
    response = HttpResponse(
        shell.worker_prelude(worker) + worker, content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"  # a new release reaches every browser at its next visit
    return response
