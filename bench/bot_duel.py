"""Paired deals: a bot variant and a baseline against the same opponent on the same deals.

``python -m bench.bot_duel play VARIANT OPPONENT --deals N [--ruleset R] [--seed S] [--workers K] --log FILE``
plays deal ``i`` (deck and dealer fixed by the seed and ``i``) twice, VARIANT in each seat, one
deal at a time at the score 0-0 of a match to the rule set's target, and appends one JSON line per
deal played: the variant's net points (points won minus points lost) and its decision CPU times.

``python -m bench.bot_duel arena VARIANT OPPONENT [arena options]`` plays whole matches with
``bots.arena`` (same options and report), VARIANT registered as one more arena bot, so a variant
can be measured over matches without changing LUNA.

``python -m bench.bot_duel compare A.jsonl B.jsonl`` pairs the deals both logs played (same rule
set, opponent, seed, deal number, seat) and prints each log's net points per deal with a 95%
interval, and the paired difference A - B with its 95% interval: the same cards for both, so
the luck of the deal mostly cancels. A baseline log is played once and compared with every variant.

Variants are LUNA with one or more tuning knobs changed (``VARIANTS`` below); a bot name of the
arena (``luna``, ``carmen``, ``simple``...) plays as itself. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from multiprocessing import Pool
from typing import Any

from bots import ARENA_BOTS, Luna, MatchContext, playout
from bots.arena import log_records
from bots.base import Bot, draw_action, find_action, finish_action
from bots.carmen import CARMEN_JUDGEMENT, Carmen, Judgement
from bots.handeval import bits
from bots.history import PlayerModel
from bots.knowledge import Knowledge
from bots.luna import DISCARD_SAMPLES, DRAW_SAMPLES, LUNA_JUDGEMENT, Search, weighted_sample
from rules import CARDS, RULESETS, Deal, Ruleset
from rules.cards import cards_to_mask
from rules.moves import BIG_GIN, Action
from rules.view import DealView

# LUNA's defaults up to commit aefcd13, which every variant below starts from, so that the
# commands of bench/README.md keep their figures; "luna-aefcd13" is that LUNA itself
BEFORE_SELECTION: dict[str, Any] = {
    "selection": 0.0,
    "selection_cap": 52,
    "least_deadwood_candidate": False,
    "end_knocks": False,
    "cheap_undercut_slack": 0,
    "deadwood_pool": 0,
    "deadwood_at_knocks_only": False,
}
# the knobs that undo BEFORE_SELECTION's sampling: LUNA as it was up to commit 02c6d9d
BEFORE_KNOCKS: dict[str, Any] = {"selection": 0.7, "selection_cap": 3, "least_deadwood_candidate": True}
# ...and its knocks since: a variant built with AS_NOW counts from LUNA of commit 65a470f,
# before its sampled hands leaned towards the deadwood estimate where it may knock (KNOCK_POOL)
AS_NOW: dict[str, Any] = {**BEFORE_KNOCKS, "end_knocks": True, "cheap_undercut_slack": 10}
KNOCK_POOL: dict[str, Any] = {"deadwood_pool": 8, "deadwood_sigma": 6.0, "deadwood_at_knocks_only": True}


def _built(kind: Callable[[], Bot], **attributes: Any) -> Callable[[], Bot]:
    """A builder of ``kind()`` with ``attributes`` (each one the bot already has) set on it."""

    def build() -> Bot:
        bot = kind()
        for name, value in attributes.items():
            if not hasattr(bot, name):
                raise AttributeError(f"{type(bot).__name__} has no knob {name}")
            setattr(bot, name, value)
        return bot

    return build


def _luna(**knobs: Any) -> Callable[[], Bot]:
    return _built(Luna, **{**BEFORE_SELECTION, **knobs})


def _luna_out_weight(weight: float) -> Callable[[], Bot]:
    """LUNA whose play-outs discount a loose card by ``weight`` per out (playout.OUT_WEIGHT): a
    module constant, so set for the whole process, which plays this one variant."""

    def build() -> Bot:
        if weight != playout.OUT_WEIGHT:
            playout.OUT_WEIGHT = weight
            playout._KEEPING.clear()  # memoised choices made with the old weight
        return _luna()()

    return build


class PlayoutPolicy:
    """A diagnostic, never a bot of the site: LUNA's own seat's play-out policy played from a
    view, to tune that policy as a player in seconds before LUNA searches with it."""

    name = "playout-policy"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        know = Knowledge.from_view(view)
        if know.phase in ("offer", "draw"):
            return draw_action(view, know.top >= 0 and playout.wants_face_up(know.hand, know.top))
        if playout.arranged(know.hand)[1] == 0 and find_action(view, BIG_GIN) is not None:
            return Action.big_gin()
        card, deadwood = playout.policy_discard(know.hand, know.just_taken)
        if deadwood <= know.knock_limit:
            return finish_action(view, card, knock=True)
        seen = know.pile | know.opponent_known  # counted only with playout.LIVE_OUTS
        return finish_action(view, playout.keeping_discard(know.hand, know.just_taken, seen), knock=False)


def _live_outs(build: Callable[[], Bot]) -> Callable[[], Bot]:
    """``build``'s bot with play-outs that count only live outs (``playout.LIVE_OUTS``): a module
    constant, so set for the whole process, which plays this one variant."""

    def build_live() -> Bot:
        playout.LIVE_OUTS = True
        return build()

    return build_live


class OracleSearch(Search):
    """A diagnostic, never a bot of the site: LUNA's search told the opponent's true hidden
    cards (the stock order stays unknown), to measure what better inference could be worth."""

    def sample_hidden(self, rng: random.Random) -> int:
        assert isinstance(self.tuning, OracleLuna)
        return self.tuning.true_hidden


class OracleLuna(Luna):
    search_type = OracleSearch
    true_hidden = 0  # set by play_one before each decision
    least_deadwood_candidate = False  # as LUNA up to aefcd13 (its samples are the true hand)
    end_knocks, cheap_undercut_slack = False, 0  # the knocks of LUNA up to 02c6d9d
    deadwood_pool = 0  # the sampler of LUNA up to 65a470f, for the diagnostics' recorded figures


class DeadwoodOracleSearch(Search):
    """A diagnostic, never a bot of the site: LUNA's sampled opponent hands kept only when their
    deadwood is within DEADWOOD_ORACLE_SLACK of the true hand's (the cards themselves stay
    guessed), to measure what knowing how close the opponent is to knocking would be worth."""

    def sample_hidden(self, rng: random.Random) -> int:
        tuning = self.tuning
        assert isinstance(tuning, DeadwoodOracleLuna)
        known = self.know.opponent_known
        truth = playout.arranged(known | tuning.true_hidden)[1]
        best, best_gap = 0, 999
        for _ in range(DEADWOOD_ORACLE_TRIES):
            hidden = self.proposed_hidden(self.know.opponent_hidden_count, rng)
            gap = abs(playout.arranged(known | hidden)[1] - truth)
            if gap < best_gap:
                best, best_gap = hidden, gap
            if gap <= DEADWOOD_ORACLE_SLACK:
                break
        return best


DEADWOOD_ORACLE_TRIES, DEADWOOD_ORACLE_SLACK = 64, 2


class PartialOracleSearch(Search):
    """A diagnostic, never a bot of the site: each sampled opponent hand holds each of the true
    hidden cards with chance ``known_share``, the rest as LUNA samples them: a sampler better
    than LUNA's by a known amount, to measure what better inference short of the truth is worth."""

    def sample_hidden(self, rng: random.Random) -> int:
        tuning = self.tuning
        assert isinstance(tuning, PartialOracleLuna)
        count = self.know.opponent_hidden_count
        hidden = 0
        for card in bits(tuning.true_hidden):
            if rng.random() < tuning.known_share:
                hidden |= 1 << card
        guessed_mask = self.proposed_hidden(count, rng) & ~hidden
        guessed = list(bits(guessed_mask))
        rng.shuffle(guessed)
        spare = list(bits(self.know.unseen & ~hidden & ~guessed_mask))
        rng.shuffle(spare)
        for card in (guessed + spare)[: count - hidden.bit_count()]:
            hidden |= 1 << card
        return hidden


