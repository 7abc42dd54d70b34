"""Where the Fairy Meat stepper finds a rule-book example file, and the setup keys it takes."""

from __future__ import annotations

from pathlib import Path

from toolkit.errors import NotationError
from toolkit.shipped import shipped_path

__all__ = ["EXAMPLES_DIR", "SETUP_KEYS", "find_example"]

#: Where the rule-book examples live; :func:`combat_stepper` also looks here for a bare file name.
EXAMPLES_DIR = shipped_path("examples")

#: The setup a combat stepper takes besides the fairies (as ``start_combat`` takes them, FM-2).
SETUP_KEYS = frozenset(
    {
        "deck",
        "hands",
        "attacker_modifiers",
        "defender_modifiers",
        "fluttered",
        "holds_order_card",
        "defender_has_attacked",
        "wrestling",
        "attacks",
    }
)


def find_example(source: str | Path) -> Path:
    """Return the example file ``source`` names: a path, or a file name in :data:`EXAMPLES_DIR`.

    Raises:
        NotationError: no such file, naming the shipped examples.
    """
    path = Path(source)
    if path.is_file():
        return path
    if (EXAMPLES_DIR / path).is_file():
        return EXAMPLES_DIR / path
    if (EXAMPLES_DIR / path.name).is_file() and not path.parent.is_dir():
        return EXAMPLES_DIR / path.name
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the examples in {EXAMPLES_DIR} are: {known}")
