"""Headless tests of the Fairy Meat widgets, driven through the widgets themselves
(``button.click()``, setting ``.value``): the combat stepper with its clickable cards,
the rule-book example it replays, Export, and the odds explorers.

Numbers asserted come from the draft's worked example (shared/rules/
fairy-meat-alternate-combat.txt, "Alternate Combat Rules - Example") or from hand
counts written out in the comments; ruling ids (docs/rulings.md) are in the test names.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import pytest
from test_widgets import run_notebook_headless

from toolkit.errors import InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat import Fairy, Play, Rules, resolve_attack
from toolkit.fairy_meat.notation import check_expectations, load_example, plan_example, replay
from toolkit.fairy_meat.odds import HandComposition, deal_averaged_odds, hand_composition
from toolkit.fairy_meat.strategy import optimal
from toolkit.fairy_meat.widgets import (
    EXAMPLES_DIR,
    CombatStepper,
    can_place_trumps,
    combat_stepper,
    hand_composition_explorer,
    odds_explorer,
)
from toolkit.fairy_meat.widgets.hints import OFF_PATH_NOTE
from toolkit.pictures import Picture, codes_text, log_text
from toolkit.prob import Distribution, format_probability
from toolkit.widgets.common import ERROR, NOTE, OK, PICKED_CLASS
from toolkit.widgets.example_mode import plan_stop_text

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "data" / "examples" / "dizzytwig_v_sparklespaz.yaml"
COUNTERFACTUAL = ROOT / "data" / "examples" / "dizzytwig_counterfactual_5c.yaml"
NOTEBOOK = ROOT / "notebooks" / "fairy_meat_explore.ipynb"

# The draft's fairies (Dizzytwig: Vibro-Master, Fluttered -> 5 cards; Sparklespaz: Order
# Card, -1 from the Vibro-Master -> 2 cards, FM-2), with a deck stacked for each test.
SETUP = {"fluttered": True, "holds_order_card": True}


def _deal_and_declare(st: CombatStepper) -> None:
    """Deal both hands with Roll (a stacked deck deals its top cards) and declare as the
    draft's fairies do: Dizzytwig subtracts, Sparklespaz adds (FM-3)."""
    st.stepper.roll_button.click()
    st.action_buttons["declare subtract"].click()
    st.stepper.roll_button.click()
    st.action_buttons["declare add"].click()


def _click_through(st: CombatStepper) -> None:
    """Play to the end by clicking: Roll at chance steps, the first legal choice otherwise
    (the highlighted best choice at reveal/bonus/shift steps)."""
    for _ in range(200):
        state = st.state
        if state.is_terminal:
            return
        if state.is_chance_node:
            st.stepper.roll_button.click()
        elif st.best_button is not None:
            st.best_button.click()
        elif "trumps none" in st.action_buttons:
            st.action_buttons["trumps none"].click()
        elif st.card_buttons:  # the first card she may play (a Numbered card if she has one, FM-6)
            legal = state.legal_actions()
            code = next(c for c in st.card_buttons if f"play {c}" in legal or f"wild {c}" in legal)
            st.card_buttons[code].click()
        else:
            next(iter(st.action_buttons.values())).click()
        assert st.stepper.error == "", st.stepper.error
    raise AssertionError("the combat did not end")


def _read(html_text: str) -> str:
    """What a designer reads in a widget's HTML: the text, a drawn card as its words (``K♠``)."""
    return re.sub(r"<[^>]+>", "", html_text)


# -- the worked example -------------------------------------------------------------------
def test_worked_example_plays_out_to_the_drafts_values_fm8_fm9_fm10_fm12():
    st = combat_stepper(example=WORKED)
    assert "Next in the example (1 of" in st.example_line.value
    assert "Dizzytwig is dealt K♠ Q♣ 5♣ 4♣ 3♦" in _read(st.example_line.value)  # cards drawn as everywhere
    st.play_all_button.click()
    log = st.stepper.log_text
    lines = log.splitlines()
    # Attack 1: "The final values then are Dizzy 2, Sparky 3" (both cheated, FM-8; red v red, FM-9).
    assert "Final values: Dizzytwig 2, Sparklespaz 3." in lines
    assert "Sparklespaz wins by 1: half of 1, rounded up, is 1 point (FM-10)." in lines
    # Attack 2: "The final values then are Sparky 6, Dizzy 3" -> 2 damage and a Nasty Hit (FM-12).
    assert "Final values: Dizzytwig 3, Sparklespaz 6." in lines
    assert "Sparklespaz takes 2 damage (1 per point, FM-10)." in lines
    assert "Nasty Hit" in log
    assert st.state.is_terminal and st.state.nasty_hits == ("Sparklespaz",)
    # the same log as `toolkit replay` prints, and the file's expectations are met
    assert st.state.log() == replay(load_example(WORKED)).log() and log_text(st.state.events) == log
    assert "Dizzytwig draws 5 cards: K♠ Q♣ 5♣ 4♣ 3♦." in lines  # cards as the designer reads them
    assert "2 expectations are met" in st.example_line.value
    assert st.next_move_button.disabled and st.play_all_button.disabled


