"""CFR+ over two players' sequence trees: generic, vectorised with numpy.

A zero-sum game of imperfect information in sequence form — each player's tree of
information sets and actions (:class:`SequenceTree`) and a sparse matrix of player 0's
payoff for every pair of terminal sequences — is solved by CFR+ (Tammelin 2014: regret
matching+, alternating updates, linearly weighted average strategies, :class:`CFRPlus`).
:func:`best_response_value` and :func:`profile_value` measure any pair of strategies
exactly (float64), so the exploitability of the average is a measured figure.

Nothing here knows a game: a system's solver (the hidden-hands solver of the card
combat) builds the trees and the matrix.

>>> import numpy as np, scipy.sparse as sp
>>> trees = (SequenceTree(), SequenceTree())  # matching pennies: one information set each
>>> for t in trees:
...     t.add_level([0, 0], [0])
>>> cfr = CFRPlus(trees, sp.csr_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]])))
>>> for _ in range(200):
...     cfr.step()
>>> value = profile_value(trees, cfr.m, cfr.average(0), cfr.average(1))
>>> [round(float(x), 2) for x in cfr.average(0)[0]], abs(value) < 1e-3
([0.5, 0.5], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = [
    "SequenceTree",
    "CFRPlus",
    "regret_matching",
    "normalise",
    "reaches",
    "counterfactual_values",
    "best_response_value",
    "profile_value",
]


class SequenceTree:
    """One player's sequence tree, level by level: each level's information sets and
    their actions ("slots"), stored contiguously per information set; a slot's
    information set hangs under a slot of the level above (``inf_parent``)."""

    def __init__(self) -> None:
        self.levels: list[dict[str, Any]] = []

    def add_level(self, slot_inf: list[int], inf_parent: list[int]) -> None:
        """Add a level: the information set of each slot, and the parent slot (of the
        level above) of each information set."""
        slot_inf_a = np.asarray(slot_inf, dtype=np.int64)
        n_inf = len(inf_parent)
        starts = np.searchsorted(slot_inf_a, np.arange(n_inf))
        counts = np.bincount(slot_inf_a, minlength=n_inf)
        self.levels.append(
            {
                "slot_inf": slot_inf_a,
                "inf_parent": np.asarray(inf_parent, dtype=np.int64),
                "n_inf": n_inf,
                "n_slot": len(slot_inf_a),
                "starts": starts,
                "counts": counts.astype(float),
            }
        )


def regret_matching(level: dict[str, Any], regrets: np.ndarray) -> np.ndarray:
    """The strategy of one level from its regrets (regret matching: positive regrets
    normalised per information set, uniform where none is positive)."""
    pos = np.maximum(regrets, 0.0)
    sums = np.bincount(level["slot_inf"], weights=pos, minlength=level["n_inf"])
    uniform = 1.0 / level["counts"]
    s = sums[level["slot_inf"]]
    return np.where(s > 0, pos / np.where(s > 0, s, 1.0), uniform[level["slot_inf"]])


def normalise(level: dict[str, Any], weights: np.ndarray) -> np.ndarray:
    """Weights of one level's slots normalised per information set (uniform where all are 0)."""
    sums = np.bincount(level["slot_inf"], weights=weights, minlength=level["n_inf"])
    s = sums[level["slot_inf"]]
    return np.where(s > 0, weights / np.where(s > 0, s, 1.0), 1.0 / level["counts"][level["slot_inf"]])


