"""Independent brute force for Angry Miniatures, straight from the rule text.

Written without the toolkit's referee or calculators: every face sequence of both
pools is listed and judged by the draft's words (AM-1, AM-3, AM-4, AM-5, AM-7, AM-8).
Only for tiny pools: 6^(n+m) sequences.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

FACES = ("9", "10", "J", "Q", "K", "A")

#: The draft's numbers (AM-1, AM-3, AM-4, AM-5, AM-7) as a plain dict; a house-rules test
#: passes its own (tests/test_am_house_rules.py reads them off a ``Rules``).
DRAFT = {
    "die": list(FACES),
    "hits": {"J", "Q", "K", "A"},
    "chain": ["A", "K", "Q", "J"],  # AM-4: most Aces, then Kings, Queens, Jacks
    "crit": {"A"},
    "crit_count": 2,  # AM-7
    "tie_damage": 1,
    "return_damage": True,  # AM-3: melee hits back
    "zero_tie": "miss",
    "coin_flip": False,
}


def draft(zero_tie: str = "miss", coin_flip: bool = False) -> dict:
    """The draft's numbers with the two tie variants (AM-5, AM-4)."""
    return {**DRAFT, "zero_tie": zero_tie, "coin_flip": coin_flip}


def judge_with(a, d, melee, r):
    """[(weight out of 2, (defender damage, attacker damage))] for one pair of rolls, by the
    rule text with the numbers ``r`` (:data:`DRAFT`'s keys)."""
    ha = sum(f in r["hits"] for f in a)
    hd = sum(f in r["hits"] for f in d)
    back = melee and r["return_damage"]
    if ha > hd:
        return [(2, (ha - hd, 0))]
    if hd > ha:
        return [(2, (0, hd - ha if back else 0))]
    if ha == 0 and r["zero_tie"] == "miss":
        return [(2, (0, 0))]
    win, lose = (r["tie_damage"], 0), (0, r["tie_damage"] if back else 0)
    if ha > 0 and not r["coin_flip"]:
        for face in r["chain"]:
            if a.count(face) != d.count(face):
                return [(2, win if a.count(face) > d.count(face) else lose)]
    return [(1, win), (1, lose)]  # SuperTieBreaker: a fair 1/2 each


def judge(a, d, attack_type, zero_tie="miss", coin_flip=False):
    """Return [(weight out of 2, (defender damage, attacker damage))] for one pair of rolls (the draft)."""
    return judge_with(a, d, attack_type == "melee", draft(zero_tie, coin_flip))


def opposed_with(n, m, attack_type, r):
    """{(defender_damage, attacker_damage, attacker_crit, defender_crit): Fraction} with the numbers ``r``."""
    counts = Counter()
    for a in itertools.product(r["die"], repeat=n):
        for d in itertools.product(r["die"], repeat=m):
            crits = tuple(sum(f in r["crit"] for f in roll) >= r["crit_count"] for roll in (a, d))  # AM-7
            for w, dmg in judge_with(a, d, attack_type == "melee", r):
                counts[dmg + crits] += w
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def opposed_bf(n, m, attack_type="melee", zero_tie="miss", coin_flip=False):
    """{(defender_damage, attacker_damage, attacker_crit, defender_crit): Fraction} (the draft)."""
    return opposed_with(n, m, attack_type, draft(zero_tie, coin_flip))


def area_with(n, pools, r):
    """{damage tuple: Fraction} for one magic attack roll against several defenders (AM-8),
    with the numbers ``r``. Each tied pairing has its own SuperTieBreaker, independent of the others.
    """
    counts = Counter()
    for a in itertools.product(r["die"], repeat=n):
        per_defender = []
        for m in pools:
            c = Counter()
            for d in itertools.product(r["die"], repeat=m):
                for w, (dd, _) in judge_with(a, d, False, r):
                    c[dd] += w
            per_defender.append(c)
        for combo in itertools.product(*(c.items() for c in per_defender)):
            weight = 1
            for _, w in combo:
                weight *= w
            counts[tuple(dd for dd, _ in combo)] += weight
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def area_bf(n, pools, zero_tie="miss"):
    """{damage tuple: Fraction} for one magic attack roll against several defenders (AM-8), the draft."""
    return area_with(n, pools, draft(zero_tie))
