"""Exact Fairy Meat hand and attack odds, by counting card *types* instead of cards.

Three questions, each answered exactly (``Fraction`` probabilities):

- :func:`hand_composition` / :func:`hand_compositions`: what a combat hand holds — how
  many Numbered cards, red and black Trumps, whether the A♠ (FM-1, FM-2).
- :func:`attack_odds`: the outcome of one attack between two known hands, under a pair
  of policies (:mod:`.policies`), by enumerating the engine (FM-3..FM-12).
- :func:`deal_averaged_odds`: the same averaged over every deal of two hand sizes from
  one deck — exactly while it is small enough, by Monte Carlo over the engine beyond
  (:data:`EXACT_LIMIT`).

The outcome of an attack is an :class:`AttackOutcome`: who won (FM-9), the points
(FM-10), the damage the defender takes (FM-10, either damage variant) and whether
someone suffers a Nasty Hit (FM-12).

How the exact calculation stays small
-------------------------------------
A deal is 5 + 3 cards from 52: about 4·10^10 deals. The calculator never lists them.

1. **Card types.** Cards of one type are interchangeable for the rules and for the
   policies: Numbered cards by (colour, pips), a red Trump, a black Trump other than
   the A♠, the A♠ (FM-1, FM-12). That is 21 types.
2. **Trumps in hand.** A hand's Trumps only count by type: (red, black, A♠). The
   calculator loops over the Trump counts of both hands (a few hundred pairs),
   weighted by hypergeometric counts.
3. **What a policy reads.** A policy's play depends on the hand only through a small
   summary. The greedy fairy plays the highest type of a fixed ranking that she holds
   (:func:`~.policies.greedy_order`, which depends only on her Trump counts), so "she
   plays type k" means "she holds k and no type ranked above it": a product-form
   count. The random fairy plays each of her Numbered cards with chance 1/n, so
   "she plays type k" counts (hand, card of type k) pairs. Both counts, jointly for
   the two hands drawn from one deck, come from one closed form (:func:`_count`).
4. **Wild Trump draws (FM-6, FM-7).** Cards are turned up until a Numbered card
   appears. The Numbered card is uniform over the Numbered cards left in the deck
   (counted as a pinned card in (3)); the Trumps turned up before it depend only on how
   many Trumps of each type and Numbered cards the deck holds (a negative
   hypergeometric law, :func:`_single_draws`, :func:`_double_draws`).
5. **What the referee reads.** :func:`~.referee.resolve_attack` judges every attack;
   this module never decides an attack itself. It asks the referee once per class of
   attacks the referee cannot tell apart: a side's Trumps matter only by whether they
   match her Numbered card's colour, whether they can still be hidden (FM-5) and
   whether the A♠ is among them; matching Trumps that are always applied add to her
   value like pips (FM-8); and only the difference of the two values matters, not
   their level (FM-9, FM-10), nor which colour is red when the A♠ is not involved.
   Cheating Trumps that are always applied act only through the opponent's shifts
   (FM-8), which the referee makes whatever the values: a class with them is judged as
   the class without them at the difference moved by those shifts — an amount read
   from the referee's own judgement of a probe attack (:func:`_fold`). Each class is
   judged once, on a representative pair of plays (:func:`_rep_plays`).

The tests check these classes against the referee on random real plays (folded and
unfolded) and on items of the 5 v 3 calculation, the draw law against the engine
turning cards up one by one, and the whole calculation against a brute force over every
deal of small hands and against Monte Carlo over the engine. The Numbered cards a fairy
holds but does not play never need listing.

>>> d = attack_odds(["5H"], ["3D"])
>>> d.items()
[(AttackOutcome(winner='attacker', points=1, damage=1, nasty_hit=False), Fraction(1, 1))]
>>> hand_composition(2).probability(lambda h: h.numbered == 0)
Fraction(20, 221)
"""

from __future__ import annotations

import itertools
import math
import os
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Any, NamedTuple

from toolkit.cards import Card, check_distinct, parse_cards, standard_deck
from toolkit.engine import Policy, play_out, policy_name, policy_pair
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.deck import (
    ACE_OF_SPADES,
    BLACK_TRUMPS_BUT_ACE,
    COLOURS,
    DECK_SIZE,
    NUMBERED_CARDS,
    PIPS,
    RED_TRUMPS,
    TRUMP_LETTERS,
    TRUMP_POOLS,
    TYPE_CAPS,
    hands_by_type,
    numbered_type,
    representative_hand,
    type_colour,
    type_index,
    type_pips,
    wild_draw_ways,
)
from toolkit.fairy_meat.engine import CombatState, start_combat
from toolkit.fairy_meat.legality import hidden_trumps_owner, matches, placed_type, trump_sets_by_type
from toolkit.fairy_meat.policies import (
    POLICIES,
    ace_is_upside,
    greedy_order,
    greedy_policy,
    random_policy,
)
from toolkit.fairy_meat.referee import AttackResult, Play, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.montecarlo import Estimate
from toolkit.prob import Distribution

__all__ = [
    "AttackOutcome",
    "HandComposition",
    "DealOdds",
    "EXACT_LIMIT",
    "GENERIC_EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "hand_composition",
    "hand_compositions",
    "attack_odds",
    "deal_averaged_odds",
    "exact_size",
    "outcome_of",
    "clear_caches",
]

#: ``method="auto"`` computes exactly while :func:`exact_size` is at most this, and by
#: Monte Carlo above it (``method="exact"`` above it raises :class:`TooBigError` before
#: starting). The size counts what the exact calculation weighs: over the Trump counts
#: of both hands and the policies' choices, each pair of Numbered card types played and
#: each result of a Wild Trump draw. It costs about 3-6 microseconds of CPU a unit, so
#: the limit keeps an exact answer under about 10 s. Greedy v greedy: 5 v 3 is about
#: 200,000 (exact, ~1 s), 10 v 6 about 790,000. Random v random: 2 v 1 about 1 million
#: (exact), 3 v 1 and 2 v 2 above the limit (Monte Carlo).
EXACT_LIMIT = 1_500_000

#: For policies the calculator has no counting model for (anything but
#: :data:`~.policies.POLICIES`), ``method="auto"`` and ``"exact"`` enumerate every pair
#: of hand *compositions* (counts of the 21 card types) and run :func:`attack_odds` on
#: each: allowed up to this many composition pairs (1 v 1: 440; 2 v 1: 4,792).
GENERIC_EXACT_LIMIT = 5_000

#: Monte Carlo trials when none are given (each plays one deal through the engine,
#: about 1-2 ms).
DEFAULT_TRIALS = 5_000

#: Above this many referee judgements still to make, they are spread over two CPU cores
#: (forked workers; only from a single-threaded process).
PARALLEL_MIN_JUDGEMENTS = 2_000


# -- outcome records ----------------------------------------------------------------------
class AttackOutcome(NamedTuple):
    """The result of one attack, as the odds report it.

    Attributes:
        winner: ``"attacker"``, ``"defender"`` or ``"draw"`` (FM-9: equal final values).
        points: points scored by the winner, ceil(difference / 2) (FM-10); 0 for a draw.
        damage: damage the defender takes (FM-10: 1 per point, or by the damage table
            with ``Rules(damage="table")``).
        nasty_hit: whether the A♠ gives someone a Nasty Hit (FM-12).

    The final values themselves are not part of the record: what a designer tunes is
    who wins and by how much, and the same cards can reach the same result at many
    values.
    """

    winner: str
    points: int
    damage: int
    nasty_hit: bool


def outcome_of(result: AttackResult) -> AttackOutcome:
    """Return the :class:`AttackOutcome` of a referee judgement."""
    return AttackOutcome(result.winner or "draw", result.points, result.damage, result.nasty_hit)


class HandComposition(NamedTuple):
    """What a combat hand holds, by kind (FM-1).

    Attributes:
        numbered: Numbered cards (2-10).
        red_trumps: red Trumps (J Q K A of hearts and diamonds).
        black_trumps: black Trumps, the A♠ included.
        ace_of_spades: whether the A♠ is among them (FM-12).
    """

    numbered: int
    red_trumps: int
    black_trumps: int
    ace_of_spades: bool


