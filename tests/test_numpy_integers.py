"""numpy integers (and any integer Python can index with) are whole numbers wherever a plain
``int`` is: a count, a pool, a hand size, trials, a seed, a rules field. Never a bool, never
a float (``3.0`` included)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from toolkit.angry_miniatures.odds import area_attack, crit_probability, hit_distribution, odds_table, opposed
from toolkit.angry_miniatures.repeated import attacks_to_take_out, expected_attacks_to_take_out
from toolkit.angry_miniatures.rules import Rules as AMRules
from toolkit.durak_battle.odds.clash_losses import clash_losses
from toolkit.durak_battle.rules import Rules as DBRules
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.odds.deals import deal_averaged_odds
from toolkit.whole_numbers import is_whole_number, whole_number

i = np.int64


@pytest.mark.parametrize("value", [np.int64(3), np.int32(3), np.uint8(3), np.int16(3), 3])
def test_numpy_integers_are_whole_numbers_and_come_back_as_plain_ints(value):
    assert is_whole_number(value)
    back = whole_number(value, "dice", 0, 6)
    assert back == 3 and type(back) is int


@pytest.mark.parametrize("value", [True, np.True_, 3.0, np.float64(3), Fraction(3), "3"])
def test_bools_floats_and_text_are_not_whole_numbers(value):
    assert not is_whole_number(value)
    with pytest.raises(InvalidSetupError, match="must be a whole number from 0 to 6"):
        whole_number(value, "dice", 0, 6)


def test_a_numpy_integer_out_of_range_is_refused_with_the_range():
    with pytest.raises(InvalidSetupError, match=r"dice must be a whole number from 0 to 6, got 7"):
        whole_number(np.int64(7), "dice", 0, 6)


@pytest.mark.parametrize(
    ("numpy_call", "int_call"),
    [
        (lambda: hit_distribution(i(3)), lambda: hit_distribution(3)),
        (lambda: crit_probability(i(3)), lambda: crit_probability(3)),
        (lambda: opposed(i(3), i(2)), lambda: opposed(3, 2)),
        (lambda: area_attack(i(3), [i(1), i(2)]), lambda: area_attack(3, [1, 2])),
        (
            lambda: attacks_to_take_out(i(3), i(2), health=i(3), cap=i(5)),
            lambda: attacks_to_take_out(3, 2, health=3, cap=5),
        ),
        (
            lambda: expected_attacks_to_take_out(i(3), i(2), health=i(3)),
            lambda: expected_attacks_to_take_out(3, 2, health=3),
        ),
        (lambda: clash_losses(i(2), i(1)), lambda: clash_losses(2, 1)),
        (lambda: deal_averaged_odds(i(1), i(1), method="exact"), lambda: deal_averaged_odds(1, 1, method="exact")),
    ],
)
def test_exact_calculators_take_numpy_integers(numpy_call, int_call):
    assert numpy_call() == int_call()


@pytest.mark.parametrize(
    "call",
    [
        lambda n, seed: opposed(n(3), n(2), method="monte_carlo", trials=n(200), seed=seed),
        lambda n, seed: attacks_to_take_out(n(3), n(2), health=n(3), method="monte_carlo", trials=n(100), seed=seed),
        lambda n, seed: clash_losses(n(2), n(1), method="monte_carlo", trials=n(60), seed=seed),
        lambda n, seed: deal_averaged_odds(n(1), n(1), method="monte_carlo", trials=n(40), seed=seed),
    ],
)
def test_monte_carlo_takes_numpy_trials_and_seeds_and_draws_the_same_runs(call):
    drawn = call(i, i(7))
    assert drawn.trials == call(int, 7).trials and type(drawn.trials) is int
    assert dict(drawn.items()) == dict(call(int, 7).items())


def test_odds_table_takes_numpy_pools():
    table = odds_table(np.arange(1, 3), [i(1)])
    assert list(table["hit"]) == list(odds_table([1, 2], [1])["hit"])


@pytest.mark.parametrize(("rules", "field"), [(AMRules, "tie_damage"), (DBRules, "strike_loss")])
def test_rules_fields_take_numpy_integers_as_the_ints_they_are(rules, field):
    given = rules(**{field: i(2)})
    assert given == rules(**{field: 2}) and type(getattr(given, field)) is int
    assert given.to_yaml() == rules(**{field: 2}).to_yaml()
