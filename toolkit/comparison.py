"""Two results compared: the difference and an honest interval for it, in one place.

Every "A against B" a designer reads (the rule-change report, a report's variants, an
explorer's comparison) asks the same question: did the change of rules move this number,
and by how much? The answer is a :class:`Difference`:

* **exact minus exact is exact**: the difference is a ``Fraction`` and its interval is the
  difference twice; any non-zero exact difference is measured.
* **two Monte Carlo results drawn with the same seed** (common random numbers: run ``i``
  under both rule sets shared its deal, its dice and its play stream wherever the rules
  allow, :mod:`toolkit.odds_samples`) that kept their runs are compared **run by run**: the
  interval of the difference is the paired one (:func:`paired_difference`: for a
  probability, Agresti and Min's adjusted interval of the difference of matched
  proportions; for a mean, the Student interval of the run-by-run differences). It is
  narrower than two separate intervals wherever the two results move together.
* **otherwise, where either side is an estimate** (runs not kept, different seeds or
  sizes, a mixed result such as a battle chain over sampled clash tables), the 95% interval
  of the difference is built from the two results' own intervals by Newcombe's method (the
  "MOVER" square-and-add of Newcombe 1998, method 10, for two Wilson intervals; it takes
  any two intervals, a bootstrap one as well). It is exact for independent estimates and
  **conservative** for estimates made with common random numbers, which correlates them
  positively. :attr:`Difference.method` says which (``"paired"`` or ``"newcombe"``) and
  :attr:`Difference.how` says it in words.
* A difference whose interval contains 0 is **not measurable**: it reads "no measurable
  change (within ±x points)", ranks after the measured ones (:func:`ranked`) and a report
  never explains it.
* Two results that are the same distribution are **identical** (:attr:`Difference.identical`).

The results are read duck-typed: ``.exact``, ``.probability(event)`` and
``.interval(event)`` (asked at :data:`CONFIDENCE`, or at the result's own ``confidence``
when that is at least as high: wider, so still honest); a result without ``interval`` is
read through its Monte Carlo ``trials`` (a Wilson interval). Means: ``.mean(f)``, and an
interval from the result's ``mean_interval(f)`` if it has one, else from the spread of its
sampled distribution over its ``trials`` (normal approximation, :func:`mean_interval`).

>>> from fractions import Fraction
>>> d = difference_of(Fraction(1, 2), (Fraction(1, 2),) * 2, Fraction(3, 5), (Fraction(3, 5),) * 2)
>>> d.exact, d.delta, d.measurable, d.text()
(True, Fraction(1, 10), True, '+10 points')
>>> e = difference_of(0.50, (0.47, 0.53), 0.51, (0.48, 0.54))
>>> e.measurable, e.text()
(False, 'no measurable change (within ±4.2 points)')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np

from toolkit.numbers import interval_text, points_text, signed_text, wilson_interval
from toolkit.odds_result import estimate_mean_text, estimate_value_text, student_t
from toolkit.odds_samples import Samples, aligned_samples
from toolkit.question import compared_headline

__all__ = [
    "CONFIDENCE",
    "Difference",
    "Number",
    "difference",
    "difference_of",
    "interval_of",
    "mean_difference",
    "mean_interval",
    "mean_of",
    "mean_text",
    "value_text",
    "paired_difference",
    "paired_probability_difference",
    "ranked",
    "same_result",
]

#: The confidence of every difference's interval.
CONFIDENCE = 0.95

Number = Fraction | float


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _is_exact(result: Any) -> bool:
    exact = getattr(result, "exact", None)
    if exact is None:
        return getattr(result, "method", "exact") == "exact"
    return bool(exact)


def interval_of(result: Any, event: Any, confidence: float = CONFIDENCE) -> tuple[Number, Number]:
    """Return an interval of at least ``confidence`` for ``result.probability(event)``: the
    exact value twice when ``result.exact``; else ``result.interval(event, confidence=…)``;
    for a plain Monte Carlo result (``method == "monte_carlo"``) whose ``interval`` takes no
    level, the Wilson interval of its ``trials`` at ``confidence`` (what its own interval
    is, at its own level); else ``result.interval(event)`` when the result's own
    ``confidence`` is at least as high; else the Wilson interval of its ``trials``."""
    p = result.probability(event)
    if _is_exact(result):
        return (p, p)
    ask = getattr(result, "interval", None)
    if ask is not None:
        try:
            return tuple(ask(event, confidence=confidence))  # type: ignore[return-value]
        except TypeError:
            own = getattr(result, "confidence", None)
            plain_sample = getattr(result, "method", None) == "monte_carlo" and getattr(result, "trials", None)
            if not plain_sample and (own is None or own >= confidence):
                return tuple(ask(event))  # type: ignore[return-value]
    trials = getattr(result, "trials", None)
    if not trials:
        raise ValueError(f"{type(result).__name__} is an estimate with neither an interval nor its trials")
    return wilson_interval(round(float(p) * trials), trials, confidence)


def mean_of(result: Any, f: Any = None) -> Number:
    """Return ``result.mean(f)``, or its distribution's mean for a result without ``mean``."""
    own = getattr(result, "mean", None)
    return own(f) if own is not None else result.distribution.mean(f)