# -- checks -------------------------------------------------------------------------------
def _check_size(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InvalidSetupError(f"{what} must be a whole number of cards >= 0, got {n!r}")
    if n > DECK_SIZE:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds {DECK_SIZE} (FM-1)")
    return n


def _check_sizes(a: object, d: object) -> tuple[int, int]:
    a = _check_size(a, "the attacker's hand size")
    d = _check_size(d, "the defender's hand size")
    if a == 0:
        raise InvalidSetupError(
            "the attacker's hand size is 0: with no card she makes no attack (FM-13); give her at least 1 card"
        )
    if a + d > DECK_SIZE - 1:
        raise InvalidSetupError(
            f"hands of {a} and {d} cards leave {DECK_SIZE - a - d} in the {DECK_SIZE}-card deck: "
            "at least 1 must stay to be turned up (FM-6)"
        )
    return a, d


def _parse_hand(hand: str | Iterable[str | Card], who: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(hand)  # type: ignore[arg-type]
    except NotationError as e:
        raise NotationError(f"{who}'s hand: {e}") from None
    jokers = [c.code for c in cards if c.is_joker]
    if jokers:
        raise InvalidSetupError(f"{who}'s hand holds {', '.join(jokers)}: Fairy Meat uses 52 cards, no jokers (FM-1)")
    return cards


def _policies(policies: Sequence[str | Policy] | str | Policy) -> tuple[Policy, Policy]:
    return policy_pair(policies, POLICIES, ("attacker", "defender"))


def _policy_name(p: Policy) -> str:
    return policy_name(p, POLICIES)


# -- hand compositions (FM-1, FM-2) -----------------------------------------------------------
def _hand_splits(
    n: int, numbered: int = NUMBERED_CARDS, red: int = RED_TRUMPS, black: int = BLACK_TRUMPS_BUT_ACE, ace: int = 1
) -> Iterable[tuple[tuple[int, int, int, int], int]]:
    """(numbered, red, black but the A♠, A♠) counts of an ``n``-card hand and how many hands
    (:func:`~toolkit.fairy_meat.deck.hands_by_type` over those four kinds)."""
    for (s, r, b, k), w in hands_by_type(n, (ace, red, black, numbered)):
        yield (k, r, b, s), w


def _composition(k: int, r: int, b: int, s: int) -> HandComposition:
    return HandComposition(k, r, b + s, bool(s))


def hand_composition(n: int) -> Distribution[HandComposition]:
    """Return the exact distribution of what an ``n``-card combat hand holds (FM-1):
    Numbered cards, red Trumps, black Trumps (A♠ included) and the A♠ — a multivariate
    hypergeometric over the 52-card deck.

    >>> hand_composition(1).probability(lambda h: h.ace_of_spades)
    Fraction(1, 52)

    Raises:
        InvalidSetupError: ``n`` is not a whole number from 0 to 52.
    """
    n = _check_size(n, "the hand size")
    weights: dict[HandComposition, int] = {}
    for (k, r, b, s), w in _hand_splits(n):
        key = _composition(k, r, b, s)
        weights[key] = weights.get(key, 0) + w
    return Distribution.from_int_weights(weights)


def hand_compositions(a: int, d: int) -> Distribution[tuple[HandComposition, HandComposition]]:
    """Return the joint distribution of the attacker's ``a``-card hand and the defender's
    ``d``-card hand, dealt one after the other from one deck (FM-1, FM-2): pairs
    ``(attacker's HandComposition, defender's)``.

    >>> hand_compositions(1, 1).probability(lambda p: p[0].ace_of_spades and p[1].ace_of_spades)
    Fraction(0, 1)

    Raises:
        InvalidSetupError: a size that is not a whole number, or hands larger than the deck.
    """
    a = _check_size(a, "the attacker's hand size")
    d = _check_size(d, "the defender's hand size")
    if a + d > DECK_SIZE:
        raise InvalidSetupError(f"hands of {a} and {d} cards need {a + d} cards: the deck holds {DECK_SIZE} (FM-1)")
    weights: dict[tuple[HandComposition, HandComposition], int] = {}
    for (ka, ra, ba, sa), wa in _hand_splits(a):
        rest = (NUMBERED_CARDS - ka, RED_TRUMPS - ra, BLACK_TRUMPS_BUT_ACE - ba, 1 - sa)
        for (kd, rd, bd, sd), wd in _hand_splits(d, *rest):
            key = (_composition(ka, ra, ba, sa), _composition(kd, rd, bd, sd))
            weights[key] = weights.get(key, 0) + wa * wd
    return Distribution.from_int_weights(weights)


# -- card types ------------------------------------------------------------------------------
# Numbered types are 0..17: red pips 2..10 are 0..8, black pips 2..10 are 9..17.
# Trump types are "R" (red), "B" (black but the A♠) and "S" (the A♠).
_ntype, _ncolour, _npips = numbered_type, type_colour, type_pips


def _type_of(card: Card) -> int | str:
    """The card's type (:func:`~toolkit.fairy_meat.deck.type_index`), Trumps by letter."""
    t = type_index(card)
    return TRUMP_LETTERS.get(t, t)


_TYPES_OF_COLOUR = {c: [_ntype(c, p) for p in PIPS] for c in COLOURS}
_TRUMP_COLOUR = {"R": "red", "B": "black", "S": "black"}


# -- the policies' play, by card type ----------------------------------------------------------
class _Family(NamedTuple):
    """What one fairy does in the attack, at the level of card types.

    kind: "play" (a Numbered card from hand), "wild" (FM-6), "blind" (FM-7, no card),
    "unopposed" (FM-7 variant); sign: +1 Add, -1 Subtract (FM-3); placed: the Trumps
    put face down (colour, Trumps but the A♠, A♠ among them) or None (FM-4);
    wild: the Wild Trump's type; colour: the Numbered card's colour for "play".
    """

    kind: str
    sign: int
    placed: tuple[str, int, bool] | None
    wild: str | None
    colour: str | None


# Numbered-card constraints ("specs"): ("none",) no Numbered card in hand; ("top", k, mask):
# holds type k and no type outside ``mask`` (greedy); ("card", k): one specific card of type
# k is the one played, counted once per such card (random).
Spec = tuple
_NONE: Spec = ("none",)
_ALL_TYPES = (1 << 18) - 1


class _Choice(NamedTuple):
    family: _Family
    weight: Fraction
    types: tuple[tuple[int, Spec], ...]  # (Numbered type played, its spec); () for draws


def _placed(colour: str, red: int, black: int, ace: int) -> tuple[str, int, bool] | None:
    if colour == "red":
        return ("red", red, False) if red else None
    return ("black", black, bool(ace)) if black + ace else None


class _GreedyModel:
    """:func:`~.policies.greedy_policy` by card types: which Numbered type she plays is the
    first type of :func:`~.policies.greedy_order` that she holds."""

    policy = staticmethod(greedy_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, int, int], rules: Rules) -> tuple[_Choice, ...]:
        r, b, s = comp
        n = h - r - b - s
        if h == 0:
            kind = "unopposed" if rules.undefended == "unopposed" else "blind"
            return (_Choice(_Family(kind, 1, None, None, None), Fraction(1), ()),)
        if n == 0:
            # greedy_wild: the A♠ if it is pure upside, else red, else black, else the A♠.
            if ace_is_upside(role, rules, False) and s:
                wild = "S"
            else:
                wild = "R" if r else "B" if b else "S"
            return (_Choice(_Family("wild", 1, None, wild, None), Fraction(1), ()),)
        order = greedy_order(r, b + s)
        groups: dict[tuple[str, str], list[tuple[int, Spec]]] = defaultdict(list)
        mask = _ALL_TYPES
        for colour, pips, direction in order:
            k = _ntype(colour, pips)
            groups[(colour, direction)].append((k, ("top", k, mask)))
            mask &= ~(1 << k)
        out = []
        for (colour, direction), types in groups.items():
            family = _Family("play", 1 if direction == "add" else -1, _placed(colour, r, b, s), None, colour)
            out.append(_Choice(family, Fraction(1), tuple(types)))
        return tuple(out)


class _RandomModel:
    """:func:`~.policies.random_policy` by card types: uniform declaration, uniform over
    the legal sets of Trumps placed (FM-4), uniform Numbered card or Wild Trump."""

    policy = staticmethod(random_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, int, int], rules: Rules) -> tuple[_Choice, ...]:
        r, b, s = comp
        n = h - r - b - s
        half = Fraction(1, 2)
        if h == 0:
            kind = "unopposed" if rules.undefended == "unopposed" else "blind"
            return tuple(_Choice(_Family(kind, sign, None, None, None), half, ()) for sign in (1, -1))
        # The legal Trump actions (FM-4, FM-6): None, or any non-empty set of one colour.
        placed = trump_sets_by_type(r, b, s, n > 0)
        total = sum(placed.values())
        out = []
        for p, mult in placed.items():
            if not mult:
                continue
            w = half * Fraction(mult, total)
            if n:
                for colour in COLOURS:
                    types = tuple((k, ("card", k)) for k in _TYPES_OF_COLOUR[colour])
                    for sign in (1, -1):
                        out.append(_Choice(_Family("play", sign, p, None, colour), w / n, types))
                continue
            used = {"R": 0, "B": 0, "S": 0}
            if p is not None:
                if p[0] == "red":
                    used["R"] = p[1]
                else:
                    used["B"], used["S"] = p[1], int(p[2])
            left = {"R": r - used["R"], "B": b - used["B"], "S": s - used["S"]}
            rest = sum(left.values())
            for wild, count in left.items():
                if count:
                    for sign in (1, -1):
                        out.append(_Choice(_Family("wild", sign, p, wild, None), w * Fraction(count, rest), ()))
        return tuple(out)


