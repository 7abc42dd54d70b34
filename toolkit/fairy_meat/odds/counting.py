"""Counting the Numbered cards of both hands jointly, by type, for the policies' choices (FM-1, FM-6)."""

from __future__ import annotations

import itertools
from functools import cache
from math import comb

from toolkit.fairy_meat.odds.families import ALL_TYPES, Spec

__all__ = ["split_count", "count_numbered", "spec_class", "drawn_counts", "count_tops"]


@cache
def split_count(cb: int, ca: int, cd: int, na: int, nd: int) -> int:
    """Ways to give the attacker ``na`` cards from the ``cb`` cards both may hold and the
    ``ca`` only she may hold, and then the defender ``nd`` from what is left of the ``cb``
    and the ``cd`` only she may hold."""
    if na < 0 or nd < 0:
        return 0
    return sum(comb(cb, i) * comb(ca, na - i) * comb(cb - i + cd, nd) for i in range(min(cb, na) + 1))


@cache
def count_numbered(na: int, nd: int, spec_a: Spec, spec_d: Spec, drawn: tuple[int, ...] = ()) -> int:
    """Number of ways to deal the Numbered parts of both hands (``na`` and ``nd`` cards,
    from the 36) and turn up specific Numbered cards of the ``drawn`` types from the rest,
    such that each hand meets its spec (see :class:`Choice`).

    Inclusion-exclusion on "holds type k"; a pinned specific card is taken out first."""
    if not drawn and spec_a[0] != "card" and spec_d[0] != "card":
        return count_tops(na, nd, spec_a, spec_d)
    left: dict[int, int] = {}
    mult = 1
    for z in drawn:
        c = left.get(z, 2)
        mult *= c
        left[z] = c - 1
    masks = []
    tops = []
    for spec, is_a in ((spec_a, True), (spec_d, False)):
        if spec[0] == "none":
            masks.append(0)
        elif spec[0] == "card":
            k = spec[1]
            c = left.get(k, 2)
            mult *= c
            left[k] = c - 1
            if is_a:
                na -= 1
            else:
                nd -= 1
            masks.append(spec[2] if len(spec) > 2 else ALL_TYPES)  # any Numbered type of the deck
        else:
            masks.append(spec[2])
            tops.append((0 if is_a else 1, spec[1]))
    if not mult or na < 0 or nd < 0:
        return 0
    total = 0
    for dropped in itertools.product((False, True), repeat=len(tops)):
        ma, md = masks
        sign = 1
        for (side, k), drop in zip(tops, dropped, strict=True):
            if drop:
                sign = -sign
                if side == 0:
                    ma &= ~(1 << k)
                else:
                    md &= ~(1 << k)
        both, a_only, d_only = ma & md, ma & ~md, md & ~ma
        cb, ca, cd = 2 * both.bit_count(), 2 * a_only.bit_count(), 2 * d_only.bit_count()
        for t, c in left.items():
            bit = 1 << t
            if both & bit:
                cb -= 2 - c
            elif a_only & bit:
                ca -= 2 - c
            elif d_only & bit:
                cd -= 2 - c
        total += sign * split_count(cb, ca, cd, na, nd)
    return mult * total


def spec_class(spec: Spec, t: int) -> tuple:
    """What a spec makes of a Numbered type turned up: the count only depends on this."""
    if spec[0] == "none":
        return ()
    if spec[0] == "card":
        return (t == spec[1],)
    return (t == spec[1], bool(spec[2] >> t & 1))


@cache
def drawn_counts(na: int, nd: int, spec_a: Spec, spec_d: Spec, present: int = ALL_TYPES) -> tuple[int, ...]:
    """:func:`count_numbered` with one specific card of each Numbered type turned up, for all 18
    types (types the specs treat alike are counted once; 0 for a type not in ``present``,
    the Numbered types of the rules' deck)."""
    seen: dict[tuple, int] = {}
    out = []
    for t in range(18):
        if not present >> t & 1:
            out.append(0)
            continue
        cls = (spec_class(spec_a, t), spec_class(spec_d, t))
        if cls not in seen:
            seen[cls] = count_numbered(na, nd, spec_a, spec_d, (t,))
        out.append(seen[cls])
    return tuple(out)


def count_tops(na: int, nd: int, spec_a: Spec, spec_d: Spec) -> int:
    """:func:`count_numbered` without pinned cards: each side "none" or "top"."""
    terms = [(1, 0, 0)]
    if spec_a[0] == "top":
        terms = [(1, spec_a[2], 0), (-1, spec_a[2] & ~(1 << spec_a[1]), 0)]
    if spec_d[0] == "top":
        md, kd = spec_d[2], spec_d[2] & ~(1 << spec_d[1])
        terms = [(sg, ma, md) for sg, ma, _ in terms] + [(-sg, ma, kd) for sg, ma, _ in terms]
    total = 0
    for sign, ma, md in terms:
        both = ma & md
        total += sign * split_count(
            2 * both.bit_count(), 2 * (ma ^ both).bit_count(), 2 * (md ^ both).bit_count(), na, nd
        )
    return total
