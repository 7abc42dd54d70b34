"""Angry Miniatures house rules (issue 11): every number of the draft is a field of
``Rules``, validated, and every calculator, the engine, the stepper, the notation and the
explorer follow it.

The exact calculators are checked against :func:`brute_force_opposed` and
:func:`brute_force_area`, written here from the rule text with the rules as parameters
(AM-1 faces and hits, AM-3 damage and return damage, AM-4 chain, tie damage and
SuperTieBreaker, AM-5, AM-7 crits, AM-8), without the toolkit's referee or counting:
every face sequence of both pools, each face of ``die_faces`` equally likely. They are
compared on many seeded random valid rule sets, on small pools.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from brute_force import area_with, opposed_with

from toolkit.angry_miniatures import (
    Character,
    Modifiers,
    Rules,
    area_attack,
    attack_pools,
    attacks_to_take_out,
    check_expectations,
    compare_rolls,
    crit_probability,
    damage_dealt,
    hit_distribution,
    load_example,
    melee_exchange,
    opposed,
    replay,
    start_attack,
    start_attack_from_pools,
    to_example,
)
from toolkit.angry_miniatures.counting import die_model
from toolkit.angry_miniatures.referee import is_crit
from toolkit.engine import enumerate_outcomes
from toolkit.errors import IllegalActionError, InvalidSetupError
from toolkit.house_rules import RuleFieldError, load_rules, rules_files
from toolkit.montecarlo import sample_outcomes, tolerance

FACES = ("9", "10", "J", "Q", "K", "A")
RANK = {f: i for i, f in enumerate(FACES)}


# -- the independent brute force (tests/brute_force.py), with the house rules' numbers ------
def _plain(rules: Rules) -> dict:
    return {
        "die": list(rules.die_faces),
        "hits": set(rules.hit_faces),
        "chain": list(rules.tie_break_order),
        "crit": set(rules.crit_faces),
        "crit_count": rules.crit_count,
        "tie_damage": rules.tie_damage,
        "return_damage": rules.return_damage,
        "zero_tie": rules.zero_tie,
        "coin_flip": rules.tie_break == "coin_flip",
    }


def brute_force_opposed(n, m, attack_type, rules):
    """{(defender damage, attacker damage, attacker crit, defender crit): Fraction}."""
    return opposed_with(n, m, attack_type, _plain(rules))


def brute_force_area(n, pools, rules):
    """{damage tuple: Fraction}: one magic attack roll against several defenders (AM-8),
    each tied pairing with its own SuperTieBreaker."""
    return area_with(n, pools, _plain(rules))


def as_tuples(dist):
    return {(o.defender_damage, o.attacker_damage, o.attacker_crit, o.defender_crit): p for o, p in dist.items()}


def random_rules(rng: random.Random) -> Rules:
    """A random valid rule set: a die of 2-6 different faces (some twice), hits, a chain of
    some of the hits, crit faces anywhere, the damage and the variants."""
    kinds = sorted(rng.sample(FACES, rng.randint(2, 5)), key=RANK.get)
    die = list(kinds) + rng.sample(kinds, rng.randint(0, 2))
    hits = rng.sample(kinds, rng.randint(1, len(kinds)))
    chain = rng.sample(hits, rng.randint(0, len(hits)))
    fields = {
        "die_faces": tuple(die),
        "hit_faces": tuple(hits),
        "crit_faces": tuple(rng.sample(kinds, rng.randint(1, 2))),
        "crit_count": rng.randint(1, 3),
        "tie_damage": rng.randint(0, 2),
        "return_damage": rng.random() < 0.7,
        "zero_tie": rng.choice(["miss", "super_tiebreak"]),
        "tie_break": "coin_flip" if rng.random() < 0.15 else "chain",
    }
    if rng.random() < 0.8:
        fields["tie_break_order"] = tuple(chain)
    return Rules(**fields)


def fast_shaped_rules(rng: random.Random) -> Rules:
    """A random rule set the closed form (DieModel.fast) takes: every hit face once on the
    die, the crit face first in a chain of all the hits."""
    kinds = sorted(rng.sample(FACES, rng.randint(3, 6)), key=RANK.get)
    hits = rng.sample(kinds, rng.randint(1, len(kinds) - 1))
    blanks = [f for f in kinds if f not in hits]
    chain = rng.sample(hits, len(hits) - (len(hits) > 1 and rng.random() < 0.5))  # all hits, or all but one
    return Rules(
        die_faces=tuple(kinds + rng.sample(blanks, rng.randint(0, len(blanks)))),
        hit_faces=tuple(hits),
        tie_break_order=tuple(chain),
        crit_faces=(chain[0],),
        crit_count=rng.randint(1, 3),
        tie_damage=rng.randint(0, 2),
        return_damage=rng.random() < 0.5,
        zero_tie=rng.choice(["miss", "super_tiebreak"]),
    )


RULE_SETS = [random_rules(random.Random(seed)) for seed in range(40)]
FAST_SETS = [fast_shaped_rules(random.Random(1000 + seed)) for seed in range(12)]
POOLS = [(0, 1), (1, 0), (1, 1), (2, 1), (1, 2), (2, 2), (3, 1)]


def test_the_random_rule_sets_take_both_exact_paths():
    fast = [die_model(r).fast for r in RULE_SETS + FAST_SETS]
    assert sum(fast) >= 12 and fast.count(False) >= 30


@pytest.mark.parametrize("index", range(len(RULE_SETS)))
def test_opposed_matches_the_brute_force_on_random_rules(index):
    rules = RULE_SETS[index]
    for (n, m), attack_type in zip(POOLS, itertools.cycle(["melee", "ranged", "magic"]), strict=False):
        assert as_tuples(opposed(n, m, attack_type, rules)) == brute_force_opposed(n, m, attack_type, rules), (
            rules,
            n,
            m,
            attack_type,
        )


@pytest.mark.parametrize("index", range(len(FAST_SETS)))
def test_the_closed_form_matches_the_brute_force_where_it_applies(index):
    rules = FAST_SETS[index]
    assert die_model(rules).fast
    for n, m in [(1, 1), (2, 2), (3, 1), (2, 3)]:
        assert as_tuples(opposed(n, m, "melee", rules)) == brute_force_opposed(n, m, "melee", rules), rules


@pytest.mark.parametrize("index", range(0, len(RULE_SETS), 3))
def test_area_attack_matches_the_brute_force_on_random_rules(index):
    rules = RULE_SETS[index]
    for n, pools in [(1, [1, 1]), (2, [1, 0]), (1, [2, 1])]:
        assert dict(area_attack(n, pools, rules).items()) == brute_force_area(n, pools, rules), (rules, n, pools)


@pytest.mark.parametrize("index", range(0, len(RULE_SETS), 4))
def test_one_pool_odds_on_random_rules(index):
    rules = RULE_SETS[index]
    die = rules.die_faces
    for n in range(4):
        rolls = list(itertools.product(die, repeat=n))
        hits = Counter(sum(f in rules.hit_faces for f in roll) for roll in rolls)
        assert dict(hit_distribution(n, rules).items()) == {h: Fraction(c, len(rolls)) for h, c in hits.items()}
        crits = sum(sum(f in rules.crit_faces for f in roll) >= rules.crit_count for roll in rolls)
        assert crit_probability(n, rules) == Fraction(crits, len(rolls))


@pytest.mark.parametrize("index", [1, 5, 9, 17, 26])
def test_the_engine_enumerated_matches_opposed_on_random_rules(index):
    rules = RULE_SETS[index]
    for n, m, attack_type in [(2, 1, "melee"), (1, 2, "ranged")]:
        engine = enumerate_outcomes(start_attack_from_pools(n, m, attack_type, rules), lambda s: s.outcome())
        assert engine == opposed(n, m, attack_type, rules), rules


def test_the_engine_sampled_matches_opposed_with_tens_hitting_and_cheap_crits():
    rules = Rules(hit_faces=("10", "J", "Q", "K", "A"), crit_faces=("K", "A"), crit_count=2, tie_damage=2)
    trials = 4000
    exact = opposed(5, 4, "melee", rules)
    sampled = sample_outcomes(start_attack_from_pools(5, 4, "melee", rules), lambda s: s.outcome(), trials, seed=3)
    for outcome, p in exact.items():
        assert abs(sampled[outcome].value - float(p)) <= tolerance(p, trials), outcome


# -- by hand ---------------------------------------------------------------------------
def test_tens_hit_by_hand():
    # AM-1 house rule: 10, J, Q, K, A hit: one die hits 5/6 of the time.
    rules = Rules(hit_faces=("10", "J", "Q", "K", "A"))
    assert hit_distribution(1, rules)[1] == Fraction(5, 6)
    # 1 v 0 dice: the attacker hits on 5/6 (she deals 1); on a 9 both have 0 hits: a miss.
    d = opposed(1, 0, "melee", rules)
    assert d.probability(lambda o: o.defender_damage == 1) == Fraction(5, 6)


def test_repeated_attacks_follow_the_house_rules_by_hand():
    # 1 die against 0 with 10s hitting: each attack deals 1 with 5/6 (a 9 misses, AM-5),
    # so a Health-1 target falls at attack k with (1/6)^(k-1)·5/6 (AM-10).
    tens = Rules(hit_faces=("10", "J", "Q", "K", "A"))
    d = attacks_to_take_out(1, 0, 1, "melee", tens, cap=3)
    assert [d[k] for k in (1, 2, 3)] == [Fraction(5, 6), Fraction(5, 36), Fraction(5, 216)]
    # Without return damage, a melee exchange where only Grunk attacks always ends with
    # Pixie out (she can never hurt him, AM-3 house rule).
    grunk = Character("Grunk", melee=2, body=1, health=2)
    pixie = Character("Pixie", melee=3, body=3, health=2)
    ends = melee_exchange(grunk, pixie, Rules(return_damage=False), alternate=False)
    assert {e.out for e in ends.outcomes()} == {"Pixie"}
    assert {e.out for e in melee_exchange(grunk, pixie, alternate=False).outcomes()} == {"Grunk", "Pixie"}


def test_no_return_damage_by_hand():
    # 0 v 1 melee: the defender hits on 4/6 and by default deals 1 back (AM-3)...
    assert opposed(0, 1, "melee").probability(lambda o: o.attacker_damage == 1) == Fraction(2, 3)
    # ...never with return_damage off.
    assert opposed(0, 1, "melee", Rules(return_damage=False)).probability(lambda o: o.attacker_damage > 0) == 0


def test_tie_damage_and_a_loaded_die_by_hand():
    # A die 9 A A: P(A) = 2/3. 1 v 1, both hit with 4/9: a tie on A each goes to the
    # SuperTieBreaker (nothing left in the chain) and deals tie_damage=3 half the time.
    rules = Rules(die_faces=("9", "A", "A"), hit_faces=("A",), tie_damage=3, crit_count=1)
    d = opposed(1, 1, "ranged", rules)
    assert d.probability(lambda o: o.defender_damage == 3) == Fraction(4, 9) / 2
    assert d.probability(lambda o: o.defender_damage == 1) == Fraction(2, 3) * Fraction(1, 3)
    assert d.probability(lambda o: o.attacker_crit) == Fraction(2, 3)  # crit_count 1: any Ace


def test_cheap_crits_by_hand():
    # 2+ Kings or Aces: 1 - P(0 or 1 of them on 2 dice) = 1 - (4/6)^2 - 2·(2/6)(4/6) = 1/9.
    rules = Rules(crit_faces=("K", "A"))
    assert crit_probability(2, rules) == Fraction(1, 9)
    assert is_crit(("K", "A"), rules) and not is_crit(("K", "A"))
    # a crit on blanks: two 9s (a fumble) on 2 dice is 1/36
    assert crit_probability(2, Rules(crit_faces=("9",))) == Fraction(1, 36)


def test_referee_follows_the_chain_and_damage():
    rules = Rules(tie_break_order=("J", "A"), tie_damage=2, return_damage=False)
    c = compare_rolls(("A", "J"), ("A", "Q"), rules)
    assert (c.winner, c.decided_by) == ("attacker", "Jacks")
    assert damage_dealt(c, "melee", rules=rules) == (2, 0)
    c = compare_rolls(("A", "Q"), ("J", "A"), rules)
    assert c.winner == "defender" and damage_dealt(c, "melee", rules=rules) == (0, 0)
    assert compare_rolls(("A", "Q"), ("A", "J")).decided_by == "Queens"  # default chain


def test_modifier_sizes_by_hand():
    grunk = Character("Grunk", melee=4, ranged=2, body=3)
    pixie = Character("Pixie", body=2, mind=3)
    rules = Rules(charge_dice=2, elevation_dice=0, terrain_dice=2, occupied_dice=3, prone_dice=2)
    assert attack_pools(grunk, pixie, "melee", Modifiers(charge=True, prone=True), rules) == (6, 0)
    mods = Modifiers(higher_elevation=True, hindering_terrain=1, occupied_squares=2)
    assert attack_pools(grunk, pixie, "ranged", mods, rules) == (2, 3 + 2 + 6)
    assert attack_pools(grunk, pixie, "ranged", mods) == (3, 6)  # defaults: 1 each (AM-9)


# -- validation ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fields,field,text",
    [
        ({"hit_faces": ()}, "hit_faces", "no face hits"),
        ({"hit_faces": ("X",)}, "hit_faces", "'X' is not a face"),
        ({"hit_faces": 7}, "hit_faces", "name faces of the die"),
        ({"hit_faces": ("J", "J")}, "hit_faces", "more than once"),
        ({"die_faces": ("9", "10"), "hit_faces": ("A",)}, "hit_faces", "A, not a face of the die"),
        ({"die_faces": ("A", "A")}, "die_faces", "at least two different faces"),
        ({"die_faces": ("A",) * 30 + ("9",) * 31}, "die_faces", "at most 60"),
        ({"tie_break_order": ("A", "10")}, "tie_break_order", "10, not a hit face"),
        (
            {"die_faces": ("9", "10", "J", "A"), "hit_faces": "J A", "tie_break_order": ("K",)},
            "tie_break_order",
            "not a face of the die",
        ),
        ({"tie_break_order": ("A", "A")}, "tie_break_order", "more than once"),
        ({"tie_damage": -1}, "tie_damage", "from 0 to 100"),
        ({"tie_damage": 1.5}, "tie_damage", "whole number"),
        ({"return_damage": "yes"}, "return_damage", "True or False"),
        ({"crit_faces": ()}, "crit_faces", "one or more faces of the die"),
        ({"crit_count": 0}, "crit_count", "from 1 to 20"),
        ({"charge_dice": 11}, "charge_dice", "from 0 to 10"),
        ({"prone_dice": True}, "prone_dice", "whole number"),
        ({"zero_tie": "draw"}, "zero_tie", "not a variant of AM-5"),
    ],
)
def test_each_field_is_validated(fields, field, text):
    with pytest.raises(RuleFieldError) as caught:
        Rules(**fields)
    assert caught.value.field == field and text in str(caught.value) and str(caught.value).startswith(field)


def test_faces_are_read_as_yaml_gives_them(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text("system: angry-miniatures\nnotes: x\nhit_faces: [10, J, Q, K, A]\ndie_faces: 9 10 J Q K A A\n")
    rules = Rules.from_yaml(path)
    assert rules.hit_faces == ("10", "J", "Q", "K", "A") and rules.die_faces.count("A") == 2
    back = tmp_path / "back.yaml"
    back.write_text(rules.to_yaml())
    assert Rules.from_yaml(back) == rules


def test_a_bad_field_in_a_file_names_the_line(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text("system: angry-miniatures\nnotes: x\ncrit_count: 2\ntie_break_order: [A, '10']\n")
    with pytest.raises(
        InvalidSetupError, match=r"h.yaml:4: tie_break_order \(Tie-break order\) names 10, not a hit face"
    ):
        load_rules("angry-miniatures", path)


def test_the_chain_left_out_follows_the_hits():
    assert Rules().tie_break_order == ("A", "K", "Q", "J")
    assert Rules(hit_faces=("10", "J", "Q", "K", "A")).tie_break_order == ("A", "K", "Q", "J")
    assert Rules(hit_faces=("K", "A")).tie_break_order == ("A", "K")
    assert Rules(hit_faces=("K", "A")) == Rules(hit_faces="K A", tie_break_order=["A", "K"])


# -- shipped files, the engine, the notation ------------------------------------------------
def test_shipped_files():
    names = {p.stem for p in rules_files("angry-miniatures")}
    assert {"tens_hit", "no_return_damage", "cheap_crits"} <= names
    assert load_rules("angry-miniatures", "tens_hit").hit_faces == ("10", "J", "Q", "K", "A")
    assert load_rules("angry-miniatures", "no_return_damage").return_damage is False


def test_the_engine_log_follows_the_rules():
    rules = Rules(hit_faces=("10", "J", "Q", "K", "A"), crit_faces=("K", "A"), tie_damage=2)
    state = start_attack_from_pools(2, 2, "melee", rules).apply_all(["10", "K", "A", "9"])
    log = state.log()
    assert "2 hits" in log and "1 hit." in log
    state = start_attack_from_pools(2, 2, "melee", rules).apply_all(["K", "A", "J", "9"])
    assert "Attacker crits (2+ Aces or Kings, AM-7)." in state.log()
    state = start_attack_from_pools(1, 1, "melee", rules).apply_all(["K", "K"])
    state = state.apply(("10", "A"))
    assert state.outcome().attacker_damage == 2
    assert "wins the tie and deals 2 damage back" in state.log()


def test_a_face_not_on_the_die_is_refused():
    rules = Rules(die_faces=("9", "J", "Q", "K", "A", "A"))
    state = start_attack_from_pools(1, 1, "melee", rules)
    with pytest.raises(IllegalActionError, match="choose one of 9, J, Q, K, A"):
        state.apply("10")


def test_an_example_replays_under_its_house_rules_and_exports_them(tmp_path):
    text = """system: angry-miniatures
