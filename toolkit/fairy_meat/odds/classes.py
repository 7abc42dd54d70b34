"""What the referee reads: classes of attacks it cannot tell apart, their representative
plays and judgements (FM-5, FM-8..FM-12)."""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict
from functools import cache, lru_cache
from typing import NamedTuple

from toolkit.cards import JOKERS, Card
from toolkit.fairy_meat.deck import (
    death_colour,
    numbered_pips,
    standard_layout,
    trump_pools,
)
from toolkit.fairy_meat.legality import (
    hidden_trumps_owner,
    matches,
)
from toolkit.fairy_meat.odds.compositions import kind_caps
from toolkit.fairy_meat.odds.families import Family, trump_colour
from toolkit.fairy_meat.odds.outcomes import AttackOutcome, outcome_of
from toolkit.fairy_meat.referee import Play, resolve_attack
from toolkit.fairy_meat.rules import Rules

__all__ = [
    "PARALLEL_MIN_JUDGEMENTS",
    "DRAWS",
    "NO_DRAW",
    "SideView",
    "side_view",
    "hidden_role",
    "hidden_owner",
    "unhidden_by_draw",
    "none_readings",
    "reading_free",
    "SWAP",
    "class_key",
    "allocate",
    "side_needs",
    "fits",
    "realisations_cache_clear",
    "build_play",
    "min_matching",
    "orientations",
    "swapped",
    "realisations",
    "bare_side",
    "class_reach",
    "representative_plays",
    "JUDGED",
    "JUDGED_KEPT",
    "judged",
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

#: The rules with every field at its default: what ``None`` stands for below (the draft's deck).
_DRAFT = Rules()


class SideView(NamedTuple):
    """A side as the referee sees it (FM-5, FM-8, FM-12): what tells her attacks apart
    beyond the offset her applied matching Trumps add to her pips (:func:`side_view`).

    Attributes:
        colour: her card's colour.
        sign: the direction of her hidden matching Trumps (+1 or -1), 0 when she hides none.
        cheats_applied: cheating Trumps applied.
        death_applied: whether the death card is among her applied Trumps.
        matching_hidden, cheats_hidden: matching and cheating Trumps among those she may still hide.
        death_hidden: whether the death card is among those she may still hide.
    """

    colour: str
    sign: int
    cheats_applied: int
    death_applied: bool
    matching_hidden: int
    cheats_hidden: int
    death_hidden: bool


def _view(*fields: object) -> SideView:
    # tuple.__new__ skips NamedTuple's Python-level constructor: views are built in the
    # weighing's inner loops.
    return tuple.__new__(SideView, fields)


def side_view(
    fam: Family, colour: str, drawn: tuple[int, ...], owner: bool, death: str = "black", worth: int = 1
) -> tuple[SideView, int]:
    """A side as the referee sees it (:class:`SideView`) and the offset her applied
    matching Trumps add to her pips (FM-5, FM-8, FM-12).

    ``drawn``: the Trumps turned up, (red, black but the death card, the death card) and
    the jokers when the rules add them; ``death``: the death card's colour (the A♠'s,
    black, by default); ``worth``: what one matching Trump adds (``Rules.trump_value``).
    A joker matches every card (FM-8 under the house rules)."""
    matching_hidden = cheats_hidden = 0
    death_hidden = False
    if fam.placed is not None:
        pc, n, ace = fam.placed[:3]
        jokers = fam.placed[3] if len(fam.placed) > 3 else 0
        if matches(pc, colour):
            matching_hidden = n + ace + jokers
        else:
            cheats_hidden, matching_hidden = n + ace, jokers
        death_hidden = ace
    matching_applied = cheats_applied = 0
    death_applied = False
    if fam.wild is not None:
        if matches(trump_colour(fam.wild, death), colour):
            matching_applied += 1
        else:
            cheats_applied += 1
        death_applied = fam.wild == "S"
    r1, b1, s1 = drawn[:3]
    if matches("red", colour):
        matching_applied += r1
        cheats_applied += b1
    else:
        matching_applied += b1
        cheats_applied += r1
    if s1:
        if matches(death, colour):
            matching_applied += s1
        else:
            cheats_applied += s1
        death_applied = True
    if len(drawn) > 3:
        matching_applied += drawn[3]
    if not owner:
        matching_applied += matching_hidden
        cheats_applied += cheats_hidden
        death_applied = death_applied or death_hidden
        matching_hidden = cheats_hidden = 0
        death_hidden = False
    view = _view(
        colour,
        fam.sign if matching_hidden else 0,
        cheats_applied,
        death_applied,
        matching_hidden,
        cheats_hidden,
        death_hidden,
    )
    return view, fam.sign * matching_applied * worth


def hidden_role(
    fam_a: Family,
    fam_d: Family,
    rules: Rules | None = None,
    drawn: tuple[tuple[int, int, int], tuple[int, int, int]] = (NO_DRAW, NO_DRAW),
) -> str | None:
    """The role (``"attacker"`` or ``"defender"``; ``None`` if nobody) whose face-down Trumps stay
    hidden because the other said None (FM-5:
    :func:`~toolkit.fairy_meat.legality.hidden_trumps_owner` under ``rules``): a Wild
    Trump, or Trumps turned up (``drawn``, per side), are Trumps she plays."""
    other = tuple(fam.wild is not None or any(d) for fam, d in zip((fam_a, fam_d), drawn, strict=True))
    side = hidden_trumps_owner((fam_a.placed is not None, fam_d.placed is not None), other, rules)  # type: ignore[arg-type]
    return None if side is None else ("attacker", "defender")[side]


#: The former name of :func:`hidden_role`, kept for the hidden-Trumps solver's import only
#: (:func:`toolkit.fairy_meat.attack.hidden_owner` is the engine's, and answers with a side index).
hidden_owner = hidden_role


def unhidden_by_draw(fam_a: Family, fam_d: Family, rules: Rules | None = None) -> bool:
    """Whether the attacker's face-down Trumps, hidden so far, are revealed if the
    defender's blind draw turns up a Trump (FM-5 under ``none_means="no_trumps"``, FM-7):
    then :func:`hidden_role` depends on the draw."""
    return (
        fam_d.kind == "blind"
        and hidden_role(fam_a, fam_d, rules) == "attacker"
        and hidden_role(fam_a, fam_d, rules, (NO_DRAW, (1, 0, 0))) is None
    )


def none_readings(rules: Rules | None) -> tuple[Rules, ...]:
    """``rules`` under every reading of who has said None (FM-5: ``Rules.none_means``)."""
    from dataclasses import replace
    from typing import get_args

    from toolkit.fairy_meat.rules import NoneMeans

    base = _DRAFT if rules is None else rules
    return tuple(base if base.none_means == v else replace(base, none_means=v) for v in get_args(NoneMeans))


def reading_free(fam_a: Family, fam_d: Family, readings: tuple[Rules, ...]) -> bool:
    """Whether every reading of who has said None (``readings``: :func:`none_readings`)
    hides the same side's face-down Trumps in this pair of plays, and lets a blind draw
    reveal them alike (FM-5: :func:`hidden_role`, :func:`unhidden_by_draw`): then the
    readings weigh its attacks alike (they read the rules through nothing else)."""
    seen = {(hidden_role(fam_a, fam_d, r), unhidden_by_draw(fam_a, fam_d, r)) for r in readings}
    return len(seen) == 1


SWAP = {"red": "black", "black": "red"}


def _has_death(view: SideView | None) -> bool:
    return view is not None and (view.death_applied or view.death_hidden)


def class_key(owner: str | None, va: SideView, vd: SideView | None) -> tuple:
    """The class key; without the A♠ the colours only matter as equal or not: red first."""
    # by index (colour, death applied, death hidden: SideView's 0, 3, 6), as _has_death
    # reads them: keys are built in the weighing's inner loops
    if va[0] == "black" and not (va[3] or va[6] or (vd is not None and (vd[3] or vd[6]))):
        return (owner, swapped(va), swapped(vd))
    return (owner, va, vd)


#: The Trump kinds a play is built from: red and black Trumps but the death card, the
#: death card, jokers (FM-1, FM-12).
KINDS = ("red", "black", "death", "joker")


def allocate(
    views: tuple[SideView | None, ...], matching: tuple[int, ...], caps: tuple[int, int, int, int], death: str
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]] | None, ...] | None:
    """Cards standing for each side's view with ``matching`` applied matching Trumps: per
    side (Trumps placed, Trumps applied), each by kind (:data:`KINDS`), from a deck of
    ``caps`` (red, black but the death card, death cards, jokers) whose death card is of
    colour ``death`` (FM-4, FM-8, FM-12); ``None`` when the deck cannot hold them.

    A placed set is of one colour, jokers joining it (FM-4): her matching ones beside
    cheating ones are jokers; other matching Trumps are of her card's colour while the
    deck has them, jokers beyond."""
    left = dict(zip(KINDS, caps, strict=True))
    sides: list = []
    flexible: list[tuple[dict[str, int], str, int]] = []
    for view, m in zip(views, matching, strict=True):
        if view is None:
            sides.append(None)
            continue
        colour = view.colour
        cheats_applied, death_applied = view.cheats_applied, view.death_applied
        matching_hidden, cheats_hidden, death_hidden = view.matching_hidden, view.cheats_hidden, view.death_hidden
        other = SWAP[colour]
        placed = dict.fromkeys(KINDS, 0)
        applied = dict.fromkeys(KINDS, 0)
        if cheats_hidden:  # a set of the other colour: its matching Trumps are jokers
            if death_hidden and death != other:
                return None
            placed[other] += cheats_hidden - death_hidden
            placed["joker"] += matching_hidden
        elif matching_hidden:
            if death_hidden and death != colour:
                return None
            flexible.append((placed, colour, matching_hidden - death_hidden))
        elif death_hidden:
            return None
        placed["death"] += death_hidden
        same = death_applied and death == colour
        cheat_ace = death_applied and not same
        if (same and m < 1) or (cheat_ace and cheats_applied < 1):
            return None
        applied["death"] += int(death_applied)
        applied[other] += cheats_applied - cheat_ace
        flexible.append((applied, colour, m - same))
        sides.append((placed, applied))
    for side in sides:
        for part in side or ():
            for kind, n in part.items():
                left[kind] -= n
    if any(n < 0 for n in left.values()):
        return None
    for part, colour, n in flexible:
        use = min(n, left[colour])
        part[colour] += use
        part["joker"] += n - use
        left[colour] -= use
        left["joker"] -= n - use
    if left["joker"] < 0:
        return None
    return tuple(None if side is None else tuple(tuple(part[k] for k in KINDS) for part in side) for side in sides)


