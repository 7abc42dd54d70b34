"""The coin duel's rule-book searcher: random duels from the smallest pools up.

Hints: ``coins`` (the largest pool to try, 1 by default: the simplest examples first).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from coin_duel.engine import DuelState, start_duel

__all__ = ["HINTS", "candidates", "simplicity"]

HINTS = ("coins",)


def candidates(rules: Any, hints: dict[str, Any], rng: random.Random) -> Iterator[DuelState]:
    """Yield finished duels played out with ``rng``, small pools first, for ever."""
    top = min(int(hints.get("coins", 2)), rules.max_coins)
    while True:
        state: DuelState = start_duel(rng.randint(1, top), rng.randint(1, top), rules)
        while not state.is_terminal:
            state = state.apply(state.sample_chance(rng))  # type: ignore[assignment]
        yield state


def simplicity(state: DuelState) -> tuple[int, ...]:
    """Fewer coins, fewer events, fewer heads first."""
    return (sum(state.coins), len(state.events), sum(e.data.get("heads", 0) for e in state.events))
