"""Morale after a clash (DB-8): who rolls first, the penalty, the target.

>>> morale_order(1)  # side b was originally attacked: she rolls first
(1, 0)
>>> morale_holds(5, 2)  # 5 - 2 = 3 < 4: the army retreats
False
"""

from __future__ import annotations

from toolkit.dice import trait_roll
from toolkit.durak_battle.rules import Leader, Rules
from toolkit.prob import Distribution
from toolkit.rulings import implements

__all__ = ["spirit_roll", "morale_order", "morale_penalty", "morale_holds"]


@implements("DB-8 spirit")
def spirit_roll(leader: Leader) -> Distribution[int]:
    """Return the law of a leader's Spirit total (DB-8): her die and, for a Wild Card, a d6
    Wild Die, keeping the higher; no dice explode; plus her flat modifier."""
    return trait_roll(leader.spirit_die, leader.wild_card, leader.spirit_modifier)


@implements("DB-8")
def morale_order(first_attacked: int) -> tuple[int, int]:
    """Return the sides (0 for a, 1 for b) in the order they roll morale (DB-8): the side
    originally attacked — without the initiative at the start of the clash — first; the
    other rolls only if the first stays."""
    return (first_attacked, 1 - first_attacked)


@implements("DB-8 penalty")
def morale_penalty(rules: Rules, lost_clash: int, lost_battle: int) -> int:
    """Return the penalty to a Spirit roll (DB-8): ``rules.morale_per_token`` (1) per token
    lost in this clash, or in the whole battle with the variant ``morale_penalty="battle"``."""
    return rules.morale_per_token * (lost_clash if rules.morale_penalty == "clash" else lost_battle)


@implements("DB-8 success")
def morale_holds(spirit_total: int, penalty: int, rules: Rules | None = None) -> bool:
    """Return whether the army stays (DB-8): Spirit total minus the penalty is at least
    ``rules.morale_target`` (4 by default)."""
    rules = Rules() if rules is None else rules
    return spirit_total - penalty >= rules.morale_target
