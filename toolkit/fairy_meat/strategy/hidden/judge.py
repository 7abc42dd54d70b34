"""The referee's judgements of the hidden-hands game by class, and the Wild Trump draw law as arrays (FM-5..FM-12)."""

from __future__ import annotations

import itertools
from collections import OrderedDict
from functools import cache
from typing import NamedTuple

import numpy as np

from toolkit.fairy_meat.deck import (
    JOKER_TRUMP,
    TRUMP_LETTERS,
    standard_layout,
    trump_kind_caps,
    type_colour,
    wild_draw_probability,
)
from toolkit.fairy_meat.legality import (
    Placed,
)
from toolkit.fairy_meat.odds.classes import (
    bare_side,
    class_reach,
    class_values,
    deck_rules,
    fold_class,
    representative_plays,
)
from toolkit.fairy_meat.odds.families import Family
from toolkit.fairy_meat.odds.weighing import trump_terms
from toolkit.fairy_meat.referee import AttackResult, resolve_attack
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.payoff import Payoff

__all__ = ["family_of", "Outcome", "Judge", "RBS", "turn_ups", "draw_probs", "clear_judgements"]


_DELTA_OFF = 64


def family_of(sign: int, placed: Placed, card: int) -> Family:
    """What a fairy does by type (:class:`~toolkit.fairy_meat.odds.families.Family`): plays
    Numbered type ``card`` (0-17), or a Trump of type ``card`` (18-21) as a Wild Trump (FM-6)."""
    if card < 18:
        return Family("play", sign, placed, None, type_colour(card))
    return Family("wild", sign, placed, "J" if card == JOKER_TRUMP else TRUMP_LETTERS[card], None)


class Outcome(NamedTuple):
    """What a judged attack leaves that a :class:`~.payoff.Payoff` reads (FM-9..FM-12,
    FM-14), and nothing else: outcome ids keyed by it hold for every payoff.
    ``winner`` is ``"draw"`` for a draw (FM-9)."""

    winner: str
    points: int
    damage: int
    nasty_hit: bool
    attacker_damage: int
    nasty_hit_to: tuple[str, ...]

    @classmethod
    def of_result(cls, result: AttackResult) -> Outcome:
        """Return the outcome record of one judged attack (the referee's result)."""
        return cls(
            result.winner or "draw",
            result.points,
            result.damage,
            result.nasty_hit,
            result.attacker_damage,
            tuple(result.nasty_hit_to),
        )


class _Judged(NamedTuple):
    """What the referee said of one rule set's attack classes, shared by every :class:`Judge`
    of those rules (the games of other hand sizes, decks left and payoffs): the fold of each
    class key, and the outcome of each (class key, difference) (None: no cards realise it)."""

    folds: dict[tuple, tuple[tuple, int, int, int, frozenset[int] | None]]
    outcomes: dict[tuple[tuple, int], Outcome | None]


#: Judgements by rules (the :data:`_JUDGED_KEPT` most recent rule sets): a class's fold and
#: outcome depend only on the rules (the cards a class is read on are the rules' deck, not
#: the deck left), so a game of other sizes or another deck left asks the referee only about
#: classes no game of its rules met. Each judge still numbers its keys and outcomes in the
#: order it meets them, as a judge of its own would.
_JUDGED: OrderedDict[Rules, _Judged] = OrderedDict()
_JUDGED_KEPT = 4


def clear_judgements() -> None:
    """Forget the referee's judgements shared between games (:class:`Judge`)."""
    _JUDGED.clear()


def _judged(rules: Rules) -> _Judged:
    got = _JUDGED.get(rules)
    if got is None:
        got = _JUDGED[rules] = _Judged({}, {})
        while len(_JUDGED) > _JUDGED_KEPT:
            _JUDGED.popitem(last=False)
    else:
        _JUDGED.move_to_end(rules)
    return got


