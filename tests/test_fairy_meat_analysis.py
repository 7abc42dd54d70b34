"""The None-rule analysis used by the Fairy Meat report (FM-5)."""

import pytest

from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.analysis import none_rule_value


def test_keeping_trumps_hidden_never_costs_the_owner():
    # FM-5: the owner chooses after seeing the Numbered cards, so her best choice is at
    # least as good as revealing everything — per attack, hence on average.
    v = none_rule_value(4, 3, ("random", "random"), trials=150, seed=3)
    assert 0 <= v.kept_hidden <= v.applies <= v.trials
    assert v.applies > 0 and v.gain >= 0
    lo, hi = v.mean_gain_interval()
    assert lo <= v.mean_gain <= hi


def test_none_rule_needs_cards():
    with pytest.raises(InvalidSetupError, match="at least 1 card"):
        none_rule_value(0, 2)
    with pytest.raises(InvalidSetupError, match="unknown policy 'clever' for the attacker"):
        none_rule_value(3, 2, ("clever", "greedy"))
