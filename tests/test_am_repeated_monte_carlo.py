"""Repeated attacks by Monte Carlo (AM-3, AM-10): ``attacks_to_take_out``,
``expected_attacks_to_take_out`` and ``melee_exchange`` take ``method=``, ``trials=``,
``seed=`` and ``precision=`` like the other calculators. The estimates agree with the exact
counts on cases small enough for both (tolerances from the sample size, z = 4.5), their
95% intervals cover the exact value in at least 90 of 100 seeds, and ``"auto"`` is exact
within the limits and Monte Carlo beyond (the refusal of an exact request says so)."""

from __future__ import annotations

import copy
import math
import pickle
from fractions import Fraction

import pytest

from toolkit.angry_miniatures import (
    Character,
    MoreThan,
    Rules,
    attacks_to_take_out,
    expected_attacks_to_take_out,
    melee_exchange,
)
from toolkit.angry_miniatures.odds import MAX_SAMPLED_DICE
from toolkit.angry_miniatures.repeated import MAX_HEALTH
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.montecarlo import tolerance
from toolkit.odds_result import Expectation

TENS = Rules(hit_faces=("10", "J", "Q", "K", "A"))
GRUNK = Character("Grunk", melee=3, body=2, health=3)
PIXIE = Character("Pixie", melee=2, body=2, health=3)


def _agrees(exact, sampled, trials: int) -> None:
    """Every outcome of the exact distribution, within the tolerance of its sample size."""
    assert sampled.method == "monte_carlo" and sampled.trials == trials and not sampled.exact
    assert set(sampled.outcomes()) <= set(exact.outcomes())
    for outcome, p in exact.items():
        assert abs(float(sampled.probability(outcome)) - float(p)) <= tolerance(p, trials), outcome


# -- agreement with the exact counts ------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(), TENS], ids=["default", "tens hit"])
def test_attacks_to_take_out_monte_carlo_agrees_with_exact(rules):
    trials = 2000
    exact = attacks_to_take_out(2, 1, health=3, rules=rules, cap=5)
    sampled = attacks_to_take_out(2, 1, health=3, rules=rules, cap=5, method="monte_carlo", trials=trials, seed=4)
    assert MoreThan(5) in exact.outcomes()  # the cap is reached, and estimated too
    _agrees(exact, sampled, trials)
    assert sampled.samples is not None and len(sampled.samples) == trials


@pytest.mark.parametrize("alternate", [True, False])
def test_melee_exchange_monte_carlo_agrees_with_exact(alternate):
    trials = 2000
    exact = melee_exchange(GRUNK, PIXIE, alternate=alternate)
    sampled = melee_exchange(GRUNK, PIXIE, alternate=alternate, method="monte_carlo", trials=trials, seed=8)
    _agrees(exact, sampled, trials)
    won = exact.probability(lambda e: e.out == "Pixie")
    assert abs(float(sampled.probability(lambda e: e.out == "Pixie")) - float(won)) <= tolerance(won, trials)


@pytest.mark.parametrize(
    "rules",
    [Rules(return_damage=False), Rules(zero_tie="super_tiebreak", tie_damage=2)],
    ids=["no return damage (AM-3 off)", "zero-hit ties to a SuperTieBreaker, won ties deal 2"],
)
def test_melee_exchange_monte_carlo_agrees_with_exact_under_house_rules(rules):
    trials = 1500
    exact = melee_exchange(GRUNK, PIXIE, rules=rules)
    _agrees(exact, melee_exchange(GRUNK, PIXIE, rules=rules, method="monte_carlo", trials=trials, seed=3), trials)


def test_melee_exchange_monte_carlo_counts_damage_already_taken():
    hurt = GRUNK.take_damage(2)  # one Health left (AM-10)
    exact = melee_exchange(hurt, PIXIE, rules=TENS)
    _agrees(exact, melee_exchange(hurt, PIXIE, rules=TENS, method="monte_carlo", trials=2000, seed=1), 2000)


