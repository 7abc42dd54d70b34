"""Benchmark: the hidden-hands equilibrium of one Fairy Meat attack (CFR+) against an exact LP.

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat_hidden.py [--sizes 1x1 2x1 2x2 3x2] [--lp 1x1 2x1 2x2]
                                                     [--target 0.001] [--iterations 400]

What is compared (same game, same run):

- ours: :func:`toolkit.fairy_meat.strategy.hidden.solve_hidden` — vectorised CFR+ over both
  players' sequence trees; exploitability measured every few iterations with exact
  best responses (float64). Timed: the whole call (building the game — referee
  judgements, Wild Trump draw law, payoff matrix — plus the iterations).
- reference: the **sequence-form linear programme** of the same game (von Stengel),
  solved by scipy's HiGHS, built from the same payoff matrix (the matrix build is
  not timed for it: only the LP solve). It gives the exact game value (to HiGHS's
  tolerance), which must lie in our [lower, upper]. It is too big for 3 v 2 (9·10^6
  non-zeros): there the figures are CFR+ iterations per second and the time to the
  goal of 1% of the payoff range (goal: under 60 s on 2 cores).

- a second payoff (``--shared``, default 3 v 2): the payoff-free build (referee judgements,
  Wild Trump draw laws, entries) is shared between payoffs of one game
  (:func:`~toolkit.fairy_meat.strategy.hidden.matrix.build_game`). Timed: payoff P cold,
  then payoff Q (damage only, as the strategy report's risk cell) warm, against Q cold
  (the cache cleared) in the same run; the figure is warm / cold, for the build and the
  whole call (the CFR+ iterations are the same: the matrices are equal).

The tests check the solver against a sequence-form LP built independently from real
cards (``tests/test_fairy_meat_hidden.py``) and the shared build against a cold one
(``tests/test_fm_hidden_shared_build.py``); this benchmark times them.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp
from _results import fmt_s, publish
from scipy.optimize import linprog

from toolkit.equilibrium.cfr import SequenceTree
from toolkit.fairy_meat.strategy import hidden
from toolkit.fairy_meat.strategy.hidden.game import Game
from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache
from toolkit.fairy_meat.strategy.payoff import Payoff

RESULTS = Path(__file__).parent / "results" / "fairy_meat_hidden.md"
GOAL_SECONDS = 60.0
GOAL_SHARE = 0.01


def _sequence_matrices(side: SequenceTree) -> tuple[sp.csr_matrix, int, np.ndarray]:
    """Realisation-plan constraints E x = e over [empty sequence, every slot of every level];
    returns (E, number of sequences, indices of the terminal sequences)."""
    offsets = [1]
    for lv in side.levels:
        offsets.append(offsets[-1] + lv["n_slot"])
    n_seq = offsets[-1]
    rows, cols, vals = [0], [0], [1.0]  # x_empty = 1
    r = 1
    for li, lv in enumerate(side.levels):
        for i in range(lv["n_inf"]):
            parent = 0 if li == 0 else offsets[li - 1] + int(lv["inf_parent"][i])
            rows.append(r)
            cols.append(parent)
            vals.append(-1.0)
            start, count = int(lv["starts"][i]), int(lv["counts"][i])
            for j in range(start, start + count):
                rows.append(r)
                cols.append(offsets[li] + j)
                vals.append(1.0)
            r += 1
    e = sp.csr_matrix((vals, (rows, cols)), shape=(r, n_seq))
    return e, n_seq, np.arange(offsets[-2], offsets[-1])


def lp_value(game: Game) -> float:
    """max_x min_y x'My over realisation plans, as max f'v s.t. F'v - M'x <= 0, Ex = e, x >= 0."""
    ea, na, ta = _sequence_matrices(game.sides[0])
    fd, nd, td = _sequence_matrices(game.sides[1])
    m = game.matrix.tocoo()
    m_full = sp.csr_matrix((m.data, (ta[m.row], td[m.col])), shape=(na, nd))
    nv = fd.shape[0]
    # variables: x (na), v (nv)
    a_ub = sp.hstack([-m_full.T, fd.T]).tocsr()
    b_ub = np.zeros(nd)
    a_eq = sp.hstack([ea, sp.csr_matrix((ea.shape[0], nv))]).tocsr()
    b_eq = np.zeros(ea.shape[0])
    b_eq[0] = 1.0
    c = np.zeros(na + nv)
    c[na] = -1.0  # maximise v for the empty-sequence row of F
    bounds = [(0, None)] * na + [(None, None)] * nv
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"the LP failed: {res.message}")
    return -res.fun


def shared_build(a: int, d: int, target: float) -> tuple[str, bool]:
    """Payoff P cold, then Q warm (the build shared), against Q cold: one table row and
    whether the two Q solutions agree (same matrix: same value to 1e-12)."""
    p, q = Payoff(), Payoff(defender_points=0)  # the payoff in force, then damage only
    clear_strategy_cache()
    first = hidden.solve_hidden(a, d, payoff=p, target=target, time_limit=600)
    warm = hidden.solve_hidden(a, d, payoff=q, target=target, time_limit=600)
    clear_strategy_cache()
    cold = hidden.solve_hidden(a, d, payoff=q, target=target, time_limit=600)
    clear_strategy_cache()
    same = abs(warm.value - cold.value) <= 1e-12 and warm.iterations == cold.iterations
    print(
        f"{a} v {d} second payoff: build warm {fmt_s(warm.build_seconds)} vs cold {fmt_s(cold.build_seconds)}; "
        f"whole call warm {fmt_s(warm.seconds)} vs cold {fmt_s(cold.seconds)}; first (P, cold) {fmt_s(first.seconds)}"
    )
    row = (
        f"| {a} v {d} | {fmt_s(first.seconds)} ({fmt_s(first.build_seconds)} build) | "
        f"{fmt_s(cold.seconds)} ({fmt_s(cold.build_seconds)} build) | "
        f"{fmt_s(warm.seconds)} ({fmt_s(warm.build_seconds)} build) | "
        f"{warm.build_seconds / cold.build_seconds:.3f} | {warm.seconds / cold.seconds:.2f} | "
        f"{warm.iterations} | {'equal' if same else 'DIFFERENT'} |"
    )
    return row, same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["1x1", "2x1", "2x2", "3x2"], help="hand sizes AxD")
    parser.add_argument("--lp", nargs="*", default=["1x1", "2x1", "2x2"], help="sizes also solved by the exact LP")
    parser.add_argument("--target", type=float, default=0.0001, help="exploitability target, share of the range")
    parser.add_argument("--iterations", type=int, default=400, help="max CFR+ iterations")
    parser.add_argument("--shared", nargs="*", default=["3x2"], help="sizes solved with a second payoff")
    parser.add_argument("--shared-target", type=float, default=0.002, help="target of those solves (the report's)")
    args = parser.parse_args(argv)
    sizes = [tuple(int(x) for x in s.lower().split("x")) for s in args.sizes]
    lp_sizes = {tuple(int(x) for x in s.lower().split("x")) for s in args.lp}
    rows, curves, ok = [], [], True
    for a, d in sizes:
        # the goal run: stop at 1% of the payoff range (the default target); builds cold
        clear_strategy_cache()
        goal = hidden.solve_hidden(a, d, target=GOAL_SHARE, check_every=5)
        # the long run: the curve down to --target
        clear_strategy_cache()
        sol = hidden.solve_hidden(
            a,
            d,
            target=args.target,
            max_iterations=args.iterations,
            time_limit=600,
            check_every=5 if a * d <= 2 else 25,
        )
        game = sol.game
        assert game is not None
        cfr_s = sol.seconds - sol.build_seconds
        rate = sol.iterations / cfr_s if cfr_s > 0 else float("inf")
        line = (
            f"{a} v {d}: nnz {game.matrix.nnz:,}, build {fmt_s(sol.build_seconds)}; to 1%: {fmt_s(goal.seconds)} "
            f"({goal.iterations} it, {goal.exploitability_share:.3%}); long run {sol.iterations} it "
            f"{fmt_s(sol.seconds)} -> {sol.exploitability_share:.4%}, {rate:.0f} it/s"
        )
        lp_text, ratio_text = "—", "—"
        if (a, d) in lp_sizes:
            t0 = time.perf_counter()
            v = lp_value(game)
            lp_s = time.perf_counter() - t0
            inside = sol.lower - 1e-7 <= v <= sol.upper + 1e-7
            ok &= inside
            lp_text = f"{fmt_s(lp_s)}, value {v:.6f} ({'inside' if inside else 'OUTSIDE'} [lower, upper])"
            cfr_goal = goal.seconds - goal.build_seconds
            ratio_text = f"{lp_s / max(cfr_goal, 1e-9):.1f}x"
            line += f"; LP {lp_text}"
        meets = goal.seconds < GOAL_SECONDS and goal.exploitability_share <= GOAL_SHARE
        if (a, d) == (3, 2):
            ok &= meets
        print(line)
        rows.append(
            f"| {a} v {d} | {game.matrix.nnz:,} | {fmt_s(goal.seconds)} ({fmt_s(goal.build_seconds)} build) | "
            f"{goal.iterations} | {goal.exploitability_share:.3%} | {sol.iterations} it: "
            f"{sol.exploitability_share:.4%} in {fmt_s(sol.seconds)} | {rate:.0f} | "
            f"{sol.lower:.5f} … {sol.upper:.5f} | "
            f"{lp_text} | {ratio_text} |"
        )
        curves.append(f"- {a} v {d}: " + ", ".join(f"{i} it {e / sol.payoff_range:.3%}" for i, _, e in sol.curve[:12]))
    shared_rows = []
    for size in args.shared:
        a, d = (int(x) for x in size.lower().split("x"))
        row, same = shared_build(a, d, args.shared_target)
        ok &= same
        shared_rows.append(row)
    report = "\n".join(
        [
            "# Fairy Meat hidden-hands equilibrium: CFR+ vs the sequence-form LP",
            "",
            f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
            f"{platform.machine()}; run {time.strftime('%Y-%m-%d %H:%M')}. All figures from the same run. "
            "Exploitability = upper − lower, exact best responses (float64), as a share of the payoff range. "
            f"Goal: 3 v 2 under {GOAL_SECONDS:.0f} s to {GOAL_SHARE:.0%}.",
            "",
            "| hands | payoff non-zeros | time to 1% (whole call) | iterations | exploitability | long run | "
            "CFR+ it/s | value bounds | LP (solve only) | LP / CFR+ to 1% (iterations only) |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            "Exploitability curves (share of the payoff range):",
            "",
            *curves,
            "",
            f"A second payoff on the same game (target {args.shared_target:.1%}): P = damage − defender points, "
            "then Q = damage only (the strategy report's risk cell). Warm = Q right after P (the payoff-free "
            "build shared), cold = Q after clearing the cache. Whole calls (build + CFR+), same run.",
            "",
            "| hands | P cold | Q cold | Q warm | build warm / cold | call warm / cold | iterations | Q warm vs cold |",
            "|---|---|---|---|---|---|---|---|",
            *shared_rows,
            "",
        ]
    )
    publish(report, RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
