"""Alert emails and the daily digest: text and HTML in the player's language, a link straight
to the table, and a signed one-click unsubscribe link that needs no login."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tables.accounts.models import Player
from tables.alerts.texts import language

UNSUBSCRIBE_SALT = "tables.alerts.unsubscribe"


def address_of(player: Player) -> str | None:
    user = player.user
    return user.email if user is not None and user.email and user.is_active else None


def unsubscribe_url(player: Player, kind: str | None) -> str:
    """``kind``: stop that kind of email; None: stop every email (and the digest)."""
    token = signing.dumps({"p": player.pk, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)
    return settings.SITE_URL + reverse("alerts:unsubscribe", args=[token])


def read_unsubscribe_token(token: str) -> tuple[int, str | None] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return int(data["p"]), data.get("k")


def send_alert_email(player: Player, kind: str, title: str, body: str, url: str) -> bool:
    context = {"player": player, "kind": kind, "title": title, "body": body, "url": url}
    return _send(player, "alert", title, context, unsubscribe_kind=kind)


def send_digest(player: Player, rows: list[dict[str, Any]], subject: str) -> bool:
    context = {"player": player, "rows": rows, "title": subject, "tables_url": _absolute("my_tables")}
    return _send(player, "digest", subject, context, unsubscribe_kind=None)


def _absolute(name: str) -> str:
    return settings.SITE_URL + reverse(name)


def _send(
    player: Player, template: str, subject: str, context: dict[str, Any], unsubscribe_kind: str | None
) -> bool:
    to = address_of(player)
    if to is None:
        return False
    unsubscribe = unsubscribe_url(player, unsubscribe_kind)
    context = {
        **context,
        "unsubscribe_url": unsubscribe,
        "unsubscribe_all_url": unsubscribe_url(player, None),
    }
    with translation.override(language(player.language)):
        text = render_to_string(f"alerts/{template}.txt", context)
        html = render_to_string(f"alerts/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[to],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message.send() == 1
