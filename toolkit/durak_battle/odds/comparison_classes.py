"""Comparison classes: deals that agree on every comparison a clash can make play alike.

The exact clash calculator (:func:`~.clash_losses.exact_clash_paths`) used to play one
representative of every *deal class* — every ordering of the dealt cards (see
:mod:`toolkit.durak_battle.odds`). Most of an ordering is never looked at. The referee
compares two cards only when one is on the table and the other answers it (DB-1, DB-4,
DB-5), and the cards that can be on the table are those of the attack and counter suits
and jokers (an attack, or a counterattack whose card becomes the attack, DB-1); the
initiative compares the two sides' attack cards (DB-3). So whether a Defence card of side
a is higher than a Manoeuvre card of side b, or than another card of a's own hand of a
different suit, never matters: a clash depends on

- each side's cards by action (suit, under ``rules.suits``) and joker, and the order of
  each side's cards of one suit (always strict: one suit's ranks differ);
- for every card of a and card of b of which at least one can be on the table (attack or
  counter suit, or joker): whether the card of a is lower, equal or higher.

Deals that agree on all of that form a *comparison class*: this module lists them with
the number of deals each stands for. 3 v 3 cards has 415,862 deal classes but about a
quarter as many comparison classes; each is played once.

Which policies may use this: the built-in ones (:data:`~toolkit.durak_battle.policies.POLICIES`).
``random`` reads only the legal actions (suits and cards, never ranks); ``greedy`` compares
her cards with the table card and orders cards of one suit (her preferences sort within a
tier, and a tier is one suit, or jokers); ``optimal`` plays the game tree
(which the classes keep) and breaks ties by :func:`~.best_play.action_key`, which orders
cards of one verb, so of one suit or jokers. A designer's own policy may compare any two
of her cards (the policy contract in :mod:`.policies` allows any comparison), so the
calculator plays her policy over the finer deal classes.

The deals are counted in bulk: the deal classes are built as arrays, level by level
(:data:`~.deal_classes.RANK_LEVELS`), each is given its comparison signature, and the
weights of equal signatures are added up. The test checks the tables against the deal
class path on every size where that path runs, under random house rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb

import numpy as np

from toolkit.cards import JOKERS, RANKS, SUITS, Card
from toolkit.durak_battle.odds.deal_classes import RANK_LEVELS, joker_splits
from toolkit.durak_battle.position import DECK
from toolkit.durak_battle.rules import ACTIONS, CARD_ORDER, SUIT_SIZE, Rules

__all__ = ["REMEMBER_UP_TO", "comparison_classes", "comparison_class_count", "clear_class_cache"]

_CARDS = DECK  # the clash positions' own Card objects (stepped by identity)
_BY_RANK_SUIT = {(RANKS.index(c.rank), c.suit): c for c in _CARDS if not c.is_joker}
_JOKER_CARDS = tuple(c for j in JOKERS for c in _CARDS if c.code == j)

#: A card in the arrays: ``role * 16 + value``, the role its action's index in
#: :data:`~.rules.ACTIONS` (a joker :data:`_JOKER_ROLE`), the value its rank level (a joker
#: 13, above every rank, DB-1). Sorting a hand's codes orders it by action, then rank.
_JOKER_ROLE = len(ACTIONS)
_JOKER_VALUE = SUIT_SIZE
_ROLES = len(ACTIONS) + 1


def _deal_class_arrays(ma: int, mb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every deal class of ``ma`` and ``mb`` cards without jokers, as arrays: each side's
    cards as ``level * 4 + suit index`` (rows of ``ma`` and ``mb`` columns), and the deals
    each class stands for, ``C(13, k)`` for ``k`` levels (as :func:`~.deal_classes.deal_classes`);
    kept for the session up to 500,000 rows."""
    found = _ARRAYS.get((ma, mb))
    if found is None:
        found = _build_arrays(ma, mb)
        if len(found[2]) <= 500_000:
            _ARRAYS[(ma, mb)] = found
    return found


