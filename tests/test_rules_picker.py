"""The rules picker (issue 11 item 3): house rules chosen in an explorer, headless.

Expected odds come from hand arithmetic on one die against one (AM-1, AM-4, AM-5): a
face hits with 4/6; the attack deals damage when it hits and the defender misses (2/9),
when both hit and its face beats hers (4/9 · 6/16 = 1/6) or ties and it wins the
SuperTieBreaker (4/9 · 4/16 · 1/2 = 1/18): 4/9. With zero_tie="super_tiebreak" (AM-5)
two misses (1/9) go to a SuperTieBreaker too: + 1/18 = 1/2.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import pytest

from toolkit.angry_miniatures import Rules, opposed
from toolkit.errors import InvalidSetupError
from toolkit.widgets.explorer import BUSY_CLASS, SETTLE_SECONDS, OddsExplorer
from toolkit.widgets.rules_picker import DEFAULT, RulesPicker

HOUSE = Path(__file__).parent / "fixtures" / "house_rules"
ZERO_TIE = HOUSE / "angry-miniatures" / "zero_tie.yaml"
BAD = HOUSE / "bad_field.yaml"
OTHER_SYSTEM = HOUSE / "fairy-meat" / "damage_table.yaml"


def _explorer(**kwargs):
    """An AM explorer of one 1-die-each melee attack, recording the rules of each computation."""
    calls: list = []
    dice = widgets.IntSlider(value=1, min=1, max=3, description="Dice")

    def compute(dice: int, rules: Rules):
        calls.append(rules)
        return opposed(dice, dice, "melee", rules).map(lambda o: o.defender_damage - o.attacker_damage)

    ex = OddsExplorer({"dice": dice}, compute, score=lambda k: k, rules_system="angry-miniatures", **kwargs)
    return ex, calls, dice


def _damage(ex) -> Fraction:
    return ex.distribution.probability(lambda k: k > 0)


def test_the_dropdown_lists_the_default_rules_and_every_file_by_title():
    picker = RulesPicker("angry-miniatures", directory=HOUSE / "angry-miniatures")
    assert picker.dropdown.description == "Rules:"
    assert picker.options == [("default rules", DEFAULT), ("SuperTieBreaker on no hits", str(ZERO_TIE))]
    assert picker.rules == Rules() and picker.title == "default rules"
    assert "no field changed" in picker.notes.value


def test_picking_a_file_shows_its_notes_escaped_and_its_changes():
    seen = []
    picker = RulesPicker("angry-miniatures", directory=HOUSE / "angry-miniatures", on_change=seen.append)
    picker.dropdown.value = str(ZERO_TIE)
    assert picker.rules == Rules(zero_tie="super_tiebreak") and seen == [picker.rules]
    notes = picker.notes.value
    assert "SuperTieBreaker on no hits" in notes
    assert "&lt;b&gt;not bold&lt;/b&gt; &amp; escaped" in notes and "<b>not bold" not in notes
    assert "Both roll no hits: super tiebreak (by default miss)" in notes


def test_explorer_recomputes_with_the_picked_rules():
    ex, calls, _ = _explorer()
    assert _damage(ex) == Fraction(4, 9) and calls == [Rules()]
    assert ex.values["rules"] == Rules()
    assert ex.rules_picker.load(str(ZERO_TIE))
    assert _damage(ex) == Fraction(1, 2) and calls[-1] == Rules(zero_tie="super_tiebreak")
    assert ex.rules == Rules(zero_tie="super_tiebreak")
    ex.rules_picker.dropdown.value = DEFAULT
    assert _damage(ex) == Fraction(4, 9) and calls[-1] == Rules()


def test_explorer_starts_with_given_rules():
    ex, _, _ = _explorer(rules={"zero_tie": "super_tiebreak"})
    assert _damage(ex) == Fraction(1, 2)
    assert ex.rules_picker.dropdown.value == "<given>"
    ex2, _, _ = _explorer(rules=str(ZERO_TIE))
    assert _damage(ex2) == Fraction(1, 2) and ex2.rules_picker.title == "SuperTieBreaker on no hits"


def test_without_a_system_there_is_no_picker_and_compute_gets_no_rules():
    dice = widgets.IntSlider(value=1, min=1, max=3)
    ex = OddsExplorer({"dice": dice}, lambda dice: opposed(dice, dice).map(lambda o: o.defender_damage), lambda k: k)
    assert ex.rules_picker is None and ex.rules is None and "rules" not in ex.values


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (BAD, ["bad_field.yaml:3:", "'zero_ties' is not a field of the angry-miniatures rules"]),
        (OTHER_SYSTEM, ["damage_table.yaml:2:", "this file is for 'fairy-meat'"]),
        (HOUSE / "missing.yaml", ["missing.yaml", "does not exist"]),
        ("", ["give the path of a house-rules file"]),
    ],
)
def test_a_file_that_cannot_be_used_is_one_line_and_changes_nothing(path, words):
    ex, calls, _ = _explorer()
    ex.rules_picker.load(str(ZERO_TIE))
    before = len(calls)
    assert ex.rules_picker.load(str(path)) is False
    error = ex.rules_picker.error
    assert "\n" not in error and "Traceback" not in error
    for word in words:
        assert word in error
    assert 'role="alert"' in ex.rules_picker.error_line.value
    assert ex.rules == Rules(zero_tie="super_tiebreak") and len(calls) == before  # still in force
    ex.rules_picker.load(str(ZERO_TIE))
    assert ex.rules_picker.error == ""  # a good file clears the line


def test_a_listed_file_that_cannot_be_read_is_marked_and_refused(tmp_path):
    (tmp_path / "broken.yaml").write_text("system: angry-miniatures\nnotes: x\nzero_tie: sometimes\n")
    picker = RulesPicker("angry-miniatures", directory=tmp_path)
    assert picker.options[1][0] == "broken (cannot be read)"
    picker.dropdown.value = str(tmp_path / "broken.yaml")
    assert "broken.yaml:3:" in picker.error and "zero_tie" in picker.error
    assert picker.dropdown.value == DEFAULT and picker.rules == Rules()


def test_loading_another_file_over_a_file_computes_once(tmp_path):
    other = tmp_path / "coin.yaml"
    other.write_text(
        "system: angry-miniatures\ntitle: Coin flips\nnotes: ties on hits by a coin\ntie_break: coin_flip\n"
    )
    ex, calls, _ = _explorer(rules=str(ZERO_TIE))
    assert ex.rules_picker.load(str(other))
    assert calls == [Rules(zero_tie="super_tiebreak"), Rules(tie_break="coin_flip")]  # never the defaults between
    assert ex.rules_picker.dropdown.value == str(other.resolve()) and ex.rules_picker.title == "Coin flips"


def test_loading_the_same_file_twice_lists_it_once():
    picker = RulesPicker("angry-miniatures")
    picker.load(str(ZERO_TIE))
    picker.load(str(ZERO_TIE))
    assert [label for label, _ in picker.options].count("SuperTieBreaker on no hits") == 1


def test_bad_starting_rules_raise_a_clear_error():
    with pytest.raises(InvalidSetupError, match="no house-rules file 'nope'"):
        RulesPicker("angry-miniatures", "nope")
    with pytest.raises(InvalidSetupError, match="unknown system"):
        RulesPicker("chess")


def test_in_a_kernel_picking_rules_shows_busy_and_settles():
    async def designer() -> None:
        ex, calls, dice = _explorer()
        ex.rules_picker.load(str(ZERO_TIE))
        assert ex.busy and BUSY_CLASS in ex.widget._dom_classes
        assert "Computing the odds for Rules = SuperTieBreaker on no hits" in ex.status_line.value
        dice.value = 2  # a newer change before the settling: one computation for both
        await asyncio.sleep(SETTLE_SECONDS * 3)
        assert len(calls) == 2 and calls[-1] == Rules(zero_tie="super_tiebreak")
        assert not ex.busy and _damage(ex) == opposed(2, 2, "melee", calls[-1]).probability(lambda o: o.hit)

    asyncio.run(designer())


# -- the systems' explorers follow their picker (issue 11 item 3) --------------------------
def _pick(explorer, name):
    picker = explorer.rules_picker
    value = next(v for _, v in picker.options if v.endswith(f"/{name}.yaml"))
    picker.pick(value)


def test_angry_miniatures_explorer_follows_a_picked_file():
    from toolkit.angry_miniatures import opposed
    from toolkit.angry_miniatures.widgets import odds_explorer
    from toolkit.house_rules import load_rules

    explorer = odds_explorer(attack_dice=3, defence_dice=2)
    _pick(explorer, "tens_hit")
    tens = load_rules("angry-miniatures", "tens_hit")
    assert explorer.controls["hit_faces"].value == tens.hit_faces  # the controls show the file's rules
    assert explorer.distribution == opposed(3, 2, "melee", tens)
    assert explorer.distribution != opposed(3, 2, "melee")


def test_durak_round_explorer_follows_a_picked_file():
    from dataclasses import replace

    from toolkit.durak_battle.widgets.explorers import round_explorer, rules_from
    from toolkit.house_rules import load_rules

    explorer = round_explorer()
    _pick(explorer, "no_jokers")
    picked = load_rules("durak-battle", "no_jokers")
    assert explorer.controls["jokers"].value is False
    assert rules_from(explorer.values, None) == picked
    explorer.controls["jokers"].value = True  # a control changes the picked rules, field by field
    assert rules_from(explorer.values, None) == replace(picked, jokers=True)


def test_a_picked_number_is_shown_and_used_never_clamped(tmp_path):
    """A house-rules morale target of 15 (DB-8) is shown and used as 15, never clamped
    (review: controls_follow_picks). The control's bounds are the rules field's own (1-20,
    rule_field bounds), so any file the rules accept fits; widening a control for a value
    beyond it is set_control's job (below)."""
    from toolkit.durak_battle.rules import Rules
    from toolkit.durak_battle.widgets.explorers import round_explorer, rules_from

    high = tmp_path / "high_morale.yaml"
    high.write_text("system: durak-battle\ntitle: Hard morale\nnotes: morale needs 15\nmorale_target: 15\n")
    explorer = round_explorer()
    assert explorer.controls["morale_target"].max == Rules.field_bounds("morale_target")[1] == 20
    assert explorer.rules_picker.load(str(high))
    assert explorer.controls["morale_target"].value == 15
    assert rules_from(explorer.values, None).morale_target == 15


def test_set_control_widens_bounds_and_sets_unbounded_controls():
    from toolkit.widgets.rules_picker import set_control

    number = widgets.IntSlider(value=2, min=1, max=4)
    set_control(number, 0)
    assert (number.value, number.min, number.max) == (0, 0, 4)
    set_control(number, 9)
    assert (number.value, number.min, number.max) == (9, 0, 9)
    box = widgets.Checkbox(value=False)
    set_control(box, True)
    assert box.value is True
