"""The Durak mass battle (rulings DB-1..DB-9): card suits as actions, tokens and morale.

What a designer types, imported on first use (:mod:`toolkit.public_face`: ``import
toolkit.durak_battle.rules`` loads no calculator or widget, nor numpy and scipy).
Everything else is public in its submodule, by concept:

- the rules layer, each ruling once (see the rulings index, docs/rulings.md): :mod:`.rules`
  (:class:`Rules`, :class:`Army`, :class:`Leader`; the deck DB-1, tokens DB-7, fresh
  decks DB-9), :mod:`.clash` (the referee of an answer: DB-1, DB-4, DB-5),
  :mod:`.recon` (cards drawn, DB-2), :mod:`.initiative_rule` (DB-3), :mod:`.morale`
  (DB-8) and :mod:`.position` (the clash state machine: DB-4, DB-6);
- the engine (:mod:`.engine`), which adds tokens, the log, rounds and morale around the
  clash state machine;
- the policies (:mod:`.policies`) and the best play with both hands known (:mod:`.best_play`);
- the calculators of :mod:`.odds` and :mod:`.analysis`;
- the example notation of :mod:`.notation`;
- the widgets of :mod:`.widgets` (ipywidgets is slow to import and batch reports do not need it).

>>> from toolkit.durak_battle import Army, Leader, clash_value
>>> clash_value("7S 9H QD", "10S 4H").value
Fraction(2, 1)
"""

from __future__ import annotations

from toolkit.public_face import lazy_face

#: Each public name and the submodule that defines it.
FACE = {
    # the rules and the armies
    "Rules": "rules",
    "Army": "rules",
    "Leader": "rules",
    # the engine and the referee of an answer
    "BattleState": "engine",
    "start_battle": "engine",
    "start_clash": "engine",
    "answer_attack": "clash",
    # the policies and the best play
    "POLICIES": "policies",
    "greedy_action": "policies",
    "greedy_policy": "policies",
    "optimal_policy": "policies",
    "random_policy": "policies",
    "best_action": "best_play",
    # the odds
    "BattleEnd": "odds",
    "BattleOdds": "odds",
    "ClashLosses": "odds",
    "ClashValue": "odds",
    "battle_outcome": "odds",
    "clash_losses": "odds",
    "clash_value": "odds",
    "hand_size_distribution": "odds",
    "initiative": "odds",
    "morale_pass_probability": "odds",
    "suit_values": "analysis",
    # rule-book examples
    "Example": "notation",
    "check_expectations": "notation",
    "load_example": "notation",
    "replay": "notation",
    "to_example": "notation",
    # the widgets (ipywidgets)
    "EXAMPLES_DIR": "widgets",
    "BattleStepper": "widgets",
    "battle_stepper": "widgets",
    "odds_explorer": "widgets",
    "round_explorer": "widgets",
}

__all__ = sorted(FACE)

__getattr__, __dir__ = lazy_face(__name__, FACE)
