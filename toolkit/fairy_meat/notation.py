"""Rule-book examples as data: a readable YAML notation for a whole Fairy Meat combat.

An example file holds the setup (fairies, weapons, modifiers, rule variants), a stacked
deck (the attacker's hand, the defender's hand, then every card turned up, in order),
the decisions in order, and optional expectations that replay checks::

    system: fairy-meat
    title: Dizzytwig v Sparklespaz
    attacker: {name: Dizzytwig, live: 3, kill: 4, weapon: Vibro-Master, fluttered: true}
    defender: {name: Sparklespaz, live: 2, kill: 1, weapon: Moon Dagger, holds_order_card: true}
    deck: KS QC 5C 4C 3D  2D KC  AS JH 3H
    moves:
      - Dizzytwig: declare subtract
      - Sparklespaz: declare add
      - Dizzytwig: trumps KS QC
      ...
    expect:
      - {attack: 1, attacker_value: 2, defender_value: 3, winner: defender, points: 1}

Choices a file leaves out (the None-rule reveal, the bonus, the cheating shifts) are
made best for the chooser, as the referee does. ``unfinished: true`` marks an example
that stops mid-combat (what the stepper exports before the end): replay stops where its
data does. Files are data: read with the safe
reader (:func:`toolkit.notation.load_yaml`), never executed; every field is checked
strictly (yes/no fields take only true/false, numbers only whole numbers). Parse problems are collected with their line
numbers (like python-chess's PGN reader) and raised together.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.cards import Card, parse_cards
from toolkit.errors import IllegalActionError, NotationError, ToolkitError
from toolkit.fairy_meat.engine import PLAYERS, CombatState, start_combat
from toolkit.fairy_meat.rules import Fairy, Weapon
from toolkit.house_rules import example_folder, read_rules_entry
from toolkit.notation import (
    ExampleNotation,
    LineMap,
    ParseErrors,
    PlanStop,
    at_line,
    excerpt,
    follow_plan,
    load_yaml,
    read_example,
    write_example,
)
from toolkit.numbers import count
from toolkit.shipped import shipped_path

__all__ = [
    "NOTATION",
    "SYSTEM",
    "Example",
    "PlannedMove",
    "plan_example",
    "load_example",
    "replay",
    "check_expectations",
    "to_example",
    "load_weapons",
    "summary",
]

#: The ``system:`` of a Fairy Meat example file.
SYSTEM = "fairy-meat"

_DATA = shipped_path("fairy_meat")
_FAIRY_KEYS = {"name", "live", "kill", "weapon", "pronoun"}
_ATTACKER_KEYS = _FAIRY_KEYS | {"fluttered", "modifiers"}
_DEFENDER_KEYS = _FAIRY_KEYS | {"holds_order_card", "modifiers", "has_attacked"}
_TOP_KEYS = {
    "system",
    "title",
    "notes",
    "rules",
    "attacker",
    "defender",
    "deck",
    "moves",
    "expect",
    "wrestling",
    "attacks",
    "unfinished",
}
_EXPECT_KEYS = {"attack", "attacker_value", "defender_value", "winner", "points", "damage", "nasty_hit"}
#: Keys of an expectation about the end of the combat (one without ``attack``).
_END_KEYS = {"live", "nasty_hits", "extra_cards", "escaped"}


def _codes(cards) -> str:
    return " ".join(c.code for c in cards)


def load_weapons(path: Path | None = None) -> dict[str, Weapon]:
    """Return the weapons in ``data/fairy_meat/weapons.yaml`` by name."""
    raw = load_yaml(path or _DATA / "weapons.yaml").data or {}
    return {
        name: Weapon(name, **{k: v for k, v in stats.items() if k in ("attack_bonus", "defence_modifier", "attacks")})
        for name, stats in raw.items()
    }


@dataclass(frozen=True)
class Example:
    """A parsed example: the combat's setup, the decisions and what it must show."""

    title: str
    start: CombatState
    moves: tuple[tuple[str, str, int], ...]  # (who, action, line)
    expect: tuple[Mapping[str, Any], ...] = ()
    source: str = ""
    notes: str = ""
    errors: tuple[str, ...] = field(default=())
    unfinished: bool = False  # the combat stops where the file's data does (a partial Export)


