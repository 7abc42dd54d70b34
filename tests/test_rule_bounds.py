"""A rules field's bounds are declared once (``rule_field(bounds=...)``): the ``Rules``'
validation accepts exactly them, and every control of the field offers exactly them.

References: the bounds a designer may type are the declared ones, so each is checked from
outside the code under test: the lowest and highest are accepted, one past either end is
refused with an error naming the field, and each widget's ``min``/``max`` equal them (they
disagreed before: Durak's morale target 1-12 in the widget against 1-20 in the rules,
Angry Miniatures' won tie damage 0-5 against 0-100).
"""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.angry_miniatures.rules import Rules as MiniaturesRules
from toolkit.durak_battle.rules import Rules as DurakRules
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.rules import Rules as FairyRules
from toolkit.house_rules import RuleFieldError

SYSTEMS = (MiniaturesRules, FairyRules, DurakRules)
FIELDS = [(rules, name) for rules in SYSTEMS for name in rules.bounded_fields()]


def _id(case) -> str:
    rules, name = case
    return f"{rules.SYSTEM}.{name}"


def test_the_numeric_fields_have_bounds():
    assert set(MiniaturesRules.bounded_fields()) == {
        "tie_damage",
        "crit_count",
        "charge_dice",
        "elevation_dice",
        "terrain_dice",
        "occupied_dice",
        "prone_dice",
    }
    assert set(FairyRules.bounded_fields()) == {
        "trump_value",
        "jokers",
        "attacker_bonus",
        "order_card_bonus",
        "flutter_penalty",
        "points_divisor",
    }
    assert set(DurakRules.bounded_fields()) == {
        "strike_loss",
        "counter_lower_loss",
        "cards_per_token",
        "morale_target",
        "morale_per_token",
    }
    # every int field of every Rules has bounds (a new one must declare them)
    for rules in SYSTEMS:
        ints = {f.name for f in dataclasses.fields(rules) if f.type in ("int", int)}
        assert ints == set(rules.bounded_fields()), rules.SYSTEM


@pytest.mark.parametrize("case", FIELDS, ids=_id)
def test_validation_accepts_exactly_the_bounds(case):
    rules, name = case
    low, high = rules.field_bounds(name)
    assert low <= getattr(rules(), name) <= high
    assert getattr(rules(**{name: low}), name) == low
    assert getattr(rules(**{name: high}), name) == high
    for outside in (low - 1, high + 1):
        with pytest.raises(RuleFieldError, match=name) as error:
            rules(**{name: outside})
        assert f"{low} to {high}" in str(error.value) or f"from {low}" in str(error.value), str(error.value)


def test_a_field_without_bounds_is_named():
    with pytest.raises(InvalidSetupError, match=r"hit_faces is not a whole-number field with bounds: use one of"):
        MiniaturesRules.field_bounds("hit_faces")


def test_field_info_carries_the_bounds():
    assert DurakRules.field_info()["morale_target"]["bounds"] == (1, 20)
    assert DurakRules.field_info()["jokers"]["bounds"] is None


# -- every control of a bounded field offers exactly its bounds ---------------------------------
def _controls():
    """Every numeric rules control the explorers and steppers build, by (Rules, field)."""
    pytest.importorskip("ipywidgets")
    from toolkit.angry_miniatures.widgets import odds_explorer
    from toolkit.durak_battle.widgets.pieces import NUMBER_FIELDS, number_controls
    from toolkit.fairy_meat.widgets.cards import numeric_controls

    out = []
    for name, control in odds_explorer(1, 1).controls.items():  # the stepper builds the same controls
        if name in MiniaturesRules.field_names():
            out.append((MiniaturesRules, name, control))
    for name, control in numeric_controls(FairyRules()).items():
        out.append((FairyRules, name, control))
    for name, control in number_controls(DurakRules(), tuple(NUMBER_FIELDS)).items():
        out.append((DurakRules, name, control))
    return out


def test_every_widget_offers_its_rules_bounds():
    checked = 0
    for rules, name, control in _controls():
        if not hasattr(control, "min"):
            continue  # a checkbox or a bar of toggles
        assert (control.min, control.max) == rules.field_bounds(name), f"{rules.SYSTEM}.{name}"
        checked += 1
    assert checked == 2 + 2 + 4  # crit_count, tie_damage; points_divisor, trump_value; the four Durak numbers
