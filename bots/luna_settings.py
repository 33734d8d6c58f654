"""What LUNA plays with: one frozen value, ``LUNA_SETTINGS`` being the hard bot of the site.

Every figure below was measured with bench/bot_duel.py (paired deals) or bots.arena (matches);
the measurements are in bench/README.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .carmen import Judgement

# CARMEN's judgement reweighted on paired deals: the deadwood expected after the next draw
# counts most, no points for feeding the opponent, and the knock ceiling falls only as far as
# the undercut bonus makes an undercut costly
LUNA_JUDGEMENT = Judgement(now_weight=0.15, feed_cost=0.0, caution_by_undercut=True)


@dataclass(frozen=True, slots=True)
class LunaSettings:
    """LUNA's search budget, how it samples the opponent's hand and which knocks it studies."""

    draw_samples: int = 320  # most sampled deals for a take-or-draw decision (two candidates)
    discard_samples: int = 160  # most sampled deals for a discard decision
    discard_candidates: int = 3  # plain discards kept after the judgement's ranking
    confidence: float = 1.5  # standard errors by which a move must beat the judgement's choice
    # chance to keep a sampled opponent hand that could have knocked already: most players knock
    keep_knockable: float = 0.5
    took_near: float = 3.0  # weight of a hidden card related to one the opponent took from the pile
    threw_near: float = 0.5  # ...and of one related to a card it threw or declined
    # extra cards dealt per opponent discard (at most selection_cap), the worst then dropped:
    # 67.8% of the classic rung's matches against simple, 65.4% without
    selection: float = 0.7
    selection_cap: int = 3
    # where LUNA may knock, each sampled opponent hand is one of deadwood_pool from the sampler,
    # picked by a Gaussian of sd deadwood_sigma points about bots/deadwood.py's estimate of the
    # opponent's deadwood: +0.36 a deal against simple over 900 paired deals, -0.06 against CARMEN
    deadwood_pool: int = 8
    deadwood_sigma: float = 6.0
    # where an undercut bonus of cheap_undercut or less makes an undercut cheap (classic), the knock
    # ceiling rises by cheap_undercut_slack: every legal knock is studied there (71.6% of the
    # classic rung's matches against simple)
    cheap_undercut: int = 10
    cheap_undercut_slack: int = 10
    judgement: Judgement = LUNA_JUDGEMENT  # ranks the candidates and picks the default move


LUNA_SETTINGS = LunaSettings()
