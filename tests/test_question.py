"""A result states its question: its first line names the system, the sizes, the policies,
the rules and how it was obtained, wherever it is shown (str, repr, the notebook view, the
explorers, the reports), and one function writes it (toolkit.question.headline).

Each calculator's line is checked against the line written out by hand, then one argument
is changed at a time and the line must change in that part only. Sizes come from hand
arithmetic: an exact Angry Miniatures attack of n + m dice counts 6^(n+m) rolls (AM-1: six
faces), so 3 v 2 dice is 7,776 and 4 v 2 is 46,656."""

from __future__ import annotations

import html
from dataclasses import replace

import pytest

from toolkit import angry_miniatures as am
from toolkit import durak_battle as db
from toolkit import fairy_meat as fm
from toolkit.comparison import difference, difference_of, mean_difference
from toolkit.house_rules import load_rules, rebuilt
from toolkit.question import Question, headline, headline_of, headline_over, method_words, rules_words

DRAFT = "draft rules"
EXACT_3V2 = "Angry Miniatures · 3 v 2 dice · melee · draft rules · exact (size 7,776)"


def _parts(line: str) -> list[str]:
    return line.split(" · ")


def _differs_only_in(before: str, after: str, *changed: int) -> bool:
    """Whether two headlines differ exactly in the parts at the ``changed`` positions."""
    a, b = _parts(before), _parts(after)
    return len(a) == len(b) and [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y] == list(changed)


# -- Angry Miniatures -----------------------------------------------------------------------
def test_an_opposed_attack_states_its_question_and_each_argument_changes_its_part():
    base = am.opposed(3, 2, "melee").headline()
    assert base == EXACT_3V2  # the line of the issue, word for word
    assert _differs_only_in(base, am.opposed(4, 2, "melee").headline(), 1, 4)  # 4 v 2 dice, 6^6 = 46,656
    assert am.opposed(4, 2, "melee").headline().endswith("4 v 2 dice · melee · draft rules · exact (size 46,656)")
    assert _differs_only_in(base, am.opposed(3, 3, "melee").headline(), 1, 4)
    assert _differs_only_in(base, am.opposed(3, 2, "magic").headline(), 2)
    tens = am.Rules(hit_faces=("10", "J", "Q", "K", "A"))
    assert _differs_only_in(base, am.opposed(3, 2, "melee", tens).headline(), 3)
    assert "Hit faces: 10, J, Q, K, A" in am.opposed(3, 2, "melee", tens).headline()
    sampled = am.opposed(3, 2, "melee", method="monte_carlo", trials=300).headline()
    assert (
        sampled
        == "Angry Miniatures · 3 v 2 dice · melee · draft rules · Monte Carlo (300 simulated attacks, 95% intervals)"
    )


def test_the_other_angry_miniatures_calculators_state_their_questions():
    assert (
        am.hit_distribution(3).headline() == "Angry Miniatures · 3 dice · hits rolled · draft rules · exact (size 216)"
    )
    assert am.hit_distribution(1).headline().startswith("Angry Miniatures · 1 die · ")
    area = am.area_attack(3, [2, 1]).headline()
    assert area == "Angry Miniatures · 3 v 2, 1 dice · magic area attack · draft rules · exact (size 46,656)"
    take = am.attacks_to_take_out(4, 3, health=3, cap=5).headline()
    assert _parts(take)[:5] == ["Angry Miniatures", "4 v 3 dice", "melee", "Health 3", "up to 5 attacks"]
    assert _differs_only_in(take, am.attacks_to_take_out(4, 3, health=2, cap=5).headline(), 3, 6)
    grunk, pixie = am.Character("Grunk", melee=3, body=2, health=2), am.Character("Pixie", melee=2, body=2, health=2)
    fight = am.melee_exchange(grunk, pixie).headline()
    assert _parts(fight)[1:4] == ["Grunk 3 v 2 dice, Pixie 2 v 2", "Health 2 v 2", "melee to the finish, taking turns"]
    assert "Grunk attacking" in am.melee_exchange(grunk, pixie, alternate=False).headline()


# -- Fairy Meat -------------------------------------------------------------------------------
def test_deal_averaged_odds_name_the_hands_the_policies_and_the_rules():
    exact = fm.deal_averaged_odds(3, 2)
    base = exact.headline()
    assert base == "Fairy Meat · 3 v 2 cards, every deal · greedy v greedy · draft rules · exact (size 140,880)"
    assert str(exact).splitlines()[0] == base  # the issue's `DealOdds (exact; size 140,880)`, now the question
    assert _differs_only_in(base, fm.deal_averaged_odds(2, 2).headline(), 1, 4)
    assert _differs_only_in(base, fm.deal_averaged_odds(3, 2, ("random", "greedy"), method="exact").headline(), 2, 4)
    assert "random v greedy" in fm.deal_averaged_odds(3, 2, ("random", "greedy"), method="exact").headline()
    assert _differs_only_in(base, fm.deal_averaged_odds(3, 2, rules=fm.Rules(trump_value=3)).headline(), 3)
    sampled = fm.deal_averaged_odds(3, 2, method="monte_carlo", trials=200).headline()
    assert _differs_only_in(base, sampled, 4) and sampled.endswith("Monte Carlo (200 simulated attacks, 95% intervals)")


