"""Rule-book examples as data: a readable YAML notation for one Angry Miniatures attack.

An example file holds the characters, the attack type, the AM-9 modifiers, the rule
variants, the typed faces of every roll in the order the engine asks for them (the
attacker's pool, each defender's pool, then any SuperTieBreaker throws, AM-4), and an
``expect`` block that :func:`check_expectations` and ``toolkit replay FILE`` check::

    system: angry-miniatures
    title: Grunk charges Pixie
    attacker: {name: Grunk, melee: 4, body: 3, health: 5}
    defender: {name: Pixie, body: 2, health: 3}     # or defenders: [...] (magic area, AM-8)
    attack: melee
    modifiers: {charge: true}                       # AM-9
    rules: {zero_tie: miss}                         # optional: any Rules field, or a house-rules file: tens_hit
    rolls:
      - Grunk: K Q 10 9 9                           # a whole pool, faces 9 10 J Q K A (AM-1)
      - Pixie: K Q
      - super_tiebreak: A A                         # the attacker's face, then the defender's (AM-4)
      - super_tiebreak: 9 K
    expect:
      hits: {Grunk: 2, Pixie: 2}
      damage: {Grunk: 1, Pixie: 0}                  # damage taken in this attack (AM-3, AM-4)
      crits: []                                     # who crits (AM-7)
      out: []                                       # who is out after it (AM-10)

A pool of 0 dice is rolled by itself (AM-2) and is not written. ``unfinished: true``
marks an example that stops mid-attack (what the stepper exports before the end).
Files are data (``yaml.safe_load``); problems are collected with their lines and
raised together as one :class:`~toolkit.errors.NotationError`; a roll the engine
refuses (the wrong number of dice, a face that is not a poker-die face, a roll by the
wrong character) stops the replay at its line.

>>> example = load_example(EXAMPLE)
>>> state = replay(example)
>>> state.log().splitlines()[-1]
'Pixie wins the tie and deals 1 damage back to Grunk (melee).'
>>> check_expectations(example, state)
[]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from toolkit.angry_miniatures.engine import AttackState, start_attack
from toolkit.angry_miniatures.rules import ATTACK_TYPES, Character, Modifiers
from toolkit.dice import parse_faces
from toolkit.errors import IllegalActionError, NotationError, ToolkitError
from toolkit.house_rules import example_folder, read_rules_entry
from toolkit.notation import (
    ExampleNotation,
    FlowMap,
    ParseErrors,
    PlanStop,
    at_line,
    excerpt,
    follow_plan,
    read_example,
    write_example,
)
from toolkit.numbers import count
from toolkit.shipped import shipped_path

__all__ = [
    "EXAMPLE",
    "NOTATION",
    "SUPER_TIEBREAK",
    "SYSTEM",
    "Example",
    "PlannedMove",
    "check_expectations",
    "damage_taken",
    "hits_of",
    "load_example",
    "plan_example",
    "replay",
    "summary",
    "to_example",
]

#: The ``system:`` of an Angry Miniatures example file.
SYSTEM = "angry-miniatures"

#: The name a SuperTieBreaker throw is written under in ``rolls`` (AM-4).
SUPER_TIEBREAK = "super_tiebreak"

#: The tour's rule-book example (docs/tour.md), as a file (``data/examples/grunk_charges_pixie.yaml``).
EXAMPLE = shipped_path("examples", "grunk_charges_pixie.yaml")

_TOP_KEYS = {
    "system",
    "title",
    "notes",
    "rules",
    "attacker",
    "defender",
    "defenders",
    "attack",
    "modifiers",
    "crits_this_turn",
    "rolls",
    "expect",
    "unfinished",
}
_CHARACTER_KEYS = {f.name for f in fields(Character)}
_MODIFIER_KEYS = {f.name for f in fields(Modifiers)}
_EXPECT_KEYS = {"hits", "damage", "crits", "out"}

#: The largest dice pool and Health an example may give (every die is typed out).
MAX_EXAMPLE_POOL = 100
MAX_HEALTH = 1000


@dataclass(frozen=True)
class Example:
    """A parsed example: the attack before any die is rolled, its rolls as written
    (``(who, faces, line)``, ``who`` a character's name or :data:`SUPER_TIEBREAK`) and
    what it must show (``expect``, with each key's line under ``"_lines"``)."""

    title: str
    start: AttackState
    rolls: tuple[tuple[str, str, int], ...]
    expect: Mapping[str, Any]
    source: str = ""
    notes: str = ""
    unfinished: bool = False


@dataclass(frozen=True)
class PlannedMove:
    """One roll of an example: its faces as typed (``"K Q 10 9 9"``, ``"A A"`` for a
    SuperTieBreaker throw), what it is in words, and its line."""

    chance: bool
    text: str
    label: str
    line: int = 0


# -- reading ---------------------------------------------------------------------------------
def load_example(source: str | Path) -> Example:
    """Read an Angry Miniatures example (a path, or the YAML text itself).

    Raises:
        NotationError: every problem found (unknown keys, a bad character, attack type,
            modifier or variant, a roll entry that is not ``Name: faces``, an unknown
            name), each with its line number.
    """
    source_ = read_example(source, "attacker, defender, attack and rolls")
    data, where = source_.data, source_.where
    errors = source_.checked(_TOP_KEYS, SYSTEM)
    attacker = _character(data.get("attacker"), errors, "attacker")
    defenders = _defenders(data, errors)
    attack_type = data.get("attack", "melee")
    if attack_type not in ATTACK_TYPES:
        errors.add(
            f"attack {excerpt(attack_type)} is not an attack type: use one of {', '.join(ATTACK_TYPES)} (AM-2)",
            "attack",
        )
    modifiers = _modifiers(data.get("modifiers") or {}, errors)
    rules = read_rules_entry(SYSTEM, data.get("rules"), errors, example_folder(where))
    names = [c.name for c in (attacker, *defenders) if c is not None]
    rolls = _rolls(data.get("rolls") or [], names, errors)
    expect = _expect(data.get("expect") or {}, names, errors)
    crits = data.get("crits_this_turn") or []
    if not isinstance(crits, list) or any(str(c) not in names for c in crits):
        errors.add(
            f"crits_this_turn lists characters of this attack ({', '.join(names)}), got {excerpt(crits)}",
            "crits_this_turn",
        )
        crits = []
    unfinished = data.get("unfinished", False)
    if not isinstance(unfinished, bool):
        errors.add(f"unfinished must be true or false, got {excerpt(unfinished)}", "unfinished")
    errors.raise_if_any(incomplete=attacker is None or not defenders or None in defenders)
    assert attacker is not None
    try:
        start = start_attack(attacker, defenders, attack_type, modifiers, rules, frozenset(map(str, crits)))  # type: ignore[arg-type]
    except ToolkitError as exc:
        raise NotationError(f"{where}: {exc}") from None
    title = str(data.get("title", where))
    return Example(title, start, rolls, expect, where, str(data.get("notes", "") or ""), unfinished is True)


def _character(raw: Any, errors: ParseErrors, *path: Any) -> Character | None:
    """A character (AM-2 stats, AM-10 Health) at ``path``, or None with the problem recorded."""
    what = " ".join(map(str, path))
    if not isinstance(raw, dict):
        errors.add(f"{what} must be a mapping with name, stats (melee, body, ...) and health", *path)
        return None
    errors.check_keys(raw, _CHARACTER_KEYS, f"{what}: ", *path)
    fields_: dict[str, Any] = {}
    before = len(errors.messages)
    for key, value in raw.items():
        if key == "name":
            fields_[key] = errors.text(value, f"{what}: name", *path, key, limit=100)
        elif key == "melee_character":
            fields_[key] = errors.yes_no(value, f"{what}: melee_character", *path, key)
        elif key == "health":
            fields_[key] = errors.whole(value, f"{what}: health", *path, key, low=-MAX_HEALTH, high=MAX_HEALTH)
        elif key in _CHARACTER_KEYS:
            fields_[key] = errors.whole(value, f"{what}: {key}", *path, key, high=MAX_EXAMPLE_POOL)
    if len(errors.messages) > before:
        return None
    try:
        return Character(**fields_)
    except (TypeError, ToolkitError) as exc:
        errors.add(f"{what}: {exc}", *path)
        return None


def _defenders(data: Mapping[str, Any], errors: ParseErrors) -> list[Character | None]:
    """The defender, or the target and the creatures adjacent to it (AM-8)."""
    if ("defender" in data) == ("defenders" in data):
        errors.add("give one defender (defender: {...}) or a magic area's defenders (defenders: [...], AM-8)")
        return []
    if "defender" in data:
        return [_character(data["defender"], errors, "defender")]
    raw = data["defenders"]
    if not isinstance(raw, list) or not raw:
        errors.add(
            "defenders is a list of characters: the target, then the creatures adjacent to it (AM-8)", "defenders"
        )
        return []
    return [_character(item, errors, "defenders", i) for i, item in enumerate(raw)]


def _modifiers(raw: Any, errors: ParseErrors) -> Modifiers:
    """The AM-9 modifiers (none by default)."""
    if not isinstance(raw, dict):
        errors.add(f"modifiers is a mapping of {', '.join(sorted(_MODIFIER_KEYS))} (AM-9)", "modifiers")
        return Modifiers()
    errors.check_keys(raw, _MODIFIER_KEYS, "modifiers: ", "modifiers")
    try:
        return Modifiers(**{k: v for k, v in raw.items() if k in _MODIFIER_KEYS})
    except ToolkitError as exc:
        errors.add(f"modifiers: {exc}", "modifiers")
        return Modifiers()


def _rolls(raw: Any, names: list[str], errors: ParseErrors) -> tuple[tuple[str, str, int], ...]:
    """The rolls as written: ``(who, faces, line)``."""
    if not isinstance(raw, list):
        errors.add("rolls is a list of 'Name: faces' entries (and 'super_tiebreak: FACE FACE')", "rolls")
        return ()
    out = []
    for i, entry in enumerate(raw):
        if not (isinstance(entry, dict) and len(entry) == 1):
            errors.add(f"a roll is one 'Name: faces' pair, got {excerpt(entry)}", "rolls", i)
            continue
        ((who, faces),) = entry.items()
        if str(who) not in names and who != SUPER_TIEBREAK:
            errors.add(f"{excerpt(who)} is not in this attack: use {', '.join(names)} or {SUPER_TIEBREAK}", "rolls", i)
            continue
        out.append((str(who), "" if faces is None else str(faces), errors.lines.line("rolls", i)))
    return tuple(out)


def _expect(raw: Any, names: list[str], errors: ParseErrors) -> Mapping[str, Any]:
    """The expectations as written, with each key's line under ``"_lines"``."""
    if not isinstance(raw, dict):
        errors.add("expect is a mapping of hits, damage (name: number), crits and out (lists of names)", "expect")
        return {}
    errors.check_keys(raw, _EXPECT_KEYS, "expect: ", "expect")
    for key in ("hits", "damage"):
        value = raw.get(key, {})
        if not isinstance(value, dict) or any(str(n) not in names for n in value):
            errors.add(f"expect: {key} maps characters of this attack ({', '.join(names)}) to numbers", "expect", key)
    for key in ("crits", "out"):
        value = raw.get(key, [])
        if not isinstance(value, list) or any(str(n) not in names for n in value):
            errors.add(f"expect: {key} lists characters of this attack ({', '.join(names)})", "expect", key)
    lines = {key: errors.lines.line("expect", key) for key in raw}
    return {**{k: v for k, v in raw.items() if k in _EXPECT_KEYS}, "_lines": lines}


# -- playing ---------------------------------------------------------------------------------
def plan_example(
    example: Example, start: AttackState | None = None
) -> tuple[list[PlannedMove], list[AttackState], str]:
    """Walk an example roll by roll from its start (or from ``start``, a changed setup).

    Returns:
        ``(moves, states, error)``: the rolls (a whole pool at once), the state before
        each and after the last, and why the walk stopped early (``""`` if none).
    """
    where = example.source

    def apply(state: AttackState, move: PlannedMove) -> AttackState:
        try:
            new = state.apply_all(state.parse_actions(move.text))
        except ToolkitError as exc:
            raise PlanStop(at_line(where, move.line, f"{move.label}: {exc}")) from None
        assert isinstance(new, AttackState)
        return new

    return follow_plan(start if start is not None else example.start, lambda s: _planner(example, s), apply)


def _planner(example: Example, state: AttackState) -> Generator[PlannedMove, AttackState, None]:
    """Yield the example's rolls in the engine's order, receiving the state each led to."""
    rolls = deque(example.rolls)  # popped from the left: linear in the rolls
    where = example.source
    while not state.is_terminal:
        if not rolls:
            if example.unfinished:
                return
            raise PlanStop(f"{where}: the example ends before the attack does, at: {state.prompt()}")
        who, text, line = rolls.popleft()
        state = yield _roll(state, who, text, line, where, example.unfinished and not rolls)
    if rolls:
        who, text, line = rolls[0]
        raise PlanStop(at_line(where, line, f"the attack is resolved; roll {who}: {excerpt(text)} is left over"))


def _roll(state: AttackState, who: str, text: str, line: int, where: str, last_open: bool) -> PlannedMove:
    """One roll of the file, checked against the engine's next roll (AM-1, AM-2, AM-4)."""
    roller = state.roller
    try:
        faces = parse_faces(text)
    except ToolkitError as exc:
        raise PlanStop(at_line(where, line, f"{who}: {exc}")) from None
    if roller is None:  # a SuperTieBreaker throw
        if who != SUPER_TIEBREAK:
            raise PlanStop(
                at_line(
                    where,
                    line,
                    f"the next roll is a SuperTieBreaker throw ({state.prompt()}): write "
                    f"{SUPER_TIEBREAK}: FACE FACE, the attacker's then the defender's, not {who}: {excerpt(text)}",
                )
            )
        if len(faces) != 2:
            raise PlanStop(
                at_line(
                    where,
                    line,
                    "a SuperTieBreaker throw is two faces, the attacker's then the defender's (AM-4), "
                    f"got {excerpt(text)}",
                )
            )
        return PlannedMove(True, " ".join(faces), f"SuperTieBreaker throw {' '.join(faces)}", line)
    if who != roller:
        raise PlanStop(
            at_line(where, line, f"the next roll is {roller}'s ({state.prompt()}), not {who}'s: {excerpt(text)}")
        )
    wanted = state.roll_group()
    if len(faces) != wanted and not (last_open and len(faces) < wanted):
        raise PlanStop(
            at_line(
                where,
                line,
                f"{who} rolls {count(wanted, 'die')} (AM-2, AM-9), the example gives {len(faces)}: {excerpt(text)}",
            )
        )
    return PlannedMove(True, " ".join(faces), f"{who} rolls {' '.join(faces)}", line)


def replay(example: Example) -> AttackState:
    """Play an example out and return the resolved attack (or where an ``unfinished``
    example stops).

    Raises:
        NotationError: a roll with the wrong number of dice or a face that is not a
            poker-die face, a roll by the wrong character, rolls missing or left over;
            each names the example's line.
    """
    _, states, error = plan_example(example)
    if error:
        raise NotationError(error)
    return states[-1]


# -- checking --------------------------------------------------------------------------------
def _characters(state: AttackState) -> list[Character]:
    return [state.attacker, *state.defenders]


def hits_of(state: AttackState) -> dict[str, int]:
    """Return each character's hits on her roll so far (AM-1: the rules' hit faces), the
    attacker first."""
    rolls = [state.attack_roll, *state.defence_rolls]
    return {c.name: state.rules.count_hits(roll) for c, roll in zip(_characters(state), rolls, strict=True)}


def damage_taken(state: AttackState) -> dict[str, int]:
    """Return the damage each character takes in this attack (AM-3, AM-4; AM-8 per
    defender), the attacker first; 0 for those not judged yet."""
    taken = {c.name: 0 for c in _characters(state)}
    for defender, (dd, ad) in zip(state.defenders, state.settled, strict=False):
        taken[defender.name] += dd
        taken[state.attacker.name] += ad
    return taken


def check_expectations(example: Example, state: AttackState) -> list[str]:
    """Return every expectation of the example the replayed attack does not meet (empty:
    all met): ``hits`` each character's hits (AM-1), ``damage`` the damage each takes in
    this attack (AM-3, AM-4), ``crits`` who crits (AM-7), ``out`` who is out after it
    (AM-10)."""
    expect = example.expect
    lines = expect.get("_lines", {})
    problems = []

    def problem(key: str, message: str) -> None:
        line = lines.get(key, 0)
        problems.append(f"line {line}: {message}" if line else message)

    for key, got in (("hits", hits_of(state)), ("damage", damage_taken(state))):
        for name, wanted in (expect.get(key) or {}).items():
            if got.get(str(name)) != wanted:
                problem(key, f"{key}: {name} has {got.get(str(name))}, the example expects {wanted}")
    done = {"crits": list(state.crits), "out": [c.name for c in _characters(state) if c.is_out]}
    for key, got_names in done.items():
        if key in expect and sorted(map(str, expect[key])) != sorted(got_names):
            problem(key, f"{key}: {got_names or 'nobody'}, the example expects {list(expect[key]) or 'nobody'}")
    return problems


def summary(state: AttackState) -> str:
    """Return one sentence on the attack: each character's damage against her Health
    (AM-10), and who is out."""
    parts = [f"{c.name} {c.damage} of Health {c.health}" for c in _characters(state)]
    out = [c.name for c in _characters(state) if c.is_out]
    return f"After the attack: damage {', '.join(parts)}; out: {', '.join(out) or 'nobody'}."


# -- exporting -------------------------------------------------------------------------------
def _character_data(character: Character) -> FlowMap:
    data = FlowMap(name=character.name)
    for f in fields(Character):
        value = getattr(character, f.name)
        if f.name != "name" and value != f.default:
            data[f.name] = value
    return data


def to_example(state: AttackState, title: str = "An Angry Miniatures attack") -> str:
    """Return the YAML example that replays ``state`` — what a stepper exports.

    The characters are written as they stood before the attack, the rolls are every
    pool and SuperTieBreaker throw so far, and the expectations are what happened
    (hits, damage, crits, out) once the attack is resolved; before that the file is
    written ``unfinished: true``.

    Raises:
        IllegalActionError: ``state`` was not built by :func:`start_attack`.
    """
    if not isinstance(state, AttackState):
        raise IllegalActionError("to_example writes an Angry Miniatures attack (an AttackState)")
    taken = damage_taken(state) if state.is_terminal else {}
    before = [replace(c, damage=c.damage - taken.get(c.name, 0)) for c in _characters(state)]
    setup: dict[str, Any] = {"attacker": _character_data(before[0])}
    if len(before) == 2:
        setup["defender"] = _character_data(before[1])
    else:
        setup["defenders"] = [_character_data(c) for c in before[1:]]
    setup["attack"] = state.attack_type
    if state.modifiers is not None and state.modifiers != Modifiers():
        setup["modifiers"] = FlowMap(
            (f.name, getattr(state.modifiers, f.name))
            for f in fields(Modifiers)
            if getattr(state.modifiers, f.name) != f.default
        )
    if state.crits_this_turn - set(state.crits):
        setup["crits_this_turn"] = sorted(state.crits_this_turn - set(state.crits))
    # the rolls are the state's own (the referee reads them: AM-4..AM-6), every die of the history
    pools = [(state.attacker.name, state.attack_roll)]
    pools += [(d.name, roll) for d, roll in zip(state.defenders, state.defence_rolls, strict=True)]
    rolls: list[dict[str, str]] = [{name: " ".join(roll)} for name, roll in pools if roll]
    rolls += [{SUPER_TIEBREAK: f"{a} {d}"} for a, d in state.all_throws]
    expect = None
    if state.is_terminal:
        expect = {
            "hits": FlowMap(hits_of(state)),
            "damage": FlowMap(taken),
            "crits": list(state.crits),
            "out": [c.name for c in _characters(state) if c.is_out],
        }
    return write_example(SYSTEM, title, state.rules, setup, {"rolls": rolls}, expect, finished=state.is_terminal)


#: The Angry Miniatures notation, as the registry of systems (:mod:`toolkit.systems`) uses it.
NOTATION = ExampleNotation(SYSTEM, load_example, replay, check_expectations, to_example, summary, plan_example)
