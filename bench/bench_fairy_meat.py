"""Benchmark: Fairy Meat deal-averaged odds, ``toolkit`` vs icepool's ``Deck.deal((5, 3))``.

Run from the project root::

    .venv/bin/python bench/bench_fairy_meat.py [--sizes 5x3 8x5] [--runs 3] [--trials 2000]

(``8x5`` adds a scaling row: icepool needs minutes for it.)

What is compared (exactly — every probability as a ``Fraction``):

**The greedy plays of both hands, over every deal** of an ``a``-card attacker's hand and
a ``d``-card defender's hand from one 52-card deck (FM-1, FM-2). A hand's greedy play
(:func:`toolkit.fairy_meat.policies.greedy_policy`) is the Numbered card type she plays
with her declared direction, the number of Trumps of its colour she applies and whether
the A♠ is among them — or, with no Numbered card, the type of the Trump she plays as a
Wild Trump (FM-6; the attacker prefers the A♠, the defender avoids it), or nothing for an
empty hand. This pair is the whole input of the attack except the cards a Wild Trump
turns up and the referee's judgement, and it is where the two hands depend on each other
(one deck).

- ours: the counting model inside :func:`toolkit.fairy_meat.odds.deal_averaged_odds`
  (Trump counts of both hands x the closed-form count of "she holds type k and nothing
  ranked above it", :func:`toolkit.fairy_meat.count_numbered`);
- icepool: ``Deck(21 card types).deal((a, d))`` evaluated by a ``MultisetEvaluator`` that
  sees, type by type, how many cards of it each hand holds, and keeps for each hand its
  Trump counts and the best type so far — an independent implementation of the ranking.

**The full attack odds** (FM-3..FM-12 with the Wild Trump draws and the referee) are not
expressible as an icepool multiset evaluation: the card a Wild Trump turns up depends on
the other hand's holding of every type and on the order of the rest of the deck. For
them the benchmark times our exact ``deal_averaged_odds(5, 3)`` against the goal of 2 s,
and checks it against Monte Carlo over the engine in the same run (the tests check it
against a brute force over every deal of small hands).

Fairness: ``toolkit.fairy_meat.odds.clear_caches()`` before every timed run of ours
(counts, draw laws, referee judgements); for icepool a fresh evaluator and deck every run
and its global caches cleared. Timed: building the exact weights on both sides.
Random-vs-random 5 v 3 is not exact in time (see ``exact_size``), so it is not compared.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
from _results import best_time, fmt_s, publish

from toolkit.fairy_meat import odds
from toolkit.fairy_meat.deck import type_colour, type_pips
from toolkit.fairy_meat.odds.counting import count_numbered
from toolkit.fairy_meat.odds.deals import trump_contexts
from toolkit.fairy_meat.odds.families import NO_NUMBERED, GreedyModel
from toolkit.fairy_meat.rules import Rules
from toolkit.montecarlo import tolerance

RESULTS = Path(__file__).parent / "results" / "fairy_meat.md"
GOAL_SECONDS = 2.0
MIDPOINT = 6

# Card types as icepool outcomes, Trumps first so that an ascending evaluation knows a
# hand's Trump counts before it sees her Numbered cards.
RED_TRUMP, BLACK_TRUMP, ACE_OF_SPADES = 0, 1, 2
NUMBERED = {3 + i: ("red" if i < 9 else "black", i % 9 + 2) for i in range(18)}
DECK_COUNTS = {RED_TRUMP: 8, BLACK_TRUMP: 7, ACE_OF_SPADES: 1, **{t: 2 for t in NUMBERED}}
WILD_NAMES = {RED_TRUMP: "R", BLACK_TRUMP: "B", ACE_OF_SPADES: "S"}

Table = dict[str, Fraction]


def play_label(direction: str, colour: str, pips: int, trumps: int, ace: bool) -> str:
    return f"{direction} {colour} {pips} +{trumps}{' A♠' if ace else ''}"


# -- icepool -------------------------------------------------------------------------------
class GreedyPlaysEvaluator(icepool.MultisetEvaluator):
    """Both hands of a ``Deck.deal((a, d))``, type by type: each hand keeps
    ``(red Trumps, black Trumps but the A♠, A♠, best (key, type) so far)``."""

    def initial_state(self, order, outcomes, *sizes):
        if order < 0:
            raise icepool.UnsupportedOrder("Trumps must be seen first (ascending)")
        return ((0, 0, 0, None), (0, 0, 0, None))

    def next_state(self, state, order, outcome, counts):
        hands = []
        for (red, black, ace, best), n in zip(state, counts, strict=True):
            if n:
                if outcome == RED_TRUMP:
                    red += n
                elif outcome == BLACK_TRUMP:
                    black += n
                elif outcome == ACE_OF_SPADES:
                    ace += n
                else:
                    colour, pips = NUMBERED[outcome]
                    t = red if colour == "red" else black + ace
                    # Extremeness |pips - 6| + Trumps of the colour; ties: Add, then red.
                    key = (abs(pips - MIDPOINT) + t, pips >= MIDPOINT, colour == "red")
                    if best is None or key > best[0]:
                        best = (key, outcome)
            hands.append((red, black, ace, best))
        return tuple(hands)

    def final_outcome(self, state, order, outcomes, sizes):
        labels = []
        for (red, black, ace, best), size, role in zip(state, sizes, ("attacker", "defender"), strict=True):
            if size == 0:
                labels.append("no card")
            elif best is None:
                # Wild Trump: the attacker plays the A♠ (only the defender can take damage,
                # FM-12); otherwise red, then black, keeping the A♠ back.
                if role == "attacker" and ace:
                    wild = ACE_OF_SPADES
                else:
                    wild = RED_TRUMP if red else BLACK_TRUMP if black else ACE_OF_SPADES
                labels.append(f"wild {WILD_NAMES[wild]}")
            else:
                colour, pips = NUMBERED[best[1]]
                t = red if colour == "red" else black + ace
                direction = "add" if pips >= MIDPOINT else "subtract"
                labels.append(play_label(direction, colour, pips, t, colour == "black" and bool(ace)))
        return " | ".join(labels)


def clear_icepool_caches() -> None:
    icepool.Pool.clear_cache()
    icepool.math.comb_row_cache.clear()


def icepool_plays(a: int, d: int) -> icepool.Die:
    deck = icepool.Deck(dict(DECK_COUNTS))
    return GreedyPlaysEvaluator().evaluate(deck.deal((a, d)))


def die_to_table(die: icepool.Die) -> Table:
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items() if q}


# -- ours ------------------------------------------------------------------------------------
def our_plays(a: int, d: int, rules: Rules | None = None) -> dict[str, int]:
    """The same joint from the counting model of :mod:`toolkit.fairy_meat.odds`."""
    rules = rules or Rules()
    models = (GreedyModel, GreedyModel)
    weights: Counter[str] = Counter()
    for count, na, nd, _, choices_a, choices_d in trump_contexts(a, d, models, rules):
        for ca in choices_a:
            for cd in choices_d:
                for ta, spec_a in ca.types or ((None, NO_NUMBERED),):
                    for td, spec_d in cd.types or ((None, NO_NUMBERED),):
                        c = count_numbered(na, nd, spec_a, spec_d)
                        if c:
                            weights[f"{label(ca, ta)} | {label(cd, td)}"] += count * c
    return dict(weights)


def label(choice: Any, t: int | None) -> str:
    fam = choice.family
    if fam.kind in ("blind", "unopposed"):
        return "no card"
    if fam.kind == "wild":
        return f"wild {fam.wild}"
    trumps = fam.placed[1] + fam.placed[2] if fam.placed else 0
    ace = bool(fam.placed and fam.placed[2])
    assert t is not None
    return play_label("add" if fam.sign > 0 else "subtract", type_colour(t), type_pips(t), trumps, ace)


def weights_to_table(weights: dict[str, int]) -> Table:
    total = sum(weights.values())
    return {k: Fraction(w, total) for k, w in weights.items()}


# -- timing -----------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["5x3"], help="hand sizes AxD (default 5x3)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs, best kept (default 3)")
    parser.add_argument("--trials", type=int, default=2000, help="Monte Carlo check of the full odds (default 2000)")
    args = parser.parse_args(argv)
    sizes = [tuple(int(x) for x in s.lower().split("x")) for s in args.sizes]

    print("ours: toolkit.fairy_meat.odds.clear_caches() before each timed run")
    print("icepool: fresh deck and evaluator per run; Pool.clear_cache() and comb_row_cache cleared\n")
    rows, mismatches = [], 0
    for a, d in sizes:
        ours_s, ours_w = best_time(lambda a=a, d=d: our_plays(a, d), args.runs, odds.clear_caches)
        ice_s, ice_die = best_time(lambda a=a, d=d: icepool_plays(a, d), 1, clear_icepool_caches)
        if ice_s < 20 and args.runs > 1:  # a second run when it is quick
            again, ice_die = best_time(lambda a=a, d=d: icepool_plays(a, d), 1, clear_icepool_caches)
            ice_s = min(ice_s, again)
        ours, theirs = weights_to_table(ours_w), die_to_table(ice_die)
        agree = ours == theirs
        mismatches += not agree
        print(
            f"greedy plays {a} v {d}: ours {fmt_s(ours_s)}, icepool {fmt_s(ice_s)}, "
            f"icepool/ours {ice_s / ours_s:.1f}x, {len(ours)} play pairs, agree: {agree}"
        )
        if not agree:
            diff = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
            print(f"  MISMATCH on {len(diff)} play pairs, e.g. {diff[:3]}")
        rows.append(
            f"| greedy plays, {a} v {d} (joint of both hands' plays, {len(ours)} pairs) | {fmt_s(ours_s)} | "
            f"{fmt_s(ice_s)} | {ice_s / ours_s:.1f}x | {'yes' if agree else 'NO'} |"
        )

    # The full attack odds, exact, against the goal and against Monte Carlo.
    full_s, full = best_time(lambda: odds.deal_averaged_odds(5, 3, method="exact"), args.runs, odds.clear_caches)
    verdict = "meets" if full_s < GOAL_SECONDS else "MISSES"
    print(
        f"\nfull attack odds, greedy 5 v 3, exact: {fmt_s(full_s)} (best of {args.runs}); {verdict} the goal of < 2 s"
    )
    mc = odds.deal_averaged_odds(5, 3, method="monte_carlo", trials=args.trials, seed=2024)
    events: dict[str, Callable[[Any], bool]] = {
        "attacker wins": lambda o: o.winner == "attacker",
        "defender wins": lambda o: o.winner == "defender",
        "draw": lambda o: o.winner == "draw",
        "2+ damage": lambda o: o.damage >= 2,
        "Nasty Hit": lambda o: o.nasty_hit,
    }
    consistent = True
    for name, event in events.items():
        p, q = full.probability(event), mc.probability(event)
        ok = abs(float(q) - float(p)) <= tolerance(p, args.trials)
        consistent &= ok
        lo, hi = mc.interval(event)
        verdict_mc = "ok" if ok else "OFF"
        print(f"  {name:14} exact {float(p):.4%}   Monte Carlo {float(q):.4%} [{lo:.2%}, {hi:.2%}]  {verdict_mc}")
    random_size = odds.exact_size(5, 3, ("random", "random"))
    rows.append(
        f"| full attack odds, greedy 5 v 3 (FM-3..FM-12, Wild Trump draws, referee) | {fmt_s(full_s)} | "
        f"— (not a multiset evaluation) | — | Monte Carlo x{args.trials:,}: {'consistent' if consistent else 'OFF'}; "
        f"goal < 2 s: {verdict.lower()} |"
    )
    rows.append(
        f"| full attack odds, random 5 v 3 | not exact in time (size {random_size:,} > limit "
        f"{odds.EXACT_LIMIT:,}): Monte Carlo | — | — | — |"
    )
    report = "\n".join(
        [
            "# Fairy Meat deal-averaged odds: toolkit vs icepool",
            "",
            f"Python {platform.python_version()}, icepool {icepool.__version__}, {platform.machine()}; "
            f"run {time.strftime('%Y-%m-%d %H:%M')}. All figures from the same run; caches cleared before "
            f"every timed run; ours best of {args.runs}, icepool best of 2 (1 when over 20 s).",
            "",
            "| what | ours | icepool `Deck.deal` + evaluator | icepool / ours | exact agreement |",
            "|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    publish(report, RESULTS)
    return 1 if mismatches or not consistent else 0


if __name__ == "__main__":
    sys.exit(main())
