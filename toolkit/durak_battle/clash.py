"""The referee of one attack and its answer in a Durak clash (DB-1, DB-4, DB-5).

Suits are actions (DB-1): by default spades Attack, hearts Defence, diamonds Manoeuvre,
clubs Counterattack (``Rules.suits``); a joker is any of them, chosen when played, and
outranks every card. The tokens each answer costs are fields of the rules too.

>>> from toolkit.cards import Card
>>> answer_attack(Card("9S"), Card("10H"), "defence")
Answer(action='defence', attacker_loss=2, defender_loss=1, succeeded=True, counter=False)
>>> answer_attack(Card("9S"), Card("3D"), "manoeuvre")
Answer(action='manoeuvre', attacker_loss=0, defender_loss=2, succeeded=False, counter=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.cards import Card
from toolkit.durak_battle.rules import ACTIONS, SUIT_WORDS, Rules
from toolkit.errors import ArgumentTypeError, IllegalActionError
from toolkit.rulings import implements

__all__ = [
    "ACTIONS",
    "SUIT_WORDS",
    "suit_action",
    "Answer",
    "actions_of",
    "card_value",
    "answer_attack",
    "judged_answer",
    "strike",
]

_DEFAULT = Rules()


def suit_action(suit: str, rules: Rules | None = None) -> str:
    """Return what a card of ``suit`` (``"S"``, ``"H"``, ``"D"``, ``"C"``) lets an army do
    under ``rules`` (``Rules.suits``; by default ♠ attack, ♥ defence, ♦ manoeuvre, ♣
    counterattack, DB-1).

    >>> suit_action("D")
    'manoeuvre'
    """
    return (rules or _DEFAULT).tables.action_of_suit[suit]


@implements("DB-1 actions")
def actions_of(card: Card, rules: Rules | None = None) -> tuple[str, ...]:
    """Return the actions a card can be played as under ``rules`` (default: the default
    rules): its suit's, or any of the four for a joker (DB-1)."""
    return (rules or _DEFAULT).tables.actions[card.code]


@implements("DB-1 rank")
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


@implements("DB-4")
def strike(rules: Rules | None = None) -> Answer:
    """Return the strike of an unanswered attack: the defender loses ``rules.strike_loss``
    (4 by default), the attacker 0 (DB-4)."""
    return Answer("strike", 0, (rules or _DEFAULT).strike_loss)


@implements("DB-5")
def answer_attack(attack: Card, card: Card, action: str, rules: Rules | None = None) -> Answer:
    """Judge ``card`` played as ``action`` against the attack card ``attack`` (DB-1, DB-5).

    The card's suit must be the action's (``rules.suits``; a joker is any action). The
    tokens lost by (the attacker, the defender) are fields of the rules; by default:

    - Defence: value >= attack succeeds (attacker -2, defender -1, ``defence_won``); lower
      fails (attacker -1, defender -2, ``defence_lost``).
    - Manoeuvre: value >= attack succeeds (attacker -1, ``manoeuvre_won``); lower fails
      (defender -2, ``manoeuvre_lost``).
    - Counterattack: cancels the attack; if lower than the attack the counterattacker
      loses ``counter_lower_loss`` (1) first; higher, none; equal: none (DB-5 default) or
      as lower (``counter_tie="loses"``).

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
            f"an attack cannot be answered with an attack (DB-1): answer with a {rules.suit_word('defence')}, "
            f"{rules.suit_word('manoeuvre')} or {rules.suit_word('counter')}"
        )
    if action not in ACTIONS:
        raise IllegalActionError(f"{action!r} is not an action: use defence, manoeuvre or counter (DB-1)")
    if action not in actions_of(card, rules):
        raise IllegalActionError(
            f"{card} is a {rules.tables.action_of_suit[card.suit or 'S']} card and cannot be played as {action} "
            f"(DB-1): {rules.suits_text()}, a joker is any"
        )
    high = card_value(card) >= card_value(attack)
    if action == "defence":
        won, lost = rules.defence_won, rules.defence_lost
    elif action == "manoeuvre":
        won, lost = rules.manoeuvre_won, rules.manoeuvre_lost
    else:
        lower = card_value(card) < card_value(attack)
        tie = card_value(card) == card_value(attack)
        cost = rules.counter_lower_loss if lower or (tie and rules.counter_tie == "loses") else 0
        return Answer("counter", 0, cost, not lower, counter=True)
    return Answer(action, *won, True) if high else Answer(action, *lost, False)


def judged_answer(attack: Card, card: Card, action: str, rules: Rules) -> Answer:
    """Return :func:`answer_attack`'s judgement (DB-1, DB-5), remembered with the rules
    (``rules.judged``): what the clash state machine and the policies ask, so neither
    judges an answer itself."""
    key = (attack.code, card.code, action)
    found = rules.judged.get(key)
    if found is None:
        found = rules.judged[key] = answer_attack(attack, card, action, rules)
    return found
