"""Benchmark: how reading an example file grows with its moves (issue 13: reading is linear).

Run from the project root::

    .venv/bin/python bench/bench_readers.py

Reads the draft's worked example (``data/examples/dizzytwig_v_sparklespaz.yaml``) with
2,000 and 16,000 copies of a left-over move appended, through ``toolkit replay``'s reader,
which stops at the first left-over move with its line. The reference is the same reader
on 2,000 moves in the same run: 8 times the moves should take about 8 times as long (a
ratio near 8), not 64 times (quadratic reading, as before issue 13).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _results import best_time, fmt_s, publish

from toolkit.errors import NotationError
from toolkit.replay import replay_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "examples" / "dizzytwig_v_sparklespaz.yaml"


def read_time(moves: int, folder: Path) -> float:
    """Best of 3 wall times of reading the example with ``moves`` left-over moves."""
    path = folder / f"long{moves}.yaml"
    path.write_text(EXAMPLE.read_text().split("expect:")[0] + "  - Dizzytwig: play 5C\n" * moves)

    def read() -> None:
        try:
            replay_file(path)
        except NotationError:
            return
        sys.exit("the reader accepted a left-over move")

    seconds, _ = best_time(read, 3, lambda: None)
    return seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        small, large = read_time(2_000, Path(folder)), read_time(16_000, Path(folder))
    report = (
        "# Reading example files\n\n| moves | time |\n|---|---|\n"
        f"| 2,000 | {fmt_s(small)} |\n| 16,000 | {fmt_s(large)} |\n\n"
        f"16,000 / 2,000: {large / small:.1f}x the time for 8x the moves (linear: about 8).\n"
    )
    publish(report, ROOT / "bench" / "results" / "readers.md")


if __name__ == "__main__":
    main()
