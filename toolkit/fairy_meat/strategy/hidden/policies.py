"""The engine's policies as strategies of the hidden-hands game (each fairy's play by card type)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from toolkit.cards import JOKERS, Card, parse_cards
from toolkit.engine import Policy
from toolkit.equilibrium.cfr import reaches
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    deck_cards,
    is_numbered,
    representative_hand,
    trump_pools,
    type_index,
)
from toolkit.fairy_meat.legality import (
    Placed,
    placed_cards,
    placed_type,
)
from toolkit.fairy_meat.odds.known_hands import start_known_hands
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.game import Game
from toolkit.fairy_meat.strategy.hidden.hands import placed_size
from toolkit.fairy_meat.strategy.hidden.matrix import clear_build_cache

__all__ = ["SIDES", "DECLS", "dummy_hand", "type_action", "policy_strategy", "clear_strategy_cache"]


SIDES = ("attacker", "defender")


DECLS = ("add", "subtract")


def _rep_cards(hand: Sequence[int], side: int, rules: Rules | None = None) -> list[Card]:
    """Representative cards of a hand type in the rules' deck: the attacker's from one end
    of each pool, the defender's from the other (:func:`~toolkit.fairy_meat.deck.representative_hand`)."""
    return representative_hand(list(hand), side, rules)


def dummy_hand(size: int, placed: Placed, avoid: set[Card], side: int, rules: Rules | None = None) -> list[Card] | None:
    """An opponent's hand of ``size`` cards of the rules' deck (FM-1) holding Trumps of type
    ``placed`` and Numbered fillers, none in ``avoid`` (None when the cards run out: a
    history that cannot occur)."""
    out: list[Card] = []
    if placed is not None:
        colour, n, ace = placed[:3]
        jokers = placed[3] if len(placed) > 3 else 0
        source = trump_pools(rules)[colour]
        pool = [c for c in (source if side == 0 else source[::-1]) if c not in avoid]
        dealt = Rules() if rules is None else rules  # the draft's deck by default (FM-1, FM-12)
        death = None if dealt.death_card is None else Card(dealt.death_card)
        present = [Card(j) for j in JOKERS[: dealt.jokers]]
        spare = [c for c in (present if side == 0 else present[::-1]) if c not in avoid]
        if len(pool) < n or (ace and death in avoid) or len(spare) < jokers:
            return None
        out += pool[:n] + ([death] if ace else []) + spare[:jokers]
    for card in _numbered_deck(rules):
        if len(out) >= size:
            break
        if card not in avoid and card not in out:
            out.append(card)
    return out if len(out) == size else None


@lru_cache(maxsize=16)
def _numbered_deck(rules: Rules | None = None) -> tuple[Card, ...]:
    """The Numbered cards of the rules' deck, in its order (by suit, then rank; built once: speed)."""
    return tuple(card for card in deck_cards(rules) if is_numbered(card, rules))


def _history_state_cached(game: Game, p: int, level: int, info: tuple) -> Any:
    """:func:`_history_state`, remembered in the game for every policy asked about it
    (the states are immutable; the same information sets are visited for each policy)."""
    states = game.policy_cache.setdefault(("states", p), {})
    key = (level, info)
    if key not in states:
        states[key] = _history_state(game, p, level, info)
    return states[key]


#: Policy strategies already computed, by game structure (hand sizes, deck, rules), side
#: and policy: the structure does not depend on the payoff, so a game solved again with
#: another payoff (or another target) reuses them. Bounded: oldest entries go first.
_STRATEGIES: OrderedDict[Hashable, list[np.ndarray]] = OrderedDict()
_STRATEGIES_KEPT = 32


def clear_strategy_cache() -> None:
    """Forget the policy strategies remembered between games (:func:`policy_strategy`) and
    the games' payoff-free builds (:func:`~.matrix.clear_build_cache`)."""
    _STRATEGIES.clear()
    clear_build_cache()


def type_action(action: str, rules: Rules | None = None) -> Any:
    """The type-level action of an engine action string under ``rules`` (FM-1, FM-4): a
    declaration's index, the Trumps placed as :data:`~toolkit.fairy_meat.legality.Placed`,
    or the type index of the card played."""
    verb, _, rest = action.partition(" ")
    if verb == "declare":
        return DECLS.index(rest)
    if verb == "trumps":
        if rest == "none":
            return None
        return placed_type(parse_cards(rest), rules)
    if verb in ("play", "wild"):
        return type_index(parse_cards(rest)[0], rules)
    raise InvalidSetupError(f"the policy chose {action!r}, which is not a declaration, Trumps or card")


