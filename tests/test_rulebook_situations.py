"""The catalogue of rule-book situations (issue 15 item 1): each predicate on a
hand-written example that shows it and one that does not.

The examples are in ``tests/fixtures/rulebook/``, written from the rule text (their
comments give the arithmetic, AM-/FM-/DB- rulings) and replayed with their ``expect``
block checked, so the state a predicate reads is the one the rules give.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from toolkit import systems
from toolkit.angry_miniatures.referee import compare_rolls
from toolkit.dice import POKER_FACES
from toolkit.errors import InvalidSetupError
from toolkit.rulebook import as_situation, catalogue, situation, situation_names

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulebook"
SYSTEM_OF = {"am": "angry-miniatures", "fm": "fairy-meat", "db": "durak-battle"}

#: situation -> a hand-written example that shows it.
SHOWS = {
    "angry-miniatures": {
        "tie_decided_by_aces": "am_aces",
        "tie_decided_by_kings": "am_kings",
        "tie_decided_by_queens": "am_queens",
        "tie_won_by_defender_in_melee": "am_stb_rerolls",
        "super_tiebreak": "am_stb",
        "super_tiebreak_after_two_rerolls": "am_stb_rerolls",
        "return_damage_in_melee": "am_return",
        "crit_on_defence": "am_crit_defence",
        "crit_on_attack": "am_crit_attack",
        "magic_area_two_of_three": "am_area",
        "zero_hits_miss": "am_miss",
        "character_out": "am_out",
        "crit_already_this_turn": "am_crit_again",
        "more_hits_deal_the_difference": "am_crit_attack",
        "no_damage_back_at_range": "am_crit_defence",
        "zero_hits_super_tiebreak": "am_zero_stb",
    },
    "fairy-meat": {
        "both_cheat": "fm_both_cheat",
        "none_keeps_cheating_hidden": "fm_none_hidden",
        "wild_trump_turns_up_ace_of_spades": "fm_wild_ace",
        "next_defence_bonus_wins": "fm_bonus",
        "different_colours_lowest_wins": "fm_bonus",
        "same_colour_highest_wins": "fm_none_hidden",
        "wild_trump_points": "fm_points",
        "wild_trump_played": "fm_wild_ace",
        "turned_up_trump_reveals_hidden": "fm_unhidden",
        "draw": "fm_draw",
        "nasty_hit": "fm_wild_ace",
        "points_as_extra_cards": "fm_points",
        "fairy_down": "fm_blind",
        "undefended_blind_draw": "fm_blind",
        "undefended_unopposed": "fm_unopposed",
        "attacks_lost": "fm_attacks_lost",
        "wrestling_escape": "fm_escape",
        "wrestling_draw": "fm_wrestling_draw",
    },
    "durak-battle": {
        "counterattack_chain_of_three": "db_chain",
        "joker_decides_initiative": "db_joker",
        "joker_coin_flip": "db_coin",
        "initiative_tie_broken": "db_tie_broken",
        "strike_no_answer": "db_chain",
        "strike_declined": "db_take",
        "both_destroyed": "db_both_destroyed",
        "army_destroyed": "db_destroyed",
        "attacked_holds_other_retreats": "db_chain",
        "attacked_side_retreats": "db_joker",
        "defence_succeeds": "db_coin",
        "manoeuvre": "db_destroyed",
        "counter_lower_loses_token": "db_chain",
        "counter_equal_no_loss": "db_counter_equal",
        "counter_equal_loses": "db_counter_equal_loses",
        "initiative_passes": "db_tie_broken",
        "no_clash": "db_no_clash",
        "outnumbering_draws_extra_cards": "db_both_destroyed",
    },
}

#: situation -> a hand-written example that does not show it (the plain one of each
#: system, unless it is the one it shows, or a near miss worth checking).
PLAIN = {"angry-miniatures": "am_miss", "fairy-meat": "fm_draw", "durak-battle": "db_no_clash"}
NEAR_MISS = {
    "zero_hits_miss": "am_queens",
    "super_tiebreak_after_two_rerolls": "am_stb",  # one throw, no reroll
    "tie_won_by_defender_in_melee": "am_return",  # damage back, but not from a tie
    "return_damage_in_melee": "am_crit_defence",  # the defender wins at range: nothing back
    "crit_on_attack": "am_crit_again",  # two Aces, but already crit this turn (AM-7)
    "magic_area_two_of_three": "am_crit_attack",
    "zero_hits_super_tiebreak": "am_stb",  # a SuperTieBreaker, but after a tie on hits
    "draw": "fm_wrestling_draw",  # a Wrestling draw is its own situation (FM-14)
    "wrestling_draw": "fm_draw",
    "same_colour_highest_wins": "fm_both_cheat",  # the cheats move the values (FM-8)
    "next_defence_bonus_wins": "fm_points",  # points as extra cards, no bonus
    "wild_trump_turns_up_ace_of_spades": "fm_unhidden",  # a Wild Trump, no Ace turned up
    "turned_up_trump_reveals_hidden": "fm_wild_ace",  # Trumps turned up, nothing hidden
    "none_keeps_cheating_hidden": "fm_unhidden",  # hidden at first, revealed by the Wild Trump
    "no_clash": "db_destroyed",
    "counter_equal_no_loss": "db_counter_equal_loses",  # equal, but under counter_tie='loses'
    "counter_equal_loses": "db_counter_equal",  # equal, under the default: no loss
    "undefended_unopposed": "fm_blind",  # undefended under the default: a blind draw
    "undefended_blind_draw": "fm_unopposed",
    "joker_decides_initiative": "db_tie_broken",  # jokers tie: the 9 of Spades decides
    "strike_no_answer": "db_take",  # a strike, but declined
    "strike_declined": "db_chain",  # a strike, but no card to answer with
    "attacked_holds_other_retreats": "db_take",  # the attacked side retreats
    "attacked_side_retreats": "db_chain",
    "army_destroyed": "db_both_destroyed",  # both at once: nobody wins
    "defence_succeeds": "db_joker",  # defences that fail
}

_STATES: dict[str, object] = {}


def final_state(stem: str):
    """The replayed final state of a fixture (its expectations met)."""
    if stem not in _STATES:
        notation = systems.notation(SYSTEM_OF[stem[:2]])
        example = notation.load(FIXTURES / f"{stem}.yaml")
        state = notation.replay(example)
        assert notation.check(example, state) == [], stem
        _STATES[stem] = state
    return _STATES[stem]


CASES = [(system, name) for system, table in SHOWS.items() for name in table]


def test_every_situation_has_a_hand_written_example():
    for system in SHOWS:
        assert set(SHOWS[system]) == set(situation_names(system)), system
        assert len(catalogue(system)) >= 10


@pytest.mark.parametrize(("system", "name"), CASES)
def test_predicate_on_an_example_that_shows_it(system, name):
    assert situation(system, name).shows(final_state(SHOWS[system][name]))


@pytest.mark.parametrize(("system", "name"), CASES)
def test_predicate_on_an_example_that_does_not(system, name):
    stem = NEAR_MISS.get(name) or PLAIN[system]
    if stem == SHOWS[system][name]:
        stem = "am_queens" if system == "angry-miniatures" else "fm_both_cheat" if system == "fairy-meat" else "db_coin"
    assert not situation(system, name).shows(final_state(stem))


def test_a_joker_that_takes_the_initiative_decides_it_only_against_a_spade():
    """DB-3: North's joker and 10 of Spades against South's lone diamond: the 10 alone
    would take the initiative, so the joker decides nothing; it does against a King of
    Spades when North has no spade (db_joker)."""
    decides = situation("durak-battle", "joker_decides_initiative")
    assert "holds the highest attack card (Joker)" in final_state("db_joker_idle").log()
    assert not decides.shows(final_state("db_joker_idle"))
    assert decides.shows(final_state("db_joker"))
    assert situation("durak-battle", "initiative_passes").shows(final_state("db_joker_idle"))


def test_the_plain_examples_show_only_their_own_situation():
    for system, stem in PLAIN.items():
        shown = [s.name for s in catalogue(system) if s.shows(final_state(stem))]
        assert len(shown) == 1 and SHOWS[system][shown[0]] == stem, (stem, shown)


def test_no_tie_is_ever_decided_by_jacks():
    """Why the catalogue has no "tie decided by Jacks" (AM-1, AM-4): hits are the J, Q,
    K, A rolled, so rolls tied on hits, Aces, Kings and Queens have as many Jacks.
    Checked on every pair of rolls of up to 3 dice each."""
    for a, d in itertools.product(range(1, 4), repeat=2):
        for ra in itertools.combinations_with_replacement(POKER_FACES, a):
            for rd in itertools.combinations_with_replacement(POKER_FACES, d):
                assert compare_rolls(ra, rd).decided_by != "Jacks"


def test_a_designer_passes_her_own_predicate():
    def two_dice_each(state) -> bool:
        """Both sides roll two dice."""
        return len(state.attack_roll) == 2 and all(len(r) == 2 for r in state.defence_rolls)

    mine = as_situation("angry-miniatures", two_dice_each)
    assert mine.name == "two_dice_each" and mine.description == "Both sides roll two dice."
    assert mine.shows(final_state("am_queens")) and not mine.shows(final_state("am_kings"))
    assert as_situation("angry-miniatures", lambda s: True).name == "custom"


def test_unknown_names_are_refused_with_the_catalogue():
    with pytest.raises(InvalidSetupError, match="tie_decided_by_queens"):
        situation("angry-miniatures", "tie_decided_by_tens")
    with pytest.raises(InvalidSetupError, match="fairy-meat, durak-battle, angry-miniatures"):
        catalogue("chess")
    with pytest.raises(InvalidSetupError, match="a function state -> bool"):
        as_situation("fairy-meat", 42)


def test_possible_under_follows_the_variants():
    from toolkit.house_rules import load_rules

    am = load_rules("angry-miniatures", {"zero_tie": "super_tiebreak"})
    assert not situation("angry-miniatures", "zero_hits_miss").possible_under(am)
    assert situation("angry-miniatures", "zero_hits_super_tiebreak").possible_under(am)
    db = load_rules("durak-battle", {"jokers": False})
    assert not situation("durak-battle", "joker_coin_flip").possible_under(db)


#: FM-9 with different colours: highest wins. Attack 1: 2C against 9H, the highest (9) wins
#: by 7: half of 7, rounded up, is 4 points kept as a bonus (FM-10, FM-11). Attack 2: 8S against 6H + 4 =
#: 10, the highest wins by 2; without the bonus 6 against 8 loses under these rules (it
#: would win under the draft's lowest-wins, so the draft's rule sees no bonus win).
FM_BONUS_HIGHEST = """\
system: fairy-meat
title: The bonus wins, highest wins
rules: {different_colour_wins: highest}
attacker: {name: Dizzy, live: 3, kill: 1}
defender: {name: Sparky, live: 2, kill: 1}
attacks: 2
deck: 2C 8S  9H 6H
moves:
  - Dizzy: declare add
  - Sparky: declare add
  - Dizzy: trumps none
  - Sparky: trumps none
  - Dizzy: play 2C
  - Sparky: play 9H
  - Sparky: score bonus
  - Dizzy: trumps none
  - Sparky: trumps none
  - Dizzy: play 8S
  - Sparky: play 6H
  - Sparky: bonus yes
