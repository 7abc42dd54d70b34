"""toolkit.numbers: the one rule for the numbers a designer reads (issue 12 item 3), the
folded tails, Monte Carlo estimates with their intervals, and a fast display of a
9,100-outcome distribution (issue 13). Expected texts are worked out by hand in the comments."""

from __future__ import annotations

import doctest
import math
import re
from fractions import Fraction

import pandas as pd
import pytest

import toolkit.montecarlo
import toolkit.numbers
import toolkit.prob
import toolkit.reports.figures
import toolkit.widgets.common
from toolkit.montecarlo import Estimate
from toolkit.numbers import (
    TAIL,
    AtLeast,
    AtMost,
    estimate_text,
    fold_labels,
    fold_sides,
    fold_tail,
    method_text,
    number_text,
    percent_text,
    probability_text,
)
from toolkit.prob import Distribution, format_probability
from toolkit.reports.figures import bar, fold_frame, format_cell, table_html

Z95 = 1.959963984540054  # the two-sided 95% normal quantile, from a table


# -- probabilities: a fraction only while it is short ------------------------------------------
@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(7, 27), "7/27 ≈ 25.9%"),  # 700/27 = 25.925…
        (Fraction(1, 4), "1/4 = 25%"),
        (Fraction(1, 8), "1/8 = 12.5%"),
        (Fraction(2, 3), "2/3 ≈ 66.7%"),
        (Fraction(0), "0 = 0%"),
        (Fraction(1), "1 = 100%"),
        (Fraction(1, 9999), "1/9999 ≈ 0.010%"),  # denominator 9,999 < 10,000: still a fraction
        (Fraction(9998, 9999), "9998/9999 ≈ 99.990%"),  # 1 - 0.010001%: two significant digits of the rest
        (Fraction(1, 10_000), "0.01%"),  # denominator 10,000: the percent alone, exact
        (Fraction(3140761, 7464960), "42.1%"),  # the issue's Monte Carlo-built number: 42.0735…%
        (Fraction(61, 125), "48.8%"),  # 48.8% exactly: denominator 125 is short -> see below
        (Fraction(19999, 20000), "99.995%"),  # exact, would round to 100.0%
        (Fraction(12344, 12345), "99.9919%"),  # 100 - 0.0081004…
        (Fraction(1, 12345), "0.0081%"),  # 0.0081004…%: two significant digits, never "0.0%"
        (Fraction(1, 10**12), "< 0.001%"),
        (Fraction(-1, 27), "-1/27 ≈ -3.7%"),  # a change of probability can be negative
    ],
)
def test_probability_text_on_hand_picked_values(p, text):
    if p == Fraction(61, 125):
        text = "61/125 = 48.8%"
    assert probability_text(p) == text


def test_a_long_fraction_is_never_printed_nor_left_as_equals_approx():
    p = Fraction(7824196859001415461407, 11224232549076291776337)  # 0.69707…
    assert probability_text(p) == "69.7%"
    assert format_probability(p) == "69.7%"
    assert f"P(attacker wins) = {format_probability(p)}" == "P(attacker wins) = 69.7%"  # not "= ≈ 69.7%"
    for k in range(1, 400):
        q = Fraction(k * 7919, 7919 * 400 + 13)  # denominators far above 10,000
        assert not probability_text(q).startswith(("=", "≈")), q
        assert "/" not in probability_text(q)


def test_percent_text_and_floats():
    assert percent_text(0.25) == "25%" and percent_text(Fraction(1, 3)) == "33.3%"
    assert probability_text(0.5) == "50%"  # a float is not exact: no fraction
    assert percent_text(Fraction(1, 3), digits=2) == "33.33%"
    with pytest.raises(TypeError, match="a probability must be a Fraction, an int or a float, got str"):
        probability_text("1/2")


def test_huge_fractions_print_fast_and_without_error():
    p = Fraction(1, 3**9000)  # a denominator of 4,295 digits (Python refuses to print it)
    assert percent_text(p) == "< 0.001%"
    assert probability_text(1 - p) == "> 99.999%"
    assert number_text(Fraction(10**5000 + 1, 3)) == "a number of about 5,000 digits"


# -- means -------------------------------------------------------------------------------------
def test_number_text_for_means():
    issue = Fraction(1574571079174182208193, 1204941652776856566000)  # 1.30676…: the issue's expected damage
    assert number_text(issue) == "≈ 1.31"
    assert number_text(Fraction(7, 3)) == "7/3 ≈ 2.33"
    assert number_text(Fraction(7, 2)) == "7/2 = 3.5"
    assert number_text(Fraction(9, 2)) == "9/2 = 4.5"
    assert number_text(3) == "3" and number_text(Fraction(8, 2)) == "4"
    assert number_text(Fraction(123457, 100_000)) == "≈ 1.23"  # 1.23457: long denominator
    assert number_text(Fraction(12345, 10_000)) == "2469/2000 ≈ 1.23"  # reduced, short; 1.2345 rounds half up to 1.23
    assert number_text(Fraction(1, 16384)) == "≈ 0.000061"  # 0.0000610…: never "≈ 0.00"


