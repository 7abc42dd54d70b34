"""The hidden-hands game's payoff matrix: deal weight x expected payoff for every consistent pair of sequences."""

from __future__ import annotations

import dataclasses
import itertools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import scipy.sparse as sp

from toolkit.fairy_meat.deck import (
    RED_TRUMP,
    type_colour,
    type_pips,
)
from toolkit.fairy_meat.legality import (
    Placed,
)
from toolkit.fairy_meat.odds.classes import (
    class_key,
    hidden_owner,
    side_view,
)
from toolkit.fairy_meat.odds.families import Family
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.game import Game, build_structure
from toolkit.fairy_meat.strategy.hidden.hands import observed
from toolkit.fairy_meat.strategy.hidden.judge import Judge, clear_judgements, draw_probs, family_of, turn_ups
from toolkit.fairy_meat.strategy.hidden.sorted_counts import group_ints, sum_by_triple, unique_ints, unique_rows
from toolkit.fairy_meat.strategy.payoff import Payoff

__all__ = [
    "NUMBER_COLOURS",
    "decl_sign",
    "Draws",
    "SinglePlan",
    "build_matrix",
    "build_game",
    "clear_build_cache",
    "draw_values",
    "plain_cells",
]


_NO_DRAW = (0, 0, 0)  # no Trump turned up (the views read the first three kinds, and jokers when given)


_PIPS_OF_TYPE = np.array([type_pips(t) for t in range(18)])


_BLACK_TYPE = np.array([int(t >= 9) for t in range(18)])


NUMBER_COLOURS = ("red", "black")


#: Decks with at most this many counts a Wild Trump draw may turn up (the draft's 144, whatever a
#: Trump is worth; a red death card's 144) sum double draws pair by pair
#: (:meth:`Draws.double_pairwise`), as the shipped reports always have; larger decks
#: (``tens_are_trumps`` 220, jokers 432 or 648) group the pairs first (2.9x faster at 2 v 2 for
#: ``tens_are_trumps``).
PAIRWISE_ROWS = 144


@dataclass(frozen=True)
class SinglePlan:
    """A group of entries where one side draws for a Wild Trump (FM-6), without the payoff:
    ``phis[colour][row, column]`` = the outcome id when the Trumps ``Draws.turned[row]`` are turned
    up before a Numbered card of ``colour`` whose pips are the other side's minus
    ``column − 8`` (−1: cannot occur); ``probs[deck]`` = P(those Trumps) from each deck
    left; per entry its deck (``ridx``), the other side's pips and the Numbered cards left
    by type (the Numbered card drawn is uniform over them)."""

    ridx: np.ndarray
    pips_f: np.ndarray
    numbered_left: np.ndarray
    phis: np.ndarray
    probs: np.ndarray


def decl_sign(decl: int) -> int:
    return 1 if decl == 0 else -1


