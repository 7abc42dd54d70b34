"""The Angry Miniatures engine, referee, pools and bad input (AM-1..AM-10)."""

import random
from fractions import Fraction

import pytest

from toolkit.angry_miniatures import (
    Character,
    Modifiers,
    Rules,
    attack_pools,
    compare_rolls,
    damage_dealt,
    opposed,
    start_attack,
    start_attack_from_pools,
)
from toolkit.dice import parse_faces
from toolkit.engine import play_out
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError

GRUNK = Character("Grunk", melee=4, ranged=1, body=3, mind=1, spirit=2, health=5, melee_character=True)
PIXIE = Character("Pixie", magic=3, ranged=2, body=2, mind=3, spirit=4, health=3)


def roll(state, *rolls):
    for text in rolls:
        state = state.apply_all(state.parse_actions(text))
    return state


# -- the referee (AM-3, AM-4, AM-5) ---------------------------------------------------
def test_more_hits_deal_the_difference_and_melee_returns_it():
    c = compare_rolls(parse_faces("A K Q 9"), parse_faces("J 10"))
    assert (c.attack_hits, c.defence_hits, c.winner) == (3, 1, "attacker")
    assert damage_dealt(c, "melee") == (2, 0)
    back = compare_rolls(parse_faces("J"), parse_faces("A K 9"))
    assert damage_dealt(back, "melee") == (0, 1)  # AM-3: the defender deals the difference
    assert damage_dealt(back, "ranged") == (0, 0)  # ...only in melee


@pytest.mark.parametrize(
    "attack,defence,decided_by,winner",
    [
        ("A J", "K K", "Aces", "attacker"),  # AM-4 step 1
        ("K J", "K Q", "Queens", "defender"),  # Kings equal, then Queens
        ("Q J J", "Q Q J", "Queens", "defender"),
        ("K Q J", "K Q J", "super_tiebreak", None),  # every step tied
    ],
)
def test_tie_break_chain(attack, defence, decided_by, winner):
    c = compare_rolls(parse_faces(attack), parse_faces(defence))
    assert (c.decided_by, c.winner) == (decided_by, winner)


def test_tie_won_deals_exactly_one_damage():
    # AM-4: "he deals 1 and only 1 damage", even with a crit.
    c = compare_rolls(parse_faces("A A K"), parse_faces("A K K"))
    assert c.winner == "attacker" and damage_dealt(c, "melee") == (1, 0)


def test_zero_hits_miss_or_super_tiebreak():
    assert compare_rolls(("9", "10"), ("10",)).decided_by == "zero_hits"  # AM-5
    assert compare_rolls(("9",), ("10",), Rules(zero_tie="super_tiebreak")).needs_super_tiebreak


# -- the engine --------------------------------------------------------------------------
def test_typed_example_reads_like_a_rule_book():
    state = roll(start_attack(GRUNK, PIXIE, "melee", Modifiers(charge=True)), "A K 9 10 J", "Q 10")
    assert state.is_terminal
    assert state.log().splitlines() == [
        "Grunk makes a melee attack on Pixie: 5 attack dice against 2 (AM-2).",
        "Grunk rolls 5 dice for a melee attack: A K 9 10 J — 3 hits.",
        "Pixie rolls 2 dice for defence: Q 10 — 1 hit.",
        "Hits: attacker 3, defender 1.",
        "The attacker has more hits (AM-3).",
        "Grunk deals 2 damage to Pixie.",
    ]
    assert state.defenders[0].damage == 2


def test_super_tiebreak_rerolls_ties():
    state = roll(start_attack_from_pools(2, 2), "K Q", "K Q")
    assert state.is_chance_node and "SuperTieBreaker" in state.prompt()
    assert sum(p for _, p in state.chance_outcomes()) == 1
    state = roll(state, "A A, 9 J")  # equal faces reroll (AM-4), then J beats 9
    assert [e.text for e in state.events if e.kind == "super_tiebreak"] == [
        "SuperTieBreaker: Attacker rolls A, Defender rolls A — equal, both reroll (AM-4).",
        "SuperTieBreaker: Attacker rolls 9, Defender rolls J — the defender wins (AM-4).",
    ]
    assert state.outcome().attacker_damage == 1  # melee: the tie's winner deals 1 back


