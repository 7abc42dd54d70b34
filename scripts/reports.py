"""Set everything up and produce every report into reports/: python3 scripts/reports.py [toolkit report args]."""

import sys

from _bootstrap import run

if __name__ == "__main__":
    sys.exit(run(["-m", "toolkit", "report", "all", "-o", "reports", *sys.argv[1:]]))
