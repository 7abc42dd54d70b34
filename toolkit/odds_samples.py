"""The runs behind a Monte Carlo result, kept so that two results can be compared run by run.

A Monte Carlo calculator draws its runs from a seeded random stream. Every calculator of the
toolkit draws one run's random numbers so that run ``i`` under one set of rules and run ``i``
under another, with the same seed and the same sizes, **share their draws** wherever the
rules allow: the same deal when the decks are alike, the same dice, and the same stream for
the play (coin flips, Wild Trump draws, random policies) started afresh for each run, so a
rule that makes one run draw more numbers never shifts the next run's draws (common random
numbers). :class:`Samples` keeps the outcome of every run, in order, compactly (a small integer
array and the distinct outcomes) with the name of the stream that drew them
(:attr:`Samples.stream`: the calculator, its seed, the sizes that pick its draws and the batch
sizes). Two results whose runs came from the same stream are **aligned** (:meth:`Samples.aligned`),
and :mod:`toolkit.comparison` gives their difference the paired interval (the spread of the
run-by-run differences) instead of a conservative one built from two separate intervals.

:func:`sample_runs` samples such runs in batches until a precision is reached (batch 0 is
the ``trials`` asked, each later batch its own seeded stream), and :func:`play_seed` is the
one way a calculator starts a run's play stream.

>>> runs = Samples.of(("test", 0, (4,)), ["hit", "miss", "hit", "hit"])
>>> len(runs), runs.indicator("hit").tolist(), runs.aligned(Samples.of(("test", 0, (4,)), ["miss"] * 4))
(4, [1.0, 0.0, 1.0, 1.0], True)
"""

from __future__ import annotations

import inspect
import math
import os
import random
import time
import warnings
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.errors import PrecisionNotReachedError
from toolkit.progress import expect, shows_progress

__all__ = [
    "PLAY_SEED_BITS",
    "Samples",
    "SamplingStoppedWarning",
    "aligned_samples",
    "next_batch",
    "not_reached",
    "play_seed",
    "sample_runs",
]

#: Bits of the seed a run's play stream starts from (:func:`play_seed`).
PLAY_SEED_BITS = 64


def play_seed(rng: random.Random) -> random.Random:
    """A fresh random stream for one run's play, seeded by :data:`PLAY_SEED_BITS` bits of
    ``rng`` (the calculator's stream, which drew the run's deal or dice just before): every
    run takes the same number of draws from ``rng`` whatever its play, so run ``i`` under two
    rule sets starts from the same state of ``rng`` (common random numbers)."""
    return random.Random(rng.getrandbits(PLAY_SEED_BITS))


@dataclass(frozen=True, eq=False)
class Samples:
    """The outcome of every run of a Monte Carlo result, in the order they were drawn.

    Attributes:
        stream: what drew the runs: the calculator, its seed, the sizes that pick its random
            numbers and the batch sizes. Two :class:`Samples` of the same stream drew the same
            random numbers run by run (:meth:`aligned`).
        outcomes: the distinct outcomes.
        index: the outcome of each run, as an index into :attr:`outcomes` (``int32``).
    """

    stream: tuple[Any, ...]
    outcomes: tuple[Any, ...]
    index: np.ndarray

    @classmethod
    def of(cls, stream: tuple[Any, ...], results: Sequence[Hashable]) -> Samples:
        """The runs of ``results`` (one outcome per run, in order) drawn by ``stream``."""
        keys: dict[Any, int] = {}
        index = np.fromiter((keys.setdefault(r, len(keys)) for r in results), dtype=np.int32, count=len(results))
        return cls(tuple(stream), tuple(keys), index)

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def __repr__(self) -> str:
        return f"Samples({len(self):,} runs of {len(self.outcomes)} outcomes)"

    def counts(self) -> Counter:
        """How many runs gave each outcome."""
        tally = np.bincount(self.index, minlength=len(self.outcomes))
        return Counter({o: int(n) for o, n in zip(self.outcomes, tally, strict=True) if n})

    def aligned(self, other: object) -> bool:
        """Whether ``other`` holds as many runs drawn by the same stream: run ``i`` of both
        used the same random numbers (where the two rule sets let them), so the run-by-run
        differences are a sample of the change."""
        return isinstance(other, Samples) and self.stream == other.stream and len(self) == len(other)

    def values(self, value: Callable[[Any], Any]) -> np.ndarray:
        """``value(outcome)`` of each run, as floats."""
        per_outcome = np.array([float(value(o)) for o in self.outcomes], dtype=float)
        return per_outcome[self.index] if len(per_outcome) else np.zeros(len(self))

    def indicator(self, event: Any) -> np.ndarray:
        """1.0 for each run whose outcome is ``event`` (an outcome, or a predicate on
        outcomes, read as :meth:`toolkit.prob.Distribution.probability` reads it), else 0.0."""
        if callable(event) and not (isinstance(event, Hashable) and event in self.outcomes):
            return self.values(lambda o: bool(event(o)))
        return self.values(lambda o: o == event)

    def map(self, f: Callable[[Any], Any]) -> Samples:
        """The runs of ``f(outcome)`` (the same stream)."""
        keys: dict[Any, int] = {}
        mapping = np.array([keys.setdefault(f(o), len(keys)) for o in self.outcomes], dtype=np.int32)
        index = mapping[self.index] if len(mapping) else self.index
        return Samples(self.stream, tuple(keys), index)


