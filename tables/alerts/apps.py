from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "tables.alerts"
    label = "alerts"
    verbose_name = "Alerts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.alerts import checks  # noqa: F401  (registers the start-up check of the push keys)
