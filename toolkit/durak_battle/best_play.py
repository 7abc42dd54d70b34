"""The best play of a clash with both hands known (cards are played face up): a minimax
over the clash state machine (:class:`~.position.ClashPosition`), through the generic
:class:`toolkit.equilibrium.minimax.Minimax`.

The ``"optimal"`` policy (:func:`~.policies.optimal_policy`) plays :func:`best_action`;
:func:`~.odds.clash_value` solves a whole clash with a :class:`ClashSolver`.

>>> from toolkit.durak_battle import Army, Leader, start_clash
>>> s = start_clash(Army("N", 6, Leader("V")), Army("S", 4, Leader("I")), ("7S 9H QD", "10S 4H"))
>>> best_action(s.apply("attack 10S"))  # the queen of diamonds manoeuvres: South loses 1
'manoeuvre QD'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from numbers import Rational
from operator import attrgetter
from typing import Any

from toolkit.cards import Card
from toolkit.durak_battle.clash import card_value
from toolkit.durak_battle.position import ClashPosition
from toolkit.durak_battle.rules import Rules, settle_losses
from toolkit.equilibrium.minimax import DEFAULT_MAX_STATES, Minimax
from toolkit.errors import InvalidSetupError

__all__ = ["Payoff", "ClashSolver", "action_key", "best_action", "position_of", "solver_for", "clear_solvers"]

#: Side a's payoff: weights ``(w_a, w_b)`` of the tokens lost (``w_b * lost_b - w_a * lost_a``)
#: or a function ``(lost_a, lost_b) -> number`` of the final losses.
Payoff = tuple[Any, Any] | Callable[[int, int], Any]

#: A position's memo key: its canonical form's (:attr:`~.position.ClashPosition.memo_key`).
_CANONICAL_KEY = attrgetter("memo_key")
#: The order of action verbs when a policy breaks a tie between equally good actions.
_VERB_ORDER = {"attack": 0, "pass": 1, "manoeuvre": 2, "defence": 3, "counter": 4, "take": 5}

_TOO_BIG = (
    "these hands are too big to search exactly; play the clash with policies (clash_losses) or Monte Carlo instead"
)


def action_key(action: str) -> tuple[int, int, int, str]:
    """Return a sort key for a clash action that depends only on its verb and how its card
    ranks (lowest first), never on the order of cards in a hand: the deterministic
    tie-break of the best play and of :func:`~.policies.optimal_policy`.

    >>> sorted(["defence 9H", "attack JK1", "manoeuvre 2D", "take"], key=action_key)
    ['attack JK1', 'manoeuvre 2D', 'defence 9H', 'take']
    """
    verb, _, code = action.partition(" ")
    if not code:
        return (_VERB_ORDER.get(verb, 9), -1, -1, "")
    card = Card(code)
    return (_VERB_ORDER.get(verb, 9), card_value(card), card.sort_key[1], card.code)


def position_of(state: Any) -> ClashPosition:
    """The clash position of an engine state (or a position), hands sorted lowest first
    as the solvers' memos keep them.

    Raises:
        IllegalActionError: not at a decision of a clash.
    """
    node = ClashPosition.from_state(state)
    return node._replace(held=(*node.held[:2], None))  # each hand lowest first


class ClashSolver:
    """Minimax over clash positions, memoised by their canonical form
    (:meth:`~.position.ClashPosition.canonical`).

    Args:
        rules: the rules in force.
        payoff: :data:`Payoff`; weights give an additive payoff.
        tokens: DB-7 floors (an army at 0 ends the clash); ``None``: no floors.
    """

    def __init__(
        self, rules: Rules, payoff: Payoff, tokens: tuple[int, int] | None, max_states: int = DEFAULT_MAX_STATES
    ) -> None:
        self.rules = rules
        self.tokens = tokens
        if callable(payoff):
            self.weights: tuple[Any, Any] | None = None
            self.terminal: Callable[[int, int], Any] | None = payoff
        else:
            self.weights = (payoff[0], payoff[1])
            self.terminal = None
        # additive payoffs without floors need no losses in the memo key
        self.additive = self.terminal is None and tokens is None
        if self.additive:
            self.search: Minimax = Minimax(
                ClashPosition.legal_actions, self._gain, _a_moves, _CANONICAL_KEY, max_states, _TOO_BIG
            )
        else:
            self.search = Minimax(
                lambda p: p[0].legal_actions(),
                self._move,
                lambda p: _a_moves(p[0]),
                lambda p: (p[0].memo_key, p[1]),
                max_states,
                _TOO_BIG,
            )

    @property
    def memo(self) -> dict[Hashable, Any]:
        """The positions searched so far, by key."""
        return self.search.memo

    def payoff_of(self, lost: tuple[int, int]) -> Any:
        """Side a's payoff for the losses ``(lost_a, lost_b)``.

        Raises:
            InvalidSetupError: a payoff function that returns something else than a number.
        """
        if self.terminal is not None:
            value = self.terminal(*lost)
            if not isinstance(value, Rational):
                raise InvalidSetupError(f"the payoff must return an int or a Fraction, got {value!r}")
            return value
        assert self.weights is not None
        return self.weights[1] * lost[1] - self.weights[0] * lost[0]

    def apply_losses(self, lost: tuple[int, int], events: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], bool]:
        """The losses after ``events`` and whether an army was destroyed (DB-7 floors with tokens)."""
        la, lb = lost
        if self.tokens is None:
            for da, db in events:
                la, lb = la + da, lb + db
            return (la, lb), False
        path = []
        for da, db in events:
            la, lb = la + da, lb + db
            path.append((la, lb))
        if not path:
            return lost, False
        la, lb, destroyed = settle_losses(self.tokens, path)  # DB-7: floored; destroyed ends the clash
        return (la, lb), destroyed is not None

    def _gain(self, node: ClashPosition, action: str) -> tuple[Any, ClashPosition | None]:
        child, events = node.losses_after(action)
        return self.payoff_of(self.apply_losses((0, 0), events)[0]), child

    def _move(self, pos: tuple[ClashPosition, tuple[int, int]], action: str) -> tuple[Any, Any]:
        node, lost = pos
        child, events = node.losses_after(action)
        after, over = self.apply_losses(lost, events)
        if over or child is None:
            return self.payoff_of(after), None
        return 0, (child, after)

    def value(self, node: ClashPosition, lost: tuple[int, int]) -> Any:
        """a's payoff from ``node`` with losses ``lost`` so far, both playing best."""
        if self.additive:
            return self.search.value(node) + self.payoff_of(lost)
        return self.search.value((node, lost))

    def ranked(self, node: ClashPosition, lost: tuple[int, int]) -> list[tuple[str, Any]]:
        """Every legal action with its value, best first for the side to move (ties by
        :func:`action_key`)."""
        sign = 1 if node.current_player == "a" else -1
        if self.additive:
            base = self.payoff_of(lost)
            pairs = [(a, v + base) for a, v in self.search.action_values(node)]
        else:
            pairs = self.search.action_values((node, lost))
        return sorted(pairs, key=lambda p: (-sign * p[1], action_key(p[0])))