def test_example_moves_one_at_a_time_and_back_undoes_one():
    st = combat_stepper(example=WORKED)
    st.next_move_button.click()  # the stacked cards: Dizzytwig's hand (FM-2)
    assert [c.code for c in st.state.hands[0]] == ["KS", "QC", "5C", "4C", "3D"]
    st.next_move_button.click()  # the file's line "Dizzytwig: declare subtract"
    assert st.state.declared == ("subtract", None)
    assert "Sparklespaz is dealt 2♦ K♣" in _read(st.example_line.value)
    after_declare, log = st.state, st.stepper.log_text
    st.next_move_button.click()
    st.stepper.back_button.click()  # Back restores the state, the log and the next move
    assert st.state is after_declare and st.stepper.log_text == log
    assert "Sparklespaz is dealt 2♦ K♣" in _read(st.example_line.value)
    # the decision panel follows: Sparklespaz has no cards yet, Dizzytwig's declaration is done
    assert st.card_buttons == {} and st.action_buttons == {}


def test_example_by_bare_name_or_loaded_example():
    by_name = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")
    loaded = combat_stepper(example=load_example(WORKED))
    assert by_name.state == loaded.state == load_example(WORKED).start
    assert by_name.deal.value == "stacked" and by_name.deck_box.value == "KS QC 5C 4C 3D 2D KC AS JH 3H"
    assert by_name.fluttered.value and by_name.holds_order_card.value
    assert by_name.attacker_weapon.value.name == "Vibro-Master"
    with pytest.raises(NotationError, match=r"dizzytwig_v_sparklespaz\.yaml"):
        combat_stepper(example="no_such_example.yaml")  # the message lists the examples there


def test_plan_follows_the_file_card_for_card_and_move_for_move():
    # The plan the stepper follows (and replay plays) deals exactly the file's stacked deck,
    # in order, and makes exactly the file's decisions, in order; every other decision is
    # the referee's best choice (FM-5, FM-8, FM-11).
    for path in (WORKED, COUNTERFACTUAL):
        example = load_example(path)
        plan, states, error = plan_example(example)
        assert error == "" and len(states) == len(plan) + 1
        dealt = " ".join(m.text for m in plan if m.chance).split()
        assert dealt == [c.code for c in example.start.pile.stacked][: len(dealt)]
        from_file = [m.text for m in plan if not m.chance and "best choice" not in m.label]
        assert [" ".join(t.split()).lower() for t in from_file] == [a.lower() for _, a, _ in example.moves]
        assert states[-1].log() == replay(example).log()


def test_best_choice_is_highlighted_at_the_shift_step_fm8():
    st = combat_stepper(example=WORKED)
    while st.state.phase()[0] != "shift":
        st.next_move()
    # Attack 1: Sparklespaz cheated with KC, so Dizzytwig moves the values (FM-8); best for
    # her (red v red: highest wins) is her own +1 and his -1, as the draft's Dizzy does.
    assert st.state.best_action() == "shift +1 -1"
    assert st.best_button is st.action_buttons["shift +1 -1"]
    assert st.best_button.button_style == "success"
    assert sum(b.button_style == "success" for b in st.action_buttons.values()) == 1
    head = st.stepper.decision_box.children[0].children[0].value
    assert "best choice is <b>Dizzytwig +1, Sparklespaz −1</b>" in head
    # whose value moves is said (issue 23 item 5): not a bare "shift +1 -1"
    assert "how far Dizzytwig's value and Sparklespaz's value move" in head
    assert st.best_button.description == "Dizzytwig +1, Sparklespaz −1"
    assert sorted(b.description for b in st.action_buttons.values()) == sorted(
        f"Dizzytwig {x}, Sparklespaz {y}" for x in ("+1", "−1") for y in ("+1", "−1")
    )
    # choosing another shift is allowed (a person may choose, FM-8): the example is left
    st.action_buttons["shift -1 +1"].click()
    assert "left the example" in st.example_line.value and st.next_move_button.disabled
    st.stepper.back_button.click()
    assert not st.next_move_button.disabled


def test_wild_trump_points_are_buttons_fm7():
    st = combat_stepper(example=WORKED)
    while not (st.state.phase() == ("trumps", 1) and st.state.attack_no == 1):
        st.next_move()
    # Sparklespaz has no cards but won a point: it becomes a Wild Trump point of a colour (FM-7).
    assert set(st.action_buttons) == {"points red", "points black", "trumps none"}
    assert st.card_buttons == {}
    st.action_buttons["points black"].click()
    assert "become 1 black Wild Trump point (FM-7)" in st.stepper.log_text


def test_setup_change_in_example_mode_replays_the_example_from_the_new_setup_fm2():
    st = combat_stepper(example=WORKED)
    # What if Sparklespaz had 3 Live but no Order Card? Still 2 cards (3 - 1 for the
    # Vibro-Master), so the same cards and the same moves.
    st.holds_order_card.value = False
    st.defender_live.value = 3
    assert st.state.fairies[1].live == 3 and st.state.hand_sizes == (5, 2)
    assert len(st.stepper.revealed_events) == 1
    st.play_all_button.click()
    log = st.stepper.log_text
    assert "Final values: Dizzytwig 3, Sparklespaz 6." in log
    assert "no Live points left" not in log  # 3 Live - 2 damage: still up
    assert st.state.fairies[1].live == 1


def test_example_that_stops_fitting_says_where():
    st = combat_stepper(example=WORKED)
    st.fluttered.value = False  # Dizzytwig draws 6 cards: the stacked deck no longer splits as written
    st.play_all()
    assert "ends here" in st.example_line.value or "left the example" in st.example_line.value


