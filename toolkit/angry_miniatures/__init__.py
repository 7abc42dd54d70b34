"""Angry Miniatures: opposed poker-dice pools (rulings AM-1..AM-10): what a designer types.

The face below is imported on first use (:mod:`toolkit.public_face`: ``import
toolkit.angry_miniatures.rules`` loads no calculator or widget, nor numpy and scipy).
Everything else is public in its submodule: the rules and characters (:mod:`.rules`),
the referee of one roll against another (:mod:`.referee`), the engine of one attack
(:mod:`.engine`), the calculators of one attack (:mod:`.odds`, :mod:`.outcomes`) and of
repeated attacks (:mod:`.repeated`), their Monte Carlo (:mod:`.sampling`), the example
notation (:mod:`.notation`) and the notebook widgets (:mod:`.widgets`). The rulings
index (docs/rulings.md, from :mod:`.rulings`) names the function implementing each id.

>>> from toolkit.angry_miniatures import Character, Modifiers, attack_pools
>>> attack_pools(Character("Grunk", melee=4), Character("Pixie", body=2), "melee", Modifiers(charge=True))
Pools(attack=5, defence=2)
"""

from __future__ import annotations

from toolkit.public_face import lazy_face

#: Each public name and the submodule that defines it.
FACE = {
    # the rules and the characters
    "Rules": "rules",
    "ATTACK_TYPES": "rules",
    "Character": "rules",
    "Modifiers": "rules",
    "Pools": "rules",
    "attack_pools": "rules",
    # the engine and the referee
    "AttackState": "engine",
    "start_attack": "engine",
    "start_attack_from_pools": "engine",
    "compare_rolls": "referee",
    "damage_dealt": "referee",
    # the odds
    "ExchangeEnd": "outcomes",
    "MoreThan": "outcomes",
    "area_attack": "odds",
    "attacks_to_take_out": "repeated",
    "crit_probability": "odds",
    "expected_attacks_to_take_out": "repeated",
    "hit_distribution": "odds",
    "melee_exchange": "repeated",
    "odds_table": "odds",
    "opposed": "odds",
    "AttackOutcome": "outcomes",
    "attack_outcome": "outcomes",
    # rule-book examples
    "EXAMPLE": "notation",
    "Example": "notation",
    "check_expectations": "notation",
    "load_example": "notation",
    "replay": "notation",
    "to_example": "notation",
    # the widgets (ipywidgets)
    "AttackStepper": "widgets",
    "RulesHolder": "widgets",
    "attack_stepper": "widgets",
    "odds_explorer": "widgets",
}

__all__ = sorted(FACE)

__getattr__, __dir__ = lazy_face(__name__, FACE)
