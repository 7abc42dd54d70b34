"""What every system's example notation shares: safe reading, the line map, error
collection, the plan loop and the narrated text of a replay.

A rule-book example is a YAML file (``data/examples/*.yaml``) that names its system
(``system: fairy-meat``); the system's notation module (``toolkit.<system>.notation``)
reads it into an example, plays it through the system's engine and checks its
``expect`` block. What those modules have in common lives here, once:

- :func:`read_example` reads a path or YAML text with ``yaml.safe_load`` only (example
  files are data, never code) and returns an :class:`ExampleSource` with the data, the
  text, the name used in messages and its :class:`LineMap`;
- :class:`LineMap` maps the path of every value in the document (``("rounds", 0,
  "moves", 2)``) to its line, from the composed YAML node tree, so a repeated move is
  reported at its own line, not at the first line that looks like it;
- :class:`ParseErrors` collects every problem of a file with its line and raises them
  together as one :class:`~toolkit.errors.NotationError` (like python-chess's PGN
  reader);
- :func:`follow_plan` is the plan loop: it follows an example's moves through an engine,
  collecting the planned moves and the states, and stops at the first move the rules
  refuse, with its line;
- :class:`ExampleNotation` is what a system registers (load, replay, check, export,
  summary) so that ``toolkit replay`` needs no code per system
  (:mod:`toolkit.systems`), and :func:`narrate` prints a replay the same way for all.

>>> source = read_example("moves:\\n  - A: play 3D\\n  - B: play 4C\\n  - A: play 3D\\n", "moves")
>>> source.lines.line("moves", 2)  # the repeated move, at its own line
4
>>> errors = ParseErrors(source.where, source.lines)
>>> errors.add("A: 3D is not in A's hand", "moves", 2)
>>> print(*errors.messages)
<example>:4: A: 3D is not in A's hand
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from toolkit.errors import NotationError, ToolkitError

__all__ = [
    "ExampleNotation",
    "ExampleSource",
    "FlowMap",
    "LineMap",
    "ParseErrors",
    "PlanStop",
    "at_line",
    "dump_example",
    "follow_plan",
    "narrate",
    "read_example",
]

State = TypeVar("State")
Move = TypeVar("Move")
Path_ = tuple[Hashable, ...]


def at_line(where: str, line: int, message: str) -> str:
    """Return ``message`` prefixed with the source and line: ``"file.yaml:12: message"``
    (``"file.yaml: message"`` when the line is unknown, 0)."""
    return f"{where}:{line}: {message}" if line else f"{where}: {message}"


# -- the line map --------------------------------------------------------------------------
class LineMap:
    """The 1-based line of every value of a YAML document, by its path.

    A path is the keys and list indices from the top: ``("moves", 2)`` is the third
    move, ``("armies", 1, "leader", "name")`` the second army's leader's name. A
    mapping key's path gives the line of the key, then of its value when the value is
    a scalar on the same line or a nested block (its first line).
    """

    def __init__(self, lines: Mapping[Path_, int] | None = None) -> None:
        self._lines = dict(lines or {})

    @classmethod
    def of_text(cls, text: str) -> LineMap:
        """Return the line map of a YAML text (composed with the safe loader: no object
        is built, no code runs); an empty map if the text is not valid YAML."""
        try:
            node = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            return cls()
        lines: dict[Path_, int] = {}
        _walk(node, (), lines)
        return cls(lines)

    def line(self, *path: Hashable) -> int:
        """Return the line of ``path``, or of its nearest ancestor in the document (0 if
        none: e.g. a top-level key the file leaves out)."""
        while path and path not in self._lines:
            path = path[:-1]
        return self._lines.get(path, 0)

    def __contains__(self, path: object) -> bool:
        return path in self._lines


def _walk(node: yaml.Node | None, path: Path_, out: dict[Path_, int]) -> None:
    if node is None:
        return
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value
            out[path + (name,)] = key.start_mark.line + 1
            _walk(value, path + (name,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, path + (i,), out)


# -- reading files safely ----------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleSource:
    """An example file as read: its data (``yaml.safe_load``), its text, the name used
    in messages (the path, or ``<example>`` for text) and its :class:`LineMap`."""

    data: dict[str, Any]
    text: str
    where: str
    lines: LineMap

    def errors(self) -> ParseErrors:
        """Return an empty :class:`ParseErrors` for this file."""
        return ParseErrors(self.where, self.lines)


def read_example(source: str | Path, shape: str) -> ExampleSource:
    """Return the :class:`ExampleSource` of an example given as a path or as YAML text
    (a string with a line break).

    ``shape`` says what the file must hold, for the error when it is not a mapping.

    Raises:
        NotationError: not a file, not valid YAML (a ``!!python`` tag is refused: files
            are data), or not a mapping.
    """
    path = Path(source) if not (isinstance(source, str) and "\n" in source) else None
    if path is not None and not path.is_file():
        raise NotationError(f"{str(path)!r} is not a file: give the path of an example, e.g. data/examples/*.yaml")
    text = path.read_text() if path is not None else str(source)
    where = str(path) if path is not None else "<example>"
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise NotationError(f"{where}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise NotationError(f"{where}: an example is a mapping with {shape}")
    return ExampleSource(data, text, where, LineMap.of_text(text))


# -- error collection --------------------------------------------------------------------------
class ParseErrors:
    """Every problem found in one example file, each with its line (from the paths)."""

    def __init__(self, where: str, lines: LineMap | None = None) -> None:
        self.where = where
        self.lines = lines or LineMap()
        self.messages: list[str] = []

    def add(self, message: str, *path: Hashable) -> None:
        """Record ``message`` at the line of ``path`` (no line if no path is given)."""
        self.messages.append(at_line(self.where, self.lines.line(*path) if path else 0, message))

    def check_keys(self, raw: Mapping[Any, Any], allowed: Iterable[str], what: str, *path: Hashable) -> None:
        """Record each key of ``raw`` not in ``allowed`` (``what`` prefixes the message,
        e.g. ``"attacker: "``), at the key's own line."""
        allowed = set(allowed)
        for key in raw:
            if key not in allowed:
                self.add(f"{what}unknown key {key!r}; keys are {', '.join(sorted(allowed))}", *path, key)

    def __bool__(self) -> bool:
        return bool(self.messages)

    def raise_if_any(self, incomplete: bool = False) -> None:
        """Raise every problem as one :class:`NotationError`; with none recorded, raise
        one saying the example is incomplete if ``incomplete``.

        Raises:
            NotationError: the problems, one a line.
        """
        if self.messages:
            raise NotationError("\n".join(self.messages))
        if incomplete:
            raise NotationError(f"{self.where}: incomplete example")