def mean_interval(result: Any, f: Any = None, confidence: float = CONFIDENCE) -> tuple[Number, Number]:
    """Return an interval of ``confidence`` for ``result.mean(f)``: the mean twice when
    exact; the result's own ``mean_interval(f, confidence=…)`` if it has one; else the
    normal interval ``mean ± z·s/√n`` of its sampled distribution (``s`` the sample
    standard deviation, ``n`` its ``trials``)."""
    m = mean_of(result, f)
    if _is_exact(result):
        return (m, m)
    own = getattr(result, "mean_interval", None)
    if own is not None:
        return tuple(own(f, confidence=confidence))  # type: ignore[return-value]
    n = getattr(result, "trials", None)
    if not n or n < 2:
        raise ValueError(f"{type(result).__name__} is an estimate with no trials to give its mean an interval")
    values = result.distribution.marginal(f) if f is not None else result.distribution
    var = sum(float(p) * (float(x) - float(m)) ** 2 for x, p in values.items()) * n / (n - 1)
    half = _z(confidence) * math.sqrt(var / n)
    return (float(m) - half, float(m) + half)


def mean_text(value: Number, interval: tuple[Number, Number], digits: int = 2, *, level: bool = True) -> str:
    """Return a mean as a designer reads it, the one way of the odds results
    (:func:`toolkit.odds_result.estimate_mean_text`): exact (the interval is the value twice)
    ``'7/3 ≈ 2.33'``, else ``'2.14 ± 0.05 (95%)'`` (``digits`` is kept for callers; the
    estimate's digits follow its interval; ``level=False`` leaves the level out, for a
    table that states it once).

    >>> mean_text(Fraction(107, 50), (Fraction(107, 50),) * 2), mean_text(2.137, (2.09, 2.18))
    ('107/50 = 2.14', '2.14 ± 0.05 (95%)')
    """
    return estimate_mean_text(value, interval[0], interval[1], CONFIDENCE, level=level)


def value_text(p: Number, interval: tuple[Number, Number], digits: int = 1, *, level: bool = True) -> str:
    """Return a probability as a designer reads it, the one way of the odds results
    (:func:`toolkit.odds_result.estimate_value_text`): exact (the interval is the value
    twice) ``'1/3 ≈ 33.3%'``; an estimate as its percent ± the larger side of its interval,
    never a fraction (``'72% ± 3% (95%)'``), or with its range when the interval is
    lopsided (a rare event, ``'0% (at most 1.9%, 95%)'``). ``digits`` is kept for callers;
    ``level=False`` leaves the level out, for a table that states it once.

    >>> value_text(Fraction(1, 3), (Fraction(1, 3),) * 2), value_text(0.716, (0.685, 0.745))
    ('1/3 ≈ 33.3%', '72% ± 3% (95%)')
    >>> value_text(0.0, (0.0, 0.019))
    '0% (at most 1.9%, 95%)'
    """
    return estimate_value_text(p, interval[0], interval[1], CONFIDENCE, level=level)


