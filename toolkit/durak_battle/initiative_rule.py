"""Initiative (DB-3): which side attacks first.

>>> from toolkit.cards import parse_cards
>>> initiative_holder(parse_cards("7S 9H"), parse_cards("10S"))  # b's 10 of spades is higher
1
>>> initiative_holder(parse_cards("9H"), parse_cards("3C")) is NO_CLASH  # no attack card: no clash
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle.clash import actions_of, card_value

__all__ = ["NO_CLASH", "TIE_COIN", "attack_cards", "initiative_holder"]

#: :func:`initiative_holder` when neither side holds an attack card: no clash this round (DB-3).
NO_CLASH = -1

#: Each side's chance to win the coin flip when the attack cards tie all the way (DB-3:
#: joker against joker, then the next highest spades; still tied, 50/50).
TIE_COIN = Fraction(1, 2)

# The value of each card that can attack (DB-1), by code, looked up instead of recomputed.
_ATTACK_VALUE = {c.code: card_value(c) for c in standard_deck(jokers=True) if "attack" in actions_of(c)}


def attack_cards(hand: Sequence[Card]) -> list[Card]:
    """The cards of a hand that can attack: spades and jokers (DB-1), highest first (two
    jokers in the order they are held) — compared for the initiative (DB-3) and offered
    as attacks (DB-6)."""
    value = _ATTACK_VALUE
    return sorted((c for c in hand if c.code in value), key=lambda c: value[c.code], reverse=True)


def initiative_holder(hand_a: Sequence[Card], hand_b: Sequence[Card]) -> int | None:
    """Return 0 or 1 for the side that takes the initiative, ``None`` for a coin flip, or
    :data:`NO_CLASH` (-1) when neither side can attack (DB-3).

    The side with the highest attack card (spade or joker) wins; with equal tops (joker
    against joker) the next attack cards are compared, and so on; identical lists are a
    coin flip (``None``).
    """
    value = _ATTACK_VALUE
    va = sorted((value[c.code] for c in hand_a if c.code in value), reverse=True)
    vb = sorted((value[c.code] for c in hand_b if c.code in value), reverse=True)
    if not va and not vb:
        return NO_CLASH
    for x, y in zip(va, vb, strict=False):
        if x != y:
            return 0 if x > y else 1
    if len(va) != len(vb):
        return 0 if len(va) > len(vb) else 1
    return None
