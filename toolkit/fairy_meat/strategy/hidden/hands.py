"""Hands by card type, deals and what a hand can do in the hidden-hands game (FM-1, FM-2, FM-4..FM-6)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from toolkit.cards import Card, parse_cards
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    ACE_TRUMP,
    BLACK_TRUMP,
    JOKER_TRUMP,
    RED_TRUMP,
    death_card_name,
    death_colour,
    deck_cards,
    hands_by_type,
    representative_hand,
    type_caps,
    type_index,
)
from toolkit.fairy_meat.legality import (
    Placed,
    placed_cards,
    playable_cards,
    trump_sets_by_type,
    trumps_seen,
)
from toolkit.fairy_meat.odds.compositions import composition_pairs
from toolkit.fairy_meat.rules import Rules
from toolkit.whole_numbers import whole_number

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


#: Largest :func:`hidden_size` :func:`solve_hidden` accepts (3 v 2 and 2 v 3 are about 1.8·10^7 on the
#: draft's deck, 2.3·10^7 with two jokers; 4 v 2 and 3 v 3 are 5-10 times that and take minutes and
#: gigabytes).
HIDDEN_LIMIT = 25_000_000


def placed_jokers(p: Placed) -> int:
    """The jokers among a set of Trumps placed (FM-4 under ``Rules(jokers=...)``)."""
    return 0 if p is None or len(p) < 4 else p[3]


def placed_size(p: Placed) -> int:
    """How many cards lie face down in a set of Trumps placed (FM-4, FM-5)."""
    return 0 if p is None else p[1] + int(p[2]) + placed_jokers(p)


def placed_name(p: Placed, rules: Rules | None = None) -> str:
    """A set of Trumps placed in words (FM-4): ``'2 red'``, ``'1 black (not A♠)'``, ``'A♠'``,
    ``'1 joker'``; the death card is the rules' (FM-12)."""
    if p is None:
        return "None"
    colour, n, ace = p[:3]
    death = death_card_name(rules)
    parts = []
    if n:
        has_death = rules is None or rules.death_card is not None
        parts.append(f"{n} {colour} (not {death})" if has_death and colour == death_colour(rules) else f"{n} {colour}")
    if ace:
        parts.append(death)
    jokers = placed_jokers(p)
    if jokers:
        parts.append(f"{jokers} joker" + ("s" if jokers > 1 else ""))
    return " + ".join(parts)


def observation_name(o: tuple, rules: Rules | None = None) -> str:
    """What a fairy saw of the other's Trumps in words (FM-5)."""
    if o[0] == "none":
        return "None"
    if o[0] == "count":
        return f"{o[1]} hidden"
    return placed_name(o[1], rules)


def deck_caps(removed: Sequence[str | Card], rules: Rules | None = None) -> tuple[int, ...]:
    """The rules' deck by card type (:func:`~toolkit.fairy_meat.deck.type_caps`, FM-1)
    without the ``removed`` cards (e.g. the Spoils Heap, FM-13)."""
    cards = parse_cards(list(removed)) if not isinstance(removed, str) else parse_cards(removed)
    seen: set[Card] = set()
    caps = list(type_caps(rules))
    deck = set(deck_cards(rules))
    for c in cards:
        if c not in deck:
            raise InvalidSetupError(
                f"{c.code} is not in the rules' deck of {len(deck)} cards (FM-1): remove only cards of its ranks"
                + (" and jokers" if rules is not None and rules.jokers else ", no jokers")
            )
        if c in seen:
            raise InvalidSetupError(f"{c.code} is listed twice in removed: each card can be removed once")
        seen.add(c)
        caps[type_index(c, rules)] -= 1
    return tuple(caps)


