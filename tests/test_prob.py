"""toolkit.prob.Distribution: exact values derived by hand."""

from dataclasses import dataclass
from fractions import Fraction

import pytest

from toolkit.prob import Distribution, format_probability


@dataclass(frozen=True, order=True)
class Hit:
    damage: int
    crit: bool


def test_weights_normalise_and_sum_to_one():
    d = Distribution({"a": 2, "b": 4, "c": Fraction(2, 1)})
    assert d.items() == [("a", Fraction(1, 4)), ("b", Fraction(1, 2)), ("c", Fraction(1, 4))]
    assert sum(p for _, p in d.items()) == 1
    assert d.total == 4


def test_fraction_weights_are_exact():
    d = Distribution({0: Fraction(1, 3), 1: Fraction(2, 3)})
    assert d[1] == Fraction(2, 3)
    assert d[5] == 0


def test_float_weights_are_refused():
    with pytest.raises(TypeError, match="not exact"):
        Distribution({0: 0.5, 1: 0.5})


def test_negative_and_empty_weights_are_refused():
    with pytest.raises(ValueError, match="negative"):
        Distribution({0: -1, 1: 2})
    with pytest.raises(ValueError, match="at least one outcome"):
        Distribution({0: 0})


def test_two_d6_by_hand():
    d6 = Distribution.uniform(range(1, 7))
    two = d6 + d6
    # 7 can be made 6 ways of 36; 2 and 12 one way each.
    assert two[7] == Fraction(6, 36)
    assert two[2] == two[12] == Fraction(1, 36)
    assert two.mean() == 7
    assert two.variance() == Fraction(35, 6)
    assert two.at_least(10) == Fraction(6, 36)
    assert two.at_most(3) == Fraction(3, 36)
    assert two.probability(lambda s: s % 2 == 0) == Fraction(1, 2)


def test_marginal_map_condition_on_dataclass_outcomes():
    d = Distribution({Hit(0, False): 3, Hit(1, False): 2, Hit(1, True): 1})
    assert d.marginal("damage").items() == [(0, Fraction(1, 2)), (1, Fraction(1, 2))]
    assert d.mean("damage") == Fraction(1, 2)
    assert d.map(lambda h: h.crit)[True] == Fraction(1, 6)
    assert d.condition(lambda h: h.damage == 1)[Hit(1, True)] == Fraction(1, 3)
    with pytest.raises(KeyError, match="no field 'dmg'; fields: damage, crit"):
        d.marginal("dmg")


def test_combine_is_independent_product():
    coin = Distribution.uniform("HT")
    pairs = coin.combine(coin)
    assert pairs[("H", "T")] == Fraction(1, 4)
    assert coin.repeat(3, lambda a, b: a + b)["HHH"] == Fraction(1, 8)


def test_pandas_conversion_keeps_fractions():
    d = Distribution({Hit(0, False): 1, Hit(2, True): 3})
    frame = d.to_frame()
    assert list(frame.columns) == ["damage", "crit", "probability", "percent"]
    assert frame["probability"].tolist() == [Fraction(1, 4), Fraction(3, 4)]
    assert frame["percent"].tolist() == [25.0, 75.0]
    series = Distribution({1: 1, 2: 1}).to_series()
    assert series.loc[2] == Fraction(1, 2)


def test_html_display_shows_fraction_and_percent_and_escapes():
    html = Distribution({"<b>x</b>": 1, "y": 2})._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
    assert "1/3 ≈ 33.3%" in html and "2/3 ≈ 66.7%" in html  # the display rule of toolkit.numbers (issue 12)


def test_format_probability():
    assert format_probability(Fraction(7, 27)) == "7/27 ≈ 25.9%"
    assert format_probability(Fraction(1, 4)) == "1/4 = 25%"
    assert format_probability(Fraction(1)) == "1 = 100%"
    # a fraction only while its denominator is under 10,000 (issue 12): 3140761/7464960 = 42.07…%
    assert format_probability(Fraction(3140761, 7464960)) == "42.1%"


def test_sample_follows_weights():
    import random

    d = Distribution({"a": 1, "b": 3})
    rng = random.Random(5)
    n = 20_000
    count = sum(d.sample(rng) == "b" for _ in range(n))
    # 4.5 standard deviations of a binomial(n, 3/4) frequency
    assert abs(count / n - 0.75) < 4.5 * (0.75 * 0.25 / n) ** 0.5
