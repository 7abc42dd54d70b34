"""Playing a stepper at random in the tests: one step of a designer who rolls at every
chance step and picks any legal action (sorted, then drawn from a seeded ``random.Random``)."""

from __future__ import annotations

import random
from typing import Any


def random_step(st: Any, rng: random.Random) -> bool:
    """Take one step of ``st`` (a system's stepper: ``.state``, ``.stepper.roll()``,
    ``.choose(action)``) and return True, or return False if the game is over."""
    state = st.state
    if state.is_terminal:
        return False
    if state.is_chance_node:
        st.stepper.roll()
    else:
        st.choose(rng.choice(sorted(state.legal_actions())))
    return True
