"""Benchmark: exact optimal play of one Fairy Meat attack between known hands (issue 5).

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat_optimal.py [--deals 40] [--seed 1]

What is timed: :func:`toolkit.fairy_meat.strategy.optimal.solve_attack` on random deals of 5 v 3
cards from one 52-card deck — the game built from the engine, both sequence-form LPs
(HiGHS) and the exact verification in Fractions. Goal: under 1 s, verified.

References measured in the same run, on the same deals:

- **the engine enumerated** with fixed policies (random v random), exactly —
  ``toolkit.engine.enumerate_outcomes`` — what an exact "odds of one attack" costs
  without any game theory; the ratio says what solving costs on top of that;
- **a normal-form brute force** on 3 v 2 deals and on 4 v 3 deals where the attacker
  holds 2 or more Trumps (every pure strategy of both sides written out, the referee on
  every pair, the matrix LP), which must agree with the solver's value; it grows with the
  Trump sets and the views of them (FM-4, FM-5), and 5 v 3 is out of its reach.

Deals where a side holds no Numbered card turn up cards from the deck (FM-6, FM-7): each
count of Trumps turned up and each Numbered card ending the draw is its own outcome, so
these games are far bigger. They are counted and timed apart; those above
``optimal.SIZE_LIMIT`` are refused before starting (TooBigError) and counted as such.

**The hint along the worked example** (issue 12 item 2): ``optimal.hint`` at each of the
ten decisions of ``data/examples/dizzytwig_v_sparklespaz.yaml``, each from a cold cache
(what a designer waits for when the hint is switched on there), against the reference of
solving the worked example's first attack alone (``solve_attack``, same run). Goal: every
hint answers, exactly, under 2 s. And the grouping of cards turned up by card type
(FM-1/FM-12) against walking every card, on small decks where both finish.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _results import publish
from test_fairy_meat_optimal import brute_value, engine_value, known_state

from toolkit.cards import parse_cards, standard_deck
from toolkit.errors import TooBigError
from toolkit.fairy_meat.policies import random_policy
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy import optimal
from toolkit.fairy_meat.strategy.payoff import Payoff

RESULTS = Path(__file__).parent / "results" / "fairy_meat_optimal.md"
GOAL_SECONDS = 1.0
HINT_GOAL_SECONDS = 2.0
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "examples" / "dizzytwig_v_sparklespaz.yaml"


def deals(n: int, a: int, d: int, seed: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    deck = [c.code for c in standard_deck()]
    out = []
    for _ in range(n):
        cards = rng.sample(deck, a + d)
        out.append((cards[:a], cards[a:]))
    return out


def draws(hand: list[str]) -> bool:
    return all(c.is_face for c in parse_cards(hand))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hint-only", action="store_true", help="only the worked example's hints and the grouping")
    args = parser.parse_args()
    optimal.solve_attack("KS QC 5C 4C 3D", "2D KC")  # import scipy and warm up once

    lines = [f"# Fairy Meat optimal play, known hands ({platform.python_version()}, {platform.machine()})", ""]
    ok, hint_lines = hint_section()
    lines += hint_lines
    if args.hint_only:
        publish("\n".join(lines) + "\n", RESULTS)
        return 0 if ok else 1
    plain, drawn, refused, ratios = [], [], 0, []
    unverified = 0
    for a_hand, d_hand in deals(args.deals, 5, 3, args.seed):
        try:
            t = time.perf_counter()
            sol = optimal.solve_attack(a_hand, d_hand)
            dt = time.perf_counter() - t
        except TooBigError:
            refused += 1
            continue
        unverified += not sol.verified
        if draws(a_hand) or draws(d_hand):
            drawn.append(dt)
            continue
        plain.append(dt)
        t = time.perf_counter()
        engine_value(
            known_state(" ".join(a_hand), " ".join(d_hand)), {"attacker": random_policy, "defender": random_policy}
        )
        ratios.append(dt / (time.perf_counter() - t))
    lines += [
        f"## 5 v 3, {args.deals} random deals (seed {args.seed})",
        "",
        "| deals | n | median s | worst s | goal |",
        "|---|---|---|---|---|",
        f"| both sides hold a Numbered card | {len(plain)} | {statistics.median(plain):.3f} | {max(plain):.3f} "
        f"| {'met' if max(plain) < GOAL_SECONDS else 'MISSED'} (< {GOAL_SECONDS} s) |",
    ]
    if drawn:
        lines.append(
            f"| a side must turn up cards (FM-6/7) | {len(drawn)} | {statistics.median(drawn):.2f} "
            f"| {max(drawn):.2f} | - |"
        )
    lines += [
        f"| refused before starting (size > {optimal.SIZE_LIMIT:,}) | {refused} | - | - | - |",
        "",
        f"Verified exact (exploitability 0): {len(plain) + len(drawn) - unverified} of {len(plain) + len(drawn)}.",
        f"Solve / engine-enumerated random v random, same deals: median {statistics.median(ratios):.1f}x, "
        f"worst {max(ratios):.1f}x.",
        "",
    ]
    for a, d, need in ((3, 2, 0), (4, 3, 2)):
        lines += [
            "",
            f"## {a} v {d} against the normal-form brute force"
            + (f" (attacker holding {need}+ Trumps)" if need else ""),
            "",
            "| deal | ours s | brute force s | brute / ours | agree |",
            "|---|---|---|---|---|",
        ]
        picked = [
            (x, y)
            for x, y in deals(60, a, d, args.seed + a)
            if not (draws(x) or draws(y)) and sum(c.is_face for c in parse_cards(x)) >= need
        ][:6]
        for a_hand, d_hand in picked:
            t = time.perf_counter()
            sol = optimal.solve_attack(a_hand, d_hand)
            ours = time.perf_counter() - t
            t = time.perf_counter()
            ref = brute_value(" ".join(a_hand), " ".join(d_hand), Rules(), Payoff())
            brute = time.perf_counter() - t
            agree = abs(float(sol.value) - ref) < 1e-9 and sol.verified
            ok &= agree
            lines.append(
                f"| {' '.join(a_hand)} v {' '.join(d_hand)} | {ours:.3f} | {brute:.3f} | {brute / ours:.1f}x | "
                f"{'yes' if agree else 'NO'} ({sol.value}) |"
            )
    publish("\n".join(lines) + "\n", RESULTS)
    return 0 if ok else 1


def hint_section() -> tuple[bool, list[str]]:
    """The hint at every decision of the worked example, and grouped against ungrouped draws."""
    from test_fairy_meat_optimal import example_decisions, few_cards_removed

    from toolkit.equilibrium import solve

    t = time.perf_counter()
    optimal.solve_attack("KS QC 5C 4C 3D", "2D KC")
    reference = time.perf_counter() - t
    lines = [
        "## The hint at every decision of the worked example (cold cache)",
        "",
        f"Reference: the worked example's first attack alone (solve_attack), {reference:.3f} s in this run.",
        "",
        "| move | answers | whole combat | s | / reference | goal |",
        "|---|---|---|---|---|---|",
    ]
    ok = True
    for move, state in example_decisions():
        optimal._solved.clear()
        t = time.perf_counter()
        try:
            found = optimal.hint(state)
        except TooBigError:
            found = None
        dt = time.perf_counter() - t
        met = found is not None and dt < HINT_GOAL_SECONDS
        ok &= found is not None
        whole = "yes" if found and "this attack only" not in found[0] else "no"
        lines.append(
            f"| {move.text} | {'yes' if found else 'NO'} | {whole} | {dt:.3f} | {dt / reference:.1f}x | "
            f"{'met' if met else 'MISSED'} (< {HINT_GOAL_SECONDS} s) |"
        )
    lines += [
        "",
        "## Cards turned up grouped by card type (FM-1/FM-12) against every card walked",
        "",
        "| deal (small deck) | grouped nodes | ungrouped nodes | grouped s | ungrouped / grouped | same value |",
        "|---|---|---|---|---|---|",
    ]
    for a, d, deck, attacks in (
        ("5C 4C", "AH", "KD JH QS AS 7H 7D 2C 9S", 1),
        ("5C 4C", "3D", "KH QH QD QS KC AS 6H 6D 8C 8S", 2),
    ):
        gone = few_cards_removed(f"{deck} {a} {d}")
        state = optimal._combat_start(parse_cards(a), parse_cards(d), Rules(), attacks, tuple(parse_cards(gone)))
        t = time.perf_counter()
        g = solve(optimal.attack_game(state))
        tg = time.perf_counter() - t
        t = time.perf_counter()
        u = solve(optimal.attack_game(state, grouped=False))
        tu = time.perf_counter() - t
        same = g.value == u.value and g.verified and u.verified
        ok &= same
        lines.append(
            f"| {a} v {d}, {attacks} attack(s), deck {deck} | {g.tree.nodes:,} | {u.tree.nodes:,} | {tg:.3f} "
            f"| {tu / tg:.1f}x | {'yes' if same else 'NO'} ({g.value}) |"
        )
    return ok, [*lines, ""]


if __name__ == "__main__":
    sys.exit(main())