class PartialOracleLuna(OracleLuna):
    search_type = PartialOracleSearch
    known_share = 0.5
    # LUNA's own knobs, not the older ones OracleLuna keeps for its recorded figures
    least_deadwood_candidate = Luna.least_deadwood_candidate
    end_knocks, cheap_undercut_slack = Luna.end_knocks, Luna.cheap_undercut_slack


class DecisionOracleSearch(Search):
    """A diagnostic, never a bot of the site: LUNA's search told the opponent's true hidden cards
    in one kind of decision only (``DecisionOracleLuna.told``: "draw", "knock" for a discard with
    a legal knock, "discard" for one without), sampling as LUNA does in the others: where in the
    deal knowing simple's cards is worth most."""

    def sample_hidden(self, rng: random.Random) -> int:
        tuning = self.tuning
        assert isinstance(tuning, DecisionOracleLuna)
        if self.decision_kind == tuning.told:
            return tuning.true_hidden
        return super().sample_hidden(rng)

    @cached_property
    def decision_kind(self) -> str:
        know = self.know
        if know.phase in ("offer", "draw"):
            return "draw"
        return "knock" if know.may_knock else "discard"


class DecisionOracleLuna(PartialOracleLuna):
    search_type = DecisionOracleSearch
    told = "draw"


