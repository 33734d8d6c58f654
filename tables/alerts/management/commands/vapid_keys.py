"""``manage.py vapid_keys``: a new VAPID key pair for web push, as environment lines."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from config.vapid import b64url, generate_keys

__all__ = ["Command", "b64url", "generate_keys"]


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push (set both in the environment of every process)."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = generate_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
