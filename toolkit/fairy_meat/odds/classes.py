"""What the referee reads: classes of attacks it cannot tell apart, their representative
plays and judgements (FM-5, FM-8..FM-12)."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterable
from functools import cache, lru_cache

from toolkit.cards import Card
from toolkit.fairy_meat.deck import (
    ACE_OF_SPADES,
    ACE_TRUMP,
    BLACK_TRUMP,
    BLACK_TRUMPS_BUT_ACE,
    COLOURS,
    PIPS,
    RED_TRUMP,
    RED_TRUMPS,
    TRUMP_POOLS,
    numbered_pips,
    standard_layout,
    trump_pools,
    type_caps,
)
from toolkit.fairy_meat.legality import (
    hidden_trumps_owner,
    matches,
)
from toolkit.fairy_meat.odds.families import TRUMP_COLOUR, Family
from toolkit.fairy_meat.odds.outcomes import AttackOutcome, outcome_of
from toolkit.fairy_meat.referee import Play, resolve_attack
from toolkit.fairy_meat.rules import Rules

__all__ = [
    "PARALLEL_MIN_JUDGEMENTS",
    "DRAWS",
    "NO_DRAW",
    "side_view",
    "hidden_owner",
    "unhidden_by_draw",
    "SWAP",
    "class_key",
    "side_units",
    "build_play",
    "min_matching",
    "orientations",
    "swapped",
    "realisations",
    "bare_side",
    "class_reach",
    "representative_plays",
    "JUDGED",
    "judge_one",
    "judge_chunk",
    "judge_all",
    "kept_cheats",
    "SHIFTS",
    "cheat_shift",
    "fold_class",
    "deck_rules",
    "class_values",
]


#: Above this many referee judgements still to make, they are spread over two CPU cores
#: (forked workers; only from a single-threaded process).
PARALLEL_MIN_JUDGEMENTS = 2_000


DRAWS = ("wild", "blind")


NO_DRAW = (0, 0, 0)


def side_view(fam: Family, colour: str, drawn: tuple[int, int, int], owner: bool) -> tuple[tuple, int]:
    """A side as the referee sees it: (colour, sign if it matters, cheating Trumps applied,
    A♠ applied, matching / cheating / A♠ among Trumps she may still hide) and the offset
    her applied matching Trumps add to her pips (FM-5, FM-8, FM-12)."""
    m_p = ch_p = 0
    as_p = False
    if fam.placed is not None:
        pc, n, ace = fam.placed
        if matches(pc, colour):
            m_p = n + ace
        else:
            ch_p = n + ace
        as_p = ace
    m_a = ch_a = 0
    as_a = False
    if fam.wild is not None:
        if matches(TRUMP_COLOUR[fam.wild], colour):
            m_a += 1
        else:
            ch_a += 1
        as_a = fam.wild == "S"
    r1, b1, s1 = drawn
    if matches("red", colour):
        m_a += r1
        ch_a += b1 + s1
    else:
        m_a += b1 + s1
        ch_a += r1
    as_a = as_a or bool(s1)
    if not owner:
        m_a, ch_a, as_a = m_a + m_p, ch_a + ch_p, as_a or as_p
        m_p = ch_p = 0
        as_p = False
    return (colour, fam.sign if m_p else 0, ch_a, as_a, m_p, ch_p, as_p), fam.sign * m_a


def hidden_owner(
    fam_a: Family,
    fam_d: Family,
    rules: Rules | None = None,
    drawn: tuple[tuple[int, int, int], tuple[int, int, int]] = (NO_DRAW, NO_DRAW),
) -> str | None:
    """The side whose face-down Trumps stay hidden because the other said None (FM-5:
    :func:`~toolkit.fairy_meat.legality.hidden_trumps_owner` under ``rules``): a Wild
    Trump, or Trumps turned up (``drawn``, per side), are Trumps she plays."""
    other = tuple(fam.wild is not None or any(d) for fam, d in zip((fam_a, fam_d), drawn, strict=True))
    side = hidden_trumps_owner((fam_a.placed is not None, fam_d.placed is not None), other, rules)  # type: ignore[arg-type]
    return None if side is None else ("attacker", "defender")[side]


def unhidden_by_draw(fam_a: Family, fam_d: Family, rules: Rules | None = None) -> bool:
    """Whether the attacker's face-down Trumps, hidden so far, are revealed if the
    defender's blind draw turns up a Trump (FM-5 under ``none_means="no_trumps"``, FM-7):
    then :func:`hidden_owner` depends on the draw."""
    return (
        fam_d.kind == "blind"
        and hidden_owner(fam_a, fam_d, rules) == "attacker"
        and hidden_owner(fam_a, fam_d, rules, (NO_DRAW, (1, 0, 0))) is None
    )


SWAP = {"red": "black", "black": "red"}


def class_key(owner: str | None, va: tuple, vd: tuple | None) -> tuple:
    """The class key; without the A♠ the colours only matter as equal or not: red first."""
    aces = va[3] or va[6] or (vd is not None and (vd[3] or vd[6]))
    if not aces and va[0] == "black":
        va = (SWAP[va[0]], *va[1:])
        if vd is not None:
            vd = (SWAP[vd[0]], *vd[1:])
    return (owner, va, vd)


def side_units(view: tuple, m_a: int) -> tuple[int, int, int]:
    """(red, black but the A♠, A♠) Trumps a side with this view needs."""
    colour, _, ch_a, as_a, m_p, ch_p, as_p = view
    same, other = m_a + m_p, ch_a + ch_p
    red, black = (same, other) if colour == "red" else (other, same)
    ace = int(as_a or as_p)
    return red, black - ace, ace


@lru_cache(maxsize=65536)
def build_play(view: tuple, pips: int, m_a: int, side: int, sign: int, rules: Rules | None = None) -> Play:
    """A play standing for a side's view (FM-4..FM-8): cards of the rules' deck (its Trump
    pools and black death card, FM-1, FM-12; the draft's by default)."""
    colour, _, ch_a, as_a, m_p, ch_p, as_p = view
    other = SWAP[colour]
    source = TRUMP_POOLS if rules is None else trump_pools(rules)
    death = ACE_OF_SPADES if rules is None or rules.death_card is None else Card(rules.death_card)
    pools = {c: list(source[c]) if side == 0 else list(reversed(source[c])) for c in COLOURS}

    def take(c: str, n: int, ace: bool) -> list[Card]:
        cards = [death] if ace else []
        n -= len(cards)
        cards += pools[c][:n]
        del pools[c][:n]
        return cards

    placed: list[Card] = []
    if m_p:
        placed = take(colour, m_p, as_p)
    elif ch_p:
        placed = take(other, ch_p, as_p)
    ace_same = as_a and colour == "black"
    drawn = take(colour, m_a, ace_same) + take(other, ch_a, as_a and not ace_same)
    suit = ("H" if colour == "red" else "S") if side == 0 else ("D" if colour == "red" else "C")
    return Play(
        Card(f"{pips}{suit}"),
        trumps=tuple(placed),
        direction="add" if sign > 0 else "subtract",
        drawn=tuple(drawn),
        rules=rules,
    )


def min_matching(view: tuple) -> int:
    colour, _, _, as_a, *_ = view
    return 1 if (as_a and colour == "black") else 0


def orientations(key: tuple) -> list[tuple[tuple, tuple | None]]:
    """The class's two views, and with the colours swapped when the A♠ is not involved."""
    _, va, vd = key
    out = [(va, vd)]
    if not (va[3] or va[6] or (vd is not None and (vd[3] or vd[6]))):
        out.append((swapped(va), swapped(vd)))
    return out


def swapped(view: tuple | None) -> tuple | None:
    return None if view is None else (SWAP[view[0]], *view[1:])


def bare_side(key: tuple, rules: Rules | None) -> str | None:
    """The side of the class ``key`` that applies no Trump at all (FM-5): under
    ``none_means="no_trumps"`` (default) the one who said None while the other's
    face-down Trumps stay hidden; ``None`` under ``"no_face_down"`` or when nothing is hidden."""
    owner = key[0]
    if owner not in ("attacker", "defender") or (rules is not None and rules.none_means == "no_face_down"):
        return None
    return "defender" if owner == "attacker" else "attacker"


def _trump_caps(rules: Rules | None) -> tuple[int, int, int]:
    """(red Trumps, black Trumps but the death card, death cards) of the rules' deck."""
    if rules is None:
        return RED_TRUMPS, BLACK_TRUMPS_BUT_ACE, 1
    caps = type_caps(rules)
    return caps[RED_TRUMP], caps[BLACK_TRUMP], caps[ACE_TRUMP]


def realisations(
    a: tuple, d: tuple | None, bare: str | None = None, rules: Rules | None = None
) -> Iterable[tuple[int, int, int, int]]:
    """(attacker sign, defender sign, applied matching Trumps of each) that the deck's
    Trumps allow for these views, fewest Trumps first. A sign that does not matter to the
    referee (no Trump she may hide matches) is free. The ``bare`` side (:func:`bare_side`)
    applies no matching Trump. The deck is the rules' (the draft's by default)."""
    red, black, ace = _trump_caps(rules)
    top = red + black + ace + 1
    signs_a = (a[1],) if a[1] else (1, -1)
    signs_d = ((d[1],) if d[1] else (1, -1)) if d is not None else (1,)
    range_a = (0,) if bare == "attacker" else range(min_matching(a), top)
    for sa, sd, m_a in itertools.product(signs_a, signs_d, range_a):
        ua = side_units(a, m_a)
        for m_d in (0,) if (d is None or bare == "defender") else range(min_matching(d), top):
            ud = side_units(d, m_d) if d is not None else (0, 0, 0)
            if ua[0] + ud[0] > red or ua[1] + ud[1] > black or ua[2] + ud[2] > ace:
                break  # more matching Trumps only need more cards
            yield sa, sd, m_a, m_d


@cache
def class_reach(key: tuple, bare: str | None = None, rules: Rules | None = None) -> tuple[int, int]:
    """The smallest and largest difference of base values that cards realise in the class
    ``key`` (the attacker's base value when unopposed); ``bare``: :func:`bare_side`; the
    Numbered pips and Trumps of the rules' deck (the draft's by default)."""
    pips = PIPS if rules is None else numbered_pips(rules)
    low, high = min(pips), max(pips)
    lo, hi = 10**9, -(10**9)
    for a, d in orientations(key):
        for sa, sd, m_a, m_d in realisations(a, d, bare, rules):
            if d is None:
                lo, hi = min(lo, low + sa * m_a), max(hi, high + sa * m_a)
            else:
                lo, hi = min(lo, low - high + sa * m_a - sd * m_d), max(hi, high - low + sa * m_a - sd * m_d)
    return lo, hi


@cache
def class_values(key: tuple, bare: str | None, rules: Rules) -> frozenset[int]:
    """Every difference of base values that cards of the rules' deck realise in the class
    ``key`` (:func:`class_reach` gives the range, every value of which the draft's 2..10
    realise; a deck with gaps in its pips may not)."""
    pips = numbered_pips(rules)
    gaps = {pa - pd for pa in pips for pd in pips}
    out: set[int] = set()
    for a, d in orientations(key):
        for sa, sd, m_a, m_d in realisations(a, d, bare, rules):
            if d is None:
                out.update(p + sa * m_a for p in pips)
            else:
                out.update(g + sa * m_a - sd * m_d for g in gaps)
    return frozenset(out)


def representative_plays(
    key: tuple, delta: int, bare: str | None = None, rules: Rules | None = None
) -> tuple[Play, Play | None]:
    """A pair of plays in the class ``key`` whose base values differ by ``delta`` (for an
    unopposed defender: whose attacker base value is ``delta``); ``bare``: :func:`bare_side`;
    cards of the rules' deck (the draft's by default)."""
    pips = PIPS if rules is None else numbered_pips(rules)
    for a, d in orientations(key):
        for sa, sd, m_a, m_d in realisations(a, d, bare, rules):
            if d is None:
                pips_a, pips_d = delta - sa * m_a, 0
                if pips_a not in pips:
                    continue
            else:
                gap = delta - sa * m_a + sd * m_d  # pips_a - pips_d
                pips_d = next((p for p in pips if p + gap in pips), 0)
                if not pips_d:
                    continue
                pips_a = pips_d + gap
            play_a = build_play(a, pips_a, m_a, 0, sa, rules)
            play_d = build_play(d, pips_d, m_d, 1, sd, rules) if d is not None else None
            return play_a, play_d
    raise AssertionError(f"no cards realise the attack class {key!r} at difference {delta}")  # pragma: no cover


# Judgements by (rules, class key, delta); cleared by clear_caches().
JUDGED: dict[tuple, AttackOutcome] = {}


def judge_one(rules: Rules, key: tuple, delta: int) -> AttackOutcome:
    play_a, play_d = representative_plays(key, delta, bare_side(key, rules), deck_rules(rules))
    return outcome_of(resolve_attack(play_a, play_d, rules, explain=False))


def judge_chunk(args: tuple[Rules, list[tuple[tuple, int]]]) -> list[AttackOutcome]:
    rules, items = args
    return [judge_one(rules, key, delta) for key, delta in items]


def judge_all(items: list[tuple[tuple, int]], rules: Rules, workers: int | None = None) -> None:
    """Judge every (class, delta) not judged yet, on several cores when there are many."""
    todo = [(k, dl) for k, dl in items if (rules, k, dl) not in JUDGED]
    if not todo:
        return
    if workers is None:
        # Forking is only safe from a single-threaded process (not, say, a Jupyter kernel).
        workers = min(2, os.cpu_count() or 1) if threading.active_count() == 1 else 1
    if workers > 1 and len(todo) >= PARALLEL_MIN_JUDGEMENTS:
        import multiprocessing as mp

        try:
            ctx = mp.get_context("fork")
        except ValueError:  # pragma: no cover - platforms without fork
            ctx = None
        if ctx is not None:
            chunks = [todo[i::workers] for i in range(workers)]
            with ctx.Pool(workers) as pool:
                results = pool.map(judge_chunk, [(rules, c) for c in chunks])
            for chunk, res in zip(chunks, results, strict=True):
                for (k, dl), outcome in zip(chunk, res, strict=True):
                    JUDGED[(rules, k, dl)] = outcome
            return
    for k, dl in todo:
        JUDGED[(rules, k, dl)] = judge_one(rules, k, dl)


def kept_cheats(view: tuple) -> int:
    """Cheating Trumps of a side that must stay in a folded class: the A♠ when it is one
    (it still gives a Nasty Hit, FM-12)."""
    return 1 if (view[3] and view[0] == "red") else 0


SHIFTS: dict[tuple, int] = {}


def deck_rules(rules: Rules | None) -> Rules | None:
    """The rules whose deck the representative plays are dealt from: ``None`` (the
    draft's cards, as before house rules) when the deck is the draft's."""
    return None if rules is None or standard_layout(rules) else rules


def cheat_shift(rules: Rules, key: tuple) -> int:
    """How much the always-applied cheating Trumps of the class ``key`` move the difference
    of the two values (the attacker's value alone when unopposed), as the referee
    applies them: judged on a member of the class with nothing left hidden (FM-5), so
    the only choice left is the opponent's shift with each cheating Trump (FM-8), which
    the referee makes whatever the values."""
    owner, va, vd = key
    pa = (va[0], 0, va[2], va[3], 0, 0, False)
    pd = None if vd is None else (vd[0], 0, vd[2], vd[3], 0, 0, False)
    probe = ("unopposed" if owner == "unopposed" else None, pa, pd)
    cached = SHIFTS.get((rules, probe))
    if cached is None:
        deck = deck_rules(rules)
        base = 6 if vd is None else 0
        if deck is not None:  # a difference the rules' cards realise in the probe class
            base = min(class_values(probe, None, deck), key=lambda v: (abs(v - base), v))
        play_a, play_d = representative_plays(probe, base, None, deck)
        r = resolve_attack(play_a, play_d, rules, explain=False)
        cached = SHIFTS[(rules, probe)] = r.attacker_value - r.defender_value - base
    return cached


def fold_class(key: tuple, rules: Rules) -> tuple[tuple, int]:
    """The class judged in place of ``key``, and how far its difference moves.

    Cheating Trumps that are always applied (not hidden under FM-5) act only through
    the opponent's shifts (FM-8), which the referee chooses whatever the values: a
    class with them is judged as the class without them (the A♠ kept) at the
    difference moved by those shifts, as the referee reports them (:func:`cheat_shift`).
    The tests check every folded class against the referee."""
    owner, va, vd = key
    if va[2] <= kept_cheats(va) and (vd is None or vd[2] <= kept_cheats(vd)):
        return key, 0
    ra = (va[0], va[1], kept_cheats(va), *va[3:])
    rd = None if vd is None else (vd[0], vd[1], kept_cheats(vd), *vd[3:])
    reduced = (owner, ra, rd)
    return reduced, cheat_shift(rules, key) - cheat_shift(rules, reduced)