# -- the plan loop -------------------------------------------------------------------------------
class PlanStop(NotationError):
    """Raised by a system's planner to stop the walk at a move it cannot plan (the
    message names the file and line). A planner that simply returns stops without an
    error (an example written ``unfinished`` that ends mid-game)."""


Planner = Callable[[State], Generator[Move, State, None]]


def follow_plan(
    start: State, planner: Planner[State, Move], apply: Callable[[State, Move], State]
) -> tuple[list[Move], list[State], str]:
    """Follow an example's moves through an engine.

    ``planner(start)`` is a generator that yields the next planned move and receives
    the state it led to (``generator.send(new_state)``); ``apply(state, move)`` plays a
    move and returns the new state (raising a :class:`~toolkit.errors.ToolkitError`
    whose message names the line when the rules refuse it).

    Returns:
        ``(moves, states, error)``: the moves planned and applied, the state before
        each and after the last (``len(moves) + 1`` states), and why the walk stopped
        early (``""`` if the example was followed to its end).
    """
    plan: list[Move] = []
    states = [start]
    walk = planner(start)
    try:
        move = next(walk)
        while True:
            new = apply(states[-1], move)
            plan.append(move)
            states.append(new)
            move = walk.send(new)
    except StopIteration:
        return plan, states, ""
    except ToolkitError as exc:
        return plan, states, str(exc)


# -- writing examples -----------------------------------------------------------------------------
class FlowMap(dict):
    """A mapping :func:`dump_example` writes on one line: ``{North: 4, South: 3}``."""


class _ExampleDumper(yaml.SafeDumper):
    """The safe dumper, with list items indented under their key and :class:`FlowMap`
    mappings on one line (so an export reads like a hand-written example)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


_ExampleDumper.add_representer(
    FlowMap, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)
)


def dump_example(data: Mapping[str, Any], width: int = 110) -> str:
    """Return ``data`` as example YAML (safe dumper, keys in the given order, list items
    indented under their key, :class:`FlowMap` values on one line).

    >>> print(dump_example({"title": "T", "expect": [FlowMap(round=1, lost=FlowMap(a=0, b=2))]}), end="")
    title: T
    expect:
      - {round: 1, lost: {a: 0, b: 2}}
    """
    return yaml.dump(
        data, Dumper=_ExampleDumper, sort_keys=False, allow_unicode=True, width=width, default_flow_style=False
    )


# -- what a system registers ---------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleNotation:
    """A system's example notation, as the registry of systems (:mod:`toolkit.systems`)
    and ``toolkit replay`` use it.

    Attributes:
        system: the ``system:`` of its files (``"fairy-meat"``).
        load: read a file (path or YAML text) into an example; raises NotationError.
        replay: play an example out and return the final state; raises NotationError.
        check: the expectations of an example the final state does not meet.
        to_example: the YAML text that replays a state (what the stepper exports).
        summary: one closing sentence on the final state.
        plan: ``plan(example) -> (moves, states, error)``, the walk a stepper's example
            mode follows (:func:`follow_plan`).
    """

    system: str
    load: Callable[[Any], Any]
    replay: Callable[[Any], Any]
    check: Callable[[Any, Any], list[str]]
    to_example: Callable[..., str]
    summary: Callable[[Any], str]
    plan: Callable[..., tuple[list[Any], list[Any], str]]

    def replay_text(self, source: str | Path) -> tuple[str, list[str]]:
        """Return (the narrated example, the expectations it does not meet).

        Raises:
            NotationError: the file cannot be read or played, with the line at fault.
        """
        example = self.load(source)
        state = self.replay(example)
        return narrate(example.title, example.notes, state.log(), self.summary(state)), self.check(example, state)


def narrate(title: str, notes: str, log: str, summary: str) -> str:
    """Return a replayed example as a rule book prints it: the title underlined, the
    notes, the narrated log, then the summary after a blank line."""
    lines = [title, "=" * len(title)]
    if notes:
        lines += [notes.strip(), ""]
    lines += [log, "", summary]
    return "\n".join(lines)
