"""Golden test: the Angry Miniatures attack stepper renders the same HTML through the
issue-9 refactor ("one rule, one place" must not change what a designer sees).

:func:`record` drives the stepper through a fixed script (the start of several setups,
every step of the README's Grunk/Pixie melee example, typed outcomes, seeded rolls, Back,
bad entries, control changes, a magic area attack, random playouts with fixed seeds) and
collects, after every move, the ``.value`` of every string-valued widget in the tree,
once for the full view and once through each side's eyes (``stepper.viewer``). The
fixture ``tests/fixtures/angry_miniatures_stepper.json`` holds what it recorded before
the refactor; re-record with ``python tests/test_angry_miniatures_stepper_golden.py``
only for a deliberate change of the rendered output (and say so in the commit).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.angry_miniatures import Character, Modifiers, start_attack
from toolkit.angry_miniatures.widgets import AttackStepper, attack_stepper

FIXTURE = Path(__file__).parent / "fixtures" / "angry_miniatures_stepper.json"


def _values(widget: widgets.Widget, out: list[str]) -> list[str]:
    """Every string ``.value`` in the widget tree, depth first (children in order)."""
    value = getattr(widget, "value", None)
    if isinstance(value, str):
        out.append(value)
    for child in getattr(widget, "children", ()):
        _values(child, out)
    return out


def _snapshot(st: AttackStepper) -> dict[str, Any]:
    stepper = st.stepper
    views: dict[str, Any] = {}
    sides = [None, "attacker", "defender", st.stepper.state.attacker.name]  # type: ignore[attr-defined]
    sides += [d.name for d in st.stepper.state.defenders]  # type: ignore[attr-defined]
    for side in sides:
        stepper.viewer = side
        stepper._refresh()  # redraw through these eyes (the Stepper has no public redraw)
        views[str(side)] = _values(st.widget, [])
    stepper.viewer = None
    stepper._refresh()
    return views


def record() -> list[dict[str, Any]]:
    """Drive the steppers through the script and return one snapshot per move."""
    shots: list[dict[str, Any]] = []

    def shot(label: str, st: AttackStepper) -> None:
        shots.append({"label": label, "views": _snapshot(st)})

    # 1. The README's rule-book example: Grunk charges Pixie (AM-9), a SuperTieBreaker (AM-4).
    grunk = Character("Grunk", melee=4, body=3, health=5)
    pixie = Character("Pixie", body=2, health=3)
    st = attack_stepper(grunk, pixie, "melee", seed=3)
    shot("grunk: start", st)
    st.charge.value = True
    shot("grunk: charge", st)
    for text in ("K Q 10 9 9", "K Q", "A A, 9 K"):
        st.stepper.type_outcome(text)
        shot(f"grunk: typed {text}", st)
    st.stepper.back()
    shot("grunk: back", st)
    st.stepper.type_outcome("X Y")
    shot("grunk: bad entry", st)
    st.stepper.restart()
    shot("grunk: restart", st)
    while not st.stepper.state.is_terminal or st.stepper.pending:
        st.stepper.step()
        shot("grunk: step", st)
    st.stepper.step()
    shot("grunk: step at the end", st)

    # 2. Anonymous pools: sliders, attack types, modifiers, a magic area (AM-8).
    st = attack_stepper(seed=7)
    shot("pools: start", st)
    st.attack_dice.value = 4
    st.defence_dice.value = 2
    shot("pools: 4 v 2", st)
    for _ in range(3):
        st.stepper.roll()
        shot("pools: roll", st)
    st.attack_type.value = "magic"
    st.area.value = 3
    shot("pools: magic area 3", st)
    st.hindering_terrain.value = 2
    st.prone.value = True
    shot("pools: terrain 2, prone", st)
    while not st.stepper.state.is_terminal:
        st.stepper.step()
        shot("pools: step", st)
    st.attack_type.value = "ranged"
    st.higher_elevation.value = True
    st.zero_tie.value = "super_tiebreak"
    st.attack_dice.value = 0
    st.defence_dice.value = 0
    shot("pools: ranged 0 v 0, zero_tie", st)
    st.stepper.roll()
    shot("pools: roll 0 v 0", st)
    st.attack_type.value = "melee"
    st.melee_defence_bonus.value = True
    st.tie_break.value = "coin_flip"
    st.attack_dice.value = 2
    st.defence_dice.value = 2
    shot("pools: melee, AM-6, coin flip", st)
    st.stepper.type_outcome("A A")
    shot("pools: typed A A", st)
    st.stepper.type_outcome("A A 9")
    shot("pools: typed A A 9", st)

    # 3. Characters in a magic area attack (AM-8), then the area narrowed, then melee.
    wisp = Character("Wisp", magic=3, spirit=1, health=1)
    st = attack_stepper(
        wisp, [Character("Pixie", spirit=2, health=3), Character("Imp", spirit=1, health=1)], "magic", seed=1
    )
    shot("area: start", st)
    while not st.stepper.state.is_terminal:
        st.stepper.roll()
        shot("area: roll", st)
    st.area.value = 1
    shot("area: narrowed", st)
    st.attack_type.value = "melee"
    shot("area: melee", st)

    # 4. Random playouts with fixed seeds.
    for seed in (11, 12, 13):
        rng = random.Random(seed)
        st = attack_stepper(seed=seed)
        st.attack_dice.value = rng.randint(0, 6)
        st.defence_dice.value = rng.randint(0, 6)
        st.attack_type.value = rng.choice(["melee", "ranged", "magic"])
        if st.attack_type.value == "magic":
            st.area.value = rng.randint(1, 4)
        shot(f"random {seed}: start", st)
        while not st.stepper.state.is_terminal:
            rng.choice([st.stepper.step, st.stepper.roll])()
            shot(f"random {seed}: move", st)
        st.stepper.back()
        shot(f"random {seed}: back", st)

    # 5. A stepper started from an engine state (the start_attack path of the notebooks).
    state = start_attack(grunk, pixie, "melee", Modifiers(charge=True))
    st.stepper.set_start(state)
    shot("set_start: grunk", st)
    return shots


def test_angry_miniatures_stepper_renders_as_recorded() -> None:
    recorded = json.loads(FIXTURE.read_text())
    now = record()
    assert len(now) == len(recorded)
    for got, wanted in zip(now, recorded, strict=True):
        assert got == wanted, got["label"]


if __name__ == "__main__":  # re-record the fixture
    FIXTURE.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {FIXTURE}")
