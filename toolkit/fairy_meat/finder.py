"""The Fairy Meat searcher of :func:`toolkit.rulebook.finder.find_examples`.

Combats are set up from the smallest hands up (the attacker's Kill points + the
rules' ``attacker_bonus`` for attacking, 1 by default, FM-2; the defender's Live
points, a hand of 0 by a -1 modifier), with the number of attacks, Wrestling (FM-14)
and the defender's hand sizes the hints ask for.
Each combat is played out with the search's seeded generator: the cards dealt and
turned up are chosen at random from those the rules' deck holds (Trumps and the death card
favoured when the hints say so), the decisions by the system's policies (random or
greedy, :data:`toolkit.fairy_meat.policies.POLICIES`; the referee's best choice at the
reveal, bonus and shift steps). Smaller setups are played more often.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from toolkit.cards import Card
from toolkit.errors import ToolkitError
from toolkit.fairy_meat.deck import deck_cards, is_trump
from toolkit.fairy_meat.engine import CombatState, start_combat
from toolkit.fairy_meat.policies import POLICIES
from toolkit.fairy_meat.rules import Fairy, Rules, attacker_hand_size
from toolkit.notation import dump_yaml, load_yaml

__all__ = ["HINTS", "MAX_CARDS", "candidates", "complete", "dealing", "setups", "simplicity"]

#: The largest combat hand a searched combat deals.
MAX_CARDS = 5
ATTACKER, DEFENDER = "Dizzy", "Sparky"  # Sparky is "he", as Sparklespaz in the draft's worked example


def _attacker(cards: int, live: int, rules: Rules, wrestling: bool) -> dict[str, Any]:
    """The attacker drawing ``cards`` cards by the rules' hand size (FM-2, FM-14:
    :func:`~toolkit.fairy_meat.rules.attacker_hand_size`, with ``attacker_bonus`` and
    ``wrestling_hand``): the fewest Kill points that draw that many, and a negative
    modifier when even 0 Kill points draw more (an attacker's bonus above ``cards``)."""
    kill = next(k for k in itertools.count() if _hand(k, live, rules, wrestling) >= cards)
    modifiers = cards - _hand(kill, live, rules, wrestling)
    return {
        "attacker": Fairy(ATTACKER, live=live, kill=kill),
        **({"attacker_modifiers": modifiers} if modifiers else {}),
    }


def _hand(kill: int, live: int, rules: Rules, wrestling: bool) -> int:
    return attacker_hand_size(Fairy(ATTACKER, live=live, kill=kill), wrestling=wrestling, rules=rules)


def setups(hints: dict[str, Any], rules: Rules) -> list[dict[str, Any]]:
    """Return every setup the hints allow (keyword arguments of
    :func:`~toolkit.fairy_meat.engine.start_combat`), fewest cards first, the attacker's hand
    sizes by the rules (FM-2, FM-14)."""
    attacks = int(hints.get("attacks", 1))
    wrestling = bool(hints.get("wrestling", False))
    sizes = hints.get("defender_cards", range(1, MAX_CARDS + 1))
    out = []
    for a_cards, d_cards in itertools.product(range(1, MAX_CARDS + 1), sizes):
        if wrestling:
            if d_cards < 1:
                continue
            setup = {
                **_attacker(a_cards, 2, rules, True),
                "defender": Fairy(DEFENDER, live=2, kill=d_cards, pronoun="he"),
                "wrestling": True,
            }
        else:
            live = max(1, d_cards)
            setup = {
                **_attacker(a_cards, 3, rules, False),
                "defender": Fairy(DEFENDER, live=live, kill=1, pronoun="he"),
                "defender_modifiers": d_cards - live,
            }
        if attacks != 1:
            setup["attacks"] = attacks
        out.append((a_cards + d_cards, setup))
    out.sort(key=lambda item: item[0])
    return [setup for _, setup in out]


@cache
def dealing(rules: Rules, trump: float, death: float) -> tuple[tuple[Card, ...], dict[Card, float]]:
    """The rules' deck (FM-1: :func:`~toolkit.fairy_meat.deck.deck_cards`, jokers included),
    sorted as :meth:`~toolkit.cards.Pile.next_options` lists it, and each card's weight when
    dealt: ``death`` for the rules' death card (FM-12), ``trump`` for a Trump, 1 otherwise."""
    deck = tuple(sorted(deck_cards(rules)))
    weight = {c: death if c.code == rules.death_card else trump if is_trump(c, rules) else 1.0 for c in deck}
    return deck, weight


@cache
def _drawable(rules: Rules, trump: float, death: float) -> tuple[tuple[str, Card, float], ...]:
    """:func:`dealing` as ``(code, card, weight)``, in the deck's order."""
    deck, weight = dealing(rules, trump, death)
    return tuple((c.code, c, weight[c]) for c in deck)


def _playout(start: CombatState, hints: dict[str, Any], rng: random.Random) -> CombatState | None:
    trump, death = float(hints.get("trump", 1)), float(hints.get("ace_of_spades", 1))
    deck, weight = dealing(start.rules, trump, death)
    drawable = _drawable(start.rules, trump, death)
    policy = POLICIES["random" if rng.random() < 0.6 else "greedy"]
    state = start
    try:
        while not state.is_terminal:
            if state.is_chance_node:
                cards, chances = state.pile.weighted_next_options(deck, weight, drawable)
                card = rng.choices(cards, chances)[0]
                state = state.apply_listed(card)  # type: ignore[assignment]
            else:
                state = state.apply(policy(state).sample(rng))
    except ToolkitError:
        return None
    return state


#: The search hints this searcher reads (see the module docstring).
HINTS: tuple[str, ...] = ("attacks", "wrestling", "defender_cards", "trump", "ace_of_spades")


def candidates(rules: Any, hints: dict[str, Any], rng: random.Random) -> Iterator[CombatState]:
    """Yield finished combats (FM-2..FM-14 through the engine), small setups most often."""
    starts = [start_combat(rules=rules, **setup) for setup in setups(hints, rules)]
    for rep in itertools.count():
        for start in starts[: 2 + rep]:
            state = _playout(start, hints, rng)
            if state is not None:
                yield state


def simplicity(state: CombatState) -> tuple[int, ...]:
    """How simple a combat is to read, smaller first: cards dealt and turned up,
    decisions, events, then the Live and Kill points and the pips of the cards."""
    points = sum(f.live + f.kill for f in (state.setup.attacker, state.setup.defender)) if state.setup else 0
    pips = sum(c.pips or 10 for c in state.cards_seen)
    # len(state.moves) without playing the history again: a chance outcome is a card
    # (the cards turned up), a decision is one of the engine's legal actions (text)
    decisions = sum(not isinstance(action, Card) for action in state.history)
    return (len(state.cards_seen), decisions, len(state.events), points, pips)


def complete(text: str, state: CombatState) -> str:
    """Return the example text with ``nasty_hit: true`` in the expectation of every attack
    that gave a Nasty Hit (FM-12): the notation checks that key, but its ``to_example``
    does not write it."""
    if not any(r.nasty_hit for r in state.results):
        return text
    data = load_yaml(text).data
    for item in data.get("expect") or []:
        if state.results[item["attack"] - 1].nasty_hit:
            item["nasty_hit"] = True
    return dump_yaml(data, width=100)  # yaml.safe_dump's text, byte for byte
