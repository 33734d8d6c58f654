"""What alerts say, on gettext like every other string of the site: each text is rendered in
the player's ``language`` (Spanish unless the player chose English) with that language active
(``translation.override``), its translations in locale/<language>/LC_MESSAGES/django.po."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, ngettext

from tables.variants.models import Board, GameTable

LANGUAGES = ("es", "en")


def language(code: str | None) -> str:
    return code if code in LANGUAGES else "es"


def _titles_and_bodies() -> dict[str, tuple[str, str]]:
    """Each alert's title and body in the active language; %(name)s stands for a value."""
    return {
        "your_move": (
            gettext("Your move against %(opponent)s"),
            gettext("%(opponent)s has played: it is your turn."),
        ),
        # "your_move" at the first turn of a board's deal (a game of three or four): it opens.
        "deal_open": (
            gettext("Your deal against %(opponent)s is open"),
            gettext("The cards are dealt and the first move is yours."),
        ),
        "reminder": (
            gettext("%(left)s left to move against %(opponent)s"),
            "%(then)s",  # reminder_then
        ),
        "chat": (gettext("Message from %(opponent)s"), "%(text)s"),
        "rematch_offer": (
            gettext("%(opponent)s offers a rematch"),
            gettext("Accept or decline at the table."),
        ),
        "challenge": (
            gettext("%(opponent)s challenges you to a match"),
            gettext("%(rules)s. Accept or decline before %(lapses)s."),
        ),
        "challenge_accepted": (
            gettext("%(opponent)s accepted your challenge"),
            gettext("The match has started."),
        ),
        "seek_taken": (gettext("%(opponent)s took your seek"), gettext("The match has started.")),
        "challenge_declined": (
            gettext("%(opponent)s declined your challenge"),
            gettext("You can challenge someone else or post a seek."),
        ),
        "match_over": (gettext("Match over against %(opponent)s"), "%(result)s"),
        "warning": (
            gettext("A warning from staff"),
            gettext(
                "Staff warn you about: %(reason)s. Keep to the site's rules: a chat mute or a "
                "suspension of the account may follow."
            ),
        ),
        "report_handled": (
            gettext("Your report about %(name)s was handled"),
            gettext("Staff looked at it and acted. Thank you for telling us."),
        ),
        "auto_vacation": (
            gettext("Automatic vacation: your clock against %(opponent)s ran out"),
            gettext("A vacation day began instead: your slow clocks stop until the end of today."),
        ),
        "review_ready": (
            gettext("LUNA's review of deal %(deal)s is ready"),
            gettext("Every decision is marked in the deal's replay."),
        ),
        "vacation_ending": (
            gettext("Your vacation ends soon"),
            gettext("Its last day is %(day)s: then your slow clocks run again."),
        ),
        "tournament_match": (
            gettext("%(name)s: your match against %(opponent)s has started"),
            gettext("A new round of the tournament is on. Play it at its table."),
        ),
        "tournament_over": (
            gettext("%(name)s is over"),
            gettext("You finished in place %(place)s. The winner is %(winner)s."),
        ),
        "tournament_cancelled": (
            gettext("%(name)s was cancelled"),
            gettext("The tournament was called off before it started."),
        ),
        "game_over": (gettext("Game over at %(owner)s's table"), "%(result)s"),
    }


def render(kind: str, lang: str, **context: object) -> tuple[str, str]:
    """(title, body) of a ``kind`` alert in ``lang``."""
    with translation.override(language(lang)):
        title, body = _titles_and_bodies()[kind]
    return title % context, body % context


def board_place(board: Board, lang: str) -> str:
    """The game and the deal a board plays: "table of four, round 2, deal 1" (the round's two
    deals are its boards 0 and 1), or "table of three, deal 5" (winner stays counts its deals as
    rounds)."""
    with translation.override(language(lang)):
        if board.game.variant == GameTable.Variant.PARTNERSHIP:
            text = gettext("table of four, round %(round)s, deal %(deal)s")
            return text % {"round": board.round, "deal": board.number + 1}
        return gettext("table of three, deal %(deal)s") % {"deal": board.round}


def at_board(title: str, board: Board, lang: str) -> str:
    """An alert's ``title`` about a board's table: "Your move against Bob · table of four, round
    2, deal 1"."""
    return f"{title} · {board_place(board, lang)}"


def match_result(verdict: str, lang: str, mine: int, theirs: int) -> str:
    """The score line of a finished match: ``verdict`` won, lost, won_games or lost_games (Hollywood)."""
    with translation.override(language(lang)):
        results = {
            "won": gettext("You won %(mine)s–%(theirs)s."),
            "lost": gettext("You lost %(mine)s–%(theirs)s."),
            "won_games": gettext("You won %(mine)s–%(theirs)s over three games."),
            "lost_games": gettext("You lost %(mine)s–%(theirs)s over three games."),
        }
    return results[verdict] % {"mine": mine, "theirs": theirs}


def game_result(verdict: str, lang: str, **numbers: object) -> str:
    """A player's result at a table of three or four (tables.variants): ``verdict`` won_three,
    lost_three, won_four or lost_four."""
    with translation.override(language(lang)):
        results = {
            "won_three": gettext("You won the table of three with %(mine)s points."),
            "lost_three": gettext("%(winner)s won the table of three; you scored %(mine)s."),
            "won_four": gettext("Your team won the table of four %(mine)s–%(theirs)s."),
            "lost_four": gettext("Your team lost the table of four %(mine)s–%(theirs)s."),
        }
    return results[verdict] % numbers


def digest_subject(tables: int, lang: str) -> str:
    """The daily digest's subject: how many tables await the player."""
    with translation.override(language(lang)):
        text = ngettext("It is your move at %(count)s table", "It is your move at %(count)s tables", tables)
    return text % {"count": tables}


def turn_clock(seconds: int, lang: str) -> str:
    """A table's turn clock, as a challenge names it: "1 d per turn", "45 s per turn"."""
    units = ((86400, "%(count)s d"), (3600, "%(count)s h"), (60, "%(count)s min"), (1, "%(count)s s"))
    size, unit = next(((size, unit) for size, unit in units if seconds >= size), units[-1])
    with translation.override(language(lang)):
        clock = gettext(unit) % {"count": seconds // size}
        return gettext("%(clock)s per turn") % {"clock": clock}


def duration(seconds: float, lang: str) -> str:
    """A clock's time left, rounded to its largest unit: "2 d", "5 h", "12 min"."""
    seconds = max(0, int(seconds))
    with translation.override(language(lang)):
        if seconds >= 86400:
            return gettext("%(count)s d") % {"count": round(seconds / 86400)}
        if seconds >= 3600:
            return gettext("%(count)s h") % {"count": round(seconds / 3600)}
        return gettext("%(count)s min") % {"count": max(1, round(seconds / 60))}


def reminder_then(lang: str, vacation_day: bool) -> str:
    """What a reminder says happens at the deadline: a day of automatic vacation starts for an
    opted-in account with days left (tables.accounts.selectors.vacation_day_instead), else the
    server plays."""
    with translation.override(language(lang)):
        if vacation_day:
            return gettext(
                "If you do not move, a day of your vacation starts instead (automatic vacation):"
                " your slow clocks stop until the end of that day."
            )
        return gettext("If you do not move, the server plays for you.")
