"""Fairy Meat alternate combat (rulings FM-1..FM-14): what a designer types.

The face below is imported on first use (:mod:`toolkit.public_face`), so ``import
toolkit.fairy_meat.rules`` loads no calculator, solver or widget (nor numpy and
scipy). Everything else is public in its submodule: the rules layer (:mod:`.rules`
numbers and variants, :mod:`.deck` card types and the deck, :mod:`.legality` what may be
placed, played and seen, :mod:`.attack` one attack's choices, :mod:`.referee` the
judgement of an attack), :mod:`.engine`, :mod:`.notation`, :mod:`.policies`, the odds
calculators (:mod:`.odds`), the strategy solvers (:mod:`.strategy`), :mod:`.analysis`,
:mod:`.rulings` (where each ruling is implemented) and the widgets (:mod:`.widgets`).

>>> import toolkit.fairy_meat as fm
>>> fm.Rules.__module__, "solve_attack" in dir(fm)
('toolkit.fairy_meat.rules', True)
"""

from __future__ import annotations

from toolkit.public_face import lazy_face

#: Each public name and the submodule that defines it.
FACE = {
    # the rules and the fairies
    "Rules": "rules",
    "Fairy": "rules",
    "Weapon": "rules",
    # the engine and the referee
    "CombatState": "engine",
    "start_combat": "engine",
    "Play": "referee",
    "AttackResult": "referee",
    "resolve_attack": "referee",
    # the policies
    "POLICIES": "policies",
    "cautious_policy": "policies",
    "greedy_policy": "policies",
    "random_policy": "policies",
    # the odds
    "AttackOutcome": "odds",
    "DealOdds": "odds",
    "attack_odds": "odds",
    "deal_averaged_odds": "odds",
    "hand_composition": "odds",
    "none_rule_value": "analysis",
    # the strategy solvers
    "STYLES": "strategy",
    "SPARKY_FIRST": "strategy",
    "SPARKY_SECOND": "strategy",
    "DIZZY_FIRST": "strategy",
    "Mean": "strategy",
    "Payoff": "strategy",
    "planned_policy": "strategy",
    "round_study": "strategy",
    "solve_attack": "strategy",
    "solve_combat": "strategy",
    "solve_hidden": "strategy",
    "style_study": "strategy",
    "worked_example": "strategy",
    # rule-book examples
    "Example": "notation",
    "check_expectations": "notation",
    "load_example": "notation",
    "replay": "notation",
    "to_example": "notation",
    # the widgets (ipywidgets)
    "EXAMPLES_DIR": "widgets",
    "CombatStepper": "widgets",
    "combat_stepper": "widgets",
    "hand_composition_explorer": "widgets",
    "odds_explorer": "widgets",
}

__all__ = sorted(FACE)

__getattr__, __dir__ = lazy_face(__name__, FACE)
