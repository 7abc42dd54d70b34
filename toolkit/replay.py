"""Replay a rule-book example file of any system as narrated prose (``toolkit replay FILE``).

An example file names its system (``system: fairy-meat``); the registry of systems
(:mod:`toolkit.systems`) gives that system's notation, which reads the file, plays it
through the engine and checks its ``expect`` block; :func:`toolkit.notation.narrate`
prints it the same way for every system (title, notes, the narrated log, a summary).
"""

from __future__ import annotations

from pathlib import Path

from toolkit import systems
from toolkit.errors import NotationError
from toolkit.examples import DEFAULT_SYSTEM
from toolkit.notation import excerpt, read_example

__all__ = ["replay_file", "SYSTEMS"]

#: Systems whose examples can be replayed (the registry's names).
SYSTEMS = systems.names()


def replay_file(path: str | Path) -> tuple[str, list[str]]:
    """Return (the narrated example, the expectations it does not meet) for an example file.

    Raises:
        NotationError: the file cannot be read or played, with the line at fault; a file
            whose ``system:`` is unknown (the message names the known systems).
    """
    path = Path(path)
    if not path.is_file():
        raise NotationError(
            f"{excerpt(str(path))} is not a file: give the path of an example, e.g. data/examples/*.yaml"
        )
    source = read_example(path, "system, title, ... (see data/examples/)")  # read once, safely
    name = source.data.get("system", DEFAULT_SYSTEM)
    if not isinstance(name, str) or name not in systems.names():
        raise NotationError(
            f"{path}:{source.lines.line('system')}: unknown system {excerpt(name)}; "
            f"examples can be replayed for: {', '.join(systems.names())}"
        )
    return systems.notation(name).replay_text(source)