_MODELS: dict[Policy, type] = {greedy_policy: _GreedyModel, random_policy: _RandomModel}


# -- counting Numbered cards jointly for both hands -------------------------------------------------
@cache
def _f_table(cb: int, ca: int, cd: int, na: int, nd: int) -> int:
    """Ways to give the attacker ``na`` cards from the ``cb`` cards both may hold and the
    ``ca`` only she may hold, and then the defender ``nd`` from what is left of the ``cb``
    and the ``cd`` only she may hold."""
    if na < 0 or nd < 0:
        return 0
    return sum(comb(cb, i) * comb(ca, na - i) * comb(cb - i + cd, nd) for i in range(min(cb, na) + 1))


@cache
def _count(na: int, nd: int, spec_a: Spec, spec_d: Spec, drawn: tuple[int, ...] = ()) -> int:
    """Number of ways to deal the Numbered parts of both hands (``na`` and ``nd`` cards,
    from the 36) and turn up specific Numbered cards of the ``drawn`` types from the rest,
    such that each hand meets its spec (see :class:`_Choice`).

    Inclusion-exclusion on "holds type k"; a pinned specific card is taken out first."""
    if not drawn and spec_a[0] != "card" and spec_d[0] != "card":
        return _count_tops(na, nd, spec_a, spec_d)
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
            masks.append(_ALL_TYPES)
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
        total += sign * _f_table(cb, ca, cd, na, nd)
    return mult * total


def _spec_class(spec: Spec, t: int) -> tuple:
    """What a spec makes of a Numbered type turned up: the count only depends on this."""
    if spec[0] == "none":
        return ()
    if spec[0] == "card":
        return (t == spec[1],)
    return (t == spec[1], bool(spec[2] >> t & 1))


@cache
def _drawn_counts(na: int, nd: int, spec_a: Spec, spec_d: Spec) -> tuple[int, ...]:
    """:func:`_count` with one specific card of each Numbered type turned up, for all 18
    types (types the specs treat alike are counted once)."""
    seen: dict[tuple, int] = {}
    out = []
    for t in range(18):
        cls = (_spec_class(spec_a, t), _spec_class(spec_d, t))
        if cls not in seen:
            seen[cls] = _count(na, nd, spec_a, spec_d, (t,))
        out.append(seen[cls])
    return tuple(out)


def _count_tops(na: int, nd: int, spec_a: Spec, spec_d: Spec) -> int:
    """:func:`_count` without pinned cards: each side "none" or "top"."""
    terms = [(1, 0, 0)]
    if spec_a[0] == "top":
        terms = [(1, spec_a[2], 0), (-1, spec_a[2] & ~(1 << spec_a[1]), 0)]
    if spec_d[0] == "top":
        md, kd = spec_d[2], spec_d[2] & ~(1 << spec_d[1])
        terms = [(sg, ma, md) for sg, ma, _ in terms] + [(-sg, ma, kd) for sg, ma, _ in terms]
    total = 0
    for sign, ma, md in terms:
        both = ma & md
        total += sign * _f_table(2 * both.bit_count(), 2 * (ma ^ both).bit_count(), 2 * (md ^ both).bit_count(), na, nd)
    return total


# -- the Wild Trump draw law (FM-6) ---------------------------------------------------------------
def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def _single_draws(trumps: tuple[int, int, int], deck: int, k: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """Trumps turned up before the first Numbered card, by type: ((red, black, A♠), weight),
    the weight being P(these Trumps, then one specific Numbered card) x deck_(k)."""
    red, black, ace = trumps
    out = []
    for r in range(red + 1):
        for b in range(black + 1):
            for s in range(ace + 1):
                j = r + b + s
                w = wild_draw_ways(trumps, (r, b, s)) * _falling(deck - j - 1, k - j - 1)
                out.append(((r, b, s), w))
    return tuple(out)


@cache
def _double_draws(
    trumps: tuple[int, int, int], deck: int, k: int
) -> tuple[tuple[tuple[int, int, int], tuple[int, int, int], int], ...]:
    """The attacker's draw, then the defender's from what is left: (first Trumps, second
    Trumps, P(both, each ending with one specific Numbered card) x deck_(k))."""
    red, black, ace = trumps
    out = []
    for (r1, b1, s1), _ in _single_draws(trumps, deck, k):
        j1 = r1 + b1 + s1
        head = wild_draw_ways(trumps, (r1, b1, s1))
        for r2 in range(red - r1 + 1):
            for b2 in range(black - b1 + 1):
                for s2 in range(ace - s1 + 1):
                    j2 = r2 + b2 + s2
                    w = head * wild_draw_ways((red - r1, black - b1, ace - s1), (r2, b2, s2))
                    out.append(((r1, b1, s1), (r2, b2, s2), w * _falling(deck - j1 - j2 - 2, k - j1 - j2 - 2)))
    return tuple(out)


# -- what the referee reads: classes of attacks it cannot tell apart ----------------------------------
_DRAWS = ("wild", "blind")
_NO_DRAW = (0, 0, 0)


def _view(fam: _Family, colour: str, drawn: tuple[int, int, int], owner: bool) -> tuple[tuple, int]:
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
        if matches(_TRUMP_COLOUR[fam.wild], colour):
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


def _owner(fam_a: _Family, fam_d: _Family) -> str | None:
    """The side whose face-down Trumps stay hidden because the other said None (FM-5)."""
    side = hidden_trumps_owner((fam_a.placed is not None, fam_d.placed is not None))
    return None if side is None else ("attacker", "defender")[side]


_SWAP = {"red": "black", "black": "red"}


def _canon(owner: str | None, va: tuple, vd: tuple | None) -> tuple:
    """The class key; without the A♠ the colours only matter as equal or not: red first."""
    aces = va[3] or va[6] or (vd is not None and (vd[3] or vd[6]))
    if not aces and va[0] == "black":
        va = (_SWAP[va[0]], *va[1:])
        if vd is not None:
            vd = (_SWAP[vd[0]], *vd[1:])
    return (owner, va, vd)


# Representative plays of a class, from card pools the two sides take from opposite ends.
_POOL = TRUMP_POOLS


def _side_units(view: tuple, m_a: int) -> tuple[int, int, int]:
    """(red, black but the A♠, A♠) Trumps a side with this view needs."""
    colour, _, ch_a, as_a, m_p, ch_p, as_p = view
    same, other = m_a + m_p, ch_a + ch_p
    red, black = (same, other) if colour == "red" else (other, same)
    ace = int(as_a or as_p)
    return red, black - ace, ace


@lru_cache(maxsize=65536)
def _build_play(view: tuple, pips: int, m_a: int, side: int, sign: int) -> Play:
    colour, _, ch_a, as_a, m_p, ch_p, as_p = view
    other = _SWAP[colour]
    pools = {c: list(_POOL[c]) if side == 0 else list(reversed(_POOL[c])) for c in COLOURS}

    def take(c: str, n: int, ace: bool) -> list[Card]:
        cards = [ACE_OF_SPADES] if ace else []
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
        Card(f"{pips}{suit}"), trumps=tuple(placed), direction="add" if sign > 0 else "subtract", drawn=tuple(drawn)
    )


