"""Sweeps on Dask (issue 14): the table and report, resuming, a failing point, Ctrl-C, a
worker process killed mid-sweep, a scheduler started separately, the command line.

Most tests share one small in-process cluster (threads); the kill test starts worker
processes, the scheduler test `dask scheduler` and `dask worker` subprocesses.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import dask
import pandas as pd
import pytest

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.sweeps import load_sweep, run_sweep

ROOT = Path(__file__).resolve().parent.parent

distributed = pytest.importorskip("distributed")

#: One card against hand compositions: a calculator without rules, instant, checked by hand.
HANDS = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: {from: 0, to: 5}\nchunk: 2\n"
#: Angry Miniatures pools, two attack types: 12 points.
POOLS = (
    "title: Pools\nsystem: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_dice: [0, 1, 2]\n  defence_dice: [0, 1]\n  attack_type: [melee, ranged]\nchunk: 1\n"
)


def fraction_of(table: pd.DataFrame, **where: object) -> Fraction:
    rows = table
    for column, value in where.items():
        rows = rows[rows[column] == value]
    assert len(rows) == 1, where
    row = rows.iloc[0]
    return Fraction(int(row["numerator"]), int(row["denominator"]))


def direct_rows(sweep_text: str) -> dict[tuple, list]:
    """Every point of a sweep computed in a plain loop in this process (the reference)."""
    sweep = load_sweep(sweep_text)
    out = {}
    for point in sweep.points:
        rows = sweep.calculator.rows(sweep.calculator.call(point.arguments(), point.rules))
        out[point.columns] = sorted((r.outcome, r.exact) for r in rows)
    return out


def table_rows(table: pd.DataFrame, sweep_text: str) -> dict[tuple, list]:
    sweep = load_sweep(sweep_text)
    out = {}
    for index, point in enumerate(sweep.points):
        part = table[table["point"] == index]
        out[point.columns] = sorted(
            (o, Fraction(int(n), int(d)))
            for o, n, d in zip(part["outcome"], part["numerator"], part["denominator"], strict=True)
        )
    return out


# -- the table and the report ------------------------------------------------------------------
def test_table_has_one_row_per_point_and_outcome(client: object, tmp_path: Path) -> None:
    result = run_sweep(POOLS, tmp_path, client=client, progress=None)
    assert result.ok and result.computed == 12 and result.skipped == 0
    table = pd.read_parquet(tmp_path / "sweep.parquet")
    assert list(table.columns[:6]) == ["point", "system", "calculator", "attack_dice", "defence_dice", "attack_type"]
    assert {"outcome", "kind", "numerator", "denominator", "value", "exact", "seconds", "toolkit_version"} <= set(
        table.columns
    )
    assert table["point"].nunique() == 12
    # AM-1: 4 hit faces of 6; against no dice one hit is one damage (AM-3), ranged: no return damage.
    p = fraction_of(
        table,
        attack_dice=1,
        defence_dice=0,
        attack_type="ranged",
        outcome="defender_damage=1, attacker_damage=0, attacker_crit=False, defender_crit=False",
    )
    assert p == Fraction(2, 3)
    # Each point's outcomes sum to exactly 1, and the float column agrees with the exact one.
    for _, part in table.groupby("point"):
        assert sum(Fraction(int(n), int(d)) for n, d in zip(part["numerator"], part["denominator"], strict=True)) == 1
    assert (table["value"] - table["numerator"].astype(float) / table["denominator"].astype(float)).abs().max() < 1e-12
    assert (table["seconds"] >= 0).all()
    assert table_rows(table, POOLS) == direct_rows(POOLS)
    page = (tmp_path / "sweep.html").read_text()
    assert "<h1>Pools</h1>" in page and "plotly" in page and "Probabilities" in page


def test_report_escapes_the_sweep_files_text(client: object, tmp_path: Path) -> None:
    text = HANDS.replace("system:", "title: <script>alert(1)</script>\nnotes: a < b & c\nsystem:")
    result = run_sweep(text, tmp_path, client=client, progress=None)
    page = result.report_path.read_text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "a &lt; b &amp; c" in page


# -- resuming ----------------------------------------------------------------------------------
def test_a_rerun_skips_every_stored_point(client: object, tmp_path: Path) -> None:
    first = run_sweep(HANDS, tmp_path, client=client, progress=None)
    assert (first.computed, first.skipped) == (6, 0)
    stored = sorted((tmp_path / ".points").glob("*.parquet"))
    assert len(stored) == 3  # chunk: 2
    again = run_sweep(HANDS, tmp_path, client=client, progress=None)
    assert (again.computed, again.skipped) == (0, 6)
    pd.testing.assert_frame_equal(again.table, first.table)
    # A wider grid is another sweep: it may not replace the table of this one...
    with pytest.raises(InvalidSetupError, match="is the table of another sweep named sweep"):
        run_sweep(HANDS.replace("to: 5", "to: 7"), tmp_path, client=client, progress=None)
    # ...but once that table is removed, it computes only its new points.
    (tmp_path / "sweep.parquet").unlink()
    wider = run_sweep(HANDS.replace("to: 5", "to: 7"), tmp_path, client=client, progress=None)
    assert (wider.computed, wider.skipped) == (2, 6)
    # FM-1 by hand: a 1-card hand is the A♠ with probability 1/52.
    assert fraction_of(
        wider.table, cards=1, outcome="numbered=0, red_trumps=0, black_trumps=1, ace_of_spades=True, jokers=0"
    ) == Fraction(1, 52)


def test_a_change_of_the_code_recomputes(client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Points are keyed on the code's fingerprint, not the version string (which stays
    0.1.0 through every change): stale chunks are set aside, one line each."""
    first = run_sweep(HANDS, tmp_path, client=client, progress=None, report=False)
    monkeypatch.setattr("toolkit.sweeps.fingerprint.code_fingerprint", lambda: "0123456789abcdef")
    again = run_sweep(HANDS, tmp_path, client=client, progress=None, report=False)
    assert (again.computed, again.skipped, again.set_aside) == (6, 0, 3)
    assert len(again.notices) == 3
    assert all("it was computed by other toolkit code" in line for line in again.notices)
    assert "3 stored chunks set aside (damaged or of other code) and computed again" in again.summary()
    same = ["point", "cards", "outcome", "numerator", "denominator", "value", "exact"]
    pd.testing.assert_frame_equal(again.table[same], first.table[same])