class OneGuessSearch(Search):
    """A diagnostic: LUNA's search with one sampled opponent hand (LUNA's own sampler, drawn at
    the decision's first sample) for every sampled deal, only the stock order drawn anew: its
    moves have the oracle's certainty without its knowledge, to tell the two apart."""

    guess: int | None = None

    def sample_hidden(self, rng: random.Random) -> int:
        if self.guess is None:
            self.guess = super().sample_hidden(rng)
        return self.guess


class OneGuessLuna(Luna):
    search_type = OneGuessSearch
    deadwood_pool = 0  # as LUNA up to 65a470f, which it was measured against


class DeadwoodOracleLuna(OracleLuna):
    search_type = DeadwoodOracleSearch
    least_deadwood_candidate = True  # as LUNA is now


class TiltSearch(Search):
    """A sampler screened against LUNA's, never a bot of the site: an opponent hand is one of
    ``tilt_pool`` hands drawn from the card weights alone (no selection), picked with weight
    exp(-tilt * d * (deadwood - least deadwood of the pool)), d the opponent's discards so far
    (at most ``tilt_cap``): importance resampling towards the low deadwood of a player who has
    drawn and thrown for a while, without dealing extra melds as the selection knob does. With
    ``tilt_at_knocks_only`` it samples so only at discards where a knock is legal."""

    def proposed_hidden(self, count: int, rng: random.Random) -> int:
        tuning, know = self.tuning, self.know
        assert isinstance(tuning, TiltLuna)
        if tuning.tilt_at_knocks_only and not self.may_knock:
            return super().proposed_hidden(count, rng)
        tilt = tuning.tilt * min(know.opponent_discards.bit_count(), tuning.tilt_cap)
        pool = [weighted_sample(self.weights, count, rng) for _ in range(tuning.tilt_pool)]
        deadwood = [playout.arranged(know.opponent_known | hidden)[1] for hidden in pool]
        least = min(deadwood)
        return rng.choices(pool, [math.exp(-tilt * (points - least)) for points in deadwood])[0]


class TiltLuna(Luna):
    search_type = TiltSearch
    tilt, tilt_cap, tilt_pool = 0.05, 10, 8
    tilt_at_knocks_only = False
    deadwood_pool = 0  # as LUNA up to 65a470f, which it was measured against


def _carmen(judgement: Judgement) -> Callable[[], Bot]:
    return _built(Carmen, judgement=judgement)


def _decision_oracle(told: str) -> Callable[[], Bot]:
    return _built(DecisionOracleLuna, told=told)


def _partial_oracle(share: float) -> Callable[[], Bot]:
    return _built(PartialOracleLuna, known_share=share)


