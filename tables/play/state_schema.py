"""The table state's schema: what tables.play.payloads.table_state builds, field for field, as the
API declares it (/api/openapi.json). The deal part is the engine's ``DealView.to_dict()``.

django-ninja validates every answer through its schema and sends only the fields the schema
names, so each dict the payloads build is modelled whole here (tests/tables/play/test_api_schema.py
checks that nothing is dropped or changed). Times are ISO 8601 strings, as the payloads
write them; cards are text such as ``"7H"``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from ninja import Schema
from pydantic import Field

from rules.scoring import DealOutcome, Outcome

TableStatus = Literal["waiting", "ready", "playing", "between_deals", "match_over"]
Cards = list[str]


class RulesetOut(Schema):
    """A rules.Ruleset with every option (RULES.md)."""

    name: str
    knock_limit: int
    gin_bonus: int
    big_gin_bonus: int | None = Field(description="null: big gin is not played")
    undercut_bonus: int
    offer_round: bool
    next_dealer: Literal["alternate", "winner"]
    target: int | None = Field(description="null: the match is a single scored deal")
    game_bonus: int
    shutout_bonus: int
    per_deal_bonus: int
    knock_face_down: bool
    oklahoma: bool
    dead_stock: int
    hollywood: bool = Field(False, description="three games to the target scored at once")


class LayoffOut(Schema):
    card: str
    meld: Cards = Field(description="the knocker's meld the card went onto")


class ShowdownOut(Schema):
    """The end of a knocked deal: both hands shown, layoffs and the score."""

    outcome: Outcome
    winner: Literal["knocker", "defender"]
    points: int
    knocker_melds: list[Cards]
    knocker_deadwood: int
    knocker_deadwood_cards: Cards
    defender_melds: list[Cards]
    defender_deadwood_cards: Cards
    layoffs: list[LayoffOut]
    defender_deadwood: int


class DeadDealOut(Schema):
    """A deal that ran out of stock: both hands, nobody scores."""

    outcome: Literal["dead"]
    hands: list[Cards]


DealResult = Annotated[ShowdownOut | DeadDealOut, Field(discriminator="outcome")]


class EventOut(Schema):
    """A move (``kind`` an action) or the end of the deal (``deal_over``, ``dead_deal``)."""

    kind: str
    seat: int | None
    card: str | None = Field(description="a stock draw's card only to its drawer")
    result: DealResult | None


class DealViewOut(Schema):
    """The engine's ``Deal.view(seat)``: what the caller may know of the deal."""

    seat: int | None = Field(description="null: a spectator")
    ruleset: RulesetOut
    dealer: int
    phase: Literal["offer", "draw", "discard", "over"]
    to_play: int | None
    version: int = Field(description="actions applied in this deal")
    hand: Cards | None = Field(description="the caller's cards; null for a spectator")
    hand_counts: list[int]
    known_cards: list[Cards] = Field(description="by seat: taken from the pile and still held")
    upcard: str
    discard_pile: Cards = Field(description="bottom first")
    stock_count: int
    just_taken: str | None
    drawn: str | None
    must_draw_stock: bool
    history: list[EventOut]
    legal_actions: list[str]
    knock_limit: int
    multiplier: int
    result: DealResult | None
    knocker: int | None


class GroupingOut(Schema):
    """A hand grouped into its best melds."""

    melds: list[Cards]
    deadwood_cards: Cards
    deadwood: int
    values: dict[str, int] = Field(description="each deadwood card's points")


class BestDiscardOut(Schema):
    card: str
    deadwood: int


class CoachOut(GroupingOut):
    """The counting the table page shows its seat; with 11 cards, the deadwood each discard leaves."""

    best_discard: BestDiscardOut | None
    discards: dict[str, int]


class LogRowOut(Schema):
    """One move of the move log."""

    seat: int
    kind: str
    card: str | None = Field(
        description="null: a stock draw seen by anyone but its drawer, or a face-down knock"
    )
    face_down: bool = Field(description="a knock whose discard lies face down (the classic rules)")


