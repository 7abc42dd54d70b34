"""Observers (issue 9, FM-5): a side never reads the other side's hidden cards.

Over every state of the draft's worked example and of seeded playouts (default rules and
``none_reveal="subset"``), no card of the other fairy's hand appears in ``state.log(side)``,
in ``state.observation(side)`` or in the one-side stepper log before it is played face up:
Trumps placed and shown (not kept hidden under the None rule, FM-5), or the card played
once both have played (FM-6).
"""

from __future__ import annotations

import random
import re

import pytest

from toolkit.cards import Card, card_text
from toolkit.fairy_meat import Rules, combat_stepper, start_combat
from toolkit.fairy_meat.attack import hidden_owner
from toolkit.fairy_meat.engine import PLAYERS, CombatState
from toolkit.fairy_meat.rules import Fairy

EXAMPLE = "data/examples/dizzytwig_v_sparklespaz.yaml"


def face_up(state: CombatState, i: int) -> set:
    """The cards of side ``i``'s hand that lie face up in the current attack."""
    a = state.cur
    up = set()
    if a.trumps[0] is not None and a.trumps[1] is not None:
        owner = hidden_owner(a, state.rules)  # FM-5, the one function
        up |= set(a.reveal or ()) if owner == i else set(a.trumps[i] or ())
    if a.plays[0] is not None and a.plays[1] is not None and a.cards[i] is not None:
        up.add(a.cards[i])
    return up


def leaks(text: str, cards) -> list[str]:
    """The cards of ``cards`` that ``text`` names: by code (``KC``), as a log prints them
    (``K♣``, ``Joker 1``) or in words (``King of Clubs``)."""
    words = set(re.findall(r"\b(?:10|[2-9JQKA])[SHDC]\b", text))
    words |= set(re.findall(r"(?<![\w])(?:10|[2-9JQKA])[♠♥♦♣]|Joker [12]", text))
    return [c.code for c in cards if c.code in words or card_text(c) in words or c.name in text]


def check(state: CombatState) -> None:
    for i, side in enumerate(PLAYERS):
        o = 1 - i
        secret = set(state.hands[o]) - face_up(state, o)
        for where, text in (("log", state.log(side)), ("observation", state.observation(side))):
            assert not leaks(text, secret), (side, where, leaks(text, secret), text)


def playouts(rules: Rules, seeds=range(6)):
    for seed in seeds:
        rng = random.Random(seed)
        state = start_combat(
            Fairy("North", live=3, kill=3), Fairy("South", live=3, kill=2), rules, attacks=2 + seed % 2
        )
        states = [state]
        while not state.is_terminal:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
            states.append(state)
        yield states


@pytest.mark.parametrize("rules", [Rules(), Rules(none_reveal="subset")], ids=["default", "subset"])
def test_playouts_hide_the_other_hand(rules):
    for states in playouts(rules):
        for state in states:
            check(state)


def test_worked_example_hides_the_other_hand():
    st = combat_stepper(example=EXAMPLE.rsplit("/", 1)[1])
    check(st.state)
    while True:
        before = st.state
        st.next_move()
        if st.state is before:
            break
        check(st.state)
    assert st.state.is_terminal


def test_one_side_stepper_log_hides_the_other_hand():
    st = combat_stepper(example=EXAMPLE.rsplit("/", 1)[1])
    while True:
        for i, side in enumerate(PLAYERS):
            st.view.value = side
            assert st.stepper.viewer == side
            secret = set(st.state.hands[1 - i]) - face_up(st.state, 1 - i)
            assert not leaks(st.stepper.log_text, secret), (side, st.stepper.log_text)
        st.view.value = "both"
        assert st.stepper.viewer is None
        before = st.state
        st.next_move()
        if st.state is before:
            break
    assert "Sparklespaz draws 2 cards: 2♦ K♣." in st.stepper.log_text  # the designer sees everything
    assert leaks(st.stepper.log_text, [Card("2D"), Card("KC")]) == ["2D", "KC"]  # the check can fail
    st.view.value = "attacker"
    assert "Sparklespaz draws 2 cards." in st.stepper.log_text.splitlines()


def test_hidden_trumps_kept_are_named_for_their_owner_only():
    # FM-5 with none_reveal="subset": the attacker keeps one of two face-down Trumps hidden.
    state = start_combat(
        Fairy("North", live=3, kill=2),
        Fairy("South", live=2, kill=1),
        Rules(none_reveal="subset"),
        hands=("KS QS 5C", "4H 6D"),
        attacks=1,
    )
    for action in ("declare add", "declare add", "trumps KS QS", "trumps none", "play 5C", "play 4H", "reveal KS"):
        state = state.apply(action)
    while state.current_player in PLAYERS:
        state = state.apply(state.best_action() or state.legal_actions()[0])
    assert "QS" in state.log("attacker") and "QS" in state.log(None)
    assert "QS" not in state.log("defender")
    assert "1 face down" in state.observation("defender")
