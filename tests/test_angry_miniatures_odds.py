"""Exact Angry Miniatures calculators against independent references.

References: hand arithmetic from the rule text, the brute force over every face
sequence in tests/brute_force.py (written from the draft, not from the toolkit), the
engine enumerated exhaustively, and the engine sampled by Monte Carlo.
"""

from fractions import Fraction
from math import comb

import pytest
from brute_force import area_bf, opposed_bf

from toolkit.angry_miniatures import (
    Character,
    MoreThan,
    Rules,
    area_attack,
    attacks_to_take_out,
    crit_probability,
    expected_attacks_to_take_out,
    hit_distribution,
    melee_exchange,
    odds_table,
    opposed,
    start_attack_from_pools,
)
from toolkit.engine import enumerate_outcomes
from toolkit.montecarlo import sample_outcomes, tolerance


def as_tuples(dist):
    return {(o.defender_damage, o.attacker_damage, o.attacker_crit, o.defender_crit): p for o, p in dist.items()}


# -- hit counts (AM-1) ------------------------------------------------------------
def test_hit_distribution_by_hand():
    # AM-1: 4 of 6 faces hit, so hits ~ Binomial(n, 2/3).
    assert hit_distribution(0).items() == [(0, Fraction(1))]
    assert hit_distribution(1).items() == [(0, Fraction(1, 3)), (1, Fraction(2, 3))]
    d = hit_distribution(5)
    for h in range(6):
        assert d[h] == comb(5, h) * Fraction(2, 3) ** h * Fraction(1, 3) ** (5 - h)
    assert d.mean() == Fraction(10, 3)


def test_crit_probability_by_hand():
    # AM-7: 2+ Aces; P = 1 - P(0 aces) - P(1 ace).
    for n in range(8):
        expected = 1 - Fraction(5, 6) ** n - n * Fraction(1, 6) * Fraction(5, 6) ** max(n - 1, 0)
        assert crit_probability(n) == expected


# -- one attack (AM-3, AM-4, AM-5, AM-7) ---------------------------------------------
def test_one_die_each_by_hand():
    # Both hit 2/3. Different hit counts: 2/9 each way. Both hit (4/9): the tie goes to the
    # higher face or, equal faces (1/4), a SuperTieBreaker — by symmetry 1/2 each: 2/9 each.
    # Both blank (1/9): AM-5 miss.
    d = opposed(1, 1, "melee")
    assert d.probability(lambda o: o.defender_damage == 1) == Fraction(4, 9)
    assert d.probability(lambda o: o.attacker_damage == 1) == Fraction(4, 9)
    assert d.probability(lambda o: not o.defender_damage and not o.attacker_damage) == Fraction(1, 9)
    ranged = opposed(1, 1, "ranged")
    assert ranged.probability(lambda o: o.attacker_damage > 0) == 0  # AM-3: melee only
    assert ranged.probability(lambda o: o.defender_damage == 0) == Fraction(5, 9)


def test_zero_hits_variant_by_hand():
    # AM-5 variant: both 0 hits goes to a SuperTieBreaker: 1/9 split evenly.
    d = opposed(1, 1, "melee", Rules(zero_tie="super_tiebreak"))
    assert d.probability(lambda o: o.defender_damage == 1) == Fraction(4, 9) + Fraction(1, 18)
    assert d.probability(lambda o: o.defender_damage == 0 and o.attacker_damage == 0) == 0


@pytest.mark.parametrize("attack_type", ["melee", "ranged", "magic"])
@pytest.mark.parametrize("n,m", [(0, 0), (0, 2), (1, 0), (1, 3), (2, 2), (3, 1), (3, 2), (2, 3), (4, 2)])
def test_opposed_matches_brute_force_over_every_face(n, m, attack_type):
    assert as_tuples(opposed(n, m, attack_type)) == opposed_bf(n, m, attack_type)


@pytest.mark.parametrize("n,m", [(0, 0), (2, 2), (3, 2), (1, 4)])
def test_variants_match_brute_force(n, m):
    # AM-5 zero_tie variant and the coin-flip yardstick for AM-4.
    assert as_tuples(opposed(n, m, "melee", Rules(zero_tie="super_tiebreak"))) == opposed_bf(
        n, m, "melee", zero_tie="super_tiebreak"
    )
    assert as_tuples(opposed(n, m, "melee", Rules(tie_break="coin_flip"))) == opposed_bf(n, m, "melee", coin_flip=True)