def _build_arrays(ma: int, mb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    done_a: list[np.ndarray] = []
    done_b: list[np.ndarray] = []
    done_w: list[np.ndarray] = []
    if ma == mb == 0:
        return np.zeros((1, 0), np.int8), np.zeros((1, 0), np.int8), np.ones(1, np.int64)
    groups: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {
        (0, 0): (np.zeros((1, 0), np.int8), np.zeros((1, 0), np.int8))
    }
    for level in range(SUIT_SIZE):
        grown: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray]]] = {}
        for (ua, ub), (rows_a, rows_b) in groups.items():
            n = len(rows_a)
            for owners, ca, cb in RANK_LEVELS:
                ta, tb = ua + ca, ub + cb
                if ta > ma or tb > mb or (ma + mb - ta - tb) > 4 * (SUIT_SIZE - level - 1):
                    continue
                add_a = np.array([level * 4 + s for s in range(4) if owners[s] == 1], np.int8)
                add_b = np.array([level * 4 + s for s in range(4) if owners[s] == 2], np.int8)
                new_a = np.hstack((rows_a, np.broadcast_to(add_a, (n, ca))))
                new_b = np.hstack((rows_b, np.broadcast_to(add_b, (n, cb))))
                if (ta, tb) == (ma, mb):
                    done_a.append(new_a)
                    done_b.append(new_b)
                    done_w.append(np.full(n, comb(SUIT_SIZE, level + 1), np.int64))
                else:
                    grown.setdefault((ta, tb), []).append((new_a, new_b))
        groups = {k: (np.vstack([a for a, _ in v]), np.vstack([b for _, b in v])) for k, v in grown.items()}
        if not groups:
            break
    return np.vstack(done_a), np.vstack(done_b), np.concatenate(done_w)


def _codes(cards: np.ndarray, jokers: int, role_of_suit: np.ndarray) -> np.ndarray:
    """A side's cards as sorted ``role * 16 + value`` codes, its jokers appended (DB-1)."""
    codes = role_of_suit[cards % 4] * 16 + cards // 4
    if jokers:
        codes = np.hstack((codes, np.full((len(cards), jokers), _JOKER_ROLE * 16 + _JOKER_VALUE, codes.dtype)))
    return np.sort(codes, axis=1)


def _signatures(codes_a: np.ndarray, codes_b: np.ndarray, on_table: np.ndarray) -> np.ndarray:
    """One integer per deal naming its comparison class: both sides' roles, and the order
    (lower, equal, higher) of every pair of a card of a and a card of b of which at least one
    can be on the table; the other pairs count as equal."""
    roles_a, roles_b = codes_a // 16, codes_b // 16
    values_a, values_b = codes_a % 16, codes_b % 16
    order = np.sign(values_a[:, :, None] - values_b[:, None, :]) + 1
    seen = on_table[roles_a][:, :, None] | on_table[roles_b][:, None, :]
    order = np.where(seen, order, 1).reshape(len(codes_a), -1)
    key = np.zeros(len(codes_a), np.int64)
    for column in np.hstack((roles_a, roles_b)).T:
        key = key * _ROLES + column
    for column in order.T:
        key = key * 3 + column
    return key


def _fits_in_key(na: int, nb: int) -> bool:
    return _ROLES ** (na + nb) * 3 ** (na * nb) < 2**62


def comparison_class_count(cards_a: int, cards_b: int, rules: Rules, mirror: bool = False) -> int:
    """The number of comparison classes of ``cards_a`` v ``cards_b`` cards (each is played
    once by the exact calculator; with ``mirror``, a class and its mirror image once); the
    same under every assignment of suits to actions."""
    return sum(1 for _ in comparison_classes(cards_a, cards_b, rules, mirror))


#: Class lists kept for the session, by hand sizes, suits, jokers and mirroring (what they
#: depend on: rules that differ only in losses or variants share them), up to this many
#: classes each; larger ones (4 v 3: 620,375) are built again when asked for.
REMEMBER_UP_TO = 120_000

Class = tuple[tuple[Card, ...], tuple[Card, ...], int, int]
_REMEMBERED: dict[tuple, list[Class]] = {}
_ARRAYS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def clear_class_cache() -> None:
    """Forget the class lists and arrays kept for the session."""
    _REMEMBERED.clear()
    _ARRAYS.clear()