def test_what_if_ends_with_a_neutral_note_once_and_no_path():
    """Issue 23 item 6: unticking the Order Card (the introduction's own what-if) is a
    question, not a crash: one neutral line naming the example's line by file name, play
    going on by hand, and no second copy as a red stepper error."""
    st = combat_stepper(example=WORKED)
    st.holds_order_card.value = False  # Sparklespaz draws 1 card fewer (FM-2): his KC is never dealt
    assert st.what_if
    st.play_all()
    line = st.example_line.value
    assert f"color:{NOTE}" in line and ERROR not in line, line
    assert "line 18 of dizzytwig_v_sparklespaz.yaml" in line and "Continue by hand from here" in line
    assert str(EXAMPLES_DIR) not in line and "/" not in re.sub(r"<[^>]*>", "", line)
    assert st.stepper.error == ""  # said once, on the example line
    assert not st.state.is_terminal and st.stepper.decision_buttons  # he chooses by hand: trumps none
    st.holds_order_card.value = True  # back to the example's own setup: it plays to its end again
    assert not st.what_if
    st.play_all()
    assert f"color:{OK}" in st.example_line.value


def test_plan_stop_text_names_the_file_not_its_path():
    assert plan_stop_text("/a/b/x.yaml:7: South draws 4") == ("line 7 of x.yaml", "South draws 4")


# -- clicking cards -------------------------------------------------------------------------
def test_a_trumps_refusal_goes_once_mended_and_picked_cards_show_fm4():
    """Issue 23 item 5: the two-colours refusal goes as soon as the cards picked change
    (not only at the next move), and a picked card is marked plainly (filled, ticked)."""
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    _deal_and_declare(st)
    st.toggle("KS")
    st.toggle("JH")
    assert PICKED_CLASS in st.card_buttons["KS"]._dom_classes and st.card_buttons["KS"].icon == "check"
    st.place_trumps()
    assert "one colour" in st.stepper.error
    st.toggle("JH")  # mended: only the black KS
    assert st.stepper.error == "" and "one colour" not in st.stepper.error_line.value
    assert PICKED_CLASS not in st.card_buttons["JH"]._dom_classes and st.card_buttons["JH"].icon == ""
    st.place_trumps()
    assert st.state.phase() != ("trumps", 0)


def test_trumps_of_two_colours_are_refused_and_nothing_changes_fm4():
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    _deal_and_declare(st)
    assert st.state.phase() == ("trumps", 0)
    assert set(st.card_buttons) == {"KS", "JH", "5C", "4C", "3D"}
    assert isinstance(st.card_buttons["KS"], widgets.ToggleButton)
    assert st.card_buttons["5C"].disabled  # Numbered cards are not placed face down (FM-4)
    assert st.card_buttons["JH"].style.text_color == "#c92a2a"  # hearts are red
    assert st.card_buttons["KS"].style.text_color == "#212529"
    before, log = st.state, st.stepper.log_text
    st.card_buttons["KS"].value = True
    st.card_buttons["JH"].value = True
    st.action_buttons["place trumps"].click()
    assert "FM-4" in st.stepper.error
    assert "FM-4" in st.stepper.error_line.value and "#c92a2a" in st.stepper.error_line.value
    assert st.state is before and st.stepper.log_text == log
    assert st.card_buttons["KS"].value and st.card_buttons["JH"].value  # the selection is kept to fix
    st.card_buttons["JH"].value = False
    st.action_buttons["place trumps"].click()
    assert st.stepper.error == ""
    assert st.state.cur.trumps[0] == (st.state.hands[0][0],)  # KS face down
    assert st.state.phase() == ("trumps", 1)


def test_trump_clicked_while_holding_a_numbered_card_is_refused_fm6():
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    _deal_and_declare(st)
    st.toggle("KS")
    st.place_trumps()
    st.card_buttons["KC"].value = True
    st.place_trumps()
    assert st.state.phase() == ("play", 0)
    # Dizzytwig's cards left: JH (a Trump) and three Numbered cards; KS is face down.
    assert list(st.card_buttons) == ["JH", "5C", "4C", "3D"]
    before, log = st.state, st.stepper.log_text
    st.card_buttons["JH"].click()
    assert "FM-6" in st.stepper.error
    assert st.state is before and st.stepper.log_text == log
    st.play_card("KS")  # already face down
    assert st.state is before and "K♠ is face down" in st.stepper.error
    st.card_buttons["5C"].click()
    assert st.stepper.error == "" and st.state.cur.cards[0].code == "5C"


def test_wild_trump_without_a_numbered_card_fm6():
    # Sparklespaz is dealt two Trumps and no Numbered card.
    st = combat_stepper(deck="KS QC 5C 4C 3D KC QD 9H", **SETUP)
    _deal_and_declare(st)
    st.say_none()
    assert st.state.phase() == ("trumps", 1)
    st.toggle("KC")
    st.toggle("QD")
    st.place_trumps()  # two colours (FM-4)
    assert "FM-4" in st.stepper.error and st.state.phase() == ("trumps", 1)
    st.toggle("QD")
    st.place_trumps()
    assert st.stepper.error == ""
    st.play_card("5C")
    st.play_card("QD")  # no Numbered card left: the Trump is her Wild Trump
    assert st.stepper.error == ""
    assert "plays the Queen of Diamonds as a Wild Trump (FM-6)" in st.stepper.log_text
    st.stepper.roll_button.click()  # he turns up 9H: his Numbered card (the draft speaks of Sparklespaz as "he") (FM-6)
    assert "turns up the 9 of Hearts: his Numbered card (FM-6)" in st.stepper.log_text


