"""One deal of Gin Rummy as an immutable state machine.

``Deal.new(ruleset, dealer, deck)`` deals the cards; ``deal.apply(action)`` returns the next
state and the events the move produced, leaving ``deal`` unchanged. A deal is fully defined by
its rule set, dealer, deck and actions, which is what `Deal.to_json` stores and `replay` reads.

Hands are 52-bit masks of card indexes and the discard pile a tuple of indexes, so that a move
costs a few tuple operations: bots play thousands of deals per decision. Melding is computed
only to check a knock or big gin, and in `legal_actions` behind a cheap lower bound.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .cards import CARDS, Card, check_deck, new_deck
from .errors import IllegalMove, InvalidDeck, InvalidRuleset, InvalidState, RulesError
from .melding import best_discard_mask, min_deadwood_mask, points_mask
from .moves import (
    BIG_GIN,
    DEAD_DEAL,
    DEAL_OVER,
    DISCARD,
    DISCARDS,
    DRAW_STOCK,
    KNOCK,
    KNOCKS,
    MOVE_EVENTS,
    PASS,
    TAKE_DISCARD,
    TAKE_UPCARD,
    Action,
    DeadDeal,
    Event,
)
from .ruleset import RULESETS, Ruleset
from .scoring import deal_terms
from .showdown import Showdown, showdown
from .view import DealView, card_or_none, cards_of

FORMAT = 1  # version of the to_json/to_dict layout

OFFER = "offer"
DRAW = "draw"
DISCARD_STEP = "discard"
OVER = "over"

HAND_SIZE = 10
UPCARD_POSITION = 2 * HAND_SIZE  # the 21st card of the deck starts the discard pile
NO_CARD = -1
NO_SEAT = -1
# Deal's own constructors pass this to __init__ for an empty state to fill; anyone else is refused.
# (Not object.__new__(Deal): compiled with mypyc, Deal is a native class, which refuses it.)
_BLANK = object()

Result = Showdown | DeadDeal
Events = tuple[Event, ...]

_OFFER_ACTIONS = (Action.take_upcard(), Action.pass_())
_DRAW_ACTIONS = (Action.draw_stock(), Action.take_discard())
_STOCK_ONLY = (Action.draw_stock(),)

# Bit tricks for a cheap lower bound of a hand's deadwood (see _deadwood_floor).
_SUIT = 0x1FFF
_RUN_STARTS = sum(0x7FF << (13 * suit) for suit in range(4))  # ace..jack can start a 3-card run
_RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _meldable(hand: int) -> int:
    """The cards of ``hand`` that belong to at least one possible run or set."""
    starts = hand & (hand >> 1) & (hand >> 2) & _RUN_STARTS
    runs = starts | (starts << 1) | (starts << 2)
    spades, hearts, diamonds, clubs = hand & _SUIT, (hand >> 13) & _SUIT, (hand >> 26) & _SUIT, hand >> 39
    three_suits = (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)
    return runs | (hand & (three_suits * _RANK_SPREAD))


def _deadwood_floor(hand: int) -> int:
    """Points of the cards no meld can absorb: never more than the hand's least deadwood."""
    return points_mask(hand & ~_meldable(hand))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_DISCARD_ROWS: dict[int, tuple[Action, ...]] = {}  # (suit offset | pattern) -> its discards, built lazily


def _discards(playable: int) -> tuple[Action, ...]:
    """The discard actions of a hand mask, a suit at a time (cheaper than a bit at a time)."""
    actions: tuple[Action, ...] = ()
    for offset in (0, 13, 26, 39):
        key = offset << 13 | (playable >> offset) & _SUIT
        row = _DISCARD_ROWS.get(key)
        if row is None:
            row = _DISCARD_ROWS[key] = tuple(DISCARDS[offset + rank] for rank in _bits(key & _SUIT))
        actions += row
    return actions


