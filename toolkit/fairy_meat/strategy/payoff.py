"""What an attack is worth to the attacker: the zero-sum payoff the strategy solvers use.

By default one attack is worth the damage dealt to the defender minus the points the
defender scores (FM-10, FM-11), each point valued 1. A designer can weigh them
differently, and give the Ace of Spades' Nasty Hit (FM-12) a value of its own.

>>> from toolkit.fairy_meat.referee import Play, resolve_attack
>>> r = resolve_attack(
...     Play("3D", trumps=("KS", "QC"), direction="subtract"), Play("2D", trumps=("KC",), direction="add")
... )
>>> Payoff().of(r)  # the worked example's first attack: Sparklespaz scores 1 point
Fraction(-1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.referee import AttackResult

__all__ = ["Payoff", "PayoffTerms", "payoff_terms"]


def _weight(name: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction | str):
        raise InvalidSetupError(
            f"payoff weight {name}={value!r} must be a whole number or an exact fraction such as '1/2' "
            "(floats are not exact)"
        )
    try:
        w = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise InvalidSetupError(f"payoff weight {name}={value!r} is not a number such as 1, 0 or '1/2'") from None
    if w < 0:
        raise InvalidSetupError(f"payoff weight {name}={value!r} must be 0 or more")
    return w


class PayoffTerms(NamedTuple):
    """What every :class:`Payoff` reads of judged attacks, before its weights: the damage
    dealt to the defender minus the damage the attacker takes (FM-10, FM-14), minus the
    points the defender scores when she wins (FM-11), and the Nasty Hits to the defender
    minus those to the attacker (FM-12). Terms add up and scale by exact probabilities
    like the payoffs they stand for (:meth:`Payoff.price` is linear), so a game valued in
    terms once is valued for any payoff by pricing its sums: the same exact fractions.
    Each term is exact (a whole number or a ``Fraction``); ``+`` and ``*`` are those of
    the terms (not a tuple's)."""

    damage: int | Fraction = 0
    points: int | Fraction = 0
    nasty_hits: int | Fraction = 0

    def __add__(self, other: Any) -> PayoffTerms:  # type: ignore[override]
        if isinstance(other, PayoffTerms):
            a, b, c = self
            x, y, z = other
            # a term 0 (most Nasty Hits, say) costs no exact arithmetic
            return PayoffTerms(a + x if a and x else a or x, b + y if b and y else b or y, c + z if c and z else c or z)
        if isinstance(other, int | Fraction) and other == 0:  # sum(..., Fraction(0)) starts from 0
            return self
        return NotImplemented

    __radd__ = __add__

    def __mul__(self, k: Any) -> PayoffTerms:  # type: ignore[override]
        if not isinstance(k, int | Fraction):
            return NotImplemented
        a, b, c = self
        return PayoffTerms(a * k if a else 0, b * k if b else 0, c * k if c else 0)

    __rmul__ = __mul__  # type: ignore[assignment]


def payoff_terms(result: AttackResult) -> PayoffTerms:
    """Return what a payoff reads of one judged attack (:class:`PayoffTerms`, FM-10..FM-12, FM-14)."""
    points = result.points if result.winner == "defender" and result.attacker_damage == 0 else 0
    nasty = sum(1 if side == "defender" else -1 for side in result.nasty_hit_to)
    return PayoffTerms(result.damage - result.attacker_damage, -points, nasty)


@dataclass(frozen=True)
class Payoff:
    """Weights of the zero-sum payoff, from the attacker's side (the defender gets minus it).

    Attributes:
        damage: value of each point of damage dealt to the defender (FM-10); damage the
            attacker takes when Wrestling (FM-14) counts against her at the same weight.
        defender_points: value, against the attacker, of each point the defender scores
            when she wins an attack (FM-11: extra cards or a next-defence bonus).
        nasty_hit: value of a Nasty Hit (FM-12) to the defender; against the attacker if
            she suffers it.

    Weights are whole numbers or exact fractions (``"1/2"``), never negative, so every
    chooser's best reveal, bonus and shifts (the referee's choice) stay best for her.
    """

    damage: Fraction | int | str = 1
    defender_points: Fraction | int | str = 1
    nasty_hit: Fraction | int | str = 0

    def __post_init__(self) -> None:
        for name in ("damage", "defender_points", "nasty_hit"):
            object.__setattr__(self, name, _weight(name, getattr(self, name)))

    def of(self, result: AttackResult) -> Fraction:
        """Return the attacker's payoff for one judged attack (an exact ``Fraction``)."""
        return self.price(payoff_terms(result))

    def price(self, terms: PayoffTerms) -> Fraction:
        """Return the attacker's payoff of :class:`PayoffTerms` (of one attack, or summed and
        weighted by exact probabilities): each term times its weight."""
        return (
            Fraction(self.damage) * terms.damage
            + Fraction(self.defender_points) * terms.points
            + Fraction(self.nasty_hit) * terms.nasty_hits
        )

    def label(self) -> str:
        """Return the payoff in words, e.g. ``'damage - defender points'``."""
        parts = []
        for name, text, sign in (
            ("damage", "damage", "+"),
            ("defender_points", "defender points", "-"),
            ("nasty_hit", "Nasty Hits", "+"),
        ):
            w = Fraction(getattr(self, name))
            if w:
                parts.append(f"{sign} {'' if w == 1 else f'{w}×'}{text}")
        text = " ".join(parts).lstrip("+ ").strip()
        return text or "0"
