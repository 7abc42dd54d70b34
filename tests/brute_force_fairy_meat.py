"""Independent brute force for one Fairy Meat attack, straight from the rule text.

Written without the toolkit's referee, engine, policies or calculators (it reads only the
fields of a ``Rules`` and uses ``Card`` for card codes): every deal of two hands from the
rules' deck and every card turned up by a Wild Trump or blind draw, one card at a time,
judged by the rulings (docs/rulings.md):

- FM-1: the deck is the four suits of the Numbered and Trump ranks, plus the jokers (a
  joker is a Trump of no colour that matches every Numbered card);
- FM-2: the hand sizes (:func:`hand_sizes`), ``wrestling_hand`` included;
- FM-3..FM-7: the greedy fairy's play, as :func:`toolkit.fairy_meat.policies.greedy_policy`
  describes it in words (:func:`greedy_side`), Wild Trump draws, blind draws and the
  unopposed variant;
- FM-5: the None rule (both ``none_means`` and both ``none_reveal`` variants), the owner of
  hidden Trumps choosing the reveal better for her (:func:`gain`);
- FM-8: each cheating Trump lets the opponent move each value by 1, her better way;
- FM-9, FM-10, FM-12: who wins, points, damage (halved or by the table), Nasty Hits.

Only for small decks (a few ranks): hands are listed card by card.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from functools import cache, lru_cache
from math import perm

from toolkit.cards import JOKERS, Card
from toolkit.fairy_meat.odds import AttackOutcome
from toolkit.fairy_meat.rules import Rules

#: The middle value of the draft's Tactical Considerations: the greedy fairy plays the card
#: ending furthest from it.
MIDDLE = 6


def deck(rules: Rules) -> tuple[Card, ...]:
    """The rules' deck (FM-1): every suit of the Numbered and Trump ranks, then the jokers."""
    ranks = (*rules.numbered_ranks, *rules.trump_ranks)
    return tuple(Card(r + s) for s in "SHDC" for r in ranks) + tuple(Card(j) for j in JOKERS[: rules.jokers])


def kind(card: Card, rules: Rules) -> tuple:
    """What a card is to the rules: ("n", colour, pips) for a Numbered card (FM-1), or
    ("t", colour or None for a joker, whether it is the death card) for a Trump (FM-12)."""
    if not card.is_joker and card.rank in rules.numbered_ranks:
        return ("n", card.colour, int(card.rank))
    return ("t", None if card.is_joker else card.colour, card.code == rules.death_card)


def hand_sizes(attacker: tuple, defender: tuple, wrestling: bool, rules: Rules) -> tuple[int, int]:
    """FM-2 from its text. ``attacker``: (Kill points, weapon attack bonus, Fluttered,
    modifiers); ``defender``: (Live points, Kill points, holds an Order Card, the attacker's
    weapon defence modifier, modifiers). Attacker: Kill + weapon + the attacking bonus, less
    the Flutter penalty, + modifiers; defender: Live (Kill when Wrestling) + the Order Card
    bonus + the weapon's defence modifier + modifiers; never below 0. The ``kill_only``
    variant: when Wrestling both draw exactly their Kill points, no +1, no modifiers."""
    kill_a, weapon, fluttered, mod_a = attacker
    live_d, kill_d, order_card, weapon_d, mod_d = defender
    if wrestling and rules.wrestling_hand == "kill_only":
        return kill_a, kill_d
    a = kill_a + weapon + rules.attacker_bonus - rules.flutter_penalty * fluttered + mod_a
    d = (kill_d if wrestling else live_d) + rules.order_card_bonus * order_card + weapon_d + mod_d
    return max(0, a), max(0, d)


def matches(trump: tuple, colour: str) -> bool:
    """FM-8: a Trump matches a Numbered card of its colour; a joker matches every card."""
    return trump[1] is None or trump[1] == colour


