"""The Durak mass battle (rulings DB-1..DB-9): card suits as actions, tokens and morale."""

from toolkit.durak_battle.clash import Answer, answer_attack, card_value, strike
from toolkit.durak_battle.engine import BattleState, initiative_holder, start_battle, start_clash
from toolkit.durak_battle.odds import (
    BattleEnd,
    BattleOdds,
    ClashLosses,
    ClashOutcome,
    ClashValue,
    battle_outcome,
    clash_losses,
    clash_value,
    hand_size_distribution,
    initiative,
    morale_pass_probability,
    suit_composition,
)
from toolkit.durak_battle.policies import POLICIES
from toolkit.durak_battle.rules import Army, Leader, Rules

__all__ = [
    "POLICIES",
    "BattleEnd",
    "BattleOdds",
    "ClashLosses",
    "ClashOutcome",
    "ClashValue",
    "battle_outcome",
    "clash_losses",
    "clash_value",
    "hand_size_distribution",
    "initiative",
    "morale_pass_probability",
    "suit_composition",
    "Answer",
    "Army",
    "BattleState",
    "Leader",
    "Rules",
    "answer_attack",
    "card_value",
    "initiative_holder",
    "start_battle",
    "start_clash",
    "strike",
]
