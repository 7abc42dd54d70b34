"""Fairy Meat's exact calculators under every house rule, against an independent brute force.

The brute force (tests/brute_force_fairy_meat.py) is written from the rule text alone
(docs/rulings.md FM-1..FM-12): every deal of small hands from a small deck and every card
turned up, one at a time. It is compared here with :func:`attack_odds` (known hands, cards
turned up), :func:`deal_averaged_odds` (exact, over every deal), :func:`hand_composition`
/ :func:`hand_compositions` and the FM-2 hand sizes, on random valid rule sets (seeded)
drawn from every field's whole range: the Numbered and Trump ranks, what a Trump is worth,
0-2 jokers, any death card or none, halved damage or any damage table, both Wrestling hands,
both colour rules and every FM-5/FM-7/FM-12 variant. Plus hand arithmetic for the FM-2
``kill_only`` hands and the FM-5 reveal under a damage table.
"""

from __future__ import annotations

import random
from fractions import Fraction

import brute_force_fairy_meat as bf
import pytest

from toolkit.cards import parse_cards
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat import Fairy, Play, Rules, Weapon, resolve_attack, start_combat
from toolkit.fairy_meat.odds import (
    AttackOutcome,
    HandComposition,
    attack_odds,
    deal_averaged_odds,
    hand_composition,
    hand_compositions,
)
from toolkit.fairy_meat.odds.checks import counting_applies
from toolkit.fairy_meat.rules import attacker_hand_size, combat_hand_sizes, defender_hand_size
from toolkit.house_rules import load_rules

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def random_table(rng: random.Random) -> tuple[tuple[str, int], ...]:
    """A random valid damage table (FM-10): ranges from 1, no gap, the last open, damage 0-100."""
    cuts = sorted(rng.sample(range(1, 12), rng.randint(0, 3)))
    rows, lo = [], 1
    for cut in cuts:
        rows.append((str(lo) if lo == cut else f"{lo}-{cut}", rng.choice([0, 1, 2, 3, rng.randint(0, 100)])))
        lo = cut + 1
    rows.append((f"{lo}+", rng.choice([1, 2, 3, rng.randint(0, 100)])))
    return tuple(rows)


def random_rules(rng: random.Random) -> Rules:
    """A random valid rule set with a small deck: every field drawn from its whole range."""
    # 2 Numbered ranks and 1 or 2 Trump ranks (12 or 16 cards) and 0-2 jokers: the counting
    # model holds for every rule set (FM-1, FM-8, FM-12), and the brute force lists every deal
    numbered = rng.sample(RANKS[:9], 2)
    jokers, worth = rng.randint(0, 2), rng.choice([1, 1, 2, rng.randint(1, 10)])
    trumps = rng.sample([r for r in RANKS if r not in numbered], rng.randint(1, 2))
    death = rng.choice([None, *(r + s for r in trumps for s in "SHDC")])
    damage = rng.choice(["halved", "table", "custom"])
    return Rules(
        numbered_ranks=tuple(numbered),
        trump_ranks=tuple(trumps),
        trump_value=worth,
        jokers=jokers,
        attacker_bonus=rng.randint(-10, 10),
        order_card_bonus=rng.randint(-10, 10),
        flutter_penalty=rng.randint(-10, 10),
        points_divisor=rng.choice([1, 2, 2, rng.randint(1, 10)]),
        damage="table" if damage != "halved" else "halved",
        damage_table=random_table(rng) if damage == "custom" else (),
        same_colour_wins=rng.choice(["highest", "lowest"]),
        different_colour_wins=rng.choice(["highest", "lowest"]),
        death_card=death,
        none_reveal=rng.choice(["all_or_nothing", "subset"]),
        undefended=rng.choice(["blind_draw", "unopposed"]),
        nasty_hit=rng.choice(["damaged", "loser"]),
        none_means=rng.choice(["no_trumps", "no_face_down"]),
        wrestling_hand=rng.choice(["as_usual", "kill_only"]),
    )


RULE_SETS = [random_rules(random.Random(seed)) for seed in range(32)]
IDS = [f"seed{i}" for i in range(len(RULE_SETS))]


