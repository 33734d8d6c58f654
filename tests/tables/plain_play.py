"""A plain strategy for tests and benchmarks that play whole matches through the writers: finish
the deal when the rules allow, else discard the card rules.best_discard names, else draw."""

from __future__ import annotations

import rules


def plain_action(state: rules.Deal) -> str:
    """The action of the seat to play in ``state``."""
    legal = [str(action) for action in state.legal_actions()]
    finish = [action for action in legal if action.split()[0] in ("big_gin", "gin", "knock")]
    if finish:
        return finish[0]
    if state.phase == "discard":
        return f"discard {rules.best_discard(state.hand(state.to_play), exclude=state.just_taken).card}"
    return "draw_stock" if "draw_stock" in legal else "pass"
