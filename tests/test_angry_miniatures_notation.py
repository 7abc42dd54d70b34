"""Angry Miniatures example files (issue 9): read, replayed and narrated by the engine,
checked against their ``expect`` block, errors at the right line, exported back.

Expected values come from the rule text and docs/rulings.md, worked by hand in the comments.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from toolkit.angry_miniatures import (
    EXAMPLE,
    Character,
    Modifiers,
    check_expectations,
    load_example,
    replay,
    start_attack,
    to_example,
)
from toolkit.angry_miniatures.notation import damage_taken, hits_of, plan_example
from toolkit.errors import NotationError
from toolkit.replay import SYSTEMS, replay_file

TEXT = EXAMPLE.read_text()


def test_the_readme_example_replays_with_the_rule_texts_values():
    example = load_example(EXAMPLE)
    state = replay(example)
    # AM-2, AM-9: Grunk's Melee 4 + 1 for the charge = 5 dice; Pixie's Body 2 = 2 dice.
    assert (state.attack_dice, state.defence_dice) == (5, (2,))
    # AM-1: K Q 10 9 9 has 2 hits (K, Q); K Q has 2.
    assert hits_of(state) == {"Grunk": 2, "Pixie": 2}
    # AM-4: tied on hits, Aces 0-0, Kings 1-1, Queens 1-1, Jacks 0-0: SuperTieBreaker; A A is
    # rerolled, 9 v K: the defender wins and, in melee, deals exactly 1 damage back.
    assert damage_taken(state) == {"Grunk": 1, "Pixie": 0}
    assert state.crits == () and not state.attacker.is_out  # AM-7: no 2 Aces; AM-10: 1 < Health 5
    assert check_expectations(example, state) == []


def test_toolkit_replay_prints_title_notes_log_summary():
    assert "angry-miniatures" in SYSTEMS
    text, problems = replay_file(EXAMPLE)
    assert problems == []
    lines = text.splitlines()
    assert lines[:2] == ["Grunk charges Pixie", "==================="]
    assert "Pixie wins the tie and deals 1 damage back to Grunk (melee)." in lines
    assert lines[-1] == "After the attack: damage Grunk 1 of Health 5, Pixie 0 of Health 3; out: nobody."
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "replay", str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "SuperTieBreaker: Grunk rolls 9, Pixie rolls K — the defender wins (AM-4)." in done.stdout


def test_unmet_expectations_are_reported_with_their_line():
    wrong = TEXT.replace("damage: {Grunk: 1, Pixie: 0}", "damage: {Grunk: 0, Pixie: 1}").replace(
        "out: []", "out: [Grunk]"
    )
    example = load_example(wrong)
    assert check_expectations(example, replay(example)) == [
        "line 22: damage: Grunk has 1, the example expects 0",
        "line 22: damage: Pixie has 0, the example expects 1",
        "line 24: out: nobody, the example expects ['Grunk']",
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # AM-2, AM-9: Grunk rolls 5 dice with the charge
        (
            ("- Grunk: K Q 10 9 9", "- Grunk: K Q 10 9"),
            "<example>:16: Grunk rolls 5 dice (AM-2, AM-9), the example gives 4",
        ),
        # AM-1: the accepted faces are listed
        (
            ("- Pixie: K Q", "- Pixie: K 8"),
            "<example>:17: Pixie: '8' is not a poker-die face: faces are 9 10 J Q K A (AM-1)",
        ),
        (("- Pixie: K Q", "- Grunk: K Q"), "<example>:17: the next roll is Pixie's"),
        (("- super_tiebreak: 9 K", "- super_tiebreak: 9"), "<example>:19: a SuperTieBreaker throw is two faces"),
        (("  - super_tiebreak: 9 K\n", ""), "the example ends before the attack does"),
        (
            ("  - super_tiebreak: 9 K\n", "  - super_tiebreak: 9 K\n  - super_tiebreak: A 9\n"),
            "<example>:20: the attack is resolved",
        ),
    ],
)
def test_roll_errors_name_their_line(change, message):
    bad = TEXT.replace(*change)
    assert bad != TEXT
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(load_example(bad))


def test_reading_errors_are_collected_with_their_lines():
    bad = (
        TEXT.replace("attack: melee", "attack: melee\ncolour: red")
        .replace("health: 3}", "health: 0}")
        .replace("{charge: true}", "{charge: true, flying: true}")
        .replace("- Pixie: K Q", "- Pixy: K Q")
    )
    with pytest.raises(NotationError) as info:
        load_example(bad)
    message = str(info.value)
    assert "<example>:14: unknown key 'colour'" in message
    assert "<example>:12: defender: Pixie's Health must be a whole number of 1 or more, got 0 (AM-10)" in message
    assert "<example>:15: modifiers: unknown key 'flying'" in message
    assert "<example>:18: 'Pixy' is not in this attack" in message


def test_files_are_data_not_code():
    with pytest.raises(NotationError, match="not valid YAML"):
        load_example(TEXT.replace("title: Grunk", "title: !!python/object/apply:os.system ['echo hi'] #"))
    with pytest.raises(NotationError, match="system 'fairy-meat' is not 'angry-miniatures'"):
        load_example(TEXT.replace("system: angry-miniatures", "system: fairy-meat"))


def test_export_replays_to_the_same_log_and_checks_itself():
    state = replay(load_example(EXAMPLE))
    text = to_example(state, "Grunk charges Pixie")
    again = load_example(text)
    replayed = replay(again)
    assert replayed.log() == state.log() and check_expectations(again, replayed) == []


def test_magic_area_crit_and_out_am7_am8_am10():
    # AM-8: one attack roll against the target and the creature adjacent to it, each
    # defending with Spirit. Attack A A K (3 hits, 2 Aces: a crit, AM-7) against Imp's 9
    # (0 hits: 3 damage, Health 2: out, AM-10) and Pixie's Q Q (2 hits: 1 damage).
    wisp = Character("Wisp", magic=3, health=2)
    pixie, imp = Character("Pixie", spirit=2, health=3), Character("Imp", spirit=1, health=2)
    state = start_attack(wisp, [pixie, imp], "magic")
    state = state.apply_all(state.parse_actions("A A K")).apply_all(state.parse_actions("Q Q"))
    state = state.apply_all(state.parse_actions("9"))
    text = to_example(state, "Wisp's fireball")
    assert "defenders:" in text and "super_tiebreak" not in text
    example = load_example(text)
    again = replay(example)
    assert damage_taken(again) == {"Wisp": 0, "Pixie": 1, "Imp": 3}
    assert list(again.crits) == ["Wisp"] and [c.name for c in again.defenders if c.is_out] == ["Imp"]
    assert check_expectations(example, again) == []


def test_unfinished_export_stops_where_its_data_does():
    grunk, pixie = Character("Grunk", melee=4, body=3, health=5), Character("Pixie", body=2, health=3)
    state = start_attack(grunk, pixie, "melee", Modifiers(charge=True))
    state = state.apply_all(state.parse_actions("K Q 10"))  # 3 of Grunk's 5 dice
    example = load_example(to_example(state))
    assert example.unfinished
    moves, states, error = plan_example(example)
    assert error == "" and len(moves) == 1 and states[-1].attack_roll == ("K", "Q", "10")


def test_the_stepper_exports_what_was_played():
    from toolkit.angry_miniatures import attack_stepper

    grunk, pixie = Character("Grunk", melee=4, body=3, health=5), Character("Pixie", body=2, health=3)
    st = attack_stepper(grunk, pixie, "melee", seed=3)
    st.charge.value = True
    for text in ("K Q 10 9 9", "K Q", "A A, 9 K"):
        st.stepper.type_outcome(text)
    example = load_example(st.to_example("Grunk charges Pixie"))
    state = replay(example)
    assert state.log() == replay(load_example(EXAMPLE)).log() and check_expectations(example, state) == []
