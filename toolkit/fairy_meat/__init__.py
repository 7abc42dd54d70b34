"""Fairy Meat alternate combat (rulings FM-1..FM-14)."""

from toolkit.fairy_meat.optimal import AttackSolution, solve_attack
from toolkit.fairy_meat.payoff import Payoff
from toolkit.fairy_meat.referee import AttackResult, Play, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules, Weapon, attacker_hand_size, defender_hand_size

__all__ = [
    "AttackResult",
    "AttackSolution",
    "Payoff",
    "Fairy",
    "Play",
    "Rules",
    "Weapon",
    "attacker_hand_size",
    "defender_hand_size",
    "resolve_attack",
    "solve_attack",
]
