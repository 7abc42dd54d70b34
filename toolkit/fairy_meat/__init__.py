"""Fairy Meat alternate combat (rulings FM-1..FM-14)."""

from toolkit.fairy_meat.referee import AttackResult, Play, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules, Weapon, attacker_hand_size, defender_hand_size

__all__ = [
    "AttackResult",
    "Fairy",
    "Play",
    "Rules",
    "Weapon",
    "attacker_hand_size",
    "defender_hand_size",
    "resolve_attack",
]
