"""Weighing classes of attacks by pips difference, then settling them through the referee (FM-6, FM-8)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from functools import cache
from typing import Any

from toolkit.fairy_meat.deck import (
    COLOURS,
    death_colour,
)
from toolkit.fairy_meat.odds.classes import (
    DRAWS,
    NO_DRAW,
    SideView,
    bare_side,
    class_key,
    class_reach,
    class_values,
    deck_rules,
    fold_class,
    hidden_role,
    judge_all,
    judged,
    side_view,
    unhidden_by_draw,
)
from toolkit.fairy_meat.odds.draws import double_draws, falling, single_draws
from toolkit.fairy_meat.odds.families import Family
from toolkit.fairy_meat.odds.outcomes import AttackOutcome
from toolkit.fairy_meat.rules import Rules

__all__ = [
    "Buckets",
    "VIEWS_CACHE",
    "draw_views",
    "trump_terms",
    "two_turned_up",
    "Pending",
    "weigh_pair",
    "expand_pair",
    "packed_buckets",
    "CLASS_KEYS",
    "CLASS_IDS",
    "class_id",
    "clear_views",
    "bound_views",
    "VIEWS_KEPT",
    "VIEW_IDS",
    "PAIR_CLASSES",
    "view_id",
    "cached_draw_view_ids",
    "pair_terms",
    "cached_draw_views",
    "cached_joint_views",
    "settle",
    "FOLDS",
    "FOLDS_KEPT",
]


Buckets = dict[tuple, dict[int, int]]


VIEWS_CACHE: dict[tuple, tuple] = {}

#: The rules with every field at its default: what ``None`` stands for (the draft's deck).
_DRAFT = Rules()


def trump_terms(rules: Rules | None) -> tuple[str, int]:
    """What the views need of the rules' Trumps (FM-8, FM-12): the death card's colour and
    what a matching Trump adds (("black", 1) for the draft)."""
    return (death_colour(rules), (_DRAFT if rules is None else rules).trump_value)


def draw_views(
    fam: Family, owner: bool, draws: Iterable[tuple[tuple[int, ...], int]], terms: tuple[str, int]
) -> dict[str, dict]:
    """For a drawing side, per colour of the Numbered card turned up: {(view, offset):
    weight}; ``terms``: :func:`trump_terms`."""
    out: dict[str, dict] = {}
    for colour in COLOURS:
        g: dict[tuple, int] = defaultdict(int)
        for drawn, w in draws:
            g[side_view(fam, colour, drawn, owner, *terms)] += w
        out[colour] = dict(g)
    return out


@cache
def two_turned_up(same: bool, pips: tuple[int, ...]) -> dict[int, int]:
    """Two specific Numbered cards turned up in turn from all the Numbered cards (both hands
    hold none; the Numbered cards of ``pips``, the rules'
    :func:`~toolkit.fairy_meat.deck.numbered_pips`, two of each colour), by pips difference,
    for colours equal or not: specific-card pairs.

    >>> two_turned_up(True, (2, 3))  # 2-2, 3-3: 2 ways each; 2-3, 3-2: 4 ways each
    {0: 4, -1: 4, 1: 4}
    """
    out: dict[int, int] = defaultdict(int)
    for p1 in pips:
        for p2 in pips:
            out[p1 - p2] += 2 * (1 if (same and p1 == p2) else 2)
    return dict(out)


class Pending:
    """Weights of (class id, offset, Numbered-card pair counts) before expansion: many
    Trump-count contexts share them, so the pips differences are expanded once each.
    Pairs of plays with Wild Trump draws wait in :attr:`draws` by everything their
    expansion reads, their weights added up, and are expanded once each (:meth:`buckets`)."""

    def __init__(self) -> None:
        # a weighing starts: the views and ids of earlier ones may be forgotten (each reads
        # its ids, :meth:`buckets`, before the next is made)
        bound_views()
        self.weights: dict[tuple, int] = defaultdict(int)
        self.diffs: dict[Hashable, Mapping[tuple[str, str | None], Mapping[int, int]]] = {}
        self.draws: dict[tuple, int] = defaultdict(int)
        #: :func:`pair_terms` by pair of plays (families, Trumps left, deck, draw span, rules)
        self.terms: dict[tuple, dict] = {}
        #: what :func:`pair_terms` shares between pairs of plays of this calculation
        self.memo: dict[tuple, Any] = {}

    def add(self, key: tuple, offset: int, weight: int, diffs_id: Hashable, colours: tuple[str, str | None]) -> None:
        self.weights[(class_id(key), offset, diffs_id, colours)] += weight

    def buckets(self) -> Buckets:
        for args, weight in self.draws.items():
            fam_a, fam_d, diffs_id, trumps_left, deck, k, rules = args
            expand_pair(self, fam_a, fam_d, diffs_id, weight, trumps_left, deck, k, rules)
        self.draws.clear()
        return {CLASS_KEYS[kid]: bucket for kid, bucket in packed_buckets(self.weights, self.diffs).items() if bucket}


def packed_buckets(
    weights: Mapping[tuple, int], diffs: Mapping[Hashable, Mapping[tuple[str, str | None], Mapping[int, int]]]
) -> dict[int, dict[int, int]]:
    """{class id: {difference: weight}} from the weights of (class id, offset, Numbered-card
    counts id, colours): each class's weights summed over every entry's counts by pips
    difference moved by its offset (exact integers, in ascending difference).

    The counts of a pair by difference are packed into one integer, a slot of ``width``
    bits per difference, wide enough for any sum (entries x largest weight x largest total
    of counts: every weight and count is a non-negative integer, so no slot carries into
    the next), so that an entry adds in one product instead of one per difference; the
    slots are read back at the end."""
    if not weights:
        return {}
    most = 0  # the largest total of counts of a pair
    for by_colours in diffs.values():
        for dd in by_colours.values():
            if dd:
                if min(dd.values()) < 0:  # pragma: no cover - counts are never negative
                    raise AssertionError("a negative count of Numbered cards")
                most = max(most, sum(dd.values()))
    if min(weights.values()) < 0:  # pragma: no cover - weights are never negative
        raise AssertionError("a negative weight")
    bound = len(weights) * max(weights.values()) * most
    size = bound.bit_length() // 8 + 1  # bytes a slot: more than any sum needs
    width = 8 * size
    packed: dict[tuple, tuple[int, int] | None] = {}
    at: dict[tuple[int, int], int] = {}  # by class and lowest difference
    for (kid, offset, diffs_id, colours), weight in weights.items():
        shape_key = (diffs_id, colours)
        got = packed.get(shape_key, 0)
        if got == 0:
            dd = diffs[diffs_id].get(colours)
            got = packed[shape_key] = None
            if dd:
                low = min(dd)
                got = packed[shape_key] = (low, sum(c << (width * (d - low)) for d, c in dd.items()))
        if got is None or not weight:
            continue
        key = (kid, got[0] + offset)
        at[key] = at.get(key, 0) + weight * got[1]
    spans: dict[int, list[int]] = {}
    for (kid, lo), value in at.items():
        top = lo + (value.bit_length() - 1) // width if value else lo
        span = spans.get(kid)
        if span is None:
            spans[kid] = [lo, top]
        else:
            span[0], span[1] = min(span[0], lo), max(span[1], top)
    acc: dict[int, int] = dict.fromkeys(spans, 0)
    for (kid, lo), value in at.items():
        acc[kid] += value << (width * (lo - spans[kid][0]))
    out: dict[int, dict[int, int]] = {}
    for kid, value in acc.items():
        low, high = spans[kid]
        data = value.to_bytes(size * (high - low + 1), "little")
        bucket = out[kid] = {}
        for i in range(high - low + 1):
            v = int.from_bytes(data[i * size : (i + 1) * size], "little")
            if v:
                bucket[low + i] = v
    return out


def weigh_pair(
    pending: Pending,
    fam_a: Family,
    fam_d: Family,
    diffs_id: Hashable,
    weight: int,
    trumps_left: tuple[int, ...],
    deck: int,
    k: int,
    rules: Rules | None = None,
) -> None:
    """Add one pair of plays to ``pending``.

    ``pending.diffs[diffs_id][(colour_a, colour_d)]`` counts the Numbered card pairs
    (played or turned up) by pips difference (attacker minus defender; the attacker's
    pips alone against an unopposed defender). ``weight`` multiplies everything; the
    draw law brings the common factor ``deck_(k)`` (and no draw brings it whole). Whose
    face-down Trumps stay hidden follows ``rules`` (FM-5); a blind draw turning up a Trump
    may reveal the attacker's (:func:`~.classes.unhidden_by_draw`). A pair with a draw
    waits in ``pending.draws`` (:class:`Pending`); :func:`expand_pair` adds it."""
    if fam_a.kind in DRAWS or fam_d.kind in DRAWS:
        pending.draws[(fam_a, fam_d, diffs_id, trumps_left, deck, k, rules)] += weight
        return
    expand_pair(pending, fam_a, fam_d, diffs_id, weight, trumps_left, deck, k, rules)


def expand_pair(
    pending: Pending,
    fam_a: Family,
    fam_d: Family,
    diffs_id: Hashable,
    weight: int,
    trumps_left: tuple[int, ...],
    deck: int,
    k: int,
    rules: Rules | None = None,
) -> None:
    """:func:`weigh_pair` done: the pair's classes and offsets (:func:`pair_terms`) added to
    ``pending.weights``."""
    weights = pending.weights  # (class id, offset, Numbered-card counts, colours) -> weight
    key = (fam_a, fam_d, trumps_left, deck, k, rules)
    by_colours = pending.terms.get(key)
    if by_colours is None:  # pairs of plays that differ only in their Numbered cards share it
        by_colours = pending.terms[key] = pair_terms(fam_a, fam_d, trumps_left, deck, k, rules, pending.memo)
    for cols, terms in by_colours.items():
        for kid, off, w in terms:
            weights[(kid, off, diffs_id, cols)] += weight * w


#: Class keys by id (:func:`class_id`), and their ids: the weighing's inner loops hash a
#: class by its id, not by its two side views. Cleared with :data:`VIEWS_CACHE` (which
#: holds the ids) by :func:`~.caches.clear_caches`.
CLASS_KEYS: list[tuple] = []
CLASS_IDS: dict[tuple, int] = {}


def class_id(key: tuple) -> int:
    """The id of the class ``key`` in :data:`CLASS_KEYS` (given it on first sight)."""
    kid = CLASS_IDS.get(key)
    if kid is None:
        kid = CLASS_IDS[key] = len(CLASS_KEYS)
        CLASS_KEYS.append(key)
    return kid


#: Side views by id (:func:`view_id`), and the class id of (who hides Trumps, attacker's
#: view id, defender's view id, -1 for none): :func:`class_key` made once per pair of views.
VIEW_IDS: dict[SideView, int] = {}
PAIR_CLASSES: dict[tuple[str | None, int, int], int] = {}


def view_id(view: SideView) -> int:
    """The id of a side view (given it on first sight)."""
    vid = VIEW_IDS.get(view)
    if vid is None:
        vid = VIEW_IDS[view] = len(VIEW_IDS)
    return vid


#: How many entries :data:`VIEWS_CACHE` may hold when a weighing starts (:class:`Pending`)
#: before they are forgotten with the ids they name: about the views of ten decks (the
#: draft's deck, hand sizes 1..5 v 1..5, fills about 1,500); without a bound a session
#: trying many decks (a tuning search over Trump worth or jokers) would keep every one.
VIEWS_KEPT = 15_000


def bound_views() -> None:
    """Forget the cached views and the class and view ids they name (:func:`clear_views`)
    when :data:`VIEWS_CACHE` holds more than :data:`VIEWS_KEPT` entries. Only where no
    weighing is in progress: the ids it holds would name other classes afterwards."""
    if len(VIEWS_CACHE) > VIEWS_KEPT:
        clear_views()


def clear_views() -> None:
    """Forget the cached views and the class and view ids they name (for benchmarks timing a
    cold start)."""
    VIEWS_CACHE.clear()
    CLASS_IDS.clear()
    CLASS_KEYS.clear()
    VIEW_IDS.clear()
    PAIR_CLASSES.clear()


def pair_terms(
    fam_a: Family,
    fam_d: Family,
    trumps_left: tuple[int, ...],
    deck: int,
    k: int,
    rules: Rules | None = None,
    memo: dict[tuple, Any] | None = None,
) -> dict[tuple[str | None, str | None], list[tuple[int, int, int]]]:
    """One pair of plays weighed once for every deal of its Numbered cards: per colours of
    the two Numbered cards (played or turned up, FM-6), the (class id, offset, weight)
    terms (:func:`class_id`, the offset the applied matching Trumps add, FM-8), in the
    order first met, a class and offset met twice added up; the weights of each colours
    add up to the draw law's ``deck_(k)`` (and no draw brings it whole). Whose face-down
    Trumps stay hidden follows ``rules`` (FM-5; a blind draw turning up a Trump may reveal
    the attacker's: :func:`~.classes.unhidden_by_draw`). A :class:`Pending` keeps them for
    its calculation (:func:`expand_pair`), and its ``memo`` the terms of a side's draw
    against the other side's view, which many pairs of families share (one calculation's:
    one deck and draw span, one rule set)."""
    terms = trump_terms(rules)
    owner = hidden_role(fam_a, fam_d, rules)
    unhide = unhidden_by_draw(fam_a, fam_d, rules)
    draw_a, draw_d = fam_a.kind in DRAWS, fam_d.kind in DRAWS
    full = falling(deck, k)
    out: dict[tuple[str | None, str | None], dict[tuple[int, int], int]] = {}

    def add_id(cols: tuple[str | None, str | None], kid: int, off: int, w: int) -> None:
        g = out.get(cols)
        if g is None:
            g = out[cols] = {}
        g[(kid, off)] = g.get((kid, off), 0) + w

    def add(cols: tuple[str | None, str | None], key: tuple, off: int, w: int) -> None:
        add_id(cols, class_id(key), off, w)

    classes = PAIR_CLASSES

    def pair_class(who: str | None, va: SideView, id_a: int, vd: SideView | None, id_d: int) -> int:
        kid = classes.get((who, id_a, id_d))
        if kid is None:
            kid = classes[(who, id_a, id_d)] = class_id(class_key(who, va, vd))
        return kid

    if fam_d.kind == "unopposed":
        mine = owner == "attacker"
        if draw_a:
            for colour, views in cached_draw_view_ids(fam_a, mine, trumps_left, deck, k, terms).items():
                for id_a, va, off, w in views:
                    add_id((colour, None), pair_class("unopposed", va, id_a, None, -1), off, w)
        else:
            va, off = side_view(fam_a, fam_a.colour or "red", NO_DRAW, mine, *terms)
            add((fam_a.colour or "red", None), class_key("unopposed", va, None), off, full)
    elif not draw_a and not draw_d:
        va, off_a = side_view(fam_a, fam_a.colour or "red", NO_DRAW, owner == "attacker", *terms)
        vd, off_d = side_view(fam_d, fam_d.colour or "red", NO_DRAW, owner == "defender", *terms)
        add((fam_a.colour, fam_d.colour), class_key(owner, va, vd), off_a - off_d, full)
    elif draw_d and not draw_a:
        va, off_a = side_view(fam_a, fam_a.colour or "red", NO_DRAW, owner == "attacker", *terms)
        va_up, off_a_up = side_view(fam_a, fam_a.colour or "red", NO_DRAW, False, *terms)
        # the attacker's family is read only through her views: families alike there share it
        memo_key = (
            "defender draws",
            owner,
            unhide,
            va,
            off_a,
            va_up,
            off_a_up,
            fam_a.colour,
            fam_d,
            trumps_left,
            deck,
            k,
            terms,
        )
        got = memo.get(memo_key) if memo is not None else None
        if got is not None:
            return got  # type: ignore[no-any-return]
        id_a, id_up = view_id(va), view_id(va_up)
        for colour, views in cached_draw_view_ids(fam_d, owner == "defender", trumps_left, deck, k, terms).items():
            if not views:
                continue
            g = out.setdefault((fam_a.colour, colour), {})
            for id_d, vd, off_d, w in views:
                if unhide and (vd[2] or vd[3] or off_d):  # she turned up a Trump: not None (FM-5)
                    pair = (None, id_up, id_d)
                    kid = classes.get(pair)
                    if kid is None:
                        kid = classes[pair] = class_id(class_key(None, va_up, vd))
                    term = (kid, off_a_up - off_d)
                else:
                    pair = (owner, id_a, id_d)
                    kid = classes.get(pair)
                    if kid is None:
                        kid = classes[pair] = class_id(class_key(owner, va, vd))
                    term = (kid, off_a - off_d)
                g[term] = g.get(term, 0) + w
        got = {cols: [(kid, off, w) for (kid, off), w in g.items()] for cols, g in out.items()}
        if memo is not None:
            memo[memo_key] = got
        return got
    elif draw_a and not draw_d:
        vd, off_d = side_view(fam_d, fam_d.colour or "red", NO_DRAW, owner == "defender", *terms)
        # the defender's family is read only through her view: families alike there share it
        memo_key = ("attacker draws", owner, vd, off_d, fam_d.colour, fam_a, trumps_left, deck, k, terms)
        got = memo.get(memo_key) if memo is not None else None
        if got is not None:
            return got  # type: ignore[no-any-return]
        id_d = view_id(vd)
        for colour, views in cached_draw_view_ids(fam_a, owner == "attacker", trumps_left, deck, k, terms).items():
            if not views:
                continue
            g = out.setdefault((colour, fam_d.colour), {})
            for id_a, va, off_a, w in views:
                pair = (owner, id_a, id_d)
                kid = classes.get(pair)
                if kid is None:
                    kid = classes[pair] = class_id(class_key(owner, va, vd))
                term = (kid, off_a - off_d)
                g[term] = g.get(term, 0) + w
        got = {cols: [(kid, off, w) for (kid, off), w in g.items()] for cols, g in out.items()}
        if memo is not None:
            memo[memo_key] = got
        return got
    else:
        joint = cached_joint_views(fam_a, fam_d, owner, trumps_left, deck, k, unhide, terms)
        return {cols: [(kid, off, w) for (kid, off), w in g.items()] for cols, g in joint.items()}
    return {cols: [(kid, off, w) for (kid, off), w in g.items()] for cols, g in out.items()}


def cached_draw_views(
    fam: Family, owner: bool, trumps_left: tuple[int, ...], deck: int, k: int, terms: tuple[str, int]
) -> dict[str, dict]:
    """:func:`draw_views` of one side's draw from a deck of ``deck`` cards holding
    ``trumps_left`` Trumps by kind (FM-6), cached."""
    key = ("single", fam, owner, trumps_left, deck, k, terms)
    got = VIEWS_CACHE.get(key)
    if got is None:
        got = draw_views(fam, owner, single_draws(trumps_left, deck, k), terms)
        VIEWS_CACHE[key] = got
    return got


def cached_draw_view_ids(
    fam: Family, owner: bool, trumps_left: tuple[int, ...], deck: int, k: int, terms: tuple[str, int]
) -> dict[str, list[tuple[int, SideView, int, int]]]:
    """:func:`cached_draw_views` as lists of (view id, view, offset, weight) (:func:`view_id`), cached."""
    key = ("single ids", fam, owner, trumps_left, deck, k, terms)
    got = VIEWS_CACHE.get(key)
    if got is None:
        views = cached_draw_views(fam, owner, trumps_left, deck, k, terms)
        got = VIEWS_CACHE[key] = {
            colour: [(view_id(v), v, off, w) for (v, off), w in g.items()] for colour, g in views.items()
        }
    return got  # type: ignore[no-any-return]


def cached_joint_views(
    fam_a: Family,
    fam_d: Family,
    owner: str | None,
    trumps_left: tuple[int, ...],
    deck: int,
    k: int,
    unhide: bool,
    terms: tuple[str, int],
) -> dict[tuple[str, str], dict]:
    """Both sides draw: per (colour turned up for each), {(class id, offset): weight}
    (:func:`class_id`).
    With ``unhide``, a Trump turned up by the defender reveals the attacker's face-down
    Trumps (FM-5: she has not said None)."""
    key = ("double", fam_a, fam_d, owner, trumps_left, deck, k, unhide, terms)
    got = VIEWS_CACHE.get(key)
    if got is not None:
        return got
    out: dict[tuple[str, str], dict] = {}
    # each draw indexes its attacker's side (Trumps she turned up, who hides Trumps) and its
    # defender's once; the four colour pairs then read their views by index
    sides_a: dict[tuple, int] = {}
    sides_d: dict[tuple[int, ...], int] = {}
    indexed = []
    for d1, d2, w in double_draws(trumps_left, deck, k):
        here = None if (unhide and any(d2)) else owner
        ia = sides_a.get((d1, here))
        if ia is None:
            ia = sides_a[(d1, here)] = len(sides_a)
        i_d = sides_d.get(d2)
        if i_d is None:
            i_d = sides_d[d2] = len(sides_d)
        indexed.append((ia, i_d, w))
    heres = [here for _, here in sides_a]
    classes = PAIR_CLASSES
    for ca in COLOURS:
        views_a = []
        for d1, here in sides_a:
            view, off = side_view(fam_a, ca, d1, here == "attacker", *terms)
            views_a.append((view, off, view_id(view)))
        for cd in COLOURS:
            views_d = []
            for d2 in sides_d:
                view, off = side_view(fam_d, cd, d2, owner == "defender", *terms)
                views_d.append((view, off, view_id(view)))
            g: dict[tuple, int] = {}
            for ia, i_d, w in indexed:
                va, vd, here = views_a[ia], views_d[i_d], heres[ia]
                pair = (here, va[2], vd[2])
                kid = classes.get(pair)
                if kid is None:
                    kid = classes[pair] = class_id(class_key(here, va[0], vd[0]))
                term = (kid, va[1] - vd[1])
                g[term] = g.get(term, 0) + w
            out[(ca, cd)] = g
    VIEWS_CACHE[key] = out
    return out


#: What :func:`settle` folds each class into (:func:`~.classes.fold_class`: the class judged,
#: its shift, the range and values of differences cards realise in it), by rules (the
#: latest :data:`FOLDS_KEPT`), then by class key: classes recur from one calculation to the
#: next. Cleared by :func:`~.caches.clear_caches`.
FOLDS: dict[Rules, dict[tuple, tuple]] = {}

#: How many rule sets :data:`FOLDS` keeps.
FOLDS_KEPT = 8


def _folds(rules: Rules) -> dict[tuple, tuple]:
    table = FOLDS.get(rules)
    if table is None:
        table = FOLDS[rules] = {}
        while len(FOLDS) > FOLDS_KEPT:
            del FOLDS[next(iter(FOLDS))]
    return table


def settle(buckets: Buckets, rules: Rules, workers: int | None = None, fold: bool = True) -> dict[AttackOutcome, int]:
    """Judge every (class, difference) through the referee and add up the weights."""
    if fold:
        folded: Buckets = {}
        folds = _folds(rules)
        for key, bucket in buckets.items():
            got = folds.get(key)
            if got is None:
                reduced, shift = fold_class(key, rules)
                bare, deck = bare_side(reduced, rules), deck_rules(rules)
                lo, hi = class_reach(reduced, bare, deck)
                values = None if deck is None else class_values(reduced, bare, deck)
                got = folds[key] = (reduced, shift, lo, hi, values)
            reduced, shift, lo, hi, values = got
            for delta, w in bucket.items():
                if lo <= delta + shift <= hi and (values is None or delta + shift in values):
                    fb = folded.setdefault(reduced, {})
                    fb[delta + shift] = fb.get(delta + shift, 0) + w
                else:  # no cards reach that difference without the cheating Trumps: judge as it is
                    fb = folded.setdefault(key, {})
                    fb[delta] = fb.get(delta, 0) + w
        buckets = folded
    items = [(key, delta) for key, bucket in buckets.items() for delta, w in bucket.items() if w]
    judge_all(items, rules, workers)
    table = judged(rules)
    out: dict[AttackOutcome, int] = defaultdict(int)
    for key, bucket in buckets.items():
        for delta, w in bucket.items():
            if w:
                out[table[(key, delta)]] += w
    return dict(out)