class Judge:
    """Outcome of every attack class (odds' class keys), judged by the referee once each
    (FM-5, FM-8..FM-12): keys are canonical views of both sides (``odds._canon``) and
    the difference of base values; the fold of always-applied cheating Trumps
    (``odds._fold``) is used exactly as the odds calculator uses it. The outcomes do not
    depend on the payoff (:class:`Outcome`); :meth:`payvec` values them for one."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.deck = deck_rules(rules)  # the cards and Trump worth the classes are read on (FM-1, FM-8)
        # the plays are dealt from the rules' own deck: the same cards as the draft's when the deck
        # is the draft's (deck_rules gives None), and their checks need not build default rules
        self.plays = rules if self.deck is None and standard_layout(rules) else self.deck
        self.terms = trump_terms(rules)  # what the views need: the death card's colour, a Trump's worth
        # differences of values: pips 2..10 and every Trump of the deck applied (its worth) or
        # shifting (1 each) on either side
        trumps = sum(trump_kind_caps(rules))
        self.delta_off = max(_DELTA_OFF, 40 + 16 * rules.trump_value, 20 + 2 * trumps * (rules.trump_value + 1))
        self.key_ids: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.fold: list[tuple[int, int, int, int]] = []  # (reduced id, shift, lo, hi)
        self.values: list[frozenset[int] | None] = []  # differences the reduced class realises (None: lo..hi)
        self.cache: dict[tuple[int, int], int] = {}  # (key id, delta) -> outcome id
        self.outcome_ids: dict[tuple, int] = {}
        self.outcomes: list[Outcome] = []
        self.calls = 0
        self.table = np.full((1024, 2 * self.delta_off), -2, dtype=np.int32)  # (key id, delta) -> outcome id
        self.shared = _judged(rules)  # what the referee said of these rules' classes in earlier games

    def kid(self, key: tuple) -> int:
        k = self.key_ids.get(key)
        if k is None:
            k = self.key_ids[key] = len(self.keys)
            self.keys.append(key)
            self.fold.append((k, 0, -(10**6), 10**6))  # placeholder while folding
            self.values.append(None)
            folded = self.shared.folds.get(key)
            if folded is None:
                try:
                    reduced, shift = fold_class(key, self.rules)
                except AssertionError:  # no cards realise the class: a combination that cannot occur
                    reduced, shift = key, 0
                bare = bare_side(reduced, self.rules)
                lo, hi = class_reach(reduced, bare, self.deck)
                # a Trump worth more than 1 leaves gaps between lo and hi (as the odds' settle)
                values = None if self.deck is None else class_values(reduced, bare, self.deck)
                folded = self.shared.folds[key] = (reduced, shift, lo, hi, values)
            reduced, shift, lo, hi, values = folded
            rid = k if reduced == key else self.kid(reduced)
            self.fold[k] = (rid, shift, lo, hi)
            self.values[k] = values
        return k

    def _referee(self, kid: int, delta: int) -> int:
        key = self.keys[kid]
        judged = self.shared.outcomes
        if (key, delta) in judged:
            rec = judged[(key, delta)]
        else:
            judged[(key, delta)] = rec = self._ask_referee(key, delta)
        if rec is None:  # no cards realise it: a combination that cannot occur
            return -1
        oid = self.outcome_ids.get(rec)
        if oid is None:
            oid = self.outcome_ids[rec] = len(self.outcomes)
            self.outcomes.append(rec)
        return oid

    def _ask_referee(self, key: tuple, delta: int) -> Outcome | None:
        """The referee's outcome of class ``key`` at difference ``delta`` on representative
        cards (FM-5, FM-8..FM-12); None when no cards realise it."""
        try:
            play_a, play_d = representative_plays(key, delta, bare_side(key, self.rules), self.plays)
        except AssertionError:  # no cards realise it: a combination that cannot occur
            return None
        self.calls += 1
        return Outcome.of_result(resolve_attack(play_a, play_d, self.rules, explain=False))

    def oid(self, kid: int, delta: int) -> int:
        got = self.cache.get((kid, delta))
        if got is None:
            rid, shift, lo, hi = self.fold[kid]
            values = self.values[kid]
            inside = lo <= delta + shift <= hi and (values is None or delta + shift in values)
            target = (rid, delta + shift) if inside else (kid, delta)
            got = self.cache.get(target)
            if got is None:
                got = self.cache[target] = self._referee(*target)
            self.cache[(kid, delta)] = got
        return got

    def oids(self, kids: np.ndarray, deltas: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`oid`, through a dense table of the classes judged so far."""
        off = self.delta_off
        if deltas.size and (deltas.min() < -off or deltas.max() >= off):  # pragma: no cover
            raise RuntimeError("difference of values out of the table's range")
        return self.oids_at(kids * (2 * off) + (deltas + off))

    def oids_along(self, kids: np.ndarray, base: np.ndarray, which: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """:meth:`oids` of ``kids[which]`` at differences ``base[which] + steps``: pairs given once
        each (class key id, difference) and read along ``which`` (the same outcome ids, judged
        in the same order, without spelling out every key id and difference)."""
        off = self.delta_off
        if len(which) and (base.min() + steps.min() < -off or base.max() + steps.max() >= off):
            deltas = base[which] + steps  # the exact differences read (a wide base may not reach the edges)
            if deltas.min() < -off or deltas.max() >= off:  # pragma: no cover
                raise RuntimeError("difference of values out of the table's range")
        return self.oids_at((kids * (2 * off) + (base + off))[which] + steps)

    def oids_at(self, cells: np.ndarray) -> np.ndarray:
        """:meth:`oids` of (key id, difference) pairs given as their flat positions in the
        table, ``key id · 2·delta_off + difference + delta_off`` (each difference within
        ``[-delta_off, delta_off)``): the same outcome ids, the unknown ones judged in the same
        order (by position)."""
        self._table_for_keys()
        off = self.delta_off
        got = self.table.ravel()[cells]
        unknown = got == -2
        if unknown.any():
            # the flat positions sort as the (key id, difference) pairs do: the unknown pairs
            # judged once each, in that order (a 1-D unique: far cheaper than unique rows)
            width = self.table.shape[1]
            asked = np.sort(cells[unknown])
            for cell in asked[np.r_[True, asked[1:] != asked[:-1]]].tolist():
                k, column = divmod(cell, width)
                self.table[k, column] = self.oid(k, column - off)
            got = self.table.ravel()[cells]
        return got  # int32, the table's (a copy: read by index)

    def oids_window(self, starts: np.ndarray, width: int) -> np.ndarray:
        """:meth:`oids_at` of ``starts[:, None] + np.arange(width)``: ``width`` consecutive
        table positions from each start (within one key id's row), read as windows of the
        table (far cheaper than one index per position); the same outcome ids, and when some
        are not judged yet :meth:`oids_at` judges them in the same order."""
        self._table_for_keys()
        got = np.lib.stride_tricks.sliding_window_view(self.table.ravel(), width)[starts]
        if (got == -2).any():
            return self.oids_at(starts[:, None] + np.arange(width))
        return got

    def _table_for_keys(self) -> None:
        """Grow the table of judgements to a row per key id numbered so far."""
        if len(self.keys) > self.table.shape[0]:
            grown = np.full((max(len(self.keys), 2 * self.table.shape[0]), 2 * self.delta_off), -2, dtype=np.int32)
            grown[: self.table.shape[0]] = self.table
            self.table = grown

    def payvec(self, payoff: Payoff) -> np.ndarray:
        """Return the attacker's payoff of every outcome id so far (float64 of the exact
        ``payoff.of``, the one rule of :mod:`~toolkit.fairy_meat.strategy.payoff`)."""
        return np.array([float(payoff.of(o)) for o in self.outcomes], dtype=float)


@cache
def turn_ups(trump_caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every count by type of the Trumps a Wild Trump draw may turn up from a deck holding
    ``trump_caps`` Trumps by type (red, black but the death card, the death card[, jokers];
    FM-6), the first type varying slowest."""
    return tuple(itertools.product(*(range(n + 1) for n in trump_caps)))


#: The draft's rows of Trumps turned up (red 0-8, black but the A♠ 0-7, the A♠ 0-1).
RBS = list(turn_ups((8, 7, 1)))


_DRAW_CACHE: dict[tuple, np.ndarray] = {}


@cache
def _turn_up_array(trump_caps: tuple[int, ...]) -> np.ndarray:
    """:func:`turn_ups` as an array (rows x Trump types)."""
    return np.array(turn_ups(trump_caps), dtype=np.int64).reshape(-1, len(trump_caps))


def draw_probs(trumps_left: tuple[int, ...], deck: int, row_caps: tuple[int, ...] = (8, 7, 1)) -> np.ndarray:
    """P(the Trumps turned up before the first Numbered card are ``t`` by type), for every
    ``t`` of :func:`turn_ups` (``row_caps``), from a deck of ``deck`` cards holding
    ``trumps_left`` Trumps by type (FM-6): Π C(T_i, t_i)·j!·N / deck_(j+1), j = Σ t_i,
    N = Numbered cards left (:func:`~toolkit.fairy_meat.deck.wild_draw_probability`; exact
    fractions, stored as float64)."""
    key = (trumps_left, deck, row_caps)
    got = _DRAW_CACHE.get(key)
    if got is not None:
        return got
    rows = turn_ups(row_caps)
    out = np.zeros(len(rows))
    for i in np.nonzero((_turn_up_array(row_caps) <= np.array(trumps_left)).all(axis=1))[0].tolist():
        out[i] = wild_draw_probability(trumps_left, deck, rows[i])
    _DRAW_CACHE[key] = out
    return out