def test_the_rule_sets_cover_every_fields_range():
    rs = RULE_SETS
    assert len(rs) >= 30
    # jokers, a Trump worth more than 1 and a red death card, each on a 16-card deck too
    wide = [r for r in rs if len(r.trump_ranks) == 2]
    assert any(r.jokers == 2 for r in wide) and any(r.trump_value > 1 for r in wide)
    assert any(r.death_card and r.death_card[-1] in "HD" for r in wide)
    assert any(r.jokers and r.trump_value > 1 and r.death_card and r.death_card[-1] in "HD" for r in rs)
    assert {r.jokers for r in rs} == {0, 1, 2} and {r.wrestling_hand for r in rs} == {"as_usual", "kill_only"}
    assert any(r.trump_value > 2 for r in rs) and any(r.points_divisor > 2 for r in rs)
    assert any(r.death_card is None for r in rs) and any(r.death_card and r.death_card[-1] in "HD" for r in rs)
    assert all(counting_applies(r) for r in rs)  # the counting model holds for every valid rule set
    assert any(r.damage_table for r in rs) and any(r.damage == "table" and not r.damage_table for r in rs)
    assert any(set(r.trump_ranks) & set(RANKS[:9]) for r in rs)  # a number rank as a Trump
    for field in ("same_colour_wins", "different_colour_wins", "none_reveal", "undefended", "nasty_hit", "none_means"):
        assert len({getattr(r, field) for r in rs}) == 2, field


# -- deal-averaged odds: exact against every deal ----------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_deal_averaged_odds_match_the_brute_force_over_every_deal(rules):
    # The counting model for every rule set (jokers, Trump worth, any death card, custom
    # ranks): 1 v 1 and 1 v 0 (a blind draw, FM-7) everywhere; 2 v 1, and 2 v 2 on every
    # fourth rule set, where the brute force is quick (it turns up every order of cards:
    # a 16-card deck with jokers takes it seconds a size)
    i, wide = RULE_SETS.index(rules), len(rules.trump_ranks) > 1
    sizes = ((1, 1), (1, 0)) if wide and rules.jokers else ((1, 1), (1, 0), (2, 1))
    sizes += ((2, 2),) if i % 4 == 0 and not (wide and rules.jokers) else ()
    for a, d in sizes:
        exact = deal_averaged_odds(a, d, "greedy", rules, method="exact")
        assert exact.exact
        assert dict(exact.distribution.items()) == bf.every_deal(a, d, rules), (a, d, rules.variant_name())


# -- known hands: attack_odds, cards turned up ------------------------------------------------
def _known_hands(rules: Rules, rng: random.Random) -> list[tuple[tuple, tuple]]:
    """Hands that make someone turn cards up (a Trump-only hand, an empty defender) and
    hands with Trumps to place, from the rules' deck."""
    deck = list(bf.deck(rules))
    numbered = [c for c in deck if bf.kind(c, rules)[0] == "n"]
    trumps = [c for c in deck if bf.kind(c, rules)[0] == "t"]
    out = []
    for _ in range(1):
        t = rng.sample(trumps, min(2, len(trumps)))
        n = rng.sample(numbered, 2)
        out += [((t[0],), (n[0],)), ((n[0], *t[1:]), (t[0],)), ((n[0], t[0]), ()), ((t[0],), ()), ((n[0],), (n[1],))]
    return out


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_attack_odds_match_the_brute_force_on_known_hands(rules):
    rng = random.Random(repr(rules))
    for hand_a, hand_d in _known_hands(rules, rng):
        got = dict(attack_odds(hand_a, hand_d, "greedy", rules).items())
        assert got == bf.attack(hand_a, hand_d, rules), (hand_a, hand_d, rules.variant_name())


# -- what hands hold ---------------------------------------------------------------------------
def _as_tuple(h: HandComposition) -> tuple:
    return (h.numbered, h.red_trumps, h.black_trumps, h.ace_of_spades, h.jokers)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_hand_composition_matches_every_hand_of_the_rules_deck(rules):
    for n in (0, 1, 2, 3):
        got = {_as_tuple(h): p for h, p in hand_composition(n, rules).items()}
        assert got == bf.compositions(n, rules), n
    joint = hand_compositions(2, 1, rules)
    assert joint.marginal(0) == hand_composition(2, rules) and joint.marginal(1) == hand_composition(1, rules)


