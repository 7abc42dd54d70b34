"""Every rules field of every system is measured by its headline tables or declared out of
their reach (the system's ``reach`` hook, :class:`toolkit.plugin.headline.Reach`), and the
rule-change report says "not measured by these tables" for a field they cannot see,
naming the calculator that does measure it, never "no change".

The contract: for each field of each registered system with tables (the coin duel of
tests/coin_duel/ included), changing the field to another valid value changes at least one
of the tables the declaration says see it; a field declared unseen changes none of them
(so the declaration cannot go stale either way). The values tried are every other choice
of a Literal, the other truth value, the ends of a whole number's bounds and its
neighbours, or one written here for a field of another type; a new field without one
fails here until it is given one.

Independent checks: AM-6 from the brute force of the rule text (tests/brute_force.py):
a melee character defending against 3 dice with Body 2 rolls 3 dice, so P(damage) goes
from 58/81 to 364/729; the crit table against the same brute force; Fairy Meat's Nasty
Hits against its brute force (tests/brute_force_fairy_meat.py); the Durak battle's
endings under Harsh morale against the figures measured through the API when the gap
was found (6 v 6, d8 leaders: retreats 63.4% → 66.7%).
"""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction
from typing import Any

import coin_duel
import pytest
from brute_force import draft, opposed_with

from toolkit import systems
from toolkit.reports.rule_change import compare_rules
from toolkit.reports.rule_change_systems import headline_tables, reach_of

COIN_DUEL = coin_duel.SYSTEM
systems.unregister("coin-duel")  # ... until this module's tests run: others see the shipped systems
NAMES = [*systems.names("tables"), COIN_DUEL.name]


@pytest.fixture(autouse=True, scope="module")
def coin_duel_registered():
    systems.register(COIN_DUEL)
    yield
    systems.unregister("coin-duel")


#: Small sizes at which every field a table sees shows in it (and the test stays quick).
SIZES: dict[str, dict[str, Any]] = {
    "angry-miniatures": {"max_dice": 3},
    "fairy-meat": {"attacker_cards": [3], "defender_cards": [0, 2]},
    "durak-battle": {"clash_sizes": [1, 2], "tokens_a": [2, 3], "tokens_b": [2, 3], "trials": 200},
    "coin-duel": {"coins": [1, 2, 3]},
}

#: Another value of each field that is not a bool, a Literal or a bounded whole number.
OTHER: dict[tuple[str, str], Any] = {
    ("angry-miniatures", "die_faces"): ("9", "10", "J", "Q", "K", "A", "A"),
    ("angry-miniatures", "hit_faces"): ("10", "J", "Q", "K", "A"),
    ("angry-miniatures", "tie_break_order"): ("J", "Q", "K", "A"),
    ("angry-miniatures", "crit_faces"): ("K", "A"),
    ("durak-battle", "suits"): (("attack", "H"), ("defence", "S"), ("manoeuvre", "D"), ("counter", "C")),
    ("durak-battle", "defence_won"): (1, 1),
    ("durak-battle", "defence_lost"): (2, 2),
    ("durak-battle", "manoeuvre_won"): (1, 1),
    ("durak-battle", "manoeuvre_lost"): (0, 3),
    ("fairy-meat", "numbered_ranks"): ("3", "4", "5", "6", "7", "8", "9", "10"),
    ("fairy-meat", "trump_ranks"): ("Q", "K", "A"),
    ("fairy-meat", "damage_table"): (("1-2", 1), ("3+", 3)),
    ("fairy-meat", "same_colour_wins"): "lowest",
    ("fairy-meat", "different_colour_wins"): "highest",
    ("fairy-meat", "death_card"): None,
    ("coin-duel", "max_coins"): 1,
    ("coin-duel", "tie_rerolls"): 0,
}
#: The rules a field is changed from when the defaults never read it (FM-10: the damage
#: table is read only when damage goes by the table).
FROM: dict[tuple[str, str], dict[str, Any]] = {("fairy-meat", "damage_table"): {"damage": "table"}}


def _others(system: str, rules: type, name: str) -> list[Any]:
    """The values tried for ``name``: see the module's docstring."""
    if (system, name) in OTHER:
        return [OTHER[system, name]]
    default = getattr(rules(), name)
    if isinstance(default, bool):
        return [not default]
    declared = {f.name: f for f in dataclasses.fields(rules)}[name]
    bounds = declared.metadata.get("bounds")
    if bounds:
        low, high = bounds
        return sorted({v for v in (low, default - 1, default + 1, high) if low <= v <= high and v != default})
    hint = typing.get_type_hints(rules)[name]
    if typing.get_origin(hint) is typing.Literal:
        return [v for v in typing.get_args(hint) if v != default]
    return []


