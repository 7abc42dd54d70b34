"""Rule-book examples as data: a readable YAML notation for a whole Durak mass battle.

An example file holds the two armies and their leaders, the rule variants, and for every
round what chance gave (the Knowledge (Battle) roll totals, the cards dealt — side a's
hand then side b's —, the coin of a joker tie, the Spirit roll totals) and the decisions
in order; optional expectations are checked by :func:`check_expectations` and by
``toolkit replay FILE``::

    system: durak-battle
    title: A counterattack chain
    rules: {counter_tie: no_loss}          # optional: fields of Rules, or a house-rules file (rules: cheap_strikes)
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

Reading, the line map, error collection and the plan loop are :mod:`toolkit.notation`'s
(files are data: ``yaml.safe_load`` only); a move the rules refuse stops the replay at its line.

A battle's rounds are read off its history (:attr:`~toolkit.engine.GameState.history`,
every roll, card, coin and decision since the state it started from, which every engine
state keeps): :func:`round_records` plays it again, and :func:`to_example` exports it.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.cards import Card, parse_cards
from toolkit.durak_battle.engine import BattleState, start_battle
from toolkit.durak_battle.rules import SIDES, Army, Leader
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
from toolkit.whole_numbers import is_whole_number

__all__ = [
    "NOTATION",
    "SYSTEM",
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

#: How an army of the file is named before its name is read: by its place in ``armies``.
_ORDINAL = ("the first army", "the second army")
_TOP_KEYS = {"system", "title", "notes", "rules", "armies", "rounds", "expect", "max_rounds", "unfinished"}
_ARMY_KEYS = {"name", "tokens", "leader"}
_LEADER_KEYS = {"name", "battle_die", "spirit_die", "wild_card", "modifiers"}
_MODIFIER_KEYS = {"battle", "spirit"}
_ROUND_KEYS = {"recon", "cards", "coin", "moves", "morale"}
_ROUND_EXPECT_KEYS = {"round", "initiative", "lost", "morale", "tokens"}
_BATTLE_EXPECT_KEYS = {"outcome", "winner", "tokens"}
_MORALE_WORDS = {True: "stays", False: "retreats"}
#: A side's morale in a round where it did not roll (DB-8: the other side retreated first;
#: DB-3: no clash that round): what the checker reports, so an example may expect it too.
_NO_ROLL = "does not roll"
#: Every morale word an expectation may hold: each one the checker can find.
_MORALE_EXPECTED = (*_MORALE_WORDS.values(), _NO_ROLL)
MAX_ROUNDS = 1000  # the most rounds an example may play (a battle of tokens ends long before)


def _start_of(state: BattleState) -> BattleState:
    """Return the start of the battle ``state``'s history plays from: a battle as
    :func:`~toolkit.durak_battle.engine.start_battle` builds it, before the first roll.

    Raises:
        IllegalActionError: the history starts elsewhere (a clash on its own, or a state
            built in the middle of a battle), so its rounds cannot be written from round 1.
    """
    start = state.history_start
    assert isinstance(start, BattleState)
    if start.clash_only or start.round_no != 1 or start.stage != "recon" or start.recon != (None, None):
        raise IllegalActionError(
            "this battle's history does not begin before round 1's recon rolls (it starts in round "
            f"{start.round_no}, at the {start.stage} step): start it with start_battle(...) and play it from there"
        )
    return start


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
        start: the battle before the first roll (a :class:`~toolkit.durak_battle.engine.BattleState`).
        rounds: the rounds as written.
        expect: the expectations (mappings, as written, with line numbers under ``"_line"``).
        unfinished: whether the example stops before the battle ends.
    """

    title: str
    start: BattleState
    rounds: tuple[RoundSpec, ...]
    expect: tuple[Mapping[str, Any], ...] = ()
    source: str = ""
    notes: str = ""
    unfinished: bool = False

    @property
    def names(self) -> tuple[str, str]:
        """The two armies' names, side a first."""
        return self.start.names


