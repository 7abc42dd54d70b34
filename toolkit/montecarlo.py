"""Monte Carlo over any rules engine, with confidence intervals from the sample size.

Where an exact calculation is too big, sample the engine instead: :func:`sample_outcomes`
plays the game out ``trials`` times (seeded, so a run can be repeated) and counts a
function of the terminal state. Each frequency comes with a Wilson score interval.

>>> from dataclasses import dataclass, replace
>>> from toolkit.engine import CHANCE, TERMINAL, GameState
>>> @dataclass(frozen=True)
... class TwoDice(GameState):  # a tiny engine: two six-sided dice rolled one after the other
...     faces: tuple = ()
...     current_player = property(lambda self: TERMINAL if len(self.faces) == 2 else CHANCE)
...     events = ()
...     def _legal_actions(self): return []
...     def _chance_outcomes(self): return [(f, Fraction(1, 6)) for f in range(1, 7)]
...     def _apply(self, face): return replace(self, faces=self.faces + (face,))
>>> counts = sample_outcomes(TwoDice(), lambda s: sum(s.faces) == 7, 2000, seed=1)
>>> exact = Fraction(6, 36)  # (1,6) (2,5) (3,4) (4,3) (5,2) (6,1)
>>> counts[True].contains(exact)
True
"""

from __future__ import annotations

import html
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from toolkit.engine import GameState, Policy, play_out
from toolkit.errors import InvalidSetupError
from toolkit.numbers import estimate_text, wilson_interval
from toolkit.odds_result import DEFAULT_TIME_LIMIT, check_seed, check_time_limit, check_trials
from toolkit.odds_samples import sample_runs
from toolkit.progress import tick

__all__ = ["Estimate", "sample_outcomes", "z_for", "tolerance"]


def z_for(confidence: float) -> float:
    """Return the two-sided normal quantile for a confidence level (2.576 for 0.99)."""
    if not 0 < confidence < 1:
        raise InvalidSetupError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def tolerance(p: Fraction | float, trials: int, z: float = 4.5) -> float:
    """Return the half-width within which a frequency of ``trials`` samples of an event
    of exact probability ``p`` falls except with tiny probability: ``z·sqrt(p(1−p)/n)``.

    With the default ``z = 4.5`` a correct calculator fails such a check about once in
    150,000 — the tolerance the tests use to compare Monte Carlo with exact results.
    """
    p = float(p)
    return z * math.sqrt(max(p * (1 - p), 1e-12) / trials) + 1e-12


@dataclass(frozen=True)
class Estimate:
    """A frequency from Monte Carlo: ``hits`` out of ``trials``."""

    hits: int
    trials: int

    @property
    def value(self) -> float:
        """The observed frequency."""
        return self.hits / self.trials

    def interval(self, confidence: float = 0.99) -> tuple[float, float]:
        """Return the Wilson score interval for the true probability
        (:func:`toolkit.numbers.wilson_interval`)."""
        z_for(confidence)  # a clear InvalidSetupError for a bad level
        return wilson_interval(self.hits, self.trials, confidence)

    def contains(self, p: float | Fraction, confidence: float = 0.99) -> bool:
        """Whether ``p`` lies in the interval at this confidence."""
        lo, hi = self.interval(confidence)
        return lo <= float(p) <= hi

    def text(self, what: str = "simulated battles", confidence: float = 0.95) -> str:
        """Return the estimate as a designer reads it (never as a fraction, which would look exact): the frequency ± the
        half-width of its Wilson interval, the confidence and the method in words, never a
        fraction — ``'48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'``;
        ``what`` names the trials (``"simulated attacks"``, ``"sampled deals"``).

        >>> Estimate(9760, 20_000).text()
        '48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'
        """
        z_for(confidence)
        return estimate_text(self.hits, self.trials, what, confidence)

    def __str__(self) -> str:
        """:meth:`text` with its defaults: ``'48.8% ± 0.7% (95%), estimated from 20,000 simulated battles'``."""
        return self.text()

    def _repr_html_(self) -> str:
        return f"<span>{html.escape(self.text())}</span>"


class _Counts(dict[Hashable, Estimate]):
    """Estimates by outcome; an outcome never seen reads as 0 hits."""

    trials: int = 0

    def __missing__(self, key: Hashable) -> Estimate:
        return Estimate(0, self.trials)


def sample_outcomes(
    state: GameState,
    result: Callable[[GameState], Hashable],
    trials: int,
    seed: int = 0,
    policies: Mapping[str, Policy] | Policy | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> dict[Hashable, Estimate]:
    """Play the game out ``trials`` times from ``state`` (at most ``time_limit`` seconds:
    stopped there, the estimates are of the runs played, and say so by their ``trials``)
    and return an :class:`Estimate` of the probability of each value of ``result(terminal state)``."""
    trials = check_trials(trials)
    seed = check_seed(seed)
    limit = check_time_limit(time_limit)
    rng = random.Random(seed)

    def draw(n: int, batch: int) -> Iterator[Hashable]:
        for _ in range(n):
            outcome = result(play_out(state, rng, policies))
            tick()  # a run done: the progress of long work (toolkit.progress)
            yield outcome

    runs, _ = sample_runs(draw, trials, None, lambda counts, n: 0.0, limit, "simulated runs")
    counts: Counter[Any] = Counter(runs)
    out = _Counts({k: Estimate(v, len(runs)) for k, v in counts.items()})
    out.trials = len(runs)
    return out
