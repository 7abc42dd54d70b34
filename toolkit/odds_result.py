"""One odds result for the whole toolkit: exact, or an estimate with an interval that is honest.

Every odds calculator of the three systems returns an :class:`Odds` (or a subclass that
adds its own fields: the Durak ``BattleOdds`` and ``ClashLosses``, the Fairy Meat
``DealOdds``). An :class:`Odds` *is* the :class:`~toolkit.prob.Distribution` of its
outcomes (``result[outcome]``, ``.items()``, ``.probability(event)``, ``.mean()``,
``.marginal(field)``, iteration) and says how it was computed:

- ``method``: ``"exact"`` (Fractions), ``"monte_carlo"`` (observed frequencies of
  ``trials`` independent runs) or ``"mixed"`` (exact arithmetic on some estimated parts,
  such as a battle chain over sampled clash tables);
- ``exact``, ``trials`` (the runs behind an estimate), ``seconds``;
- :meth:`Odds.interval` of any outcome or predicate: the exact value twice when exact;
  Wilson's score interval (95% by default) for a Monte Carlo frequency; for a mixed
  result, the interval its calculator derived by propagating the estimated parts' own
  uncertainty (:class:`Replicates`: a parametric bootstrap).

One dispatcher, :func:`choose_method`, turns ``method="auto" | "exact" | "monte_carlo"`` and
the size of a request into the method to run, refusing an exact request above its limit
before starting (:func:`too_big`: the size, the limit and the Monte Carlo alternative).
Calculators that sample take ``precision=`` (the largest half-width of a 95% interval, in
probability: 0.01 is ±1 point) and sample in batches until it is reached
(:func:`sample_to_precision`), or stop at ``time_limit`` with a
:class:`~toolkit.errors.PrecisionNotReachedError` saying what precision was reached.

>>> odds = Odds(Distribution({"hit": 1, "miss": 2}))
>>> odds.exact, odds.probability("hit"), odds.interval("hit")
(True, Fraction(1, 3), (Fraction(1, 3), Fraction(1, 3)))
>>> sampled = Odds.from_counts({"hit": 480, "miss": 520}, trial_name="simulated attacks")
>>> sampled.method, sampled.trials, [round(x, 3) for x in sampled.interval("hit")]
('monte_carlo', 1000, [0.449, 0.511])
>>> sampled.text("hit")
'48% ± 3% (95%)'
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from statistics import NormalDist
from typing import Any, TypeVar

import numpy as np

from toolkit.errors import InvalidSetupError, TooBigError, excerpt
from toolkit.numbers import interval_text, method_text, number_text, probability_text, wilson_interval
from toolkit.odds_samples import Samples, SamplingStoppedWarning, next_batch, not_reached, sample_runs
from toolkit.prob import NO_EVENT, Distribution
from toolkit.question import Question, headline
from toolkit.whole_numbers import is_whole_number, whole_number

__all__ = [
    "METHODS",
    "KINDS",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_TIME_LIMIT",
    "BOOTSTRAP_REPLICATES",
    "Expectation",
    "Odds",
    "Replicates",
    "check_method",
    "check_precision",
    "check_trials",
    "check_time_limit",
    "check_seed",
    "MAX_TRIALS",
    "choose_method",
    "too_big",
    "sample_to_precision",
    "next_batch",
    "not_reached",
    "sample_runs",
    "Samples",
    "SamplingStoppedWarning",
    "NO_TIME_LIMIT",
]

T = TypeVar("T", bound=Hashable)

#: What a calculator's ``method=`` accepts.
METHODS = ("auto", "exact", "monte_carlo")
#: How a result was computed (:attr:`Odds.method`).
KINDS = ("exact", "monte_carlo", "mixed")
#: The confidence of :meth:`Odds.interval` unless asked otherwise.
DEFAULT_CONFIDENCE = 0.95
#: Seconds a calculator samples (towards a ``precision``, or its ``trials``) before it stops.
DEFAULT_TIME_LIMIT = 60.0
#: A time limit from this many seconds up (about 31 years) is no limit.
NO_TIME_LIMIT = 10**9
#: The most runs one Monte Carlo result draws (every run is kept, to compare results run by
#: run); a sweep's ``trials`` have the same bound.
MAX_TRIALS = 10_000_000
#: What the error of too many trials suggests instead.
TRIALS_HINT = "to sample for a time instead, give trials=10_000_000 and time_limit=SECONDS"
#: Replicates of a parametric bootstrap (:class:`Replicates`): their standard deviation,
#: with the Student quantile of their number, gives a mixed result's interval.
BOOTSTRAP_REPLICATES = 100


# -- the dispatcher and its checks ----------------------------------------------------------
def check_method(method: object) -> str:
    """Return ``method`` if it is one of :data:`METHODS`; else a one-line error naming them."""
    if not isinstance(method, str) or method not in METHODS:
        raise InvalidSetupError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    return method


def check_trials(trials: object, what: str = "trials") -> int:
    """Return ``trials`` (as a plain ``int``) if it is a whole number from 1 to
    :data:`MAX_TRIALS`; else a one-line error stating the range."""
    return whole_number(trials, what, 1, MAX_TRIALS, hint=TRIALS_HINT)


def check_seed(seed: object) -> Any:
    """Return a Monte Carlo ``seed`` as the random streams take it: a whole number as a
    plain ``int`` (``np.int64(7)`` is 7), anything else (a text) as it is."""
    return whole_number(seed, "seed") if is_whole_number(seed) else seed


def check_precision(precision: object) -> float | None:
    """Return ``precision`` (``None``: sample ``trials`` runs and stop) if it is a number
    strictly between 0 and 0.5: the largest half-width of a 95% interval, in probability
    (0.01 is ±1 point); else a one-line error."""
    if precision is None:
        return None
    if isinstance(precision, bool) or not isinstance(precision, Real) or not 0 < float(precision) < 0.5:
        raise InvalidSetupError(
            "precision must be a number between 0 and 0.5 (exclusive): the largest half-width of a 95% "
            f"interval, in probability (0.01 is ±1 point), or None; got {precision!r}"
        )
    return float(precision)


def check_time_limit(time_limit: object) -> float:
    """Return ``time_limit`` (seconds) if it is a positive number: ``math.inf``, or anything
    from :data:`NO_TIME_LIMIT` seconds up (``10**400`` included, never converted to a float),
    is no limit; else a one-line error."""
    if isinstance(time_limit, bool) or not isinstance(time_limit, Real) or not time_limit > 0:
        raise InvalidSetupError(
            f"time_limit must be a positive number of seconds (math.inf for no limit), got {excerpt(time_limit)}"
        )
    return math.inf if time_limit >= NO_TIME_LIMIT else float(time_limit)


def too_big(request: str, size: int, unit: str, limit: int, limit_name: str = "", alternative: str = "") -> TooBigError:
    """The error of an exact request above its limit, before starting: ``request`` (a noun
    phrase, ``"an exact clash for 3 v 3 cards"``) needs ``size`` ``unit``, above ``limit``
    (named ``limit_name``), and what to do instead (by default Monte Carlo)."""
    named = f" ({limit_name})" if limit_name else ""
    alternative = alternative or "use method='monte_carlo' (or 'auto') for a Monte Carlo estimate with its interval"
    return TooBigError(f"{request} needs {size:,} {unit}, above the limit of {limit:,}{named}: {alternative}")


def choose_method(
    method: str,
    size: int,
    limit: int,
    request: str = "the exact calculation",
    unit: str = "steps",
    limit_name: str = "",
    exact_limit: int | None = None,
) -> str:
    """Return ``"exact"`` or ``"monte_carlo"`` for a request of ``size`` against ``limit``:
    ``method="auto"`` is exact up to the limit and Monte Carlo above it, ``"exact"`` above
    ``exact_limit`` (by default the same limit; a larger one where an exact answer is worth
    waiting for when asked) raises :func:`too_big` (before any work), ``"monte_carlo"`` samples.

    >>> choose_method("auto", 10, 100), choose_method("auto", 1_000, 100), choose_method("monte_carlo", 1, 100)
    ('exact', 'monte_carlo', 'monte_carlo')
    >>> choose_method("exact", 1_000, 100, exact_limit=10_000)
    'exact'
    """
    check_method(method)
    if method == "monte_carlo":
        return "monte_carlo"
    if method == "exact":
        ceiling = limit if exact_limit is None else exact_limit
        if size > ceiling:
            raise too_big(request, size, unit, ceiling, limit_name)
        return "exact"
    return "exact" if size <= limit else "monte_carlo"


def sample_to_precision(
    draw: Callable[[int, int], Mapping[Any, int]],
    trials: int,
    precision: float | None,
    half_width: Callable[[Counter, int], float],
    time_limit: float = DEFAULT_TIME_LIMIT,
    what: str = "runs",
) -> tuple[Counter, int]:
    """Sample in batches until every reported probability reaches ``precision``, for a
    calculator that draws counts rather than runs in order: ``draw(n, batch)`` returns the
    counts of ``n`` fresh runs (batch 0 is ``trials`` runs, each later batch its own seeded
    stream). The same loop as :func:`~toolkit.odds_samples.sample_runs` (which keeps every
    run's outcome, for paired comparisons). Returns the summed counts and the runs.

    Raises:
        PrecisionNotReachedError: ``time_limit`` seconds passed first; the message gives the
            precision reached and the runs behind it.
    """
    counts: Counter = Counter()

    def runs_of(n: int, batch: int) -> list[Any]:
        drawn = draw(n, batch)
        counts.update(drawn)
        return [None] * sum(drawn.values())

    def widest(_: Mapping[Any, int], runs: int) -> float:
        return half_width(counts, runs)

    results, _ = sample_runs(runs_of, trials, precision, widest, time_limit, what)
    return counts, len(results)


# -- the uncertainty of a mixed result -------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Replicates:
    """Bootstrap replicates of a result computed from estimates: ``values[r, k]`` is the
    probability of ``outcomes[k]`` in replicate ``r`` (the whole calculation rerun on the
    estimated parts resampled from their own sampling law).

    :meth:`interval` is the widest of the normal interval (the replicates' standard
    deviation and a Student quantile for their number, widened to hold the
    bias-corrected estimate), the percentile and the basic bootstrap intervals: on small
    samples the normal one alone covers a little less than it claims (skewed estimates).
    """

    outcomes: tuple[Any, ...]
    values: np.ndarray

    def of(self, event: Any) -> np.ndarray:
        """The probability of an outcome, or of a predicate on outcomes, in each replicate."""
        if callable(event) and not (isinstance(event, Hashable) and event in self.outcomes):
            mask = np.array([bool(event(o)) for o in self.outcomes], dtype=bool)
        else:
            mask = np.array([o == event for o in self.outcomes], dtype=bool)
        return self.values[:, mask].sum(axis=1) if mask.any() else np.zeros(len(self.values))

    def map(self, f: Callable[[Any], Any]) -> Replicates:
        """The replicates of the distribution of ``f(outcome)``."""
        keys: dict[Any, int] = {}
        index = [keys.setdefault(f(o), len(keys)) for o in self.outcomes]
        out = np.zeros((len(self.values), len(keys)))
        np.add.at(out.T, np.array(index, dtype=int), self.values.T)
        return Replicates(tuple(keys), out)

    def means(self, value: Callable[[Any], Any]) -> np.ndarray:
        """The mean of ``value(outcome)`` in each replicate."""
        numbers = np.array([float(value(o)) for o in self.outcomes])
        return self.values @ numbers

    def interval(self, estimate: float, samples: np.ndarray, confidence: float) -> tuple[float, float]:
        """The interval around ``estimate`` from the replicates' ``samples`` of it: the
        widest of three bootstrap intervals at ``confidence`` — ``estimate`` ± the Student
        quantile times the replicates' standard deviation (moved out to hold the
        bias-corrected estimate, twice the estimate less the replicates' mean), the
        percentile interval and the basic interval (the percentiles reflected about the
        estimate). Tested for coverage (a small battle against its exact odds)."""
        if len(samples) < 2:
            return (estimate, estimate)
        spread = student_t(confidence, len(samples) - 1) * float(np.std(samples, ddof=1))
        corrected = 2 * estimate - float(np.mean(samples))
        low, high = (float(q) for q in np.quantile(samples, [0.5 - confidence / 2, 0.5 + confidence / 2]))
        return (
            min(min(estimate, corrected) - spread, low, 2 * estimate - high),
            max(max(estimate, corrected) + spread, high, 2 * estimate - low),
        )


def student_t(confidence: float, df: int) -> float:
    """The two-sided Student quantile at ``confidence`` with ``df`` degrees of freedom, by
    the Cornish-Fisher expansion around the normal quantile (within 0.1% of the exact value
    from 10 degrees of freedom up; the normal quantile for ``df < 1``).

    >>> round(student_t(0.95, 99), 3), round(student_t(0.95, 10), 3)
    (1.984, 2.228)
    """
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    if df < 1:
        return z
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


# -- the result ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class Odds(Distribution[T]):
    """Odds of a calculator: the :class:`~toolkit.prob.Distribution` of its outcomes (it is
    one: every reading method works on it) and how they were computed.

    Attributes:
        distribution: the plain distribution: exact, the observed frequencies of the runs
            (as exact fractions of ``trials``), or exact arithmetic on estimated parts.
        method: ``"exact"``, ``"monte_carlo"`` or ``"mixed"`` (:data:`KINDS`).
        trials: the runs behind an estimate (for a mixed result, the runs of each sampled
            part); ``None`` when exact.
        seconds: the wall time of the calculation.
        confidence: the level of :meth:`interval` unless one is asked (0.95).
        replicates: for a mixed result, the :class:`Replicates` its interval comes from
            (or a function computing them when first needed).
        trial_name: what one run is, in words (``"simulated clashes"``).
        samples: for a Monte Carlo result, the outcome of every run in order
            (:class:`~toolkit.odds_samples.Samples`, not shown), so that two results drawn
            with the same seed are compared run by run (:mod:`toolkit.comparison`);
            ``None`` when exact, mixed, or not kept.
        question: what the calculator was asked (:class:`~toolkit.question.Question`):
            the first line of every view of the result (:meth:`headline`).
    """

    distribution: Distribution[T]
    method: str = "exact"
    trials: int | None = None
    seconds: float = field(default=0.0, compare=False)
    confidence: float = DEFAULT_CONFIDENCE
    replicates: Replicates | Callable[[], Replicates] | None = field(default=None, compare=False)
    trial_name: str = "simulated runs"
    samples: Samples | None = field(default=None, compare=False, repr=False)
    question: Question | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.method not in KINDS:
            raise InvalidSetupError(f"method must be one of {', '.join(map(repr, KINDS))}, got {self.method!r}")
        if self.method == "monte_carlo" and self.trials is None and self.replicates is None:
            raise InvalidSetupError("a Monte Carlo result needs its trials (the runs behind it)")
        if self.method == "mixed" and self.replicates is None:
            raise InvalidSetupError("a mixed result needs the replicates its intervals come from")
        if not 0 < self.confidence < 1:
            raise InvalidSetupError(f"confidence must be between 0 and 1, got {self.confidence!r}")
        if self.samples is not None and (self.method != "monte_carlo" or len(self.samples) != self.trials):
            raise InvalidSetupError("the runs kept must be those of a Monte Carlo result, one per trial")
        dist = self.distribution
        if isinstance(dist, Odds):
            dist = dist.distribution
            object.__setattr__(self, "distribution", dist)
        object.__setattr__(self, "_weights", dist.weights())
        object.__setattr__(self, "_total", dist.total)

    # -- building --------------------------------------------------------------------------
    @classmethod
    def from_samples(cls, samples: Samples, **fields: Any) -> Odds[T]:
        """The Monte Carlo odds of ``samples`` (every run's outcome, in order), which it keeps."""
        return cls.from_counts(samples.counts(), samples=samples, **fields)

    @classmethod
    def from_counts(cls, counts: Mapping[T, int], trials: int | None = None, **fields: Any) -> Odds[T]:
        """The Monte Carlo odds of ``counts`` (outcome -> runs that gave it) out of ``trials``
        runs (their sum by default)."""
        n = sum(counts.values())
        if trials is not None and trials != n:
            raise InvalidSetupError(f"the counts add up to {n:,} runs, not the {trials:,} trials given")
        return cls(Distribution.from_int_weights(dict(counts)), method="monte_carlo", trials=n, **fields)

    # -- what it is --------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """Whether every probability is exact."""
        return self.method == "exact"

    @property
    def approximate(self) -> bool:
        """Whether the numbers are estimates (not exact)."""
        return not self.exact

    @property
    def runs(self) -> int | None:
        """The runs behind an estimate (:attr:`trials`)."""
        return self.trials

    def run_values(self, f: Any = None) -> Any:
        """The value of the outcome (or of one field, or of a function of it) in each run
        kept, in order (a numpy array), or ``None`` when no runs were kept."""
        if self.samples is None:
            return None
        return self.samples.values(lambda o: self._value(o, f))

    def bootstrap(self) -> Replicates | None:
        """The :class:`Replicates` of a mixed result (computed on first use), else ``None``."""
        reps = self.replicates
        if reps is not None and not isinstance(reps, Replicates):
            reps = reps()
            object.__setattr__(self, "replicates", reps)
        return reps

    # -- uncertainty -------------------------------------------------------------------------
    def interval(self, event: Any = NO_EVENT, confidence: float | None = None, **where: Any) -> tuple[Any, Any]:
        """A ``confidence`` (default :attr:`confidence`, 95%) interval ``(low, high)`` for the
        probability of an outcome, of a predicate on outcomes or of named fields' values
        (``winner="attacker"``, checked as :meth:`probability` checks them): the exact value
        twice (as ``Fraction``) when exact, Wilson's score interval for a Monte Carlo
        frequency, and for a mixed result the interval of its :class:`Replicates`, clipped
        to [0, 1]."""
        event = self.event(event, **where)
        p = self.probability(event)
        if self.exact:
            return (p, p)
        level = self.confidence if confidence is None else confidence
        reps = self.bootstrap()
        if reps is not None:
            lo, hi = reps.interval(float(p), reps.of(event), level)
            return (max(0.0, lo), min(1.0, hi))
        assert self.trials is not None
        hits = p * self.trials
        if hits.denominator != 1:  # pragma: no cover - a calculator bug
            raise AssertionError(f"a frequency of {p} is not a whole number of {self.trials} trials")
        return wilson_interval(int(hits), self.trials, level)

    def half_width(self, events: Iterable[Any] = (), confidence: float | None = None) -> float:
        """The largest half-width (in probability) of the intervals of every outcome, of
        :meth:`headline_events` and of ``events``: what ``precision=`` is compared with."""
        if self.exact:
            return 0.0
        widest = 0.0
        for e in [*self.outcomes(), *(ev for _, ev in self.headline_events()), *events]:
            lo, hi = self.interval(e, confidence)
            widest = max(widest, (float(hi) - float(lo)) / 2)
        return widest

    def headline_events(self) -> list[tuple[str, Callable[[Any], bool]]]:
        """The events a calculator reports besides its outcomes, as ``(label, predicate)``
        (who wins, …): :meth:`half_width` covers them too. None for a plain result."""
        return []

    def mean_interval(self, f: Any = None, confidence: float | None = None) -> tuple[Any, Any]:
        """A ``confidence`` interval for the mean of the outcomes (or of one field): the exact
        mean twice when exact; for Monte Carlo the normal interval with the sample's standard
        deviation; for a mixed result from its replicates."""
        m = self.mean(f)
        if self.exact:
            return (m, m)
        level = self.confidence if confidence is None else confidence
        reps = self.bootstrap()
        if reps is not None:
            return reps.interval(float(m), reps.means(lambda o: self._value(o, f)), level)
        assert self.trials is not None
        spread = math.sqrt(float(self.variance(f)) / self.trials)
        z = NormalDist().inv_cdf(0.5 + level / 2)
        return (float(m) - z * spread, float(m) + z * spread)

    # -- transforming keeps the uncertainty -----------------------------------------------------
    def map(self, f: Callable[[T], Any]) -> Odds[Any]:
        """The odds of ``f(outcome)``, with the same method and runs (and so intervals);
        :meth:`marginal` goes through here."""
        reps = self.replicates
        mapped: Replicates | Callable[[], Replicates] | None
        if reps is None:
            mapped = None
        else:
            mapped = lambda: self.bootstrap().map(f)  # type: ignore[union-attr]
        return Odds(
            self.distribution.map(f),
            method=self.method,
            trials=self.trials,
            seconds=self.seconds,
            confidence=self.confidence,
            replicates=mapped,
            trial_name=self.trial_name,
            samples=None if self.samples is None else self.samples.map(f),
            question=self.question,
        )

    def answering(self, question: Question) -> Odds[T]:
        """The same odds, stating ``question`` (what a calculator hands back)."""
        return dataclasses.replace(self, question=question)

    # -- display ---------------------------------------------------------------------------
    def text(self, event: Any = NO_EVENT, confidence: float | None = None, **where: Any) -> str:
        """The probability of an outcome or event (or of named fields' values, as
        :meth:`probability` takes them) as a designer reads it (:func:`chance_text`): exact,
        ``'7/27 ≈ 25.9%'`` (a fraction only while short); an estimate, ``'48.8% ± 0.7% (95%)'``."""
        return chance_text(self, self.event(event, **where), confidence)

    def mean_text(self, f: Any = None, confidence: float | None = None) -> str:
        """The mean as a designer reads it (:func:`average_text`): exact (``'7/3 ≈ 2.33'``) or
        ``'2.14 ± 0.05 (95%)'``."""
        return average_text(self, f, confidence)

    def how(self) -> str:
        """How the numbers were obtained, in words, with the runs behind them."""
        if self.method == "mixed":
            return method_text("mixed", self.trials, self.trial_name) + "; intervals by a parametric bootstrap"
        return method_text(self.method, self.trials, self.trial_name)

    def headline(self) -> str:
        """The first line of every view of the result: what was asked and how it was
        obtained (:func:`toolkit.question.headline`), ``'Angry Miniatures · 3 v 2 dice ·
        melee · draft rules · exact (size 7,776)'``; a result built by hand, with no
        question, names its type and method."""
        if self.question is None:
            return f"{type(self).__name__} · {self.how()}"
        return headline(self.question, self.method, self.trials, self.trial_name, self.confidence)

    def _rows(self) -> list[tuple[str, Any]]:
        """The (label, event) lines of the text: the headline events, then the outcomes."""
        rows = [(label, ev) for label, ev in self.headline_events()]
        rows += [(str(o), o) for o in self.outcomes()[: 12 if rows else 20]]
        return rows

    def __str__(self) -> str:
        rows = self._rows()
        lines = [self.headline()]
        width = max((len(label) for label, _ in rows), default=0)
        lines += [f"  {label:{width}}  {self.text(ev)}" for label, ev in rows]
        if len(self) > sum(1 for _, ev in rows if not callable(ev)):
            lines.append(f"  … {len(self)} outcomes in all")
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.exact:  # exact odds show the exact distribution they are
            return f"{type(self).__name__}({self.headline()}: {Distribution.__repr__(self)})"
        shown = ", ".join(f"{o!r}: {self.text(o)}" for o in self.outcomes()[:8])
        more = f", … {len(self) - 8} more" if len(self) > 8 else ""
        return f"{type(self).__name__}({self.headline()}: {{{shown}{more}}})"

    def _heading_html(self) -> str:
        """The notebook view's first line (:meth:`headline`), and for a mixed result how its
        intervals were found."""
        more = f"<br><small>{html.escape(self.how())}</small>" if self.method == "mixed" else ""
        return f"<p><b>{html.escape(self.headline())}</b>{more}</p>"

    def _repr_html_(self) -> str:
        if self.exact:
            return self._heading_html() + self.distribution._repr_html_()
        rows = "".join(
            f"<tr><td style='text-align:left'>{html.escape(label)}</td><td>{html.escape(self.text(ev))}</td></tr>"
            for label, ev in self._rows()
        )
        return (
            f"{self._heading_html()}<table><thead><tr><th>outcome</th><th>probability</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    def __reduce__(self) -> Any:
        self.bootstrap()  # a pending bootstrap is a closure: compute it before pickling
        state = {k: v for k, v in self.__dict__.items()}
        return (_rebuild, (type(self), state))


# -- a mean, exact or estimated ----------------------------------------------------------------
class Expectation(Fraction):
    """An expected value (a mean) that says how it was computed: the number itself (a
    :class:`~fractions.Fraction`: it compares, adds and prints as one) with ``exact``,
    ``method``, ``trials``, ``seconds`` and :meth:`interval`.

    Exact, it is the exact mean and its interval the value twice. Estimated, it is the mean
    of the sampled runs' values (an exact fraction of ``trials``, as :class:`Odds` keeps its
    frequencies) and ``odds`` is the :class:`Odds` of those values (every run kept, for
    paired comparisons); its interval is :meth:`Odds.mean_interval`: the normal interval,
    mean ± z·s/√n with the sample's standard deviation. Arithmetic on it gives a plain
    ``Fraction`` (the interval does not follow); exact, it reads (``repr``, ``str``) as the
    ``Fraction`` it is.

    >>> Expectation(Fraction(3, 2)).interval(), Expectation(Fraction(3, 2)).text()
    ((Fraction(3, 2), Fraction(3, 2)), '3/2 = 1.5')
    >>> sampled = Expectation.of(Odds.from_counts({1: 500, 2: 300, 3: 200}, trial_name="simulated runs"))
    >>> sampled == Fraction(17, 10), sampled.exact, sampled.trials, sampled.text()
    (True, False, 1000, '1.70 ± 0.05 (95%)')
    """

    __slots__ = ("odds", "seconds", "question")
    odds: Odds[Any] | None
    seconds: float
    question: Question | None

    def __new__(
        cls, value: Any, odds: Odds[Any] | None = None, seconds: float = 0.0, question: Question | None = None
    ) -> Expectation:
        self = super().__new__(cls, value)
        if odds is not None and odds.method != "monte_carlo":
            raise InvalidSetupError("an estimated expectation needs the Monte Carlo odds of its runs")
        object.__setattr__(self, "odds", odds)
        object.__setattr__(self, "seconds", float(seconds))
        object.__setattr__(self, "question", question if question is not None or odds is None else odds.question)
        return self

    @classmethod
    def of(cls, odds: Odds[Any], seconds: float | None = None) -> Expectation:
        """The estimated mean of the sampled values of ``odds`` (a Monte Carlo result),
        stating the question ``odds`` states."""
        return cls(odds.mean(), odds, odds.seconds if seconds is None else seconds)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_numerator", "_denominator") and not hasattr(self, "odds"):
            object.__setattr__(self, name, value)  # Fraction.__new__ building it
            return
        raise AttributeError(f"an Expectation is read-only: cannot set {name}")

    def __reduce__(self) -> Any:
        return (type(self), (Fraction(self.numerator, self.denominator), self.odds, self.seconds, self.question))

    def __copy__(self) -> Expectation:
        return self

    def __deepcopy__(self, memo: Any) -> Expectation:
        return self

    @property
    def exact(self) -> bool:
        """Whether the value is exact."""
        return self.odds is None

    @property
    def method(self) -> str:
        """``"exact"`` or ``"monte_carlo"``."""
        return "exact" if self.odds is None else "monte_carlo"

    @property
    def trials(self) -> int | None:
        """The runs behind an estimate; ``None`` when exact."""
        return None if self.odds is None else self.odds.trials

    @property
    def confidence(self) -> float:
        """The level of :meth:`interval` unless one is asked (95%)."""
        return DEFAULT_CONFIDENCE if self.odds is None else self.odds.confidence

    @property
    def value(self) -> Fraction:
        """The number, as a plain ``Fraction``."""
        return Fraction(self.numerator, self.denominator)

    def interval(self, confidence: float | None = None) -> tuple[Any, Any]:
        """A ``confidence`` interval ``(low, high)`` for the mean: the value twice (as
        ``Fraction``) when exact, else :meth:`Odds.mean_interval` of the runs."""
        if self.odds is None:
            return (self.value, self.value)
        return self.odds.mean_interval(None, confidence)

    def half_width(self, confidence: float | None = None) -> float:
        """Half the width of :meth:`interval` (0 when exact), in the mean's own unit."""
        low, high = self.interval(confidence)
        return (float(high) - float(low)) / 2

    def text(self, confidence: float | None = None) -> str:
        """The mean as a designer reads it (:func:`estimate_mean_text`): exact, ``'3/2 = 1.5'``;
        an estimate, ``'1.70 ± 0.05 (95%)'``."""
        level = self.confidence if confidence is None else confidence
        return estimate_mean_text(self.value, *self.interval(level), level)

    def how(self) -> str:
        """How the number was obtained, in words, with the runs behind it."""
        if self.odds is None:
            return method_text("exact")
        return self.odds.how()

    def headline(self) -> str:
        """What was asked and how it was obtained (:func:`toolkit.question.headline`), as
        :meth:`Odds.headline`; the method alone when no question was given."""
        if self.question is None:
            return f"{type(self).__name__} · {self.how()}"
        if self.odds is None:
            return headline(self.question, "exact")
        return headline(self.question, "monte_carlo", self.trials, self.odds.trial_name, self.confidence)

    def __str__(self) -> str:
        return self.text() if self.odds is not None else Fraction.__str__(self)

    def __repr__(self) -> str:
        if self.odds is None:  # exact, it reads as the Fraction it is
            return Fraction.__repr__(self.value)
        return f"Expectation({self.text()}, {self.headline()})"

    def _repr_html_(self) -> str:
        return f"<span>{html.escape(self.text())}</span> <small>({html.escape(self.headline())})</small>"


# -- the one way a result's numbers are written ------------------------------------------------
def _is_exact(result: Any) -> bool:
    """Whether a result (an :class:`Odds`, or a plain :class:`~toolkit.prob.Distribution`,
    which is exact) is exact."""
    exact = getattr(result, "exact", None)
    return getattr(result, "method", "exact") == "exact" if exact is None else bool(exact)


def estimate_value_text(
    value: Any, low: Any, high: Any, confidence: float = DEFAULT_CONFIDENCE, *, level: bool = True
) -> str:
    """A probability and its interval, the one way: the exact value (the interval is the
    value twice) by :func:`~toolkit.numbers.probability_text` (``'1/3 ≈ 33.3%'``, a fraction
    only while short), an estimate by :func:`~toolkit.numbers.interval_text` (``'71.6% ±
    3.1% (95%)'``, a range when lopsided, never a fraction; ``level=False`` leaves the level
    out, for a table that states it once).

    >>> from fractions import Fraction
    >>> estimate_value_text(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)), estimate_value_text(0.716, 0.685, 0.745)
    ('1/3 ≈ 33.3%', '72% ± 3% (95%)')
    """
    if low == high == value:
        return probability_text(value)
    return interval_text(value, low, high, confidence, level=level)


def estimate_mean_text(
    value: Any, low: Any, high: Any, confidence: float = DEFAULT_CONFIDENCE, *, level: bool = True
) -> str:
    """A mean and its interval, the one way: exact (the interval is the value twice) by
    :func:`~toolkit.numbers.number_text` (``'7/3 ≈ 2.33'``), an estimate by
    :func:`~toolkit.numbers.interval_text` as ``'2.14 ± 0.05 (95%)'`` (the larger side of
    the interval, to its first significant digit; a range when lopsided).

    >>> from fractions import Fraction
    >>> estimate_mean_text(Fraction(7, 3), Fraction(7, 3), Fraction(7, 3)), estimate_mean_text(2.137, 2.09, 2.18)
    ('7/3 ≈ 2.33', '2.14 ± 0.05 (95%)')
    """
    if low == high == value:
        return number_text(value)
    return interval_text(value, low, high, confidence, percent=False, level=level)


def chance_text(result: Any, event: Any, confidence: float | None = None) -> str:
    """P(``event``) of any odds result as a designer reads it, read from the result's own
    ``exact`` and ``interval`` (:func:`estimate_value_text`): what explorers, reports and
    ``repr`` s show. A plain :class:`~toolkit.prob.Distribution` is exact."""
    p = result.probability(event)
    if _is_exact(result):
        return probability_text(p)
    level = getattr(result, "confidence", DEFAULT_CONFIDENCE) if confidence is None else confidence
    low, high = result.interval(event, level)
    return estimate_value_text(p, low, high, level)


def average_text(result: Any, f: Any = None, confidence: float | None = None) -> str:
    """The mean of the outcomes (or of one field) of any odds result as a designer reads it,
    read from its ``exact`` and ``mean_interval`` (:func:`estimate_mean_text`)."""
    m = result.mean(f)
    if _is_exact(result):
        return number_text(m)
    level = getattr(result, "confidence", DEFAULT_CONFIDENCE) if confidence is None else confidence
    low, high = result.mean_interval(f, level)
    return estimate_mean_text(m, low, high, level)


def _rebuild(cls: type, state: dict[str, Any]) -> Odds[Any]:
    obj = cls.__new__(cls)
    for k, v in state.items():
        object.__setattr__(obj, k, v)
    dist = state["distribution"]
    object.__setattr__(obj, "_weights", dist.weights())
    object.__setattr__(obj, "_total", dist.total)
    return obj


def counts_half_width(
    counts: Mapping[Any, int], runs: int, events: Sequence[Callable[[Any], bool]] = (), confidence: float = 0.95
) -> float:
    """The largest half-width of the Wilson intervals of every outcome of ``counts`` (out
    of ``runs``) and of ``events``: what a Monte Carlo calculator compares with ``precision``."""
    widest = 0.0
    hits = list(counts.values()) + [sum(n for o, n in counts.items() if ev(o)) for ev in events]
    for h in hits:
        lo, hi = wilson_interval(h, runs, confidence)
        widest = max(widest, (hi - lo) / 2)
    return widest


def counts_mean_half_width(counts: Mapping[Any, int], runs: int, confidence: float = DEFAULT_CONFIDENCE) -> float:
    """The half-width of the normal interval of the mean of the sampled values ``counts``
    (value -> runs that gave it, out of ``runs``; :meth:`Odds.mean_interval`) relative to
    the mean: what a calculator of a mean compares with ``precision`` (0.01 is ±1% of the
    mean). Infinite while the mean is 0.

    >>> round(counts_mean_half_width({1: 500, 2: 300, 3: 200}, 1000), 4)
    0.0285
    """
    sampled = Odds.from_counts(counts, runs)
    low, high = sampled.mean_interval(None, confidence)
    mean = float(sampled.mean())
    return math.inf if mean == 0 else (float(high) - float(low)) / 2 / abs(mean)


__all__ += [
    "average_text",
    "counts_mean_half_width",
    "chance_text",
    "counts_half_width",
    "estimate_mean_text",
    "estimate_value_text",
    "student_t",
]
