"""Headless tests of the notebook widgets: the generic stepper, the Angry Miniatures
attack stepper and the odds explorer, driven through the widgets themselves
(``button.click()``, setting ``.value``).

Numbers asserted here come from the rule text (ruling ids in the test names), from
hand counts written out in the comments, or from the independent brute force in
``tests/brute_force.py`` — not from the calculators under test.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import nbformat
import pytest
from brute_force import opposed_bf
from nbclient import NotebookClient

from toolkit.angry_miniatures import Character, Rules, opposed, start_attack_from_pools
from toolkit.angry_miniatures.widgets import attack_stepper, odds_explorer
from toolkit.engine import CHANCE, TERMINAL, Event, GameState
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.prob import Distribution, format_probability
from toolkit.widgets import OddsExplorer, Stepper


def run_notebook_headless(path: Path) -> tuple[int, str]:
    """Run a committed notebook headless (it must have no outputs in the file) and check
    no cell raised; return how many cells show a widget, and all the text printed.
    The system widget tests run their explore notebooks with it."""
    nb = nbformat.read(path, as_version=4)
    assert not [c for c in nb.cells if c.cell_type == "code" and (c.outputs or c.execution_count)]
    client = NotebookClient(nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    widget_cells = [
        c
        for c in nb.cells
        if any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c.get("outputs", []))
    ]
    return len(widget_cells), "".join(o.get("text", "") for o in outputs)


def _type(stepper: Stepper, text: str) -> None:
    """Type an outcome into the box and press Apply, as a designer would."""
    stepper.outcome_box.value = text
    stepper.apply_button.click()


# -- a tiny game with a decision, for the generic stepper -------------------------------
@dataclass(frozen=True)
class Duel(GameState):
    """Alice chooses to strike or parry, then a coin is tossed; that is the game."""

    choice: str = ""
    coin: str = ""
    log_events: tuple[Event, ...] = (Event("start", "Alice faces the <troll> & its club."),)

    @property
    def current_player(self) -> str:
        if not self.choice:
            return "Alice"
        return CHANCE if not self.coin else TERMINAL

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log_events

    def _legal_actions(self) -> list[Hashable]:
        return ["strike", "parry"]

    def _chance_outcomes(self) -> list[tuple[Hashable, Fraction]]:
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def _apply(self, action: Hashable) -> Duel:
        if not self.choice:
            verb = "strikes" if action == "strike" else "parries"
            return replace(self, choice=str(action), log_events=(*self.log_events, Event("choice", f"Alice {verb}.")))
        more = (Event("coin", f"The coin shows {action}."), Event("end", "The duel is over."))
        return replace(self, coin=str(action), log_events=self.log_events + more)


# -- generic stepper on Angry Miniatures ------------------------------------------------------
def test_typed_faces_3_vs_2_melee_deal_1_damage_am1_am3():
    stepper = Stepper(start_attack_from_pools(3, 2, "melee"))
    _type(stepper, "A K 9")  # AM-1: A and K are hits, 9 is blank -> 2 hits
    _type(stepper, "Q 10")  # Q is a hit, 10 blank -> 1 hit
    log = stepper.log_text
    assert "A K 9 — 2 hits" in log
    assert "Q 10 — 1 hit." in log
    assert "Hits: attacker 2, defender 1." in log
    # AM-3: damage = difference in hits = 1, to the defender.
    assert "deals 1 damage to Defender" in log.splitlines()[-1]
    assert stepper.state.is_terminal
    assert stepper.state.outcome().defender_damage == 1
    assert stepper.error == ""
    assert stepper.outcome_box.value == ""  # cleared after a good entry
    # the copy box holds the same plain text; the HTML log highlights the newest line
    assert stepper.log_copy.value == log
    assert "background:#fff3bf" in stepper.log_view.value.split("<div")[-1]
    assert stepper.apply_button.disabled and stepper.roll_button.disabled and stepper.step_button.disabled


def test_full_tie_goes_to_super_tiebreaker_with_reroll_am4():
    stepper = Stepper(start_attack_from_pools(3, 3, "melee"))
    _type(stepper, "A K Q")
    _type(stepper, "A K Q")
    # AM-4: equal Aces, Kings, Queens, Jacks -> SuperTieBreaker, one die each.
    assert "SuperTieBreaker" in stepper.state.prompt()
    assert "SuperTieBreaker" in stepper.prompt_line.value
    _type(stepper, "K K, A 9")  # K/K is equal: both reroll; then A beats 9
    log = stepper.log_text
    throws = [line for line in log.splitlines() if line.startswith("SuperTieBreaker:")]
    assert len(throws) == 2
    assert "rolls K" in throws[0] and "both reroll" in throws[0]
    assert "rolls A" in throws[1] and "rolls 9" in throws[1] and "the attacker wins" in throws[1]
    # AM-4: the attacker wins a tie -> exactly 1 damage.
    assert "wins the tie and deals exactly 1 damage to Defender" in log.splitlines()[-1]
    assert stepper.state.outcome().defender_damage == 1


def test_back_restores_the_previous_log():
    stepper = Stepper(start_attack_from_pools(3, 2, "melee"))
    start_log = stepper.log_text
    assert stepper.back_button.disabled
    _type(stepper, "A K 9")
    after_attack = stepper.log_text
    after_attack_state = stepper.state
    _type(stepper, "Q 10")
    stepper.back_button.click()
    assert stepper.log_text == after_attack
    assert stepper.state is after_attack_state
    assert stepper.log_copy.value == after_attack
    stepper.back_button.click()
    assert stepper.log_text == start_log
    assert stepper.back_button.disabled
    stepper.back()  # nothing left to undo: a note, not an error
    assert stepper.log_text == start_log and stepper.error == "" and "start" in stepper.note


def test_bad_face_shows_error_naming_accepted_faces_am1():
    stepper = Stepper(start_attack_from_pools(3, 2, "melee"))
    _type(stepper, "A")
    before, log = stepper.state, stepper.log_text
    _type(stepper, "1X")
    # AM-1: the faces of a poker die are 9 10 J Q K A.
    assert "'1X'" in stepper.error and "9 10 J Q K A" in stepper.error
    assert stepper.state is before and stepper.log_text == log
    assert "color:#c92a2a" in stepper.error_line.value and "9 10 J Q K A" in stepper.error_line.value
    assert stepper.outcome_box.value == "1X"  # kept for correcting
    _type(stepper, "K 9")
    assert stepper.error == "" and stepper.error_line.value == ""
    assert "A K 9 — 2 hits" in stepper.log_text


def test_type_outcome_errors_leave_state_unchanged():
    stepper = Stepper(start_attack_from_pools(1, 1, "melee"))
    start = stepper.state
    stepper.type_outcome("   ")
    assert "Type an outcome" in stepper.error and stepper.state is start
    stepper.type_outcome("A A")  # 2 faces for the attacker's 1 die (issue 10: refused, not spilled over)
    assert "attack roll has 1 die" in stepper.error and stepper.state is start
    stepper.type_outcome("A")
    stepper.type_outcome("9")
    assert stepper.state.is_terminal
    stepper.type_outcome("A")
    assert "over" in stepper.error and stepper.state.is_terminal


def test_step_reveals_events_one_at_a_time_and_rolls_whole_groups():
    stepper = Stepper(start_attack_from_pools(3, 2, "melee"), seed=7)
    assert [e.kind for e in stepper.revealed_events] == ["start"]
    stepper.step_button.click()
    # one Step at a chance node rolls the whole attack pool (its roll group) ...
    assert len(stepper.state.attack_roll) == 3
    assert len(stepper.revealed_events) == 2 and stepper.revealed_events[-1].kind == "roll"
    stepper.step_button.click()
    assert len(stepper.state.defence_rolls[0]) == 2
    # ... and the judgement that followed the last die is revealed line by line
    assert stepper.pending >= 2  # at least "Hits: ..." and the damage line wait for Step
    while stepper.pending or not stepper.state.is_terminal:
        revealed, pending, state = len(stepper.revealed_events), stepper.pending, stepper.state
        stepper.step_button.click()
        assert len(stepper.revealed_events) == revealed + 1
        if pending:  # revealing only: the state does not move
            assert stepper.state is state and stepper.pending == pending - 1
    assert stepper.log_text == stepper.state.log()
    assert stepper.step_button.disabled
    stepper.step()
    assert "Finished" in stepper.note and stepper.log_text == stepper.state.log()


def test_roll_rolls_the_pending_group_and_reveals_everything():
    stepper = Stepper(start_attack_from_pools(4, 2, "melee"), seed=1)
    stepper.roll_button.click()
    assert len(stepper.state.attack_roll) == 4 and stepper.pending == 0
    clicks = 1
    while not stepper.state.is_terminal:
        stepper.roll_button.click()
        assert stepper.pending == 0
        clicks += 1
        assert clicks < 50
    assert stepper.log_text == stepper.state.log()
    stepper.roll()
    assert "over" in stepper.error


def test_seed_makes_rolls_reproducible_and_back_replays_the_same_dice():
    def played(seed: int) -> str:
        s = Stepper(start_attack_from_pools(5, 5, "melee"), seed=seed)
        while not s.state.is_terminal:
            s.roll()
        return s.log_text

    stepper = Stepper(start_attack_from_pools(5, 5, "melee"), seed=0)
    stepper.roll()
    first = stepper.log_text
    stepper.back()
    stepper.roll()
    assert stepper.log_text == first  # the generator's state is restored by Back
    stepper.seed_box.value = 11  # a new seed restarts
    assert stepper.seed == 11 and len(stepper.revealed_events) == 1
    while not stepper.state.is_terminal:
        stepper.roll_button.click()
    assert stepper.log_text == played(11)
    stepper.restart_button.click()
    assert stepper.state == start_attack_from_pools(5, 5, "melee")
    assert stepper.seed == 11 and stepper.seed_box.value == 11


def test_start_function_is_called_on_each_restart():
    calls = []

    def start() -> GameState:
        calls.append(1)
        return start_attack_from_pools(2, 2, "ranged")

    stepper = Stepper(start, seed=3)
    stepper.restart(seed=4)
    assert len(calls) == 2 and stepper.seed == 4


def test_decision_buttons_choose_legal_actions():
    stepper = Stepper(Duel())
    labels = [b.description for b in stepper.decision_buttons]
    assert labels == ["strike", "parry"]
    assert stepper.decision_box.children == tuple(stepper.decision_buttons)
    assert stepper.roll_button.disabled and stepper.step_button.disabled
    stepper.step()  # at a decision Step does nothing but say who chooses
    assert "Alice to choose" in stepper.note and stepper.state == Duel()
    stepper.roll()
    assert "Alice chooses first" in stepper.error
    stepper.decision_buttons[1].click()
    assert stepper.state.choice == "parry"
    assert stepper.revealed_events[-1].text == "Alice parries."
    assert stepper.decision_buttons == [] and not stepper.roll_button.disabled
    _type(stepper, "tails")
    assert stepper.state.is_terminal
    assert stepper.log_text.splitlines()[-2:] == ["The coin shows tails.", "The duel is over."]
    stepper.back_button.click()
    stepper.back_button.click()
    stepper.choose("strike")  # the Python API takes an action (or its written form)
    assert stepper.revealed_events[-1].text == "Alice strikes."
    stepper.back()
    stepper.choose("dance")
    assert "dance" in stepper.error and "strike, parry" in stepper.error and stepper.state == Duel()


def test_log_is_escaped_html():
    stepper = Stepper(Duel())
    assert "&lt;troll&gt; &amp; its club" in stepper.log_view.value
    assert "<troll>" not in stepper.log_view.value
    assert stepper.log_text == "Alice faces the <troll> & its club."


def test_stepper_displays_as_its_widget():
    stepper = Stepper(Duel())
    assert isinstance(stepper.widget, widgets.VBox)
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == stepper.widget.model_id


# -- the Angry Miniatures attack stepper ------------------------------------------------------
def test_attack_stepper_sliders_restart_with_new_pools_am2():
    st = attack_stepper(seed=2)
    st.stepper.roll()
    st.attack_dice.value = 4
    st.defence_dice.value = 1
    state = st.stepper.state
    assert (state.attack_dice, state.defence_dice) == (4, (1,))
    assert len(st.stepper.revealed_events) == 1  # restarted
    assert "4 attack dice against 1" in st.setup_line.value
    _type(st.stepper, "J J 9 9")
    _type(st.stepper, "9")
    assert "deals 2 damage to Defender" in st.stepper.log_text.splitlines()[-1]
    assert st.stepper.seed == 2


def test_stepper_refuses_more_faces_than_the_roll_has_dice_issue10():
    st = attack_stepper()
    st.defence_dice.value = 2
    _type(st.stepper, "A K Q J")  # a fourth face for a three-die attack
    assert "4 faces typed (A K Q J), but Attacker's attack roll has 3 dice" in st.stepper.error
    assert st.stepper.state.attack_roll == () and st.stepper.state.defence_rolls == ((),)  # nothing applied
    _type(st.stepper, "A K")
    _type(st.stepper, "Q J")
    assert "2 faces typed (Q J), but Attacker's attack roll has 3 dice, 1 still to roll" in st.stepper.error
    _type(st.stepper, "Q")
    _type(st.stepper, "9 9 9")
    assert "3 faces typed (9 9 9), but Defender's defence roll has 2 dice: type one face per die" in st.stepper.error
    _type(st.stepper, "9 9")  # the whole pool at once is fine
    assert st.stepper.error == "" and st.stepper.state.is_terminal


def test_modifiers_disabled_where_they_do_not_apply_am9():
    st = attack_stepper(attack_type="melee")
    assert not st.charge.disabled and not st.prone.disabled
    assert st.higher_elevation.disabled and st.hindering_terrain.disabled and st.occupied_squares.disabled
    assert st.area.disabled  # AM-8: only magic hits an area
    st.charge.value = True  # AM-9: +1 attack die for a melee charge
    st.prone.value = True  # AM-9: -1 defence die when prone
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (4, (2,))
    st.attack_type.value = "ranged"
    assert st.charge.disabled and not st.hindering_terrain.disabled
    # issue 12: the charge box is unticked (not ticked and greyed) and does not count for ranged
    assert st.charge.value is False
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (3, (2,))
    st.higher_elevation.value = True  # +1 attack die
    st.hindering_terrain.value = 2  # +1 defence die per square
    st.occupied_squares.value = 1  # +1 defence die per square
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (4, (5,))
    assert st.error_line.value == ""
    st.attack_type.value = "melee"  # back to melee: the ranged modifiers stop counting, the charge is back
    assert st.charge.value is True and not st.charge.disabled
    assert (st.higher_elevation.value, st.hindering_terrain.value, st.occupied_squares.value) == (False, 0, 0)
    assert st.higher_elevation.disabled and st.hindering_terrain.disabled and st.occupied_squares.disabled
    # charge +1 attack, prone -1 defence (AM-9): 3 + 1 against 3 - 1
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (4, (2,))
    st.attack_type.value = "magic"  # the ranged modifiers come back as set; no charge
    assert (st.charge.value, st.higher_elevation.value, st.hindering_terrain.value) == (False, True, 2)
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (4, (5,))


def test_magic_area_rolls_attack_once_against_each_defender_am8():
    st = attack_stepper(attack_type="magic")
    assert not st.area.disabled and st.charge.disabled
    st.area.value = 3
    state = st.stepper.state
    assert state.defence_dice == (3, 3, 3) and len(state.defenders) == 3
    _type(st.stepper, "A K 9")  # 2 hits, rolled once for the whole area
    for roll in ("9 9 9", "J J J", "Q Q 10"):  # defenders: 0, 3 and 2 hits, one roll each
        _type(st.stepper, roll)
    log = st.stepper.log_text
    assert log.count("Attacker rolls") == 1
    assert "Attacker deals 2 damage to Defender 1." in log
    assert "The attack on Defender 2 fails; no damage." in log  # magic: no damage back (AM-3)
    assert "Defender 3" in log and st.stepper.state.is_terminal
    st.attack_type.value = "melee"
    assert st.area.disabled and st.stepper.state.defence_dice == (3,)


def test_zero_tie_variant_am5():
    st = attack_stepper()
    st.attack_dice.value, st.defence_dice.value = 1, 1
    _type(st.stepper, "9")  # both 0 hits
    _type(st.stepper, "10")
    assert st.stepper.state.is_terminal  # AM-5 default: a miss
    assert "The attack on Defender misses." in st.stepper.log_text
    st.zero_tie.value = "super_tiebreak"
    _type(st.stepper, "9")
    _type(st.stepper, "10")
    assert "SuperTieBreaker" in st.stepper.state.prompt()  # the variant: a SuperTieBreaker decides
    _type(st.stepper, "9 A")
    assert "Defender wins the tie and deals 1 damage back to Attacker (melee)." in st.stepper.log_text


def test_melee_defence_bonus_variant_am6():
    st = attack_stepper(rules=Rules(melee_defence_bonus=True))
    assert st.melee_defence_bonus.value
    assert st.stepper.state.defence_dice == (4,)  # 3 + 1 for a melee defender in melee
    st.melee_defence_bonus.value = False
    assert st.stepper.state.defence_dice == (3,)
    st.attack_type.value = "ranged"
    assert st.melee_defence_bonus.disabled


def test_attack_stepper_with_characters_takes_health_am10():
    grunk = Character("Grunk", melee=4, body=3, health=5, melee_character=True)
    pixie = Character("Pixie", magic=3, body=2, mind=3, spirit=4, health=3)
    st = attack_stepper(grunk, pixie, attack_type="melee")
    assert (st.stepper.state.attack_dice, st.stepper.state.defence_dice) == (4, (2,))  # Melee 4 vs Body 2
    assert st.attack_dice.layout.display == "none"  # the stats set the pools
    _type(st.stepper, "A K Q J")
    _type(st.stepper, "9 10")
    log = st.stepper.log_text
    assert "Grunk deals 4 damage to Pixie." in log
    assert "Pixie has taken 4 damage with Health 3: out (AM-10)." in log
    st.attack_type.value = "magic"
    assert st.stepper.state.defence_dice == (4,)  # Spirit 4 against magic (AM-2)


def test_attack_stepper_needs_both_sides_or_neither():
    with pytest.raises(InvalidSetupError, match="both"):
        attack_stepper(attacker=Character("Grunk", melee=4))
    with pytest.raises(InvalidSetupError, match="attack type"):
        attack_stepper(attack_type="psychic")


# -- the odds explorer ------------------------------------------------------------------------
def _row(table, outcome: str) -> Fraction:
    return table.set_index("outcome").loc[outcome, "probability"]


def test_explorer_one_die_against_none_hits_four_sixths_am1():
    ex = odds_explorer(attack_dice=3, defence_dice=3)
    ex.controls["defence_dice"].value = 0
    ex.controls["attack_dice"].value = 1
    # AM-1: J, Q, K, A of the six faces are hits: P(hit) = 4/6.
    assert ex.summary_text.startswith(f"P(hit) = {format_probability(Fraction(4, 6))}")
    assert "P(hit) = 2/3 ≈ 66.7%" in ex.summary_line.value
    assert _row(ex.table, "1 damage to defender") == Fraction(4, 6)
    assert _row(ex.table, "no damage") == Fraction(2, 6)
    assert "2/3 ≈ 66.7%" in ex.table_view.value


def test_explorer_one_die_each_melee_by_hand_am3_am4_am5():
    ex = odds_explorer(attack_dice=1, defence_dice=1, attack_type="melee")
    # Attacker hits, defender blank: 4/6 * 2/6 = 2/9 -> 1 damage to the defender.
    # Both hit (4/9): a tie on 1 hit. The faces differ with chance 12/16 (each side
    # higher half the time); equal faces (4/16) go to a SuperTieBreaker, won half the
    # time. So each side wins the tie with 1/2: 2/9 each way (AM-4).
    # Both blank (1/9): a miss (AM-5). The defender's win deals 1 back in melee (AM-3).
    assert _row(ex.table, "1 damage to defender") == Fraction(4, 9)
    assert _row(ex.table, "1 damage back to attacker") == Fraction(4, 9)
    assert _row(ex.table, "no damage") == Fraction(1, 9)
    assert "P(hit) = 4/9 ≈ 44.4%" in ex.summary_text
    assert "expected damage back to attacker 4/9 ≈ 0.44" in ex.summary_text
    # the chart: defender's side right, damage back on the left
    assert list(ex.shown_figure.data[0].x) == [1] and list(ex.shown_figure.data[2].x) == [-1]
    assert ex.shown_figure.data[0].y[0] == pytest.approx(100 * 4 / 9)
    ex.controls["attack_type"].value = "ranged"  # no damage back outside melee (AM-3)
    assert _row(ex.table, "no damage") == Fraction(5, 9)
    assert list(ex.shown_figure.data[2].x) == [] and "damage back" not in ex.summary_text
    ex.controls["zero_tie"].value = "super_tiebreak"  # AM-5 variant: both blank -> coin flip
    assert _row(ex.table, "1 damage to defender") == Fraction(4, 9) + Fraction(1, 18)


def test_explorer_at_least_view():
    ex = odds_explorer(attack_dice=2, defence_dice=0, attack_type="ranged")
    ex.view.value = "at least"
    # Two dice, each a hit with 2/3: P(2 hits) = 4/9, P(>= 1 hit) = 1 - (1/3)^2 = 8/9.
    assert ex.table["outcome"].tolist() == ["at least 2 damage to defender", "at least 1 damage to defender"]
    assert ex.table["probability"].tolist() == [Fraction(4, 9), Fraction(8, 9)]
    assert list(ex.shown_figure.data[0].y) == pytest.approx([100 * 4 / 9, 100 * 8 / 9])
    assert list(ex.shown_figure.data[1].x) == []  # no "at least 0" bar
    ex.view.value = "exactly"
    assert ex.table["probability"].tolist() == [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]


def test_explorer_crit_chances_am7():
    ex = odds_explorer(attack_dice=2, defence_dice=3, attack_type="magic")
    # AM-7: a crit is 2+ Aces; two dice: (1/6)^2 = 1/36. Three dice: 3*(1/36)(5/6) + 1/216 = 16/216.
    assert f"P(attacker crits) = {format_probability(Fraction(1, 36))}" in ex.summary_text
    assert f"P(defender crits) = {format_probability(Fraction(16, 216))}" in ex.summary_text


@pytest.mark.parametrize(
    ("a", "d", "attack_type"), [(2, 1, "melee"), (1, 2, "ranged"), (2, 2, "magic"), (3, 1, "melee")]
)
def test_explorer_matches_the_independent_brute_force(a, d, attack_type):
    ex = odds_explorer(attack_dice=1, defence_dice=1)
    ex.controls["attack_type"].value = attack_type
    ex.controls["attack_dice"].value = a
    ex.controls["defence_dice"].value = d
    expected = opposed_bf(a, d, attack_type)
    got = {
        (o.defender_damage, o.attacker_damage, o.attacker_crit, o.defender_crit): p for o, p in ex.distribution.items()
    }
    assert got == expected
    signed: dict[int, Fraction] = {}
    for (dd, ad, _, _), p in expected.items():
        signed[dd - ad] = signed.get(dd - ad, 0) + p
    assert ex.table["probability"].tolist() == [signed[k] for k in sorted(signed, reverse=True)]


def test_explorer_distribution_is_the_exact_calculator():
    ex = odds_explorer()
    for a, d, t in [(15, 15, "melee"), (7, 9, "ranged"), (0, 4, "magic")]:
        ex.controls["attack_type"].value = t
        ex.controls["attack_dice"].value = a
        ex.controls["defence_dice"].value = d
        assert ex.distribution == opposed(a, d, t)
        assert ex.table["probability"].sum() == 1


def test_explorer_melee_defence_bonus_adds_a_die_in_melee_am6():
    ex = odds_explorer(attack_dice=3, defence_dice=2)
    ex.controls["melee_defence_bonus"].value = True
    rules = Rules(melee_defence_bonus=True)
    assert ex.distribution == opposed(3, 3, "melee", rules)
    assert "AM-6: the defender rolls 3 dice" in ex.summary_text
    ex.controls["attack_type"].value = "ranged"
    assert ex.controls["melee_defence_bonus"].disabled
    assert ex.distribution == opposed(3, 2, "ranged", rules)


def test_explorer_update_can_be_called_directly():
    ex = odds_explorer(attack_dice=4, defence_dice=4)
    before = ex.distribution
    ex.update()
    assert ex.distribution == before


def test_explorer_rejects_bad_starting_values():
    with pytest.raises(InvalidSetupError, match="0 to 15"):
        odds_explorer(attack_dice=16)


def test_generic_explorer_keeps_last_result_on_error():
    dice = widgets.IntSlider(value=2, min=0, max=5)

    def compute(dice: int) -> Distribution[int]:
        if dice == 0:
            raise ToolkitError("no dice, no odds")
        return Distribution.uniform(range(-dice, dice + 1))

    ex = OddsExplorer({"dice": dice}, compute, score=lambda k: k, zero="a draw")
    assert ex.table["outcome"].tolist()[2] == "a draw"
    assert ex.table["outcome"].tolist()[-1] == "2 damage back to attacker"
    dice.value = 0
    assert ex.error == "no dice, no odds" and "no dice, no odds" in ex.error_line.value
    assert ex.distribution == Distribution.uniform(range(-2, 3))
    dice.value = 1
    assert ex.error == "" and len(ex.table) == 3


# -- the rulings page the log lines' ids point to (issue 12 item 5) ---------------------------
def test_rulings_page_states_every_ruling_id_in_the_repository():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "rulings.md").read_text(encoding="utf-8")
    ids = [f"AM-{n}" for n in range(1, 11)] + [f"FM-{n}" for n in range(1, 15)] + [f"DB-{n}" for n in range(1, 10)]
    for ruling in ids:
        assert f"**{ruling} —" in page, f"{ruling} is not stated in docs/rulings.md"
    # every variant option, the newest rows (FM-2, FM-5) included
    for option in (
        "zero_tie",
        "melee_defence_bonus",
        "wrestling_hand",
        "none_reveal",
        "none_means",
        "undefended",
        "damage=",
        "nasty_hit",
        "jokers",
        "counter_tie",
        "holder_must_attack",
        "morale_penalty",
        "wild_die",
    ):
        assert option in page, option
    assert "docs/rulings.md" in (root / "README.md").read_text(encoding="utf-8")
    for notebook in (root / "notebooks").glob("*.ipynb"):
        assert "shared/rules" not in notebook.read_text(encoding="utf-8"), notebook.name
