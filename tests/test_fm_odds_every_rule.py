"""The Fairy Meat counting model under every valid rule set (FM-1, FM-8, FM-12): jokers,
a Trump worth more than 1, a death card of either colour, custom ranks.

Expected values come from elsewhere than the counting model: the engine stepped card by
card over every deal (random play, no draw law), the general exact path over hand
compositions, the colour symmetry of the rules (a red death card is the A♠ with the
colours swapped, FM-12), and the brute force of ``brute_force_fairy_meat`` (greedy play).
The brute force over 32 random rule sets is in ``test_fm_odds_brute_force.py``.
"""

from __future__ import annotations

import random

import brute_force_fairy_meat as bf
import pytest
from test_fm_house_rules import engine_every_deal

from toolkit.cards import parse_cards
from toolkit.fairy_meat import Rules
from toolkit.fairy_meat.odds import attack_odds, deal_averaged_odds, exact_size
from toolkit.fairy_meat.odds.checks import resolve_policies
from toolkit.fairy_meat.odds.deals import EXACT_LIMIT, generic_weights
from toolkit.house_rules import load_rules
from toolkit.prob import Distribution

#: Small decks under the house rules the draft's counting model did not cover.
SMALL = [
    # 2 jokers, Trumps worth 3, a red death card
    Rules(numbered_ranks=("3", "7"), trump_ranks=("K",), jokers=2, trump_value=3, death_card="KH"),
    # 1 joker, a red death card, FM-5 variants, lowest wins in one colour
    Rules(
        numbered_ranks=("2", "9"),
        trump_ranks=("Q",),
        jokers=1,
        death_card="QD",
        none_means="no_face_down",
        none_reveal="subset",
        same_colour_wins="lowest",
    ),
    # no joker, Trumps worth 2, 10s as Trumps (the 10♣ the death card), the damage table, unopposed
    Rules(
        numbered_ranks=("4", "8"),
        trump_ranks=("10",),
        trump_value=2,
        death_card="10C",
        damage="table",
        undefended="unopposed",
    ),
]
IDS = ["jokers2-worth3-KH", "joker-QD-variants", "worth2-tens-table"]


@pytest.mark.slow  # every deal stepped card by card through the engine: about 10 s each
@pytest.mark.parametrize("rules", SMALL[1:], ids=IDS[1:])
def test_random_play_matches_the_engine_card_by_card_over_every_deal(rules):
    # random v random: the counting model's RandomModel (a joker as a Wild Trump, FM-6)
    # against every deal stepped through the engine (2 jokers: the general path below,
    # whose hands of 2 cards place jokers with Trumps, FM-4)
    exact = deal_averaged_odds(1, 1, ("random", "random"), rules, method="exact")
    assert dict(exact.distribution.items()) == engine_every_deal(1, 1, ("random", "random"), rules)


@pytest.mark.parametrize("rules", SMALL[:2], ids=IDS[:2])
def test_the_counting_model_equals_the_general_exact_path(rules):
    # the general path runs attack_odds on every pair of hand compositions (FM-1)
    for policies in ("greedy", "random"):
        for a, d in ((1, 1), (2, 0)):
            counted = deal_averaged_odds(a, d, policies, rules, method="exact").distribution
            general = Distribution(generic_weights(a, d, resolve_policies(policies), rules))
            assert counted == general, (policies, a, d)


def test_a_red_death_card_is_the_ace_of_spades_with_the_colours_swapped():
    # FM-12: the rules and the random policy treat the colours alike, so under death_card=AH
    # random play averages to exactly the draft's odds; known hands map QS -> QH
    ah = Rules(death_card="AH")
    assert (
        deal_averaged_odds(1, 1, "random", ah, method="exact").distribution
        == deal_averaged_odds(1, 1, "random", method="exact").distribution
    )
    # a Wild Trump and a blind draw from the full deck (raised TooBigError before: the
    # draw law covered only a black death card)
    assert dict(attack_odds("QS", "", rules=ah).items()) == dict(attack_odds("QH", "").items())


