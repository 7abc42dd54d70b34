"""What every benchmark script shares: timing a calculation fairly, and putting the
figures where they are read (printed, and written as Markdown to ``bench/results/``,
not committed)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def best_time(fn: Callable[[], Any], runs: int, before: Callable[[], Any]) -> tuple[float, Any]:
    """Best wall time of ``runs`` calls of ``fn``, calling ``before`` (untimed) each time
    (clearing caches, so that every timed run starts cold); and the last result."""
    best, result = float("inf"), None
    for _ in range(runs):
        before()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def fmt_s(seconds: float) -> str:
    """A time as a table shows it: milliseconds under a second, else seconds."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def publish(report: str, path: Path) -> None:
    """Print the Markdown ``report`` and write it to ``path`` (creating ``bench/results/``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report, encoding="utf-8")
    print("\n" + report)
    print(f"written to {path}")
