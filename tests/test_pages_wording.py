"""Wording on the pages: one fairy one pronoun (Sparklespaz is "he", as in the draft's
worked example), counts in words ("the one expectation holds", never "all 1 hold"),
chart legends that read ("attack dice: 1"), cards drawn as K♠ wherever a designer reads
them (the codes stay what she types)."""

from __future__ import annotations

import re

import pytest

from toolkit.examples import EXAMPLES_DIR


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_sparklespaz_is_he_in_every_shipped_example(path):
    text = path.read_text(encoding="utf-8")
    if "name: Sparklespaz" not in text:
        pytest.skip("no Sparklespaz")
    assert re.search(r"name: Sparklespaz, pronoun: he\b", text), path.name


def test_the_rule_book_examples_call_sparky_he():
    """The rule-book finder's defender, Sparky, was "she" 18 times on the rule-book page."""
    from toolkit.rulebook import catalogue, search

    situation = catalogue("fairy-meat")[0].name
    found = search("fairy-meat", situation, None, n=1, seed=15, budget_seconds=10)
    assert found and "name: Sparky" in found[0].text and "pronoun: he" in found[0].text, found[0].text[:300]


def test_a_single_expectation_holds_in_words():
    from toolkit.rulebook.export_model import Expectation, checks_verdict

    one, two = Expectation("winner attacker", ()), Expectation("points 2", ("points were 1",))
    assert checks_verdict((one,)) == "The example file's expectation, checked on this replay, holds."
    assert checks_verdict((one, one)).endswith("2 expectations, checked on this replay, all hold.")
    assert checks_verdict((one, two)).endswith(": 1 of 2 NOT met.")


def test_a_rule_change_charts_legend_names_the_size_then_its_value():
    """Legends once read "1 attack dice" and "1 North's cards"."""
    from toolkit.reports.rule_change import compare_rules

    change = compare_rules("angry-miniatures", None, "tens_hit", {"max_dice": 2})
    names = [trace.name for t in change.tables for trace in t.curves("Draft", "Tens hit").data]
    assert names and all(re.match(r"\D.*: \d+, (Draft|Tens hit)$", n) for n in names), names
    assert "attack dice: 1, Tens hit" in names


#: A card written as its code (``KS``, ``10H``): what a designer types, never what she reads.
CARD_CODE = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


def test_the_strategy_tables_draw_cards_as_every_other_text_does():
    """The strategy report's tables once read "KC", "2D" and "3D 4C 5C QC KS v 2D KC"."""
    from toolkit.fairy_meat.strategy.optimal import solve_attack

    sol = solve_attack("KS QC 5C", "2D KC")
    texts = [
        str(v)
        for side in ("attacker", "defender")
        for v in sol.table(side).drop(columns=["probability"]).values.ravel()
    ]
    texts.append(sol._repr_html_())
    assert not [t for t in texts if CARD_CODE.search(t)], [t for t in texts if CARD_CODE.search(t)][:5]
    assert any("♣" in t for t in texts)


def test_the_steppers_hint_draws_the_cards_to_type():
    """The outcome hint once read "e.g. one of KS"; the box reads K♠ as well as KS."""
    from toolkit.fairy_meat.widgets import combat_stepper

    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC")
    hints = [st.stepper.prompt_line.value, st.stepper.error_line.value, st.stepper.outcome_box.placeholder]
    st.stepper.step()
    hints += [st.stepper.prompt_line.value, st.stepper.error_line.value, st.stepper.note]
    assert not [h for h in hints if CARD_CODE.search(h)], hints


def test_rules_a_shipped_file_makes_are_named_by_its_title():
    """A picked shipped file (Tens hit) was shown as "house rules"."""
    from dataclasses import replace

    from toolkit.house_rules import RulesFile, load_rules, read_house_rules, rules_files

    tens = load_rules("angry-miniatures", "tens_hit")
    assert read_house_rules("angry-miniatures", tens).title == "Tens hit"
    picked = RulesFile.read(rules_files("angry-miniatures")[0])
    assert read_house_rules("angry-miniatures", picked) is picked
    assert read_house_rules("angry-miniatures", replace(tens, tie_damage=2)).title == "house rules"
    assert read_house_rules("angry-miniatures", None).title == "default rules"


def test_a_reports_parameters_line_names_the_system_by_its_title():
    """The line under a report's title once read "system angry-miniatures"."""
    from toolkit.reports.parameters import parameter_words

    assert parameter_words("system", "angry-miniatures") == ("system", "Angry Miniatures")
    assert parameter_words("system", "durak-battle") == ("system", "Durak mass battle")


def test_a_file_that_could_not_be_loaded_is_no_news_after_other_changes(tmp_path):
    """An explorer kept "house-rules file 'my_rules.yaml' does not exist" under odds
    recomputed for unrelated changes."""
    from toolkit.angry_miniatures.widgets import odds_explorer

    ex = odds_explorer()
    picker = ex.rules_picker
    assert not picker.load(str(tmp_path / "my_rules.yaml")) and "my_rules.yaml" in picker.error_line.value
    ex.controls["attack_dice"].value += 1
    assert picker.error == "" and picker.error_line.value == ""
