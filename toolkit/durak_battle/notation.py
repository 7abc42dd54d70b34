"""Rule-book examples as data: a readable YAML notation for a whole Durak mass battle.

An example file holds the two armies and their leaders, the rule variants, and for every
round what chance gave (the Knowledge (Battle) roll totals, the cards dealt — side a's
hand then side b's —, the coin of a joker tie, the Spirit roll totals) and the decisions
in order; optional expectations are checked by :func:`check_expectations` and by
``toolkit replay FILE``::

    system: durak-battle
    title: A counterattack chain
    rules: {counter_tie: no_loss}          # optional: jokers, counter_tie, holder_must_attack, morale_penalty
    armies:
      - name: North
        tokens: 8
        leader: {name: Voivode Dobrynya, battle_die: d8, spirit_die: d6, wild_card: true}
      - name: South
        tokens: 8
        leader: {name: Khan Tugor, battle_die: d6, spirit_die: d8, modifiers: {battle: 0, spirit: 0}}
    rounds:
      - recon: {North: 4, South: 4}        # roll totals (DB-2); hand sizes follow
        cards: 10S 7S 6C 9H  QC 4C 8S 5H   # North's 4 cards, then South's 4
        moves:                             # every decision, in order (DB-4..DB-6)
          - North: attack 7S
          - South: counter 4C
          ...
        morale: {South: 8, North: 6}       # Spirit roll totals (DB-8)
        # coin: South                      # only when joker ties joker (DB-3)
    expect:
      - {round: 1, initiative: North, lost: {North: 7, South: 4}, morale: {South: stays, North: retreats}}
      - {outcome: North retreats, tokens: {North: 1, South: 4}}

Who is named by the army's name (or ``a``/``b``). Moves are the engine's actions:
``attack 7S``, ``pass``, ``defence 9H``, ``manoeuvre QD``, ``counter 5C``, ``defence JK1``
(a joker as any action), ``take`` (decline and take the strike, DB-4). Steps the engine
takes by itself (an attack nobody can answer is a strike; a side with no attack card
passes) are not written.

The battle lasts ``max_rounds`` rounds at most (default: the rounds listed), so an example
of one round that both armies survive ends "undecided". ``unfinished: true`` marks an
example that stops mid-battle (what the stepper exports before the end): replay stops
where its data does.

Files are data: read with ``yaml.safe_load``, never executed (``yaml.compose`` with the
safe loader is used only to find line numbers). Problems found while reading are
collected with their line numbers and raised together as one :class:`NotationError`;
a move the rules refuse stops the replay at its line.

The engine does not record the outcomes and decisions that led to a state, so this module
*wraps* it: :class:`TracedBattleState` is a :class:`~toolkit.durak_battle.BattleState`
that also carries its ``trail`` (every chance outcome and decision since the start) and
the armies it started with; :func:`to_example` exports from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

from toolkit.cards import Card, parse_cards
from toolkit.durak_battle.engine import BattleState, start_battle
from toolkit.durak_battle.morale import morale_holds, morale_penalty
from toolkit.durak_battle.rules import SIDES, Army, Leader, Rules
from toolkit.errors import IllegalActionError, NotationError, ToolkitError
from toolkit.examples import read_example

__all__ = [
    "SYSTEM",
    "TracedBattleState",
    "traced",
    "RoundSpec",
    "RoundRecord",
    "PlannedMove",
    "Example",
    "load_example",
    "plan_example",
    "replay",
    "round_records",
    "check_expectations",
    "outcome_text",
    "battle_summary",
    "to_example",
]

#: The ``system:`` of a Durak battle example file.
SYSTEM = "durak-battle"

_TOP_KEYS = {"system", "title", "notes", "rules", "armies", "rounds", "expect", "max_rounds", "unfinished"}
_ARMY_KEYS = {"name", "tokens", "leader"}
_LEADER_KEYS = {"name", "battle_die", "spirit_die", "wild_card", "modifiers"}
_MODIFIER_KEYS = {"battle", "spirit"}
_ROUND_KEYS = {"recon", "cards", "coin", "moves", "morale"}
_RULE_KEYS = ("jokers", "counter_tie", "holder_must_attack", "morale_penalty")
_ROUND_EXPECT_KEYS = {"round", "initiative", "lost", "morale", "tokens"}
_BATTLE_EXPECT_KEYS = {"outcome", "winner", "tokens"}
_MORALE_WORDS = {True: "stays", False: "retreats"}


# -- the engine, wrapped so that it remembers how it got here ----------------------------
@dataclass(frozen=True)
class TracedBattleState(BattleState):
    """A :class:`BattleState` that remembers every chance outcome and decision applied
    since the start (``trail``, in order) and the armies it started with
    (``start_armies``), so a played battle can be exported (:func:`to_example`).

    The engine builds every new state with ``dataclasses.replace``, so the subclass and
    its fields survive each step; only :meth:`_apply` is extended (to append the action).
    Build one with :func:`traced`.
    """

    trail: tuple[Hashable, ...] = ()
    start_armies: tuple[Army, Army] | None = None

    def _apply(self, action: Hashable) -> TracedBattleState:
        new = super()._apply(action)
        return replace(new, trail=self.trail + (action,))  # type: ignore[return-value]


def traced(state: BattleState) -> TracedBattleState:
    """Return ``state`` as a :class:`TracedBattleState` with an empty trail, taking it as
    the start of the battle (its armies become ``start_armies``)."""
    if isinstance(state, TracedBattleState):
        return state
    values = {f.name: getattr(state, f.name) for f in fields(state)}
    return TracedBattleState(**values, trail=(), start_armies=state.armies)


def _start_of(state: TracedBattleState) -> TracedBattleState:
    """Return the start of a traced battle (a fresh deck: every dealt card is in the trail)."""
    if state.start_armies is None:
        raise IllegalActionError("this battle does not know the armies it started with: build it with traced()")
    a, b = state.start_armies
    return traced(start_battle(a, b, state.rules, max_rounds=state.max_rounds))


# -- what an example holds ------------------------------------------------------------------
@dataclass(frozen=True)
class RoundSpec:
    """One round of an example file, as written (sides are 0 for a, 1 for b).

    Attributes:
        number: the round (1, 2, ...).
        recon, morale: ``(side, roll total, line)`` for each roll given (DB-2, DB-8).
        cards: the cards dealt, side a's hand then side b's (DB-2).
        coin: ``(side, line)`` when a joker tie is settled by the coin (DB-3), else None.
        moves: ``(side, action, line)`` for each decision, in order.
        line: the line where the round starts; cards_line: the line of ``cards:``.
    """

    number: int
    recon: tuple[tuple[int, int, int], ...] = ()
    cards: tuple[Card, ...] = ()
    coin: tuple[int, int] | None = None
    moves: tuple[tuple[int, str, int], ...] = ()
    morale: tuple[tuple[int, int, int], ...] = ()
    line: int = 0
    cards_line: int = 0


@dataclass(frozen=True)
class Example:
    """A parsed example: the battle's start, its rounds as written, and what it must show.

    Attributes:
        start: the battle before the first roll (a :class:`TracedBattleState`).
        rounds: the rounds as written.
        expect: the expectations (mappings, as written, with line numbers under ``"_line"``).
        unfinished: whether the example stops before the battle ends.
    """

    title: str
    start: TracedBattleState
    rounds: tuple[RoundSpec, ...]
    expect: tuple[Mapping[str, Any], ...] = ()
    source: str = ""
    notes: str = ""
    unfinished: bool = False

    @property
    def names(self) -> tuple[str, str]:
        """The two armies' names, side a first."""
        return self.start.names


