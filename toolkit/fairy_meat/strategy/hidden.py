"""Equilibrium of ONE Fairy Meat attack when each fairy sees only her own hand.

:func:`solve_hidden` deals an ``a``-card attacker's hand and a ``d``-card defender's hand
from one deck (FM-1, FM-2; optionally minus ``removed`` known cards, e.g. the Spoils
Heap, FM-13) and solves the attack as a two-player zero-sum game of imperfect
information:

1. the attacker declares Add or Subtract having seen her hand, publicly; then the
   defender, having seen hers and the attacker's declaration (FM-3);
2. both place Trumps of one colour face down or say None, simultaneously (FM-4); a
   fairy with no Numbered card keeps a Trump back for a Wild Trump (FM-6). If both
   placed Trumps, or both said None, both sets are seen (by card type); if exactly
   one said None, the other's Trumps stay hidden and the None-sayer sees only how many
   cards lie face down (FM-5);
3. both play a Numbered card (compulsory when held) or a Trump as a Wild Trump,
   simultaneously (FM-6); both are then seen;
4. Wild Trump draws (FM-6, exact draw law from the rest of the deck), the None-rule
   reveal (FM-5) and the cheating shifts (FM-8) follow; the reveal and the shifts are the
   referee's best choices (:func:`~.referee.resolve_attack`: every card is on the table
   then, so they are best for the chooser), and the attacker's payoff is
   ``Payoff().of(result)`` (zero-sum).

With at least one card each the defender is never undefended (FM-7): she always holds a
card to play, so ``Rules.undefended`` changes nothing here.

How it is solved
----------------
Cards count by *type* (21 types: 18 Numbered types = pips x colour, red Trump, black
Trump other than the A♠, the A♠; FM-1, FM-12). Deals are weighted exactly with card
removal, P(hA, hD) ∝ Π_t C(n_t, a_t) C(n_t − a_t, d_t) (:func:`deal_weights`).

The game is written in sequence form: an attacker's *sequence* is (hand, declarations,
her Trumps, what she saw of the defender's Trumps, her card); likewise for the defender.
The payoff matrix between the two players' sequences holds deal weight x expected payoff
for every consistent pair (the sparse part: most hands cannot reach most public
histories). Every attack class is judged once by the referee on representative cards,
through the card-type classes of :mod:`.odds` (``_view``/``_canon``/``_fold``), and
Wild Trump draws are averaged exactly for the deck left by *both* hands.

The solver is CFR+ (regret matching+, alternating updates, linear averaging of the
strategies), vectorised with numpy over every information set. Every few iterations it
measures the exploitability of the average profile with exact best responses over the
whole game (float64): ``lower`` = the defender's best response against the attacker's
average strategy, ``upper`` = the attacker's best response against the defender's; the
game value lies between them. These are measured figures, not estimates.

>>> sol = solve_hidden(1, 1)  # one card each: a symmetric game, worth 0 to the attacker
>>> sol.exploitability_share <= 0.01, abs(sol.value) < 1e-9, sol.payoff_range
(True, True, 32.0)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import scipy.sparse as sp

from toolkit.cards import Card, parse_cards, standard_deck
from toolkit.engine import Policy
from toolkit.equilibrium.cfr import CFRPlus, SequenceTree, best_response_value, profile_value, reaches
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.fairy_meat.deck import (
    ACE_OF_SPADES,
    ACE_TRUMP,
    BLACK_TRUMP,
    N_TYPES,
    RED_TRUMP,
    TRUMP_LETTERS,
    TRUMP_POOLS,
    TYPE_CAPS,
    TYPE_NAMES,
    hands_by_type,
    is_numbered,
    representative_hand,
    type_colour,
    type_index,
    type_name,
    type_pips,
    wild_draw_probability,
)
from toolkit.fairy_meat.legality import (
    Placed,
    placed_cards,
    placed_type,
    playable_types,
    trump_sets_by_type,
    trumps_seen,
)
from toolkit.fairy_meat.odds.classes import (
    class_key,
    class_reach,
    fold_class,
    hidden_owner,
    representative_plays,
    side_view,
)
from toolkit.fairy_meat.odds.compositions import composition_pairs
from toolkit.fairy_meat.odds.families import Family
from toolkit.fairy_meat.odds.known_hands import start_known_hands
from toolkit.fairy_meat.referee import resolve_attack
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.payoff import Payoff

__all__ = [
    "HiddenSolution",
    "solve_hidden",
    "hidden_size",
    "deal_weights",
    "hand_types",
    "type_options",
    "type_action",
    "type_name",
    "HIDDEN_LIMIT",
    "TYPE_NAMES",
]

# -- card types (FM-1, FM-12): toolkit.fairy_meat.deck -------------------------------------------
R_T, B_T, S_T = RED_TRUMP, BLACK_TRUMP, ACE_TRUMP
FULL_CAPS = TYPE_CAPS
WILD_LETTER = TRUMP_LETTERS
_tcolour, _tpips, _type_of = type_colour, type_pips, type_index


#: Largest :func:`hidden_size` :func:`solve_hidden` accepts (3 v 2 and 2 v 3 are about 1.8·10^7; 4 v 2
#: and 3 v 3 are several times that and take minutes and gigabytes).
HIDDEN_LIMIT = 20_000_000


def _placed_size(p: Placed) -> int:
    return 0 if p is None else p[1] + int(p[2])


def _placed_name(p: Placed) -> str:
    if p is None:
        return "None"
    colour, n, ace = p
    parts = []
    if n:
        parts.append(f"{n} {colour}" if colour == "red" else f"{n} black (not A♠)")
    if ace:
        parts.append("A♠")
    return " + ".join(parts)


def _obs_name(o: tuple) -> str:
    if o[0] == "none":
        return "None"
    if o[0] == "count":
        return f"{o[1]} hidden"
    return _placed_name(o[1])


# -- hands and deals ----------------------------------------------------------------------------
def _caps(removed: Sequence[str | Card]) -> tuple[int, ...]:
    cards = parse_cards(list(removed)) if not isinstance(removed, str) else parse_cards(removed)
    seen: set[Card] = set()
    caps = list(FULL_CAPS)
    for c in cards:
        if c.is_joker:
            raise InvalidSetupError(f"{c.code} is not in the Fairy Meat deck: 52 cards, no jokers (FM-1)")
        if c in seen:
            raise InvalidSetupError(f"{c.code} is listed twice in removed: each card can be removed once")
        seen.add(c)
        caps[_type_of(c)] -= 1
    return tuple(caps)


def hand_types(n: int, caps: Sequence[int] = FULL_CAPS) -> list[tuple[int, ...]]:
    """Every hand of ``n`` cards by card type: tuples of 21 counts, each within ``caps``
    (:func:`~toolkit.fairy_meat.deck.hands_by_type` without the number of deals)."""
    return [counts for counts, _ in hands_by_type(n, caps)]


def _count_matrix(hands_a: np.ndarray, hands_d: np.ndarray, caps: Sequence[int]) -> np.ndarray:
    """Deals of each pair of hand types: Π_t C(n_t, a_t) C(n_t − a_t, d_t), as float64 (exact integers)."""
    out = np.ones((len(hands_a), len(hands_d)))
    table = np.array([[comb(n, k) for k in range(10)] for n in range(10)], dtype=float)
    for t in range(N_TYPES):
        ca, cd = hands_a[:, t], hands_d[:, t]
        if not ca.any() and not cd.any():
            continue
        out *= table[caps[t], ca][:, None]
        left = caps[t] - ca
        out *= table[left[:, None], cd[None, :]]
    return out


def deal_weights(
    attacker_cards: int, defender_cards: int, removed: Sequence[str] = ()
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction]:
    """Exact probability of every pair of hand types (21 counts each) dealt from the deck
    minus ``removed`` (FM-1): P(hA, hD) = Π_t C(n_t, a_t) C(n_t − a_t, d_t) / (C(N, a) C(N − a, d)).

    >>> w = deal_weights(1, 1)
    >>> sum(w.values()), len(w)
    (Fraction(1, 1), 440)
    """
    a, d = _check_cards(attacker_cards, "attacker_cards"), _check_cards(defender_cards, "defender_cards")
    caps = _caps(removed)
    total_cards = sum(caps)
    if a + d > total_cards:
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from a deck of {total_cards} (FM-1)")
    total = comb(total_cards, a) * comb(total_cards - a, d)
    out = {}
    for ha in hand_types(a, caps):
        for hd in hand_types(d, caps):
            n = 1
            for t in range(N_TYPES):
                if ha[t] or hd[t]:
                    n *= comb(caps[t], ha[t]) * comb(caps[t] - ha[t], hd[t])
                    if not n:
                        break
            if n:
                out[(ha, hd)] = Fraction(n, total)
    return out


# -- what a hand can do (FM-4, FM-6) -------------------------------------------------------------
def _trump_options(hand: Sequence[int]) -> list[Placed]:
    """The sets of Trumps she may place (FM-4): None, or a non-empty set of one colour; with
    no Numbered card she keeps at least one Trump back for a Wild Trump (FM-6). The same
    sets as the engine's ``legal_actions`` at the "trumps" step, by type
    (:func:`~toolkit.fairy_meat.legality.trump_sets_by_type`)."""
    numbered = any(hand[t] for t in range(18))
    return list(trump_sets_by_type(hand[R_T], hand[B_T], hand[S_T], numbered))


def _card_options(hand: Sequence[int], placed: Placed) -> list[int]:
    """Cards she may play (FM-6): every Numbered type she holds; without one, the Trump
    types left after ``placed`` (played as a Wild Trump):
    :func:`~toolkit.fairy_meat.legality.playable_types`."""
    return list(playable_types(tuple(hand), placed))


def type_options(hand: Sequence[int]) -> dict[Placed, list[int]]:
    """The hand's legal plays by type: {Trumps placed (FM-4): [cards she may then play
    (FM-6)]}; Trumps are ``None`` or ``(colour, Trumps but the A♠, A♠ among them)``,
    cards are type indices (18-20: a Trump played as a Wild Trump)."""
    return {p: _card_options(hand, p) for p in _trump_options(hand)}


def _observe(other: Placed, mine: Placed) -> tuple:
    """What a fairy sees of the other's Trumps (FM-5): both placed (or both None): the set;
    she said None and the other placed: only how many cards lie face down."""
    seen = trumps_seen(mine is not None, other is not None)
    if seen == "none":
        return ("none",)
    if seen == "count":
        return ("count", _placed_size(other))
    return ("set", other)


# -- checks ---------------------------------------------------------------------------------------
def _check_cards(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidSetupError(f"{what} must be a whole number of cards >= 1, got {n!r}")
    if n > 52:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds 52 (FM-1)")
    return n


def hidden_size(attacker_cards: int, defender_cards: int) -> int:
    """Estimate of the work of :func:`solve_hidden`: pairs of hand types x the plays of
    both (4 declaration pairs, about a+1 and d+1 card-and-Trump choices each), about the
    number of non-zero entries of the payoff matrix it iterates on.

    >>> hidden_size(1, 1), hidden_size(3, 2) <= HIDDEN_LIMIT < hidden_size(4, 2)
    (7040, True)
    """
    a = _check_cards(attacker_cards, "attacker_cards")
    d = _check_cards(defender_cards, "defender_cards")
    return composition_pairs(a, d, FULL_CAPS) * 4 * (a + 1) * (d + 1)


# -- the referee's judgements, by class ---------------------------------------------------------
_DELTA_OFF = 64


def _fam(sign: int, placed: Placed, card: int) -> Family:
    if card < 18:
        return Family("play", sign, placed, None, _tcolour(card))
    return Family("wild", sign, placed, WILD_LETTER[card], None)


class _Judge:
    """Payoff of every attack class (odds' class keys), judged by the referee once each
    (FM-5, FM-8..FM-12): keys are canonical views of both sides (``odds._canon``) and
    the difference of base values; the fold of always-applied cheating Trumps
    (``odds._fold``) is used exactly as the odds calculator uses it."""

    def __init__(self, rules: Rules, payoff: Payoff) -> None:
        self.rules, self.payoff = rules, payoff
        self.key_ids: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.fold: list[tuple[int, int, int, int]] = []  # (reduced id, shift, lo, hi)
        self.cache: dict[tuple[int, int], int] = {}  # (key id, delta) -> outcome id
        self.outcome_ids: dict[tuple, int] = {}
        self.outcomes: list[tuple] = []  # (winner, points, damage, nasty_hit, payoff Fraction)
        self.calls = 0
        self.table = np.full((1024, 2 * _DELTA_OFF), -2, dtype=np.int32)  # (key id, delta) -> outcome id

    def kid(self, key: tuple) -> int:
        k = self.key_ids.get(key)
        if k is None:
            k = self.key_ids[key] = len(self.keys)
            self.keys.append(key)
            self.fold.append((k, 0, -(10**6), 10**6))  # placeholder while folding
            try:
                reduced, shift = fold_class(key, self.rules)
            except AssertionError:  # no cards realise the class: a combination that cannot occur
                reduced, shift = key, 0
            lo, hi = class_reach(reduced)
            rid = k if reduced == key else self.kid(reduced)
            self.fold[k] = (rid, shift, lo, hi)
        return k

    def _referee(self, kid: int, delta: int) -> int:
        try:
            play_a, play_d = representative_plays(self.keys[kid], delta)
        except AssertionError:  # no cards realise it: a combination that cannot occur
            return -1
        result = resolve_attack(play_a, play_d, self.rules)
        self.calls += 1
        rec = (result.winner or "draw", result.points, result.damage, result.nasty_hit, self.payoff.of(result))
        oid = self.outcome_ids.get(rec)
        if oid is None:
            oid = self.outcome_ids[rec] = len(self.outcomes)
            self.outcomes.append(rec)
        return oid

    def oid(self, kid: int, delta: int) -> int:
        got = self.cache.get((kid, delta))
        if got is None:
            rid, shift, lo, hi = self.fold[kid]
            target = (rid, delta + shift) if lo <= delta + shift <= hi else (kid, delta)
            got = self.cache.get(target)
            if got is None:
                got = self.cache[target] = self._referee(*target)
            self.cache[(kid, delta)] = got
        return got

    def oids(self, kids: np.ndarray, deltas: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`oid`, through a dense table of the classes judged so far."""
        if len(self.keys) > self.table.shape[0]:
            grown = np.full((max(len(self.keys), 2 * self.table.shape[0]), 2 * _DELTA_OFF), -2, dtype=np.int32)
            grown[: self.table.shape[0]] = self.table
            self.table = grown
        if deltas.size and (deltas.min() < -_DELTA_OFF or deltas.max() >= _DELTA_OFF):  # pragma: no cover
            raise RuntimeError("difference of values out of the table's range")
        cols = deltas + _DELTA_OFF
        got = self.table[kids, cols]
        unknown = got == -2
        if unknown.any():
            pairs = np.unique(np.stack([kids[unknown], deltas[unknown]], axis=1), axis=0)
            for k, dl in pairs:
                self.table[k, dl + _DELTA_OFF] = self.oid(int(k), int(dl))
            got = self.table[kids, cols]
        return got.astype(np.int64)

    def payvec(self) -> np.ndarray:
        return np.array([float(o[4]) for o in self.outcomes])


# -- the Wild Trump draw law (FM-6) ---------------------------------------------------------------
_RBS = [(r, b, s) for r in range(9) for b in range(8) for s in range(2)]
_RBS_ARR = np.array(_RBS)


_DRAW_CACHE: dict[tuple, np.ndarray] = {}


def _draw_probs(rbs_left: tuple[int, int, int], deck: int) -> np.ndarray:
    """P(the Trumps turned up before the first Numbered card are (r, b, s) by type), for
    every (r, b, s) of ``_RBS``, from a deck of ``deck`` cards holding ``rbs_left`` Trumps
    (FM-6): C(R,r)C(B,b)C(S,s)·j!·N / deck_(j+1), j = r+b+s, N = Numbered cards left
    (exact fractions, stored as float64)."""
    key = (rbs_left, deck)
    got = _DRAW_CACHE.get(key)
    if got is not None:
        return got
    big_r, big_b, big_s = rbs_left
    out = np.zeros(len(_RBS))
    for i, (r, b, s) in enumerate(_RBS):
        if r > big_r or b > big_b or s > big_s:
            continue
        out[i] = wild_draw_probability(rbs_left, deck, (r, b, s))
    _DRAW_CACHE[key] = out
    return out


# -- the game's structure ---------------------------------------------------------------------------
@dataclass
class _Game:
    """Everything the solver iterates on (built once per request)."""

    a: int
    d: int
    caps: tuple[int, ...]
    rules: Rules
    payoff: Payoff
    hands: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]
    weights: np.ndarray  # deal probabilities, nA x nD
    sides: tuple[SequenceTree, SequenceTree]
    seqs: tuple[dict[str, np.ndarray], dict[str, np.ndarray]]  # terminal sequence attributes
    infos: tuple[list[list[tuple]], list[list[tuple]]]  # per level, per information set: its history
    actions: tuple[list[list[Any]], list[list[Any]]]  # per level, per slot: the action
    placed: list[Placed]
    obs: list[tuple]
    matrix: sp.csr_matrix = field(default=None)  # type: ignore[assignment]
    judge: _Judge = field(default=None)  # type: ignore[assignment]
    coo: dict[str, np.ndarray] = field(default_factory=dict)
    draw_groups: list[tuple] = field(default_factory=list)
    draws: Any = None  # the _Draws helper
    double_cache: dict[tuple, np.ndarray] = field(default_factory=dict)
    policy_cache: dict[tuple, list[np.ndarray]] = field(default_factory=dict)
    payoff_range: float = 0.0