def aligned_samples(before: Any, after: Any) -> tuple[Samples, Samples] | None:
    """The runs of two results (read as ``.samples``) when both kept them and they are
    aligned (:meth:`Samples.aligned`), else ``None``."""
    a, b = getattr(before, "samples", None), getattr(after, "samples", None)
    if isinstance(a, Samples) and isinstance(b, Samples) and a.aligned(b):
        return a, b
    return None


# -- sampling in batches to a precision -----------------------------------------------------
def next_batch(runs: int, reached: float, precision: float) -> int:
    """How many more runs to sample when ``runs`` reached a half-width of ``reached`` and
    ``precision`` is asked: a half-width shrinks as 1/sqrt(runs), so about
    ``runs * (reached / precision)**2`` in all, 5% more, at least a quarter of ``runs``
    more and at most 8 times as many more."""
    wanted = math.ceil(runs * (reached / precision) ** 2 * 1.05)
    return max(min(wanted - runs, 8 * runs), max(1, runs // 4))


def not_reached(
    time_limit: float, spent: float, runs: int, what: str, reached: float, precision: float
) -> PrecisionNotReachedError:
    """The error of sampling stopped at ``time_limit``: the precision reached, the runs behind it."""
    return PrecisionNotReachedError(
        f"stopped at the time limit of {time_limit:g} s ({spent:.1f} s spent) with {runs:,} {what}: the widest "
        f"95% interval is ±{reached * 100:.2g} points, not the ±{precision * 100:.2g} asked (precision="
        f"{precision:g}); allow more time (time_limit=) or ask a coarser precision"
    )


@shows_progress(lambda asked: (asked["what"], asked["trials"]))  # each run ticks it; Ctrl-C stops it, nothing kept
def sample_runs(
    draw: Callable[[int, int], Iterable[Hashable]],
    trials: int,
    precision: float | None,
    half_width: Callable[[Mapping[Any, int], int], float],
    time_limit: float,
    what: str = "runs",
) -> tuple[list[Hashable], tuple[int, ...]]:
    """Sample runs in batches until every reported probability reaches ``precision``, never
    past ``time_limit`` seconds (``math.inf``: no limit), with or without ``precision``.

    ``draw(n, batch)`` returns the outcomes of ``n`` fresh runs, in order, best one at a time
    (an iterator: the clock is read between two runs, and a run not asked for is not
    played); batch 0 is ``trials`` runs (the seeded sample a calculator gives without
    ``precision``), and each later batch is drawn from its own stream (a calculator seeds it
    from its seed and the batch number, so the whole sequence repeats). After each batch
    ``half_width(counts, runs)`` is compared with ``precision``; the next batch is sized by
    :func:`next_batch` and cut to the time left. Returns every run's outcome, in order, and
    the batch sizes (part of the stream's name: two results are aligned only if their
    batches were the same). A batch stopped by the time limit holds the runs drawn before
    it (the first runs of its stream), so the result says how many it has.

    Without ``precision``, sampling stopped by the time limit returns the runs drawn so far
    (the estimate says how many) and warns (:class:`SamplingStoppedWarning`) with the runs
    drawn and asked: what a designer who gave both a number of trials and a time limit expects.

    Raises:
        PrecisionNotReachedError: ``time_limit`` seconds passed before ``precision`` was
            reached; the message gives the precision reached and the runs behind it.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    results: list[Hashable] = []
    batches: list[int] = []
    kept: dict[Hashable, Hashable] = {}  # one object per distinct outcome: 8 bytes a run, not one object

    def take(n: int) -> bool:
        """Draw batch ``len(batches)`` of ``n`` runs into ``results``; whether the clock stopped it."""
        stopped = False
        before = len(results)
        drawn = draw(n, len(batches))
        if isinstance(drawn, Sequence):  # drawn already, all of it: every run is kept
            results.extend(kept.setdefault(outcome, outcome) for outcome in drawn)
        else:
            for i, outcome in enumerate(drawn):
                results.append(kept.setdefault(outcome, outcome))
                if i % 8 == 7 and time.perf_counter() > deadline:
                    stopped = i + 1 < n
                    break
        batches.append(len(results) - before)
        return stopped

    stopped = take(trials)
    if precision is None:
        if stopped:
            warnings.warn(
                f"stopped at the time limit of {time_limit:g} s with {len(results):,} of the {trials:,} {what} asked: "
                "the estimate is of those (allow more time with time_limit=)",
                SamplingStoppedWarning,
                stacklevel=_caller_level(),
            )
        return results, tuple(batches)
    counts: Counter = Counter(results)
    while True:
        runs = len(results)
        reached = half_width(counts, runs)
        if reached <= precision:
            return results, tuple(batches)
        spent = time.perf_counter() - started
        left = time_limit - spent
        if left <= 0 or stopped:
            raise not_reached(time_limit, spent, runs, what, reached, precision)
        more = next_batch(runs, reached, precision)
        if math.isfinite(left):
            more = min(more, int(left / max(spent / runs, 1e-9)))
        more = max(1, more)
        expect(more)
        before = len(results)
        stopped = take(more)
        counts.update(results[before:])


def _caller_level() -> int:
    """The ``stacklevel`` of the first caller outside the toolkit (a warning shown at the
    designer's own line, and again for each such line)."""
    root = os.path.dirname(os.path.abspath(__file__))
    here = inspect.currentframe()
    frame, level = (here.f_back if here is not None else None), 1
    while frame is not None and frame.f_code.co_filename.startswith(root):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level


class SamplingStoppedWarning(UserWarning):
    """Sampling without a precision stopped at its time limit before the trials asked: the
    result is the estimate of the runs drawn (its ``trials``)."""
