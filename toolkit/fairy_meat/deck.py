"""The Fairy Meat deck: card kinds, card types and what a hand or a draw can hold (FM-1, FM-6, FM-12).

This is the one card vocabulary every Fairy Meat module speaks. A card's effect depends
only on its **type** (FM-1, FM-12): a Numbered card by its pips and colour (18 types),
a Trump by its colour, and the A♠ apart (the Nasty Hit): 21 types in all, numbered

- ``0..8``: red 2..10, ``9..17``: black 2..10 (:func:`numbered_type`);
- ``18`` (:data:`RED_TRUMP`), ``19`` (:data:`BLACK_TRUMP`: J Q K of spades, J Q K A of
  clubs), ``20`` (:data:`ACE_TRUMP`, the A♠).

:func:`type_index` is the one definition; :func:`card_type` (the engine's readable key)
and :data:`TRUMP_LETTERS` (the odds calculator's letters) are names for the same types.
:func:`type_caps` is the rules' deck by type, :func:`hands_by_type` enumerates hands by
type with their number of deals, and :func:`wild_draw_ways` is the Wild Trump draw law
(FM-6). What the deck holds is read from the ``Rules`` in force, never from a constant:
the draft's deck is ``Rules()``.

>>> type_index(Card("5D")), type_index(Card("10S")), type_index(Card("QH")), type_index(Card("AS"))
(3, 17, 18, 20)
>>> card_type(Card("5D")), card_type(Card("KC")), card_type(Card("AS"))
('5red', 'Tblack', 'AS')
>>> sum(type_caps()), sum(w for _, w in hands_by_type(2, type_caps()))
(52, 1326)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import comb

from toolkit.cards import JOKERS, RANKS, SUITS, Card
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.rules import Rules
from toolkit.rulings import implements

__all__ = [
    "ACE_TRUMP",
    "BLACK_TRUMP",
    "COLOURS",
    "N_TYPES",
    "RED_TRUMP",
    "TRUMP_LETTERS",
    "TYPE_NAMES",
    "JOKER_TRUMP",
    "card_type",
    "deck_cards",
    "is_death_card",
    "death_colour",
    "n_types",
    "numbered_mask",
    "numbered_pips",
    "standard_layout",
    "trump_pools",
    "type_caps",
    "hands_by_type",
    "is_numbered",
    "is_trump",
    "numbered_type",
    "type_colour",
    "type_index",
    "type_name",
    "type_pips",
    "representative_hand",
    "wild_draw_probability",
    "wild_draw_ways",
]

#: The two colours (FM-1): hearts and diamonds red, spades and clubs black.
COLOURS = ("red", "black")

#: The card types (FM-1, FM-12): 18 Numbered slots (pips 2..10 of each colour, whichever
#: the rules' deck holds), the red Trumps, the black Trumps but the death card, the death
#: card; :data:`JOKER_TRUMP` after them when the rules add jokers. How many cards each
#: type holds is the rules' (:func:`type_caps`).
N_TYPES = 21
RED_TRUMP, BLACK_TRUMP, ACE_TRUMP = 18, 19, 20
#: The odds calculator's letters for the Trump types: ``R`` red, ``B`` black but the A♠, ``S`` the A♠.
TRUMP_LETTERS = {RED_TRUMP: "R", BLACK_TRUMP: "B", ACE_TRUMP: "S"}


#: The joker type (house rules ``Rules(jokers=...)``, FM-1): index 21, after the A♠.
JOKER_TRUMP = 21
_DEFAULT = Rules()


@implements("FM-1 numbered")
def is_numbered(card: Card, rules: Rules | None = None) -> bool:
    """Whether a card is a Numbered card, worth its pips (FM-1): 2–10, or the ranks of
    ``rules.numbered_ranks``."""
    return card.rank in (rules or _DEFAULT).numbered_ranks


@implements("FM-1 trump")
def is_trump(card: Card, rules: Rules | None = None) -> bool:
    """Whether a card is a Trump (FM-1): J, Q, K or A, or the ranks of ``rules.trump_ranks``
    (and a joker when the rules put jokers in the deck)."""
    rules = rules or _DEFAULT
    if card.is_joker:
        return rules.jokers > 0
    return card.rank in rules.trump_ranks


def is_death_card(card: Card, rules: Rules | None = None) -> bool:
    """Whether a card gives a Nasty Hit when applied (FM-12): the A♠, or ``rules.death_card``."""
    death_card = (rules or _DEFAULT).death_card
    return death_card is not None and card.code == death_card


@cache
@implements("FM-1")
def deck_cards(rules: Rules | None = None) -> tuple[Card, ...]:
    """The deck the rules play with (FM-1): the cards of the Numbered and Trump ranks of
    the four suits (52 by default), then the jokers, in a fixed order (by suit, then rank)."""
    rules = rules or _DEFAULT
    ranks = set(rules.numbered_ranks) | set(rules.trump_ranks)
    cards = [Card(r + s) for s in SUITS for r in RANKS if r in ranks]
    return tuple(cards + [Card(j) for j in JOKERS[: rules.jokers]])


@cache
def trump_pools(rules: Rules | None = None) -> dict[str, tuple[Card, ...]]:
    """Representative Trumps of each colour but the death card (FM-1, FM-12), in the order
    a side takes them: the attacker from the front, the defender from the back, so two
    representative hands never share a card.

    >>> [c.code for c in trump_pools()["black"]]
    ['JS', 'QS', 'KS', 'JC', 'QC', 'KC', 'AC']
    """
    rules = rules or _DEFAULT
    out = {}
    for colour, suits in (("red", "HD"), ("black", "SC")):
        cards = [Card(r + s) for s in suits for r in rules.trump_ranks]
        out[colour] = tuple(c for c in cards if not is_death_card(c, rules))
    return out


@cache
def type_caps(rules: Rules | None = None) -> tuple[int, ...]:
    """How many cards of each type the rules' deck holds (FM-1): by default two of each
    Numbered type (two suits a colour), then 8 red Trumps, 7 black Trumps but the A♠, the
    A♠; a rank out of the Numbered ranks has 0 Numbered cards, the Trump types count the
    Trump ranks' cards, and with jokers a 22nd type (:data:`JOKER_TRUMP`) holds them.

    >>> type_caps()[RED_TRUMP:], sum(type_caps())
    ((8, 7, 1), 52)
    """
    rules = rules or _DEFAULT
    caps = [0] * 21
    for card in deck_cards(rules):
        if not card.is_joker:
            caps[type_index(card, rules)] += 1
    return tuple(caps) + ((rules.jokers,) if rules.jokers else ())


@cache
def numbered_mask(rules: Rules | None = None) -> int:
    """The Numbered types (0..17) the rules' deck holds, as a bit mask (FM-1): all 18 by
    default; a rank out of the Numbered ranks has none."""
    caps = type_caps(rules)
    return sum(1 << t for t in range(18) if caps[t])


@cache
def numbered_pips(rules: Rules | None = None) -> tuple[int, ...]:
    """The pips of the rules' Numbered cards (FM-1), lowest first: 2..10 by default."""
    return tuple(int(r) for r in (rules or _DEFAULT).numbered_ranks)