title: ten hits
rules: tens_hit
attacker: {name: Grunk, melee: 2, health: 5}
defender: {name: Pixie, body: 1, health: 3}
attack: melee
rolls:
  - Grunk: 10 10
  - Pixie: 9
expect:
  hits: {Grunk: 2, Pixie: 0}
  damage: {Grunk: 0, Pixie: 2}
"""
    example = load_example(text)
    state = replay(example)
    assert state.outcome().defender_damage == 2
    assert check_expectations(example, state) == []  # 10s counted as hits (AM-1 house rule)
    default = load_example(text.replace("rules: tens_hit\n", ""))
    assert check_expectations(default, replay(default))  # under the rulings 10s are blanks
    exported = to_example(state)
    again = replay(load_example(exported))
    assert again.rules == load_rules("angry-miniatures", "tens_hit") and again.outcome() == state.outcome()


def test_stepper_and_explorer_follow_the_rules():
    from toolkit.angry_miniatures.widgets import attack_stepper, odds_explorer

    tens = load_rules("angry-miniatures", "tens_hit")
    st = attack_stepper(rules=tens)
    assert st.rules == tens and st.stepper.state.rules == tens
    st.crit_count.value = 3
    assert st.stepper.state.rules == Rules(hit_faces=tens.hit_faces, crit_count=3)
    ex = odds_explorer(attack_dice=1, defence_dice=0, rules=tens)
    assert ex.summary_text.split(" · ")[0] == "P(hit) = 5/6 ≈ 83.3%"
    ex.controls["hit_faces"].value = ("K", "A")
    assert ex.distribution == opposed(1, 0, "melee", Rules(hit_faces=("K", "A")))
    ex.controls["rules"].value = Rules(return_damage=False)  # the house-rules picker's plug
    assert ex.controls["hit_faces"].value == ("J", "Q", "K", "A")
    assert ex.distribution == opposed(1, 0, "melee", Rules(return_damage=False))
    ex.controls["hit_faces"].value = ()
    assert "no face hits" in ex.error
    ex.controls["rules"].value = "cheap_crits"  # a shipped file's name, as a picker may give it
    assert ex.error == "" and ex.distribution == opposed(1, 0, "melee", Rules(crit_faces=("K", "A")))
    ex.controls["rules"].value = "no_such_rules"
    assert "no house-rules file 'no_such_rules'" in ex.error
    st.set_rules("no_return_damage")
    assert st.stepper.state.rules == Rules(return_damage=False) and st.crit_count.value == 2
    with pytest.raises(InvalidSetupError, match="no house-rules file"):
        attack_stepper(rules="nowhere")


def test_start_attack_uses_the_modifier_sizes():
    grunk = Character("Grunk", melee=4, health=5)
    pixie = Character("Pixie", body=2, health=3)
    state = start_attack(grunk, pixie, "melee", Modifiers(charge=True), Rules(charge_dice=3))
    assert state.attack_dice == 7


# -- the benchmark's icepool evaluator under house rules -----------------------------------
@pytest.fixture(scope="module")
def bench():
    import importlib.util
    import sys
    from pathlib import Path

    pytest.importorskip("icepool")
    path = Path(__file__).resolve().parents[1] / "bench" / "bench_angry_miniatures.py"
    spec = importlib.util.spec_from_file_location("bench_angry_miniatures_house", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))  # the scripts share bench/_results.py
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(path.parent))


def test_icepool_under_house_rules_agrees_with_the_brute_force_and_opposed(bench):
    for rules in [*RULE_SETS[:8], *(r for _, r in bench.HOUSE_RULES)]:
        theirs = bench.icepool_rules_table(2, rules)
        assert bench.differences(bench.our_table(2, rules=rules), theirs) == [], rules
        assert theirs[2, 1, "melee"] == {
            bench.AttackOutcome(*k): p for k, p in brute_force_opposed(2, 1, "melee", rules).items()
        }
    assert bench.differences(bench.our_table(3), bench.icepool_rules_table(3, Rules())) == []
    # the benchmark's labels say which exact path each rule set takes
    assert [die_model(r).fast for _, r in bench.HOUSE_RULES] == [True, False] and die_model(Rules()).fast


def test_explorer_ticking_a_hit_face_extends_the_tie_break_chain_am4():
    """AM-4: the default chain is Aces, Kings, Queens, Jacks — those that hit. Under hits
    Q K A (chain A K Q), ticking J makes J Q K A with the chain A K Q J: the rulings'
    defaults, so the summary names no house rules. A chain of the file's own (Q A K)
    keeps its order and gains the newly hit J after it."""
    from toolkit.angry_miniatures.widgets import odds_explorer

    ex = odds_explorer(attack_dice=2, defence_dice=2, rules=Rules(hit_faces="Q K A"))
    assert "house rules:" in ex.summary_text
    ex.controls["hit_faces"].value = ("J", "Q", "K", "A")
    assert "house rules:" not in ex.summary_text  # exactly the rulings (AM-1, AM-4)
    assert ex.distribution == opposed(2, 2, "melee")

    own = Rules(hit_faces="Q K A", tie_break_order=("Q", "A", "K"))
    ex = odds_explorer(attack_dice=2, defence_dice=2, rules=own)
    ex.controls["hit_faces"].value = ("J", "Q", "K", "A")
    expected = Rules(tie_break_order=("Q", "A", "K", "J"))
    assert f"house rules: {expected.variant_name()}" in ex.summary_text
    ex.controls["hit_faces"].value = ("10", "J", "K", "A")  # Q no longer hits; 10 is in no default chain
    expected = Rules(hit_faces="10 J K A", tie_break_order=("A", "K", "J"))
    assert f"house rules: {expected.variant_name()}" in ex.summary_text


def test_explorer_summary_states_the_am6_pool_it_rolled():
    """AM-6: a melee character defending in melee rolls one extra die: 0 + 1 = 1 die,
    2 + 1 = 3 dice; outside melee no line."""
    from toolkit.angry_miniatures.widgets import odds_explorer

    ex = odds_explorer(attack_dice=2, defence_dice=0, rules=Rules(melee_defence_bonus=True))
    assert "AM-6: the defender rolls 1 die" in ex.summary_text
    ex.controls["defence_dice"].value = 2
    assert "AM-6: the defender rolls 3 dice" in ex.summary_text
    ex.controls["attack_type"].value = "ranged"
    assert "AM-6" not in ex.summary_text


def test_explorer_follows_a_picked_tie_damage_beyond_its_usual_highest():
    """AM-4: a house tie_damage of 8 (accepted up to 100) is shown as 8; the control offers
    every value the rules accept (0 to 100: ``Rules.field_bounds``), as it did not when it
    stopped at 5."""
    from toolkit.angry_miniatures.widgets import odds_explorer

    ex = odds_explorer(attack_dice=1, defence_dice=1)
    ex.controls["rules"].value = Rules(tie_damage=8)
    assert ex.controls["tie_damage"].value == 8 and ex.controls["tie_damage"].max == 100


def test_hit_faces_are_a_toggle_bar_one_click_a_face_am1():
    """Issue 23 item 5: the hit faces are a bar of toggles (not a native multi-select,
    where a plain click on 10 leaves 10 the only hitting face): one click on 10 adds it to
    J Q K A, and 1 die against none then hits on 5 faces of 6 (AM-1, by hand)."""
    from toolkit.angry_miniatures.widgets import odds_explorer
    from toolkit.widgets.common import PICKED_CLASS, ToggleBar

    ex = odds_explorer(attack_dice=1, defence_dice=0)
    bar = ex.controls["hit_faces"]
    assert isinstance(bar, ToggleBar) and [b.description for b in bar.buttons] == ["9", "10", "J", "Q", "K", "A"]
    ten = bar.buttons[1]
    assert not ten.value and PICKED_CLASS not in ten._dom_classes
    ten.value = True  # what a click does
    assert bar.value == ("10", "J", "Q", "K", "A") and PICKED_CLASS in ten._dom_classes and ten.icon == "check"
    assert ex.summary_text.split(" · ")[0] == "P(hit) = 5/6 ≈ 83.3%"
    bar.buttons[5].value = False  # A off: 10 J Q K hit, 4 of 6
    assert ex.summary_text.split(" · ")[0] == "P(hit) = 2/3 ≈ 66.7%"
