"""The Durak battle engine and referee, against the rule text (DB-1..DB-9)."""

import random
from fractions import Fraction

import pytest

from toolkit.cards import Card, parse_cards
from toolkit.dice import trait_roll
from toolkit.durak_battle import Army, Leader, Rules, answer_attack, start_battle, start_clash
from toolkit.durak_battle.initiative_rule import NO_CLASH, initiative_holder
from toolkit.errors import IllegalActionError, InvalidSetupError

VASILISA = Leader("Vasilisa", battle_die="d8", spirit_die="d6")
IVAN = Leader("Ivan", battle_die="d6", spirit_die="d8", wild_card=False)
NORTH, SOUTH = Army("North", 6, VASILISA), Army("South", 4, IVAN)


def play(state, *moves):
    for move in moves:
        state = state.apply(move)
    return state


# -- the referee (DB-1, DB-4, DB-5) --------------------------------------------------------
@pytest.mark.parametrize(
    "attack,card,action,losses",
    [
        ("9S", "10H", "defence", (2, 1)),  # value >= attack: defence succeeds
        ("9S", "9H", "defence", (2, 1)),  # "higher than or equal"
        ("9S", "8H", "defence", (1, 2)),
        ("9S", "KD", "manoeuvre", (1, 0)),
        ("9S", "3D", "manoeuvre", (0, 2)),
        ("9S", "3C", "counter", (0, 1)),  # a lower counterattack costs 1 token first
        ("9S", "JC", "counter", (0, 0)),
        ("AS", "JK1", "defence", (2, 1)),  # the joker outranks every card
    ],
)
def test_answers_by_the_rule_text(attack, card, action, losses):
    a = answer_attack(Card(attack), Card(card), action)
    assert (a.attacker_loss, a.defender_loss) == losses


def test_equal_counterattack_variants():
    # DB-5: an equal counterattack is treated like a higher one by default.
    assert answer_attack(Card("JK1"), Card("JK2"), "counter").defender_loss == 0
    assert answer_attack(Card("JK1"), Card("JK2"), "counter", Rules(counter_tie="loses")).defender_loss == 1


def test_an_attack_cannot_answer_an_attack():
    with pytest.raises(IllegalActionError, match=r"cannot be answered with an attack \(DB-1\)"):
        answer_attack(Card("9S"), Card("10S"), "attack")
    with pytest.raises(IllegalActionError, match=r"10H is a defence card and cannot be played as counter \(DB-1\)"):
        answer_attack(Card("9S"), Card("10H"), "counter")


# -- initiative (DB-3) -----------------------------------------------------------------------
def test_initiative():
    assert initiative_holder(parse_cards("KS 2H"), parse_cards("AS")) == 1
    assert initiative_holder(parse_cards("JK1 3S"), parse_cards("JK2 9S")) == 1  # next attack card decides
    assert initiative_holder(parse_cards("JK1"), parse_cards("JK2")) is None  # a coin flip
    assert initiative_holder(parse_cards("2H 3D"), parse_cards("4C")) is NO_CLASH  # no clash


def test_joker_tie_is_a_fair_coin():
    s = start_clash(NORTH, SOUTH, ("JK1 2H", "JK2 3H"))
    assert s.is_chance_node and s.chance_outcomes() == [("a", Fraction(1, 2)), ("b", Fraction(1, 2))]
    assert s.apply("b").holder == 1


def test_no_attack_card_no_clash():
    s = start_clash(NORTH, SOUTH, ("2H 3D", "4C"))
    assert s.is_terminal and s.lost_clash == (0, 0)


# -- the clash (DB-4, DB-6, DB-7) ---------------------------------------------------------------
def test_counterattack_chain_strike_and_initiative_passing():
    s = start_clash(NORTH, SOUTH, ("7S 9H QD 3C", "10S 8S 4H JK1"))
    assert s.holder == 1  # the joker is the highest attack card
    s = play(s, "attack 10S", "manoeuvre QD")  # succeeds: South loses 1
    assert s.lost_clash == (0, 1) and s.holder == 1  # DB-6: South may attack again
    s = play(s, "attack 8S", "counter 3C")  # lower: North loses 1 first, then attacks with it (DB-1)
    assert s.lost_clash == (1, 1) and s.table == Card("3C") and s.current_player == "b"
    s = play(s, "counter JK1", "take")  # North declines: the strike, 4 tokens (DB-4)
    assert s.lost_clash == (5, 1)
    # South has no attack card left: the initiative passes and North must attack (DB-6)
    assert s.holder == 0 and s.legal_actions() == ["attack 7S"]
    s = play(s, "attack 7S", "defence 4H")  # 4 < 7: the defence fails, North -1, South -2
    assert s.armies[0].tokens == 0 and s.outcome == "a destroyed"  # DB-7: never below 0, ends the battle
    assert s.lost_clash == (6, 3)


def test_unanswerable_attack_is_a_strike():
    s = start_clash(NORTH, SOUTH, ("9S", "2S"))
    s = s.apply("attack 9S")  # South holds only a spade: no answer (DB-4)
    assert s.lost_clash == (0, 4)


def test_the_opening_attack_is_compulsory():
    # DB-3: "An action always begins with an attack": North holds the initiative (9S) and
    # must attack; she may not pass before anyone has attacked.
    s = start_clash(NORTH, SOUTH, ("9S 8S", "2H"))
    assert s.legal_actions() == ["attack 9S", "attack 8S"]
    with pytest.raises(IllegalActionError, match=r"must open the clash with an attack \(DB-3\)"):
        s.apply("pass")
    # a joker alone is an attack card too (DB-1): the opening is still compulsory
    j = start_clash(NORTH, SOUTH, ("JK1 2H", "3H"))
    assert j.legal_actions() == ["attack JK1"]