def n_types(rules: Rules | None = None) -> int:
    """The number of card types under the rules (FM-1): 21, 22 with jokers."""
    return N_TYPES + (1 if (rules or _DEFAULT).jokers else 0)


def standard_layout(rules: Rules | None) -> bool:
    """Whether the rules' deck has the draft's card types (FM-1, FM-12): 2-10 Numbered,
    J Q K A Trumps, no jokers and the A♠ the death card — what the counting models and
    solvers built on the default :func:`type_caps` assume."""
    return rules is None or (
        rules.numbered_ranks == _DEFAULT.numbered_ranks
        and rules.trump_ranks == _DEFAULT.trump_ranks
        and rules.jokers == 0
        and rules.death_card == "AS"
    )


def numbered_type(colour: str, pips: int) -> int:
    """The type index of a Numbered card of ``colour`` and ``pips`` (FM-1): 0..17."""
    return (0 if colour == "red" else 9) + pips - 2


def type_colour(t: int, rules: Rules | None = None) -> str | None:
    """The colour of card type ``t`` (FM-1): the death card's own colour (FM-12), ``None``
    for a joker."""
    if t < 18:
        return "red" if t < 9 else "black"
    if t == ACE_TRUMP and (death_card := (rules or _DEFAULT).death_card) is not None:
        return _colour_of(death_card)
    if t == JOKER_TRUMP:
        return None
    return "red" if t == RED_TRUMP else "black"