def _values(tables: list) -> list[tuple[str, list[Fraction]]]:
    return [(t.spec.key, [c.value for c in t.cells]) for t in tables]


def test_every_system_with_tables_is_covered_here():
    assert set(systems.names("tables")) == set(NAMES) == set(SIZES), "give the new system its small sizes in SIZES"


@pytest.mark.parametrize("system", NAMES)
def test_the_declaration_names_only_fields_and_tables_that_exist(system):
    rules = systems.system(system).rules_class()
    reach = reach_of(system)
    keys = {t.spec.key for t in headline_tables(system, rules(), SIZES[system])}
    assert set(reach.unseen) | set(reach.only) <= set(rules.field_names())
    assert not set(reach.unseen) & set(reach.only)
    assert all(t.key in keys for specs in reach.only.values() for t in specs)


@pytest.mark.parametrize("system", NAMES)
def test_every_rules_field_is_measured_by_its_tables_or_declared_out_of_their_reach(system):
    rules = systems.system(system).rules_class()
    reach = reach_of(system)
    wrong = []
    for name in rules.field_names():
        tried = _others(system, rules, name)
        assert tried, f"{system}.{name}: give it another value in OTHER"
        start = FROM.get((system, name), {})
        base = _values(headline_tables(system, rules(**start), SIZES[system]))
        seeing = {t.key for t in reach.seen_by(name, _specs(system))}
        changed: set[str] = set()
        for value in tried if seeing else tried[:1]:  # one value shows that an unseen field stays unseen
            after = _values(headline_tables(system, rules(**{**start, name: value}), SIZES[system]))
            changed |= {k for (k, v), (_, w) in zip(base, after, strict=True) if v != w}
            if changed & seeing:
                break
        if seeing and not changed & seeing:
            wrong.append(f"{name}: seen by {sorted(seeing)} but no value tried changes them")
        if not seeing and changed:
            wrong.append(f"{name}: declared out of reach but it changes {sorted(changed)}")
    assert not wrong, f"{system}: " + "; ".join(wrong)


def _specs(system: str) -> list:
    rules = systems.system(system).rules_class()
    return [t.spec for t in headline_tables(system, rules(), SIZES[system])]


# -- the report says so ----------------------------------------------------------------------
def test_am6_is_not_measured_by_the_pool_tables_and_the_named_calculator_measures_it():
    change = compare_rules("angry-miniatures", None, {"melee_defence_bonus": True}, {"max_dice": 3})
    (unseen,) = change.out_of_reach()
    assert (unseen.field, unseen.ruling, unseen.before, unseen.after) == ("melee_defence_bonus", "AM-6", False, True)
    (line,) = change.sentences()
    assert "not measured by these tables" in line and "attack_pools" in line and "melee_character=True" in line
    assert "none of these odds" not in line and "no change" not in line
    # the calculator it names: a melee character with Body 2 defends against 3 dice with 3 dice
    from toolkit.angry_miniatures import Character, Rules, attack_pools, opposed

    attacker, defender = Character("A", melee=3), Character("D", body=2, melee_character=True)
    for rules, expected in ((Rules(), Fraction(58, 81)), (Rules(melee_defence_bonus=True), Fraction(364, 729))):
        pools = attack_pools(attacker, defender, "melee", rules=rules)
        hit = opposed(*pools, "melee", rules).probability(lambda o: o.hit)
        brute = sum(p for (dmg, *_), p in opposed_with(*pools, "melee", draft()).items() if dmg > 0)
        assert hit == brute == expected


def test_a_seen_field_beside_an_unseen_one_is_measured_and_the_other_still_said():
    change = compare_rules(
        "angry-miniatures",
        None,
        {"melee_defence_bonus": True, "hit_faces": ["10", "J", "Q", "K", "A"]},
        {"max_dice": 2},
    )
    lines = change.sentences(2)
    assert lines[0].startswith("With inline house rules, ") and "points)" in lines[0]
    assert lines[-1].startswith("Melee defender's extra die (AM-6: no → yes) is not measured by these tables")


def test_a_field_only_the_melee_table_sees_is_out_of_reach_of_ranged_tables():
    change = compare_rules("angry-miniatures", None, {"return_damage": False}, {"max_dice": 2, "attack_type": "ranged"})
    assert change.sentences() == [
        "Melee damage back (AM-3: yes → no) is not measured by these tables: only P(the attacker takes damage "
        "back) can see it, at sizes that draw it."
    ]
    melee = compare_rules("angry-miniatures", None, {"return_damage": False}, {"max_dice": 2})
    assert melee.out_of_reach() == [] and "takes damage back" in melee.sentences()[0]