# -- a failing point ---------------------------------------------------------------------------
def test_a_failing_point_is_reported_and_the_others_finish(client: object, tmp_path: Path) -> None:
    text = (
        "system: fairy-meat\ncalculator: attack_odds\n"
        "grid:\n  attacker_hand: [5H, ZZ, 9C]\n  defender_hand: [3D]\nchunk: 3\n"
    )
    result = run_sweep(text, tmp_path, client=client, progress=None)
    assert not result.ok
    assert [f.point.arguments()["attacker_hand"] for f in result.failures] == ["ZZ"]
    failure = result.failures[0].describe()
    assert failure.startswith("attacker_hand=ZZ, defender_hand=3D, policies=greedy/greedy")
    assert "NotationError" in failure and "ZZ" in failure
    assert sorted(result.table["attacker_hand"].unique()) == ["5H", "9C"]
    # FM-9/FM-10 by hand: 5 against 3 (no Trumps, no draws) wins by 2, 1 point.
    assert (
        fraction_of(result.table, attacker_hand="5H", outcome="winner=attacker, points=1, damage=1, nasty_hit=False")
        == 1
    )
    assert "1 failed point(s)" in result.report_path.read_text()
    # A rerun skips the two done points and tries the failing one again.
    again = run_sweep(text, tmp_path, client=client, progress=None)
    assert (again.computed, again.skipped, len(again.failures)) == (0, 2, 1)


