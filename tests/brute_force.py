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
HITS = {"J", "Q", "K", "A"}


def _tie_winner(a: tuple[str, ...], d: tuple[str, ...]) -> str | None:
    """AM-4: most Aces, then Kings, Queens, Jacks; None = SuperTieBreaker."""
    for face in ("A", "K", "Q", "J"):
        if a.count(face) != d.count(face):
            return "attacker" if a.count(face) > d.count(face) else "defender"
    return None


def judge(a, d, attack_type, zero_tie="miss", coin_flip=False):
    """Return [(weight out of 2, (defender damage, attacker damage))] for one pair of rolls."""
    ha = sum(f in HITS for f in a)
    hd = sum(f in HITS for f in d)
    melee = attack_type == "melee"
    if ha > hd:
        return [(2, (ha - hd, 0))]
    if hd > ha:
        return [(2, (0, hd - ha if melee else 0))]
    if ha == 0 and zero_tie == "miss":
        return [(2, (0, 0))]
    winner = None if (coin_flip or ha == 0) else _tie_winner(a, d)
    win, lose = (1, 0), (0, 1 if melee else 0)
    if winner == "attacker":
        return [(2, win)]
    if winner == "defender":
        return [(2, lose)]
    return [(1, win), (1, lose)]  # SuperTieBreaker: a fair 1/2 each


def opposed_bf(n, m, attack_type="melee", zero_tie="miss", coin_flip=False):
    """{(defender_damage, attacker_damage, attacker_crit, defender_crit): Fraction}."""
    counts = Counter()
    for a in itertools.product(FACES, repeat=n):
        for d in itertools.product(FACES, repeat=m):
            crits = (a.count("A") >= 2, d.count("A") >= 2)  # AM-7
            for w, dmg in judge(a, d, attack_type, zero_tie, coin_flip):
                counts[dmg + crits] += w
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def area_bf(n, pools, zero_tie="miss"):
    """{damage tuple: Fraction} for one magic attack roll against several defenders (AM-8).

    Each tied pairing has its own SuperTieBreaker, independent of the others.
    """
    counts = Counter()
    for a in itertools.product(FACES, repeat=n):
        per_defender = []
        for m in pools:
            c = Counter()
            for d in itertools.product(FACES, repeat=m):
                for w, (dd, _) in judge(a, d, "magic", zero_tie):
                    c[dd] += w
            per_defender.append(c)
        for combo in itertools.product(*(c.items() for c in per_defender)):
            weight = 1
            for _, w in combo:
                weight *= w
            counts[tuple(dd for dd, _ in combo)] += weight
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}
