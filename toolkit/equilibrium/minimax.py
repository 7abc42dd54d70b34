"""Minimax for two-player zero-sum games of perfect information, memoised.

:class:`Minimax` walks any game given as callbacks — the legal actions of a position,
what an action does (a reward and the next position, or ``None`` at the end), whether
the side to move maximises, and a key under which a position's value is remembered —
so it serves a rules engine's states as well as a system's light positions. The value
of a position is the best, for the side to move, of ``reward + value(next)`` over its
actions: a payoff paid as the game goes (additive), or only at the end (a reward on
the last move). Rewards are ints or ``Fraction``s: the values are exact.

A take-away game: players alternately take 1 or 2 from a pile; whoever takes the last
wins 1 (the first player, who maximises) or loses 1.

>>> def actions(pos):
...     pile, _ = pos
...     return [n for n in (1, 2) if n <= pile]
>>> def move(pos, n):
...     pile, first = pos
...     if pile == n:  # the last one taken: the mover wins
...         return (1 if first else -1), None
...     return 0, (pile - n, not first)
>>> game = Minimax(actions, move, maximising=lambda pos: pos[1])
>>> game.value((4, True)), game.value((3, True))
(1, -1)
>>> game.action_values((4, True))
[(1, 1), (2, -1)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from toolkit.errors import TooBigError

__all__ = ["Minimax", "DEFAULT_MAX_STATES"]

P = TypeVar("P")
A = TypeVar("A")

#: Positions a :class:`Minimax` remembers before it stops with :class:`~toolkit.errors.TooBigError`.
DEFAULT_MAX_STATES = 2_000_000


class Minimax(Generic[P, A]):
    """Memoised minimax over positions ``P`` with actions ``A``.

    Args:
        actions: ``position -> sequence of actions`` (never empty at a position).
        move: ``(position, action) -> (reward, next position or None)``; ``None`` ends the game.
        maximising: ``position -> bool``, whether the side to move maximises.
        key: ``position -> hashable``, the memo key (default: the position itself); two
            positions with the same key must have the same value.
        max_states: how many positions may be remembered.
        too_big: what to say (after the count) when ``max_states`` is passed.
    """

    def __init__(
        self,
        actions: Callable[[P], Sequence[A]],
        move: Callable[[P, A], tuple[Any, P | None]],
        maximising: Callable[[P], bool],
        key: Callable[[P], Hashable] | None = None,
        max_states: int = DEFAULT_MAX_STATES,
        too_big: str = "the game is too big to search exactly",
    ) -> None:
        self.actions = actions
        self.move = move
        self.maximising = maximising
        self.key = key
        self.max_states = max_states
        self.too_big = too_big
        self.memo: dict[Hashable, Any] = {}

    def value(self, position: P) -> Any:
        """Return the value of ``position`` when both sides play best (for the maximiser)."""
        key = position if self.key is None else self.key(position)
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= self.max_states:
                raise TooBigError(f"the minimax search passed {self.max_states:,} positions: {self.too_big}")
            move, value = self.move, self.value
            values = []
            for action in self.actions(position):  # action_value, inlined: the inner loop
                reward, after = move(position, action)
                values.append(reward if after is None else reward + value(after))
            found = self.memo[key] = max(values) if self.maximising(position) else min(values)
        return found

    def action_value(self, position: P, action: A) -> Any:
        """Return the value of playing ``action`` at ``position``, both playing best after."""
        reward, after = self.move(position, action)
        return reward if after is None else reward + self.value(after)

    def action_values(self, position: P) -> list[tuple[A, Any]]:
        """Return every action at ``position`` with its value, in the order of ``actions``."""
        return [(a, self.action_value(position, a)) for a in self.actions(position)]
