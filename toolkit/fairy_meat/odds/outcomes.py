"""The records the odds report: one attack's outcome (FM-9, FM-10, FM-12) and a hand's make-up (FM-1)."""

from __future__ import annotations

from typing import NamedTuple

from toolkit.fairy_meat.referee import AttackResult
from toolkit.outcome_names import Side, field_values, sides

__all__ = ["AttackOutcome", "SIDES", "outcome_of", "with_sides", "HandComposition"]


class AttackOutcome(NamedTuple):
    """The result of one attack, as the odds report it.

    Attributes:
        winner: ``"attacker"``, ``"defender"`` (in the odds results, the :data:`SIDES`:
            comparing with a side that is neither raises) or ``"draw"`` (FM-9: equal final values).
        points: points scored by the winner, ceil(difference / 2) (FM-10); 0 for a draw.
        damage: damage the defender takes (FM-10: 1 per point, or by the damage table
            with ``Rules(damage="table")``).
        nasty_hit: whether the A♠ gives someone a Nasty Hit (FM-12).

    The final values themselves are not part of the record: what a designer tunes is
    who wins and by how much, and the same cards can reach the same result at many
    values.
    """

    winner: str
    points: int
    damage: int
    nasty_hit: bool

    #: What ``winner`` holds: a side (:data:`SIDES`) or ``"draw"``.
    FIELD_VALUES = field_values(winner=(Side, "draw"))


#: The two sides of an attack (:class:`~toolkit.outcome_names.Side`: a name the odds
#: results' ``winner`` equals, so that a misspelt side raises rather than counting 0%).
SIDES: dict[str, Side] = {s.role: s for s in sides(("attacker", "attacker"), ("defender", "defender"), words=("draw",))}


def with_sides(outcome: AttackOutcome) -> AttackOutcome:
    """The outcome with its winner as the attack's :data:`SIDES` (a draw stays ``"draw"``):
    what the odds calculators hand out, after counting with plain words."""
    return outcome._replace(winner=SIDES.get(outcome.winner, outcome.winner))


def outcome_of(result: AttackResult) -> AttackOutcome:
    """Return the :class:`AttackOutcome` of a referee judgement."""
    return AttackOutcome(result.winner or "draw", result.points, result.damage, result.nasty_hit)


class HandComposition(NamedTuple):
    """What a combat hand holds, by kind (FM-1), under the rules' deck.

    Attributes:
        numbered: Numbered cards (2-10, or the rules' Numbered ranks).
        red_trumps: red Trumps (J Q K A of hearts and diamonds, or the rules' Trump ranks).
        black_trumps: black Trumps, the A♠ included.
        ace_of_spades: whether the death card is among them (FM-12: the A♠, or
            ``Rules.death_card``, counted with the Trumps of its colour).
        jokers: jokers (``Rules(jokers=...)``: Trumps of no colour).
    """

    numbered: int
    red_trumps: int
    black_trumps: int
    ace_of_spades: bool
    jokers: int = 0

    @property
    def death_card(self) -> bool:
        """Whether the rules' death card is in the hand (FM-12): :attr:`ace_of_spades`."""
        return self.ace_of_spades
