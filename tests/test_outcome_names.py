"""Outcomes are values with names: each system's outcome fields are the names the files use,
sides carry the designer's names, the keyword form checks names and values before counting,
and a name that is not there raises listing those that are (never a silent 0%).

Each named query is checked against the positional one and against an independent value:
hand arithmetic or the brute force of ``tests/brute_force*.py``.
"""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import NamedTuple

import brute_force_fairy_meat as bf
import pytest
from brute_force import opposed_bf

from toolkit.angry_miniatures import Character, area_attack, attacks_to_take_out, melee_exchange, odds_table, opposed
from toolkit.cards import parse_cards
from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses
from toolkit.errors import InvalidSetupError, UnknownNameError
from toolkit.fairy_meat import Rules as FairyRules
from toolkit.fairy_meat import attack_odds, deal_averaged_odds
from toolkit.outcome_names import Side, sides, where_event
from toolkit.prob import Distribution

# A battle small enough to be exact: Extra leaders with d4 - 3 Knowledge draw 0 or 1 card.
SMALL = Leader("Small", battle_die="d4", wild_card=False, battle_modifier=-3)


# -- the side itself -------------------------------------------------------------------------
def test_a_side_equals_its_name_and_its_role_and_nothing_else():
    horde, elves = sides(("a", "Horde"), ("b", "Elves"))
    assert horde == "Horde" and horde == "a" and horde != "Elves" and horde != "b"
    assert elves == "b" and elves != horde and "b" in (elves,)
    assert str(horde) == "Horde" and repr(horde) == "'Horde'" and horde.role == "a"
    assert {"Horde": 1}[horde] == 1 and horde in {"Horde"}  # hashes as its name: sets of names find it
    assert pickle.loads(pickle.dumps(horde)) == horde and pickle.loads(pickle.dumps(horde)).role == "a"
    with pytest.raises(UnknownNameError, match=r"no side 'Hordes': the sides are 'Horde' \(side a\) and 'Elves'"):
        _ = horde == "Hordes"
    assert horde != None  # noqa: E711 - None (no winner) is a value, not a name


def test_a_name_is_a_side_name_before_a_role_and_a_shared_name_must_say_its_role():
    # army a called "b": "b" names it, not side b
    called_b, other = sides(("a", "b"), ("b", "Elves"))
    assert called_b == "b" and other != "b" and other == "Elves"
    twin_a, twin_b = sides(("a", "Orcs"), ("b", "Orcs"))  # a mirror match: the role tells them apart
    assert twin_a == "a" and twin_b == "b" and twin_a != twin_b and twin_a != "b"
    assert twin_a == "Orcs" and twin_b == "Orcs"  # each is called it


def test_the_keyword_form_names_what_is_there():
    class Hit(NamedTuple):
        damage: int
        crit: bool

    outcomes = [Hit(0, False), Hit(2, True)]
    assert where_event(outcomes, {"damage": 2})(Hit(2, True))
    with pytest.raises(UnknownNameError, match="no field 'dmg': the outcomes' fields are damage, crit"):
        where_event(outcomes, {"dmg": 2})
    with pytest.raises(UnknownNameError, match=r"crit is never 1: its values are False, True"):
        where_event(outcomes, {"crit": 1})  # 1 is no flag: never counted as True
    with pytest.raises(UnknownNameError, match="damage is never 'two'"):
        where_event(outcomes, {"damage": "two"})
    assert Distribution({Hit(0, False): 1, Hit(2, True): 3}).probability(damage=9) == 0  # a number no outcome reaches
    with pytest.raises(UnknownNameError, match="plain values"):
        Distribution({1: 1, 2: 1}).probability(value=1)
    with pytest.raises(KeyError):  # still a KeyError, as a missing field was
        Distribution({(0, 0): 1}).mean("lost_a")


# -- Durak battle ----------------------------------------------------------------------------
def test_durak_clash_losses_by_name_equal_by_position_and_by_hand():
    r = clash_losses(1, 1, method="exact")
    # by hand: no clash in 39·38 of the 54·53 deals of one card each (DB-3), and no losses
    assert r.probability(lost_a=0, lost_b=0) == r[(0, 0)] == Fraction(39 * 38, 54 * 53)
    assert r.mean("lost_a") == r.mean(0) and r.mean("lost_b") == r.mean(1)
    assert r.mean("lost_a") == r.mean("lost_b")  # one card each, greedy both: the sides are alike
    assert r.interval(lost_a=0, lost_b=0) == (r[(0, 0)], r[(0, 0)])
    assert r.text(lost_a=0, lost_b=0) == r.text((0, 0))
    lost_a, lost_b = r.outcomes()[0]  # unpacks as the pair it was
    assert (lost_a, lost_b) == (0, 0)
    with pytest.raises(UnknownNameError, match="no field 'lost': the outcomes' fields are lost_a, lost_b"):
        r.probability(lost=1)
    with pytest.raises(UnknownNameError, match="has no field 'lost_c'; fields: lost_a, lost_b"):
        r.mean("lost_c")