# CARMEN's judgement reweighted on paired deals against simple (classic, seed 7, 1,000 deals
# each): knocking whenever allowed, then LUNA's (its knock ceiling scaled by the undercut bonus)
ASAP = Judgement(now_weight=0.15, feed_cost=0.0, early_turns=99, took_caution=0)

STRICT = PlayerModel(poor_throw=0.05, skipped_knock=0.3, declined_meld=0.05)  # a plain player

VSTRICT = PlayerModel(poor_throw=0.01, skipped_knock=0.1, declined_meld=0.01)

# Knobs are relative to LUNA up to commit aefcd13 ("luna-aefcd13"); "luna-before" is LUNA up
# to commit e00dc67. "luna" plays LUNA as it is now ("luna-dw-knocks6" below; "luna-cheap-knocks"
# is LUNA of commit 65a470f).
VARIANTS: dict[str, Callable[[], Bot]] = {
    "luna-aefcd13": _luna(),
    "luna-slack0": _luna(knock_slack=0),  # LUNA up to aefcd13 (KNOCK_SLACK 0)
    "luna-before": _luna(judgement=CARMEN_JUDGEMENT, keeping_playouts=False),
    "luna-conf1": _luna(confidence=1.0),
    "luna-conf1-close2": _luna(confidence=1.0, close_factor=2.0),
    "luna-close2": _luna(close_factor=2.0),
    "luna-cand5": _luna(discard_candidates=5),
    "luna-keep02": _luna(keep_knockable=0.2),
    "luna-slack3": _luna(knock_slack=3),
    "luna-combo": _luna(confidence=1.0, close_factor=2.0, keep_knockable_early=0.1),
    "luna-ck": _luna(confidence=1.0, keep_knockable_early=0.1),
    "luna-least": _luna(least_deadwood_candidate=True),
    # measured against "luna-before" on 2026-11-30 (bench/README.md), so built from it
    "luna-before-conf05": _luna(judgement=CARMEN_JUDGEMENT, keeping_playouts=False, confidence=0.5),
    "luna-before-slack10": _luna(judgement=CARMEN_JUDGEMENT, keeping_playouts=False, knock_slack=10),
    "luna-asap": _luna(judgement=ASAP, keeping_playouts=False),
    "luna-asap-keeping": _luna(judgement=ASAP),
    "luna-asap-knock-only": _luna(
        judgement=ASAP, keeping_playouts=False, discard_candidates=1, draw_samples=0
    ),
    "luna-plaus0": _luna(keep_implausible=0.0),
    "luna-plaus2": _luna(keep_implausible=0.2),
    "luna-samples2": _luna(draw_samples=2 * DRAW_SAMPLES, discard_samples=2 * DISCARD_SAMPLES),
    "luna-oracle": OracleLuna,
    "luna-one-guess": OneGuessLuna,  # LUNA as it is but for OneGuessSearch
    "luna-took20": _luna(**AS_NOW, took_near=20.0, threw_near=0.1),
    "luna-took20-sel02": _luna(
        **{**AS_NOW, "selection": 0.2, "selection_cap": 1}, took_near=20.0, threw_near=0.1
    ),
    "luna-oracle15": _partial_oracle(0.15),
    "luna-oracle30": _partial_oracle(0.3),
    "luna-oracle60": _partial_oracle(0.6),
    "luna-oracle-deadwood": DeadwoodOracleLuna,
    "luna-keep0": _luna(**AS_NOW, keep_knockable=0.0, keep_knockable_early=0.0),  # as simple plays
    "luna-cand2": _luna(**AS_NOW, discard_candidates=2),
    "luna-cand4": _luna(**AS_NOW, discard_candidates=4),
    "luna-cand6": _luna(**AS_NOW, discard_candidates=6),
    "luna-oracle-draws": _decision_oracle("draw"),  # told the truth in draw decisions only
    "luna-oracle-knocks": _decision_oracle("knock"),  # ...in discards with a legal knock only
    "luna-oracle-discards": _decision_oracle("discard"),  # ...in discards without one only
    # sampled hands tilted towards low deadwood instead of the selection knob, everywhere or only
    # at discards where a knock is legal (TiltSearch)
    "luna-tilt05": _built(TiltLuna, **AS_NOW),
    "luna-knock-tilt": _built(TiltLuna, **AS_NOW, tilt_at_knocks_only=True),
    "luna-sel05": _luna(selection=0.5),
    "luna-sel1": _luna(selection=1.0),
    "luna-sel15": _luna(selection=1.5),
    "luna-sel07c3": _luna(selection=0.7, selection_cap=3),
    "luna-sel07c3-least": _luna(**BEFORE_KNOCKS),
    "luna-sel05-plaus0": _luna(selection=0.5, keep_implausible=0.0),
    "luna-swap6": _luna(plausible_swaps=6),
    "luna-sel05-swap6": _luna(selection=0.5, plausible_swaps=6),
    "luna-sel07c3-swap6": _luna(selection=0.7, selection_cap=3, plausible_swaps=6),
    "luna-sel07c3-s2": _luna(
        selection=0.7, selection_cap=3, draw_samples=2 * DRAW_SAMPLES, discard_samples=2 * DISCARD_SAMPLES
    ),
    "luna-sel07c3-conf1": _luna(selection=0.7, selection_cap=3, confidence=1.0),
    "luna-hist128-strict": _luna(history_guesses=128, history_depth=10, history_model=STRICT),
    "luna-hist128-sel-strict": _luna(
        history_guesses=128, history_depth=10, selection=0.7, selection_cap=3, history_model=STRICT
    ),
    "luna-hist128-sel-vstrict": _luna(
        history_guesses=128, history_depth=20, selection=0.7, selection_cap=3, history_model=VSTRICT
    ),
    "luna-hist128-vstrict": _luna(history_guesses=128, history_depth=20, history_model=VSTRICT),
    "luna-hist128-sel-strict-kp": _luna(
        history_guesses=128,
        history_depth=10,
        selection=0.7,
        selection_cap=3,
        history_model=STRICT,
        history_for_knocks=False,
    ),
    "luna-hist128-strict-kp": _luna(
        history_guesses=128, history_depth=10, history_model=STRICT, history_for_knocks=False
    ),
    "luna-out15": _luna_out_weight(0.15),
    "luna-out40": _luna_out_weight(0.40),
    "luna-conf2": _luna(**BEFORE_KNOCKS, confidence=2.0),
    # near the end of a match every legal knock is among the candidates (Luna.end_knocks)
    "luna-end-knocks": _luna(**BEFORE_KNOCKS, end_knocks=True),
    # every legal knock is studied: as the default move (slack 10), and near a match's end
    "luna-all-knocks": _luna(**BEFORE_KNOCKS, end_knocks=True, knock_slack=10),
    # luna-all-knocks where an undercut costs 10 or less (classic), luna-end-knocks elsewhere:
    # LUNA's defaults since this variant was measured
    "luna-cheap-knocks": _luna(**AS_NOW),
    # a knock up to 10 deadwood is the judgement's default even where an undercut would lose the match
    "luna-safe10": _luna(**AS_NOW, judgement=replace(LUNA_JUDGEMENT, safe_at_match_point=10)),
    # LUNA as it is with twice the sampled deals; with "-conf212" a move must beat the judgement's
    # choice by the same margin in points as now (the standard errors shrink by the square root of 2)
    "luna-now-samples2": _luna(**AS_NOW, draw_samples=2 * DRAW_SAMPLES, discard_samples=2 * DISCARD_SAMPLES),
    "luna-now-samples2-conf212": _luna(
        **AS_NOW, draw_samples=2 * DRAW_SAMPLES, discard_samples=2 * DISCARD_SAMPLES, confidence=2.12
    ),
    # sampled hands tilted towards bots/deadwood.py's estimate of the opponent's deadwood
    "luna-dw-tilt6": _luna(**AS_NOW, deadwood_pool=8, deadwood_sigma=6.0),
    "luna-dw-tilt85": _luna(**AS_NOW, deadwood_pool=8, deadwood_sigma=8.5),
    # the same pool only where LUNA may knock, the decisions where knowing simple's hand paid most
    "luna-dw-knocks6": _luna(**AS_NOW, **KNOCK_POOL),  # LUNA as it is now
    "luna-dw-knocks16-4": _luna(**AS_NOW, deadwood_pool=16, deadwood_sigma=4.0, deadwood_at_knocks_only=True),
    "luna-live-outs": _live_outs(_luna()),  # play-outs count only outs not seen out of play
    "playout-policy": PlayoutPolicy,
    "playout-policy-live": _live_outs(PlayoutPolicy),
    "carmen-asap": _carmen(ASAP),
    "carmen-asap-wary": _carmen(replace(ASAP, early_turns=6, took_caution=2)),
    "carmen-luna": _carmen(LUNA_JUDGEMENT),  # LUNA's judgement without the search
    # ...knocking up to 10 or 5 deadwood even where an undercut would lose the match
    "carmen-luna-safe10": _carmen(replace(LUNA_JUDGEMENT, safe_at_match_point=10)),
    "carmen-luna-safe5": _carmen(replace(LUNA_JUDGEMENT, safe_at_match_point=5)),
}


