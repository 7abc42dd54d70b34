"""The hidden-hands equilibrium of one Fairy Meat attack against independent references.

References: a sequence-form linear programme (scipy's HiGHS) built here from every deal
of real cards, with Wild Trump draws enumerated card by card and every attack judged by
the referee on the real cards (docs/rulings.md FM-1..FM-12); brute counts of real deals;
the engine's legal actions; the exact odds calculator of :mod:`toolkit.fairy_meat.odds`
(a separate counting code path) for fixed policies; Monte Carlo over the engine; and a
symmetry argument by hand.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog
from test_fm_odds_brute_force import random_rules

from toolkit.cards import Card, standard_deck
from toolkit.engine import play_out
from toolkit.errors import InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.deck import representative_hand, type_caps, type_index
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.legality import placed_cards
from toolkit.fairy_meat.odds import deal_averaged_odds
from toolkit.fairy_meat.odds.known_hands import start_known_hands
from toolkit.fairy_meat.policies import greedy_policy, random_policy
from toolkit.fairy_meat.referee import Play, is_numbered, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.fairy_meat.strategy import hidden
from toolkit.fairy_meat.strategy.hidden import (
    HIDDEN_LIMIT,
    deal_weights,
    hand_types,
    hidden_size,
    solve_hidden,
    type_options,
)
from toolkit.fairy_meat.strategy.payoff import Payoff

DECK = standard_deck()
# A small deck for the brute forces: pips 3, 5, 8 in every suit and three Trumps (K♥, K♠, A♠).
KEPT = {Card(f"{p}{s}") for p in (3, 5, 8) for s in "SHDC"} | {Card("KH"), Card("KS"), Card("AS")}
REMOVED = tuple(c.code for c in DECK if c not in KEPT)
LP_PAYOFF = Payoff(damage=1, defender_points="1/2", nasty_hit=2)


# -- an independent brute force: real cards, the referee, a sequence-form LP -------------------------
# Written from the rule text (FM-1, FM-4, FM-6, FM-12) for any rules: a card is Numbered if its rank
# is one of ``rules.numbered_ranks``, a Trump if its rank is one of ``rules.trump_ranks`` or it is a
# joker (a Trump of no colour, which joins a set of either colour); the death card is
# ``rules.death_card``.
def numbered(card: Card, rules: Rules) -> bool:
    return not card.is_joker and card.rank in rules.numbered_ranks


def kind(card: Card, rules: Rules) -> tuple:
    """A card's type for caching the referee (cards of one type are alike to the rules)."""
    if numbered(card, rules):
        return (card.colour, card.pips)
    if card.code == rules.death_card:
        return ("death",)
    return ("joker",) if card.is_joker else ("trump", card.colour)


def types(cards, rules: Rules) -> tuple:
    return tuple(sorted(kind(c, rules) for c in cards))


class Referee:
    """The referee's payoff of a pair of plays, each given as (direction, placed, Numbered
    card, Trumps turned up, Wild Trump or None), asked once per pair of card types."""

    def __init__(self, rules: Rules, payoff: Payoff) -> None:
        self.rules, self.payoff, self.cache, self.values = rules, payoff, {}, {}

    def __call__(self, a_play: tuple, d_play: tuple) -> Fraction:
        key = tuple(
            (
                direction,
                types(placed, self.rules),
                kind(number, self.rules),
                types(drawn, self.rules),
                kind(wild, self.rules) if wild else None,
            )
            for direction, placed, number, drawn, wild in (a_play, d_play)
        )
        if key not in self.cache:
            pa, pd = (
                Play(number, trumps=placed, direction=direction, drawn=drawn, wild=wild, rules=self.rules)
                for direction, placed, number, drawn, wild in (a_play, d_play)
            )
            self.cache[key] = self.payoff.of(resolve_attack(pa, pd, self.rules))
        return self.cache[key]


