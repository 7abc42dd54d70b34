"""The Reconnaissance roll (DB-2): how many cards each army draws.

>>> cards_drawn(4, token_advantage(8, 6))  # a roll of 4, and 2 tokens more than the other army
6
>>> cards_drawn(-1)  # a modified roll below 0 draws no cards
0
"""

from __future__ import annotations

from toolkit.dice import trait_roll
from toolkit.durak_battle.rules import Leader, Rules
from toolkit.prob import Distribution
from toolkit.rulings import implements

__all__ = ["knowledge_roll", "token_advantage", "cards_drawn"]

_DEFAULT = Rules()


@implements("DB-2 roll")
def knowledge_roll(leader: Leader) -> Distribution[int]:
    """Return the law of a leader's Knowledge (Battle) total (DB-2): a Savage Worlds trait
    roll — her die and, for a Wild Card, a d6 Wild Die, keeping the higher; no dice
    explode — plus her flat modifier."""
    return trait_roll(leader.battle_die, leader.wild_card, leader.battle_modifier)


@implements("DB-2 advantage")
def token_advantage(own_tokens: int, other_tokens: int) -> int:
    """Return the tokens by which an army outnumbers the other, 0 if it does not (DB-2)."""
    return max(0, own_tokens - other_tokens)


@implements("DB-2")
def cards_drawn(roll_total: int, advantage: int = 0, rules: Rules | None = None) -> int:
    """Return the cards a leader draws (DB-2): her Knowledge (Battle) total, at least 0,
    plus ``rules.cards_per_token`` (1 by default) per token of ``advantage``
    (:func:`token_advantage`)."""
    return max(0, roll_total) + advantage * (rules or _DEFAULT).cards_per_token
