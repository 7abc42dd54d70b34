"""What every Durak odds result shares: it reads like its :class:`~toolkit.prob.Distribution`."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from toolkit.prob import Distribution

__all__ = [
    "OddsResult",
]


class OddsResult:
    """Exact or Monte Carlo odds that read like the :class:`~toolkit.prob.Distribution` of
    their :attr:`distribution` (``result[outcome]``, ``.items()``, ``.probability(event)``,
    ``.mean()``, ...): one result type for both methods, with ``exact`` saying which.

    A subclass provides ``distribution`` and ``exact``.
    """

    distribution: Distribution[Any]
    exact: bool

    @property
    def approximate(self) -> bool:
        """Whether the numbers are Monte Carlo estimates (not exact)."""
        return not self.exact

    def __getitem__(self, outcome: Any) -> Fraction:
        return self.distribution[outcome]

    def __contains__(self, outcome: object) -> bool:
        return outcome in self.distribution

    def items(self) -> list[tuple[Any, Fraction]]:
        return self.distribution.items()

    def outcomes(self) -> list[Any]:
        return self.distribution.outcomes()

    def __iter__(self) -> Iterator[Any]:
        return iter(self.distribution)

    def __len__(self) -> int:
        return len(self.distribution)

    def probability(self, event: Any) -> Fraction:
        """The probability of an outcome or of a predicate on outcomes: exact, or the observed frequency."""
        return self.distribution.probability(event)

    def marginal(self, f: Any) -> Distribution[Any]:
        return self.distribution.marginal(f)

    def mean(self, f: Any = None) -> Fraction:
        return self.distribution.mean(f)
