"""The referee of one attack and its answer in a Durak clash (DB-1, DB-4, DB-5).

Suits are actions (DB-1): spades Attack, hearts Defence, diamonds Manoeuvre, clubs
Counterattack; a joker is any of them, chosen when played, and outranks every card.

>>> from toolkit.cards import Card
>>> answer_attack(Card("9S"), Card("10H"), "defence")
Answer(action='defence', attacker_loss=2, defender_loss=1, succeeded=True, counter=False)
>>> answer_attack(Card("9S"), Card("3D"), "manoeuvre")
Answer(action='manoeuvre', attacker_loss=0, defender_loss=2, succeeded=False, counter=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.cards import Card
from toolkit.durak_battle.rules import Rules
from toolkit.errors import ArgumentTypeError, IllegalActionError

__all__ = [
    "ACTIONS",
    "SUIT_ACTION",
    "STRIKE_LOSS",
    "Answer",
    "actions_of",
    "card_value",
    "answer_attack",
    "strike",
]

#: What each suit lets an army do (DB-1).
SUIT_ACTION = {"S": "attack", "H": "defence", "D": "manoeuvre", "C": "counter"}
ACTIONS: tuple[str, ...] = ("attack", "defence", "manoeuvre", "counter")
#: Tokens the defender loses when an attack is not answered (DB-4).
STRIKE_LOSS = 4


def actions_of(card: Card) -> tuple[str, ...]:
    """Return the actions a card can be played as: its suit's, or any of the four for a joker (DB-1)."""
    if card.is_joker:
        return ACTIONS
    return (SUIT_ACTION[card.suit or "S"],)


def card_value(card: Card) -> int:
    """Return a card's rank for comparisons: 2 lowest … A, then jokers above all (DB-1).

    Both jokers have the same value.
    """
    return 13 if card.is_joker else card.sort_key[0]


@dataclass(frozen=True)
class Answer:
    """The result of answering an attack (or a counterattack).

    Attributes:
        action: ``"defence"``, ``"manoeuvre"``, ``"counter"`` or ``"strike"`` (not answered).
        attacker_loss, defender_loss: tokens lost by the side that attacked and the side
            that answered. For a counterattack, the counterattacker's loss (the answering
            side's) is paid *before* her counterattack (DB-5).
        succeeded: whether a Defence or Manoeuvre was high enough (value >= the attack).
        counter: whether the answer is a counterattack, so the attack is cancelled and the
            answering side now attacks with this card.
    """

    action: str
    attacker_loss: int
    defender_loss: int
    succeeded: bool = False
    counter: bool = False


def strike() -> Answer:
    """Return the strike of an unanswered attack: the defender loses 4, the attacker 0 (DB-4)."""
    return Answer("strike", 0, STRIKE_LOSS)


def answer_attack(attack: Card, card: Card, action: str, rules: Rules | None = None) -> Answer:
    """Judge ``card`` played as ``action`` against the attack card ``attack`` (DB-1, DB-5).

    - Defence: value >= attack succeeds (attacker -2, defender -1); lower fails
      (attacker -1, defender -2).
    - Manoeuvre: value >= attack succeeds (attacker -1); lower fails (defender -2).
    - Counterattack: cancels the attack; if lower than the attack the counterattacker
      loses 1 token first; higher, none; equal: none (DB-5 default) or 1 (``counter_tie=
      "loses"``).

    Raises:
        ArgumentTypeError: ``attack`` or ``card`` not a Card, ``action`` not a str, ``rules``
            not Rules.
        IllegalActionError: an attack answered with an attack, or a card that cannot be
            played as that action.
    """
    for name, value in (("attack", attack), ("card", card)):
        if not isinstance(value, Card):
            raise ArgumentTypeError(f"{name} must be a Card (e.g. Card('7S')), got {type(value).__name__}")
    if not isinstance(action, str):
        raise ArgumentTypeError(f"action must be 'defence', 'manoeuvre' or 'counter', got {type(action).__name__}")
    if rules is not None and not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules must be a durak_battle Rules or None, got {type(rules).__name__}")
    rules = rules or Rules()
    if action == "attack":
        raise IllegalActionError(
            "an attack cannot be answered with an attack (DB-1): answer with a heart, diamond or club"
        )
    if action not in ACTIONS:
        raise IllegalActionError(f"{action!r} is not an action: use defence, manoeuvre or counter (DB-1)")
    if action not in actions_of(card):
        raise IllegalActionError(
            f"{card} is a {SUIT_ACTION[card.suit or 'S']} card and cannot be played as {action} (DB-1): "
            "hearts defend, diamonds manoeuvre, clubs counterattack, a joker is any"
        )
    high = card_value(card) >= card_value(attack)
    if action == "defence":
        return Answer("defence", 2, 1, True) if high else Answer("defence", 1, 2, False)
    if action == "manoeuvre":
        return Answer("manoeuvre", 1, 0, True) if high else Answer("manoeuvre", 0, 2, False)
    lower = card_value(card) < card_value(attack)
    tie = card_value(card) == card_value(attack)
    cost = 1 if lower or (tie and rules.counter_tie == "loses") else 0
    return Answer("counter", 0, cost, not lower, counter=True)
