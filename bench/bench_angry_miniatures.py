"""Benchmark: Angry Miniatures opposed-roll table, ``toolkit`` vs icepool.

Run from the project root::

    .venv/bin/python bench/bench_angry_miniatures.py [--max 12] [--big 30] [--house-max 12]

What it does:

1. computes the opposed table (attack pools 1..max x defence pools 1..max, melee and
   ranged; the full exact distribution of
   ``AttackOutcome(defender_damage, attacker_damage, attacker_crit, defender_crit)``)
   with :func:`toolkit.angry_miniatures.odds.opposed`;
2. computes the same table with icepool, through a custom ``MultisetEvaluator``
   that reads both rolls jointly, face by face (icepool's fastest route);
3. checks the two tables are exactly equal (every probability as a ``Fraction``);
   on a mismatch it runs a brute force over every face sequence for the smallest
   disagreeing pair, says who is right, and exits 1;
4. times both in the same run and prints the ratio icepool/ours, then times our
   1..big x 1..big table against the goal of under 1 s;
5. house rules (issue 11): the same table 1..house-max x 1..house-max under each rule
   set of :data:`HOUSE_RULES` (10s hit, which the closed form takes; and a custom die —
   an Ace on two faces, 10s hit, a chain of A K Q, crits on 2+ Kings or Aces, a won tie
   dealing 2, no melee damage back —, which takes the general exact count), ours
   against :class:`RulesEvaluator` (icepool, the same rules), exact agreement checked,
   against the goal of ours at least 5x faster than icepool;
6. the odds explorer under the custom-die house rules: each change of a control (pools,
   attack type, crit size, hit faces) timed end to end, caches cleared first, against
   the goal of under 100 ms (the reference: the same changes under the default rules).

Fairness: every ``functools.cache`` in :mod:`toolkit.angry_miniatures.odds` and
:mod:`toolkit.angry_miniatures.counting` is cleared before each timed run of ours, and
each icepool run uses a fresh evaluator (icepool caches a state table per evaluator
instance), fresh dice and clears icepool's global
caches (``Pool.clear_cache()``, ``icepool.math.comb_row_cache``). Within one run both
sides reuse what they computed earlier in that run (ours: per-pool tables; icepool:
per-evaluator state tables, shared by melee and ranged because only the final outcome
depends on the attack type).

The module is importable (see ``tests/test_bench_icepool_agrees.py``): the evaluator
and the table builders are plain functions.

Rulings used (docs/rulings.md): AM-1 (faces 9 10 J Q K A, hits J+),
AM-3 (hits compared, melee return damage), AM-4 (tie chain Aces, Kings, Queens, Jacks,
then SuperTieBreaker won half the time; a tie's winner deals exactly 1), AM-5 (both 0
hits: miss by default), AM-7 (crit: 2+ Aces on that roll).
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import icepool
from _results import best_time, fmt_s, publish

from toolkit.angry_miniatures import AttackOutcome, Rules, counting, odds

ATTACK_TYPES = ("melee", "ranged")
FACES = ("9", "10", "J", "Q", "K", "A")  # encoded 0..5
HIT_MIN = 2  # J and up are hits (AM-1)
ACE = 5
RESULTS = Path(__file__).parent / "results" / "angry_miniatures.md"
GOAL_SECONDS = 1.0
#: Ours at least this many times faster than icepool under house rules (issue 11).
HOUSE_GOAL_RATIO = 5.0
#: The house rules timed: (label, rules).
HOUSE_RULES: tuple[tuple[str, Rules], ...] = (
    ("10s hit (closed form)", Rules(hit_faces=("10", "J", "Q", "K", "A"))),
    (
        "custom die: 9 10 J Q K A A, 10s hit, chain A K Q, crit 2+ K/A, tie 2, no damage back (general count)",
        Rules(
            die_faces=("9", "10", "J", "Q", "K", "A", "A"),
            hit_faces=("10", "J", "Q", "K", "A"),
            tie_break_order=("A", "K", "Q"),
            crit_faces=("K", "A"),
            tie_damage=2,
            return_damage=False,
        ),
    ),
)

Table = dict[tuple[int, int, str], dict[AttackOutcome, Fraction]]


# -- icepool ---------------------------------------------------------------------------
class OpposedEvaluator(icepool.MultisetEvaluator):
    """Evaluates (attacker roll, defender roll) jointly, one face value at a time.

    State: ``(hit_difference, chain, any_hit, attacker_crit, defender_crit)`` where
    ``chain`` is the sign (+1 attacker, -1 defender, 0 equal) of the AM-4 comparison
    over the hit faces seen so far. The chain looks at the highest face first, so:
    outcomes seen in descending order (A first) keep the first nonzero sign; seen in
    ascending order (J first, A last) a later nonzero sign overrides the earlier one.
    Either order gives the same final state, so the evaluator accepts both.
    """

    def initial_state(self, order, outcomes, *sizes, melee=True, zero_tie="miss"):
        return (0, 0, False, False, False)

    def next_state(self, state, order, outcome, a, d):
        if outcome < HIT_MIN:
            return state  # 9 and 10 are blanks (AM-1)
        diff, chain, any_hit, ca, cd = state
        sign = (a > d) - (a < d)
        if sign and (order > 0 or not chain):
            chain = sign
        if outcome == ACE:
            ca, cd = a >= 2, d >= 2  # AM-7
        return (diff + a - d, chain, any_hit or a > 0 or d > 0, ca, cd)

    def final_outcome(self, state, order, outcomes, *sizes, melee=True, zero_tie="miss"):
        diff, chain, any_hit, ca, cd = state
        back = 1 if melee else 0
        if diff > 0:  # AM-3
            return AttackOutcome(diff, 0, ca, cd)
        if diff < 0:
            return AttackOutcome(0, -diff * back, ca, cd)
        if not any_hit and zero_tie == "miss":  # AM-5
            return AttackOutcome(0, 0, ca, cd)
        if chain > 0:  # AM-4: the tie's winner deals exactly 1
            return AttackOutcome(1, 0, ca, cd)
        if chain < 0:
            return AttackOutcome(0, back, ca, cd)
        # SuperTieBreaker: each side wins with probability exactly 1/2.
        return icepool.Die([AttackOutcome(1, 0, ca, cd), AttackOutcome(0, back, ca, cd)])


def poker_die() -> icepool.Die:
    """A fresh six-sided poker die, faces 9 10 J Q K A encoded 0..5."""
    return icepool.Die(range(len(FACES)))


def clear_icepool_caches() -> None:
    """Clear icepool's global caches (per-evaluator and per-die caches go with the objects)."""
    icepool.Pool.clear_cache()
    icepool.math.comb_row_cache.clear()


