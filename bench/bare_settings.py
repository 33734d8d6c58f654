"""The bench's baseline: Django with no middleware and one JSON view (bench/http_load.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare_urls"
MIDDLEWARE: list[str] = []
# allauth insists on its middleware; the baseline needs neither.
INSTALLED_APPS = [app for app in INSTALLED_APPS if not app.startswith("allauth")]  # noqa: F405
