"""Set everything up and run the test suite (and the lint): python3 scripts/test.py [pytest args].

The browser suite (tests/browser) runs in a pytest process of its own: Playwright's sync
API keeps an asyncio loop running in the main thread for the whole session, and the
explorers take a running loop for a notebook kernel (they then wait for the inputs to
settle), which would change how every later widget test runs. Arguments that name test
files or folders run as one pytest process, as asked; options alone (``--durations=10``,
``-k odds``, ``-x``) apply to both processes.
"""

import sys
from pathlib import Path

from _bootstrap import run

#: pytest's exit code when a run selects no test (e.g. ``-k`` matching only one of the two parts).
NO_TESTS = 5


def names_tests(args: list[str]) -> bool:
    """Whether any argument is a test file or folder (``tests/test_x.py::test_y`` included)."""
    return any(not a.startswith("-") and Path(a.split("::")[0]).exists() for a in args)


if __name__ == "__main__":
    code = run(["-m", "ruff", "check", "toolkit", "tests", "bench", "scripts"])
    args = sys.argv[1:]
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
    sys.exit(code)