def test_crit_at_most_once_per_turn():
    first = roll(start_attack(GRUNK, PIXIE, "melee"), "A A 9 9", "9 9")
    assert first.crits == ("Grunk",)
    pixie2 = Character("Nix", body=1, health=3)
    second = roll(start_attack(first.attacker, pixie2, "melee", crits_this_turn=first.crits_this_turn), "A A 9 9", "9")
    assert second.crits == ()  # AM-7: a character crits at most once per turn
    assert any("already crit this turn" in e.text for e in second.events)
    assert second.outcome().attacker_crit is False


def test_defence_roll_can_crit_on_a_failed_defence():
    state = roll(start_attack_from_pools(4, 2), "K K K Q", "A A")
    assert state.outcome().defender_damage == 2 and state.outcome().defender_crit  # AM-7


def test_magic_area_attack_one_roll_many_defenders_and_health():
    ogre = Character("Ogre", spirit=0, health=2)
    state = roll(start_attack(PIXIE, [GRUNK, ogre], "magic"), "A K Q", "J 9")
    assert state.defence_dice == (2, 0)
    assert state.defender_damage() == (2, 3)  # one roll, judged per defender (AM-8)
    assert state.defenders[1].is_out  # 3 damage on Health 2 (AM-10)
    assert any(e.kind == "out" and "Ogre" in e.text for e in state.events)


def test_only_magic_attacks_hit_an_area():
    with pytest.raises(InvalidSetupError, match=r"only magic attacks hit .*\(AM-8\)"):
        start_attack(GRUNK, [PIXIE, Character("Ogre")], "melee")


def test_random_playouts_keep_the_engine_contract():
    rng = random.Random(7)
    for _ in range(200):
        n, m = rng.randrange(0, 6), rng.randrange(0, 6)
        state = start_attack_from_pools(n, m, rng.choice(["melee", "ranged", "magic"]))
        while not state.is_terminal:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            assert state.legal_actions() == []
            state = state.apply(state.sample_chance(rng))
        assert state.chance_outcomes() == []
        out = state.outcome()
        assert out in opposed(n, m, state.attack_type)  # every engine result is possible exactly


def test_terminal_state_refuses_more_and_states_are_immutable():
    start = start_attack_from_pools(1, 1)
    after = start.apply("A")
    assert start.attack_roll == () and after.attack_roll == ("A",)
    done = play_out(after, random.Random(1))
    with pytest.raises(IllegalActionError, match="the game is over"):
        done.apply("A")


# -- pools and modifiers (AM-2, AM-6, AM-9) ------------------------------------------
def test_pools_by_stat_and_modifiers():
    assert attack_pools(GRUNK, PIXIE, "melee") == (4, 2)  # Melee v Body (AM-2)
    assert attack_pools(GRUNK, PIXIE, "ranged") == (1, 3)  # Ranged v Mind
    assert attack_pools(PIXIE, GRUNK, "magic") == (3, 2)  # Magic v Spirit
    m = Modifiers(hindering_terrain=2, occupied_squares=1, higher_elevation=True, prone=True)
    assert attack_pools(PIXIE, GRUNK, "magic", m) == (4, 2 + 3 - 1)  # AM-9
    assert attack_pools(GRUNK, PIXIE, "melee", Modifiers(charge=True, prone=True)) == (5, 1)


def test_pools_never_below_zero():
    weak = Character("Weak", melee=0, body=0)
    assert attack_pools(weak, weak, "melee", Modifiers(prone=True, extra_attack_dice=-2)) == (0, 0)  # AM-2


def test_melee_defence_bonus_variant():
    # AM-6: a melee character defending in melee rolls +1 die, only when the variant is on.
    on = Rules(melee_defence_bonus=True)
    assert attack_pools(PIXIE, GRUNK, "melee").defence == 3
    assert attack_pools(PIXIE, GRUNK, "melee", rules=on).defence == 4
    assert attack_pools(GRUNK, PIXIE, "melee", rules=on).defence == 2  # Pixie is not a melee character
    assert attack_pools(PIXIE, GRUNK, "ranged", rules=on).defence == 1  # not in melee


