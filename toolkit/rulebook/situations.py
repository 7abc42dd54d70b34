"""Situations a rule-book example can show: named predicates over a finished example.

A :class:`Situation` is a name (``"tie_decided_by_queens"``), one sentence for the
designer, the rulings it illustrates, and a predicate over the final state of a played
example — its event log (:class:`toolkit.engine.Event`: ``kind``, ``text``, ``ruling``)
and the engine's results. Each system has a catalogue of them
(its registry hook ``situations``, :mod:`toolkit.systems`); :func:`catalogue` returns it and :func:`situation`
finds one by name. A designer can pass her own predicate anywhere a situation is
accepted (:func:`as_situation`): any function ``state -> bool``.

The search hints (``hint``) tell the system's searcher (:mod:`.finder`) where to look
first — smaller setups, which attack type, which cards to favour — so a rare situation
is found within seconds; they never change what counts as the situation.

>>> names = [s.name for s in catalogue("angry-miniatures")]
>>> "tie_decided_by_queens" in names and len(names) >= 10
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit import systems
from toolkit.engine import Event, GameState
from toolkit.errors import InvalidSetupError
from toolkit.notation import excerpt

__all__ = [
    "catalogued_systems",
    "Predicate",
    "Situation",
    "as_situation",
    "catalogue",
    "events",
    "said",
    "situation",
    "situation_names",
]

#: A predicate over the final state of a played example.
Predicate = Callable[[GameState], bool]



@dataclass(frozen=True)
class Situation:
    """A named situation of one system.

    Attributes:
        name: its name on the command line (``toolkit find-example SYSTEM NAME``).
        description: one sentence a rule book would use as the example's heading.
        predicate: ``state -> bool`` on the final state of a played example.
        rulings: the ruling ids the situation illustrates (``("AM-4",)``).
        hint: search hints for the system's searcher, as ``(key, value)`` pairs (a
            frozen mapping: a situation stays hashable).
        possible: ``rules -> bool``: whether the situation can happen under these rules
            (``None``: always); the finder refuses an impossible one at once.
        why: ``rules -> str``: why it cannot happen under rules ``possible`` refuses, in
            one clause (the finder's message); ``None``: "it needs other variants of …".
        variant: the rule fields, as ``(field, value)`` pairs, of a variant under which
            a situation impossible under the default rules happens (``zero_tie:
            super_tiebreak``); the examples page searches it there.
    """

    name: str
    description: str
    predicate: Predicate
    rulings: tuple[str, ...] = ()
    hint: tuple[tuple[str, Hashable], ...] = field(default=())
    possible: Callable[[Any], bool] | None = None
    variant: tuple[tuple[str, Hashable], ...] = ()
    why: Callable[[Any], str] | None = None

    @property
    def label(self) -> str:
        """The situation as a designer reads it (its heading): every page, widget and export
        names a situation by it, never by its command-line ``name``."""
        return self.description

    def shows(self, state: GameState) -> bool:
        """Return whether the finished example ``state`` shows this situation."""
        return bool(self.predicate(state))

    def hints(self) -> dict[str, Any]:
        """Return the search hints as a dict."""
        return dict(self.hint)

    def possible_under(self, rules: Any) -> bool:
        """Return whether the situation can happen under ``rules``."""
        return self.possible is None or bool(self.possible(rules))

    def why_impossible(self, rules: Any) -> str | None:
        """Return why the situation cannot happen under ``rules`` (one clause), or ``None``
        when it can."""
        if self.possible_under(rules):
            return None
        if self.why is not None:
            return self.why(rules)
        return f"it needs other variants of {', '.join(self.rulings) or 'the rules'}"


def make(
    name: str,
    description: str,
    predicate: Predicate,
    rulings: tuple[str, ...] = (),
    possible: Callable[[Any], bool] | None = None,
    variant: Mapping[str, Hashable] | None = None,
    why: Callable[[Any], str] | None = None,
    **hint: Hashable,
) -> Situation:
    """Return a :class:`Situation` with its search hints given as keywords."""
    pairs = tuple(sorted((variant or {}).items()))
    return Situation(name, description, predicate, rulings, tuple(sorted(hint.items())), possible, pairs, why)


def events(state: GameState, kind: str | None = None) -> Iterator[Event]:
    """Yield the events of ``state``'s log, only those of ``kind`` if given."""
    return (e for e in state.events if kind is None or e.kind == kind)


def said(state: GameState, fragment: str, kind: str | None = None) -> bool:
    """Return whether an event (of ``kind`` if given) contains the text ``fragment``."""
    return any(fragment in e.text for e in events(state, kind))


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
