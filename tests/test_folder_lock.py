"""One folder, one writer (toolkit/folder_lock.py): a second sweep or tune into a folder
another run writes waits for it, with one line naming the folder and the other run's pid;
a killed holder (SIGKILL) blocks nobody; two sweeps run at once, many times, leave a whole,
readable table; two different sweeps of one name at once leave the table of one of them,
whole, and the other refused in one line.

The processes here are small (Angry Miniatures, a few points, a Dask cluster of one thread
in each process); every wait reads the process's output with a deadline, on what it can see.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolkit.folder_lock import LOCK_NAME, folder_lock

pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parent.parent
#: 4 points: 1-2 attack dice against 1-2 defence dice (AM-1).
POOLS = (
    "system: angry-miniatures\ncalculator: opposed\ngrid:\n  attack_dice: [1, 2]\n  defence_dice: [1, 2]\nchunk: 1\n"
)
#: A run of a sweep file into a folder, on a cluster of one thread in the process.
SWEEP = """
import sys
from distributed import Client, LocalCluster
from toolkit.errors import ToolkitError
from toolkit.sweeps import run_sweep
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as c, Client(c) as client:
    try:
        r = run_sweep(sys.argv[1], sys.argv[2], client=client, progress="terminal", report=False)
    except ToolkitError as exc:
        print("refused:", exc, flush=True)
        sys.exit(2)
print("done:", r.computed, r.skipped, flush=True)
"""
#: A run of a tuning file into a folder, on a cluster of one thread in the process.
TUNE = """
import sys
from distributed import Client, LocalCluster
from toolkit.tune import tune
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as c, Client(c) as client:
    r = tune(sys.argv[1], sys.argv[2], client=client, stream=sys.stdout, progress=None)
print("done:", r.computed, r.reused, r.best.setting.describe(), flush=True)
"""
#: Holds a folder's lock until killed.
HOLD = """
import sys, time
from toolkit.folder_lock import folder_lock
with folder_lock(sys.argv[1], "a test holding the lock"):
    print("held", flush=True)
    time.sleep(600)
"""
DEADLINE = 180  # seconds, for what a busy machine takes to start a process and run 4 points


def start(script: str, *args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def read_until(process: subprocess.Popen, wanted: str) -> list[str]:
    """The process's lines up to the first holding ``wanted`` (within the deadline)."""
    lines, until = [], time.monotonic() + DEADLINE
    while time.monotonic() < until:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if wanted in line:
            return lines
    process.kill()
    raise AssertionError(f"no line with {wanted!r} from the process: {lines}")


def finish(process: subprocess.Popen) -> tuple[int, str]:
    out, _ = process.communicate(timeout=DEADLINE)
    return process.returncode, out


def test_a_second_run_waits_with_one_line_then_resumes(tmp_path: Path) -> None:
    sweep = tmp_path / "pools.yaml"
    sweep.write_text(POOLS)
    out = tmp_path / "out"
    with folder_lock(out, "this test"):
        process = start(SWEEP, sweep, out)
        lines = read_until(process, "waiting:")
        assert lines[-1] == (
            f"waiting: '{out}' is being written by pid {os.getpid()}: this test; this run goes on when that one "
            "ends (Ctrl-C to stop waiting)"
        )
        assert not (out / "pools.parquet").exists()  # nothing written while it waits
    code, rest = finish(process)
    assert code == 0, rest
    assert "done: 4 0" in rest and pq.read_table(out / "pools.parquet").num_rows > 0


def test_a_killed_holder_blocks_nobody(tmp_path: Path) -> None:
    holder = start(HOLD, tmp_path)
    read_until(holder, "held")
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=DEADLINE)
    seen: list[str] = []
    with folder_lock(tmp_path, "this test", seen.append):
        assert (tmp_path / LOCK_NAME).read_text() == f"pid {os.getpid()}: this test"
    assert seen == []  # taken at once: the kernel released the killed run's lock


def test_the_lock_is_taken_once_per_thread(tmp_path: Path) -> None:
    seen: list[str] = []
    with folder_lock(tmp_path, "outer", seen.append), folder_lock(tmp_path, "inner", seen.append):
        pass
    assert seen == []


def test_two_sweeps_at_once_many_times_leave_a_whole_table(tmp_path: Path) -> None:
    sweep = tmp_path / "pools.yaml"
    sweep.write_text(POOLS)
    for attempt in range(3):
        out = tmp_path / f"out{attempt}"
        both = [start(SWEEP, sweep, out) for _ in range(2)]
        results = [finish(p) for p in both]
        for code, text in results:
            assert code == 0 and "Invalid data" not in text and "Traceback" not in text, text
        # one computed the 4 points; the other waited for it and found them stored
        done = sorted(tuple(map(int, text.split("done: ")[1].split()[:2])) for _, text in results)
        assert done == [(0, 4), (4, 0)], results
        assert pq.read_table(out / "pools.parquet").column("point").unique().to_pylist() == [0, 1, 2, 3]


def test_two_different_sweeps_of_one_name_at_once(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "pools.yaml").write_text(POOLS)
    (tmp_path / "b" / "pools.yaml").write_text(POOLS.replace("defence_dice: [1, 2]", "defence_dice: [3]"))
    for attempt in range(2):
        out = tmp_path / f"out{attempt}"
        both = [start(SWEEP, tmp_path / side / "pools.yaml", out) for side in "ab"]
        (code_a, text_a), (code_b, text_b) = [finish(p) for p in both]
        assert sorted([code_a, code_b]) == [0, 2], (text_a, text_b)
        winner, loser = (text_a, text_b) if code_a == 0 else (text_b, text_a)
        assert "refused:" in loser and "is the table of another sweep named pools" in loser
        points = 4 if winner is text_a else 2
        table = pq.read_table(out / "pools.parquet")
        assert table.column("point").unique().to_pylist() == list(range(points))


def test_two_tunes_at_once_measure_each_setting_once(tmp_path: Path) -> None:
    from test_output_folders import SMALL

    tuning = tmp_path / "small.yaml"
    tuning.write_text(SMALL)
    out = tmp_path / "out"
    both = [start(TUNE, tuning, out) for _ in range(2)]
    results = [finish(p) for p in both]
    for code, text in results:
        assert code == 0 and "Traceback" not in text, text
    done = sorted(text.split("done: ")[1].split()[:2] for _, text in results)
    assert done == [["0", "3"], ["3", "0"]], results  # the second waited, then read every point back
    assert all("attack_dice=3" in text.split("done: ")[1] for _, text in results)
    assert (out / "small_1.yaml").read_text().count("candidate 1 of 3 settings measured") == 1
