"""One way to write a number: an estimate is never a fraction and always carries its ± at
one stated level (95%); tiny values read '< 0.001%', zero reads '0', never a string of
zeros or a signed zero; bar labels never round a non-zero value to '0.0%'; charts of
estimates have error bars; two quantities never share a name. Each rule on the function
(toolkit.numbers.interval_text and the texts built on it), then on the named pages: the
explorers' tables and charts, and the report cells that wrote them (run in this process,
tests/report_cells.py). Expected texts are worked out by hand in the comments."""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from toolkit.comparison import Difference
from toolkit.numbers import estimate_text, interval_text, percent_text, signed_text, wilson_interval
from toolkit.prob import format_probability

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report_cells import run_cells

FRACTION = re.compile(r"\d+/\d+")


# -- the function ------------------------------------------------------------------------------------
def test_an_estimate_carries_its_interval_at_its_level_and_is_never_a_fraction():
    # 288 of 2,000 sampled attacks (the 18/125): Wilson 95% interval 12.9%..16.0%,
    # the larger side 1.6 points (a half-width starting with 1: two digits)
    lo, hi = wilson_interval(288, 2000)
    assert interval_text(288 / 2000, lo, hi) == "14.4% ± 1.6% (95%)"
    assert interval_text(288 / 2000, lo, hi, level=False) == "14.4% ± 1.6%"  # the table states it once
    assert estimate_text(288, 2000, "", level=False) == "14.4% ± 1.6%"
    # 1 of 2,000 (the 1/2000 ≈ 0.1%): lopsided, a range rounded outwards
    lo, hi = wilson_interval(1, 2000)
    assert interval_text(1 / 2000, lo, hi) == "0.05% (0% to 0.29%, 95%)"  # 0.0088% floored: 0, never 0.00
    for hits in (0, 1, 3, 288, 1999, 2000):
        assert not FRACTION.search(estimate_text(hits, 2000, "")), hits


def test_a_mean_and_a_change_with_their_interval():
    assert interval_text(2.58, 2.10, 3.06, percent=False, signed=True) == "+2.6 ± 0.5 (95%)"  # ± 0.48: one digit
    assert interval_text(2.137, 2.09, 2.18, percent=False) == "2.14 ± 0.05 (95%)"
    assert interval_text(-0.3, -0.5, -0.1, percent=False, signed=True, level=False) == "-0.3 ± 0.2"


def test_tiny_values_read_under_a_thousandth_of_a_percent_and_zero_reads_zero():
    # the Durak report's "undecided": 1.6e-26 ± 1.3e-26 was 0.0000000000000000000000016% ± …
    assert interval_text(1.6e-26, 0.3e-26, 2.9e-26) == "< 0.001% (95%)"
    assert interval_text(1.6e-26, 0, 0.0003) == "< 0.001% (at most 0.03%, 95%)"
    # a change that rounds to zero: "0", never "+0.00" or "-0.00"
    assert interval_text(-0.001, -0.2, 0.198, percent=False, signed=True) == "0 ± 0.20 (95%)"  # 0.199: two digits
    assert interval_text(0.001, -0.2, 0.202, percent=False, signed=True) == "0 ± 0.2 (95%)"
    assert signed_text(0) == "0" and signed_text(Fraction(0)) == "0"
    # not zero but rounding to it: two significant digits, then (beyond 6 decimals) "≈ 0"
    assert signed_text(-0.0001) == "-0.00010" and signed_text(Fraction(1, 800), 2) == "+0.0013"
    assert signed_text(1e-9) == "≈ 0"
    for text in (interval_text(x, x - 1e-9, x + 1e-9) for x in (1e-30, 1e-12, 3e-7)):
        assert not re.search(r"0\.0000", text), text


def test_a_difference_of_means_is_never_a_signed_zero():
    tiny = Difference(Fraction(1), Fraction(1) + Fraction(1, 10**6), 0, 0, True, points=False)
    assert tiny.text() == "+0.000001"  # exact, not zero: its digits, never "+0.00"
    noisy = Difference(1.0, 1.001, 1.001 - 1.0 - 0.05, 1.001 - 1.0 + 0.05, False, points=False)
    assert noisy.text() == "no measurable change (within ±0.05)"
    measured = Difference(1.0, 1.3, 0.25, 0.35, False, points=False)
    assert measured.text() == "+0.30 ± 0.05 (95%)" and measured.text(level=False) == "+0.30 ± 0.05"