def icepool_table_dice(
    max_pool: int, attack_types: Iterable[str] = ATTACK_TYPES, zero_tie: str = "miss"
) -> dict[tuple[int, int, str], icepool.Die]:
    """The table as icepool ``Die`` objects, with a fresh evaluator and fresh die."""
    evaluator = OpposedEvaluator()
    die = poker_die()
    pools = {n: die.pool(n) for n in range(1, max_pool + 1)}
    return {
        (n, m, t): evaluator.evaluate(pools[n], pools[m], melee=(t == "melee"), zero_tie=zero_tie)
        for t in attack_types
        for n in pools
        for m in pools
    }


def die_to_fractions(die: icepool.Die) -> dict[AttackOutcome, Fraction]:
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items() if q}


def icepool_table(max_pool: int, attack_types: Iterable[str] = ATTACK_TYPES, zero_tie: str = "miss") -> Table:
    """The table as ``{(attack, defence, type): {outcome: Fraction}}``, by icepool."""
    return {k: die_to_fractions(v) for k, v in icepool_table_dice(max_pool, attack_types, zero_tie).items()}


# -- icepool under house rules -------------------------------------------------------------
class RulesEvaluator(icepool.MultisetEvaluator):
    """Evaluates (attacker roll, defender roll) jointly under any house rules, one face
    at a time (faces encoded by their index among the die's different faces).

    State: ``(hit_difference, first, sign, any_hit, attacker_crit_faces,
    defender_crit_faces)`` where ``(first, sign)`` is the earliest position in the
    chain (AM-4) where the two rolls differ so far and who has more there (faces may
    come in any order: an earlier chain position replaces a later one); crit-face
    counts are capped at ``crit_count`` (AM-7). Written from the rule text, not from
    :mod:`toolkit.angry_miniatures`.
    """

    def __init__(self, rules: Rules) -> None:
        self.faces = sorted(set(rules.die_faces), key=FACES.index)
        self.hit = [f in rules.hit_faces for f in self.faces]
        chain = [] if rules.tie_break == "coin_flip" else list(rules.tie_break_order)
        self.position = [chain.index(f) if f in chain else None for f in self.faces]
        self.crit = [f in rules.crit_faces for f in self.faces]
        self.k = rules.crit_count
        self.none = len(chain)
        self.tie_damage, self.back, self.zero_tie = rules.tie_damage, rules.return_damage, rules.zero_tie

    def die(self, rules: Rules) -> icepool.Die:
        """One die of ``rules``: each different face with its number of copies."""
        return icepool.Die({i: rules.die_faces.count(f) for i, f in enumerate(self.faces)})

    def initial_state(self, order, outcomes, *sizes, melee=True):
        return (0, self.none, 0, False, 0, 0)

    def next_state(self, state, order, outcome, a, d):
        diff, first, sign, any_hit, ca, cd = state
        if self.hit[outcome]:
            diff += a - d
            any_hit = any_hit or a > 0 or d > 0
        pos = self.position[outcome]
        if pos is not None and a != d and pos < first:
            first, sign = pos, (1 if a > d else -1)
        if self.crit[outcome]:
            ca, cd = min(ca + a, self.k), min(cd + d, self.k)
        return (diff, first, sign, any_hit, ca, cd)

    def final_outcome(self, state, order, outcomes, *sizes, melee=True):
        diff, _, sign, any_hit, ca, cd = state
        ca, cd = ca >= self.k, cd >= self.k
        back = melee and self.back
        if diff > 0:  # AM-3
            return AttackOutcome(diff, 0, ca, cd)
        if diff < 0:
            return AttackOutcome(0, -diff if back else 0, ca, cd)
        if not any_hit and self.zero_tie == "miss":  # AM-5
            return AttackOutcome(0, 0, ca, cd)
        win = AttackOutcome(self.tie_damage, 0, ca, cd)
        lose = AttackOutcome(0, self.tie_damage if back else 0, ca, cd)
        if any_hit and sign:  # AM-4: the chain decides
            return win if sign > 0 else lose
        return icepool.Die([win, lose])  # SuperTieBreaker: half each