def hand_types(n: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every hand of ``n`` cards by card type: tuples of 21 counts (22 with jokers), each within ``caps``
    (the rules' :func:`~toolkit.fairy_meat.deck.type_caps`; :func:`~toolkit.fairy_meat.deck.hands_by_type`
    without the number of deals)."""
    return [counts for counts, _ in hands_by_type(n, caps)]


def count_matrix(hands_a: np.ndarray, hands_d: np.ndarray, caps: Sequence[int]) -> np.ndarray:
    """Deals of each pair of hand types: Π_t C(n_t, a_t) C(n_t − a_t, d_t), as float64 (exact integers)."""
    out = np.ones((len(hands_a), len(hands_d)))
    top = max(caps) + 1
    table = np.array([[comb(n, k) for k in range(top)] for n in range(top)], dtype=float)
    for t in range(len(caps)):
        ca, cd = hands_a[:, t], hands_d[:, t]
        if not ca.any() and not cd.any():
            continue
        out *= table[caps[t], ca][:, None]
        left = caps[t] - ca
        out *= table[left[:, None], cd[None, :]]
    return out


def deal_weights(
    attacker_cards: int, defender_cards: int, removed: Sequence[str] = (), rules: Rules | None = None
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction]:
    """Exact probability of every pair of hand types (21 counts each, 22 with jokers) dealt
    from the rules' deck minus ``removed`` (FM-1):
    P(hA, hD) = Π_t C(n_t, a_t) C(n_t − a_t, d_t) / (C(N, a) C(N − a, d)).

    >>> w = deal_weights(1, 1)
    >>> sum(w.values()), len(w)
    (Fraction(1, 1), 440)
    """
    a = check_cards(attacker_cards, "attacker_cards", rules)
    d = check_cards(defender_cards, "defender_cards", rules)
    caps = deck_caps(removed, rules)
    total_cards = sum(caps)
    if a + d > total_cards:
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from a deck of {total_cards} (FM-1)")
    total = comb(total_cards, a) * comb(total_cards - a, d)
    out = {}
    for ha in hand_types(a, caps):
        for hd in hand_types(d, caps):
            n = 1
            for t in range(len(caps)):
                if ha[t] or hd[t]:
                    n *= comb(caps[t], ha[t]) * comb(caps[t] - ha[t], hd[t])
                    if not n:
                        break
            if n:
                out[(ha, hd)] = Fraction(n, total)
    return out


def _trump_options(hand: Sequence[int], rules: Rules | None) -> list[Placed]:
    """The sets of Trumps she may place (FM-4): None, or a non-empty set of one colour (a
    joker joins either); with no Numbered card she keeps at least one Trump back for a
    Wild Trump (FM-6). The same sets as the engine's ``legal_actions`` at the "trumps"
    step, by type (:func:`~toolkit.fairy_meat.legality.trump_sets_by_type`, the death
    card with its own colour)."""
    numbered = any(hand[t] for t in range(18))
    jokers = hand[JOKER_TRUMP] if len(hand) > JOKER_TRUMP else 0
    return list(
        trump_sets_by_type(hand[RED_TRUMP], hand[BLACK_TRUMP], hand[ACE_TRUMP], numbered, jokers, death_colour(rules))
    )


@lru_cache(maxsize=65536)
def _card_options(hand: tuple[int, ...], placed: Placed, rules: Rules | None) -> tuple[int, ...]:
    """Cards she may play (FM-6): every Numbered type she holds; without one, the Trump
    types left after ``placed`` (played as a Wild Trump) — the legality's
    :func:`~toolkit.fairy_meat.legality.playable_cards` asked on the hand's representative
    cards of the rules' deck."""
    cards = representative_hand(hand, 0, rules)
    chosen = placed_cards(cards, placed, rules)
    return tuple(dict.fromkeys(type_index(c, rules) for c in playable_cards(cards, chosen, rules)))


def type_options(hand: Sequence[int], rules: Rules | None = None) -> dict[Placed, list[int]]:
    """The hand's legal plays by type: {Trumps placed (FM-4): [cards she may then play
    (FM-6)]}; Trumps are ``None`` or ``(colour, Trumps but the death card, death card among
    them[, jokers among them])``, cards are type indices (18-21: a Trump played as a Wild
    Trump)."""
    key = tuple(hand)
    return {p: list(_card_options(key, p, rules)) for p in _trump_options(key, rules)}


def observed(other: Placed, mine: Placed) -> tuple:
    """What a fairy sees of the other's Trumps (FM-5): both placed (or both None): the set;
    she said None and the other placed: only how many cards lie face down."""
    seen = trumps_seen(mine is not None, other is not None)
    if seen == "none":
        return ("none",)
    if seen == "count":
        return ("count", placed_size(other))
    return ("set", other)


def check_cards(n: object, what: str, rules: Rules | None = None) -> int:
    """Return ``n`` if it is a whole number of cards >= 1 the rules' deck holds (FM-1, FM-2)."""
    n = whole_number(n, what, 1, what="cards", ruling="FM-2")
    size = len(deck_cards(rules))
    if n > size:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds {size} (FM-1)")
    return n


def hidden_size(attacker_cards: int, defender_cards: int, rules: Rules | None = None) -> int:
    """Estimate of the work of :func:`solve_hidden` under ``rules`` (the rules' deck, FM-1):
    pairs of hand types x the plays of both (4 declaration pairs, about a+1 and d+1
    card-and-Trump choices each), about the number of non-zero entries of the payoff matrix it iterates on.

    >>> hidden_size(1, 1), hidden_size(3, 2) <= HIDDEN_LIMIT < hidden_size(4, 2)
    (7040, True)
    """
    a = check_cards(attacker_cards, "attacker_cards", rules)
    d = check_cards(defender_cards, "defender_cards", rules)
    caps = type_caps(rules)
    return composition_pairs(a, d, caps) * 4 * (a + 1) * (d + 1)