def _a_moves(node: ClashPosition) -> bool:
    return node.current_player == "a"


_SOLVERS: dict[tuple, ClashSolver] = {}

#: The most solvers the session keeps (one per rules, payoff and tokens; the least recently
#: used is forgotten first), so a sweep over many rules does not keep every memo.
MAX_SOLVERS = 8


def solver_for(
    rules: Rules, payoff: Payoff = (1, 1), tokens: tuple[int, int] | None = None, fresh: bool = False
) -> ClashSolver:
    """The session's solver for these rules, payoff and tokens (its memo kept between calls:
    the values of positions are the same whatever the deal, so clashes share them);
    ``fresh``: start it again with an empty memo (for a search that ran out of room). At
    most :data:`MAX_SOLVERS` are kept, the least recently used forgotten first."""
    key = (rules, payoff, tokens)
    found = _SOLVERS.pop(key, None)
    if fresh or found is None or len(found.memo) > DEFAULT_MAX_STATES // 2:  # a fresh memo rather than a full one
        found = ClashSolver(rules, payoff, tokens, DEFAULT_MAX_STATES)
    _SOLVERS[key] = found  # the most recently used last
    while len(_SOLVERS) > MAX_SOLVERS:
        del _SOLVERS[next(iter(_SOLVERS))]
    return found


def clear_solvers() -> None:
    """Forget every solver's memo."""
    _SOLVERS.clear()


def best_action(state: Any) -> str:
    """Return the minimax action of the side to move with both hands known, playing for the
    unweighted token difference of the rest of the clash without DB-7 floors (ties: the
    first by :func:`action_key`). The ``"optimal"`` policy plays it.

    Raises:
        IllegalActionError: not at a decision of a clash.
        TooBigError: the position has too many continuations to search.
    """
    node = position_of(state)
    return solver_for(node.rules).ranked(node, (0, 0))[0][0]
