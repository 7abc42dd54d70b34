"""Hands by card type, deals and what a hand can do in the hidden-hands game (FM-1, FM-2, FM-4..FM-6)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

import numpy as np

from toolkit.cards import Card, parse_cards
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    ACE_TRUMP,
    BLACK_TRUMP,
    N_TYPES,
    RED_TRUMP,
    TYPE_CAPS,
    hands_by_type,
    type_index,
)
from toolkit.fairy_meat.legality import (
    Placed,
    playable_types,
    trump_sets_by_type,
    trumps_seen,
)
from toolkit.fairy_meat.odds.compositions import composition_pairs

__all__ = [
    "HIDDEN_LIMIT",
    "placed_size",
    "placed_name",
    "observation_name",
    "deck_caps",
    "hand_types",
    "count_matrix",
    "deal_weights",
    "type_options",
    "observed",
    "check_cards",
    "hidden_size",
]


#: Largest :func:`hidden_size` :func:`solve_hidden` accepts (3 v 2 and 2 v 3 are about 1.8·10^7; 4 v 2
#: and 3 v 3 are several times that and take minutes and gigabytes).
HIDDEN_LIMIT = 20_000_000


def placed_size(p: Placed) -> int:
    return 0 if p is None else p[1] + int(p[2])


def placed_name(p: Placed) -> str:
    if p is None:
        return "None"
    colour, n, ace = p
    parts = []
    if n:
        parts.append(f"{n} {colour}" if colour == "red" else f"{n} black (not A♠)")
    if ace:
        parts.append("A♠")
    return " + ".join(parts)


def observation_name(o: tuple) -> str:
    if o[0] == "none":
        return "None"
    if o[0] == "count":
        return f"{o[1]} hidden"
    return placed_name(o[1])


def deck_caps(removed: Sequence[str | Card]) -> tuple[int, ...]:
    cards = parse_cards(list(removed)) if not isinstance(removed, str) else parse_cards(removed)
    seen: set[Card] = set()
    caps = list(TYPE_CAPS)
    for c in cards:
        if c.is_joker:
            raise InvalidSetupError(f"{c.code} is not in the Fairy Meat deck: 52 cards, no jokers (FM-1)")
        if c in seen:
            raise InvalidSetupError(f"{c.code} is listed twice in removed: each card can be removed once")
        seen.add(c)
        caps[type_index(c)] -= 1
    return tuple(caps)


def hand_types(n: int, caps: Sequence[int] = TYPE_CAPS) -> list[tuple[int, ...]]:
    """Every hand of ``n`` cards by card type: tuples of 21 counts, each within ``caps``
    (:func:`~toolkit.fairy_meat.deck.hands_by_type` without the number of deals)."""
    return [counts for counts, _ in hands_by_type(n, caps)]


def count_matrix(hands_a: np.ndarray, hands_d: np.ndarray, caps: Sequence[int]) -> np.ndarray:
    """Deals of each pair of hand types: Π_t C(n_t, a_t) C(n_t − a_t, d_t), as float64 (exact integers)."""
    out = np.ones((len(hands_a), len(hands_d)))
    table = np.array([[comb(n, k) for k in range(10)] for n in range(10)], dtype=float)
    for t in range(N_TYPES):
        ca, cd = hands_a[:, t], hands_d[:, t]
        if not ca.any() and not cd.any():
            continue
        out *= table[caps[t], ca][:, None]
        left = caps[t] - ca
        out *= table[left[:, None], cd[None, :]]
    return out


def deal_weights(
    attacker_cards: int, defender_cards: int, removed: Sequence[str] = ()
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction]:
    """Exact probability of every pair of hand types (21 counts each) dealt from the deck
    minus ``removed`` (FM-1): P(hA, hD) = Π_t C(n_t, a_t) C(n_t − a_t, d_t) / (C(N, a) C(N − a, d)).

    >>> w = deal_weights(1, 1)
    >>> sum(w.values()), len(w)
    (Fraction(1, 1), 440)
    """
    a, d = check_cards(attacker_cards, "attacker_cards"), check_cards(defender_cards, "defender_cards")
    caps = deck_caps(removed)
    total_cards = sum(caps)
    if a + d > total_cards:
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from a deck of {total_cards} (FM-1)")
    total = comb(total_cards, a) * comb(total_cards - a, d)
    out = {}
    for ha in hand_types(a, caps):
        for hd in hand_types(d, caps):
            n = 1
            for t in range(N_TYPES):
                if ha[t] or hd[t]:
                    n *= comb(caps[t], ha[t]) * comb(caps[t] - ha[t], hd[t])
                    if not n:
                        break
            if n:
                out[(ha, hd)] = Fraction(n, total)
    return out


def _trump_options(hand: Sequence[int]) -> list[Placed]:
    """The sets of Trumps she may place (FM-4): None, or a non-empty set of one colour; with
    no Numbered card she keeps at least one Trump back for a Wild Trump (FM-6). The same
    sets as the engine's ``legal_actions`` at the "trumps" step, by type
    (:func:`~toolkit.fairy_meat.legality.trump_sets_by_type`)."""
    numbered = any(hand[t] for t in range(18))
    return list(trump_sets_by_type(hand[RED_TRUMP], hand[BLACK_TRUMP], hand[ACE_TRUMP], numbered))


def _card_options(hand: Sequence[int], placed: Placed) -> list[int]:
    """Cards she may play (FM-6): every Numbered type she holds; without one, the Trump
    types left after ``placed`` (played as a Wild Trump):
    :func:`~toolkit.fairy_meat.legality.playable_types`."""
    return list(playable_types(tuple(hand), placed))


def type_options(hand: Sequence[int]) -> dict[Placed, list[int]]:
    """The hand's legal plays by type: {Trumps placed (FM-4): [cards she may then play
    (FM-6)]}; Trumps are ``None`` or ``(colour, Trumps but the A♠, A♠ among them)``,
    cards are type indices (18-20: a Trump played as a Wild Trump)."""
    return {p: _card_options(hand, p) for p in _trump_options(hand)}


def observed(other: Placed, mine: Placed) -> tuple:
    """What a fairy sees of the other's Trumps (FM-5): both placed (or both None): the set;
    she said None and the other placed: only how many cards lie face down."""
    seen = trumps_seen(mine is not None, other is not None)
    if seen == "none":
        return ("none",)
    if seen == "count":
        return ("count", placed_size(other))
    return ("set", other)


def check_cards(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidSetupError(f"{what} must be a whole number of cards >= 1, got {n!r}")
    if n > 52:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds 52 (FM-1)")
    return n


def hidden_size(attacker_cards: int, defender_cards: int) -> int:
    """Estimate of the work of :func:`solve_hidden`: pairs of hand types x the plays of
    both (4 declaration pairs, about a+1 and d+1 card-and-Trump choices each), about the
    number of non-zero entries of the payoff matrix it iterates on.

    >>> hidden_size(1, 1), hidden_size(3, 2) <= HIDDEN_LIMIT < hidden_size(4, 2)
    (7040, True)
    """
    a = check_cards(attacker_cards, "attacker_cards")
    d = check_cards(defender_cards, "defender_cards")
    return composition_pairs(a, d, TYPE_CAPS) * 4 * (a + 1) * (d + 1)
