"""Sizes, trials and budgets have upper bounds, stated in their errors, before any work: a
Monte Carlo result draws at most :data:`~toolkit.odds_result.MAX_TRIALS` runs (every run is
kept), the same bound as a sweep's ``trials``; a hand the deck cannot hold and a pool beyond
any table are refused naming the limit."""

from __future__ import annotations

import time

import pytest

from toolkit.angry_miniatures.odds import area_attack, opposed
from toolkit.angry_miniatures.repeated import attacks_to_take_out
from toolkit.durak_battle import Army, Leader
from toolkit.durak_battle.odds import battle_outcome
from toolkit.durak_battle.odds.clash_losses import clash_losses
from toolkit.durak_battle.sweep_calculators import calculators as durak_calculators
from toolkit.engine import TERMINAL, GameState
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.fairy_meat.odds.deals import deal_averaged_odds
from toolkit.fairy_meat.sweep_calculators import calculators as fairy_calculators
from toolkit.montecarlo import sample_outcomes
from toolkit.odds_result import MAX_TRIALS, check_trials

A = Army("a", 2, Leader("Ana", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-2))
B = Army("b", 2, Leader("Bo", battle_die="d6", spirit_die="d8", wild_card=False, battle_modifier=-4))


class Done(GameState):
    current_player = TERMINAL
    events = ()

    def _legal_actions(self):
        return []

    def _chance_outcomes(self):
        return []

    def _apply(self, action):
        return self


MONTE_CARLO = {
    "opposed": lambda n: opposed(3, 2, method="monte_carlo", trials=n),
    "attacks_to_take_out": lambda n: attacks_to_take_out(3, 2, health=3, method="monte_carlo", trials=n),
    "area_attack": lambda n: area_attack(3, [1, 2], method="monte_carlo", trials=n),
    "clash_losses": lambda n: clash_losses(3, 3, method="monte_carlo", trials=n),
    "battle_outcome": lambda n: battle_outcome(A, B, max_rounds=2, method="monte_carlo", trials=n),
    "deal_averaged_odds": lambda n: deal_averaged_odds(2, 2, method="monte_carlo", trials=n),
    "sample_outcomes": lambda n: sample_outcomes(Done(), lambda s: 1, n),
}


@pytest.mark.parametrize("name", MONTE_CARLO)
@pytest.mark.parametrize("trials", [10**12, MAX_TRIALS + 1, 0])
def test_trials_beyond_the_bound_are_refused_at_once_stating_it(name, trials):
    started = time.perf_counter()
    with pytest.raises(InvalidSetupError) as info:
        MONTE_CARLO[name](trials)
    assert time.perf_counter() - started < 30  # refused before any run, whatever the machine's load
    assert str(info.value) == (
        f"trials must be a whole number from 1 to 10,000,000, got {trials}; "
        "to sample for a time instead, give trials=10_000_000 and time_limit=SECONDS"
    )


def test_the_bound_itself_is_accepted():
    assert check_trials(MAX_TRIALS) == MAX_TRIALS == 10_000_000


def test_sweeps_state_the_same_bound_for_their_trials():
    params = [p for c in durak_calculators() + fairy_calculators() for p in c.params if p.name == "trials"]
    assert len(params) == 3 and {p.accepted() for p in params} == {"a whole number from 1 to 10,000,000"}


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: opposed(10**6, 10**6, method="monte_carlo"), "above the limit of 10,000"),
        (lambda: opposed(10**6, 1), "above the limit of"),
        (lambda: clash_losses(3 * 10**6, 3), "more than the 54-card deck holds"),
        (lambda: deal_averaged_odds(3 * 10**6, 3), "the deck holds 52"),
        (lambda: attacks_to_take_out(3, 2, health=3, cap=10**12), "above the limit of 1,000"),
    ],
)
def test_sizes_beyond_their_bound_are_refused_at_once_naming_it(call, words):
    with pytest.raises((InvalidSetupError, TooBigError), match=words):
        call()