def comparison_classes(na: int, nb: int, rules: Rules, mirror: bool = False, ids: bool = False) -> Iterator[Class]:
    """Every comparison class of ``na`` and ``nb`` cards under ``rules``: representative
    hands (lowest first, jokers last), the number of deals it stands for, and the number of
    deals of its mirror image (0 unless ``mirror``); the numbers add up to every deal,
    ``C(N, na) C(N - na, nb)`` (DB-1: N = 54, or 52 without jokers).

    ``mirror`` (equal hand sizes only): a deal and the deal with the two hands swapped are
    one class, played once — for two sides with the same policy, whose clash is then the
    same with the sides' names swapped (the rules favour neither side).

    ``ids``: the hands as card ids (:data:`~.rules.CARD_ORDER`, the calculators' hands)
    instead of Card objects.

    Raises:
        ValueError: hands too large for the signatures (far above the exact limit), or
            ``mirror`` with unequal hand sizes.
    """
    if not _fits_in_key(na, nb):
        raise ValueError(f"{na} v {nb} cards is too large to sign comparison classes")
    if mirror and na != nb:
        raise ValueError(f"only equal hands mirror, got {na} v {nb} cards")
    key = (na, nb, rules.suits, rules.jokers, mirror, ids)
    found = _REMEMBERED.get(key)
    if found is not None:
        return iter(found)
    size, classes = _build(na, nb, rules, mirror, ids)
    if size <= REMEMBER_UP_TO:
        _REMEMBERED[key] = found = list(classes)
        return iter(found)
    return classes


def _build(na: int, nb: int, rules: Rules, mirror: bool, ids: bool = False) -> tuple[int, Iterator[Class]]:
    """How many classes there are, and the classes as they come out of the arrays (hands as
    card ids with ``ids``: an index into :data:`_DECK` is the card's id)."""
    tables = rules.tables
    role_of_suit = np.array([ACTIONS.index(tables.action_of_suit[s]) for s in SUITS], np.int16)
    on_table = np.array(
        [a in ("attack", "counter") for a in ACTIONS] + [True], bool
    )  # attack and counter cards, and jokers (DB-1, DB-5)
    parts = []
    for ja, jb, ways in joker_splits(na, nb, rules):
        cards_a, cards_b, weights = _deal_class_arrays(na - ja, nb - jb)
        codes_a = _codes(cards_a, ja, role_of_suit)
        codes_b = _codes(cards_b, jb, role_of_suit)
        parts.append(
            (
                _signatures(codes_a, codes_b, on_table),
                _signatures(codes_b, codes_a, on_table) if mirror else None,
                _with_jokers(cards_a, 0, ja),
                _with_jokers(cards_b, ja, jb),
                weights * ways,
            )
        )
    keys = np.concatenate([p[0] for p in parts])
    hands_a = np.vstack([p[2] for p in parts])
    hands_b = np.vstack([p[3] for p in parts])
    weights = np.concatenate([p[4] for p in parts])
    swapped = np.zeros(len(keys), bool)
    if mirror:  # a deal's class or its mirror's, whichever signature is smaller
        mirrored = np.concatenate([p[1] for p in parts])
        swapped = mirrored < keys
        keys = np.minimum(keys, mirrored)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    direct = np.add.reduceat(np.where(swapped, 0, weights)[order], starts)
    other = np.add.reduceat(np.where(swapped, weights, 0)[order], starts)
    card = _DECK.__getitem__

    def items() -> Iterator[Class]:
        for row, w, w_mirror in zip(order[starts].tolist(), direct.tolist(), other.tolist(), strict=True):
            if ids:
                a, b = tuple(hands_a[row].tolist()), tuple(hands_b[row].tolist())
            else:
                a, b = tuple(map(card, hands_a[row].tolist())), tuple(map(card, hands_b[row].tolist()))
            if swapped[row]:  # the representative is the mirror image of this deal
                yield b, a, w_mirror, w
            else:
                yield a, b, w, w_mirror

    return len(starts), items()


#: The deck's Card objects by ``rank level * 4 + suit index`` (the order of
#: :attr:`~toolkit.cards.Card.sort_key`), then the jokers: :data:`~.rules.CARD_ORDER`, so
#: an index into it is the card's id (checked below).
_DECK = [_BY_RANK_SUIT[(level, suit)] for level in range(SUIT_SIZE) for suit in SUITS] + list(_JOKER_CARDS)
assert all(c is CARD_ORDER[k] for k, c in enumerate(_DECK)), "comparison classes' card indices must be card ids"


def _with_jokers(cards: np.ndarray, first: int, jokers: int) -> np.ndarray:
    """A side's cards as indices into :data:`_DECK` (lowest first already), its jokers
    (from joker ``first`` on) after them."""
    if not jokers:
        return cards
    extra = np.arange(4 * SUIT_SIZE + first, 4 * SUIT_SIZE + first + jokers, dtype=cards.dtype)
    return np.hstack((cards, np.broadcast_to(extra, (len(cards), jokers))))
