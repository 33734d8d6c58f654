"""Asking for a "download my data" archive and its signed link, for the API and the page (the
archive itself: tables.accounts.services.data_export; the worker: tables.accounts.tasks)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from tables.accounts import services as account_services
from tables.accounts.models import DataExport, Player
from tables.background import registry, scheduling


def export_row(export: DataExport | None) -> dict[str, Any]:
    """An archive's state and, once ready, its signed link (docs/accounts.md)."""
    if export is None:
        return {"status": "none", "created_at": None, "ready_at": None, "expires_at": None, "url": None}
    ready = export.status == DataExport.Status.READY
    return {
        "status": export.status,
        "created_at": export.created_at.isoformat(),
        "ready_at": export.ready_at.isoformat() if export.ready_at else None,
        "expires_at": export.expires_at.isoformat() if export.expires_at else None,
        "url": reverse("data_export_download", args=[account_services.link_key(export)]) if ready else None,
    }


def ask_for_export(player: Player) -> DataExport:
    """The account's archive: a new one is handed to a worker once this commits."""
    export, new = account_services.request_export(player)
    if new:
        transaction.on_commit(lambda: scheduling.run_task(registry.BUILD_DATA_EXPORT, export.pk))
    return export
