"""``ClashPosition.canonical_key`` (the minimax memo's key, worked out without building the
canonical position) equals ``canonical().key`` at every position of random clashes: random
deals from the 54-card deck (DB-1, jokers included), either side holding the initiative, the
default rules and the DB-5/DB-6 variants, random legal moves to the clash's end."""

from __future__ import annotations

import random

import pytest

from toolkit.durak_battle import Rules
from toolkit.durak_battle.position import DECK, ClashPosition

RULES = [Rules(), Rules(counter_tie="loses"), Rules(holder_must_attack=True)]


@pytest.mark.parametrize("seed", range(4))
def test_canonical_key_is_the_canonical_positions_key(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(300):
        size_a, size_b = rng.randint(1, 6), rng.randint(1, 6)
        cards = rng.sample(DECK, size_a + size_b)
        hands = (tuple(cards[:size_a]), tuple(cards[size_a:]))
        position, _ = ClashPosition.begin(hands, rng.randint(0, 1), rng.choice(RULES))
        while position is not None:
            assert position.canonical_key == position.canonical().key, position.key
            checked += 1
            position, _ = position.step(rng.choice(position.legal_actions()))
    assert checked > 1000