@lru_cache(maxsize=65536)
def build_play(
    colour: str,
    pips: int,
    side: int,
    sign: int,
    placed: tuple[int, ...],
    applied: tuple[int, ...],
    rules: Rules | None = None,
) -> Play:
    """A play standing for a side's view (FM-4..FM-8): a Numbered card of ``colour`` and
    ``pips``, the Trumps ``placed`` face down and ``applied`` (turned up), each by kind
    (:data:`KINDS`, as :func:`allocate` gives them), cards of the rules' deck (its Trump
    pools, death card and jokers, FM-1, FM-12; the draft's by default). The attacker
    (``side`` 0) takes each kind from the front of its pool, the defender from the back,
    so two plays never share a card."""
    deck = _DRAFT if rules is None else rules
    source = trump_pools(deck)
    death = [] if deck.death_card is None else [Card(deck.death_card)]
    jokers = [Card(j) for j in JOKERS[: deck.jokers]]
    pools = {"red": list(source["red"]), "black": list(source["black"]), "death": death, "joker": jokers}
    if side == 1:
        pools = {k: v[::-1] for k, v in pools.items()}

    def take(counts: tuple[int, ...]) -> list[Card]:
        cards: list[Card] = []
        for kind, n in zip(KINDS, counts, strict=True):
            cards += pools[kind][:n]
            del pools[kind][:n]
        return cards

    placed_cards, drawn = take(placed), take(applied)
    suit = ("H" if colour == "red" else "S") if side == 0 else ("D" if colour == "red" else "C")
    return Play(
        Card(f"{pips}{suit}"),
        trumps=tuple(placed_cards),
        direction="add" if sign > 0 else "subtract",
        drawn=tuple(drawn),
        rules=rules,
    )


