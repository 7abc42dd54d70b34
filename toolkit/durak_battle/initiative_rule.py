"""Initiative (DB-3): which side attacks first.

>>> from toolkit.cards import parse_cards
>>> initiative_holder(parse_cards("7S 9H"), parse_cards("10S"))  # b's 10 of spades is higher
1
>>> initiative_holder(parse_cards("9H"), parse_cards("3C")) is NO_CLASH  # no attack card: no clash
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from toolkit.cards import Card
from toolkit.durak_battle.clash import card_value
from toolkit.durak_battle.rules import CARD_ID, CARD_ORDER, Rules
from toolkit.rulings import implements

__all__ = ["NO_CLASH", "NoClash", "TIE_COIN", "attack_cards", "attack_ids", "initiative_holder", "initiative_of_ids"]


class NoClash:
    """The initiative when neither side holds an attack card: no clash this round (DB-3).
    A named value, not a side: a side is 0 or 1, and ``names[NO_CLASH]`` is an error
    where ``names[-1]`` would quietly name side b."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoClash)

    def __hash__(self) -> int:
        return hash(NoClash)

    def __repr__(self) -> str:
        return "NO_CLASH"

    def __reduce__(self) -> str:
        return "NO_CLASH"  # unpickled as the module's one NO_CLASH, so ``is NO_CLASH`` holds in a worker too


#: :func:`initiative_holder` when neither side holds an attack card: no clash this round (DB-3).
NO_CLASH = NoClash()

#: Each side's chance to win the coin flip when the attack cards tie all the way (DB-3:
#: joker against joker, then the next highest spades; still tied, 50/50).
TIE_COIN = Fraction(1, 2)

_DEFAULT = Rules()

#: Each card id's value for comparisons (DB-1, :func:`~.clash.card_value`), by id.
_VALUE = tuple(card_value(c) for c in CARD_ORDER)


def _ids(hand: Iterable[Card]) -> tuple[int, ...]:
    """A hand's card ids (:data:`~.rules.CARD_ORDER`), in the hand's order."""
    return tuple(CARD_ID[c.code] for c in hand)


@implements("DB-3 attack cards")
def attack_ids(hand: Iterable[int], rules: Rules | None = None) -> list[int]:
    """:func:`attack_cards` on card ids (:data:`~.rules.CARD_ORDER`): the ids of a hand that
    can attack (DB-1), highest first, two jokers in the order they are held: the cards
    compared for the initiative (DB-3)."""
    can = (rules or _DEFAULT).tables.attack_ids
    return sorted((i for i in hand if i in can), key=_VALUE.__getitem__, reverse=True)


def attack_cards(hand: Sequence[Card], rules: Rules | None = None) -> list[Card]:
    """The cards of a hand that can attack: the attack suit's (spades by default) and
    jokers (DB-1), highest first (two jokers in the order they are held) — compared for
    the initiative (DB-3) and offered as attacks (DB-6)."""
    return [CARD_ORDER[i] for i in attack_ids(_ids(hand), rules)]


@implements("DB-3", "DB-3 joker")
def initiative_of_ids(ids_a: Iterable[int], ids_b: Iterable[int], rules: Rules | None = None) -> int | NoClash | None:
    """:func:`initiative_holder` on card ids (:data:`~.rules.CARD_ORDER`), as the calculators
    hold hands: 0 or 1, ``None`` for a coin flip, or :data:`NO_CLASH` (DB-3)."""
    can = (rules or _DEFAULT).tables.attack_ids
    value = _VALUE
    va = [value[i] for i in ids_a if i in can]  # lists, not generators: asked at every deal
    vb = [value[i] for i in ids_b if i in can]
    va.sort(reverse=True)
    vb.sort(reverse=True)
    if not va and not vb:
        return NO_CLASH
    for x, y in zip(va, vb, strict=False):
        if x != y:
            return 0 if x > y else 1
    if len(va) != len(vb):
        return 0 if len(va) > len(vb) else 1
    return None


def initiative_holder(
    hand_a: Sequence[Card], hand_b: Sequence[Card], rules: Rules | None = None
) -> int | NoClash | None:
    """Return 0 or 1 for the side that takes the initiative, ``None`` for a coin flip, or
    :data:`NO_CLASH` when neither side can attack (DB-3, :func:`initiative_of_ids`).

    The side with the highest attack card (of the attack suit, spades by default, or a
    joker) wins; with equal tops (joker against joker) the next attack cards are
    compared, and so on; identical lists are a coin flip (``None``).
    """
    return initiative_of_ids(_ids(hand_a), _ids(hand_b), rules)
