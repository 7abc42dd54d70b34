"""``ClashPosition.canonical_key`` (the minimax memo's key, worked out without building the
canonical position) equals ``canonical().key`` at every position of random clashes: random
deals from the 54-card deck (DB-1, jokers included), either side holding the initiative, the
default rules and the DB-5/DB-6 variants, random legal moves to the clash's end."""

from __future__ import annotations

import random

import pytest

from toolkit.durak_battle import Rules
from toolkit.durak_battle.position import DECK, ClashPosition, sorted_hand

RULES = [Rules(), Rules(counter_tie="loses"), Rules(holder_must_attack=True)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lowest_first", [False, True])
def test_canonical_key_is_the_canonical_positions_key(seed: int, lowest_first: bool) -> None:
    """... and :attr:`~ClashPosition.memo_key` stands for exactly one canonical key: for hands
    held lowest first (as the calculators hold them) one memo key per canonical key."""
    rng = random.Random(seed)
    checked = 0
    keys: dict[object, set[str]] = {}  # each memo key's canonical keys
    for _ in range(300):
        size_a, size_b = rng.randint(1, 6), rng.randint(1, 6)
        cards = rng.sample(DECK, size_a + size_b)
        hands = (tuple(cards[:size_a]), tuple(cards[size_a:]))
        if lowest_first:
            hands = (sorted_hand(hands[0]), sorted_hand(hands[1]))
        position, _ = ClashPosition.begin(hands, rng.randint(0, 1), rng.choice(RULES))
        while position is not None:
            assert position.canonical_key == position.canonical().key, position.key
            keys.setdefault(position.memo_key, set()).add(position.canonical_key)
            checked += 1
            position, _ = position.step(rng.choice(position.legal_actions()))
    assert checked > 1000
    assert all(len(found) == 1 for found in keys.values())  # never two canonical keys under one memo key
    if lowest_first:  # and one memo key for each canonical key
        assert len({k for found in keys.values() for k in found}) == len(keys)
