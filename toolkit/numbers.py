"""Numbers as a designer reads them: one rule for widgets, tables, charts and reports,
so the same number reads the same everywhere.

The rule, in one place:

* **A probability** is shown as a fraction only while the fraction is short (its
  denominator under :data:`SHORT_DENOMINATOR`, 10,000), with its percent:
  ``'7/27 ≈ 25.9%'``, ``'1/2 = 50%'``. A longer one is shown as a percent alone,
  ``'48.8%'`` — never as a 40-digit fraction, and never as ``'≈ 48.8%'`` (which reads
  as ``'P(win) = ≈ 48.8%'`` after a label). A percent too small to show at one decimal
  keeps two significant digits (``'0.0081%'``), so that a possible outcome never reads 0%.
* **An expected value** (a mean) the same way: ``'7/3 ≈ 2.33'``, ``'7/2 = 3.5'``, ``'4'``,
  or, for a long fraction, ``'≈ 1.31'``.
* **Tails** below :data:`TAIL` (0.05%) are folded into one ``'≥ k'`` row (and bar) by
  :func:`fold_tail`; the folded row's probability is the exact sum of what it holds.
* **Monte Carlo results** are an estimate ± interval with the method in words, never a
  fraction: ``'48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'``
  (:func:`estimate_text`; :class:`toolkit.montecarlo.Estimate` says so itself).
  :func:`method_text` says how a result was obtained without internal names
  (``method='monte_carlo'``, ``EXACT_LIMIT``).

The exact value always stays in the data; only the text is rounded.

>>> probability_text(Fraction(7, 27)), probability_text(Fraction(1, 2))
('7/27 ≈ 25.9%', '1/2 = 50%')
>>> probability_text(Fraction(3140761, 7464960))
'42.1%'
>>> number_text(Fraction(1574571079174182208193, 1204941652776856566000))
'≈ 1.31'
>>> estimate_text(9760, 20_000)
'48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from statistics import NormalDist
from typing import Any, Protocol, runtime_checkable

from toolkit.whole_numbers import whole_number

__all__ = [
    "SHORT_DENOMINATOR",
    "WeightedOutcomes",
    "TAIL",
    "AtLeast",
    "AtMost",
    "count",
    "estimate_text",
    "interval_text",
    "TINY",
    "fold_labels",
    "fold_sides",
    "fold_tail",
    "fold_weights",
    "is_short",
    "method_text",
    "number_text",
    "percent_text",
    "plural_of",
    "points_text",
    "Points",
    "signed_text",
    "probability_text",
    "wilson_interval",
    "NumberRangeError",
    "WRITTEN_RANGE",
    "written_number",
]

#: A fraction is shown only while its denominator is below this (``'7/27'`` yes, ``'3140761/7464960'`` no).
SHORT_DENOMINATOR = 10_000

#: Rows of a distribution's tail whose probabilities together are below this (0.05%) are
#: folded into one ``'≥ k'`` row for display (:func:`fold_tail`).
TAIL = Fraction(1, 2000)


@runtime_checkable
class WeightedOutcomes(Protocol):
    """What :func:`fold_tail` reads of a distribution: integer weights over a common total,
    outcomes in sorted order. :class:`toolkit.prob.Distribution` is one; it is named here,
    not imported, because ``prob`` writes its numbers with this module (a layer below it).

    >>> from toolkit.prob import Distribution
    >>> isinstance(Distribution({1: 1, 2: 3}), WeightedOutcomes), isinstance([(1, 1)], WeightedOutcomes)
    (True, False)
    """

    @property
    def total(self) -> int:
        """The common total of the weights."""
        ...

    def weight(self, outcome: Any) -> int:
        """The integer weight of ``outcome``."""
        ...

    def outcomes(self) -> list[Any]:
        """The outcomes, sorted."""
        ...


#: The most decimals a number is given to show a tiny value (a mean near 0).
MAX_DECIMALS = 6

#: The most decimals a percent is given to show a tiny (or nearly certain) value with two
#: significant digits (``'0.0081%'``).
PERCENT_DECIMALS = 4

#: The floor, in decimals of a percent: below ``0.001%`` a possible outcome reads
#: ``'< 0.001%'`` (and ``'> 99.999%'`` near certainty), exact or estimated
#: (:func:`interval_text`), never a row of zeros.
FLOOR_DECIMALS = 3


def is_short(x: Fraction | int) -> bool:
    """Whether ``x`` is shown as a fraction: its denominator is under :data:`SHORT_DENOMINATOR`.

    >>> is_short(Fraction(7, 27)), is_short(Fraction(1, 10_000)), is_short(3)
    (True, False, True)
    """
    return Fraction(x).denominator < SHORT_DENOMINATOR


def _exact(x: Any, what: str) -> Fraction:
    """``x`` as a Fraction (ints, Fractions and floats accepted), else a TypeError naming it."""
    if isinstance(x, bool) or not isinstance(x, Rational | float):
        raise TypeError(f"{what} must be a Fraction, an int or a float, got {type(x).__name__}")
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"{what} must be a finite number, got {x!r}")
    return Fraction(x)


def _decimal(num: int, den: int, decimals: int) -> tuple[str, bool]:
    """``num/den`` (>= 0) rounded half up to ``decimals`` places, as text, and whether
    that text is exact. Integer arithmetic only: never a float, whatever the size."""
    scale = 10**decimals
    q = (num * scale * 2 + den) // (den * 2)
    exact = num * scale % den == 0
    whole, frac = divmod(q, scale)
    text = f"{whole:,}" if decimals == 0 else f"{whole:,}.{frac:0{decimals}d}"
    return text, exact


def _first_decimals(num: int, den: int, digits: int, most: int = MAX_DECIMALS) -> int:
    """How many decimals show ``num/den`` (> 0, below ``10**-digits / 2``) with two
    significant digits, at most ``most``."""
    decimals = digits
    while decimals < most and num * 10 ** (decimals + 1) < den:
        decimals += 1
    return min(decimals + 2, most)


def _ratio_percent(num: int, den: int, digits: int) -> tuple[str, bool]:
    """The percent of ``num/den`` (> 0; the caller handles the sign) as text without the
    ``%``, and whether it is exact; trailing zeros dropped when exact, more decimals (two
    significant digits, at most :data:`MAX_DECIMALS`) when the value would round to 0 or
    to 100 without being either; below ``10**-FLOOR_DECIMALS`` percent ``'< 0.001'``
    (above ``100 - 10**-FLOOR_DECIMALS``, ``'> 99.999'``)."""
    num100 = num * 100
    text, exact = _decimal(num100, den, digits)
    if exact:
        return _strip(text), True
    floor = "0." + "0" * (FLOOR_DECIMALS - 1) + "1"  # 0.001
    if num100 * 10**digits * 2 < den:  # rounds to 0 but is not: two significant digits
        if num100 * 10**FLOOR_DECIMALS < den:
            return f"< {floor}", False
        text, exact = _decimal(num100, den, _first_decimals(num100, den, digits, PERCENT_DECIMALS))
        return _strip(text) if exact else text, exact
    rest = (den - num) * 100
    if rest > 0 and rest * 10**digits * 2 < den:  # rounds to 100 but is not
        if rest * 10**FLOOR_DECIMALS < den:
            return "> 99." + "9" * FLOOR_DECIMALS, False
        text, exact = _decimal(num100, den, _first_decimals(rest, den, digits, PERCENT_DECIMALS))
        return _strip(text) if exact else text, exact
    return text, False


def _strip(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent_text(p: Fraction | int | float, digits: int = 1) -> str:
    """Return ``p`` as a percent: ``'48.8%'``, ``'50%'`` (exact), ``'0.0081%'`` (two
    significant digits for a value that would read 0), ``'< 0.001%'`` below the floor
    (:data:`FLOOR_DECIMALS`). Never a float's rounding error and never an
    exception, whatever the size of ``p``.

    >>> percent_text(Fraction(1, 2)), percent_text(Fraction(61, 125)), percent_text(Fraction(1, 3))
    ('50%', '48.8%', '33.3%')
    >>> percent_text(Fraction(1, 12345)), percent_text(Fraction(12344, 12345)), percent_text(Fraction(1, 10**12))
    ('0.0081%', '99.9919%', '< 0.001%')
    >>> percent_text(0), percent_text(1), percent_text(Fraction(-1, 8)), percent_text(0.25)
    ('0%', '100%', '-12.5%', '25%')
    """
    x = _exact(p, "a probability")
    if x == 0:
        return "0%"
    text, _ = _ratio_percent(abs(x.numerator), x.denominator, digits)
    return f"{'-' if x < 0 else ''}{text}%"


def probability_text(p: Fraction | int | float, digits: int = 1) -> str:
    """Return the probability ``p`` as a designer reads it: the fraction while it is short
    (denominator under 10,000) with its percent, ``'7/27 ≈ 25.9%'`` (``'='`` when the
    percent is exact), otherwise the percent alone, ``'48.8%'`` (:func:`percent_text`).
    A float is not exact: its percent alone (the display rule of this module's docstring).

    >>> probability_text(Fraction(7, 27)), probability_text(Fraction(1, 4)), probability_text(Fraction(1, 9999))
    ('7/27 ≈ 25.9%', '1/4 = 25%', '1/9999 ≈ 0.010%')
    >>> probability_text(0), probability_text(1), probability_text(Fraction(1, 10_000))
    ('0 = 0%', '1 = 100%', '0.01%')
    """
    x = _exact(p, "a probability")
    percent = percent_text(x, digits)
    if isinstance(p, float) or not is_short(x):
        return percent
    exact = x == 0 or _ratio_percent(abs(x.numerator), x.denominator, digits)[1]
    return f"{x} {'=' if exact else '≈'} {percent}"


def number_text(x: Fraction | int | float, digits: int = 2) -> str:
    """Return an expected value (a mean, an exact number) as a designer reads it: a whole
    number as it is (``'4'``); a short fraction with its decimal, ``'7/3 ≈ 2.33'``,
    ``'7/2 = 3.5'``; a long one by its decimal alone, ``'≈ 1.31'`` (a 40-digit fraction is unreadable). A float is
    rounded to ``digits`` places.

    >>> number_text(4), number_text(Fraction(7, 3)), number_text(Fraction(7, 2)), number_text(Fraction(-1, 3))
    ('4', '7/3 ≈ 2.33', '7/2 = 3.5', '-1/3 ≈ -0.33')
    >>> number_text(Fraction(10**40 + 1, 10**40)), number_text(1.3125), number_text(12345)
    ('≈ 1.00', '1.31', '12,345')
    >>> number_text(Fraction(1, 16384)), number_text(Fraction(-1, 10**30)), number_text(-0.0001)
    ('≈ 0.000061', '≈ 0', '0.00')
    """
    if isinstance(x, float) and math.isfinite(x):
        text = f"{x:,.{digits}f}"
        return text.lstrip("-") if text.strip("-0.") == "" else text  # rounds to 0: "0.00", never "-0.00"
    v = _exact(x, "a number")
    if v.denominator == 1:
        return f"{v.numerator:,}" if abs(v.numerator).bit_length() < 10_000 else _huge(v)
    num, den = abs(v.numerator), v.denominator
    if num.bit_length() - den.bit_length() > 3000:  # about 900 digits before the point: nobody reads them
        return _huge(v)
    text, exact = _decimal(num, den, digits)
    if not exact and num * 10**digits * 2 < den:  # rounds to 0 but is not: two significant digits
        text, exact = _decimal(num, den, _first_decimals(num, den, digits))
    zero = text.strip("0.") == ""  # too small even for MAX_DECIMALS: it reads 0, without a sign
    shown = "0" if zero else ("-" if v < 0 else "") + (_strip(text) if exact else text)
    if is_short(v):
        return f"{v} {'=' if exact else '≈'} {shown}"
    return f"{'=' if exact else '≈'} {shown}"


def _huge(v: Fraction) -> str:
    digits = int((abs(v.numerator).bit_length() - v.denominator.bit_length()) * 0.30103) + 1
    return f"a number of about {digits:,} digits"


def points_text(delta: Fraction | int | float, digits: int = 1) -> str:
    """Return a difference of two probabilities in percentage points, signed, never as a
    fraction and never as ``'%'``: ``'+14 points'``, ``'−9.6 points'`` (a minus sign),
    ``'+1 point'``, ``'0 points'`` for no change; a change too small to show keeps two
    significant digits like :func:`percent_text` (``'+0.0081 points'``), and one too small
    for that reads ``'under 0.001 points'`` (``'under −0.001 points'`` when negative).

    >>> points_text(Fraction(7, 50)), points_text(Fraction(-137, 1431)), points_text(Fraction(1, 100))
    ('+14 points', '−9.6 points', '+1 point')
    >>> points_text(0), points_text(Fraction(1, 12345)), points_text(Fraction(-1, 10**9))
    ('0 points', '+0.0081 points', 'under −0.001 points')
    """
    x = _exact(delta, "a difference of probabilities")
    if x == 0:
        return "0 points"
    text = percent_text(abs(x), digits).removesuffix("%")
    sign = "+" if x > 0 else "−"
    if text.startswith("< "):
        return f"under {sign if x < 0 else ''}{text.removeprefix('< ')} points"
    return f"{sign}{text} point{'' if text == '1' else 's'}"


def signed_text(x: Fraction | int | float, digits: int = 3) -> str:
    """Return a signed value rounded to ``digits`` places (a payoff, a gain: ``'+0.125'``,
    ``'-1.500'``); zero reads ``'0'``; a value that would round to zero without being zero
    keeps two significant digits (``'+0.0012'``, up to :data:`MAX_DECIMALS` places, beyond
    which it reads ``'≈ 0'``) — never ``'-0.000'``, ``'+0.000'`` or a string of zeros.

    >>> signed_text(0.125), signed_text(Fraction(-3, 2)), signed_text(-0.0001), signed_text(0)
    ('+0.125', '-1.500', '-0.00010', '0')
    >>> signed_text(Fraction(1, 3), 2), signed_text(1e-9)
    ('+0.33', '≈ 0')
    """
    if x == 0:
        return "0"
    text = f"{float(x):+.{digits}f}"
    if text.strip("+-0.") != "":
        return text
    v = _exact(x, "a number")
    num, den = abs(v.numerator), v.denominator
    if num * 10**MAX_DECIMALS * 2 < den:
        return "≈ 0"
    shown, _ = _decimal(num, den, _first_decimals(num, den, digits))
    return ("+" if v > 0 else "-") + shown


@dataclass(frozen=True)
class Points:
    """A difference of two probabilities (``delta``, exact) that a table shows in
    percentage points (:func:`points_text`, ``'−9.6 points'``): the exact value stays in
    the data, only the text is rounded."""

    delta: Fraction

    def __str__(self) -> str:
        return points_text(self.delta)


def wilson_interval(hits: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Return the Wilson score interval at ``confidence`` for ``hits`` out of ``trials``."""
    whole_number(trials, "trials", 1)
    if not 0 <= hits <= trials:
        raise ValueError(f"hits must be between 0 and trials ({trials}), got {hits!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    n, p = trials, hits / trials
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _width_decimals(width: float) -> int:
    """Decimals that show a width to one significant digit, two when it starts with a 1
    (at most :data:`MAX_DECIMALS`)."""
    lead = math.floor(math.log10(width))
    return min(MAX_DECIMALS, max(0, -lead + (1 if int(width / 10**lead) == 1 else 0)))


def estimate_text(
    hits: int, trials: int, what: str = "simulated battles", confidence: float = 0.95, *, level: bool = True
) -> str:
    """Return a Monte Carlo frequency as a designer reads it, never as a fraction: the
    estimate ± the half-width of its Wilson interval, the confidence and the method in
    words — ``'48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'``. The
    half-width has one significant digit (two when it starts with a 1) and the estimate as
    many decimals. When the interval is lopsided (a rare event: one side more than 1.5
    times the other) it is given as a range, rounded outwards, ``'1.0% (0.2% to 3.6%,
    95%)'``; with no hit (or every trial a hit) as a bound, ``'0% (at most 0.20%, 95%)'``.
    With ``what=""`` the method is left out (a line nearby says it once for several), with
    ``level=False`` the level (a table's caption states it once).

    >>> estimate_text(9760, 20_000)
    '48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'
    >>> estimate_text(2, 200, "simulated attacks")
    '1.0% (0.2% to 3.6%, 95%), estimated from 200 simulated attacks'
    >>> estimate_text(0, 2_000, ""), estimate_text(2_000, 2_000, "")
    ('0% (at most 0.20%, 95%)', '100% (at least 99.80%, 95%)')
    """
    lo, hi = wilson_interval(hits, trials, confidence)
    shown = interval_text(hits / trials, lo, hi, confidence, level=level)
    return f"{shown}, estimated from {trials:,} {what}" if what else shown


#: Below this share (0.001%, :data:`FLOOR_DECIMALS`) an estimate reads ``'< 0.001%'``, never a string of zeros.
TINY = 10.0 ** -(FLOOR_DECIMALS + 2)


def interval_text(
    value: float | Fraction,
    low: float | Fraction,
    high: float | Fraction,
    confidence: float = 0.95,
    *,
    percent: bool = True,
    signed: bool = False,
    level: bool = True,
) -> str:
    """Return an estimate and its interval as a designer reads it, never as a fraction: the
    estimate ± the larger distance to an end, ``'48.8% ± 0.7% (95%)'``, the half-width to one
    significant digit (two when it starts with a 1) and the estimate to as many decimals; a
    lopsided interval (one side more than 1.5 times the other) as a range rounded outwards,
    ``'1.0% (0.2% to 3.6%, 95%)'``; a share of 0 (or 1) as a bound, ``'0% (at most 0.20%,
    95%)'``; a share below 0.001% as ``'< 0.001%'``, never a string of zeros. With
    ``percent=False`` the numbers are written as they are (a mean, ``'2.6 ± 0.5 (95%)'``),
    ``signed`` gives them a sign (a change, ``'+0.30 ± 0.05 (95%)'``; a value that rounds to
    zero reads ``'0'``, never ``'+0.00'``), and ``level=False`` leaves the level out (a table
    states it once in its caption). For an interval from anything (a bootstrap, a bound
    through a chain): ``low <= value <= high`` is not required, and an interval of no width
    is the value alone (:func:`percent_text`, :func:`number_text`).

    >>> interval_text(0.488, 0.481, 0.495), interval_text(0.5, 0.5, 0.5)
    ('48.8% ± 0.7% (95%)', '50%')
    >>> interval_text(1.6e-26, 3e-27, 2.9e-26), interval_text(2.58, 2.1, 3.06, percent=False, signed=True)
    ('< 0.001% (95%)', '+2.6 ± 0.5 (95%)')
    >>> interval_text(-0.001, -0.2, 0.2, percent=False, signed=True, level=False)
    '0 ± 0.2'
    """
    value, lo, hi = float(value), float(low), float(high)
    scale, unit = (100, "%") if percent else (1, "")
    share = percent and not signed
    tag = f"{confidence * 100:g}%"
    below, above = max(0.0, (value - lo) * scale), max(0.0, (hi - value) * scale)

    def shown(x: float, d: int) -> str:
        text = f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"
        return "0" if text.strip("+-0.,") == "" else text

    def with_level(text: str, inner: str = "") -> str:
        if inner:
            return f"{text} ({inner}, {tag})" if level else f"{text} ({inner})"
        return f"{text} ({tag})" if level else text

    if below == above == 0:
        if percent:
            return percent_text(Fraction(value)) if not signed else points_text(Fraction(value))
        return signed_text(value, 2) if signed else number_text(value)
    if share and 0 < value < TINY:
        if hi < TINY:
            return with_level(f"< {TINY * 100:g}%")
        return with_level(f"< {TINY * 100:g}%", f"at most {_up(hi * 100, _width_decimals(above))}%")
    if share and value <= 0:
        return with_level("0%", f"at most {_up(hi * 100, _width_decimals(above))}%")
    if share and value >= 1:
        d = _width_decimals(below)
        return with_level("100%", f"at least {math.floor(lo * 100 * 10**d) / 10**d:.{d}f}%")
    if min(below, above) == 0 or max(below, above) > 1.5 * min(below, above):
        d = _width_decimals(min(below, above) or max(below, above))
        low_, high_ = math.floor(lo * scale * 10**d) / 10**d, math.ceil(hi * scale * 10**d) / 10**d
        return with_level(f"{shown(value * scale, d)}{unit}", f"{shown(low_, d)}{unit} to {shown(high_, d)}{unit}")
    d = _width_decimals(max(below, above))
    return with_level(f"{shown(value * scale, d)}{unit} ± {max(below, above):.{d}f}{unit}")


def _up(x: float, d: int) -> str:
    """``x`` rounded up to ``d`` decimals."""
    return f"{math.ceil(x * 10**d) / 10**d:.{d}f}"


def method_text(method: str, trials: int | None = None, what: str = "simulated battles") -> str:
    """How a result was obtained, in words (never ``method='monte_carlo'`` or a limit's
    constant name): ``'exact'``, ``'estimated from 20,000 simulated battles'``, ``'partly
    estimated (…)'`` for a mix of exact and sampled parts.

    >>> method_text("exact"), method_text("monte_carlo", 20_000)
    ('exact', 'estimated from 20,000 simulated battles')
    >>> method_text("mixed", 500, "simulated clashes")
    'partly estimated (500 simulated clashes for each sampled part)'

    """
    if method == "exact":
        return "exact"
    n = f"{trials:,} " if trials is not None else ""
    if method == "mixed":
        return f"partly estimated ({n}{what} for each sampled part)"
    return f"estimated from {n}{what}" if n else "estimated by simulation"


@dataclass(frozen=True, order=True)
class AtLeast:
    """A folded upper tail of a display: every outcome from ``k`` up (shown ``'≥ k'``)."""

    k: Any

    def __str__(self) -> str:
        return f"≥ {self.k}"


@dataclass(frozen=True, order=True)
class AtMost:
    """A folded lower tail of a display: every outcome up to ``k`` (shown ``'≤ k'``)."""

    k: Any

    def __str__(self) -> str:
        return f"≤ {self.k}"


def fold_weights(
    rows: Sequence[tuple[Any, int]],
    total: int,
    threshold: Fraction = TAIL,
    lower: bool = False,
) -> list[tuple[Any, int]]:
    """Fold the tail of ``rows`` (``(outcome, integer weight)`` over ``total``, in display
    order, the tail last) into one ``(AtLeast(first outcome of the tail), summed weight)``
    row: the longest run of two or more last rows whose weights together are below
    ``threshold`` of ``total``. With ``lower`` the head is folded too, into ``AtMost``.
    Integer arithmetic only (fast on thousands of huge weights); the folded weights sum to
    exactly what they replace.

    >>> fold_weights([(0, 50), (1, 45), (2, 3), (3, 1), (4, 1)], 100, Fraction(1, 10))
    [(0, 50), (1, 45), (AtLeast(k=2), 5)]
    """
    threshold = Fraction(threshold)
    out = list(rows)

    limit = -(-threshold.numerator * total // threshold.denominator)  # weight of the threshold, rounded up

    def tail_length(seq: Sequence[tuple[Any, int]]) -> int:
        acc, n = 0, 0
        for _, w in reversed(seq):
            if acc + w >= limit:
                break
            acc += w
            n += 1
        return n if n >= 2 else 0

    n = tail_length(out)
    if n:
        out = out[:-n] + [(AtLeast(out[-n][0]), sum(w for _, w in out[-n:]))]
    if lower:
        head = tail_length(out[::-1])
        if head and head < len(out):
            out = [(AtMost(out[head - 1][0]), sum(w for _, w in out[:head]))] + out[head:]
    return out


def fold_tail(
    rows: WeightedOutcomes | Iterable[tuple[Any, Fraction]],
    threshold: Fraction = TAIL,
    lower: bool = False,
) -> list[tuple[Any, Fraction]]:
    """Fold a distribution's (or a table's) tail for display: the last rows whose
    probabilities together are below ``threshold`` (0.05%) become one row
    ``(AtLeast(k), their exact sum)``, shown ``'≥ k'`` (a long tail of 0.0% rows says nothing). ``rows`` is a
    distribution (:class:`WeightedOutcomes`, outcomes in sorted order) or ``(outcome,
    probability)`` pairs in display order; ``lower`` folds the first rows too (``'≤ k'``).
    The total is kept exactly.

    >>> from toolkit.prob import Distribution
    >>> d = Distribution({0: 5000, 1: 4997, 2: 1, 3: 1, 4: 1})
    >>> [(str(k), p) for k, p in fold_tail(d)]
    [('0', Fraction(1, 2)), ('1', Fraction(4997, 10000)), ('≥ 2', Fraction(3, 10000))]
    """
    if isinstance(rows, WeightedOutcomes):
        total = rows.total
        pairs = [(o, rows.weight(o)) for o in rows.outcomes()]
    else:
        exact = [(o, _exact(p, "a probability")) for o, p in rows]
        if not exact:
            return []
        total = math.lcm(*(p.denominator for _, p in exact))
        pairs = [(o, int(p * total)) for o, p in exact]
    folded = fold_weights(pairs, total, threshold, lower)
    return [(o, Fraction(w, total)) for o, w in folded]


def fold_labels(
    rows: WeightedOutcomes | Iterable[tuple[Any, Fraction]],
    threshold: Fraction = TAIL,
    lower: bool = False,
    label: Callable[[Any], str] = str,
) -> list[tuple[str, Fraction]]:
    """:func:`fold_tail`, with each outcome written by ``label`` (the folded rows as
    ``'≥ k'`` / ``'≤ k'`` of ``label(k)``)."""

    def name(o: Any) -> str:
        if isinstance(o, AtLeast):
            return f"≥ {label(o.k)}"
        if isinstance(o, AtMost):
            return f"≤ {label(o.k)}"
        return label(o)

    return [(name(o), p) for o, p in fold_tail(rows, threshold, lower)]


def fold_sides(
    rows: Sequence[tuple[int, str, Fraction]],
    at_least: Callable[[int], str],
    threshold: Fraction = TAIL,
    cumulative: bool = False,
) -> list[tuple[int, str, Fraction]]:
    """Fold both far tails of a two-sided score table (an explorer's rows: ``(score, label,
    probability)`` from the largest positive score down to the most negative, 0 between)
    for display (a long tail of 0.0% rows says nothing): each side's outermost rows whose probabilities together are
    below ``threshold`` (0.05%) become one row ``(k, at_least(k), exact sum)``, ``k`` the
    score nearest 0 among them. With ``cumulative`` (an "at least" view, where each row
    already holds its whole tail) each side keeps its rows up to the first one below
    ``threshold`` and drops those beyond.

    >>> rows = [(3, "3", Fraction(1, 10**4)), (2, "2", Fraction(1, 10**4)), (1, "1", Fraction(4999, 10**4)),
    ...         (0, "0", Fraction(1, 2)), (-1, "-1", Fraction(1, 10**4))]
    >>> [(k, label) for k, label, _ in fold_sides(rows, lambda k: f"at least {k}")]
    [(2, 'at least 2'), (1, '1'), (0, '0'), (-1, '-1')]
    """
    rows = list(rows)
    positive = [r for r in rows if r[0] > 0][::-1]  # nearest 0 first, far tail last
    negative = [r for r in rows if r[0] < 0]
    zero = [r for r in rows if r[0] == 0]

    def fold(side: list[tuple[int, str, Fraction]]) -> list[tuple[int, str, Fraction]]:
        if cumulative:
            cut = next((i + 1 for i, r in enumerate(side) if r[2] < threshold), len(side))
            return side[:cut]
        labels = {k: label for k, label, _ in side}
        out = []
        for o, p in fold_tail([(k, p) for k, _, p in side], threshold):
            out.append((o.k, at_least(o.k), p) if isinstance(o, AtLeast) else (o, labels[o], p))
        return out

    return fold(positive)[::-1] + zero + fold(negative)


#: Plurals that are not the singular plus "s" (:func:`count`).
IRREGULAR_PLURALS = {"die": "dice", "army": "armies"}


def count(n: int, singular: str, plural: str | None = None, *, zero: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one and plural otherwise (``"1 card"``,
    ``"3 cards"``, ``"0 cards"``, ``"1 die"``, ``"2 dice"``): the one place a number meets
    its noun in a designer's text (never "1 cards" nor "card(s)"). ``plural`` when
    the plural is neither in :data:`IRREGULAR_PLURALS` nor the singular plus ``s``;
    ``zero`` the word that stands for 0 (``"no"``: ``"no cards"``, the one way an empty
    hand is written).

    >>> count(1, "card"), count(3, "token"), count(1, "die"), count(2, "die"), count(0, "army")
    ('1 card', '3 tokens', '1 die', '2 dice', '0 armies')
    >>> count(2, "expectation"), count(1, "attack"), count(2, "match", "matches")
    ('2 expectations', '1 attack', '2 matches')
    >>> count(0, "card", zero="no"), count(2, "card", zero="no")
    ('no cards', '2 cards')
    """
    shown = zero if n == 0 and zero is not None else n
    return f"{shown} {plural_of(singular, plural) if n != 1 else singular}"


def plural_of(singular: str, plural: str | None = None) -> str:
    """The plural of ``singular``: ``plural`` if given, else :data:`IRREGULAR_PLURALS`'
    for its last word (``"dice"``, ``"extra dice"``, ``"armies"``), else the singular plus
    ``s`` (used by :func:`count`).

    >>> plural_of("round"), plural_of("die"), plural_of("extra die"), plural_of("army")
    ('rounds', 'dice', 'extra dice', 'armies')
    """
    if plural:
        return plural
    head, _, last = singular.rpartition(" ")
    return (head + " " if head else "") + IRREGULAR_PLURALS.get(last, last + "s")


# -- numbers as a designer writes them in a file -------------------------------------------------
#: The largest size of a number a designer writes in a file (a target, a bound, a tolerance).
MAX_WRITTEN = 10**12
#: The most decimals such a number is written with (exponent counted: ``1e-31`` has 31).
MAX_WRITTEN_DECIMALS = 30
#: The numbers :func:`written_number` accepts, in the words of an error message.
WRITTEN_RANGE = (
    f"a number from -{MAX_WRITTEN:,} to {MAX_WRITTEN:,} with at most {MAX_WRITTEN_DECIMALS} decimals (0.65, 65% or 2/3)"
)
#: The longest text read as a number.
MAX_WRITTEN_CHARS = 40

_DECIMAL_TEXT = re.compile(r"[-+]?(?P<whole>\d[\d_]*)?(?:\.(?P<part>\d[\d_]*)?)?(?:[eE](?P<exp>[-+]?\d[\d_]*))?")
_RATIO_TEXT = re.compile(r"[-+]?\d[\d_]*\s*/\s*\d[\d_]*")


class NumberRangeError(ValueError):
    """A number written in a file outside :data:`WRITTEN_RANGE` (or not finite): the message
    is that range, for the caller to put after the field's name."""


def written_number(raw: object) -> Fraction | None:
    """Return a number as a designer writes it in a file — ``0.65``, ``"65%"``, ``"2/3"``,
    ``3``, ``"1e-3"`` — exactly (``0.65`` is 13/20), or ``None`` when it is not a number (a
    word, a bool, a list). The one place text becomes a number: its size is bounded
    **before** the conversion (``Fraction("1e999999999")`` would compute a billion-digit
    integer; ``1e400`` would overflow a float later).

    >>> written_number("65%"), written_number(0.5), written_number("2/3"), written_number("many")
    (Fraction(13, 20), Fraction(1, 2), Fraction(2, 3), None)
    >>> written_number("1e999999999")
    Traceback (most recent call last):
    ...
    toolkit.numbers.NumberRangeError: a number from -1,000,000,000,000 to 1,000,000,000,000 with at most 30 ...

    Raises:
        NumberRangeError: a number, but outside :data:`WRITTEN_RANGE`: above
            :data:`MAX_WRITTEN` in size, with more than :data:`MAX_WRITTEN_DECIMALS`
            decimals (a denominator above ``10**30``), NaN or infinite.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return _within(Fraction(raw))
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise NumberRangeError(WRITTEN_RANGE)
        return written_number(repr(raw))
    if not isinstance(raw, str) or len(raw) > MAX_WRITTEN_CHARS:
        return None
    text = raw.strip()
    scale = Fraction(1)
    if text.endswith("%"):
        text, scale = text[:-1].strip(), Fraction(1, 100)
    if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise NumberRangeError(WRITTEN_RANGE)
    decimal = _DECIMAL_TEXT.fullmatch(text)
    if decimal and (decimal["whole"] or decimal["part"]):
        whole = (decimal["whole"] or "").replace("_", "").lstrip("0")
        part = (decimal["part"] or "").replace("_", "").rstrip("0")
        exp_text = (decimal["exp"] or "0").replace("_", "")
        if len(exp_text.lstrip("+-")) > 4:  # 10**10000 and beyond: never converted
            raise NumberRangeError(WRITTEN_RANGE)
        exp = int(exp_text)
        too_big = bool(whole) and len(whole) + exp > len(str(MAX_WRITTEN))
        if too_big or (bool(part) and len(part) - exp > MAX_WRITTEN_DECIMALS):
            raise NumberRangeError(WRITTEN_RANGE)
    elif not _RATIO_TEXT.fullmatch(text):
        return None
    try:
        value = Fraction(text) * scale
    except (ValueError, ZeroDivisionError):
        return None
    return _within(value)


def _within(value: Fraction) -> Fraction:
    if abs(value) > MAX_WRITTEN or value.denominator > 10**MAX_WRITTEN_DECIMALS:
        raise NumberRangeError(WRITTEN_RANGE)
    return value
