"""Tuning files: validation (file, line, what is accepted), measures on rows, honest verdicts
and the ranking (toolkit.tune). No Dask here: see tests/test_tune_run.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.sweeps import Row
from toolkit.tune import load_tuning
from toolkit.tune.measures import Measured, MeasureError, event_holds, measure_rows, outcome_fields
from toolkit.tune.ranking import meets, rank
from toolkit.tune.spec import MAX_EXHAUSTIVE, Measure, number

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "data" / "tune").glob("*.yaml"))

GOOD = """\
system: angry-miniatures
calculator: odds_table
fixed: {attack_dice: 3, defence_dice: 2}
targets:
  - name: hits
    row: hit
    value: 75%
    tolerance: 5%
knobs:
  rules:
    hit_faces: [[J, Q, K, A], ["10", J, Q, K, A]]
"""


def errors_of(text: str) -> str:
    with pytest.raises(InvalidSetupError) as info:
        load_tuning(text)
    return str(info.value)


def test_shipped_examples_load_one_per_system():
    systems = {load_tuning(path).system for path in EXAMPLES}
    assert systems == {"angry-miniatures", "fairy-meat", "durak-battle"}


def test_a_good_file_and_its_size():
    tuning = load_tuning(GOOD)
    assert tuning.size == 2
    assert tuning.size_text() == "2 settings (2 rules.hit_faces)"
    target = tuning.targets[0]
    assert (target.low, target.high) == (Fraction(7, 10), Fraction(4, 5))
    assert target.describe_goal() == "75% ± 5%"


def test_numbers_are_read_exactly():
    assert number(0.65) == Fraction(13, 20)
    assert number("65%") == Fraction(13, 20)
    assert number("2/3") == Fraction(2, 3)
    assert number(True) is None and number("lots") is None


def test_unknown_key_names_its_line_and_the_keys():
    message = errors_of(GOOD + "colour: red\n")
    assert message.startswith("<tuning>:12: unknown key 'colour'; keys are ")
    assert "knobs" in message and "targets" in message


def test_unknown_calculator_lists_them():
    message = errors_of(GOOD.replace("odds_table", "odds_tabel"))
    assert "<tuning>:2:" in message and "its calculators are opposed, odds_table, attacks_to_take_out" in message


def test_unknown_rules_field_lists_the_fields():
    message = errors_of(GOOD.replace("hit_faces:", "hit_face:"))
    assert "<tuning>:11: knobs: 'hit_face' is not a field of the angry-miniatures rules; the fields are" in message
    assert "hit_faces" in message


def test_rules_value_out_of_the_rules_bounds_is_refused_at_its_line():
    # the rules' own check (DB-4: a strike costs 0 to MAX_LOSS tokens), named with the value's line
    text = """\
system: durak-battle
calculator: clash_losses
fixed: {method: exact, cards_a: 1, cards_b: 1}
targets: [{mean: lost_a, value: 1, tolerance: 0.1}]
knobs:
  rules:
    strike_loss: [3, -1]
"""
    message = errors_of(text)
    assert message.startswith("<tuning>:7: knobs: rules: strike_loss")
    assert "-1" in message


def test_argument_knob_out_of_bounds_says_what_is_accepted():
    text = (
        GOOD.replace("fixed: {attack_dice: 3, defence_dice: 2}", "fixed: {defence_dice: 2}")
        + "  attack_dice: [3, 500]\n"
    )
    message = errors_of(text)
    assert message == "<tuning>:12: knobs: attack_dice must be a whole number from 0 to 200, got 500"
    assert "<tuning>:12: knobs: attack_dice must be a whole number from 0 to" in message and "got 500" in message


def test_a_target_has_one_goal_and_one_measure():
    message = errors_of(GOOD.replace("    tolerance: 5%\n", "    tolerance: 5%\n    maximise: true\n"))
    assert "<tuning>:5: a target has one goal: value with tolerance, at_least and/or at_most" in message
    message = errors_of(GOOD.replace("    row: hit\n", "    row: hit\n    mean: damage\n"))
    assert "a target measures one thing: probability: {field: condition}, mean: field or row: name" in message


def test_value_needs_a_tolerance_and_a_number():
    assert "<tuning>:7: value needs a tolerance of 0 or more" in errors_of(GOOD.replace("    tolerance: 5%\n", ""))
    assert "<tuning>:7: value must be a number (0.65, 65% or 2/3), got 'most'" in errors_of(
        GOOD.replace("value: 75%", "value: most")
    )


def test_condition_bounds_are_numbers_or_fields():
    text = GOOD.replace("    row: hit\n", "    probability: {outcome: {at_most: [3]}}\n")
    assert "outcome: at_most must be a number or another field's name, got [3]" in errors_of(text)
    text = GOOD.replace("    row: hit\n", "    probability: {outcome: {most: 3}}\n")
    assert "outcome: unknown key 'most'; keys are above, at_least, at_most, below" in errors_of(text)


def test_constraints_keep_and_hold_are_checked():
    text = GOOD + "constraints:\n  keep: [hit_faces, tie_colour]\n  hold:\n    - {row: hit, maximise: true}\n"
    message = errors_of(text)
    assert "<tuning>:13: constraints: keep: hit_faces is also a knob" in message
    assert "<tuning>:13: constraints: keep: 'tie_colour' is not a field of the angry-miniatures rules" in message
    assert "<tuning>:15: constraints: hold: hit must keep holding, so it needs value and tolerance" in message


def test_a_missing_argument_is_named():
    message = errors_of(GOOD.replace("fixed: {attack_dice: 3, defence_dice: 2}", "fixed: {attack_dice: 3}"))
    assert "odds_table needs defence_dice: give them in fixed, knobs or at" in message


def test_every_problem_at_once():
    text = GOOD.replace("hit_faces:", "hit_face:").replace("value: 75%", "value: most") + "colour: red\n"
    assert len(errors_of(text).splitlines()) == 3


def test_exhaustive_search_too_big_says_its_size():
    text = """\
