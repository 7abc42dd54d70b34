"""Angry Miniatures' Monte Carlo alternative (AM-1..AM-8): where an exact request is too big,
``method="monte_carlo"`` (or ``"auto"``) estimates it, and it agrees with the exact count on
cases small enough for both, within a tolerance derived from the sample size."""

from __future__ import annotations

import pytest

from toolkit.angry_miniatures import Rules, area_attack, opposed
from toolkit.angry_miniatures.odds import MAX_OPPOSED_DICE
from toolkit.comparison import difference
from toolkit.errors import TooBigError
from toolkit.montecarlo import tolerance

EVENTS = {
    "hit (AM-3)": lambda o: o.defender_damage > 0,
    "damage back (AM-3)": lambda o: o.attacker_damage > 0,
    "2+ damage": lambda o: o.defender_damage >= 2,
    "attacker crit (AM-7)": lambda o: o.attacker_crit,
}


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(hit_faces=("10", "J", "Q", "K", "A")), Rules(zero_tie="super_tiebreak")],
    ids=["default", "tens hit", "zero-hit ties to a SuperTieBreaker"],
)
def test_opposed_monte_carlo_agrees_with_exact(rules):
    trials = 4000
    exact = opposed(3, 2, "melee", rules)
    sampled = opposed(3, 2, "melee", rules, method="monte_carlo", trials=trials, seed=5)
    assert sampled.method == "monte_carlo" and sampled.trials == trials and not sampled.exact
    assert sampled.samples is not None and len(sampled.samples) == trials
    for name, event in EVENTS.items():
        p = exact.probability(event)
        assert abs(float(sampled.probability(event)) - float(p)) <= tolerance(p, trials), name


def test_area_attack_monte_carlo_agrees_with_exact_joint_odds():
    trials = 3000
    exact = area_attack(4, [2, 3])
    sampled = area_attack(4, [2, 3], method="monte_carlo", trials=trials, seed=2)
    for event in (lambda o: o[0] > 0, lambda o: o[1] > 0, lambda o: o[0] > 0 and o[1] > 0, lambda o: sum(o) >= 3):
        p = exact.probability(event)
        assert abs(float(sampled.probability(event)) - float(p)) <= tolerance(p, trials)


def test_too_big_exact_points_to_monte_carlo_and_auto_takes_it():
    big = MAX_OPPOSED_DICE  # one more than the limit in all
    with pytest.raises(TooBigError, match=r"201 dice.*limit of 200.*method='monte_carlo'"):
        opposed(big, 1)
    estimate = opposed(big, 1, method="auto", trials=200)
    assert estimate.method == "monte_carlo" and estimate.trials == 200
    low, high = estimate.interval(lambda o: o.hit)
    assert low <= float(estimate.probability(lambda o: o.hit)) <= high
    with pytest.raises(TooBigError, match="method='monte_carlo'"):
        area_attack(40, [20, 20, 20])
    assert area_attack(40, [20, 20, 20], method="auto", trials=50).method == "monte_carlo"


def test_precision_is_reached():
    sampled = opposed(2, 2, method="monte_carlo", trials=200, precision=0.02, seed=1)
    assert sampled.trials > 200
    assert sampled.half_width() <= 0.02


def test_two_rule_sets_with_one_seed_are_paired_run_by_run():
    """The same pools and seed roll the same dice under both rules (common random numbers):
    the comparison is paired, and its interval covers the exact change."""
    tens = Rules(hit_faces=("10", "J", "Q", "K", "A"))
    before = opposed(3, 3, method="monte_carlo", trials=2000, seed=9)
    after = opposed(3, 3, rules=tens, method="monte_carlo", trials=2000, seed=9)
    change = difference(before, after, lambda o: o.hit)
    assert change.method == "paired" and change.runs == 2000
    exact = opposed(3, 3, rules=tens).probability(lambda o: o.hit) - opposed(3, 3).probability(lambda o: o.hit)
    assert change.low <= float(exact) <= change.high
