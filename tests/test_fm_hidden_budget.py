"""The hidden-hands solve stops on a deterministic budget, not on the machine's speed (issue 24).

A solve stops when its measured exploitability reaches the target or after its iteration
budget: both are counted in iterations, so a slow or loaded machine gives the same figures.
The time limit is a safety net only; when it fires the solution says so (``stopped``) and
:meth:`HiddenSolution.stop_note` words it for a report. The clock is injected here: a clock
that runs a thousand times slower than this machine changes nothing within the budget.
The strategy report passes its budget to every hidden solve it makes.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden import solve_hidden
from toolkit.fairy_meat.strategy.payoff import Payoff
from toolkit.reports import notebook_parameters

STRATEGY = Path(__file__).resolve().parent.parent / "notebooks" / "fairy_meat_strategy.ipynb"


class SlowClock:
    """A clock that moves ``step`` seconds at every reading (a machine as slow as we like)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _figures(sol):
    return (sol.iterations, sol.value, sol.lower, sol.upper, sol.stopped, [c[0] for c in sol.curve])


def test_a_slow_clock_changes_nothing_within_the_budget():
    """The same solve on this machine and on one where every clock reading takes 20 s (the
    build and each CFR+ iteration thousands of times slower than here), with the report's
    safety net of 600 s: the same iterations, value, bounds and curve. The report's former
    limit of 60 s would have stopped the slow one after its first iteration."""
    fast = solve_hidden(2, 1, Rules(), Payoff(), target=0.002, max_iterations=2000, time_limit=600)
    clock = SlowClock(20.0)
    slow = solve_hidden(2, 1, Rules(), Payoff(), target=0.002, max_iterations=2000, time_limit=600, clock=clock)
    assert fast.stopped == slow.stopped == "target"
    assert _figures(fast) == _figures(slow)
    assert clock.now > 60 * 4  # the slow machine really was slow
    assert fast.stop_note() == slow.stop_note() == ""


def test_the_iteration_budget_stops_the_solve_whatever_the_clock():
    """A target out of reach: the budget of 7 iterations stops it, checked at 5 and at 7."""
    sol = solve_hidden(2, 1, target=1e-9, max_iterations=7, check_every=5, time_limit=1e9, clock=SlowClock(100.0))
    assert (sol.iterations, sol.stopped) == (7, "iterations")
    assert [c[0] for c in sol.curve] == [5, 7]
    assert sol.stop_note() == ""


def test_the_safety_net_says_so_in_words():
    """A clock that passes the time limit at the first iteration stops the solve there, and the
    solution says that its figures depend on the machine."""
    sol = solve_hidden(2, 1, target=1e-9, max_iterations=2000, time_limit=30, clock=SlowClock(20.0))
    assert sol.stopped == "time"
    # readings: start, after the build, after iteration 1 (40 s past the start: over 30)
    assert sol.iterations == 1 and sol.curve[-1][0] == 1
    note = sol.stop_note()
    assert "2 v 1" in note and "time limit of 30 seconds" in note and "after 1 iteration," in note
    assert "depend on how fast this machine ran" in note


def _notebook_code() -> str:
    cells = json.loads(STRATEGY.read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_every_hidden_solve_of_the_strategy_report_has_a_deterministic_budget():
    """Each ``solve_hidden`` call of the report passes the iteration budget and the target,
    the budget is a whole number and the safety net is far above what the solves take here
    (the notebook's parameters), and the report words any solve the safety net stopped."""
    params = notebook_parameters(STRATEGY)
    budget = ast.literal_eval(params["hidden_iterations"].default)
    assert isinstance(budget, int) and budget >= 1
    assert ast.literal_eval(params["hidden_time_limit"].default) >= 600
    calls = [node for node in ast.walk(ast.parse(_notebook_code())) if isinstance(node, ast.Call)]
    solves = [c for c in calls if getattr(c.func, "id", None) == "solve_hidden"]
    assert len(solves) >= 3
    for call in solves:
        passed = {k.arg: ast.unparse(k.value) for k in call.keywords}
        assert passed.get("max_iterations") == "hidden_iterations", ast.unparse(call)
        assert "target" in passed and passed.get("time_limit") == "hidden_time_limit", ast.unparse(call)
    assert "stop_note()" in _notebook_code()


def test_the_report_names_a_solve_its_safety_net_stopped(tmp_path):
    """With a time limit no solve can meet, every hidden-hands game of the report stops on the
    clock after its first iteration, and the report says so in words, game by game."""
    import html as html_lib
    import re

    from toolkit.reports import run_report

    html_path = run_report(
        "fairy-meat-strategy",
        {"deals": 1, "round_deals": 1, "hidden_sizes": [[2, 1]], "counting_size": [2, 1], "hidden_time_limit": 1e-9},
        tmp_path,
        notebooks_dir=STRATEGY.parent,
        progress=lambda *_: None,
    )
    text = html_lib.unescape(re.sub(r"(?s)<[^>]+>", " ", html_path.read_text()))
    text = re.sub(r"\s+", " ", text)
    notes = re.findall(r"Stopped early\. The hidden-hands game (\d v \d) stopped on its time limit", text)
    # the 2 v 1 game of the hidden sizes (reused by the counting study), its damage-only solve
    # and the counting study's depleted deck (one iteration is far from the target: 0.2%)
    assert notes == ["2 v 1"] * 3, notes
    assert "its figures depend on how fast this machine ran" in text