def min_matching(view: SideView, death: str = "black") -> int:
    """The fewest matching Trumps a side applies: 1 when the death card (of colour
    ``death``) is applied and matches her card (FM-12)."""
    return 1 if (view.death_applied and view.colour == death) else 0


def orientations(key: tuple) -> list[tuple[SideView, SideView | None]]:
    """The class's two views, and with the colours swapped when the A♠ is not involved."""
    _, va, vd = key
    out = [(va, vd)]
    if not (_has_death(va) or _has_death(vd)):
        out.append((swapped(va), swapped(vd)))
    return out


def swapped(view: SideView | None) -> SideView | None:
    """The view with her card of the other colour."""
    # tuple.__new__ as in _view: class keys are built in the weighing's inner loops.
    return None if view is None else tuple.__new__(SideView, (SWAP[view[0]], *view[1:]))


def bare_side(key: tuple, rules: Rules | None) -> str | None:
    """The side of the class ``key`` that applies no Trump at all (FM-5): under
    ``none_means="no_trumps"`` (default) the one who said None while the other's
    face-down Trumps stay hidden; ``None`` under ``"no_face_down"`` or when nothing is hidden."""
    owner = key[0]
    if owner not in ("attacker", "defender") or (rules is not None and rules.none_means == "no_face_down"):
        return None
    return "defender" if owner == "attacker" else "attacker"


