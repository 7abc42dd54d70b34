"""Set everything up and run the test suite (and the lint): python3 scripts/test.py [pytest args].

The browser suite (tests/browser) runs in a pytest process of its own: Playwright's sync
API keeps an asyncio loop running in the main thread for the whole session, and the
explorers take a running loop for a notebook kernel (they then wait for the inputs to
settle), which would change how every later widget test runs.
"""

import sys

from _bootstrap import run

if __name__ == "__main__":
    code = run(["-m", "ruff", "check", "toolkit", "tests", "bench", "scripts"])
    args = sys.argv[1:]
    if args:  # a chosen subset: one pytest run, as asked
        code = run(["-m", "pytest", "-q", *args]) or code
    else:
        code = run(["-m", "pytest", "-q", "--ignore=tests/browser"]) or code
        code = run(["-m", "pytest", "-q", "tests/browser"]) or code
    sys.exit(code)