def _min_matching(view: tuple) -> int:
    colour, _, _, as_a, *_ = view
    return 1 if (as_a and colour == "black") else 0


def _orientations(key: tuple) -> list[tuple[tuple, tuple | None]]:
    """The class's two views, and with the colours swapped when the A♠ is not involved."""
    _, va, vd = key
    out = [(va, vd)]
    if not (va[3] or va[6] or (vd is not None and (vd[3] or vd[6]))):
        out.append((_swapped(va), _swapped(vd)))
    return out


def _swapped(view: tuple | None) -> tuple | None:
    return None if view is None else (_SWAP[view[0]], *view[1:])


def _realisations(a: tuple, d: tuple | None) -> Iterable[tuple[int, int, int, int]]:
    """(attacker sign, defender sign, applied matching Trumps of each) that the deck's
    Trumps allow for these views, fewest Trumps first. A sign that does not matter to the
    referee (no Trump she may hide matches) is free."""
    signs_a = (a[1],) if a[1] else (1, -1)
    signs_d = ((d[1],) if d[1] else (1, -1)) if d is not None else (1,)
    for sa, sd, m_a in itertools.product(signs_a, signs_d, range(_min_matching(a), 9)):
        ua = _side_units(a, m_a)
        for m_d in range(_min_matching(d), 9) if d is not None else (0,):
            ud = _side_units(d, m_d) if d is not None else (0, 0, 0)
            if ua[0] + ud[0] > RED_TRUMPS or ua[1] + ud[1] > BLACK_TRUMPS_BUT_ACE or ua[2] + ud[2] > 1:
                break  # more matching Trumps only need more cards
            yield sa, sd, m_a, m_d


@cache
def _reach(key: tuple) -> tuple[int, int]:
    """The smallest and largest difference of base values that cards realise in the class
    ``key`` (the attacker's base value when unopposed)."""
    lo, hi = 10**9, -(10**9)
    for a, d in _orientations(key):
        for sa, sd, m_a, m_d in _realisations(a, d):
            if d is None:
                lo, hi = min(lo, 2 + sa * m_a), max(hi, 10 + sa * m_a)
            else:
                lo, hi = min(lo, -8 + sa * m_a - sd * m_d), max(hi, 8 + sa * m_a - sd * m_d)
    return lo, hi


def _rep_plays(key: tuple, delta: int) -> tuple[Play, Play | None]:
    """A pair of plays in the class ``key`` whose base values differ by ``delta`` (for an
    unopposed defender: whose attacker base value is ``delta``)."""
    for a, d in _orientations(key):
        for sa, sd, m_a, m_d in _realisations(a, d):
            if d is None:
                pips_a, pips_d = delta - sa * m_a, 0
                if pips_a not in PIPS:
                    continue
            else:
                gap = delta - sa * m_a + sd * m_d  # pips_a - pips_d
                if abs(gap) > 8:
                    continue
                pips_d = max(2, 2 - gap)
                pips_a = pips_d + gap
            play_a = _build_play(a, pips_a, m_a, 0, sa)
            play_d = _build_play(d, pips_d, m_d, 1, sd) if d is not None else None
            return play_a, play_d
    raise AssertionError(f"no cards realise the attack class {key!r} at difference {delta}")  # pragma: no cover


# Judgements by (rules, class key, delta); cleared by clear_caches().
_JUDGED: dict[tuple, AttackOutcome] = {}


def _judge_one(rules: Rules, key: tuple, delta: int) -> AttackOutcome:
    play_a, play_d = _rep_plays(key, delta)
    return outcome_of(resolve_attack(play_a, play_d, rules))


def _judge_chunk(args: tuple[Rules, list[tuple[tuple, int]]]) -> list[AttackOutcome]:
    rules, items = args
    return [_judge_one(rules, key, delta) for key, delta in items]


def _judge_all(items: list[tuple[tuple, int]], rules: Rules, workers: int | None = None) -> None:
    """Judge every (class, delta) not judged yet, on several cores when there are many."""
    todo = [(k, dl) for k, dl in items if (rules, k, dl) not in _JUDGED]
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
                results = pool.map(_judge_chunk, [(rules, c) for c in chunks])
            for chunk, res in zip(chunks, results, strict=True):
                for (k, dl), outcome in zip(chunk, res, strict=True):
                    _JUDGED[(rules, k, dl)] = outcome
            return
    for k, dl in todo:
        _JUDGED[(rules, k, dl)] = _judge_one(rules, k, dl)


def clear_caches() -> None:
    """Forget every cached count and judgement (for benchmarks that time a cold start)."""
    _JUDGED.clear()
    _SHIFTS.clear()
    for fn in (
        _f_table,
        _count,
        _drawn_counts,
        _single_draws,
        _double_draws,
        _GreedyModel.choices,
        _RandomModel.choices,
        _two_turned_up,
        _build_play,
        _reach,
        wild_draw_ways,
        trump_sets_by_type,
    ):
        fn.cache_clear()
    _views_cache.clear()


# -- weighing: classes x differences -------------------------------------------------------------------
Buckets = dict[tuple, dict[int, int]]
_views_cache: dict[tuple, tuple] = {}


def _draw_views(fam: _Family, owner: bool, draws: Iterable[tuple[tuple[int, int, int], int]]) -> dict[str, dict]:
    """For a drawing side, per colour of the Numbered card turned up: {(view, offset): weight}."""
    out: dict[str, dict] = {}
    for colour in COLOURS:
        g: dict[tuple, int] = defaultdict(int)
        for drawn, w in draws:
            g[_view(fam, colour, drawn, owner)] += w
        out[colour] = dict(g)
    return out


@cache
def _two_turned_up(same: bool) -> dict[int, int]:
    """Two specific Numbered cards turned up in turn from the full 36 (both hands hold
    none), by pips difference, for colours equal or not: specific-card pairs."""
    out: dict[int, int] = defaultdict(int)
    for p1 in PIPS:
        for p2 in PIPS:
            out[p1 - p2] += 2 * (1 if (same and p1 == p2) else 2)
    return dict(out)


class _Pending:
    """Weights of (class key, offset, Numbered-card pair counts) before expansion: many
    Trump-count contexts share them, so the pips differences are expanded once each."""

    def __init__(self) -> None:
        self.weights: dict[tuple, int] = defaultdict(int)
        self.diffs: dict[Hashable, Mapping[tuple[str, str | None], Mapping[int, int]]] = {}

    def add(self, key: tuple, offset: int, weight: int, diffs_id: Hashable, colours: tuple[str, str | None]) -> None:
        self.weights[(key, offset, diffs_id, colours)] += weight

    def buckets(self) -> Buckets:
        out: Buckets = {}
        for (key, offset, diffs_id, colours), weight in self.weights.items():
            dd = self.diffs[diffs_id].get(colours)
            if not dd or not weight:
                continue
            bucket = out.setdefault(key, {})
            for d, c in dd.items():
                k = d + offset
                bucket[k] = bucket.get(k, 0) + weight * c
        return out


