"""The toolkit's one odds result (toolkit/odds_result.py) and the calculators that return it.

Coverage is tested against exact values computed independently of the estimate: the
exact calculators (themselves checked against brute force in the systems' odds tests).
"""

from __future__ import annotations

import pickle
import time
from fractions import Fraction

import pytest

from toolkit.angry_miniatures import opposed
from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses
from toolkit.durak_battle.odds import BattleEnd
from toolkit.errors import InvalidSetupError, PrecisionNotReachedError, TooBigError
from toolkit.fairy_meat import attack_odds, deal_averaged_odds
from toolkit.numbers import wilson_interval
from toolkit.odds_result import (
    Expectation,
    Odds,
    Replicates,
    check_precision,
    choose_method,
    counts_mean_half_width,
    sample_to_precision,
    student_t,
)
from toolkit.prob import Distribution

# A battle small enough to be exact: Extra leaders with d4 - 3 Knowledge draw 0 or 1 card
# (2 with a token ahead), so every clash table is exact (DB-2) and can also be sampled.
SMALL = Leader("Small", battle_die="d4", wild_card=False, battle_modifier=-3)
ARMY_A, ARMY_B = Army("North", 2, SMALL), Army("South", 2, SMALL)


def a_wins(end: BattleEnd) -> bool:
    return end.winner == "a"


# -- the core type ------------------------------------------------------------------------------
def test_exact_odds_give_the_exact_value_twice_and_read_like_a_distribution():
    odds = Odds(Distribution({"hit": 1, "miss": 2}))
    assert odds.exact and not odds.approximate and odds.method == "exact" and odds.trials is None
    assert odds.interval("hit") == (Fraction(1, 3), Fraction(1, 3))
    assert odds.interval(lambda o: o != "x") == (1, 1)
    assert (
        isinstance(odds, Distribution) and odds["miss"] == Fraction(2, 3) and odds.items() == odds.distribution.items()
    )
    assert odds.half_width() == 0 and odds.mean_interval(lambda o: o == "hit") == (Fraction(1, 3), Fraction(1, 3))
    assert str(odds).startswith("Odds · exact") and "1/3 ≈ 33.3%" in str(odds)


def test_monte_carlo_odds_use_wilsons_interval_of_the_hits():
    odds = Odds.from_counts({"hit": 30, "miss": 70}, trial_name="simulated attacks")
    assert odds.method == "monte_carlo" and odds.trials == 100 and not odds.exact
    assert odds.interval("hit") == wilson_interval(30, 100, 0.95)
    assert odds.interval("hit", 0.99) == wilson_interval(30, 100, 0.99)
    assert odds.interval(lambda o: True) == wilson_interval(100, 100, 0.95)
    # a marginal keeps the runs, so its intervals too
    marginal = odds.marginal(lambda o: o == "hit")
    assert marginal.trials == 100 and marginal.interval(True) == wilson_interval(30, 100, 0.95)
    # hand arithmetic: a half-width of 1.96 sqrt(0.21 / 100) = 0.0898 for the mean of a 0/1 outcome
    lo, hi = odds.mean_interval(lambda o: o == "hit")
    assert abs((hi - lo) / 2 - 1.959964 * (0.21 / 100) ** 0.5) < 1e-6
    assert "30% ± " in str(odds) and "estimated from 100 simulated attacks" in str(odds)
    assert "± " in repr(odds) and "± " in odds._repr_html_()
    again = pickle.loads(pickle.dumps(odds))
    assert again == odds and again.trials == 100 and again.interval("hit") == odds.interval("hit")
    with pytest.raises(InvalidSetupError, match="add up to 100 runs, not the 99"):
        Odds.from_counts({"hit": 30, "miss": 70}, trials=99)


def test_mixed_odds_need_their_replicates_and_map_them():
    import numpy as np

    values = np.array([[0.2, 0.8], [0.3, 0.7], [0.25, 0.75]])
    odds = Odds(Distribution({0: 1, 1: 3}), method="mixed", trials=10, replicates=Replicates((0, 1), values))
    lo, hi = odds.interval(0)
    assert lo < 0.25 < hi and odds.interval(lambda o: o >= 0) == pytest.approx((1.0, 1.0))
    assert odds.marginal(lambda o: o > 0).interval(True) == pytest.approx(odds.interval(1))
    with pytest.raises(InvalidSetupError, match="replicates"):
        Odds(Distribution({0: 1}), method="mixed")
    with pytest.raises(InvalidSetupError, match="method must be one of"):
        Odds(Distribution({0: 1}), method="guess")


def test_student_quantile_matches_the_table():
    # t(0.975; 10) = 2.228, t(0.975; 30) = 2.042, t(0.995; 20) = 2.845 (printed tables)
    assert round(student_t(0.95, 10), 3) == 2.228
    assert round(student_t(0.95, 30), 3) == 2.042
    assert round(student_t(0.99, 20), 3) == 2.845