def test_keeping_a_trump_back_for_a_wild_trump_fm6():
    st = combat_stepper(deck="KS QC 5C 4C 3D KC JS", **SETUP)
    _deal_and_declare(st)
    st.say_none()
    before = st.state
    st.toggle("KC")
    st.toggle("JS")
    st.place_trumps()  # both black, but she must keep one back as her Wild Trump (FM-6)
    assert "FM-6" in st.stepper.error and st.state is before


def test_place_trumps_needs_a_selection_and_the_right_step_fm4():
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    st.place_trumps()  # still dealing
    assert "Not the Trumps step" in st.stepper.error
    _deal_and_declare(st)
    st.place_trumps()
    assert "Toggle the Trumps" in st.stepper.error and "FM-4" in st.stepper.error
    st.toggle("5C")  # a Numbered card cannot be toggled
    assert "only Trumps" in st.stepper.error


def test_back_restores_the_state_and_the_cards_to_click():
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    _deal_and_declare(st)
    at_trumps, log = st.state, st.stepper.log_text
    st.card_buttons["KS"].value = True
    st.action_buttons["place trumps"].click()
    assert st.state.phase() == ("trumps", 1)
    assert list(st.card_buttons) == ["2D", "KC"]  # now Sparklespaz's hand
    st.stepper.back_button.click()
    assert st.state is at_trumps and st.stepper.log_text == log
    assert list(st.card_buttons) == ["KS", "JH", "5C", "4C", "3D"]
    assert not st.card_buttons["KS"].value  # a fresh selection


# -- both hands, one fairy's view -----------------------------------------------------------
def test_designer_view_and_one_fairys_view_fm5():
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", **SETUP)
    _deal_and_declare(st)
    both = st.hands_view.value
    assert "K♠" in _read(both) and "K♣" in _read(both) and "2♦" in _read(both)
    assert Picture.card("2D").data_uri() in both  # drawn as everywhere: a red card in red ink
    st.view.value = "attacker"
    mine = st.hands_view.value
    assert "What Dizzytwig may see:" in mine and "she may see" not in mine
    assert "K♠" in _read(mine) and "2 cards" in mine and "K♣" not in _read(mine)  # Sparklespaz's hand is hidden
    assert mine.count("<div>") == 1 + len(st.state.observation("attacker").splitlines())
    st.view.value = "defender"
    theirs = _read(st.hands_view.value)
    assert "K♣" in theirs and "5 cards" in theirs and "K♠" not in theirs
    st.action_buttons["trumps none"].click()  # the view follows the moves
    assert "K♣" in _read(st.hands_view.value)


def test_names_are_escaped_in_html():
    st = combat_stepper(attacker=Fairy("<Bob> & co", live=2, kill=2), defender=Fairy("Eve", live=2, kill=2))
    st.stepper.roll_button.click()
    assert "&lt;Bob&gt; &amp; co" in st.hands_view.value and "<Bob>" not in st.hands_view.value
    panel = st.stepper.decision_box.children[0].children[0].value
    assert "&lt;Bob&gt; &amp; co" in panel and "<Bob>" not in panel
    assert "<Bob>" not in st.setup_line.value and "<Bob>" not in st.stepper.log_view.value
    st.view.value = "attacker"
    assert "&lt;Bob&gt;" in st.hands_view.value and "<Bob>" not in st.hands_view.value


# -- setup controls ------------------------------------------------------------------------------
def test_setup_changes_restart_fm2():
    st = combat_stepper(seed=3)
    # the draft's fairies by default: Dizzytwig 4 Kill + Vibro-Master 1 + attacking 1 = 6 cards;
    # Sparklespaz 2 Live - 1 (Vibro-Master) = 1 card (FM-2)
    assert st.state.hand_sizes == (6, 1)
    assert "Dizzytwig 6 cards, Sparklespaz 1" in st.setup_line.value
    st.stepper.roll_button.click()
    assert st.stepper.state is not st.stepper.start_state  # one move made
    st.fluttered.value = True  # -1 card
    assert st.state.hand_sizes == (5, 1) and st.stepper.state is st.stepper.start_state and st.stepper.seed == 3
    st.holds_order_card.value = True  # +1 card
    st.attacker_kill.value = 2
    assert st.state.hand_sizes == (3, 2)
    st.attacker_weapon.value = st.attacker_weapon.options[-1][1]  # bare hands: no bonus, 1 attack
    assert st.state.hand_sizes == (2, 3) and st.state.attacks == 1
    # FM-2/FM-14 default: Wrestling hands by Kill points, every other term as usual:
    # Dizzytwig 2 Kill + 1 attacking - 1 Fluttered = 2; Sparklespaz 1 Kill + 1 Order Card = 2
    assert st.wrestling_hand.disabled
    st.wrestling.value = True
    assert not st.fluttered.disabled and not st.holds_order_card.disabled and not st.wrestling_hand.disabled
    assert st.state.hand_sizes == (2, 2) and st.state.wrestling
    st.wrestling_hand.value = "kill_only"  # the variant: Kill points only
    assert st.fluttered.disabled and st.holds_order_card.disabled
    assert st.state.hand_sizes == (2, 1) and st.state.wrestling
    assert "Kill points only" in st.setup_line.value
    assert "Wrestling" in st.setup_line.value


