"""The inbox's writer: each line is written in the transaction of its event, by that event's
writer (a challenge and its answer, a rematch offer, a match's end, an automatic vacation, a
review done, staff's actions) or by the sweep that decides it (a slow turn's reminder, a
vacation ending soon). ``(player, kind, occasion)`` is unique, the occasion being the event's own
key, so an event retried or run twice at once keeps one line, and an event rolled back leaves
none. The live count on the user socket is announced only after commit
(tables.alerts.announcements).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.urls import reverse

import rules
from tables.accounts.models import Player
from tables.alerts import texts
from tables.alerts.announcements import announce_inbox_on_commit
from tables.alerts.models import InboxItem
from tables.play.models import Match, Table

# the kinds of alert that leave a line: what matters later, not every move or chat message
KINDS = frozenset(
    {
        "challenge",
        "challenge_accepted",
        "challenge_declined",
        "seek_taken",
        "rematch_offer",
        "match_over",
        "reminder",  # your turn, once the player's reminder time of a slow turn came
        "warning",  # staff warned the account (tables.social.services.outcomes)
        "report_handled",  # staff handled the account's report (tables.social.services.outcomes)
        "auto_vacation",  # a turn that would have timed out started a day of vacation
        "review_ready",  # a deal's review the account asked for is done (tables.reviews.services)
        "vacation_ending",  # the account's vacation ends within a day (tables.accounts.alerts)
        "tournament_match",  # a tournament's new round opened the account's match (tables.tournaments)
        "tournament_over",  # a tournament the account played ended: its place and the winner
        "tournament_cancelled",  # a tournament the account entered was called off before its start
        "game_over",  # a game at a table of three or four the account sat at ended (tables.variants)
    }
)


def keep(player: Player, kind: str, occasion: str, title: str, body: str, path: str) -> bool:
    """Write the line of this occasion unless it is there already; True if it was written."""
    if kind not in KINDS or player.is_bot:
        return False
    try:
        with transaction.atomic():  # a savepoint: a line there already leaves the event intact
            InboxItem.objects.create(
                player=player,
                kind=kind,
                occasion=occasion[:80],
                title=title[:200],
                body=body[:500],
                path=path[:300],
            )
    except IntegrityError:
        return False
    announce_inbox_on_commit(player.pk)
    return True


def tell(player: Player, kind: str, occasion: str, path: str, **context: object) -> bool:
    """The line of ``kind`` in the player's language, its values in ``context``."""
    title, body = texts.render(kind, player.language, **context)
    return keep(player, kind, occasion, title, body, path)


def opponent_name(table: Table, seat: int) -> str:
    opponent = table.seats[1 - seat]
    return opponent.name if opponent else "?"


def match_result(record: rules.Match, seat: int, language: str) -> str:
    """ "You won 104 to 37" for the player at ``seat`` (Hollywood: the three games' sums)."""
    verdict = "won" if record.winner == seat else "lost"
    totals = record.totals
    final = record.final_scores
    if record.games and final is not None:
        verdict, totals = f"{verdict}_games", (final[0].total, final[1].total)
    return texts.match_result(verdict, language, mine=totals[seat], theirs=totals[1 - seat])


def match_over(table: Table, match: Match, record: rules.Match) -> None:
    """Each seated person's line of the match's result, written where the match ends."""
    path = reverse("table", args=[table.invite_token])
    for seat, player in enumerate(table.seats):
        if player is not None and not player.is_bot:
            result = match_result(record, seat, player.language)
            tell(
                player,
                "match_over",
                f"match:{match.pk}",
                path,
                opponent=opponent_name(table, seat),
                result=result,
            )


def rematch_offer(table: Table, match: Match, offered_by: int) -> None:
    """The line of the player offered a rematch; a new offer after one lapsed is news again."""
    player = table.seats[1 - offered_by]
    offered = table.rematch_offered_at
    if player is None or offered is None:
        return
    occasion = f"rematch:{match.pk}:{int(offered.timestamp())}"
    path = reverse("table", args=[table.invite_token])
    tell(player, "rematch_offer", occasion, path, opponent=opponent_name(table, 1 - offered_by))