def _build_structure(a: int, d: int, caps: tuple[int, ...], rules: Rules, payoff: Payoff) -> _Game:
    hands_a, hands_d = hand_types(a, caps), hand_types(d, caps)
    ha, hd = np.array(hands_a), np.array(hands_d)
    total = comb(sum(caps), a) * comb(sum(caps) - a, d)
    weights = _count_matrix(ha, hd, caps) / float(total)
    opts = ([type_options(h) for h in hands_a], [type_options(h) for h in hands_d])
    placed_all: list[Placed] = [None]
    for side_opts in opts:
        for o in side_opts:
            for p in o:
                if p not in placed_all:
                    placed_all.append(p)
    pid = {p: i for i, p in enumerate(placed_all)}
    # What each side may see of the other's Trumps (FM-5), given her own choice.
    other_placed = (
        sorted({p for o in opts[1] for p in o if p is not None}, key=pid.get),
        sorted({p for o in opts[0] for p in o if p is not None}, key=pid.get),
    )
    obs_all: list[tuple] = []
    obs_id: dict[tuple, int] = {}

    def oid(o: tuple) -> int:
        if o not in obs_id:
            obs_id[o] = len(obs_all)
            obs_all.append(o)
        return obs_id[o]

    def observations(me: int, mine: Placed) -> list[int]:
        seen = [("none",)]
        for p in other_placed[me]:
            o = _observe(p, mine)
            if o not in seen:
                seen.append(o)
        return [oid(o) for o in seen]

    sides = (SequenceTree(), SequenceTree())
    seqs: list[dict[str, np.ndarray]] = []
    infos: list[list[list[tuple]]] = []
    actions: list[list[list[Any]]] = []
    for me, hands in ((0, hands_a), (1, hands_d)):
        side = sides[me]
        l0_slot_inf, l0_parent, l0_info, l0_act = [], [], [], []
        l1_slot_inf, l1_parent, l1_info, l1_act = [], [], [], []
        l2_slot_inf, l2_parent, l2_info, l2_act = [], [], [], []
        t_hand, t_da, t_dd, t_pl, t_obs, t_card = [], [], [], [], [], []
        for h in range(len(hands)):
            for da in (0, 1) if me == 1 else (None,):
                # level 0: the attacker's declaration (hand), or the defender's (hand, dA)
                inf0 = len(l0_parent)
                l0_parent.append(-1)
                l0_info.append((h, da))
                for x in (0, 1):
                    slot0 = len(l0_slot_inf)
                    l0_slot_inf.append(inf0)
                    l0_act.append(x)
                    dA, dD = (x, None) if me == 0 else (da, x)
                    for y in (0, 1) if me == 0 else (None,):
                        dA2, dD2 = (dA, y) if me == 0 else (dA, dD)
                        inf1 = len(l1_parent)
                        l1_parent.append(slot0)
                        l1_info.append((h, dA2, dD2))
                        for p, cards in opts[me][h].items():
                            slot1 = len(l1_slot_inf)
                            l1_slot_inf.append(inf1)
                            l1_act.append(p)
                            for o in observations(me, p):
                                inf2 = len(l2_parent)
                                l2_parent.append(slot1)
                                l2_info.append((h, dA2, dD2, pid[p], o))
                                for c in cards:
                                    l2_slot_inf.append(inf2)
                                    l2_act.append(c)
                                    t_hand.append(h)
                                    t_da.append(dA2)
                                    t_dd.append(dD2)
                                    t_pl.append(pid[p])
                                    t_obs.append(o)
                                    t_card.append(c)
        side.add_level(l0_slot_inf, l0_parent)
        side.add_level(l1_slot_inf, l1_parent)
        side.add_level(l2_slot_inf, l2_parent)
        seqs.append(
            {
                "hand": np.array(t_hand, dtype=np.int64),
                "da": np.array(t_da, dtype=np.int64),
                "dd": np.array(t_dd, dtype=np.int64),
                "placed": np.array(t_pl, dtype=np.int64),
                "obs": np.array(t_obs, dtype=np.int64),
                "card": np.array(t_card, dtype=np.int64),
            }
        )
        infos.append([l0_info, l1_info, l2_info])
        actions.append([l0_act, l1_act, l2_act])
    return _Game(
        a,
        d,
        caps,
        rules,
        payoff,
        (hands_a, hands_d),
        weights,
        sides,
        (seqs[0], seqs[1]),
        (infos[0], infos[1]),
        (actions[0], actions[1]),
        placed_all,
        obs_all,
    )