def test_modifier_for_the_wrong_attack_type_is_refused():
    with pytest.raises(InvalidSetupError, match=r"charge applies to melee attacks only, not ranged \(AM-9\)"):
        attack_pools(GRUNK, PIXIE, "ranged", Modifiers(charge=True))
    with pytest.raises(InvalidSetupError, match="hindering_terrain applies to ranged and magic"):
        attack_pools(GRUNK, PIXIE, "melee", Modifiers(hindering_terrain=1))


# -- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call,message",
    [
        (
            lambda: opposed(-1, 2),
            "attack_dice must be a whole number of 0 or more, got -1 (AM-2); a pool is 0 or more dice",
        ),
        (lambda: opposed(2, "3"), "defence_dice must be a whole number of 0 or more, got '3'"),
        (
            lambda: opposed(2, 2, "psychic"),
            "'psychic' is not an attack type: use one of melee, ranged, magic",
        ),
        (
            lambda: Character("Zed", health=0),
            "Zed's Health must be a whole number of 1 or more, got 0 (AM-10)",
        ),
        (lambda: Rules(zero_tie="reroll"), "zero_tie (Both roll no hits) = 'reroll' is not a variant of AM-5"),
        (lambda: parse_faces("A 1X"), "'1X' is not a poker-die face: faces are 9 10 J Q K A"),
    ],
)
def test_bad_input_gets_a_clear_error(call, message):
    with pytest.raises((InvalidSetupError, NotationError)) as info:
        call()
    assert message in str(info.value)


def test_bad_face_leaves_the_state_unchanged():
    state = start_attack_from_pools(2, 1)
    with pytest.raises(NotationError, match="'X' is not a poker-die face"):
        state.parse_actions("A X")
    with pytest.raises(IllegalActionError, match="choose one of 9, 10, J, Q, K, A"):
        state.apply("7")
    assert state.attack_roll == ()
    assert state.chance_outcomes()[0] == ("9", Fraction(1, 6))


def test_more_faces_than_the_roll_has_dice_are_refused_issue10():
    # Issue 10: a fourth face for a three-die attack is refused, not the defender's first die.
    state = start_attack_from_pools(3, 2)
    with pytest.raises(IllegalActionError, match=r"4 faces typed .*attack roll has 3 dice: type one face per die"):
        state.parse_actions("A K Q J")
    state = state.apply_all(state.parse_actions("A K Q"))
    with pytest.raises(IllegalActionError, match=r"defence roll has 2 dice: .* at most 2 \(AM-2\)"):
        state.parse_actions("9 9 9")
    assert state.defence_rolls == ((),)


# -- narration rendered from the data ---------------------------------------------------------
def test_a_crit_and_an_out_are_told_from_their_data():
    """AM-7: A A 9 is two Aces, a crit (hit or not); AM-10: Health 1 and 2 damage is out.
    By hand: Attacker's 3 dice A A 9 (2 hits) against Defender's Q (1 hit) deal 2 - 1 = 1
    damage (AM-3); Defender (Health 1) is out."""
    grunk = Character("Grunk", melee=3, health=5)
    pixie = Character("Pixie", body=1, health=1)
    state = start_attack(grunk, pixie, "melee").apply_all(parse_faces("A A 9") + parse_faces("Q"))
    told = {e.kind: (e.text, dict(e.data)) for e in state.events if e.kind in ("crit", "out", "damage")}
    assert told["crit"] == (
        "Grunk crits (2+ Aces, AM-7).",
        {"character": "Grunk", "counts": True, "crit_count": 2, "crit_faces": ("A",)},
    )
    assert told["damage"][0] == "Grunk deals 1 damage to Pixie."
    assert told["out"] == (
        "Pixie has taken 1 damage with Health 1: out (AM-10).",
        {"character": "Pixie", "damage": 1, "health": 1},
    )


def test_the_narrator_names_what_it_cannot_word():
    from toolkit.angry_miniatures.narration import narrate

    with pytest.raises(ValueError, match="no event of kind 'resolve'; its kinds are start, roll"):
        narrate("resolve", {}, {"attacker": "Grunk"})
    with pytest.raises(ValueError, match="more_hits, zero_hits, tie, coin_flip, face, super_tiebreak; got 'coin'"):
        narrate("tie_break", {"step": "coin"}, {"attacker": "Grunk"})