@pytest.mark.parametrize("n,m,attack_type", [(2, 2, "melee"), (3, 1, "ranged"), (1, 2, "magic"), (0, 1, "melee")])
def test_opposed_matches_engine_enumerated(n, m, attack_type):
    engine = enumerate_outcomes(start_attack_from_pools(n, m, attack_type), lambda s: s.outcome())
    assert engine == opposed(n, m, attack_type)


def test_opposed_matches_engine_monte_carlo_on_large_pools():
    # 8 v 7 is too big to enumerate (6^15 sequences); sample the engine instead.
    trials = 6000
    exact = opposed(8, 7, "melee").marginal(lambda o: o.defender_damage - o.attacker_damage)
    sampled = sample_outcomes(
        start_attack_from_pools(8, 7, "melee"),
        lambda s: s.outcome().defender_damage - s.outcome().attacker_damage,
        trials,
        seed=11,
    )
    for value, p in exact.items():
        assert abs(sampled[value].value - float(p)) <= tolerance(p, trials), value


def test_tie_break_chain_is_a_coin_flip_for_damage_but_not_for_crits():
    # AM-4: given equal hits both rolls' hit faces have the same distribution, so the
    # chain favours neither side: damage odds equal the coin-flip yardstick exactly...
    for n, m in [(2, 2), (3, 2), (4, 4)]:
        chain = opposed(n, m, "melee").marginal(lambda o: (o.defender_damage, o.attacker_damage))
        coin = opposed(n, m, "melee", Rules(tie_break="coin_flip")).marginal(
            lambda o: (o.defender_damage, o.attacker_damage)
        )
        assert chain == coin
    # ...but with 2 dice each, winning a tie and critting go together (Aces decide first).
    chain = opposed(2, 2, "melee")
    coin = opposed(2, 2, "melee", Rules(tie_break="coin_flip"))
    event = lambda o: o.attacker_crit and o.defender_damage == 1
    # By hand: the attacker crits only with A A (1/36). She deals exactly 1 damage when the
    # defender has 1 hit (2·4/6·2/6 = 16/36: a difference of 1) or wins a 2-hit tie.
    # The defender has 2 hits with 16/36: 15/36 without A A (the chain gives it to the
    # attacker: most Aces) and 1/36 with A A (a SuperTieBreaker: half).
    one_hit = Fraction(1, 36) * Fraction(16, 36)
    assert chain.probability(event) == one_hit + Fraction(1, 36) * (Fraction(15, 36) + Fraction(1, 72))
    # A coin gives her only half of every 2-hit tie.
    assert coin.probability(event) == one_hit + Fraction(1, 36) * Fraction(16, 36) / 2


# -- area attacks (AM-8) ---------------------------------------------------------------
@pytest.mark.parametrize("n,pools", [(1, [1, 1]), (2, [1, 2]), (2, [2, 0, 1]), (0, [1, 1])])
def test_area_attack_matches_brute_force(n, pools):
    assert dict(area_attack(n, pools).items()) == area_bf(n, pools)


def test_area_attack_zero_tie_variant_matches_brute_force():
    rules = Rules(zero_tie="super_tiebreak")
    assert dict(area_attack(1, [1, 1], rules).items()) == area_bf(1, [1, 1], zero_tie="super_tiebreak")


def test_area_attack_is_correlated_not_a_product():
    joint = area_attack(2, [1, 1])
    alone = opposed(2, 1, "magic").marginal("defender_damage")
    # Each marginal is the single-defender distribution...
    assert joint.marginal(0) == alone and joint.marginal(1) == alone
    # ...but the joint is not their product (one shared attack roll, AM-8).
    assert joint[(2, 2)] != alone[2] * alone[2]


def test_area_attack_matches_engine_enumerated():
    engine = enumerate_outcomes(start_attack_from_pools(2, [1, 1], "magic"), lambda s: s.defender_damage())
    assert engine == area_attack(2, [1, 1])


# -- repeated attacks and Health (AM-10) -----------------------------------------------
def test_attacks_to_take_out_is_geometric_by_hand():
    # 1 die v 0 dice: each attack hits (1 damage) with 2/3, else a miss (AM-5).
    d = attacks_to_take_out(1, 0, health=1, cap=4)
    for k in range(1, 5):
        assert d[k] == Fraction(1, 3) ** (k - 1) * Fraction(2, 3)
    assert d[MoreThan(4)] == Fraction(1, 3) ** 4  # reported, not dropped
    assert sum(p for _, p in d.items()) == 1
    assert expected_attacks_to_take_out(1, 0, 1) == Fraction(3, 2)


