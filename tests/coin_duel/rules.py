"""The coin duel's rules: every number of CD-1 and CD-2 in one frozen ``Rules``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from toolkit.house_rules import HouseRules, RuleFieldError, rule_field

__all__ = ["BOUNDS", "Rules"]

#: Each whole-number field's bounds (lowest, highest): validation and the widgets read them.
BOUNDS: dict[str, tuple[int, int]] = {"max_coins": (1, 10), "tie_rerolls": (0, 5)}


@dataclass(frozen=True)
class Rules(HouseRules):
    """The coin duel's rules (CD-1, CD-2).

    Raises:
        RuleFieldError: a field that is not a whole number within its :data:`BOUNDS`.
    """

    SYSTEM: ClassVar[str] = "coin-duel"

    max_coins: int = rule_field(6, ruling="CD-1", help="the largest pool a side may flip", label="Largest pool")
    tie_rerolls: int = rule_field(2, ruling="CD-2", help="ties rerolled before a draw", label="Tie rerolls")

    def __post_init__(self) -> None:
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleFieldError(name, f"{name} must be a whole number from {low} to {high}, got {value!r}")
