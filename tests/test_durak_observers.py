"""Observers (issue 9): one side's view never shows the other side's cards in hand.

A hand is drawn privately (DB-2) and the initiative card is not yet played (DB-3): the
events carry ``audience=(side,)`` and a ``public_text``. For every state of a few
seeded playouts, the codes of the cards the other side holds — never played face up,
since a played card leaves the hand — must not appear in ``state.log(side)``,
``state.observation(side)``, or the one-side view of the battle stepper's log, unless
the side held that card herself in an earlier round (DB-9: every round is dealt from a
fresh deck).
"""

from __future__ import annotations

import random
import re

import pytest
from random_play import random_step

from toolkit.cards import card_text
from toolkit.durak_battle import POLICIES, Army, Leader, start_battle, start_clash
from toolkit.durak_battle.widgets import battle_stepper

SIDES = ("a", "b")


def _shows(text: str, code: str) -> bool:
    """Whether ``text`` names the card by its code (``KS``) or as a log prints it (``K♠``)."""
    return any(
        re.search(rf"(?<![0-9A-Z]){re.escape(written)}(?![0-9A-Z])", text) is not None
        for written in (code, card_text(code))
    )


def _check(state, texts_of, held) -> int:
    """Check the one-side texts of ``state``; return how many hidden cards were checked.
    ``held``: the codes each side has held so far (updated here)."""
    checked = 0
    for me in (0, 1):
        held[me].update(c.code for c in state.hands[me])
    for me, side in enumerate(SIDES):
        texts = texts_of(state, side)
        for card in state.hands[1 - me]:
            if card.code in held[me]:
                continue
            for text in texts:
                assert not _shows(text, card.code), (side, card.code, text)
            checked += 1
        for card in state.hands[me]:  # her own hand she does see
            assert _shows(state.observation(side), card.code)
    return checked


def _engine_texts(state, side):
    return [state.log(side), state.observation(side)]


def _playout(state, rng):
    random_policy = POLICIES["random"]
    states = [state]
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(random_policy(state).sample(rng))
        states.append(state)
    return states


@pytest.mark.parametrize("seed", range(6))
def test_engine_log_and_observation_hide_the_other_hand(seed):
    rng = random.Random(seed)
    north = Army("North", 6, Leader("Vasilisa", battle_die="d8"))
    south = Army("South", 5, Leader("Ivan", battle_die="d6"))
    held = (set(), set())
    checked = sum(_check(s, _engine_texts, held) for s in _playout(start_battle(north, south, max_rounds=4), rng))
    assert checked > 0


def test_known_hands_clash_hides_the_other_hand_from_one_side():
    # start_clash deals both hands at once: the designer reads both, each side only the sizes.
    north, south = Army("North", 6, Leader("V")), Army("South", 4, Leader("I"))
    s = start_clash(north, south, ("7S 9H QD", "10S 4H"))
    assert "10S 4H" in s.log() and "10S" not in s.log("a") and "7S" not in s.log("b")
    assert "North holds 3 cards; South holds 2 cards." in s.log("a")
    held = (set(), set())
    for state in _playout(s, random.Random(1)):
        _check(state, _engine_texts, held)


def test_the_initiative_card_is_named_to_its_holder_only():
    # DB-3: the side with the highest attack card attacks; the card is not played yet.
    north, south = Army("North", 6, Leader("V")), Army("South", 4, Leader("I"))
    s = start_clash(north, south, ("7S 9H QD", "10S 4H"))
    assert "South holds the highest attack card (10 of Spades)" in s.log("b")
    assert "South holds the highest attack card and takes the initiative (DB-3)." in s.log("a")
    assert "10 of Spades" not in s.log("a")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_side_stepper_log_hides_the_other_hand(seed):
    rng = random.Random(seed)
    for view in SIDES:
        st = battle_stepper(seed=seed)
        st.view.value = view
        assert st.stepper.viewer == view
        held: set[str] = set()
        for _ in range(60):
            state = st.state
            me = SIDES.index(view)
            held.update(c.code for c in state.hands[me])
            for card in state.hands[1 - me]:
                if card.code in held:
                    continue
                assert not _shows(st.stepper.log_text, card.code)
                assert not _shows(st.stepper.log_view.value, card.code)
                assert not _shows(st.hands_view.value, card.code)
            if not random_step(st, rng):
                break
        st.view.value = "both"  # the designer sees every hand again
        assert st.stepper.viewer is None