class _Sides:
    """Reads who a file names (an army's name, or ``a``/``b``) as a side, recording an
    error at the path given when it is neither."""

    def __init__(self, names: tuple[str, ...], errors: ParseErrors) -> None:
        self.names = names
        self.errors = errors

    def side_of(self, who: Any, *path: Any) -> int | None:
        text_who = str(who).strip()
        for i, name in enumerate(self.names):
            if text_who == name:
                return i
        if text_who.lower() in SIDES:
            return SIDES.index(text_who.lower())
        if not self.names:  # the armies could not be read: that error is already recorded
            return None
        self.errors.add(
            f"{excerpt(who)} is not an army here: use {' or '.join(repr(n) for n in self.names)} (or a / b)", *path
        )
        return None


def load_example(source: str | Path) -> Example:
    """Read a Durak battle example (a path, or the YAML text itself).

    Returns:
        The parsed :class:`Example`; :func:`replay` plays it.

    Raises:
        NotationError: every problem found (unknown keys, a bad army, leader, rule
            variant, card code, roll or move entry, an unknown army name), each with
            its line number.
    """
    source_ = read_example(source, "armies and rounds")
    data, where = source_.data, source_.where
    errors = source_.checked(_TOP_KEYS, SYSTEM)
    rules = read_rules_entry(SYSTEM, data.get("rules"), errors, example_folder(where))
    armies = _armies(data.get("armies"), errors)
    sides = _Sides(_side_names(armies, data.get("armies")), errors)
    unfinished = errors.yes_no(data.get("unfinished"), "unfinished", "unfinished")
    raw_rounds = data.get("rounds") or []
    if not isinstance(raw_rounds, list):
        errors.add("rounds must be a list of rounds (recon, cards, moves, morale)", "rounds")
        raw_rounds = []
    max_rounds = _max_rounds(data, 50 if unfinished else max(1, len(raw_rounds)), len(raw_rounds), errors)
    rounds = [_round(raw, r, errors, sides) for r, raw in enumerate(raw_rounds)]
    expect = _expectations(data.get("expect") or [], errors, sides)
    errors.raise_if_any(incomplete=any(a is None for a in armies) or len(armies) != 2)
    army_a, army_b = armies
    assert army_a is not None and army_b is not None
    try:
        start = start_battle(army_a, army_b, rules, max_rounds=max_rounds)
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


def _side_names(armies: list[Army | None], raw: Any) -> tuple[str, ...]:
    """The armies' names (as written for one that cannot be read; none without two armies)."""
    written = [r.get("name") if isinstance(r, dict) else None for r in (raw or [])]
    names = [a.name if a is not None else n for a, n in zip(armies, written, strict=False)]
    return tuple(n if isinstance(n, str) and 0 < len(n) <= 100 else _ORDINAL[i] for i, n in enumerate(names))


def _armies(raw_armies: Any, errors: ParseErrors) -> list[Army | None]:
    """The two armies (None for one that cannot be read; an empty list if not two)."""
    if not isinstance(raw_armies, list) or len(raw_armies) != 2:
        errors.add("armies must list two armies (side a, then side b), each with name, tokens and leader", "armies")
        return []
    armies = [_army(raw, i, errors) for i, raw in enumerate(raw_armies)]
    names = [a.name if a is not None else _ORDINAL[i] for i, a in enumerate(armies)]
    if names[0] == names[1]:
        errors.add(f"the two armies need different names, both are {excerpt(names[0])}", "armies", 1, "name")
    return armies


def _max_rounds(data: Mapping[str, Any], default: int, listed: int, errors: ParseErrors) -> int:
    """The most rounds the battle lasts (default: the rounds listed; 50 if unfinished)."""
    max_rounds = errors.whole(data.get("max_rounds"), "max_rounds", "max_rounds", low=1, high=MAX_ROUNDS)
    if max_rounds is not None and max_rounds < listed:
        errors.add(f"max_rounds is {max_rounds} but {listed} rounds are listed", "max_rounds")
    return default if max_rounds is None else max_rounds