@cache
def _trump_caps(rules: Rules | None) -> tuple[int, int, int, int]:
    """(red Trumps, black Trumps but the death card, death cards, jokers) of the rules' deck
    (the draft's for ``None``)."""
    return kind_caps(_DRAFT if rules is None else rules)[1:]  # type: ignore[return-value]


def _worth(rules: Rules | None) -> int:
    """What a matching Trump adds under the rules (FM-8; the draft's for ``None``)."""
    return (_DRAFT if rules is None else rules).trump_value


@cache
def side_needs(view: SideView, death: str) -> tuple[tuple[int, int, int, int], str, int] | None:
    """What a side with this view needs of the deck besides her applied matching Trumps
    (:func:`allocate` in closed form): the Trumps it must have by kind (:data:`KINDS`),
    the colour of her card, and the matching Trumps of that colour (or jokers) it needs
    beyond her applied ones; ``None`` when no cards realise the view."""
    colour = view.colour
    cheats_applied, death_applied = view.cheats_applied, view.death_applied
    matching_hidden, cheats_hidden, death_hidden = view.matching_hidden, view.cheats_hidden, view.death_hidden
    other = SWAP[colour]
    fixed = dict.fromkeys(KINDS, 0)
    flexible = 0
    if cheats_hidden:
        if death_hidden and death != other:
            return None
        fixed[other] += cheats_hidden - death_hidden
        fixed["joker"] += matching_hidden
    elif matching_hidden:
        if death_hidden and death != colour:
            return None
        flexible += matching_hidden - death_hidden
    elif death_hidden:
        return None
    fixed["death"] += death_hidden + int(death_applied)
    same = death_applied and death == colour
    if death_applied and not same and cheats_applied < 1:
        return None
    fixed[other] += cheats_applied - (death_applied and not same)
    return tuple(fixed[k] for k in KINDS), colour, flexible - same  # type: ignore[return-value]


def fits(needs: tuple, matching: tuple[int, ...], caps: tuple[int, int, int, int]) -> bool:
    """Whether the deck of ``caps`` holds the cards of both sides' :func:`side_needs`
    with ``matching`` applied matching Trumps each: :func:`allocate` is not ``None``."""
    red, black, aces, jokers = caps
    want = {"red": 0, "black": 0}
    for need, m in zip(needs, matching, strict=True):
        if need is None:
            continue
        (fr, fb, fs, fj), colour, flexible = need
        if m + flexible < 0:
            return False
        red, black, aces, jokers = red - fr, black - fb, aces - fs, jokers - fj
        want[colour] += m + flexible
    if min(red, black, aces, jokers) < 0:
        return False
    return max(0, want["red"] - red) + max(0, want["black"] - black) <= jokers


def realisations(
    a: tuple, d: tuple | None, bare: str | None = None, rules: Rules | None = None
) -> tuple[tuple[int, int, int, int], ...]:
    """(attacker sign, defender sign, applied matching Trumps of each) that the deck's
    Trumps allow for these views, fewest Trumps first. A sign that does not matter to the
    referee (no Trump she may hide matches) is free. The ``bare`` side (:func:`bare_side`)
    applies no matching Trump. The deck is the rules' (the draft's by default:
    :func:`fits` says whether it holds the cards)."""
    return _realisations(a, d, bare, _trump_caps(rules), death_colour(rules))