# -- the payoff matrix ------------------------------------------------------------------------------
_NO_DRAW = (0, 0, 0)
_PIPS_OF_TYPE = np.array([_tpips(t) for t in range(18)])
_RED_TYPE = np.array([t < 9 for t in range(18)])
_COLOURS = ("red", "black")


def _sign(decl: int) -> int:
    return 1 if decl == 0 else -1


class _Draws:
    """Expected outcomes of attacks with Wild Trump draws (FM-6), exactly for the deck left
    by both hands: P(Trumps (r, b, s) turned up, then a Numbered card of type t) =
    P(r, b, s) · n_t / N (the Numbered card is uniform over those left)."""

    def __init__(self, judge: _Judge, deck: int) -> None:
        self.judge, self.deck = judge, deck
        self.track = True
        self.used: set[int] = set()
        self.rows: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.views: dict[tuple, tuple[tuple, int]] = {}

    def _view(self, fam: Family, colour: str, drawn: tuple[int, int, int], owner: bool) -> tuple[tuple, int]:
        key = (fam, colour, drawn, owner)
        got = self.views.get(key)
        if got is None:
            got = self.views[key] = side_view(fam, colour, drawn, owner)
        return got

    def row_keys(
        self, owner: str | None, v_f: tuple, fam_x: Family, x_side: int, colour: str, rmax: tuple
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every Trumps turned up ``rbs <= rmax`` (rows of ``_RBS``) by the drawing side
        ``x_side`` before a Numbered card of ``colour``: the class key id against a side
        of view ``v_f``, and the drawing side's offset (her matching Trumps applied)."""
        key = (owner, v_f, fam_x, x_side, colour, rmax)
        got = self.rows.get(key)
        if got is not None:
            return got
        rows = [i for i, (r, b, s) in enumerate(_RBS) if r <= rmax[0] and b <= rmax[1] and s <= rmax[2]]
        mine = owner == ("attacker", "defender")[x_side]
        kids = np.empty(len(rows), dtype=np.int64)
        offs = np.empty(len(rows), dtype=np.int64)
        for n, i in enumerate(rows):
            v_x, off_x = self._view(fam_x, colour, _RBS[i], mine)
            k = class_key(owner, v_x, v_f) if x_side == 0 else class_key(owner, v_f, v_x)
            kids[n] = self.judge.kid(k)
            offs[n] = off_x
        got = self.rows[key] = (np.array(rows, dtype=np.int64), kids, offs)
        return got

    def phi_oids(
        self, owner: str | None, v_f: tuple, off_f: int, fam_x: Family, x_side: int, colour: str, rmax: tuple
    ) -> np.ndarray:
        """Outcome ids of the drawing side ``x_side`` turning up Trumps ``rbs`` (rows, all
        ``rbs <= rmax``) and a Numbered card of ``colour`` with pips p against a fixed
        side of view ``v_f`` whose value is x = pips + off_f: columns y = x − p in
        [off_f − 8, off_f + 8]. Rows out of ``rmax`` are −1."""
        rows, kids, offs = self.row_keys(owner, v_f, fam_x, x_side, colour, rmax)
        ys = np.arange(off_f - 8, off_f + 9)
        deltas = ys[None, :] - offs[:, None] if x_side == 1 else offs[:, None] - ys[None, :]
        out = np.full((len(_RBS), len(ys)), -1, dtype=np.int64)
        if len(rows):
            out[rows] = self.judge.oids(np.broadcast_to(kids[:, None], deltas.shape), deltas)
        return out

    def single(
        self,
        owner: str | None,
        fam_f: Family,
        x_side: int,
        fam_x: Family,
        pips_f: np.ndarray,
        numbered_left: np.ndarray,
        trumps_left: np.ndarray,
        pv_fn: Callable[[], np.ndarray],
    ) -> np.ndarray:
        """Expected ``pv`` rows (outcome id -> values) for entries where side ``x_side``
        plays a Wild Trump and the other plays a Numbered card of ``fam_f.colour`` with
        ``pips_f``; ``numbered_left`` (entries x 18) and ``trumps_left`` (entries x 3)
        describe the deck left by both hands."""
        f_side = 1 - x_side
        v_f, off_f = side_view(fam_f, fam_f.colour, _NO_DRAW, owner == ("attacker", "defender")[f_side])
        rmax = tuple(int(v) for v in trumps_left.max(axis=0))
        phis = [self.phi_oids(owner, v_f, off_f, fam_x, x_side, c, rmax) for c in _COLOURS]
        uniq, ridx = np.unique(trumps_left, axis=0, return_inverse=True)
        ridx = ridx.reshape(-1)
        lives = [_draw_probs(tuple(int(v) for v in rbs), self.deck) > 0 for rbs in uniq]
        for live in lives:
            if any((ph[live] < 0).any() for ph in phis):  # pragma: no cover - never for real deals
                raise RuntimeError("an attack class with a Wild Trump draw has no representative cards")
        pv = pv_fn()  # after the judgements above
        k = pv.shape[1]
        pv_ext = np.vstack([pv, np.zeros((1, k))])  # id -1 -> 0 (never weighted)
        table = np.empty((len(uniq), 2, 17, k))
        for u, rbs in enumerate(uniq):
            p = _draw_probs(tuple(int(v) for v in rbs), self.deck)
            for ci in (0, 1):
                vals = pv_ext[phis[ci]]  # rbs x y x k
                table[u, ci] = np.tensordot(p, vals, axes=(0, 0))
        total = numbered_left.sum(axis=1).astype(float)
        out = np.zeros((len(pips_f), k))
        for t in range(18):
            share = numbered_left[:, t] / total
            if not share.any():
                continue
            col = pips_f - _PIPS_OF_TYPE[t] + 8
            ci = 0 if _RED_TYPE[t] else 1
            out += share[:, None] * table[ridx, ci, col]
            if self.track:  # the outcomes that occur with positive probability (the payoff range)
                pos = share > 0
                for code in np.unique(ridx[pos] * 32 + col[pos]).tolist():
                    self.used.update(phis[ci][lives[code // 32], code % 32].tolist())
        return out

    def double(
        self, owner: str | None, fam_a: Family, fam_d: Family, trumps_left: tuple, numbered_left: tuple
    ) -> np.ndarray:
        """Expected outcome-id weights when both play Wild Trumps: the attacker turns up
        first, then the defender from what is left (FM-6). Returns a vector over the
        outcome ids known when it returns."""
        n_left = np.array(numbered_left, dtype=float)
        total = n_left.sum()
        # coef[c1][c2][col]: P(first Numbered card of colour c1, second of colour c2, pips
        # difference col - 8), the second drawn from what the first left.
        coef = np.zeros((2, 2, 17))
        for t1 in range(18):
            if not n_left[t1]:
                continue
            left2 = n_left.copy()
            left2[t1] -= 1
            for t2 in range(18):
                if left2[t2]:
                    coef[int(t1 >= 9), int(t2 >= 9), _tpips(t1) - _tpips(t2) + 8] += (
                        n_left[t1] / total * left2[t2] / (total - 1)
                    )
        p1 = _draw_probs(trumps_left, self.deck)
        live1 = np.nonzero(p1)[0]
        ids_all, w_all = [], []
        mine_a = owner == "attacker"
        cols = np.arange(17) - 8
        for c2i, c2 in enumerate(_COLOURS):
            rows2 = None
            p2 = None
            for c1i, c1 in enumerate(_COLOURS):
                views = [self._view(fam_a, c1, _RBS[i], mine_a) for i in live1]
                keyed = [self.row_keys(owner, va, fam_d, 1, c2, trumps_left) for va, _ in views]
                if rows2 is None:
                    rows2 = keyed[0][0]
                    p2 = np.array(
                        [
                            _draw_probs(
                                (trumps_left[0] - _RBS[i][0], trumps_left[1] - _RBS[i][1], trumps_left[2] - _RBS[i][2]),
                                self.deck - sum(_RBS[i]) - 1,
                            )[rows2]
                            for i in live1
                        ]
                    )
                kids = np.array([k[1] for k in keyed])  # rbs1 x rbs2
                off_d = keyed[0][2]
                off_a = np.array([off for _, off in views])
                w = p1[live1][:, None, None] * p2[:, :, None] * coef[c1i, c2i][None, None, :]
                live = w > 0
                # the attacker's value p1 + off_a against the defender's p2 + off_d
                deltas = cols[None, None, :] + off_a[:, None, None] - off_d[None, :, None]
                kk = np.broadcast_to(kids[:, :, None], w.shape)[live]
                ids = self.judge.oids(kk, np.broadcast_to(deltas, w.shape)[live])
                if (ids < 0).any():  # pragma: no cover - a class the referee could not be asked
                    raise RuntimeError("an attack class with Wild Trump draws has no representative cards")
                ids_all.append(ids)
                w_all.append(w[live])
        ids_c = np.concatenate(ids_all) if ids_all else np.zeros(0, dtype=np.int64)
        w_c = np.concatenate(w_all) if w_all else np.zeros(0)
        self.used.update(np.unique(ids_c).tolist())
        return np.bincount(ids_c, weights=w_c, minlength=len(self.judge.outcomes))


def _build_matrix(game: _Game) -> None:
    """Fill ``game.matrix`` (attacker sequences x defender sequences: deal weight x expected
    payoff to the attacker) and keep the entries for outcome tables."""
    judge = _Judge(game.rules, game.payoff)
    game.judge = judge
    deck = sum(game.caps) - game.a - game.d
    game.draws = _Draws(judge, deck)
    sa, sd = game.seqs
    ha_arr, hd_arr = np.array(game.hands[0]), np.array(game.hands[1])
    n_obs = len(game.obs)
    n_pl = len(game.placed)

    def group_index(s: dict[str, np.ndarray]) -> dict[int, np.ndarray]:
        code = ((s["da"] * 2 + s["dd"]) * n_pl + s["placed"]) * n_obs + s["obs"]
        order = np.argsort(code, kind="stable")
        uniq, starts = np.unique(code[order], return_index=True)
        ends = list(starts[1:]) + [len(order)]
        return {int(u): order[b:e] for u, b, e in zip(uniq, starts, ends, strict=True)}

    ga, gd = group_index(sa), group_index(sd)
    obs_id = {o: i for i, o in enumerate(game.obs)}
    rows_l, cols_l, w_l, oid_l = [], [], [], []
    draw_entries: list[tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, tuple]]] = []
    trump_caps = np.array(game.caps[18:])
    num_caps = np.array(game.caps[:18])
    for da, dd in itertools.product((0, 1), (0, 1)):
        for pa_i, pa in enumerate(game.placed):
            for pd_i, pd in enumerate(game.placed):
                o_for_a = obs_id.get(_observe(pd, pa))
                o_for_d = obs_id.get(_observe(pa, pd))
                if o_for_a is None or o_for_d is None:
                    continue
                seq_a = ga.get(((da * 2 + dd) * n_pl + pa_i) * n_obs + o_for_a)
                seq_d = gd.get(((da * 2 + dd) * n_pl + pd_i) * n_obs + o_for_d)
                if seq_a is None or seq_d is None:
                    continue
                hand_a, hand_d = sa["hand"][seq_a], sd["hand"][seq_d]
                w = game.weights[hand_a[:, None], hand_d[None, :]]
                ii, jj = np.nonzero(w)
                if not len(ii):
                    continue
                rows, cols, ww = seq_a[ii], seq_d[jj], w[ii, jj]
                card_a, card_d = sa["card"][rows], sd["card"][cols]
                wild_a, wild_d = card_a >= 18, card_d >= 18
                plain = ~wild_a & ~wild_d
                table = _plain_table(judge, da, dd, pa, pd)
                rows_l.append(rows[plain])
                cols_l.append(cols[plain])
                w_l.append(ww[plain])
                oid_l.append(table[card_a[plain], card_d[plain]])
                # Wild Trump draws (FM-6): one side draws
                for x_side, mask in ((1, ~wild_a & wild_d), (0, wild_a & ~wild_d)):
                    if not mask.any():
                        continue
                    r_m, c_m, w_m = rows[mask], cols[mask], ww[mask]
                    cf = card_d[mask] if x_side == 0 else card_a[mask]
                    cx = card_a[mask] if x_side == 0 else card_d[mask]
                    for colour_red in (True, False):
                        for wild in (R_T, B_T, S_T):
                            sel = (cx == wild) & ((cf < 9) == colour_red)
                            if not sel.any():
                                continue
                            colour = "red" if colour_red else "black"
                            fam_f = Family(
                                "play", _sign(dd if x_side == 0 else da), pd if x_side == 0 else pa, None, colour
                            )
                            fam_x = _fam(_sign(da if x_side == 0 else dd), pa if x_side == 0 else pd, wild)
                            fams = (fam_x, fam_f) if x_side == 0 else (fam_f, fam_x)
                            owner = hidden_owner(*fams)
                            hands_sel_a = sa["hand"][r_m[sel]]
                            hands_sel_d = sd["hand"][c_m[sel]]
                            both = ha_arr[hands_sel_a] + hd_arr[hands_sel_d]
                            numbered_left = num_caps[None, :] - both[:, :18]
                            trumps_left = trump_caps[None, :] - both[:, 18:]
                            pips_f = _PIPS_OF_TYPE[cf[sel]]
                            args = (owner, fam_f, x_side, fam_x, pips_f, numbered_left, trumps_left)
                            draw_entries.append((r_m[sel], c_m[sel], w_m[sel], ("single", args)))
                mask = wild_a & wild_d
                if mask.any():
                    for e in np.nonzero(mask)[0]:
                        ha_i, hd_i = sa["hand"][rows[e]], sd["hand"][cols[e]]
                        fam_a = _fam(_sign(da), pa, int(card_a[e]))
                        fam_d = _fam(_sign(dd), pd, int(card_d[e]))
                        both = ha_arr[ha_i] + hd_arr[hd_i]
                        tl = tuple(int(v) for v in trump_caps - both[18:])
                        nl = tuple(int(v) for v in num_caps - both[:18])
                        args2 = (hidden_owner(fam_a, fam_d), fam_a, fam_d, tl, nl)
                        draw_entries.append((rows[e : e + 1], cols[e : e + 1], ww[e : e + 1], ("double", args2)))
    if any((o < 0).any() for o in oid_l):  # pragma: no cover - every real play has representative cards
        raise RuntimeError("an attack class without a Wild Trump draw has no representative cards")
    game.coo = {
        "rows": np.concatenate(rows_l),
        "cols": np.concatenate(cols_l),
        "w": np.concatenate(w_l),
        "oid": np.concatenate(oid_l).astype(np.int64),
    }
    game.draw_groups = draw_entries
    _assemble(game)


def _draw_values(game: _Game, group: tuple, pv_fn: Callable[[], np.ndarray]) -> np.ndarray:
    """Expected values (entries x k) of one group of draw entries; ``pv_fn()`` gives the
    values of every outcome id (outcome ids x k) once the group's classes are judged."""
    kind, args = group[3]
    if kind == "single":
        return game.draws.single(*args, pv_fn)
    got = game.double_cache.get(args)
    if got is None:
        got = game.double_cache[args] = game.draws.double(*args)
    pv = pv_fn()
    vec = np.zeros(pv.shape[0])
    vec[: len(got)] = got
    return (vec @ pv)[None, :]


def _assemble(game: _Game) -> None:
    judge = game.judge
    rows, cols = [game.coo["rows"]], [game.coo["cols"]]
    draw_vals = [_draw_values(game, g, lambda: judge.payvec()[:, None])[:, 0] for g in game.draw_groups]
    pv = judge.payvec()
    vals = [game.coo["w"] * pv[game.coo["oid"]]]
    for g, v in zip(game.draw_groups, draw_vals, strict=True):
        rows.append(g[0])
        cols.append(g[1])
        vals.append(g[2] * v)
    shape = (len(game.seqs[0]["hand"]), len(game.seqs[1]["hand"]))
    game.matrix = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=shape)
    game.draws.track = False
    # the payoff range: over every outcome that occurs with positive probability
    used = set(np.unique(game.coo["oid"]).tolist()) | game.draws.used
    payoffs = [float(game.judge.outcomes[o][4]) for o in used]
    game.payoff_range = (max(payoffs) - min(payoffs)) if payoffs else 0.0


def _plain_table(judge: _Judge, da: int, dd: int, pa: Placed, pd: Placed) -> np.ndarray:
    """Outcome ids of both playing Numbered cards (18 x 18 types) after these declarations
    and Trumps (FM-4, FM-5, FM-8..FM-10)."""
    out = np.empty((N_TYPES, N_TYPES), dtype=np.int64)
    out.fill(-1)
    for ca in _COLOURS:
        for cd in _COLOURS:
            fam_a = Family("play", _sign(da), pa, None, ca)
            fam_d = Family("play", _sign(dd), pd, None, cd)
            owner = hidden_owner(fam_a, fam_d)
            va, off_a = side_view(fam_a, ca, _NO_DRAW, owner == "attacker")
            vd, off_d = side_view(fam_d, cd, _NO_DRAW, owner == "defender")
            kid = judge.kid(class_key(owner, va, vd))
            ta = np.array([t for t in range(18) if _tcolour(t) == ca])
            td = np.array([t for t in range(18) if _tcolour(t) == cd])
            deltas = (_PIPS_OF_TYPE[ta][:, None] + off_a) - (_PIPS_OF_TYPE[td][None, :] + off_d)
            out[np.ix_(ta, td)] = judge.oids(np.full(deltas.shape, kid), deltas)
    return out


# -- engine policies as type-level strategies ------------------------------------------------------
_SIDES = ("attacker", "defender")
_DECLS = ("add", "subtract")


def _rep_cards(hand: Sequence[int], side: int) -> list[Card]:
    """Representative cards of a hand type: the attacker's from one end of each pool, the
    defender's from the other (as odds._hand_from_composition)."""
    return representative_hand(list(hand), side)


def _dummy(size: int, placed: Placed, avoid: set[Card], side: int) -> list[Card] | None:
    """An opponent's hand of ``size`` cards holding Trumps of type ``placed`` and Numbered
    fillers, none in ``avoid`` (None when the cards run out: a history that cannot occur)."""
    out: list[Card] = []
    if placed is not None:
        colour, n, ace = placed
        pool = [c for c in (TRUMP_POOLS[colour] if side == 0 else TRUMP_POOLS[colour][::-1]) if c not in avoid]
        if len(pool) < n or (ace and ACE_OF_SPADES in avoid):
            return None
        out += pool[:n] + ([ACE_OF_SPADES] if ace else [])
    for card in standard_deck():
        if len(out) >= size:
            break
        if is_numbered(card) and card not in avoid and card not in out:
            out.append(card)
    return out if len(out) == size else None


def type_action(action: str) -> Any:
    """The type-level action of an engine action string (FM-1, FM-4): a declaration's
    index, the Trumps placed as :data:`~toolkit.fairy_meat.legality.Placed`, or the type
    index of the card played."""
    verb, _, rest = action.partition(" ")
    if verb == "declare":
        return _DECLS.index(rest)
    if verb == "trumps":
        if rest == "none":
            return None
        return placed_type(parse_cards(rest))
    if verb in ("play", "wild"):
        return _type_of(parse_cards(rest)[0])
    raise InvalidSetupError(f"the policy chose {action!r}, which is not a declaration, Trumps or card")


def _history_state(game: _Game, p: int, level: int, info: tuple) -> Any:
    """An engine state at information set ``info`` of player ``p`` (level 0 declaration,
    1 Trumps, 2 card), with representative cards; ``None`` if no cards realise it."""
    h = info[0]
    own = _rep_cards(game.hands[p][h], p)
    mine = set(own)
    size_other = game.d if p == 0 else game.a
    seen_placed: Placed = None
    if level == 2:
        obs = game.obs[info[4]]
        if obs[0] == "set":
            seen_placed = obs[1]
        elif obs[0] == "count":
            seen_placed = ("red", obs[1], False) if obs[1] <= 8 else None
    other = _dummy(size_other, seen_placed, mine, 1 - p)
    if other is None:
        return None
    hands = (own, other) if p == 0 else (other, own)
    state = start_known_hands(hands[0], hands[1], game.rules)
    if p == 0:
        if level == 0:
            return state
        da, dd = info[1], info[2]
    else:
        da = info[1]
        state = state.apply(f"declare {_DECLS[da]}")
        if level == 0:
            return state
        dd = info[2]
    if p == 0:
        state = state.apply(f"declare {_DECLS[da]}").apply(f"declare {_DECLS[dd]}")
    else:
        state = state.apply(f"declare {_DECLS[dd]}")
    if level == 1:
        if p == 1:
            state = state.apply("trumps none")  # the defender's policy never reads the attacker's choice here
        return state
    own_placed = game.placed[info[3]]
    plays = [" ".join(c.code for c in placed_cards(own, own_placed)) or "none", None]
    plays[1] = " ".join(c.code for c in placed_cards(other, seen_placed)) or "none"
    first, second = (plays[0], plays[1]) if p == 0 else (plays[1], plays[0])
    state = state.apply(f"trumps {first}").apply(f"trumps {second}")
    if p == 1:
        legal = state.legal_actions()
        state = state.apply(legal[0])  # the attacker's card, unseen by the defender's policy
    return state


def _policy_strategy(game: _Game, p: int, policy: Policy) -> list[np.ndarray]:
    """Behaviour probabilities of an engine policy at every information set of player ``p``,
    by calling it on representative engine states (it must treat cards of one type alike).
    Information sets the policy never reaches (with any deal) are left uniform. The
    toolkit's own policies read only the fairy's own hand and choices
    (:mod:`.policies`), so they are asked once per (hand, own history)."""
    from toolkit.fairy_meat.policies import POLICIES

    own_only = policy in POLICIES.values()
    side = game.sides[p]
    strat = []
    cache: dict[Hashable, dict[Any, float]] = {}
    parent_reach: np.ndarray | None = None
    hand_prob = game.weights.sum(axis=1 - p)
    for level, lv in enumerate(side.levels):
        s = 1.0 / lv["counts"][lv["slot_inf"]]
        s = s.copy()
        infos = game.infos[p][level]
        acts = game.actions[p][level]
        for i, info in enumerate(infos):
            if hand_prob[info[0]] == 0:
                continue
            if parent_reach is not None and parent_reach[lv["inf_parent"][i]] == 0:
                continue
            if own_only:
                key: Hashable = (level, info[0], None if level == 0 else info[1 + p], None if level < 2 else info[3])
            else:
                key = (level, info)
            dist = cache.get(key)
            if dist is None:
                state = _history_state(game, p, level, info)
                dist = {}
                if state is not None:
                    for action, q in policy(state).items():
                        a = type_action(str(action))
                        dist[a] = dist.get(a, 0.0) + float(q)
                cache[key] = dist
            if not dist:
                continue
            start, count = int(lv["starts"][i]), int(lv["counts"][i])
            for j in range(start, start + count):
                s[j] = dist.get(acts[j], 0.0)
        strat.append(s)
        parent_reach = reaches(side, strat + [np.ones(lv2["n_slot"]) for lv2 in side.levels[level + 1 :]])[1][level]
    return strat


# -- the result -------------------------------------------------------------------------------------
def _hand_text(hand: Sequence[int]) -> str:
    parts = []
    for t in range(N_TYPES):
        parts += [TYPE_NAMES[t]] * hand[t]
    return ", ".join(parts)


def _action_text(level: int, action: Any) -> str:
    if level == 0:
        return _DECLS[action]
    if level == 1:
        return _placed_name(action)
    return TYPE_NAMES[action] if action < 18 else f"Wild Trump: {TYPE_NAMES[action]}"


def _action_kind(level: int, action: Any, hand: Sequence[int]) -> str:
    if level == 0:
        return _DECLS[action]
    if level == 1:
        if action is None:
            return "None"
        return f"{_placed_size(action)} {action[0]}" + (" incl. A♠" if action[2] else "")
    if action >= 18:
        return "Wild Trump"
    pips = _tpips(action)
    band = "low 2-5" if pips <= 5 else "middle 6-7" if pips <= 7 else "high 8-10"
    return f"{_tcolour(action)} {band}"


def _features(hand: Sequence[int]) -> str:
    n = sum(hand[:18])
    red = hand[R_T]
    black = hand[B_T] + hand[S_T]
    text = f"{n} Numbered, {red} red / {black} black Trumps"
    return text + (" (A♠)" if hand[S_T] else "")


@dataclass(frozen=True)
class HiddenSolution:
    """An approximate equilibrium of one attack with hidden hands (:func:`solve_hidden`).

    Attributes:
        value: the attacker's expected payoff when both play the average strategies.
        lower, upper: bounds on the game value, measured exactly in float64: the
            defender's best response against the attacker's average strategy, and the
            attacker's best response against the defender's (lower ≤ game value ≤ upper).
        exploitability: ``upper - lower`` (payoff units): how much the two best
            responses together gain on the average profile.
        exploitability_share: ``exploitability / payoff_range``.
        payoff_range: max − min of the payoff over every attack that can occur.
        iterations, seconds: CFR+ iterations run and wall time (build included).
        curve: ``(iteration, seconds, exploitability)`` at every check.
        build_seconds: time to build the game (referee judgements, draw law, matrix).
    """

    attacker_cards: int
    defender_cards: int
    value: float
    lower: float
    upper: float
    exploitability: float
    exploitability_share: float
    payoff_range: float
    iterations: int
    seconds: float
    curve: tuple[tuple[int, float, float], ...]
    build_seconds: float
    rules: Rules = field(default_factory=Rules)
    payoff: Payoff = field(default_factory=Payoff)
    removed: tuple[str, ...] = ()
    _game: _Game | None = field(default=None, repr=False, compare=False)
    _strat: tuple[list[np.ndarray], list[np.ndarray]] | None = field(default=None, repr=False, compare=False)

    # -- profiles ------------------------------------------------------------------------------
    def _side(self, side: str) -> int:
        if side not in _SIDES:
            raise InvalidSetupError(f"side must be 'attacker' or 'defender', got {side!r}")
        return _SIDES.index(side)

    def _profile(self, p: int, who: str | Policy) -> list[np.ndarray]:
        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        if who == "equilibrium":
            return strat[p]
        cache = game.policy_cache
        if isinstance(who, str):
            from toolkit.fairy_meat.policies import POLICIES

            if who not in POLICIES:
                raise InvalidSetupError(
                    f"unknown strategy {who!r}: use 'equilibrium', "
                    + ", ".join(repr(k) for k in POLICIES)
                    + " or a policy function"
                )
            fn = POLICIES[who]
        elif callable(who):
            fn = who
        else:
            raise InvalidSetupError(
                f"a strategy is 'equilibrium', 'random', 'greedy' or a policy function, got {who!r}"
            )
        key = (p, fn)
        if key not in cache:
            cache[key] = _policy_strategy(game, p, fn)
        return cache[key]

    def evaluate(self, attacker: str | Policy = "equilibrium", defender: str | Policy = "equilibrium") -> float:
        """The attacker's expected payoff (float64, over every deal and draw) when each side
        plays the equilibrium average strategy, ``"random"``, ``"greedy"`` or an engine
        policy (:mod:`.policies`), converted to card types on representative states."""
        assert self._game is not None
        return profile_value(
            self._game.sides, self._game.matrix, self._profile(0, attacker), self._profile(1, defender)
        )

    def policy(self) -> Policy:
        """Return the equilibrium (average strategy) as an engine policy for either side: at
        a declaration, Trumps or card decision it reads only the fairy's own hand, the
        declarations and what she saw of the opponent's Trumps (FM-3, FM-5), and returns
        :meth:`strategy`'s mix on the legal actions; elsewhere the referee's best choice.
        A fairy who plays it in another deck (``removed`` cards) plays as if she did not
        count cards."""
        from toolkit.prob import Distribution

        def play(state: Any) -> Any:
            best = state.best_action()
            if best is not None:
                return Distribution.certain(best)
            step, i = state.phase()
            side = ("attacker", "defender")[i]
            hand = [c.code for c in state.hands[i]]
            declared = [d for d in state.declared if d is not None]
            placed = seen = None
            level = {"declare": 0, "trumps": 1, "play": 2}.get(step)
            if level is None:
                return Distribution.uniform(state.legal_actions())
            if level == 1:
                declared = declared[:2]
            if level == 2:
                mine, other = state.cur.trumps[i] or (), state.cur.trumps[1 - i] or ()
                placed = [c.code for c in mine]
                if trumps_seen(bool(mine), bool(other)) != "count":
                    seen = [c.code for c in other] or "none"
                else:
                    seen = len(other)
                hand = [c.code for c in state.hands[i]]
            mix = self.strategy(side, hand, declared, placed, seen)
            out: dict[Any, Fraction] = {}
            taken: set[str] = set()
            for action in state.legal_actions():
                text = _action_text(level, type_action(str(action)))
                if text in mix and text not in taken and mix[text] > 0:
                    taken.add(text)  # one legal action per card type
                    out[action] = Fraction(mix[text]).limit_denominator(10**9)
            return Distribution(out) if out else Distribution.uniform(state.legal_actions())

        return play

    def best_response_value(self, side: str, against: str | Policy = "equilibrium") -> float:
        """The attacker's expected payoff when ``side`` plays her best response (knowing the
        opponent's strategy, exactly) against a fixed opponent: the attacker's best, or
        the defender's best (the lowest for the attacker)."""
        p = self._side(side)
        assert self._game is not None
        return best_response_value(self._game.sides, self._game.matrix, p, self._profile(1 - p, against))

    def outcomes(self, attacker: str | Policy = "equilibrium", defender: str | Policy = "equilibrium") -> Any:
        """The distribution of (winner, points, damage, nasty_hit) of the attack under a
        profile, as a pandas DataFrame of float probabilities (``points`` are the
        defender's when she wins, FM-10, FM-11)."""
        import pandas as pd

        game = self._game
        assert game is not None
        ra = reaches(game.sides[0], self._profile(0, attacker))[1][-1]
        rd = reaches(game.sides[1], self._profile(1, defender))[1][-1]
        n_out = len(game.judge.outcomes)
        coo = game.coo
        probs = np.bincount(coo["oid"], weights=coo["w"] * ra[coo["rows"]] * rd[coo["cols"]], minlength=n_out)
        eye = np.eye(n_out)
        for g in game.draw_groups:
            weight = g[2] * ra[g[0]] * rd[g[1]]
            if not weight.any():
                continue
            probs += weight @ _draw_values(game, g, lambda: eye)
        rows = [
            {"winner": o[0], "points": o[1], "damage": o[2], "nasty_hit": o[3], "probability": float(q)}
            for o, q in zip(game.judge.outcomes, probs, strict=True)
            if q > 0
        ]
        df = pd.DataFrame(rows, columns=["winner", "points", "damage", "nasty_hit", "probability"])
        df = df.groupby(["winner", "points", "damage", "nasty_hit"], as_index=False)["probability"].sum()
        return df.sort_values(["winner", "points", "damage", "nasty_hit"]).reset_index(drop=True)

    # -- reading the equilibrium -----------------------------------------------------------------
    def strategy_table(self, side: str, detail: str = "summary", min_reach: float = 1e-9) -> Any:
        """The equilibrium of ``side`` as a pandas DataFrame.

        ``detail="summary"`` (default): per decision (declaration FM-3, Trumps FM-4/FM-5,
        card FM-6) and hand features (Numbered cards, red and black Trumps), the
        probability of each kind of action, averaged over the hands and histories
        weighted by ``reach``. ``detail="hands"``: one row per hand type, history and
        action (hands shown by type, e.g. ``'5 black, red Trump'``) with its probability.
        ``reach`` = the probability of the hand x her own probability of making the
        choices of the history (the opponent's are not included); rows with reach at
        most ``min_reach`` are left out. With a single legal action (one Numbered card,
        say) the "card" rows show what is played, not a choice.
        """
        p = self._side(side)
        if detail not in ("summary", "hands"):
            raise InvalidSetupError(f"detail must be 'summary' or 'hands', got {detail!r}")
        import pandas as pd

        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        sd = game.sides[p]
        inf_r, _ = reaches(sd, strat[p])
        # weight of each information set: the probability of the hand x her own probability
        # of getting there (the opponent's choices on the way are not included).
        hand_prob = game.weights.sum(axis=1 - p)
        names = ("declaration", "trumps", "card")
        rows = []
        for level, lv in enumerate(sd.levels):
            infos, acts = game.infos[p][level], game.actions[p][level]
            for i, info in enumerate(infos):
                reach = inf_r[level][i] * hand_prob[info[0]]
                if reach <= min_reach:
                    continue
                hand = game.hands[p][info[0]]
                hist = []
                if (level >= 1 or p == 1) and info[1] is not None:
                    hist.append(f"attacker {_DECLS[info[1]]}")
                if level >= 1:
                    hist.append(f"defender {_DECLS[info[2]]}")
                if level == 2:
                    hist.append(f"placed {_placed_name(game.placed[info[3]])}")
                    hist.append(f"saw {_obs_name(game.obs[info[4]])}")
                start, count = int(lv["starts"][i]), int(lv["counts"][i])
                for j in range(start, start + count):
                    rows.append(
                        {
                            "decision": names[level],
                            "hand": _hand_text(hand),
                            "features": _features(hand),
                            "history": "; ".join(hist),
                            "action": _action_text(level, acts[j]),
                            "kind": _action_kind(level, acts[j], hand),
                            "probability": float(strat[p][level][j]),
                            "reach": float(reach),
                        }
                    )
        df = pd.DataFrame(rows)
        if detail == "hands":
            return df.drop(columns=["features", "kind"])
        df["weighted"] = df["probability"] * df["reach"]
        g = df.groupby(["decision", "features", "kind"], as_index=False).agg(weighted=("weighted", "sum"))
        # total reach of each (decision, features) group, counted once per information set
        per_inf = df.drop_duplicates(["decision", "hand", "history"])
        tot = per_inf.groupby(["decision", "features"], as_index=False).agg(reach=("reach", "sum"))
        g = g.merge(tot, on=["decision", "features"])
        g["probability"] = g["weighted"] / g["reach"]
        order = {n: i for i, n in enumerate(names)}
        g["_o"] = g["decision"].map(order)
        g = g.sort_values(["_o", "features", "kind"]).drop(columns=["_o", "weighted"])
        return g.reset_index(drop=True)[["decision", "features", "kind", "probability", "reach"]]

    def strategy(
        self,
        side: str,
        hand: Sequence[str] | str,
        declarations: Sequence[str] = (),
        placed: Sequence[str] | str | None = None,
        seen: str | Sequence[str] | int | None = None,
    ) -> dict[str, float]:
        """One hand's equilibrium mix at its next decision, as {action: probability}.

        Args:
            side: ``"attacker"`` or ``"defender"``.
            hand: her cards (codes); only their types matter.
            declarations: the declarations made so far, attacker first (FM-3): none for
                the attacker's declaration, one for the defender's, two for Trumps.
            placed: her Trumps placed (codes, ``"none"`` or ``[]``) — give it, and
                ``seen``, for the card decision.
            seen: what she saw of the opponent's Trumps (FM-5): ``"none"``, the cards (a
                set seen when both placed), or how many lie face down (an int).
        """
        p = self._side(side)
        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        cards = parse_cards(hand) if isinstance(hand, str) else parse_cards(list(hand))
        counts = [0] * N_TYPES
        for c in cards:
            counts[_type_of(c)] += 1
        h_t = tuple(counts)
        if h_t not in game.hands[p]:
            raise InvalidSetupError(f"{side}'s hand must hold {(game.a, game.d)[p]} cards of this deck, got {hand!r}")
        h = game.hands[p].index(h_t)
        decl = [_DECLS.index(x) if x in _DECLS else -1 for x in declarations]
        if -1 in decl or len(decl) > 2:
            raise InvalidSetupError(
                f"declarations are up to two of 'add'/'subtract', attacker first, got {declarations!r}"
            )
        if placed is None:
            level = 0 if len(decl) < 2 else 1
            if level == 0 and len(decl) != p:
                raise InvalidSetupError(f"the {side}'s declaration follows {p} declaration(s), got {len(decl)}")
            info = (h, None) if p == 0 and level == 0 else (h, decl[0]) if level == 0 else (h, decl[0], decl[1])
        else:
            if len(decl) != 2:
                raise InvalidSetupError("the card decision needs both declarations")
            pc = [] if placed in ("none", "None") else parse_cards(placed if isinstance(placed, str) else list(placed))
            pl = type_action("trumps " + (" ".join(c.code for c in pc) or "none"))
            if isinstance(seen, int):
                ob: tuple = ("count", seen)
            elif seen in (None, "none", "None", ()):
                ob = ("none",)
            else:
                sc = parse_cards(seen if isinstance(seen, str) else list(seen))
                ob = ("set", type_action("trumps " + " ".join(c.code for c in sc)))
            if pl not in game.placed or ob not in game.obs:
                raise InvalidSetupError(f"no such history: placed {placed!r}, seen {seen!r}")
            level = 2
            info = (h, decl[0], decl[1], game.placed.index(pl), game.obs.index(ob))
        infos = game.infos[p][level]
        try:
            i = infos.index(info)
        except ValueError:
            raise InvalidSetupError(f"the {side} cannot reach that decision with this hand") from None
        lv = game.sides[p].levels[level]
        start, count = int(lv["starts"][i]), int(lv["counts"][i])
        acts = game.actions[p][level]
        return {_action_text(level, acts[j]): float(strat[p][level][j]) for j in range(start, start + count)}


# -- the solver -------------------------------------------------------------------------------------
def solve_hidden(
    attacker_cards: int,
    defender_cards: int,
    rules: Rules | None = None,
    payoff: Payoff | None = None,
    *,
    removed: Sequence[str] = (),
    target: float = 0.01,
    max_iterations: int = 2000,
    time_limit: float = 60.0,
    check_every: int | None = None,
) -> HiddenSolution:
    """Solve one attack with hidden hands (FM-1..FM-10, FM-12) by CFR+.

    Args:
        attacker_cards, defender_cards: hand sizes (whole numbers >= 1, FM-2).
        rules: the rules in force (``Rules.undefended`` never applies: with a card each
            the defender always has one to play, FM-6, FM-7).
        payoff: the zero-sum payoff (attacker's view, :class:`~.payoff.Payoff`).
        removed: cards known to be out of the deck (e.g. the Spoils Heap, FM-13).
        target: stop when the measured exploitability is at most ``target`` x the
            payoff range.
        max_iterations, time_limit: stop there anyway (seconds, build included).
        check_every: measure the exploitability every this many iterations (default:
            5 for small games, 25 for large).

    Returns:
        :class:`HiddenSolution`: value, bounds (exact best responses in float64: measured,
        not estimated), the curve of exploitability, and readers of the strategies.

    Raises:
        InvalidSetupError: bad sizes, rules, payoff, target or limits.
        NotationError / InvalidSetupError: a bad or repeated card code in ``removed``.
        TooBigError: :func:`hidden_size` above :data:`HIDDEN_LIMIT`, before starting.
    """
    started = time.perf_counter()
    a = _check_cards(attacker_cards, "attacker_cards")
    d = _check_cards(defender_cards, "defender_cards")
    rules = Rules() if rules is None else rules
    payoff = Payoff() if payoff is None else payoff
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    if not isinstance(payoff, Payoff):
        raise InvalidSetupError(f"payoff must be a fairy_meat Payoff, got {payoff!r}")
    for name, value, low in (("target", target, 0.0), ("time_limit", time_limit, 0.0)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > low:
            raise InvalidSetupError(f"{name} must be a number > {low}, got {value!r}")
    for name, value in (("max_iterations", max_iterations), ("check_every", check_every)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidSetupError(f"{name} must be a whole number >= 1, got {value!r}")
    if isinstance(removed, str):
        removed = removed.replace(",", " ").split()
    caps = _caps(removed)
    removed_codes = tuple(c.code for c in parse_cards(list(removed)))
    if a + d > sum(caps):
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from a deck of {sum(caps)} cards (FM-1)")
    size = hidden_size(a, d)
    if size > HIDDEN_LIMIT:
        raise TooBigError(
            f"the hidden-hands game {a} v {d} has size {size:,} (hidden_size), above the limit of {HIDDEN_LIMIT:,} "
            "(about 3 v 2): use smaller hands, toolkit.fairy_meat.solve_attack for known hands, or Monte Carlo "
            "play-outs with the greedy policy (toolkit.fairy_meat.odds.deal_averaged_odds)"
        )
    if sum(caps) - a - d < 1 or sum(caps[:18]) < 2:
        raise InvalidSetupError("the deck left after the deal needs Numbered cards for Wild Trump draws (FM-6)")
    game = _build_structure(a, d, caps, rules, payoff)
    _build_matrix(game)
    build = time.perf_counter() - started
    solver = CFRPlus(game.sides, game.matrix)
    every = check_every or (5 if game.matrix.nnz < 1_000_000 else 25)
    goal = target * game.payoff_range
    curve: list[tuple[int, float, float]] = []
    lower = upper = 0.0
    while True:
        solver.step()
        it = solver.t
        last = it >= max_iterations or time.perf_counter() - started >= time_limit
        if it % every == 0 or last:
            sa, sd = solver.average(0), solver.average(1)
            upper = best_response_value(game.sides, game.matrix, 0, sd)
            lower = best_response_value(game.sides, game.matrix, 1, sa)
            curve.append((it, time.perf_counter() - started, upper - lower))
            if upper - lower <= goal or last:
                break
    sa, sd = solver.average(0), solver.average(1)
    value = profile_value(game.sides, game.matrix, sa, sd)
    expl = upper - lower
    return HiddenSolution(
        attacker_cards=a,
        defender_cards=d,
        value=value,
        lower=lower,
        upper=upper,
        exploitability=expl,
        exploitability_share=expl / game.payoff_range if game.payoff_range else 0.0,
        payoff_range=game.payoff_range,
        iterations=solver.t,
        seconds=time.perf_counter() - started,
        curve=tuple(curve),
        build_seconds=build,
        rules=rules,
        payoff=payoff,
        removed=removed_codes,
        _game=game,
        _strat=(sa, sd),
    )