def _weigh_pair(
    pending: _Pending,
    fam_a: _Family,
    fam_d: _Family,
    diffs_id: Hashable,
    weight: int,
    trumps_left: tuple[int, int, int],
    deck: int,
    k: int,
) -> None:
    """Add one pair of plays to ``pending``.

    ``pending.diffs[diffs_id][(colour_a, colour_d)]`` counts the Numbered card pairs
    (played or turned up) by pips difference (attacker minus defender; the attacker's
    pips alone against an unopposed defender). ``weight`` multiplies everything; the
    draw law brings the common factor ``deck_(k)`` (and no draw brings it whole)."""
    owner = _owner(fam_a, fam_d)
    draw_a, draw_d = fam_a.kind in _DRAWS, fam_d.kind in _DRAWS
    full = _falling(deck, k)
    add = pending.add
    if fam_d.kind == "unopposed":
        mine = owner == "attacker"
        if draw_a:
            for colour, g in _cached_draw_views(fam_a, mine, trumps_left, deck, k).items():
                for (va, off), w in g.items():
                    add(_canon("unopposed", va, None), off, weight * w, diffs_id, (colour, None))
            return
        va, off = _view(fam_a, fam_a.colour or "red", _NO_DRAW, mine)
        add(_canon("unopposed", va, None), off, weight * full, diffs_id, (fam_a.colour or "red", None))
        return
    if not draw_a and not draw_d:
        va, off_a = _view(fam_a, fam_a.colour or "red", _NO_DRAW, owner == "attacker")
        vd, off_d = _view(fam_d, fam_d.colour or "red", _NO_DRAW, owner == "defender")
        add(_canon(owner, va, vd), off_a - off_d, weight * full, diffs_id, (fam_a.colour, fam_d.colour))
        return
    if draw_d and not draw_a:
        va, off_a = _view(fam_a, fam_a.colour or "red", _NO_DRAW, owner == "attacker")
        for colour, g in _cached_draw_views(fam_d, owner == "defender", trumps_left, deck, k).items():
            cols = (fam_a.colour, colour)
            for (vd, off_d), w in g.items():
                add(_canon(owner, va, vd), off_a - off_d, weight * w, diffs_id, cols)
        return
    if draw_a and not draw_d:
        vd, off_d = _view(fam_d, fam_d.colour or "red", _NO_DRAW, owner == "defender")
        for colour, g in _cached_draw_views(fam_a, owner == "attacker", trumps_left, deck, k).items():
            cols = (colour, fam_d.colour)
            for (va, off_a), w in g.items():
                add(_canon(owner, va, vd), off_a - off_d, weight * w, diffs_id, cols)
        return
    for cols, g in _cached_joint_views(fam_a, fam_d, owner, trumps_left, deck, k).items():
        for (key, off), w in g.items():
            add(key, off, weight * w, diffs_id, cols)


def _cached_draw_views(
    fam: _Family, owner: bool, trumps_left: tuple[int, int, int], deck: int, k: int
) -> dict[str, dict]:
    key = ("single", fam, owner, trumps_left, deck, k)
    got = _views_cache.get(key)
    if got is None:
        got = _draw_views(fam, owner, _single_draws(trumps_left, deck, k))
        _views_cache[key] = got
    return got


def _cached_joint_views(
    fam_a: _Family, fam_d: _Family, owner: str | None, trumps_left: tuple[int, int, int], deck: int, k: int
) -> dict[tuple[str, str], dict]:
    """Both sides draw: per (colour turned up for each), {(class key, offset): weight}."""
    key = ("double", fam_a, fam_d, owner, trumps_left, deck, k)
    got = _views_cache.get(key)
    if got is not None:
        return got
    out: dict[tuple[str, str], dict] = {}
    draws = _double_draws(trumps_left, deck, k)
    for ca in COLOURS:
        for cd in COLOURS:
            g: dict[tuple, int] = defaultdict(int)
            va_cache: dict = {}
            vd_cache: dict = {}
            for d1, d2, w in draws:
                va = va_cache.get(d1)
                if va is None:
                    va = va_cache[d1] = _view(fam_a, ca, d1, owner == "attacker")
                vd = vd_cache.get(d2)
                if vd is None:
                    vd = vd_cache[d2] = _view(fam_d, cd, d2, owner == "defender")
                g[(_canon(owner, va[0], vd[0]), va[1] - vd[1])] += w
            out[(ca, cd)] = dict(g)
    _views_cache[key] = out
    return out


def _keep(view: tuple) -> int:
    """Cheating Trumps of a side that must stay in a folded class: the A♠ when it is one
    (it still gives a Nasty Hit, FM-12)."""
    return 1 if (view[3] and view[0] == "red") else 0


_SHIFTS: dict[tuple, int] = {}


def _cheat_shift(rules: Rules, key: tuple) -> int:
    """How much the always-applied cheating Trumps of the class ``key`` move the difference
    of the two values (the attacker's value alone when unopposed), as the referee
    applies them: judged on a member of the class with nothing left hidden (FM-5), so
    the only choice left is the opponent's shift with each cheating Trump (FM-8), which
    the referee makes whatever the values."""
    owner, va, vd = key
    pa = (va[0], 0, va[2], va[3], 0, 0, False)
    pd = None if vd is None else (vd[0], 0, vd[2], vd[3], 0, 0, False)
    probe = ("unopposed" if owner == "unopposed" else None, pa, pd)
    cached = _SHIFTS.get((rules, probe))
    if cached is None:
        base = 6 if vd is None else 0
        play_a, play_d = _rep_plays(probe, base)
        r = resolve_attack(play_a, play_d, rules)
        cached = _SHIFTS[(rules, probe)] = r.attacker_value - r.defender_value - base
    return cached


def _fold(key: tuple, rules: Rules) -> tuple[tuple, int]:
    """The class judged in place of ``key``, and how far its difference moves.

    Cheating Trumps that are always applied (not hidden under FM-5) act only through
    the opponent's shifts (FM-8), which the referee chooses whatever the values: a
    class with them is judged as the class without them (the A♠ kept) at the
    difference moved by those shifts, as the referee reports them (:func:`_cheat_shift`).
    The tests check every folded class against the referee."""
    owner, va, vd = key
    if va[2] <= _keep(va) and (vd is None or vd[2] <= _keep(vd)):
        return key, 0
    ra = (va[0], va[1], _keep(va), *va[3:])
    rd = None if vd is None else (vd[0], vd[1], _keep(vd), *vd[3:])
    reduced = (owner, ra, rd)
    return reduced, _cheat_shift(rules, key) - _cheat_shift(rules, reduced)


def _settle(buckets: Buckets, rules: Rules, workers: int | None = None, fold: bool = True) -> dict[AttackOutcome, int]:
    """Judge every (class, difference) through the referee and add up the weights."""
    if fold:
        folded: Buckets = {}
        for key, bucket in buckets.items():
            reduced, shift = _fold(key, rules)
            lo, hi = _reach(reduced)
            for delta, w in bucket.items():
                if lo <= delta + shift <= hi:
                    fb = folded.setdefault(reduced, {})
                    fb[delta + shift] = fb.get(delta + shift, 0) + w
                else:  # no cards reach that difference without the cheating Trumps: judge as it is
                    fb = folded.setdefault(key, {})
                    fb[delta] = fb.get(delta, 0) + w
        buckets = folded
    items = [(key, delta) for key, bucket in buckets.items() for delta in bucket]
    _judge_all(items, rules, workers)
    out: dict[AttackOutcome, int] = defaultdict(int)
    for key, bucket in buckets.items():
        for delta, w in bucket.items():
            if w:
                out[_JUDGED[(rules, key, delta)]] += w
    return dict(out)


# -- one attack between known hands (engine enumeration) ------------------------------------------------
def _fairies(a: int, d: int) -> tuple[Fairy, Fairy, int, int]:
    """Bare-handed fairies and modifiers whose combat hands are exactly ``a`` and ``d`` cards (FM-2)."""
    return Fairy("Attacker", live=1, kill=0), Fairy("Defender", live=1, kill=1), a - 1, d - 1


def _start(hand_a: Sequence[Card], hand_d: Sequence[Card], rules: Rules) -> CombatState:
    attacker, defender, mod_a, mod_d = _fairies(len(hand_a), len(hand_d))
    return start_combat(
        attacker,
        defender,
        rules,
        hands=(hand_a, hand_d),
        attacker_modifiers=mod_a,
        defender_modifiers=mod_d,
        attacks=1,
    )


def _signature(state: CombatState) -> Hashable:
    """The state up to which cards of a type were used (policies and rules treat them alike)."""
    if state.is_terminal:
        return ("over", tuple(outcome_of(r) for r in state.results))
    a = state.cur

    def types(cards: Iterable[Card] | None) -> tuple | None:
        return None if cards is None else tuple(sorted(map(str, map(_type_of, cards))))

    def one(card: Card | None) -> Any:
        return None if card is None else _type_of(card)

    return (
        state.phase(),
        state.declared,
        types(state.hands[0]),
        types(state.hands[1]),
        types(a.trumps[0]),
        types(a.trumps[1]),
        a.plays,
        one(a.cards[0]),
        one(a.cards[1]),
        types(a.drawn[0]),
        types(a.drawn[1]),
        one(a.number[0]),
        one(a.number[1]),
        types(a.reveal),
        a.bonus,
        a.shifts,
    )