@pytest.mark.parametrize("bad", [0, 0.5, -0.1, 1, True, "0.01", float("nan")])
def test_precision_must_be_between_0_and_half(bad):
    with pytest.raises(InvalidSetupError, match=r"precision must be a number between 0 and 0.5 .*0.01 is ±1 point"):
        check_precision(bad)
    assert check_precision(None) is None and check_precision(0.01) == 0.01


def test_the_dispatcher_refuses_exact_above_the_limit_naming_size_and_monte_carlo():
    assert choose_method("auto", 5, 5) == "exact" and choose_method("auto", 6, 5) == "monte_carlo"
    assert choose_method("exact", 5, 5) == "exact" and choose_method("monte_carlo", 0, 5) == "monte_carlo"
    with pytest.raises(
        TooBigError,
        match=r"the count needs 1,234 deals, above the limit of 1,000 \(LIMIT\).*"
        r"method='monte_carlo'",
    ):
        choose_method("exact", 1234, 1000, "the count", "deals", "LIMIT")
    with pytest.raises(InvalidSetupError, match="method must be one of 'auto', 'exact', 'monte_carlo', got 'fast'"):
        choose_method("fast", 1, 1)


def test_sampling_to_a_precision_and_the_time_limit():
    calls = []

    def draw(n, batch):
        calls.append((n, batch))
        return {"hit": n // 2, "miss": n - n // 2}

    def widest(counts, runs):
        return max((hi - lo) / 2 for lo, hi in [wilson_interval(counts["hit"], runs)])

    counts, runs = sample_to_precision(draw, 100, 0.02, widest)
    assert widest(counts, runs) <= 0.02 and runs == sum(counts.values()) and calls[0] == (100, 0)
    assert [b for _, b in calls] == list(range(len(calls)))  # each batch has its own number (seed)
    assert sample_to_precision(draw, 100, None, widest)[1] == 100

    def slow(n, batch):
        time.sleep(0.02)
        return draw(n, batch)

    with pytest.raises(
        PrecisionNotReachedError,
        match=r"time limit of 0.01 s .* with 100 runs: the widest 95% "
        r"interval is ±\d.*points, not the ±0.1 asked",
    ):
        sample_to_precision(slow, 100, 0.001, widest, time_limit=0.01)


# -- the calculators: the names external checks use --------------------------------------------
def test_every_calculator_has_exact_probability_and_interval():
    exact_battle = battle_outcome(ARMY_A, ARMY_B, max_rounds=4)
    results = [
        exact_battle,
        clash_losses(1, 1, method="exact"),
        deal_averaged_odds(1, 1, method="exact"),
        attack_odds("5H", "JD"),
        opposed(2, 1),
    ]
    for r in results:
        assert r.exact is True and isinstance(r, Odds)
        p = r.probability(lambda o: True)
        assert p == 1 and r.interval(lambda o: True) == (1, 1)
        o = r.outcomes()[0]
        assert r.interval(o) == (r.probability(o), r.probability(o))
    # the winner is the army named (North, South), equal to its side "a"/"b" too
    assert {e.winner for e in exact_battle.outcomes()} <= {"North", "South", None}
    assert all(e.winner in ("a", "b", None) for e in exact_battle.outcomes())


def test_battle_monte_carlo_takes_trials_and_seed_and_is_repeatable():
    one = battle_outcome(ARMY_A, ARMY_B, max_rounds=4, method="monte_carlo", trials=40, seed=3)
    two = battle_outcome(ARMY_A, ARMY_B, max_rounds=4, method="monte_carlo", trials=40, seed=3)
    assert not one.exact and one.method == "monte_carlo" and one.trials == 40
    assert one.items() == two.items() and one.interval(a_wins) == two.interval(a_wins)
    lo, hi = one.interval(a_wins)
    assert 0 <= lo <= float(one.probability(a_wins)) <= hi <= 1 and hi > lo
    text = str(one)
    assert "APPROXIMATE" in text and "North wins" in text and "± " in text and "40 simulated clashes" in text


def test_battle_interval_covers_the_exact_value_in_at_least_90_of_100_seeds():
    # the parametric bootstrap over the sampled clash tables (battle_outcome's docstring):
    # its 95% interval of P(North wins) against the exact chain's value, 100 seeds
    exact = battle_outcome(ARMY_A, ARMY_B, max_rounds=6).probability(a_wins)
    covered = 0
    for seed in range(100):
        sampled = battle_outcome(ARMY_A, ARMY_B, max_rounds=6, method="monte_carlo", trials=30, seed=seed)
        lo, hi = sampled.interval(a_wins)
        covered += lo <= exact <= hi
    assert covered >= 90, covered


def test_clash_interval_covers_the_exact_value_in_at_least_90_of_100_seeds():
    exact = clash_losses(2, 1, method="exact").probability(lambda lost: lost[0] < lost[1])
    covered = 0
    for seed in range(100):
        sampled = clash_losses(2, 1, method="monte_carlo", trials=60, seed=seed, sampler="model")
        lo, hi = sampled.interval(lambda lost: lost[0] < lost[1])
        covered += lo <= exact <= hi
    assert covered >= 90, covered


def test_battle_precision_samples_until_every_headline_reaches_it():
    odds = battle_outcome(ARMY_A, ARMY_B, max_rounds=4, method="monte_carlo", trials=20, seed=1, precision=0.06)
    assert odds.trials > 20 and odds.half_width() <= 0.06
    for _, event in odds.headline_events():
        lo, hi = odds.interval(event)
        assert (hi - lo) / 2 <= 0.06
    again = battle_outcome(ARMY_A, ARMY_B, max_rounds=4, method="monte_carlo", trials=20, seed=1, precision=0.06)
    assert again.items() == odds.items() and again.trials == odds.trials  # seeded batches: repeatable
    exact = battle_outcome(ARMY_A, ARMY_B, max_rounds=4, precision=0.01)  # exact needs no sampling
    assert exact.exact
    # stopped at the limit after a batch (the widest interval named) or inside one (the
    # clashes it was sampling named), as the machine's pace has it: either says what to do
    with pytest.raises(PrecisionNotReachedError, match=r"allow more time \(time_limit=\)"):
        battle_outcome(
            ARMY_A, ARMY_B, max_rounds=4, method="monte_carlo", trials=20, seed=1, precision=0.001, time_limit=0.05
        )
    with pytest.raises(InvalidSetupError, match=r"precision must be a number between 0 and 0\.5"):
        battle_outcome(ARMY_A, ARMY_B, method="monte_carlo", precision=0.7)


def test_clash_and_deal_precision():
    clash = clash_losses(2, 1, method="monte_carlo", trials=50, seed=2, sampler="model", precision=0.05)
    assert clash.trials > 50 and clash.half_width() <= 0.05 and clash.joint.trials == clash.trials
    deal = deal_averaged_odds(1, 1, method="monte_carlo", trials=30, seed=2, precision=0.12)
    assert deal.trials > 30 and deal.half_width() <= 0.12 and deal.estimate(lambda o: True).trials == deal.trials
    assert "± " in str(deal) and "simulated attacks" in str(deal)
    with pytest.raises(InvalidSetupError, match="precision must be"):
        deal_averaged_odds(1, 1, method="monte_carlo", precision=0)
    with pytest.raises(InvalidSetupError, match="precision must be"):
        clash_losses(1, 1, method="monte_carlo", precision="fine")


def test_battle_intervals_are_the_same_cold_and_warm():
    # the chain shares its states between battles (remembered transitions): the bootstrap
    # must read the same tables either way
    from toolkit.durak_battle.odds import clear_caches

    kw = {"max_rounds": 4, "method": "monte_carlo", "trials": 25, "seed": 7}
    clear_caches()
    cold = battle_outcome(ARMY_A, ARMY_B, **kw)
    cold_interval = cold.interval(a_wins)
    battle_outcome(Army("North", 3, SMALL), ARMY_B, **kw).interval(a_wins)  # reaches 2 v 2's states
    warm = battle_outcome(ARMY_A, ARMY_B, **kw)
    assert warm.items() == cold.items() and warm.interval(a_wins) == pytest.approx(cold_interval)


def test_expectation_exact_reads_as_its_fraction_and_estimated_carries_the_mean_interval():
    """By hand: runs of 1, 2, 3 attacks 500, 300, 200 times: mean 1.7, variance 3.5 − 1.7² = 0.61,
    so the 95% half-width is 1.95996·√(0.61/1000) = 0.04841, 2.85% of the mean."""
    exact = Expectation(Fraction(7, 3))
    assert exact == Fraction(7, 3) and exact.exact and exact.interval() == (Fraction(7, 3), Fraction(7, 3))
    assert repr(exact) == "Fraction(7, 3)" and str(exact) == "7/3" and exact.half_width() == 0
    runs = Odds.from_counts({1: 500, 2: 300, 3: 200})
    sampled = Expectation.of(runs)
    assert sampled == Fraction(17, 10) and not sampled.exact and sampled.method == "monte_carlo"
    assert sampled.trials == 1000 and sampled.odds is runs
    low, high = sampled.interval()
    assert high - 1.7 == pytest.approx(0.04841, abs=1e-5) and 1.7 - low == pytest.approx(0.04841, abs=1e-5)
    assert counts_mean_half_width({1: 500, 2: 300, 3: 200}, 1000) == pytest.approx(0.04841 / 1.7, abs=1e-5)
    assert str(sampled) == "1.70 ± 0.05 (95%)" and "1,000" in repr(sampled)
    assert sampled + 1 == Fraction(27, 10)  # arithmetic gives a plain number
    with pytest.raises(InvalidSetupError, match="Monte Carlo odds"):
        Expectation(1, Odds(Distribution({1: 1})))