def test_attacks_to_take_out_two_health_by_hand():
    # 1 v 0, Health 2: needs two hits: P(N=k) = (k-1)(2/3)^2(1/3)^(k-2); mean 3.
    d = attacks_to_take_out(1, 0, health=2, cap=6)
    for k in range(2, 7):
        assert d[k] == (k - 1) * Fraction(4, 9) * Fraction(1, 3) ** (k - 2)
    assert expected_attacks_to_take_out(1, 0, 2) == 3


def test_attack_that_cannot_hurt_is_all_beyond_cap():
    d = attacks_to_take_out(0, 2, health=3, cap=5)
    assert d.items() == [(MoreThan(5), Fraction(1))]
    assert expected_attacks_to_take_out(0, 2, 3) is None


def test_melee_exchange_by_hand():
    # Melee 1 v Body 1 both ways: each strike damages the target 4/9, the striker 4/9,
    # nobody 1/9 (see test_one_die_each_by_hand). Health 1 each, alternating strikes:
    # X = P(attacker out | attacker strikes) = 4/9 + 1/9·Y and Y = 4/9 + 1/9·X by symmetry
    # of the roles => X = Y = 1/2.
    a = Character("Ann", melee=1, body=1, health=1)
    b = Character("Bo", melee=1, body=1, health=1)
    d = melee_exchange(a, b).marginal("out")
    assert d["Ann"] == Fraction(1, 2)


def test_melee_exchange_matches_brute_force_derivation():
    # Ann: melee 2 v Bo's body 1; Bo: melee 1 v Ann's body 1; Health 1 each.
    a = Character("Ann", melee=2, body=1, health=1)
    b = Character("Bo", melee=1, body=1, health=1)
    ann = opposed_bf(2, 1, "melee")
    bo = opposed_bf(1, 1, "melee")

    def split(table):
        hurt_target = sum(p for k, p in table.items() if k[0] > 0)
        hurt_striker = sum(p for k, p in table.items() if k[1] > 0)
        return hurt_target, hurt_striker, 1 - hurt_target - hurt_striker

    at, _, a0 = split(ann)
    _, bs, b0 = split(bo)
    # P(Bo out | Ann strikes) = at + a0·P(Bo out | Bo strikes); P(Bo out | Bo strikes) = bs + b0·(...)
    x = (at + a0 * bs) / (1 - a0 * b0)
    assert melee_exchange(a, b).marginal("out")["Bo"] == x


def test_melee_exchange_matches_engine_monte_carlo():
    import random

    from toolkit.angry_miniatures import start_attack
    from toolkit.engine import play_out

    a = Character("Ann", melee=3, body=2, health=3)
    b = Character("Bo", melee=2, body=3, health=3)
    exact = melee_exchange(a, b).marginal("out")["Bo"]
    rng = random.Random(3)
    trials, bo_out = 1500, 0
    for _ in range(trials):
        x, y = a, b
        while True:
            s = play_out(start_attack(x, y, "melee"), rng)
            x, y = s.attacker, s.defenders[0]
            if x.is_out or y.is_out:
                break
            s = play_out(start_attack(y, x, "melee"), rng)  # Bo strikes back
            y, x = s.attacker, s.defenders[0]
            if x.is_out or y.is_out:
                break
        bo_out += y.is_out
    assert abs(bo_out / trials - float(exact)) <= tolerance(exact, trials)


# -- the table -------------------------------------------------------------------------
def test_odds_table_rows_match_calculator_and_hand_values():
    table = odds_table(range(1, 3), range(0, 2), "melee")
    row = table[(table.attack_dice == 1) & (table.defence_dice == 0)].iloc[0]
    assert row["hit"] == Fraction(2, 3)
    assert row["expected_damage"] == Fraction(2, 3)
    assert row["return_hit"] == 0
    row = table[(table.attack_dice == 1) & (table.defence_dice == 1)].iloc[0]
    assert row["hit"] == Fraction(4, 9) and row["return_hit"] == Fraction(4, 9)
    assert len(table) == 4
    floats = odds_table([1], [1], floats=True)
    assert floats["hit"].iloc[0] == pytest.approx(4 / 9)
