"""Benchmark: the time to find the first rule-book example of every catalogue situation.

Run from the project root::

    .venv/bin/python bench/bench_find_examples.py [--systems fairy-meat ...] [--seed 15] [--budget 5]

For every situation of every system's catalogue (:mod:`toolkit.rulebook.situations`) it
times ``find_examples(system, situation, n=1)`` — the whole search: candidates played
through the engine, the ranking, and the verification replay of the file — against the
goal of issue 15 (the first example in under 5 s). The reference, measured in the same
run, is one replay of the example found through the system's notation (read, replay,
check: what ``toolkit replay`` does): the ratio says how many replays a search costs.
Situations that need a variant are searched under it (``rules_for``). Exits 1 if any
situation has no example within the goal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import best_time, fmt_s, publish

from toolkit import systems
from toolkit.rulebook import catalogue, find_examples
from toolkit.rulebook.finder import rules_for

GOAL_SECONDS = 5.0
RESULTS = Path(__file__).resolve().parent / "results" / "find_examples.md"


def replay_once(system: str, text: str) -> None:
    """What ``toolkit replay`` does with an example text: read, replay, check."""
    notation = systems.notation(system)
    example = notation.load(text)
    notation.check(example, notation.replay(example))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", nargs="*", default=["angry-miniatures", "fairy-meat", "durak-battle"])
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--budget", type=float, default=GOAL_SECONDS, help="search budget per situation (s)")
    args = parser.parse_args(argv)
    rows, missed, worst = [], [], 0.0
    for system in args.systems:
        for entry in catalogue(system):
            rules = rules_for(system, entry)
            t0 = time.perf_counter()
            found = find_examples(system, entry.name, rules=rules, n=1, seed=args.seed, budget_seconds=args.budget)
            took = time.perf_counter() - t0
            worst = max(worst, took)
            if not found or took > GOAL_SECONDS:
                missed.append(f"{system} {entry.name}")
                rows.append(f"| {system} | {entry.name} | {fmt_s(took)} | – | – | MISSED |")
                continue
            ref, _ = best_time(lambda f=found[0], s=system: replay_once(s, f), 3, lambda: None)
            rows.append(f"| {system} | {entry.name} | {fmt_s(took)} | {fmt_s(ref)} | {took / ref:,.0f} | ok |")
    report = "\n".join(
        [
            "# find_examples: the first example of every situation",
            "",
            f"Goal: under {GOAL_SECONDS:g} s each (issue 15). Seed {args.seed}, budget {args.budget:g} s.",
            f"Worst search: {fmt_s(worst)}; missed: {', '.join(missed) or 'none'}.",
            "",
            "| system | situation | search (n=1) | one replay (reference) | search / replay | goal |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    publish(report, RESULTS)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
