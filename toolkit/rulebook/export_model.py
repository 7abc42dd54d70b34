"""What a rule-book export shows, before it is written as HTML or Markdown.

A :class:`RulebookExample` is a replayed example cut the way a rule book prints it: the
title and the designer's notes, the **setup** (the narration's opening lines: who fights,
their numbers, the cards dealt or the dice counted), the **play** (every other line of
the narration, in order, each with its arithmetic), the **outcome** (the system's closing
sentence) and the **expectations** the file carries, each with whether it holds.

Every line is the engine's own narration (:class:`toolkit.engine.Event` texts, as
``toolkit replay`` prints them), so the export is right by construction; the cards and
poker dice drawn (:mod:`toolkit.pictures`) are those the referee marked on each event
(:attr:`toolkit.engine.Event.marks`), never found in the words: an army called ``QH``
is a name, and the same example reworded draws the same pictures
(:func:`split_pictures`).

>>> from toolkit.engine import Sentence
>>> def show(text):
...     return [p if isinstance(p, str) else p.code for p in split_pictures(text)]
>>> show(Sentence.of("QH draws 2 cards: ", Sentence.card_code("9H"), " ", Sentence.card_code("3C"), "."))
['QH draws 2 cards: ', '9H', ' ', '3C', '.']
>>> show("Ann draws 2 cards: 9H 3C.")  # a text without marks shows no card
['Ann draws 2 cards: 9H 3C.']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit import systems
from toolkit.engine import Event, GameState, Sentence
from toolkit.errors import InvalidSetupError
from toolkit.notation import ExampleNotation, ExampleSource
from toolkit.pictures import Picture
from toolkit.replay import replay_example

__all__ = [
    "SETUP_KINDS",
    "HEADING_KINDS",
    "DICE_KINDS",
    "Line",
    "Illustration",
    "Expectation",
    "RulebookExample",
    "split_pictures",
    "from_source",
    "from_state",
    "system_of_state",
]

#: Event kinds that open an example and make its setup while nothing else has happened:
#: the opening line (``start``), cards dealt (FM-2, DB-2), Trumps declared (FM-3), the
#: Knowledge roll that counts a Durak army's cards (DB-2).
SETUP_KINDS = frozenset({"start", "deal", "declare", "recon"})
#: Event kinds printed as a heading in the play (``Round 2.`` of a Durak battle).
HEADING_KINDS = frozenset({"round"})
#: Event kinds whose text shows poker-die faces (AM-1 rolls, AM-4 SuperTieBreaker throws).
DICE_KINDS = frozenset({"roll", "super_tiebreak"})


@dataclass(frozen=True)
class Illustration(Picture):
    """A picture drawn after the words that name it (``the 5 of Clubs``, ``the Joker``):
    the text says what it is already, so nothing stands in its place when copied."""


def split_pictures(
    text: str | Sentence | Event, hits: Collection[str] = (), usual: Collection[str] | None = None
) -> tuple[str | Picture, ...]:
    """Return a sentence (an event's: its text as the designer reads it) cut into its
    words and the cards or dice it shows, in order, by its marks (a plain ``str`` has none).

    A card or die face marked on its code (``KS``, ``10``) becomes its
    :class:`~toolkit.pictures.Picture` in place of the text; a card marked on its
    words (``5 of Clubs``, ``Joker``) keeps its words, followed by its picture as an
    :class:`Illustration`. ``hits`` are the faces that hit under the example's rules (drawn red,
    AM-1), ``usual`` those under the system's default rules (``None``: the same).
    """
    said = text.sentence if isinstance(text, Event) else Sentence.of(text)
    parts: list[str | Picture] = []
    at = 0
    for mark in said.marks:
        words = said.text[mark.start : mark.end]
        if mark.kind == "die":
            parts += [said.text[at : mark.start], Picture.die(mark.code, hits, usual)]
        elif words == mark.code:
            parts += [said.text[at : mark.start], Picture.card(mark.code)]
        else:
            parts += [said.text[at : mark.end], Illustration("card", Picture.card(mark.code).code)]
        at = mark.end
    parts.append(said.text[at:])
    return tuple(p for p in parts if p != "")


@dataclass(frozen=True)
class Line:
    """One line of the narration: its event kind and ruling, its text, and the text cut
    into words and pictures (:func:`split_pictures`)."""

    kind: str
    text: str
    ruling: str
    parts: tuple[str | Picture, ...]

    @property
    def pictures(self) -> tuple[Picture, ...]:
        """The cards and dice the line draws, in order."""
        return tuple(p for p in self.parts if isinstance(p, Picture))

    @property
    def is_heading(self) -> bool:
        """Whether the line heads a part of the play (``Round 2.``)."""
        return self.kind in HEADING_KINDS


@dataclass(frozen=True)
class Expectation:
    """One expectation of the file's ``expect`` block, in words, and what the replay
    finds wrong with it (nothing: it holds)."""

    text: str
    problems: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class RulebookExample:
    """A replayed example as a rule book prints it (see the module's docstring)."""

    system: str
    system_title: str
    title: str
    notes: str
    setup: tuple[Line, ...]
    play: tuple[Line, ...]
    outcome: str
    finished: bool
    expectations: tuple[Expectation, ...] = ()

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line of the narration, the setup's first."""
        return self.setup + self.play

    @property
    def pictures(self) -> tuple[Picture, ...]:
        """Every card and die drawn, each once, in the order they first appear."""
        drawn = (Picture(p.kind, p.code, p.hit, p.usual) for line in self.lines for p in line.pictures)
        return tuple(dict.fromkeys(drawn))

    @property
    def holds(self) -> bool:
        """Whether every expectation holds."""
        return all(e.holds for e in self.expectations)


# -- building ------------------------------------------------------------------------------
def from_source(source: str | Path | ExampleSource) -> RulebookExample:
    """Return the example (a path, YAML text or already read) replayed and cut for a rule book.

    Raises:
        NotationError: the example cannot be read or played, with the line at fault.
    """
    done = replay_example(source)
    example, state = done.example, done.state
    return _build(
        done.notation.system,
        str(getattr(example, "title", "") or ""),
        str(getattr(example, "notes", "") or ""),
        state.events,
        done.notation.summary(state),
        state.is_terminal,
        _expectations(done.notation, example, state, done.problems),
        getattr(state, "rules", None),
    )


def from_state(
    state: GameState, title: str, notes: str = "", events: Sequence[Event] | None = None, viewer: str | None = None
) -> RulebookExample:
    """Return a state of any registered system's engine cut for a rule book (a stepper's
    game so far): its ``events`` (or those given: the lines revealed so far) as ``viewer``
    may read them (``None``: everything), and the system's closing sentence once it is over.

    Raises:
        InvalidSetupError: the state is not of a registered system's engine.
    """
    name = system_of_state(state)
    notation = systems.notation(name)
    shown = []
    for e in state.events if events is None else events:
        seen = e.seen_as(viewer)
        if seen is not None:
            shown.append(dataclasses.replace(e, text=seen.text, marks=seen.marks))
    finished = state.is_terminal and (events is None or len(events) == len(state.events))
    # Cut short, the example ends where its last event leaves off; the state's prompt says
    # what comes next, unless the state is past the events shown (then it would tell the end).
    stopped = "The example stops here." + ("" if state.is_terminal else " " + state.prompt())
    outcome = notation.summary(state) if finished else stopped
    return _build(name, title, notes, shown, outcome, finished, (), getattr(state, "rules", None))


def system_of_state(state: GameState) -> str:
    """Return the ``system:`` name of the registered system whose package defines the
    state's class.

    Raises:
        InvalidSetupError: no registered system defines it.
    """
    module = type(state).__module__
    for entry in systems.systems():
        if module == entry.package or module.startswith(entry.package + "."):
            return entry.name
    raise InvalidSetupError(
        f"{type(state).__name__} is not a state of a registered system; the systems are: " + ", ".join(systems.names())
    )


def _build(
    name: str,
    title: str,
    notes: str,
    events: Sequence[Event],
    outcome: str,
    finished: bool,
    expectations: tuple[Expectation, ...],
    rules: Any = None,
) -> RulebookExample:
    default = systems.system(name).rules_class()()
    # the faces that hit under the example's rules and under the default rules (AM-1)
    hits, usual = getattr(rules or default, "hit_faces", ()), getattr(default, "hit_faces", ())
    lines = [Line(e.kind, e.text, e.ruling, split_pictures(e, hits, usual)) for e in events]
    opening = 0
    while opening < len(lines) and lines[opening].kind in SETUP_KINDS:
        opening += 1
    return RulebookExample(
        system=name,
        system_title=systems.system(name).title,
        title=title,
        notes=" ".join(notes.split()),
        setup=tuple(lines[:opening]),
        play=tuple(lines[opening:]),
        outcome=outcome,
        finished=finished,
        expectations=expectations,
    )


# -- expectations ----------------------------------------------------------------------------
def _expectations(
    notation: ExampleNotation, example: Any, state: GameState, problems: Sequence[str]
) -> tuple[Expectation, ...]:
    """Each expectation of the example in words, checked alone by the system's own check
    (the example with only that expectation); problems no single one explains are kept
    under "the expectations as a whole"."""
    expect = getattr(example, "expect", None)
    if not expect:
        return (Expectation("the expectations as a whole", tuple(problems)),) if problems else ()
    singles: list[tuple[str, Any]] = []
    if isinstance(expect, Mapping):  # Angry Miniatures: a mapping of what to check
        hidden = {k: v for k, v in expect.items() if str(k).startswith("_")}
        singles = [(f"{k}: {_words(v)}", {k: v, **hidden}) for k, v in expect.items() if not str(k).startswith("_")]
    else:
        singles = [(_item_words(item), (item,)) for item in expect]
    if not dataclasses.is_dataclass(example):
        held = tuple(problems)
        return tuple(Expectation(text, held) for text, _ in singles)
    out = [
        Expectation(text, tuple(notation.check(dataclasses.replace(example, expect=single), state)))
        for text, single in singles
    ]
    explained = {p for e in out for p in e.problems}
    rest = tuple(p for p in problems if p not in explained)
    if rest:
        out.append(Expectation("the expectations as a whole", rest))
    return tuple(out)


def checks_verdict(expectations: tuple[Expectation, ...]) -> str:
    """Return the sentence over an example's expectations checked on its replay: ``"The
    example file's expectation, checked on this replay, holds."``, ``"… 3 expectations, …,
    all hold."`` or ``"… 1 of 3 NOT met."`` (never "all 1 hold")."""
    n, broken = len(expectations), sum(not e.holds for e in expectations)
    if broken:
        return f"The example file's expectations, checked on this replay: {broken} of {n} NOT met."
    if n == 1:
        return "The example file's expectation, checked on this replay, holds."
    return f"The example file's {n} expectations, checked on this replay, all hold."


def _item_words(item: Any) -> str:
    """One expectation in words: ``attack 1: winner defender; points 1``."""
    if not isinstance(item, Mapping):
        return _words(item)
    shown = [(str(k), v) for k, v in item.items() if not str(k).startswith("_")]
    lead = ""
    if shown and shown[0][0] in ("attack", "round"):
        lead = f"{shown[0][0]} {_words(shown[0][1])}: "
        shown = shown[1:]
    words = [f"no {k.replace('_', ' ')}" if v is None else f"{k.replace('_', ' ')} {_words(v)}" for k, v in shown]
    return lead + "; ".join(words)  # a field given as nothing (``winner: null``): "no winner"


def _words(value: Any) -> str:
    """A value of an expectation in words: ``North 3, South 0``, ``none``, ``yes``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) or "none"
    return str(value)