def test_known_hands_name_the_hands():
    line = fm.attack_odds("5H 3D", "9H").headline()
    assert line == "Fairy Meat · hands 5H 3D v 9H · greedy v greedy · draft rules · exact"
    assert "v none (blind draw)" in fm.attack_odds("5H", "").headline()
    assert "· random v random ·" in fm.attack_odds("5H 3D", "9H", "random").headline()


def test_a_house_rules_file_is_named_by_its_file_and_title_even_when_rebuilt_field_by_field():
    house = load_rules("fairy-meat", "unhalved_damage")
    named = "house rules unhalved_damage.yaml (Unhalved damage)"
    assert rules_words(house) == named
    assert rules_words(replace(house)) != named  # equal rules typed by hand are named by their fields
    assert rules_words(rebuilt(replace(house), house)) == named  # an explorer's controls rebuild them: same name
    assert rules_words(rebuilt(replace(house, trump_value=3), house)) != named  # changed: its fields, not its name
    assert fm.deal_averaged_odds(1, 1, rules=house).headline().split(" · ")[3] == named
    assert rules_words(fm.Rules()) == DRAFT


def test_many_changed_fields_are_named_not_spelled_out():
    rules = am.Rules(hit_faces=("10", "J", "Q", "K", "A"), crit_count=3, tie_damage=2, zero_tie="super_tiebreak")
    words = rules_words(rules)
    assert words.startswith("4 fields changed from the draft: ") and "Hit faces" in words and "10, J" not in words


# -- Durak ----------------------------------------------------------------------------------
def test_a_clash_names_the_cards_the_tokens_the_armies_and_the_policies():
    base = db.clash_losses(1, 1, method="exact", tokens=(1, 3), names=("North", "South")).headline()
    assert base == (
        "Durak battle · 1 v 1 cards, one clash · North 1 token, South 3 tokens · greedy v greedy · draft rules"
        " · exact (size 53)"
    )
    assert _differs_only_in(
        base, db.clash_losses(1, 1, "random", method="exact", tokens=(1, 3), names=("North", "South")).headline(), 3
    )
    assert _differs_only_in(
        base, db.clash_losses(1, 1, method="exact", tokens=(2, 3), names=("North", "South")).headline(), 2
    )


def test_a_battle_names_the_armies_leaders_rounds_and_how_it_was_sampled():
    horde, elves = db.Army("Horde", 2, db.Leader("Grak", 4, 6)), db.Army("Elves", 2, db.Leader("Lia", 4, 6))
    quick = {"method": "monte_carlo", "trials": 40}
    base = db.battle_outcome(horde, elves, **quick).headline()
    assert base == (
        "Durak battle · Horde 2 v Elves 2 tokens · leaders d4/d6 v d4/d6 · at most 50 rounds · greedy v greedy"
        " · draft rules · Monte Carlo (40 simulated clashes per sampled table, 95% intervals)"
    )
    assert _differs_only_in(base, db.battle_outcome(horde, elves, max_rounds=3, **quick).headline(), 3)
    extra = replace(elves, leader=db.Leader("Lia", 4, 6, wild_card=False))
    assert "leaders d4/d6 v d4/d6 Extra" in db.battle_outcome(horde, extra, **quick).headline()
    sure = db.battle_outcome(horde, elves, rules=db.Rules(morale_target=3), **quick).headline()
    assert _differs_only_in(base, sure, 5)


# -- one function, every view -------------------------------------------------------------------
def test_every_view_of_a_result_starts_with_its_headline():
    for result in (am.opposed(3, 2, "melee"), am.opposed(3, 2, "melee", method="monte_carlo", trials=100)):
        line = result.headline()
        assert str(result).splitlines()[0] == line
        assert repr(result).startswith(f"Odds({line}: ")
        assert result._repr_html_().startswith(f"<p><b>{html.escape(line)}</b>")
    assert am.opposed(3, 2).marginal("defender_damage").headline() == EXACT_3V2  # a marginal answers the same


def test_the_headline_is_the_one_function_and_says_each_method():
    q = Question("Toy", "1 v 1")
    assert headline(q, "exact") == "Toy · 1 v 1 · draft rules · exact"
    assert method_words("exact", size=6**9100) == "exact (size about 10^7081)"  # 9100 · log10(6) = 7081.2
    assert method_words("mixed", 500, "simulated clashes per sampled table") == (
        "partly Monte Carlo (500 simulated clashes per sampled table, 95% intervals)"
    )
    assert headline_of(am.opposed(3, 2)) == EXACT_3V2 and headline_of({"not": "a result"}) == ""