def test_expected_attacks_monte_carlo_agrees_with_exact():
    trials = 2000
    exact = expected_attacks_to_take_out(2, 1, health=4)
    # the spread of one run's count, from the exact distribution (the tail past 60 attacks is < 1e-12)
    counts = attacks_to_take_out(2, 1, health=4, cap=60)
    assert counts[MoreThan(60)] < Fraction(1, 10**12)
    sd = math.sqrt(float(counts.condition(lambda k: not isinstance(k, MoreThan)).variance()))
    sampled = expected_attacks_to_take_out(2, 1, health=4, method="monte_carlo", trials=trials, seed=6)
    assert isinstance(sampled, Expectation) and not sampled.exact and sampled.trials == trials
    assert abs(float(sampled) - float(exact)) <= 4.5 * sd / math.sqrt(trials)
    low, high = sampled.interval()
    assert low < float(sampled) < high and sampled.text().endswith("(95%)")


def test_exact_results_say_so_and_keep_their_numbers():
    """By hand: one die against none hits 2/3 of the time (J Q K A of 6 faces, AM-1), so a
    Health 1 target takes a geometric number of attacks: 1 with 2/3, 2 with 2/9, mean 3/2."""
    d = attacks_to_take_out(1, 0, health=1, cap=2)
    assert d.exact and d.items() == [(1, Fraction(2, 3)), (2, Fraction(2, 9)), (MoreThan(2), Fraction(1, 9))]
    assert d.interval(1) == (Fraction(2, 3), Fraction(2, 3))
    e = expected_attacks_to_take_out(1, 0, health=1)
    assert e == Fraction(3, 2) and e.exact and e.method == "exact" and e.trials is None
    assert e.interval() == (Fraction(3, 2), Fraction(3, 2)) and repr(e) == "Fraction(3, 2)" and str(e) == "3/2"
    assert expected_attacks_to_take_out(0, 2, 3, method="monte_carlo") is None  # never deals damage: known exactly
    ends = melee_exchange(GRUNK, PIXIE)
    assert ends.exact and ends.interval(lambda e: e.out == "Pixie")[0] == ends.probability(lambda e: e.out == "Pixie")


def test_expectation_is_read_only_and_pickles():
    e = expected_attacks_to_take_out(1, 0, health=2, method="monte_carlo", trials=300, seed=2)
    for copied in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), copy.copy(e)):
        assert copied == e and copied.trials == 300 and copied.interval() == e.interval()
    with pytest.raises(AttributeError, match="read-only"):
        e.odds = None


# -- the 95% intervals cover: 100 seeds on cases small enough to be exact -------------------
def _covered(exact, intervals) -> int:
    return sum(low <= float(exact) <= high for low, high in intervals)


def test_expected_attacks_interval_covers_the_exact_mean():
    exact = expected_attacks_to_take_out(1, 0, health=2)
    assert exact == 3  # by hand: 2 hits needed, each attack hits 2/3 of the time: 2 · 3/2
    intervals = [
        expected_attacks_to_take_out(1, 0, health=2, method="monte_carlo", trials=100, seed=s).interval()
        for s in range(100)
    ]
    assert _covered(exact, intervals) >= 90


def test_take_out_and_exchange_intervals_cover_the_exact_odds():
    grunk, pixie = GRUNK.take_damage(1), PIXIE.take_damage(1)  # two Health left each: short fights
    first = attacks_to_take_out(2, 1, health=2, cap=2).probability(1)
    pixie_wins = melee_exchange(grunk, pixie).probability(lambda e: e.out == "Grunk")
    take_out, exchange = [], []
    for s in range(100):
        sampled = attacks_to_take_out(2, 1, health=2, cap=2, method="monte_carlo", trials=60, seed=s)
        take_out.append(sampled.interval(1))
        fights = melee_exchange(grunk, pixie, method="monte_carlo", trials=60, seed=s)
        exchange.append(fights.interval(lambda e: e.out == "Grunk"))
    assert _covered(first, take_out) >= 90
    assert _covered(pixie_wins, exchange) >= 90


# -- auto, the limits and the refusals ---------------------------------------------------------
def test_auto_is_exact_within_the_limits():
    assert attacks_to_take_out(2, 1, 3, method="auto").method == "exact"
    assert expected_attacks_to_take_out(2, 1, 3, method="auto").exact
    assert melee_exchange(GRUNK, PIXIE, method="auto").method == "exact"