expect:
  - {attack: 1, attacker_value: 2, defender_value: 9, winner: defender, points: 4, damage: 0}
  - {attack: 2, attacker_value: 8, defender_value: 10, winner: defender, points: 1, damage: 0}
"""

#: DB-1 with hearts attacking and spades defending: North's joker outranks South's King of
#: Hearts (DB-3). Without the joker North holds only the 3 of Spades, no attack card under
#: these rules, so South's King would have taken the initiative; under the draft's suits
#: South holds no spade and the joker would decide nothing.
DB_JOKER_HEARTS = """\
system: durak-battle
title: The joker leads, hearts attack
rules: {suits: {attack: H, defence: S, manoeuvre: D, counter: C}}
armies:
  - name: North
    tokens: 4
    leader: {name: Voivode Ilya, battle_die: d4, spirit_die: d6, wild_card: false}
  - name: South
    tokens: 4
    leader: {name: Khan Tugor, battle_die: d4, spirit_die: d6, wild_card: false}
rounds:
  - recon: {North: 2, South: 2}
    cards: JK1 3S  KH 5D
    moves:
      - North: attack JK1
      - South: manoeuvre 5D
      - South: attack KH
      - North: defence 3S
    morale: {South: 6}
expect:
  - {round: 1, initiative: North}
"""


@pytest.mark.parametrize(
    ("system", "name", "text"),
    [
        ("fairy-meat", "next_defence_bonus_wins", FM_BONUS_HIGHEST),
        ("durak-battle", "joker_decides_initiative", DB_JOKER_HEARTS),
    ],
)
def test_predicates_judge_by_the_example_rules(system, name, text):
    """FM-11's "would not have won without the bonus" uses the rules' FM-9 colour rule, and
    DB-3's "the other side would have taken the initiative" the rules' attack suit (DB-1)."""
    from toolkit.rulebook.finder import verify

    state = verify(system, text)  # replays with its hand-written expectations met
    assert situation(system, name).shows(state)
