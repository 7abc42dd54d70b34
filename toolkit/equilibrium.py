"""Exact equilibria of two-player zero-sum games built from a rules engine.

:func:`build_tree` walks a :class:`~toolkit.engine.GameState` (any system's engine)
and records the game as its *sequence form* (von Stengel 1996): each player's
information sets (what she knows when she decides, from a function the system
supplies), her sequences of own choices, and the payoff each pair of sequences earns
weighted by the chance of reaching it. The rules live only in the engine: this module
never looks inside a state.

:func:`solve` finds an equilibrium with two linear programs (HiGHS, through
``scipy.optimize.linprog``), turns each side's strategy into exact fractions, and
*verifies* it in ``Fraction`` arithmetic: the best response of each side against the
other's strategy is computed exactly, and their gap — the exploitability — is 0 when
the pair is an exact equilibrium, and otherwise an exact bound on how far from one it is.

Player 0 maximises the payoff, player 1 minimises it.

A matching-pennies game in which the second player does not see the first's coin:

>>> from toolkit.engine import TERMINAL, GameState
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pennies(GameState):
...     coins: tuple = ()
...     @property
...     def current_player(self):
...         return TERMINAL if len(self.coins) == 2 else ("first", "second")[len(self.coins)]
...     @property
...     def events(self):
...         return ()
...     def _legal_actions(self):
...         return ["heads", "tails"]
...     def _apply(self, action):
...         return Pennies(self.coins + (action,))
>>> tree = build_tree(Pennies(), players=("first", "second"),
...                   information=lambda s, p: len(s.coins),
...                   value=lambda s: Fraction(1 if s.coins[0] == s.coins[1] else -1))
>>> sol = solve(tree)
>>> sol.value, sol.exploitability, sol.strategy(0)[0]
(Fraction(0, 1), Fraction(0, 1), {'heads': Fraction(1, 2), 'tails': Fraction(1, 2)})
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from toolkit.engine import GameState
from toolkit.errors import TooBigError, ToolkitError

__all__ = [
    "Infoset",
    "GameTree",
    "Equilibrium",
    "build_tree",
    "solve",
    "verify",
    "best_response",
    "profile_value",
    "policy_strategy",
    "realisation",
]

#: Default ceiling on the nodes :func:`build_tree` walks before it stops with TooBigError.
NODE_LIMIT = 400_000

Strategy = list[dict[str, Fraction]]  # one mix per information set of a player


@dataclass
class Infoset:
    """One decision as the player to move knows it.

    Attributes:
        player: 0 (maximiser) or 1 (minimiser).
        key: what she knows (from the system's information function).
        actions: the action labels, one per distinct choice.
        parent: her sequence that leads here (0: none of her own choices yet).
        first: the sequence id of ``actions[0]`` (the others follow in order).
        state: the first state met in this information set (for descriptions and hints).
        classes: the action classes (see :func:`build_tree`), in the order of ``actions``.
    """

    player: int
    key: Hashable
    actions: tuple[str, ...]
    parent: int
    first: int
    state: GameState
    classes: tuple[Hashable, ...] = ()
    #: where it is met: (the opponent's sequence, the chance of getting there) per node
    met: list[tuple[int, Fraction]] = field(default_factory=list)

    def sequence(self, k: int) -> int:
        return self.first + k


@dataclass
class GameTree:
    """A game in sequence form: information sets and the sparse payoff by sequence pair."""

    infosets: tuple[list[Infoset], list[Infoset]]
    sequences: list[int]  # per player, including the empty sequence 0
    payoff: dict[tuple[int, int], Fraction]  # chance-weighted, summed over leaves
    nodes: int = 0
    leaves: int = 0
    low: Fraction | None = None  # the smallest and largest leaf payoffs
    high: Fraction | None = None
    seconds: float = 0.0
    index: tuple[dict[Hashable, int], dict[Hashable, int]] = field(default_factory=lambda: ({}, {}))
    action_class: Callable[[GameState, Hashable], Hashable] = field(default=lambda s, a: a, repr=False)

    def infoset(self, player: int, key: Hashable) -> Infoset | None:
        """Return the player's information set with this key, if the game has it."""
        i = self.index[player].get(key)
        return None if i is None else self.infosets[player][i]

    @property
    def payoff_range(self) -> Fraction:
        """Largest minus smallest payoff of any leaf."""
        if self.low is None or self.high is None:
            return Fraction(0)
        return self.high - self.low


def build_tree(
    root: GameState,
    *,
    players: Sequence[str],
    information: Callable[[GameState, int], Hashable],
    value: Callable[[GameState], Fraction],
    auto: Callable[[GameState], Hashable | None] | None = None,
    action_class: Callable[[GameState, Hashable], Hashable] | None = None,
    chance_class: Callable[[GameState, Hashable], Hashable] | None = None,
    settled: Callable[[GameState], bool] | None = None,
    settled_key: Callable[[GameState], Hashable] | None = None,
    decided: Callable[[GameState], Fraction | None] | None = None,
    label: Callable[[GameState, Hashable], str] | None = None,
    node_limit: int = NODE_LIMIT,
) -> GameTree:
    """Return the sequence form of the game from ``root``.

    Args:
        players: the engine's names of player 0 (maximiser) and player 1.
        information: ``(state, player) -> key``: equal keys for states the player cannot
            tell apart (the system's information rule). It must give perfect recall.
        value: the payoff to player 0 at a terminal state (exact).
        auto: a state's forced or dominant action, played without branching (or None).
        action_class: actions with the same class lead to games that differ only in names
            (two Trumps of one colour, say): one of each class is kept.
        chance_class: chance outcomes with the same class are merged (one representative
            carrying their summed probability), for the same reason.
        settled: states after which no player has a real choice left; their expected
            value is computed once per ``settled_key`` (default: the pair of information
            keys) and reused; the key must fix everything the rest of the game depends on.
        decided: the value of a settled state whose outcome no chance or choice can
            change any more, if known without walking on (or None: walk on).
        label: how an action is shown in strategy tables (default ``state.action_to_string``).
        node_limit: stop with :class:`TooBigError` after walking this many nodes.

    Raises:
        TooBigError: more than ``node_limit`` nodes, before the walk goes further.
        ToolkitError: the information function breaks perfect recall.
    """
    started = time.perf_counter()
    pclass = action_class or (lambda s, a: a)
    tree = GameTree(infosets=([], []), sequences=[1, 1], payoff=defaultdict(Fraction), action_class=pclass)
    cclass = chance_class or (lambda s, o: o)
    show = label or (lambda s, a: s.action_to_string(a))
    memo: dict[Hashable, Fraction] = {}
    counter = [0]

    def tick() -> None:
        counter[0] += 1
        if counter[0] > node_limit:
            raise TooBigError(
                f"this game has more than {node_limit:,} nodes to walk: too big to solve exactly here; "
                "use fewer cards or attacks, or the approximate hidden-hand solver / Monte Carlo play-outs"
            )

    def grouped_chance(state: GameState) -> list[tuple[Hashable, Fraction]]:
        groups: dict[Hashable, list] = {}
        for outcome, p in state.chance_outcomes():
            g = groups.setdefault(cclass(state, outcome), [outcome, Fraction(0)])
            g[1] += p
        return [(o, p) for o, p in groups.values()]

    def step_auto(state: GameState) -> GameState:
        while auto is not None and not state.is_terminal and not state.is_chance_node:
            a = auto(state)
            if a is None:
                break
            tick()
            state = state.apply_listed(a)
        return state

    def expected(state: GameState) -> Fraction:
        if decided is not None:
            v = decided(state)
            if v is not None:
                return v
        state = step_auto(state)
        if state.is_terminal:
            return value(state)
        key = settled_key(state) if settled_key else (information(state, 0), information(state, 1))
        if key in memo:
            return memo[key]
        tick()
        if state.is_chance_node:
            v = sum((p * expected(state.apply_listed(o)) for o, p in grouped_chance(state)), Fraction(0))
        else:
            choices = {pclass(state, a): a for a in state.legal_actions()}
            if len(choices) != 1:
                raise ToolkitError(f"a choice remains after the game was declared settled: {sorted(map(str, choices))}")
            v = expected(state.apply_listed(next(iter(choices.values()))))
        memo[key] = v
        return v

    def leaf(seq: tuple[int, int], reach: Fraction, v: Fraction) -> None:
        tree.payoff[seq] += reach * v
        tree.leaves += 1
        tree.low = v if tree.low is None else min(tree.low, v)
        tree.high = v if tree.high is None else max(tree.high, v)

    def walk(state: GameState, seq: tuple[int, int], reach: Fraction) -> None:
        tick()
        state = step_auto(state)
        if state.is_terminal:
            leaf(seq, reach, value(state))
            return
        if settled is not None and settled(state):
            leaf(seq, reach, expected(state))
            return
        if state.is_chance_node:
            for outcome, p in grouped_chance(state):
                walk(state.apply_listed(outcome), seq, reach * p)
            return
        p = list(players).index(str(state.current_player))
        choices: dict[Hashable, Hashable] = {}
        for a in state.legal_actions():
            choices.setdefault(pclass(state, a), a)
        classes = tuple(choices)
        key = information(state, p)
        idx = tree.index[p].get(key)
        if idx is None:
            info = Infoset(
                player=p,
                key=key,
                actions=tuple(show(state, a) for a in choices.values()),
                parent=seq[p],
                first=tree.sequences[p],
                state=state,
                classes=classes,
            )
            tree.sequences[p] += len(classes)
            tree.index[p][key] = len(tree.infosets[p])
            tree.infosets[p].append(info)
        else:
            info = tree.infosets[p][idx]
            if info.parent != seq[p] or info.classes != classes:
                raise ToolkitError(
                    f"{players[p]} cannot tell two states apart that follow different choices of hers or offer "
                    "different actions: the information rule breaks perfect recall"
                )
        info.met.append((seq[1 - p], reach))
        for k, a in enumerate(choices.values()):
            child = (info.first + k, seq[1]) if p == 0 else (seq[0], info.first + k)
            walk(state.apply_listed(a), child, reach)

    walk(root, (0, 0), Fraction(1))
    tree.payoff = dict(tree.payoff)
    tree.nodes = counter[0]
    tree.seconds = time.perf_counter() - started
    return tree


# -- realisation plans and exact best responses ---------------------------------------------


def realisation(tree: GameTree, player: int, strategy: Strategy) -> list[Fraction]:
    """Return the realisation plan of a behaviour strategy: the probability of each of the
    player's sequences being played by her (sequence 0, the empty one, is 1)."""
    plan = [Fraction(0)] * tree.sequences[player]
    plan[0] = Fraction(1)
    for info, mix in zip(tree.infosets[player], strategy, strict=True):
        for k, action in enumerate(info.actions):
            plan[info.sequence(k)] = plan[info.parent] * mix.get(action, Fraction(0))
    return plan


def _gains(tree: GameTree, player: int, other_plan: Sequence[Fraction]) -> list[Fraction]:
    """Per sequence of ``player``: the payoff she collects there against the other's plan."""
    gains = [Fraction(0)] * tree.sequences[player]
    for (sa, sd), v in tree.payoff.items():
        if player == 0:
            if other_plan[sd]:
                gains[sa] += v * other_plan[sd]
        elif other_plan[sa]:
            gains[sd] += v * other_plan[sa]
    return gains


def best_response(tree: GameTree, player: int, against: Strategy) -> tuple[Fraction, Strategy]:
    """Return (value, pure strategy) of ``player``'s best response to the other's strategy,
    exactly: the most player 0 can get (or the least player 1 can concede)."""
    other = 1 - player
    gains = _gains(tree, player, realisation(tree, other, against))
    better = max if player == 0 else min
    below: dict[int, Fraction] = defaultdict(Fraction)  # value of the infosets under a sequence
    choice: list[dict[str, Fraction]] = [{} for _ in tree.infosets[player]]
    for n in range(len(tree.infosets[player]) - 1, -1, -1):  # children were created after parents
        info = tree.infosets[player][n]
        totals = [gains[info.sequence(k)] + below[info.sequence(k)] for k in range(len(info.actions))]
        best = better(totals)
        k = totals.index(best)
        choice[n] = {a: Fraction(int(j == k)) for j, a in enumerate(info.actions)}
        below[info.parent] += best
    return gains[0] + below[0], choice


def profile_value(tree: GameTree, strategies: tuple[Strategy, Strategy]) -> Fraction:
    """Return the exact expected payoff to player 0 when both play these strategies."""
    x = realisation(tree, 0, strategies[0])
    y = realisation(tree, 1, strategies[1])
    return sum((v * x[sa] * y[sd] for (sa, sd), v in tree.payoff.items()), Fraction(0))


# -- solving --------------------------------------------------------------------------------


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
    from scipy.sparse import coo_matrix, hstack

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
    a = coo_matrix((sign * pay, (mine, theirs)), shape=(n[me], n[other]))
    e, f = constraints(me), constraints(other)
    # max q0  s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0,  q free
    a_ub = hstack([-a.T, f.T]).tocsr()
    a_eq = hstack([e, coo_matrix((e.shape[0], f.shape[0]))]).tocsr()
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


#: Largest linear system (unknowns) :func:`_exact_plan` solves in fractions.
EXACT_SYSTEM_LIMIT = 400


def _constraint_rows(tree: GameTree, p: int) -> list[dict[int, int]]:
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


def _solve_exact(equations: list[tuple[dict[int, Fraction], Fraction]], unknowns: int) -> list[Fraction] | None:
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


def _exact_plan(tree: GameTree, player: int, solution: Sequence[float], tol: float = 1e-7) -> list[Fraction] | None:
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
    f_rows = _constraint_rows(tree, other)
    f_cols: dict[int, dict[int, int]] = defaultdict(dict)  # other's sequence -> {row: coefficient}
    for r, row in enumerate(f_rows):
        for j, c in row.items():
            f_cols[j][r] = c
    index = {s: k for k, s in enumerate(support)}
    qi = len(support)  # q_r is unknown number qi + r
    equations: list[tuple[dict[int, Fraction], Fraction]] = []
    for r, row in enumerate(_constraint_rows(tree, me)):
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
    found = _solve_exact(equations, qi + len(q))
    if found is None:
        return None
    plan = [Fraction(0)] * n_me
    for s, k in index.items():
        plan[s] = found[k]
    qs = found[qi:]
    # feasible and optimal for these q: every constraint holds exactly
    if any(v < 0 for v in plan):
        return None
    for r, row in enumerate(_constraint_rows(tree, me)):
        if sum((plan[s] * c for s, c in row.items()), Fraction(0)) != int(r == 0):
            return None
    for j in range(tree.sequences[other]):
        lhs = sum((c * qs[r] for r, c in f_cols[j].items()), Fraction(0))
        if lhs > sum((v * plan[s] for s, v in columns[j].items()), Fraction(0)):
            return None
    return plan


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
        exact = (_exact_plan(tree, 0, solutions[0]), _exact_plan(tree, 1, solutions[1]))
        if exact[0] is not None and exact[1] is not None:
            strategies = (_behaviour(tree, 0, exact[0], None), _behaviour(tree, 1, exact[1], None))
            lower, upper = verify(tree, strategies)
            if upper - lower < best[0]:
                best = (upper - lower, strategies, lower, upper)
    _, strategies, lower, upper = best
    return Equilibrium(tree, strategies, lower, upper, time.perf_counter() - started)


def policy_strategy(tree: GameTree, player: int, policy: Callable[[GameState], Any]) -> Strategy:
    """Return a fixed engine policy (``state -> Distribution`` over legal actions) as a
    behaviour strategy on ``tree``: at each information set, the policy's mix at the
    first state met there (a policy may only use what the player knows, so any state of
    the set gives the same mix), actions merged by their class as the tree merged them."""
    out: Strategy = []
    for info in tree.infosets[player]:
        mix = {a: Fraction(0) for a in info.actions}
        for action, p in policy(info.state).items():
            cls = tree.action_class(info.state, action)
            if cls not in info.classes:
                raise ToolkitError(f"the policy chose {action!r}, which is not a legal action here")
            mix[info.actions[info.classes.index(cls)]] += p
        out.append(mix)
    return out