def draws(deck: list[Card], rules: Rules):
    """Every way of turning up cards until a Numbered card (FM-6), card by card:
    (Trumps turned up, the Numbered card, the cards left, probability)."""
    out = []

    def rec(left, drawn, p):
        for c in left:
            q = p / len(left)
            rest = [x for x in left if x != c]
            if numbered(c, rules):
                out.append((tuple(drawn), c, rest, q))
            else:
                rec(rest, [*drawn, c], q)

    rec(deck, [], Fraction(1))
    return out


def attack_value(referee, deck, a_play, d_play) -> Fraction:
    """Expected payoff; a side's play is (direction, placed, card) with card a Numbered
    card or a Trump played as a Wild Trump; the attacker turns up first. Remembered by the
    card types of the plays and of the deck left (cards of one type are alike)."""
    rules = referee.rules
    key = (
        tuple((direction, types(placed, rules), kind(card, rules)) for direction, placed, card in (a_play, d_play)),
        types(deck, rules),
    )
    got = referee.values.get(key)
    if got is None:
        got = referee.values[key] = _attack_value(referee, deck, a_play, d_play)
    return got


def _attack_value(referee, deck, a_play, d_play) -> Fraction:
    rules = referee.rules

    def finish(side_play, left):
        direction, placed, card = side_play
        if numbered(card, rules):
            return [((direction, placed, card, (), None), left, Fraction(1))]
        return [((direction, placed, number, drawn, card), rest, q) for drawn, number, rest, q in draws(left, rules)]

    total = Fraction(0)
    for play_a, left, qa in finish(a_play, deck):
        for play_d, _, qd in finish(d_play, left):
            total += qa * qd * referee(play_a, play_d)
    return total


def legal_plays(hand, rules: Rules):
    """(placed Trumps, card) pairs a hand may play (FM-4, FM-6), from the rule text: None,
    or any non-empty set of Trumps of one colour (jokers join either), keeping a Trump
    back for the Wild Trump when she holds no Numbered card."""
    trumps = [c for c in hand if not numbered(c, rules)]
    held = [c for c in hand if numbered(c, rules)]
    sets, seen = [()], set()
    for colour in ("red", "black"):
        group = [c for c in trumps if c.colour in (colour, None)]
        for k in range(1, len(group) + 1):
            for s in itertools.combinations(group, k):
                if (held or len(s) < len(trumps)) and frozenset(s) not in seen:
                    seen.add(frozenset(s))
                    sets.append(s)
    out = []
    for s in sets:
        rest = [c for c in hand if c not in s]
        cards = [c for c in rest if numbered(c, rules)] or rest
        out += [(s, c) for c in cards]
    return out