def test_variants_and_stacked_deck_restart_fm5_fm7_fm10_fm12():
    st = combat_stepper()
    assert st.deck_box.disabled and st.deal.value == "seeded"
    st.damage.value = "table"
    st.none_reveal.value = "subset"
    st.undefended.value = "unopposed"
    st.nasty_hit.value = "loser"
    assert st.state.rules == Rules(damage="table", none_reveal="subset", undefended="unopposed", nasty_hit="loser")
    assert "Damage from points: table" in st.setup_line.value
    st.deal.value = "stacked"
    assert not st.deck_box.disabled
    st.deck_box.value = "AS KS QS JS 10S 9S"
    st.stepper.roll_button.click()
    assert [c.code for c in st.state.hands[0]] == ["AS", "KS", "QS", "JS", "10S", "9S"]
    state = st.state
    st.deck_box.value = "AS AS"  # a card stacked twice: an error, nothing restarts
    assert "more than once" in st.error_line.value and st.state is state
    st.deck_box.value = "XX"
    assert "not a card" in st.error_line.value and st.state is state
    st.deck_box.value = "2H"
    assert st.error_line.value == "" and st.state.pile.stacked[0].code == "2H"


def test_seeded_deals_are_reproducible():
    a, b = combat_stepper(seed=5), combat_stepper(seed=5)
    _click_through(a)
    _click_through(b)
    assert a.stepper.log_text == b.stepper.log_text


def test_bad_arguments():
    with pytest.raises(InvalidSetupError, match="both"):
        combat_stepper(attacker=Fairy("Bob", 2, 2))
    with pytest.raises(InvalidSetupError, match="not both"):
        combat_stepper(example=WORKED, attacker=Fairy("Bob", 2, 2), defender=Fairy("Eve", 2, 2))
    with pytest.raises(InvalidSetupError, match="unknown setup"):
        combat_stepper(flutered=True)
    with pytest.raises(InvalidSetupError, match="Live"):
        combat_stepper(attacker=Fairy("Bob", 0, 2), defender=Fairy("Eve", 2, 2))


def test_dealt_hands_become_a_stacked_deck_fm2():
    st = combat_stepper(hands=("KS QC 5C 4C 3D", "2D KC"), **SETUP)
    assert st.deck_box.value == "KS QC 5C 4C 3D 2D KC"
    with pytest.raises(InvalidSetupError, match="FM-2"):
        combat_stepper(hands=("KS QC", "2D KC"), **SETUP)
    # the other start_combat options pass through and survive a restart
    st = combat_stepper(attacks=1, attacker_modifiers=2, defender_has_attacked=True)
    st.attacker_kill.value = 1
    assert st.state.attacks == 1 and st.state.defender_has_attacked
    assert st.state.hand_sizes[0] == 1 + 1 + 1 + 2  # Kill + Vibro-Master + attacking + modifiers (FM-2)


def test_the_primary_trumps_button_is_the_one_she_can_use_fm4():
    # Dizzytwig holds KS and JH (Trumps): Place Trumps is primary; Sparklespaz holds 2D 3C,
    # Numbered cards only, so None is the primary button and Place Trumps is off (FM-4)
    st = combat_stepper(deck="KS JH 5C 4C 3D 2D 3C", **SETUP)
    _deal_and_declare(st)
    assert st.action_buttons["place trumps"].button_style == "primary"
    assert st.action_buttons["trumps none"].button_style == ""
    st.action_buttons["trumps none"].click()
    assert st.state.phase() == ("trumps", 1)  # Sparklespaz holds 2D 3C: no Trump to place
    assert st.action_buttons["trumps none"].button_style == "primary"
    assert st.action_buttons["place trumps"].button_style == "" and st.action_buttons["place trumps"].disabled


def test_the_narration_speaks_of_each_fairy_by_her_pronoun():
    st = combat_stepper(example=WORKED)  # the worked example says pronoun: he for Sparklespaz
    st.play_all()
    log = st.stepper.log_text
    assert "Sparklespaz declares he will add Trumps (FM-3)." in log
    assert "Sparklespaz keeps his 1 point for his next defence (FM-11)." in log
    assert "Sparklespaz has no Live points left: he is down." in log
    assert "Dizzytwig declares she will subtract Trumps (FM-3)." in log  # the default
    assert "pronoun: he" in st.export()
    text = WORKED.read_text(encoding="utf-8").replace("pronoun: he", "pronoun: they")
    they = replay(load_example(text)).log()
    assert "Sparklespaz declares they will add" in they and "their next defence" in they
    assert "Sparklespaz has no Live points left: they are down." in they
    with pytest.raises(NotationError, match="pronoun must be one of she, he, they, got 'it'"):
        load_example(text.replace("pronoun: they", "pronoun: it"))
    with pytest.raises(InvalidSetupError, match="pronoun must be one of she, he, they"):
        Fairy("Sparklespaz", 2, 1, pronoun="He")


# -- export -----------------------------------------------------------------------------------
def test_export_replays_to_the_same_log_worked_example():
    st = combat_stepper(example=WORKED)
    st.play_all()
    st.export_title.value = "Dizzy & Sparky <again>"
    st.export_button.click()
    text = st.export_box.value
    assert text.startswith("system: fairy-meat")
    again = replay(load_example(text))
    assert again.log() == st.state.log() and log_text(again.events) == st.stepper.log_text
    assert load_example(text).title == "Dizzy & Sparky <again>"
    assert "toolkit replay" in st.export_note.value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_export_of_a_clicked_combat_replays_to_the_same_log(seed):
    st = combat_stepper(seed=seed)
    st.damage.value = "table"
    _click_through(st)
    text = st.export()
    assert replay(load_example(text)).log() == st.state.log()


