"""The Durak mass battle (rulings DB-1..DB-9): card suits as actions, tokens and morale.

The whole public API, by concept:

- the rules layer, each ruling once (see the rulings index, docs/rulings.md): :mod:`.rules`
  (:class:`Rules`, :class:`Army`, :class:`Leader`; the deck DB-1, tokens DB-7, fresh
  decks DB-9), :mod:`.clash` (the referee of an answer: DB-1, DB-4, DB-5),
  :mod:`.recon` (cards drawn, DB-2), :mod:`.initiative_rule` (DB-3), :mod:`.morale`
  (DB-8) and :mod:`.position` (the clash state machine: DB-4, DB-6);
- the engine (:class:`BattleState`, :func:`start_battle`, :func:`start_clash`), which
  adds tokens, the log, rounds and morale around the clash state machine;
- the policies (:data:`POLICIES`) and the best play with both hands known
  (:func:`best_action`);
- the calculators of :mod:`.odds` and :mod:`.analysis`;
- the example notation of :mod:`.notation`;
- the widgets of :mod:`.widgets` (imported when first asked for: ipywidgets is slow to
  import and batch reports do not need it).

>>> from toolkit.durak_battle import Army, Leader, clash_value
>>> clash_value("7S 9H QD", "10S 4H").value
Fraction(2, 1)
"""

from __future__ import annotations

import importlib
from typing import Any

from toolkit.durak_battle.analysis import SuitValue, suit_label, suit_values
from toolkit.durak_battle.best_play import ClashSolver, action_key, best_action
from toolkit.durak_battle.clash import (
    ACTIONS,
    Answer,
    actions_of,
    answer_attack,
    card_value,
    strike,
    suit_action,
)
from toolkit.durak_battle.engine import BattleState, start_battle, start_clash
from toolkit.durak_battle.initiative_rule import NO_CLASH, TIE_COIN, attack_cards, initiative_holder
from toolkit.durak_battle.morale import MORALE_TARGET, morale_holds, morale_order, morale_penalty, spirit_roll
from toolkit.durak_battle.notation import (
    SYSTEM,
    Example,
    PlannedMove,
    RoundRecord,
    RoundSpec,
    TracedBattleState,
    battle_summary,
    check_expectations,
    load_example,
    outcome_text,
    plan_example,
    replay,
    round_records,
    to_example,
    traced,
)
from toolkit.durak_battle.odds import (
    DEFAULT_BATTLE_TRIALS,
    DEFAULT_TRIALS,
    EXACT_LIMIT,
    ActionValue,
    BattleEnd,
    BattleOdds,
    ClashLosses,
    ClashOutcome,
    ClashValue,
    OddsResult,
    SuitComposition,
    battle_outcome,
    clash_losses,
    clash_value,
    clear_caches,
    exact_size,
    hand_size_distribution,
    initiative,
    morale_pass_probability,
    suit_composition,
)
from toolkit.durak_battle.policies import POLICIES, greedy_action, greedy_policy, optimal_policy, random_policy
from toolkit.durak_battle.position import (
    PASSES_TO_END,
    Beat,
    ClashPosition,
    beat_losses,
    can_answer,
    can_attack,
    clash_over,
    may_pass,
    sorted_hand,
)
from toolkit.durak_battle.recon import cards_drawn, knowledge_roll, token_advantage
from toolkit.durak_battle.rules import (
    DEFAULT_SUITS,
    MAX_LOSS,
    MAX_TOKENS,
    SIDES,
    SUIT_SIZE,
    SUIT_WORDS,
    Army,
    Leader,
    Rules,
    fresh_deck,
    settle_losses,
)

#: The widgets' public names, imported from :mod:`.widgets` when first asked for.
_WIDGETS = (
    "BattleStepper",
    "battle_stepper",
    "odds_explorer",
    "round_explorer",
    "default_armies",
    "EXAMPLES_DIR",
    "SUIT_SYMBOLS",
    "LONGEST_SHOWN",
    "PRECISIONS",
    "EXPLORER_POLICIES",
)

__all__ = [
    # rules layer
    "Rules",
    "Leader",
    "Army",
    "MAX_TOKENS",
    "MAX_LOSS",
    "DEFAULT_SUITS",
    "SUIT_WORDS",
    "SIDES",
    "SUIT_SIZE",
    "fresh_deck",
    "settle_losses",
    "ACTIONS",
    "suit_action",
    "Answer",
    "actions_of",
    "card_value",
    "answer_attack",
    "strike",
    "knowledge_roll",
    "token_advantage",
    "cards_drawn",
    "NO_CLASH",
    "TIE_COIN",
    "attack_cards",
    "initiative_holder",
    "MORALE_TARGET",
    "spirit_roll",
    "morale_order",
    "morale_penalty",
    "morale_holds",
    "Beat",
    "ClashPosition",
    "PASSES_TO_END",
    "beat_losses",
    "can_attack",
    "can_answer",
    "clash_over",
    "may_pass",
    "sorted_hand",
    # engine
    "BattleState",
    "start_battle",
    "start_clash",
    # policies and best play
    "POLICIES",
    "random_policy",
    "greedy_policy",
    "greedy_action",
    "optimal_policy",
    "ClashSolver",
    "action_key",
    "best_action",
    # calculators
    "EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "DEFAULT_BATTLE_TRIALS",
    "OddsResult",
    "SuitComposition",
    "ActionValue",
    "ClashValue",
    "ClashOutcome",
    "ClashLosses",
    "BattleEnd",
    "BattleOdds",
    "hand_size_distribution",
    "suit_composition",
    "initiative",
    "morale_pass_probability",
    "clash_value",
    "exact_size",
    "clash_losses",
    "battle_outcome",
    "clear_caches",
    "SuitValue",
    "suit_values",
    "suit_label",
    # notation
    "SYSTEM",
    "TracedBattleState",
    "traced",
    "RoundSpec",
    "RoundRecord",
    "PlannedMove",
    "Example",
    "load_example",
    "plan_example",
    "replay",
    "round_records",
    "check_expectations",
    "outcome_text",
    "battle_summary",
    "to_example",
    # widgets (lazy)
    *_WIDGETS,
]


def __getattr__(name: str) -> Any:
    """The widgets, imported on first use (ipywidgets is slow to import)."""
    if name in _WIDGETS:
        return getattr(importlib.import_module("toolkit.durak_battle.widgets"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WIDGETS))
