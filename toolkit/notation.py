"""What every system's example notation shares: safe reading, the line map, error
collection, the plan loop and the narrated text of a replay.

A rule-book example is a YAML file (``data/examples/*.yaml``) that names its system
(``system: fairy-meat``); the system's notation module (``toolkit.<system>.notation``)
reads it into an example, plays it through the system's engine and checks its
``expect`` block. What those modules have in common lives here, once:

- :func:`load_yaml` is the one safe reader of every file a designer writes (no code,
  no aliases, no duplicate keys, bounded size, errors at their line);
  :func:`read_example` reads a path or YAML text with it and returns an
  :class:`ExampleSource` with the data, the text, the name used in messages and its
  :class:`LineMap`;
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

import re
import sys
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from toolkit.errors import InvalidSetupError, NotationError, ToolkitError, excerpt
from toolkit.files import designer_file, read_designer_file
from toolkit.whole_numbers import whole_number
from toolkit.yaml_text import plain_dump

__all__ = [
    "DesignerDocument",
    "ExampleNotation",
    "ExampleSource",
    "FlowMap",
    "LineMap",
    "ParseErrors",
    "PlanStop",
    "at_line",
    "control_character",
    "show_controls",
    "MULTILINE_KEYS",
    "dump_example",
    "dump_yaml",
    "write_example",
    "follow_plan",
    "narrate",
    "read_example",
    "excerpt",
    "load_yaml",
    "read_designer_yaml",
    "YamlDocument",
    "YamlSyntaxError",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_DEPTH",
]

State = TypeVar("State")
Move = TypeVar("Move")
Path_ = tuple[Hashable, ...]


#: Control characters: C0 (but tab and newline), DEL and C1, and the bidirectional
#: controls (the marks, embeddings, overrides and isolates: :data:`_BIDI`). A terminal
#: obeys them (ESC starts a sequence that can set the window title, BEL rings, a
#: right-to-left override shows the text after it backwards), so no name, title or text a designer gives may hold one.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROLS = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI}]")
#: The same with tab and newline and the Unicode line and paragraph separators: what a
#: one-line text (a name, a title) may not hold.
_CONTROLS_ONE_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]")

#: The keys whose texts may run over several lines (newlines and tabs allowed).
MULTILINE_KEYS = ("notes",)


def control_character(text: str, *, lines: bool = True) -> str | None:
    r"""Return the first control character of ``text`` (None if it has none): C0, DEL, C1
    or a bidirectional control; tab, newline and the Unicode line separators count only
    when ``lines`` is False (a name or a title).

    >>> control_character("North\x1b]0;owned\x07"), control_character("Tod\u202egnik")
    ('\x1b', '\u202e')
    >>> control_character("two\nlines"), control_character("two\nlines", lines=False)
    (None, '\n')
    """
    found = (_CONTROLS if lines else _CONTROLS_ONE_LINE).search(text)
    return found.group() if found else None


def show_controls(text: str) -> str:
    r"""Return ``text`` with each control character but tab and newline written out as its
    escape (``\x1b``), so printing it cannot steer the terminal.

    >>> show_controls("a\x1b]0;t\x07b")
    'a\\x1b]0;t\\x07b'
    """
    return _CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def at_line(where: str, line: int, message: str) -> str:
    """Return ``message`` prefixed with the source and line: ``"file.yaml:12: message"``
    (``"file.yaml: message"`` when the line is unknown, 0)."""
    return f"{where}:{line}: {message}" if line else f"{where}: {message}"


# -- reading YAML safely ---------------------------------------------------------------------
#: The largest file the safe reader reads (bytes): a rule-book example is a few KB.
MAX_FILE_BYTES = 4_000_000
#: The most YAML nodes (values, keys, lists, mappings) a file may hold.
MAX_NODES = 400_000
#: The deepest nesting of lists and mappings a file may hold.
MAX_DEPTH = 64


# libyaml's parser when it is there (ten times faster; it also caps flow nesting), with
# PyYAML's own composer on top of its events, so the checks below see every alias.
class _PyParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own reader, scanner and parser (when libyaml is missing)."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


try:
    from yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = _PyParser  # type: ignore[assignment,misc]


class _SafeLoader(
    yaml.composer.Composer,
    _Parser,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,  # type: ignore[misc]
):
    """The safe loader (no code runs, no Python objects: ``SafeConstructor``) that also
    refuses aliases (an alias bomb expands a few hundred bytes into gigabytes), duplicate
    keys (the last would silently win), more than :data:`MAX_NODES` nodes or
    :data:`MAX_DEPTH` levels, and turns a tag's bad value (``!!int x``, ``!!bool maybe``)
    into a YAML error at its line instead of a ValueError/KeyError."""

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.node_count = 0
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"alias *{event.anchor} refused: example files may not use anchors and aliases (write the value out)",
                event.start_mark,
            )
        self.node_count += 1
        if self.node_count > MAX_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"too many values (more than {MAX_NODES:,})", self.peek_event().start_mark
            )
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ValueError, KeyError, TypeError, OverflowError, AttributeError, IndexError, ArithmeticError):
            value = node.value if isinstance(node, yaml.ScalarNode) else "…"
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            digits = sum(c.isdigit() for c in value)
            why = (
                f": {digits:,} digits, above the {sys.get_int_max_str_digits():,} a number may have"
                if (tag == "!!int" and digits > sys.get_int_max_str_digits())
                else ""
            )
            raise yaml.constructor.ConstructorError(
                None, None, f"{tag} cannot read {excerpt(value)}{why}", node.start_mark
            ) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:  # type: ignore[override]
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.get(key)
                except TypeError:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"a key must be a single value, got {excerpt(key)}", key_node.start_mark
                    ) from None
                if first is not None:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"duplicate key {excerpt(key)} (first at line {first}): the last would silently win",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)


class YamlSyntaxError(NotationError):
    """Text that is not YAML at all (a scanner or parser error), as opposed to YAML the
    safe reader refuses (an alias, a duplicate key, a bad tag value, too big)."""


@dataclass(frozen=True)
class YamlDocument:
    """A YAML text read by :func:`load_yaml`: its data and the line of every value."""

    data: Any
    lines: LineMap
    text: str = ""


@dataclass(frozen=True)
class DesignerDocument:
    """A designer's YAML file (or text) read by :func:`read_designer_yaml`: the document,
    where it came from for error lines, the name its results take (the file's stem) and
    the folder its relative paths are read from (``None`` for text)."""

    document: YamlDocument
    where: str
    name: str
    base: Path | None


def read_designer_yaml(source: str | Path, kind: str, hint: str) -> DesignerDocument:
    """Read a designer's YAML file of some ``kind`` (``"sweep"``, ``"tuning"``): a path, or
    the YAML text itself when it holds a line break (then named ``<kind>``).

    Raises:
        NotationError: not a regular file (with ``hint``: what to give instead), or not valid YAML.
    """
    if isinstance(source, str) and "\n" in source:
        return DesignerDocument(load_yaml(source, f"<{kind}>"), f"<{kind}>", kind, None)
    path = designer_file(source, f"{kind} file", error=NotationError, missing="is not a file", hint=hint)
    return DesignerDocument(load_yaml(path), str(path), path.stem, path.parent)


def load_yaml(source: str | bytes | Path, where: str | None = None) -> YamlDocument:
    """Read YAML safely: a path, the text itself, or bytes (UTF-8).

    The one reader of every file a designer writes (examples, batch parameter files,
    ``-p`` values): ``yaml.SafeLoader`` (data only, never code) without aliases or
    duplicate keys, a path only if it is a regular file (never a folder, a device or a
    named pipe: :func:`toolkit.files.read_designer_file`), at most
    :data:`MAX_FILE_BYTES` bytes, :data:`MAX_NODES` values and
    :data:`MAX_DEPTH` levels; a bad tag value, an undecodable byte or a character YAML
    refuses is reported at its line.

    Returns:
        The :class:`YamlDocument` (the data and its :class:`LineMap`).

    Raises:
        NotationError: one line, ``"where:LINE: problem"``.
    """
    if isinstance(source, Path):
        where = where or str(source)
        # a regular file only, opened without blocking: a named pipe or a device is refused
        raw: bytes | str = read_designer_file(source, MAX_FILE_BYTES + 1, "file", error=NotationError)
    else:
        raw = source
        where = where or "<text>"
    if len(raw) > MAX_FILE_BYTES:
        raise NotationError(f"{where}: too big: more than {MAX_FILE_BYTES:,} bytes (the limit for a YAML file)")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise NotationError(
                f"{where}:{line}: not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start}): save it as UTF-8"
            ) from None
    else:
        text = raw
    try:
        loader = _SafeLoader(text)
    except UnicodeError as exc:  # e.g. a lone surrogate in text given as a str
        line = text[: getattr(exc, "start", 0)].count("\n") + 1
        raise NotationError(at_line(where, line, "not valid text: a character cannot be encoded as UTF-8")) from None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        syntax = isinstance(exc, (yaml.scanner.ScannerError, yaml.parser.ParserError)) and "nesting" not in problem
        kind = YamlSyntaxError if syntax else NotationError
        raise kind(at_line(where, line, f"not valid YAML: {problem}")) from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1 if isinstance(exc.position, int) else 0
        raise NotationError(
            at_line(where, line, f"not valid YAML: a character is not allowed ({exc.reason})")
        ) from None
    except yaml.YAMLError as exc:
        raise NotationError(f"{where}: not valid YAML: {str(exc).splitlines()[0] if str(exc) else exc!r}") from None
    except RecursionError:
        raise NotationError(f"{where}: nested too deep") from None
    lines: dict[Path_, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return YamlDocument(data, LineMap(lines), text)


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
        """Return the line map of a YAML text (read with :func:`load_yaml`: no object
        is built from a tag, no code runs); an empty map if the text is not valid YAML."""
        try:
            return load_yaml(text).lines
        except NotationError:
            return cls()

    def line(self, *path: Hashable) -> int:
        """Return the line of ``path``, or of its nearest ancestor in the document (0 if
        none: e.g. a top-level key the file leaves out)."""
        while path and path not in self._lines:
            path = path[:-1]
        return self._lines.get(path, 0)

    def __contains__(self, path: object) -> bool:
        return path in self._lines


def _walk(node: yaml.Node, path: Path_, out: dict[Path_, int]) -> None:
    """Record the line of every value under ``node`` (iteratively: no recursion limit)."""
    stack: list[tuple[yaml.Node, Path_]] = [(node, path)]
    while stack:
        node, path = stack.pop()
        out[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                out[path + (key.value,)] = key.start_mark.line + 1
                stack.append((value, path + (key.value,)))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                stack.append((item, path + (i,)))


# -- reading example files ---------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleSource:
    """An example file as read by :func:`load_yaml`: its data, its text, the name used
    in messages (the path, or ``<example>`` for text) and its :class:`LineMap`."""

    data: dict[str, Any]
    text: str
    where: str
    lines: LineMap

    def errors(self) -> ParseErrors:
        """Return an empty :class:`ParseErrors` for this file."""
        return ParseErrors(self.where, self.lines)

    def checked(self, top_keys: Iterable[str], system: str) -> ParseErrors:
        """Return the :class:`ParseErrors` of this file with its top level checked: each
        key not in ``top_keys`` (at its line, listing the keys), and a ``system:`` other
        than ``system`` (left out, it is ``system``)."""
        errors = self.errors()
        errors.check_keys(self.data, top_keys, "")
        if self.data.get("system", system) != system:
            errors.add(f"system {excerpt(self.data.get('system'))} is not {system!r}", "system")
        return errors


def read_example(source: str | Path | ExampleSource, shape: str) -> ExampleSource:
    """Return the :class:`ExampleSource` of an example given as a path or as YAML text
    (a string with a line break), read with :func:`load_yaml` (the safe reader); an
    :class:`ExampleSource` already read is returned as it is.

    ``shape`` says what the file must hold, for the error when it is not a mapping.

    Raises:
        NotationError: not a regular file (nothing there, a folder, a device, a named
            pipe, an unknown ``~user``), not valid YAML (a ``!!python`` tag, an alias, a
            duplicate key, a bad tag value or undecodable bytes, at its line), too big,
            not a mapping, or a text holding a control character (at its line, naming
            the field: :meth:`ParseErrors.check_controls`).
        TypeError: ``source`` is neither a path nor text.
    """
    if isinstance(source, ExampleSource):  # already read (toolkit replay reads the system first)
        return source
    if not isinstance(source, (str, Path)):
        raise TypeError(f"source must be a path or YAML text, got {type(source).__name__}")
    path = Path(source) if not (isinstance(source, str) and "\n" in source) else None
    if path is not None:
        path = designer_file(path, "example", error=NotationError, missing="is not a file", hint=EXAMPLE_HINT)
    where = str(path) if path is not None else "<example>"
    document = load_yaml(path if path is not None else str(source), where)
    if not isinstance(document.data, dict):
        raise NotationError(f"{where}: an example is a mapping with {shape}")
    errors = ParseErrors(where, document.lines)
    errors.check_controls(document.data)
    errors.raise_if_any()
    return ExampleSource(document.data, document.text, where, document.lines)


#: What to give instead of a path that is not an example file.
EXAMPLE_HINT = "give the path of an example, e.g. data/examples/*.yaml"


# -- error collection --------------------------------------------------------------------------
#: The most problems of one file an error lists, one a line (the rest are counted).
SHOWN_PROBLEMS = 10


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
                self.add(f"{what}unknown key {excerpt(key)}; keys are {', '.join(sorted(allowed))}", *path, key)

    def yes_no(self, value: Any, what: str, *path: Hashable, default: bool = False) -> bool:
        """Return ``value`` if it is ``true`` or ``false`` (``default`` when None: left
        out); anything else (``"false"``, ``1``) is recorded as an error at ``path`` and
        ``default`` returned: a yes/no field never reads Python truthiness."""
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        self.add(f"{what} must be true or false, got {excerpt(value)}", *path)
        return default

    def whole(
        self, value: Any, what: str, *path: Hashable, low: int = 0, high: int = 10**6, default: int | None = None
    ) -> int | None:
        """Return ``value`` if it is a whole number from ``low`` to ``high`` (``default``
        when None: left out); a fraction (``2.7``), a word or a number out of bounds is
        recorded as an error at ``path`` and ``default`` returned (never truncated)."""
        if value is None:
            return default
        if isinstance(value, float) and value.is_integer() and low <= value <= high:
            value = int(value)
        try:
            return whole_number(value, what, low, high)
        except InvalidSetupError as error:
            self.add(str(error), *path)
            return default

    def text(self, value: Any, what: str, *path: Hashable, default: str = "", limit: int = 10_000) -> str:
        """Return ``value`` if it is text (a number is written as text; ``default`` when
        None) of at most ``limit`` characters; anything else is recorded as an error."""
        if value is None:
            return default
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10**15:
            value = str(value)
        if not isinstance(value, str):
            self.add(f"{what} must be text, got {excerpt(value)}", *path)
            return default
        if len(value) > limit:
            self.add(f"{what} is too long ({len(value):,} characters, the limit is {limit:,})", *path)
            return default
        return value

    def check_controls(self, data: Any, multiline: Iterable[str] = MULTILINE_KEYS) -> None:
        """Record every text of ``data`` (keys and values, at any depth) that holds a
        control character (:func:`control_character`), at its line, naming its field:
        newlines and tabs are allowed only under the keys ``multiline`` (``notes``)."""
        multiline = set(multiline)
        stack: list[tuple[Any, Path_, bool]] = [(data, (), False)]
        while stack:
            value, path, lines = stack.pop()
            if isinstance(value, str):
                bad = control_character(value, lines=lines)
                if bad is not None:
                    field = ".".join(show_controls(str(p)) for p in path) or "the text"
                    self.add(
                        f"{field} holds {excerpt(value)}: control characters ({bad!r}) are not accepted"
                        + ("" if lines else f" (newlines and tabs only in {', '.join(sorted(multiline))})"),
                        *path,
                    )
            elif isinstance(value, Mapping):
                children = []
                for key, item in value.items():
                    if isinstance(key, str) and control_character(key, lines=False) is not None:
                        children.append((key, path + (key,), False))
                    children.append((item, path + (key,), lines or key in multiline))
                stack.extend(reversed(children))  # popped in the file's order
            elif isinstance(value, (list, tuple)):
                stack.extend((item, path + (i,), lines) for i, item in reversed(list(enumerate(value))))

    def __bool__(self) -> bool:
        return bool(self.messages)

    def summary(self) -> str:
        """Return the problems one a line: the first :data:`SHOWN_PROBLEMS`, then how many
        more (a file with 3,000 unknown keys is eleven lines, not 3,000).

        >>> errors = ParseErrors("f.yaml")
        >>> for k in range(12):
        ...     errors.add(f"unknown key k{k}")
        >>> errors.summary().splitlines()[-2:]
        ['f.yaml: unknown key k9', '… and 2 more problems']
        """
        shown = self.messages[:SHOWN_PROBLEMS]
        more = len(self.messages) - len(shown)
        return "\n".join(shown + ([f"… and {more:,} more problem{'s' if more > 1 else ''}"] if more else []))

    def raise_if_any(self, incomplete: bool = False) -> None:
        """Raise every problem as one :class:`NotationError`; with none recorded, raise
        one saying the example is incomplete if ``incomplete``.

        Raises:
            NotationError: the problems, one a line.
        """
        if self.messages:
            raise NotationError(self.summary())
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

    The text is the one ``yaml.dump(data, Dumper=_ExampleDumper, ...)`` writes, byte for
    byte: an example's usual shapes are written directly (:func:`toolkit.yaml_text.plain_dump`,
    the same rules as PyYAML's emitter, several times faster), anything else by PyYAML itself.

    >>> print(dump_example({"title": "T", "expect": [FlowMap(round=1, lost=FlowMap(a=0, b=2))]}), end="")
    title: T
    expect:
      - {round: 1, lost: {a: 0, b: 2}}
    """
    fast = plain_dump(data, width, indentless=False, flow_type=FlowMap)
    if fast is not None:
        return fast
    return yaml.dump(
        data, Dumper=_ExampleDumper, sort_keys=False, allow_unicode=True, width=width, default_flow_style=False
    )


def dump_yaml(data: Mapping[str, Any], width: int = 80) -> str:
    """Return ``yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=width)``,
    byte for byte (:func:`toolkit.yaml_text.plain_dump` for the usual shapes, else PyYAML): list
    items under a key at the key's own indentation, as PyYAML writes them."""
    fast = plain_dump(data, width, indentless=True)
    if fast is not None:
        return fast
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=width)