#: Bounds of the numbers an example gives (far beyond any real combat; the deck has 54 cards).
MAX_POINTS = 100
MAX_MODIFIER = 100
MAX_ATTACKS = 100


def load_example(source: str | Path) -> Example:
    """Read an example file (a path, or the YAML text itself) with the safe reader
    (:func:`toolkit.notation.read_example`), checking every field's type strictly:
    yes/no fields take only ``true``/``false``, numbers only whole numbers within
    bounds (never truncated), text only text.

    Raises:
        NotationError: every problem found, each with its line number.
    """
    source_ = read_example(source, "attacker, defender, deck and moves")
    data, where = source_.data, source_.where
    errors = source_.checked(_TOP_KEYS, SYSTEM)
    title = errors.text(data.get("title"), "title", "title", default=where, limit=200)
    notes = errors.text(data.get("notes"), "notes", "notes")
    weapons = load_weapons()
    attacker, a_raw = _fairy(data, "attacker", _ATTACKER_KEYS, weapons, errors)
    defender, d_raw = _fairy(data, "defender", _DEFENDER_KEYS, weapons, errors)
    rules = read_rules_entry(SYSTEM, data.get("rules"), errors, example_folder(where))
    deck = _deck(data.get("deck"), errors)
    moves = _moves(data.get("moves"), source_.lines, errors)
    names = tuple(f.name for f in (attacker, defender) if f is not None)
    expect = _expectations(data.get("expect"), errors, names)
    attacker_modifiers = errors.whole(
        a_raw.get("modifiers"),
        "attacker: modifiers",
        "attacker",
        "modifiers",
        low=-MAX_MODIFIER,
        high=MAX_MODIFIER,
        default=0,
    )
    defender_modifiers = errors.whole(
        d_raw.get("modifiers"),
        "defender: modifiers",
        "defender",
        "modifiers",
        low=-MAX_MODIFIER,
        high=MAX_MODIFIER,
        default=0,
    )
    fluttered = errors.yes_no(a_raw.get("fluttered"), "attacker: fluttered", "attacker", "fluttered")
    holds_order_card = errors.yes_no(
        d_raw.get("holds_order_card"), "defender: holds_order_card", "defender", "holds_order_card"
    )
    has_attacked = errors.yes_no(d_raw.get("has_attacked"), "defender: has_attacked", "defender", "has_attacked")
    wrestling = errors.yes_no(data.get("wrestling"), "wrestling", "wrestling")
    attacks = errors.whole(data.get("attacks"), "attacks", "attacks", low=1, high=MAX_ATTACKS)
    unfinished = errors.yes_no(data.get("unfinished"), "unfinished", "unfinished")
    errors.raise_if_any(incomplete=attacker is None or defender is None)
    assert attacker is not None and defender is not None
    try:
        start = start_combat(
            attacker,
            defender,
            rules,
            deck=deck,
            attacker_modifiers=attacker_modifiers or 0,
            defender_modifiers=defender_modifiers or 0,
            fluttered=fluttered,
            holds_order_card=holds_order_card,
            defender_has_attacked=has_attacked,
            wrestling=wrestling,
            attacks=attacks,
        )
    except ToolkitError as exc:
        text = str(exc).lower()  # the line of the setup the rules refuse (never "line 0")
        key = next((k for k in ("deck", "card", "attacks", "name") if k in text), "attacker")
        line = source_.lines.line({"card": "deck", "name": "defender"}.get(key, key)) or source_.lines.line("attacker")
        raise NotationError(at_line(where, line, str(exc))) from None
    return Example(title, start, tuple(moves), tuple(expect), where, notes, unfinished=bool(unfinished))


