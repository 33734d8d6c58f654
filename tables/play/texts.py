"""What the pages call the engine's moves and a deal's outcomes, in the active language.

Keyed by the engine's own names (rules.ACTION_KINDS, rules.ALL_OUTCOMES): the server renders
them into the page (json_script "rule-names", read by static/js/texts.js for the move log, the
end-of-deal box and LUNA's review), so the page's script keeps no list of moves or outcomes of
its own and a new kind is named here once. ``%(card)s`` stands for the move's card.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules import moves, scoring


def outcome_labels() -> dict[str, str]:
    """A deal's outcome as a noun: "knock", "gin", "dead deal"."""
    return {
        scoring.KNOCK: gettext("knock"),
        scoring.GIN: gettext("gin"),
        scoring.BIG_GIN: gettext("big gin"),
        scoring.UNDERCUT: gettext("undercut"),
        scoring.DEAD: gettext("dead deal"),
    }


def move_labels() -> dict[str, dict[str, str]]:
    """Per move kind: ``done``, what a player did ("discarded %(card)s", the table's log, after
    the player's name); ``unseen``, the same when its card is hidden from the reader (a stock
    draw); ``verb``, the move as a choice ("discard %(card)s", the review's move list)."""
    labels = {
        moves.TAKE_UPCARD: (gettext("took the upcard %(card)s"), gettext("take the upcard")),
        moves.PASS: (gettext("passed"), gettext("pass the upcard")),
        moves.DRAW_STOCK: (gettext("drew %(card)s from the stock"), gettext("draw from the stock")),
        moves.TAKE_DISCARD: (gettext("took %(card)s from the pile"), gettext("take the discard")),
        moves.DISCARD: (gettext("discarded %(card)s"), gettext("discard %(card)s")),
        moves.KNOCK: (gettext("knocked, discarding %(card)s"), gettext("knock with %(card)s")),
        moves.BIG_GIN: (gettext("declared big gin"), gettext("declare big gin")),
    }
    unseen = {moves.DRAW_STOCK: gettext("drew from the stock")}
    return {
        kind: {"done": done, "unseen": unseen.get(kind, done), "verb": verb}
        for kind, (done, verb) in labels.items()
    }


def for_page() -> dict[str, Any]:
    """The names a page's script needs (json_script "rule-names")."""
    return {"moves": move_labels(), "outcomes": outcome_labels()}