# -- Monte Carlo: estimate ± interval, the method in words, never a fraction ----------------------
def test_estimate_text_with_interval_from_sample_size():
    # 9,760 of 20,000: p = 0.488; 95% half-width 1.96·sqrt(0.488·0.512/20000) = 0.00693 -> 0.7%
    # (Wilson's differs from this normal approximation by under 0.00001 here).
    half = Z95 * math.sqrt(0.488 * 0.512 / 20_000)
    assert f"{half * 100:.1f}" == "0.7"
    assert estimate_text(9760, 20_000) == "48.8% ± 0.7% (95%), estimated from 20,000 simulated battles"
    assert str(Estimate(9760, 20_000)) == "48.8% ± 0.7% (95%), estimated from 20,000 simulated battles"


def test_estimate_with_no_hit_says_its_upper_bound():
    # 0 of 2,000: Wilson's upper bound is z²/(n + z²) = 3.8415/2003.84 = 0.1917%, rounded up: 0.20%
    upper = Z95**2 / (2000 + Z95**2)
    assert f"{upper * 100:.4f}" == "0.1917"
    assert Estimate(0, 2000).text("simulated attacks") == (
        "0% (at most 0.20%, 95%), estimated from 2,000 simulated attacks"
    )
    assert Estimate(2000, 2000).text("") == "100% (at least 99.80%, 95%)"


def test_a_rare_event_gets_a_range_not_plus_minus():
    # 2 of 200 = 1%: Wilson 95% [0.27%, 3.57%] by hand (centre (0.01 + z²/400)/(1 + z²/200) = 0.01923,
    # half 1.96·sqrt(0.0000495 + z²/160000)/1.0192 = 0.01648); 0.73 below, 2.57 above: lopsided,
    # so a range rounded outwards with the smaller side's decimals: never "1% ± 3%".
    centre = (0.01 + Z95**2 / 400) / (1 + Z95**2 / 200)
    half = Z95 * math.sqrt(0.01 * 0.99 / 200 + Z95**2 / 160_000) / (1 + Z95**2 / 200)
    assert (f"{(centre - half) * 100:.2f}", f"{(centre + half) * 100:.2f}") == ("0.27", "3.57")
    assert estimate_text(2, 200, "") == "1.0% (0.2% to 3.6%, 95%)"


def test_estimate_at_five_percent_uses_the_wider_side():
    # 100 of 2,000 = 5%: Wilson 95% interval [4.13%, 6.04%] by hand
    # (centre (0.05 + z²/4000)/(1 + z²/2000) = 0.05086, half 1.96·sqrt(0.0000238 + z²/16e6)/1.00192 = 0.00958);
    # the wider side 1.04% starts with a 1: two digits, "1.0%".
    assert estimate_text(100, 2000, "sampled deals") == "5.0% ± 1.0% (95%), estimated from 2,000 sampled deals"


def test_estimate_html_and_confidence_level():
    est = Estimate(5000, 10_000)
    # 99%: z = 2.5758; half 2.5758 · 0.005 = 1.29% -> two digits "1.3"
    assert est.text(confidence=0.99) == "50.0% ± 1.3% (99%), estimated from 10,000 simulated battles"
    assert est._repr_html_() == f"<span>{est.text()}</span>"
    assert "/" not in est.text()
    assert est.text("") == "50.0% ± 1.0% (95%)"  # 1.96 · 0.005 = 0.98% -> "1.0"


def test_method_in_words_never_internal_names():
    for text in (method_text("exact"), method_text("monte_carlo", 20_000), method_text("mixed", 500)):
        assert "monte_carlo" not in text and "EXACT_LIMIT" not in text and "method=" not in text
    assert method_text("monte_carlo", 20_000) == "estimated from 20,000 simulated battles"


