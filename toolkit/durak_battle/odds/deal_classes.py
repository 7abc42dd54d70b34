"""Deal classes: every deal whose cards are in the same order plays alike (see :mod:`toolkit.durak_battle.odds`)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from math import comb

from toolkit.cards import JOKERS, RANKS, SUITS, Card
from toolkit.durak_battle.odds.checks import (
    check_rules,
    check_sizes,
)
from toolkit.durak_battle.position import DECK
from toolkit.durak_battle.rules import SUIT_SIZE, Rules

__all__ = [
    "EXACT_LIMIT",
    "EXACT_REQUEST_LIMIT",
    "BATTLE_EXACT_LIMIT",
    "exact_size",
    "deal_classes",
    "random_deal",
    "RANK_LEVELS",
    "joker_splits",
]

#: ``method="auto"`` computes a clash exactly while :func:`exact_size` — the number of
#: deal classes (deals with the same ordering of cards, see the module docstring) — is at
#: most this, and by Monte Carlo above it. Sizes: 1 v 1 has 53 classes, 2 v 2 4,462, 3 v 2
#: 39,342, 4 v 2 312,203, 3 v 3 415,862, 4 v 3 3,847,980: every clash of up to 6 cards in all
#: is exact (and 7 v 0), larger ones are sampled. The built-in policies play one deal per
#: comparison class (:mod:`.comparison_classes`, about a quarter of the deal classes, and
#: half that again for equal hands under one policy): 3 v 3 greedy in about 1.2 s of one
#: core, random about ten times longer; a designer's own policy plays every deal class
#: (about 60 microseconds a class). Figures: docs/exactness.md.
EXACT_LIMIT = 420_000

#: ``method="exact"`` computes a clash of at most this many deal classes and raises
#: :class:`~toolkit.errors.TooBigError` above it, before starting: 4 v 3 (3,847,980 classes,
#: greedy in about 17 s of one core) is exact on request, 4 v 4 (40.7 million) is not.
EXACT_REQUEST_LIMIT = 4_000_000

#: The battle chain (:func:`~.battle.battle_outcome`, ``method="auto"``) computes a pair of
#: hand sizes exactly within this many deal classes (every clash of up to 5 cards in all)
#: and samples the rest: a battle meets dozens of pairs, and the exact tables of 3 v 3 or
#: 4 v 2 cost more than the simulated clashes they replace at the reports' trials.
BATTLE_EXACT_LIMIT = 40_000

# The deck's Card objects: by (rank index, suit), and the jokers in order.
_CARDS = DECK  # the clash positions' own Card objects (stepped by identity)
_BY_RANK_SUIT = {(RANKS.index(c.rank), c.suit): c for c in _CARDS if not c.is_joker}
_JOKER_CARDS = tuple(c for j in JOKERS for c in _CARDS if c.code == j)


#: The ways one rank can be held: for each suit, nobody (0), side a (1) or side b (2).
RANK_LEVELS: tuple[tuple[tuple[int, ...], int, int], ...] = tuple(
    (owners, owners.count(1), owners.count(2))
    for owners in ((s, h, d, c) for s in range(3) for h in range(3) for d in range(3) for c in range(3))
    if any(owners)
)


@cache
def _classes_count(k: int, ma: int, mb: int) -> int:
    """Sequences of ``k`` non-empty rank levels holding ``ma`` cards of a and ``mb`` of b."""
    if k == 0:
        return 1 if ma == mb == 0 else 0
    return sum(_classes_count(k - 1, ma - ca, mb - cb) for _, ca, cb in RANK_LEVELS if ca <= ma and cb <= mb)


def joker_splits(na: int, nb: int, rules: Rules) -> Iterator[tuple[int, int, int]]:
    """The ways to hand out the jokers (DB-1): ``(jokers of a, jokers of b, ways)``, the ways
    counting which jokers each side holds."""
    jokers = rules.joker_count
    for ja in range(min(na, jokers) + 1):
        for jb in range(min(nb, jokers - ja) + 1):
            if na - ja + nb - jb <= rules.deck_size - jokers:
                yield ja, jb, comb(jokers, ja) * comb(jokers - ja, jb)


def exact_size(cards_a: int, cards_b: int, rules: Rules | None = None) -> int:
    """Return the number of deal classes the exact clash calculator plays for these hand
    sizes: deals with the same ordering of cards play alike (module docstring), so each
    class is played once. :data:`EXACT_LIMIT` is compared with this.

    >>> exact_size(1, 1), exact_size(2, 2), exact_size(3, 2)
    (53, 4462, 39342)
    """
    rules = check_rules(rules)
    na, nb = check_sizes(cards_a, cards_b, rules)
    total = 0
    for ja, jb, _ in joker_splits(na, nb, rules):
        ma, mb = na - ja, nb - jb
        total += sum(_classes_count(k, ma, mb) for k in range(0 if ma + mb == 0 else 1, SUIT_SIZE + 1))
    return total


def _classes(ma: int, mb: int) -> Iterator[tuple[list[Card], list[Card], int]]:
    """Every deal class of ``ma`` and ``mb`` non-joker cards: representative hands (the
    ``k`` levels take ranks 2, 3, ...) and the number of deals it stands for, ``C(13, k)``."""

    def rec(level: int, ra: int, rb: int, a: list[Card], b: list[Card]) -> Iterator[tuple[list[Card], list[Card], int]]:
        if ra == 0 and rb == 0:
            yield a, b, comb(SUIT_SIZE, level)
            return
        if level == SUIT_SIZE or (SUIT_SIZE - level) * 4 < ra + rb:
            return
        for owners, ca, cb in RANK_LEVELS:
            if ca <= ra and cb <= rb:
                na_ = a + [_BY_RANK_SUIT[(level, SUITS[s])] for s in range(4) if owners[s] == 1]
                nb_ = b + [_BY_RANK_SUIT[(level, SUITS[s])] for s in range(4) if owners[s] == 2]
                yield from rec(level + 1, ra - ca, rb - cb, na_, nb_)

    yield from rec(0, ma, mb, [], [])


def deal_classes(na: int, nb: int, rules: Rules) -> Iterator[tuple[tuple[Card, ...], tuple[Card, ...], int]]:
    for ja, jb, ways in joker_splits(na, nb, rules):
        ja_cards, jb_cards = _JOKER_CARDS[:ja], _JOKER_CARDS[ja : ja + jb]
        for a, b, w in _classes(na - ja, nb - jb):  # lowest first already; jokers on top
            yield tuple(a) + ja_cards, tuple(b) + jb_cards, w * ways


def random_deal(rng: random.Random, deck: Sequence[Card], na: int, nb: int) -> tuple[list[Card], list[Card]]:
    cards = rng.sample(deck, na + nb)
    return cards[:na], cards[na:]