def test_hand_composition_under_tens_are_trumps_by_hand():
    # FM-1: 2-9 Numbered (32 cards), 10 J Q K A Trumps: 10 red, 9 black but the A♠, the A♠.
    tens = load_rules("fairy-meat", "tens_are_trumps")
    one = hand_composition(1, tens)
    assert one.probability(lambda h: h.numbered == 1) == Fraction(32, 52)
    assert one.probability(lambda h: h.red_trumps == 1) == Fraction(10, 52)
    assert one.probability(lambda h: h.black_trumps == 1) == Fraction(10, 52)  # the A♠ included
    two = hand_composition(2, tens)
    assert two.probability(lambda h: h.numbered == 0) == Fraction(20 * 19, 52 * 51)
    assert hand_composition(2).probability(lambda h: h.numbered == 0) == Fraction(16 * 15, 52 * 51)  # the draft's
    jokers = hand_composition(1, Rules(jokers=2))
    assert jokers.probability(lambda h: h.jokers == 1) == Fraction(2, 54)
    red_death = hand_composition(1, Rules(death_card="AH"))
    assert red_death.probability(lambda h: h.ace_of_spades and h.red_trumps == 1) == Fraction(1, 52)
    with pytest.raises(InvalidSetupError, match="the deck holds 48"):
        hand_composition(49, Rules(numbered_ranks=tuple("3456789") + ("10",)))
    with pytest.raises(InvalidSetupError, match="rules must be a fairy_meat Rules"):
        hand_composition(1, "tens")


# -- FM-2 hand sizes -----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_hand_sizes_match_the_rule_text(rules):
    rng = random.Random(repr(rules))
    for _ in range(20):
        kill_a, live_d, kill_d = rng.randint(0, 6), rng.randint(1, 6), rng.randint(0, 6)
        weapon = Weapon("w", attack_bonus=rng.randint(-2, 2), defence_modifier=rng.randint(-2, 2))
        fluttered, order_card, wrestling = (rng.random() < 0.5 for _ in range(3))
        mod_a, mod_d = rng.randint(-3, 3), rng.randint(-3, 3)
        attacker = Fairy("A", live=3, kill=kill_a, weapon=weapon)
        defender = Fairy("D", live=live_d, kill=kill_d)
        got = combat_hand_sizes(
            attacker,
            defender,
            attacker_modifiers=mod_a,
            defender_modifiers=mod_d,
            fluttered=fluttered,
            holds_order_card=order_card,
            wrestling=wrestling,
            rules=rules,
        )
        want = bf.hand_sizes(
            (kill_a, weapon.attack_bonus, fluttered, mod_a),
            (live_d, kill_d, order_card, weapon.defence_modifier, mod_d),
            wrestling,
            rules,
        )
        assert got == want


def test_kill_only_wrestling_hands_are_exactly_kill_points_by_hand():
    # FM-2 variant wrestling_hand="kill_only": both draw exactly their Kill points, no +1, no modifiers.
    kill_only = Rules(wrestling_hand="kill_only")
    ann = Fairy("Ann", live=2, kill=3, weapon=Weapon("axe", attack_bonus=2, defence_modifier=-1))
    bo = Fairy("Bo", live=4, kill=1)
    assert attacker_hand_size(ann, modifiers=1, wrestling=True, rules=kill_only) == 3  # not 3 + 1
    assert attacker_hand_size(ann, modifiers=-2, fluttered=True, wrestling=True, rules=kill_only) == 3
    assert defender_hand_size(bo, ann, modifiers=2, holds_order_card=True, wrestling=True, rules=kill_only) == 1
    # as usual: Kill 3 + axe 2 + 1 for attacking + 1 = 7; Bo: Kill 1 + Order Card 1 - axe 1 + 2 = 3
    assert attacker_hand_size(ann, modifiers=1, wrestling=True) == 7
    assert defender_hand_size(bo, ann, modifiers=2, holds_order_card=True, wrestling=True) == 3
    state = start_combat(ann, bo, kill_only, wrestling=True, attacker_modifiers=2, defender_modifiers=-1)
    assert state.hand_sizes == (3, 1)  # the engine deals what the rule says


