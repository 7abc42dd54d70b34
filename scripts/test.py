"""Set everything up and run the test suite (and the lint): python3 scripts/test.py [pytest args].

The browser suite (tests/browser) runs in a pytest process of its own: Playwright's sync
API keeps an asyncio loop running in the main thread for the whole session, and the
explorers take a running loop for a notebook kernel (they then wait for the inputs to
settle), which would change how every later widget test runs. Arguments that name test
files or folders run as one pytest process, as asked; options alone (``--durations=10``,
``-k odds``, ``-x``) apply to both processes.

The main part runs on one pytest-xdist worker per core (at most :data:`MAX_WORKERS`), a
test file to a worker (``--dist loadfile``: a file's fixtures are built once), the longest
files first (``tests/conftest.py``: ``--no-loadscope-reorder`` keeps that order); the browser
part runs in one process, since its timings are part of what it checks, at the same time as
the main part (:func:`both_parts`; its output follows the main part's). ``-n 0`` (or any
``-n``/``--numprocesses`` given) overrides the worker count.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _bootstrap import run, start

#: pytest's exit code when a run selects no test (e.g. ``-k`` matching only one of the two parts).
NO_TESTS = 5
#: The most pytest-xdist workers the main part uses (each runs kernels and Dask clusters of its own).
MAX_WORKERS = 4
#: Seconds the browser part may still run after the main part has ended.
BROWSER_GRACE = 1800


def workers() -> int:
    """The pytest-xdist workers of the main part: one per core this process may use, at most :data:`MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def browser_missing() -> str:
    """One line saying that the browser suite will be skipped and how to run it, or ``""``
    when Debian's Chromium is there (or in CI, where its absence fails the suite instead)."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.environ.get("CI", "").lower() == "true" or Path(chromium).exists() or shutil.which(chromium):
        return ""
    return (
        f"browser suite skipped: no Chromium at {chromium} (the notebooks and reports as a designer "
        "sees them go untested); run `bash .ci/run` as root, which installs it, or `apt-get install chromium` first"
    )


def names_tests(args: list[str]) -> bool:
    """Whether any argument is a test file or folder (``tests/test_x.py::test_y`` included)."""
    return any(not a.startswith("-") and Path(a.split("::")[0]).exists() for a in args)


def both_parts(parallel: list[str], args: list[str]) -> list[int]:
    """Run the main part and, beside it, the browser part; return their exit codes.

    The browser part mostly waits (on JupyterLab, kernels and Chromium: about 0.6 of a core
    over its run), so it runs at the same time as the main part instead of after it; its
    wall-clock limits are held at the machine's pace measured around each timed action
    (tests/browser/machine_pace.py), which the main part's load raises. Its output is
    printed whole after the main part's. A browser part still running
    :data:`BROWSER_GRACE` seconds after the main part ended is stopped and fails."""
    with tempfile.TemporaryFile() as output:
        browser = start(["-m", "pytest", "-q", "tests/browser", *args], output)
        try:
            main = run(["-m", "pytest", "-q", "--ignore=tests/browser", *parallel, *args])
            try:
                code = browser.wait(timeout=BROWSER_GRACE)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
                code = 1
                output.write(f"\nbrowser part stopped: still running {BROWSER_GRACE} s after the main part\n".encode())
        finally:
            if browser.poll() is None:
                browser.kill()
                browser.wait()
        output.seek(0)
        print("\n== browser part (tests/browser), run beside the main part ==", flush=True)
        sys.stdout.buffer.write(output.read())
        sys.stdout.flush()
    return [main, code]


if __name__ == "__main__":
    code = run(["-m", "ruff", "check", "toolkit", "tests", "bench", "scripts"])
    args = sys.argv[1:]
    skipped = "" if names_tests(args) else browser_missing()
    if skipped:
        print(skipped, flush=True)
    if names_tests(args):  # a chosen subset: one pytest run, as asked
        code = run(["-m", "pytest", "-q", *args]) or code
    else:
        given = any(a.startswith(("-n", "--numprocesses")) for a in args)
        # a file to a worker, in the order tests/conftest.py gives (its longest files first),
        # not xdist's default order (files with the most tests first)
        parallel = [] if given else ["-n", str(workers()), "--dist", "loadfile", "--no-loadscope-reorder"]
        parts = both_parts(parallel, args)
        if parts != [NO_TESTS, NO_TESTS]:
            parts = [0 if p == NO_TESTS else p for p in parts]
        code = next((p for p in parts if p), 0) or code
    if skipped:
        print(skipped, flush=True)
    sys.exit(code)
