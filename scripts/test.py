"""Set everything up and run the test suite (and the lint): python3 scripts/test.py [pytest args]."""

import sys

from _bootstrap import run

if __name__ == "__main__":
    code = run(["-m", "ruff", "check", "toolkit", "tests", "bench", "scripts"])
    code = run(["-m", "pytest", "-q", *sys.argv[1:]]) or code
    sys.exit(code)