def test_known_hands_with_jokers_and_worth_match_the_brute_force():
    rules = Rules(jokers=2, trump_value=2, death_card="KD")
    for hand_a, hand_d in (("QS 5H", "JK1"), ("5H JK2", "KD 9S")):
        got = dict(attack_odds(hand_a, hand_d, rules=rules).items())
        assert got == bf.attack(parse_cards(hand_a), parse_cards(hand_d), rules), (hand_a, hand_d)


def test_five_v_three_is_exact_under_every_house_rule_of_the_issue():
    # exact_size against the limit, without computing (the benchmark times them)
    for rules in (Rules(jokers=1), Rules(jokers=2), Rules(trump_value=2), Rules(death_card="AH")):
        assert exact_size(5, 3, "greedy", rules) <= EXACT_LIMIT, rules.variant_name()


# -- the hidden-hands solver under every deck (FM-1, FM-8, FM-12) ------------------------------------
@pytest.mark.slow  # three 2 v 1 games (about 4 s each on an idle machine)
@pytest.mark.parametrize("worth", [2, 10])
def test_hidden_solver_evaluates_fixed_play_as_the_exact_odds_under_trump_worth(worth):
    from test_fairy_meat_hidden import odds_payoff

    from toolkit.fairy_meat import solve_hidden

    rules = Rules(trump_value=worth)
    sol = solve_hidden(2, 1, rules, target=0.001, check_every=5)
    for pols in (("greedy", "greedy"), ("random", "random")):
        expected, _ = odds_payoff(2, 1, pols, rules)
        assert sol.evaluate(*pols) == pytest.approx(expected, abs=1e-12), pols


#: Seeded random valid rule sets of the brute force's generator (small decks: 2 Numbered ranks, 1-2
#: Trump ranks, 0-2 jokers, any death card or none, any Trump worth, every variant), and the shipped
#: tens_are_trumps and a red death card on the full deck.
HIDDEN_SEEDS = [2, 5, 12, 14, 21, 23]


def test_the_hidden_rule_sets_cover_the_deck_fields():
    from test_fm_odds_brute_force import random_rules

    rs = [random_rules(random.Random(seed)) for seed in HIDDEN_SEEDS]
    assert {r.jokers for r in rs} == {0, 1, 2} and any(r.trump_value > 1 for r in rs)
    assert any(len(r.trump_ranks) == 2 for r in rs) and any(r.death_card is None for r in rs)
    assert {"H", "D"} & {r.death_card[-1] for r in rs if r.death_card}
    assert any(set(r.trump_ranks) & {"2", "3", "4", "5", "6", "7", "8", "9", "10"} for r in rs)


@pytest.mark.parametrize("seed", HIDDEN_SEEDS)
def test_hidden_solver_evaluates_fixed_play_as_the_exact_odds_under_random_house_rules(seed):
    # the solver's value of fixed policies over every deal and draw against the exact odds
    # calculator (a separate counting code path, itself checked against the brute force)
    from test_fairy_meat_hidden import odds_payoff
    from test_fm_odds_brute_force import random_rules

    from toolkit.fairy_meat import solve_hidden

    rules = random_rules(random.Random(seed))
    sol = solve_hidden(2, 1, rules, target=0.05)
    for pols in (("greedy", "greedy"), ("random", "random"), ("greedy", "random")):
        expected, _ = odds_payoff(2, 1, pols, rules)
        assert sol.evaluate(*pols) == pytest.approx(expected, abs=1e-12), (pols, rules.variant_name())


@pytest.mark.parametrize("name", ["tens_are_trumps", "death_AH"])
def test_hidden_solver_evaluates_fixed_play_as_the_exact_odds_on_full_house_decks(name):
    from test_fairy_meat_hidden import odds_payoff

    from toolkit.fairy_meat import solve_hidden

    # (random v random is checked on the small decks above: on a full deck its exact odds take longest)
    rules = Rules(death_card="AH") if name == "death_AH" else load_rules("fairy-meat", name)
    sol = solve_hidden(1, 1, rules, target=0.05)
    for pols in (("greedy", "greedy"), ("greedy", "random")):
        expected, _ = odds_payoff(1, 1, pols, rules)
        assert sol.evaluate(*pols) == pytest.approx(expected, abs=1e-12), pols
