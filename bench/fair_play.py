"""The fair-play signal (bots/fairplay.py) on robot-played rated matches: do LUNA-played
accounts stand out from CARMEN- and TITO-played ones?

Twelve accounts, four played by each robot, play whole matches (the playgridia rules) in turn
against a common opponent mix (TITO, CARMEN, LUNA in turn), through the engine and the bots as
bots.arena plays them. Every deal the account played is reviewed by LUNA's review as the site
stores it (bots/review.py, REVIEW_SETTINGS, the account's seat only), and the account's signal
is computed from those reviews exactly as tables/fairplay does:

    per account   its decisions, the share of LUNA's best moves (95 % Wilson interval), the
                  share within 5 % (Wilson) and the mean loss (95 % interval, its deals as clusters)
    per robot     the same, pooled over its four accounts
    separation    whether every LUNA-played account's best-move share is above, and its mean
                  loss below, every CARMEN- and TITO-played account's
    cost          CPU of the review per decision (the signal itself reads the stored reviews)

    taskset -c 0 .venv/bin/python -m bench.fair_play --matches 200

``--minutes M`` starts no new match after M minutes (the report covers the matches played).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from bots import BOTS, MatchContext
from bots.arena import wilson
from bots.base import Bot
from bots.fairplay import Scored, Signal, scored, signal_of
from bots.review import REVIEW_SETTINGS, review_deal
from rules import CARDS, RULESETS, Deal, Match

PLAYED_BY = ("luna", "carmen", "tito")
ACCOUNTS_PER_ROBOT = 4
OPPONENTS = ("tito", "carmen", "luna")
RULESET = RULESETS["playgridia"]


@dataclass
class Account:
    name: str
    robot: str
    decisions: list[Scored] = field(default_factory=list)
    deals: list[tuple[float, int]] = field(default_factory=list)  # each reviewed deal: loss sum, decisions
    matches: int = 0


@dataclass
class Cost:
    review_cpu: float = 0.0
    reviewed: int = 0


def accounts() -> list[Account]:
    return [
        Account(f"{robot}-{number}", robot)
        for robot in PLAYED_BY
        for number in range(1, ACCOUNTS_PER_ROBOT + 1)
    ]


def play_match(account: Account, opponent: str, seed: str, cost: Cost) -> None:
    """One match, the account in seat ``seat``; each of its deals reviewed as it ends."""
    rng = random.Random(seed)
    seat = rng.randrange(2)
    bots: list[Bot] = [BOTS[account.robot](), BOTS[opponent]()]  # by side: 0 the account
    side_at = (0, 1) if seat == 0 else (1, 0)
    match = Match.new(RULESET, first_dealer=rng.randrange(2))
    while not match.is_over:
        deck = list(CARDS)
        rng.shuffle(deck)
        start = match.totals
        deal = match.next_deal(deck)
        while not deal.is_over:
            mover = deal.to_play
            assert mover is not None
            context = MatchContext(start[mover], start[1 - mover], RULESET.target)
            deal, _ = deal.apply(bots[side_at[mover]].choose(deal.view(mover), rng, context), mover)
        review(account, deal, seat, start, f"{seed}:{len(match.records)}", cost)
        match = match.record(deal)
    account.matches += 1


def review(account: Account, deal: Deal, seat: int, start: tuple[int, int], seed: str, cost: Cost) -> None:
    began = time.process_time()
    reviewed = review_deal(deal, (seat,), start, seed=seed, settings=REVIEW_SETTINGS)
    cost.review_cpu += time.process_time() - began
    found = [scored(_fields(decision)) for decision in reviewed.decisions]
    cost.reviewed += len(found)
    account.decisions += found
    if found:
        account.deals.append((sum(one.loss for one in found), len(found)))


def _fields(decision: object) -> dict[str, object]:
    return {name: getattr(decision, name) for name in ("loss", "played", "best")}


def mean_interval(deals: list[tuple[float, int]]) -> tuple[float, float]:
    """95 % interval of the mean loss per decision, deals as clusters (the decisions of a deal are
    not independent): the ratio estimate's standard error over deals."""
    total = sum(count for _, count in deals)
    if len(deals) < 2 or total == 0:
        return 0.0, 1.0
    mean = sum(loss for loss, _ in deals) / total
    spread = sum((loss - mean * count) ** 2 for loss, count in deals) * len(deals) / (len(deals) - 1)
    half = 1.96 * math.sqrt(spread) / total
    return mean - half, mean + half


def line(name: str, signal: Signal, deals: list[tuple[float, int]], matches: int) -> str:
    count = signal.decisions
    best = wilson(round(signal.best_share * count), count)
    good = wilson(round(signal.good_share * count), count)
    low, high = mean_interval(deals)
    return (
        f"{name:<10} {matches:>3} matches {count:>5} decisions  best {signal.best_share:6.1%} "
        f"[{best[0]:.1%}, {best[1]:.1%}]  within 5 % {signal.good_share:6.1%} [{good[0]:.1%}, {good[1]:.1%}]  "
        f"mean loss {signal.mean_loss:.4f} [{low:.4f}, {high:.4f}]{'' if signal.enough else '  (too few)'}"
    )


def separated(players: list[Account]) -> tuple[bool, bool]:
    signals: dict[str, list[Signal]] = defaultdict(list)
    for account in players:
        if account.decisions:
            signals[account.robot].append(signal_of(account.decisions))
    luna, others = signals["luna"], signals["carmen"] + signals["tito"]
    if not luna or not others:
        return False, False
    best = min(s.best_share for s in luna) > max(s.best_share for s in others)
    loss = max(s.mean_loss for s in luna) < min(s.mean_loss for s in others)
    return best, loss


def report(players: list[Account], cost: Cost, seconds: float) -> None:
    print("\nper account (the signal over its last decisions, as tables/fairplay computes it):")
    for account in players:
        signal = signal_of(account.decisions)
        print(line(account.name, signal, account.deals, account.matches))
    print("\nper robot (its accounts pooled):")
    for robot in PLAYED_BY:
        mine = [account for account in players if account.robot == robot]
        pooled = [one for account in mine for one in account.decisions]
        deals = [deal for account in mine for deal in account.deals]
        signal = signal_of(pooled, window=len(pooled))  # all of them, not the last WINDOW
        print(line(robot.upper(), signal, deals, sum(account.matches for account in mine)))
    best, loss = separated(players)
    print(
        f"\nevery LUNA-played account above every other in best-move share: {best}; below in mean loss: {loss}"
    )
    per_decision = cost.review_cpu / max(cost.reviewed, 1)
    print(
        f"review CPU: {cost.review_cpu:.0f} s for {cost.reviewed} decisions, {per_decision * 1000:.0f} ms a decision; "
        f"wall {seconds / 60:.1f} min"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--seed", type=int, default=55)
    options = parser.parse_args()
    players, cost, began = accounts(), Cost(), time.monotonic()
    for number in range(options.matches):
        if options.minutes is not None and time.monotonic() - began > options.minutes * 60:
            print(f"stopped after {number} matches: --minutes {options.minutes}")
            break
        account = players[number % len(players)]
        opponent = OPPONENTS[(number // len(players)) % len(OPPONENTS)]
        play_match(account, opponent, f"{options.seed}:{number}", cost)
        print(
            f"match {number + 1}/{options.matches}: {account.name} against {opponent}, {len(account.decisions)} decisions so far",
            flush=True,
        )
    report(players, cost, time.monotonic() - began)


if __name__ == "__main__":
    main()
