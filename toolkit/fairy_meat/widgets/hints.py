"""The stepper's optimal-play hint as HTML: the equilibrium mix of the decision pending, or why there is none."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from toolkit.fairy_meat.engine import PLAYERS, CombatState
from toolkit.fairy_meat.strategy import optimal
from toolkit.fairy_meat.widgets.cards import GREY, colour_codes
from toolkit.prob import format_probability
from toolkit.widgets.common import esc

__all__ = ["HINTS_KEPT", "hint_table", "no_decision_text"]


#: Optimal-play hints kept per stepper (by state), so Step, Back and the toggle never re-solve.
HINTS_KEPT = 64


_OPTIMAL_NOTE = (
    "Optimal play with both hands known (FM-5 hidden Trumps respected), solved from the start of this "
    "attack, so it never sees a face-down choice still pending."
)


def hint_table(state: CombatState, words: str, mix: Mapping[str, Fraction], seconds: float) -> str:
    """The optimal mix as HTML: the most likely action first, those never played greyed."""
    i = state.phase()[1]
    listed = {optimal.same_choice(None, a): a for a in mix}
    also: dict[str, list[str]] = {}
    for action in state.legal_actions():
        if action not in mix and optimal.same_choice(None, action) in listed:
            also.setdefault(listed[optimal.same_choice(None, action)], []).append(action)
    rows = []
    for action, p in sorted(mix.items(), key=lambda kv: -kv[1]):
        names = " / ".join(colour_codes(esc(a)) for a in (action, *also.get(action, ())))
        if p:
            style = ""
        else:
            style = f' style="color:{GREY}" title="never played by optimal play"'
        rows.append(f"<tr{style}><td>{names}</td><td>{esc(format_probability(p))}</td></tr>")
    same = (
        '<div style="font-size:85%">A / B: cards of the same type, the same choice (FM-1); play either.</div>'
        if also
        else ""
    )
    return (
        f"<div><b>{esc(words)}</b> — {esc(state.names[i])} ({esc(PLAYERS[i])}) to choose. "
        "Optimal play:</div>"
        '<table style="border-collapse:separate;border-spacing:12px 1px">'
        '<tr><th style="text-align:left">action</th><th style="text-align:left">probability</th></tr>'
        + "".join(rows)
        + "</table>"
        + same
        + f'<div style="color:#666;font-size:85%">{esc(_OPTIMAL_NOTE)} Solved in {seconds:.2f} s.</div>'
    )


def no_decision_text(state: CombatState) -> str:
    """Why there is no optimal mix to show at ``state`` (``hint`` returned None)."""
    if state.is_terminal:
        return "The combat is over: no decision left."
    step, _ = state.phase()
    if state.is_chance_node:
        what = "cards are turned up (FM-6, FM-7)" if step == "draw" else "a hand is dealt (FM-2)"
        return f"No decision here: the next step is chance, {what}. Press Step or Roll."
    best = state.best_action()
    if best is not None:
        return (
            f"No decision for optimal play here: the {step} step is the referee's, and the referee's best "
            f"choice ({best}) is preselected (highlighted)."
        )
    return "No decision for optimal play here."
