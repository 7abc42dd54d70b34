"""Benchmark: the Fairy Meat hidden-hands solver under every deck, against the draft's deck.

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat_hidden_rules.py [--sizes 2x1 2x2 3x2] [--runs 1]
                                                           [--target 0.01] [--only NAME ...]

What is timed: the whole call ``solve_hidden(a, d, rules, target=0.01)`` (building the game —
referee judgements, Wild Trump draw laws, payoff matrix — plus the CFR+ iterations to the
target), from cold caches (every cache of the hidden solver and of the odds classes cleared
before each run), for

- the draft's deck (the reference, measured in the same run, first and again last: the
  reference is the mean of the two, so a machine whose load drifts shows it);
- a Trump worth 2 and 10 (``trump_value``), 1 and 2 jokers (``jokers``), a red death card
  (``death_card: AH``), no death card, the shipped ``tens_are_trumps`` (2-9 Numbered, 10 J
  Q K A Trumps) and a custom deck (3-9 Numbered, 10 J Q K Trumps, the K♠ the death card).

Reported: each time, its ratio to the draft's in the same run, the build's share (referee
judgements, draw laws, matrix) and the CFR+ iterations', the iterations and the exploitability
reached, and the game's size (the payoff matrix's nonzero entries, both players' information
sets): a deck whose game is larger shows it here. Goal (issue 24, 5(b)): every deck within twice the draft's time at
2 v 1, 2 v 2 and 3 v 2. The solver's correctness under these decks is checked by the tests
(an independent LP over real cards, and fixed play against the exact odds), not here.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from _results import best_time, fmt_s, publish

from toolkit.fairy_meat import solve_hidden
from toolkit.fairy_meat.odds import clear_caches
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache
from toolkit.fairy_meat.strategy.hidden.solution import HiddenSolution
from toolkit.house_rules import load_rules

RESULTS = Path(__file__).parent / "results" / "fairy_meat_hidden_rules.md"
GOAL_RATIO = 2.0


def decks() -> list[tuple[str, Rules]]:
    """The decks timed, the draft's first."""
    return [
        ("draft's deck", Rules()),
        ("trump_value: 2", Rules(trump_value=2)),
        ("trump_value: 10", Rules(trump_value=10)),
        ("jokers: 1", Rules(jokers=1)),
        ("jokers: 2", Rules(jokers=2)),
        ("death_card: AH", Rules(death_card="AH")),
        ("no death card", Rules(death_card=None)),
        ("tens_are_trumps", load_rules("fairy-meat", "tens_are_trumps")),
        (
            "3-9, 10 J Q K, K♠",
            Rules(
                numbered_ranks=("3", "4", "5", "6", "7", "8", "9"), trump_ranks=("10", "J", "Q", "K"), death_card="KS"
            ),
        ),
    ]


def game_size(sol: HiddenSolution) -> str:
    """The payoff matrix's nonzero entries and both players' information sets, as text."""
    game = sol.game
    infos = sum(level["n_inf"] for side in game.sides for level in side.levels)
    return f"{game.matrix.nnz:,} | {infos:,}"


def cold() -> None:
    clear_strategy_cache()
    clear_caches()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["2x1", "2x2", "3x2"], help="hand sizes AxD")
    parser.add_argument("--runs", type=int, default=1, help="best of this many cold runs per deck")
    parser.add_argument("--target", type=float, default=0.01, help="exploitability target, share of the range")
    parser.add_argument("--only", nargs="*", default=None, help="time only these decks (and the draft's)")
    args = parser.parse_args(argv)
    chosen = [(n, r) for n, r in decks() if args.only is None or n == "draft's deck" or n in args.only]
    rows, ok = [], True
    for size in args.sizes:
        a, d = (int(x) for x in size.lower().split("x"))
        times: dict[str, float] = {}
        sols = {}
        for name, rules in [*chosen, ("draft's deck (again)", Rules())]:
            seconds, sol = best_time(
                lambda rules=rules, a=a, d=d: solve_hidden(a, d, rules, target=args.target, time_limit=600),
                args.runs,
                cold,
            )
            times[name], sols[name] = seconds, sol
            print(
                f"{a} v {d} {name}: {fmt_s(seconds)} ({sol.iterations} it, build {fmt_s(sol.build_seconds)})",
                flush=True,
            )
        reference = statistics.mean([times["draft's deck"], times["draft's deck (again)"]])
        for name, _ in chosen:
            sol, ratio = sols[name], times[name] / reference
            meets = ratio <= GOAL_RATIO
            ok &= meets
            rows.append(
                f"| {a} v {d} | {name} | {fmt_s(times[name])} | {fmt_s(sol.build_seconds)} | {sol.iterations} | "
                f"{sol.exploitability_share:.2%} | {game_size(sol)} | {ratio:.2f} | {'yes' if meets else 'NO'} |"
            )
        rows.append(
            f"| {a} v {d} | (draft's deck again, last) | {fmt_s(times['draft' + chr(39) + 's deck (again)'])} | "
            f"{fmt_s(sols['draft' + chr(39) + 's deck (again)'].build_seconds)} | | | | | | |"
        )
    report = "\n".join(
        [
            "# Fairy Meat hidden-hands solver under every deck",
            "",
            f"Python {platform.python_version()}, {platform.machine()}; run {time.strftime('%Y-%m-%d %H:%M')}; "
            f"best of {args.runs} cold run(s); target {args.target:.0%} of the payoff range. Ratio: to the mean of "
            "the draft's deck timed first and last in the same run. Goal: every deck within "
            f"{GOAL_RATIO:.0f}x the draft's time.",
            "",
            "| hands | deck | whole call | build | iterations | exploitability | matrix nonzeros | information sets "
            "| ratio | within 2x |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
            *rows,
        ]
    )
    publish(report, RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