# -- FM-5: the reveal is the one better for the chooser, by damage -------------------------------
def test_none_rule_reveal_deals_the_most_damage_under_a_table_by_hand():
    # The defender said None, so the attacker's face-down 3 red Trumps stay hidden; she
    # reveals all or none (FM-5). 7H v 2H, both red: highest wins (FM-9).
    # Hidden: 7 - 2 = 5, 3 points (ceil 5/2); revealed: 10 - 2 = 8, 4 points. With the table
    # {1-5: 5, 6+: 1} (FM-10) hidden deals 5 damage, revealed 1: she keeps them hidden,
    # though revealing would score more points.
    table = Rules(damage_table=(("1-5", 5), ("6+", 1)))
    r = resolve_attack(Play("7H", trumps=("JH", "QH", "KH")), Play("2H"), table)
    assert (r.winner, r.difference, r.points, r.damage) == ("attacker", 5, 3, 5)
    assert r.revealed["attacker"] == () and len(r.hidden["attacker"]) == 3
    # halved damage: revealing scores 4 points (4 damage) against 3: she reveals
    r = resolve_attack(Play("7H", trumps=("JH", "QH", "KH")), Play("2H"))
    assert (r.difference, r.damage) == (8, 4) and len(r.revealed["attacker"]) == 3


def test_none_rule_reveal_ties_are_broken_by_the_colour_rule_by_hand():
    # Equal damage either way: the larger winning margin under the colour rule in force (FM-9).
    # 3H v 9S, different colours, lowest wins (default): attacker Subtract with 2 hidden red
    # Trumps: hidden 3 v 9 (margin 6), revealed 1 v 9 (margin 8). Table 1+: 2 damage both.
    flat = Rules(damage_table=(("1+", 2),))
    r = resolve_attack(Play("3H", trumps=("JH", "QH"), direction="subtract"), Play("9S"), flat)
    assert (r.attacker_value, r.damage) == (1, 2) and len(r.revealed["attacker"]) == 2
    # Same cards with different colours judged highest-wins: adding up is the better margin
    high = Rules(damage_table=(("1+", 2),), different_colour_wins="highest")
    r = resolve_attack(Play("3H", trumps=("JH", "QH"), direction="add"), Play("2S"), high)
    assert (r.attacker_value, r.winner) == (5, "attacker") and len(r.revealed["attacker"]) == 2
    r = resolve_attack(Play("9H", trumps=("JH", "QH"), direction="subtract"), Play("2S"), high)
    assert (r.attacker_value, r.winner) == (9, "attacker") and r.revealed["attacker"] == ()  # 7 > 5


def test_the_defender_keeps_her_points_the_attacker_her_damage_in_the_odds():
    # attack_odds sees the referee's choice: 7H + 3 hidden red Trumps v 2H, the defender says
    # None (a Numbered card and no Trump), FM-5 under the table above: 5 damage, 3 points.
    table = Rules(damage_table=(("1-5", 5), ("6+", 1)))
    odds = attack_odds("7H JH QH KH", "2H", "greedy", table)
    assert odds.items() == [(AttackOutcome("attacker", 3, 5, False), Fraction(1))]
    assert odds.items() == list(bf.attack(parse_cards("7H JH QH KH"), parse_cards("2H"), table).items())


# -- the cases, pinned ------------------------------------------------------------------
def test_tens_are_trumps_turned_up_cards_by_the_brute_force():
    tens = load_rules("fairy-meat", "tens_are_trumps")
    win = lambda o: o.winner == "attacker"
    # 5H v QS: the defender's Wild Trump turns up cards from a deck whose 10s are Trumps (FM-1, FM-6).
    want = bf.attack(parse_cards("5H"), parse_cards("QS"), tens)
    got = attack_odds("5H", "QS", rules=tens)
    assert dict(got.items()) == want
    assert round(float(got.probability(win)), 4) == 0.6769  # the engine stepped card by card
    # 10H is a Trump: the attacker plays it as a Wild Trump and turns up cards (raised before)
    assert dict(attack_odds("10H", "4D", rules=tens).items()) == bf.attack(parse_cards("10H"), parse_cards("4D"), tens)
    # another death card, black (the draw law) or red (card by card), turned up or played (FM-12)
    for rules in (Rules(death_card="KC"), Rules(death_card="AH")):
        for hand_a, hand_d in (("QS", "5D"), ("5D", "JH"), ("KC 5D", "JH"), ("KC 5D", "")):
            got = dict(attack_odds(hand_a, hand_d, rules=rules).items())
            assert got == bf.attack(parse_cards(hand_a), parse_cards(hand_d), rules), (hand_a, hand_d, rules)
