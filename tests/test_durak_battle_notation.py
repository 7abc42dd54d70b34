"""The Durak battle notation: example files replay to what the rule text says, errors
name their line, and a played battle exports to a file that replays to the same log.

Expected numbers come from the rule text (shared/rules/durak-mass-battle.en.md) and the
DB rulings (docs/rulings.md), worked out by hand in the example files' comments
and below.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.durak_battle import Army, BattleState, Leader, Rules, start_battle
from toolkit.durak_battle.notation import (
    battle_summary,
    check_expectations,
    load_example,
    outcome_text,
    plan_example,
    replay,
    round_records,
    to_example,
)
from toolkit.engine import play_out
from toolkit.errors import IllegalActionError, NotationError
from toolkit.replay import SYSTEMS, replay_file

ROOT = Path(__file__).resolve().parent.parent
CHAIN = ROOT / "data" / "examples" / "durak_counterattack_chain.yaml"
JOKERS = ROOT / "data" / "examples" / "durak_joker_initiative.yaml"

# A small valid file the error tests below break one line at a time.
SMALL = """\
system: durak-battle
title: Small
armies:
  - name: North
    tokens: 6
    leader: {name: Vasilisa, battle_die: d8, spirit_die: d6}
  - name: South
    tokens: 6
    leader: {name: Ivan, battle_die: d6, spirit_die: d6, wild_card: false}
rounds:
  - recon: {North: 3, South: 1}
    cards: 9S 2S 5H  4D
    moves:
      - North: attack 9S
      - South: manoeuvre 4D
      - North: pass
    morale: {South: 3}
expect:
  - {round: 1, initiative: North, lost: {North: 0, South: 2}, morale: {South: retreats}}
  - {outcome: South retreats, winner: North, tokens: {North: 6, South: 4}}