# -- Ctrl-C ------------------------------------------------------------------------------------
def test_interrupted_sweep_keeps_finished_points_and_no_half_file(client: object, tmp_path: Path) -> None:
    def interrupt(_: object, done: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(POOLS, tmp_path, client=client, progress=None, on_chunk=interrupt)
    names = [p.name for p in tmp_path.rglob("*")]
    assert not any(n.endswith(".tmp") for n in names)
    assert not (tmp_path / "sweep.parquet").exists()
    stored = sorted((tmp_path / ".points").glob("*.parquet"))
    assert 2 <= len(stored) < 12
    for path in stored:  # every stored file is whole
        assert pd.read_parquet(path)["key"].nunique() == 1
    resumed = run_sweep(POOLS, tmp_path, client=client, progress=None)
    assert resumed.skipped == len(stored) and resumed.computed == 12 - len(stored)
    assert table_rows(resumed.table, POOLS) == direct_rows(POOLS)


def test_ctrl_c_on_the_command_line_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("toolkit.sweeps.run_sweep", interrupted)
    path = tmp_path / "s.yaml"
    path.write_text(HANDS)
    assert main(["sweep", str(path), "-o", str(tmp_path / "out")]) == 130
    assert "finished points are stored" in capsys.readouterr().err


# -- a worker process killed mid-sweep ---------------------------------------------------------
def test_a_worker_killed_mid_sweep_loses_no_point(tmp_path: Path) -> None:
    """Two worker processes; when the first chunk is stored, the worker busy with a chunk
    is killed (SIGKILL). Its nanny starts a new one, the scheduler runs the lost chunk
    again: the table is complete and equal to a plain loop's."""
    from distributed import Client, LocalCluster

    text = (
        "system: angry-miniatures\ncalculator: opposed\n"
        "grid:\n  attack_dice: {from: 40, to: 47}\n  defence_dice: [40, 45]\nchunk: 1\n"
    )
    killed: list[int] = []

    def kill_a_busy_worker(c: object, done: int) -> None:
        if killed:
            return
        pids = c.run(os.getpid)
        busy = [w for w, tasks in c.processing().items() if tasks]
        if busy:
            killed.append(pids[busy[0]])
            os.kill(pids[busy[0]], signal.SIGKILL)

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as c,
    ):
        result = run_sweep(text, tmp_path, client=c, progress=None, on_chunk=kill_a_busy_worker, report=False)
    assert killed, "no worker was busy when the first chunk finished"
    assert result.ok and result.computed == 16, [f.describe() for f in result.failures]
    assert result.table["point"].nunique() == 16
    assert table_rows(result.table, text) == direct_rows(text)


