"""The suit-value analysis used by the Durak report (DB-1)."""

import pytest

from toolkit.durak_battle import Rules
from toolkit.durak_battle.analysis import suit_values
from toolkit.errors import InvalidSetupError


def test_an_extra_joker_is_worth_at_least_any_extra_card():
    # DB-1: a joker can be played as any of the four actions, outranks every card and never
    # forces an attack (DB-6), so under best play it should be worth at least as much as
    # any other extra card. Checked on a fixed sample of deals (the same deals for every suit).
    values = {v.suit: v for v in suit_values(cards=2, trials=40, seed=5)}
    assert set(values) == {"S", "H", "D", "C", "JK"}
    assert all(values["JK"].mean >= v.mean - 1e-9 for v in values.values())


def test_without_jokers_there_is_no_joker_row():
    assert {v.suit for v in suit_values(cards=1, trials=5, rules=Rules(jokers=False))} == {"S", "H", "D", "C"}


def test_bad_sizes():
    with pytest.raises(InvalidSetupError, match="cards must be 1 to 6"):
        suit_values(cards=9)