def greedy_side(hand: tuple[tuple, ...], role: str, rules: Rules) -> dict:
    """What the greedy fairy does with a hand of card kinds (the heuristic in words):
    declare the direction of her most extreme card — a card of ``pips`` with ``t`` Trumps
    of its colour (a joker counts for both colours) ends ``|pips - 6| + t`` from the middle,
    going up from 6 and down below it; ties to Add, then red — place all her Trumps of the
    card's colour face down, play the card most extreme in her direction (``sign * pips +
    t``, ties to red). Without a Numbered card: declare Add, say None, and play a Wild
    Trump: the death card if she attacks and Nasty Hits go to the damaged (it can only
    hurt the defender), else a red Trump, a black one, a joker, the death card last."""
    numbered = [k for k in hand if k[0] == "n"]
    trumps = [k for k in hand if k[0] == "t"]
    t = {c: sum(1 for k in trumps if k[1] in (c, None)) for c in ("red", "black")}
    if not numbered:
        wild = None
        if trumps:
            deaths = [k for k in trumps if k[2]]
            upside = role == "attacker" and rules.nasty_hit == "damaged"
            if upside and deaths:
                wild = deaths[0]
            else:
                wild = next(
                    (k for wanted in ("red", "black", None) for k in trumps if k[1] == wanted and not k[2]), trumps[0]
                )
        return {"sign": 1, "placed": (), "card": None, "wild": wild}
    best = max(numbered, key=lambda k: (abs(k[2] - MIDDLE) + t[k[1]], k[2] >= MIDDLE, k[1] == "red"))
    sign = 1 if best[2] >= MIDDLE else -1
    card = max(numbered, key=lambda k: (sign * k[2] + t[k[1]], k[1] == "red"))
    placed = tuple(k for k in trumps if k[1] in (card[1], None))
    return {"sign": sign, "placed": placed, "card": card, "wild": None}


def _left(counts: tuple, used: tuple) -> tuple:
    out = dict(counts)
    for k in used:
        out[k] -= 1
    return tuple(sorted(((k, v) for k, v in out.items() if v), key=repr))


@cache
def _with(k: tuple, turned: tuple) -> tuple:
    """The Trumps ``turned`` (sorted) with ``k`` added, sorted the same way (memoised: the
    same few sets of Trumps come up again and again in :func:`draws`)."""
    return tuple(sorted((k, *turned), key=repr))


@cache
def draws(counts: tuple) -> dict[tuple[tuple, tuple], int]:
    """FM-6: cards turned up one at a time, each card left equally likely, until a Numbered
    card appears, from a deck of ``counts`` (kind, how many). {(the Trumps turned up before
    it, sorted; the Numbered card): the ordered ways to turn them up}, built one card at a
    time from the sets of Trumps turned up so far and the ordered ways to turn each up: the
    next card is any card left, a Numbered one (the draw ends) or a Trump (one more turned
    up). The probability is the ways over ``perm(cards in the deck, cards turned up)``
    (integer weights: exact, and quicker than a Fraction at every step)."""
    out: dict = defaultdict(int)
    frontier: dict[tuple, int] = {(): 1}
    while frontier:
        nxt: dict[tuple, int] = defaultdict(int)
        for turned, ways in frontier.items():
            for k, n in counts:
                left = n - turned.count(k)
                if not left:
                    continue
                if k[0] == "n":
                    out[(turned, k)] += ways * left
                else:
                    nxt[_with(k, turned)] += ways * left
        frontier = nxt
    return dict(out)


def gain(r: dict, side: str) -> tuple[int, int, int]:
    """How good a judged attack is for ``side`` (FM-5: "whichever is better for her"): what
    she gets — the damage she deals as a winning attacker (FM-10), the points she scores as
    a winning defender (FM-11), less the damage or points the other gets — then a Nasty Hit
    on the other (+1) or on her (-1) (FM-12), then how far her final value beats the other's
    under the colour rule in force (FM-9)."""
    other = "defender" if side == "attacker" else "attacker"
    got = {"attacker": 0, "defender": 0}
    if r["winner"] == "attacker":
        got["attacker"] = r["damage"]
    elif r["winner"] == "defender":
        got["defender"] = r["points"]
    nasty = 0 if r["nasty_to"] is None else (1 if r["nasty_to"] == other else -1)
    margin = r["margin"] if side == "attacker" else -r["margin"]
    return (got[side] - got[other], nasty, margin)


def _table(diff: int, rules: Rules) -> int:
    for key, damage in rules.table:
        if key.endswith("+") or diff <= int(key.split("-")[-1]):
            return damage
    raise AssertionError(diff)


