"""Solve a sequence-form game by linear programming (HiGHS) and verify it exactly.

Each side's sequence-form LP is solved with HiGHS through ``scipy.optimize.linprog``; the
strategies are turned into exact fractions and *verified*: each side's best response to the
other is computed exactly, and their gap (the exploitability) is 0 for an exact equilibrium.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolkit.equilibrium.exact_vertex import exact_plan
from toolkit.equilibrium.sequence_form import GameTree, Strategy, best_response, realisation
from toolkit.errors import ToolkitError

__all__ = ["Equilibrium", "solve", "verify"]


@dataclass(frozen=True)
class Equilibrium:
    """A verified solution of a :class:`GameTree`.

    Attributes:
        lower, upper: exact bounds on the game value: what player 1's best response
            concedes against player 0's strategy, and what player 0's best response gets
            against player 1's. Equal when the pair is an exact equilibrium.
        exploitability: ``upper - lower`` (0 for an exact equilibrium).
        strategies: per player, one mix (action -> exact probability) per information set.
        seconds: time spent solving and verifying (not building).
    """

    tree: GameTree
    strategies: tuple[Strategy, Strategy]
    lower: Fraction
    upper: Fraction
    seconds: float

    @property
    def exploitability(self) -> Fraction:
        return self.upper - self.lower

    @property
    def verified(self) -> bool:
        """Whether the strategies are an exact equilibrium (exploitability 0)."""
        return self.upper == self.lower

    @property
    def value(self) -> Fraction:
        """The game value when verified; otherwise the middle of the bounds."""
        return self.lower if self.verified else (self.lower + self.upper) / 2

    def strategy(self, player: int) -> Strategy:
        return self.strategies[player]

    def reach(self, player: int) -> list[Fraction]:
        """Per information set of ``player``: the exact probability that the game reaches
        it when both play these strategies (chance included)."""
        plans = (realisation(self.tree, 0, self.strategies[0]), realisation(self.tree, 1, self.strategies[1]))
        mine, theirs = plans[player], plans[1 - player]
        return [
            mine[info.parent] * sum((theirs[s] * c for s, c in info.met), Fraction(0))
            for info in self.tree.infosets[player]
        ]


def _lp(tree: GameTree, player: int) -> list[float]:
    """Solve the sequence-form LP of ``player`` (HiGHS); return her realisation plan
    followed by the LP's other variables (the opponent's information-set values)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    n = tree.sequences
    me, other = player, 1 - player

    def constraints(p: int) -> Any:
        rows, cols, vals = [0], [0], [1.0]
        for r, info in enumerate(tree.infosets[p], start=1):
            rows.append(r)
            cols.append(info.parent)
            vals.append(-1.0)
            for k in range(len(info.actions)):
                rows.append(r)
                cols.append(info.sequence(k))
                vals.append(1.0)
        return coo_matrix((vals, (rows, cols)), shape=(len(tree.infosets[p]) + 1, n[p]))

    keys = list(tree.payoff)
    pay = np.array([float(tree.payoff[k]) for k in keys])
    sa = np.array([k[0] for k in keys], dtype=int)
    sd = np.array([k[1] for k in keys], dtype=int)
    # payoff to `me` as a maximiser: A (n_me x n_other)
    mine, theirs = (sa, sd) if me == 0 else (sd, sa)
    sign = 1.0 if me == 0 else -1.0
    e, f = constraints(me), constraints(other)
    width = n[me] + f.shape[0]
    # max q0  s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0,  q free
    # [-A^T | F^T] and [E | 0] laid out entry by entry as scipy.sparse.hstack lays them
    # (the same matrices, bit for bit, without its general block machinery)
    a_ub = coo_matrix(
        (
            np.concatenate([-(sign * pay), f.data]),
            (np.concatenate([theirs, f.col]), np.concatenate([mine, f.row + n[me]])),
        ),
        shape=(n[other], width),
    ).tocsr()
    a_eq = coo_matrix((e.data, (e.row, e.col)), shape=(e.shape[0], width)).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    c = np.zeros(n[me] + f.shape[0])
    c[n[me]] = -1.0
    bounds = [(0, None)] * n[me] + [(None, None)] * f.shape[0]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n[other]), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - a well-formed game always has a solution
        raise ToolkitError(f"the LP solver failed: {res.message}")
    return [float(v) for v in res.x]


def _behaviour(tree: GameTree, player: int, plan: Sequence[float | Fraction], denominator: int | None) -> Strategy:
    """Behaviour strategy from a realisation plan: a float plan rounded to exact fractions
    (at most ``denominator``), or an exact plan (``denominator=None``) divided exactly."""
    out: Strategy = []
    for info in tree.infosets[player]:
        reach = plan[info.parent]
        k = len(info.actions)
        if reach <= 1e-12:
            out.append({a: Fraction(1, k) for a in info.actions})
            continue
        if denominator is None:
            out.append({a: Fraction(plan[info.sequence(j)]) / Fraction(reach) for j, a in enumerate(info.actions)})
            continue
        probs = [max(0.0, plan[info.sequence(j)] / reach) for j in range(k)]
        fr = [Fraction(p).limit_denominator(denominator) for p in probs]
        total = sum(fr)
        if total == 0:
            fr, total = [Fraction(1)] * k, Fraction(k)
        out.append({a: p / total for a, p in zip(info.actions, fr, strict=True)})
    return out


def verify(tree: GameTree, strategies: tuple[Strategy, Strategy]) -> tuple[Fraction, Fraction]:
    """Return exact (lower, upper) bounds on the game value for this strategy pair: player
    1's best response against player 0's strategy, and player 0's against player 1's."""
    upper, _ = best_response(tree, 0, strategies[1])
    lower, _ = best_response(tree, 1, strategies[0])
    return lower, upper


def solve(tree: GameTree, denominators: Sequence[int] = (12, 60, 720, 5040, 10**5, 10**7)) -> Equilibrium:
    """Return an equilibrium of ``tree``, verified exactly.

    Each side's sequence-form LP is solved with HiGHS; the strategies are rounded to the
    first of ``denominators`` that makes the pair an exact equilibrium (or, failing
    that, the rounding with the smallest exact exploitability).
    """
    started = time.perf_counter()
    solutions = (_lp(tree, 0), _lp(tree, 1))
    plans = tuple(sol[: tree.sequences[p]] for p, sol in enumerate(solutions))
    best: tuple[Fraction, tuple[Strategy, Strategy], Fraction, Fraction] | None = None
    for d in denominators:
        strategies = (_behaviour(tree, 0, plans[0], d), _behaviour(tree, 1, plans[1], d))
        lower, upper = verify(tree, strategies)
        if best is None or upper - lower < best[0]:
            best = (upper - lower, strategies, lower, upper)
        if upper == lower:
            break
    assert best is not None
    if best[0] != 0:  # the exact equilibrium has long fractions: recover the LP's vertex exactly
        exact = (exact_plan(tree, 0, solutions[0]), exact_plan(tree, 1, solutions[1]))
        if exact[0] is not None and exact[1] is not None:
            strategies = (_behaviour(tree, 0, exact[0], None), _behaviour(tree, 1, exact[1], None))
            lower, upper = verify(tree, strategies)
            if upper - lower < best[0]:
                best = (upper - lower, strategies, lower, upper)
    _, strategies, lower, upper = best
    return Equilibrium(tree, strategies, lower, upper, time.perf_counter() - started)