def test_durak_clash_sides_carry_the_armies_names():
    r = clash_losses(1, 1, method="exact", names=("Horde", "Elves"), tokens=(1, 3))
    j = r.joint
    held_a = j.probability(lambda o: o[2] == "a")  # positional, by role
    assert held_a > 0
    assert j.probability(initiative="Horde") == j.probability(lambda o: o.initiative == "Horde") == held_a
    assert j.probability(destroyed="Horde") == j.probability(lambda o: o[3] == "a") > 0  # one token: DB-7
    assert j.probability(destroyed="both") == 0
    with pytest.raises(UnknownNameError, match=r"initiative is never 'Orcs': its values are 'Horde' \(side a\)"):
        j.probability(initiative="Orcs")
    with pytest.raises(UnknownNameError, match="no side 'Orcs'"):
        j.probability(lambda o: o.destroyed == "Orcs")


def test_durak_battle_winner_is_the_army_named():
    horde = battle_outcome(Army("Horde", 2, SMALL), Army("Elves", 2, SMALL), method="exact")
    plain = battle_outcome(Army("a", 2, SMALL), Army("b", 2, SMALL), method="exact")
    wins_a = plain.probability(lambda o: o[0] == "a")  # the positional query of a battle of plain sides
    assert 0 < wins_a < 1
    assert horde.probability(lambda o: o.winner == "Horde") == wins_a
    assert horde.probability(winner="Horde") == horde.probability(winner="a") == wins_a
    assert horde.winner()["Horde"] == horde.winner()["a"] == wins_a
    assert {o.winner for o in horde.outcomes()} == {"Horde", "Elves", None}
    # the same ends written with the roles: equal distributions, whichever way round
    by_role = horde.winner().map(lambda w: getattr(w, "role", w))
    assert by_role == horde.winner() and horde.winner() == by_role and by_role["a"] == wins_a
    # the three ends add up: each side's wins and no winner
    assert horde.probability(winner="Horde") + horde.probability(winner="Elves") + horde.probability(winner=None) == 1
    assert horde.probability(winner="Horde", how="retreat") == plain.probability(lambda o: o[:2] == ("a", "retreat"))
    assert str(horde.outcomes()[0].winner) in ("Horde", "Elves")
    with pytest.raises(UnknownNameError, match=r"no side 'Hordes': the sides are 'Horde' \(side a\) and 'Elves'"):
        horde.probability(lambda o: o.winner == "Hordes")
    with pytest.raises(UnknownNameError, match="winner is never 'Orcs'"):
        horde.probability(winner="Orcs")
    with pytest.raises(UnknownNameError, match="how is never 'retreats': its values are 'destroyed', 'retreat'"):
        horde.probability(how="retreats")
    with pytest.raises(UnknownNameError, match="no field 'winners': the outcomes' fields are winner, how, rounds"):
        horde.interval(winners="Horde")


# -- Fairy Meat ------------------------------------------------------------------------------
def test_fairy_meat_by_name_equal_by_position_and_the_brute_force():
    r = attack_odds("5H", "JD")  # JD: a Wild Trump, drawn for from the rest of the deck (FM-6)
    brute = bf.attack(parse_cards("5H"), parse_cards("JD"), FairyRules())
    attacker_nasty = sum(p for o, p in brute.items() if o[0] == "attacker" and o[3])
    assert attacker_nasty > 0
    assert r.probability(winner="attacker", nasty_hit=True) == attacker_nasty
    assert r.probability(lambda o: o[0] == "attacker" and o[3]) == attacker_nasty
    two = sum(p for o, p in brute.items() if o[2] >= 2)
    assert r.probability(damage=lambda d: d >= 2) == two
    assert r.mean("points") == sum(p * o[1] for o, p in brute.items())
    assert r.text(winner="defender") == r.text(lambda o: o.winner == "defender")


def test_fairy_meat_names_are_checked_and_printed_as_the_fields():
    r = deal_averaged_odds(1, 1, method="exact")
    with pytest.raises(UnknownNameError, match="no field 'nasty': the outcomes' fields are winner, points, damage"):
        r.probability(nasty=True)
    with pytest.raises(
        UnknownNameError, match=r"winner is never 'Attacker': its values are 'attacker', 'defender', 'draw'"
    ):
        r.probability(winner="Attacker")
    with pytest.raises(
        UnknownNameError, match=r"no side 'atacker': the sides are 'attacker' and 'defender' \(or 'draw'\)"
    ):
        r.probability(lambda o: o.winner == "atacker")
    assert r.probability(lambda o: o.winner == "draw") == r.probability(winner="draw") > 0
    body = str(r).splitlines()[1:]
    assert body and all("nasty_hit=" in line and "winner=" in line for line in body)
    assert not any(" nasty " in line for line in body)


