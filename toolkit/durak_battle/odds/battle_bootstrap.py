"""The uncertainty of a battle computed over sampled clash tables: a parametric bootstrap.

:func:`~.battle.battle_outcome` runs its Markov chain over rounds exactly on the clash
tables it has; a table that was sampled holds observed frequencies, so the battle's
probabilities are estimates whose errors come from every sampled table at once (one
table serves many states of the chain, so its errors are shared, not independent).
:func:`battle_replicates` measures that: each sampled table's counts are drawn again
from its observed frequencies (Poisson counts made frequencies: the multinomial law of a
table of about as many clashes, given its total; the spread scaled by n/(n-1) to make
the plug-in variance unbiased), the chain is rerun on
those tables, and the spread of the replicates gives the interval
(:class:`~toolkit.odds_result.Replicates`). The exact tables stay fixed.

All replicates run at once, in floating point: a state's transition is linear in its
tables' probabilities, so the tables of every replicate (a matrix, replicates by rows)
go through two sparse products — rows to the settled clashes of each state (DB-7, as
the chain settled them), and settled clashes to the next state or the end of the battle
(DB-3, DB-8, as the chain computed them) — and the rounds are matrix products of the
alive states. Rows of a table that every state settles alike are drawn as one.
"""

from __future__ import annotations

import math
import zlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

from toolkit.odds_result import BOOTSTRAP_REPLICATES, Replicates

__all__ = ["battle_replicates"]

State = tuple[int, int]


def battle_replicates(
    start: State,
    parts_of: Mapping[State, tuple],
    tables: Mapping[tuple[int, int], tuple[int, list[tuple[Any, Any, int]], bool]],
    outcomes: Sequence[Any],
    max_rounds: int,
    seed: str,
    replicates: int = BOOTSTRAP_REPLICATES,
) -> Replicates:
    """Return the bootstrap replicates of a battle's ``outcomes`` (``BattleEnd``s).

    Args:
        start: the starting tokens.
        parts_of: for each state whose transition the chain used, ``(sampled, fixed,
            effects)``: ``sampled`` lists ``(pair of hand sizes, its probability, the
            index of the settled clash of each row of its table)``; ``fixed`` the
            probability of each settled clash from the exact tables; ``effects[k]`` what
            settled clash ``k`` leads to, ``[((kind, target), p)]`` with ``kind``
            ``"state"`` (target: tokens) or ``"end"`` (target: winner, how).
        tables: each sampled pair's table, ``(clashes, rows (holder, path, count), True)``.
        outcomes: the battle's outcomes, in the order of the replicates' columns.
        max_rounds: the rounds played.
        seed: what the replicate tables are seeded from (with each pair).
        replicates: how many replicates.
    """
    computed = list(parts_of)
    states = list(computed)
    index = {s: i for i, s in enumerate(states)}
    start_column: dict[State, int] = {}
    column = 0
    for s in computed:
        start_column[s] = column
        effects = parts_of[s][2]
        column += len(effects)
        for effect in effects:
            for (kind, target), _ in effect:
                if kind == "state" and target not in index:
                    index[target] = len(states)
                    states.append(target)
    n_states = len(states)

    # sampled tables: rows that settle alike in every state are one group; groups redrawn
    uses: dict[tuple[int, int], list[tuple[State, float, np.ndarray]]] = defaultdict(list)
    for s in computed:
        for pair, p, idx in parts_of[s][0]:
            uses[pair].append((s, p, idx))
    grouped_pairs = []
    for pair in sorted(uses):
        clashes, rows, _ = tables[pair]
        counts = np.array([w for _, _, w in rows], dtype=float)
        signature = np.stack([idx for _, _, idx in uses[pair]], axis=1)
        groups, inverse = np.unique(signature, axis=0, return_inverse=True)
        grouped = np.bincount(inverse.ravel(), weights=counts, minlength=len(groups))
        grouped_pairs.append((pair, clashes, groups, grouped))
    offset = sum(len(groups) for _, _, groups, _ in grouped_pairs)
    drawn = np.empty((replicates, offset))
    rows_: list[np.ndarray] = []
    cols_: list[np.ndarray] = []
    vals_: list[np.ndarray] = []
    at = 0
    for pair, clashes, groups, grouped in grouped_pairs:
        freq = grouped / grouped.sum()
        # a table of the same number of clashes redrawn: Poisson counts made frequencies
        # (the multinomial given its total; far faster to draw than the multinomial)
        rng = np.random.default_rng(zlib.crc32(f"{seed}:{pair}".encode()))
        block = rng.poisson(grouped, size=(replicates, len(groups))).astype(float)
        totals = block.sum(axis=1, keepdims=True)
        block = np.divide(block, totals, out=np.tile(freq, (replicates, 1)), where=totals > 0)
        spread = math.sqrt(clashes / (clashes - 1)) if clashes > 1 else 1.0
        drawn[:, at : at + len(groups)] = freq + (block - freq) * spread
        for u, (s, p, _) in enumerate(uses[pair]):
            rows_.append(at + np.arange(len(groups)))
            cols_.append(start_column[s] + groups[:, u])
            vals_.append(np.full(len(groups), p))
        at += len(groups)

    settled = np.zeros((replicates, column))
    if offset:
        spread_of = csr_matrix(
            (np.concatenate(vals_), (np.concatenate(rows_), np.concatenate(cols_))), shape=(offset, column)
        )
        settled += np.asarray(spread_of.T @ drawn.T).T
    for s in computed:
        for k, p in parts_of[s][1].items():
            settled[:, start_column[s] + k] += p

    # settled clashes -> the next state or the end of the battle
    width_ends: dict[Any, int] = {}
    effect_rows: list[int] = []
    effect_values: list[float] = []
    targets: list[tuple[int, bool, int]] = []
    for s in computed:
        i = index[s]
        for k, effect in enumerate(parts_of[s][2]):
            for (kind, target), c in effect:
                effect_rows.append(start_column[s] + k)
                effect_values.append(c)
                if kind == "state":
                    targets.append((i, False, index[target]))
                else:
                    targets.append((i, True, width_ends.setdefault(target, len(width_ends))))
    width = n_states + len(width_ends)
    effect_cols = [i * width + (n_states + t if is_end else t) for i, is_end, t in targets]
    effect = csr_matrix((effect_values, (effect_rows, effect_cols)), shape=(column, n_states * width))
    moves = np.asarray(effect.T @ settled.T).T.reshape(replicates, n_states, width)
    step, finish = moves[:, :, :n_states], moves[:, :, n_states:]

    alive = np.zeros((replicates, n_states))
    alive[:, index[start]] = 1.0
    ended = []
    for _ in range(max_rounds):
        ended.append(np.einsum("bs,bse->be", alive, finish))
        alive = np.einsum("bs,bst->bt", alive, step)
    values = np.zeros((replicates, len(outcomes)))
    for k, o in enumerate(outcomes):
        end = (getattr(o.winner, "role", o.winner), o.how)  # the winning army's side, "a" or "b"
        if o.how == "undecided":
            values[:, k] = alive.sum(axis=1)
        elif end in width_ends:
            values[:, k] = ended[o.rounds - 1][:, width_ends[end]]
    return Replicates(tuple(outcomes), values)