def reaches(side: SequenceTree, strat: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Own reach of every information set and of every slot, level by level."""
    inf_r, slot_r = [], []
    prev = None
    for lv, s in zip(side.levels, strat, strict=True):
        ir = np.ones(lv["n_inf"]) if prev is None else prev[lv["inf_parent"]]
        sr = ir[lv["slot_inf"]] * s
        inf_r.append(ir)
        slot_r.append(sr)
        prev = sr
    return inf_r, slot_r


def counterfactual_values(
    side: SequenceTree, strat: list[np.ndarray] | None, terminal: np.ndarray
) -> tuple[list, list]:
    """Counterfactual values bottom-up: per slot and per information set; ``strat=None``
    takes the best action everywhere (a best response)."""
    n = len(side.levels)
    slot_v: list[np.ndarray] = [np.empty(0)] * n
    inf_v: list[np.ndarray] = [np.empty(0)] * n
    v = terminal
    for i in range(n - 1, -1, -1):
        lv = side.levels[i]
        slot_v[i] = v
        if strat is None:
            iv = np.maximum.reduceat(v, lv["starts"]) if lv["n_slot"] else np.zeros(0)
        else:
            iv = np.bincount(lv["slot_inf"], weights=strat[i] * v, minlength=lv["n_inf"])
        inf_v[i] = iv
        if i:
            v = np.bincount(lv["inf_parent"], weights=iv, minlength=side.levels[i - 1]["n_slot"])
    return slot_v, inf_v


class CFRPlus:
    """Vectorised CFR+ over both players' sequence trees (alternating updates, regret
    matching+, linear averaging of the strategies).

    Args:
        trees: the two players' :class:`SequenceTree`.
        matrix: the payoff of player 0 (player 1 gets its negative) for every pair of
            terminal sequences, chance and deal weights included: rows player 0's last
            level slots, columns player 1's.
    """

    def __init__(self, trees: Sequence[SequenceTree], matrix: sp.spmatrix) -> None:
        self.trees = tuple(trees)
        self.m = matrix
        self.mt = matrix.T.tocsr()
        self.regrets = [[np.zeros(lv["n_slot"]) for lv in side.levels] for side in self.trees]
        self.avg = [[np.zeros(lv["n_slot"]) for lv in side.levels] for side in self.trees]
        self.strat = [
            [regret_matching(lv, r) for lv, r in zip(side.levels, rs, strict=True)]
            for side, rs in zip(self.trees, self.regrets, strict=True)
        ]
        self.t = 0

    def terminal_reach(self, p: int, strat: list[np.ndarray]) -> np.ndarray:
        """Player ``p``'s own reach of each of her terminal sequences under ``strat``."""
        return reaches(self.trees[p], strat)[1][-1]

    def cf(self, p: int, opp_reach: np.ndarray) -> np.ndarray:
        """Counterfactual payoff of player ``p``'s terminal sequences (her own payoff)."""
        return self.m @ opp_reach if p == 0 else -(self.mt @ opp_reach)

    def step(self) -> None:
        """One iteration: each player in turn updates her regrets and strategy."""
        self.t += 1
        for p in (0, 1):
            side = self.trees[p]
            opp = self.terminal_reach(1 - p, self.strat[1 - p])
            slot_v, inf_v = counterfactual_values(side, self.strat[p], self.cf(p, opp))
            for i, lv in enumerate(side.levels):
                r = self.regrets[p][i]
                r += slot_v[i] - inf_v[i][lv["slot_inf"]]
                np.maximum(r, 0.0, out=r)
                self.strat[p][i] = regret_matching(lv, r)
            inf_r, _ = reaches(side, self.strat[p])
            for i, lv in enumerate(side.levels):
                self.avg[p][i] += self.t * inf_r[i][lv["slot_inf"]] * self.strat[p][i]

    def average(self, p: int) -> list[np.ndarray]:
        """Player ``p``'s average strategy, level by level (what converges to an equilibrium)."""
        return [normalise(lv, s) for lv, s in zip(self.trees[p].levels, self.avg[p], strict=True)]


def best_response_value(
    trees: Sequence[SequenceTree], matrix: sp.spmatrix, p: int, opp_strat: list[np.ndarray]
) -> float:
    """Exact (float64) value of player ``p``'s best response against a fixed strategy of
    the other, in player 0's payoff units (so player 1's is a minimum)."""
    opp = reaches(trees[1 - p], opp_strat)[1][-1]
    cf = matrix @ opp if p == 0 else -(matrix.T @ opp)
    _, inf_v = counterfactual_values(trees[p], None, cf)
    best = float(inf_v[0].sum())
    return best if p == 0 else -best


def profile_value(
    trees: Sequence[SequenceTree], matrix: sp.spmatrix, strat_0: list[np.ndarray], strat_1: list[np.ndarray]
) -> float:
    """Player 0's expected payoff when both play the given strategies."""
    ra = reaches(trees[0], strat_0)[1][-1]
    rd = reaches(trees[1], strat_1)[1][-1]
    return float(ra @ (matrix @ rd))
