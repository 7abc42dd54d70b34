"""The exact clash counted by comparison classes (toolkit.durak_battle.odds.comparison_classes).

The built-in policies play one deal per comparison class (deals that agree on every
comparison the referee or the initiative can make, DB-1, DB-3..DB-5) where the reference
path plays one per deal class (every ordering of the cards). Three checks, each from
somewhere other than the new count:

- the tables equal, as Fractions, the deal-class path on every size where that path runs in
  a test's time, under the default rules and seeded random house rules (suits, jokers, answer
  table, DB-5 and DB-6 variants), for greedy, random and optimal play;
- at 3 v 3, which only the new count reaches by default, the exact table agrees with Monte
  Carlo over the clash model within the tolerance of its sample size;
- a designer's own policy, which may compare any two of her cards, is still played over the
  finer deal classes (the comparison classes would give it a different answer).
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from itertools import permutations
from math import comb

import pytest

from toolkit.cards import SUITS
from toolkit.durak_battle import Rules
from toolkit.durak_battle.clash import card_value
from toolkit.durak_battle.odds import clash_losses
from toolkit.durak_battle.odds.checks import check_policies
from toolkit.durak_battle.odds.clash_losses import clear_caches, exact_clash_paths
from toolkit.durak_battle.odds.comparison_classes import comparison_class_count, comparison_classes
from toolkit.durak_battle.odds.deal_classes import EXACT_LIMIT, exact_size
from toolkit.durak_battle.rules import ACTIONS
from toolkit.montecarlo import tolerance
from toolkit.prob import Distribution

# ``toolkit.durak_battle.odds.clash_losses`` the module (the package's attribute of that name is the function)
CLASH_MODULE = sys.modules["toolkit.durak_battle.odds.clash_losses"]


def random_rules(rng: random.Random) -> Rules:
    """A random valid rule set for the clash: any suits, any answer table, DB-1, DB-5, DB-6 variants."""

    def pair() -> tuple[int, int]:
        return (rng.randint(0, 4), rng.randint(0, 4))

    return Rules(
        jokers=rng.random() < 0.6,
        suits=dict(zip(ACTIONS, rng.sample(SUITS, 4), strict=True)),
        strike_loss=rng.randint(0, 6),
        defence_won=pair(),
        defence_lost=pair(),
        manoeuvre_won=pair(),
        manoeuvre_lost=pair(),
        counter_lower_loss=rng.randint(0, 3),
        counter_tie=rng.choice(["no_loss", "loses"]),
        holder_must_attack=rng.random() < 0.5,
    )


HOUSE = [random_rules(random.Random(f"comparison-classes-{k}")) for k in range(5)]
RULE_SETS = [Rules(), *HOUSE]
HOUSE_3V3 = Rules(
    jokers=False, counter_tie="loses", suits={"attack": "H", "defence": "S", "manoeuvre": "C", "counter": "D"}
)
SMALL = [(na, nb) for na in range(5) for nb in range(5) if 0 < na + nb <= 4]


@pytest.fixture(autouse=True)
def fresh_tables():
    clear_caches()
    yield
    clear_caches()


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default"] + [f"house{k}" for k in range(len(HOUSE))])
def test_comparison_classes_give_the_deal_class_tables(rules):
    cases = [(na, nb, "greedy") for na, nb in SMALL]
    cases += [(na, nb, pols) for na, nb in SMALL if na + nb <= 3 for pols in ("random", ("optimal", "random"))]
    cases += [(2, 2, "random"), (1, 3, ("random", "greedy"))]
    if rules in RULE_SETS[:2]:  # the largest size the reference path runs in a test's time
        cases += [(3, 2, "greedy")]
    for na, nb, pols in cases:
        pair = check_policies(pols)
        fast = exact_clash_paths(na, nb, pair, rules)
        reference = exact_clash_paths(na, nb, pair, rules, classes="deal")
        assert fast == reference, (na, nb, pols, rules.variant_name())
        assert sum(fast.values()) == 1


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers=False)], ids=["jokers", "no-jokers"])
def test_classes_add_up_to_every_deal_whatever_the_suits(rules):
    deck = rules.deck_size
    for na, nb, mirror in ((3, 2, False), (2, 2, True), (0, 3, False)):
        deals = sum(w + w_mirror for _, _, w, w_mirror in comparison_classes(na, nb, rules, mirror))
        assert deals == comb(deck, na) * comb(deck - na, nb)
    # each suit has 13 ranks: which suit does what never changes how many classes there are
    count = comparison_class_count(3, 2, rules)
    assert 0 < count < exact_size(3, 2, rules)
    for perm in list(permutations(SUITS))[5:8]:
        swapped = Rules(jokers=rules.jokers, suits=dict(zip(ACTIONS, perm, strict=True)))
        assert comparison_class_count(3, 2, swapped) == count
    with pytest.raises(ValueError, match="only equal hands mirror"):
        next(comparison_classes(3, 2, rules, mirror=True))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(
            jokers=False, counter_tie="loses", suits={"attack": "H", "defence": "S", "manoeuvre": "C", "counter": "D"}
        ),
    ],
    ids=["default", "house"],
)
def test_three_v_three_is_exact_by_default_and_agrees_with_monte_carlo(rules):
    assert exact_size(3, 3, rules) <= EXACT_LIMIT
    exact = clash_losses(3, 3, rules=rules)
    assert exact.method == "exact" and sum(p for _, p in exact.joint.items()) == 1
    if rules == Rules():
        # By hand: under the default answer table every clash that starts costs someone a token
        # (each answer costs, a strike costs 4, a counter only makes a new attack), so nobody
        # loses exactly when neither side holds a spade or a joker among the six cards (DB-3).
        assert exact[(0, 0)] == Fraction(comb(39, 6), comb(54, 6))
    trials = 20_000
    sampled = clash_losses(3, 3, rules=rules, method="monte_carlo", sampler="model", trials=trials, seed=24)
    for outcome in set(exact.joint.outcomes()) | set(sampled.joint.outcomes()):
        p = exact.joint[outcome] if outcome in exact.joint.outcomes() else Fraction(0)
        seen = sampled.joint[outcome] if outcome in sampled.joint.outcomes() else Fraction(0)
        assert abs(float(seen) - float(p)) <= tolerance(p, trials), (outcome, float(p), float(seen))


def suit_snob(state) -> Distribution:
    """Answers with her lowest heart only when it outranks her lowest diamond — a comparison of
    two of her own cards of different suits, which the policy contract allows and the referee
    never makes; otherwise as greedy."""
    pols = check_policies("greedy")
    if state.stage == "answer":
        hand = state.hands[1 - state.attacking]
        hearts = [c for c in hand if c.suit == "H"]
        diamonds = [c for c in hand if c.suit == "D"]
        if hearts and diamonds and card_value(min(hearts, key=card_value)) > card_value(min(diamonds, key=card_value)):
            return Distribution.certain(f"defence {min(hearts, key=card_value).code}")
    return pols[0](state)


def test_a_designers_own_policy_is_played_over_every_ordering(monkeypatch):
    pair = check_policies(("greedy", suit_snob))
    reference = exact_clash_paths(2, 2, pair, Rules(), classes="deal")
    assert exact_clash_paths(2, 2, pair, Rules()) == reference
    clear_caches()
    # were she counted by comparison classes, her heart-against-diamond choice would be lost
    monkeypatch.setattr(CLASH_MODULE, "BUILT_IN", CLASH_MODULE.BUILT_IN | {suit_snob})
    assert exact_clash_paths(2, 2, pair, Rules()) != reference


def test_two_greedy_leaders_share_the_table_of_holder_must_attack():
    """Greedy leaders pass only with no attack card, so ``holder_must_attack`` (DB-6) never
    changes their clashes: the table is shared with the default rules', and it is the one
    the deal classes give under the variant itself."""
    pair = check_policies("greedy")
    variant = Rules(holder_must_attack=True)
    for na, nb in [(2, 2), (3, 2), (1, 3)]:
        shared = exact_clash_paths(na, nb, pair, variant)
        assert shared is exact_clash_paths(na, nb, pair, Rules())
        assert shared == exact_clash_paths(na, nb, pair, variant, classes="deal")