def icepool_rules_table_dice(
    max_pool: int, rules: Rules, attack_types: Iterable[str] = ATTACK_TYPES
) -> dict[tuple[int, int, str], icepool.Die]:
    """The table under ``rules`` as icepool ``Die`` objects, fresh evaluator and die."""
    evaluator = RulesEvaluator(rules)
    die = evaluator.die(rules)
    pools = {n: die.pool(n) for n in range(1, max_pool + 1)}
    return {
        (n, m, t): evaluator.evaluate(pools[n], pools[m], melee=(t == "melee"))
        for t in attack_types
        for n in pools
        for m in pools
    }


def icepool_rules_table(max_pool: int, rules: Rules, attack_types: Iterable[str] = ATTACK_TYPES) -> Table:
    """The table under ``rules`` as ``{(attack, defence, type): {outcome: Fraction}}``, by icepool."""
    return {k: die_to_fractions(v) for k, v in icepool_rules_table_dice(max_pool, rules, attack_types).items()}


# -- ours -------------------------------------------------------------------------------
def clear_our_caches() -> list[str]:
    """Clear every ``functools.cache`` reachable from the odds module and every cache of
    the counting module; return their names."""
    names = []
    for name, obj in vars(odds).items():
        if callable(getattr(obj, "cache_clear", None)):
            obj.cache_clear()
            names.append(name)
    counting.clear_caches()
    return sorted(names) + ["toolkit.angry_miniatures.counting (all)"]


