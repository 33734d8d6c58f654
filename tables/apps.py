from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """The wiring point, run once the models are loaded (Django's place for it): the
        receivers of a committed change, the Celery tasks, and the guest-adoption signals."""
        from . import bot_turns, events, scheduling, signals, tasks  # noqa: F401
        from .alerts import challenge_alerts
        from .changes import challenge_changed, table_changed

        # Live publishing first: the sockets hear of a move before any follow-up runs.
        table_changed.connect(events.on_table_change, dispatch_uid="tables.live")
        table_changed.connect(scheduling.on_table_change, dispatch_uid="tables.background")
        challenge_changed.connect(challenge_alerts.on_challenge_change, dispatch_uid="tables.challenges")