@cache
def _colour_of(code: str) -> str | None:
    return Card(code).colour


def death_colour(rules: Rules | None = None) -> str:
    """The colour of the rules' death card (FM-12): black (the A♠) by default, and when
    there is none (then no card has the type :data:`ACE_TRUMP`)."""
    return type_colour(ACE_TRUMP, rules) or "black"


def type_pips(t: int) -> int:
    """The pips of Numbered card type ``t`` (0..17) (FM-1)."""
    return t % 9 + 2


@implements("FM-1 types")
def type_index(card: Card, rules: Rules | None = None) -> int:
    """The card's type, all its effect depends on (FM-1, FM-12), as an index 0..20 (21: a
    joker): the one definition of the Fairy Meat card types, under ``rules``."""
    if is_numbered(card, rules):
        return numbered_type(card.colour or "black", card.pips or 0)
    if card.is_joker:
        return JOKER_TRUMP
    if is_death_card(card, rules):
        return ACE_TRUMP
    return RED_TRUMP if card.colour == "red" else BLACK_TRUMP


def type_name(t: int) -> str:
    """Readable name of card type ``t``: ``'5 red'``, ``'10 black'``, ``'red Trump'``,
    ``'black Trump'`` (J Q K of spades, J Q K A of clubs) or ``'A♠'`` (FM-1, FM-12)."""
    if t < 18:
        return f"{type_pips(t)} {type_colour(t)}"
    return {RED_TRUMP: "red Trump", BLACK_TRUMP: "black Trump", ACE_TRUMP: "A♠", JOKER_TRUMP: "joker"}[t]


#: Names of the 21 card types, by index.
TYPE_NAMES: tuple[str, ...] = tuple(type_name(t) for t in range(N_TYPES))
_TYPE_KEYS: tuple[str, ...] = tuple(
    f"{type_pips(t)}{type_colour(t)}" if t < 18 else ("AS" if t == ACE_TRUMP else f"T{type_colour(t)}")
    for t in range(N_TYPES)
) + ("joker",)


def card_type(card: Card, rules: Rules | None = None) -> str:
    """The card's type (:func:`type_index`) as a readable key (FM-1, FM-12): ``'AS'`` (the
    A♠, or the rules' death card), ``'Tred'`` / ``'Tblack'`` (other Trumps, by colour),
    ``'joker'``, or pips and colour (``'5black'``)."""
    return _TYPE_KEYS[type_index(card, rules)]


