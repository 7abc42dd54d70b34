"""Headless tests of the Durak battle widgets, driven through the widgets themselves
(``button.click()``, toggling card buttons, setting control values): the battle stepper
with its cards to click, the rule-book examples it follows, Back, Export, setup changes,
the odds explorer, and the explore notebook.

Expected numbers come from the rule text (shared/rules/durak-mass-battle.en.md) and the
DB rulings (docs/rulings.md), worked out by hand in the comments; ruling ids are
in the test names.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path
from typing import NamedTuple

import ipywidgets as widgets
import pytest
from random_play import random_step
from test_widgets import run_notebook_headless

from toolkit.cards import Card
from toolkit.durak_battle import Army, Leader, Rules
from toolkit.durak_battle.notation import check_expectations, load_example, replay
from toolkit.durak_battle.widgets import (
    EXAMPLES_DIR,
    BattleStepper,
    battle_stepper,
    default_armies,
    odds_explorer,
    round_explorer,
)
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError
from toolkit.pictures import log_text
from toolkit.prob import Distribution, format_probability
from toolkit.widgets.common import ERROR, NOTE, OK

ROOT = Path(__file__).resolve().parent.parent
CHAIN = ROOT / "data" / "examples" / "durak_counterattack_chain.yaml"
JOKERS = ROOT / "data" / "examples" / "durak_joker_initiative.yaml"
NOTEBOOK = ROOT / "notebooks" / "durak_battle_explore.ipynb"


def _deal(st: BattleStepper, recon: tuple[str, str], hands: tuple[str, str]) -> None:
    """Type the two Knowledge (Battle) totals and the two hands, as a designer does."""
    for text in (*recon, *hands):
        st.stepper.outcome_box.value = text
        st.stepper.apply_button.click()
        assert st.stepper.error == "", st.stepper.error


def _chain_clash() -> BattleStepper:
    """The armies and hands of durak_counterattack_chain.yaml, typed in by hand: North
    (8 tokens) 10S 7S 6C 9H against South (8 tokens) QC 4C 8S 5H; North takes the
    initiative with the 10 of Spades (DB-3)."""
    st = battle_stepper(seed=1)
    _deal(st, ("4", "4"), ("10S 7S 6C 9H", "QC 4C 8S 5H"))
    return st


# -- the example files --------------------------------------------------------------------
@pytest.mark.parametrize("path", [CHAIN, JOKERS], ids=lambda p: p.name)
def test_examples_play_out_and_meet_their_expectations(path):
    st = battle_stepper(example=path)
    assert "Next in the example (1 of" in st.example_line.value
    st.play_all_button.click()
    assert st.stepper.error == ""
    assert "expectations are met" in st.example_line.value
    assert st.next_move_button.disabled and st.play_all_button.disabled
    example = load_example(path)
    assert check_expectations(example, st.state) == []
    assert st.stepper.log_text == log_text(replay(example).events)


def test_example_moves_one_at_a_time_and_back_undoes_one():
    st = battle_stepper(example="durak_counterattack_chain.yaml")  # a bare name is looked up in data/examples
    st.next_move_button.click()
    assert "rolls Knowledge (Battle) d8 with the Wild Die: 4" in st.stepper.log_text
    assert "Next in the example (2 of" in st.example_line.value
    st.next_move_button.click()  # South's roll
    st.next_move_button.click()  # North's whole hand, as one move
    assert st.state.hands[0] == tuple(load_example(CHAIN).rounds[0].cards[:4])
    st.back()
    assert st.state.hands[0] == () and "Next in the example (3 of" in st.example_line.value


def test_the_chain_example_ends_with_north_retreating_db4_db8():
    st = battle_stepper(example=CHAIN)
    st.play_all()
    # Lost: North 2 (failed defence) + 1 (failed attack) + 4 (strike) = 7; South 1 + 1 + 2 = 4.
    assert st.token_bars["a"].value == 1 and st.token_bars["a"].max == 8
    assert st.token_bars["b"].value == 4
    assert "holds the field" in st.token_labels["b"].value
    assert "retreats" in st.token_labels["a"].value


def test_an_army_change_ends_the_example_with_a_neutral_note():
    """Issue 23 item 6: with South 3 tokens down the hand sizes change (DB-2) and the cards
    the example lists no longer fit, so it ends at its line 20 — said once, as a neutral
    note, the file by name, play going on by hand."""
    st = battle_stepper(example=CHAIN)
    st.tokens["b"].value -= 3
    assert st.what_if
    st.play_all()
    line = st.example_line.value
    assert f"color:{NOTE}" in line and ERROR not in line, line
    assert "line 20 of durak_counterattack_chain.yaml" in line and "Continue by hand from here" in line
    assert str(ROOT) not in line and st.stepper.error == ""
    assert not st.state.is_terminal
    st.load(JOKERS)  # another example, loaded: its own setup, not a what-if
    assert not st.what_if


def test_leaving_the_example_is_said_and_back_returns():
    st = battle_stepper(example=JOKERS, seed=3)
    st.stepper.roll_button.click()  # a seeded roll instead of the example's 1
    if st.state.recon[0] != 1:
        assert "left the example" in st.example_line.value
        st.next_move_button.click()
        assert "left the example" in st.stepper.error
        st.back()
    assert "Next in the example (1 of" in st.example_line.value


def test_load_an_example_file_from_the_picker():
    st = battle_stepper()
    assert "durak_joker_initiative.yaml" in st.example_picker.options
    st.example_picker.value = "durak_joker_initiative.yaml"
    st.load_button.click()
    assert st.names == ("North", "South") and st.tokens["a"].value == 7 and st.tokens["b"].value == 5
    assert st.wild_card["b"].value is False and st.spirit_die["b"].value == 10
    assert st.next_move_button in st.widget.children[st.widget.children.index(st.example_line) - 1].children
    st.play_all_button.click()
    assert st.state.outcome == "b destroyed"
    st.load("no_such_example.yaml")
    assert "is not an example file" in st.stepper.error


# -- playing by clicking cards ----------------------------------------------------------------
def test_a_clash_played_by_clicking_cards_db1_db4_db5_db6():
    st = _chain_clash()
    assert st.state.current_player == "a"
    # The deciding army's hand, as toggle buttons coloured by suit (DB-1), spades first.
    assert list(st.card_buttons) == ["10S", "7S", "9H", "6C"]
    assert all(isinstance(b, widgets.ToggleButton) for b in st.card_buttons.values())
    assert st.card_buttons["7S"].button_style == "danger" and st.card_buttons["9H"].button_style == "info"
    assert st.card_buttons["7S"].description == "7♠"
    st.card_buttons["7S"].value = True  # North attacks with the 7 of Spades
    assert st.state.table is not None and st.state.table.code == "7S"
    assert st.state.current_player == "b" and st.take_button is not None
    st.click_card("4C")  # lower than 7: South pays 1 token first (DB-5)
    assert st.token_bars["b"].value == 7 and "lost 1 this clash" in st.token_labels["b"].value
    st.click_card("6C")  # North counters higher: no loss
    st.click_card("QC")  # South counters higher: no loss
    st.click_card("9H")  # 9 < Q: the defence fails, South -1, North -2
    assert (st.token_bars["a"].value, st.token_bars["b"].value) == (6, 6)
    assert st.pass_button is not None and not st.pass_button.disabled  # South may pass (DB-6)
    st.pass_button.click()
    # The initiative passed to North, who must attack while she holds a spade (DB-6).
    assert st.state.current_player == "a" and st.pass_button is not None and st.pass_button.disabled
    st.pass_turn()
    assert "must attack while she holds a spade (DB-6)" in st.stepper.error
    st.click_card("10S")
    st.click_card("5H")  # 5 < 10: fails, North -1, South -2
    st.click_card("8S")  # South must attack; North holds nothing: a strike (DB-4)
    assert "North cannot answer: South strikes, North loses 4 tokens (DB-4)." in st.stepper.log_text
    assert (st.token_bars["a"].value, st.token_bars["b"].value) == (1, 4)
    assert st.state.stage == "morale" and st.card_buttons == {}
    # Morale: typed Spirit totals, South first (originally attacked, DB-8).
    st.type_outcome("8")
    st.type_outcome("6")
    assert st.state.outcome == "a retreats"
    assert st.stepper.log_text == log_text(replay(load_example(CHAIN)).events)


def test_an_attack_answered_with_a_spade_is_refused_and_nothing_changes_db1():
    st = _chain_clash()
    st.click_card("7S")
    before, log = st.state, st.stepper.log_text
    st.card_buttons["8S"].value = True  # South clicks her 8 of Spades
    assert "an attack cannot be answered with an attack (DB-1)" in st.stepper.error
    assert st.state is before and st.stepper.log_text == log
    assert st.card_buttons["8S"].value is False  # the card springs back
    assert "DB-1" in st.stepper.error_line.value


def test_a_heart_cannot_attack_db1_db6():
    st = _chain_clash()
    before = st.state
    st.click_card("9H")
    assert "attacks with a spade or a joker" in st.stepper.error and "(DB-1)" in st.stepper.error
    assert st.state is before and st.card_buttons["9H"].value is False
    st.click_card("QC")  # not in North's hand
    assert "Q♣ is not in North's hand" in st.stepper.error and st.state is before


def test_a_joker_asks_which_action_db1():
    st = battle_stepper(seed=2)
    _deal(st, ("2", "2"), ("9S 4D", "JK1 2C"))  # South's joker outranks the 9 (DB-3) ...
    assert st.state.current_player == "b"
    st.click_card("JK1")
    # ... on an attack turn a joker can only attack (DB-6): one enabled choice.
    assert st.pending_joker == "JK1"
    assert [a for a, b in st.joker_buttons.items() if not b.disabled] == ["attack"]
    before = st.state
    st.joker_buttons["defence"].click()  # the disabled button, clicked from Python
    assert "a joker played now attacks" in st.stepper.error and st.state is before
    st.joker_buttons["attack"].click()
    assert st.state.table is not None and st.state.table.code == "JK1"
    assert st.stepper.log_text.splitlines()[-1] == "South attacks with the Joker (DB-1)."


def test_a_joker_answering_chooses_its_action_and_attack_is_refused_db1():
    st = battle_stepper(seed=2)
    _deal(st, ("2", "2"), ("9S JK2", "4D 2C"))
    st.click_card("9S")  # North attacks; South answers with the 4 of Diamonds ...
    st.click_card("4D")  # ... a failed manoeuvre (4 < 9): South -2
    # North holds only a joker now: she may attack with it or pass (DB-6, jokers optional).
    assert st.state.current_player == "a" and not st.pass_button.disabled
    st.pass_button.click()
    # South has no spade: she passes by herself and the clash ends (DB-6).
    assert st.state.stage == "morale"

    st = battle_stepper(seed=2)
    # Joker against joker: North's 9 of Spades is the next attack card, South has none (DB-3).
    _deal(st, ("2", "2"), ("9S JK2", "8H JK1"))
    st.click_card("9S")
    st.click_card("JK1")
    enabled = [a for a, b in st.joker_buttons.items() if not b.disabled]
    assert enabled == ["defence", "manoeuvre", "counter"]
    assert "an attack cannot be answered with an attack (DB-1)" in st.joker_buttons["attack"].tooltip
    st.choose_joker("attack")
    assert "an attack cannot be answered with an attack (DB-1)" in st.stepper.error
    assert st.pending_joker == "JK1"  # still pressed: choose another action
    st.joker_buttons["counter"].click()  # higher than the 9: no loss (DB-5); South now attacks with it
    assert "South counterattacks with the Joker as counter (not lower: no loss)" in st.stepper.log_text
    assert st.state.attacking == 1 and st.state.table.code == "JK1"


def test_take_the_strike_db4():
    st = _chain_clash()
    st.click_card("7S")
    st.take_button.click()
    assert "South declines to answer: North strikes, South loses 4 tokens (DB-4)." in st.stepper.log_text
    assert st.token_bars["b"].value == 4


def test_back_restores_the_state_the_tokens_and_the_cards():
    st = _chain_clash()
    st.click_card("7S")
    st.click_card("4C")
    assert st.token_bars["b"].value == 7
    st.stepper.back_button.click()
    assert st.token_bars["b"].value == 8 and st.state.current_player == "b"
    assert set(st.card_buttons) == {"QC", "4C", "8S", "5H"}
    assert not any(b.value for b in st.card_buttons.values())
    st.back()
    assert st.state.current_player == "a" and "7S" in st.card_buttons


def test_roll_deals_whole_hands_with_the_seed_db2():
    a = battle_stepper(seed=11)
    b = battle_stepper(seed=11)
    for st in (a, b):
        for _ in range(4):
            st.stepper.roll_button.click()
    assert a.state.hands == b.state.hands and a.state.recon == b.state.recon
    assert len(a.state.hands[0]) == a.state.hand_sizes[0]


def test_views_and_escaped_names():
    north = Army("<b>North</b>", 6, Leader("Ivan & sons", battle_die=8))
    south = Army("South", 4, Leader("Olga"))
    st = battle_stepper(army_a=north, army_b=south)
    st.stepper.outcome_box.value = "2"
    st.stepper.apply_button.click()
    assert "<b>North</b>" not in st.hands_view.value and "&lt;b&gt;North&lt;/b&gt;" in st.hands_view.value
    assert "&lt;b&gt;North&lt;/b&gt;" in st.token_labels["a"].value
    assert "Ivan &amp; sons" in st.hands_view.value
    assert "+2 cards for outnumbering (DB-2)" in st.setup_line.value
    st.type_outcome("1")
    st.type_outcome("9S 4D 5C 6H")
    st.type_outcome("2S")
    st.view.value = "b"  # South's view: her own hand, the size of North's
    assert "4 cards" in st.hands_view.value and "9♠" not in st.hands_view.value
    st.view.value = "both"
    assert "9♠" in st.hands_view.value


# -- setup controls -----------------------------------------------------------------------------
def test_setup_changes_restart_db2_db7():
    st = _chain_clash()
    assert len(st.stepper.log_text.splitlines()) > 3
    st.tokens["b"].value = 5
    assert st.state.armies[1].tokens == 5 and st.state.stage == "recon"
    assert st.stepper.log_text.startswith("North (8 tokens) against South (5 tokens).")
    assert "North draws +3 cards for outnumbering (DB-2)" in st.setup_line.value
    st.type_outcome("1")
    assert "1 — 4 cards (1 + 3 for outnumbering) (DB-2)." in st.stepper.log_text
    st.battle_die["a"].value = 12
    st.wild_card["a"].value = False
    assert st.state.armies[0].leader.battle_die == 12 and not st.state.armies[0].leader.wild_card
    assert st.state.stage == "recon"
    st.type_outcome("13")  # a d12 without a Wild Die cannot roll 13 (DB-2)
    assert "13 is not a possible roll here" in st.stepper.error
    assert list(st.battle_die["a"].options) == [("d4", 4), ("d6", 6), ("d8", 8), ("d10", 10), ("d12", 12)]
    assert (st.tokens["a"].min, st.tokens["a"].max) == (1, 10)


def test_variants_restart_db1_db5_db6_db8():
    st = _chain_clash()
    st.counter_tie.value = "loses"
    st.holder_must_attack.value = True
    st.morale_penalty.value = "battle"
    st.jokers.value = False
    assert st.rules == Rules(jokers=False, counter_tie="loses", holder_must_attack=True, morale_penalty="battle")
    assert st.state.rules == st.rules and st.state.stage == "recon"
    assert "Jokers: no" in st.setup_line.value
    _deal(st, ("1", "1"), ("7S", "7C"))
    st.click_card("7S")
    st.click_card("7C")  # equal: treated as lower with counter_tie="loses" (DB-5)
    assert "equal, treated as lower (DB-5 variant)" in st.stepper.log_text
    st.type_outcome("JK1")
    assert "JK1" in st.stepper.error  # no jokers in a 52-card deck (DB-1)


def test_setup_change_in_example_mode_replays_the_example_from_the_new_setup():
    st = battle_stepper(example=CHAIN)
    # North now outnumbers South by 1: she draws 4 + 1 cards (DB-2), leaving South 3 of her 4.
    st.tokens["a"].value = 9
    st.play_all()
    assert "round 1: cards: South draws 4 more cards (DB-2) but only 3 are left" in st.example_line.value
    st.tokens["a"].value = 8
    st.play_all()
    assert "expectations are met" in st.example_line.value


def test_bad_arguments():
    with pytest.raises(InvalidSetupError, match="both armies"):
        battle_stepper(army_a=default_armies()[0])
    with pytest.raises(InvalidSetupError, match="not both"):
        battle_stepper(example=CHAIN, army_a=default_armies()[0], army_b=default_armies()[1])
    with pytest.raises(NotationError, match=r"durak_counterattack_chain\.yaml"):
        battle_stepper(example="no_such_file.yaml")
    with pytest.raises(InvalidSetupError, match="max_rounds"):
        battle_stepper(max_rounds=0)


# -- export -------------------------------------------------------------------------------------
def test_export_replays_to_the_same_log():
    st = battle_stepper(example=JOKERS)
    st.play_all()
    st.export_title.value = "Jokers again"
    st.export_button.click()
    text = st.export_box.value
    assert text.startswith("system: durak-battle\ntitle: Jokers again\n")
    assert "replays to the same log" in st.export_note.value
    again = load_example(text)
    assert log_text(replay(again).events) == st.stepper.log_text
    assert check_expectations(again, replay(again)) == []


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_export_of_a_clicked_battle_replays_to_the_same_log(seed):
    st = battle_stepper(seed=seed, max_rounds=3)
    for _ in range(400):
        state = st.state
        if state.is_terminal:
            break
        if state.is_chance_node:
            st.stepper.roll_button.click()
        elif st.take_button is not None:  # answer with the first card that can answer, else take
            legal = state.legal_actions()
            code = next((c for c in st.card_buttons if f"defence {c}" in legal or f"manoeuvre {c}" in legal), None)
            if code is None or code.startswith("JK"):
                st.take_button.click()
            else:
                st.click_card(code)
        elif not st.pass_button.disabled and seed % 2:
            st.pass_button.click()
        else:
            st.click_card(
                next(c for c in st.card_buttons if c.endswith("S"))
                if any(c.endswith("S") for c in st.card_buttons)
                else next(iter(st.card_buttons))
            )
            if st.pending_joker:
                st.choose_joker("attack")
        assert st.stepper.error == "", st.stepper.error
    assert st.state.is_terminal
    text = st.export()
    assert "replays to the same log" in st.export_note.value and f"color:{OK}" in st.export_note.value
    assert log_text(replay(load_example(text)).events) == st.stepper.log_text


def test_export_midway_says_unfinished():
    st = _chain_clash()
    st.click_card("7S")
    text = st.export()
    assert "unfinished: true" in text and "unfinished: true" in st.export_note.value
    # issue 12 item 7: a partial export is a normal one, in the neutral colour (not red, not green)
    assert f"color:{NOTE}" in st.export_note.value and ERROR not in st.export_note.value
    st.export_format.value = "html"
    assert "<" in st.export() and f"color:{NOTE}" in st.export_note.value
    st.export_format.value = None
    assert log_text(replay(load_example(text)).events) == st.stepper.log_text
    # at the start, and with a hand dealt in part
    st = battle_stepper()
    assert log_text(replay(load_example(st.export())).events) == st.stepper.log_text
    st.type_outcome("4")
    st.type_outcome("3")
    st.type_outcome("7S 8H")
    text = st.export()
    assert "cards: 7S 8H" in text and "replays to the same log" in st.export_note.value
    assert replay(load_example(text)).hands == ((Card("7S"), Card("8H")), ())


# -- the odds explorers ------------------------------------------------------------------------------
class BattleEnd(NamedTuple):
    """What the explorer reads of an outcome (the shape of odds.BattleEnd)."""

    winner: str | None
    how: str
    rounds: int


def _stand_in(army_a: Army, army_b: Army, rules: Rules, **options: object) -> Distribution[BattleEnd]:
    """A stand-in calculator: the bigger army wins by a retreat in round 1 three times in
    four (ties: side a), 1 in 8 undecided when the morale penalty counts the whole battle."""
    big, small = ("a", "b") if army_a.tokens >= army_b.tokens else ("b", "a")
    if rules.morale_penalty == "battle":
        return Distribution(
            {
                BattleEnd(big, "retreat", 1): Fraction(5, 8),
                BattleEnd(small, "destroyed", 7): Fraction(1, 4),
                BattleEnd(None, "undecided", 50): Fraction(1, 8),
            }
        )
    return Distribution({BattleEnd(big, "retreat", 1): Fraction(3, 4), BattleEnd(small, "retreat", 2): Fraction(1, 4)})


def test_battle_explorer_says_greedy_play_cannot_show_db6():
    # greedy play attacks whenever it holds an attack card, so "the holder must attack"
    # changes none of its numbers: the summary says so, and not under random play
    from toolkit.durak_battle.widgets.explorers import GREEDY_MEETS_NO_DB6

    ex = odds_explorer(rules={"holder_must_attack": True}, compute=_stand_in)
    assert "Initiative holder must attack (DB-6): not measured under greedy play" in ex.summary_text
    ex.controls["policy"].value = "random"
    assert GREEDY_MEETS_NO_DB6 not in ex.summary_text
    assert GREEDY_MEETS_NO_DB6 not in odds_explorer(compute=_stand_in).summary_text


def test_battle_explorer_with_a_stand_in_calculator_db7_db8():
    seen = []
    ex = odds_explorer(compute=lambda a, b, rules, **kw: seen.append(kw) or _stand_in(a, b, rules))
    assert seen[-1] == {"policy": "greedy", "precision": "quick", "max_rounds": 50}
    assert f"P(North wins) = {format_probability(Fraction(3, 4))} (by retreat" in ex.summary_text
    table = ex.table.set_index("outcome")
    assert table.loc["North wins in round 1", "probability"] == Fraction(3, 4)
    assert table.loc["South wins in round 2", "probability"] == Fraction(1, 4)
    assert "expected length 5/4 = 1.25 rounds" in ex.summary_text
    ex.controls["tokens_b"].value = 10
    assert f"P(South wins) = {format_probability(Fraction(3, 4))}" in ex.summary_text
    ex.controls["morale_penalty"].value = "battle"  # DB-8 variant: now 1/8 undecided
    assert f"P(undecided after 50 rounds) = {format_probability(Fraction(1, 8))}" in ex.summary_text
    # round 7 falls in the last bar, "round 5 or later"
    assert ex.table.set_index("outcome").loc["North wins in round 5 or later", "probability"] == Fraction(1, 4)
    assert ex.table["probability"].sum() == 1
    ex.controls["policy"].value = "random"
    assert seen[-1]["policy"] == "random"
    assert set(ex.controls) >= {"tokens_a", "battle_die_a", "spirit_die_b", "wild_card_b", "jokers", "counter_tie"}
    with pytest.raises(InvalidSetupError, match="both armies"):
        odds_explorer(army_a=default_armies()[0], compute=_stand_in)
    with pytest.raises(InvalidSetupError, match="precision"):
        odds_explorer(compute=_stand_in, precision="slow")


def test_battle_explorer_on_the_real_calculator_small_armies():
    # d4 Extras with 2 tokens each: small hands, so a quick computation.
    north = Army("North", 2, Leader("Vasilisa", battle_die=4, spirit_die=4, wild_card=False))
    south = Army("South", 2, Leader("Ivan", battle_die=4, spirit_die=4, wild_card=False))
    ex = odds_explorer(north, south, max_rounds=5)
    assert ex.error == "" and ex.table["probability"].sum() == 1
    assert "P(North wins)" in ex.summary_text and "Monte Carlo" in ex.summary_text


def test_round_explorer_by_hand_counts_db2_db3_db8():
    # North: a d4 Extra, 1-4 cards, uniform, +2 for 5 tokens against 3 (DB-2). South: a d4
    # Wild Card, max(d4, d6) cards: the 24 pairs of dice, counted.
    north = Army("North", 5, Leader("Vasilisa", battle_die=4, spirit_die=4, wild_card=False))
    south = Army("South", 3, Leader("Ivan", battle_die=4, spirit_die=4, wild_card=True))
    ex = round_explorer(north, south, Rules(jokers=False))
    p_north = {x + 2: Fraction(1, 4) for x in range(1, 5)}
    p_south = {y: Fraction(sum(max(d, w) == y for d in range(1, 5) for w in range(1, 7)), 24) for y in range(1, 7)}
    assert sum(y * p for y, p in p_south.items()) == Fraction(47, 12)
    assert "expected cards: North 9/2 = 4.5, South 47/12 ≈ 3.92 (DB-2)" in ex.summary_text
    # North has 2 more cards when both dice show the same: sum over k of 1/4 * (2k - 1)/24 = 1/6.
    assert ex.table.set_index("outcome").loc["2 more cards for North", "probability"] == Fraction(1, 6)
    # issue 12: one card is singular: North (3-6) has one more than South (1-6) as 3-2, 4-3, 5-4, 6-5;
    # South's y in 2..5 has p_south[y] and North's y + 1 has 1/4.
    one = sum(Fraction(1, 4) * p_south[y] for y in range(2, 6))
    table = ex.table.set_index("outcome")
    assert table.loc["1 more card for North", "probability"] == one and "1 more cards for North" not in table.index
    # No clash: none of the n = na + nb cards dealt from 52 is one of the 13 spades (DB-3).
    none = sum(
        p * q * Fraction(comb(39, na + nb), comb(52, na + nb)) for na, p in p_north.items() for nb, q in p_south.items()
    )
    assert f"P(no clash: no attack card) = {format_probability(none)} (DB-3)" in ex.summary_text
    # DB-8: a d4 Extra stays on a 4: 1/4; a Wild Card d4 keeps the higher with a d6:
    # 1 - (3/4)(3/6) = 5/8; after 2 tokens lost she needs 6: only the Wild Die, 1/6.
    assert "North stays (DB-8): 0 lost 1/4 = 25%, 2 lost 0 = 0%" in ex.summary_text
    assert "South stays (DB-8): 0 lost 5/8 = 62.5%, 2 lost 1/6 ≈ 16.7%" in ex.summary_text
    ex.controls["tokens_b"].value = 5  # no advantage now
    assert "expected cards: North 5/2 = 2.5, South 47/12 ≈ 3.92 (DB-2)" in ex.summary_text
    ex.controls["jokers"].value = True
    assert "P(no clash" in ex.summary_text and ex.error == ""


# -- the notebook ---------------------------------------------------------------------------------
def test_examples_dir_holds_the_examples():
    assert (EXAMPLES_DIR / CHAIN.name).is_file() and (EXAMPLES_DIR / JOKERS.name).is_file()


@pytest.mark.slow
def test_explore_notebook_runs_headless():
    widget_cells, text = run_notebook_headless(NOTEBOOK)
    assert widget_cells >= 3  # the example's stepper, a free stepper, the explorer
    assert "South counterattacks with the 4 of Clubs (lower, she loses 1 token first)" in text
    assert "Every expectation in the file is met." in text
    assert "Replays to the same log: True" in text


# -- issue 12 item 4: army names, never the side ids "a" / "b" ---------------------------------------
SIDE_IDS = __import__("re").compile(
    r"\b[ab] (retreats|destroyed|wins|attacks)\b|\bside [ab]'s view\b|\((a|b)\)|\barmy [ab]\b"
)


def _texts(root: widgets.Widget) -> list[str]:
    out: list[str] = []

    def walk(w: widgets.Widget) -> None:
        if isinstance(w, widgets.HTML):
            out.append(w.value)
        for attr in ("description", "tooltip"):
            out.append(str(getattr(w, attr, "") or ""))
        out.extend(label for label in getattr(w, "_options_labels", ()) or ())
        for child in getattr(w, "children", ()):
            walk(child)

    walk(root)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 9])
def test_stepper_texts_name_the_armies_not_side_ids(seed):
    import random

    st = battle_stepper(seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(80):
        for view in ("both", "a", "b"):
            st.view.value = view
            seen += _texts(st.widget)
        st.view.value = "both"
        if not random_step(st, rng):
            break
    assert st.state.is_terminal
    found = sorted({m.group(0) for text in seen for m in SIDE_IDS.finditer(text)})
    assert not found, found
    assert f"The battle is over: {st.state.result_text()}." in " ".join(seen)
    assert st.state.result_text().split()[0] in ("North", "South", "both", "undecided")


def test_view_choices_follow_the_armies_of_a_loaded_example():
    st = battle_stepper()
    assert [label for label, _ in st.view.options] == ["both hands (designer)", "North's view", "South's view"]
    st.view.value = "b"
    text = (Path(__file__).resolve().parent.parent / "data" / "examples" / "durak_counterattack_chain.yaml").read_text()
    st.load(load_example(text.replace("North", "Rus").replace("South", "Horde")))
    assert [label for label, _ in st.view.options] == ["both hands (designer)", "Rus's view", "Horde's view"]
    assert st.view.value == "b"


def test_coin_is_named_by_the_armies():
    from toolkit.durak_battle import start_clash

    s = start_clash(Army("North", 6, Leader("V")), Army("South", 6, Leader("I")), ("JK1", "JK2"))
    assert s.stage == "coin"
    assert [s.action_to_string(o) for o, _ in s.chance_outcomes()] == ["North", "South"]
    assert s.parse_action("south") == "b" and s.parse_action("a") == "a"
    with pytest.raises(IllegalActionError, match="North or South"):
        s.parse_action("heads")


def test_battle_odds_text_names_the_armies():
    from toolkit.durak_battle import battle_outcome

    leader = Leader("V", battle_die="d4", wild_card=False, battle_modifier=-3)
    text = str(battle_outcome(Army("North", 2, leader), Army("South", 2, leader), max_rounds=2))
    assert "North wins" in text and "South wins" in text and not SIDE_IDS.search(text)


def test_the_labels_state_the_rules_numbers_not_the_drafts():
    """A lower counter loses ``counter_lower_loss`` tokens (DB-1, DB-5) and the Spirit roll
    takes ``morale_per_token`` per token lost (DB-8): the labels say the rules' numbers."""
    from toolkit.durak_battle.widgets.explorers import variant_controls

    house = Rules(counter_lower_loss=2, morale_per_token=3)
    loses = dict((v, k) for k, v in variant_controls(house)["counter_tie"].options)["loses"]
    assert loses == "loses 2 tokens"
    assert dict((v, k) for k, v in variant_controls(Rules())["counter_tie"].options)["loses"] == "loses 1 token"
    st = battle_stepper(rules=house, seed=1)
    assert dict((v, k) for k, v in st.counter_tie.options)["loses"] == "loses 2 tokens"
    assert st.morale_penalty.description == "Morale −3 per token (DB-8)"
    st.numbers["morale_per_token"].value = 0  # the label follows the number control
    assert st.morale_penalty.description == "Morale −0 per token (DB-8)"
    assert battle_stepper(seed=1).morale_penalty.description == "Morale −1 per token (DB-8)"


def test_the_title_heads_the_stepper_and_each_army_has_a_column():
    """Issue 23 item 9: the title above the setup; each army's controls one cell of the
    grid (a column of their own), after a loaded example too."""
    st = battle_stepper(example=CHAIN)
    assert st.widget.children[0] is st.stepper.title and st.stepper.title not in st.stepper.widget.children
    cells = st.controls_grid.children
    assert list(cells[0].children) == [st.tokens["a"], st.battle_die["a"], st.spirit_die["a"], st.wild_card["a"]]
    assert list(cells[1].children) == [st.tokens["b"], st.battle_die["b"], st.spirit_die["b"], st.wild_card["b"]]
    st.load(JOKERS)
    assert st.widget.children[0] is st.stepper.title and "Joker against joker" in st.stepper.title.value