# -- folding tails -------------------------------------------------------------------------------
def test_fold_tail_keeps_exact_mass():
    # weights 5000, 4997, 1, 1, 1 of 10,000: the last three hold 3/10,000 = 0.03% < 0.05%
    d = Distribution({0: 5000, 1: 4997, 2: 1, 3: 1, 4: 1})
    folded = fold_tail(d)
    assert folded == [(0, Fraction(1, 2)), (1, Fraction(4997, 10000)), (AtLeast(2), Fraction(3, 10000))]
    assert sum(p for _, p in folded) == 1
    assert [k for k, _ in fold_labels(d)] == ["0", "1", "≥ 2"]
    # 2 + 2 + 2 of 10,000 = 0.06% is not below 0.05%: only the last two rows (0.04%) fold
    e = Distribution({0: 5000, 1: 4994, 2: 2, 3: 2, 4: 2})
    assert fold_tail(e)[-1] == (AtLeast(3), Fraction(4, 10000))


def test_a_single_small_last_row_is_not_folded_and_lower_tail():
    d = Distribution({0: 1, 1: 9998, 2: 1})
    assert fold_tail(d) == d.items()
    big = Distribution({k: w for k, w in enumerate([1, 1, 1, 4000, 5994, 1, 1, 1])})  # of 10,000
    assert fold_tail(big, lower=True) == [
        (AtMost(2), Fraction(3, 10000)),
        (3, Fraction(4000, 10000)),
        (4, Fraction(5994, 10000)),
        (AtLeast(5), Fraction(3, 10000)),
    ]


def test_fold_on_a_large_binomial_keeps_total_exactly_one():
    from toolkit.angry_miniatures import hit_distribution

    d = hit_distribution(300)
    folded = d.folded(lower=True)
    assert sum(p for _, p in folded) == 1
    low, high = folded[0], folded[-1]
    assert isinstance(low[0], AtMost) and isinstance(high[0], AtLeast)
    # each folded tail is below 0.05% and one more row would take it over
    assert low[1] < TAIL <= low[1] + d[low[0].k + 1]
    assert high[1] < TAIL <= high[1] + d[high[0].k - 1]
    assert high[1] == d.at_least(high[0].k)  # the exact tail mass, independently summed


def test_fold_pairs_in_display_order():
    pairs = [("nothing", Fraction(1, 2)), ("1 damage", Fraction(4998, 10000)), ("2 damage", Fraction(1, 10000))]
    pairs.append(("3 damage", Fraction(1, 10000)))
    assert fold_labels(pairs) == [
        ("nothing", Fraction(1, 2)),
        ("1 damage", Fraction(4998, 10000)),
        ("≥ 2 damage", Fraction(2, 10000)),
    ]


def test_fold_sides_of_an_explorer_table():
    # scores 4..-3 of 10,000: damage to the defender (positive) and back (negative)
    weights = {4: 1, 3: 2, 2: 997, 1: 3000, 0: 5000, -1: 996, -2: 2, -3: 2}
    rows = [(k, f"{k}", Fraction(w, 10_000)) for k, w in weights.items()]
    folded = fold_sides(rows, lambda k: f"at least {k}")
    # positive tail 4, 3: 3/10,000 < 0.05% -> one row "at least 3"; negative -2, -3: 4/10,000 -> "at least -2"
    assert [(k, label) for k, label, _ in folded] == [
        (3, "at least 3"),
        (2, "2"),
        (1, "1"),
        (0, "0"),
        (-1, "-1"),
        (-2, "at least -2"),
    ]
    assert folded[0][2] == Fraction(3, 10_000) and folded[-1][2] == Fraction(4, 10_000)
    assert sum(p for _, _, p in folded) == 1
    # "at least" view: P(score >= k) per row; rows beyond the first below 0.05% are dropped
    at_least = [(4, "4", Fraction(1, 10**4)), (3, "3", Fraction(3, 10**4)), (2, "2", Fraction(1000, 10**4))]
    assert [k for k, _, _ in fold_sides(at_least, str, cumulative=True)] == [3, 2]


# -- tables, charts ------------------------------------------------------------------------------
def test_format_cell_follows_the_rule():
    assert format_cell(Fraction(7, 27), percent=True) == "7/27 ≈ 25.9%"
    assert format_cell(Fraction(3140761, 7464960), percent=True) == "42.1%"
    assert format_cell(Fraction(1574571079174182208193, 1204941652776856566000)) == "≈ 1.31"
    assert format_cell(Fraction(7, 2)) == "7/2 = 3.5"
    assert format_cell(1.30676) == "1.31" and format_cell(0.259, percent=True) == "25.9%"
    assert format_cell(Estimate(9760, 20_000)).startswith("48.8% ± 0.7% (95%)")
    assert format_cell(True) == "yes" and format_cell(False) == "no" and format_cell(None) == ""
    assert format_cell("melee") == "melee" and format_cell(3) == 3
    assert format_cell(["greedy", "greedy"]) == "greedy, greedy"