def representative_hand(counts: Sequence[int], side: int, rules: Rules | None = None) -> list[Card]:
    """Cards standing for a hand of 21 type counts (22 with jokers) (FM-1): Numbered cards
    in type order (hearts/spades first for the attacker, ``side`` 0; diamonds/clubs first
    for the defender, 1), then red Trumps, black Trumps and the death card (the A♠) from
    :func:`trump_pools`, then jokers (JK1 for the attacker first)."""
    cards: list[Card] = []
    for t in range(18):
        colour, pips = type_colour(t), type_pips(t)
        suits = ("H", "D") if colour == "red" else ("S", "C")
        if side == 1:
            suits = suits[::-1]
        cards += [Card(f"{pips}{s}") for s in suits[: counts[t]]]
    source = trump_pools(rules)
    pools = {c: (source[c] if side == 0 else source[c][::-1]) for c in COLOURS}
    cards += list(pools["red"][: counts[RED_TRUMP]]) + list(pools["black"][: counts[BLACK_TRUMP]])
    if counts[ACE_TRUMP]:
        death_card = (rules or _DEFAULT).death_card
        if death_card is None:
            raise InvalidSetupError("the rules have no death card (FM-12): a hand holds none")
        cards.append(Card(death_card))
    if len(counts) > JOKER_TRUMP and counts[JOKER_TRUMP]:
        present = JOKERS[: rules.jokers] if rules is not None else JOKERS
        jokers = [Card(j) for j in (present if side == 0 else present[::-1])]
        cards += jokers[: counts[JOKER_TRUMP]]
    return cards


def hands_by_type(n: int, caps: Sequence[int]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every hand of ``n`` cards by type, with how many hands of cards it stands for (FM-1):
    ``(counts, ways)``, ``counts[t] <= caps[t]``, ways = Π_t C(caps[t], counts[t]) — a
    multivariate hypergeometric. Hands come in increasing order of the counts, the first
    type varying slowest; ``caps`` is the deck by type (:func:`type_caps` of the rules) or
    grouped any way (e.g. Numbered, red, black, A♠)."""
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
@implements("FM-6 draw law")
def wild_draw_ways(trumps_left: tuple[int, ...], turned: tuple[int, ...]) -> int:
    """The Wild Trump draw law (FM-6): cards are turned up until a Numbered card appears,
    so the Trumps turned up before it are an ordered draw without replacement. Returns
    the number of ordered ways to turn up ``turned`` Trumps of each kind first from a deck
    holding ``trumps_left`` of each — the kinds (red, black but the A♠, A♠) of the draft's
    deck, and a fourth, the jokers, when the rules add them (:func:`trump_kind_caps`):
    Π C(T_i, t_i) · (Σ t_i)!. Times the Numbered cards left and divided by
    deck_(Σ t_i + 1) it is the probability (:func:`wild_draw_probability`)."""
    ways = math.factorial(sum(turned))
    for big, small in zip(trumps_left, turned, strict=True):
        ways *= comb(big, small)
    return ways


def wild_draw_probability(trumps_left: tuple[int, ...], deck: int, turned: tuple[int, ...]) -> Fraction:
    """P(the Trumps turned up before the first Numbered card are ``turned``) from a deck
    of ``deck`` cards holding ``trumps_left`` Trumps by type (FM-6), as a Fraction."""
    numbered = deck - sum(trumps_left)
    return Fraction(wild_draw_ways(trumps_left, turned) * numbered, math.perm(deck, sum(turned) + 1))


#: The suits' symbols, as the draft writes cards (A♠).
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def death_card_name(rules: Rules | None = None) -> str:
    """The rules' death card as the draft writes it (FM-12): ``'A♠'`` by default, ``'A♥'``
    for ``death_card="AH"``, ``'no death card'`` when there is none."""
    code = (rules or _DEFAULT).death_card
    if code is None:
        return "no death card"
    card = Card(code)
    return f"{card.rank}{SUIT_SYMBOLS[card.suit or 'S']}"


def type_name_under(t: int, rules: Rules | None = None) -> str:
    """Readable name of card type ``t`` under ``rules`` (FM-1, FM-12): :func:`type_name`,
    with the rules' death card (``'A♥'``) for :data:`ACE_TRUMP`."""
    return death_card_name(rules) if t == ACE_TRUMP else type_name(t)


def trump_kind_caps(rules: Rules | None = None) -> tuple[int, ...]:
    """The rules' Trumps by type, in type order (FM-1, FM-12): red and black but the death
    card, the death card, then the jokers when there are any — ``type_caps(rules)[18:]``,
    (8, 7, 1) by default."""
    return type_caps(rules)[RED_TRUMP:]
