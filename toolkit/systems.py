"""The registry of systems: which rule systems the toolkit knows, and where each one's
package and example notation are.

``toolkit replay``, the command line and every list of "systems whose examples can be
replayed" read this registry; nothing else names the systems one by one. A system
registers a :class:`System` (its ``system:`` name, its title, its package, and the
module whose ``NOTATION`` is its :class:`~toolkit.notation.ExampleNotation`); the
notation module is imported only when an example of that system is read.

>>> names()
('fairy-meat', 'durak-battle', 'angry-miniatures')
>>> system("durak-battle").package
'toolkit.durak_battle'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from toolkit.errors import NotationError
from toolkit.notation import ExampleNotation

__all__ = ["System", "names", "notation", "register", "system", "systems"]


@dataclass(frozen=True)
class System:
    """A rule system of the toolkit.

    Attributes:
        name: its ``system:`` in example files (``"fairy-meat"``).
        title: what a designer calls it (``"Fairy Meat alternate combat"``).
        package: its package (``"toolkit.fairy_meat"``).
        notation_module: the module whose ``NOTATION`` reads, replays and exports its
            example files.
        rules_module: the module whose ``Rules`` holds every number of its rules
            (:mod:`toolkit.house_rules`).
    """

    name: str
    title: str
    package: str
    notation_module: str
    rules_module: str = ""

    def notation(self) -> ExampleNotation:
        """Return the system's example notation (importing its module)."""
        found = importlib.import_module(self.notation_module).NOTATION
        assert isinstance(found, ExampleNotation) and found.system == self.name
        return found

    def rules_class(self) -> type:
        """Return the system's ``Rules`` class (importing its module)."""
        return importlib.import_module(self.rules_module or f"{self.package}.rules").Rules


_REGISTRY: dict[str, System] = {}


def register(entry: System) -> System:
    """Add a system to the registry (replacing one of the same name) and return it."""
    _REGISTRY[entry.name] = entry
    return entry


def systems() -> tuple[System, ...]:
    """Return every registered system, in the order registered."""
    return tuple(_REGISTRY.values())


def names() -> tuple[str, ...]:
    """Return the ``system:`` names of every registered system."""
    return tuple(_REGISTRY)


def system(name: str) -> System:
    """Return the registered system called ``name``.

    Raises:
        NotationError: no such system; the message names the known ones.
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise NotationError(f"unknown system {name!r}; the systems are: {', '.join(_REGISTRY)}") from None


def notation(name: str) -> ExampleNotation:
    """Return the example notation of the system called ``name`` (see :func:`system`)."""
    return system(name).notation()


register(System("fairy-meat", "Fairy Meat alternate combat", "toolkit.fairy_meat", "toolkit.fairy_meat.notation"))
register(System("durak-battle", "Durak mass battle", "toolkit.durak_battle", "toolkit.durak_battle.notation"))
register(
    System("angry-miniatures", "Angry Miniatures", "toolkit.angry_miniatures", "toolkit.angry_miniatures.notation")
)