"""


# -- the example files -------------------------------------------------------------------
def test_counterattack_chain_db3_db4_db5_db6_db8():
    example = load_example(CHAIN)
    state = replay(example)
    assert check_expectations(example, state) == []
    log = state.log()
    # DB-3: the 10 of Spades beats South's 8 of Spades.
    assert "North holds the highest attack card (10 of Spades) and takes the initiative (DB-3)." in log
    # DB-5: the 4 of Clubs is lower than the 7 of Spades: South pays 1 token first.
    assert "South counterattacks with the 4 of Clubs (lower, she loses 1 token first)" in log
    # DB-6: South may pass; North must then attack with her 10.
    assert "South does not attack; the initiative passes (DB-6)." in log
    # DB-4: North holds no card against the 8 of Spades: a strike, 4 tokens.
    assert "North cannot answer: South strikes, North loses 4 tokens (DB-4)." in log
    # DB-8: South (originally attacked) rolls first: 8 - 4 = 4 stays; North 6 - 7 = -1 retreats.
    assert log.index("Khan Tugor rolls Spirit") < log.index("Voivode Dobrynya rolls Spirit")
    assert "8 - 4 for tokens lost = 4: the army stays (DB-8)." in log
    assert "6 - 7 for tokens lost = -1: the army retreats (DB-8)." in log
    assert state.outcome == "a retreats" and outcome_text(state) == "North retreats"
    assert [a.tokens for a in state.armies] == [1, 4]


def test_joker_against_joker_initiative_db1_db2_db3_db7():
    example = load_example(JOKERS)
    state = replay(example)
    assert check_expectations(example, state) == []
    records = round_records(state)
    # Round 1: JK1 5S against JK2 9S: the jokers tie, the 9 of Spades beats the 5 (DB-3).
    assert records[0].initiative == 1 and records[0].coin is None
    # DB-2: 7 tokens against 5: North draws 1 + 2 cards, then 2 + 2 in round 2 (4 against 2).
    assert records[0].hand_sizes == (3, 3) and records[1].hand_sizes == (4, 2)
    # Round 2: JK2 against JK1 and no other spade: the coin decides (DB-3).
    assert records[1].coin == 1 and records[1].initiative == 1
    assert "Tied jokers: a coin flip gives South the initiative (DB-3)." in state.log()
    # A joker defending against a joker: equal values succeed, South -2 -> 0 (DB-1, DB-7).
    assert state.outcome == "b destroyed" and [a.tokens for a in state.armies] == [3, 0]
    assert battle_summary(state).endswith("South destroyed; North holds the field.")


@pytest.mark.parametrize("path", [CHAIN, JOKERS], ids=lambda p: p.name)
def test_toolkit_replay_plays_the_examples(path):
    assert "durak-battle" in SYSTEMS
    text, problems = replay_file(path)
    assert problems == []
    assert text.startswith(load_example(path).title)
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "(DB-8)" in done.stdout or "(DB-7)" in done.stdout


def test_small_file_and_unmet_expectations_are_reported():
    example = load_example(SMALL)
    state = replay(example)
    # 9S against 4D: the manoeuvre fails (4 < 9), South -2 (DB-1); Ivan rolls 3 - 2 = 1 < 4 (DB-8).
    assert check_expectations(example, state) == []
    wrong = SMALL.replace("lost: {North: 0, South: 2}", "lost: {North: 1, South: 2}").replace(
        "outcome: South retreats", "outcome: North retreats"
    )
    problems = check_expectations(load_example(wrong), state)
    assert problems == [
        "line 19: round 1: North lost 0 tokens, the example expects 1",
        "line 20: the outcome is 'South retreats', the example expects 'North retreats'",
    ]


# -- errors, with their lines ----------------------------------------------------------------
def test_errors_are_collected_with_line_numbers():
    bad = (
        SMALL.replace("tokens: 6\n    leader: {name: Ivan", "tokens: 11\n    leader: {name: Ivan")
        .replace("cards: 9S 2S 5H  4D", "cards: 9S 2S 5X  4D")
        .replace("- South: manoeuvre 4D", "- Sud: manoeuvre 4D")
        .replace("title: Small", "title: Small\ncolour: blue")
    )
    with pytest.raises(NotationError) as info:
        load_example(bad)
    message = str(info.value)
    assert "<example>:3: unknown key 'colour'" in message
    assert "<example>:8: the second army: South has 11 tokens: an army has at most 10 (DB-7)" in message
    assert "<example>:13: round 1: cards: '5X' is not a card" in message
    assert "<example>:16: 'Sud' is not an army here" in message


def test_an_attack_answered_with_an_attack_stops_the_replay_at_its_line_db1():
    bad = (
        SMALL.replace("South: 1}", "South: 2}")
        .replace("cards: 9S 2S 5H  4D", "cards: 9S 2S 5H  4D 4S")
        .replace("- South: manoeuvre 4D", "- South: attack 4S")
    )
    with pytest.raises(
        NotationError, match=r"<example>:15: South: an attack cannot be answered with an attack \(DB-1\)"
    ):
        replay(load_example(bad))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("- South: manoeuvre 4D", "- North: manoeuvre 4D"), "<example>:15: the move is South's"),
        (("    morale: {South: 3}\n", ""), "round 1: no morale roll for South"),
        (("cards: 9S 2S 5H  4D", "cards: 9S 2S 5H  4D 2C"), "<example>:12: round 1: cards left over: 2C"),
        (("cards: 9S 2S 5H  4D", "cards: 9S 2S 5H"), "<example>:12: round 1: cards: South draws 1 more card (DB-2)"),
        (("      - North: pass\n", "      - North: pass\n      - South: pass\n"), "<example>:17: round 1: the clash"),
        (("      - North: pass\n", ""), "round 1: the moves end before the clash does"),
        (
            ("morale: {South: 3}", "morale: {South: 3, North: 5}"),
            "<example>:17: round 1: morale roll for North is left over",
        ),
        (("morale: {South: 3}", "morale: {South: 6, North: 4}\nmax_rounds: 2"), "the example ends before the battle"),
    ],
)
def test_replay_errors_name_the_line(change, message):
    bad = SMALL.replace(*change)
    assert bad != SMALL
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(load_example(bad))


def test_files_are_data_not_code():
    with pytest.raises(NotationError, match="not valid YAML"):
        load_example(SMALL.replace("title: Small", "title: !!python/object/apply:os.system ['echo hi']"))
    with pytest.raises(NotationError, match="system 'fairy-meat' is not 'durak-battle'"):
        load_example(SMALL.replace("system: durak-battle", "system: fairy-meat"))


def test_unfinished_example_stops_where_its_data_does():
    text = SMALL.replace("    morale: {South: 3}\n", "").replace(
        "system: durak-battle", "system: durak-battle\nunfinished: true"
    )
    text = text.split("expect:")[0]
    state = replay(load_example(text))
    assert state.stage == "morale" and not state.is_terminal
    moves, states, error = plan_example(load_example(text))
    assert error == "" and len(states) == len(moves) + 1 and states[-1] is not None


# -- export -------------------------------------------------------------------------------------
def test_export_of_the_examples_replays_to_the_same_log():
    for path in (CHAIN, JOKERS):
        example = load_example(path)
        state = replay(example)
        again = load_example(to_example(state, example.title))
        replayed = replay(again)
        assert replayed.log() == state.log()
        assert check_expectations(again, replayed) == []
        assert len(again.expect) == len(example.expect)


@pytest.mark.parametrize("seed", range(12))
def test_export_of_random_battles_replays_to_the_same_log(seed):
    rules = Rules(counter_tie="loses", morale_penalty="battle") if seed % 3 == 0 else Rules()
    north = Army("North", 3 + seed % 7, Leader("Vasilisa", battle_die="d8", spirit_die="d10", battle_modifier=seed % 2))
    south = Army("South", 5, Leader("Ivan", battle_die="d4", spirit_die="d12", wild_card=seed % 2 == 0))
    start = start_battle(north, south, rules, max_rounds=4)
    end = play_out(start, random.Random(seed))
    assert isinstance(end, BattleState) and end.is_terminal
    again = load_example(to_example(end))
    replayed = replay(again)
    assert replayed.log() == end.log()
    assert check_expectations(again, replayed) == []


def test_export_midway_is_unfinished_and_replays_to_the_same_log():
    rng = random.Random(4)
    state = start_battle(*load_example(CHAIN).start.armies)
    for _ in range(15):
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else state.legal_actions()[0])
    assert not state.is_terminal
    text = to_example(state, "Midway")
    assert "unfinished: true" in text and "max_rounds: 50" in text
    assert replay(load_example(text)).log() == state.log()


def test_every_battle_keeps_its_history_and_exports_from_its_start():
    start = start_battle(*load_example(CHAIN).start.armies)
    rng = random.Random(7)
    state = start
    for _ in range(12):
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else state.legal_actions()[0])
    assert state.history_start is start and len(state.history) == 12
    assert replay(load_example(to_example(state, "Twelve steps"))).log() == state.log()
    # a state built mid-battle starts its own history: its rounds cannot be written from round 1
    midway = dataclasses.replace(state)
    assert midway.history == () and midway.history_start is midway
    with pytest.raises(IllegalActionError, match="does not begin before round 1's recon rolls"):
        to_example(midway)


def test_an_example_whose_holder_passes_first_is_refused_at_that_line(tmp_path):
    # DB-3: the initiative holder's opening attack is compulsory. The worked example with
    # North's opening "attack 7S" (line 24 of the file) changed into a pass.
    text = CHAIN.read_text()
    lines = text.splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.strip() == "- North: attack 7S")
    lines[at - 1] = lines[at - 1].replace("attack 7S", "pass")
    path = tmp_path / "passes_first.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(NotationError, match=rf":{at}: .*must open the clash with an attack \(DB-3\)"):
        replay(load_example(path))


# -- every morale word the checker can find, an example may expect (issue 20 item 9) -----------
def test_an_expectation_may_say_a_side_does_not_roll_morale():
    # DB-8: South, originally attacked, rolls 3 < 4 and retreats; North then does not roll
    said = SMALL.replace("morale: {South: retreats}}", "morale: {South: retreats, North: does not roll}}")
    example = load_example(said)
    assert check_expectations(example, replay(example)) == []
    wrong = load_example(SMALL.replace("morale: {South: retreats}}", "morale: {North: stays}}"))
    assert check_expectations(wrong, replay(wrong)) == [
        "line 19: round 1: North does not roll (DB-8), the example expects stays"
    ]
    with pytest.raises(NotationError) as info:
        load_example(SMALL.replace("morale: {South: retreats}}", "morale: {South: flees}}"))
    assert str(info.value) == "<example>:19: expect: morale is stays, retreats or does not roll (DB-8), got 'flees'"


def _battle_with_a_round_without_a_clash() -> tuple[BattleState, int]:
    """A random battle (seeds tried in order) with a round in which neither side held an
    attack card (DB-3: no clash, no morale roll), and that round."""
    for seed in range(500):
        rng = random.Random(seed)
        north = Army("North", rng.randint(1, 4), Leader("Vasilisa", battle_die="d4", spirit_die="d6"))
        south = Army("South", rng.randint(1, 4), Leader("Ivan", battle_die="d4", spirit_die="d8", wild_card=False))
        end = play_out(start_battle(north, south, Rules(), max_rounds=6), rng)
        records = round_records(end)
        idle = [r.number for r in records if r.recon and r.initiative is None and r.number < end.round_no]
        if idle:
            return end, idle[0]
    raise AssertionError("no battle of 500 had a round without a clash")


def test_export_of_a_battle_with_a_round_without_a_clash_replays_and_all_expectations_hold():
    end, idle = _battle_with_a_round_without_a_clash()
    text = to_example(end, "No clash")
    again = load_example(text)
    replayed = replay(again)
    assert replayed.log() == end.log()
    assert check_expectations(again, replayed) == []
    line = next(row for row in text.splitlines() if row.startswith(f"  - {{round: {idle},"))
    assert "initiative: none" in line and "morale: {North: does not roll, South: does not roll}" in line
    # and each export's expectation can fail: the checker reads the words the file holds
    flipped = text.replace(line, line.replace("South: does not roll}", "South: stays}", 1))
    assert check_expectations(load_example(flipped), replayed) == [
        f"line {text.splitlines().index(line) + 1}: round {idle}: South does not roll (DB-8), the example expects stays"
    ]