def _history_state(game: Game, p: int, level: int, info: tuple) -> Any:
    """An engine state at information set ``info`` of player ``p`` (level 0 declaration,
    1 Trumps, 2 card), with representative cards; ``None`` if no cards realise it."""
    h = info[0]
    reps = game.policy_cache.setdefault(("cards", p), {})  # representative cards by hand (read only)
    own = reps.get(h)
    if own is None:
        own = reps[h] = _rep_cards(game.hands[p][h], p, game.rules)
    mine = set(own)
    size_other = game.d if p == 0 else game.a
    seen_placed: Placed = None
    if level == 2:
        obs = game.obs[info[4]]
        if obs[0] == "set":
            seen_placed = obs[1]
        elif obs[0] == "count":  # a set of that many Trumps (she sees only how many): red ones while there are
            reds = len(trump_pools(game.rules)["red"])
            seen_placed = (
                ("red", obs[1], False)
                if obs[1] <= reds
                else next((q for q in game.placed if q is not None and placed_size(q) == obs[1]), None)
            )
    other = dummy_hand(size_other, seen_placed, mine, 1 - p, game.rules)
    if other is None:
        return None
    hands = (own, other) if p == 0 else (other, own)
    if p == 0:
        moves = [] if level == 0 else [f"declare {DECLS[info[1]]}", f"declare {DECLS[info[2]]}"]
    else:
        moves = [f"declare {DECLS[info[1]]}"] + ([] if level == 0 else [f"declare {DECLS[info[2]]}"])
    if level == 1 and p == 1:
        moves.append("trumps none")  # the defender's policy never reads the attacker's choice here
    if level < 2:
        return _played(game, hands, tuple(moves))
    own_placed = game.placed[info[3]]
    plays = [" ".join(c.code for c in placed_cards(own, own_placed, game.rules)) or "none", None]
    plays[1] = " ".join(c.code for c in placed_cards(other, seen_placed, game.rules)) or "none"
    first, second = (plays[0], plays[1]) if p == 0 else (plays[1], plays[0])
    state = _played(game, hands, (*moves, f"trumps {first}", f"trumps {second}"))
    if p == 1:
        legal = state.legal_actions()
        state = state.apply(legal[0])  # the attacker's card, unseen by the defender's policy
    return state


def _played(game: Game, hands: tuple[list[Card], list[Card]], moves: tuple[str, ...]) -> Any:
    """The engine state of the known hands ``hands`` after ``moves`` (remembered in the game:
    states are immutable, and the histories of a pair of hands share their first moves, so
    each prefix is dealt and played once)."""
    states = game.policy_cache.setdefault(("played",), {})
    key = (tuple(hands[0]), tuple(hands[1]), moves)
    got = states.get(key)
    if got is None:
        if moves:
            got = _played(game, hands, moves[:-1]).apply(moves[-1])
        else:
            got = start_known_hands(hands[0], hands[1], game.rules)
        states[key] = got
    return got


def policy_strategy(game: Game, p: int, policy: Policy) -> list[np.ndarray]:
    """Behaviour probabilities of an engine policy at every information set of player ``p``,
    by calling it on representative engine states (it must treat cards of one type alike).
    Information sets the policy never reaches (with any deal) are left uniform. The
    toolkit's own ways of playing (:data:`~toolkit.fairy_meat.policies.PLAY_STYLES`: random,
    greedy, cautious) read only the fairy's own hand and choices, so they are asked once
    per (hand, own history)."""
    key_all: Hashable | None = (game.a, game.d, tuple(game.caps), game.rules, p, policy)
    try:
        known = _STRATEGIES.get(key_all)
    except TypeError:  # an unhashable policy object: not remembered
        key_all, known = None, None
    if known is not None:
        return [s.copy() for s in known]
    strat = _policy_strategy(game, p, policy)
    if key_all is not None:
        _STRATEGIES[key_all] = [s.copy() for s in strat]
        while len(_STRATEGIES) > _STRATEGIES_KEPT:
            _STRATEGIES.popitem(last=False)
    return strat


def _policy_strategy(game: Game, p: int, policy: Policy) -> list[np.ndarray]:
    """:func:`policy_strategy` computed."""
    from toolkit.fairy_meat.policies import PLAY_STYLES

    # the toolkit's own ways of playing (random, greedy, cautious) read only her own hand and
    # choices: one engine state per (hand, own history) serves every history of the opponent
    own_only = policy in PLAY_STYLES.values()
    side = game.sides[p]
    strat = []
    cache: dict[Hashable, dict[Any, float]] = {}
    parent_reach: np.ndarray | None = None
    hand_prob = game.weights.sum(axis=1 - p)
    for level, lv in enumerate(side.levels):
        s = 1.0 / lv["counts"][lv["slot_inf"]]
        s = s.copy()
        infos = game.infos[p][level]
        acts = game.actions[p][level]
        for i, info in enumerate(infos):
            if hand_prob[info[0]] == 0:
                continue
            if parent_reach is not None and parent_reach[lv["inf_parent"][i]] == 0:
                continue
            if own_only:
                key: Hashable = (level, info[0], None if level == 0 else info[1 + p], None if level < 2 else info[3])
            else:
                key = (level, info)
            dist = cache.get(key)
            if dist is None:
                state = _history_state_cached(game, p, level, info)
                dist = {}
                if state is not None:
                    for action, q in policy(state).items():
                        a = type_action(str(action), game.rules)
                        dist[a] = dist.get(a, 0.0) + float(q)
                cache[key] = dist
            if not dist:
                continue
            start, count = int(lv["starts"][i]), int(lv["counts"][i])
            for j in range(start, start + count):
                s[j] = dist.get(acts[j], 0.0)
        strat.append(s)
        parent_reach = reaches(side, strat + [np.ones(lv2["n_slot"]) for lv2 in side.levels[level + 1 :]])[1][level]
    return strat