def test_bar_labels_never_round_a_possible_outcome_to_zero():
    # the explorers' bar labels (percent_text): 1/2000 = 0.05% (one decimal, half up: 0.1%),
    # 1/12345 = 0.0081004…%, 1/30000 = 0.00333…%: two significant digits, never 0.0%
    assert percent_text(Fraction(1, 2000)) == "0.1%"
    assert percent_text(Fraction(1, 12345)) == "0.0081%"
    assert percent_text(Fraction(1, 30000)) == "0.0033%"
    assert percent_text(0) == "0%"


# -- the explorers --------------------------------------------------------------------------------
def test_fairy_meat_explorer_under_random_play_shows_estimates_with_error_bars():
    from toolkit.fairy_meat.widgets import odds_explorer

    ex = odds_explorer(policies=("random", "random"), trials=300)
    shown = ex.table["shown"].tolist()
    assert shown and not any(FRACTION.search(s) for s in shown), shown
    assert all("±" in s or " to " in s for s in shown), shown
    page = ex._view_tables["exactly"].value
    assert page.count("95%") == 1 and "estimates ± their 95% interval (estimated from 300 simulated attacks)" in page
    assert not FRACTION.search(re.sub(r"<[^>]+>", " ", page))
    bars = ex.shown_figure.data
    for trace in bars:
        n = len(trace.x)
        assert len(trace.error_y.array) == n and len(trace.error_y.arrayminus) == n
        assert all(e > 0 for e in trace.error_y.array)  # every bar's interval reaches above it
        assert not any(t in ("0.0%", "0%") for t in trace.text), trace.text
    # the table's interval is the result's own (Wilson's, 95%) for that outcome
    row = ex.table.iloc[0]
    assert isinstance(row["probability"], float)  # an estimate's data is no fraction either
    hits = row["probability"] * 300
    assert hits == pytest.approx(round(hits))
    assert (row["low"], row["high"]) == pytest.approx(wilson_interval(round(hits), 300))


def test_an_exact_explorer_draws_no_error_bars_and_keeps_its_fractions():
    from toolkit.fairy_meat.widgets import odds_explorer

    ex = odds_explorer(1, 1)  # greedy against greedy: exact
    assert all(trace.error_y.visible is False for trace in ex.shown_figure.data)
    assert "estimates" not in ex._view_tables["exactly"].value
    assert not any("±" in s for s in ex.table["shown"])


def test_durak_battle_explorer_round_bars_carry_their_intervals():
    from toolkit.durak_battle import Army, Leader
    from toolkit.durak_battle.widgets import odds_explorer

    north = Army("North", 2, Leader("A", battle_die=8, spirit_die=6))
    south = Army("South", 2, Leader("B", battle_die=6, spirit_die=8))
    ex = odds_explorer(north, south)  # "quick": clash odds from 100 sampled clashes per pair of hand sizes
    assert not ex.distribution.exact
    assert not any(FRACTION.search(s) for s in ex.table["shown"])
    assert "estimates ± their 95% interval" in ex._view_tables["exactly"].value
    for trace in ex.shown_figure.data:
        assert len(trace.error_y.array) == len(trace.x)
    # each bar's interval is the result's own interval of that round's event
    first = ex.table[ex.table["outcome"] == "North wins in round 1"].iloc[0]
    low, high = ex.distribution.interval(lambda o: o.winner == "a" and o.rounds == 1)
    assert (first["low"], first["high"]) == pytest.approx((low, high))


# -- two quantities, two names --------------------------------------------------------------------
def test_trumps_of_one_colour_only_and_trumps_to_place_are_two_names():
    from toolkit.fairy_meat.widgets import hand_composition_explorer

    # five cards of 52 (16 Trumps, 8 of each colour, 36 Numbered):
    # Trumps of one colour only: 2 (C(44,5) - C(36,5)) / C(52,5) = 1,418,032 / 2,598,960 = 54.6%;
    # can place Trumps and still play a card: every hand with a Trump (a five-card hand with
    # one Trump holds a Numbered card), 1 - C(36,5) / C(52,5) = 85.5%
    one_colour = Fraction(2 * (comb(44, 5) - comb(36, 5)), comb(52, 5))
    to_place = 1 - Fraction(comb(36, 5), comb(52, 5))
    assert (percent_text(one_colour), percent_text(to_place)) == ("54.6%", "85.5%")
    ex = hand_composition_explorer(5)
    assert f"P(can place Trumps and still play a card) = {format_probability(to_place)}" in ex.summary_text
    assert "Trumps of one colour" not in ex.summary_text