@cache
def _realisations(
    a: tuple, d: tuple | None, bare: str | None, caps: tuple[int, int, int, int], death: str
) -> tuple[tuple[int, int, int, int], ...]:
    needs_a, needs_d = side_needs(a, death), (None if d is None else side_needs(d, death))
    if needs_a is None or (d is not None and needs_d is None):
        return ()
    needs = (needs_a, needs_d)
    top = sum(caps) + 1
    signs_a = (a[1],) if a[1] else (1, -1)
    signs_d = ((d[1],) if d[1] else (1, -1)) if d is not None else (1,)
    range_a = (0,) if bare == "attacker" else range(min_matching(a, death), top)
    pairs = []
    for m_a in range_a:
        for m_d in (0,) if (d is None or bare == "defender") else range(min_matching(d, death), top):
            if not fits(needs, (m_a, m_d), caps):
                break  # more matching Trumps only need more cards
            pairs.append((m_a, m_d))
    return tuple((sa, sd, m_a, m_d) for sa, sd in itertools.product(signs_a, signs_d) for m_a, m_d in pairs)


def realisations_cache_clear() -> None:
    """Forget the cached :func:`realisations`, the deck's Trumps they read and the kept
    representative plays (for benchmarks timing a cold start)."""
    _realisations.cache_clear()
    _trump_caps.cache_clear()
    _representatives.cache_clear()


@cache
def class_reach(key: tuple, bare: str | None = None, rules: Rules | None = None) -> tuple[int, int]:
    """The smallest and largest difference of base values that cards realise in the class
    ``key`` (the attacker's base value when unopposed); ``bare``: :func:`bare_side`; the
    Numbered pips, Trumps and Trump worth of the rules' deck (the draft's by default)."""
    pips = numbered_pips(rules)
    low, high = min(pips), max(pips)
    w = _worth(rules)
    lo, hi = 10**9, -(10**9)
    for a, d in orientations(key):
        for sa, sd, m_a, m_d in realisations(a, d, bare, rules):
            if d is None:
                lo, hi = min(lo, low + sa * m_a * w), max(hi, high + sa * m_a * w)
            else:
                lo = min(lo, low - high + (sa * m_a - sd * m_d) * w)
                hi = max(hi, high - low + (sa * m_a - sd * m_d) * w)
    return lo, hi


@cache
def class_values(key: tuple, bare: str | None, rules: Rules) -> frozenset[int]:
    """Every difference of base values that cards of the rules' deck realise in the class
    ``key`` (:func:`class_reach` gives the range, every value of which the draft's 2..10
    realise; a deck with gaps in its pips, or Trumps worth more than 1, may not)."""
    pips = numbered_pips(rules)
    w = _worth(rules)
    bases: set[int] = set()
    offsets: set[int] = set()
    for a, d in orientations(key):
        if d is None:
            bases.update(pips)
        else:
            bases.update(pa - pd for pa in pips for pd in pips)
        offsets.update((sa * m_a - sd * m_d) * w for sa, sd, m_a, m_d in realisations(a, d, bare, rules))
    return frozenset(b + o for b in bases for o in offsets)


def representative_plays(
    key: tuple, delta: int, bare: str | None = None, rules: Rules | None = None
) -> tuple[Play, Play | None]:
    """A pair of plays in the class ``key`` whose base values differ by ``delta`` (for an
    unopposed defender: whose attacker base value is ``delta``); ``bare``: :func:`bare_side`;
    cards of the rules' deck (the draft's by default)."""
    pips = numbered_pips(rules)
    w = _worth(rules)
    death = death_colour(rules)
    for a, d in orientations(key):
        for sa, sd, m_a, m_d in realisations(a, d, bare, rules):
            if d is None:
                pips_a, pips_d = delta - sa * m_a * w, 0
                if pips_a not in pips:
                    continue
            else:
                gap = delta - (sa * m_a - sd * m_d) * w  # pips_a - pips_d
                pips_d = next((p for p in pips if p + gap in pips), 0)
                if not pips_d:
                    continue
                pips_a = pips_d + gap
            cards = allocate((a, d), (m_a, m_d), _trump_caps(rules), death)
            assert cards is not None and cards[0] is not None
            play_a = build_play(a[0], pips_a, 0, sa, *cards[0], rules)
            play_d = build_play(d[0], pips_d, 1, sd, *cards[1], rules) if cards[1] is not None else None
            return play_a, play_d
    raise AssertionError(f"no cards realise the attack class {key!r} at difference {delta}")  # pragma: no cover


#: Judgements by rules, then by (class key, delta): the rules are hashed once a calculation,
#: not once a judgement. The :data:`JUDGED_KEPT` rule sets used last are kept (a designer
#: who tries rule after rule in an explorer would otherwise hold every judgement of every
#: one: up to 200,000 a rule set); cleared by clear_caches().
JUDGED: OrderedDict[Rules, dict[tuple, AttackOutcome]] = OrderedDict()

