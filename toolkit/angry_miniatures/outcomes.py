"""The outcomes the engine and the calculators share: one attack against one defender, the
attacks a target took (AM-10) and how a melee exchange ended."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, total_ordering
from typing import Any, ClassVar

from toolkit.outcome_names import Side, field_values

__all__ = ["AttackOutcome", "ExchangeEnd", "MoreThan", "attack_outcome"]


@dataclass(frozen=True, order=True, slots=True)
class AttackOutcome:
    """What one attack did to one defender (AM-3, AM-4, AM-7).

    Attributes:
        defender_damage: damage dealt to the defender.
        attacker_damage: damage dealt back to the attacker (melee only, AM-3).
        attacker_crit, defender_crit: whether each side's roll crit (2+ Aces, AM-7).
    """

    defender_damage: int
    attacker_damage: int
    attacker_crit: bool
    defender_crit: bool

    @property
    def hit(self) -> bool:
        """Whether the attack succeeded (the defender took damage)."""
        return self.defender_damage > 0

    def __str__(self) -> str:
        parts = []
        if self.defender_damage:
            parts.append(f"{self.defender_damage} damage to defender")
        if self.attacker_damage:
            parts.append(f"{self.attacker_damage} damage to attacker")
        if not parts:
            parts.append("no damage")
        if self.attacker_crit:
            parts.append("attacker crits")
        if self.defender_crit:
            parts.append("defender crits")
        return ", ".join(parts)


@cache
def attack_outcome(
    defender_damage: int, attacker_damage: int, attacker_crit: bool, defender_crit: bool
) -> AttackOutcome:
    """Return the (shared, cached) outcome with these fields."""
    return AttackOutcome(defender_damage, attacker_damage, attacker_crit, defender_crit)


@total_ordering
@dataclass(frozen=True)
class MoreThan:
    """An outcome beyond a cap: "more than ``cap`` attacks". Sorts after every number."""

    cap: int

    def __lt__(self, other: object) -> bool:
        if isinstance(other, MoreThan):
            return self.cap < other.cap
        if isinstance(other, int | float | Fraction):
            return False
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, MoreThan):
            return self.cap > other.cap
        if isinstance(other, int | float | Fraction):
            return True
        return NotImplemented

    def __str__(self) -> str:
        return f"more than {self.cap}"


@dataclass(frozen=True, order=True)
class ExchangeEnd:
    """How a melee exchange ended: who is out, and the Health each side has left.

    Attributes:
        out: the character taken out (AM-10): in the odds, a
            :class:`~toolkit.outcome_names.Side`, her name (``"Grunk"``) that equals her
            side (``"attacker"``/``"defender"``) too.
        attacker_health_left, defender_health_left: each side's Health left.
    """

    out: str
    attacker_health_left: int
    defender_health_left: int

    #: What ``out`` holds: a side (:class:`~toolkit.outcome_names.Side`).
    FIELD_VALUES: ClassVar[Mapping[str, tuple[Any, ...]]] = field_values(out=(Side,))