def test_export_midway_is_an_unfinished_example_in_the_note_colour():
    st = combat_stepper(example=WORKED)
    while st.state.phase()[0] != "shift":
        st.next_move()
    text = st.export()
    # issue 12 item 7: a partial export is a note, not a red error
    assert load_example(text).unfinished and "unfinished: true" in text
    assert "unfinished example" in st.export_note.value
    assert NOTE in st.export_note.value and ERROR not in st.export_note.value
    again = replay(load_example(text))  # stops where the combat stands: the same log, the same step
    assert again.log() == st.state.log() and again.phase() == st.state.phase() == ("shift", 0)
    st.play_all()
    text = st.export()
    assert "unfinished" not in text and "toolkit replay" in st.export_note.value


def test_export_writes_the_nasty_hit_and_replay_checks_it_fm12():
    st = combat_stepper(example=WORKED)
    st.play_all()
    text = st.export()
    example = load_example(text)
    # the worked example: the A♠ is applied in attack 2 and Sparklespaz takes damage (FM-12)
    assert [item.get("nasty_hit") for item in example.expect] == [False, True]
    wrong = load_example(text.replace("nasty_hit: true", "nasty_hit: false"))
    (problem,) = check_expectations(wrong, replay(wrong))
    line = wrong.expect[1]["_line"]  # the unmet expectation names its line in the file
    assert problem == f"line {line}: attack 2: nasty_hit is True, the example expects False" and line > 0


# -- "What would optimal play do here?" ----------------------------------------------------------
def _hint_rows(st: CombatStepper) -> list[tuple[str, Fraction, bool]]:
    """The hint panel's table as (first action of the row, probability shown, greyed)."""
    rows = re.findall(r"<tr([^>]*)><td>(.*?)</td><td>(.*?)</td></tr>", st.hint_view.value)
    return [
        (re.sub(r"<[^>]+>", "", names).split(" / ")[0], Fraction(shown.split(" ")[0]), "color:" in attrs)
        for attrs, names, shown in rows
    ]


def _counting_hint(monkeypatch: pytest.MonkeyPatch) -> list:
    """Count the calls of optimal.hint (each one a solve) while still calling it."""
    calls: list = []
    real = optimal.hint

    def counted(state, *args, **kwargs):
        calls.append(state)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(optimal, "hint", counted)
    return calls


def test_hint_panel_shows_the_mix_hint_returns_fm4_fm6(monkeypatch):
    # The draft's hands (KS QC 5C 4C 3D v 2D KC), one attack so that the whole game is small
    # enough to solve. The expected mix comes from optimal.hint itself: this checks the
    # panel's plumbing (every action, its probability, the order), not optimal play.
    calls = _counting_hint(monkeypatch)
    st = combat_stepper(example=WORKED, attacks=1)
    while st.state.phase() != ("trumps", 0):
        st.next_move()
    assert st.hint_view.value == "" and calls == []  # off: nothing is solved
    st.hint_button.value = True
    assert "Attack 1: Trumps face down (FM-4)" in st.hint_view.value and "Dizzytwig (attacker)" in st.hint_view.value
    assert "as if each fairy could see both hands, except the Trumps placed face down" in st.hint_view.value
    assert "toolkit-off-path" not in st.hint_view.value  # the example's own path: optimal play comes here
    _, mix = optimal.hint(st.state)
    rows = _hint_rows(st)
    assert {a: p for a, p, _ in rows} == {codes_text(a): p for a, p in mix.items()} and sum(p for _, p, _ in rows) == 1
    assert [p for _, p, _ in rows] == sorted(mix.values(), reverse=True)
    assert all(greyed == (p == 0) for _, p, greyed in rows)  # never played: greyed
    assert all(f"<td>{format_probability(p)}</td>" in st.hint_view.value for p in mix.values())
    # KS and QC are both black Trumps (FM-1): one choice, one row
    assert "trumps Q♣" in re.sub(r"<[^>]+>", "", st.hint_view.value)
    # the hint follows the next move, and Back does not solve again
    st.next_move()
    st.next_move()
    assert st.state.phase() == ("play", 0) and "Numbered card (FM-6)" in st.hint_view.value
    _, mix = optimal.hint(st.state)
    assert {a: p for a, p, _ in _hint_rows(st)} == {codes_text(a): p for a, p in mix.items()} and sum(mix.values()) == 1
    solved = len(calls)
    st.stepper.back_button.click()
    st.next_move()
    st.hint_button.value = False
    assert st.hint_view.value == ""
    st.hint_button.value = True
    assert len(calls) == solved


def test_hint_off_the_path_of_optimal_play_says_it_is_no_advice_fm3():
    """Issue 23 item 9: after a choice optimal play never makes (its share is 0), the next
    decision is one optimal play never reaches; the hint says so plainly instead of
    offering its placeholder shares as advice."""
    st = combat_stepper(example=WORKED, attacks=1)
    while st.state.phase() != ("declare", 0):
        st.next_move()
    _, mix = optimal.hint(st.state)
    never = [a for a, p in mix.items() if p == 0]
    assert never, mix  # optimal play declares one way only with these hands
    st.hint_button.value = True
    st.choose(never[0])
    while st.state.is_chance_node:  # the stacked deck deals the defender's hand
        st.stepper.roll()
    assert optimal.hint_reached(st.state) is False
    text = re.sub(r"<[^>]+>", "", st.hint_view.value).replace("&#x27;", "'")
    assert OFF_PATH_NOTE.replace("&#x27;", "'") in text and "toolkit-off-path" in st.hint_view.value
    while st.state.phase() != ("declare", 0):
        st.stepper.back()
    st.choose(max(mix, key=mix.get))  # the choice optimal play makes: its next decision is reached
    while st.state.is_chance_node:
        st.stepper.roll()
    assert optimal.hint_reached(st.state) is True and "toolkit-off-path" not in st.hint_view.value