def test_too_big_exact_points_to_monte_carlo_and_auto_takes_it():
    health = MAX_HEALTH + 1
    with pytest.raises(TooBigError, match=rf"{health:,} Health.*limit of {MAX_HEALTH:,}.*method='monte_carlo'"):
        expected_attacks_to_take_out(1, 0, health)
    # by hand: each attack deals 1 with probability 2/3 (AM-1), so Health h takes 3h/2 on average
    e = expected_attacks_to_take_out(1, 0, health, method="auto", trials=12, seed=3)
    assert not e.exact and e.trials == 12
    # ... with variance h · (1/3) / (2/3)² (a sum of h geometric counts)
    assert abs(float(e) - 1.5 * health) <= 4.5 * math.sqrt(0.75 * health / 12)
    with pytest.raises(TooBigError, match=r"1,500 Health.*method='monte_carlo'"):
        attacks_to_take_out(100, 0, health=1500, cap=30)
    # 100 dice deal about 67 a roll: a Health of 1,500 falls in about 23 attacks
    d = attacks_to_take_out(100, 0, health=1500, cap=30, method="auto", trials=60, seed=1)
    assert d.method == "monte_carlo" and d.probability(lambda k: k in range(21, 26)) > 0.5
    tough = Character("Tough", melee=3, body=3, health=40)
    with pytest.raises(TooBigError, match=r"melee exchange of Health 40 against 40.*method='monte_carlo'"):
        melee_exchange(tough, tough)
    ends = melee_exchange(tough, tough, method="auto", trials=60, seed=2)
    assert ends.method == "monte_carlo" and ends.trials == 60
    assert all(e.out == "Tough" and e.attacker_health_left + e.defender_health_left > 0 for e in ends.outcomes())


def test_monte_carlo_refuses_runs_too_long():
    with pytest.raises(TooBigError, match=rf"Monte Carlo run.*limit of {MAX_SAMPLED_DICE:,}"):
        attacks_to_take_out(6, 6, health=3, cap=1000, method="monte_carlo")
    with pytest.raises(TooBigError, match=r"Monte Carlo run.*Wald"):
        expected_attacks_to_take_out(100, 100, health=5000, method="monte_carlo")


def test_precision_is_reached():
    fights = melee_exchange(GRUNK, PIXIE, method="monte_carlo", trials=100, precision=0.05, seed=1)
    assert fights.trials > 100 and fights.half_width() <= 0.05
    e = expected_attacks_to_take_out(2, 1, 4, method="monte_carlo", trials=100, precision=0.03, seed=1)
    assert e.trials > 100 and e.half_width() <= 0.03 * float(e)  # relative to the mean


def test_two_rule_sets_with_one_seed_are_paired_run_by_run():
    before = attacks_to_take_out(2, 1, 3, cap=5, method="monte_carlo", trials=500, seed=9)
    after = attacks_to_take_out(2, 1, 3, rules=TENS, cap=5, method="monte_carlo", trials=500, seed=9)
    assert before.samples.aligned(after.samples)
    # more hit faces (AM-1): 3 attacks or fewer 56.1% -> 70.8% exactly; the paired runs move with it
    assert after.probability(lambda k: k <= 3) > before.probability(lambda k: k <= 3)


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: attacks_to_take_out(2, 1, 3, **kw),
        lambda **kw: expected_attacks_to_take_out(2, 1, 3, **kw),
        lambda **kw: melee_exchange(GRUNK, PIXIE, **kw),
    ],
    ids=["attacks_to_take_out", "expected_attacks_to_take_out", "melee_exchange"],
)
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"method": "guess"}, r"method must be one of 'auto', 'exact', 'monte_carlo', got 'guess'"),
        ({"method": "monte_carlo", "trials": 0}, r"trials"),
        ({"method": "monte_carlo", "precision": 0.7}, r"precision must be a number between 0 and 0.5"),
        ({"method": "monte_carlo", "time_limit": -1}, r"time_limit must be a positive number"),
    ],
    ids=["method", "trials", "precision", "time_limit"],
)
def test_bad_arguments_are_named(call, bad, message):
    with pytest.raises(InvalidSetupError, match=message):
        call(**bad)
