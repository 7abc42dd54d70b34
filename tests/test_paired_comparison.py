"""Comparisons of two Monte Carlo results drawn with one seed are paired run by run.

Run ``i`` under two rule sets shares its deal, its dice and its play stream (common random
numbers), every run is kept (``Odds.samples``), and :mod:`toolkit.comparison` gives the
change the paired interval. Its coverage is tested against exact differences on small cases
(each side's exact calculator, independent of the sampler) over 100 seeds; it is narrower
than the conservative Newcombe interval on correlated pairs; anything not aligned falls back
to Newcombe and says so.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.angry_miniatures import Rules as AMRules
from toolkit.angry_miniatures import opposed
from toolkit.comparison import difference, difference_of, interval_of, mean_difference, mean_interval, mean_of
from toolkit.durak_battle import Rules as DurakRules
from toolkit.durak_battle import clash_losses
from toolkit.fairy_meat import Rules as FMRules
from toolkit.fairy_meat import deal_averaged_odds
from toolkit.odds_samples import Samples

SEEDS = range(100)
TENS_HIT = AMRules(hit_faces=("10", "J", "Q", "K", "A"))  # AM-1 house rule: 10s hit too


def _hit(o):
    return o.defender_damage > 0


def _a_ahead(lost):
    return lost[0] < lost[1]


def test_paired_interval_covers_the_exact_change_angry_miniatures():
    """P(hit) and the mean damage of 2 v 2 dice, default against 10s hit (AM-1, AM-3):
    the 95% paired intervals cover the exact changes in at least 90 of 100 seeds."""
    exact_p = opposed(2, 2, rules=TENS_HIT).probability(_hit) - opposed(2, 2).probability(_hit)
    exact_m = opposed(2, 2, rules=TENS_HIT).mean("defender_damage") - opposed(2, 2).mean("defender_damage")
    assert exact_p != 0 and exact_m != 0
    covered_p = covered_m = 0
    for seed in SEEDS:
        before = opposed(2, 2, method="monte_carlo", trials=300, seed=seed)
        after = opposed(2, 2, rules=TENS_HIT, method="monte_carlo", trials=300, seed=seed)
        p, m = difference(before, after, _hit), mean_difference(before, after, "defender_damage")
        assert p.method == m.method == "paired"
        covered_p += p.low <= float(exact_p) <= p.high
        covered_m += m.low <= float(exact_m) <= m.high
    assert covered_p >= 90 and covered_m >= 90, (covered_p, covered_m)


@pytest.mark.parametrize(
    ("cheap", "measure"),
    [(DurakRules(strike_loss=3), 1), (DurakRules(counter_tie="loses"), 0)],
    ids=["strike costs 3 (DB-4)", "an equal Counterattack loses (DB-5): rarely changes a clash"],
)
def test_paired_interval_covers_the_exact_change_durak_clash(cheap, measure):
    """Tokens lost in a 2 v 2 clash, and P(North comes out ahead), under a house rule: 100
    clashes per seed through the clash model, against the exact clash calculator. With an
    equal Counterattack losing, most seeds see no clash change at all: the interval must
    still hold the small exact change (0.01 tokens)."""
    exact_before, exact_after = clash_losses(2, 2, method="exact"), clash_losses(2, 2, rules=cheap, method="exact")
    exact_m = exact_after.mean(measure) - exact_before.mean(measure)
    exact_p = exact_after.probability(_a_ahead) - exact_before.probability(_a_ahead)
    assert exact_m != 0
    covered_m = covered_p = 0
    for seed in SEEDS:
        before = clash_losses(2, 2, method="monte_carlo", sampler="model", trials=100, seed=seed)
        after = clash_losses(2, 2, rules=cheap, method="monte_carlo", sampler="model", trials=100, seed=seed)
        m, p = mean_difference(before, after, measure), difference(before, after, _a_ahead)
        assert m.method == p.method == "paired"
        covered_m += m.low <= float(exact_m) <= m.high
        covered_p += p.low <= float(exact_p) <= p.high
    assert covered_m >= 90 and covered_p >= 90, (covered_m, covered_p)


def _newcombe_mean(before, after, f):
    return difference_of(
        mean_of(before, f), mean_interval(before, f), mean_of(after, f), mean_interval(after, f), points=False
    )


def _newcombe(before, after, event):
    b, a = before.probability(event), after.probability(event)
    return difference_of(b, interval_of(before, event), a, interval_of(after, event))


def test_paired_is_narrower_than_unpaired_on_a_correlated_pair():
    """The same deals under both rules move together: the paired interval is narrower than
    Newcombe's (which is honest but conservative for them)."""
    before = opposed(3, 3, method="monte_carlo", trials=2000, seed=4)
    after = opposed(3, 3, rules=TENS_HIT, method="monte_carlo", trials=2000, seed=4)
    assert difference(before, after, _hit).half_width < 0.7 * _newcombe(before, after, _hit).half_width
    cheap = DurakRules(strike_loss=3)
    b = clash_losses(3, 3, method="monte_carlo", sampler="model", trials=1000, seed=1)
    a = clash_losses(3, 3, rules=cheap, method="monte_carlo", sampler="model", trials=1000, seed=1)
    assert mean_difference(b, a, 1).half_width < 0.5 * _newcombe_mean(b, a, 1).half_width


