"""Benchmark: the Fairy Meat hidden-hands solver under every deck, against the draft's deck.

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat_hidden_rules.py [--sizes 2x1 2x2 3x2] [--rounds 1]
                                                           [--target 0.01] [--only NAME ...]

What is timed: the whole call ``solve_hidden(a, d, rules, target=0.01)`` (building the game —
referee judgements, Wild Trump draw laws, payoff matrix — plus the CFR+ iterations to the
target), from cold caches (every cache of the hidden solver and of the odds classes cleared
before each run), for

- the draft's deck (the reference, measured in the same run before every round of the other
  decks and once more at the end: the reference is the mean of those runs, so a machine whose
  load drifts shows it);
- a Trump worth 2 and 10 (``trump_value``), 1 and 2 jokers (``jokers``), a red death card
  (``death_card: AH``), no death card, the shipped ``tens_are_trumps`` (2-9 Numbered, 10 J
  Q K A Trumps) and a custom deck (3-9 Numbered, 10 J Q K Trumps, the K♠ the death card).

Times are CPU seconds of this process (``time.process_time``: the machine is shared, and
another busy process disturbs CPU time much less than the wall clock; the wall time is shown
beside it). ``--rounds R`` times every deck R times, alternating with the draft's deck
(draft, decks..., draft, decks..., draft); a deck's time is the mean of its rounds.

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

from _results import fmt_s, publish

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


def timed(a: int, d: int, rules: Rules, target: float) -> tuple[float, float, HiddenSolution]:
    """One cold call ``solve_hidden(a, d, rules, target=target)``: its CPU seconds (this
    process, ``time.process_time``), its wall seconds and its solution."""
    cold()
    cpu, wall = time.process_time(), time.perf_counter()
    sol = solve_hidden(a, d, rules, target=target, time_limit=600)
    return time.process_time() - cpu, time.perf_counter() - wall, sol


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["2x1", "2x2", "3x2"], help="hand sizes AxD")
    parser.add_argument("--rounds", type=int, default=1, help="time every deck this many times, alternating")
    parser.add_argument("--target", type=float, default=0.01, help="exploitability target, share of the range")
    parser.add_argument("--only", nargs="*", default=None, help="time only these decks (and the draft's)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    chosen = [(n, r) for n, r in decks() if args.only is None or n == "draft's deck" or n in args.only]
    draft, others = chosen[0], chosen[1:]
    rows, ok = [], True
    for size in args.sizes:
        a, d = (int(x) for x in size.lower().split("x"))
        cpus: dict[str, list[float]] = {name: [] for name, _ in chosen}
        walls: dict[str, list[float]] = {name: [] for name, _ in chosen}
        sols = {}
        for name, rules in [*([draft, *others] * args.rounds), draft]:
            cpu, wall, sol = timed(a, d, rules, args.target)
            cpus[name].append(cpu)
            walls[name].append(wall)
            sols[name] = sol
            print(
                f"{a} v {d} {name}: CPU {fmt_s(cpu)}, wall {fmt_s(wall)} "
                f"({sol.iterations} it, build {fmt_s(sol.build_seconds)} wall)",
                flush=True,
            )
        reference = statistics.mean(cpus["draft's deck"])
        for name, _ in others:
            sol, cpu = sols[name], statistics.mean(cpus[name])
            ratio = cpu / reference
            meets = ratio <= GOAL_RATIO
            ok &= meets
            rows.append(
                f"| {a} v {d} | {name} | {fmt_s(cpu)} | {fmt_s(statistics.mean(walls[name]))} | "
                f"{fmt_s(sol.build_seconds)} | {sol.iterations} | {sol.exploitability_share:.2%} | "
                f"{game_size(sol)} | {ratio:.2f} | {'yes' if meets else 'NO'} |"
            )
        sol = sols["draft's deck"]
        rows.append(
            f"| {a} v {d} | draft's deck ({', '.join(fmt_s(c) for c in cpus[draft[0]])}) | {fmt_s(reference)} | "
            f"{fmt_s(statistics.mean(walls[draft[0]]))} | {fmt_s(sol.build_seconds)} | {sol.iterations} | "
            f"{sol.exploitability_share:.2%} | {game_size(sol)} | 1 | |"
        )
    report = "\n".join(
        [
            "# Fairy Meat hidden-hands solver under every deck",
            "",
            f"Python {platform.python_version()}, {platform.machine()}; run {time.strftime('%Y-%m-%d %H:%M')}; "
            f"{args.rounds} round(s) of cold runs, alternating with the draft's deck; target {args.target:.0%} of "
            "the payoff range. Times: CPU seconds (mean over the rounds), wall beside. Ratio: CPU time to the mean "
            f"of the draft's deck's runs in the same run. Goal: every deck within {GOAL_RATIO:.0f}x the draft's time.",
            "",
            "| hands | deck | CPU | wall | build (wall) | iterations | exploitability | matrix nonzeros "
            "| information sets | ratio | within 2x |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
            *rows,
        ]
    )
    publish(report, RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