def _expectations(raw_expect: Any, errors: ParseErrors, sides: _Sides) -> list[Mapping[str, Any]]:
    """The expectations as written (their values checked), each with its line under ``"_line"``."""
    if not isinstance(raw_expect, list):
        errors.add("expect must be a list of expectations", "expect")
        return []
    expect: list[Mapping[str, Any]] = []
    for k, item in enumerate(raw_expect):
        at, before = ("expect", k), len(errors.messages)
        if not isinstance(item, dict):
            errors.add(f"an expectation is a mapping, got {excerpt(item)}", *at)
            continue
        allowed = _ROUND_EXPECT_KEYS if "round" in item else _BATTLE_EXPECT_KEYS
        if set(item) - allowed:
            kind = "a round's" if "round" in item else "the battle's (no 'round')"
            extra = sorted(map(str, set(item) - allowed))
            unknown = f"unknown {'key' if len(extra) == 1 else 'keys'} {excerpt(extra)}"
            errors.add(f"expect: {unknown} in {kind} expectation; keys are {sorted(allowed)}", *at)
            continue
        if "round" in item:
            errors.whole(item["round"], "expect: round", *at, "round", low=1, high=MAX_ROUNDS)
        for key in [key for key in ("initiative", "outcome", "winner") if key in item]:
            errors.text(item[key], f"expect: {key}", *at, key, limit=200)
        for key in [key for key in ("lost", "morale", "tokens") if key in item]:
            if not isinstance(item[key], dict):
                errors.add(f"expect: {key} is a mapping of army name to value", *at, key)
                continue
            for who, value in item[key].items():
                sides.side_of(who, *at, key)
                if key != "morale":
                    errors.whole(value, f"expect: {key}", *at, key, high=10**4)
                elif value not in _MORALE_EXPECTED:
                    errors.add(
                        f"expect: morale is {', '.join(_MORALE_EXPECTED[:-1])} or {_MORALE_EXPECTED[-1]} (DB-8), "
                        f"got {excerpt(value)}",
                        *at,
                        key,
                    )
        if len(errors.messages) == before:
            expect.append({**item, "_line": errors.lines.line(*at)})
    return expect


def _army(raw: Any, i: int, errors: ParseErrors) -> Army | None:
    side, at = _ORDINAL[i], ("armies", i)
    if not isinstance(raw, dict) or not isinstance(raw.get("leader"), dict):
        errors.add(f"{side} must be a mapping with name, tokens and leader (name, battle_die, ...)", *at)
        return None
    errors.check_keys(raw, _ARMY_KEYS, f"{side}: ", *at)
    lead, mods = raw["leader"], raw["leader"].get("modifiers") or {}
    errors.check_keys(lead, _LEADER_KEYS, f"{side}: leader: ", *at, "leader")
    if not isinstance(mods, dict) or set(mods) - _MODIFIER_KEYS:
        errors.add(f"{side}: leader: modifiers is a mapping with battle and spirit, got {excerpt(mods)}", *at)
        mods = {}
    before, what = len(errors.messages), f"{side}: leader: "
    name = errors.text(raw.get("name"), f"{side}: name", *at, "name", limit=100)
    dice = {k: errors.text(lead.get(k, 6), what + k, *at, "leader", k, limit=10) for k in ("battle_die", "spirit_die")}
    modifier = {f"{k}_modifier": errors.whole(mods[k], what + k, *at, "leader", low=-99, high=99) for k in mods}
    wild_card = errors.yes_no(lead.get("wild_card"), what + "wild_card", *at, "leader", "wild_card", default=True)
    tokens = errors.whole(raw.get("tokens"), f"{side}: tokens", *at, "tokens", high=10**4)
    leader_name = errors.text(lead.get("name"), what + "name", *at, "leader", default=f"the leader of {name}")
    if len(errors.messages) > before:
        return None
    try:
        die = {k: int(v) if v.isdigit() else v for k, v in dice.items()}  # 6 or "d6"
        leader = Leader(leader_name, die["battle_die"], die["spirit_die"], wild_card, **modifier)
        return Army(name, tokens, leader)  # type: ignore[arg-type]
    except ToolkitError as exc:
        errors.add(f"{side}: {exc}", *at)
        return None


def _rolls(raw: Mapping[str, Any], key: str, number: int, errors: ParseErrors, sides: _Sides) -> tuple:
    """The roll totals of a round's ``recon`` or ``morale``: ``(side, total, line)``."""
    at = ("rounds", number - 1)
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        errors.add(
            f"round {number}: {key} is a mapping of army name to roll total, e.g. {{North: 4, South: 3}}", *at, key
        )
        return ()
    out = []
    for who, total in value.items():
        side = sides.side_of(who, *at, key, who)
        if not is_whole_number(total):
            errors.add(
                f"round {number}: {key}: {who}'s roll total must be a whole number, got {excerpt(total)}", *at, key, who
            )
            continue
        if side is not None:
            out.append((side, total, errors.lines.line(*at, key, who)))
    return tuple(out)