def write_example(
    system: str,
    title: str,
    rules: Any,
    setup: Mapping[str, Any],
    play: Mapping[str, Any],
    expect: Any = None,
    *,
    finished: bool,
    open_end: Mapping[str, Any] | None = None,
) -> str:
    """Return the example file of a played game, as every system's ``to_example`` writes it
    (:func:`dump_example`): ``system`` and ``title``; ``rules`` (a system's ``Rules``, one
    line of its changed fields, :meth:`~toolkit.house_rules.HouseRules.to_mapping`) unless
    they are the defaults; the ``setup`` (how the game started: the history's start); for
    a game not over, ``unfinished: true`` and ``open_end`` (where a replay may stop); the
    ``play`` (what the history holds: moves, rolls, rounds); then ``expect`` (what
    happened, which replaying the file checks) unless it is ``None``.

    >>> print(write_example("coin-duel", "T", None, {"sides": ["A", "B"]}, {"flips": ["H T"]}, finished=False), end="")
    system: coin-duel
    title: T
    sides:
      - A
      - B
    unfinished: true
    flips:
      - H T
    """
    data: dict[str, Any] = {"system": system, "title": title}
    if rules is not None and rules != type(rules)():
        data["rules"] = FlowMap(rules.to_mapping())
    data.update(setup)
    if not finished:
        data["unfinished"] = True
        data.update(open_end or {})
    data.update(play)
    if expect is not None:
        data["expect"] = expect
    return dump_example(data)