def lp_value(a: int, rules: Rules, payoff: Payoff, deck=None) -> float:
    """Game value of an ``a`` v 1 attack from ``deck`` (default: the small deck) by a
    sequence-form LP over real cards. The defender (1 card) never places Trumps: her only
    decision is her declaration, seen the attacker's; she says None, so the attacker's
    Trumps stay hidden."""
    deck = sorted(KEPT) if deck is None else sorted(deck)
    referee = Referee(rules, payoff)
    hands = list(itertools.combinations(deck, a))
    n_deals = len(hands) * (len(deck) - a)
    plays = {h: legal_plays(h, rules) for h in hands}
    # attacker variables: (hand, dA) then (hand, dA, dD, placed, card)
    var: dict[tuple, int] = {}
    for h in hands:
        for da in ("add", "subtract"):
            var[(h, da)] = len(var)
            for dd in ("add", "subtract"):
                for s, c in plays[h]:
                    var[(h, da, dd, s, c)] = len(var)
    d_infos = [(c, da) for c in deck for da in ("add", "subtract")]
    n = len(var) + len(d_infos)
    a_eq, b_eq = [], []
    for h in hands:
        row = np.zeros(n)
        for da in ("add", "subtract"):
            row[var[(h, da)]] = 1
            for dd in ("add", "subtract"):
                r2 = np.zeros(n)
                r2[var[(h, da)]] = -1
                for s, c in plays[h]:
                    r2[var[(h, da, dd, s, c)]] = 1
                a_eq.append(r2)
                b_eq.append(0)
        a_eq.append(row)
        b_eq.append(1)
    a_ub, b_ub = [], []
    for j, (cd, da) in enumerate(d_infos):
        for dd in ("add", "subtract"):
            row = np.zeros(n)
            row[len(var) + j] = 1
            for h in hands:
                if cd in h:
                    continue
                left = [c for c in deck if c not in h and c != cd]
                d_card_play = (dd, (), cd)
                for s, c in plays[h]:
                    u = attack_value(referee, left, (da, s, c), d_card_play)
                    row[var[(h, da, dd, s, c)]] -= float(u) / n_deals
            a_ub.append(row)
            b_ub.append(0)
    cost = np.zeros(n)
    cost[len(var) :] = -1
    bounds = [(0, None)] * len(var) + [(None, None)] * len(d_infos)
    res = linprog(cost, A_ub=np.array(a_ub), b_ub=b_ub, A_eq=np.array(a_eq), b_eq=b_eq, bounds=bounds, method="highs")
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("a", [1, 2])
def test_value_matches_the_sequence_form_lp_over_real_cards(a):
    rules = Rules()
    expected = lp_value(a, rules, LP_PAYOFF)
    sol = solve_hidden(a, 1, rules, LP_PAYOFF, removed=REMOVED, target=1e-4, max_iterations=3000)
    assert sol.lower - 1e-9 <= expected <= sol.upper + 1e-9
    assert sol.exploitability <= 1e-4 * sol.payoff_range + 1e-12
    assert abs(sol.value - expected) <= sol.exploitability + 1e-9


def small_house_deck(rules: Rules, rng: random.Random) -> list[Card]:
    """A small deck of the rules' cards, from the rule text (FM-1, FM-12): every Numbered card
    of its ranks (four suits) and three of its Trumps — the death card when there is one, a
    joker when there are any, the others at random."""
    numbered_cards = [Card(r + s) for r in rules.numbered_ranks for s in "SHDC"]
    trumps = [Card(r + s) for r in rules.trump_ranks for s in "SHDC"] + [
        Card(j) for j in ("JK1", "JK2")[: rules.jokers]
    ]
    first = [c for c in trumps if c.code == rules.death_card] + [c for c in trumps if c.is_joker][:1]
    rest = [c for c in trumps if c not in first]
    return numbered_cards + first + rng.sample(rest, 3 - len(first))


#: Random valid rule sets (the brute force's generator, seeded) covering jokers (1 and 2), a Trump
#: worth 2, 4, 5 and 10, a red and a black death card and none, both None rules and reveals.
HOUSE_SEEDS = [0, 1, 3, 19]


@pytest.mark.parametrize("seed", HOUSE_SEEDS)
def test_value_matches_the_lp_over_real_cards_under_random_house_rules(seed):
    # FM-1, FM-4..FM-12 under any deck: custom ranks, jokers, any death card, any Trump worth
    rules = random_rules(random.Random(seed))
    deck = small_house_deck(rules, random.Random(seed))
    full = [Card(r + s) for r in (*rules.numbered_ranks, *rules.trump_ranks) for s in "SHDC"]
    removed = [c.code for c in full + [Card(j) for j in ("JK1", "JK2")[: rules.jokers]] if c not in deck]
    expected = lp_value(2, rules, LP_PAYOFF, deck)
    sol = solve_hidden(2, 1, rules, LP_PAYOFF, removed=removed, target=1e-4, max_iterations=3000)
    assert sol.lower - 1e-9 <= expected <= sol.upper + 1e-9, rules.variant_name()
    assert abs(sol.value - expected) <= sol.exploitability + 1e-9


