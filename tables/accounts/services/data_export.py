"""Download my data (docs/accounts.md, "Download my data"): one JSON archive of what the site
keeps about an account, built in the background (tables.accounts.tasks.build_data_export) and
offered by a signed link that expires after ``DataExport.LIFETIME``.

The archive: the profile and its email addresses, alert settings and push subscriptions, every
finished match with its move logs in the format of the match export (``payloads.match_export``:
deals a player may see, so a deal abandoned by resignation stays secret) and the reviews of its
seat, its ratings and rating history, the chat it wrote, its vacations and API tokens (never
their values).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from allauth.account.models import EmailAddress
from django.core import signing
from django.db.models import Q
from django.utils import timezone

from tables.accounts.models import ApiToken, DataExport, Player
from tables.alerts.models import PushSubscription
from tables.play import payloads
from tables.play.models import ChatMessage, Match
from tables.practice.models import PracticePosition
from tables.ratings.models import Rating, RatingChange
from tables.reviews.models import DealReview

FORMAT = "ginmesa-data-export/1"
SALT = "tables.accounts.data_export"
# A new archive may be asked for this often; asking sooner gives the last one (one still being
# built, for up to STALE seconds: past that its worker is taken to be lost).
MIN_INTERVAL = 600
STALE = 3600
log = logging.getLogger(__name__)


def request_export(player: Player) -> tuple[DataExport, bool]:
    """The player's archive being built or recently built, or a new one to build (then True)."""
    now = timezone.now()
    latest = DataExport.objects.filter(player=player).order_by("-created_at").first()
    age = (now - latest.created_at).total_seconds() if latest is not None else None
    pending = latest is not None and latest.status == DataExport.Status.PENDING
    if latest is not None and age is not None and (age < MIN_INTERVAL or (pending and age < STALE)):
        return latest, False
    DataExport.objects.filter(player=player).delete()  # one archive at a time
    return DataExport.objects.create(player=player), True


def latest_export(player: Player) -> DataExport | None:
    return DataExport.objects.filter(player=player).order_by("-created_at").first()


def build_export(export_id: int) -> bool:
    """Build a pending archive (a second run does nothing); expired archives of anyone go."""
    DataExport.objects.filter(expires_at__lte=timezone.now()).delete()
    export = DataExport.objects.select_related("player__user").filter(pk=export_id).first()
    if export is None or export.status != DataExport.Status.PENDING:
        return False
    try:
        content = json.dumps(archive(export.player), ensure_ascii=False, default=str)
    except Exception:
        log.exception("data export %s failed", export_id)
        DataExport.objects.filter(pk=export_id).update(status=DataExport.Status.FAILED)
        return False
    now = timezone.now()
    export.content, export.status = content, DataExport.Status.READY
    export.ready_at, export.expires_at = now, now + DataExport.LIFETIME
    export.save(update_fields=["content", "status", "ready_at", "expires_at"])
    return True


def link_key(export: DataExport) -> str:
    return signing.dumps(export.pk, salt=SALT)


def export_by_key(key: str, player: Player) -> DataExport | None:
    """The player's ready, unexpired archive the signed key names; None otherwise."""
    try:
        export_id = signing.loads(key, salt=SALT, max_age=DataExport.LIFETIME)
    except signing.BadSignature:
        return None
    return DataExport.objects.filter(
        pk=export_id, player=player, status=DataExport.Status.READY, expires_at__gt=timezone.now()
    ).first()


def archive(player: Player) -> dict[str, Any]:
    user = player.user
    return {
        "format": FORMAT,
        "created_at": timezone.now().isoformat(),
        "profile": {
            "player_id": player.pk,
            "display_name": player.display_name,
            "username": user.get_username() if user else None,
            "email_addresses": [
                {"email": row.email, "verified": row.verified, "primary": row.primary}
                for row in EmailAddress.objects.filter(user=user)
            ]
            if user
            else [],
            "joined": player.created_at,
            "language": player.language,
            "time_zone": player.time_zone,
            "deck_design": player.deck_design,
            "bot_account_at": player.bot_account_at,
        },
        "alerts": {
            "settings": player.alert_prefs,
            "push_subscriptions": [
                {"user_agent": row.user_agent, "created_at": row.created_at}
                for row in PushSubscription.objects.filter(player=player)
            ],
        },
        "matches": _matches(player),
        "ratings": {
            "current": [
                {"pace": row.pace, "rating": row.rating, "deviation": row.deviation, "games": row.games}
                for row in Rating.objects.filter(player=player)
            ],
            "history": [
                {
                    "match_id": row.match_id,
                    "pace": row.pace,
                    "score": row.score,
                    "rating_before": row.rating_before,
                    "rating_after": row.rating_after,
                    "at": row.created_at,
                }
                for row in RatingChange.objects.filter(player=player).order_by("created_at", "pk")
            ],
        },
        "chat": [
            {"table": row.table_id, "channel": row.channel, "text": row.text, "at": row.created_at}
            for row in ChatMessage.objects.filter(author=player).order_by("pk")
        ],
        "vacations": [
            {
                "first_day": row.first_day,
                "last_day": row.last_day,
                "automatic": row.started_at_table_id is not None,
            }
            for row in player.vacations.order_by("pk")
        ],
        "automatic_vacation": player.auto_vacation,
        "practice": [
            {
                "review": row.review_id,
                "move": row.number,
                "played": row.played,
                "answer": row.answer,
                "at": row.answered_at,
            }
            for row in PracticePosition.objects.filter(player=player).order_by("pk")
        ],
        "api_tokens": [
            {"name": row.name, "scope": row.scope, "created_at": row.created_at, "expires_at": row.expires_at}
            for row in ApiToken.objects.filter(user=user)
        ]
        if user
        else [],
    }


def _matches(player: Player) -> list[dict[str, Any]]:
    rows = (
        Match.objects.filter(Q(table__seat0=player) | Q(table__seat1=player), status=Match.Status.OVER)
        .select_related("table__seat0", "table__seat1")
        .order_by("ended_at", "pk")
    )
    found = []
    for match in rows:
        seat = match.table.seat_of(player)
        assert seat is not None
        opponent = match.table.seats[1 - seat]
        export = payloads.match_export(match)
        export["deals"] = [deal for deal in export["deals"] if deal["outcome"]]  # as the API's export
        reviews = DealReview.objects.filter(
            deal__match=match, seat=seat, status=DealReview.Status.DONE
        ).select_related("deal")
        found.append(
            {
                "id": match.pk,
                "table": match.table.invite_token,
                "seat": seat,
                "opponent": opponent.name if opponent else None,
                "rated": match.table.rated,
                "outcome": match.outcome,
                "winner": match.winner,
                "final_scores": match.final_scores,
                "started_at": match.started_at,
                "ended_at": match.ended_at,
                "export": export,
                "reviews": [{"deal": review.deal.number, "review": review.result} for review in reviews],
            }
        )
    return found
