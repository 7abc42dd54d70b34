"""Recover a linear program's optimal vertex exactly, in fractions.

When rounding an LP strategy to short fractions does not give an exact equilibrium (long
fractions, e.g. games with Wild Trump draws), the vertex the LP found is recovered from its
support and tight constraints as a linear system solved in ``Fraction`` arithmetic, then
checked against every constraint.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from toolkit.equilibrium.sequence_form import GameTree

__all__ = ["EXACT_SYSTEM_LIMIT", "constraint_rows", "solve_linear_system", "exact_plan"]

#: Largest linear system (unknowns) :func:`exact_plan` solves in fractions.
EXACT_SYSTEM_LIMIT = 400


def constraint_rows(tree: GameTree, p: int) -> list[dict[int, int]]:
    """The rows of player ``p``'s sequence-form constraints E x = e (row 0: x_0 = 1)."""
    rows: list[dict[int, int]] = [{0: 1}]
    for info in tree.infosets[p]:
        row = {info.sequence(k): 1 for k in range(len(info.actions))}
        row[info.parent] = row.get(info.parent, 0) - 1
        rows.append(row)
    return rows


def _subtract(row: dict[int, Fraction], f: Fraction, pivot: dict[int, Fraction]) -> None:
    """row -= f * pivot, dropping the zeros (sparse rows)."""
    for c, v in pivot.items():
        row[c] = row.get(c, Fraction(0)) - f * v
        if not row[c]:
            del row[c]


def solve_linear_system(equations: list[tuple[dict[int, Fraction], Fraction]], unknowns: int) -> list[Fraction] | None:
    """Solve a sparse linear system exactly (Gauss-Jordan in fractions); ``None`` unless
    it has exactly one solution."""
    pivots: dict[int, tuple[dict[int, Fraction], Fraction]] = {}
    for coeffs, rhs in equations:
        row, b = dict(coeffs), Fraction(rhs)
        for col, (prow, pb) in pivots.items():  # reduce by the pivots found so far
            f = row.get(col)
            if f:
                _subtract(row, f, prow)
                b -= f * pb
        if not row:
            if b:
                return None  # inconsistent
            continue
        col = min(row, key=lambda c: (len(str(row[c])), c))
        pv = row[col]
        prow = {c: v / pv for c, v in row.items()}
        pb = b / pv
        for other, (orow, ob) in list(pivots.items()):  # keep earlier pivot rows reduced
            f = orow.get(col)
            if f:
                _subtract(orow, f, prow)
                pivots[other] = (orow, ob - f * pb)
        pivots[col] = (prow, pb)
    if len(pivots) != unknowns:
        return None
    out = [Fraction(0)] * unknowns
    for col, (prow, pb) in pivots.items():
        if len(prow) != 1:
            return None  # pragma: no cover - full rank means every pivot row is reduced to one unknown
        out[col] = pb
    return out


def exact_plan(tree: GameTree, player: int, solution: Sequence[float], tol: float = 1e-7) -> list[Fraction] | None:
    """Recover the LP's optimal vertex for ``player`` exactly: her sequences played with
    positive probability and the opponent's constraints that are tight fix a linear
    system, solved in fractions; the answer is checked against every constraint exactly.
    ``None`` if that does not single out one feasible point (or the system is too big)."""
    me, other = player, 1 - player
    n_me = tree.sequences[me]
    x, q = solution[:n_me], solution[n_me:]
    support = [s for s in range(n_me) if x[s] > tol]
    if len(support) + len(q) > EXACT_SYSTEM_LIMIT:
        return None
    sign = 1 if me == 0 else -1
    columns: dict[int, dict[int, Fraction]] = defaultdict(dict)  # other's sequence -> {my sequence: payoff}
    for (sa, sd), v in tree.payoff.items():
        mine, theirs = (sa, sd) if me == 0 else (sd, sa)
        columns[theirs][mine] = columns[theirs].get(mine, Fraction(0)) + sign * v
    f_rows = constraint_rows(tree, other)
    f_cols: dict[int, dict[int, int]] = defaultdict(dict)  # other's sequence -> {row: coefficient}
    for r, row in enumerate(f_rows):
        for j, c in row.items():
            f_cols[j][r] = c
    index = {s: k for k, s in enumerate(support)}
    qi = len(support)  # q_r is unknown number qi + r
    equations: list[tuple[dict[int, Fraction], Fraction]] = []
    for r, row in enumerate(constraint_rows(tree, me)):
        coeffs = {index[s]: Fraction(c) for s, c in row.items() if s in index}
        equations.append((coeffs, Fraction(int(r == 0))))
    for j in range(tree.sequences[other]):
        slack = sum(float(v) * x[s] for s, v in columns[j].items()) - sum(c * q[r] for r, c in f_cols[j].items())
        if abs(slack) <= tol * (1 + max((abs(float(v)) for v in columns[j].values()), default=0)):
            coeffs = {qi + r: Fraction(c) for r, c in f_cols[j].items()}
            for s, v in columns[j].items():
                if s in index:
                    coeffs[index[s]] = coeffs.get(index[s], Fraction(0)) - v
            equations.append(({k: v for k, v in coeffs.items() if v}, Fraction(0)))
    found = solve_linear_system(equations, qi + len(q))
    if found is None:
        return None
    plan = [Fraction(0)] * n_me
    for s, k in index.items():
        plan[s] = found[k]
    qs = found[qi:]
    # feasible and optimal for these q: every constraint holds exactly
    if any(v < 0 for v in plan):
        return None
    for r, row in enumerate(constraint_rows(tree, me)):
        if sum((plan[s] * c for s, c in row.items()), Fraction(0)) != int(r == 0):
            return None
    for j in range(tree.sequences[other]):
        lhs = sum((c * qs[r] for r, c in f_cols[j].items()), Fraction(0))
        if lhs > sum((v * plan[s] for s, v in columns[j].items()), Fraction(0)):
            return None
    return plan