def test_fairy_meat_report_names_its_hand_columns_apart(monkeypatch):
    shown = run_cells(
        "fairy_meat_report.ipynb",
        {"max_hand": 5, "attacker_kill": [1], "defender_live": [1]},
        '"Trumps of one colour only"',
        monkeypatch=monkeypatch,
    )
    comp = shown.namespace["comp"]
    assert comp.set_index("cards").loc[5, "Trumps of one colour only"] == Fraction(
        2 * (comb(44, 5) - comb(36, 5)), comb(52, 5)
    )
    assert "Trumps of one colour" not in [c for c in comp.columns if c != "Trumps of one colour only"]


# -- the reports' cells -------------------------------------------------------------------------------
def _blocks(shown) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown.text()))


def test_strategy_report_round_study_gives_every_mean_its_interval(monkeypatch):
    from toolkit.odds_result import student_t

    shown = run_cells("fairy_meat_strategy.ipynb", {"round_deals": 12}, "rs = round_study(", monkeypatch=monkeypatch)
    text = _blocks(shown)
    assert "standard error" not in text and "99%" not in text
    rs = shown.namespace["rs"]
    down = rs.down_first_defender["X"]
    assert down.n >= 2
    # the mean of 0/1 per-deal values ± Student's t (n - 1 degrees of freedom) times its standard error
    half = student_t(0.95, down.n - 1) * down.stderr
    assert down.interval() == pytest.approx((down.mean - half, down.mean + half))
    shown_down = down.text(percent=True)  # 5.5% ± 9.4%, its low end clipped at 0%: a range
    assert f"in {shown_down} of rounds" in text and re.search(r"±| to ", shown_down) and "95%)" in shown_down
    assert "each ± its 95% interval" in text
    table_row = re.search(r"X first(.*?)Y first", text).group(1)
    assert len(re.findall(r"±| to ", table_row)) == 4 and "(95%)" not in table_row  # the level once, in the caption


def test_mean_text_states_its_level_and_never_a_signed_zero():
    from toolkit.fairy_meat import Mean

    m = Mean.of([1.0, 0.0] * 6)  # 12 deals: mean 0.5, standard error sqrt(3/11)/sqrt(12) = 0.1508
    low, high = m.interval()
    assert (low, high) == pytest.approx((0.5 - 2.2010 * 0.15076, 0.5 + 2.2010 * 0.15076), abs=2e-3)  # t(11) = 2.201
    assert m.text(percent=True) == "50% ± 33% (95%)"
    assert Mean.of([0.001, -0.001] * 6).text() == "0 ± 0.0007 (95%)"
    assert Mean(0.0, 0.0, 5).text() == "0"


def test_durak_report_suits_at_95_and_battles_with_error_bars(monkeypatch):
    shown = run_cells(
        "durak_battle_report.ipynb",
        {"suit_trials": 20, "clash_sizes": [1, 2], "tokens_a": [2, 3], "tokens_b": 2, "trials": 60, "max_rounds": 6},
        "values = suit_values(",
        "battle_outcome(Army(name_a, ta, leader_a)",
        monkeypatch=monkeypatch,
    )
    text = _blocks(shown)
    assert "99%" not in text
    values = shown.namespace["values"]
    assert all(v.confidence == 0.95 for v in values)
    assert f"{values[0].label} {values[0].text(level=False)}" in text
    battles = shown.namespace["battles"]
    for cell in battles["undecided"]:
        assert not re.search(r"0\.0000", cell) and not FRACTION.search(cell), cell
    assert not battles["_exact"].all()
    suits, chart = shown.figures
    assert len(suits.data[0].error_y.array) == len(values)
    error = chart.data[0].error_y
    assert len(error.array) == 2 and all(e > 0 for e in error.array)
    assert "error bars: 95% intervals" in chart.layout.title.text


def test_fairy_meat_report_damage_rules_change_never_reads_a_signed_zero(monkeypatch):
    shown = run_cells(
        "fairy_meat_report.ipynb",
        {"attacker_kill": [1, 2], "defender_live": [1], "max_hand": 2},
        "alt_rules = replace(rules, damage=other)",
        monkeypatch=monkeypatch,
    )
    text = _blocks(shown)
    assert not re.search(r"[+-]0\.00\b", text)
    assert "(exact)" in text  # greedy against greedy at these sizes: every number exact, said once


