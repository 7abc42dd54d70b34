"""A fourth system in one folder (tests/coin_duel/) gets every tool from its one
registration: ``toolkit replay``, the generic stepper, an explorer, a sweep,
``find-example``, the rule-book export and the rule-change report — with no edit to the
toolkit. Expected numbers are worked by hand from CD-1 and CD-2 (fair coins) and checked
against the engine's brute force.
"""

from __future__ import annotations

import os
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit import systems
from toolkit.cli import main
from toolkit.engine import enumerate_outcomes

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def coin_duel():
    """The coin duel registered for this module's tests only (importing it registers it;
    the registry is left as it was afterwards, so other tests see the shipped systems)."""
    import coin_duel

    yield systems.register(coin_duel.SYSTEM)
    systems.unregister("coin-duel")


def _finished_duel(rules=None):
    from coin_duel.engine import start_duel

    state = start_duel(1, 1, rules)
    for heads in (1, 1, 0, 1):  # a tie at 1 head, then Bo wins the reroll
        state = state.apply(heads)
    return state


def test_the_registry_lists_it_with_every_hook(coin_duel):
    assert "coin-duel" in systems.names()
    for hook in ("notation", "rules", "situations", "searcher", "tables", "sizes", "calculators", "stepper"):
        assert coin_duel.has(hook) and systems.names(hook)[-1] == "coin-duel", hook
    assert not coin_duel.has("rulings")
    with pytest.raises(Exception, match="coin-duel has no rulings"):
        coin_duel.hook("rulings")


def test_exact_odds_by_hand_and_by_brute_force(coin_duel):
    from coin_duel.engine import start_duel
    from coin_duel.headline import duel_odds
    from coin_duel.rules import Rules

    # by hand, one coin each: one wins a throw 1/4 of the time, a tie 1/2; with two rerolls
    # the first side wins 1/4 * (1 + 1/2 + 1/4) = 7/16 and it is drawn (1/2)^3 = 1/8
    odds = duel_odds(1, 1)
    assert odds.probability("first") == Fraction(7, 16) and odds.probability("draw") == Fraction(1, 8)
    for a, b, rerolls in ((1, 2, 0), (2, 3, 2), (3, 1, 1)):
        rules = Rules(tie_rerolls=rerolls)
        brute = enumerate_outcomes(start_duel(a, b, rules), lambda s: s.winner)
        closed = duel_odds(a, b, rules)
        assert closed.probability("first") == brute.probability("Ann")
        assert closed.probability("draw") == brute.probability("")


def test_toolkit_replay(coin_duel, tmp_path, capsys):
    path = tmp_path / "tie.yaml"
    path.write_text(systems.notation("coin-duel").to_example(_finished_duel(), "Bo wins after a tie"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "A tie at 1 heads: both flip again." in out and "Bo wins after 1 reroll." in out
    path.write_text(path.read_text().replace("winner: Bo", "winner: Ann"))
    assert main(["replay", str(path)]) == 1  # an expectation not met
    assert main(["replay", "--list"]) == 0 and "coin-duel  (Coin duel)" in capsys.readouterr().out


def test_the_generic_stepper(coin_duel):
    stepper = coin_duel.hook("stepper")(1, 1, seed=5)
    for heads in ("1", "1", "0", "1"):
        stepper.type_outcome(heads)
    assert stepper.state.is_terminal and stepper.state.log() == _finished_duel().log()
    stepper.back()
    assert not stepper.state.is_terminal


def test_an_explorer(coin_duel):
    from coin_duel.rules import Rules

    explorer = coin_duel.hook("explorer")(1, 1, Rules(tie_rerolls=0))
    assert explorer.distribution.probability("first") == Fraction(1, 4)  # H against T
    explorer.controls["coins_a"].value = 2
    # by hand, 2 coins against 1, no reroll: 2 heads (1/4) beat anything, 1 head (1/2) beats a tail
    assert explorer.distribution.probability("first") == Fraction(1, 4) + Fraction(1, 2) * Fraction(1, 2)


def test_a_sweep(coin_duel, client, tmp_path):
    from toolkit.sweeps import run_sweep

    grid = "{coins_a: [1, 2], coins_b: [1], rules: {tie_rerolls: [0]}}"
    text = f"system: coin-duel\ncalculator: duel_odds\ngrid: {grid}\n"
    result = run_sweep(text, tmp_path, client=client, progress=None)
    table = result.table
    first = table[(table["outcome"] == "first") & (table["coins_a"] == 2)]
    assert first["numerator"].tolist() == ["1"] and first["denominator"].tolist() == ["2"]  # 1/4 + 1/4, as above


def test_find_example(coin_duel, capsys):
    assert main(["find-example", "--list", "coin-duel"]) == 0
    assert capsys.readouterr().out.split() == ["win_after_a_tie", "drawn_duel"]
    assert main(["find-example", "coin-duel", "drawn_duel", "-n", "1", "--budget", "20"]) == 0
    found = capsys.readouterr().out
    assert "winner: nobody" in found and "sides: {Ann: 1, Bo: 1}" in found  # the simplest: one coin each


def test_the_rule_book_export(coin_duel, tmp_path, monkeypatch):
    from toolkit.reports.runner import run_report
    from toolkit.rulebook.export import state_to_html, to_html

    path = tmp_path / "tie.yaml"
    path.write_text(systems.notation("coin-duel").to_example(_finished_duel(), "Bo wins after a tie"))
    page = to_html(str(path))
    assert "Coin duel" in page and "Bo wins the duel." in page and "winner: Bo" in page
    # the stepper's game so far, exported as the stepper's Export box does
    stepper = coin_duel.hook("stepper")(1, 1)
    stepper.type_outcome("1")
    assert "Ann flips 1 coins: 1 heads." in state_to_html(stepper.state, "So far")
    # the rule-book examples report, in its own kernel: one verified example per situation
    monkeypatch.setenv(systems.PLUGINS_VARIABLE, "coin_duel")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *sys.path]))
    params = {"system": "coin-duel", "output_dir": str(tmp_path / "found")}
    html = run_report("rulebook-examples", params, tmp_path, progress=lambda *_: None).read_text()
    assert "2 of 2 situations have a verified example." in html
    assert sorted(p.suffix for p in (tmp_path / "found").iterdir()) == [".html", ".html", ".yaml", ".yaml"]


def test_the_rule_change_report(coin_duel, tmp_path, monkeypatch):
    from toolkit.reports.rule_change import compare_rules
    from toolkit.reports.runner import run_report

    change = compare_rules("coin-duel", None, {"tie_rerolls": 0}, {"coins": [1, 2]})
    (table,) = change.tables
    one = next(c for c in table.changes if (c.row, c.column) == (1, 1))
    assert (one.before, one.after) == (Fraction(7, 16), Fraction(1, 4))  # by hand, above
    with pytest.raises(Exception, match="unknown size 'max_dice' for coin-duel: its sizes are coins"):
        compare_rules("coin-duel", None, {"tie_rerolls": 0}, {"max_dice": 2})
    # the notebook, in its own kernel: the plug-in reaches it through TOOLKIT_SYSTEMS
    monkeypatch.setenv(systems.PLUGINS_VARIABLE, "coin_duel")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *sys.path]))
    params = {"system": "coin-duel", "proposed": {"tie_rerolls": 0}, "sizes": {"coins": [1, 2]}}
    html = run_report("rule-change", params, tmp_path, progress=lambda *_: None).read_text()
    assert "P(the first side wins)" in html and "7/16" in html
