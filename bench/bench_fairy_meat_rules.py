"""Benchmark: Fairy Meat exact deal-averaged odds under house rules (issue 11).

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat_rules.py [--runs 3] [--size 5x3]

What is timed: ``toolkit.fairy_meat.odds.deal_averaged_odds(a, d, ("greedy", "greedy"),
rules, method="exact")`` from cold caches (``clear_caches()`` before every run), for

- the default rules (the reference, measured in the same run);
- each shipped house-rules file of ``data/rules/fairy-meat/`` (``unhalved_damage``:
  another points rule; ``attacker_plus2``: a hand-size term, which a deal of given hand
  sizes does not change; ``tens_are_trumps``: a custom deck, 2-9 Numbered and 10 J Q K A
  Trumps);
- a custom deck with another death card and colour rule (3-9 Numbered, 10 J Q K Trumps,
  the K♠ the death card, lowest wins in one colour);
- the house rules the draft's counting model once left to Monte Carlo: 1 and 2 jokers
  (``jokers``), Trumps worth 2 (``trump_value``), a red death card (``death_card: AH``).

Reported: each time, its ratio to the default rules' time in the same run, and whether
every rule set but the default meets the goal of 5 s for 5 v 3 (on 2 cores). Each result is checked against
Monte Carlo over the engine under the same rules (2,000 dealt attacks, P(attacker wins)
within the tests' tolerance, toolkit.montecarlo.tolerance).
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

from _results import best_time, fmt_s, publish

from toolkit.fairy_meat import odds
from toolkit.fairy_meat.rules import Rules
from toolkit.house_rules import load_rules, rules_files
from toolkit.montecarlo import tolerance

RESULTS = Path(__file__).parent / "results" / "fairy_meat_rules.md"
GOAL_SECONDS = 5.0


def rule_sets() -> list[tuple[str, Rules]]:
    out = [("default rules", Rules())]
    out += [(p.stem, load_rules("fairy-meat", p)) for p in rules_files("fairy-meat")]
    custom = Rules(
        numbered_ranks=("3", "4", "5", "6", "7", "8", "9"),
        trump_ranks=("10", "J", "Q", "K"),
        death_card="KS",
        same_colour_wins="lowest",
    )
    out.append(("custom deck (3-9, 10 J Q K, K♠)", custom))
    out += [
        ("jokers: 1", Rules(jokers=1)),
        ("jokers: 2", Rules(jokers=2)),
        ("trump_value: 2", Rules(trump_value=2)),
        ("death_card: AH", Rules(death_card="AH")),
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="5x3")
    args = parser.parse_args(argv)
    a, d = (int(x) for x in args.size.split("x"))
    rows = []
    reference = None
    ok = True
    for name, rules in rule_sets():
        seconds, result = best_time(
            lambda rules=rules: odds.deal_averaged_odds(a, d, ("greedy", "greedy"), rules, method="exact"),
            args.runs,
            odds.clear_caches,
        )
        reference = reference or seconds
        win = result.probability(lambda o: o.winner == "attacker")
        mc = odds.deal_averaged_odds(a, d, ("greedy", "greedy"), rules, method="monte_carlo", trials=2_000, seed=1)
        seen = mc.probability(lambda o: o.winner == "attacker")
        agrees = abs(float(seen - win)) <= tolerance(win, 2_000)
        meets = seconds <= GOAL_SECONDS if rules != Rules() else None
        ok = ok and agrees and meets is not False
        rows.append(
            f"| {name} | {result.size:,} | {fmt_s(seconds)} | {seconds / reference:.2f} | {float(win):.4f} | "
            f"{'yes' if agrees else 'NO'} | {'' if meets is None else ('yes' if meets else 'NO')} |"
        )
    report = "\n".join(
        [
            f"# Fairy Meat exact odds under house rules, {a} v {d} (greedy v greedy)",
            "",
            f"Python {platform.python_version()}, best of {args.runs} cold runs. Ratio: to the default rules, "
            f"same run. Goal for every house rule: {GOAL_SECONDS:.0f} s.",
            "",
            "| rules | size | time | ratio | P(attacker wins) | Monte Carlo agrees | under goal |",
            "|---|---:|---:|---:|---:|---|---|",
            *rows,
        ]
    )
    publish(report, RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