def test_the_house_rule_sets_cover_the_deck_fields():
    rs = [random_rules(random.Random(seed)) for seed in HOUSE_SEEDS]
    assert {r.jokers for r in rs} == {0, 1, 2} and {r.trump_value for r in rs} >= {2, 10}
    assert {None, "black", "red"} <= {r.death_card and Card(r.death_card).colour for r in rs}
    assert {r.none_means for r in rs} == {"no_trumps", "no_face_down"} and {r.none_reveal for r in rs} == {
        "all_or_nothing",
        "subset",
    }
    assert all(r.numbered_ranks != Rules().numbered_ranks for r in rs)


def test_lp_with_table_damage_and_nasty_hits_to_the_loser():
    rules = Rules(damage="table", nasty_hit="loser")
    expected = lp_value(2, rules, LP_PAYOFF)
    sol = solve_hidden(2, 1, rules, LP_PAYOFF, removed=REMOVED, target=1e-4, max_iterations=3000)
    assert sol.lower - 1e-9 <= expected <= sol.upper + 1e-9


def test_full_deck_one_card_each_is_symmetric():
    # By hand: with one card each nobody can place a Trump (a lone Trump is kept for the
    # Wild Trump, FM-6), the deal and the draws are exchangeable, and the default payoff
    # is +points when the attacker wins, -points when the defender wins (FM-10): value 0.
    sol = solve_hidden(1, 1)
    assert sol.lower <= 1e-12 and sol.upper >= -1e-12
    assert sol.exploitability_share <= 0.01
    assert sol.payoff_range > 0


# -- deals ------------------------------------------------------------------------------------------
def test_deal_weights_sum_to_one_and_match_a_count_of_real_deals():
    w = deal_weights(2, 1)
    assert sum(w.values()) == 1
    assert all(isinstance(v, Fraction) for v in w.values())
    small = deal_weights(2, 1, removed=REMOVED)
    assert sum(small.values()) == 1
    deck = sorted(KEPT)
    counts: Counter = Counter()
    for ha in itertools.combinations(deck, 2):
        for cd in deck:
            if cd in ha:
                continue
            counts[(comp(ha), comp((cd,)))] += 1
    total = sum(counts.values())
    assert total == comb(15, 2) * 13
    assert small == {k: Fraction(v, total) for k, v in counts.items()}


def comp(cards) -> tuple:
    out = [0] * 21
    for c in cards:
        out[type_index(c)] += 1
    return tuple(out)


def comb(n, k):
    from math import comb as c

    return c(n, k)


def test_type_names():
    assert hidden.type_name(3) == "5 red" and hidden.type_name(17) == "10 black"
    assert hidden.TYPE_NAMES[18:] == ("red Trump", "black Trump", "A♠")


# -- legal actions against the engine -----------------------------------------------------------------
def engine_type(action: str):
    return hidden.type_action(action)


@pytest.mark.parametrize("size", [1, 2, 3])
def test_type_options_match_the_engine(size):
    for hand in hand_types(size, type_caps()):
        cards = representative_hand(hand, 0)
        other = [c for c in DECK if is_numbered(c) and c not in cards][:1]
        state = start_known_hands(cards, other, Rules()).apply("declare add").apply("declare add")
        engine_sets = Counter(engine_type(a) for a in state.legal_actions())
        opts = type_options(hand)
        assert set(engine_sets) == set(opts), hand
        for placed, card_types in opts.items():
            chosen = placed_cards(cards, placed)
            st = state.apply("trumps " + (" ".join(c.code for c in chosen) or "none")).apply("trumps none")
            assert {engine_type(a) for a in st.legal_actions()} == set(card_types), (hand, placed)


# -- fixed policies against the exact odds calculator and Monte Carlo ---------------------------------
def odds_payoff(a, d, pols, rules=None):
    odds = deal_averaged_odds(a, d, pols, rules, method="exact")
    payoff = Payoff()
    total = Fraction(0)
    for o, p in odds.distribution.items():
        value = o.damage if o.winner == "attacker" else (-o.points if o.winner == "defender" else 0)
        total += p * value * payoff.damage if o.winner != "defender" else p * value * payoff.defender_points
    return float(total), odds.distribution


@pytest.fixture(scope="module")
def sol21():
    return solve_hidden(2, 1, target=0.0005, check_every=5)


