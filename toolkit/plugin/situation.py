"""A situation a rule-book example can show, as a system's ``situations`` hook lists them
(:mod:`toolkit.systems`): a name, one sentence for the designer, the rulings it
illustrates, search hints, and a predicate over the final state of a played example (its
event log's payloads, :attr:`toolkit.engine.Event.data`, and the engine's results; never
the narration's words). The catalogues and the
search are the rule-book's (:mod:`toolkit.rulebook.situations`, :mod:`toolkit.rulebook.finder`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit.engine import Event, GameState

__all__ = ["Predicate", "Situation", "events", "make"]

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
    """Yield the events of ``state``'s log, only those of ``kind`` if given.

    A predicate reads an event's payload (``Event.data``, as the system's engine built it)
    and the engine's state, never its text: the narration may be reworded freely."""
    return (e for e in state.events if kind is None or e.kind == kind)
