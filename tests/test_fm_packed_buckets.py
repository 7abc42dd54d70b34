"""The packed sums of the Fairy Meat weighing (weighing.packed_buckets) equal the sums made
one difference at a time, on random weights and counts and on a real calculation."""

from __future__ import annotations

import random

from toolkit.fairy_meat.odds import deals, weighing
from toolkit.fairy_meat.odds.weighing import Pending, packed_buckets, weigh_pair
from toolkit.fairy_meat.rules import Rules


def _one_at_a_time(weights: dict, diffs: dict) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for (kid, offset, diffs_id, colours), weight in weights.items():
        dd = diffs[diffs_id].get(colours)
        if not dd or not weight:
            continue
        bucket = out.setdefault(kid, {})
        for d, c in dd.items():
            bucket[d + offset] = bucket.get(d + offset, 0) + weight * c
    kept = {kid: {d: w for d, w in sorted(b.items()) if w} for kid, b in out.items()}
    return {kid: b for kid, b in kept.items() if b}  # zero weights and empty classes left out


def test_random_weights_and_counts() -> None:
    rng = random.Random(5)
    for _ in range(30):
        diffs = {
            i: {
                (c, "red"): {
                    rng.randint(-9, 9): rng.choice([0, rng.randint(1, 10 ** rng.randint(1, 40))])
                    for _ in range(rng.randint(0, 8))
                }
                for c in ("red", "black")
            }
            for i in range(rng.randint(1, 6))
        }
        weights = {
            (
                rng.randint(0, 5),
                rng.randint(-12, 12),
                rng.choice(list(diffs)),
                (rng.choice(["red", "black"]), "red"),
            ): rng.choice([0, rng.randint(1, 10 ** rng.randint(1, 60))])
            for _ in range(rng.randint(0, 60))
        }
        got = packed_buckets(weights, diffs)
        assert {k: b for k, b in got.items() if b} == _one_at_a_time(weights, diffs)


def test_a_real_calculation() -> None:
    rules = Rules()
    pols = deals.resolve_policies(("greedy", "greedy"))
    plays, diffs, deck, k, _ = deals.exact_plays(4, 2, pols, rules)
    pending = Pending()
    pending.diffs = diffs
    for (fam_a, fam_d, diffs_id, left), weight in plays.items():
        weigh_pair(pending, fam_a, fam_d, diffs_id, weight, left, deck, k, rules)
    for args, weight in pending.draws.items():
        weighing.expand_pair(pending, *args[:3], weight, *args[3:])
    pending.draws.clear()
    got = packed_buckets(pending.weights, diffs)
    assert {kid: b for kid, b in got.items() if b} == _one_at_a_time(pending.weights, diffs)