def _round(raw: Any, r: int, errors: ParseErrors, sides: _Sides) -> RoundSpec:
    number = r + 1
    at = ("rounds", r)
    line_of = errors.lines.line
    if not isinstance(raw, dict):
        errors.add(f"round {number} must be a mapping with recon, cards, moves (coin, morale)", *at)
        return RoundSpec(number, line=line_of(*at))
    errors.check_keys(raw, _ROUND_KEYS, f"round {number}: ", *at)
    recon, morale = _rolls(raw, "recon", number, errors, sides), _rolls(raw, "morale", number, errors, sides)
    cards_raw = raw.get("cards", "")
    try:
        cards = parse_cards(" ".join(map(str, cards_raw)) if isinstance(cards_raw, list) else str(cards_raw or ""))
    except ToolkitError as exc:
        errors.add(f"round {number}: cards: {exc}", *at, "cards")
        cards = ()
    coin = None
    if raw.get("coin") is not None:
        side = sides.side_of(raw["coin"], *at, "coin")
        if side is not None:
            coin = (side, line_of(*at, "coin"))
    moves: list[tuple[int, str, int]] = []
    raw_moves = raw.get("moves") or []
    if not isinstance(raw_moves, list):
        errors.add(f"round {number}: moves is a list of 'Army: action' entries", *at, "moves")
        raw_moves = []
    for k, entry in enumerate(raw_moves):
        if not (isinstance(entry, dict) and len(entry) == 1):
            errors.add(f"round {number}: a move is one 'Army: action' pair, got {excerpt(entry)}", *at, "moves", k)
            continue
        ((who, action),) = entry.items()
        side = sides.side_of(who, *at, "moves", k)
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
    example: Example, start: BattleState | None = None
) -> tuple[list[PlannedMove], list[BattleState], str]:
    """Walk an example move by move from its start (or from ``start``, a changed setup).

    Returns:
        ``(moves, states, error)``: the moves a stepper plays (a whole hand dealt as one
        move), the state before each move and after the last (``len(moves) + 1`` states),
        and why the walk stopped early (``""`` if the example is played to its end).
        The loop is the shared :func:`toolkit.notation.follow_plan`.
    """
    where = example.source

    def apply(state: BattleState, move: PlannedMove) -> BattleState:
        try:
            new = state.apply_all(state.parse_actions(move.text))
        except ToolkitError as exc:
            raise PlanStop(at_line(where, move.line, f"round {state.round_no}: {move.label}: {exc}")) from None
        assert isinstance(new, BattleState)
        return new

    return follow_plan(start if start is not None else example.start, lambda s: _planner(example, s), apply)


@dataclass
class _RoundLeft:
    """What a round of the file still has to give while it is played (sides 0, 1):
    roll totals ``{side: (total, line)}``, cards, moves and the coin."""

    spec: RoundSpec
    where: str
    names: tuple[str, str]
    open_end: bool  # the file's last round of an unfinished example: may stop anywhere
    recon: dict[int, tuple[int, int]] = field(default_factory=dict)
    morale: dict[int, tuple[int, int]] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    moves: list[tuple[int, str, int]] = field(default_factory=list)
    coin: tuple[int, int] | None = None

    @classmethod
    def of(cls, spec: RoundSpec, where: str, names: tuple[str, str], open_end: bool) -> _RoundLeft:
        recon, morale = ({side: (total, line) for side, total, line in rolls} for rolls in (spec.recon, spec.morale))
        return cls(spec, where, names, open_end, recon, morale, list(spec.cards), list(spec.moves), spec.coin)

    def stop(self, message: str, line: int | None = None) -> PlanStop:
        """The error that stops the walk in this round (at the round's line by default)."""
        return PlanStop(at_line(self.where, self.spec.line if line is None else line, message))


def _planner(example: Example, state: BattleState) -> Generator[PlannedMove, BattleState, None]:
    """Yield the example's moves round by round, receiving the state each led to."""
    names = state.names
    for n, spec in enumerate(example.rounds):
        left = _RoundLeft.of(spec, example.source, names, n == len(example.rounds) - 1 and example.unfinished)
        if state.is_terminal:
            raise left.stop(f"round {spec.number} is listed but the battle is over ({outcome_text(state)})")
        while not state.is_terminal and state.round_no == spec.number:
            move = _next_move(state, left)
            if move is None:
                return  # an unfinished example stops where its data does
            state = yield move
        _check_round_used(state, left)
    if not state.is_terminal and not example.unfinished:
        raise PlanStop(
            f"{example.source}: the example ends before the battle does, at: {state.prompt()} "
            f"(round {state.round_no}); add the round, or write unfinished: true"
        )


