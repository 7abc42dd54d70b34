"""Faults named once: a file-size limit (``RLIMIT_FSIZE``, what ``ulimit -f`` sets: EFBIG,
as a full disk's ENOSPC), a folder made read-only or removed while a sweep writes it, are
one line naming the folder and what was kept: no Dask traceback, no line per point; a
tune under them names no best.

Each run is a child process (its limit set in ``preexec_fn``; the read-only folder's run as
an unprivileged user when the tests run as root, whom ``chmod`` does not stop)."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_folder_lock import POOLS
from test_output_folders import SMALL as TUNING

from toolkit.files import fault_reason

pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parent.parent
#: A sweep into a folder that, after its first stored chunk, is made read-only or removed.
HOOKED = """
import os, shutil, sys
from pathlib import Path
from distributed import Client, LocalCluster
from toolkit.errors import ToolkitError
from toolkit.sweeps import run_sweep
sweep, out, fault = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
def hook(client, done):
    if done == 1:
        if fault == "read-only":
            os.chmod(out / ".points", 0o555)
        else:  # moved away at once (a worker may be writing in it), then removed
            os.rename(out, out.with_name("gone"))
            shutil.rmtree(out.with_name("gone"), ignore_errors=True)
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as c, Client(c) as client:
    try:
        run_sweep(sweep, out, client=client, progress="terminal", report=False, on_chunk=hook)
    except ToolkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
"""
DEADLINE = 300


def limited(size: int) -> object:
    """A ``preexec_fn`` setting the child's file-size limit (bytes)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def run(args: list[str], **kwargs: object) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=DEADLINE, check=False, **kwargs
    )
    return done.returncode, (done.stdout + done.stderr).splitlines()


def the_one_line(lines: list[str]) -> str:
    """The one error line of a run, after checking it is the only one and there is no traceback."""
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, lines
    assert not any("Traceback" in line or "OSError" in line or " - ERROR - " in line for line in lines), lines
    return errors[0]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder every user may write (the read-only run's user is not root)."""
    path = Path(tempfile.mkdtemp(prefix="toolkit-fault-"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_file_size_limit_during_a_sweep_is_one_line(tmp_path: Path) -> None:
    sweep = tmp_path / "pools.yaml"
    sweep.write_text(POOLS)
    out = tmp_path / "out"
    args = ["-m", "toolkit", "sweep", str(sweep), "-o", str(out), "--workers", "1"]
    code, lines = run(args, preexec_fn=limited(4096))  # smaller than any chunk file
    assert code == 2
    assert the_one_line(lines) == (
        f"error: cannot write in '{out}': a file reached the size limit of this process (ulimit -f); "
        f"kept: 0 points of 4, stored in {out / '.points'} (a rerun goes on); the table was not written"
    )
    assert not list((out / ".points").iterdir())  # no half file
    # chunks fit, the table (the chunk files spliced) does not: every point is kept
    code, lines = run(args)
    chunks = sorted(p.stat().st_size for p in (out / ".points").glob("*.parquet"))
    assert code == 0 and len(chunks) == 4
    shutil.rmtree(out)
    code, lines = run(args, preexec_fn=limited(chunks[-1] + 2048))
    assert sum(chunks) > chunks[-1] + 2048
    line = the_one_line(lines)
    assert line.endswith(
        "kept: 4 points of 4, stored in " + str(out / ".points") + " (a rerun goes on); the table was not written"
    )
    assert not (out / "pools.parquet").exists()
    code, lines = run(args)  # the rerun computes nothing and writes the table
    assert code == 0 and any("0 computed now, 4 stored before" in line for line in lines)


def test_a_tune_under_a_file_size_limit_names_no_best(tmp_path: Path) -> None:
    tuning = tmp_path / "small.yaml"
    tuning.write_text(TUNING)
    out = tmp_path / "out"
    code, lines = run(
        ["-m", "toolkit", "tune", str(tuning), "-o", str(out), "--workers", "1"], preexec_fn=limited(4096)
    )
    assert code == 2
    line = the_one_line(lines)
    assert line.startswith(f"error: toolkit tune stopped, naming no best: cannot write in '{out / '.search'}': ")
    assert not any("best" in other for other in lines if other != line)
    assert not (out / "small.csv").exists() and not (out / "small_1.yaml").exists()


@pytest.mark.parametrize("fault", ["read-only", "removed"])
def test_a_folder_made_read_only_or_removed_mid_sweep_is_one_line(fault: str, shared_folder: Path) -> None:
    sweep = shared_folder / "pools.yaml"
    sweep.write_text(POOLS)
    sweep.chmod(0o644)
    out = shared_folder / "out"
    user = {"user": 65534, "env": {**os.environ, "HOME": str(shared_folder)}} if os.geteuid() == 0 else {}
    if fault == "removed":
        user = {}
    code, lines = run(["-c", HOOKED, str(sweep), str(out), fault], **user)
    assert code == 2, lines
    line = the_one_line(lines)
    if fault == "read-only":
        assert line.startswith(
            f"error: cannot write in '{out}': it cannot be written (read-only: Permission denied); kept: "
        )
        stored = len(list((out / ".points").glob("*.parquet")))
        assert 1 <= stored < 4 and f"kept: {stored} point{'s' if stored > 1 else ''} of 4, stored in" in line
    else:
        assert line == (
            f"error: cannot write in '{out}': it was removed while the run wrote it; nothing of this sweep is kept "
            "there (the folder is gone); the table was not written"
        )


def test_a_read_only_folder_is_one_line_before_anything_runs(shared_folder: Path) -> None:
    sweep = shared_folder / "pools.yaml"
    sweep.write_text(POOLS)
    sweep.chmod(0o644)
    out = shared_folder / "out"
    out.mkdir(mode=0o555)
    out.chmod(0o555)
    user = {"user": 65534, "env": {**os.environ, "HOME": str(shared_folder)}} if os.geteuid() == 0 else {}
    code, lines = run(["-m", "toolkit", "sweep", str(sweep), "-o", str(out)], **user)
    assert code == 2
    assert the_one_line(lines) == f"error: cannot write in '{out}': Permission denied (nothing has run)"
    assert lines == [the_one_line(lines)]


def test_fault_reasons_by_error_number() -> None:
    assert fault_reason(OSError(errno.ENOSPC, "No space left on device")) == "the disk is full"
    assert fault_reason(OSError(errno.EROFS, "Read-only file system")) == "it is on a read-only file system"
    assert fault_reason(OSError(errno.EIO, "Input/output error")) == "Input/output error"


def test_a_setting_whose_points_failed_is_never_the_best() -> None:
    from toolkit.tune.ranking import Candidate, measured_best

    failed = Candidate("a", None, (), (None,), (False,), 0.0, "OSError: [Errno 27] File too large", 1)
    measured = Candidate("b", None, (), (object(),), (False,), 1.0, None, 1)
    assert measured_best([failed, measured]) is measured
    assert measured_best([failed]) is None
