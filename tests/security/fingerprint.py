"""Everything a refused request must leave as it was, across the whole database."""

from __future__ import annotations

from django.apps import apps

# Bookkeeping that a read may touch: when a token or a push endpoint was last used, presence.
IGNORED_FIELDS = {"last_used_at", "last_success_at"}
IGNORED_MODELS = {"TablePresence", "Activity"}
APP_LABELS = ("tables", "alerts", "auth", "account")


def database_fingerprint() -> dict[str, list[tuple]]:
    """Every row of the game's, the accounts' and the alerts' tables, by model."""
    rows: dict[str, list[tuple]] = {}
    for model in apps.get_models():
        if model._meta.app_label not in APP_LABELS or model.__name__ in IGNORED_MODELS:
            continue
        names = [f.attname for f in model._meta.concrete_fields if f.attname not in IGNORED_FIELDS]
        rows[model._meta.label] = list(model.objects.order_by("pk").values_list(*names))
    return rows


def changed_models(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> list[str]:
    return [label for label in before if before[label] != after.get(label)]