#: How many rule sets' judgements :data:`JUDGED` keeps (a report's or a sweep's variants).
JUDGED_KEPT = 16


def judged(rules: Rules) -> dict[tuple, AttackOutcome]:
    """The judgements made under ``rules`` (:data:`JUDGED`), by (class key, delta); the
    rule set becomes the latest used, and the one used longest ago is forgotten when more
    than :data:`JUDGED_KEPT` are held (its judgements are made again if it comes back)."""
    table = JUDGED.get(rules)
    if table is None:
        table = JUDGED[rules] = {}
        while len(JUDGED) > JUDGED_KEPT:
            JUDGED.popitem(last=False)
    else:
        JUDGED.move_to_end(rules)
    return table


def judge_one(rules: Rules, key: tuple, delta: int) -> AttackOutcome:
    play_a, play_d = _representatives(key, delta, bare_side(key, rules), deck_rules(rules))
    return outcome_of(resolve_attack(play_a, play_d, rules, explain=False))


@lru_cache(maxsize=65536)
def _representatives(key: tuple, delta: int, bare: str | None, deck: Rules | None) -> tuple[Play, Play | None]:
    """:func:`representative_plays`, kept: rule sets that judge apart (FM-10) but deal from
    one deck judge the same plays."""
    return representative_plays(key, delta, bare, deck)


def judge_chunk(args: tuple[Rules, list[tuple[tuple, int]]]) -> list[AttackOutcome]:
    rules, items = args
    return [judge_one(rules, key, delta) for key, delta in items]


def judge_all(items: list[tuple[tuple, int]], rules: Rules, workers: int | None = None) -> None:
    """Judge every (class, delta) not judged yet, on several cores when there are many."""
    table = judged(rules)
    todo = [item for item in items if item not in table]
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
                for item, outcome in zip(chunk, res, strict=True):
                    table[item] = outcome
            return
    for k, dl in todo:
        table[(k, dl)] = judge_one(rules, k, dl)


def kept_cheats(view: SideView, death: str = "black") -> int:
    """Cheating Trumps of a side that must stay in a folded class: the death card (of
    colour ``death``) when it is one (it still gives a Nasty Hit, FM-12)."""
    return 1 if (view.death_applied and view.colour != death) else 0


SHIFTS: dict[tuple, int] = {}


def deck_rules(rules: Rules | None) -> Rules | None:
    """The rules whose deck the representative plays are dealt from, and whose Trumps'
    worth moves the values (FM-1, FM-8): ``None`` (the draft's cards, as before house
    rules) when the deck is the draft's and a Trump is worth 1."""
    if rules is None or (standard_layout(rules) and rules.trump_value == _DRAFT.trump_value):
        return None
    return rules


def _applied_only(view: SideView) -> SideView:
    """The view with nothing left hidden (FM-5): her applied Trumps only."""
    return _view(view.colour, 0, view.cheats_applied, view.death_applied, 0, 0, False)


def cheat_shift(rules: Rules, key: tuple) -> int:
    """How much the always-applied cheating Trumps of the class ``key`` move the difference
    of the two values (the attacker's value alone when unopposed), as the referee
    applies them: judged on a member of the class with nothing left hidden (FM-5), so
    the only choice left is the opponent's shift with each cheating Trump (FM-8), which
    the referee makes whatever the values."""
    owner, va, vd = key
    pa = _applied_only(va)
    pd = None if vd is None else _applied_only(vd)
    probe = ("unopposed" if owner == "unopposed" else None, pa, pd)
    cached = SHIFTS.get((rules, probe))
    if cached is None:
        deck = deck_rules(rules)
        base = 6 if vd is None else 0
        if deck is not None:  # a difference the rules' cards realise in the probe class
            values = class_values(probe, None, deck)
            if not values:  # the same error as representative_plays: no cards realise the class
                raise AssertionError(f"no cards realise the attack class {probe!r}")
            base = min(values, key=lambda v: (abs(v - base), v))
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
    death = death_colour(rules)
    if va.cheats_applied <= kept_cheats(va, death) and (vd is None or vd.cheats_applied <= kept_cheats(vd, death)):
        return key, 0
    ra = va._replace(cheats_applied=kept_cheats(va, death))
    rd = None if vd is None else vd._replace(cheats_applied=kept_cheats(vd, death))
    reduced = (owner, ra, rd)
    return reduced, cheat_shift(rules, key) - cheat_shift(rules, reduced)
