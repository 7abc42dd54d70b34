"""Situations a rule-book example can show: named predicates over a finished example.

A :class:`Situation` is a name (``"tie_decided_by_queens"``), one sentence for the
designer, the rulings it illustrates, and a predicate over the final state of a played
example — its event log (:class:`toolkit.engine.Event`: ``kind``, ``ruling`` and the
payload ``data``, never the narration's words) and the engine's results. Each system has a catalogue of them
(its registry hook ``situations``, :mod:`toolkit.systems`); :func:`catalogue` returns it and :func:`situation`
finds one by name. A designer can pass her own predicate anywhere a situation is
accepted (:func:`as_situation`): any function ``state -> bool``.

The search hints (``hint``) tell the system's searcher (:mod:`.finder`) where to look
first — smaller setups, which attack type, which cards to favour — so a rare situation
is found within seconds; they never change what counts as the situation.

Every system that registers a catalogue has one here, each situation named once:

>>> from toolkit import systems
>>> for name in systems.names("situations"):
...     names = [s.name for s in catalogue(name)]
...     assert names and len(set(names)) == len(names), name
...     assert situation(name, names[0]).name == names[0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit import systems
from toolkit.errors import InvalidSetupError
from toolkit.notation import excerpt
from toolkit.plugin.situation import Predicate, Situation, events

__all__ = [
    "catalogued_systems",
    "Predicate",
    "Situation",
    "as_situation",
    "catalogue",
    "events",
    "situation",
    "situation_names",
]


def catalogued_systems() -> tuple[str, ...]:
    """Return the names of the registered systems with a catalogue of situations
    (:mod:`toolkit.systems`, hook ``situations``), in the registry's order."""
    return systems.names("situations")


def _system_name(system: str) -> str:
    known = catalogued_systems()
    if system not in known:
        raise InvalidSetupError(f"unknown system {excerpt(system)}: use one of {', '.join(known)}")
    return system


def catalogue(system: str) -> tuple[Situation, ...]:
    """Return the catalogue of situations of ``system`` (its registry hook ``situations``).

    Raises:
        InvalidSetupError: an unknown system (the message names the known ones).
    """
    return tuple(systems.system(_system_name(system)).hook("situations"))


def situation_names(system: str) -> tuple[str, ...]:
    """Return the names of ``system``'s situations, in catalogue order."""
    return tuple(s.name for s in catalogue(system))


def situation(system: str, name: str) -> Situation:
    """Return the situation of ``system`` called ``name``.

    Raises:
        InvalidSetupError: no such situation (the message lists the catalogue).
    """
    for entry in catalogue(system):
        if entry.name == name:
            return entry
    raise InvalidSetupError(
        f"no situation {excerpt(name)} for {system}: use one of {', '.join(situation_names(system))} "
        "or pass your own predicate (a function state -> bool)"
    )


def as_situation(system: str, value: str | Situation | Predicate | Mapping[str, Any]) -> Situation:
    """Return ``value`` as a situation of ``system``: a catalogue name, a
    :class:`Situation`, or the designer's own predicate ``state -> bool`` (named after
    the function).

    Raises:
        InvalidSetupError: an unknown name or a value of another kind.
    """
    _system_name(system)
    if isinstance(value, Situation):
        return value
    if isinstance(value, str):
        return situation(system, value)
    if callable(value):
        name = getattr(value, "__name__", "custom")
        name = "custom" if name == "<lambda>" else name
        doc = (getattr(value, "__doc__", None) or "").strip().splitlines()
        return Situation(name, doc[0] if doc else f"An example where {name.replace('_', ' ')}.", value)
    raise InvalidSetupError(
        f"a situation is a name of the catalogue ({', '.join(situation_names(system))}), a Situation, "
        f"or a function state -> bool, got {excerpt(value)}"
    )