def build_bot(name: str) -> Bot:
    if name in VARIANTS:
        return VARIANTS[name]()
    return ARENA_BOTS[name]()


def play_one(job: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    """Deal ``number`` with the variant in ``seat``: its net points and CPU times."""
    variant, opponent, ruleset_name, target, seed, number_seat = job
    number, seat = divmod(number_seat, 2)
    ruleset: Ruleset = replace(RULESETS[ruleset_name], target=target if target > 0 else None)
    deck_rng = random.Random(f"duel:{seed}:{number}")
    deck = list(CARDS)
    deck_rng.shuffle(deck)
    dealer = deck_rng.randrange(2)
    bots = [build_bot(variant), build_bot(opponent)]
    rngs = [random.Random(f"duel:{seed}:{number}:{seat}:{side}") for side in (0, 1)]
    side_at = (0, 1) if seat == 0 else (1, 0)  # side_at[seat]: 0 the variant, 1 the opponent
    deal = Deal.new(ruleset, dealer, deck)
    cpu: list[float] = []
    while not deal.is_over:
        to_play = deal.to_play
        assert to_play is not None
        side = side_at[to_play]
        context = MatchContext(0, 0, ruleset.target)
        if isinstance(bots[side], OracleLuna):
            known = cards_to_mask(deal.view(to_play).known_cards[1 - to_play])
            bots[side].true_hidden = deal.hand_mask(1 - to_play) & ~known  # type: ignore[attr-defined]
        started = time.thread_time()
        action = bots[side].choose(deal.view(to_play), rngs[side], context)
        if side == 0:
            cpu.append(time.thread_time() - started)
        deal, _ = deal.apply(action, to_play)
    net = 0
    if deal.winner is not None:
        net = deal.points if deal.winner == seat else -deal.points
    return {
        "variant": variant,
        "opponent": opponent,
        "ruleset": ruleset_name,
        "target": target,
        "seed": seed,
        "deal": number,
        "seat": seat,
        "net": net,
        "outcome": deal.outcome or "dead",
        "variant_won": deal.winner == seat,
        "cpu": cpu,
    }


def play(args: argparse.Namespace) -> None:
    target = args.target if args.target is not None else (RULESETS[args.ruleset].target or 0)
    done: set[int] = set()
    wanted = (args.variant, args.opponent, args.ruleset, args.seed)
    with contextlib.suppress(FileNotFoundError):  # a new log
        for record in log_records(args.log):
            if (record["variant"], record["opponent"], record["ruleset"], record["seed"]) == wanted:
                done.add(record["deal"] * 2 + record["seat"])
    jobs = [
        (args.variant, args.opponent, args.ruleset, target, args.seed, index)
        for index in range(2 * args.first, 2 * (args.first + args.deals))
        if index not in done
    ]
    with open(args.log, "a", encoding="utf-8") as log:
        if args.workers <= 1:
            results = map(play_one, jobs)
            for result in results:
                log.write(json.dumps(result) + "\n")
                log.flush()
        else:
            with Pool(args.workers) as pool:
                for result in pool.imap_unordered(play_one, jobs, chunksize=1):
                    log.write(json.dumps(result) + "\n")
                    log.flush()
    print(report([args.log], None))


def read(path: str) -> dict[tuple[str, str, int, int, int], dict[str, Any]]:
    """Deals of a log by (rule set, opponent, seed, deal, seat); a deal logged twice counts once."""
    out: dict[tuple[str, str, int, int, int], dict[str, Any]] = {}
    for record in log_records(path):
        key = (record["ruleset"], record["opponent"], record["seed"], record["deal"], record["seat"])
        out.setdefault(key, record)
    return out


def interval(values: Sequence[float]) -> str:
    if len(values) < 2:
        return "n/a"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} (95% interval {mean - half:+.2f} to {mean + half:+.2f})"


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def describe(path: str, records: Sequence[dict[str, Any]]) -> str:
    """Net points per deal (the two seats of a deal averaged), wins and CPU of one log."""
    by_deal: dict[tuple[str, str, int, int], list[int]] = {}
    for record in records:
        key = (record["ruleset"], record["opponent"], record["seed"], record["deal"])
        by_deal.setdefault(key, []).append(record["net"])
    nets = [statistics.fmean(values) for values in by_deal.values()]
    cpu = [elapsed for record in records for elapsed in record["cpu"]]
    won = sum(1 for record in records if record["variant_won"])
    return (
        f"{path}: {records[0]['variant']} vs {records[0]['opponent']}, {len(records)} deals played; "
        f"net points per deal {interval(nets)}; deals won {won / len(records):.1%}; "
        f"CPU per decision median {statistics.median(cpu) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.0f} ms"
        if cpu
        else f"{path}: {len(records)} deals"
    )