def _next_move(state: BattleState, left: _RoundLeft) -> PlannedMove | None:
    """The next move of the round, or None where an unfinished example's data ends."""
    number = left.spec.number
    if state.is_chance_node and state.stage == "morale" and left.moves:
        who, action, line = left.moves[0]
        raise left.stop(f"round {number}: the clash is over; {left.names[who]}: {excerpt(action)} is left over", line)
    if not state.is_chance_node:
        return _decision_move(state, left)
    if state.stage in ("recon", "morale"):
        return _roll_move(state, left)
    if state.stage == "deal":
        return _deal_move(state, left)
    return _coin_move(left)


def _roll_move(state: BattleState, left: _RoundLeft) -> PlannedMove | None:
    """A Knowledge (Battle) roll (DB-2) or a Spirit roll (DB-8), as the file gives it."""
    side = state.chance_side
    given = left.recon if state.stage == "recon" else left.morale
    trait = "Knowledge (Battle)" if state.stage == "recon" else "Spirit"
    if side not in given:
        if left.open_end:
            return None
        name = left.names[side]
        raise left.stop(
            f"round {left.spec.number}: no {state.stage} roll for {name} "
            f"({trait}, {state.prompt()}): add {state.stage}: {{{name}: TOTAL}}"
        )
    total, line = given.pop(side)
    return PlannedMove(True, str(total), f"{left.names[side]} rolls {trait}: {excerpt(total)}", line)


def _deal_move(state: BattleState, left: _RoundLeft) -> PlannedMove | None:
    """A whole hand dealt (DB-2): the next cards of the round's list."""
    side = state.chance_side
    wanted = state.roll_group()
    if len(left.cards) < wanted and left.open_end:
        if not left.cards:
            return None
        wanted = len(left.cards)  # a hand dealt in part: deal what is written, then stop
    spec = left.spec
    if len(left.cards) < wanted:
        raise left.stop(
            f"round {spec.number}: cards: {left.names[side]} draws {count(wanted, 'more card', 'more cards')} (DB-2) "
            f"but only {len(left.cards)} {'is' if len(left.cards) == 1 else 'are'} left in the list",
            spec.cards_line or spec.line,
        )
    hand, left.cards = left.cards[:wanted], left.cards[wanted:]
    text = " ".join(c.code for c in hand)
    return PlannedMove(True, text, f"{left.names[side]} is dealt {text}", spec.cards_line)


def _coin_move(left: _RoundLeft) -> PlannedMove | None:
    """The coin of a joker tie (DB-3)."""
    if left.coin is None:
        if left.open_end:
            return None
        names = left.names
        raise left.stop(f"round {left.spec.number}: the jokers tie (DB-3): add coin: {names[0]} or {names[1]}")
    side, line = left.coin
    left.coin = None
    return PlannedMove(True, SIDES[side], f"the coin gives {left.names[side]} the initiative", line)


def _decision_move(state: BattleState, left: _RoundLeft) -> PlannedMove | None:
    """The file's next decision, which must be the side to move's (DB-4..DB-6)."""
    side = SIDES.index(state.current_player)
    names = left.names
    if not left.moves:
        if left.open_end:
            return None
        raise left.stop(f"round {left.spec.number}: the moves end before the clash does, at: {state.prompt()}")
    who, action, line = left.moves.pop(0)
    if who != side:
        raise left.stop(f"the move is {names[side]}'s ({state.prompt()}), not {names[who]}'s: {excerpt(action)}", line)
    try:
        parsed = state.parse_action(action)
    except ToolkitError as exc:
        raise left.stop(f"{names[who]}: {exc}", line) from None
    return PlannedMove(False, str(parsed), f"{names[who]}: {parsed}", line)


