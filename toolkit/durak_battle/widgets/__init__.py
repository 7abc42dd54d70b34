"""The Durak mass battle in JupyterLab: a battle stepper with cards to click, and an odds explorer.

:func:`battle_stepper` plays a whole battle (DB-1..DB-9) on the generic
:class:`~toolkit.widgets.Stepper`: setup controls on top (tokens, the leaders' dice, Wild
Card, the rule variants — every change restarts), the tokens of each army as a bar, the
deciding army's hand as toggle buttons coloured by suit (♠ attack, ♥ defence,
♦ manoeuvre, ♣ counter; a joker asks which action), **Pass** and **Take the strike**,
the stepper's Roll (Knowledge (Battle), the deal, a joker-tie coin, Spirit — with the
seed) or typed outcomes, Back, the narrated log, and **Export** of the battle as a
rule-book example (the YAML ``toolkit replay`` plays back). Given an example file it
starts at the example's start and plays its moves one at a time.

:func:`odds_explorer` charts how a whole battle ends (who wins, in which round) on
:func:`toolkit.durak_battle.odds.battle_outcome`, and :func:`round_explorer` one round's
hand sizes, initiative and morale, exactly, as the armies, leaders and variants change.

>>> st = battle_stepper(example="durak_counterattack_chain.yaml")
>>> st.play_all()
>>> st.state.outcome, st.token_bars["a"].value
('a retreats', 1)
>>> st = battle_stepper(seed=3)
>>> st.type_outcome("4"); st.type_outcome("4")
>>> st.type_outcome("10S 7S 6C 9H"); st.type_outcome("QC 4C 8S 5H")
>>> st.click_card("7S")
>>> st.click_card("8S")  # a spade cannot answer an attack
>>> "DB-1" in st.stepper.error
True
"""

from toolkit.durak_battle.widgets.explorers import (
    EXPLORER_POLICIES,
    LONGEST_SHOWN,
    PRECISIONS,
    odds_explorer,
    round_explorer,
)
from toolkit.durak_battle.widgets.pieces import SUIT_SYMBOLS, default_armies
from toolkit.durak_battle.widgets.stepper import EXAMPLES_DIR, BattleStepper, battle_stepper

__all__ = [
    "BattleStepper",
    "battle_stepper",
    "odds_explorer",
    "EXAMPLES_DIR",
    "SUIT_SYMBOLS",
    "default_armies",
    "round_explorer",
    "LONGEST_SHOWN",
    "PRECISIONS",
    "EXPLORER_POLICIES",
]