def test_hint_says_there_is_no_decision_at_chance_and_referee_steps_fm8():
    st = combat_stepper(example=WORKED)
    st.hint_button.value = True
    assert st.state.is_chance_node
    assert "No decision here: the next step is chance" in st.hint_view.value
    while st.state.phase()[0] != "shift":
        st.next_move()
    # the referee's shift (FM-8): no mix, the best choice is preselected
    assert "referee&#x27;s best choice (Dizzytwig +1, Sparklespaz −1) is preselected" in st.hint_view.value
    st.play_all()
    assert "The combat is over" in st.hint_view.value


def test_hint_too_big_is_shown_not_raised(monkeypatch):
    def too_big(state, *args, **kwargs):
        raise TooBigError("about 3,993,600 <referee> judgements: too big for a quick hint")

    monkeypatch.setattr(optimal, "hint", too_big)
    st = combat_stepper(example=WORKED)
    st.next_move()
    st.hint_button.value = True
    assert "too big for a quick hint" in st.hint_view.value
    assert "&lt;referee&gt;" in st.hint_view.value and "<referee>" not in st.hint_view.value
    assert st.stepper.error == ""
    st.action_buttons["declare subtract"].click()  # the stepper goes on
    assert st.state.declared == ("subtract", None)


# -- the odds explorer ------------------------------------------------------------------------
def _stand_in(attacker_cards: int, defender_cards: int, policies: tuple[str, str], rules: Rules) -> Distribution:
    """A tiny stand-in calculator: three equally likely attacks, judged by the referee."""
    calls.append((attacker_cards, defender_cards, policies, rules))
    return Distribution.uniform(
        [
            # 5C v 3C: same colour, highest wins: attacker by 2 -> 1 point, 1 damage (FM-9, FM-10)
            resolve_attack(Play("5C"), Play("3C"), rules),
            # 2C v 9C: the defender wins by 7 -> 4 points (FM-11)
            resolve_attack(Play("2C"), Play("9C"), rules),
            # 10C with the Ace of Spades v 2C: attacker by 9 -> halved 5 damage, table 3; Nasty Hit (FM-12)
            resolve_attack(Play("10C", trumps=("AS",)), Play("2C"), rules),
        ]
    )


calls: list = []


def test_odds_explorer_with_a_stand_in_calculator_fm9_fm10_fm12():
    calls.clear()
    ex = odds_explorer(attacker_cards=3, defender_cards=2, compute=_stand_in)
    assert calls[-1][:3] == (3, 2, ("greedy", "greedy")) and calls[-1][3] == Rules()
    third = Fraction(1, 3)
    assert f"P(attacker wins) = {format_probability(2 * third)}" in ex.summary_text
    assert "P(draw) = 0 = 0%" in ex.summary_text
    assert "expected damage 2" in ex.summary_text  # (1 + 5) / 3
    assert f"P(Nasty Hit) = {format_probability(third)}" in ex.summary_text
    table = dict(zip(ex.table["outcome"], ex.table["probability"], strict=True))
    assert table == {"5 damage to defender": third, "1 damage to defender": third, "4 points to defender": third}
    ex.controls["damage"].value = "table"  # FM-10 variant: difference 9 -> 3 damage
    assert calls[-1][3] == Rules(damage="table")
    assert "3 damage to defender" in ex.table["outcome"].tolist()
    ex.controls["attacker_policy"].value = "random"
    ex.controls["defender_cards"].value = 0
    assert calls[-1][:3] == (3, 0, ("random", "greedy"))
    assert ex.controls["attacker_cards"].max == 8 and ex.controls["defender_cards"].max == 6


def test_odds_explorer_shows_the_exact_calculator_for_greedy_play():
    ex = odds_explorer(attacker_cards=1, defender_cards=1)
    exact = deal_averaged_odds(1, 1, ("greedy", "greedy"))
    assert ex.distribution == exact.distribution
    # the line above the summary is the result's own first line (one function writes it)
    assert (
        ex.headline_text
        == exact.headline()
        == "Fairy Meat · 1 v 1 cards, every deal · greedy v greedy · draft rules · exact (size 73,616)"
    )
    assert ex.table["probability"].sum() == 1
    ex.controls["nasty_hit"].value = "loser"  # FM-12 variant: more Nasty Hits, never fewer
    loser = ex.distribution.probability(lambda o: o.nasty_hit)
    ex.controls["nasty_hit"].value = "damaged"
    assert ex.distribution.probability(lambda o: o.nasty_hit) <= loser


def test_odds_explorer_says_when_it_samples():
    # random play is too many deals to count: Monte Carlo, with the trials and an interval
    ex = odds_explorer(attacker_cards=5, defender_cards=2, policies=("random", "random"), trials=200)
    sampled = deal_averaged_odds(5, 2, ("random", "random"), trials=200)
    assert ex.headline_text == sampled.headline() and ex.headline_text.endswith(
        "random v random · draft rules · Monte Carlo (200 simulated attacks, 95% intervals)"
    )
    assert ex.distribution == sampled.distribution


def test_odds_explorer_rejects_bad_starting_values():
    with pytest.raises(InvalidSetupError, match="1 to 8"):
        odds_explorer(attacker_cards=0, compute=_stand_in)
    with pytest.raises(InvalidSetupError, match="policy"):
        odds_explorer(policies=("clever", "greedy"), compute=_stand_in)


