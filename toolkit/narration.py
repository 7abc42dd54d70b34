"""Narration rendered from an event's data: the one way a referee writes a log line.

A system's referee decides what happened and puts it in an event's ``data`` (cards as
codes, faces, sides, losses, winners: ``docs/event_data.md``); the system's narrator turns
``(kind, data, cast)`` into the sentence a rule book prints, with the marks of the cards
and faces it shows. The sentence is therefore a pure function of the data: rewording it is
an edit to the narrator alone, and a consumer that reads ``data`` sees everything the
sentence says (the contract suite re-renders every event of random games and shipped
examples and compares).

A system registers its narrator module as the ``narration`` hook of its
:class:`~toolkit.systems.System`; the module provides

- ``narrate(kind, data, cast) -> Narration`` (see :data:`Narrate`), and
- ``cast(state) -> Mapping``: how the sentences call each side or character the data
  names by key (``{"a": "North", "b": "South"}``; a system may map a side to more than a
  name, such as a name and pronouns), read from a game state. It holds who plays, never
  what happened: that is the data's.

>>> def narrate(kind, data, cast):
...     return Narration(Sentence.of(cast[data["side"]], " flips ", Sentence.die(data["face"]), "."))
>>> e = narrated("flip", {"side": 0, "face": "H"}, {0: "Ann"}, narrate, ruling="CD-1")
>>> e.text, e.marks[0].code, e.data["face"], e.ruling
('Ann flips H.', 'H', 'H', 'CD-1')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit.engine import Event, EventData, Sentence

__all__ = ["Narrate", "Narration", "narrated", "narrated_later", "NarratedLater"]


@dataclass(frozen=True)
class Narration:
    """What a narrator renders of one event.

    Attributes:
        text: the sentence (with its marks) the event's audience reads, or everyone.
        public: what every other side reads instead, for an event with an audience
            (``Sentence("")`` hides the event from them altogether).
    """

    text: Sentence
    public: Sentence = field(default_factory=Sentence)


#: A system's narrator: ``(kind, data, cast) -> Narration``.
Narrate = Callable[[str, Mapping[str, Any], Mapping[Any, Any]], Narration]


def narrated(
    kind: str,
    data: Mapping[str, Any],
    cast: Mapping[Any, Any],
    narrate: Narrate,
    *,
    ruling: str = "",
    audience: tuple[str, ...] | None = None,
) -> Event:
    """Return the event of ``kind`` whose payload is ``data`` and whose text (and the
    public text, for an event with an ``audience``) ``narrate`` renders from that payload
    and the ``cast`` (how the sentences call the sides the data names by key)."""
    payload = data if isinstance(data, EventData) else EventData(data)
    told = narrate(kind, payload, cast)
    return Event.told(kind, told.text, ruling, audience, told.public, data=payload)


class _Rendered:
    """An event field rendered from the event's data when first read (then kept)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, event: NarratedLater | None, owner: type | None = None) -> Any:
        if event is None:
            return self
        return event.render().__dict__[self.name]


class NarratedLater(Event):
    """An :class:`~toolkit.engine.Event` whose sentences (``text``, ``public_text`` and
    their marks) the narrator renders from its data only when one is first read, then
    keeps: an engine logs an event at every step of every enumerated branch, and most are
    never read. Built by :func:`narrated_later`; reads, compares, hashes and pickles as
    the event :func:`narrated` returns (the same sentences, rendered from the same data)."""

    text = _Rendered()
    public_text = _Rendered()
    marks = _Rendered()
    public_marks = _Rendered()

    def render(self) -> NarratedLater:
        """Render the sentences now (once) and return the event."""
        fields = self.__dict__
        told = fields.get("_told")
        if told is not None:
            narrate, cast = told
            made = narrated(self.kind, self.data, cast, narrate, ruling=self.ruling, audience=self.audience)
            for name in ("text", "public_text", "marks", "public_marks"):
                fields[name] = made.__dict__[name]
            del fields["_told"]
        return self

    def plain(self) -> Event:
        """The same event as a plain :class:`~toolkit.engine.Event`."""
        self.render()
        return Event(
            self.kind, self.text, self.ruling, self.audience, self.public_text, self.marks, self.public_marks, self.data
        )

    def __repr__(self) -> str:
        return repr(self.plain())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Event):
            return _as_tuple(self) == _as_tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(_as_tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, _as_tuple(self))


def _as_tuple(event: Event) -> tuple[Any, ...]:
    """An event's fields, in order (what :class:`~toolkit.engine.Event` compares and hashes)."""
    return (
        event.kind,
        event.text,
        event.ruling,
        event.audience,
        event.public_text,
        event.marks,
        event.public_marks,
        event.data,
    )


def narrated_later(
    kind: str,
    data: Mapping[str, Any],
    cast: Mapping[Any, Any],
    narrate: Narrate,
    *,
    ruling: str = "",
    audience: tuple[str, ...] | None = None,
) -> Event:
    """Return the event :func:`narrated` returns, its sentences rendered by ``narrate`` only
    when first read (:class:`NarratedLater`): ``narrate`` must be a pure function of
    ``(kind, data, cast)``, as every system's narrator is."""
    event = object.__new__(NarratedLater)
    fields = event.__dict__
    fields["kind"] = kind
    fields["ruling"] = ruling
    fields["audience"] = audience
    fields["data"] = data if isinstance(data, EventData) else EventData(data)
    fields["_told"] = (narrate, cast)
    return event