@pytest.mark.parametrize("pols", [("random", "random"), ("greedy", "greedy"), ("greedy", "random")])
def test_evaluate_fixed_policies_matches_the_exact_odds(sol21, pols):
    expected, dist = odds_payoff(2, 1, pols)
    assert sol21.evaluate(*pols) == pytest.approx(expected, abs=1e-12)
    table = sol21.outcomes(*pols)
    got = {(r.winner, r.points, r.damage, r.nasty_hit): r.probability for r in table.itertuples()}
    want = {(o.winner, o.points, o.damage, o.nasty_hit): float(p) for o, p in dist.items()}
    assert set(got) == set(want)
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12)


def monte_carlo(a, d, pols, payoff, trials, seed):
    """Mean payoff and its standard error over random deals played out through the engine."""
    rng = random.Random(seed)
    attacker, defender = Fairy("A", live=1, kill=0), Fairy("D", live=1, kill=1)
    values = []
    for _ in range(trials):
        cards = rng.sample(DECK, a + d)
        state = start_combat(
            attacker,
            defender,
            hands=(cards[:a], cards[a:]),
            attacker_modifiers=a - 1,
            defender_modifiers=d - 1,
            attacks=1,
        )
        end = play_out(state, rng, {"attacker": pols[0], "defender": pols[1]})
        values.append(float(payoff.of(end.results[0])))
    mean = sum(values) / trials
    var = sum((v - mean) ** 2 for v in values) / (trials - 1)
    return mean, (var / trials) ** 0.5


def test_evaluate_random_one_card_each_matches_monte_carlo():
    # a payoff that breaks the symmetry of 1 v 1 (so the value is not 0 by symmetry)
    sol = solve_hidden(1, 1, payoff=LP_PAYOFF)
    mean, se = monte_carlo(1, 1, (random_policy, random_policy), LP_PAYOFF, 2500, seed=11)
    assert abs(sol.evaluate("random", "random") - mean) <= 4.5 * se


def test_evaluate_matches_monte_carlo_through_the_engine(sol21):
    mean, se = monte_carlo(2, 1, (greedy_policy, random_policy), Payoff(), 3000, seed=7)
    assert abs(sol21.evaluate("greedy", "random") - mean) <= 4.5 * se


# -- the solver itself ------------------------------------------------------------------------------
def test_exploitability_falls_and_meets_the_target(sol21):
    curve = [e for _, _, e in sol21.curve]
    assert len(curve) >= 3
    assert curve[-1] < curve[0]
    assert sum(b <= a + 1e-12 for a, b in itertools.pairwise(curve)) >= 0.8 * (len(curve) - 1)
    assert sol21.exploitability == pytest.approx(curve[-1])
    assert sol21.exploitability_share <= 0.0005
    assert sol21.lower <= sol21.value <= sol21.upper
    assert [i for i, _, _ in sol21.curve] == sorted(i for i, _, _ in sol21.curve)


def test_best_responses(sol21):
    assert sol21.best_response_value("attacker") == pytest.approx(sol21.upper)
    assert sol21.best_response_value("defender") == pytest.approx(sol21.lower)
    for name in ("random", "greedy"):
        assert sol21.best_response_value("attacker", name) >= sol21.evaluate("equilibrium", name) - 1e-12
        assert sol21.best_response_value("defender", name) <= sol21.evaluate(name, "equilibrium") + 1e-12
    # a strong attacker takes more from a random defender than from a best-responding one
    assert sol21.best_response_value("attacker", "random") > sol21.lower


