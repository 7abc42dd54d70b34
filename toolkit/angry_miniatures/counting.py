"""Counting Angry Miniatures rolls for the exact calculators, for any valid house rules.

What the calculators of :mod:`.odds` need from one die is a :class:`DieModel`: how many
of its faces hit or not (AM-1), which of them crit (AM-7) and the tie-break chain (AM-4),
as multiplicities (a face written twice in ``Rules.die_faces`` counts twice).

The counting argument: a pool of ``n`` dice has ``C(n, h) H^h B^(n-h)`` face sequences
with ``h`` hits (``H`` hit faces, ``B`` blank faces), and given ``h`` hits the hit dice
are independent of the blank dice, each uniform over the hit faces. Since the chain
compares hit faces only (``Rules`` refuses anything else), a tie on ``h`` hits is decided
by the hit dice alone: its win/tie counts are computed once per ``h``, whatever the pools.

Two exact paths, chosen by :func:`die_model`:

- the **fast path** (:attr:`DieModel.fast`), the toolkit's original closed form: every hit
  face appears once on the die, the crit face is the first face of the chain (a hit),
  blanks never crit, and the chain reads all the hit faces but at most one (so by
  symmetry only the crit face's count and "the rest compared face by face" matter).
  The default rules (J Q K A hit, chain A K Q J, 2+ Aces crit) and e.g. "10s also hit"
  take it;
- the **general path** for every other valid rules (a face twice on the die, crits on
  other faces or on blanks, a short chain): a recursion over the chain's faces that
  carries each side's count of crit faces (capped at ``crit_count``), and the blank
  dice's crit faces convolved in per side.

Both are integer counts (no float anywhere); both are cross-checked in the tests against
an independent brute force over every face sequence, on many random rule sets.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from math import comb

from toolkit.angry_miniatures.rules import Rules

__all__ = [
    "clear_caches",
    "DieModel",
    "die_model",
    "side_counts",
    "tie_counts",
    "fast_tie_table",
    "chain_keys",
]


@dataclass(frozen=True)
class DieModel:
    """One die, as the calculators count it (AM-1, AM-4, AM-7).

    Attributes:
        faces: the number of faces (repeats counted).
        hits, blanks: how many faces hit / do not.
        hit_kinds: how many different faces hit.
        crit_count: dice with a crit face a crit needs (AM-7).
        hit_crit, blank_crit: how many hit / blank faces are crit faces.
        chain: the tie-break chain as ``(multiplicity, is a crit face)`` per face, in
            order (empty for ``tie_break="coin_flip"``: every tie to the SuperTieBreaker).
        rest_crit, rest_plain: hit faces not in the chain, crit faces / the others.
        fast: whether the original closed form holds (see the module's docstring).
    """

    faces: int
    hits: int
    blanks: int
    hit_kinds: int
    crit_count: int
    hit_crit: int
    blank_crit: int
    chain: tuple[tuple[int, bool], ...]
    rest_crit: int
    rest_plain: int
    coin_flip: bool
    fast: bool

    def __post_init__(self) -> None:
        # Hashed once: the model is a key of every cache here, asked per pool pair.
        object.__setattr__(self, "_hash", hash(dataclasses.astuple(self)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined,no-any-return]


def die_model(rules: Rules) -> DieModel:
    """Return the counting model of the die ``rules`` describe (AM-1, AM-4, AM-7)."""
    found = rules.__dict__.get("_die_model")  # kept on the (frozen) rules: asked per pool pair
    if found is None:
        found = _model(rules.die_faces, rules.hit_faces, rules.tie_break_order, rules.crit_faces,
                       rules.crit_count, rules.tie_break == "coin_flip")  # fmt: skip
        object.__setattr__(rules, "_die_model", found)
    return found


@cache
def _model(
    die: tuple[str, ...],
    hit_faces: tuple[str, ...],
    order: tuple[str, ...],
    crit_faces: tuple[str, ...],
    crit_count: int,
    coin_flip: bool,
) -> DieModel:
    mult = {f: die.count(f) for f in die}
    hits = sum(mult[f] for f in hit_faces)
    hit_crit = sum(mult[f] for f in hit_faces if f in crit_faces)
    blank_crit = sum(w for f, w in mult.items() if f not in hit_faces and f in crit_faces)
    chain = () if coin_flip else tuple((mult[f], f in crit_faces) for f in order)
    rest = [f for f in hit_faces if coin_flip or f not in order]
    fast = (
        all(mult[f] == 1 for f in hit_faces)
        and blank_crit == 0
        and len(crit_faces) == 1
        and crit_faces[0] in hit_faces
        and (coin_flip or (len(order) >= max(1, len(hit_faces) - 1) and order[0] == crit_faces[0]))
    )
    return DieModel(
        faces=len(die),
        hits=hits,
        blanks=len(die) - hits,
        hit_kinds=len(hit_faces),
        crit_count=crit_count,
        hit_crit=hit_crit,
        blank_crit=blank_crit,
        chain=chain,
        rest_crit=sum(mult[f] for f in rest if f in crit_faces),
        rest_plain=sum(mult[f] for f in rest if f not in crit_faces),
        coin_flip=coin_flip,
        fast=fast,
    )


# -- the fast path: hit faces once each, the crit face first in the chain ---------------
@cache
def _fast_hit_faces(h: int, kinds: int, k: int) -> tuple[int, int]:
    """Ways to put ``kinds`` hit faces on ``h`` hit dice: (without a crit, with a crit:
    ``k``+ of the crit face, AM-7)."""
    plain = sum(comb(h, a) * (kinds - 1) ** (h - a) for a in range(min(h, k - 1) + 1))
    return plain, kinds**h - plain


@cache
def _fast_side(n: int, kinds: int, blanks: int, k: int) -> tuple[tuple[int, int], ...]:
    """Per hit count h: face sequences of ``n`` dice with h hits, (no crit, crit)."""
    out = []
    for h in range(n + 1):
        plain, crit = _fast_hit_faces(h, kinds, k)
        ways = comb(n, h) * blanks ** (n - h)
        out.append((ways * plain, ways * crit))
    return tuple(out)


@cache
def _lex(h: int, kinds: int) -> tuple[int, int]:
    """(wins, ties) among all ordered pairs of length-``h`` face sequences over ``kinds``
    face kinds, compared by count of the top kind, then the next, ... (AM-4)."""
    if kinds == 0:
        return (0, 1 if h == 0 else 0)  # no face left for the dice: no sequence unless no dice
    if kinds == 1 or h == 0:
        return (0, 1)  # one kind left (or no dice): the sequences are equal
    rest = kinds - 1
    counts = [comb(h, a) * rest ** (h - a) for a in range(h + 1)]
    wins = ties = below = 0
    for a in range(h + 1):
        wins += counts[a] * below
        below += counts[a]
        w, t = _lex(h - a, rest)
        wins += comb(h, a) ** 2 * w
        ties += comb(h, a) ** 2 * t
    return wins, ties


@cache
def fast_tie_table(h: int, coin_flip: bool, kinds: int, k: int) -> dict[tuple[str, bool, bool], int]:
    """For two rolls tied on ``h`` >= 1 hits (fast path): pairs of hit-face sequences (out
    of ``kinds``^(2h)) by (who wins the chain — "attacker", "defender" or "stb" —
    attacker crit, defender crit)."""
    table: dict[tuple[str, bool, bool], int] = defaultdict(int)
    if coin_flip:
        plain, crit = _fast_hit_faces(h, kinds, k)
        for ca, wa in ((False, plain), (True, crit)):
            for cd, wd in ((False, plain), (True, crit)):
                table[("stb", ca, cd)] += wa * wd
        return dict(table)
    tops = [comb(h, a) * (kinds - 1) ** (h - a) for a in range(h + 1)]
    for a in range(h + 1):
        for b in range(h + 1):
            key = (a >= k, b >= k)
            if a > b:
                table[("attacker", *key)] += tops[a] * tops[b]
            elif a < b:
                table[("defender", *key)] += tops[a] * tops[b]
            else:
                w, t = _lex(h - a, kinds - 1)
                table[("attacker", *key)] += comb(h, a) ** 2 * w
                table[("defender", *key)] += comb(h, a) ** 2 * w
                table[("stb", *key)] += comb(h, a) ** 2 * t
    return dict(table)


# -- the general path ---------------------------------------------------------------------
@cache
def _free(r: int, i: int, model: DieModel) -> tuple[int, ...]:
    """Face sequences of ``r`` hit dice over the chain's faces from ``i`` on and the hit
    faces outside the chain, by their count of crit faces (capped at ``crit_count``)."""
    tail = model.chain[i:]
    crit = sum(m for m, c in tail if c) + model.rest_crit
    total = sum(m for m, _ in tail) + model.rest_crit + model.rest_plain
    k = model.crit_count
    out = [0] * (k + 1)
    if crit == 0:
        out[0] = total**r
        return tuple(out)
    for c in range(r + 1):
        out[min(c, k)] += comb(r, c) * crit**c * (total - crit) ** (r - c)
    return tuple(out)


@cache
def _lex_crits(h: int, i: int, model: DieModel) -> dict[tuple[int, int, int], int]:
    """Ordered pairs of length-``h`` hit-face sequences (faces from the chain's ``i``-th
    on, and the hit faces outside the chain), by (who wins the chain from face ``i`` on:
    1 the attacker, -1 the defender, 0 still tied; the attacker's crit-face count, the
    defender's, each capped at ``crit_count``) (AM-4, AM-7)."""
    k = model.crit_count
    out: dict[tuple[int, int, int], int] = defaultdict(int)
    if i == len(model.chain):
        f = _free(h, i, model)
        for x, wx in enumerate(f):
            for y, wy in enumerate(f):
                if wx and wy:
                    out[(0, x, y)] += wx * wy
        return dict(out)
    mult, is_crit = model.chain[i]
    below = [0] * (k + 1)  # sequences with fewer of this face, by crit count
    for a in range(h + 1):
        base = comb(h, a) * mult**a
        shift = a if is_crit else 0
        vec = [0] * (k + 1)
        for x, w in enumerate(_free(h - a, i + 1, model)):
            if w:
                vec[min(x + shift, k)] += base * w
        for x, wx in enumerate(vec):
            if wx:
                for y, wy in enumerate(below):
                    if wy:
                        out[(1, x, y)] += wx * wy  # the attacker has more of this face
                        out[(-1, y, x)] += wy * wx  # the defender has
        coef = comb(h, a) ** 2 * mult ** (2 * a)
        for (sign, x, y), w in _lex_crits(h - a, i + 1, model).items():
            out[(sign, min(x + shift, k), min(y + shift, k))] += coef * w
        for x, wx in enumerate(vec):
            below[x] += wx
    return dict(out)


@cache
def _blank_flags(r: int, model: DieModel) -> tuple[tuple[int, int], ...]:
    """For each count x of crit faces on the hit dice (capped): the sequences of ``r``
    blank dice that leave the roll (without a crit, with a crit) (AM-7)."""
    k, crit, total = model.crit_count, model.blank_crit, model.blanks
    counts = [0] * (k + 1)
    if crit == 0:
        counts[0] = total**r
    else:
        for c in range(r + 1):
            counts[min(c, k)] += comb(r, c) * crit**c * (total - crit) ** (r - c)
    everything = total**r
    out = []
    for x in range(k + 1):
        plain = sum(w for y, w in enumerate(counts) if x + y < k)
        out.append((plain, everything - plain))
    return tuple(out)


@cache
def _general_side(n: int, model: DieModel) -> tuple[tuple[int, int], ...]:
    out = []
    for h in range(n + 1):
        flags = _blank_flags(n - h, model)
        plain = crit = 0
        for x, w in enumerate(_free(h, 0, model)):
            if w:
                plain += w * flags[x][0]
                crit += w * flags[x][1]
        out.append((comb(n, h) * plain, comb(n, h) * crit))
    return tuple(out)


def side_counts(n: int, model: DieModel) -> tuple[tuple[int, int], ...]:
    """Per hit count h: face sequences of ``n`` dice with h hits, (no crit, crit); they
    add up to ``faces^n`` (AM-1, AM-7)."""
    if model.fast:
        return _fast_side(n, model.hit_kinds, model.blanks, model.crit_count)
    return _general_side(n, model)


@cache
def tie_counts(h: int, n: int, m: int, model: DieModel) -> dict[tuple[int, bool, bool], int]:
    """Face sequences of ``n`` attack dice and ``m`` defence dice with exactly ``h`` hits
    each, by (who wins the tie-break chain — 1 the attacker, -1 the defender, 0 a
    SuperTieBreaker —, attacker crit, defender crit) (general path; AM-4, AM-7)."""
    fa, fd = _blank_flags(n - h, model), _blank_flags(m - h, model)
    scale = comb(n, h) * comb(m, h)
    out: dict[tuple[int, bool, bool], int] = defaultdict(int)
    for (sign, x, y), w in _lex_crits(h, 0, model).items():
        for ca in (0, 1):
            if fa[x][ca]:
                for cd in (0, 1):
                    if fd[y][cd]:
                        out[(sign, bool(ca), bool(cd))] += scale * w * fa[x][ca] * fd[y][cd]
    return dict(out)


@cache
def chain_keys(h: int, model: DieModel) -> tuple[tuple[int, int], ...]:
    """For an attack roll tied on ``h`` hits with a defender (AM-8's area attack): per
    class of the attacker's hit faces (its counts of the chain's faces), ``(ways,
    2·#(defender sequences it beats) + #(sequences equal to it))``, out of ``hits^h``
    sequences each (AM-4). The 2 is the SuperTieBreaker's even split."""
    chain = [m for m, _ in model.chain]
    rest = model.rest_crit + model.rest_plain
    if not chain:
        return ((model.hits**h, model.hits**h),)
    # Partial classes (counts so far, dice left, ways), one face of the chain at a time;
    # the counts as one number in base h + 1, so that sorting numbers sorts them in the
    # chain's order (AM-4: more of the first face first).
    base = h + 1
    rows = [[comb(left, a) for a in range(left + 1)] for left in range(h + 1)]
    partial: list[tuple[int, int, int]] = [(0, h, 1)]
    for i, mult in enumerate(chain):
        if i == len(chain) - 1 and not rest:  # the last face takes every die left
            partial = [(key * base + left, 0, ways * mult**left) for key, left, ways in partial]
            break
        powers = [mult**a for a in range(h + 1)]
        partial = [
            (key * base + a, left - a, ways * c * powers[a])
            for key, left, ways in partial
            for a, c in enumerate(rows[left])
        ]
    classes = [(key, ways * rest**left) for key, left, ways in partial]
    classes.sort()
    keys, below = [], 0
    for _, ways in classes:
        keys.append((ways, 2 * below + ways))
        below += ways
    return tuple(keys)


def clear_caches() -> None:
    """Clear every cache of this module (benchmarks start each timed run cold)."""
    for value in list(globals().values()):
        if callable(getattr(value, "cache_clear", None)) and value is not clear_caches:
            value.cache_clear()