def our_table_dists(max_pool: int, attack_types: Iterable[str] = ATTACK_TYPES, rules=None) -> dict:
    """The table as :class:`toolkit.prob.Distribution` objects."""
    sizes = range(1, max_pool + 1)
    return {(n, m, t): odds.opposed(n, m, t, rules) for t in attack_types for n in sizes for m in sizes}


def our_table(max_pool: int, attack_types: Iterable[str] = ATTACK_TYPES, rules=None) -> Table:
    """The table as ``{(attack, defence, type): {outcome: Fraction}}``, by ``opposed``."""
    return {k: dict(v.items()) for k, v in our_table_dists(max_pool, attack_types, rules).items()}


# -- brute force (only to arbitrate a disagreement) -------------------------------------
def brute_force(n: int, m: int, attack_type: str, zero_tie: str = "miss") -> dict[AttackOutcome, Fraction]:
    """Every face sequence of both rolls, judged literally by AM-3/4/5/7."""
    melee = attack_type == "melee"
    weights: Counter[AttackOutcome] = Counter()

    def counts(n: int) -> Counter[tuple[int, ...]]:
        return Counter(tuple(seq.count(f) for f in range(6)) for seq in itertools.product(range(6), repeat=n))

    side_a, side_d = counts(n), counts(m)
    for a, wa in side_a.items():
        for d, wd in side_d.items():
            w = 2 * wa * wd  # doubled: a SuperTieBreaker splits its weight in two
            ha, hd = sum(a[HIT_MIN:]), sum(d[HIT_MIN:])
            ca, cd = a[ACE] >= 2, d[ACE] >= 2
            if ha > hd:
                weights[AttackOutcome(ha - hd, 0, ca, cd)] += w
            elif ha < hd:
                weights[AttackOutcome(0, (hd - ha) if melee else 0, ca, cd)] += w
            elif ha == 0 and zero_tie == "miss":
                weights[AttackOutcome(0, 0, ca, cd)] += w
            else:
                # Aces, then Kings, Queens, Jacks; tuple comparison = first difference.
                key_a, key_d = a[::-1][: 6 - HIT_MIN], d[::-1][: 6 - HIT_MIN]
                win_a = AttackOutcome(1, 0, ca, cd)
                win_d = AttackOutcome(0, 1 if melee else 0, ca, cd)
                if key_a > key_d:
                    weights[win_a] += w
                elif key_a < key_d:
                    weights[win_d] += w
                else:
                    weights[win_a] += w // 2
                    weights[win_d] += w // 2
    total = 2 * 6 ** (n + m)
    return {o: Fraction(w, total) for o, w in weights.items() if w}


# -- the explorer under house rules -----------------------------------------------------
EXPLORER_GOAL_SECONDS = 0.1


def explorer_changes(rules: Rules, changes: int, seed: int = 0) -> list[float]:
    """Seconds per control change of ``odds_explorer(rules=rules)``, each change to a new
    value (pools 0-15, attack type, crit size, hit faces), every cache cleared first."""
    import random

    from toolkit.angry_miniatures.widgets import odds_explorer

    rng = random.Random(seed)
    explorer = odds_explorer(rules=rules)  # the first build loads plotly: not counted
    choices = {
        "attack_dice": range(16),
        "defence_dice": range(16),
        "attack_type": ("melee", "ranged", "magic"),
        "crit_count": (1, 2, 3, 4),
        "hit_faces": (("10", "J", "Q", "K", "A"), ("J", "Q", "K", "A"), ("Q", "K", "A")),
    }
    names = list(choices)
    times = []
    for i in range(changes):
        control = explorer.controls[names[i % len(names)]]
        value = rng.choice([v for v in choices[names[i % len(names)]] if v != control.value])
        clear_our_caches()
        t0 = time.perf_counter()
        control.value = value
        times.append(time.perf_counter() - t0)
        if explorer.error:
            raise RuntimeError(f"the explorer refused {value!r}: {explorer.error}")
    return times


