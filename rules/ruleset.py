"""Rule sets: every option of RULES.md's table as data, one frozen value per preset."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import InvalidRuleset

NextDealer = Literal["alternate", "winner"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int | None = None  # None: big gin is not played
    undercut_bonus: int = 25
    offer_round: bool = False  # classic/reino: take-or-pass the first upcard
    next_dealer: NextDealer = "alternate"  # after a scored deal
    target: int | None = None  # None: the match is a single scored deal
    game_bonus: int = 0  # to the match winner
    shutout_bonus: int = 0  # game bonus instead of game_bonus when the loser scored nothing
    per_deal_bonus: int = 0  # per deal won, to each player, at match end
    knock_face_down: bool = False  # presentation only: classic discards face down on a knock
    oklahoma: bool = False  # the first upcard sets the knock limit; a spade doubles the deal
    hollywood: bool = False  # three games to the target scored at once (rules/hollywood.py)
    dead_stock: int = 2  # a plain discard leaving this many stock cards or fewer kills the deal

    def __post_init__(self) -> None:
        problems = list(_problems(self))
        if problems:
            raise InvalidRuleset("; ".join(problems))

    @property
    def has_big_gin(self) -> bool:
        return self.big_gin_bonus is not None

    @property
    def single_deal(self) -> bool:
        return self.target is None

    def to_dict(self) -> dict[str, Any]:
        # Every option is a plain scalar, so a flat copy is the whole value: dataclasses.asdict
        # walks and deep-copies each field, a measurable share of a move (three calls a move).
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        if not isinstance(data, dict):
            raise InvalidRuleset("a rule set must be an object of options")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRuleset(f"unknown rule set option(s): {', '.join(unknown)}")
        if "name" not in data:
            raise InvalidRuleset("a rule set needs a name")
        return cls(**data)


_FIELD_NAMES = tuple(field.name for field in fields(Ruleset))


def _is_int(value: object) -> bool:
    return type(value) is int


def _problems(rs: Ruleset) -> list[str]:
    out = []
    if not isinstance(rs.name, str) or not rs.name:
        out.append("name must be a non-empty string")
    if not _is_int(rs.knock_limit) or not 0 <= rs.knock_limit <= 10:
        out.append(f"knock_limit must be an integer from 0 to 10, not {rs.knock_limit!r}")
    for option in ("gin_bonus", "undercut_bonus", "game_bonus", "shutout_bonus", "per_deal_bonus"):
        value = getattr(rs, option)
        if not _is_int(value) or not 0 <= value <= 1000:
            out.append(f"{option} must be an integer from 0 to 1000, not {value!r}")
    if rs.big_gin_bonus is not None and (not _is_int(rs.big_gin_bonus) or not 0 <= rs.big_gin_bonus <= 1000):
        out.append(f"big_gin_bonus must be null or an integer from 0 to 1000, not {rs.big_gin_bonus!r}")
    if rs.next_dealer not in ("alternate", "winner"):
        out.append(f"next_dealer must be 'alternate' or 'winner', not {rs.next_dealer!r}")
    if rs.target is not None and (not _is_int(rs.target) or not 1 <= rs.target <= 10000):
        out.append(f"target must be null (single deal) or an integer from 1 to 10000, not {rs.target!r}")
    for flag in ("offer_round", "knock_face_down", "oklahoma", "hollywood"):
        if type(getattr(rs, flag)) is not bool:
            out.append(f"{flag} must be true or false")
    if rs.hollywood is True and rs.target is None:
        out.append("hollywood scoring plays three games to a target: it needs a target, not a single deal")
    if not _is_int(rs.dead_stock) or not 0 <= rs.dead_stock <= 10:
        out.append(f"dead_stock must be an integer from 0 to 10, not {rs.dead_stock!r}")
    return out


RULESETS: dict[str, Ruleset] = {
    "playgridia": Ruleset(name="playgridia"),
    "classic": Ruleset(
        name="classic",
        gin_bonus=20,
        undercut_bonus=10,
        offer_round=True,
        next_dealer="winner",
        target=100,
        game_bonus=100,
        shutout_bonus=200,
        per_deal_bonus=20,
        knock_face_down=True,
    ),
    "reino": Ruleset(
        name="reino",
        big_gin_bonus=31,
        offer_round=True,
        next_dealer="winner",
        target=100,
        game_bonus=100,
        shutout_bonus=200,
        per_deal_bonus=25,
    ),
}
# Oklahoma gin, the best-known variant the classic rules name: classic scoring, but the first
# upcard sets the knock limit (an ace: gin only) and a spade upcard doubles the deal's score.
RULESETS["oklahoma"] = replace(RULESETS["classic"], name="oklahoma", oklahoma=True)