def _check_round_used(state: BattleState, left: _RoundLeft) -> None:
    """The round is over: anything of it left unused is a mistake in the file."""
    spec, names = left.spec, left.names
    if left.cards:
        raise left.stop(
            f"round {spec.number}: cards left over: {' '.join(c.code for c in left.cards)} (the hands are complete)",
            spec.cards_line or spec.line,
        )
    if left.moves:
        who, action, line = left.moves[0]
        over = "the battle is over" if state.is_terminal else "the clash is over"
        raise left.stop(f"round {spec.number}: {over}; move {names[who]}: {excerpt(action)} is left over", line)
    if left.coin is not None:
        raise left.stop(f"round {spec.number}: coin given but no jokers tied (DB-3)", left.coin[1])
    for given, what in ((left.recon, "recon"), (left.morale, "morale")):
        for side, (_, line) in given.items():
            raise left.stop(
                f"round {spec.number}: {what} roll for {names[side]} is left over "
                + ("(the battle was over)" if state.is_terminal else "(no such roll this round)"),
                line,
            )


def replay(example: Example) -> BattleState:
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
    """What happened in one round of a battle (sides 0 = a, 1 = b).

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


def round_records(state: BattleState) -> list[RoundRecord]:
    """Return what happened in each round of a battle, by playing its history again from
    its start.

    Raises:
        IllegalActionError: ``state`` is not a battle, or its history does not begin at the
            battle's start (see :func:`to_example`).
    """
    if not isinstance(state, BattleState):
        raise IllegalActionError(f"round_records reads a Durak battle (a BattleState), got {type(state).__name__}")
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

    for action in state.history:
        rec = records[-1]
        if walk.is_chance_node:
            side = walk.chance_side
            if walk.stage == "recon":
                rec.recon[side] = int(action)  # type: ignore[call-overload]
            elif walk.stage == "morale":
                rec.morale[side] = int(action)  # type: ignore[call-overload]
            elif walk.stage == "deal":
                rec.cards.append(action)  # type: ignore[arg-type]
            else:
                rec.coin = SIDES.index(str(action))
        else:
            rec.moves.append((SIDES.index(walk.current_player), str(action)))
        before, walk = walk, walk.apply(action)
        if before.is_chance_node and before.stage == "morale":
            rec.morale_result = _morale_result(rec.morale_result, before.chance_side, before, walk)
        note(walk)
        if walk.round_no != rec.number:
            records.append(RoundRecord(walk.round_no, tokens=(walk.armies[0].tokens, walk.armies[1].tokens)))
    return records


def _morale_result(
    results: tuple[bool | None, bool | None], side: int, before: BattleState, after: BattleState
) -> tuple[bool | None, bool | None]:
    """``results`` with the engine's verdict on ``side``'s morale roll (DB-8), read from the state after it."""
    out = list(results)
    out[side] = after.morale[side] if after.round_no == before.round_no else True  # both stayed: next round
    return (out[0], out[1])


def outcome_text(state: BattleState) -> str:
    """Return the battle's outcome with the armies' names: ``"North retreats"``,
    ``"South destroyed"``, ``"undecided"`` (max_rounds reached), or ``"unfinished"``."""
    return state.result_text()


def battle_summary(state: BattleState) -> str:
    """Return one sentence: the tokens left and the outcome (for ``toolkit replay``)."""
    a, b = state.armies
    result = outcome_text(state)
    winner = f"; {state.names[state.winner]} holds the field" if state.winner is not None else ""
    return f"After round {state.round_no}: {a.name} {count(a.tokens, 'token')}, {b.name} {b.tokens}; {result}{winner}."


def _by_name(names: tuple[str, str], mapping: Mapping[Any, Any]) -> dict[int, Any]:
    sides = _Sides(names, ParseErrors(""))  # load_example has already reported unknown names
    return {side: value for who, value in mapping.items() if (side := sides.side_of(who)) is not None}


def _morale_word(result: bool | None) -> str:
    """A side's morale in a round, as an example writes it: stays, retreats or does not roll (DB-8)."""
    return _NO_ROLL if result is None else _MORALE_WORDS[result]