# -- comparing and timing ---------------------------------------------------------------
def differences(ours: Table, theirs: Table) -> list[tuple[int, int, str]]:
    """Keys where the two tables differ (missing keys count), smallest pools first."""
    keys = set(ours) | set(theirs)
    bad = [k for k in keys if ours.get(k) != theirs.get(k)]
    return sorted(bad, key=lambda k: (k[0] + k[1], k))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=12, help="compare pools 1..MAX (default 12)")
    parser.add_argument("--big", type=int, default=30, help="time our table 1..BIG (default 30)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of ours (default 3)")
    parser.add_argument(
        "--house-max", type=int, default=12, help="compare the house-rules tables 1..HOUSE_MAX (default 12)"
    )
    parser.add_argument("--explorer-changes", type=int, default=45, help="explorer changes timed (default 45)")
    args = parser.parse_args(argv)
    n_max, big = args.max, args.big

    cleared = clear_our_caches()
    print(f"Caches cleared before each timed run of ours: {', '.join(cleared)}")
    print(
        "icepool: fresh OpposedEvaluator + fresh die per run; Pool.clear_cache() and "
        "icepool.math.comb_row_cache cleared before each run"
    )
    print("Timed: building every exact distribution object (toolkit Distribution / icepool Die);")
    print("the conversion to Fractions for the comparison is not timed for either side.\n")

    # 1. ours, best of runs, caches cleared each time.
    ours_s, ours_dists = best_time(lambda: our_table_dists(n_max), args.runs, clear_our_caches)
    print(f"ours    {n_max}x{n_max} x {len(ATTACK_TYPES)} types: {fmt_s(ours_s)} (best of {args.runs})")

    # 2. icepool, once; a second run if the first was fast.
    ice_s, ice_dice = best_time(lambda: icepool_table_dice(n_max), 1, clear_icepool_caches)
    ice_runs = 1
    if ice_s < 10:
        again, ice_dice = best_time(lambda: icepool_table_dice(n_max), 1, clear_icepool_caches)
        ice_s, ice_runs = min(ice_s, again), 2
    print(f"icepool {n_max}x{n_max} x {len(ATTACK_TYPES)} types: {fmt_s(ice_s)} (best of {ice_runs})")
    ratio = ice_s / ours_s
    print(f"ratio icepool/ours: {ratio:.1f}x")

    # 3. exact comparison.
    ours_table = {k: dict(v.items()) for k, v in ours_dists.items()}
    ice_table = {k: die_to_fractions(v) for k, v in ice_dice.items()}
    bad = differences(ours_table, ice_table)
    cells = len(ours_table)
    if bad:
        print(f"\nMISMATCH in {len(bad)} of {cells} (attack, defence, type) cells; first: {bad[:5]}")
        for n, m, t in [k for k in bad if k[0] + k[1] <= 7][:3]:
            truth = brute_force(n, m, t)
            print(
                f"  {n} vs {m} {t}: brute force agrees with "
                f"ours={ours_table[n, m, t] == truth}, icepool={ice_table[n, m, t] == truth}"
            )
    else:
        print(f"\nTables agree exactly: {cells} cells, every outcome probability as a Fraction.")

    # 4. our big table against the goal.
    big_s, _ = best_time(lambda: our_table_dists(big), args.runs, clear_our_caches)
    big_verdict = "meets" if big_s < GOAL_SECONDS else "MISSES"
    print(
        f"ours    {big}x{big} x {len(ATTACK_TYPES)} types: {fmt_s(big_s)} (best of {args.runs}); "
        f"{big_verdict} the goal of < {GOAL_SECONDS:.0f} s"
    )

    # 5. house rules: ours against icepool on the same rules, same run.
    house_rows, house_bad = [], 0
    hmax = args.house_max
    for label, rules in HOUSE_RULES:
        h_ours_s, h_ours = best_time(lambda r=rules: our_table_dists(hmax, rules=r), args.runs, clear_our_caches)
        h_ice_s, h_ice = best_time(lambda r=rules: icepool_rules_table_dice(hmax, r), 1, clear_icepool_caches)
        h_bad = differences(
            {k: dict(v.items()) for k, v in h_ours.items()}, {k: die_to_fractions(v) for k, v in h_ice.items()}
        )
        house_bad += len(h_bad)
        h_ratio = h_ice_s / h_ours_s
        verdict = "meets" if h_ratio >= HOUSE_GOAL_RATIO else "MISSES"
        print(
            f"house rules, {label}: ours {fmt_s(h_ours_s)}, icepool {fmt_s(h_ice_s)}, icepool/ours {h_ratio:.1f}x "
            f"({verdict} the goal of >= {HOUSE_GOAL_RATIO:.0f}x); "
            + ("tables agree exactly" if not h_bad else f"MISMATCH in {len(h_bad)} cells: {h_bad[:3]}")
        )
        house_rows.append(
            f"| 1..{hmax} x 1..{hmax}, melee + ranged, {label} | {fmt_s(h_ours_s)} | {fmt_s(h_ice_s)} | "
            f"{h_ratio:.1f}x (goal >= {HOUSE_GOAL_RATIO:.0f}x: {verdict.lower()}) | "
            f"{'yes' if not h_bad else f'NO ({len(h_bad)} cells)'} |"
        )

    # 6. the explorer under house rules, the default rules as the reference.
    import statistics

    explorer_rows = []
    for label, rules in (("default rules", Rules()), ("custom die (as above)", HOUSE_RULES[-1][1])):
        times = explorer_changes(rules, args.explorer_changes)
        median, worst = statistics.median(times), max(times)
        verdict = "meets" if median < EXPLORER_GOAL_SECONDS else "MISSES"
        print(
            f"explorer, {label}: per change median {fmt_s(median)}, worst {fmt_s(worst)} "
            f"({verdict} the goal of < {EXPLORER_GOAL_SECONDS * 1000:.0f} ms)"
        )
        explorer_rows.append(f"| explorer change, {label} | median {fmt_s(median)}, worst {fmt_s(worst)} | — | — | — |")

    report = "\n".join(
        [
            "# Angry Miniatures opposed table: toolkit vs icepool",
            "",
            f"Python {platform.python_version()}, icepool {icepool.__version__}, "
            f"{platform.machine()}; run {time.strftime('%Y-%m-%d %H:%M')}. "
            "All figures from the same run; caches cleared before every timed run.",
            "",
            "| table | ours | icepool (MultisetEvaluator) | icepool / ours | exact agreement |",
            "|---|---|---|---|---|",
            f"| 1..{n_max} x 1..{n_max}, melee + ranged | {fmt_s(ours_s)} | {fmt_s(ice_s)} | "
            f"{ratio:.1f}x | {'yes' if not bad else f'NO ({len(bad)} cells)'} |",
            f"| 1..{big} x 1..{big}, melee + ranged | {fmt_s(big_s)} | — | — | goal < "
            f"{GOAL_SECONDS:.0f} s: {big_verdict.lower()} |",
            *house_rows,
            *explorer_rows,
            "",
        ]
    )
    publish(report, RESULTS)
    return 1 if bad or house_bad else 0


if __name__ == "__main__":
    sys.exit(main())