@dataclass(frozen=True)
class Difference:
    """``after - before`` of two results, with its interval.

    Attributes:
        before, after: the two values (exact ``Fraction`` or estimates).
        low, high: the interval of ``after - before`` (at :attr:`confidence`; the
            difference twice when exact).
        exact: both values exact.
        identical: the two results are the same distribution (or the same value).
        method: ``"exact"``, ``"newcombe"`` (from the two intervals, conservative under
            common random numbers) or ``"paired"`` (run by run, the two results drawn from
            the same runs).
        points: the difference is of probabilities, shown in percentage points
            (otherwise a plain number, a mean).
        runs: the runs paired (``"paired"`` only).
        question: the comparison's first line: what the two results answer, each part
            that differs as ``before → after`` (:func:`toolkit.question.compared_headline`);
            ``""`` for two bare numbers.
    """

    before: Number
    after: Number
    low: Number
    high: Number
    exact: bool
    identical: bool = False
    method: str = "exact"
    confidence: float = CONFIDENCE
    points: bool = True
    runs: int | None = None
    question: str = ""

    def headline(self) -> str:
        """The first line stating what was compared (:attr:`question`)."""
        return self.question

    @property
    def how(self) -> str:
        """How the interval was obtained, in words: ``'exact'``, ``'paired: the same 1,000
        runs under both rules'`` or ``'conservative: from the two results' own intervals'``."""
        if self.exact:
            return "exact"
        if self.method == "paired":
            n = f"{self.runs:,} " if self.runs else ""
            return f"paired: the same {n}runs under both rules"
        return "conservative: from the two results' own intervals"

    @property
    def delta(self) -> Number:
        """``after - before`` (exact when both are)."""
        return self.after - self.before

    @property
    def measurable(self) -> bool:
        """Whether the change is measured: a non-zero exact difference, or an interval that
        does not contain 0."""
        if self.exact:
            return self.delta != 0
        return self.low > 0 or self.high < 0

    @property
    def half_width(self) -> float:
        """The larger side of the interval, around the difference (0 when exact)."""
        return max(float(self.delta) - float(self.low), float(self.high) - float(self.delta), 0.0)

    def _number(self, x: float, signed: bool = True) -> str:
        if self.points:
            text = points_text(x)
            return text if signed else text.lstrip("+−").removeprefix("under ")
        if signed:
            return signed_text(x, 2)
        w = abs(float(x))  # a half-width: to its first significant digit, as interval_text writes it
        return interval_text(0.0, -w, w, percent=False, level=False).split("± ")[1] if w else "0"

    def text(self, level: bool = True) -> str:
        """The change in words: ``'+10 points'`` (exact), ``'+3.1 ± 1.2 points (95%)'``
        (measured estimate), ``'no measurable change (within ±4.2 points)'``, ``'no change'``
        (exactly equal), ``'identical'`` (the two results are the same distribution); a
        mean's change as ``'+0.25 ± 0.05 (95%)'`` (:func:`~toolkit.numbers.interval_text`:
        never ``'+0.00'``). ``level=False`` leaves the level out (a table states it once)."""
        if self.exact and self.delta == 0:
            return "no change"
        if self.identical:
            return "identical"
        if self.exact:
            return self._number(self.delta)
        if not self.measurable:
            return f"no measurable change (within ±{self._number(self.half_width, signed=False)})"
        tag = f" ({self.confidence * 100:g}%)" if level else ""
        if not self.points:
            d = float(self.delta)
            return (
                interval_text(d, d - self.half_width, d + self.half_width, percent=False, signed=True, level=False)
                + tag
            )
        half = self.half_width * 100
        digits = 1 if half >= 0.1 else 2
        d = float(self.delta) * 100
        sign = "+" if d > 0 else "−" if d < 0 else ""
        return f"{sign}{abs(d):.{digits}f} ± {half:.{digits}f} points{tag}"

    def __str__(self) -> str:
        return self.text()


