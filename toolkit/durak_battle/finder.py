"""The Durak battle searcher of :func:`toolkit.rulebook.finder.find_examples`.

Battles are set up with small armies (the tokens the hints give, or 3 to 6 each) led by
Extras rolling a d4 for Knowledge (Battle) and a d6 for Spirit (DB-2, DB-8: small hands,
plain rolls), for one round unless the hints ask for more. Each battle is played out with
the search's seeded generator: the roll totals are chosen among the possible ones, the
cards dealt at random among those the deck holds (suits and jokers favoured as the hints
say), a joker tie's coin at random, and the decisions by the system's policies (random
or greedy, :data:`toolkit.durak_battle.policies.POLICIES`). Smaller setups are played
more often. The battle keeps its history (:attr:`toolkit.engine.GameState.history`) so it
can be written as an example file.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle.engine import BattleState, start_battle
from toolkit.durak_battle.policies import POLICIES
from toolkit.durak_battle.rules import SIDES, Army, Leader
from toolkit.errors import ToolkitError

__all__ = ["HINTS", "candidates", "simplicity", "TOKENS"]

#: The armies' tokens tried when the hints give none, smallest first.
TOKENS = ((3, 3), (4, 4), (2, 2), (5, 5), (3, 4), (4, 3), (6, 6))
NAMES = ("North", "South")
DECK = tuple(sorted(standard_deck(jokers=True)))
LEADERS = ("Voivode Ilya", "Khan Tugor")


def _armies(tokens: tuple[int, int]) -> tuple[Army, Army]:
    leaders = [Leader(name, battle_die="d4", spirit_die="d6", wild_card=False) for name in LEADERS]
    return Army(NAMES[0], tokens[0], leaders[0]), Army(NAMES[1], tokens[1], leaders[1])


def _card_weight(card: Card, suits: dict[str, float], joker: float) -> float:
    if card.is_joker:
        return joker
    return suits.get(card.suit or "", 1.0)


def _weights(hints: dict[str, Any]) -> tuple[dict[Card, float], tuple[tuple[str, Card, float], ...]]:
    """Each card's weight when dealt (suits and jokers as the hints say), by card and as
    ``(code, card, weight)`` in :data:`DECK`'s order."""
    suits = dict(hints.get("suits", ()))
    joker = float(hints.get("joker", 1))
    weight = {c: _card_weight(c, suits, joker) for c in DECK}
    return weight, tuple((c.code, c, weight[c]) for c in DECK)


def _playout(
    start: BattleState,
    hints: dict[str, Any],
    rng: random.Random,
    weights: tuple[dict[Card, float], tuple[tuple[str, Card, float], ...]] | None = None,
) -> BattleState | None:
    weights = weights or _weights(hints)
    policy = POLICIES["random" if rng.random() < 0.6 else "greedy"]
    state = start
    try:
        while not state.is_terminal:
            if state.is_chance_node:
                if state.stage == "deal":
                    cards, chances = state.deck.weighted_next_options(DECK, *weights)
                    choice: Any = rng.choices(cards, chances)[0]
                else:
                    outcomes = state.chance_outcomes()
                    choice = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
                state = state.apply_listed(choice)  # type: ignore[assignment]
            else:
                state = state.apply(policy(state).sample(rng))  # type: ignore[assignment]
    except ToolkitError:
        return None
    return state


#: The search hints this searcher reads (see the module docstring).
HINTS: tuple[str, ...] = ("suits", "joker", "rounds", "tokens")


def candidates(rules: Any, hints: dict[str, Any], rng: random.Random) -> Iterator[BattleState]:
    """Yield finished battles (DB-1..DB-9 through the engine), small setups most often."""
    rounds = int(hints.get("rounds", 1))
    tokens = hints.get("tokens", TOKENS)
    starts = [start_battle(*_armies(t), rules, max_rounds=rounds) for t in tokens]
    weights = _weights(hints)
    for rep in itertools.count():
        for start in starts[: 2 + rep]:
            state = _playout(start, hints, rng, weights)
            if state is not None:
                yield state


def simplicity(state: BattleState) -> tuple[int, ...]:
    """How simple a battle is to read, smaller first: cards dealt, decisions, rounds,
    events, then the tokens and the roll totals."""
    cards = sum(isinstance(a, Card) for a in state.history)
    decisions = sum(isinstance(a, str) and a not in SIDES for a in state.history)
    rolls = sum(a for a in state.history if isinstance(a, int))
    tokens = sum(a.tokens for a in state.history_start.armies)
    return (cards, decisions, state.round_no, len(state.events), tokens, rolls)