def test_fairy_meat_report_heatmaps_of_estimates_carry_their_interval(monkeypatch):
    shown = run_cells(
        "fairy_meat_report.ipynb",
        {"attacker_kill": [4], "defender_live": [2], "max_hand": 2, "policies": ["random", "random"], "trials": 200},
        "def grid(",
        monkeypatch=monkeypatch,
    )
    wins, damage = shown.figures[:2]
    assert "(estimates ± their 95% interval)" in wins.layout.title.text
    texts = [t for row in wins.data[0].text for t in row] + [t for row in damage.data[0].text for t in row]
    assert texts and all("±" in t or " to " in t for t in texts), texts
    assert not any(FRACTION.search(t) or "(95%)" in t for t in texts), texts


def test_durak_report_initiative_cells_never_round_a_chance_to_zero(monkeypatch):
    shown = run_cells(
        "durak_battle_report.ipynb", {"clash_sizes": [1]}, "initiative(na, nb, rules)", monkeypatch=monkeypatch
    )
    first = shown.namespace["first"]
    texts = [t for row in shown.figures[0].data[0].text for t in row]
    for p, t in zip((p for row in first for p in row), texts, strict=True):
        assert t != "0%" or p == 0, (p, t)
        assert t == percent_text(p, 0)


def test_rule_change_heatmap_cells_in_points_by_the_one_writer():
    from toolkit.numbers import points_text
    from toolkit.reports.rule_change import compare_rules

    zero_tie = Path(__file__).resolve().parent / "fixtures" / "house_rules" / "angry-miniatures" / "zero_tie.yaml"
    table = compare_rules("angry-miniatures", None, str(zero_tie), {"max_dice": 2}).tables[0]
    heat = table.heatmap("default rules", "SuperTieBreaker")
    at = {(c.row, c.column): c for c in table.changes}
    texts = [t for row in heat.data[0].text for t in row]
    deltas = [at[r, c].delta for r in table.rows for c in table.columns]
    assert len(texts) == len(deltas) and any(d != 0 for d in deltas)
    for t, d in zip(texts, deltas, strict=True):
        assert t == points_text(d).split(" point")[0], (t, d)  # exact: every change measurable
        assert t == "0" or not re.fullmatch(r"[+−-]0(\.0+)?", t), t  # never a signed zero
    assert heat.data[0].text[1][1] == "+0.6"  # 100/162 points: 0.617…


def test_angry_miniatures_report_heatmap_cells_by_the_one_writer(monkeypatch):
    shown = run_cells(
        "angry_miniatures_report.ipynb", {"max_dice": 3}, "def heatmap(frame, column", monkeypatch=monkeypatch
    )
    hit, damage = shown.figures[:2]
    frame = shown.namespace["tables"][shown.namespace["attack_types"][0]]
    grid = frame.pivot(index="defence_dice", columns="attack_dice", values="hit")
    assert [list(r) for r in hit.data[0].text] == [[percent_text(v, 0) for v in row] for row in grid.values]
    assert all(t != "0%" for row in hit.data[0].text for t in row)  # every pool can deal damage
    assert all(re.fullmatch(r"\d+(\.\d+)?", t) for row in damage.data[0].text for t in row)


def test_a_report_bar_of_an_estimate_has_error_bars_and_an_exact_one_none():
    from toolkit.odds_result import Odds
    from toolkit.prob import Distribution
    from toolkit.reports.figures import bar

    sampled = Odds.from_counts({0: 1712, 1: 287, 2: 1})  # 2,000 runs
    trace = bar(sampled)
    lo, hi = wilson_interval(287, 2000)
    assert trace.error_y.array[1] == pytest.approx((hi - 287 / 2000) * 100)
    assert trace.error_y.arrayminus[1] == pytest.approx((287 / 2000 - lo) * 100)
    assert trace.hovertext[1] == "1: 14.3% ± 1.6% (95%)" and "/" not in "".join(trace.hovertext)
    assert trace.text[-1] != "0.0%"
    exact = bar(Distribution({0: 1, 1: 2}))
    assert exact.error_y.array is None and exact.hovertext[1] == "1: 2/3 ≈ 66.7%"


def test_a_battle_on_sampled_clashes_shows_no_plain_frequencies_in_a_notebook():
    from toolkit.durak_battle import Army, Leader, battle_outcome

    north = Army("North", 2, Leader("A", battle_die=8, spirit_die=6))
    south = Army("South", 2, Leader("B", battle_die=6, spirit_die=8))
    r = battle_outcome(north, south, trials=60, max_rounds=4)
    assert not r.exact
    cells = re.findall(r"<td>([^<]*)</td>", r._repr_html_())
    numbers = [c for c in cells if "%" in c]
    assert numbers and all(re.search(r"±| to |&lt; 0\.001%", c) for c in numbers), numbers
    assert not any(FRACTION.search(c) for c in numbers)
