"""The Fairy Meat stepper renders the same HTML through the issue-9 refactor.

A fixed script drives :func:`toolkit.fairy_meat.combat_stepper` through a set of states
(the start and every move of each Fairy Meat example in ``data/examples``, a few Step
presses, and random playouts with fixed seeds) and records, in each of the three views
(both hands, the attacker's, the defender's), every HTML, Textarea and Button text of
the widget tree. The recording is ``tests/fixtures/fairy_meat_stepper_html.json``;
re-record it (only for a deliberate change, e.g. a one-side view that hides more) with
``python tests/test_fm_stepper_html.py --record``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import ipywidgets as widgets

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "fairy_meat_stepper_html.json"
EXAMPLES = ("dizzytwig_v_sparklespaz.yaml", "dizzytwig_counterfactual_5c.yaml")
SEEDS = (1, 2, 3, 7)
#: Extra playouts: (seed, setup) — two attacks, Wrestling, a stacked deck with no Numbered card.
SETUPS = (
    (4, {"attacks": 2}),
    (5, {"wrestling": True}),
    (6, {"deck": "KS JH QD 2C AH KD JC QS 3H", "attacks": 2}),
    (8, {"fluttered": True, "holds_order_card": True, "attacks": 3}),
)
VIEWS = ("both", "attacker", "defender")


def _texts(widget: widgets.Widget) -> list[str]:
    out: list[str] = []
    if isinstance(widget, (widgets.HTML, widgets.Textarea)):
        out.append(widget.value)
    elif isinstance(widget, (widgets.Button, widgets.ToggleButton)):
        out.append(f"[{widget.description}{' disabled' if widget.disabled else ''}]")
    for child in getattr(widget, "children", ()) or ():
        out += _texts(child)
    return out


def _snapshot(st) -> dict[str, list[str]]:
    shots = {}
    for view in VIEWS:
        st.view.value = view
        shots[view] = _texts(st.widget)
    st.view.value = "both"
    return shots


def record() -> dict[str, list]:
    """Drive the steppers through the fixed script; return every snapshot by run."""
    from toolkit.fairy_meat.widgets import combat_stepper

    runs: dict[str, list] = {}
    for name in EXAMPLES:
        st = combat_stepper(example=name)
        shots = [_snapshot(st)]
        for _ in range(60):
            before = st.state
            st.next_move()
            if st.state is before:
                break
            shots.append(_snapshot(st))
        runs[f"example {name}"] = shots
    for seed, setup in [(s, {}) for s in SEEDS] + list(SETUPS):
        st = combat_stepper(seed=seed, **setup)
        rng = random.Random(seed)
        shots = [_snapshot(st)]
        for _ in range(3):
            st.stepper.step()
            shots.append(_snapshot(st))
        for _ in range(80):
            state = st.state
            if state.is_terminal:
                break
            if state.is_chance_node:
                st.stepper.roll()
            else:
                st.choose(rng.choice(list(state.legal_actions())))
            shots.append(_snapshot(st))
        runs[f"playout seed {seed} {sorted(setup.items())}"] = shots
    return runs


def test_stepper_html_unchanged():
    expected = json.loads(FIXTURE.read_text())
    got = json.loads(json.dumps(record()))
    assert got.keys() == expected.keys()
    for run in expected:
        assert len(got[run]) == len(expected[run]), run
        for k, (g, e) in enumerate(zip(got[run], expected[run], strict=True)):
            assert g == e, f"{run}, snapshot {k}"


if __name__ == "__main__" and "--record" in sys.argv:
    FIXTURE.write_text(json.dumps(record(), indent=0, ensure_ascii=False) + "\n")
    print(f"wrote {FIXTURE}")