def test_crits_are_a_headline_and_match_the_brute_force():
    # AM-7: a roll crits with 2+ Aces; the table counts a crit on either roll
    change = compare_rules("angry-miniatures", None, "cheap_crits", {"max_dice": 2})
    crit = next(t for t in change.tables if t.spec.key == "crit")
    cheap = change.proposed.rules
    by_hand = {"crit": set(cheap.crit_faces), "crit_count": cheap.crit_count}
    for c in crit.changes:
        for value, numbers in ((c.before, draft()), (c.after, {**draft(), **by_hand})):
            outcomes = opposed_with(c.row, c.column, "melee", numbers)
            assert value == sum(p for (_, _, ca, cd), p in outcomes.items() if ca or cd)
    assert change.measured(1) and change.out_of_reach() == []


def test_nasty_hits_are_a_headline_and_match_the_brute_force():
    # FM-12 on a 16-card deck (2s, 3s, Kings, Aces): P(a Nasty Hit) from every deal, judged
    # by the rule text (tests/brute_force_fairy_meat.py); without a death card, none
    import brute_force_fairy_meat as bf

    small = {"numbered_ranks": ["2", "3"], "trump_ranks": ["K", "A"]}
    sizes = {"attacker_cards": [2, 3], "defender_cards": [0, 1]}
    change = compare_rules("fairy-meat", small, {**small, "death_card": None}, sizes)
    nasty = next(t for t in change.tables if t.spec.key == "nasty_hit")
    for c in nasty.changes:
        every = bf.every_deal(c.row, c.column, change.baseline.rules)
        assert c.before == sum(p for o, p in every.items() if o.nasty_hit) > 0 and c.after == 0
    assert any("ends in a Nasty Hit" in line for line in change.sentences(10))


def test_the_tie_break_is_out_of_reach_and_the_named_calculator_sees_it():
    # AM-4: who wins a tie is even under the chain and the coin (the faces of a hit are alike
    # on both sides), so P(damage) cannot see it; which side crits when it wins a tie can
    change = compare_rules("angry-miniatures", None, {"tie_break": "coin_flip"}, {"max_dice": 3})
    assert [u.field for u in change.out_of_reach()] == ["tie_break"]
    assert "o.hit and o.attacker_crit" in change.sentences()[0]
    chain, coin = (opposed_with(3, 3, "melee", draft(coin_flip=flip)) for flip in (False, True))

    def hit_and_crit(outcomes: dict) -> Fraction:
        return sum(p for (dmg, _, ca, _), p in outcomes.items() if dmg > 0 and ca)

    assert hit_and_crit(chain) != hit_and_crit(coin)


def test_durak_battles_show_how_they_end():
    # Harsh morale (DB-8) leaves who wins alone between equal armies and makes retreats
    # likelier: 63.4% → 66.7% through battle_outcome, 6 v 6 with d8 leaders, 1,000 clashes
    sizes = {"clash_sizes": [1], "tokens_a": [6], "tokens_b": [6], "trials": 1000}
    change = compare_rules("durak-battle", None, "harsh_morale", sizes)
    tables = {t.spec.key: t for t in change.tables}
    assert list(tables) == ["clash", "battle", "retreat", "destroyed", "long"]
    (retreat,) = tables["retreat"].changes
    assert abs(float(retreat.before) - 0.634) < 0.01 and abs(float(retreat.after) - 0.667) < 0.01
    assert retreat.measurable and retreat.delta > 0
    (longer,) = tables["long"].changes
    assert longer.measurable and longer.delta < 0  # mean rounds 1.108 → 1.039: fewer go past round 1
    (won,) = tables["battle"].changes
    assert not won.measurable
    assert any("ends in a retreat" in line for line in change.sentences(3))


def test_durak_holder_must_attack_is_out_of_reach_of_greedy_tables():
    sizes = {"clash_sizes": [2], "tokens_a": [2], "tokens_b": [2], "trials": 100}
    change = compare_rules("durak-battle", None, {"holder_must_attack": True}, sizes)
    (line,) = change.sentences()
    assert "not measured by these tables" in line and "clash_losses" in line
    from toolkit.durak_battle import Rules, clash_losses

    ahead = [
        clash_losses(2, 2, ("optimal", "optimal"), rules).probability(lambda lost: lost[0] < lost[1])
        for rules in (Rules(), Rules(holder_must_attack=True))
    ]
    assert ahead[0] != ahead[1]  # the calculator it names does measure it
    # and with random play asked for, the tables see it: nothing is said to be out of reach
    randomly = {**sizes, "policies": ["random", "random"]}
    random_play = compare_rules("durak-battle", None, {"holder_must_attack": True}, randomly)
    assert random_play.out_of_reach() == [] and random_play.largest(1)
