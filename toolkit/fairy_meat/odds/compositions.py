"""What combat hands hold, by kind: exact hypergeometric distributions (FM-1, FM-2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache

from toolkit.cards import Card
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    deck_cards,
    hands_by_type,
    is_death_card,
    is_numbered,
)
from toolkit.fairy_meat.odds.checks import check_hand_size
from toolkit.fairy_meat.odds.outcomes import HandComposition
from toolkit.fairy_meat.rules import Rules
from toolkit.prob import Distribution

__all__ = [
    "hand_splits",
    "composition_of",
    "kind_caps",
    "hand_composition",
    "hand_compositions",
    "trump_comps",
    "composition_pairs",
]


@cache
def hand_splits(
    n: int, numbered: int, red: int, black: int, ace: int
) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    """(numbered, red, black but the A♠, A♠) counts of an ``n``-card hand and how many hands
    (:func:`~toolkit.fairy_meat.deck.hands_by_type` over those four kinds, whose sizes are
    the rules' :func:`kind_caps`)."""
    return tuple(((k, r, b, s), w) for (s, r, b, k), w in hands_by_type(n, (ace, red, black, numbered)))


def composition_of(k: int, r: int, b: int, s: int) -> HandComposition:
    return HandComposition(k, r, b + s, bool(s))


@cache
def kind_caps(rules: Rules | None = None) -> tuple[int, int, int, int, int]:
    """The rules' deck by kind (FM-1, FM-12): (Numbered cards, red Trumps but the death
    card, black Trumps but the death card, death cards, jokers) — (36, 8, 7, 1, 0) by default."""
    counts = [0] * 5
    for c in deck_cards(rules):
        if is_numbered(c, rules):
            counts[0] += 1
        elif is_death_card(c, rules):
            counts[3] += 1
        elif c.is_joker:
            counts[4] += 1
        else:
            counts[1 if c.colour == "red" else 2] += 1
    return tuple(counts)  # type: ignore[return-value]


def _kinds_of(counts: tuple[int, ...], rules: Rules | None) -> HandComposition:
    """The :class:`HandComposition` of counts by kind (:func:`kind_caps`): the death card
    counts with the Trumps of its colour."""
    k, r, b, s, j = counts
    death_red = rules is not None and rules.death_card is not None and Card(rules.death_card).colour == "red"
    return HandComposition(k, r + s * death_red, b + s * (not death_red), bool(s), j)


@cache
def _splits(n: int, caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple(hands_by_type(n, caps))


def hand_composition(n: int, rules: Rules | None = None) -> Distribution[HandComposition]:
    """Return the exact distribution of what an ``n``-card combat hand holds (FM-1):
    Numbered cards, red Trumps, black Trumps, the death card (FM-12: the A♠, counted with
    the black Trumps, or ``rules.death_card`` with the Trumps of its colour) and jokers —
    a multivariate hypergeometric over the rules' deck (52 cards by default).

    >>> hand_composition(1).probability(lambda h: h.ace_of_spades)
    Fraction(1, 52)
    >>> tens = Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A"))
    >>> hand_composition(1, tens).probability(lambda h: h.numbered == 1)  # 32 of 52 cards
    Fraction(8, 13)

    Raises:
        InvalidSetupError: ``n`` is not a whole number from 0 to the deck's size.
    """
    rules = _check_rules(rules)
    n = check_hand_size(n, "the hand size", rules)
    weights: dict[HandComposition, int] = {}
    for counts, w in _splits(n, kind_caps(rules)):
        key = _kinds_of(counts, rules)
        weights[key] = weights.get(key, 0) + w
    return Distribution.from_int_weights(weights)


def hand_compositions(
    a: int, d: int, rules: Rules | None = None
) -> Distribution[tuple[HandComposition, HandComposition]]:
    """Return the joint distribution of the attacker's ``a``-card hand and the defender's
    ``d``-card hand, dealt one after the other from the rules' deck (FM-1, FM-2): pairs
    ``(attacker's HandComposition, defender's)``.

    >>> hand_compositions(1, 1).probability(lambda p: p[0].ace_of_spades and p[1].ace_of_spades)
    Fraction(0, 1)

    Raises:
        InvalidSetupError: a size that is not a whole number, or hands larger than the deck.
    """
    rules = _check_rules(rules)
    a = check_hand_size(a, "the attacker's hand size", rules)
    d = check_hand_size(d, "the defender's hand size", rules)
    caps = kind_caps(rules)
    size = sum(caps)
    if a + d > size:
        raise InvalidSetupError(f"hands of {a} and {d} cards need {a + d} cards: the deck holds {size} (FM-1)")
    weights: dict[tuple[HandComposition, HandComposition], int] = {}
    for ca, wa in _splits(a, caps):
        rest = tuple(c - x for c, x in zip(caps, ca, strict=True))
        for cd, wd in _splits(d, rest):
            key = (_kinds_of(ca, rules), _kinds_of(cd, rules))
            weights[key] = weights.get(key, 0) + wa * wd
    return Distribution.from_int_weights(weights)


def _check_rules(rules: object) -> Rules | None:
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    return rules


@cache
def trump_comps(n: int, red: int, black: int, ace: int, numbered: int, jokers: int = 0) -> tuple[tuple[int, ...], ...]:
    """The (red, black but the A♠, A♠) Trump counts an ``n``-card hand may hold from a deck
    of these kinds (FM-1; the A♠ standing for the rules' death card; the sizes are the
    rules' :func:`kind_caps`), and the jokers as a fourth count when the deck holds any.

    >>> numbered, red, black, ace, _ = kind_caps()
    >>> sorted(trump_comps(1, red, black, ace, numbered))  # one card: a Numbered card, or one Trump
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]
    """
    if not jokers:
        return tuple((r, b, s) for (_, r, b, s), _ in hand_splits(n, numbered, red, black, ace))
    return tuple(counts[:4] for counts, _ in hands_by_type(n, (red, black, ace, jokers, numbered)))


def composition_pairs(a: int, d: int, caps: Sequence[int]) -> int:
    """Return the number of pairs of hand compositions (counts of each card type, at most
    ``caps[t]`` of type ``t`` between the two hands, e.g. the rules'
    :func:`~toolkit.fairy_meat.deck.type_caps`) of ``a`` and ``d`` cards, without
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