class Draws:
    """Expected outcomes of attacks with Wild Trump draws (FM-6), exactly for the deck left
    by both hands: P(Trumps t turned up by type (red, black but the death card, the death
    card[, jokers]), then a Numbered card of type k) = P(t) · n_k / N (the Numbered card is
    uniform over those left). ``row_caps``: the deck's Trumps by type; :attr:`turned` every
    count a draw may turn up (:func:`~.judge.turn_ups`)."""

    def __init__(self, judge: Judge, deck: int, row_caps: tuple[int, ...] = (8, 7, 1)) -> None:
        self.judge, self.deck = judge, deck
        self.row_caps = row_caps
        self.turned = turn_ups(row_caps)
        self.turned_arr = np.array(self.turned, dtype=np.int64)
        self.used: set[int] = set()
        self.rows: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.full_rows: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # row_keys over every row
        self.row_views: dict[tuple, tuple[list[tuple], np.ndarray, np.ndarray]] = {}  # _row_views
        self.against: dict[tuple, dict[tuple, np.ndarray]] = {}  # _kinds: class key ids by the other side's view
        self.seconds: dict[tuple, Any] = {}  # double draws' first views and second-draw laws
        self.phis: dict[tuple, np.ndarray] = {}  # single_plan: both colours' outcome ids, while building
        # double draws by the Trumps left (double_parts) and the attacker's first-draw groups, while building
        self.doubles: dict[tuple, Any] = {}
        self.view_numbers: dict[tuple, int] = {}  # double_parts: each view's number
        self.signatures: dict[tuple, int] = {}  # double_parts: each side's draws as one number
        self.kinds_by_number: dict[tuple, dict[int, np.ndarray]] = {}  # double_parts: _kinds by view number

    def row_keys(
        self, owner: str | None, v_f: tuple, fam_x: Family, x_side: int, colour: str, rmax: tuple
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every Trumps turned up ``t <= rmax`` (rows of :attr:`turned`) by the drawing side
        ``x_side`` before a Numbered card of ``colour``: the class key id against a side
        of view ``v_f``, and the drawing side's offset (her matching Trumps applied)."""
        key = (owner, v_f, fam_x, x_side, colour, rmax)
        got = self.rows.get(key)
        if got is not None:
            return got
        full_key = key[:-1]
        full = self.full_rows.get(full_key)
        if full is None:  # every row at once: the decks left differ only in which rows they reach
            mine = owner == ("attacker", "defender")[x_side]
            _, which, offs = self._row_views(fam_x, colour, mine)
            full = self.full_rows[full_key] = (self._kinds(owner, v_f, fam_x, x_side, colour)[which], offs)
        rows = np.nonzero((self.turned_arr <= np.array(rmax)).all(axis=1))[0]
        got = self.rows[key] = (rows, full[0][rows], full[1][rows])
        return got

    def _kinds(self, owner: str | None, v_f: tuple, fam_x: Family, x_side: int, colour: str) -> np.ndarray:
        """The class key ids of a side of view ``v_f`` against each distinct view of the
        drawing side ``x_side`` (:meth:`_row_views`): one class key per distinct view, many
        rows leave her the same (remembered by the other side's view, which the double
        draws' groups ask again and again)."""
        by_view = self._kinds_by_view(owner, fam_x, x_side, colour)
        got = by_view.get(v_f)
        if got is None:
            distinct, _, _ = self._row_views(fam_x, colour, owner == ("attacker", "defender")[x_side])
            got = by_view[v_f] = np.array(
                [
                    self.judge.kid(class_key(owner, v_x, v_f) if x_side == 0 else class_key(owner, v_f, v_x))
                    for v_x in distinct
                ],
                dtype=np.int64,
            )
        return got

    def _row_views(self, fam_x: Family, colour: str, mine: bool) -> tuple[list[tuple], np.ndarray, np.ndarray]:
        """The drawing side's distinct views over every row of :attr:`turned` (before a
        Numbered card of ``colour``), each row's index among them, and each row's offset
        (remembered: every class key against another side reads them)."""
        key = (fam_x, colour, mine)
        got = self.row_views.get(key)
        if got is None:
            terms = self.judge.terms
            views = [side_view(fam_x, colour, turned, mine, *terms) for turned in self.turned]
            distinct: dict[tuple, int] = {}
            which = np.array([distinct.setdefault(v, len(distinct)) for v, _ in views], dtype=np.int64)
            offs = np.array([off for _, off in views], dtype=np.int64)
            got = self.row_views[key] = (list(distinct), which, offs)
        return got

    def _kinds_by_view(self, owner: str | None, fam_x: Family, x_side: int, colour: str) -> dict[tuple, np.ndarray]:
        """What :meth:`_kinds` remembers for one drawing side, by the other side's view."""
        key = (owner, fam_x, x_side, colour)
        got = self.against.get(key)
        if got is None:
            got = self.against[key] = {}
        return got

    def phi_oids(
        self, owner: str | None, v_f: tuple, off_f: int, fam_x: Family, x_side: int, colour: str, rmax: tuple
    ) -> np.ndarray:
        """Outcome ids of the drawing side ``x_side`` turning up Trumps ``t`` (rows, all
        ``t <= rmax``) and a Numbered card of ``colour`` with pips p against a fixed
        side of view ``v_f`` whose value is x = pips + off_f: columns y = x − p in
        [off_f − 8, off_f + 8], as int32. Rows out of ``rmax`` are −1. Not remembered:
        :meth:`single_plan` remembers both colours' ids together (one colour's alone, held
        while building, was 276 MB at 3 v 2 with two jokers and never read again)."""
        rows, kids, offs = self.row_keys(owner, v_f, fam_x, x_side, colour, rmax)
        out = np.full((len(self.turned), 17), -1, dtype=np.int32)
        if len(rows):
            # many rows leave the drawing side the same class and offset: judged once each
            span = int(offs.max() - offs.min()) + 1
            _, first, inv = unique_ints(kids * span + (offs - offs.min()))
            ys = np.arange(off_f - 8, off_f + 9)
            o = offs[first]
            deltas = ys[None, :] - o[:, None] if x_side == 1 else o[:, None] - ys[None, :]
            out[rows] = self.judge.oids(np.broadcast_to(kids[first][:, None], deltas.shape), deltas)[inv.reshape(-1)]
        return out

    def single_plan(
        self,
        owner: str | None,
        fam_f: Family,
        x_side: int,
        fam_x: Family,
        pips_f: np.ndarray,
        numbered_left: np.ndarray,
        trumps_left: np.ndarray,
    ) -> SinglePlan:
        """The payoff-free part of entries where side ``x_side`` plays a Wild Trump and the
        other plays a Numbered card of ``fam_f.colour`` with ``pips_f`` (FM-6):
        ``numbered_left`` (entries x 18) and ``trumps_left`` (entries x Trump types) describe the
        deck left by both hands. Judges every class the draws reach, and records in
        ``used`` the outcomes that occur with positive probability."""
        f_side = 1 - x_side
        v_f, off_f = side_view(
            fam_f, fam_f.colour, _NO_DRAW, owner == ("attacker", "defender")[f_side], *self.judge.terms
        )
        rmax = tuple(int(v) for v in trumps_left.max(axis=0))
        # both colours' outcome ids, and the draws' laws from each deck left: shared, read only, by
        # the plans that ask the same
        key = ("plan", owner, v_f, off_f, fam_x, x_side, rmax)
        phis = self.phis.get(key)
        if phis is None:
            phis = np.stack([self.phi_oids(owner, v_f, off_f, fam_x, x_side, c, rmax) for c in NUMBER_COLOURS])
            self.phis[key] = phis
            phis.flags.writeable = False
        uniq, ridx = unique_rows(trumps_left)
        key = ("plan laws", uniq.shape, uniq.tobytes())
        probs = self.seconds.get(key)
        if probs is None:  # decks x rows
            probs = np.stack([draw_probs(tuple(int(v) for v in t), self.deck, self.row_caps) for t in uniq])
            probs.flags.writeable = False
            self.seconds[key] = probs
        nl = np.asarray(numbered_left, dtype=np.int8)  # no copy when given as int8 (the build does)
        if (nl.sum(axis=1) <= 0).any():  # pragma: no cover - the deck always keeps Numbered cards (solve_hidden checks)
            raise RuntimeError("a Wild Trump draw from a deck without Numbered cards")
        # (deck left, colour, column) of every Numbered type some entry's deck still holds
        entry, t = np.nonzero(nl)
        cells = (ridx[entry] * 2 + _BLACK_TYPE[t]) * 17 + (pips_f[entry] - _PIPS_OF_TYPE[t] + 8)
        reached = np.bincount(cells, minlength=len(uniq) * 34).reshape(len(uniq), 34) > 0
        # the outcomes that occur: (draw, colour, column) reached from some deck left with P(draw) > 0
        # (counts of decks as float64: exact whole numbers, through the fast product)
        hit = (probs > 0).T.astype(float) @ reached.astype(float) > 0  # rows x 34
        occur = phis.transpose(1, 0, 2).reshape(len(self.turned), -1)[hit]
        if (occur < 0).any():  # pragma: no cover - never for real deals
            raise RuntimeError("an attack class with a Wild Trump draw has no representative cards")
        self.used.update(np.flatnonzero(np.bincount(occur)).tolist())  # the distinct ids (no sort)
        return SinglePlan(ridx.astype(np.int32), pips_f.astype(np.int8), nl, phis, probs)

    @staticmethod
    def single_values(plan: SinglePlan, pv: np.ndarray) -> np.ndarray:
        """Expected ``pv`` rows (``pv``: outcome id x k values) of a :meth:`single_plan`'s
        entries: the Numbered card is uniform over those left (FM-6)."""
        k = pv.shape[1]
        pv_ext = np.vstack([pv, np.zeros((1, k))])  # id -1 -> 0 (never weighted)
        table = np.empty((len(plan.probs), 2, 17, k))
        # rows x (17 · k), the same for every deck left; each deck's law times it is the product
        # np.tensordot(p, ..., axes=(0, 0)) takes, without its reshaping on every call
        by_colour = [pv_ext[plan.phis[ci]].reshape(len(plan.phis[ci]), -1) for ci in (0, 1)]
        for u, p in enumerate(plan.probs):
            row = p.reshape(1, -1)
            for ci in (0, 1):
                table[u, ci] = np.dot(row, by_colour[ci]).reshape(17, k)
        nl = plan.numbered_left
        total = nl.sum(axis=1).astype(float)
        shares = nl.T / total  # [type, entry]: the Numbered card drawn is of that type
        kept = np.flatnonzero(shares.any(axis=1))  # types some entry's deck holds
        cols = plan.pips_f.astype(np.int64)[None, :] - _PIPS_OF_TYPE[kept, None] + 8
        out = np.zeros((len(total), k))
        step = max(1, (1 << 20) // max(1, out.size))  # types read at once (bounded memory)
        for lo in range(0, len(kept), step):
            part = slice(lo, lo + step)
            read = table[plan.ridx[None, :], _BLACK_TYPE[kept[part], None], cols[part]]
            for term in shares[kept[part], :, None] * read:  # type by type, in order (the same sums)
                out += term
        return out

    def _first_views(
        self, fam_a: Family, colour: str, trumps_left: tuple, live1: np.ndarray, mine: bool
    ) -> tuple[list[tuple[tuple, int]], np.ndarray]:
        """The attacker's views and offsets after each first draw ``rows[live1]`` before a
        Numbered card of ``colour`` (remembered: the same few decks recur)."""
        key = ("views", fam_a, colour, trumps_left, mine)
        got = self.seconds.get(key)
        if got is None:  # read from her views over every row (the same views and offsets)
            distinct, which, offs = self._row_views(fam_a, colour, mine)
            views = [distinct[w] for w in which[live1].tolist()]
            got = self.seconds[key] = (list(zip(views, offs[live1].tolist(), strict=True)), offs[live1])
        return got

    def _second_draws(self, trumps_left: tuple, live1: np.ndarray, rows2: np.ndarray) -> np.ndarray:
        """P(the second side's Trumps ``rows[rows2]``) after each first draw ``rows[live1]``
        (FM-6: from the deck the first draw left; remembered by the Trumps left)."""
        key = ("second", trumps_left, rows2.tobytes())
        got = self.seconds.get(key)
        if got is None:
            got = self.seconds[key] = np.array(
                [
                    draw_probs(
                        tuple(t - x for t, x in zip(trumps_left, self.turned[i], strict=True)),
                        self.deck - sum(self.turned[i]) - 1,
                        self.row_caps,
                    )[rows2]
                    for i in live1
                ]
            )
        return got

    def double(
        self, owner: str | None, fam_a: Family, fam_d: Family, trumps_left: tuple, numbered_left: tuple
    ) -> np.ndarray:
        """Expected outcome-id weights when both play Wild Trumps: the attacker turns up
        first, then the defender from what is left (FM-6). Returns a vector over the
        outcome ids known when it returns. The Trumps turned up depend only on the Trumps
        left (:meth:`double_parts`, remembered); the Numbered cards left only weigh the
        two Numbered cards turned up. A deck with at most :data:`PAIRWISE_ROWS` counts a
        draw may turn up is summed pair by pair instead (:meth:`double_pairwise`): the
        same law, added in the order the solver always used, so that the draft's games
        keep their last digits (CFR+ breaks exact ties on them: a reordered sum can move a
        report's bounds in the third decimal, within their exploitability)."""
        if len(self.turned) <= PAIRWISE_ROWS:
            return self.double_pairwise(owner, fam_a, fam_d, trumps_left, numbered_left)
        key = (owner, fam_a, fam_d, trumps_left)
        parts = self.doubles.get(key)
        if parts is None:
            parts = self.doubles[key] = self.double_parts(owner, fam_a, fam_d, trumps_left)
        # families that share the parts (and the Numbered cards left) share the vector: the
        # same weights added in the same order (only outcomes numbered since then are longer)
        n_out = len(self.judge.outcomes)
        vec_key = ("vector", id(parts), numbered_left)  # parts live in ``doubles`` while building
        vec = self.doubles.get(vec_key)
        if vec is not None:
            return vec if len(vec) == n_out else np.concatenate([vec, np.zeros(n_out - len(vec))])
        bounds, starts, weight, complete = parts
        ids = self.doubles.pop(("ids", id(parts)), None)  # as double_parts just read them
        if ids is None:
            ids = self.judge.oids_window(starts, 17)  # judged already (double_parts)
        coef = _numbered_pairs(numbered_left)
        # the pairs come in order of c2, then c1: each colour's block times its row of coef
        w = np.empty(ids.shape)
        for combo in range(4):
            lo, hi = bounds[combo], bounds[combo + 1]
            if hi > lo:
                c2, c1 = divmod(combo, 2)
                np.multiply(weight[lo:hi, None], coef[c1, c2][None, :], out=w[lo:hi])
        if complete:  # every id known: the zero weights add +0.0, which leaves every sum as it is
            vec = np.bincount(ids.reshape(-1), weights=w.reshape(-1), minlength=n_out)
        else:
            live = w > 0
            ids_c = ids[live]
            if (ids_c < 0).any():  # pragma: no cover - a class the referee could not be asked
                raise RuntimeError("an attack class with Wild Trump draws has no representative cards")
            vec = np.bincount(ids_c, weights=w[live], minlength=n_out)
        self.used.update(np.flatnonzero(vec).tolist())  # the outcomes that occur (every weight added is > 0)
        self.doubles[vec_key] = vec
        return vec

    def double_pairwise(
        self, owner: str | None, fam_a: Family, fam_d: Family, trumps_left: tuple, numbered_left: tuple
    ) -> np.ndarray:
        """:meth:`double` summed over every pair of (first draw, second draw), one by one."""
        ids_all, w_all = [], []
        for c2i in range(len(NUMBER_COLOURS)):
            for c1i in range(len(NUMBER_COLOURS)):
                # the pairs of draws with P > 0 (first draw x second draw, in that order) and
                # the pips differences the Numbered cards left can give: their weights and, for
                # these families, their class key ids and differences of values
                first, second, pair, cols, w = self._pair_weights(trumps_left, numbered_left, c1i, c2i)
                numbers, table, which, off_a, off_d = self._pair_kinds(owner, fam_a, fam_d, trumps_left, c1i, c2i)
                # the attacker's value p1 + off_a against the defender's p2 + off_d: per pair of
                # draws its class key id and difference of offsets, each pips difference along them
                kids = table[numbers[first], which[second]]
                ids_all.append(self.judge.oids_along(kids, off_a[first] - off_d[second], pair, cols))
                w_all.append(w)
        ids_c = np.concatenate(ids_all) if ids_all else np.zeros(0, dtype=np.int64)
        if (ids_c < 0).any():  # pragma: no cover - a class the referee could not be asked
            raise RuntimeError("an attack class with Wild Trump draws has no representative cards")
        w_c = np.concatenate(w_all) if w_all else np.zeros(0)
        vec = np.bincount(ids_c, weights=w_c, minlength=len(self.judge.outcomes))
        self.used.update(np.flatnonzero(vec).tolist())  # the outcomes that occur (every weight added is > 0)
        return vec

    def _pair_weights(
        self, trumps_left: tuple, numbered_left: tuple, c1i: int, c2i: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For :meth:`double_pairwise`: every (first draw, second draw, pips difference) with
        positive probability before Numbered cards of colours ``c1i``, ``c2i`` (FM-6), in the
        order first draw, second draw, difference: the pairs of draws with P > 0 (the first
        draw's row among the draws from ``trumps_left``, the second's), each entry's pair
        among them, its difference (column − 8) and P(first) · P(second | first) · P(the
        Numbered cards' colours and difference) (remembered: they do not depend on the
        families, and every double draw of a game shares its Numbered cards left)."""
        key = ("weights", trumps_left, numbered_left, c1i, c2i)
        got = self.seconds.get(key)
        if got is not None:
            return got
        coef = _pairwise_coef(numbered_left)[c1i, c2i]
        p1 = draw_probs(trumps_left, self.deck, self.row_caps)
        live1 = np.nonzero(p1)[0]
        rows2 = np.nonzero((self.turned_arr <= np.array(trumps_left)).all(axis=1))[0]
        pw = p1[live1][:, None] * self._second_draws(trumps_left, live1, rows2)
        first, second = np.nonzero(pw > 0)
        wanted = coef > 0
        # the same products, in the same order, as over every (first, second, column)
        w = pw[first, second][:, None] * coef[wanted][None, :]
        pair, col = np.nonzero(w > 0)
        got = (first, second, pair, (np.arange(17) - 8)[wanted][col], w[pair, col])
        self.seconds[key] = got
        return got

    def _pair_kinds(
        self, owner: str | None, fam_a: Family, fam_d: Family, trumps_left: tuple, c1i: int, c2i: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For :meth:`double_pairwise`: the class key ids of the (attacker's first draw,
        defender's second draw) from ``trumps_left`` before Numbered cards of colours
        ``c1i``, ``c2i`` (FM-6; first draws with P > 0 x second draws the deck allows) as
        ``table[numbers[first], which[second]]``: ``numbers`` the attacker's view after each
        first draw (its row of ``table``, :meth:`_kinds_by_number`), ``which`` the
        defender's view after each second; then the attacker's offset after each first draw
        and the defender's after each second."""
        views, numbers, off_a = self._first_numbers(fam_a, NUMBER_COLOURS[c1i], trumps_left, owner == "attacker")
        idx, table = self._kinds_by_number(owner, fam_d, NUMBER_COLOURS[c2i], [views], numbers)
        _, which, offs = self._row_views(fam_d, NUMBER_COLOURS[c2i], owner == "defender")
        rows2 = self._rows_within(trumps_left)
        return idx, table, which[rows2], off_a, offs[rows2]

    def _first_numbers(
        self, fam_a: Family, colour: str, trumps_left: tuple, mine: bool
    ) -> tuple[list[tuple], np.ndarray, np.ndarray]:
        """For :meth:`_pair_kinds`: the attacker's views after each first draw with P > 0 from
        ``trumps_left`` before a Numbered card of ``colour`` (:meth:`_first_views`), each by
        its view number, and her offsets (remembered)."""
        key = ("numbers", fam_a, colour, trumps_left, mine)
        got = self.seconds.get(key)
        if got is None:
            live1 = np.nonzero(draw_probs(trumps_left, self.deck, self.row_caps))[0]
            views, off_a = self._first_views(fam_a, colour, trumps_left, live1, mine)
            numbers = np.array([self.view_numbers.setdefault(va, len(self.view_numbers)) for va, _ in views])
            got = self.seconds[key] = ([va for va, _ in views], numbers.astype(np.int64), off_a)
        return got

    def _rows_within(self, trumps_left: tuple) -> np.ndarray:
        """The rows of :attr:`turned` a draw from ``trumps_left`` may turn up (remembered)."""
        key = ("within", trumps_left)
        got = self.seconds.get(key)
        if got is None:
            got = self.seconds[key] = np.nonzero((self.turned_arr <= np.array(trumps_left)).all(axis=1))[0]
        return got

    def _kinds_by_number(
        self, owner: str | None, fam_d: Family, c2: str, view_lists: list, numbers: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """For :meth:`double_parts` and :meth:`_pair_kinds`: :meth:`_kinds` of the defender
        ``fam_d`` (second draw, Numbered card of ``c2``) against every attacker's view of
        ``view_lists`` (lists one after the other; their view numbers ``numbers``), as rows of
        one table: each view's row and the table (remembered; the class keys not met yet are
        numbered in the order of the views, as one by one)."""
        key = (owner, fam_d, c2)
        got = self.kinds_by_number.get(key)
        if got is None:
            width = len(self._row_views(fam_d, c2, owner == "defender")[0])
            # each view number's row (-1: not yet), the rows, how many rows are filled
            got = self.kinds_by_number[key] = [np.full(0, -1, dtype=np.int64), np.zeros((0, width), dtype=np.int64), 0]
        slot, table, filled = got
        need = int(numbers.max()) + 1 if len(numbers) else 0
        if need > len(slot):
            slot = got[0] = np.concatenate([slot, np.full(max(need, 2 * len(slot)) - len(slot), -1, dtype=np.int64)])
        idx = slot[numbers]
        if (idx < 0).any():
            views = [va for views in view_lists for va in views]
            for i in np.flatnonzero(idx < 0).tolist():
                number = numbers[i]
                if slot[number] < 0:
                    if filled == len(table):
                        table = got[1] = np.vstack([table, np.zeros((max(8, filled), table.shape[1]), dtype=np.int64)])
                    table[filled] = self._kinds(owner, views[i], fam_d, 1, c2)
                    slot[number] = filled
                    filled = got[2] = filled + 1
            idx = slot[numbers]
        return idx, table

    def double_parts(
        self, owner: str | None, fam_a: Family, fam_d: Family, trumps_left: tuple
    ) -> tuple[list[int], np.ndarray, np.ndarray, bool]:
        """Both sides' Wild Trump draws from a deck holding ``trumps_left`` Trumps (FM-6), for
        the four colours of the two Numbered cards turned up (c1, c2) at once: the pairs of
        (attacker's view after her draw, defender's draw) in order of c2, then c1, where the
        pairs of colours c2 · 2 + c1 = 0..3 start and end (``bounds[k]:bounds[k + 1]``, for
        ``_numbered_pairs(...)[c1, c2]``), where each pair's outcome ids start in the judge's
        table (:meth:`~.judge.Judge.oids_window`: x 17 pips differences, column = attacker's
        pips - defender's + 8; -1 where no cards realise it) and its probability; and whether
        every id is known (none -1). First draws that leave
        the attacker the same view and offset are one group, and so are second draws that
        leave the defender the same view and offset: the referee reads only those, so their
        weights add up (the pairs of groups are few: the class keys are looked up once per
        group, never per pair of draws)."""
        p1 = draw_probs(trumps_left, self.deck, self.row_caps)
        live1 = np.nonzero(p1)[0]
        mine_a = owner == "attacker"
        # the defender's draws reachable from this deck, and their law after each first draw:
        # the same whatever colour the Numbered cards turned up are
        rows2 = self._rows_within(trumps_left)
        firsts_by_colour = []
        for c1 in NUMBER_COLOURS:
            key = ("groups", fam_a, c1, trumps_left, mine_a)  # shared by every defender's family
            got = self.doubles.get(key)
            if got is None:
                # her view (its index among her distinct views) and offset after each first draw,
                # grouped by both as one whole number
                distinct, which, offs = self._row_views(fam_a, c1, mine_a)
                view_1, off_1 = which[live1], offs[live1]
                low = int(off_1.min())
                at, order, starts = group_ints(view_1 * (int(off_1.max()) - low + 1) + (off_1 - low))
                firsts = [distinct[i] for i in view_1[at].tolist()]
                joint = p1[live1][:, None] * self._second_draws(trumps_left, live1, rows2)
                pair = np.add.reduceat(joint[order], starts, axis=0)  # first-draw group x second draw
                # each view also by a number (cheap to look up, where a view is a nested tuple)
                numbers = np.array(
                    [self.view_numbers.setdefault(va, len(self.view_numbers)) for va in firsts], dtype=np.int64
                )
                offs_a = off_1[at]
                # what the parts read of these first draws, as one number (equal for families whose
                # draws leave the attacker the same views and offsets, grouped alike)
                sig = (numbers.tobytes(), offs_a.tobytes(), order.tobytes(), starts.tobytes())
                # and the law of these groups alone (equal for families whose first draws group
                # alike, whatever their views: the pairs of groups below read only it)
                law = self.signatures.setdefault(("law", pair.shape, pair.tobytes()), len(self.signatures))
                # one array per law (a few dozen laws for some 1,600 groups at 3 v 2 with two jokers)
                pair = self.doubles.setdefault(("law of groups", law), pair)
                got = self.doubles[key] = (
                    firsts,
                    offs_a,
                    pair,
                    numbers,
                    self.signatures.setdefault(sig, len(self.signatures)),
                    law,
                )
            firsts_by_colour.append(got)
        mine_d = owner == "defender"
        seconds_by_colour = []
        for c2 in NUMBER_COLOURS:
            key = ("seconds", fam_d, c2, mine_d, trumps_left)  # shared by every attacker's family
            got = self.doubles.get(key)
            if got is None:
                distinct, which, offs = self._row_views(fam_d, c2, mine_d)
                view_2, off_2 = which[rows2], offs[rows2]
                low = int(off_2.min())
                at, order_d, starts_d = group_ints(view_2 * (int(off_2.max()) - low + 1) + (off_2 - low))
                seconds_arr = np.stack([view_2[at], off_2[at]], axis=1)
                # likewise for the defender's second draws: her distinct views, and each group's
                sig = (
                    tuple(self.view_numbers.setdefault(v, len(self.view_numbers)) for v in distinct),
                    seconds_arr.tobytes(),
                    order_d.tobytes(),
                    starts_d.tobytes(),
                )
                grouping = ("grouping", order_d.tobytes(), starts_d.tobytes())
                got = self.doubles[key] = (
                    seconds_arr,
                    order_d,
                    starts_d,
                    self.signatures.setdefault(sig, len(self.signatures)),
                    self.signatures.setdefault(grouping, len(self.signatures)),
                )
            seconds_by_colour.append(got)
        # the parts read the families only through these (views, offsets and groups of both
        # sides' draws; class keys are of views): families that leave them equal share them
        # (the same arrays: the classes and differences they reach are judged already)
        same = ("parts", owner, trumps_left, *(f[4] for f in firsts_by_colour), *(g[3] for g in seconds_by_colour))
        got = self.doubles.get(same)
        if got is not None:
            return got
        # the pairs of (first-draw group, second-draw group) with P > 0 for both colours of the
        # second card, their colours (c2 · 2 + c1) and probabilities (shared by every family whose
        # draws group alike: few laws of groups recur across the families)
        pairs_of_groups = self._pairs_of_groups(firsts_by_colour, seconds_by_colour)
        off_a = np.concatenate([f[1] for f in firsts_by_colour])
        numbers = np.concatenate([f[3] for f in firsts_by_colour])
        span_o = 2 * self.judge.delta_off
        kids_l, diff_l = [], []
        for c2, got, (g, r) in zip(NUMBER_COLOURS, seconds_by_colour, pairs_of_groups[0], strict=True):
            view_d, off_d = got[0].T
            idx, kinds = self._kinds_by_number(owner, fam_d, c2, [f[0] for f in firsts_by_colour], numbers)
            kids_l.append(kinds[idx[g], view_d[r]])
            diff_l.append(off_a[g] - off_d[r])
        # pairs of groups that leave the same colours, the same class and the same difference
        # of offsets (the attacker's minus the defender's) are one: the referee reads only
        # those (with the difference of the Numbered cards' pips), so their weights add up
        combo, kid, diff, weight = sum_by_triple(
            pairs_of_groups[1], np.concatenate(kids_l), np.concatenate(diff_l), pairs_of_groups[2]
        )
        rest = kid * span_o + diff + self.judge.delta_off
        # the attacker's value p1 + off_a against the defender's p2 + off_d: ``rest`` is the
        # judge's table position of (class key id, off_a - off_d) (Judge.oids_at), the
        # Numbered cards' difference of pips moves along its row
        off = self.judge.delta_off  # each column reaches within +- 8 of the difference
        if len(diff) and (diff.min() + off - 8 < 0 or diff.max() + off + 8 >= span_o):  # pragma: no cover
            raise RuntimeError("difference of values out of the table's range")
        starts = rest - 8  # each pair's 17 columns, from the pips difference -8
        ids = self.judge.oids_window(starts, 17)  # judges what is new (kept: only their start)
        bounds = np.searchsorted(combo, np.arange(5)).tolist()  # where each colours' pairs start (sorted)
        # kept until the build ends (families that share them ask again): table positions fit int32
        got = self.doubles[same] = (bounds, starts.astype(np.int32), weight, bool((ids >= 0).all()))
        self.doubles[("ids", id(got))] = ids  # for the vector :meth:`double` makes next (not kept)
        return got

    def _pairs_of_groups(self, firsts_by_colour: list, seconds_by_colour: list) -> tuple[list, np.ndarray, np.ndarray]:
        """For :meth:`double_parts`: per colour of the second Numbered card, the (first-draw
        group, second-draw group) pairs with P > 0 (both colours of the first card stacked,
        their groups one after the other); then for both colours of the second card one after
        the other, each pair's colours c2 · 2 + c1 and probability (remembered by the first
        draws' laws and the second draws' grouping: the same arrays for every family that
        shares them)."""
        key = ("pairs of groups", *(f[5] for f in firsts_by_colour), *(g[4] for g in seconds_by_colour))
        got = self.doubles.get(key)
        if got is None:
            first_colour = np.concatenate([np.full(len(f[1]), c1i) for c1i, f in enumerate(firsts_by_colour)])
            pairs_both = np.vstack([f[2] for f in firsts_by_colour])
            where, colours, weights = [], [], []
            for c2i, (_, order_d, starts_d, *_) in enumerate(seconds_by_colour):
                pair = np.add.reduceat(pairs_both[:, order_d], starts_d, axis=1)  # first-draw x second-draw group
                g, r = np.nonzero(pair)
                where.append((g, r))
                colours.append(2 * c2i + first_colour[g])
                weights.append(pair[g, r])
            got = self.doubles[key] = (where, np.concatenate(colours), np.concatenate(weights))
        return got


@lru_cache(maxsize=4096)
def _numbered_pairs(numbered_left: tuple) -> np.ndarray:
    """P(the first Numbered card turned up is of colour c1, the second of colour c2, their
    pips differing by col - 8), the second drawn from what the first left (FM-6): [c1, c2, col]
    (remembered, read only: the double draws of a game share a few decks left)."""
    n_left = np.array(numbered_left, dtype=float)
    total = n_left.sum()
    both = (n_left[:, None] * n_left[None, :] - np.diag(n_left)) / (total * (total - 1))
    coef = np.zeros((2, 2, 17))
    np.add.at(coef, (_PAIR_C1, _PAIR_C2, _PAIR_COL), both.ravel())
    coef.flags.writeable = False
    return coef


@lru_cache(maxsize=4096)
def _pairwise_coef(numbered_left: tuple) -> np.ndarray:
    """coef[c1][c2][col]: P(the first Numbered card turned up is of colour c1, the second of
    colour c2, their pips differing by col - 8), the second drawn from what the first left
    (FM-6), added pair of types by pair of types as :meth:`Draws.double_pairwise` always has
    (remembered, read only: the double draws of a game share a few decks left)."""
    n_left = np.array(numbered_left, dtype=float)
    total = n_left.sum()
    coef = np.zeros((2, 2, 17))
    for t1 in range(18):
        if not n_left[t1]:
            continue
        left2 = n_left.copy()
        left2[t1] -= 1
        for t2 in range(18):
            if left2[t2]:
                coef[int(t1 >= 9), int(t2 >= 9), type_pips(t1) - type_pips(t2) + 8] += (
                    n_left[t1] / total * left2[t2] / (total - 1)
                )
    coef.flags.writeable = False
    return coef


_PAIR_C1 = np.repeat((np.arange(18) >= 9).astype(int), 18)
_PAIR_C2 = np.tile((np.arange(18) >= 9).astype(int), 18)
_PAIR_COL = np.repeat(_PIPS_OF_TYPE, 18) - np.tile(_PIPS_OF_TYPE, 18) + 8


def build_matrix(game: Game) -> None:
    """Fill ``game.matrix`` (attacker sequences x defender sequences: deal weight x expected
    payoff to the attacker) and keep the entries for outcome tables (cold: no sharing)."""
    _build_shared(game)
    _assemble(game)


#: The payoff-free part of recent games (:func:`build_game`), by (a, d, deck, rules): a
#: 3 v 2 game holds about 0.27 GB (measured: entries 106 MB, the matrix's pattern 74 MB, draw plans
#: 41 MB, judgements and draw laws; its matrix for one payoff is 111 MB more), so few are kept.
_BUILDS: OrderedDict[tuple, Game] = OrderedDict()
_BUILDS_KEPT = 2


def clear_build_cache() -> None:
    """Forget the games remembered between payoffs (:func:`build_game`) and the referee's
    judgements shared between games (:func:`~.judge.clear_judgements`)."""
    _BUILDS.clear()
    clear_judgements()


def build_game(a: int, d: int, caps: tuple[int, ...], rules: Rules, payoff: Payoff) -> Game:
    """Return the game of an ``a`` v ``d`` attack from deck ``caps`` with its matrix for
    ``payoff`` (FM-1..FM-12). Everything but the payoff — sequence trees, referee
    judgements, Wild Trump draw laws, entries — is built once per (a, d, deck, rules) and
    shared by the games of other payoffs (the :data:`_BUILDS_KEPT` most recent); each
    call returns a new game holding its own matrix, payoff range and policy caches."""
    key = (a, d, tuple(caps), rules)
    shared = _BUILDS.get(key)
    if shared is None:
        game = build_structure(a, d, caps, rules, payoff)
        _build_shared(game)
        _BUILDS[key] = dataclasses.replace(game, policy_cache={})
        while len(_BUILDS) > _BUILDS_KEPT:
            _BUILDS.popitem(last=False)
    else:
        _BUILDS.move_to_end(key)
        game = dataclasses.replace(shared, payoff=payoff, matrix=None, payoff_range=0.0, policy_cache={})
    _assemble(game)
    return game


def _build_shared(game: Game) -> None:
    """Judge every attack class and lay out every entry of ``game``'s matrix, without the
    payoff: the plain entries' outcome ids (``coo``), the Wild Trump draws' groups
    (:class:`SinglePlan` or the double draws' outcome weights), the outcomes that occur,
    and the matrix's sparse pattern (FM-3..FM-12)."""
    judge = Judge(game.rules)
    game.judge = judge
    deck = sum(game.caps) - game.a - game.d
    trump_types = tuple(range(RED_TRUMP, len(game.caps)))  # red, black, the death card[, jokers]
    game.draws = Draws(judge, deck, tuple(game.caps[RED_TRUMP:]))
    sa, sd = game.seqs
    ha_arr, hd_arr = np.array(game.hands[0]), np.array(game.hands[1])
    n_obs = len(game.obs)
    n_pl = len(game.placed)

    def group_index(s: dict[str, np.ndarray]) -> dict[int, np.ndarray]:
        code = ((s["da"] * 2 + s["dd"]) * n_pl + s["placed"]) * n_obs + s["obs"]
        order = np.argsort(code, kind="stable")
        uniq, starts = np.unique(code[order], return_index=True)
        ends = list(starts[1:]) + [len(order)]
        return {int(u): order[b:e] for u, b, e in zip(uniq, starts, ends, strict=True)}

    ga, gd = group_index(sa), group_index(sd)
    obs_id = {o: i for i, o in enumerate(game.obs)}
    rows_l, cols_l, w_l, oid_l = [], [], [], []
    draw_entries: list[tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, tuple]]] = []
    trump_caps = np.array(game.caps[18:])
    num_caps = np.array(game.caps[:18])
    for da, dd in itertools.product((0, 1), (0, 1)):
        for pa_i, pa in enumerate(game.placed):
            for pd_i, pd in enumerate(game.placed):
                o_for_a = obs_id.get(observed(pd, pa))
                o_for_d = obs_id.get(observed(pa, pd))
                if o_for_a is None or o_for_d is None:
                    continue
                seq_a = ga.get(((da * 2 + dd) * n_pl + pa_i) * n_obs + o_for_a)
                seq_d = gd.get(((da * 2 + dd) * n_pl + pd_i) * n_obs + o_for_d)
                if seq_a is None or seq_d is None:
                    continue
                hand_a, hand_d = sa["hand"][seq_a], sd["hand"][seq_d]
                w = game.weights[hand_a[:, None], hand_d[None, :]]
                ii, jj = np.nonzero(w)
                if not len(ii):
                    continue
                rows, cols, ww = seq_a[ii], seq_d[jj], w[ii, jj]
                card_a, card_d = sa["card"][rows], sd["card"][cols]
                wild_a, wild_d = card_a >= 18, card_d >= 18
                plain = ~wild_a & ~wild_d
                table = _plain_table(judge, da, dd, pa, pd, len(game.caps))
                rows_l.append(rows[plain].astype(np.int32))  # only for the pattern: sequence numbers fit int32
                cols_l.append(cols[plain].astype(np.int32))
                w_l.append(ww[plain])
                oid_l.append(table[card_a[plain], card_d[plain]].astype(np.int32))  # as coo keeps them
                # Wild Trump draws (FM-6): one side draws
                for x_side, mask in ((1, ~wild_a & wild_d), (0, wild_a & ~wild_d)):
                    if not mask.any():
                        continue
                    r_m, c_m, w_m = rows[mask], cols[mask], ww[mask]
                    cf = card_d[mask] if x_side == 0 else card_a[mask]
                    cx = card_a[mask] if x_side == 0 else card_d[mask]
                    for colour_red in (True, False):
                        for wild in trump_types:
                            sel = (cx == wild) & ((cf < 9) == colour_red)
                            if not sel.any():
                                continue
                            colour = "red" if colour_red else "black"
                            fam_f = Family(
                                "play", decl_sign(dd if x_side == 0 else da), pd if x_side == 0 else pa, None, colour
                            )
                            fam_x = family_of(decl_sign(da if x_side == 0 else dd), pa if x_side == 0 else pd, wild)
                            fams = (fam_x, fam_f) if x_side == 0 else (fam_f, fam_x)
                            owner = hidden_owner(*fams, game.rules)
                            hands_sel_a = sa["hand"][r_m[sel]]
                            hands_sel_d = sd["hand"][c_m[sel]]
                            both = ha_arr[hands_sel_a] + hd_arr[hands_sel_d]
                            # int8, as the plan keeps them (int64 held 122 MB at 3 v 2 with two jokers)
                            numbered_left = (num_caps[None, :] - both[:, :18]).astype(np.int8)
                            trumps_left = trump_caps[None, :] - both[:, 18:]
                            pips_f = _PIPS_OF_TYPE[cf[sel]]
                            args = (owner, fam_f, x_side, fam_x, pips_f, numbered_left, trumps_left)
                            draw_entries.append((r_m[sel], c_m[sel], w_m[sel], ("single", args)))
                mask = wild_a & wild_d
                if mask.any():
                    for e in np.nonzero(mask)[0]:
                        ha_i, hd_i = sa["hand"][rows[e]], sd["hand"][cols[e]]
                        fam_a = family_of(decl_sign(da), pa, int(card_a[e]))
                        fam_d = family_of(decl_sign(dd), pd, int(card_d[e]))
                        both = ha_arr[ha_i] + hd_arr[hd_i]
                        tl = tuple(int(v) for v in trump_caps - both[18:])
                        nl = tuple(int(v) for v in num_caps - both[:18])
                        args2 = (hidden_owner(fam_a, fam_d, game.rules), fam_a, fam_d, tl, nl)
                        one = (rows[e : e + 1].copy(), cols[e : e + 1].copy(), ww[e : e + 1].copy())  # not views
                        draw_entries.append((*one, ("double", args2)))
    if any((o < 0).any() for o in oid_l):  # pragma: no cover - every real play has representative cards
        raise RuntimeError("an attack class without a Wild Trump draw has no representative cards")
    # the plain entries: deal weight and outcome id (their cells: plain_cells, from the pattern)
    game.coo = {"w": np.concatenate(w_l), "oid": np.concatenate(oid_l)}
    del w_l, oid_l
    groups = []
    for r, c, w, (kind, args) in draw_entries:
        if kind == "single":
            groups.append((r, c, w, ("single", game.draws.single_plan(*args))))
        else:
            if args not in game.double_cache:
                game.double_cache[args] = game.draws.double(*args)
            groups.append((r, c, w, ("double", args)))
    game.draw_groups = groups
    game.draws.doubles.clear()  # only the build reads them
    game.draws.view_numbers.clear()
    game.draws.signatures.clear()
    game.draws.phis.clear()
    game.draws.kinds_by_number.clear()
    game.draws.used.update(np.flatnonzero(np.bincount(game.coo["oid"])).tolist())  # the distinct ids (no sort)
    # the matrix's pattern: where each entry lands in CSR order (no two entries share a cell)
    # (int32 throughout: half the memory of the build's peak, the same pattern)
    rows = np.concatenate([*rows_l, *(g[0] for g in groups)], dtype=np.int32)
    cols = np.concatenate([*cols_l, *(g[1] for g in groups)], dtype=np.int32)
    del rows_l, cols_l
    shape = (len(game.seqs[0]["hand"]), len(game.seqs[1]["hand"]))
    pattern = sp.csr_matrix((np.arange(len(rows), dtype=np.int32), (rows, cols)), shape=shape)
    if pattern.nnz != len(rows):  # pragma: no cover - every pair of sequences is one entry
        raise RuntimeError("two entries of the payoff matrix share a cell")
    game.pattern = (pattern.data.astype(np.int32), pattern.indices, pattern.indptr, shape)


def plain_cells(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Return the (attacker sequence, defender sequence) of every plain entry of
    ``game.coo`` (no Wild Trump draw), recovered from the matrix's pattern."""
    order, indices, indptr, shape = game.pattern
    n = len(game.coo["w"])
    rows = np.empty(len(order), dtype=np.int32)
    rows[order] = np.repeat(np.arange(shape[0], dtype=np.int32), np.diff(indptr))
    cols = np.empty(len(order), dtype=np.int32)
    cols[order] = indices
    return rows[:n], cols[:n]


def draw_values(game: Game, group: tuple, pv_fn: Callable[[], np.ndarray]) -> np.ndarray:
    """Expected values (entries x k) of one group of draw entries; ``pv_fn()`` gives the
    values of every outcome id (outcome ids x k) once the group's classes are judged."""
    kind, args = group[3]
    pv = pv_fn()
    if kind == "single":
        return game.draws.single_values(args, pv)
    got = game.double_cache[args]
    vec = np.zeros(pv.shape[0])
    vec[: len(got)] = got
    return (vec @ pv)[None, :]


def _assemble(game: Game) -> None:
    """Fill ``game.matrix`` and ``game.payoff_range`` for ``game.payoff`` from the shared
    build (:func:`_build_shared`): each outcome valued once by ``Payoff.of``."""
    pv = game.judge.payvec(game.payoff)
    vals = [game.coo["w"] * pv[game.coo["oid"]]]
    vals += [g[2] * draw_values(game, g, lambda: pv[:, None])[:, 0] for g in game.draw_groups]
    order, indices, indptr, shape = game.pattern
    data = np.concatenate(vals)[order]
    game.matrix = sp.csr_matrix((data, indices.copy(), indptr.copy()), shape=shape)
    # the payoff range: over every outcome that occurs with positive probability
    payoffs = pv[sorted(game.draws.used)]
    game.payoff_range = float(payoffs.max() - payoffs.min()) if len(payoffs) else 0.0


def _plain_table(judge: Judge, da: int, dd: int, pa: Placed, pd: Placed, n_types: int) -> np.ndarray:
    """Outcome ids of both playing Numbered cards (18 x 18 types, in a table of ``n_types``
    squared) after these declarations and Trumps (FM-4, FM-5, FM-8..FM-10)."""
    out = np.empty((n_types, n_types), dtype=np.int64)
    out.fill(-1)
    for ca in NUMBER_COLOURS:
        for cd in NUMBER_COLOURS:
            fam_a = Family("play", decl_sign(da), pa, None, ca)
            fam_d = Family("play", decl_sign(dd), pd, None, cd)
            owner = hidden_owner(fam_a, fam_d, judge.rules)
            va, off_a = side_view(fam_a, ca, _NO_DRAW, owner == "attacker", *judge.terms)
            vd, off_d = side_view(fam_d, cd, _NO_DRAW, owner == "defender", *judge.terms)
            kid = judge.kid(class_key(owner, va, vd))
            ta = np.array([t for t in range(18) if type_colour(t) == ca])
            td = np.array([t for t in range(18) if type_colour(t) == cd])
            deltas = (_PIPS_OF_TYPE[ta][:, None] + off_a) - (_PIPS_OF_TYPE[td][None, :] + off_d)
            out[np.ix_(ta, td)] = judge.oids(np.full(deltas.shape, kid), deltas)
    return out