def test_outcomes_sum_to_one_and_give_the_value(sol21):
    table = sol21.outcomes()
    assert table["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    payoff = Payoff()
    value = sum(
        r.probability * (r.damage if r.winner == "attacker" else -r.points if r.winner == "defender" else 0)
        for r in table.itertuples()
    )
    assert value == pytest.approx(sol21.value, abs=1e-12)
    assert float(payoff.damage) == 1


def test_strategy_readers(sol21):
    summary = sol21.strategy_table("attacker")
    assert set(summary["decision"]) == {"declaration", "trumps", "card"}
    sums = summary.groupby(["decision", "features"])["probability"].sum()
    assert np.allclose(sums, 1.0)
    detail = sol21.strategy_table("defender", detail="hands")
    assert {"hand", "history", "action", "probability", "reach"} <= set(detail.columns)
    mix = sol21.strategy("attacker", ["5H", "KS"], ["add", "subtract"])
    assert set(mix) == {"None", "1 black (not A♠)"} and sum(mix.values()) == pytest.approx(1)
    card = sol21.strategy("attacker", ["5H", "9C"], ["add", "add"], placed=[], seen="none")
    assert set(card) == {"5 red", "9 black"}
    assert sum(sol21.strategy("defender", ["KH"], ["subtract"]).values()) == pytest.approx(1)
    with pytest.raises(InvalidSetupError, match="side"):
        sol21.strategy_table("both")


# -- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, d", [(0, 1), (1, 0), (1.5, 1), (True, 1), ("2", 1), (60, 1)])
def test_bad_sizes(a, d):
    with pytest.raises(InvalidSetupError, match=r"whole number|deck"):
        solve_hidden(a, d)


def test_bad_removed_cards_and_options():
    with pytest.raises(NotationError):
        solve_hidden(1, 1, removed=["XX"])
    with pytest.raises(InvalidSetupError, match="twice"):
        solve_hidden(1, 1, removed=["5H", "5H"])
    with pytest.raises(InvalidSetupError, match="target"):
        solve_hidden(1, 1, target=0)
    with pytest.raises(InvalidSetupError, match="max_iterations"):
        solve_hidden(1, 1, max_iterations=0)
    with pytest.raises(InvalidSetupError, match="rules"):
        solve_hidden(1, 1, rules="default")  # type: ignore[arg-type]
    with pytest.raises(InvalidSetupError, match="unknown strategy"):
        solve_hidden(1, 1).evaluate("clever")


def test_decks_that_cannot_be_played_get_a_one_line_error():
    # FM-1: a card out of the rules' deck; FM-6: a deck left without Numbered cards to turn up
    tens = Rules(numbered_ranks=("2", "3"), trump_ranks=("10",), death_card="10S")
    with pytest.raises(InvalidSetupError, match=r"4H is not in the rules' deck of 12 cards") as bad:
        solve_hidden(1, 1, tens, removed=["4H"])
    assert "\n" not in str(bad.value)
    with pytest.raises(InvalidSetupError, match="JK1 is not in the rules' deck"):
        solve_hidden(1, 1, removed=["JK1"])
    numbered_cards = [r + s for r in ("2", "3") for s in "SHDC"]
    with pytest.raises(InvalidSetupError, match=r"needs Numbered cards.*1 of them Numbered") as bad:
        solve_hidden(1, 1, tens, removed=numbered_cards[1:])
    assert "\n" not in str(bad.value)
    with pytest.raises(InvalidSetupError, match="deck holds 12"):
        solve_hidden(13, 1, tens)


def test_too_big_is_refused_before_starting():
    assert hidden_size(3, 2) <= HIDDEN_LIMIT < hidden_size(4, 3)
    started = time.perf_counter()
    with pytest.raises(TooBigError, match=r"solve_attack|Monte Carlo"):
        solve_hidden(4, 3)
    assert time.perf_counter() - started < 2


def test_equilibrium_as_an_engine_policy_plays_the_same(sol21):
    # The policy reads only engine states (own hand, declarations, what she saw); asked
    # at every information set, it must reproduce the solution's own value (the 2 v 1
    # solution of the file, not a second solve of the same game).
    sol = sol21
    assert sol.evaluate(sol.policy(), "equilibrium") == pytest.approx(sol.value, abs=1e-6)
    assert sol.evaluate("equilibrium", sol.policy()) == pytest.approx(sol.value, abs=1e-6)