def report(paths: Sequence[str], baseline: str | None) -> str:
    lines = []
    logs = [read(path) for path in paths]
    for path, records in zip(paths, logs, strict=True):
        if records:
            lines.append(describe(path, list(records.values())))
    if baseline is not None and len(logs) == 2:
        first, second = logs
        common = sorted(set(first) & set(second))
        by_deal: dict[tuple[str, str, int, int], list[float]] = {}
        for key in common:
            by_deal.setdefault(key[:4], []).append(first[key]["net"] - second[key]["net"])
        gains = [statistics.fmean(values) for values in by_deal.values()]
        lines.append(
            f"paired over {len(common)} deals played by both ({len(gains)} deals dealt): "
            f"{paths[0]} - {paths[1]} = {interval(gains)} net points per deal"
        )
    return "\n".join(lines)


def arena(argv: Sequence[str]) -> int:
    """``bots.arena`` with the variants named in ``argv`` registered as arena bots. The arena's
    worker processes are forked after this, so they see them too."""
    from bots import arena as bots_arena

    for name in argv:
        if name in VARIANTS:
            ARENA_BOTS[name] = VARIANTS[name]  # type: ignore[assignment]  # a builder, called like a class
    return bots_arena.main(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["arena"]:
        return arena(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench.bot_duel", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play deals and log them")
    playing.add_argument("variant", choices=sorted([*VARIANTS, *ARENA_BOTS]))
    playing.add_argument("opponent", choices=sorted([*VARIANTS, *ARENA_BOTS]))
    playing.add_argument("--deals", type=int, default=100)
    playing.add_argument("--first", type=int, default=0)
    playing.add_argument("--ruleset", choices=sorted(RULESETS), default="classic")
    playing.add_argument("--target", type=int, help="match target the bots see (default: the rule set's)")
    playing.add_argument("--seed", type=int, default=0)
    playing.add_argument("--workers", type=int, default=1)
    playing.add_argument("--log", required=True)
    commands.add_parser("arena", help="whole matches with bots.arena, variants included (its options)")
    comparing = commands.add_parser("compare", help="paired difference of two logs")
    comparing.add_argument("logs", nargs=2)
    args = parser.parse_args(argv)
    if args.command == "play":
        play(args)
    else:
        print(report(args.logs, args.logs[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