def difference_of(
    before: Number,
    before_interval: tuple[Number, Number],
    after: Number,
    after_interval: tuple[Number, Number],
    *,
    identical: bool | None = None,
    confidence: float = CONFIDENCE,
    points: bool = True,
) -> Difference:
    """Return ``after - before`` from two values and their intervals (each at
    ``confidence``). Exact when both intervals are their value twice; otherwise Newcombe's
    square-and-add (MOVER): ``low = d - sqrt((a - a_low)² + (b_high - b)²)``, ``high = d +
    sqrt((a_high - a)² + (b - b_low)²)`` with ``d = a - b``, ``a = after``, ``b = before``.
    ``identical`` defaults to the two values being equal with equal intervals."""
    exact = before_interval[0] == before_interval[1] == before and after_interval[0] == after_interval[1] == after
    same = identical if identical is not None else (before == after and tuple(before_interval) == tuple(after_interval))
    if exact:
        d = after - before
        return Difference(before, after, d, d, True, same, "exact", confidence, points)
    a, b = float(after), float(before)
    a_lo, a_hi = (float(x) for x in after_interval)
    b_lo, b_hi = (float(x) for x in before_interval)
    d = a - b
    low = d - math.hypot(a - a_lo, b_hi - b)
    high = d + math.hypot(a_hi - a, b - b_lo)
    return Difference(before, after, low, high, False, same, "newcombe", confidence, points)


def same_result(before: Any, after: Any) -> bool:
    """Whether two results are the same distribution (their ``distribution`` equal, outcome
    by outcome), so every number read from them is the same."""
    da, db = getattr(before, "distribution", None), getattr(after, "distribution", None)
    if da is None or db is None:
        return False
    return dict(da.items()) == dict(db.items())


def difference(before: Any, after: Any, event: Any, confidence: float = CONFIDENCE) -> Difference:
    """Return the change of ``P(event)`` from the result ``before`` to ``after``: exact when
    both are; the paired interval (:func:`paired_probability_difference`) when both kept
    aligned runs (:func:`toolkit.odds_samples.aligned_samples`: the same seed, sizes and
    trials); else :func:`difference_of` on :func:`interval_of` (Newcombe's interval,
    conservative under common random numbers)."""
    pair = None if _is_exact(before) and _is_exact(after) else aligned_samples(before, after)
    asked = compared_headline(before, after)
    if pair is not None:
        return replace(paired_probability_difference(pair[0], pair[1], event, confidence), question=asked)
    pa, pb = before.probability(event), after.probability(event)
    found = difference_of(
        pa,
        interval_of(before, event, confidence),
        pb,
        interval_of(after, event, confidence),
        identical=same_result(before, after) or None,
        confidence=confidence,
    )
    return replace(found, question=asked)


def mean_difference(before: Any, after: Any, f: Any = None, confidence: float = CONFIDENCE) -> Difference:
    """Return the change of the mean of ``f`` from ``before`` to ``after`` (a plain number,
    not points): the paired interval of the run-by-run differences (:func:`paired_difference`)
    when both kept aligned runs, else Newcombe's interval from the two :func:`mean_interval`."""
    pair = None if _is_exact(before) and _is_exact(after) else aligned_samples(before, after)
    asked = compared_headline(before, after)
    if pair is not None:
        values_b, values_a = before.run_values(f), after.run_values(f)
        paired = paired_difference(
            zip(values_b, values_a, strict=True),
            confidence,
            identical=same_result(before, after) or _same_runs(*pair) or None,
        )
        return replace(paired, question=asked)
    found = difference_of(
        mean_of(before, f),
        mean_interval(before, f, confidence),
        mean_of(after, f),
        mean_interval(after, f, confidence),
        identical=same_result(before, after) or None,
        confidence=confidence,
        points=False,
    )
    return replace(found, question=asked)


#: Below this many runs that changed, a paired mean's Student interval is not trusted alone.
FEW_CHANGED_RUNS = 10