# -- a scheduler started separately -----------------------------------------------------------
@pytest.fixture
def separate_scheduler(tmp_path: Path) -> Iterator[str]:
    """`dask scheduler` and one `dask worker` as subprocesses; yields the address."""
    dask = Path(sys.executable).parent / "dask"
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    logs = open(tmp_path / "dask.log", "w")  # noqa: SIM115 - closed below
    procs = [
        subprocess.Popen(
            [str(dask), "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
            env=env,
            stdout=logs,
            stderr=logs,
            start_new_session=True,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        procs.append(
            subprocess.Popen(
                [str(dask), "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                env=env,
                stdout=logs,
                stderr=logs,
                start_new_session=True,
            )
        )
        yield address
    finally:
        for proc in reversed(procs):  # each started in a session of its own: its group is ours
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        logs.close()


def test_sweep_on_a_scheduler_started_separately(separate_scheduler: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "pools.yaml"
    path.write_text(POOLS)
    out = tmp_path / "out"
    code = main(["sweep", str(path), "-o", str(out), "--scheduler", separate_scheduler])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "12/12 points (100%)" in captured.err
    table = pd.read_parquet(out / "pools.parquet")
    assert table_rows(table, POOLS) == direct_rows(POOLS)
    assert (out / "pools.html").is_file()


# -- the command line --------------------------------------------------------------------------
def _intervals() -> tuple[str, ...]:
    """How often this worker's event loop ticks, reads its memory and its load."""
    return tuple(
        dask.config.get(f"distributed.{name}")
        for name in ("admin.tick.interval", "worker.memory.monitor-interval", "admin.system-monitor.interval")
    )


def test_cli_local_cluster_and_errors(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("toolkit.cluster.CONNECT_TIMEOUT", 2)
    from toolkit import cluster as dask_cluster

    profiling: list[dict[str, bool]] = []  # whether each started worker profiles its tasks
    intervals: list[dict[str, tuple[str, ...]]] = []  # its event loop's ticks, memory and load readings
    start_local = dask_cluster.start_local

    def recording(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        client, cluster = start_local(*args, **kwargs)
        profiling.append(client.run(dask.config.get, "distributed.worker.profile.enabled"))
        intervals.append(client.run(_intervals))
        return client, cluster

    monkeypatch.setattr(dask_cluster, "start_local", recording)
    path = tmp_path / "hands.yaml"
    path.write_text(HANDS)
    assert main(["sweep", str(path), "-o", str(tmp_path / "out"), "--workers", "1"]) == 0
    # The local cluster's worker runs without Dask's task profiler (on by default in Dask).
    assert [list(workers.values()) for workers in profiling] == [[False]]
    assert [list(workers.values()) for workers in intervals] == [[("500ms", "1s", "2s")]]
    assert dask.config.get("distributed.worker.profile.enabled")  # this process's setting is left as it was
    captured = capsys.readouterr()
    assert "sweep: 6 points, 0 already done; 1 worker" in captured.err
    assert "table:" in captured.out and (tmp_path / "out" / "hands.parquet").is_file()
    assert (tmp_path / "out" / "hands.html").is_file()
    assert captured.out.splitlines()[-1] == "done: 6 points: 6 computed now, 0 stored before"
    # A rerun has nothing to do and starts no cluster.
    assert main(["sweep", str(path), "-o", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "done: 6 points: 0 computed now, 6 stored before"
    # A damaged chunk: one line, its 2 points computed again, counted in the closing line.
    chunk = sorted((tmp_path / "out" / ".points").glob("*.parquet"))[0]
    chunk.write_bytes(chunk.read_bytes()[:-30])
    assert main(["sweep", str(path), "-o", str(tmp_path / "out"), "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert f"ignored {chunk}: it cannot be read whole (" in captured.err
    assert captured.out.splitlines()[-1] == (
        "done: 6 points: 2 computed now, 4 stored before; "
        "1 stored chunk set aside (damaged or of other code) and computed again"
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text(HANDS.replace("cards:", "hand:"))
    assert main(["sweep", str(bad), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}:4: 'hand' is not an argument of hand_composition; its arguments are cards" in err
    assert main(["sweep", "--workers", "0", str(path)]) == 2
    assert main(["sweep", "--list"]) == 0
    assert "fairy-meat solve_hidden" in capsys.readouterr().out
    assert main(["sweep", str(path), "--scheduler", "tcp://127.0.0.1:1", "-o", str(tmp_path / "x")]) == 2
    assert "scheduler 'tcp://127.0.0.1:1': cannot reach it: connection refused;" in capsys.readouterr().err


def test_workers_of_other_code_are_refused(client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A point's key names the code's fingerprint: rows computed by other code are not stored."""
    import toolkit.sweeps.work as work

    real = work.compute_chunk
    monkeypatch.setattr(work, "compute_chunk", lambda *a: {**real(*a), "code": "feedfacefeedface"})
    monkeypatch.setattr("toolkit.sweeps.runner.compute_chunk", work.compute_chunk)
    result = run_sweep(HANDS, tmp_path, client=client, progress=None, report=False)
    assert len(result.failures) == 6 and result.table.empty
    assert "the worker runs other toolkit code (toolkit '0.1.0', code 'feedfacefeedface'" in result.failures[0].error
    assert not list((tmp_path / ".points").glob("*.parquet"))


#: Known one-card hands (FM-9 by hand: the same colour, highest wins; different colours,
#: lowest wins; equal values draw): who wins each of the four attacks.
DUELS = (
    "title: Duels\nsystem: fairy-meat\ncalculator: attack_odds\n"
    "grid:\n  attacker_hand: [5H, 9H]\n  defender_hand: [9C, 9D]\nchunk: 2\n"
)


def test_the_page_leads_with_who_wins_and_folds_every_outcome_away(client: object, tmp_path: Path) -> None:
    from toolkit.sweeps.report import headline_rows

    result = run_sweep(DUELS, tmp_path, client=client, progress=None)
    winners = headline_rows(result.table, "winner")
    by_hand = {("5H", "9C"): "attacker", ("9H", "9C"): "draw", ("5H", "9D"): "defender", ("9H", "9D"): "draw"}
    for (attacker, defender), winner in by_hand.items():
        rows = winners[(winners["attacker_hand"] == attacker) & (winners["defender_hand"] == defender)]
        assert dict(zip(rows["outcome"], rows["value"], strict=True)) == {f"winner: {winner}": 1.0}
    page = result.report_path.read_text()
    headline, every = page.index("<h2>The headline: winner</h2>"), page.index("Probabilities of every outcome")
    assert headline < page.index("<details") < every
    assert "winner: attacker" in page


def test_the_page_states_its_question_and_the_line_follows_the_sweep(client: object, tmp_path: Path) -> None:
    import html

    from toolkit.sweeps.report import sweep_question

    result = run_sweep(POOLS, tmp_path / "a", client=client, progress=None)
    line = sweep_question(result)
    # the system, what was swept with its values, the calculator, the rules, how: exact opposed rolls
    assert line == (
        "Angry Miniatures · attack dice 0–2; defence dice 0, 1; attack type melee / ranged · opposed · "
        "draft rules · exact"
    )
    assert f"<p class='question'><strong>{html.escape(line)}</strong></p>" in result.report_path.read_text()
    other = POOLS.replace("  attack_type: [melee, ranged]\n", "  rules:\n    tie_break: [chain, coin_flip]\n")
    other += "fixed:\n  attack_type: ranged\n"
    again = sweep_question(run_sweep(other, tmp_path / "b", client=client, progress=None))
    assert again == (
        "Angry Miniatures · attack dice 0–2; defence dice 0, 1; Ties on hits chain / coin flip · opposed · "
        "attack type ranged · rules as swept · exact"
    )