# -- Angry Miniatures ------------------------------------------------------------------------
def test_angry_miniatures_by_name_equal_by_position_and_the_brute_force():
    r = opposed(2, 1, "melee")
    brute = opposed_bf(2, 1, "melee")
    hit = sum(p for k, p in brute.items() if k[0] > 0)
    assert r.probability(hit=True) == r.probability(defender_damage=lambda d: d > 0) == hit
    assert r.probability(defender_damage=1, attacker_crit=True) == sum(
        p for k, p in brute.items() if k[0] == 1 and k[2]
    )
    assert opposed(3, 2, "melee").probability(hit=True) == Fraction(58, 81)  # the 3 v 2 melee table's hit
    with pytest.raises(UnknownNameError, match="no field 'damage': the outcomes' fields are defender_damage"):
        r.probability(damage=1)
    with pytest.raises(UnknownNameError, match="plain values"):
        attacks_to_take_out(3, 2, 3).probability(attacks=2)
    assert area_attack(2, 1) == area_attack(2, [1])  # one defender as a whole number


def test_angry_miniatures_melee_exchange_out_is_the_character():
    grunk, pixie = Character("Grunk", melee=3, body=2, health=2), Character("Pixie", melee=2, body=2, health=2)
    r = melee_exchange(grunk, pixie)
    grunk_out = r.probability(lambda e: e.attacker_health_left == 0)  # positional: her Health is gone
    assert 0 < grunk_out < 1
    assert r.probability(out="Grunk") == r.probability(out="attacker") == grunk_out
    assert r.probability(lambda e: e.out == "Pixie") == 1 - grunk_out
    assert {e.out for e in r.outcomes()} == {"Grunk", "Pixie"}
    with pytest.raises(UnknownNameError, match=r"out is never 'Grunt': its values are 'Grunk' \(side attacker\)"):
        r.probability(out="Grunt")


def test_odds_table_takes_whole_numbers_as_the_command_line_does():
    one = odds_table(3, 2)
    assert list(one["attack_dice"]) == [3] and list(one["defence_dice"]) == [2]
    assert one.equals(odds_table([3], [2]))
    assert one["hit"][0] == Fraction(58, 81)
    with pytest.raises(InvalidSetupError, match="attack_dice must be a whole number"):
        odds_table("three", 2)


def test_side_type_is_a_str():
    assert isinstance(sides(("a", "Horde"))[0], str) and isinstance(Side("a"), Side)


# -- files: a tuning target's value no outcome can have is an error, not 0% -------------------
def _rows(*labels_and_weights):
    from toolkit.plugin.calculator import Row

    return [
        Row(label, "probability", Fraction(w), float(Fraction(w)), True, None, None) for label, w in labels_and_weights
    ]


def _target(event):
    from toolkit.tune.targets import Condition, Measure

    return Measure("probability", event=tuple((f, Condition(values=(v,))) for f, v in event.items()))


def test_a_tuning_value_no_outcome_can_have_is_named_never_a_silent_zero():
    from toolkit.tune.measures import MeasureError, measure_rows

    # One die against none (AM-1: hits J Q K A of six faces): 1/3 no damage, 2/3 one damage.
    rows = _rows(
        ("defender_damage=0, attacker_damage=0, attacker_crit=False, defender_crit=False", "1/3"),
        ("defender_damage=1, attacker_damage=0, attacker_crit=False, defender_crit=False", "2/3"),
    )
    assert measure_rows(_target({"defender_damage": 0}), rows).value == Fraction(1, 3)
    assert measure_rows(_target({"defender_damage": 2}), rows).value == 0  # a number never reached: a true 0
    with pytest.raises(MeasureError, match=r"no outcome is 'no damage': the outcomes are named by their fields"):
        measure_rows(_target({"outcome": "no damage"}), rows)  # the old sentence labels
    with pytest.raises(MeasureError, match=r"defender_damage is never 'none': its values are 0, 1"):
        measure_rows(_target({"defender_damage": "none"}), rows)
    fm = _rows(("winner=attacker, points=1", "1/2"), ("winner=defender, points=1", "1/2"))
    with pytest.raises(MeasureError, match=r"winner is never 'Attacker': did you mean 'attacker'\?"):
        measure_rows(_target({"winner": "Attacker"}), fm)
    assert measure_rows(_target({"winner": "draw"}), fm).value == 0  # a word of the field's kind: no draw here
