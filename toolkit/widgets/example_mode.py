"""Following a rule-book example in a stepper, one move at a time.

A system's stepper that can load an example mixes in :class:`FollowsExample` and keeps
``example``, ``stepper``, ``_plan`` (the example's moves, each with ``chance`` and
``text``), ``_plan_error`` and ``_position()`` (how far along the plan the current
state is, ``None`` once play has left the example).
"""

from __future__ import annotations

from typing import Any

__all__ = ["FollowsExample"]


class FollowsExample:
    """``next_move`` and ``play_all`` for a stepper that follows an example's plan."""

    example: Any
    stepper: Any
    _plan: list[Any]
    _plan_error: str
    #: What to say when no example is loaded (how to load one).
    _load_hint: str = "No example is loaded."

    def _position(self) -> int | None:  # pragma: no cover - every system defines it
        raise NotImplementedError

    def next_move(self) -> None:
        """Play the example's next move: cards or rolls at a chance step, else its next
        decision (or the referee's best choice where the example leaves one out)."""
        if self.example is None:
            self.stepper.refuse(self._load_hint)
            return
        k = self._position()
        if k is None:
            self.stepper.refuse("Play has left the example here: press Back to return to it, or Restart.")
            return
        if k >= len(self._plan):
            self.stepper.refuse(self._plan_error or "The example is played out.")
            return
        move = self._plan[k]
        if move.chance:
            self.stepper.type_outcome(move.text)
        else:
            self.stepper.choose(move.text)

    def play_all(self) -> None:
        """Play the example's remaining moves, each one a move Back can undo."""
        while self.example is not None:
            k = self._position()
            if k is None or k >= len(self._plan):
                break
            self.next_move()
            if self.stepper.error:
                break
        if self.example is not None and self._plan_error and self._position() == len(self._plan):
            self.stepper.refuse(self._plan_error)