def test_fairy_meat_deals_are_shared_and_paired():
    """Two damage rules (FM-10) on the same deals: the runs are aligned, the change is
    paired and narrower than Newcombe's, and every run that ended with the same winner under
    both rules (the damage rule does not change who wins) makes P(attacker wins) identical."""
    before = deal_averaged_odds(2, 1, method="monte_carlo", trials=300, seed=3)
    after = deal_averaged_odds(2, 1, rules=FMRules(damage="table"), method="monte_carlo", trials=300, seed=3)
    assert before.samples.aligned(after.samples)
    change = mean_difference(before, after, "damage")
    assert change.method == "paired" and change.half_width < _newcombe_mean(before, after, "damage").half_width
    wins = difference(before, after, lambda o: o.winner == "attacker")
    assert wins.identical and wins.text() == "identical"


def test_not_aligned_falls_back_to_newcombe_and_says_so():
    a = opposed(2, 2, method="monte_carlo", trials=300, seed=1)
    b = opposed(2, 2, rules=TENS_HIT, method="monte_carlo", trials=300, seed=2)  # another seed
    c = opposed(2, 2, rules=TENS_HIT, method="monte_carlo", trials=400, seed=1)  # other trials
    for other in (b, c):
        d = difference(a, other, _hit)
        assert d.method == "newcombe" and d.how.startswith("conservative")
    exact = opposed(2, 2, rules=TENS_HIT)
    assert difference(a, exact, _hit).method == "newcombe"
    paired = difference(a, opposed(2, 2, rules=TENS_HIT, method="monte_carlo", trials=300, seed=1), _hit)
    assert paired.how == "paired: the same 300 runs under both rules"


def test_samples_are_compact_and_not_shown():
    r = opposed(2, 2, method="monte_carlo", trials=500, seed=0)
    assert isinstance(r.samples, Samples) and r.samples.index.dtype.itemsize == 4
    assert "samples" not in repr(r) and "Samples" not in str(r)
    assert r.samples.counts() == {o: r.probability(o) * 500 for o in r.outcomes()}
    assert r.marginal("defender_damage").samples is not None  # a marginal keeps its runs
    assert sum(r.marginal("defender_damage").samples.counts().values()) == 500


@pytest.mark.parametrize("seed", [0, 1])
def test_identical_rules_give_identical_runs(seed):
    a = clash_losses(2, 2, method="monte_carlo", sampler="model", trials=200, seed=seed)
    b = clash_losses(
        2, 2, rules=DurakRules(holder_must_attack=True), method="monte_carlo", sampler="model", trials=200, seed=seed
    )
    d = mean_difference(a, b, 0)
    assert d.method == "paired" and d.identical and d.delta == 0 and isinstance(d.before, float | Fraction)


def test_the_rule_change_report_compares_estimated_cells_run_by_run():
    """A Monte Carlo cell of the rule-change report (a 3 v 3 clash sampled, DB-4 strike
    cost changed) keeps its runs, and its change is the paired one, said so in the table."""
    from toolkit.durak_battle.headline import DB_CLASH
    from toolkit.plugin.headline import Cell, Table
    from toolkit.reports.rule_change import compare

    def table(rules, seed=0):
        result = clash_losses(3, 3, rules=rules, method="monte_carlo", sampler="model", trials=300, seed=seed)
        low, high = result.interval(_a_ahead)
        cell = Cell(3, 3, result.probability(_a_ahead), False, low, high, result.samples, _a_ahead)
        return [Table(DB_CLASH, (cell,))]

    (compared,) = compare(table(DurakRules()), table(DurakRules(strike_loss=3)))
    change = compared.changes[0]
    assert change.difference.method == "paired" and change.difference.runs == 300
    newcombe = difference_of(change.before, change.before_interval, change.after, change.after_interval)
    assert change.difference.half_width < newcombe.half_width
    assert compared.shown()["how"].tolist() == ["paired: the same 300 runs under both rules"]
    (unpaired,) = compare(table(DurakRules()), table(DurakRules(strike_loss=3), seed=1))
    assert unpaired.changes[0].difference.method == "newcombe"
