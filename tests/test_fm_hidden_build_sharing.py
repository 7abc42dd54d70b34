"""The hidden-hands build shares work between draw groups (FM-6 Wild Trump draws).

Double draws whose families leave both sides the same views, offsets and groups of draws
share one set of parts (and the pairwise sums read the class keys from one table by view).
The reference here recomputes every group alone, with nothing remembered from the other
groups, on the same judge (every class and difference already judged, so the outcome ids
are the same numbers): the vectors must be equal bit for bit.
"""

from __future__ import annotations

import pytest

from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.hands import deck_caps
from toolkit.fairy_meat.strategy.hidden.matrix import build_game, clear_build_cache
from toolkit.fairy_meat.strategy.payoff import Payoff


def _game(rules: Rules):
    clear_build_cache()
    return build_game(2, 1, deck_caps((), rules), rules, Payoff())


@pytest.mark.parametrize("rules", [Rules(jokers=2), Rules()], ids=["two jokers (parts)", "draft's deck (pairwise)"])
def test_double_draws_equal_each_group_alone(rules):
    game = _game(rules)
    draws = game.draws
    assert game.double_cache
    for args, vec in game.double_cache.items():
        draws.doubles.clear()  # nothing shared with another group
        draws.signatures.clear()
        draws.kinds_by_number.clear()
        draws.phis.clear()
        alone = draws.double(*args)
        assert alone.tobytes() == vec.tobytes()
