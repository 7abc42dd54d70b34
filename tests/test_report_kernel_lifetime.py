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


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_report_command_takes_its_busy_kernel_with_it(tmp_path, kill):
    pid_file = tmp_path / "kernel.pid"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    busy = nbformat.v4.new_code_cell(
        f"import os, pathlib\npathlib.Path({str(pid_file)!r}).write_text(str(os.getpid()))\n"
        "sum(range(10**15))  # one C call: the kernel's own threads never run again"
    )
    nb.cells = [params, busy]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "busy_report.ipynb"))
    command = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "report", "busy", "--notebooks", str(folder), "-o", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    kernel = None
    try:
        started = wait_while_working(lambda: pid_file.is_file() and pid_file.read_text() != "", command.pid)
        assert started, f"the kernel never started its cell (the command {'ended' if command.poll() else 'stalled'})"
        kernel = int(pid_file.read_text())
        assert not _gone(kernel)
        command.send_signal(kill)
        command.wait(timeout=60)
        deadline = time.monotonic() + 30
        while not _gone(kernel) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(kernel), f"the kernel (process {kernel}) outlived its command by 30 s"
    finally:
        if command.poll() is None:
            command.kill()
            command.wait(timeout=10)
        if kernel is not None and not _gone(kernel):
            os.kill(kernel, signal.SIGKILL)
