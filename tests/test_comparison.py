"""Differences of two results (toolkit.comparison): exact arithmetic, the wording, and the
coverage of the 95% interval of an estimated difference, measured by simulation on cases
whose true difference is known (hand arithmetic, or the exact calculator)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest

from toolkit.comparison import (
    Difference,
    difference,
    difference_of,
    interval_of,
    mean_difference,
    mean_interval,
    mean_text,
    paired_difference,
    ranked,
)
from toolkit.prob import Distribution


@dataclass(frozen=True)
class Sampled:
    """A stand-in Monte Carlo result: the observed frequencies of ``trials`` samples, and
    no ``interval`` (read through its trials, as a result without one is)."""

    distribution: Distribution
    trials: int
    exact: bool = False

    def probability(self, event):
        return self.distribution.probability(event)

    def mean(self, f=None):
        return self.distribution.mean(f)


def sampled(values: list) -> Sampled:
    counts: dict = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return Sampled(Distribution({k: counts[k] for k in sorted(counts)}), len(values))


def test_exact_minus_exact_is_exact():
    d = difference_of(Fraction(4, 9), (Fraction(4, 9),) * 2, Fraction(1, 2), (Fraction(1, 2),) * 2)
    assert d.exact and d.delta == Fraction(1, 18) and (d.low, d.high) == (Fraction(1, 18),) * 2
    assert d.measurable and d.text() == "+5.6 points"
    same = difference_of(Fraction(1, 3), (Fraction(1, 3),) * 2, Fraction(1, 3), (Fraction(1, 3),) * 2)
    assert not same.measurable and same.identical and same.text() == "no change"


def test_an_estimated_difference_inside_its_interval_is_not_measurable():
    # 0.5 ± 0.03 against 0.51 ± 0.03: Newcombe's half-width is sqrt(0.03² + 0.03²) = 4.24 points
    d = difference_of(0.50, (0.47, 0.53), 0.51, (0.48, 0.54))
    assert not d.measurable and d.low == pytest.approx(0.01 - 0.0424264) and d.high == pytest.approx(0.0524264)
    assert d.text() == "no measurable change (within ±4.2 points)"
    far = difference_of(0.30, (0.27, 0.33), 0.40, (0.37, 0.43))
    assert far.measurable and far.text() == "+10.0 ± 4.2 points (95%)"
    # one side exact: only the other side's interval counts
    mixed = difference_of(Fraction(1, 2), (Fraction(1, 2),) * 2, 0.55, (0.52, 0.58))
    assert not mixed.exact and (mixed.low, mixed.high) == pytest.approx((0.02, 0.08))


def test_means_and_their_text():
    # the one way of the odds results (toolkit.odds_result.estimate_mean_text): an exact
    # mean as its short fraction, an estimate with its ± and level
    assert mean_text(Fraction(7, 3), (Fraction(7, 3),) * 2) == "7/3 ≈ 2.33"
    assert mean_text(2.137, (2.09, 2.18)) == "2.14 ± 0.05 (95%)"
    exact = difference_of(Fraction(7, 3), (Fraction(7, 3),) * 2, Fraction(5, 2), (Fraction(5, 2),) * 2, points=False)
    assert exact.exact and exact.delta == Fraction(1, 6) and exact.text() == "+0.17"
    d = difference_of(2.14, (2.09, 2.19), 2.10, (2.05, 2.15), points=False)
    assert d.text() == "no measurable change (within ±0.07)"


def test_ranked_measured_first_then_unmeasured_then_identical():
    big_noise = difference_of(0.5, (0.4, 0.6), 0.6, (0.5, 0.7))  # +10, not measurable
    small_exact = difference_of(Fraction(1, 2), (Fraction(1, 2),) * 2, Fraction(51, 100), (Fraction(51, 100),) * 2)
    nothing = difference_of(Fraction(1, 2), (Fraction(1, 2),) * 2, Fraction(1, 2), (Fraction(1, 2),) * 2)
    order = ranked([("noise", big_noise), ("none", nothing), ("small", small_exact)])
    assert [k for k, _ in order] == ["small", "noise", "none"]


def test_results_read_duck_typed():
    d = Distribution({True: 3, False: 1})
    exact = Sampled(d, 4, exact=True)
    assert interval_of(exact, True) == (Fraction(3, 4), Fraction(3, 4))
    assert mean_interval(exact) == (Fraction(3, 4), Fraction(3, 4))
    sample = sampled([1] * 30 + [0] * 70)
    lo, hi = interval_of(sample, 1)
    assert lo < 0.3 < hi  # Wilson's interval of its trials
    assert difference(sample, sample, 1).identical and difference(sample, sample, 1).text() == "identical"
    assert mean_difference(sample, sample).text() == "identical"


# -- coverage: the 95% interval of a difference covers the true difference -------------------
def _coverage(trial, seeds: int) -> float:
    return sum(trial(seed) for seed in range(seeds)) / seeds


def test_coverage_common_random_numbers_known_case():
    """P = 0.30 against 0.35, 400 samples each, drawn with the same uniforms (common random
    numbers): the difference interval covers +5 points at least 90 times in 100 (it is
    conservative here, so nearer 100)."""

    def trial(seed: int) -> bool:
        rng = random.Random(seed)
        u = [rng.random() for _ in range(400)]
        a, b = sampled([int(x < 0.30) for x in u]), sampled([int(x < 0.35) for x in u])
        d = difference(a, b, 1)
        return d.low <= 0.05 <= d.high

    assert _coverage(trial, 200) >= 0.90


def test_coverage_independent_samples_is_near_its_level():
    """Independent samples (the case the method is built for): coverage at least 90% and
    not trivially wide (an interval that always covers would be useless)."""

    def trial(seed: int) -> bool:
        rng = random.Random(seed)
        a = sampled([int(rng.random() < 0.30) for _ in range(300)])
        b = sampled([int(rng.random() < 0.40) for _ in range(300)])
        d = difference(a, b, 1)
        return d.low <= 0.10 <= d.high

    assert 0.90 <= _coverage(trial, 300) <= 0.99


def test_coverage_of_a_mean_and_of_a_difference_of_means():
    """A d6 (mean 7/2) against a d6 + 1 on the same rolls, 200 rolls: the mean's interval
    covers 3.5 and the difference's interval covers +1... and a d6 against a d8 (means
    3.5 and 4.5, independent rolls) covers +1 at least 90 times in 100."""

    def trial(seed: int) -> bool:
        rng = random.Random(seed)
        a = sampled([rng.randint(1, 6) for _ in range(200)])
        b = sampled([rng.randint(1, 8) for _ in range(200)])
        lo, hi = mean_interval(a)
        d = mean_difference(a, b)
        return lo <= 3.5 <= hi and d.low <= 1 <= d.high

    assert _coverage(trial, 200) >= 0.85  # both at once: at least 0.95 · 0.95 ≈ 0.90 expected


def test_coverage_paired():
    """Paired samples: a roll and the same roll with a 1-in-6 chance of +1 (true mean
    difference 1/6): the paired interval covers 1/6 at least 90 times in 100."""

    def trial(seed: int) -> bool:
        rng = random.Random(seed)
        pairs = []
        for _ in range(200):
            x = rng.randint(1, 6)
            pairs.append((x, x + (rng.randrange(6) == 0)))
        d = paired_difference(pairs)
        return d.low <= 1 / 6 <= d.high

    assert _coverage(trial, 200) >= 0.90


def test_coverage_on_the_durak_clash_calculator_against_its_exact_value():
    """The Durak clash calculator (DB-3..DB-7), 2 v 2 cards, P(North loses fewer tokens):
    default rules against strikes costing 1 token (DB-4), both sampled with the same seed
    (common random numbers, 150 clashes each); the exact difference comes from the exact
    calculator. Coverage over 100 seeds at least 90%."""
    from toolkit.durak_battle import Rules, clash_losses

    pols, cheap = ("greedy", "greedy"), Rules(strike_loss=1)

    def ahead(lost):
        return lost[0] < lost[1]

    true = float(
        clash_losses(2, 2, pols, cheap).probability(ahead) - clash_losses(2, 2, pols, Rules()).probability(ahead)
    )

    def trial(seed: int) -> bool:
        runs = [
            clash_losses(2, 2, pols, r, method="monte_carlo", trials=150, seed=seed, sampler="model")
            for r in (Rules(), cheap)
        ]
        d = difference(*runs, ahead)
        return d.low <= true <= d.high

    assert _coverage(trial, 100) >= 0.90


def test_difference_text_forms():
    d = Difference(0.5, 0.5, -0.01, 0.01, False, identical=True)
    assert d.text() == "identical" and not d.measurable
