"""A report's kernel never outlives the command that started it: killed (SIGKILL, or SIGTERM
as ``kill`` sends), ``toolkit report`` takes its kernel with it, even a kernel busy in one
long C call that never lets ipykernel's own parent watch (a thread) run. Before, a kernel
computing ``Fraction("1e999999999")`` ran on for ten minutes after its command was killed.

The test waits on what it can see: the kernel writes its process id when its cell starts;
until then the wait goes on while the command and its kernel use the processor.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from process_progress import wait_while_working

REPO = Path(__file__).resolve().parent.parent


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def _busy_notebooks(folder: Path, pids: Path) -> Path:
    """``folder`` with ``busy_report.ipynb``: its kernel writes its process id to
    ``pids/<n>.pid`` (``n`` its parameter), then computes in one C call for hours."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    busy = nbformat.v4.new_code_cell(
        f"import os, pathlib\npathlib.Path({str(pids)!r}, f'{{n}}.pid').write_text(str(os.getpid()))\n"
        "sum(range(10**15))  # one C call: the kernel's own threads never run again"
    )
    nb.cells = [params, busy]
    folder.mkdir()
    nbformat.write(nb, str(folder / "busy_report.ipynb"))
    return folder


def _kernels_end_with_the_command(tmp_path: Path, arguments: list[str], count: int, kill: int) -> None:
    """Start ``toolkit report`` with ``arguments`` (``count`` busy kernels), wait until every
    kernel is in its cell, kill the command with ``kill`` and see every kernel gone."""
    pids = tmp_path / "pids"
    pids.mkdir()
    folder = _busy_notebooks(tmp_path / "notebooks", pids)
    command = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "report", *arguments, "--notebooks", str(folder)]
        + ["-o", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    kernels: list[int] = []

    def all_started() -> bool:
        files = [p for p in pids.iterdir() if p.read_text()]
        return len(files) == count

    try:
        started = wait_while_working(all_started, command.pid)
        state = "ended" if command.poll() is not None else "stalled"
        assert started, f"the kernels never started their cells (the command {state})"
        kernels = [int(p.read_text()) for p in pids.iterdir()]
        assert not any(_gone(k) for k in kernels)
        command.send_signal(kill)
        command.wait(timeout=60)
        deadline = time.monotonic() + 30
        while not all(_gone(k) for k in kernels) and time.monotonic() < deadline:
            time.sleep(0.1)
        alive = [k for k in kernels if not _gone(k)]
        assert not alive, f"kernels {alive} outlived their command by 30 s"
    finally:
        if command.poll() is None:
            command.kill()
            command.wait(timeout=10)
        for kernel in kernels:
            if not _gone(kernel):
                os.kill(kernel, signal.SIGKILL)


LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")


@pytest.mark.slow
@LINUX
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_report_command_takes_its_busy_kernel_with_it(tmp_path, kill):
    _kernels_end_with_the_command(tmp_path, ["busy"], 1, kill)


@pytest.mark.slow
@LINUX
def test_a_killed_parallel_batch_takes_its_workers_kernels_with_it(tmp_path):
    """A batch's kernels are its Dask workers' children: the workers end with the command
    (distributed's parent pipe), and their kernels with them."""
    jobs = tmp_path / "jobs.yaml"
    jobs.write_text("reports:\n  - report: busy\n  - report: busy\n    name: busy-2\n    parameters: {n: 2}\n")
    _kernels_end_with_the_command(tmp_path, ["-f", str(jobs), "--workers", "2"], 2, signal.SIGKILL)
