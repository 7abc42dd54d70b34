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
from toolkit.durak_battle.clash import card_value
from toolkit.durak_battle.rules import DEFAULT_SUITS, Rules
from toolkit.rulings import implements

__all__ = ["NO_CLASH", "NoClash", "TIE_COIN", "attack_cards", "initiative_holder"]


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

_VALUE = {c.code: card_value(c) for c in standard_deck(jokers=True)}
_ATTACK_VALUES: dict[tuple[tuple[str, str], ...], dict[str, int]] = {}


def _attack_value(rules: Rules | None) -> dict[str, int]:
    """The value of each card that can attack under ``rules`` (DB-1), by code, looked up
    instead of recomputed (one table per assignment of suits)."""
    suits = rules.suits if rules is not None else DEFAULT_SUITS
    found = _ATTACK_VALUES.get(suits)
    if found is None:
        can = (rules or Rules()).tables.can_attack
        found = _ATTACK_VALUES[suits] = {code: v for code, v in _VALUE.items() if can[code]}
    return found


@implements("DB-3 attack cards")
def attack_cards(hand: Sequence[Card], rules: Rules | None = None) -> list[Card]:
    """The cards of a hand that can attack: the attack suit's (spades by default) and
    jokers (DB-1), highest first (two jokers in the order they are held) — compared for
    the initiative (DB-3) and offered as attacks (DB-6)."""
    value = _attack_value(rules)
    return sorted((c for c in hand if c.code in value), key=lambda c: value[c.code], reverse=True)


@implements("DB-3", "DB-3 joker")
def initiative_holder(
    hand_a: Sequence[Card], hand_b: Sequence[Card], rules: Rules | None = None
) -> int | NoClash | None:
    """Return 0 or 1 for the side that takes the initiative, ``None`` for a coin flip, or
    :data:`NO_CLASH` when neither side can attack (DB-3).

    The side with the highest attack card (of the attack suit, spades by default, or a
    joker) wins; with equal tops (joker against joker) the next attack cards are
    compared, and so on; identical lists are a coin flip (``None``).
    """
    value = _attack_value(rules)
    va = [value[c.code] for c in hand_a if c.code in value]  # lists, not generators: asked at every deal
    vb = [value[c.code] for c in hand_b if c.code in value]
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
