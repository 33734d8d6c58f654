"""How well a guessed opponent hand explains the opponent's past turns.

A hand guessed from the cards alone ignores what the opponent did with it: most players throw
the card that leaves them the least deadwood, knock as soon as they can, and take a face-up
card that completes a meld. Walking back from a guessed hand through the opponent's turns
(adding back each discard, taking out each card it drew) gives the hand it held at each turn,
and each turn that such a player would not have played from that hand makes the guess less
likely. Which hidden card arrived with a stock draw is unknown; any of them is as likely as the
others (the deal is shuffled), so one is picked at random.

Built from a `DealView` alone: the turns are the public history; no hidden card is read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.moves import DISCARD, DRAW_STOCK, KNOCK, PASS, TAKE_DISCARD, TAKE_UPCARD
from rules.view import DealView

from .handeval import bits, makes_meld
from .knowledge import replayed_backwards
from .playout import arranged, policy_discard


@dataclass(frozen=True, slots=True)
class OpponentTurn:
    """One of the opponent's turns: what it threw and what it drew, or a pass."""

    discard: int  # the card thrown, -1 for a pass in the offer round
    taken: int  # the face-up card taken, -1 for a stock draw or a pass
    declined: int  # the face-up card left on the pile, -1 when none was showing


@dataclass(frozen=True, slots=True)
class PlayerModel:
    """The factor by which each departure from plain play makes a guessed hand less likely."""

    poor_throw: float = 0.25  # the discard left more deadwood than the least it could
    skipped_knock: float = 0.5  # it could have knocked after its discard and did not
    declined_meld: float = 0.3  # it left a face-up card that completed a meld


def opponent_turns(view: DealView, opponent: int) -> tuple[OpponentTurn, ...]:
    """The opponent's turns of this deal, the latest first, replayed back from the pile."""
    turns: list[OpponentTurn] = []
    thrown = -1  # the opponent's discard whose draw is still to be found, going back
    for event, top in replayed_backwards(view):
        if event.seat != opponent:
            continue
        if event.kind in (DISCARD, KNOCK) and event.card is not None:
            thrown = event.card.index
        elif event.kind in (TAKE_UPCARD, TAKE_DISCARD) and thrown >= 0:
            turns.append(OpponentTurn(thrown, top, -1))
            thrown = -1
        elif event.kind == DRAW_STOCK and thrown >= 0:
            turns.append(OpponentTurn(thrown, -1, top))
            thrown = -1
        elif event.kind == PASS and top >= 0:
            turns.append(OpponentTurn(-1, -1, top))
    return tuple(turns)


def taken_cards(turns: tuple[OpponentTurn, ...]) -> int:
    """Every card the opponent took from the pile: none of them came from the stock."""
    mask = 0
    for turn in turns:
        if turn.taken >= 0:
            mask |= 1 << turn.taken
    return mask


def explains(
    hand: int,
    turns: tuple[OpponentTurn, ...],
    knock_limit: int,
    model: PlayerModel,
    depth: int,
    rng: random.Random,
) -> float:
    """The likelihood, relative to plain play, of the opponent's latest ``depth`` turns had it
    held ``hand`` now (its whole hand: known and guessed cards)."""
    from_pile = taken_cards(turns)
    likelihood = 1.0
    after = hand  # the hand after the turn being looked at
    for turn in turns[:depth]:
        if turn.discard < 0:  # a pass: the hand was as it is after it
            if makes_meld(after, turn.declined):
                likelihood *= model.declined_meld
            continue
        before = after | 1 << turn.discard
        left = arranged(after)[1]
        if left > policy_discard(before, turn.taken)[1]:
            likelihood *= model.poor_throw
        if left <= knock_limit:
            likelihood *= model.skipped_knock
        if turn.taken >= 0:
            after = before & ~(1 << turn.taken)
            continue
        drawable = list(bits(before & ~from_pile))
        if not drawable:  # a guess that cannot explain the draw at all
            return 0.0
        after = before & ~(1 << rng.choice(drawable))
        if turn.declined >= 0 and makes_meld(after, turn.declined):
            likelihood *= model.declined_meld
    return likelihood
