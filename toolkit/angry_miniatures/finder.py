"""The Angry Miniatures searcher of :func:`toolkit.rulebook.finder.find_examples`.

Attacks are tried from the smallest setup up (fewest dice first: 1 against 1, then 2
against 1, ...), each attack type the hints allow, one defender or a magic area of three
(AM-8). For a setup with few enough rolls every roll is tried (each pool written high to
low, as a rule book prints it: ``K Q 10``); beyond that rolls are drawn at random with the
search's seeded generator. SuperTieBreaker throws (AM-4) are chosen: one winning throw,
and tied throws first when the hints ask for rerolls. Rolls and throws use the faces of
the rules' die (``rules.die_faces``, AM-1), not the draft's 9 10 J Q K A.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from toolkit.angry_miniatures.engine import AttackState, start_attack
from toolkit.angry_miniatures.rules import DEFENCE_STAT, Character
from toolkit.dice import POKER_FACES

__all__ = ["HINTS", "candidates", "simplicity", "MAX_DICE", "EXHAUSTIVE_LIMIT"]

#: The largest total of dice a searched attack rolls.
MAX_DICE = 9
#: Setups with at most this many rolls are searched exhaustively; larger ones at random.
EXHAUSTIVE_LIMIT = 4000

ATTACKER = "Grunk"
DEFENDERS = ("Pixie", "Moss", "Thistle")


def _high_first(rules: Any) -> tuple[str, ...]:
    """The different faces of the rules' die (AM-1), highest first (``A K Q J 10 9``)."""
    return tuple(face for face, _ in reversed(rules.face_weights()))


def _pools(total: int, defenders: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(attack dice, defence dice per defender) with ``total`` dice in all, the attack
    pool at least 1 and each defence pool at most the attack pool + 1."""
    for attack in range(1, total + 1):
        rest = total - attack
        for split in itertools.product(range(rest + 1), repeat=defenders):
            if sum(split) == rest and all(d <= attack + 1 for d in split):
                yield attack, split


def _setup(attack_type: str, attack: int, defence: tuple[int, ...], health: int, rules: Any, crit_before: bool):
    attacker = Character(ATTACKER, health=health, **{attack_type: attack})
    stat = DEFENCE_STAT[attack_type]
    targets = [Character(name, health=health, **{stat: d}) for name, d in zip(DEFENDERS, defence, strict=False)]
    crits = frozenset({ATTACKER}) if crit_before else frozenset()
    return start_attack(attacker, targets, attack_type, rules=rules, crits_this_turn=crits)


def _rolls(dice: int, faces: tuple[str, ...]) -> list[tuple[str, ...]]:
    return list(itertools.combinations_with_replacement(faces, dice))


def _throws(state: AttackState, rerolls: int, rng: random.Random) -> list[tuple[str, str]]:
    """The SuperTieBreaker throws tried here (faces of the rules' die, AM-1): a tied one
    while rerolls are wanted, and a winning one (AM-4)."""
    tied = sum(a == d for a, d in state.throws)
    faces = _high_first(state.rules)[::-1]
    face = rng.choice(faces)
    winning = rng.choice([(a, d) for a in faces for d in faces if a != d])
    return ([(face, face)] if tied < rerolls else []) + [winning]


def _finish(state: AttackState, rerolls: int, rng: random.Random) -> Iterator[AttackState]:
    """Every way the chosen SuperTieBreaker throws end the attack."""
    if state.is_terminal:
        yield state
        return
    for throw in _throws(state, rerolls, rng):
        yield from _finish(state.apply(throw), rerolls, rng)  # type: ignore[arg-type]


def _play(start: AttackState, rolls: tuple[tuple[str, ...], ...], rerolls: int, rng: random.Random):
    state = start
    for roll in rolls:
        if state.roller is None:
            break
        state = state.apply_all(roll)  # type: ignore[assignment]
    yield from _finish(state, rerolls, rng)


#: The search hints this searcher reads (see the module docstring).
HINTS: tuple[str, ...] = ("attack", "defenders", "health", "rerolls", "crit_before")


def candidates(rules: Any, hints: dict[str, Any], rng: random.Random) -> Iterator[AttackState]:
    """Yield finished attacks, simplest setups first (AM-1..AM-10 through the engine)."""
    types = hints.get("attack", ("melee", "ranged", "magic"))
    defenders = int(hints.get("defenders", 1))
    health = int(hints.get("health", 5))
    rerolls = int(hints.get("rerolls", 0))
    crit_before = bool(hints.get("crit_before", False))
    faces = _high_first(rules)
    for total in range(defenders + 1, MAX_DICE + 1):
        for attack, defence in _pools(total, defenders):
            for attack_type in types:
                start = _setup(attack_type, attack, defence, health, rules, crit_before)
                pools = [start.attack_dice, *start.defence_dice]
                choices = [_rolls(k, faces) for k in pools]
                size = 1
                for c in choices:
                    size *= len(c)
                if size <= EXHAUSTIVE_LIMIT:
                    combos: Iterator[tuple[tuple[str, ...], ...]] = itertools.product(*choices)
                else:
                    combos = (tuple(rng.choice(c) for c in choices) for _ in range(EXHAUSTIVE_LIMIT))
                for rolls in combos:
                    yield from _play(start, rolls, rerolls, rng)


def simplicity(state: AttackState) -> tuple[int, ...]:
    """How simple an attack is to read, smaller first: dice rolled, SuperTieBreaker
    throws, events, then the sum of the face ranks (low faces read as "nothing special")."""
    dice = len(state.attack_roll) + sum(len(r) for r in state.defence_rolls)
    faces = [*state.attack_roll, *(f for r in state.defence_rolls for f in r)]
    return (dice, len(state.all_throws), len(state.events), sum(POKER_FACES.index(f) for f in faces))
