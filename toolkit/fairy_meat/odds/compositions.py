"""What combat hands hold, by kind: exact hypergeometric distributions (FM-1, FM-2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache

from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    BLACK_TRUMPS_BUT_ACE,
    DECK_SIZE,
    NUMBERED_CARDS,
    RED_TRUMPS,
    TYPE_CAPS,
    hands_by_type,
)
from toolkit.fairy_meat.odds.checks import check_hand_size
from toolkit.fairy_meat.odds.outcomes import HandComposition
from toolkit.prob import Distribution

__all__ = ["hand_splits", "composition_of", "hand_composition", "hand_compositions", "trump_comps", "composition_pairs"]


@cache
def hand_splits(
    n: int, numbered: int = NUMBERED_CARDS, red: int = RED_TRUMPS, black: int = BLACK_TRUMPS_BUT_ACE, ace: int = 1
) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    """(numbered, red, black but the A♠, A♠) counts of an ``n``-card hand and how many hands
    (:func:`~toolkit.fairy_meat.deck.hands_by_type` over those four kinds)."""
    return tuple(((k, r, b, s), w) for (s, r, b, k), w in hands_by_type(n, (ace, red, black, numbered)))


def composition_of(k: int, r: int, b: int, s: int) -> HandComposition:
    return HandComposition(k, r, b + s, bool(s))


def hand_composition(n: int) -> Distribution[HandComposition]:
    """Return the exact distribution of what an ``n``-card combat hand holds (FM-1):
    Numbered cards, red Trumps, black Trumps (A♠ included) and the A♠ — a multivariate
    hypergeometric over the 52-card deck.

    >>> hand_composition(1).probability(lambda h: h.ace_of_spades)
    Fraction(1, 52)

    Raises:
        InvalidSetupError: ``n`` is not a whole number from 0 to 52.
    """
    n = check_hand_size(n, "the hand size")
    weights: dict[HandComposition, int] = {}
    for (k, r, b, s), w in hand_splits(n):
        key = composition_of(k, r, b, s)
        weights[key] = weights.get(key, 0) + w
    return Distribution.from_int_weights(weights)


def hand_compositions(a: int, d: int) -> Distribution[tuple[HandComposition, HandComposition]]:
    """Return the joint distribution of the attacker's ``a``-card hand and the defender's
    ``d``-card hand, dealt one after the other from one deck (FM-1, FM-2): pairs
    ``(attacker's HandComposition, defender's)``.

    >>> hand_compositions(1, 1).probability(lambda p: p[0].ace_of_spades and p[1].ace_of_spades)
    Fraction(0, 1)

    Raises:
        InvalidSetupError: a size that is not a whole number, or hands larger than the deck.
    """
    a = check_hand_size(a, "the attacker's hand size")
    d = check_hand_size(d, "the defender's hand size")
    if a + d > DECK_SIZE:
        raise InvalidSetupError(f"hands of {a} and {d} cards need {a + d} cards: the deck holds {DECK_SIZE} (FM-1)")
    weights: dict[tuple[HandComposition, HandComposition], int] = {}
    for (ka, ra, ba, sa), wa in hand_splits(a):
        rest = (NUMBERED_CARDS - ka, RED_TRUMPS - ra, BLACK_TRUMPS_BUT_ACE - ba, 1 - sa)
        for (kd, rd, bd, sd), wd in hand_splits(d, *rest):
            key = (composition_of(ka, ra, ba, sa), composition_of(kd, rd, bd, sd))
            weights[key] = weights.get(key, 0) + wa * wd
    return Distribution.from_int_weights(weights)


@cache
def trump_comps(
    n: int, red: int = RED_TRUMPS, black: int = BLACK_TRUMPS_BUT_ACE, ace: int = 1, numbered: int = NUMBERED_CARDS
) -> tuple[tuple[int, int, int], ...]:
    """The (red, black but the A♠, A♠) Trump counts an ``n``-card hand may hold (FM-1)."""
    return tuple((r, b, s) for (_, r, b, s), _ in hand_splits(n, numbered, red, black, ace))


def composition_pairs(a: int, d: int, caps: Sequence[int] = TYPE_CAPS) -> int:
    """Return the number of pairs of hand compositions (counts of each card type, at most
    ``caps[t]`` of type ``t`` between the two hands) of ``a`` and ``d`` cards, without
    listing them: the coefficient of x^a y^d in the product over types of
    sum_{i+j<=cap} x^i y^j."""
    poly = {(0, 0): 1}
    for cap in caps:
        new: dict[tuple[int, int], int] = defaultdict(int)
        for (i, j), c in poly.items():
            for x in range(min(cap, a - i) + 1):
                for y in range(min(cap - x, d - j) + 1):
                    new[(i + x, j + y)] += c
        poly = new
    return poly.get((a, d), 0)
