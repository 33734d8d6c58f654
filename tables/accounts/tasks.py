"""Celery tasks of accounts: vacations that end (and their reminder), data exports to build."""

from __future__ import annotations

from tables.accounts import alerts as account_alerts
from tables.accounts import services as account_services
from tables.background import registry
from tables.background.registry import registered


@registered(registry.SWEEP_VACATIONS)
def sweep_vacations() -> int:
    """End each vacation whose last day is over: its stopped clocks run again."""
    return account_services.sweep_vacations()


@registered(registry.REMIND_VACATIONS)
def remind_vacations() -> int:
    """The inbox line "your vacation ends soon" of each vacation ending within a day."""
    return account_alerts.remind_vacations()


@registered(registry.BUILD_DATA_EXPORT)
def build_data_export(export_id: int) -> bool:
    """Build a requested "download my data" archive (tables.accounts.services.data_export)."""
    return account_services.build_export(export_id)