def _lumped_chance(state: CombatState) -> list[tuple[CombatState, Fraction]]:
    """Chance outcomes grouped by card type: one representative card per type."""
    options = state.chance_outcomes()
    groups: dict[Any, list[Card]] = defaultdict(list)
    for card, _ in options:
        groups[_type_of(card)].append(card)
    total = len(options)
    return [(state.apply_listed(cards[0]), Fraction(len(cards), total)) for cards in groups.values()]


def _family_from_state(state: CombatState, i: int) -> tuple[_Family, int | None]:
    a = state.cur
    placed = placed_type(a.trumps[i] or ())
    sign = 1 if state.declared[i] == "add" else -1
    kind = a.plays[i]
    if kind == "play":
        card = a.number[i]
        assert card is not None
        return _Family("play", sign, placed, None, card.colour), _type_of(card)  # type: ignore[return-value]
    if kind == "wild":
        wild = a.cards[i]
        assert wild is not None
        return _Family("wild", sign, placed, str(_type_of(wild)), None), None
    return _Family(str(kind), sign, placed, None, None), None


def _finish_draws(state: CombatState) -> Distribution[AttackOutcome] | None:
    """The outcome distribution from a state whose only chance left is the Wild Trump
    draws, by the draw law (FM-6) and the referee's best choices after it (what the
    standard policies play at the reveal, bonus and shift steps). ``None`` when the
    state is outside what the law covers (Wild Trump points, FM-7)."""
    a = state.cur
    if any(kind == "points" for kind in a.plays) or a.drawn[0] or a.drawn[1]:
        return None
    if any(a.plays[i] in _DRAWS and a.number[i] is not None for i in (0, 1)):
        return None
    fam_a, type_a = _family_from_state(state, 0)
    fam_d, type_d = _family_from_state(state, 1)
    pile = state.pile
    if pile.stacked or pile.discards:
        return None
    left = Counter(_type_of(c) for c in pile.shuffled)
    trumps_left = (left["R"], left["B"], left["S"])
    deck = pile.size
    k = min(deck, 18)
    numbered = {t: left[t] for t in range(18) if left[t]}
    diffs: dict[tuple[str, str | None], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    draw_a, draw_d = fam_a.kind in _DRAWS, fam_d.kind in _DRAWS
    if fam_d.kind == "unopposed":
        for t, c in numbered.items():
            diffs[(_ncolour(t), None)][_npips(t)] += c
    elif draw_a and draw_d:
        for t1, c1 in numbered.items():
            for t2, c2 in numbered.items():
                c = c1 * (c2 - (t1 == t2))
                if c:
                    diffs[(_ncolour(t1), _ncolour(t2))][_npips(t1) - _npips(t2)] += c
    elif draw_a:
        assert isinstance(type_d, int)
        for t, c in numbered.items():
            diffs[(_ncolour(t), _ncolour(type_d))][_npips(t) - _npips(type_d)] += c
    else:
        assert isinstance(type_a, int)
        for t, c in numbered.items():
            diffs[(_ncolour(type_a), _ncolour(t))][_npips(type_a) - _npips(t)] += c
    if sum(numbered.values()) < draw_a + draw_d:
        raise InvalidSetupError("the deck holds too few Numbered cards for the Wild Trump draws (FM-6)")
    pending = _Pending()
    pending.diffs[0] = diffs
    _weigh_pair(pending, fam_a, fam_d, 0, 1, trumps_left, deck, k)
    return Distribution.from_int_weights(_settle(pending.buckets(), state.rules))


def _merge(states: dict[Hashable, tuple[CombatState, Fraction]], state: CombatState, p: Fraction) -> None:
    """Add ``state`` with probability ``p``, merged with an equal state already there."""
    sig = _signature(state)
    if sig in states:
        states[sig] = (states[sig][0], states[sig][1] + p)
    else:
        states[sig] = (state, p)


def _enumerate_attack(
    state: CombatState, policies: tuple[Policy, Policy], draw_law: bool, max_states: int = 200_000
) -> Distribution[AttackOutcome]:
    """Exact outcome distribution of the (single) attack from ``state``, by enumerating the
    engine: every action the policies may take, chance outcomes grouped by card type,
    equal states merged. With ``draw_law`` the Wild Trump draws are finished by the
    draw law (:func:`_finish_draws`) instead of card by card."""
    totals: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    frontier: dict[Hashable, tuple[CombatState, Fraction]] = {_signature(state): (state, Fraction(1))}
    seen = 0
    while frontier:
        nxt: dict[Hashable, tuple[CombatState, Fraction]] = {}
        for node, p in frontier.values():
            seen += 1
            if seen > max_states:
                raise TooBigError(
                    f"the engine enumeration of this attack passed {max_states:,} states; use the standard "
                    "policies (whose Wild Trump draws are counted by type) or Monte Carlo (toolkit.montecarlo)"
                )
            if node.is_terminal:
                if not node.results:
                    raise InvalidSetupError("the attacker had no card to attack with (FM-13)")  # pragma: no cover
                totals[outcome_of(node.results[0])] += p
            elif node.is_chance_node:
                if draw_law:
                    finished = _finish_draws(node)
                    if finished is not None:
                        for outcome, q in finished.items():
                            totals[outcome] += p * q
                        continue
                for child, q in _lumped_chance(node):
                    _merge(nxt, child, p * q)
            else:
                who = node.current_player
                dist = policies[0 if who == "attacker" else 1](node)
                legal = node.legal_actions()
                for action, q in dist.items():
                    if action not in legal:
                        raise IllegalActionError(
                            f"the {who}'s policy chose {action!r}, which is not legal here: {legal}"
                        )
                    _merge(nxt, node.apply_listed(action), p * q)
        frontier = nxt
    return Distribution(totals)


def attack_odds(
    attacker_hand: str | Iterable[str | Card],
    defender_hand: str | Iterable[str | Card],
    policies: Sequence[str | Policy] | str = ("greedy", "greedy"),
    rules: Rules | None = None,
) -> Distribution[AttackOutcome]:
    """Return the exact distribution of the :class:`AttackOutcome` of one attack between
    two known combat hands (the first attack of a combat with ``attacks=1``).

    The engine (:func:`~.engine.start_combat` with the hands dealt) is enumerated under
    the two policies (names from :data:`~.policies.POLICIES` or functions), with
    bare-handed fairies whose hand sizes match the hands (FM-2). Chance is the cards
    turned up by Wild Trumps (FM-6) or a blind draw (FM-7) from the rest of the deck.
    Those draws are counted by the draw law of card types (from a full deck a Trump-only
    hand could turn up 10^12 orderings), and after them the referee makes the reveal,
    bonus and shift choices (FM-5, FM-11, FM-8) best for the chooser — so a policy plugged
    in must play ``state.best_action()`` at those steps, as both standard policies do.
    Policies must also treat cards of one type alike (see :mod:`.policies`).

    Args:
        attacker_hand, defender_hand: card codes, ``"KS QC 5C"`` or a list; the
            defender's may be empty (FM-7: she turns up cards blind).
        policies: (attacker's, defender's) policy, or one for both.
        rules: the rules in force (default :class:`~.rules.Rules`).

    Raises:
        NotationError: a card code that is not a card.
        InvalidSetupError: an empty attacker's hand, a card in both hands or twice in one.
        IllegalActionError: a policy chose an action that is not legal.
        TooBigError: the policies' choices pass 200,000 distinct states.

    >>> attack_odds("5H 3D", "9H").items()  # greedy plays the 3; 3 v 9 both red: highest wins (FM-9)
    [(AttackOutcome(winner='defender', points=3, damage=0, nasty_hit=False), Fraction(1, 1))]
    >>> p = attack_odds("5H", "JD").probability(lambda o: o.winner == "attacker")  # JD: a Wild Trump (FM-6)
    >>> round(float(p), 4)
    0.5523
    """
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    hand_a = _parse_hand(attacker_hand, "the attacker")
    hand_d = _parse_hand(defender_hand, "the defender")
    if not hand_a:
        raise InvalidSetupError("the attacker's hand is empty: with no card she makes no attack (FM-13)")
    check_distinct(hand_a, "the attacker's hand")
    check_distinct(hand_d, "the defender's hand")
    check_distinct(hand_a + hand_d, "the two hands")
    pols = _policies(policies)
    return _enumerate_attack(_start(hand_a, hand_d, rules), pols, draw_law=True)


# -- averaged over every deal ------------------------------------------------------------------
def _trump_comps(
    n: int, red: int = RED_TRUMPS, black: int = BLACK_TRUMPS_BUT_ACE, ace: int = 1, numbered: int = NUMBERED_CARDS
) -> list[tuple[int, int, int]]:
    """The (red, black but the A♠, A♠) Trump counts an ``n``-card hand may hold (FM-1)."""
    return [(r, b, s) for (_, r, b, s), _ in _hand_splits(n, numbered, red, black, ace)]


def _model_pair(pols: tuple[Policy, Policy]) -> tuple[type, type] | None:
    models = tuple(_MODELS.get(p) for p in pols)
    return None if None in models else models  # type: ignore[return-value]


def _contexts(a: int, d: int, models: tuple[type, type], rules: Rules) -> Iterable[tuple]:
    """Every (attacker Trumps, defender Trumps) pair with its count and both sides' choices."""
    for comp_a in _trump_comps(a):
        ra, ba, sa = comp_a
        rest = (RED_TRUMPS - ra, BLACK_TRUMPS_BUT_ACE - ba, 1 - sa)
        na = a - ra - ba - sa
        for comp_d in _trump_comps(d, *rest, numbered=NUMBERED_CARDS - na):
            rd, bd, sd = comp_d
            nd = d - rd - bd - sd
            count = (
                comb(RED_TRUMPS, ra)
                * comb(rest[0], rd)
                * comb(BLACK_TRUMPS_BUT_ACE, ba)
                * comb(rest[1], bd)
                * comb(1, sa)
                * comb(rest[2], sd)
            )
            left = (rest[0] - rd, rest[1] - bd, rest[2] - sd)
            yield (
                count,
                na,
                nd,
                left,
                models[0].choices("attacker", a, comp_a, rules),
                models[1].choices("defender", d, comp_d, rules),
            )


def _diffs(choice_a: _Choice, choice_d: _Choice, na: int, nd: int) -> dict[tuple[str, str | None], dict[int, int]]:
    """Numbered-card counts by (colours, pips difference) for one pair of choices."""
    fa, fd = choice_a.family, choice_d.family
    out: dict[tuple[str, str | None], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    if fd.kind == "unopposed":
        if fa.kind in _DRAWS:
            for t in range(18):
                c = _count(0, 0, _NONE, _NONE, (t,))
                out[(_ncolour(t), None)][_npips(t)] += c
        else:
            for t, spec in choice_a.types:
                out[(_ncolour(t), None)][_npips(t)] += _count(na, 0, spec, _NONE)
        return out
    draw_a, draw_d = fa.kind in _DRAWS, fd.kind in _DRAWS
    if draw_a and draw_d:
        for ca in COLOURS:
            for cd in COLOURS:
                out[(ca, cd)] = defaultdict(int, _two_turned_up(ca == cd))
        return out
    if draw_d:
        for ta, spec_a in choice_a.types:
            for t, c in enumerate(_drawn_counts(na, nd, spec_a, _NONE)):
                if c:
                    out[(_ncolour(ta), _ncolour(t))][_npips(ta) - _npips(t)] += c
        return out
    if draw_a:
        for td, spec_d in choice_d.types:
            for t, c in enumerate(_drawn_counts(na, nd, _NONE, spec_d)):
                if c:
                    out[(_ncolour(t), _ncolour(td))][_npips(t) - _npips(td)] += c
        return out
    for ta, spec_a in choice_a.types:
        for td, spec_d in choice_d.types:
            c = _count(na, nd, spec_a, spec_d)
            if c:
                out[(_ncolour(ta), _ncolour(td))][_npips(ta) - _npips(td)] += c
    return out


def _scale(choices: Iterable[_Choice]) -> int:
    return math.lcm(1, *(c.weight.denominator for c in choices))


def _exact_weights(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> dict[AttackOutcome, int]:
    models = _model_pair(pols)
    assert models is not None
    deck = DECK_SIZE - a - d
    k = min(deck, 18)
    contexts = list(_contexts(a, d, models, rules))
    scale_a = math.lcm(1, *(_scale(c[4]) for c in contexts))
    scale_d = math.lcm(1, *(_scale(c[5]) for c in contexts))
    pending = _Pending()
    for count, na, nd, left, choices_a, choices_d in contexts:
        numbered_left = NUMBERED_CARDS - na - nd
        for ca in choices_a:
            wa = ca.weight * scale_a
            for cd in choices_d:
                if (ca.family.kind in _DRAWS) + (cd.family.kind in _DRAWS) > numbered_left:
                    raise InvalidSetupError(
                        f"hands of {a} and {d} cards can leave no Numbered card in the deck for a Wild Trump "
                        "draw (FM-6); the engine cannot play such a deal"
                    )
                key = (
                    ca.types,
                    cd.types,
                    ca.family.kind in _DRAWS,
                    cd.family.kind in _DRAWS,
                    cd.family.kind == "unopposed",
                    na,
                    nd,
                )
                if key not in pending.diffs:
                    pending.diffs[key] = _diffs(ca, cd, na, nd)
                weight = count * int(wa * cd.weight * scale_d)
                _weigh_pair(pending, ca.family, cd.family, key, weight, left, deck, k)
    weights = _settle(pending.buckets(), rules)
    expected = comb(DECK_SIZE, a) * comb(DECK_SIZE - a, d) * scale_a * scale_d * _falling(deck, k)
    got = sum(weights.values())
    if got != expected:  # pragma: no cover - a counting bug, never a user error
        raise AssertionError(f"deal weights add up to {got}, expected {expected} ({a} v {d})")
    return weights


def _generic_pairs(a: int, d: int) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every pair of hand compositions over the 21 card types, with its number of deals."""
    caps = list(TYPE_CAPS)
    out = []
    for ca, wa in hands_by_type(a, caps):
        avail = [c - x for c, x in zip(caps, ca, strict=True)]
        for cd, wd in hands_by_type(d, avail):
            out.append((ca, cd, wa * wd))
    return out


def composition_pairs(a: int, d: int, caps: Sequence[int] = TYPE_CAPS) -> int:
    """Return the number of pairs of hand compositions (counts of each card type, at most
    ``caps[t]`` of type ``t`` between the two hands) of ``a`` and ``d`` cards, without
    listing them: the coefficient of x^a y^d in the product over types of
    sum_{i+j<=cap} x^i y^j."""
    poly = {(0, 0): 1}
    for cap in caps:
        new: dict[tuple[int, int], int] = defaultdict(int)
        for (i, j), c in poly.items():
            for x in range(min(cap, a - i) + 1):
                for y in range(min(cap - x, d - j) + 1):
                    new[(i + x, j + y)] += c
        poly = new
    return poly.get((a, d), 0)


_hand_from_composition = representative_hand


def _generic_weights(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> dict[AttackOutcome, Fraction]:
    out: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    for ca, cd, w in _generic_pairs(a, d):
        hand_a, hand_d = _hand_from_composition(ca, 0), _hand_from_composition(cd, 1)
        dist = _enumerate_attack(_start(hand_a, hand_d, rules), pols, draw_law=True)
        for o, p in dist.items():
            out[o] += w * p
    return out


def exact_size(
    a: int, d: int, policies: Sequence[str | Policy] | str = ("greedy", "greedy"), rules: Rules | None = None
) -> int:
    """Return the size of the exact calculation of :func:`deal_averaged_odds` for hand
    sizes ``a`` v ``d`` — what :data:`EXACT_LIMIT` (or :data:`GENERIC_EXACT_LIMIT`) is
    compared with — without doing it.

    For the standard policies: the items the calculation weighs, summed over the Trump
    counts of both hands and the policies' choices — a pair of Numbered card types when
    both play one, each result of a Wild Trump draw (Trumps turned up, colour of the
    card) when one or both draw (FM-6). For other policies: the number of pairs of hand
    compositions (counts of the 21 card types), each an :func:`attack_odds` run.

    >>> exact_size(1, 1), exact_size(5, 3) <= EXACT_LIMIT < exact_size(3, 1, "random")
    (73616, True)
    """
    a, d = _check_sizes(a, d)
    rules = rules or Rules()
    pols = _policies(policies)
    models = _model_pair(pols)
    if models is None:
        return composition_pairs(a, d)
    deck = DECK_SIZE - a - d
    k = min(deck, 18)
    total = 0
    for _, _, _, left, choices_a, choices_d in _contexts(a, d, models, rules):
        for ca in choices_a:
            for cd in choices_d:
                draw_a, draw_d = ca.family.kind in _DRAWS, cd.family.kind in _DRAWS
                if draw_a and draw_d:
                    total += 4 * len(_double_draws(left, deck, k))
                elif draw_a or draw_d:
                    total += 2 * len(_single_draws(left, deck, k))
                else:
                    total += max(len(ca.types), 1) * max(len(cd.types), 1)
    return total


@dataclass(frozen=True)
class DealOdds:
    """Deal-averaged odds of one attack, exact or by Monte Carlo.

    Attributes:
        distribution: the distribution of :class:`AttackOutcome`: exact, or (Monte Carlo)
            the observed frequencies, as exact fractions of the trials.
        method: ``"exact"`` or ``"monte_carlo"``.
        size: :func:`exact_size` of the request (what ``method="auto"`` compared with
            the limit).
        trials: Monte Carlo trials (``None`` when exact).
        estimates: Monte Carlo: an :class:`~toolkit.montecarlo.Estimate` per outcome seen.
        confidence: the confidence level of :meth:`interval` (0.99).
        seconds: wall time of the calculation.
    """

    distribution: Distribution[AttackOutcome]
    method: str
    size: int
    trials: int | None = None
    estimates: dict[AttackOutcome, Estimate] | None = field(default=None, repr=False)
    confidence: float = 0.99
    seconds: float = field(default=0.0, compare=False)

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def probability(self, event: AttackOutcome | Callable[[AttackOutcome], bool]) -> Fraction:
        """The probability of an outcome or event: exact, or the observed frequency."""
        return self.distribution.probability(event)

    def estimate(self, event: AttackOutcome | Callable[[AttackOutcome], bool]) -> Estimate | None:
        """Monte Carlo: the hits of an outcome or event out of the trials (``None`` when exact)."""
        if self.estimates is None or self.trials is None:
            return None
        hits = self.distribution.probability(event) * self.trials
        return Estimate(int(hits), self.trials)

    def interval(self, event: AttackOutcome | Callable[[AttackOutcome], bool]) -> tuple[float, float]:
        """A :attr:`confidence` interval for the probability of an outcome or event:
        Wilson's for Monte Carlo, the exact value twice when exact."""
        est = self.estimate(event)
        if est is None:
            p = float(self.probability(event))
            return (p, p)
        return est.interval(self.confidence)

    @property
    def intervals(self) -> dict[AttackOutcome, tuple[float, float]]:
        """The :meth:`interval` of every outcome."""
        return {o: self.interval(o) for o in self.distribution}

    def __str__(self) -> str:
        how = "exact" if self.exact else f"Monte Carlo, {self.trials:,} trials, {self.confidence:.0%} intervals"
        lines = [f"DealOdds ({how}; size {self.size:,})"]
        for o in self.distribution:
            lo, hi = self.interval(o)
            p = self.distribution[o]
            shown = f"{float(p):.2%}" if self.exact else f"{float(p):.2%} [{lo:.2%}, {hi:.2%}]"
            lines.append(f"  {o.winner:8} points {o.points:2} damage {o.damage} nasty {o.nasty_hit!s:5}  {shown}")
        return "\n".join(lines)


def _monte_carlo(
    a: int, d: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: int
) -> tuple[Counter[AttackOutcome], int]:
    """Deal random hands and play each attack out through the engine (both the deal and
    every Wild Trump draw sampled card by card)."""
    rng = random.Random(seed)
    deck = list(standard_deck())
    attacker, defender, mod_a, mod_d = _fairies(a, d)
    counts: Counter[AttackOutcome] = Counter()
    policy_map = {"attacker": pols[0], "defender": pols[1]}
    for _ in range(trials):
        cards = rng.sample(deck, a + d)
        state = start_combat(
            attacker,
            defender,
            rules,
            hands=(cards[:a], cards[a:]),
            attacker_modifiers=mod_a,
            defender_modifiers=mod_d,
            attacks=1,
        )
        end = play_out(state, rng, policy_map)
        counts[outcome_of(end.results[0])] += 1  # type: ignore[attr-defined]
    return counts, trials


def deal_averaged_odds(
    a: int,
    d: int,
    policies: Sequence[str | Policy] | str = ("greedy", "greedy"),
    rules: Rules | None = None,
    method: str = "auto",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
) -> DealOdds:
    """Return the odds of one attack averaged over every deal of an ``a``-card attacker's
    hand and a ``d``-card defender's hand from one 52-card deck (FM-1, FM-2).

    Each deal is played as :func:`attack_odds` plays known hands: the first attack of a
    combat, under the two policies, with Wild Trump draws from the rest of the deck.

    Args:
        a, d: hand sizes (``d`` may be 0: the defender turns up cards blind, FM-7).
        policies: (attacker's, defender's) policy — names from
            :data:`~.policies.POLICIES` or functions — or one for both.
        rules: the rules in force.
        method: ``"exact"``, ``"monte_carlo"``, or ``"auto"``: exact while
            :func:`exact_size` is at most :data:`EXACT_LIMIT` (:data:`GENERIC_EXACT_LIMIT`
            for non-standard policies), Monte Carlo above.
        trials, seed: Monte Carlo trials and random seed (repeatable).

    Returns:
        A :class:`DealOdds`: ``.distribution`` (exact, or observed frequencies),
        ``.method``, and for Monte Carlo 99% Wilson intervals (``.interval(event)``).

    Raises:
        InvalidSetupError: bad sizes (negative, an empty attacker's hand, more cards than
            the deck), an unknown policy or method, bad trials.
        TooBigError: ``method="exact"`` on a request above the limit, before starting.

    >>> odds = deal_averaged_odds(1, 1, ("greedy", "greedy"), method="exact")
    >>> odds.method, round(float(odds.probability(lambda o: o.winner == "attacker")), 4)
    ('exact', 0.4563)
    """
    started = time.perf_counter()
    a, d = _check_sizes(a, d)
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    if method not in ("auto", "exact", "monte_carlo"):
        raise InvalidSetupError(f"method must be 'auto', 'exact' or 'monte_carlo', got {method!r}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InvalidSetupError(f"trials must be a whole number >= 1, got {trials!r}")
    pols = _policies(policies)
    models = _model_pair(pols)
    size = exact_size(a, d, pols, rules)
    limit = EXACT_LIMIT if models is not None else GENERIC_EXACT_LIMIT
    if method == "exact" and size > limit:
        what = "weighed play combinations" if models is not None else "pairs of hand compositions"
        raise TooBigError(
            f"exact odds for {a} v {d} with policies ({_policy_name(pols[0])}, {_policy_name(pols[1])}) "
            f"need {size:,} {what}, above the limit of {limit:,}: use method='monte_carlo' "
            "(or method='auto')"
        )
    if method == "monte_carlo" or (method == "auto" and size > limit):
        counts, n = _monte_carlo(a, d, pols, rules, trials, seed)
        estimates = {o: Estimate(c, n) for o, c in counts.items()}
        return DealOdds(
            Distribution.from_int_weights(dict(counts)),
            "monte_carlo",
            size,
            n,
            estimates,
            seconds=time.perf_counter() - started,
        )
    if models is not None:
        dist = Distribution.from_int_weights(_exact_weights(a, d, pols, rules))
    else:
        dist = Distribution(_generic_weights(a, d, pols, rules))
    return DealOdds(dist, "exact", size, seconds=time.perf_counter() - started)