def test_holder_may_pass_after_a_defence_unless_the_variant():
    # DB-6: after a Defence the initiative holder may attack again or pass; the variant
    # holder_must_attack makes her attack while she holds a spade. North opens with 9S,
    # South defends with 2H (2 < 9: it fails), North still holds 8S.
    s = start_clash(NORTH, SOUTH, ("9S 8S", "2H 3H")).apply("attack 9S").apply("defence 2H")
    assert s.current_player == "a" and s.legal_actions() == ["attack 8S", "pass"]
    must = start_clash(NORTH, SOUTH, ("9S 8S", "2H 3H"), Rules(holder_must_attack=True))
    must = must.apply("attack 9S").apply("defence 2H")
    assert "pass" not in must.legal_actions()  # DB-6 variant
    with pytest.raises(IllegalActionError, match=r"must attack while she holds a spade \(DB-6\)"):
        must.apply("pass")


def test_illegal_moves_leave_the_state_unchanged():
    s = start_clash(NORTH, SOUTH, ("7S 9H", "10S 4H"))
    s = s.apply("attack 10S")
    with pytest.raises(IllegalActionError, match=r"7S cannot be played as attack|cannot be answered with an attack"):
        s.apply("attack 7S")
    with pytest.raises(IllegalActionError, match="QD is not in North's hand"):
        s.parse_action("manoeuvre QD")
    assert s.hands[0] == parse_cards("7S 9H") and s.table == Card("10S")


# -- setup, rounds and morale (DB-2, DB-7, DB-8, DB-9) -----------------------------------------
def test_recon_roll_and_token_advantage():
    s = start_battle(NORTH, SOUTH)
    assert dict(s.chance_outcomes()) == dict(trait_roll("d8").items())  # d8 + Wild Die, no explosion
    s = s.apply(5)
    assert s.hand_sizes[0] == 5 + 2  # +1 per token North outnumbers South by (DB-2)
    weak = Army("Weak", 4, Leader("Timid", battle_die="d4", wild_card=False, battle_modifier=-2))
    s = start_battle(NORTH, weak).apply(5).apply(-1)
    assert s.hand_sizes[1] == 0  # max(0, result): a roll of 1 - 2 draws nothing


def _one_card_clash(first_morale_roll):
    # Equal armies, both roll 1: one card each from the stacked deck (DB-2). North's 9S takes
    # the initiative; South's 3H defence fails: North -1, South -2 (DB-1). Nobody can attack
    # again: the clash ends (DB-6), and South, the side originally attacked, rolls first (DB-8).
    north, south = Army("North", 5, VASILISA), Army("South", 5, IVAN)
    s = play(start_battle(north, south, deck="9S 3H"), 1, 1, Card("9S"), Card("3H"))
    s = play(s, "attack 9S", "defence 3H")
    assert s.stage == "morale" and s.lost_clash == (1, 2) and s.first_attacked == 1
    return s.apply(first_morale_roll)


def test_morale_originally_attacked_side_rolls_first():
    retreat = _one_card_clash(5)  # 5 - 2 tokens lost = 3 < 4: South retreats; North does not roll
    assert retreat.outcome == "b retreats" and sum(e.kind == "morale" for e in retreat.events) == 1
    stays = _one_card_clash(6)  # 6 - 2 = 4: South stays; now North rolls
    assert stays.stage == "morale" and stays.chance_side == 0
    assert play(stays, 4).outcome == "a retreats"  # 4 - 1 = 3
    assert play(stays, 5).round_no == 2  # both stay: a new round from phase 1


def test_random_battles_keep_the_contract():
    rng = random.Random(9)
    outcomes = set()
    for k in range(150):
        rules = Rules(
            jokers=k % 2 == 0,
            counter_tie=rng.choice(["no_loss", "loses"]),
            morale_penalty=rng.choice(["clash", "battle"]),
        )
        s = start_battle(
            Army("A", rng.randint(1, 10), VASILISA), Army("B", rng.randint(1, 10), IVAN), rules, max_rounds=8
        )
        while not s.is_terminal:
            if s.is_chance_node:
                assert sum(p for _, p in s.chance_outcomes()) == 1
                s = s.apply(s.sample_chance(rng))
            else:
                s = s.apply(rng.choice(s.legal_actions()))
            assert all(a.tokens >= 0 for a in s.armies)  # DB-7
        outcomes.add(s.outcome.split()[-1])
    assert outcomes <= {"retreats", "destroyed", "undecided"} and "retreats" in outcomes


def test_every_round_deals_fresh_hands_from_a_full_deck():
    # DB-9: leftover cards are discarded; each round reshuffles the whole deck.
    rng = random.Random(2)
    s = start_battle(Army("A", 5, VASILISA), Army("B", 5, IVAN), max_rounds=3)
    while not s.is_terminal and s.round_no == 1:
        s = s.apply(s.sample_chance(rng) if s.is_chance_node else rng.choice(s.legal_actions()))
    if s.round_no == 2:
        assert s.deck.size == 54 and s.hands == ((), ())


def test_bad_setup():
    with pytest.raises(InvalidSetupError, match=r"'d7' is not a trait die: use one of d4, d6, d8, d10, d12 \(DB-2\)"):
        Leader("X", battle_die="d7")
    with pytest.raises(InvalidSetupError, match=r"tokens must be a whole number of 0 or more, got -2 \(DB-7\)"):
        Army("X", -2, IVAN)
    with pytest.raises(InvalidSetupError, match="not a variant of DB-5"):
        Rules(counter_tie="draw")
    with pytest.raises(InvalidSetupError, match="JK1 not in the deck"):
        start_clash(NORTH, SOUTH, ("JK1", "2H"), Rules(jokers=False))
