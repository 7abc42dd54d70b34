"""toolkit.engine.replaced, the engines' copy of a state with some fields changed, against
:func:`dataclasses.replace` (the reference): equal states, equal hashes, the same fields, at
every step of random battles and combats; nothing beside the fields carried over; a name
that is not a field refused."""

from __future__ import annotations

import dataclasses
import random

import pytest

from toolkit.durak_battle import Army, Leader, start_battle
from toolkit.engine import replaced
from toolkit.fairy_meat import Fairy
from toolkit.fairy_meat.engine import start_combat

NORTH = Army("North", 4, Leader("Vasilisa", battle_die="d8", spirit_die="d6"))
SOUTH = Army("South", 4, Leader("Ivan", battle_die="d6", spirit_die="d8", wild_card=False))


def _walk(state, rng: random.Random, steps: int = 400):
    """The states of a random play from ``state`` (chance sampled, actions drawn)."""
    seen = [state]
    while not state.is_terminal and len(seen) < steps:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(sorted(state.legal_actions(), key=str)))
        seen.append(state)
    return seen


def _check(state, rng: random.Random) -> None:
    names = [f.name for f in dataclasses.fields(state)]
    changed = rng.sample(names, 2)
    changes = {n: getattr(other, n) for n, other in zip(changed, (state, state), strict=True)}
    ours, theirs = replaced(state, **changes), dataclasses.replace(state, **changes)
    assert ours == theirs and hash(ours) == hash(theirs) and type(ours) is type(theirs)
    assert all(getattr(ours, n) is getattr(theirs, n) for n in names)
    assert set(vars(ours)) == set(names)  # a state's own caches stay with it


@pytest.mark.parametrize("seed", range(6))
def test_replaced_equals_dataclasses_replace_at_every_step(seed):
    rng = random.Random(seed)
    battles = _walk(start_battle(NORTH, SOUTH), rng)
    combats = _walk(start_combat(Fairy("Ann", live=3, kill=3), Fairy("Bo", live=3, kill=3), attacks=2), rng)
    assert len(battles) >= 3 and len(combats) >= 3
    for state in battles + combats:
        _check(state, rng)
    # a change really is made (not the state handed back)
    moved = replaced(battles[1], round_no=battles[1].round_no + 7)
    assert moved.round_no == battles[1].round_no + 7 and moved != battles[1] and battles[1].round_no != moved.round_no


def test_a_name_that_is_not_a_field_is_refused():
    state = start_battle(NORTH, SOUTH)
    with pytest.raises(TypeError, match="BattleState has no field colour"):
        replaced(state, colour="red")
