"""Angry Miniatures: opposed poker-dice pools (rulings AM-1..AM-10).

The public API: the rules and characters, the engine of one attack, and the exact
calculators. See ``../shared/rules/RULINGS.md`` for what each ruling says.
"""

from toolkit.angry_miniatures.engine import AttackState, start_attack, start_attack_from_pools
from toolkit.angry_miniatures.odds import (
    ExchangeEnd,
    MoreThan,
    area_attack,
    attacks_to_take_out,
    crit_probability,
    expected_attacks_to_take_out,
    hit_distribution,
    melee_exchange,
    odds_table,
    opposed,
)
from toolkit.angry_miniatures.outcomes import AttackOutcome
from toolkit.angry_miniatures.referee import Comparison, compare_rolls, damage_dealt, super_tiebreak_winner
from toolkit.angry_miniatures.rules import (
    ATTACK_TYPES,
    Character,
    Modifiers,
    Pools,
    Rules,
    attack_pools,
)

__all__ = [
    "ATTACK_TYPES",
    "AttackOutcome",
    "AttackState",
    "Character",
    "Comparison",
    "ExchangeEnd",
    "Modifiers",
    "MoreThan",
    "Pools",
    "Rules",
    "area_attack",
    "attack_pools",
    "attacks_to_take_out",
    "compare_rolls",
    "crit_probability",
    "damage_dealt",
    "expected_attacks_to_take_out",
    "hit_distribution",
    "melee_exchange",
    "odds_table",
    "opposed",
    "start_attack",
    "start_attack_from_pools",
    "super_tiebreak_winner",
]