def _damage(diff: int, rules: Rules) -> int:
    """FM-10: 1 damage per point, points = ceil(difference / divisor); or by the table."""
    return _table(diff, rules) if rules.damage == "table" and diff > 0 else -(-diff // rules.points_divisor)


def judge(a: dict, d: dict | None, shown: tuple[tuple, tuple], rules: Rules) -> dict:
    """FM-8..FM-12 once the reveal is chosen. ``a``/``d``: the Numbered card, sign, and the
    Trumps applied besides the face-down ones (``extra``); ``shown``: the face-down Trumps
    revealed by each. ``d is None``: unopposed (FM-7 variant)."""
    applied = {"attacker": shown[0] + a["extra"], "defender": () if d is None else shown[1] + d["extra"]}
    death = any(k[2] for ks in applied.values() for k in ks)
    worth = rules.trump_value
    if d is None:
        colour = a["number"][1]
        match = sum(1 for k in applied["attacker"] if matches(k, colour))
        cheats = len(applied["attacker"]) - match
        value = a["number"][2] + a["sign"] * worth * match - cheats  # the defender moves it down (FM-8)
        damage = _damage(max(value, 0), rules)
        points = -(-max(value, 0) // rules.points_divisor)
        nasty = death and (damage > 0 or rules.nasty_hit == "loser")
        nasty_to = "defender" if nasty else None
        return {"winner": "attacker", "points": points, "damage": damage, "margin": value, "nasty_to": nasty_to}
    sides = {"attacker": a, "defender": d}
    value, cheats = {}, {}
    for s, p in sides.items():
        match = sum(1 for k in applied[s] if matches(k, p["number"][1]))
        value[s] = p["number"][2] + p["sign"] * worth * match
        cheats[s] = len(applied[s]) - match
    same = a["number"][1] == d["number"][1]
    up = 1 if (rules.same_colour_wins if same else rules.different_colour_wins) == "highest" else -1
    for cheater, chooser in (("attacker", "defender"), ("defender", "attacker")):
        value[chooser] += up * cheats[cheater]
        value[cheater] -= up * cheats[cheater]
    margin = up * (value["attacker"] - value["defender"])  # > 0: the attacker wins (FM-9)
    diff = abs(margin)
    winner = None if margin == 0 else ("attacker" if margin > 0 else "defender")
    points = -(-diff // rules.points_divisor)
    damage = _damage(diff, rules) if winner == "attacker" else 0
    nasty_to = None
    if death and winner is not None and (damage > 0 or rules.nasty_hit == "loser"):
        nasty_to = "defender" if winner == "attacker" else "attacker"
    return {"winner": winner, "points": points, "damage": damage, "margin": margin, "nasty_to": nasty_to}


def _reveals(placed: tuple, rules: Rules) -> list[tuple]:
    if rules.none_reveal == "subset":
        return [c for n in range(len(placed) + 1) for c in itertools.combinations(placed, n)]
    return [placed, ()]


def judged_attack(a: dict, d: dict | None, rules: Rules) -> dict:
    """One attack with the cards on the table: the None rule (FM-5) and the judgement, as
    :func:`judge` gives it (``nasty_to``: who suffers the Nasty Hit, FM-12, or None)."""
    placed = (a["placed"], () if d is None else d["placed"])
    if d is None:
        owner = 0 if placed[0] else None  # an unopposed defender has said None
    else:
        plays_trumps = [bool(p["placed"]) or bool(p["extra"]) for p in (a, d)]
        said_none = [not placed[i] and (rules.none_means == "no_face_down" or not plays_trumps[i]) for i in (0, 1)]
        owner = 0 if placed[0] and said_none[1] else 1 if placed[1] and said_none[0] else None
    if owner is None:
        r = judge(a, d, placed, rules)
    else:
        side = ("attacker", "defender")[owner]
        options = [(s, placed[1]) if owner == 0 else (placed[0], s) for s in _reveals(placed[owner], rules)]
        r = max((judge(a, d, o, rules) for o in options), key=lambda x: gain(x, side))
    return r


def resolve(a: dict, d: dict | None, rules: Rules) -> AttackOutcome:
    """One attack with the cards on the table (:func:`judged_attack`) as an outcome."""
    r = judged_attack(a, d, rules)
    return AttackOutcome(
        r["winner"] or "draw", r["points"] if r["winner"] else 0, r["damage"], r["nasty_to"] is not None
    )


@lru_cache(maxsize=1)
def _judged(rules: Rules) -> dict:
    """{(attacker side, defender side or None): outcome} already resolved under ``rules``
    (:func:`known_hands`: the same sides come up in many deals and draws); kept for the
    latest rules only (a rule set's can hold 200,000 judgements)."""
    return {}


def _resolved(a: tuple, d: tuple | None, rules: Rules, judged: dict) -> AttackOutcome:
    """:func:`resolve` of sides given as (Numbered card, sign, placed Trumps, other Trumps
    applied), remembered in ``judged`` (:func:`_judged`)."""
    out = judged.get((a, d))
    if out is None:
        keys = ("number", "sign", "placed", "extra")
        side_d = None if d is None else dict(zip(keys, d, strict=True))
        out = judged[(a, d)] = resolve(dict(zip(keys, a, strict=True)), side_d, rules)
    return out


def known_hands(hand_a: tuple[tuple, ...], hand_d: tuple[tuple, ...], rest: tuple, rules: Rules):
    """{outcome: probability} of one greedy-v-greedy attack between hands of card kinds,
    the cards turned up drawn from ``rest`` (the kinds left in the deck and how many): the
    attacker's draw first, then the defender's from what is left (FM-6, FM-7)."""
    # {(outcome, cards turned up by both draws): ordered ways}: the draws turn up cards of
    # ``rest`` one after the other, so their chance is the ways over perm(|rest|, turned)
    ways: dict[tuple[AttackOutcome, int], int] = defaultdict(int)
    sa = greedy_side(hand_a, "attacker", rules)
    sd = greedy_side(hand_d, "defender", rules)
    unopposed = not hand_d and rules.undefended == "unopposed"
    judged = _judged(rules)
    first = draws(rest) if sa["card"] is None else {((), sa["card"]): 1}
    for (turned_a, number_a), p in first.items():
        a = (number_a, sa["sign"], sa["placed"], turned_a + ((sa["wild"],) if sa["wild"] else ()))
        drawn_a = len(turned_a) + 1 if sa["card"] is None else 0
        if unopposed:
            ways[(_resolved(a, None, rules, judged), drawn_a)] += p
            continue
        if sd["card"] is not None:
            second = {((), sd["card"]): 1}
        else:
            second = draws(rest if sa["card"] is not None else _left(rest, (*turned_a, number_a)))
        for (turned_d, number_d), q in second.items():
            d = (number_d, sd["sign"], sd["placed"], turned_d + ((sd["wild"],) if sd["wild"] else ()))
            drawn = drawn_a + (len(turned_d) + 1 if sd["card"] is None else 0)
            ways[(_resolved(a, d, rules, judged), drawn)] += p * q
    cards = sum(n for _, n in rest)
    out: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    for (outcome, drawn), w in ways.items():
        out[outcome] += Fraction(w, perm(cards, drawn))
    return dict(out)


def counts_of(cards, rules: Rules) -> tuple:
    c: dict = defaultdict(int)
    for card in cards:
        c[kind(card, rules)] += 1
    return tuple(sorted(c.items(), key=repr))


def attack(hand_a, hand_d, rules: Rules) -> dict[AttackOutcome, Fraction]:
    """:func:`known_hands` for two hands of cards, the rest of the rules' deck turned up."""
    rest = [c for c in deck(rules) if c not in hand_a and c not in hand_d]
    ka = tuple(kind(c, rules) for c in hand_a)
    kd = tuple(kind(c, rules) for c in hand_d)
    return known_hands(ka, kd, counts_of(rest, rules), rules)


def every_deal(a: int, d: int, rules: Rules) -> dict[AttackOutcome, Fraction]:
    """Greedy v greedy averaged over every deal of ``a`` and ``d`` cards (FM-1, FM-2)."""
    cards = deck(rules)
    total: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    memo: dict = {}
    counted: dict = defaultdict(int)  # deals of the same card kinds, counted together
    for hand_a in itertools.combinations(cards, a):
        others = [c for c in cards if c not in hand_a]
        for hand_d in itertools.combinations(others, d):
            key = tuple(tuple(sorted((kind(c, rules) for c in h), key=repr)) for h in (hand_a, hand_d))
            if key not in memo:
                memo[key] = attack(hand_a, hand_d, rules)
            counted[key] += 1
    for key, n in counted.items():
        for o, p in memo[key].items():
            total[o] += p * n
    deals = sum(counted.values())
    return {o: p / deals for o, p in total.items() if p}


def compositions(n: int, rules: Rules) -> dict[tuple, Fraction]:
    """What an ``n``-card hand holds over every hand of the rules' deck (FM-1, FM-12):
    {(Numbered, red Trumps, black Trumps, the death card held, jokers): probability}; the
    death card counts with the Trumps of its colour."""
    cards = deck(rules)
    out: dict = defaultdict(int)
    hands = 0
    for hand in itertools.combinations(cards, n):
        hands += 1
        ks = [kind(c, rules) for c in hand]
        out[
            (
                sum(k[0] == "n" for k in ks),
                sum(k[0] == "t" and k[1] == "red" for k in ks),
                sum(k[0] == "t" and k[1] == "black" for k in ks),
                any(k[0] == "t" and k[2] for k in ks),
                sum(k[0] == "t" and k[1] is None for k in ks),
            )
        ] += 1
    return {k: Fraction(v, hands) for k, v in out.items()}