def test_fold_frame_and_table():
    frame = Distribution({0: 5000, 1: 4997, 2: 1, 3: 1, 4: 1}).to_frame()
    folded = fold_frame(frame, "outcome")
    assert folded["outcome"].tolist() == [0, 1, "≥ 2"]
    assert folded["probability"].tolist()[-1] == Fraction(3, 10000)
    assert sum(folded["probability"]) == 1
    assert folded["percent"].tolist()[-1] == pytest.approx(0.03)
    markup = table_html(folded, percent_columns=["probability"])
    assert "≥ 2" in markup and "0.03%" in markup
    with pytest.raises(Exception, match="'chance' is not a column"):
        fold_frame(frame, "chance")


def test_table_of_many_rows_is_cut_with_a_count():
    df = pd.DataFrame({"k": range(1000), "p": [Fraction(1, 1000)] * 1000})
    markup = table_html(df, percent_columns=["p"])
    assert "… 800 more rows not shown" in markup
    assert markup.count("<tr") == 201  # header + 200 rows


def test_bar_folds_and_hovers_by_the_rule():
    d = Distribution({0: 5000, 1: 4997, 2: 1, 3: 1, 4: 1})
    trace = bar(d, name="hits")
    assert list(trace.x) == ["0", "1", "≥ 2"]
    # 4997/10000 has a denominator of 10,000: the percent alone (49.97% -> 50.0%)
    assert list(trace.hovertext) == ["0: 1/2 = 50%", "1: 50.0%", "≥ 2: 0.03%"]
    assert list(trace.text) == ["50%", "50.0%", "0.03%"]
    assert list(trace.y) == pytest.approx([50, 49.97, 0.03])


# -- Distribution display ------------------------------------------------------------------------
def test_distribution_repr_and_to_frame_shown():
    d = Distribution({0: 1, 1: 2})
    assert repr(d) == "Distribution({0: 1/3, 1: 2/3})"
    long = Distribution({0: 3140761, 1: 7464960 - 3140761})
    assert repr(long) == "Distribution({0: 42.1%, 1: 57.9%})"
    assert d.to_frame(shown=True)["shown"].tolist() == ["1/3 ≈ 33.3%", "2/3 ≈ 66.7%"]


def test_html_of_9100_outcomes_is_short_folded_and_complete():
    from toolkit.angry_miniatures import hit_distribution

    d = hit_distribution(9100)
    page = d._repr_html_()
    rows = re.findall(r"<tr>", page)
    assert len(rows) == 1 + 40 + 2  # header, 40 rows, a "… N more rows" line above and below
    more = re.findall(r"… ([\d,]+) more rows \(([^)]*)\), together ([\d.]+)%", page)
    assert len(more) == 2 and more[0][1].startswith("≤ ") and more[1][1].endswith(tuple("0123456789"))
    shown = len(d._display_weights())
    assert sum(int(n.replace(",", "")) for n, _, _ in more) + 40 == shown
    assert "/" not in re.sub(r"<[^>]*>", "", page)  # no 4,300-digit fraction
    assert len(page) < 20_000


def test_small_distribution_html_is_whole_and_escaped():
    page = Distribution({"<b>x</b>": 1, "y": 2})._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert "1/3 ≈ 33.3%" in page and "more rows" not in page


# -- doctests of the modules that carry the rule ---------------------------------------------
@pytest.mark.parametrize(
    "module", [toolkit.numbers, toolkit.prob, toolkit.montecarlo, toolkit.reports.figures, toolkit.widgets.common]
)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# -- issue 23: tiny values, values that round to zero, differences in points ------------------
def test_a_tiny_probability_reads_under_the_floor_and_a_zero_mean_has_no_sign():
    # 1/10^6 is 0.0001%: below the floor of 0.001%; 1/10^5 is exactly 0.001%.
    assert percent_text(Fraction(1, 10**6)) == "< 0.001%"
    assert percent_text(Fraction(1, 10**5)) == "0.001%"
    assert percent_text(1 - Fraction(1, 10**6)) == "> 99.999%"
    assert number_text(-0.0001) == "0.00" and number_text(-0.0004, 3) == "0.000"
    assert number_text(Fraction(-1, 10**30)) == "≈ 0"


def test_a_difference_of_probabilities_is_in_points_never_a_fraction():
    from toolkit.numbers import points_text

    # 9.57...: -137/1431 of a probability is -9.573... percentage points.
    assert points_text(Fraction(-137, 1431)) == "−9.6 points"
    assert points_text(Fraction(7, 50)) == "+14 points"
    assert points_text(Fraction(-1, 100)) == "−1 point"
    assert points_text(Fraction(0)) == "0 points"