def test_the_explorers_show_the_results_own_headline():
    ex = am.odds_explorer(attack_dice=3, defence_dice=2)
    assert ex.headline_text == am.opposed(3, 2, "melee").headline() == EXACT_3V2
    assert html.escape(EXACT_3V2) in ex.summary_line.value
    ex.controls["attack_type"].value = "magic"
    assert ex.headline_text == am.opposed(3, 2, "magic").headline()
    fx = fm.odds_explorer(attacker_cards=1, defender_cards=1)
    assert fx.headline_text == fm.deal_averaged_odds(1, 1).headline()
    hx = fm.hand_composition_explorer(cards=5, rules="tens_are_trumps")
    tens = "house rules tens_are_trumps.yaml (Tens are Trumps)"
    assert hx.headline_text == f"Fairy Meat · 5 cards · one hand · {tens} · exact"
    hx.controls["cards"].value = 1
    assert hx.headline_text.startswith("Fairy Meat · 1 card · one hand · ")
    rx = db.round_explorer(db.Army("Horde", 6, db.Leader("Grak", 8, 6)), db.Army("Elves", 5, db.Leader("Lia")))
    assert (
        rx.headline_text
        == "Durak battle · Horde 6 v Elves 5 tokens · one round · leaders d8/d6 v d6/d6 · draft rules · exact"
    )


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (None, DRAFT),
        ({"hit_faces": ["10", "J", "Q", "K", "A"]}, "Hit faces: 10, J, Q, K, A"),
        ("tens_hit", "house rules tens_hit.yaml (Tens hit)"),
    ],
)
def test_an_explorer_under_house_rules_names_them(rules, expected):
    ex = am.odds_explorer(attack_dice=3, defence_dice=2, rules=rules)
    assert ex.headline_text.split(" · ")[3] == expected
    ex.controls["return_damage"].value = not ex.controls["return_damage"].value  # a control changes a field
    assert ex.headline_text.split(" · ")[3] not in (expected, DRAFT) and "Melee damage back: no" in ex.headline_text


def test_a_report_table_caption_starts_with_the_same_line():
    import pandas as pd

    from toolkit.reports.figures import table_html

    result = am.opposed(3, 2, "melee")
    markup = table_html(pd.DataFrame({"p": [result.probability(lambda o: o.hit)]}), "Chance to hit", question=result)
    caption = markup.split("<caption>")[1].split("</caption>")[0]
    assert caption == f"<b>{html.escape(result.headline())}</b><br>Chance to hit"  # one function: the result's own
    grid = headline(Question.about(am.Rules(), "1–8 dice", "hits rolled"), "exact")
    assert f"<caption><b>{html.escape(grid)}</b></caption>" in table_html(pd.DataFrame({"p": [1]}), question=grid)


def test_a_table_of_several_results_reads_their_methods():
    grid = Question.about(fm.Rules(), "1–2 v 1 cards, every deal", policies=("greedy", "greedy"))
    exact = [fm.deal_averaged_odds(1, 1), fm.deal_averaged_odds(2, 1)]
    assert headline_over(grid, exact).endswith("greedy v greedy · draft rules · exact")
    mixed = [exact[0], fm.deal_averaged_odds(2, 1, method="monte_carlo", trials=150)]
    assert headline_over(grid, mixed).endswith("· exact or Monte Carlo (up to 150 simulated attacks, 95% intervals)")


def test_a_comparison_states_both_questions_once():
    tens = load_rules("angry-miniatures", "tens_hit")
    change = difference(am.opposed(3, 2), am.opposed(3, 2, rules=tens), lambda o: o.hit)
    assert change.headline() == (
        "Angry Miniatures · 3 v 2 dice · melee · draft rules → house rules tens_hit.yaml (Tens hit)"
        " · exact (size 7,776)"
    )
    mean = mean_difference(am.opposed(3, 2), am.opposed(3, 2, "magic"), "defender_damage")
    assert mean.headline().startswith("Angry Miniatures · 3 v 2 dice · melee → magic · draft rules")
    assert difference_of(0.5, (0.4, 0.6), 0.6, (0.5, 0.7)).headline() == ""  # two bare numbers ask nothing


def test_an_expected_value_states_its_question_too():
    exact = am.expected_attacks_to_take_out(4, 3, health=3)
    assert exact.headline() == (
        "Angry Miniatures · 4 v 3 dice · melee · Health 3 · expected attacks to take out · draft rules"
        " · exact (size 945)"
    )
    assert repr(exact) == "Fraction(1145, 343)"  # exact, it reads as the number it is
    sampled = am.expected_attacks_to_take_out(4, 3, health=3, method="monte_carlo", trials=200)
    assert sampled.headline().endswith("· Monte Carlo (200 simulated targets attacked, 95% intervals)")
    assert sampled.headline() in repr(sampled) and html.escape(sampled.headline()) in sampled._repr_html_()