def paired_difference(
    pairs: Iterable[tuple[float, float]],
    confidence: float = CONFIDENCE,
    points: bool = False,
    identical: bool | None = None,
) -> Difference:
    """Return the mean change from paired samples ``(before, after)`` (the same run under
    both rule sets): the mean of the per-run differences ± ``t·s/√n`` (``s`` their standard
    deviation, ``t`` Student's quantile for ``n - 1`` degrees of freedom) — the paired
    interval, narrower than two separate ones wherever the pairs move together.

    When fewer than :data:`FEW_CHANGED_RUNS` runs changed, ``s`` says little (no run
    changed gives ``s = 0``), so the interval also holds every change the number of changed
    runs allows: a change is at most the range of the values times the share of runs that
    changed, and that share at most the upper end of its Wilson interval.
    ``identical`` defaults to every run giving the same value under both."""
    items = np.array([(float(b), float(a)) for b, a in pairs], dtype=float).reshape(-1, 2)
    n = len(items)
    if n < 2:
        raise ValueError(f"a paired interval needs at least 2 pairs, got {n}")
    diffs = items[:, 1] - items[:, 0]
    mean_b, mean_a = float(items[:, 0].mean()), float(items[:, 1].mean())
    d = mean_a - mean_b
    half = student_t(confidence, n - 1) * float(diffs.std(ddof=1)) / math.sqrt(n)
    low, high = d - half, d + half
    changed = int(np.count_nonzero(diffs))
    if changed < FEW_CHANGED_RUNS:
        bound = float(items.max() - items.min()) * wilson_interval(changed, n, confidence)[1]
        low, high = min(low, -bound), max(high, bound)
    same = changed == 0 if identical is None else identical
    return Difference(mean_b, mean_a, low, high, False, same, "paired", confidence, points, n)


def paired_probability_difference(
    before: Samples, after: Samples, event: Any, confidence: float = CONFIDENCE
) -> Difference:
    """Return the change of ``P(event)`` between two aligned runs (run ``i`` of both drew
    the same random numbers): the difference of the two frequencies, with Agresti and Min's
    (2005) interval for matched proportions — the Wald interval of the run-by-run
    differences after adding half a run to each of the four cells of the 2x2 table (so that
    a handful of runs that changed is not read as certainty). Coverage tested against exact
    differences (``tests/test_paired_comparison.py``)."""
    if not before.aligned(after):
        raise ValueError("the two results' runs are not aligned (the same seed, sizes and trials)")
    x, y = before.indicator(event), after.indicator(event)
    n = len(x)
    lost = int(np.sum((x == 1) & (y == 0)))  # runs where the event happened before only
    gained = int(np.sum((x == 0) & (y == 1)))
    pb, pa = Fraction(int(x.sum()), n), Fraction(int(y.sum()), n)
    m = n + 2
    p_lost, p_gained = (lost + 0.5) / m, (gained + 0.5) / m
    centre = p_gained - p_lost
    half = _z(confidence) * math.sqrt(max(p_lost + p_gained - centre**2, 0.0) / m)
    low, high = max(centre - half, -1.0), min(centre + half, 1.0)
    d = float(pa - pb)
    low, high = min(low, d), max(high, d)  # the interval holds the observed change
    same = lost == gained == 0
    return Difference(pb, pa, low, high, False, same, "paired", confidence, True, n)


def _same_runs(before: Samples, after: Samples) -> bool:
    """Whether every run ended the same way under both rule sets."""
    return [before.outcomes[i] for i in before.index] == [after.outcomes[i] for i in after.index]


def ranked(differences: Sequence[tuple[Any, Difference]]) -> list[tuple[Any, Difference]]:
    """Return ``(key, difference)`` pairs in reading order: the measured changes first,
    largest first; then the ones that are not measurable (largest first); identical ones
    last. The order is stable for ties."""

    def order(item: tuple[Any, Difference]) -> tuple[int, float]:
        d = item[1]
        group = 2 if d.identical or (d.exact and d.delta == 0) else 0 if d.measurable else 1
        return (group, -abs(float(d.delta)))

    return sorted(differences, key=order)
