"""Pluggable Durak clash policies: how an army's leader chooses, for the calculators and the stepper.

A policy is a function ``state -> Distribution`` over ``state.legal_actions()``
(:data:`toolkit.engine.Policy`), so it plugs into :func:`toolkit.engine.play_out`,
:func:`toolkit.engine.enumerate_outcomes`, :func:`toolkit.montecarlo.sample_outcomes`
and the calculators of :mod:`toolkit.durak_battle.odds`. One function serves both
sides: the side to move is ``state.current_player`` (``"a"`` or ``"b"``).

The policies by name, in :data:`POLICIES`:

- ``"random"`` (:func:`random_policy`) — every legal action equally likely;
- ``"greedy"`` (:func:`greedy_policy`) — the sensible heuristic a designer plays first
  (see its docstring): attack with the highest spade, answer with the cheapest answer
  that succeeds;
- ``"optimal"`` (:func:`optimal_policy`) — minimax with both hands known (cards are
  played face up and a perfect-information search sees both hands): it plays for the
  token difference of the rest of the clash.

What a policy may read. The exact calculators of :mod:`.odds` call policies on their
own light clash positions (:class:`~toolkit.durak_battle.position.ClashPosition`) as well as on
the engine's :class:`~toolkit.durak_battle.engine.BattleState`. Both offer the same
attributes, and a policy for the calculators must read only these:
``current_player``, ``legal_actions()``, ``stage`` (``"attack"`` or ``"answer"``),
``holder``, ``attacking``, ``table``, ``hands``, ``passes`` and ``rules``. It must not
read tokens, the log or the deck (the clash odds are computed once per pair of hand
sizes, whatever the armies' tokens), nor the order of cards in a hand. And it must
depend on card ranks only through how they compare (higher, equal, lower): the exact
calculator plays one representative deal for every deal with the same ordering of the
cards. All three policies here do; ``random`` and ``greedy`` look only at the mover's
own hand and the card on the table.

>>> from toolkit.durak_battle import Army, Leader, start_clash
>>> north = Army("North", 6, Leader("Vasilisa"))
>>> south = Army("South", 4, Leader("Ivan"))
>>> s = start_clash(north, south, ("7S 9H QD", "10S 4S 4H"))
>>> greedy_policy(s).items()
[('attack 10S', Fraction(1, 1))]
>>> greedy_policy(s.apply("attack 10S")).items()  # the cheapest answer that succeeds
[('manoeuvre QD', Fraction(1, 1))]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle.best_play import action_key, best_action
from toolkit.durak_battle.clash import Answer, answer_attack
from toolkit.durak_battle.rules import Rules
from toolkit.engine import GameState, Policy
from toolkit.errors import IllegalActionError
from toolkit.prob import Distribution

__all__ = [
    "POLICIES",
    "random_policy",
    "greedy_policy",
    "greedy_action",
    "optimal_policy",
    "action_key",
]


def _stage(state: GameState) -> str:
    """The clash step of ``state``: ``"attack"`` or ``"answer"``."""
    stage = getattr(state, "stage", None)
    if stage not in ("attack", "answer") or not hasattr(state, "hands"):
        raise IllegalActionError(
            f"these policies choose at a Durak clash's attack or answer (a BattleState or a ClashPosition), "
            f"not at {type(state).__name__} stage {stage!r}"
        )
    return stage


def random_policy(state: GameState) -> Distribution[Any]:
    """Return every legal action with equal probability (the uniformly random leader):
    every attack card or a pass when attacking (DB-6), every card of the hand played as
    each action it allows, or taking the strike, when answering (DB-1, DB-4)."""
    return Distribution.uniform(state.legal_actions())


_SORT_KEY = {c.code: c.sort_key for c in standard_deck(jokers=True)}


def _key(card: Card) -> tuple[int, int]:
    return _SORT_KEY[card.code]


def _judged(table: Card, card: Card, action: str, rules: Rules) -> Answer:
    """The referee's judgement (DB-1, DB-5): policies never judge an answer themselves
    (remembered with the rules, ``rules.judged``)."""
    key = (table.code, card.code, action)
    found = rules.judged.get(key)
    if found is None:
        found = rules.judged[key] = answer_attack(table, card, action, rules)
    return found


def _lowest(cards: Sequence[Card]) -> Card | None:
    return min(cards, key=_key) if cards else None


def greedy_action(state: GameState) -> str:
    """Return the greedy leader's action in ``state`` (see :func:`greedy_policy`).

    Raises:
        IllegalActionError: not a Durak clash decision.
    """
    stage = _stage(state)
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = state.hands  # type: ignore[attr-defined]
    rules: Rules = state.rules  # type: ignore[attr-defined]
    suit = rules.tables.suit_of_action
    if stage == "attack":
        hand = hands[state.holder]  # type: ignore[attr-defined]
        spades = [c for c in hand if c.suit == suit["attack"]]
        if spades:
            return f"attack {max(spades, key=_key).code}"
        jokers = sorted(c for c in hand if c.is_joker)
        if jokers:  # a joker kept back may be wasted: leftover cards are discarded (DB-9)
            return f"attack {jokers[0].code}"
        return "pass"  # she holds no attack card (DB-6)
    # Answering: every card of her hand may be played as each of its actions but attack,
    # so every choice below is legal (DB-1, DB-4). The referee judges each card.
    table: Card = state.table  # type: ignore[attr-defined]
    hand = hands[1 - state.attacking]  # type: ignore[attr-defined]
    hearts = [c for c in hand if c.suit == suit["defence"]]
    diamonds = [c for c in hand if c.suit == suit["manoeuvre"]]
    clubs = [c for c in hand if c.suit == suit["counter"]]
    jokers = sorted(c for c in hand if c.is_joker)
    card = _lowest([c for c in diamonds if _judged(table, c, "manoeuvre", rules).succeeded])
    if card is not None:
        return f"manoeuvre {card.code}"
    card = _lowest([c for c in hearts if _judged(table, c, "defence", rules).succeeded])
    if card is not None:
        return f"defence {card.code}"
    card = _lowest([c for c in clubs if _judged(table, c, "counter", rules).defender_loss == 0])
    if card is not None:
        return f"counter {card.code}"
    if jokers:
        return f"manoeuvre {jokers[0].code}"
    for verb, cards in (("counter", clubs), ("defence", hearts), ("manoeuvre", diamonds)):
        card = _lowest(cards)
        if card is not None:
            return f"{verb} {card.code}"
    return "take"


def greedy_policy(state: GameState) -> Distribution[Any]:
    """Return the greedy leader's action (one action with probability 1).

    The heuristic reads only her own hand and the card on the table:

    - **Attack** (DB-3, DB-6): with her highest spade while she holds one, then with a
      joker (leftover cards are discarded at the end of the clash, DB-9, so a joker kept
      back for an answer may be wasted); she passes only with no attack card. (Keeping
      jokers back for answers did slightly worse in head-to-head Monte Carlo.)
    - **Answer** (DB-1, DB-4, DB-5), the first that she can play, the referee
      (:func:`~toolkit.durak_battle.clash.answer_attack`) judging each card:
      a manoeuvre that succeeds (she loses nothing) with her lowest such diamond; a
      defence that succeeds (she loses 1, the attacker 2) with her lowest such heart; a
      counterattack that costs her nothing with her lowest such club; a joker as a
      manoeuvre (it always succeeds); a counterattack with her lowest club (she loses
      1); a failed defence with her lowest heart (she loses 2, the attacker 1); a failed
      manoeuvre with her lowest diamond (she loses 2); otherwise she takes the strike.

    Under house rules the suits are those of ``rules.suits`` (a "spade" is a card of the
    attack suit, and so on) and the referee judges with the rules' losses, but the order
    of preference above stays the draft's: a fixed heuristic, not a best reply to a
    changed answer table (the ``"optimal"`` policy is that).

    >>> from toolkit.durak_battle import Army, Leader, start_clash
    >>> s = start_clash(Army("N", 6, Leader("V")), Army("S", 4, Leader("I")), ("9S 3C 2H", "KS"))
    >>> greedy_policy(s.apply("attack KS")).items()  # no answer succeeds: the cheapest is a 1-token counter
    [('counter 3C', Fraction(1, 1))]
    """
    return Distribution.certain(greedy_action(state))


def optimal_policy(state: GameState) -> Distribution[Any]:
    """Return the minimax action with both hands known (perfect information): the side
    to move plays for the token difference of the rest of the clash — the other side's
    losses minus her own, unweighted — assuming the other side does the same
    (:func:`toolkit.durak_battle.best_play.best_action`, as
    :func:`toolkit.durak_battle.odds.clash_value` from this position). DB-7 floors are
    ignored: the clash is valued as if fought to the last card. Among equally good actions
    she takes the first by :func:`action_key`.

    Raises:
        TooBigError: the position has too many continuations to search.
    """
    _stage(state)
    return Distribution.certain(best_action(state))


#: The policies by name, as the calculators accept them.
POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "optimal": optimal_policy}
