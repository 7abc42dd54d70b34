"""What every Durak odds result shares: the toolkit's one odds type, :class:`~toolkit.odds_result.Odds`.

An :class:`OddsResult` is the :class:`~toolkit.prob.Distribution` of its outcomes
(``result[outcome]``, ``.items()``, ``.probability(event)``, ``.mean()``, ...) with
``exact``, ``method``, the runs behind an estimate and ``interval(event)``.
"""

from __future__ import annotations

from toolkit.odds_result import Odds

__all__ = [
    "OddsResult",
]

#: The Durak name of the toolkit's odds result (:class:`~toolkit.odds_result.Odds`).
OddsResult = Odds
