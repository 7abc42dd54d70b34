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

__all__ = ["Narrate", "Narration", "narrated"]


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
