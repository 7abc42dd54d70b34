"""Long work shows progress and stops cleanly on Ctrl-C (toolkit.progress).

No test here waits on time: the delay before a display is set to 0, and Ctrl-C is a
KeyboardInterrupt raised by a watcher after a number of steps it can see."""

from __future__ import annotations

import io
import sys

import pytest

from toolkit import angry_miniatures as am
from toolkit import durak_battle as db
from toolkit import fairy_meat as fm
from toolkit import progress as progress_module
from toolkit.durak_battle.odds.clash_losses import clear_caches
from toolkit.progress import progress, tick, watch


@pytest.fixture
def shown_at_once(monkeypatch):
    monkeypatch.setattr(progress_module, "SHOW_AFTER", 0.0)


def _stop_after(steps: int):
    def watcher(shown):
        if shown.done >= steps:
            raise KeyboardInterrupt

    return watch(watcher)


def test_quick_work_shows_nothing(capsys):
    am.opposed(3, 2, method="monte_carlo", trials=200, seed=11)
    assert capsys.readouterr().err == ""


def test_a_monte_carlo_run_shows_its_runs_on_the_command_line(shown_at_once, capsys):
    am.opposed(3, 2, method="monte_carlo", trials=1_500, seed=12)
    err = capsys.readouterr().err
    assert "1,500/1,500 simulated attacks (100%)" in err  # the last line: every run counted, of the total
    fm.deal_averaged_odds(3, 2, ("random", "random"), method="monte_carlo", trials=300, seed=12)
    assert "300/300 simulated attacks (100%)" in capsys.readouterr().err


def test_a_log_gets_a_line_now_and_then_not_one_a_step(shown_at_once):
    log = io.StringIO()
    with progress("steps", 10_000, stream=log):
        for _ in range(10_000):
            tick()
    lines = log.getvalue().splitlines()
    assert 1 <= len(lines) <= 3 and lines[-1].startswith("10,000/10,000 steps (100%)")


def test_work_inside_work_adds_to_the_one_display(shown_at_once):
    log = io.StringIO()
    with progress("clashes", 5, stream=log) as outer, progress("clashes", 7) as inner:
        assert inner is outer and outer.total == 12
        tick(12)
    assert log.getvalue().splitlines()[-1].startswith("12/12 clashes (100%)")


def test_ctrl_c_stops_a_sampled_clash_and_leaves_nothing_half_written(shown_at_once, capsys):
    ask = {"method": "monte_carlo", "trials": 400, "seed": 13, "sampler": "model"}
    with _stop_after(100), pytest.raises(KeyboardInterrupt):
        db.clash_losses(3, 3, **ask)
    assert "— interrupted" in capsys.readouterr().err
    again = db.clash_losses(3, 3, **ask)  # a table cut short would be read back here
    clear_caches()
    assert again.distribution == db.clash_losses(3, 3, **ask).distribution and again.trials == 400


def test_a_battle_counts_the_clashes_of_its_sampled_tables_and_stops_cleanly(shown_at_once, capsys):
    horde, elves = db.Army("Horde", 2, db.Leader("Grak", 4, 6)), db.Army("Elves", 2, db.Leader("Lia", 4, 6))
    ask = {"method": "monte_carlo", "trials": 30, "seed": 14}
    with _stop_after(200), pytest.raises(KeyboardInterrupt):
        db.battle_outcome(horde, elves, **ask)
    after = db.battle_outcome(horde, elves, **ask)  # the tables finished before Ctrl-C are kept, whole
    capsys.readouterr()
    clear_caches()
    fresh = db.battle_outcome(horde, elves, **ask)
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith(" s") and f"{len(fresh.sampled) * 30:,} simulated clashes" in last  # no total known ahead
    assert after.distribution == fresh.distribution


def test_in_a_notebook_the_progress_is_a_bar(shown_at_once, monkeypatch):
    monkeypatch.setattr(progress_module, "in_notebook", lambda: True)
    shown_by = []
    with watch(shown_by.append):
        am.opposed(3, 2, method="monte_carlo", trials=600, seed=15)
    bar = shown_by[-1].bar
    assert bar is not None and (bar.value, bar.max, bar.bar_style) == (600, 600, "success")
    assert "600/600 simulated attacks (100%)" in shown_by[-1].label.value


def test_a_notebooks_lines_keep_what_was_said_and_only_the_latest_progress_line(capsys):
    # a notebook shows stderr as a pink box per write, wrapped mid-word: a long run's lines
    # go to one plain output instead, its progress line rewritten in place
    from toolkit.progress import NotebookLines, line_stream

    lines = NotebookLines()
    print("tune: 12 settings; search: exhaustive", file=lines, flush=True)
    lines.update("tune: 3/6 settings tried")
    lines.update("tune: 6/6 settings tried")
    print("done", file=lines)
    assert lines.text() == "tune: 12 settings; search: exhaustive\ndone\ntune: 6/6 settings tried"
    assert line_stream("auto") is sys.stderr and line_stream(None) is None  # not in a notebook
