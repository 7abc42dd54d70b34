"""Benchmark: how long the Angry Miniatures odds explorer takes per slider change.

Goal (issue 2): under 100 ms per change. Each change is timed end to end — the slider
value is set, the observer recomputes the exact distribution with ``opposed`` (caches
cleared first, so every change computes from scratch), and redraws chart, summary and
table. The reference, measured in the same run, is the bare ``opposed`` call for the
same pools: the ratio says how much of a change is drawing rather than computing.

Run: .venv/bin/python bench/bench_explorer.py
"""

from __future__ import annotations

import random
import statistics
import time

from toolkit.angry_miniatures import odds as am_odds
from toolkit.angry_miniatures import opposed
from toolkit.angry_miniatures.widgets import odds_explorer


def clear_caches() -> None:
    for name in dir(am_odds):
        fn = getattr(am_odds, name)
        if callable(fn) and hasattr(fn, "cache_clear"):
            fn.cache_clear()


def main(changes: int = 60, seed: int = 0) -> None:
    rng = random.Random(seed)
    explorer = odds_explorer()  # the first build loads plotly: not counted
    per_change, bare = [], []
    for i in range(changes):
        # one observed change at a time, always to a new value
        name = ("attack_dice", "defence_dice", "attack_type")[i % 3]
        control = explorer.controls[name]
        if name == "attack_type":
            value = rng.choice([t for t in ("melee", "ranged", "magic") if t != control.value])
        else:
            value = rng.choice([k for k in range(16) if k != control.value])
        clear_caches()
        t = time.perf_counter()
        control.value = value
        per_change.append(time.perf_counter() - t)
        values = explorer.values
        clear_caches()
        t = time.perf_counter()
        opposed(values["attack_dice"], values["defence_dice"], values["attack_type"])
        bare.append(time.perf_counter() - t)
    worst, median = max(per_change), statistics.median(per_change)
    ref = statistics.median(bare)
    print(f"explorer, per change: median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms (goal < 100 ms)")
    print(f"bare opposed() for the same pools: median {ref * 1000:.2f} ms; change / bare = {median / ref:.1f}x")
    print("meets the goal" if worst < 0.1 else "MISSES the goal")


if __name__ == "__main__":
    main()
