"""The Fairy Meat deck: card kinds, card types and what a hand or a draw can hold (FM-1, FM-6, FM-12).

This is the one card vocabulary every Fairy Meat module speaks. A card's effect depends
only on its **type** (FM-1, FM-12): a Numbered card by its pips and colour (18 types),
a Trump by its colour, and the A♠ apart (the Nasty Hit): 21 types in all, numbered

- ``0..8``: red 2..10, ``9..17``: black 2..10 (:func:`numbered_type`);
- ``18`` (:data:`RED_TRUMP`), ``19`` (:data:`BLACK_TRUMP`: J Q K of spades, J Q K A of
  clubs), ``20`` (:data:`ACE_TRUMP`, the A♠).

:func:`type_index` is the one definition; :func:`card_type` (the engine's readable key)
and :data:`TRUMP_LETTERS` (the odds calculator's letters) are names for the same types.
:data:`TYPE_CAPS` is the deck's composition by type, :func:`hands_by_type` enumerates
hands by type with their number of deals, and :func:`wild_draw_ways` is the Wild Trump
draw law (FM-6).

>>> type_index(Card("5D")), type_index(Card("10S")), type_index(Card("QH")), type_index(Card("AS"))
(3, 17, 18, 20)
>>> card_type(Card("5D")), card_type(Card("KC")), card_type(Card("AS"))
('5red', 'Tblack', 'AS')
>>> sum(TYPE_CAPS), sum(w for _, w in hands_by_type(2))
(52, 1326)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import comb

from toolkit.cards import Card

__all__ = [
    "ACE_OF_SPADES",
    "ACE_TRUMP",
    "BLACK_TRUMP",
    "BLACK_TRUMPS_BUT_ACE",
    "COLOURS",
    "DECK_SIZE",
    "NUMBERED_CARDS",
    "N_TYPES",
    "PIPS",
    "RED_TRUMP",
    "RED_TRUMPS",
    "TRUMP_LETTERS",
    "TYPE_CAPS",
    "TYPE_NAMES",
    "card_type",
    "hands_by_type",
    "is_numbered",
    "is_trump",
    "numbered_type",
    "type_colour",
    "type_index",
    "type_name",
    "type_pips",
    "TRUMP_POOLS",
    "representative_hand",
    "wild_draw_probability",
    "wild_draw_ways",
]

ACE_OF_SPADES = Card("AS")
#: The deck (FM-1): 36 Numbered cards (2-10 of four suits), 8 red Trumps, 7 black
#: Trumps other than the A♠, and the A♠: 52 cards, no jokers.
NUMBERED_CARDS = 36
RED_TRUMPS = 8
BLACK_TRUMPS_BUT_ACE = 7  # J Q K of spades, J Q K A of clubs
DECK_SIZE = 52
PIPS = range(2, 11)
COLOURS = ("red", "black")

N_TYPES = 21
RED_TRUMP, BLACK_TRUMP, ACE_TRUMP = 18, 19, 20
#: How many cards of each type the deck holds (FM-1): two of each Numbered type (two
#: suits a colour), then the red Trumps, the black Trumps but the A♠, the A♠.
TYPE_CAPS: tuple[int, ...] = (2,) * 18 + (RED_TRUMPS, BLACK_TRUMPS_BUT_ACE, 1)
#: The odds calculator's letters for the Trump types: ``R`` red, ``B`` black but the A♠, ``S`` the A♠.
TRUMP_LETTERS = {RED_TRUMP: "R", BLACK_TRUMP: "B", ACE_TRUMP: "S"}


def is_numbered(card: Card) -> bool:
    """Whether a card is a Numbered card: 2–10, worth its pips (FM-1)."""
    return card.pips is not None


def is_trump(card: Card) -> bool:
    """Whether a card is a Trump: J, Q, K or A, each worth 1 when applied (FM-1)."""
    return card.is_face


def numbered_type(colour: str, pips: int) -> int:
    """The type index of a Numbered card of ``colour`` and ``pips`` (FM-1): 0..17."""
    return (0 if colour == "red" else 9) + pips - 2


def type_colour(t: int) -> str:
    """The colour of card type ``t`` (FM-1)."""
    if t < 18:
        return "red" if t < 9 else "black"
    return "red" if t == RED_TRUMP else "black"


def type_pips(t: int) -> int:
    """The pips of Numbered card type ``t`` (0..17) (FM-1)."""
    return t % 9 + 2


def type_index(card: Card) -> int:
    """The card's type, all its effect depends on (FM-1, FM-12), as an index 0..20: the
    one definition of the Fairy Meat card types."""
    if is_numbered(card):
        return numbered_type(card.colour or "black", card.pips or 0)
    if card == ACE_OF_SPADES:
        return ACE_TRUMP
    return RED_TRUMP if card.colour == "red" else BLACK_TRUMP


def type_name(t: int) -> str:
    """Readable name of card type ``t``: ``'5 red'``, ``'10 black'``, ``'red Trump'``,
    ``'black Trump'`` (J Q K of spades, J Q K A of clubs) or ``'A♠'`` (FM-1, FM-12)."""
    if t < 18:
        return f"{type_pips(t)} {type_colour(t)}"
    return {RED_TRUMP: "red Trump", BLACK_TRUMP: "black Trump", ACE_TRUMP: "A♠"}[t]


#: Names of the 21 card types, by index.
TYPE_NAMES: tuple[str, ...] = tuple(type_name(t) for t in range(N_TYPES))
_TYPE_KEYS: tuple[str, ...] = tuple(
    f"{type_pips(t)}{type_colour(t)}" if t < 18 else ("AS" if t == ACE_TRUMP else f"T{type_colour(t)}")
    for t in range(N_TYPES)
)


def card_type(card: Card) -> str:
    """The card's type (:func:`type_index`) as a readable key (FM-1, FM-12): ``'AS'`` (the
    A♠), ``'Tred'`` / ``'Tblack'`` (other Trumps, by colour), or pips and colour (``'5black'``)."""
    return _TYPE_KEYS[type_index(card)]


#: Representative Trumps of each colour (the A♠ apart), in the order a side takes them:
#: the attacker from the front, the defender from the back, so two representative
#: hands never share a card.
TRUMP_POOLS: dict[str, tuple[Card, ...]] = {
    "red": tuple(Card(c) for c in ("JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD")),
    "black": tuple(Card(c) for c in ("JS", "QS", "KS", "JC", "QC", "KC", "AC")),
}


def representative_hand(counts: Sequence[int], side: int) -> list[Card]:
    """Cards standing for a hand of 21 type counts (FM-1): Numbered cards in type order
    (hearts/spades first for the attacker, ``side`` 0; diamonds/clubs first for the
    defender, 1), then red Trumps, black Trumps and the A♠ from :data:`TRUMP_POOLS`."""
    cards: list[Card] = []
    for t in range(18):
        colour, pips = type_colour(t), type_pips(t)
        suits = ("H", "D") if colour == "red" else ("S", "C")
        if side == 1:
            suits = suits[::-1]
        cards += [Card(f"{pips}{s}") for s in suits[: counts[t]]]
    pools = {c: (TRUMP_POOLS[c] if side == 0 else TRUMP_POOLS[c][::-1]) for c in COLOURS}
    cards += list(pools["red"][: counts[RED_TRUMP]]) + list(pools["black"][: counts[BLACK_TRUMP]])
    if counts[ACE_TRUMP]:
        cards.append(ACE_OF_SPADES)
    return cards


def hands_by_type(n: int, caps: Sequence[int] = TYPE_CAPS) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every hand of ``n`` cards by type, with how many hands of cards it stands for (FM-1):
    ``(counts, ways)``, ``counts[t] <= caps[t]``, ways = Π_t C(caps[t], counts[t]) — a
    multivariate hypergeometric. Hands come in increasing order of the counts, the first
    type varying slowest; ``caps`` may group the deck any way (e.g. Numbered, red, black,
    A♠)."""
    size = len(caps)

    def rec(i: int, left: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if i == size:
            if left == 0:
                yield (), 1
            return
        for x in range(min(caps[i], left) + 1):
            for rest, w in rec(i + 1, left - x):
                yield (x, *rest), comb(caps[i], x) * w

    return rec(0, n)


@cache
def wild_draw_ways(trumps_left: tuple[int, int, int], turned: tuple[int, int, int]) -> int:
    """The Wild Trump draw law (FM-6): cards are turned up until a Numbered card appears,
    so the Trumps turned up before it are an ordered draw without replacement. Returns
    the number of ordered ways to turn up ``turned`` = (red, black but the A♠, A♠)
    Trumps first from a deck holding ``trumps_left`` of each:
    C(R, r) C(B, b) C(S, s) (r + b + s)!. Times the Numbered cards left and divided by
    deck_(r+b+s+1) it is the probability (:func:`wild_draw_probability`)."""
    (big_r, big_b, big_s), (r, b, s) = trumps_left, turned
    return comb(big_r, r) * comb(big_b, b) * comb(big_s, s) * math.factorial(r + b + s)


def wild_draw_probability(trumps_left: tuple[int, int, int], deck: int, turned: tuple[int, int, int]) -> Fraction:
    """P(the Trumps turned up before the first Numbered card are ``turned``) from a deck
    of ``deck`` cards holding ``trumps_left`` Trumps by type (FM-6), as a Fraction."""
    numbered = deck - sum(trumps_left)
    return Fraction(wild_draw_ways(trumps_left, turned) * numbered, math.perm(deck, sum(turned) + 1))
