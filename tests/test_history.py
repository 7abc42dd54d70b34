"""Every engine state keeps its history (toolkit.engine.GameState.history), and one
generic to_example (toolkit.replay.to_example) writes any system's played game from it.

The check is independent of the writers: a game played at random (by apply, apply_listed
and play_out alike) is exported, the file is replayed, and the replay must print the same
log and stand at the same state; the history must hold exactly the steps applied.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from toolkit.angry_miniatures import Character, Modifiers, start_attack
from toolkit.durak_battle import Army, Leader, start_battle
from toolkit.engine import CHANCE, play_out
from toolkit.errors import IllegalActionError
from toolkit.fairy_meat import Fairy, start_combat
from toolkit.replay import replay_example, to_example

STARTS = {
    "fairy-meat": lambda: start_combat(Fairy("Dizzytwig", 3, 4), Fairy("Sparklespaz", 2, 1)),
    "durak-battle": lambda: start_battle(
        Army("North", 4, Leader("Ann", 8, 6)), Army("South", 3, Leader("Bo", 6, 8)), max_rounds=3
    ),
    "angry-miniatures": lambda: start_attack(
        Character("Grunk", melee=3), Character("Pixie", body=2), "melee", Modifiers(charge=True)
    ),
}


def _random_steps(state, rng: random.Random, steps: int):
    """Apply up to ``steps`` random steps, by turns through apply and apply_listed."""
    applied = []
    for n in range(steps):
        if state.is_terminal:
            break
        options = [o for o, _ in state.chance_outcomes()] if state.is_chance_node else state.legal_actions()
        action = rng.choice(options)
        state = state.apply(action) if n % 2 else state.apply_listed(action)
        applied.append(action)
    return state, applied


@pytest.mark.parametrize("system", list(STARTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_history_holds_every_step_and_the_export_replays_to_the_same_game(system, seed):
    start = STARTS[system]()
    rng = random.Random(seed)
    midway, applied = _random_steps(start, rng, 8)
    assert midway.history == tuple(applied) and midway.history_start is start
    end = play_out(midway, rng)
    assert end.history[: len(applied)] == tuple(applied) and end.history_start is start
    for state in (midway, end):
        replayed = replay_example(to_example(state, "random")).state
        assert replayed.log() == state.log()
        assert replayed.is_terminal == state.is_terminal


@pytest.mark.parametrize("system", list(STARTS))
def test_history_steps_name_who_moved(system):
    start = STARTS[system]()
    end = play_out(start, random.Random(5))
    steps = end.history_steps()
    assert [action for _, action in steps] == list(end.history)
    assert steps[0][0] is start
    # every step was the chance's or the player's to move in the state it was applied to
    for before, action in steps:
        if before.current_player == CHANCE:
            assert action in [o for o, _ in before.chance_outcomes()] or before._also_accepts(action)
        else:
            assert action in before.legal_actions()


def test_the_history_is_not_part_of_a_state():
    # two paths to the same position: equal states, different histories
    start = STARTS["fairy-meat"]()
    a = play_out(start, random.Random(2))
    b = dataclasses.replace(a)
    assert a == b and hash(a) == hash(b)
    assert b.history == () and b.history_start is b and a.history != ()


def test_fairy_meat_moves_are_the_decisions_of_the_history():
    start = STARTS["fairy-meat"]()
    end = play_out(start, random.Random(3))
    decisions = [(before, a) for before, a in end.history_steps() if before.current_player != CHANCE]
    assert len(end.moves) == len(decisions) > 0
    assert [m[1] for m in end.moves] == [str(a) for _, a in decisions]
    assert {m[0] for m in end.moves} <= {"Dizzytwig", "Sparklespaz"}


def test_to_example_refuses_a_state_of_no_registered_system():
    from toolkit.engine import TERMINAL, GameState

    class Nothing(GameState):
        current_player = TERMINAL
        events = ()

        def _apply(self, action):
            return self

    with pytest.raises(IllegalActionError, match="not a game of a registered system: the systems are fairy-meat"):
        to_example(Nothing())


def test_a_step_that_answers_the_same_state_leaves_the_parent_unchanged():
    from toolkit.engine import GameState

    class Pass(GameState):
        current_player = "p"
        events = ()

        def _legal_actions(self):
            return ["pass"]

        def _apply(self, action):
            return self  # nothing changes but the history

    start = Pass()
    one = start.apply("pass")
    two = one.apply_listed("pass")
    assert start.history == () and one.history == ("pass",) and two.history == ("pass", "pass")
    assert one.history_start is start and two.history_start is start