def _deck(raw: Any, errors: ParseErrors) -> tuple[Card, ...]:
    """The stacked deck: card codes as one text or a list of codes."""
    if raw is None:
        return ()
    if isinstance(raw, list):
        bad = next((c for c in raw if not isinstance(c, str)), None)
        if bad is not None:
            errors.add(f"deck: a card is a code such as 10S or QC, got {excerpt(bad)}", "deck")
            return ()
        raw = " ".join(raw)
    if not isinstance(raw, str):
        errors.add(f"deck: the cards are codes such as 'KS QC 5C', got {excerpt(raw)}", "deck")
        return ()
    try:
        return parse_cards(raw)
    except ToolkitError as exc:
        errors.add(f"deck: {exc}", "deck")
        return ()


def _moves(raw: Any, lines: LineMap, errors: ParseErrors) -> list[tuple[str, str, int]]:
    """The decisions in order: ``(who, action, line)``."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.add(f"moves must be a list of 'Name: action' entries, got {excerpt(raw)}", "moves")
        return []
    moves: list[tuple[str, str, int]] = []
    for i, entry in enumerate(raw):
        if not (isinstance(entry, dict) and len(entry) == 1):
            errors.add(f"a move is one 'Name: action' pair, got {excerpt(entry)}", "moves", i)
            continue
        ((who, action),) = entry.items()
        who_ = errors.text(who, "a move's fairy", "moves", i, limit=200)
        action_ = errors.text(action, f"{excerpt(who)}'s move", "moves", i, limit=200)
        if who_ and action_:
            moves.append((who_, action_, lines.line("moves", i)))
    return moves


def _expectations(raw: Any, errors: ParseErrors, names: tuple[str, ...] = ()) -> list[Mapping[str, Any]]:
    """The expectations as written, each with its line under ``"_line"``: an attack's
    (``attack`` a whole number from 1, and its result's keys) or, without ``attack``, the
    end of the combat's: ``live`` (fairy name -> Live points left, FM-10), ``nasty_hits``
    (the names of the fairies who suffered one, once per Nasty Hit, FM-12), ``extra_cards``
    (still owed for the defender's attack back, FM-11) and ``escaped`` (whether a Wrestling
    winner gave up the damage so that both escaped the brawl, FM-14). A fairy is named by
    her name or her role (attacker, defender)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.add(f"expect must be a list of expectations, got {excerpt(raw)}", "expect")
        return []
    expect = []
    for k, item in enumerate(raw):
        if not isinstance(item, dict) or not item:
            errors.add(
                "an expectation is a mapping: 'attack' and the values to check, or the end of the combat "
                f"({', '.join(sorted(_END_KEYS))}), got {excerpt(item)}",
                "expect",
                k,
            )
            continue
        allowed = _EXPECT_KEYS if "attack" in item else _END_KEYS
        unknown = set(item) - allowed
        if unknown:
            kind = "an attack's" if "attack" in item else "the end of the combat's (no 'attack')"
            errors.add(
                f"expect: unknown keys {excerpt(sorted(map(str, unknown)))} in {kind} expectation; "
                f"keys are {', '.join(sorted(allowed))}",
                "expect",
                k,
            )
            continue
        before = len(errors.messages)
        if "attack" in item:
            errors.whole(item["attack"], "expect: attack", "expect", k, "attack", low=1, high=MAX_ATTACKS)
        else:
            _check_end(item, errors, names, k)
        if len(errors.messages) == before:
            expect.append({**item, "_line": errors.lines.line("expect", k)})
    return expect


def _check_end(item: Mapping[str, Any], errors: ParseErrors, names: tuple[str, ...], k: int) -> None:
    """Record what is wrong with an end-of-combat expectation's values."""
    who = [*names, *PLAYERS]
    accepted = ", ".join(who)

    def fairy(value: Any, what: str, *path: Any) -> None:
        if not isinstance(value, str) or value not in who:
            errors.add(f"expect: {what} names a fairy ({accepted}), got {excerpt(value)}", "expect", k, *path)

    if "live" in item:
        live = item["live"]
        if not isinstance(live, dict) or not live:
            errors.add(
                f"expect: live is a mapping of fairy name to Live points, got {excerpt(live)}", "expect", k, "live"
            )
        else:
            for name, value in live.items():
                fairy(name, "live", "live", name)
                errors.whole(value, f"expect: live of {excerpt(name)}", "expect", k, "live", name, high=MAX_POINTS)
    if "nasty_hits" in item:
        hits = item["nasty_hits"]
        if not isinstance(hits, list):
            errors.add(
                f"expect: nasty_hits is a list of the fairies who suffered one ([] for none), got {excerpt(hits)}",
                "expect",
                k,
                "nasty_hits",
            )
        else:
            for i, name in enumerate(hits):
                fairy(name, "nasty_hits", "nasty_hits", i)
    if "extra_cards" in item:
        errors.whole(item["extra_cards"], "expect: extra_cards", "expect", k, "extra_cards", high=MAX_POINTS)
    if "escaped" in item:
        errors.yes_no(item["escaped"], "expect: escaped", "expect", k, "escaped")


def _fairy(
    data: Mapping[str, Any], role: str, allowed: set[str], weapons: Mapping[str, Weapon], errors: ParseErrors
) -> tuple[Fairy | None, dict[str, Any]]:
    """Read the attacker or the defender (``role``) of an example, recording problems."""
    raw = data.get(role)
    if not isinstance(raw, dict):
        errors.add(f"{role} must be a mapping with name, live, kill (and weapon)", role)
        return None, {}
    errors.check_keys(raw, allowed, f"{role}: ", role)
    weapon_name = raw.get("weapon", "bare hands")
    weapon = weapons.get(weapon_name) if isinstance(weapon_name, str) else None
    if weapon is None:
        errors.add(f"{role}: unknown weapon {excerpt(weapon_name)}; known: {', '.join(weapons)}", role, "weapon")
        weapon = weapons["bare hands"]
    name = errors.text(raw.get("name"), f"{role}: name", role, "name", limit=100)
    live = errors.whole(raw.get("live"), f"{role}: live", role, "live", high=MAX_POINTS)
    kill = errors.whole(raw.get("kill"), f"{role}: kill", role, "kill", high=MAX_POINTS)
    if live is None or kill is None:
        if "live" not in raw or "kill" not in raw:
            errors.add(f"{role}: give live and kill (whole numbers)", role)
        return None, raw
    try:
        return Fairy(name, live, kill, weapon, **({"pronoun": raw["pronoun"]} if "pronoun" in raw else {})), raw
    except ToolkitError as exc:
        errors.add(f"{role}: {exc}", role)
        return None, raw


@dataclass(frozen=True)
class PlannedMove:
    """One move of an example: cards dealt or turned up, or a decision."""

    chance: bool
    text: str  # card codes for a chance step, else the action
    label: str  # what the example panel says will happen next


def plan_example(example: Example) -> tuple[list[PlannedMove], list[CombatState], str]:
    """Return the example's moves as the stepper plays them, the state before each and
    after the last, and why it stops early (``""`` if it plays to the end).

    Stacked cards at chance steps (a whole hand at once), the file's moves for
    decisions, and the referee's best choice where the file leaves one out (FM-5,
    FM-8, FM-11). :func:`replay` and the stepper's example mode both follow this plan
    (the shared loop :func:`toolkit.notation.follow_plan`).
    """
    return follow_plan(example.start, lambda start: _planner(example, start), _apply)


def _apply(state: CombatState, move: PlannedMove) -> CombatState:
    new = state.apply_all(parse_cards(move.text)) if move.chance else state.apply(move.text)
    assert isinstance(new, CombatState)
    return new


def _planner(example: Example, state: CombatState) -> Generator[PlannedMove, CombatState, None]:
    """Yield the example's moves one by one, receiving the state each led to."""
    moves = deque(example.moves)  # popped from the left: reading stays linear in the moves
    where = example.source
    while not state.is_terminal:
        if example.unfinished and not moves and not (state.is_chance_node and state.pile.stacked):
            return  # an unfinished example stops where its data does (a partial Export)
        if state.is_chance_node:
            state = yield _chance_move(state, where)
        else:
            state = yield _decision(state, moves, where)
    if moves:
        name, action, line = moves[0]
        raise PlanStop(at_line(where, line, f"the combat is over; move {name}: {action!r} is left over"))


def _chance_move(state: CombatState, where: str) -> PlannedMove:
    """The stacked cards dealt or turned up at a chance step (a whole hand at once)."""
    cards = state.pile.stacked[: max(1, state.roll_group())]
    if not cards:
        raise PlanStop(f"{where}: the deck runs out of stacked cards at: {state.prompt()} — add the cards turned up")
    step, i = state.phase()
    verb = "is dealt" if step == "deal" else "turns up"
    return PlannedMove(True, _codes(cards), f"{state.names[i]} {verb} {_codes(cards)}")


def _decision(state: CombatState, moves: deque[tuple[str, str, int]], where: str) -> PlannedMove:
    """The file's next move if it is this fairy's and of this step, else the referee's
    best choice where the file may leave it out; pops the file's move it uses."""
    who = state.names[PLAYERS.index(state.current_player)]  # type: ignore[arg-type]
    best = state.best_action()
    step = state.phase()[0]
    mine = bool(moves) and moves[0][0] in (who, state.current_player)
    if mine and best is not None and not moves[0][1].strip().lower().startswith(step):
        mine = False  # the file leaves this choice to the best play
    if mine:
        name, action, line = moves.popleft()
        try:
            parsed = state.parse_action(action)
        except ToolkitError as exc:
            raise PlanStop(at_line(where, line, f"{name}: {exc}")) from None
        return PlannedMove(False, str(parsed), f"{who}: {parsed} (line {line})")
    if best is not None:
        return PlannedMove(False, best, f"{who}: {best} (the referee's best choice)")
    if moves:
        name, action, line = moves[0]
        raise PlanStop(at_line(where, line, f"the move is {who}'s ({state.prompt()}), not {name}'s: {action!r}"))
    raise PlanStop(f"{where}: the example ends before the combat does, at: {state.prompt()}")


def replay(example: Example) -> CombatState:
    """Play an example out: stacked cards for chance steps, its moves for decisions, and
    the best choice where it gives none (reveal, bonus, shifts).

    Raises:
        NotationError: a move by the wrong fairy, an illegal move, or a deck too short;
            the message names the example's line.
    """
    _, states, error = plan_example(example)
    if error:
        raise NotationError(error)
    return states[-1]


def check_expectations(example: Example, state: CombatState) -> list[str]:
    """Return every expectation of the example that the replayed combat does not meet,
    each with its line in the file (``line 12: ...``): an attack's result, or the end of
    the combat's Live points (FM-10), Nasty Hits (FM-12), extra cards owed (FM-11) and
    Wrestling escape (FM-14)."""
    problems = []
    for item in example.expect:
        line = item.get("_line", 0)
        at = f"line {line}: " if line else ""
        if "attack" not in item:
            problems += [at + p for p in _end_problems(item, state)]
            continue
        n = int(item["attack"])
        if not 1 <= n <= len(state.results):
            problems.append(f"{at}attack {n}: the combat had {count(len(state.results), 'attack')}")
            continue
        result = state.results[n - 1]
        for key, wanted in item.items():
            if key in ("attack", "_line"):
                continue
            got = result.nasty_hit if key == "nasty_hit" else getattr(result, key)
            if got != wanted:
                problems.append(f"{at}attack {n}: {key} is {got!r}, the example expects {excerpt(wanted)}")
    return problems


def _end_problems(item: Mapping[str, Any], state: CombatState) -> list[str]:
    """What the end of the combat does not meet of one end expectation."""
    names = state.names

    def index(who: str) -> int:
        return PLAYERS.index(who) if who in PLAYERS else names.index(who)  # type: ignore[arg-type]

    problems = []
    ended = "" if state.finished else " (the combat is not over)"
    for who, wanted in (item.get("live") or {}).items():
        got = state.fairies[index(who)].live
        if got != wanted:
            problems.append(f"{names[index(who)]} ends with {got} Live{ended}, the example expects {wanted}")
    if "nasty_hits" in item:
        got_hits = sorted(state.nasty_hits)
        wanted_hits = sorted(names[index(w)] for w in item["nasty_hits"])
        if got_hits != wanted_hits:
            shown = ", ".join(got_hits) or "nobody"
            problems.append(
                f"Nasty Hits (FM-12) to {shown}{ended}, the example expects {', '.join(wanted_hits) or 'none'}"
            )
    if "extra_cards" in item and state.extra_cards != item["extra_cards"]:
        problems.append(
            f"{names[1]} is owed {count(state.extra_cards, 'extra card')} (FM-11){ended}, "
            f"the example expects {item['extra_cards']}"
        )
    if "escaped" in item:
        got = any(r.escaped for r in state.results)
        if got != item["escaped"]:
            said = "a Wrestling winner gave up the damage to escape" if got else "nobody escaped the Wrestling"
            wanted = "true" if item["escaped"] else "false"
            problems.append(f"{said} (FM-14){ended}, the example expects escaped: {wanted}")
    return problems


def to_example(state: CombatState, title: str = "A Fairy Meat combat") -> str:
    """Return the YAML example that replays ``state`` — what the stepper exports.

    The deck is every card dealt or turned up so far, in order; the moves are the
    decisions of its history (:attr:`CombatState.moves`); the expectations are the results
    so far (values, winner, points, damage and the Nasty Hit, FM-12), so replaying the
    file checks them. A combat not yet over is written with ``unfinished: true``: its
    replay stops where the combat stands. The file is written by
    :func:`toolkit.notation.write_example`, as every system's.
    """
    setup = state.setup
    if setup is None:
        raise IllegalActionError("this combat was not built by start_combat: its setup is unknown")
    a, d = setup.attacker, setup.defender
    data: dict[str, Any] = {}
    data["attacker"] = {"name": a.name, "live": a.live, "kill": a.kill, "weapon": a.weapon.name}
    data["defender"] = {"name": d.name, "live": d.live, "kill": d.kill, "weapon": d.weapon.name}
    for role, fairy in (("attacker", a), ("defender", d)):
        if fairy.pronoun != "she":
            data[role]["pronoun"] = fairy.pronoun
    if setup.fluttered:
        data["attacker"]["fluttered"] = True
    if setup.attacker_modifiers:
        data["attacker"]["modifiers"] = setup.attacker_modifiers
    if setup.holds_order_card:
        data["defender"]["holds_order_card"] = True
    if setup.defender_modifiers:
        data["defender"]["modifiers"] = setup.defender_modifiers
    if setup.defender_has_attacked:
        data["defender"]["has_attacked"] = True
    if setup.wrestling:
        data["wrestling"] = True
    if setup.attacks is not None:
        data["attacks"] = setup.attacks
    play = {"deck": " ".join(c.code for c in state.cards_seen), "moves": [{who: action} for who, action in state.moves]}
    expect = [
        {
            "attack": n,
            "attacker_value": r.attacker_value,
            "defender_value": r.defender_value,
            "winner": r.winner,
            "points": r.points,
            "damage": r.damage,
            "nasty_hit": r.nasty_hit,
        }
        for n, r in enumerate(state.results, 1)
    ]
    return write_example(SYSTEM, title, state.rules, data, play, expect, finished=state.is_terminal)


def summary(state: CombatState) -> str:
    """Return one sentence on a finished combat: each fairy's Live points, the damage
    dealt and any Nasty Hits (FM-12), for ``toolkit replay``."""
    done = state.summary()
    nasty = f"; Nasty Hits: {', '.join(done['nasty_hits'])}" if done["nasty_hits"] else ""
    return (
        f"After the combat: {state.names[0]} has {done['attacker_live']} Live, {state.names[1]} "
        f"{done['defender_live']} Live; damage dealt {done['damage_to_defender']}{nasty}."
    )


#: The Fairy Meat notation, as the registry of systems (:mod:`toolkit.systems`) uses it.
NOTATION = ExampleNotation(SYSTEM, load_example, replay, check_expectations, to_example, summary, plan_example)
