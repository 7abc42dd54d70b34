"""The sequence form of a two-player zero-sum game built from a rules engine.

:func:`build_tree` walks a :class:`~toolkit.engine.GameState` (any system's engine) and
records each player's information sets, her sequences of own choices, and the payoff each
pair of sequences earns weighted by chance (von Stengel 1996). Exact best responses,
realisation plans and profile values work on that form in ``Fraction`` arithmetic.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Number
from typing import Any

from toolkit.engine import GameState
from toolkit.errors import TooBigError, ToolkitError

__all__ = [
    "NODE_LIMIT",
    "Strategy",
    "Infoset",
    "GameTree",
    "build_tree",
    "realisation",
    "best_response",
    "profile_value",
    "policy_strategy",
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
    #: the distinct values of the leaves (``low`` and ``high`` are their least and greatest)
    leaf_values: frozenset[Any] = field(default=frozenset(), repr=False)

    def infoset(self, player: int, key: Hashable) -> Infoset | None:
        """Return the player's information set with this key, if the game has it."""
        i = self.index[player].get(key)
        return None if i is None else self.infosets[player][i]

    def priced(self, price: Callable[[Any], Fraction]) -> GameTree:
        """Return the same game with every payoff and leaf value mapped by ``price``, which
        must be linear (a sum of values weighted by probabilities maps to the same sum of
        their prices): for a tree built with values that are not yet numbers (e.g. terms
        a payoff weighs), valued for one payoff without walking the game again. The
        information sets are shared, read only, with this tree."""
        values = frozenset(price(v) for v in self.leaf_values)
        return replace(
            self,
            payoff={k: price(v) for k, v in self.payoff.items()},
            low=min(values) if values else None,
            high=max(values) if values else None,
            leaf_values=values,
        )

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
    final: Callable[[GameState], Fraction | None] | None = None,
    label: Callable[[GameState, Hashable], str] | None = None,
    node_limit: int = NODE_LIMIT,
) -> GameTree:
    """Return the sequence form of the game from ``root``.

    Args:
        players: the engine's names of player 0 (maximiser) and player 1.
        information: ``(state, player) -> key``: equal keys for states the player cannot
            tell apart (the system's information rule). It must give perfect recall.
        value: the payoff to player 0 at a terminal state (exact): a ``Fraction``, or any
            value that adds up and scales by ``Fraction`` probabilities (terms a payoff
            weighs, say), to be priced later (:meth:`GameTree.priced`; ``low`` and
            ``high`` are then left unset).
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
        final: like ``decided``, asked of a settled state the walk meets before its
            forced (``auto``) steps are played: its value if known without playing them
            (or None: play them and walk on as usual). It must give the value those steps
            would lead to; it spares playing them one by one.
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

    values: set[Any] = set()

    def leaf(seq: tuple[int, int], reach: Fraction, v: Fraction) -> None:
        tree.payoff[seq] += reach * v
        tree.leaves += 1
        values.add(v)

    def walk(state: GameState, seq: tuple[int, int], reach: Fraction) -> None:
        tick()
        if final is not None and settled is not None and not state.is_terminal and settled(state):
            v = final(state)
            if v is not None:
                leaf(seq, reach, v)
                return
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
    tree.leaf_values = frozenset(values)
    if values and all(isinstance(v, Number) for v in values):  # values still to be priced have no order
        tree.low, tree.high = min(values), max(values)
    tree.nodes = counter[0]
    tree.seconds = time.perf_counter() - started
    return tree


# -- realisation plans and exact best responses ---------------------------------------------


def realisation(tree: GameTree, player: int, strategy: Strategy) -> list[Fraction]:
    """Return the realisation plan of a behaviour strategy: the probability of each of the
    player's sequences being played by her (sequence 0, the empty one, is 1)."""
    zero = Fraction(0)
    plan = [zero] * tree.sequences[player]
    plan[0] = Fraction(1)
    for info, mix in zip(tree.infosets[player], strategy, strict=True):
        reach = plan[info.parent]
        if not reach:  # never played: every sequence below stays 0 (no products to take)
            continue
        for k, action in enumerate(info.actions):
            p = mix.get(action, zero)
            if p:
                plan[info.sequence(k)] = reach * p
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
    zero, one = Fraction(0), Fraction(1)
    for n in range(len(tree.infosets[player]) - 1, -1, -1):  # children were created after parents
        info = tree.infosets[player][n]
        totals = [gains[info.sequence(k)] + below[info.sequence(k)] for k in range(len(info.actions))]
        best = better(totals)
        k = totals.index(best)
        choice[n] = {a: one if j == k else zero for j, a in enumerate(info.actions)}
        below[info.parent] += best
    return gains[0] + below[0], choice


def profile_value(tree: GameTree, strategies: tuple[Strategy, Strategy]) -> Fraction:
    """Return the exact expected payoff to player 0 when both play these strategies."""
    x = realisation(tree, 0, strategies[0])
    y = realisation(tree, 1, strategies[1])
    return sum((v * x[sa] * y[sd] for (sa, sd), v in tree.payoff.items() if x[sa] and y[sd]), Fraction(0))


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
