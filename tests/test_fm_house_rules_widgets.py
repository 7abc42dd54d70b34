"""The Fairy Meat odds explorer with its house-rules picker (issue 11), headless.

Picking ``data/rules/fairy-meat/unhalved_damage.yaml`` (``points_divisor: 1``, FM-10:
the winner scores the whole difference) sets the explorer's controls from the file, and
its numbers are the calculator's under those rules. What the divisor does not touch is
checked against the default rules, not against the code: it only turns a difference into
points (FM-10), so who wins is the same with either divisor, and every win scores at
least as many points as with the halved difference.
"""

from __future__ import annotations

from pathlib import Path

from toolkit.fairy_meat import Rules
from toolkit.fairy_meat.odds import deal_averaged_odds
from toolkit.fairy_meat.widgets import odds_explorer
from toolkit.widgets.rules_picker import DEFAULT

UNHALVED = Path(__file__).resolve().parents[1] / "data" / "rules" / "fairy-meat" / "unhalved_damage.yaml"
SIZES = {"attacker_cards": 2, "defender_cards": 1}


def _winner(o):
    return getattr(o, "winner", None) or "draw"


def _recording():
    """An explorer whose calculator records the rules of each computation (a cheap stand-in)."""
    calls: list[Rules] = []

    def compute(a, d, policies, rules):
        calls.append(rules)
        return deal_averaged_odds(1, 0, policies, rules, method="exact")

    return odds_explorer(**SIZES, compute=compute), calls


def test_the_explorer_shows_the_fairy_meat_picker_with_the_shipped_files():
    ex, calls = _recording()
    assert ex.rules_picker is not None and ex.rules_picker.system == "fairy-meat"
    assert str(UNHALVED) in [value for _, value in ex.rules_picker.options]
    assert calls[-1] == Rules()


def test_picking_unhalved_damage_sets_the_controls_and_they_change_it_field_by_field():
    ex, calls = _recording()
    ex.rules_picker.dropdown.value = str(UNHALVED)
    ex.flush()
    assert ex.controls["points_divisor"].value == 1  # the file's one field (FM-10)
    assert calls[-1] == Rules(points_divisor=1)
    ex.controls["nasty_hit"].value = "loser"  # a control changes the picked rules, not replaces them
    ex.flush()
    assert calls[-1] == Rules(points_divisor=1, nasty_hit="loser")
    ex.rules_picker.dropdown.value = DEFAULT  # back to the defaults: the controls follow
    ex.flush()
    assert ex.controls["points_divisor"].value == 2 and ex.controls["nasty_hit"].value == "damaged"
    assert calls[-1] == Rules()


def test_the_distribution_under_unhalved_damage_is_the_calculators():
    ex = odds_explorer(**SIZES)
    halved = ex.distribution
    ex.rules_picker.dropdown.value = str(UNHALVED)
    picked = ex.distribution
    expected = deal_averaged_odds(2, 1, ("greedy", "greedy"), Rules(points_divisor=1), method="auto")
    assert picked == expected.distribution
    assert picked != halved
    # FM-10: the divisor turns the difference into points; who wins does not change ...
    for side in ("attacker", "defender", "draw"):
        assert picked.probability(lambda o, s=side: _winner(o) == s) == halved.probability(
            lambda o, s=side: _winner(o) == s
        )
    # ... and the winner's points are never fewer with the whole difference than the halved one
    assert picked.mean(lambda o: o.points) > halved.mean(lambda o: o.points)


def test_the_number_sliders_take_every_value_the_rules_accept():
    """Points divisor (FM-10) and Trump worth (FM-1) are accepted from 1 to 10: the sliders
    show 6 and 5 as given (not clamped to 4) and reach exactly the accepted ends."""
    import pytest

    from toolkit.errors import InvalidSetupError
    from toolkit.fairy_meat.widgets.cards import numeric_controls

    controls = numeric_controls(Rules(points_divisor=6, trump_value=5))
    assert (controls["points_divisor"].value, controls["trump_value"].value) == (6, 5)
    for name in ("points_divisor", "trump_value"):
        assert (controls[name].min, controls[name].max) == (1, 10)
        Rules(**{name: 10})  # the highest accepted ...
        with pytest.raises(InvalidSetupError, match=name):
            Rules(**{name: 11})  # ... and one more is refused
        with pytest.raises(InvalidSetupError, match=name):
            Rules(**{name: 0})


def test_the_stepper_labels_state_the_rules_card_terms():
    """A Fluttered attacker draws ``flutter_penalty`` cards fewer and a defender holding an
    Order Card ``order_card_bonus`` more (FM-2): the labels say the rules' numbers."""
    from toolkit.fairy_meat.widgets import combat_stepper

    house = combat_stepper(rules=Rules(flutter_penalty=2, order_card_bonus=3))
    assert house.fluttered.description.endswith("Fluttered (−2 cards)")
    assert house.holds_order_card.description.endswith("still holds an Order Card (+3 cards)")
    default = combat_stepper()
    assert default.fluttered.description.endswith("Fluttered (−1 card)")
    assert default.holds_order_card.description.endswith("still holds an Order Card (+1 card)")
