"""Start-up checks of alerts: say so when web push is off (run by manage.py check, migrate and
runserver), so a production site without VAPID keys learns why no browser gets push alerts."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Warning, register

from tables.alerts import push


@register()
def web_push_keys(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    if push.configured():
        return []
    return [
        Warning(
            "Web push is off: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set.",
            hint="`python manage.py vapid_keys` makes a pair: set both in the environment of every "
            "process (embedded mode, with no DATABASE_URL, makes and keeps its own pair).",
            id="alerts.W001",
        )
    ]
