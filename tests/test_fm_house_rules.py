"""Fairy Meat house rules (issue 11): every number and table of the draft is a field of
``toolkit.fairy_meat.Rules``, validated, and the engine, referee and calculators follow it.

References: hand arithmetic from the rule text (docs/rulings.md FM-1..FM-12 with the
changed numbers), and an independent brute force written here from the rule text (not
from the toolkit's referee, engine or calculators) over every deal of 1 v 1 and 1 v 0
hands and every Wild Trump draw, compared with the exact calculator on many random valid
rule sets (seeded).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from functools import cache, partial
from math import comb, perm

import brute_force_fairy_meat as bf
import pytest

from toolkit.cards import Card
from toolkit.errors import IllegalActionError, InvalidSetupError
from toolkit.fairy_meat import (
    Fairy,
    Play,
    Rules,
    combat_stepper,
    load_example,
    odds_explorer,
    resolve_attack,
    start_combat,
    to_example,
)
from toolkit.fairy_meat.deck import deck_cards, type_caps
from toolkit.fairy_meat.odds import AttackOutcome, attack_odds, deal_averaged_odds
from toolkit.fairy_meat.odds.checks import counting_applies
from toolkit.fairy_meat.odds.families import type_key
from toolkit.fairy_meat.odds.known_hands import enumerate_attack, start_known_hands
from toolkit.fairy_meat.policies import POLICIES
from toolkit.fairy_meat.rules import (
    RULEBOOK_DAMAGE_TABLE,
    attacker_hand_size,
    combat_hand_sizes,
    defender_hand_size,
)
from toolkit.house_rules import RuleFieldError, load_rules, rules_files

A, D = "attacker", "defender"


# -- the fields and their validation ---------------------------------------------------------
@pytest.mark.parametrize(
    "fields,field,accepted",
    [
        ({"damage_table": {"1-3": 1, "5+": 2}}, "damage_table", "a gap at a difference of 4"),
        ({"damage_table": {"1-4": 1, "3+": 2}}, "damage_table", "an overlap"),
        ({"damage_table": {"1-4": 1, "5-8": 2}}, "damage_table", "end with an open range"),
        ({"damage_table": {"2+": 1}}, "damage_table", "a gap at a difference of 1"),
        ({"damage_table": {"1+": -1}}, "damage_table", "whole number from 0 to 100"),
        ({"damage_table": {"one": 1}}, "damage_table", "not a range of differences"),
        ({"trump_ranks": ["10", "J"]}, "trump_ranks", "10 is also in numbered_ranks"),
        ({"numbered_ranks": ["J"]}, "numbered_ranks", "the ranks accepted are 2, 3"),
        ({"numbered_ranks": []}, "numbered_ranks", "non-empty list of ranks"),
        ({"trump_ranks": ["Q", "Q"]}, "trump_ranks", "listed twice"),
        ({"points_divisor": 0}, "points_divisor", "whole number from 1 to 10"),
        ({"trump_value": 0}, "trump_value", "whole number from 1 to 10"),
        ({"jokers": 3}, "jokers", "whole number from 0 to 2"),
        ({"attacker_bonus": "two"}, "attacker_bonus", "whole number from -10 to 10"),
        ({"flutter_penalty": True}, "flutter_penalty", "whole number"),
        ({"same_colour_wins": "middle"}, "same_colour_wins", "'highest' or 'lowest'"),
        ({"death_card": "5H"}, "death_card", "is not a Trump"),
        ({"trump_ranks": ["J", "Q", "K"]}, "death_card", "name one of their cards, or 'none'"),
        ({"death_card": "XX"}, "death_card", "card code like 'AS'"),
    ],
)
def test_every_field_is_validated_naming_it_and_what_is_accepted(fields, field, accepted):
    with pytest.raises(RuleFieldError) as caught:
        Rules(**{k: tuple(v.items()) if isinstance(v, dict) else v for k, v in fields.items()})
    assert caught.value.field == field and field in str(caught.value) and accepted in str(caught.value)
    with pytest.raises(InvalidSetupError, match=field):
        Rules.from_mapping(fields)


def test_a_bad_field_in_a_file_names_the_line(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("system: fairy-meat\nnotes: x\npoints_divisor: 1\ndamage_table:\n  1-3: 1\n  5+: 2\n")
    with pytest.raises(InvalidSetupError, match=r"house.yaml:[45]: damage_table \(Damage table\) has a gap"):
        load_rules("fairy-meat", path)


def test_the_table_variant_keeps_its_name_and_the_rule_books_preset():
    assert Rules(damage="table").table == RULEBOOK_DAMAGE_TABLE == (("1-4", 1), ("5-8", 2), ("9+", 3))
    custom = Rules.from_mapping({"damage_table": {"1-2": 0, "3-5": 1, 6: 2, "7+": 4}})
    assert custom.damage == "table"  # giving a table is choosing the table (FM-10)
    assert custom.table == (("1-2", 0), ("3-5", 1), ("6", 2), ("7+", 4))
    assert Rules.from_mapping(custom.to_mapping()) == custom
    assert Rules.from_mapping({"numbered_ranks": [2, 3, "T"], "trump_ranks": "A"}).numbered_ranks == ("2", "3", "10")


def test_shipped_files_change_what_their_notes_say():
    files = {p.stem: load_rules("fairy-meat", p) for p in rules_files("fairy-meat")}
    assert files["unhalved_damage"] == Rules(points_divisor=1)
    assert files["attacker_plus2"] == Rules(attacker_bonus=2)
    assert files["tens_are_trumps"].trump_ranks == ("10", "J", "Q", "K", "A")


def test_hand_size_terms_by_hand():
    # FM-2: Kill 3 + weapon 0 + bonus for attacking - the Fluttered penalty; Live 2 + Order Card bonus.
    dizzy, sparky = Fairy("Dizzytwig", live=3, kill=3), Fairy("Sparklespaz", live=2, kill=1)
    assert attacker_hand_size(dizzy) == 4 and attacker_hand_size(dizzy, fluttered=True) == 3
    rules = Rules(attacker_bonus=2, flutter_penalty=3, order_card_bonus=2)
    assert attacker_hand_size(dizzy, rules=rules) == 5
    assert attacker_hand_size(dizzy, fluttered=True, rules=rules) == 2
    assert defender_hand_size(sparky, holds_order_card=True, rules=rules) == 4
    assert combat_hand_sizes(dizzy, sparky, holds_order_card=True, rules=Rules(order_card_bonus=0)) == (4, 2)
    assert attacker_hand_size(dizzy, rules=Rules(attacker_bonus=-5)) == 0  # never below 0


# -- the referee under house rules, by hand ----------------------------------------------------
def test_trump_value_points_divisor_and_damage_table_by_hand():
    # 5H + 2 matching Trumps worth 3 each = 11 against 4H: same colour, highest wins by 7.
    a, d = Play("5H", trumps=("KH", "QH")), Play("4H")
    r = resolve_attack(a, d, Rules(trump_value=3))
    assert (r.attacker_value, r.winner, r.points, r.damage) == (11, A, 4, 4)  # ceil(7/2)
    r = resolve_attack(a, d, Rules(trump_value=3, points_divisor=3))
    assert (r.points, r.damage) == (3, 3)  # ceil(7/3)
    r = resolve_attack(a, d, Rules(trump_value=3, points_divisor=1))
    assert (r.points, r.damage) == (7, 7)  # the full difference
    table = Rules.from_mapping({"trump_value": 3, "damage_table": {"1-6": 1, "7": 5, "8+": 9}})
    assert resolve_attack(a, d, table).damage == 5
    assert resolve_attack(a, d, Rules(trump_value=3, damage="table")).damage == 2  # rule book: 5-8 -> 2


def test_the_colour_rule_by_hand():
    same, different = (Play("9H"), Play("3D")), (Play("9H"), Play("3S"))
    assert resolve_attack(*same).winner == A and resolve_attack(*different).winner == D
    flipped = Rules(same_colour_wins="lowest", different_colour_wins="highest")
    assert resolve_attack(*same, flipped).winner == D and resolve_attack(*different, flipped).winner == A
    both_high = Rules(different_colour_wins="highest")
    assert resolve_attack(*different, both_high).winner == A
    # FM-8 under the flipped rule: the opponent of a cheat still moves the values her way.
    cheat, honest = Play("5H", trumps=("KS",)), Play("7D", trumps=("QD",), direction="subtract")
    r = resolve_attack(cheat, honest, flipped)  # both red: the lowest wins
    assert (r.attacker_value, r.defender_value, r.winner) == (6, 5, D)  # she raises the 5, lowers her 6
    r = resolve_attack(cheat, honest)  # both red: the highest wins
    assert (r.attacker_value, r.defender_value, r.winner) == (4, 7, D)


def test_the_death_card_and_trump_ranks_by_hand():
    r = resolve_attack(Play("9S", trumps=("KS",)), Play("2S"), Rules(death_card="KS"))
    assert r.nasty_hit_to == (D,) and "King of Spades" in r.explain()
    assert resolve_attack(Play("9S", trumps=("AS",)), Play("2S"), Rules(death_card="KS")).nasty_hit_to == ()
    assert resolve_attack(Play("9S", trumps=("AS",)), Play("2S"), Rules(death_card=None)).nasty_hit_to == ()
    tens = Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A"))
    r = resolve_attack(Play("5H", trumps=("10H",), rules=tens), Play("4H", rules=tens), tens)
    assert (r.attacker_value, r.points) == (6, 1)
    with pytest.raises(IllegalActionError, match=r"10H is not a Numbered card: Numbered cards are 2 3 4 5 6 7 8 9"):
        resolve_attack(Play("10H"), Play("4H"), tens)
    with pytest.raises(IllegalActionError, match=r"JH cannot be played as Trumps: Trumps are A"):
        resolve_attack(Play("5H", trumps=("JH",)), Play("4H"), Rules(trump_ranks=("A",)))


def test_a_joker_matches_every_card_by_hand():
    jokers = Rules(jokers=2)
    a, d = Play("5H", trumps=("JK1", "KH"), rules=jokers), Play("4S", trumps=("JK2",), rules=jokers)
    r = resolve_attack(a, d, jokers)
    assert (r.attacker_value, r.defender_value) == (7, 5)  # no cheating: each joker matches its card
    assert r.winner == D  # different colours: the lowest wins


def test_the_engine_deals_from_the_rules_deck():
    tens = Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A"), jokers=1)
    assert len(deck_cards(tens)) == 53 and sum(type_caps(tens)) == 53
    state = start_combat(Fairy("A", 3, 2), Fairy("B", 2, 1), tens, hands=("10H 5H JK1", "4D 9S"))
    state = state.apply("declare add").apply("declare add")
    assert "trumps 10H JK1" in state.legal_actions() and state.pile.size == 48
    no_twos = Rules(numbered_ranks=tuple("3456789") + ("10",))
    with pytest.raises(InvalidSetupError, match=r"2H not in the 48-card deck of these rules"):
        start_combat(Fairy("A", 3, 2), Fairy("B", 2, 1), no_twos, deck="2H")
    with pytest.raises(InvalidSetupError, match=r"2H not in the 48-card deck"):
        start_combat(Fairy("A", 3, 0), Fairy("B", 1, 1), no_twos, hands=("2H 3H", "4H"), attacker_modifiers=-0)


# -- an independent brute force, from the rule text ---------------------------------------------
def _kind(card: Card, rules: Rules) -> str:
    """FM-1 under the rules: 'n' Numbered, 't' Trump."""
    if card.is_joker:
        return "t"
    return "n" if card.rank in rules.numbered_ranks else "t"


def _trump(card: Card, rules: Rules) -> tuple[str | None, bool]:
    """What a Trump is to the rules (FM-1, FM-8, FM-12): its colour (None: a joker, which
    matches every card) and whether it is the death card."""
    return (None if card.is_joker else card.colour, card.code == rules.death_card)


def _type(card: Card, rules: Rules) -> tuple:
    """What a card is to the rules: ("n", colour, pips) or ("t", colour or None, death)."""
    if _kind(card, rules) == "n":
        return ("n", card.colour, card.pips)
    return ("t", *_trump(card, rules))


def _counts(deck, rules: Rules) -> tuple:
    counts: dict = defaultdict(int)
    for c in deck:
        counts[_type(c, rules)] += 1
    return tuple(sorted(counts.items(), key=str))


@cache
def _runs(counts: tuple) -> dict[tuple[tuple, tuple], int]:
    """FM-6: cards are turned up one by one until a Numbered card appears, from a deck of
    ``counts`` (card kinds and how many). Returns {(the Trumps turned up before it, sorted;
    the Numbered card's kind): the ordered ways to turn them up}: the ordered ways to turn up
    those Trumps first (:func:`_trump_orders`) times the Numbered cards of that kind. The next
    card is any card left with equal chance, so the probability is the ways over
    ``perm(cards in the deck, cards turned up)`` (integer weights: exact, and much quicker
    than a Fraction at every step)."""
    numbered = [(kind, count) for kind, count in counts if kind[0] == "n"]
    trumps = tuple((kind, count) for kind, count in counts if kind[0] != "n")
    return {(turned, kind): ways * count for turned, ways in _trump_orders(trumps).items() for kind, count in numbered}


@cache
def _trump_orders(trumps: tuple) -> dict[tuple, int]:
    """Every multiset of Trumps that can be turned up first from a deck holding ``trumps``
    (Trump kinds and how many, any Numbered cards beside them), sorted: the ordered ways to
    turn them up, building them one card at a time (the Numbered cards only end a run, so
    decks with the same Trumps share these; memoised)."""
    kinds = dict(trumps)
    order = {kind: i for i, kind in enumerate(sorted(kinds, key=str))}
    out: dict[tuple, int] = {}
    frontier: dict[tuple, int] = {(): 1}
    while frontier:
        out.update(frontier)
        nxt: dict[tuple, int] = defaultdict(int)
        for turned, ways in frontier.items():
            for kind, count in kinds.items():
                remaining = count - turned.count(kind)
                if remaining:
                    nxt[tuple(sorted((*turned, kind), key=order.__getitem__))] += ways * remaining
        frontier = nxt
    return out


def _without(counts: tuple, cards: tuple) -> tuple:
    kinds = dict(counts)
    for kind in cards:
        kinds[kind] -= 1
    return tuple(sorted(((k, v) for k, v in kinds.items() if v), key=str))


@cache
def _side(worth: int, number: tuple, trumps: tuple, sign: int) -> tuple:
    """A side as FM-8..FM-12 judge it, from what a Trump is worth under the rules, its
    Numbered card's kind, the Trumps applied (as kinds) and its sign: (its colour, its value,
    its cheating Trumps, whether the death card is among its Trumps). A Trump of the card's
    colour (or a joker) adds or subtracts the trump value; one of the other colour cheats.
    (Memoised: the same few sides come up from every deck left.)"""
    matching = sum(1 for _, colour, _ in trumps if colour is None or colour == number[1])
    death = any(kind[2] for kind in trumps)
    return (number[1], number[2] + sign * worth * matching, len(trumps) - matching, death)


def _judge(rules: Rules, side_a: tuple, side_d: tuple) -> AttackOutcome:
    """FM-8..FM-12 from the rule text: each side as :func:`_side` gives it."""
    value, cheats = [side_a[1], side_d[1]], [side_a[2], side_d[2]]
    same = side_a[0] == side_d[0]
    wins = rules.same_colour_wins if same else rules.different_colour_wins
    # FM-8: each cheating Trump lets the opponent move each value by 1, her best way.
    up = 1 if wins == "highest" else -1
    for cheater in (0, 1):
        chooser = 1 - cheater
        value[chooser] += up * cheats[cheater]
        value[cheater] -= up * cheats[cheater]
    if value[0] == value[1]:
        return AttackOutcome("draw", 0, 0, False)
    attacker_wins = (value[0] > value[1]) == (wins == "highest")
    diff = abs(value[0] - value[1])
    points = -(-diff // rules.points_divisor)
    if rules.damage == "table":
        damage = next(d for k, d in rules.table if k.endswith("+") or diff <= int(k.split("-")[-1]))
    else:
        damage = points
    damage = damage if attacker_wins else 0
    death = side_a[3] or side_d[3]
    nasty = death and (damage > 0 if rules.nasty_hit == "damaged" else True)
    return AttackOutcome(A if attacker_wins else D, points, damage, nasty)


@cache
def _drawn_sides(worth: int, counts: tuple, own: tuple, sign: int) -> tuple[tuple[tuple, int, int], ...]:
    """A side that draws from a deck of ``counts`` (FM-6; ``own``: its own Trump, or none
    for a blind draw, FM-7), a Trump worth ``worth``: (its side as :func:`_side` gives it,
    the cards it turns up, the ordered ways), the draws that give the same side and number
    of cards merged."""
    merged: dict[tuple[tuple, int], int] = defaultdict(int)
    for (turned, number), ways in _runs(counts).items():
        merged[(_side(worth, number, turned + own, sign), len(turned) + 1)] += ways
    return tuple((side, drawn, ways) for (side, drawn), ways in merged.items())


def _greedy_sign(kind: tuple) -> int:
    """The greedy declaration with one card (FM-3): Add for a card of 6 or more or a Trump."""
    return 1 if kind[0] == "t" or kind[2] >= 6 else -1


def brute_force_one_card(rules: Rules, defender_cards: int) -> dict[AttackOutcome, Fraction]:
    """Greedy v greedy with 1 card against 1 (or 0: a blind draw, FM-7), every deal and
    every Wild Trump draw (the attacker's first), from the rule text. A greedy fairy with
    one card plays it: a Numbered card, or a Trump as a Wild Trump, turning up cards."""
    deck = deck_cards(rules)
    full = _counts(deck, rules)
    judge = cache(partial(_judge, rules))  # the same pairs of sides come up from every deck left
    totals: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    deals = [(a, d) for a in deck for d in deck if a != d] if defender_cards else [(a, None) for a in deck]
    by_kind: dict[tuple, int] = defaultdict(int)
    for card_a, card_d in deals:
        by_kind[(_type(card_a, rules), None if card_d is None else _type(card_d, rules))] += 1
    for (kind_a, kind_d), n_deals in by_kind.items():
        p_deal = Fraction(n_deals, len(deals))
        rest = _without(full, (kind_a,) + (() if kind_d is None else (kind_d,)))
        sign_a, sign_d = _greedy_sign(kind_a), 1 if kind_d is None else _greedy_sign(kind_d)
        runs_a = {((), kind_a): 1} if kind_a[0] == "n" else _runs(rest)
        # {(outcome, cards turned up by both draws): ordered ways}: the two draws turn up
        # cards of ``rest`` one after the other, so their chance is the ways over perm(|rest|, turned)
        ways: dict[tuple[AttackOutcome, int], int] = defaultdict(int)
        for (turned_a, number_a), ways_a in runs_a.items():
            side_a = _side(rules.trump_value, number_a, turned_a + ((kind_a,) if kind_a[0] == "t" else ()), sign_a)
            drawn_a = len(turned_a) + 1 if kind_a[0] == "t" else 0
            if kind_d is not None and kind_d[0] == "n":
                sides_d: tuple = ((_side(rules.trump_value, kind_d, (), sign_d), 0, 1),)
            else:
                left = rest if kind_a[0] == "n" else _without(rest, (*turned_a, number_a))
                sides_d = _drawn_sides(rules.trump_value, left, () if kind_d is None else (kind_d,), sign_d)
            for side_d, drawn_d, ways_d in sides_d:
                ways[(judge(side_a, side_d), drawn_a + drawn_d)] += ways_a * ways_d
        cards = sum(n for _, n in rest)
        for (outcome, drawn), w in ways.items():
            totals[outcome] += p_deal * Fraction(w, perm(cards, drawn))
    return dict(totals)


def random_rules(rng: random.Random) -> Rules:
    """A random valid rule set with a small deck (FM-1..FM-12 fields, seeded)."""
    numbered = rng.sample([str(p) for p in range(2, 11)], rng.randint(2, 3))
    others = [r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") if r not in numbered]
    trumps = rng.sample(others, 1)
    jokers = rng.choice([0, 0, 1])
    death_pool = [r + s for r in trumps for s in "SHDC"]
    damage_table = rng.choice([(), (("1-2", 1), ("3+", 2)), (("1", 0), ("2-5", 1), ("6+", 3))])
    return Rules(
        numbered_ranks=tuple(numbered),
        trump_ranks=tuple(trumps),
        jokers=jokers,
        trump_value=rng.randint(1, 3),
        points_divisor=rng.randint(1, 3),
        damage=rng.choice(["halved", "table"]),
        damage_table=damage_table,
        same_colour_wins=rng.choice(["highest", "lowest"]),
        different_colour_wins=rng.choice(["highest", "lowest"]),
        death_card=rng.choice([None, *death_pool]),
        nasty_hit=rng.choice(["damaged", "loser"]),
        attacker_bonus=rng.randint(0, 2),
    )


RANDOM_RULES = [random_rules(random.Random(seed)) for seed in range(24)]


@pytest.mark.parametrize("seed", range(len(RANDOM_RULES)), ids=[f"seed{i}" for i in range(len(RANDOM_RULES))])
def test_exact_odds_match_an_independent_brute_force_on_random_rules(seed):
    # Every deal of 1 v 1 (even seeds) or 1 v 0 (odd seeds: the defender draws blind, FM-7).
    rules, d = RANDOM_RULES[seed], 1 - seed % 2
    exact = deal_averaged_odds(1, d, ("greedy", "greedy"), rules, method="exact")
    assert exact.method == "exact"
    assert dict(exact.distribution.items()) == brute_force_one_card(rules, d), rules.variant_name()


def test_random_rules_cover_both_paths_and_every_kind_of_change():
    assert len(RANDOM_RULES) >= 20
    assert any(r.jokers for r in RANDOM_RULES) and any(r.death_card is None for r in RANDOM_RULES)
    assert any(r.damage == "table" for r in RANDOM_RULES) and any(r.trump_value > 1 for r in RANDOM_RULES)


def _random_attack(rng: random.Random, rules: Rules) -> tuple[Play, Play]:
    """Two plays from the rules' deck (FM-1): a Numbered card each, 0-2 Trumps of one
    colour face down (FM-4), and sometimes a Wild Trump with a Trump turned up (FM-6); the
    death card among them more often than not (FM-12)."""
    cards = bf.deck(rules)
    numbered = [c for c in cards if bf.kind(c, rules)[0] == "n"]
    trumps = [c for c in cards if bf.kind(c, rules)[0] == "t"]
    rng.shuffle(trumps)
    if rules.death_card is not None and rng.random() < 0.7:
        trumps.sort(key=lambda c: c.code != rules.death_card and rng.random() < 0.7)
    plays = []
    for number in rng.sample(numbered, 2):
        colour = rng.choice(["red", "black"])
        down = [c for c in trumps if c.is_joker or c.colour == colour][: rng.randint(0, 2)]
        trumps = [c for c in trumps if c not in down]
        wild = drawn = ()
        if len(trumps) >= 2 and rng.random() < 0.3:
            wild, drawn, trumps = trumps[:1], trumps[1:2], trumps[2:]
        direction = rng.choice(["add", "subtract"])
        plays.append(Play(number, tuple(down), direction, tuple(drawn), wild[0] if wild else None, rules=rules))
    return plays[0], plays[1]


def test_the_nasty_hit_falls_where_the_brute_force_puts_it_on_random_rules():
    """FM-12 (with FM-5, FM-8..FM-10) over the random rule sets: who suffers the Nasty Hit,
    the winner and the damage of random attacks, against the brute force from the rule text
    (``tests/brute_force_fairy_meat.py``, its ``nasty_to``), whose odds only say whether
    someone suffers one."""
    seen = defaultdict(int)
    for seed, rules in enumerate(RANDOM_RULES):
        rng = random.Random(seed)
        for _ in range(25):
            a, d = _random_attack(rng, rules)
            sides = [
                {
                    "number": bf.kind(p.number, rules),
                    "sign": p.sign,
                    "placed": tuple(bf.kind(c, rules) for c in p.trumps),
                    "extra": tuple(bf.kind(c, rules) for c in (*p.drawn, *([p.wild] if p.wild else []))),
                }
                for p in (a, d)
            ]
            want = bf.judged_attack(sides[0], sides[1], rules)
            got = resolve_attack(a, d, rules, explain=False)
            assert (got.winner, got.damage, got.nasty_hit_to) == (
                want["winner"],
                want["damage"],
                (want["nasty_to"],) if want["nasty_to"] else (),
            ), (rules.variant_name(), a, d)
            seen[rules.nasty_hit, want["winner"], want["nasty_to"]] += 1
    # both variants, both winners, with and without a Nasty Hit: the comparison can fail
    for key in (("damaged", A, D), ("damaged", D, None), ("loser", A, D), ("loser", D, A)):
        assert seen[key] >= 5, (key, dict(seen))


@pytest.mark.slow
def test_the_brute_force_agrees_with_the_counting_model():
    # The counting model under other points, damage and colour rules, against the brute
    # force over every 1 v 0 deal (under 10 s: the brute force counts with integer weights).
    # It holds for every valid rule set.
    rules = Rules(points_divisor=1, same_colour_wins="lowest", different_colour_wins="lowest", nasty_hit="loser")
    assert all(counting_applies(r) for r in (rules, Rules(jokers=1), Rules(trump_value=2), Rules(death_card="AH")))
    exact = deal_averaged_odds(1, 0, ("greedy", "greedy"), rules, method="exact")
    assert dict(exact.distribution.items()) == brute_force_one_card(rules, 0)


def test_known_hands_follow_the_rules():
    # 10s as Trumps: the 10H is a Trump placed face down and matching the 9H, worth 2; the
    # defender said None, so it stays hidden and the attacker reveals it (FM-5): 11 v 4.
    tens = Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A"), trump_value=2)
    odds = attack_odds("9H 10H", "4H", rules=tens)
    assert odds.items() == [(AttackOutcome(A, 4, 4, False), Fraction(1))]  # ceil(7/2)
    with pytest.raises(InvalidSetupError, match="10H"):
        attack_odds("5H", "10H 4H", rules=Rules(numbered_ranks=tuple("23456789"), trump_ranks=("A",)))


# -- the counting model on custom decks, against the engine over every deal ----------------------
def engine_every_deal(a: int, d: int, policies, rules: Rules) -> dict[AttackOutcome, Fraction]:
    """Every deal of the rules' deck played through the engine, card by card (no draw law):
    Wild Trump draws turned up one card at a time; deals of the same card types share one
    enumeration (FM-1: cards of one type are alike to the rules and the policies)."""
    deck = deck_cards(rules)
    pols = tuple(POLICIES[p] for p in policies)
    types = {c: str(type_key(c, rules)) for c in deck}
    counted: dict = defaultdict(int)  # deals of the same card types, counted together
    first: dict = {}
    for hand_a in itertools.combinations(deck, a):
        rest = [c for c in deck if c not in hand_a]
        for hand_d in itertools.combinations(rest, d):
            key = (tuple(sorted(types[c] for c in hand_a)), tuple(sorted(types[c] for c in hand_d)))
            counted[key] += 1
            first.setdefault(key, (hand_a, hand_d))
    deals = sum(counted.values())
    assert deals == comb(len(deck), a) * comb(len(deck) - a, d)
    totals: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    for key, n in counted.items():
        hand_a, hand_d = first[key]
        outcomes = enumerate_attack(start_known_hands(hand_a, hand_d, rules), pols, draw_law=False)
        for outcome, p in outcomes.items():
            totals[outcome] += p * n
    return {o: p / deals for o, p in totals.items()}


CUSTOM_DECKS = [
    # 10s and Js as Trumps of a 5-rank deck, the J♣ the death card, lowest wins in one colour
    Rules(numbered_ranks=("4", "6", "9"), trump_ranks=("10", "J"), death_card="JC", same_colour_wins="lowest"),
    # no death card, the full difference, the rule book's table
    Rules(numbered_ranks=("2", "5", "8"), trump_ranks=("Q",), death_card=None, points_divisor=1, damage="table"),
    # FM-5 variants on a small deck
    Rules(numbered_ranks=("3", "7"), trump_ranks=("K", "A"), none_means="no_face_down", none_reveal="subset"),
]


@pytest.mark.slow  # about a minute: every deal played card by card through the engine
@pytest.mark.parametrize("rules", CUSTOM_DECKS, ids=["tens-jacks", "no-death-card", "none-variants"])
def test_counting_model_on_custom_decks_matches_the_engine_over_every_deal(rules):
    assert counting_applies(rules)
    exact = deal_averaged_odds(2, 1, ("greedy", "greedy"), rules, method="exact")
    assert dict(exact.distribution.items()) == engine_every_deal(2, 1, ("greedy", "greedy"), rules)
    if rules is CUSTOM_DECKS[1]:  # random play on the smallest deck only (the others take a minute each)
        exact = deal_averaged_odds(1, 1, ("random", "random"), rules, method="exact")
        assert dict(exact.distribution.items()) == engine_every_deal(1, 1, ("random", "random"), rules)


# -- notation, stepper and explorer keep the rules ----------------------------------------------
TENS = Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A"), points_divisor=1)


def test_an_example_keeps_and_names_its_house_rules(tmp_path):
    state = start_combat(Fairy("Dizzytwig", 3, 4), Fairy("Sparklespaz", 2, 1), TENS, deck="KS 10C 5C 4C 3D 2D 10D")
    text = to_example(state, "tens")
    assert "trump_ranks:" in text and "points_divisor: 1" in text  # export writes rules.to_mapping()
    assert load_example(text).start.rules == TENS
    # an example may name a house-rules file, next to it or shipped (issue 11)
    named = text.replace(
        text[text.index("rules:") : text.index("\n", text.index("points_divisor"))], "rules: mine.yaml"
    )
    (tmp_path / "mine.yaml").write_text(TENS.to_yaml(notes="tens"))
    (tmp_path / "ex.yaml").write_text(named)
    assert load_example(tmp_path / "ex.yaml").start.rules == TENS
    shipped = named.replace("rules: mine.yaml", "rules: tens_are_trumps")
    assert load_example(shipped).start.rules == load_rules("fairy-meat", "tens_are_trumps")


def test_the_stepper_and_the_explorer_keep_every_field_of_their_rules():
    stepper = combat_stepper(seed=3, rules=TENS)
    assert stepper.rules == TENS and stepper.state.rules == TENS
    explorer = odds_explorer(attacker_cards=1, defender_cards=1, rules=TENS)
    assert explorer.controls["points_divisor"].value == 1
    before = explorer.distribution
    explorer.controls["points_divisor"].value = 2  # a control changes one field, the others stay
    assert explorer.values["points_divisor"] == 2 and "exact" in explorer.headline_text
    # the odds follow: the exact calculator under the rules with that one field changed
    halved = deal_averaged_odds(1, 1, ("greedy", "greedy"), replace(TENS, points_divisor=2), method="exact")
    assert explorer.distribution == halved.distribution != before
