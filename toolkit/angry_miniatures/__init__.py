"""Angry Miniatures: opposed poker-dice pools (rulings AM-1..AM-10).

The whole public API: the rules and characters (:mod:`.rules`), the referee of one
roll against another (:mod:`.referee`), the engine of one attack (:mod:`.engine`), the
exact calculators (:mod:`.odds`), the example notation (:mod:`.notation`) and the
notebook widgets (:mod:`.widgets`, imported on first use: ipywidgets is slow to
import). The rulings index (docs/rulings.md, from :mod:`.rulings`) names the function implementing each id.

>>> from toolkit.angry_miniatures import Character, Modifiers, attack_pools
>>> attack_pools(Character("Grunk", melee=4), Character("Pixie", body=2), "melee", Modifiers(charge=True))
Pools(attack=5, defence=2)
"""

from typing import Any

from toolkit.angry_miniatures.engine import AttackState, start_attack, start_attack_from_pools
from toolkit.angry_miniatures.notation import (
    EXAMPLE,
    SUPER_TIEBREAK,
    Example,
    check_expectations,
    damage_taken,
    hits_of,
    load_example,
    plan_example,
    replay,
    to_example,
)
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
from toolkit.angry_miniatures.outcomes import AttackOutcome, attack_outcome
from toolkit.angry_miniatures.referee import (
    TIE_BREAK_ORDER,
    Comparison,
    Side,
    compare_rolls,
    damage_dealt,
    is_crit,
    super_tiebreak_winner,
)
from toolkit.angry_miniatures.rules import (
    ATTACK_TYPES,
    DEFENCE_STAT,
    AttackType,
    Character,
    Modifiers,
    Pools,
    Rules,
    attack_pools,
    check_attack_type,
    check_pool,
)

#: The widgets, imported from :mod:`.widgets` on first use.
_WIDGETS = ("AttackStepper", "RulesHolder", "attack_stepper", "odds_explorer")

__all__ = [
    "ATTACK_TYPES",
    "DEFENCE_STAT",
    "EXAMPLE",
    "SUPER_TIEBREAK",
    "TIE_BREAK_ORDER",
    "AttackOutcome",
    "AttackState",
    "AttackStepper",
    "AttackType",
    "Character",
    "Comparison",
    "Example",
    "ExchangeEnd",
    "Modifiers",
    "MoreThan",
    "Pools",
    "Rules",
    "RulesHolder",
    "Side",
    "area_attack",
    "attack_outcome",
    "attack_pools",
    "attack_stepper",
    "attacks_to_take_out",
    "check_attack_type",
    "check_expectations",
    "check_pool",
    "compare_rolls",
    "crit_probability",
    "damage_dealt",
    "damage_taken",
    "expected_attacks_to_take_out",
    "hit_distribution",
    "hits_of",
    "is_crit",
    "load_example",
    "melee_exchange",
    "odds_explorer",
    "odds_table",
    "opposed",
    "plan_example",
    "replay",
    "start_attack",
    "start_attack_from_pools",
    "super_tiebreak_winner",
    "to_example",
]


def __getattr__(name: str) -> Any:
    """Import the widgets on first use (``from toolkit.angry_miniatures import attack_stepper``)."""
    if name in _WIDGETS:
        from toolkit.angry_miniatures import widgets

        return getattr(widgets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