system: angry-miniatures
calculator: odds_table
search: exhaustive
fixed: {defence_dice: 2}
targets: [{row: hit, maximise: true}]
knobs:
  attack_dice: {from: 0, to: 60}
  rules:
    tie_damage: {from: 0, to: 20}
    crit_count: {from: 1, to: 20}
"""
    with pytest.raises(TooBigError) as info:
        load_tuning(text)
    message = str(info.value)
    assert "61 attack_dice x 21 rules.tie_damage x 20 rules.crit_count" in message
    assert "25,620 settings" in message and f"at most {MAX_EXHAUSTIVE:,}" in message and "search: optuna" in message


def test_too_many_trials_for_the_calculator_says_its_size():
    text = """\
system: fairy-meat
calculator: deal_averaged_odds
search: optuna
trials: 10000
fixed: {method: exact}
targets:
  - {at: {attacker_cards: 2, defender_cards: 1}, probability: {winner: attacker}, maximise: true}
  - {at: {attacker_cards: 3, defender_cards: 1}, probability: {winner: attacker}, maximise: true}
  - {at: {attacker_cards: 4, defender_cards: 1}, probability: {winner: attacker}, maximise: true}
knobs:
  rules:
    attacker_bonus: {from: 0, to: 3}
"""
    with pytest.raises(TooBigError, match=r"10,000 trials measured at 3 sizes make 30,000 points; "):
        load_tuning(text)


def test_bisection_needs_one_whole_number_knob():
    text = GOOD + "search: bisection\n"
    assert "search: bisection needs exactly one knob, a whole-number range" in errors_of(text)


# -- measures --------------------------------------------------------------------------------------
def prob_rows(weights: dict[str, Fraction]) -> list[Row]:
    return [Row(k, "probability", v, float(v), True) for k, v in weights.items()]


def test_outcome_fields_read_labels():
    assert outcome_fields("winner=attacker, points=2, nasty_hit=False") == {
        "winner": "attacker",
        "points": 2,
        "nasty_hit": False,
        "outcome": "winner=attacker, points=2, nasty_hit=False",
    }
    assert outcome_fields("more than 30") == {"outcome": "more than 30"}


def test_probability_mean_and_difference_by_hand():
    rows = prob_rows(
        {
            "lost_a=0, lost_b=1": Fraction(1, 4),
            "lost_a=1, lost_b=1": Fraction(1, 4),
            "lost_a=2, lost_b=0": Fraction(1, 2),
        }
    )
    ahead = Measure("probability", event=(("lost_a", load_tuning_condition({"below": "lost_b"})),))
    assert measure_rows(ahead, rows) == Measured.of_exact(Fraction(1, 4))
    # mean lost_a = 0/4 + 1/4 + 2/2 = 5/4
    assert measure_rows(Measure("mean", "lost_a"), rows).value == Fraction(5, 4)
    diff = Measured.of_exact(Fraction(5, 4)).minus(Measured.of_exact(Fraction(1, 2)))
    assert diff == Measured.of_exact(Fraction(3, 4))


def load_tuning_condition(raw):
    """A Condition as a tuning file reads it (through the loader, not built by hand)."""
    text = GOOD.replace("    row: hit\n", f"    probability: {{lost_a: {raw}}}\n".replace("'", ""))
    return load_tuning(text).targets[0].measure.event[0][1]


def test_at_most_skips_what_is_not_a_number():
    rows = prob_rows({"1": Fraction(1, 2), "2": Fraction(1, 4), "more than 2": Fraction(1, 4)})
    within = Measure("probability", event=(("outcome", load_tuning_condition({"at_most": 3})),))
    assert not event_holds(within, "more than 2")
    assert measure_rows(within, rows).value == Fraction(3, 4)
    with pytest.raises(MeasureError, match="the mean of outcome is not defined: the outcome 'more than 2'"):
        measure_rows(Measure("mean", "outcome"), rows)


def test_a_field_no_outcome_has_is_named_with_the_fields():
    rows = prob_rows({"winner=attacker": Fraction(1, 2), "winner=defender": Fraction(1, 2)})
    with pytest.raises(MeasureError, match=r"no outcome has the field 'winer'.*fields: outcome, winner"):
        measure_rows(Measure("mean", "winer"), rows)
    with pytest.raises(MeasureError, match="no quantity 'hits' in the result; it reports winner=attacker"):
        measure_rows(Measure("row", "hits"), rows)


def test_estimates_count_only_with_their_whole_interval():
    target = load_tuning(GOOD).targets[0]  # 70% to 80%
    assert meets(target, Measured.of_exact(Fraction(7, 10)))
    assert not meets(target, Measured.of_exact(Fraction(69, 100)))
    assert meets(target, Measured(0.75, False, 0.72, 0.78))
    assert not meets(target, Measured(0.75, False, 0.69, 0.78))  # the interval leaves the tolerance
    assert not meets(target, Measured(0.75, False, None, None))  # no interval: never met


def test_ranking_met_then_fewest_changed_then_distance():
    tuning = load_tuning(GOOD)
    from toolkit.angry_miniatures import Rules
    from toolkit.tune.evaluate import Setting

    tens = Rules(hit_faces=("10", "J", "Q", "K", "A"))
    evaluated = [
        (Setting((("rules.hit_faces", tens.hit_faces),)), tens, (Measured.of_exact(Fraction(3, 4)),), None),
        (Setting((("rules.hit_faces", Rules().hit_faces),)), Rules(), (Measured.of_exact(Fraction(69, 100)),), None),
        (Setting((("rules.hit_faces", ("K",)),)), Rules(), (Measured.of_exact(Fraction(78, 100)),), None),
    ]
    ranked = rank(tuning, evaluated)
    # met and unchanged (78%, distance 0.6) before met and changed (75%, distance 0), before not met
    assert [c.measures[0].value for c in ranked] == [Fraction(78, 100), Fraction(3, 4), Fraction(69, 100)]
    assert [c.targets_met for c in ranked] == [1, 1, 0]
    assert ranked[1].changed == ("hit_faces",)


def test_auto_picks_the_search_by_the_space():
    from toolkit.tune.search import method_of

    base = """\