# -- what a system registers ---------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleNotation:
    """A system's example notation, as the registry of systems (:mod:`toolkit.systems`)
    and ``toolkit replay`` use it.

    Attributes:
        system: the ``system:`` of its files (its name in :mod:`toolkit.systems`).
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

    def replay_text(self, source: str | Path | ExampleSource) -> tuple[str, list[str]]:
        """Return (the narrated example, its cards written ``K♠`` as in every log a
        designer reads, :func:`toolkit.pictures.log_text`; the expectations it does not meet).

        Raises:
            NotationError: the file cannot be read or played, with the line at fault.
        """
        example = self.load(source)
        return self.replayed_text(example, self.replay(example))

    def replayed_text(self, example: Any, state: Any) -> tuple[str, list[str]]:
        """Return :meth:`replay_text` of an example already read (:attr:`load`) and played
        (``state``: what :attr:`replay` returns for it), without playing it again."""
        from toolkit.pictures import log_text  # the drawing module, only when a log is written

        log = log_text(state.events)  # cards as a designer reads them (K♠), as the stepper's log.txt
        return narrate(example.title, example.notes, log, self.summary(state)), self.check(example, state)


def narrate(title: str, notes: str, log: str, summary: str) -> str:
    """Return a replayed example as a rule book prints it: the title underlined, the
    notes, the narrated log, then the summary after a blank line."""
    lines = [title, "=" * len(title)]
    if notes:
        lines += [notes.strip(), ""]
    lines += [log, "", summary]
    return "\n".join(lines)