# -- the notebook ---------------------------------------------------------------------------------
def test_examples_dir_holds_the_worked_example():
    assert (EXAMPLES_DIR / WORKED.name).is_file()


@pytest.mark.slow
def test_explore_notebook_runs_headless():
    widget_cells, text = run_notebook_headless(NOTEBOOK)
    # the example's stepper, a free stepper, the two explorers; the house-rules explorer and stepper
    assert widget_cells == 6
    assert "Points divisor: 1" in text  # the shipped unhalved_damage.yaml, loaded, the field by its label
    assert "Final values: Dizzytwig 3, Sparklespaz 6." in text  # the worked example, as toolkit replay prints it
    assert "Every expectation in the file is met." in text
    assert "Replays to the same log: True" in text  # the exported example


# -- the make-up of a combat hand --------------------------------------------------------------
def test_hand_composition_by_hand_counts_fm1_fm4_fm6():
    ex = hand_composition_explorer(cards=1)
    # FM-1: 36 Numbered cards and 16 Trumps in 52: one card is a Trump with 16/52 = 4/13.
    assert f"P(no Numbered card) = {format_probability(Fraction(4, 13))} (FM-6)" in ex.summary_text
    # a lone Trump must be her Wild Trump
    assert "P(can place Trumps and still play a card) = 0 = 0%" in ex.summary_text
    ex.controls["cards"].value = 2
    # No Trump in two cards: C(36,2)/C(52,2) = 630/1326 = 105/221; any Trump can then be placed
    # (with a Numbered card, or with a second Trump kept back as a Wild Trump, FM-6).
    assert f"P(no Trump) = {format_probability(Fraction(105, 221))}" in ex.summary_text
    assert f"P(can place Trumps and still play a card) = {format_probability(Fraction(116, 221))}" in ex.summary_text
    # one red and one black Trump: 8 * 8 / 1326 = 32/663
    assert f"P(Trumps of both colours) = {format_probability(Fraction(32, 663))}" in ex.summary_text
    # no Numbered card: C(16,2)/C(52,2) = 120/1326 = 20/221
    assert ex.table.set_index("outcome").loc["no Numbered card", "probability"] == Fraction(20, 221)
    assert ex.table["probability"].sum() == 1
    assert f"P(the Ace of Spades) = {format_probability(Fraction(2, 52))}" in ex.summary_text  # 2 of 52 cards
    assert ex.distribution == hand_composition(2)
    with pytest.raises(InvalidSetupError, match="0 to 12"):
        hand_composition_explorer(cards=13)


def test_hand_composition_follows_the_house_rules_deck_and_death_card():
    # tens_are_trumps (FM-1): ranks 2-9 Numbered, 10 J Q K A Trumps: 32 Numbered cards of 52,
    # so one card is a Trump with 20/52 = 5/13 (the draft's deck gives 4/13).
    ex = hand_composition_explorer(cards=1, rules="tens_are_trumps")
    assert f"P(no Numbered card) = {format_probability(Fraction(5, 13))} (FM-6)" in ex.summary_text
    # FM-12 with the K♣ as death card: held in one card 1 time in 52, and named
    ex = hand_composition_explorer(cards=1, rules={"death_card": "KC"})
    assert f"P(the King of Clubs) = {format_probability(Fraction(1, 52))} (FM-12)" in ex.summary_text
    assert "Ace of Spades" not in ex.summary_text
    ex = hand_composition_explorer(cards=1, rules={"death_card": "none"})
    assert "FM-12" not in ex.summary_text  # no death card: no line for it


def test_can_place_trumps_fm4_fm6():
    def hand(numbered: int, red: int, black: int) -> HandComposition:
        return HandComposition(numbered, red, black, False)

    assert can_place_trumps(hand(1, 1, 0))
    assert not can_place_trumps(hand(0, 1, 0))  # her only Trump is her Wild Trump (FM-6)
    assert can_place_trumps(hand(0, 1, 1))  # place one, play the other as a Wild Trump
    assert not can_place_trumps(hand(3, 0, 0))


def test_text_tables_read_left_to_right():
    """Issue 23 item 9: the hands table and the hint's choices are tables of words: every
    cell left-aligned (JupyterLab right-aligns cells by default)."""
    from toolkit.widgets.common import TEXT_TABLE, TEXT_TABLE_STYLE

    assert "text-align:left" in TEXT_TABLE_STYLE and f".{TEXT_TABLE} td" in TEXT_TABLE_STYLE
    st = combat_stepper(example=WORKED, attacks=1)
    assert TEXT_TABLE_STYLE in st.hands_view.value and f'<table class="{TEXT_TABLE}"' in st.hands_view.value
    while st.state.phase() != ("trumps", 0):
        st.next_move()
    st.hint_button.value = True
    assert TEXT_TABLE_STYLE in st.hint_view.value and f'<table class="{TEXT_TABLE}"' in st.hint_view.value


def test_the_title_heads_the_stepper_above_its_setup():
    """Issue 23 item 9: the stepper's title is the first thing, above the setup controls
    (it sat under them, at the top of the step buttons), and it is shown once."""
    st = combat_stepper(example=WORKED)
    first = st.widget.children[0]
    assert first is st.stepper.title and "Dizzytwig v Sparklespaz" in first.value
    assert st.stepper.title not in st.stepper.widget.children
    assert list(st.widget.children).index(st.controls_grid) == 1