class DealStateOut(Schema):
    number: int
    status: Literal["playing", "over", "abandoned"]
    deadline: str | None = Field(
        description="when the turn's clock, its player's time bank included (or the wait for the next deal), runs out"
    )
    seconds_left: int | None
    paused_left: int | None = Field(
        description="the turn's clock stopped (its player on vacation): the seconds it resumes with"
    )
    more_time_given: int = Field(description="times the opponent gave more time this turn")
    view: DealViewOut
    coach: CoachOut | None = Field(description="the caller's seat while the deal is played")
    dead_hands: list[GroupingOut] | None = Field(description="both hands, after a dead deal")
    log: list[LogRowOut] | None = Field(description="the deal's moves; null: the table hides its move log")
    history_from: int = Field(
        description="index in the deal's history of view.history's first event: 0, or without the "
        "move log the start of the moves since the caller's own last one"
    )


class ScoreRowOut(Schema):
    """One row of the score sheet."""

    dealer: int
    outcome: DealOutcome
    winner: int | None
    points: int
    knocker: int | None
    totals: list[int] = Field(description="running totals by seat after this deal")
    games: list[list[int]] = Field(
        default_factory=list, description="Hollywood: each game's totals by seat after this deal; else empty"
    )


class SeatScoreOut(Schema):
    deal_points: int
    game_bonus: int
    deal_bonus: int
    deals_won: int
    total: int


class GameOut(Schema):
    """One of Hollywood scoring's three games (rules.Game) and, once closed, its final scores."""

    number: int
    totals: list[int]
    deals_won: list[int] = Field(description="the won deals entered in this game, by seat")
    closed: bool
    winner: int | None = Field(description="the seat that reached the target in this game")
    final_scores: list[SeatScoreOut] | None = Field(description="by seat, once the game is closed")


class MatchStateOut(Schema):
    id: int = Field(description="the match's archive page, /matches/{id}/, opens once it is over")
    number: int
    status: Literal["playing", "over"]
    outcome: Literal["completed", "resigned", "forfeit"] | None
    winner: int | None
    totals: list[int]
    dealer_next: int | None
    score_sheet: list[ScoreRowOut]
    final_scores: list[SeatScoreOut] | None = Field(description="by seat, once the match is over")
    timeouts_in_row: list[int]
    banks: list[int] | None = Field(
        description="each seat's time bank in seconds; the bank of the seat to play is inside the "
        "deal's deadline (and paused_left), spent once its turn time is; null: the table has no bank"
    )
    games: list[GameOut] | None = Field(description="Hollywood scoring's three games; null otherwise")


class SeatOut(Schema):
    name: str
    is_bot: bool
    bot_level: Literal["tito", "carmen", "luna"] | None
    is_guest: bool
    is_bot_account: bool = Field(
        description="a bot account: a program playing through the API, shown with a BOT mark (docs/accounts.md)"
    )
    vacation_until: str | None = Field(description="while on vacation: when it ends")
    player_url: str | None = Field(description="the account's player page; null for guests and robots")


class YouOut(Schema):
    seat: int | None = Field(description="null: watching")
    is_owner: bool


class BankTermsOut(Schema):
    """A table's time bank, in seconds."""

    start: int = Field(description="each player's bank when a match starts")
    refill: int = Field(description="given back for each turn the player ends with a move")
    cap: int = Field(description="the most a bank holds")


class OptionsOut(Schema):
    ruleset: RulesetOut
    turn_seconds: int
    visibility: Literal["invite", "public"]
    spectator_chat: bool
    forfeit_after: int
    move_log: bool = Field(description="the table shows a move log (off: no looking back at the discards)")
    time_bank: BankTermsOut | None = Field(description="the time bank; null: none")
    rated: bool = Field(description="Glicko-2 rated: both seats are accounts")


class RematchOut(Schema):
    offered_by: int | None = Field(description="the seat whose offer stands")
    declined_by: int | None = Field(description="the seat that declined the last offer")
    expires_at: str | None = Field(description="when the standing offer lapses")


class TableStateOut(Schema):
    """Everything the caller may know about the table, at ``version``."""

    table: str = Field(description="the invite token")
    version: int
    status: TableStatus
    you: YouOut
    owner: str | None
    options: OptionsOut
    seats: list[SeatOut | None]
    match: MatchStateOut | None
    deal: DealStateOut | None
    rematch: RematchOut