def _with_seat(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def as_ruleset(ruleset: Ruleset | str) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset
    if isinstance(ruleset, str) and ruleset in RULESETS:
        return RULESETS[ruleset]
    raise InvalidRuleset(f"unknown rule set {ruleset!r}; expected a Ruleset or one of {', '.join(RULESETS)}")


def _as_deck(deck: Sequence[Card | str]) -> tuple[int, ...]:
    try:
        return tuple(card.index for card in check_deck(deck))
    except InvalidDeck:
        raise
    except (RulesError, TypeError) as error:
        raise InvalidDeck(f"a deck must be 52 distinct cards: {error}") from None


def check_seat(seat: object, what: str) -> int:
    if type(seat) is not int or seat not in (0, 1):
        raise InvalidState(f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def check_format(data: object, what: str, expected: int) -> dict[str, Any]:
    """``data`` as a stored object of ``what`` in format ``expected``, or InvalidState."""
    if not isinstance(data, dict):
        raise InvalidState(f"a {what} must be a JSON object")
    if data.get("format") != expected:
        raise InvalidState(f"unsupported {what} format {data.get('format')!r}, expected {expected}")
    return data


# A deal's state, which `Deal.__reduce__` pickles
_SLOTS = (
    "_actions",
    "_dealer",
    "_deck",
    "_hands",
    "_knocker",
    "_known",
    "_legal",
    "_limit",
    "_multiplier",
    "_phase",
    "_pile",
    "_result",
    "_ruleset",
    "_stock_only",
    "_stock_pos",
    "_taken",
    "_to_play",
)


class Deal:
    """An immutable deal state. Read it through the properties; `apply` returns a new one."""

    __slots__ = _SLOTS

    _ruleset: Ruleset
    _dealer: int
    _deck: tuple[int, ...]  # card indexes, top first
    _hands: tuple[int, int]  # masks, by seat
    _stock_pos: int  # the stock is _deck[_stock_pos:]
    _pile: tuple[int, ...]  # the discard pile, top last
    _phase: str
    _to_play: int  # NO_SEAT once over
    _taken: int  # card just taken from the pile this turn, or NO_CARD
    _stock_only: bool  # both passed the upcard: only draw_stock is legal
    _known: tuple[int, int]  # by seat: cards taken from the pile and still held (public)
    _actions: tuple[Action, ...]
    _result: Result | None
    _knocker: int  # NO_SEAT unless over by a knock or big gin
    _limit: int
    _multiplier: int
    _legal: tuple[Action, ...] | None  # cache of legal_actions()

    def __init__(self, blank: object = None) -> None:
        if blank is not _BLANK:
            raise TypeError("build a deal with Deal.new(ruleset, dealer, deck), Deal.from_json or replay")

    def __reduce__(self) -> tuple[Callable[..., Deal], tuple[object, ...]]:
        """Pickled and copied as its slots' values, rebuilt through `_restore`: the default way
        (object.__new__, then the slots) is refused by the compiled Deal."""
        return _restore, tuple(getattr(self, name) for name in _SLOTS)

    @classmethod
    def new(cls, ruleset: Ruleset | str, dealer: object, deck: Sequence[Card | str] | None = None) -> Deal:
        """Deal ``deck`` (52 cards, top first; a fresh shuffle if None): ten each, alternately,
        starting with the non-dealer; the 21st card is the upcard; the rest is the stock.
        ``dealer`` is an object because it is checked here (compiled, an int parameter would refuse
        a str with a TypeError and take True as 1)."""
        rules = as_ruleset(ruleset)
        dealer_seat = check_seat(dealer, "the dealer")
        order = _as_deck(new_deck() if deck is None else deck)
        first = 1 - dealer_seat
        hands = [0, 0]
        for position in range(UPCARD_POSITION):
            hands[first if position % 2 == 0 else dealer_seat] |= 1 << order[position]
        deal = cls(_BLANK)
        deal._ruleset = rules
        deal._dealer = dealer_seat
        deal._deck = order
        deal._hands = (hands[0], hands[1])
        deal._stock_pos = UPCARD_POSITION + 1
        deal._pile = (order[UPCARD_POSITION],)
        deal._phase = OFFER if rules.offer_round else DRAW
        deal._to_play = first
        deal._taken = NO_CARD
        deal._stock_only = False
        deal._known = (0, 0)
        deal._actions = ()
        deal._result = None
        deal._knocker = NO_SEAT
        deal._limit, deal._multiplier = deal_terms(rules, CARDS[order[UPCARD_POSITION]])
        deal._legal = None
        return deal

    # -- reading the state -------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase(self) -> str:
        """The step of the deal: "offer", "draw", "discard" or "over"."""
        return self._phase

    @property
    def to_play(self) -> int | None:
        """The seat to move; None once the deal is over."""
        return None if self._to_play == NO_SEAT else self._to_play

    @property
    def version(self) -> int:
        """Number of actions applied."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        return self._actions

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck as dealt, top first. Secret while the deal is played: never show it to a player."""
        return tuple(CARDS[index] for index in self._deck)

    @property
    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return cards_of(self._hands[0]), cards_of(self._hands[1])

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def upcard(self) -> Card:
        """The first upcard, the 21st card dealt."""
        return CARDS[self._deck[UPCARD_POSITION]]

    @property
    def stock_count(self) -> int:
        return len(self._deck) - self._stock_pos

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Bottom first, top last."""
        return tuple(CARDS[index] for index in self._pile)

    @property
    def top_discard(self) -> Card | None:
        return CARDS[self._pile[-1]] if self._pile else None

    @property
    def just_taken(self) -> Card | None:
        """The card the player to move took from the pile this turn (they may not discard it)."""
        return card_or_none(self._taken)

    @property
    def must_draw_stock(self) -> bool:
        """Both players passed the upcard: the non-dealer must draw from the stock."""
        return self._stock_only

    @property
    def knock_limit(self) -> int:
        return self._limit

    @property
    def multiplier(self) -> int:
        """Factor of this deal's score (2 for an Oklahoma spade upcard)."""
        return self._multiplier

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def result(self) -> Result | None:
        """None until the deal is over; then the Showdown, or a DeadDeal."""
        return self._result

    @property
    def knocker(self) -> int | None:
        """The seat that knocked (or declared big gin), once the deal is over by it."""
        return None if self._knocker == NO_SEAT else self._knocker

    @property
    def outcome(self) -> str | None:
        """How the deal ended: "knock", "gin", "big_gin", "undercut" or "dead" (None until then)."""
        return None if self._result is None else self._result.outcome

    @property
    def winner(self) -> int | None:
        """The seat that scores this deal; None while it goes on or if it died."""
        if isinstance(self._result, Showdown):
            return self.seat_of(self._result.winner)
        return None

    @property
    def points(self) -> int:
        """What the winner scores (0 while the deal goes on or if it died)."""
        return 0 if self._result is None else self._result.points

    def score_for(self, seat: int) -> int:
        return self.points if seat == self.winner else 0

    def seat_of(self, role: str) -> int:
        """The seat of a showdown role, "knocker" or "defender"."""
        if self._knocker == NO_SEAT:
            raise InvalidState("nobody knocked in this deal")
        if role not in ("knocker", "defender"):
            raise InvalidState(f"role must be 'knocker' or 'defender', not {role!r}")
        return self._knocker if role == "knocker" else 1 - self._knocker

    # -- moves ------------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the player to move (none once over)."""
        if self._legal is None:
            self._legal = self._find_legal()  # a cache: invisible to the state
        return self._legal

    def is_legal(self, action: Action | str, seat: int | None = None) -> bool:
        try:
            return self._problem(_as_action(action), seat) is None
        except IllegalMove:
            return False

    def why_illegal(self, action: Action | str, seat: int | None = None) -> str | None:
        """The reason ``action`` is refused, or None if it is legal."""
        try:
            return self._problem(_as_action(action), seat)
        except IllegalMove as error:
            return str(error)

    def apply(self, action: Action | str, seat: int | None = None) -> tuple[Deal, Events]:
        """Play ``action`` (by ``seat`` if given): the new state and the events it produced.

        Raises IllegalMove saying why when the rules refuse it; ``self`` never changes."""
        action = _as_action(action)
        problem = self._problem(action, seat)
        if problem is not None:
            raise IllegalMove(problem)
        return _TRANSITIONS[action.kind](self, action)

    def timeout_action(self) -> Action:
        """What the server plays for a player whose clock ran out: pass, draw from the stock, or
        the plain discard leaving least deadwood (never the card just taken). Never a knock."""
        if self._phase == OVER:
            raise IllegalMove("the deal is over")
        if self._phase == OFFER:
            return Action.pass_()
        if self._phase == DRAW:
            return Action.draw_stock()
        index, _ = best_discard_mask(self._hands[self._to_play], self._taken)
        return DISCARDS[index]

    # -- views and history ------------------------------------------------------------------

    def history(self) -> Iterator[Event]:
        """The move events of every action so far, stock draws showing their card."""
        seat = 1 - self._dealer
        stock_pos = UPCARD_POSITION + 1
        top = self._deck[UPCARD_POSITION]  # a take always takes the card discarded just before
        for action in self._actions:
            kind = action.kind
            card = action.index
            if kind == DRAW_STOCK:
                card = self._deck[stock_pos]
                stock_pos += 1
            elif kind in (TAKE_UPCARD, TAKE_DISCARD):
                card = top
            elif kind in (DISCARD, KNOCK):
                top = card
            yield MOVE_EVENTS[kind, seat, card][0]
            if kind in (DISCARD, PASS):
                seat = 1 - seat

    def view(self, seat: int | None) -> DealView:
        """What ``seat`` may know (None: a spectator). Never the stock or the deck."""
        if seat is not None:
            check_seat(seat, "a view's seat")
        history = tuple(event.for_seat(seat) for event in self.history())
        mine = seat is not None and seat == self._to_play
        just_drew = mine and self._phase == DISCARD_STEP and self._actions[-1].kind == DRAW_STOCK
        return DealView(
            seat=seat,
            ruleset=self._ruleset,
            dealer=self._dealer,
            phase=self._phase,
            to_play=self.to_play,
            version=self.version,
            hand=None if seat is None else self.hand(seat),
            hand_counts=(self._hands[0].bit_count(), self._hands[1].bit_count()),
            known_cards=(cards_of(self._known[0]), cards_of(self._known[1])),
            upcard=self.upcard,
            discard_pile=self.discard_pile,
            stock_count=self.stock_count,
            just_taken=self.just_taken,
            drawn=CARDS[self._deck[self._stock_pos - 1]] if just_drew else None,
            must_draw_stock=self._stock_only,
            history=history,
            legal_actions=self.legal_actions() if mine else (),
            knock_limit=self._limit,
            multiplier=self._multiplier,
            result=self._result,
            knocker=self.knocker,
        )

    # -- serialization ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "ruleset": self._ruleset.to_dict(),
            "dealer": self._dealer,
            "deck": [str(CARDS[index]) for index in self._deck],
            "actions": [str(action) for action in self._actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object) -> Deal:
        """Read `to_dict`'s form back; InvalidState names what is wrong with it."""
        data = check_format(data, "deal", FORMAT)
        missing = [key for key in ("ruleset", "dealer", "deck", "actions") if key not in data]
        if missing:
            raise InvalidState(f"a deal needs {', '.join(missing)}")
        try:
            ruleset = Ruleset.from_dict(data["ruleset"])
        except (RulesError, TypeError) as error:
            raise InvalidState(f"ruleset: {error}") from None
        dealer = check_seat(data["dealer"], "dealer")
        deck, actions = data["deck"], data["actions"]
        if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
            raise InvalidState("deck must be a list of card strings")
        if not isinstance(actions, list) or not all(isinstance(action, str) for action in actions):
            raise InvalidState("actions must be a list of action strings")
        try:
            return replay(ruleset, dealer, deck, actions)
        except InvalidDeck as error:
            raise InvalidState(f"deck: {error}") from None
        except IllegalMove as error:
            raise InvalidState(f"actions: {error}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Deal:
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise InvalidState(f"a deal must be JSON: {error}") from None
        return cls.from_dict(data)

    # -- identity ---------------------------------------------------------------------------

    def _key(self) -> tuple[Ruleset, int, tuple[int, ...], tuple[Action, ...]]:
        return self._ruleset, self._dealer, self._deck, self._actions

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"<Deal {self._ruleset.name} dealer={self._dealer} version={self.version} "
            f"phase={self._phase} to_play={self.to_play}>"
        )

    # -- legality ---------------------------------------------------------------------------

    def _find_legal(self) -> tuple[Action, ...]:
        if self._phase == OFFER:
            return _OFFER_ACTIONS
        if self._phase == DRAW:
            return _STOCK_ONLY if self._stock_only else _DRAW_ACTIONS
        if self._phase == OVER:
            return ()
        hand = self._hands[self._to_play]
        playable = hand if self._taken == NO_CARD else hand & ~(1 << self._taken)
        moves = _discards(playable) + self._knocks(hand, playable)
        if self._can_big_gin(hand):
            moves += (Action.big_gin(),)
        return moves

    def _can_big_gin(self, hand: int) -> bool:
        return (
            self._ruleset.big_gin_bonus is not None
            and hand == _meldable(hand)
            and not min_deadwood_mask(hand)
        )

    def _knocks(self, hand: int, playable: int) -> tuple[Action, ...]:
        limit = self._limit
        if _deadwood_floor(hand) - 10 > limit:  # one discard removes at most 10 points of it
            return ()
        rests = ((index, hand & ~(1 << index)) for index in _bits(playable))
        return tuple(
            KNOCKS[index]
            for index, rest in rests
            if _deadwood_floor(rest) <= limit and min_deadwood_mask(rest) <= limit
        )

    def _problem(self, action: Action, seat: int | None) -> str | None:
        """Why ``action`` is illegal now, or None."""
        if self._phase == OVER:
            return "the deal is over"
        if seat is not None and seat != self._to_play:
            return "not your turn"
        return _CHECKS[action.kind](self, action)

    def _offer_problem(self, action: Action) -> str | None:
        if self._phase == OFFER:
            return None
        if not self._ruleset.offer_round:
            return f"{action.kind} belongs to the offer round, which this rule set does not play"
        return "the offer round is over"

    def _draw_problem(self, action: Action) -> str | None:
        if self._phase == OFFER:
            return "it is not the draw step: the upcard is on offer, take_upcard or pass"
        if self._phase != DRAW:
            return "it is not the draw step: you have drawn, now discard"
        if action.kind == TAKE_DISCARD and self._stock_only:
            return "both players passed the upcard: the non-dealer must draw from the stock"
        return None

    def _discard_problem(self, action: Action) -> str | None:
        if self._phase != DISCARD_STEP:
            return "it is not the discard step: draw first"
        if not (self._hands[self._to_play] >> action.index) & 1:
            return f"{action.card} is not in your hand"
        if action.index == self._taken:
            verb = "discard" if action.kind == DISCARD else "knock with"
            return f"you cannot {verb} the card you just took from the discard pile"
        if action.kind == KNOCK:
            deadwood = min_deadwood_mask(self._hands[self._to_play] & ~(1 << action.index))
            if deadwood > self._limit:
                return f"knocking with {action.card} leaves {deadwood} deadwood, the limit is {self._limit}"
        return None

    def _big_gin_problem(self, action: Action) -> str | None:
        if self._ruleset.big_gin_bonus is None:
            return "this rule set does not play big gin"
        if self._phase != DISCARD_STEP:
            return "big gin is declared right after drawing"
        deadwood = min_deadwood_mask(self._hands[self._to_play])
        if deadwood:
            return f"big gin needs all 11 cards melded; your best melding leaves {deadwood} deadwood"
        return None

    # -- transitions ------------------------------------------------------------------------

    def _successor(self, action: Action) -> Deal:
        """A copy with ``action`` logged, for a transition to adjust before anyone sees it."""
        new = Deal(_BLANK)
        new._ruleset = self._ruleset
        new._dealer = self._dealer
        new._deck = self._deck
        new._hands = self._hands
        new._stock_pos = self._stock_pos
        new._pile = self._pile
        new._phase = self._phase
        new._to_play = self._to_play
        new._taken = NO_CARD
        new._stock_only = self._stock_only
        new._known = self._known
        new._actions = (*self._actions, action)
        new._result = None
        new._knocker = NO_SEAT
        new._limit = self._limit
        new._multiplier = self._multiplier
        new._legal = None
        return new

    def _take_upcard(self, action: Action) -> tuple[Deal, Events]:
        new = self._take_top(action)
        return new, MOVE_EVENTS[TAKE_UPCARD, self._to_play, new._taken]

    def _take_discard(self, action: Action) -> tuple[Deal, Events]:
        new = self._take_top(action)
        return new, MOVE_EVENTS[TAKE_DISCARD, self._to_play, new._taken]

    def _take_top(self, action: Action) -> Deal:
        seat, card = self._to_play, self._pile[-1]
        new = self._successor(action)
        new._hands = _with_seat(self._hands, seat, self._hands[seat] | 1 << card)
        new._known = _with_seat(self._known, seat, self._known[seat] | 1 << card)
        new._pile = self._pile[:-1]
        new._taken = card
        new._phase = DISCARD_STEP
        return new

    def _pass(self, action: Action) -> tuple[Deal, Events]:
        new = self._successor(action)
        if self._to_play == self._dealer:  # both passed: the non-dealer draws from the stock
            new._phase = DRAW
            new._stock_only = True
        new._to_play = 1 - self._to_play
        return new, MOVE_EVENTS[PASS, self._to_play, NO_CARD]

    def _draw_stock(self, action: Action) -> tuple[Deal, Events]:
        seat, card = self._to_play, self._deck[self._stock_pos]
        new = self._successor(action)
        new._hands = _with_seat(self._hands, seat, self._hands[seat] | 1 << card)
        new._stock_pos = self._stock_pos + 1
        new._stock_only = False
        new._phase = DISCARD_STEP
        return new, MOVE_EVENTS[DRAW_STOCK, seat, card]

    def _lay_down(self, action: Action) -> Deal:
        """The successor with the action's card moved from the hand onto the pile."""
        seat, card = self._to_play, action.index
        new = self._successor(action)
        new._hands = _with_seat(self._hands, seat, self._hands[seat] & ~(1 << card))
        new._known = _with_seat(self._known, seat, self._known[seat] & ~(1 << card))
        new._pile = (*self._pile, card)
        return new

    def _discard(self, action: Action) -> tuple[Deal, Events]:
        seat = self._to_play
        new = self._lay_down(action)
        moved = MOVE_EVENTS[DISCARD, seat, action.index]
        if new.stock_count <= self._ruleset.dead_stock:
            dead = DeadDeal(new.hands)
            new._end(dead, NO_SEAT)
            return new, (*moved, Event(DEAD_DEAL, None, result=dead))
        new._phase = DRAW
        new._to_play = 1 - seat
        return new, moved

    def _knock(self, action: Action) -> tuple[Deal, Events]:
        new = self._lay_down(action)
        return new._show_down(self._to_play, MOVE_EVENTS[KNOCK, self._to_play, action.index])

    def _big_gin(self, action: Action) -> tuple[Deal, Events]:
        new = self._successor(action)
        return new._show_down(self._to_play, MOVE_EVENTS[BIG_GIN, self._to_play, NO_CARD])

    def _show_down(self, knocker: int, moved: Events) -> tuple[Deal, Events]:
        result = showdown(
            self._ruleset,
            self.hand(knocker),
            self.hand(1 - knocker),
            knock_limit=self._limit,
            multiplier=self._multiplier,
        )
        self._end(result, knocker)
        return self, (*moved, Event(DEAL_OVER, self.winner, result=result))

    def _end(self, result: Result, knocker: int) -> None:
        self._result = result
        self._knocker = knocker
        self._phase = OVER
        self._to_play = NO_SEAT


_CHECKS = {
    TAKE_UPCARD: Deal._offer_problem,
    PASS: Deal._offer_problem,
    DRAW_STOCK: Deal._draw_problem,
    TAKE_DISCARD: Deal._draw_problem,
    DISCARD: Deal._discard_problem,
    KNOCK: Deal._discard_problem,
    BIG_GIN: Deal._big_gin_problem,
}
_TRANSITIONS = {
    TAKE_UPCARD: Deal._take_upcard,
    PASS: Deal._pass,
    DRAW_STOCK: Deal._draw_stock,
    TAKE_DISCARD: Deal._take_discard,
    DISCARD: Deal._discard,
    KNOCK: Deal._knock,
    BIG_GIN: Deal._big_gin,
}


def _as_action(action: Action | str) -> Action:
    return action if isinstance(action, Action) else Action.parse(action)


def replay(
    ruleset: Ruleset | str,
    dealer: int,
    deck: Sequence[Card | str],
    actions: Iterable[Action | str],
) -> Deal:
    """Rebuild a deal from its deck and move log; IllegalMove names the first refused action."""
    deal = Deal.new(ruleset, dealer, deck)
    for number, action in enumerate(actions, 1):
        try:
            deal, _ = deal.apply(action)
        except IllegalMove as error:
            raise IllegalMove(f"action {number} ({action}): {error}") from None
    return deal


def timeout_action(deal: Deal) -> Action:
    """The action the server plays when the clock runs out (see `Deal.timeout_action`)."""
    return deal.timeout_action()


def _restore(*values: object) -> Deal:
    """The deal `Deal.__reduce__` took apart."""
    deal = Deal(_BLANK)
    for name, value in zip(_SLOTS, values, strict=True):
        setattr(deal, name, value)
    return deal
