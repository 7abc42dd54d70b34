"""The coin duel's example notation::

system: coin-duel
title: Ann wins after a tie
sides: {Ann: 2, Bo: 2}          # each side's name and pool (CD-1)
rules: {tie_rerolls: 1}         # optional: any Rules field
flips: [1, 1, 2, 0]             # the heads of each flip, in the engine's order
expect: {winner: Ann, rerolls: 1}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coin_duel.engine import DuelState, start_duel
from coin_duel.rules import Rules
from toolkit.errors import NotationError, ToolkitError
from toolkit.house_rules import example_folder, read_rules_entry
from toolkit.notation import ExampleNotation, FlowMap, PlanStop, dump_example, follow_plan, read_example

__all__ = ["NOTATION", "Example", "load_example"]

SYSTEM = "coin-duel"
_KEYS = ("system", "title", "notes", "sides", "rules", "flips", "expect", "unfinished")


@dataclass(frozen=True)
class Example:
    """A coin duel example as read: its start, the heads of every flip and what to expect."""

    title: str
    notes: str
    start: DuelState
    flips: tuple[int, ...]
    expect: dict[str, Any] = field(default_factory=dict)
    unfinished: bool = False
    source: str = "<example>"


def load_example(source: str | Path) -> Example:
    """Return the example in a file or YAML text.

    Raises:
        NotationError: every problem, one a line.
    """
    read = read_example(source, "system, title, sides, flips")
    errors = read.checked(_KEYS, SYSTEM)
    data = read.data
    rules = read_rules_entry(SYSTEM, data.get("rules"), errors, example_folder(read.where))
    sides = data.get("sides")
    if not isinstance(sides, dict) or len(sides) != 2:
        errors.add("sides must name two sides with their pools, e.g. {Ann: 2, Bo: 3}", "sides")
        errors.raise_if_any()
    flips = data.get("flips") or []
    if not isinstance(flips, list) or any(isinstance(f, bool) or not isinstance(f, int) for f in flips):
        errors.add("flips must be a list of whole numbers of heads", "flips")
    expect = data.get("expect") or {}
    if not isinstance(expect, dict):
        errors.add("expect must be a mapping: winner, rerolls", "expect")
    errors.raise_if_any()
    (a, coins_a), (b, coins_b) = sides.items()
    try:
        start = start_duel(coins_a, coins_b, rules, (str(a), str(b)))
    except ToolkitError as exc:
        raise NotationError(f"{read.where}: {exc}") from None
    title = str(data.get("title") or "A coin duel")
    return Example(
        title, str(data.get("notes") or ""), start, tuple(flips), expect, bool(data.get("unfinished")), read.where
    )


def plan_example(example: Example, start: DuelState | None = None) -> tuple[list[int], list[DuelState], str]:
    """Walk the example flip by flip: ``(flips, states, why it stopped early or "")``."""

    def planner(state: DuelState) -> Any:
        for heads in example.flips:
            if state.is_terminal:
                raise PlanStop(f"{example.source}: the duel is over before the flip of {heads} heads")
            state = yield heads
        if not state.is_terminal and not example.unfinished:
            raise PlanStop(f"{example.source}: the example ends before the duel does, at: {state.prompt()}")

    return follow_plan(start or example.start, planner, lambda s, heads: s.apply(heads))


def replay(example: Example) -> DuelState:
    """Return the final state of the example.

    Raises:
        NotationError: a flip the engine refuses, or an example that ends too soon.
    """
    _, states, error = plan_example(example)
    if error:
        raise NotationError(error)
    return states[-1]


def check_expectations(example: Example, state: DuelState) -> list[str]:
    """Return the expectations ``state`` does not meet."""
    got = {"winner": state.winner if state.winner else "nobody", "rerolls": state.rerolls}
    return [f"expected {k} {v}, got {got.get(k)}" for k, v in example.expect.items() if got.get(k) != v]


def summary(state: DuelState) -> str:
    """Return one closing sentence."""
    if state.winner is None:
        return "The duel goes on."
    who = f"{state.winner} wins" if state.winner else "Nobody wins"
    return f"{who} after {state.rerolls} reroll{'s' * (state.rerolls != 1)}."


def to_example(state: DuelState, title: str = "A coin duel") -> str:
    """Return the YAML example that replays ``state``."""
    data: dict[str, Any] = {
        "system": SYSTEM,
        "title": title,
        "sides": FlowMap(zip(state.names, state.coins, strict=True)),
    }
    if state.rules != Rules():
        data["rules"] = FlowMap(state.rules.to_mapping())
    data["flips"] = [e.data["heads"] for e in state.events if e.kind == "flip"]
    if state.is_terminal:
        data["expect"] = FlowMap(winner=state.winner or "nobody", rerolls=state.rerolls)
    else:
        data["unfinished"] = True
    return dump_example(data)


NOTATION = ExampleNotation(SYSTEM, load_example, replay, check_expectations, to_example, summary, plan_example)