system: angry-miniatures
calculator: attacks_to_take_out
fixed: {attack_dice: 4, defence_dice: 2, health: 5}
targets: [{probability: {outcome: {at_most: 3}}, at_least: 60%}]
knobs:
"""
    small = load_tuning(base + "  cap: {from: 1, to: 30}\n")
    assert method_of(small) == "exhaustive"
    one_big = load_tuning(base + "  cap: {from: 1, to: 30}\nexhaustive_up_to: 10\n")
    assert method_of(one_big) == "bisection"
    two = load_tuning(base + "  cap: {from: 1, to: 30}\n  rules: {tie_damage: [0, 1]}\nexhaustive_up_to: 10\n")
    assert method_of(two) == "optuna"


def test_a_tuning_file_with_the_old_name_defense_dice_loads_as_defence_dice():
    # defence_dice was defense_dice: tuning files written before the rename still load, in
    # fixed, knobs and a target's at, and mean what the new name means
    shipped = (ROOT / "data" / "tune" / "angry_miniatures_hit_faces.yaml").read_text(encoding="utf-8")
    assert "defence_dice" in shipped
    old, new = load_tuning(shipped.replace("defence_dice", "defense_dice")), load_tuning(shipped)
    assert [t.at for t in old.every_target] == [t.at for t in new.every_target]
    assert dict(old.targets[0].at) == {"defence_dice": 2}
    fixed = load_tuning(GOOD.replace("defence_dice", "defense_dice"))
    assert dict(fixed.fixed) == {"attack_dice": 3, "defence_dice": 2}
    knob = GOOD.replace("fixed: {attack_dice: 3, defence_dice: 2}", "fixed: {attack_dice: 3}").replace(
        "knobs:\n", "knobs:\n  defense_dice: [1, 2]\n"
    )
    assert [k.name for k in load_tuning(knob).knobs] == ["defence_dice", "hit_faces"]
    both = GOOD.replace("defence_dice: 2}", "defence_dice: 2, defense_dice: 2}")
    assert "defence_dice and defense_dice name one argument: give it once" in errors_of(both)