def check_expectations(example: Example, state: BattleState) -> list[str]:
    """Return every expectation of the example the replayed battle does not meet (empty:
    all met). A round's ``lost`` is the tokens lost in its clash (DB-7), ``tokens`` the
    tokens after it, ``morale`` each army's ``stays``/``retreats``/``does not roll`` (DB-8), ``initiative``
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
                problems.append(f"{at}round {n}: the battle had {count(max(records), 'round')}")
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
                            f"{at}round {n}: {names[side]} {what} {count(values[side], 'token')}, "
                            f"the example expects {wanted}"
                        )
            for side, wanted in _by_name(names, item.get("morale") or {}).items():
                got = _morale_word(rec.morale_result[side])
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
                        f"{at}{names[side]} ends with {count(state.armies[side].tokens, 'token')}, "
                        f"the example expects {wanted}"
                    )
    return problems


# -- exporting --------------------------------------------------------------------------------
def _army_data(army: Army) -> dict[str, Any]:
    leader = army.leader
    data: dict[str, Any] = FlowMap(
        name=leader.name,
        battle_die=f"d{leader.battle_die}",
        spirit_die=f"d{leader.spirit_die}",
        wild_card=leader.wild_card,
    )
    if leader.battle_modifier or leader.spirit_modifier:
        data["modifiers"] = FlowMap(battle=leader.battle_modifier, spirit=leader.spirit_modifier)
    return {"name": army.name, "tokens": army.tokens, "leader": data}


def _hands_text(cards: Iterable[Card], first: int) -> str:
    codes = [c.code for c in cards]
    a, b = " ".join(codes[:first]), " ".join(codes[first:])
    return f"{a}  {b}".strip() if a and b else a or b


def to_example(state: BattleState, title: str = "A Durak battle") -> str:
    """Return the YAML example that replays ``state`` — what the stepper's Export writes.

    The rounds are the rolls, cards, coins and decisions of ``state.history``; the
    expectations are what happened (each finished round's initiative, tokens lost and
    morale; the outcome and final tokens when the battle is over), so replaying the file
    checks them. A battle not yet over is written with ``unfinished: true`` and its
    ``max_rounds``.

    Raises:
        IllegalActionError: ``state`` is not a battle, or its history does not begin at the
            battle's start (a clash on its own, a state built mid-battle).
    """
    records = round_records(state)
    names = state.names
    # a round that has not begun (no roll yet) is left out, except an empty first round
    played = [r for r in records if r.recon or r.number == 1]
    rounds = []
    for rec in played:
        entry: dict[str, Any] = {}
        if rec.recon:
            entry["recon"] = FlowMap((names[s], t) for s, t in rec.recon.items())
        if rec.cards:
            entry["cards"] = _hands_text(rec.cards, rec.hand_sizes[0])
        if rec.coin is not None:
            entry["coin"] = names[rec.coin]
        if rec.moves:
            entry["moves"] = [{names[s]: action} for s, action in rec.moves]
        if rec.morale:
            entry["morale"] = FlowMap((names[s], t) for s, t in rec.morale.items())
        rounds.append(entry)
    expect: list[dict[str, Any]] = []
    for rec in played:
        if rec.number == state.round_no and not state.is_terminal:
            continue  # the round is still being played
        item: dict[str, Any] = FlowMap(round=rec.number)
        item["initiative"] = names[rec.initiative] if rec.initiative is not None else "none"
        item["lost"] = FlowMap(((names[0], rec.lost[0]), (names[1], rec.lost[1])))
        # each side's morale as the checker reads it: a side that rolled stays or retreats;
        # one that did not (its side retreated first, or there was no clash) "does not roll"
        item["morale"] = FlowMap(
            [(names[s], _morale_word(rec.morale_result[s])) for s in rec.morale]
            + [(names[s], _NO_ROLL) for s in (0, 1) if s not in rec.morale]
        )
        expect.append(item)
    if state.is_terminal:
        final = FlowMap(outcome=outcome_text(state))
        if state.winner is not None:
            final["winner"] = names[state.winner]
        final["tokens"] = FlowMap(((names[0], state.armies[0].tokens), (names[1], state.armies[1].tokens)))
        expect.append(final)
    return write_example(
        SYSTEM,
        title,
        state.rules,
        {"armies": [_army_data(a) for a in _start_of(state).armies]},
        {"rounds": rounds},
        expect or None,
        finished=state.is_terminal,
        open_end={"max_rounds": state.max_rounds},
    )


#: The Durak battle notation, as the registry of systems (:mod:`toolkit.systems`) uses it.
NOTATION = ExampleNotation(SYSTEM, load_example, replay, check_expectations, to_example, battle_summary, plan_example)
