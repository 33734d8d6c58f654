"""The bench's baseline: Django with no middleware and one JSON view (bench/http_load.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare_urls"
MIDDLEWARE = []
# allauth.account insists on its middleware, which the baseline does not run; allauth's other
# apps stay, since the project's modules (loaded by config.asgi) import their models.
INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "allauth.account"]  # noqa: F405
