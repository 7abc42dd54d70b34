"""Where the Durak battle stepper finds a rule-book example file, and reads it."""

from __future__ import annotations

from pathlib import Path

from toolkit.durak_battle.notation import Example, load_example
from toolkit.errors import NotationError
from toolkit.shipped import shipped_path

__all__ = ["EXAMPLES_DIR", "find_example", "as_example"]

#: Where the rule-book examples live; :func:`battle_stepper` also looks here for a bare file name.
EXAMPLES_DIR = shipped_path("examples")


def find_example(source: str | Path) -> Path:
    """Return the example file ``source`` names: a path, or a file name in :data:`EXAMPLES_DIR`.

    Raises:
        NotationError: no such file, naming the shipped Durak examples.
    """
    path = Path(source)
    if path.is_file():
        return path
    for candidate in (EXAMPLES_DIR / path, EXAMPLES_DIR / path.name):
        if candidate.is_file():
            return candidate
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("durak_*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the Durak examples in {EXAMPLES_DIR} are: {known}")


def as_example(source: str | Path | Example) -> Example:
    """Return the example ``source`` (a path, a file name in :data:`EXAMPLES_DIR`, or already loaded), loaded.

    Raises:
        NotationError: no such file, or one that cannot be read (the line at fault).
    """
    return source if isinstance(source, Example) else load_example(find_example(source))
