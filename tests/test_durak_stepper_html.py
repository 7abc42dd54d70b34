"""The Durak battle stepper's rendered HTML stays the same through refactors.

A fixed script drives :func:`toolkit.durak_battle.battle_stepper` through a set of
states — the start, every move of each example file in ``data/examples``, and a few
random playouts with fixed seeds — and records, at each state and for each view (both
hands, side a's, side b's), the ``.value`` of every HTML widget it renders. The test
replays the script and compares with ``tests/fixtures/durak_stepper_html.json``.

Re-record (only after a deliberate change of what is shown) with
``PYTHONPATH=$PWD python tests/test_durak_stepper_html.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import ipywidgets as widgets
from random_play import random_step

from toolkit.durak_battle.widgets import battle_stepper

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "durak_stepper_html.json"
EXAMPLES = sorted((ROOT / "data" / "examples").glob("durak_*.yaml"))
VIEWS = ("both", "a", "b")
SEEDS = (1, 2, 3, 4, 5, 6)
MAX_MOVES = 60


def _html_values(root: widgets.Widget) -> list[str]:
    """Every HTML widget's value under ``root``, depth first."""
    out: list[str] = []

    def walk(w: widgets.Widget) -> None:
        if isinstance(w, widgets.HTML):
            out.append(w.value)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(root)
    return out


def _snapshot(st) -> dict[str, list[str]]:
    shots = {}
    for view in VIEWS:
        st.view.value = view
        shots[view] = _html_values(st.widget)
    st.view.value = "both"
    return shots


def _example_run(path: Path) -> list[dict[str, list[str]]]:
    st = battle_stepper(example=path)
    shots = [_snapshot(st)]
    for _ in range(200):
        if st.next_move_button.disabled:
            break
        st.next_move_button.click()
        shots.append(_snapshot(st))
    return shots


def _random_run(seed: int) -> list[dict[str, list[str]]]:
    st = battle_stepper(seed=seed)
    rng = random.Random(seed)
    shots = [_snapshot(st)]
    for _ in range(MAX_MOVES):
        if not random_step(st, rng):
            break
        shots.append(_snapshot(st))
    return shots


def record() -> dict[str, list[dict[str, list[str]]]]:
    """The whole script: run name -> the snapshots of each state in order."""
    runs = {f"example:{p.name}": _example_run(p) for p in EXAMPLES}
    runs.update({f"random:{seed}": _random_run(seed) for seed in SEEDS})
    return runs


def test_stepper_html_is_unchanged():
    expected = json.loads(FIXTURE.read_text())
    got = json.loads(json.dumps(record()))
    assert got.keys() == expected.keys()
    for run in expected:
        assert len(got[run]) == len(expected[run]), run
        for k, (g, e) in enumerate(zip(got[run], expected[run], strict=True)):
            assert g == e, f"{run}, state {k}"


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), indent=0, ensure_ascii=False))
    sys.stdout.write(f"recorded {FIXTURE}\n")
