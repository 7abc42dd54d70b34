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

>>> from fractions import Fraction
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

from toolkit.equilibrium.lp import Equilibrium, solve, verify
from toolkit.equilibrium.sequence_form import (
    NODE_LIMIT,
    GameTree,
    Infoset,
    Strategy,
    best_response,
    build_tree,
    policy_strategy,
    profile_value,
    realisation,
)

__all__ = [
    "NODE_LIMIT",
    "Strategy",
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
