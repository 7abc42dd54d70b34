"""Optimal play in Fairy Meat: the strategy solvers and what they say about the draft.

- :mod:`.payoff`: what a result is worth to the attacker (:class:`Payoff`, zero-sum);
- :mod:`.optimal`: known hands, exact sequence-form LPs (:func:`solve_attack`,
  :func:`solve_combat`, the stepper's :func:`hint`);
- :mod:`.hidden`: hidden hands, CFR+ over every deal by card type (:func:`solve_hidden`;
  the generic CFR+ is :mod:`toolkit.equilibrium.cfr`);
- :mod:`.tactics`: the draft's tactical claims tested with both solvers.
"""

from toolkit.fairy_meat.strategy.hidden import (
    HIDDEN_LIMIT,
    HiddenSolution,
    deal_weights,
    hand_types,
    hidden_size,
    solve_hidden,
    type_action,
    type_options,
)
from toolkit.fairy_meat.strategy.optimal import (
    NODE_LIMIT,
    SIZE_LIMIT,
    AttackSolution,
    attack_game,
    game_size,
    hint,
    same_choice,
    solve_attack,
    solve_combat,
)
from toolkit.fairy_meat.strategy.payoff import Payoff
from toolkit.fairy_meat.strategy.tactics import (
    DIZZY_FIRST,
    SPARKY_FIRST,
    SPARKY_SECOND,
    STYLES,
    Mean,
    RoundStudy,
    StyleStudy,
    WorkedExample,
    deal_hands,
    extremeness,
    planned_policy,
    round_study,
    style_study,
    worked_example,
)

__all__ = [
    "DIZZY_FIRST",
    "SPARKY_FIRST",
    "SPARKY_SECOND",
    "HIDDEN_LIMIT",
    "NODE_LIMIT",
    "SIZE_LIMIT",
    "STYLES",
    "AttackSolution",
    "HiddenSolution",
    "Mean",
    "Payoff",
    "RoundStudy",
    "StyleStudy",
    "WorkedExample",
    "attack_game",
    "deal_hands",
    "deal_weights",
    "extremeness",
    "game_size",
    "hand_types",
    "hidden_size",
    "hint",
    "planned_policy",
    "round_study",
    "same_choice",
    "solve_attack",
    "solve_combat",
    "solve_hidden",
    "style_study",
    "type_action",
    "type_options",
    "worked_example",
]
