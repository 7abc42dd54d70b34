"""The stepper's optimal-play hint as HTML: the equilibrium mix of the decision pending, or why there is none."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ToolkitError
from toolkit.fairy_meat.engine import PLAYERS, CombatState
from toolkit.fairy_meat.strategy import optimal
from toolkit.fairy_meat.widgets.cards import GREY, colour_codes
from toolkit.prob import format_probability
from toolkit.widgets.common import TEXT_TABLE, TEXT_TABLE_STYLE, esc

__all__ = ["HintPanel", "HINTS_KEPT", "OFF_PATH_NOTE", "action_label", "hint_table", "no_decision_text"]


#: Optimal-play hints kept per stepper (by state), so Step, Back and the toggle never re-solve.
HINTS_KEPT = 64


_OPTIMAL_NOTE = (
    "Optimal play as if each fairy could see both hands, except the Trumps placed face down, which stay "
    "hidden (FM-5). It is worked out from the start of this attack, so it never peeks at a face-down "
    "choice not yet shown."
)

#: What the hint says where optimal play never comes (an earlier choice it does not make).
OFF_PATH_NOTE = (
    "Optimal play never comes here: an earlier choice in this attack is one it does not make. So it "
    "has no advice at this point — the shares below are not a recommendation (any choice here leaves "
    "optimal play's result from the start of the attack as it was)."
)


def action_label(state: CombatState, action: str) -> str:
    """A decision as a designer reads it: an FM-8 shift names whose value moves and how far
    (``"Dizzytwig −1, Sparklespaz +1"`` for ``"shift -1 +1"``); other actions as written.

    >>> from toolkit.fairy_meat.engine import start_combat
    >>> from toolkit.fairy_meat import Fairy
    >>> state = start_combat(Fairy("Ann", 3, 3), Fairy("Bo", 3, 3))
    >>> action_label(state, "shift -1 +1"), action_label(state, "declare add")
    ('Ann −1, Bo +1', 'declare add')
    """
    verb, _, rest = action.partition(" ")
    if verb != "shift":
        return action
    signed = [f"{int(m):+d}".replace("-", "−") for m in rest.split()]  # a true minus sign
    return ", ".join(f"{name} {m}" for name, m in zip(state.names, signed, strict=True))


def hint_table(
    state: CombatState, words: str, mix: Mapping[str, Fraction], seconds: float, reached: bool | None = True
) -> str:
    """The optimal mix as HTML: the most likely action first, those never played greyed;
    where optimal play never comes (``reached`` False), first a plain word that the
    shares are no advice there (:data:`OFF_PATH_NOTE`)."""
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
    off_path = (
        f'<div class="toolkit-off-path" style="color:#444;margin:2px 0">{esc(OFF_PATH_NOTE)}</div>'
        if reached is False
        else ""
    )
    return (
        f"<div><b>{esc(words)}</b> — {esc(state.names[i])} ({esc(PLAYERS[i])}) to choose. "
        "Optimal play:</div>"
        + off_path
        + TEXT_TABLE_STYLE
        + f'<table class="{TEXT_TABLE}" style="border-collapse:separate;border-spacing:12px 1px">'
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
            f"choice ({action_label(state, best)}) is preselected (highlighted)."
        )
    return "No decision for optimal play here."


class HintPanel:
    """The hint part of :class:`~toolkit.fairy_meat.widgets.stepper.CombatStepper`: the toggle
    and panel of the equilibrium mix of the decision pending (:func:`optimal.hint`), the
    last :data:`HINTS_KEPT` answers kept so Step, Back and the toggle never re-solve."""

    def _build_hint(self) -> None:
        """The toggle "What would optimal play do here?" and its panel (nothing solved while off)."""
        self.hint_button = widgets.ToggleButton(
            value=False,
            description="What would optimal play do here?",
            icon="lightbulb-o",
            tooltip="The equilibrium mix for the decision pending, both hands known (solved exactly; may take seconds)",
            layout=widgets.Layout(width="auto"),
        )
        self.hint_view = widgets.HTML()
        self._hints: OrderedDict[CombatState, tuple[str, Any]] = OrderedDict()
        self.hint_button.observe(lambda _: self._show_hint(), names="value")

    def _show_hint(self) -> None:
        """Fill the hint panel for the current state while the hint is on (else empty, unsolved)."""
        if not self.hint_button.value:
            self.hint_view.value = ""
            return
        state = self.state
        kind, found = self._hint(state)
        if kind == "mix":
            words, mix, seconds, reached = found
            self.hint_view.value = hint_table(state, words, mix, seconds, reached)
        elif kind == "error":
            self.hint_view.value = f'<span style="color:#e67700">{esc(found)}</span>'
        else:
            self.hint_view.value = f'<span style="color:#666">{esc(no_decision_text(state))}</span>'

    def _hint(self, state: CombatState) -> tuple[str, Any]:
        """``optimal.hint(state)`` as ``("mix", (words, mix, seconds))``, ``("none", None)``
        or ``("error", message)``, kept for the last states seen."""
        if state in self._hints:
            self._hints.move_to_end(state)
            return self._hints[state]
        if not (state.is_terminal or state.is_chance_node):
            self.hint_view.value = '<i style="color:#666">Solving…</i>'
        started = time.perf_counter()
        try:
            found = optimal.hint(state)
        except ToolkitError as e:  # TooBigError: the rest of the combat is too big to solve quickly
            result: tuple[str, Any] = ("error", f"No hint here: {e}")
        else:
            if found is None:
                result = ("none", None)
            else:  # whether optimal play comes here at all (the same solution, cached)
                result = ("mix", (*found, time.perf_counter() - started, optimal.hint_reached(state)))
        self._hints[state] = result
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        return result