def _node_lines(node: yaml.Node | None, path: tuple[Any, ...] = (), out: dict | None = None) -> dict:
    """Map every path in the YAML tree (``("rounds", 0, "moves", 2)``) to its 1-based line."""
    out = {} if out is None else out
    if node is None:
        return out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value
            out[path + (name,)] = key.start_mark.line + 1
            _node_lines(value, path + (name,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _node_lines(item, path + (i,), out)
    return out


def _find_lines(text: str) -> dict:
    try:
        return _node_lines(yaml.compose(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:  # pragma: no cover - safe_load has already accepted the text
        return {}


def load_example(source: str | Path) -> Example:
    """Read a Durak battle example (a path, or the YAML text itself).

    Returns:
        The parsed :class:`Example`; :func:`replay` plays it.

    Raises:
        NotationError: every problem found (unknown keys, a bad army, leader, rule
            variant, card code, roll or move entry, an unknown army name), each with
            its line number.
    """
    data, text, where = read_example(source, "armies and rounds")
    lines = _find_lines(text)
    errors: list[str] = []

    def line_of(*path: Any) -> int:
        while path and path not in lines:
            path = path[:-1]
        return lines.get(path, 0)

    def err(message: str, *path: Any) -> None:
        line = line_of(*path) if path else 0
        errors.append(f"{where}:{line}: {message}" if line else f"{where}: {message}")

    for key in data:
        if key not in _TOP_KEYS:
            err(f"unknown key {key!r}; keys are {', '.join(sorted(_TOP_KEYS))}", key)
    if data.get("system", SYSTEM) != SYSTEM:
        err(f"system {data.get('system')!r} is not {SYSTEM!r}", "system")

    # -- rules and armies ----------------------------------------------------------------
    raw_rules = data.get("rules") or {}
    rules = Rules()
    if not isinstance(raw_rules, dict):
        err(f"rules must be a mapping of {', '.join(_RULE_KEYS)}", "rules")
    else:
        unknown = set(raw_rules) - set(_RULE_KEYS)
        if unknown:
            err(f"rules: unknown variant(s) {sorted(unknown)}; variants are {', '.join(_RULE_KEYS)}", "rules")
        try:
            rules = Rules(**{k: v for k, v in raw_rules.items() if k in _RULE_KEYS})
        except ToolkitError as exc:
            err(f"rules: {exc}", "rules")

    armies: list[Army | None] = []
    raw_armies = data.get("armies")
    if not isinstance(raw_armies, list) or len(raw_armies) != 2:
        err("armies must list two armies (side a, then side b), each with name, tokens and leader", "armies")
        raw_armies = []
    for i, raw in enumerate(raw_armies):
        armies.append(_army(raw, i, err))
    names = tuple(a.name if a is not None else f"army {SIDES[i]}" for i, a in enumerate(armies))
    if len(names) == 2 and names[0] == names[1]:
        err(f"the two armies need different names, both are {names[0]!r}", "armies", 1, "name")

    def side_of(who: Any, *path: Any) -> int | None:
        text_who = str(who).strip()
        for i, name in enumerate(names):
            if text_who == name:
                return i
        if text_who.lower() in SIDES:
            return SIDES.index(text_who.lower())
        err(f"{who!r} is not an army here: use {' or '.join(repr(n) for n in names)} (or a / b)", *path)
        return None

    # -- max_rounds, unfinished --------------------------------------------------------------
    unfinished = data.get("unfinished", False)
    if not isinstance(unfinished, bool):
        err(f"unfinished must be true or false, got {unfinished!r}", "unfinished")
        unfinished = False
    raw_rounds = data.get("rounds") or []
    if not isinstance(raw_rounds, list):
        err("rounds must be a list of rounds (recon, cards, moves, morale)", "rounds")
        raw_rounds = []
    default_rounds = 50 if unfinished else max(1, len(raw_rounds))
    max_rounds = data.get("max_rounds", default_rounds)
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        err(f"max_rounds must be a whole number of 1 or more, got {max_rounds!r}", "max_rounds")
        max_rounds = default_rounds
    elif max_rounds < len(raw_rounds):
        err(f"max_rounds is {max_rounds} but {len(raw_rounds)} rounds are listed", "max_rounds")

    # -- rounds ----------------------------------------------------------------------------
    rounds: list[RoundSpec] = []
    for r, raw in enumerate(raw_rounds):
        rounds.append(_round(raw, r, err, side_of, line_of))

    # -- expectations ----------------------------------------------------------------------
    expect: list[Mapping[str, Any]] = []
    raw_expect = data.get("expect") or []
    if not isinstance(raw_expect, list):
        err("expect must be a list of expectations", "expect")
        raw_expect = []
    for k, item in enumerate(raw_expect):
        if not isinstance(item, dict):
            err(f"an expectation is a mapping, got {item!r}", "expect", k)
            continue
        allowed = _ROUND_EXPECT_KEYS if "round" in item else _BATTLE_EXPECT_KEYS
        unknown = set(item) - allowed
        if unknown:
            kind = "a round's" if "round" in item else "the battle's (no 'round')"
            err(
                f"expect: unknown key(s) {sorted(unknown)} in {kind} expectation; keys are {sorted(allowed)}",
                "expect",
                k,
            )
            continue
        for key in ("lost", "morale", "tokens"):
            if key in item:
                if not isinstance(item[key], dict):
                    err(f"expect: {key} is a mapping of army name to value", "expect", k, key)
                    continue
                for who in item[key]:
                    side_of(who, "expect", k, key)
        expect.append({**item, "_line": line_of("expect", k)})

    if errors or any(a is None for a in armies) or len(armies) != 2:
        raise NotationError("\n".join(errors) or f"{where}: incomplete example")
    army_a, army_b = armies
    assert army_a is not None and army_b is not None
    try:
        start = traced(start_battle(army_a, army_b, rules, max_rounds=max_rounds))
    except ToolkitError as exc:
        raise NotationError(f"{where}: {exc}") from None
    return Example(
        str(data.get("title", where)),
        start,
        tuple(rounds),
        tuple(expect),
        where,
        str(data.get("notes", "") or ""),
        unfinished,
    )


def _army(raw: Any, i: int, err: Any) -> Army | None:
    side = SIDES[i]
    if not isinstance(raw, dict):
        err(f"army {side} must be a mapping with name, tokens and leader", "armies", i)
        return None
    for key in raw:
        if key not in _ARMY_KEYS:
            err(f"army {side}: unknown key {key!r}; keys are {', '.join(sorted(_ARMY_KEYS))}", "armies", i, key)
    leader_raw = raw.get("leader")
    if not isinstance(leader_raw, dict):
        err(
            f"army {side}: leader must be a mapping with name, battle_die, spirit_die (wild_card, modifiers)",
            "armies",
            i,
        )
        return None
    for key in leader_raw:
        if key not in _LEADER_KEYS:
            err(
                f"army {side}: leader: unknown key {key!r}; keys are {', '.join(sorted(_LEADER_KEYS))}",
                "armies",
                i,
                "leader",
                key,
            )
    mods = leader_raw.get("modifiers") or {}
    if not isinstance(mods, dict) or set(mods) - _MODIFIER_KEYS:
        err(f"army {side}: leader: modifiers is a mapping with battle and spirit, got {mods!r}", "armies", i, "leader")
        mods = {}
    try:
        leader = Leader(
            str(leader_raw.get("name", f"the leader of {raw.get('name', side)}")),
            battle_die=leader_raw.get("battle_die", 6),
            spirit_die=leader_raw.get("spirit_die", 6),
            wild_card=leader_raw.get("wild_card", True),
            battle_modifier=mods.get("battle", 0),
            spirit_modifier=mods.get("spirit", 0),
        )
        return Army(str(raw.get("name", "")), raw.get("tokens"), leader)  # type: ignore[arg-type]
    except ToolkitError as exc:
        err(f"army {side}: {exc}", "armies", i)
        return None


def _round(raw: Any, r: int, err: Any, side_of: Any, line_of: Any) -> RoundSpec:
    number = r + 1
    at = ("rounds", r)
    if not isinstance(raw, dict):
        err(f"round {number} must be a mapping with recon, cards, moves (coin, morale)", *at)
        return RoundSpec(number, line=line_of(*at))
    for key in raw:
        if key not in _ROUND_KEYS:
            err(f"round {number}: unknown key {key!r}; keys are {', '.join(sorted(_ROUND_KEYS))}", *at, key)

    def rolls(key: str) -> tuple[tuple[int, int, int], ...]:
        value = raw.get(key) or {}
        if not isinstance(value, dict):
            err(f"round {number}: {key} is a mapping of army name to roll total, e.g. {{North: 4, South: 3}}", *at, key)
            return ()
        out = []
        for who, total in value.items():
            side = side_of(who, *at, key, who)
            if isinstance(total, bool) or not isinstance(total, int):
                err(f"round {number}: {key}: {who}'s roll total must be a whole number, got {total!r}", *at, key, who)
                continue
            if side is not None:
                out.append((side, total, line_of(*at, key, who)))
        return tuple(out)

    recon, morale = rolls("recon"), rolls("morale")
    cards_raw = raw.get("cards", "")
    try:
        cards = parse_cards(" ".join(map(str, cards_raw)) if isinstance(cards_raw, list) else str(cards_raw or ""))
    except ToolkitError as exc:
        err(f"round {number}: cards: {exc}", *at, "cards")
        cards = ()
    coin = None
    if raw.get("coin") is not None:
        side = side_of(raw["coin"], *at, "coin")
        if side is not None:
            coin = (side, line_of(*at, "coin"))
    moves: list[tuple[int, str, int]] = []
    raw_moves = raw.get("moves") or []
    if not isinstance(raw_moves, list):
        err(f"round {number}: moves is a list of 'Army: action' entries", *at, "moves")
        raw_moves = []
    for k, entry in enumerate(raw_moves):
        if not (isinstance(entry, dict) and len(entry) == 1):
            err(f"round {number}: a move is one 'Army: action' pair, got {entry!r}", *at, "moves", k)
            continue
        ((who, action),) = entry.items()
        side = side_of(who, *at, "moves", k)
        if side is not None:
            moves.append((side, " ".join(str(action).split()), line_of(*at, "moves", k)))
    return RoundSpec(
        number, recon, cards, coin, tuple(moves), morale, line=line_of(*at), cards_line=line_of(*at, "cards")
    )


# -- playing an example ---------------------------------------------------------------------
@dataclass(frozen=True)
class PlannedMove:
    """One move of an example, as a stepper plays it.

    Attributes:
        chance: a chance step (typed as an outcome) or a decision (chosen).
        text: the outcome as typed (``"4"``, ``"10S 7S 6C 9H"`` for a whole hand, ``"b"``)
            or the action (``"attack 7S"``).
        label: what the step is, in words (``"North is dealt 10S 7S 6C 9H"``).
        line: the example file's line it comes from.
    """

    chance: bool
    text: str
    label: str
    line: int = 0


def plan_example(
    example: Example, start: TracedBattleState | None = None
) -> tuple[list[PlannedMove], list[TracedBattleState], str]:
    """Walk an example move by move from its start (or from ``start``, a changed setup).

    Returns:
        ``(moves, states, error)``: the moves a stepper plays (a whole hand dealt as one
        move), the state before each move and after the last (``len(moves) + 1`` states),
        and why the walk stopped early (``""`` if the example is played to its end).
    """
    state = start if start is not None else example.start
    where = example.source
    names = state.names
    plan: list[PlannedMove] = []
    states = [state]

    def fail(message: str, line: int = 0) -> tuple[list[PlannedMove], list[TracedBattleState], str]:
        return plan, states, f"{where}:{line}: {message}" if line else f"{where}: {message}"

    for n, spec in enumerate(example.rounds):
        last = n == len(example.rounds) - 1
        if state.is_terminal:
            return fail(f"round {spec.number} is listed but the battle is over ({outcome_text(state)})", spec.line)
        recon = {side: (total, line) for side, total, line in spec.recon}
        morale = {side: (total, line) for side, total, line in spec.morale}
        cards = list(spec.cards)
        moves = list(spec.moves)
        coin = spec.coin
        while not state.is_terminal and state.round_no == spec.number:
            move: PlannedMove | None = None
            if state.is_chance_node and state.stage == "morale" and moves:
                who, action, line = moves[0]
                return fail(f"round {spec.number}: the clash is over; move {names[who]}: {action!r} is left over", line)
            if state.is_chance_node:
                side = state.chance_side
                if state.stage in ("recon", "morale"):
                    given = recon if state.stage == "recon" else morale
                    trait = "Knowledge (Battle)" if state.stage == "recon" else "Spirit"
                    if side not in given:
                        if last and example.unfinished:
                            return plan, states, ""
                        return fail(
                            f"round {spec.number}: no {state.stage} roll for {names[side]} "
                            f"({trait}, {state.prompt()}): add {state.stage}: {{{names[side]}: TOTAL}}",
                            spec.line,
                        )
                    total, line = given.pop(side)
                    move = PlannedMove(True, str(total), f"{names[side]} rolls {trait}: {total}", line)
                elif state.stage == "deal":
                    wanted = state.roll_group()
                    if len(cards) < wanted and last and example.unfinished:
                        if not cards:
                            return plan, states, ""
                        wanted = len(cards)  # a hand dealt in part: deal what is written, then stop
                    if len(cards) < wanted:
                        return fail(
                            f"round {spec.number}: cards: {names[side]} draws {wanted} more card(s) (DB-2) but only "
                            f"{len(cards)} are left in the list",
                            spec.cards_line or spec.line,
                        )
                    hand, cards = cards[:wanted], cards[wanted:]
                    text = " ".join(c.code for c in hand)
                    move = PlannedMove(True, text, f"{names[side]} is dealt {text}", spec.cards_line)
                else:  # coin
                    if coin is None:
                        if last and example.unfinished:
                            return plan, states, ""
                        return fail(
                            f"round {spec.number}: the jokers tie (DB-3): add coin: {names[0]} or {names[1]}",
                            spec.line,
                        )
                    side, line = coin
                    coin = None
                    move = PlannedMove(True, SIDES[side], f"the coin gives {names[side]} the initiative", line)
            else:
                side = SIDES.index(state.current_player)
                if not moves:
                    if last and example.unfinished:
                        return plan, states, ""
                    return fail(
                        f"round {spec.number}: the moves end before the clash does, at: {state.prompt()}", spec.line
                    )
                who, action, line = moves.pop(0)
                if who != side:
                    return fail(f"the move is {names[side]}'s ({state.prompt()}), not {names[who]}'s: {action!r}", line)
                try:
                    parsed = state.parse_action(action)
                except ToolkitError as exc:
                    return fail(f"{names[who]}: {exc}", line)
                move = PlannedMove(False, str(parsed), f"{names[who]}: {parsed}", line)
            try:
                new = state.apply_all(state.parse_actions(move.text))
            except ToolkitError as exc:
                return fail(f"round {spec.number}: {move.label}: {exc}", move.line or spec.line)
            assert isinstance(new, TracedBattleState)
            plan.append(move)
            states.append(new)
            state = new
        # the round is over: anything left unused is a mistake in the file
        if cards:
            return fail(
                f"round {spec.number}: cards left over: {' '.join(c.code for c in cards)} (the hands are complete)",
                spec.cards_line or spec.line,
            )
        if moves:
            who, action, line = moves[0]
            over = "the battle is over" if state.is_terminal else "the clash is over"
            return fail(f"round {spec.number}: {over}; move {names[who]}: {action!r} is left over", line)
        if coin is not None:
            return fail(f"round {spec.number}: coin given but no jokers tied (DB-3)", coin[1])
        for given, what in ((recon, "recon"), (morale, "morale")):
            for side, (_, line) in given.items():
                return fail(
                    f"round {spec.number}: {what} roll for {names[side]} is left over "
                    + ("(the battle was over)" if state.is_terminal else "(no such roll this round)"),
                    line,
                )
    if not state.is_terminal and not example.unfinished:
        return fail(
            f"the example ends before the battle does, at: {state.prompt()} (round {state.round_no}); "
            "add the round, or write unfinished: true"
        )
    return plan, states, ""


def replay(example: Example) -> TracedBattleState:
    """Play an example out: its rolls and cards at chance steps, its moves at decisions.

    Returns:
        The state at the end of the battle (or where an ``unfinished`` example stops).

    Raises:
        NotationError: a move by the wrong army, a move the rules refuse (the message
            cites the ruling), missing or left-over rolls, cards or moves; each names the
            example's line.
    """
    _, states, error = plan_example(example)
    if error:
        raise NotationError(error)
    return states[-1]


# -- reading a played battle ------------------------------------------------------------------
@dataclass
class RoundRecord:
    """What happened in one round of a traced battle (sides 0 = a, 1 = b).

    Attributes:
        number: the round.
        recon, morale: roll totals by side, in the order rolled (DB-2, DB-8).
        cards: the cards dealt, side a's hand then side b's.
        coin: the side the coin gave the initiative to (DB-3), or None.
        moves: ``(side, action)`` for each decision.
        initiative: the side that took the initiative (DB-3), None if nobody could attack.
        lost: tokens lost in the clash (DB-7); tokens: tokens after the round.
        hand_sizes: the cards each side draws (DB-2).
        morale_result: per side, True (stays), False (retreats), None (did not roll).
    """

    number: int
    recon: dict[int, int] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    coin: int | None = None
    moves: list[tuple[int, str]] = field(default_factory=list)
    morale: dict[int, int] = field(default_factory=dict)
    initiative: int | None = None
    lost: tuple[int, int] = (0, 0)
    tokens: tuple[int, int] = (0, 0)
    morale_result: tuple[bool | None, bool | None] = (None, None)
    hand_sizes: tuple[int, int] = (0, 0)


def round_records(state: TracedBattleState) -> list[RoundRecord]:
    """Return what happened in each round of a traced battle, by replaying its trail from
    the start.

    Raises:
        IllegalActionError: ``state`` is not a :class:`TracedBattleState` built by :func:`traced`.
    """
    if not isinstance(state, TracedBattleState):
        raise IllegalActionError("this battle does not record its moves: start it with traced(start_battle(...))")
    walk = _start_of(state)
    records = [RoundRecord(1, tokens=(walk.armies[0].tokens, walk.armies[1].tokens))]

    def note(s: BattleState) -> None:
        rec = records[-1]
        if s.round_no != rec.number:
            return
        rec.lost = s.lost_clash
        rec.tokens = (s.armies[0].tokens, s.armies[1].tokens)
        if s.recon[1] is not None:
            rec.hand_sizes = s.hand_sizes
        if s.first_attacked is not None:
            rec.initiative = 1 - s.first_attacked

    for action in state.trail:
        rec = records[-1]
        if walk.is_chance_node:
            side = walk.chance_side
            if walk.stage == "recon":
                rec.recon[side] = int(action)  # type: ignore[call-overload]
            elif walk.stage == "morale":
                total = int(action)  # type: ignore[call-overload]
                rec.morale[side] = total
                penalty = morale_penalty(walk.rules, walk.lost_clash[side], walk.lost_battle[side])
                result = list(rec.morale_result)
                result[side] = morale_holds(total, penalty)  # DB-8
                rec.morale_result = (result[0], result[1])
            elif walk.stage == "deal":
                rec.cards.append(action)  # type: ignore[arg-type]
            else:
                rec.coin = SIDES.index(str(action))
        else:
            rec.moves.append((SIDES.index(walk.current_player), str(action)))
        walk = walk.apply(action)
        note(walk)
        if walk.round_no != rec.number:
            records.append(RoundRecord(walk.round_no, tokens=(walk.armies[0].tokens, walk.armies[1].tokens)))
    return records


def outcome_text(state: BattleState) -> str:
    """Return the battle's outcome with the armies' names: ``"North retreats"``,
    ``"South destroyed"``, ``"undecided"`` (max_rounds reached), or ``"unfinished"``."""
    if not state.is_terminal:
        return "unfinished"
    side, _, rest = state.outcome.partition(" ")
    if side in SIDES and rest:
        return f"{state.names[SIDES.index(side)]} {rest}"
    return state.outcome


def battle_summary(state: BattleState) -> str:
    """Return one sentence: the tokens left and the outcome (for ``toolkit replay``)."""
    a, b = state.armies
    result = outcome_text(state)
    winner = f"; {state.names[state.winner]} holds the field" if state.winner is not None else ""
    return f"After round {state.round_no}: {a.name} {a.tokens} token(s), {b.name} {b.tokens}; {result}{winner}."


def _by_name(names: tuple[str, str], mapping: Mapping[Any, Any]) -> dict[int, Any]:
    out = {}
    for who, value in mapping.items():
        text = str(who).strip()
        side = names.index(text) if text in names else SIDES.index(text.lower()) if text.lower() in SIDES else None
        if side is not None:
            out[side] = value
    return out


def check_expectations(example: Example, state: TracedBattleState) -> list[str]:
    """Return every expectation of the example the replayed battle does not meet (empty:
    all met). A round's ``lost`` is the tokens lost in its clash (DB-7), ``tokens`` the
    tokens after it, ``morale`` each army's ``stays``/``retreats`` (DB-8), ``initiative``
    the army that took it (DB-3, ``none`` if nobody could attack); the battle's
    ``outcome`` is :func:`outcome_text`, ``winner`` an army's name or ``none``."""
    records = {r.number: r for r in round_records(state)}
    names = state.names
    problems = []
    for item in example.expect:
        line = item.get("_line", 0)
        at = f"line {line}: " if line else ""
        if "round" in item:
            n = item["round"]
            rec = records.get(n)
            if rec is None:
                problems.append(f"{at}round {n}: the battle had {max(records)} round(s)")
                continue
            if "initiative" in item:
                got = names[rec.initiative] if rec.initiative is not None else "none"
                if str(item["initiative"]) != got:
                    problems.append(
                        f"{at}round {n}: {got} took the initiative, the example expects {item['initiative']}"
                    )
            for key, values in (("lost", rec.lost), ("tokens", rec.tokens)):
                for side, wanted in _by_name(names, item.get(key) or {}).items():
                    if values[side] != wanted:
                        what = "lost" if key == "lost" else "has"
                        problems.append(
                            f"{at}round {n}: {names[side]} {what} {values[side]} token(s), the example expects {wanted}"
                        )
            for side, wanted in _by_name(names, item.get("morale") or {}).items():
                got = _MORALE_WORDS.get(rec.morale_result[side], "does not roll")  # type: ignore[call-overload]
                if str(wanted) != got:
                    problems.append(f"{at}round {n}: {names[side]} {got} (DB-8), the example expects {wanted}")
        else:
            if "outcome" in item and str(item["outcome"]) != outcome_text(state):
                problems.append(f"{at}the outcome is {outcome_text(state)!r}, the example expects {item['outcome']!r}")
            if "winner" in item:
                got = names[state.winner] if state.winner is not None else "none"
                if str(item["winner"]) != got:
                    problems.append(f"{at}the winner is {got}, the example expects {item['winner']}")
            for side, wanted in _by_name(names, item.get("tokens") or {}).items():
                if state.armies[side].tokens != wanted:
                    problems.append(
                        f"{at}{names[side]} ends with {state.armies[side].tokens} token(s), "
                        f"the example expects {wanted}"
                    )
    return problems


# -- exporting --------------------------------------------------------------------------------
class _Flow(dict):
    """A mapping written on one line: ``{North: 4, South: 3}``."""


class _Dumper(yaml.SafeDumper):
    """The safe dumper, with list items indented under their key and :class:`_Flow`
    mappings on one line (so an export reads like a hand-written example)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


_Dumper.add_representer(
    _Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)
)


def _army_data(army: Army) -> dict[str, Any]:
    leader = army.leader
    data: dict[str, Any] = _Flow(
        name=leader.name,
        battle_die=f"d{leader.battle_die}",
        spirit_die=f"d{leader.spirit_die}",
        wild_card=leader.wild_card,
    )
    if leader.battle_modifier or leader.spirit_modifier:
        data["modifiers"] = _Flow(battle=leader.battle_modifier, spirit=leader.spirit_modifier)
    return {"name": army.name, "tokens": army.tokens, "leader": data}


def _hands_text(cards: Iterable[Card], first: int) -> str:
    codes = [c.code for c in cards]
    a, b = " ".join(codes[:first]), " ".join(codes[first:])
    return f"{a}  {b}".strip() if a and b else a or b


def to_example(state: BattleState, title: str = "A Durak battle") -> str:
    """Return the YAML example that replays ``state`` — what the stepper's Export writes.

    The rounds are the rolls, cards, coins and decisions of ``state.trail``; the
    expectations are what happened (each finished round's initiative, tokens lost and
    morale; the outcome and final tokens when the battle is over), so replaying the file
    checks them. A battle not yet over is written with ``unfinished: true`` and its
    ``max_rounds``.

    Raises:
        IllegalActionError: ``state`` does not record its moves (not a :class:`TracedBattleState`).
    """
    if not isinstance(state, TracedBattleState) or state.start_armies is None:
        raise IllegalActionError("this battle does not record its moves: start it with traced(start_battle(...))")
    records = round_records(state)
    names = state.names
    data: dict[str, Any] = {"system": SYSTEM, "title": title}
    if state.rules != Rules():
        data["rules"] = _Flow((k, getattr(state.rules, k)) for k in _RULE_KEYS)
    data["armies"] = [_army_data(a) for a in state.start_armies]
    # a round that has not begun (no roll yet) is left out, except an empty first round
    played = [r for r in records if r.recon or r.number == 1]
    if not state.is_terminal:
        data["unfinished"] = True
        data["max_rounds"] = state.max_rounds
    rounds = []
    for rec in played:
        entry: dict[str, Any] = {}
        if rec.recon:
            entry["recon"] = _Flow((names[s], t) for s, t in rec.recon.items())
        if rec.cards:
            entry["cards"] = _hands_text(rec.cards, rec.hand_sizes[0])
        if rec.coin is not None:
            entry["coin"] = names[rec.coin]
        if rec.moves:
            entry["moves"] = [{names[s]: action} for s, action in rec.moves]
        if rec.morale:
            entry["morale"] = _Flow((names[s], t) for s, t in rec.morale.items())
        rounds.append(entry)
    data["rounds"] = rounds
    expect: list[dict[str, Any]] = []
    for rec in played:
        if rec.number == state.round_no and not state.is_terminal:
            continue  # the round is still being played
        item: dict[str, Any] = _Flow(round=rec.number)
        item["initiative"] = names[rec.initiative] if rec.initiative is not None else "none"
        item["lost"] = _Flow(((names[0], rec.lost[0]), (names[1], rec.lost[1])))
        rolled = _Flow(
            (names[s], _MORALE_WORDS[rec.morale_result[s]]) for s in rec.morale if rec.morale_result[s] is not None
        )
        if rolled:
            item["morale"] = rolled
        expect.append(item)
    if state.is_terminal:
        final = _Flow(outcome=outcome_text(state))
        if state.winner is not None:
            final["winner"] = names[state.winner]
        final["tokens"] = _Flow(((names[0], state.armies[0].tokens), (names[1], state.armies[1].tokens)))
        expect.append(final)
    if expect:
        data["expect"] = expect
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)
