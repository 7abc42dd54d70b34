"""``time_limit`` bounds every Monte Carlo, with or without ``precision``: runs are drawn one
at a time and the clock read between them, so ``trials=10_000_000, time_limit=0.3`` stops
near 0.3 s with an honest estimate of the runs it drew (the first runs of its stream: the
same as asking for that many), a warning saying how many of those asked, and ``trials``
saying how many it has; ``math.inf`` (or a limit too big for a float) is no limit."""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from toolkit import odds_samples
from toolkit.angry_miniatures.odds import opposed
from toolkit.angry_miniatures.repeated import attacks_to_take_out
from toolkit.durak_battle.odds.clash_losses import clash_losses
from toolkit.engine import CHANCE, TERMINAL, GameState
from toolkit.errors import InvalidSetupError, PrecisionNotReachedError
from toolkit.fairy_meat.odds.deals import deal_averaged_odds
from toolkit.montecarlo import sample_outcomes
from toolkit.odds_result import check_time_limit
from toolkit.odds_samples import SamplingStoppedWarning, sample_runs

MANY = 10_000_000


@dataclass(frozen=True)
class Coin(GameState):
    """A coin tossed once."""

    face: str = ""
    current_player = property(lambda self: TERMINAL if self.face else CHANCE)
    events = ()

    def _legal_actions(self):
        return []

    def _chance_outcomes(self):
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def _apply(self, face):
        return replace(self, face=face)


CALCULATORS = {
    "angry miniatures opposed": lambda **k: opposed(5, 4, method="monte_carlo", **k),
    "angry miniatures attacks": lambda **k: attacks_to_take_out(3, 2, health=4, method="monte_carlo", **k),
    "durak clash (model)": lambda **k: clash_losses(4, 4, method="monte_carlo", **k),
    "durak clash (engine)": lambda **k: clash_losses(3, 3, method="monte_carlo", sampler="engine", **k),
    "fairy meat deals": lambda **k: deal_averaged_odds(2, 2, method="monte_carlo", **k),
}


@pytest.mark.parametrize("name", CALCULATORS)
def test_trials_and_a_time_limit_stop_at_the_limit_with_an_honest_estimate(name):
    call = CALCULATORS[name]
    started = time.perf_counter()
    with pytest.warns(SamplingStoppedWarning) as caught:
        stopped = call(trials=MANY, time_limit=0.3, seed=3)
    assert time.perf_counter() - started < 60  # hours without the limit, whatever the machine's load
    assert 1 <= stopped.trials < MANY and len(stopped.samples) == stopped.trials
    (warning,) = caught
    assert f"with {stopped.trials:,} of the 10,000,000 " in str(warning.message) and "0.3 s" in str(warning.message)
    assert warning.filename == __file__  # shown at the designer's line, not inside the toolkit
    asked = call(trials=stopped.trials, seed=3)  # the runs drawn are the stream's first ones
    assert dict(stopped.items()) == dict(asked.items())
    assert stopped.samples.aligned(asked.samples)


@pytest.mark.parametrize("name", CALCULATORS)
@pytest.mark.parametrize("limit", [math.inf, 10**400, 1e300])
def test_an_infinite_or_huge_time_limit_is_no_limit(name, limit):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert CALCULATORS[name](trials=40, time_limit=limit).trials == 40
        assert CALCULATORS[name](trials=40, time_limit=limit, precision=0.2).trials >= 40


def test_a_precision_not_reached_by_the_limit_is_still_the_error_that_says_so():
    with pytest.raises(PrecisionNotReachedError, match=r"stopped at the time limit of 0.2 s .* not the ±0.01 asked"):
        opposed(5, 4, method="monte_carlo", trials=MANY, precision=0.0001, time_limit=0.2)


def test_the_generic_sampler_has_a_time_limit_too():
    counts = sample_outcomes(Coin(), lambda s: s.face, 100, seed=1)
    assert counts["heads"].trials == 100
    with pytest.warns(SamplingStoppedWarning):
        stopped = sample_outcomes(Coin(), lambda s: s.face, MANY, seed=1, time_limit=0.2)
    n = stopped["heads"].trials
    assert 1 <= n < MANY and stopped["heads"].hits + stopped["tails"].hits == n
    assert stopped["heads"].hits == sample_outcomes(Coin(), lambda s: s.face, n, seed=1)["heads"].hits


def test_sample_runs_reads_the_clock_between_runs_and_draws_no_more(monkeypatch):
    """A clock that moves one second at each reading: the limit of 100 s stops the first
    batch after at most 100 readings, and the runs after that are never drawn."""
    ticks = iter(range(10**6))
    monkeypatch.setattr(odds_samples.time, "perf_counter", lambda: float(next(ticks)))
    drawn = []

    def draw(n, batch):
        for i in range(n):
            drawn.append(i)
            yield "hit" if i % 2 else "miss"

    with pytest.warns(SamplingStoppedWarning):
        results, batches = sample_runs(draw, MANY, None, lambda c, r: 0.0, 100.0, "runs")
    assert len(results) == len(drawn) == batches[0] and batches == (len(results),)
    assert len(results) <= 8 * 101


@pytest.mark.parametrize("bad", [0, -1, math.nan, -math.inf, "5", True, None, 1j])
def test_a_time_limit_that_is_not_a_positive_number_is_one_line(bad):
    with pytest.raises(InvalidSetupError, match=r"^time_limit must be a positive number of seconds \(math.inf for no"):
        check_time_limit(bad)


def test_time_limits_read_as_seconds_or_no_limit():
    assert check_time_limit(2) == 2.0 and check_time_limit(Fraction(1, 2)) == 0.5
    assert check_time_limit(math.inf) == check_time_limit(10**400) == check_time_limit(10**9) == math.inf


@pytest.mark.parametrize("limit", [math.inf, 10**400])
def test_the_hidden_hands_solve_reads_a_huge_time_limit_as_none(limit):
    from toolkit.fairy_meat.strategy.hidden import solve_hidden

    solved = solve_hidden(1, 1, time_limit=limit, max_iterations=20)
    assert solved.time_limit == math.inf and str(solved)  # its text reads, no OverflowError


def test_a_battle_stops_at_its_time_limit_with_the_error_that_says_what_it_needs():
    """A battle's result is exact arithmetic over clash tables of ``trials`` clashes each:
    never the estimate of fewer, so its time limit is the error, raised while sampling."""
    from toolkit.durak_battle import Army, Leader
    from toolkit.durak_battle.odds import battle_outcome

    a = Army("a", 3, Leader("Ana", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-2))
    b = Army("b", 3, Leader("Bo", battle_die="d6", spirit_die="d8", wild_card=False, battle_modifier=-4))
    started = time.perf_counter()
    with pytest.raises(PrecisionNotReachedError, match=r"stopped at the time limit of 0.3 s sampling the clashes of"):
        battle_outcome(a, b, max_rounds=3, method="monte_carlo", trials=MANY, seed=11, time_limit=0.3)
    assert time.perf_counter() - started < 60
    assert (
        battle_outcome(a, b, max_rounds=2, method="monte_carlo", trials=30, seed=11, time_limit=math.inf).trials == 30
    )
