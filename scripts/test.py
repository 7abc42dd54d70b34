"""Set everything up and run the test suite (and the lint): python3 scripts/test.py [pytest args].

The browser suite (tests/browser) runs in a pytest process of its own: Playwright's sync
API keeps an asyncio loop running in the main thread for the whole session, and the
explorers take a running loop for a notebook kernel (they then wait for the inputs to
settle), which would change how every later widget test runs. Arguments that name test
files or folders run as one pytest process, as asked; options alone (``--durations=10``,
``-k odds``, ``-x``) apply to both processes.
"""

import os
import shutil
import sys
from pathlib import Path

from _bootstrap import run

#: pytest's exit code when a run selects no test (e.g. ``-k`` matching only one of the two parts).
NO_TESTS = 5


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


if __name__ == "__main__":
    code = run(["-m", "ruff", "check", "toolkit", "tests", "bench", "scripts"])
    args = sys.argv[1:]
    skipped = "" if names_tests(args) else browser_missing()
    if skipped:
        print(skipped, flush=True)
    if names_tests(args):  # a chosen subset: one pytest run, as asked
        code = run(["-m", "pytest", "-q", *args]) or code
    else:
        parts = [
            run(["-m", "pytest", "-q", "--ignore=tests/browser", *args]),
            run(["-m", "pytest", "-q", "tests/browser", *args]),
        ]
        if parts != [NO_TESTS, NO_TESTS]:
            parts = [0 if p == NO_TESTS else p for p in parts]
        code = next((p for p in parts if p), 0) or code
    if skipped:
        print(skipped, flush=True)
    sys.exit(code)
