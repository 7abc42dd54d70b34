"""Replay a rule-book example file of any system as narrated prose (``toolkit replay FILE``).

An example file names its system (``system: fairy-meat``); the registry of systems
(:mod:`toolkit.systems`) gives that system's notation, which reads the file, plays it
through the engine and checks its ``expect`` block; :func:`toolkit.notation.narrate`
prints it the same way for every system (title, notes, the narrated log, a summary).
:func:`replay_example` is the same replay kept whole (the example, the final state and
what its expectations find wrong), for the rule-book exports (:mod:`toolkit.rulebook.export`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit import systems
from toolkit.engine import GameState
from toolkit.errors import IllegalActionError, NotationError
from toolkit.notation import ExampleNotation, ExampleSource, excerpt, read_example

__all__ = ["replay_file", "replay_example", "read_source", "to_example", "Replayed", "SYSTEMS"]

#: Systems whose examples can be replayed (the registry's names).
SYSTEMS = systems.names()

_SHAPE = "system, title, ... (see data/examples/)"


def read_source(source: str | Path | ExampleSource) -> tuple[ExampleNotation, ExampleSource]:
    """Return (the system's notation, the example as read) for an example given as a path,
    as YAML text (a string with a line break) or already read.

    Raises:
        NotationError: not a regular file (:func:`toolkit.files.designer_file`), not valid
            YAML, a name holding a control character, or a ``system:`` that is unknown (the
            message names the known systems).
    """
    read = read_example(source, _SHAPE)  # read once, safely: a regular file only, no control characters
    name = read.data.get("system", systems.default_system())
    if not isinstance(name, str) or name not in systems.names():
        raise NotationError(
            f"{read.where}:{read.lines.line('system')}: unknown system {excerpt(name)}; "
            f"examples can be replayed for: {', '.join(systems.names())}"
        )
    return systems.notation(name), read


@dataclass(frozen=True)
class Replayed:
    """An example played out: its system's notation, the example as the notation read it,
    the final state (its ``events`` are the narration) and the expectations it does not meet."""

    notation: ExampleNotation
    example: Any
    state: GameState
    problems: tuple[str, ...]


def replay_example(source: str | Path | ExampleSource) -> Replayed:
    """Return the example (a path, YAML text or already read) played out and checked.

    Raises:
        NotationError: the example cannot be read or played, with the line at fault.
    """
    notation, read = read_source(source)
    example = notation.load(read)
    state = notation.replay(example)
    return Replayed(notation, example, state, tuple(notation.check(example, state)))


def replay_file(path: str | Path) -> tuple[str, list[str]]:
    """Return (the narrated example, the expectations it does not meet) for an example file.

    Raises:
        NotationError: the file cannot be read or played, with the line at fault; a file
            whose ``system:`` is unknown (the message names the known systems).
    """
    notation, read = read_source(Path(path))
    return notation.replay_text(read)


def to_example(state: GameState, title: str | None = None) -> str:
    """Return the example file that replays ``state``, a game of any registered system:
    its setup from where the history starts, its play from the history
    (:attr:`~toolkit.engine.GameState.history`) and, once over, what happened, as the
    system's notation writes it (:func:`toolkit.notation.write_example`). The inverse of
    :func:`replay_example`; ``title`` is the system's own default when not given.

    Raises:
        IllegalActionError: ``state`` is not a state of a registered system's engine (the
            systems are named), or the system cannot write it (its message says why).
    """
    module = type(state).__module__
    for entry in systems.systems():
        if module == entry.package or module.startswith(entry.package + "."):
            notation = entry.example_notation()
            return notation.to_example(state) if title is None else notation.to_example(state, title)
    raise IllegalActionError(
        f"a {type(state).__name__} is not a game of a registered system: the systems are {', '.join(systems.names())}"
    )
