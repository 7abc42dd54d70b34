"""Rulings that index themselves: each ruling's implementation says so where it is written.

A system's rules layer marks the one function implementing a ruling (or one part of it,
or a reading the toolkit adds where the rulings are silent) with :func:`implements`::

    @implements("FM-8")
    def matches(card, numbered, rules=None): ...

and the system describes its rulings once, as a :class:`RulingBook` (the id, a title and
the text of every ruling, and one :class:`Part` per row of the index: the key a function
claims and what it decides). The book's :meth:`RulingBook.implementations` imports the
system's rules layer and returns which function claims each key, so the index of
``docs/rulings.md`` and the README's ruling list are generated from the code
(``python scripts/rulings.py``) and cannot drift from it.

A key is a ruling id (``"FM-8"``) or an id and a short tag (``"FM-6 keep-back"``: a
part of FM-6, or a reading of it); exactly one function claims each key (a test checks
it, and that each claimed function is reached when the rule-book examples are replayed).

>>> @implements("XX-1")
... def example_rule() -> int:
...     '''The whole of XX-1.'''
...     return 1
>>> [name for name, _ in claims("XX-1")]
['toolkit.rulings.example_rule']
>>> forget("XX-1")
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import Any, TypeVar

from toolkit.errors import InvalidSetupError

__all__ = [
    "KEY",
    "Part",
    "Ruling",
    "RulingBook",
    "implements",
    "claims",
    "claimed_keys",
    "code_of",
    "forget",
]

F = TypeVar("F", bound=Callable[..., Any])

#: The form of a key: a ruling id (``FM-8``), optionally a space and a tag (``FM-6 keep-back``).
KEY = re.compile(r"(?P<id>[A-Z]{2}-\d+)(?: (?P<tag>[a-z0-9][a-z0-9 /-]*))?")

#: Every claim made so far: key -> ``(dotted name, function)`` in the order made.
_CLAIMS: dict[str, list[tuple[str, Callable[..., Any]]]] = {}


def implements(*keys: str) -> Callable[[F], F]:
    """Mark the function below as the one implementation of each of ``keys`` (ruling ids,
    or an id and a tag: ``"FM-6 keep-back"``) and return it unchanged (no wrapper, so no
    cost when it runs). Put it under ``@property`` for a property.

    Raises:
        InvalidSetupError: a key is not of the form ``AB-n`` or ``AB-n tag``.
    """
    for key in keys:
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise InvalidSetupError(
                f"{key!r} is not a ruling key: write an id (FM-8) or an id and a tag (FM-6 keep-back)"
            )

    def mark(function: F) -> F:
        name = f"{function.__module__}.{function.__qualname__}"
        for key in keys:
            _CLAIMS.setdefault(key, [])
            if all(existing != name for existing, _ in _CLAIMS[key]):  # a module reloaded claims again
                _CLAIMS[key].append((name, function))
        return function

    return mark


def claims(key: str) -> tuple[tuple[str, Callable[..., Any]], ...]:
    """Return every ``(dotted name, function)`` that claims ``key``, in the order claimed
    (one, when the index is true)."""
    return tuple(_CLAIMS.get(key, ()))


def claimed_keys(prefix: str) -> tuple[str, ...]:
    """Return every key claimed whose id starts with ``prefix`` (``"FM"``), in claim order."""
    return tuple(k for k in _CLAIMS if k.startswith(f"{prefix}-"))


def forget(key: str) -> None:
    """Drop every claim of ``key`` (for a test's own made-up rulings)."""
    _CLAIMS.pop(key, None)


def code_of(function: Any) -> CodeType:
    """Return the code object that runs when ``function`` (a function, method or
    property) is called: what a trace of the engine sees."""
    if isinstance(function, property):
        function = function.fget
    return inspect.unwrap(function).__code__


@dataclass(frozen=True)
class Ruling:
    """One ruling of a system, as the rulings page prints it.

    Attributes:
        id: ``"FM-8"``.
        title: a few words (``"cheating"``).
        text: what it says, in Markdown (variants included: ``option="value"``).
    """

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Part:
    """One row of the index: a key one function claims and what that function decides.

    Attributes:
        key: ``"FM-8"`` (the ruling, whole) or ``"FM-6 keep-back"`` (a part or a reading).
        what: what the function decides, in a line.
        reading: the text of a reading the toolkit adds where the rulings are silent
            (empty for a ruling or one of its parts).
        reached_by: how the tests reach it: ``"examples"`` (replaying the rule-book
            examples calls it) or a sentence naming the calculator that calls it (a
            reading only the solvers or the exact odds need).
    """

    key: str
    what: str
    reading: str = ""
    reached_by: str = "examples"

    @property
    def ruling(self) -> str:
        """The ruling id of the key: ``"FM-6"`` for ``"FM-6 keep-back"``."""
        match = KEY.fullmatch(self.key)
        if match is None:
            raise InvalidSetupError(f"{self.key!r} is not a ruling key (FM-8, FM-6 keep-back)")
        return match.group("id")


@dataclass(frozen=True)
class RulingBook:
    """Every ruling of one system, and where each is implemented.

    Attributes:
        system: its ``system:`` name, as in its example files.
        title: what a designer calls it.
        prefix: its ruling ids' prefix (``"FM"``).
        blurb: one line under its heading.
        rulings: every ruling, in id order.
        parts: the rows of the index (every ruling id has at least one).
        modules: the rules-layer modules whose :func:`implements` claim the parts.
        after_rulings: Markdown printed after the rulings (a yardstick option, the
            draft's worked example).
        house_readings: readings for house rules the drafts never considered (one
            Markdown sentence each).
    """

    system: str
    title: str
    prefix: str
    blurb: str
    rulings: tuple[Ruling, ...]
    parts: tuple[Part, ...]
    modules: tuple[str, ...]
    after_rulings: str = ""
    house_readings: tuple[str, ...] = ()

    def ids(self) -> tuple[str, ...]:
        """Return the ruling ids, in order."""
        return tuple(r.id for r in self.rulings)

    def ruling(self, ruling_id: str) -> Ruling:
        """Return the ruling ``ruling_id``.

        Raises:
            InvalidSetupError: no such ruling; the message lists the ids.
        """
        for r in self.rulings:
            if r.id == ruling_id:
                return r
        raise InvalidSetupError(f"{ruling_id!r} is not a ruling of {self.title}: the ids are {', '.join(self.ids())}")

    def implementations(self) -> dict[str, tuple[tuple[str, Callable[..., Any]], ...]]:
        """Return, for each key claimed with this book's prefix, every ``(dotted name,
        function)`` claiming it, after importing the rules layer (:attr:`modules`)."""
        for module in self.modules:
            importlib.import_module(module)
        return {key: claims(key) for key in claimed_keys(self.prefix)}

    def implementation(self, key: str) -> Callable[..., Any]:
        """Return the one function (or property) implementing ``key`` (``"FM-4"``).

        Raises:
            InvalidSetupError: no function claims it, or more than one does.
        """
        found = self.implementations().get(key, ())
        if len(found) != 1:
            names = ", ".join(n for n, _ in found) or "none"
            raise InvalidSetupError(f"{key} must be claimed by exactly one function; claimed by: {names}")
        return found[0][1]

    def problems(self) -> list[str]:
        """Return every way the index is not true, one sentence each (empty when true): a
        key claimed twice or never, a claim of a key the book does not list, a ruling
        with no row, a function whose docstring does not cite its ruling id."""
        found = self.implementations()
        listed = {p.key for p in self.parts}
        out = []
        for part in self.parts:
            names = [n for n, _ in found.get(part.key, ())]
            if not names:
                out.append(f"{part.key} ({part.what}): no function claims it (@implements({part.key!r}))")
            elif len(names) > 1:
                out.append(f"{part.key} is claimed by {len(names)} functions: {', '.join(names)}")
        for key, claimed in found.items():
            if key not in listed:
                out.append(f"{key} is claimed by {claimed[0][0]} but is not a part of the {self.prefix} index")
        for ruling_id in self.ids():
            if not any(p.ruling == ruling_id for p in self.parts):
                out.append(f"{ruling_id} has no row in the index")
        for part in self.parts:
            for name, function in found.get(part.key, ()):
                target = function.fget if isinstance(function, property) else function
                doc = inspect.getdoc(target) or ""
                if not re.search(rf"\b{re.escape(part.ruling)}(?!\d)", doc):
                    out.append(f"{name}'s docstring does not cite {part.ruling}")
        return out


# -- the generated pages ------------------------------------------------------------------
#: What marks the README's generated ruling list (the text between is replaced).
README_START = "<!-- ruling index: generated by python scripts/rulings.py; edit the rulings.py of each system -->"
README_END = "<!-- end of ruling index -->"

_PAGE_INTRO = """\
# Rulings: how the toolkit reads the three rule drafts

<!-- Generated by `python scripts/rulings.py` from each system's rulings.py and the rules
layer's @implements: edit those, not this page (a test checks it is up to date). -->

The combat systems come from drafts that leave gaps and now and then contradict
themselves. For every gap the toolkit picks **one default reading**, a *ruling* with an
id: {ranges}. The log lines of the steppers, the explorers' summaries, the reports, the
code's docstrings and the tests cite these ids; this page says what each one means and
which function implements it.

Where designers disagree, a ruling has **variants**: a named option of that system's
`Rules` (shown as `option="value"` below, with the default first). A variant is never a
code edit: pass it to `Rules(...)` or pick it in an explorer, and compare the odds.

Each ruling is written once, as the function the system's index names (marked in the
code with `@implements("FM-8")`); everything else calls it. After the rulings,
[Readings the toolkit adds](#readings-the-toolkit-adds) lists the smaller choices made
where even the rulings say nothing.

Every number and table of the drafts (which faces hit, how many cards a fairy draws, what
a strike costs, the damage table, ...) is also a field of the system's `Rules`, so a
designer can try house rules without editing code: [house_rules.md](house_rules.md)
lists every field with the ruling it belongs to and its default.

Cards are written rank then suit: `2`–`10`, `J`, `Q`, `K`, `A`, then `S` spades, `H`
hearts, `D` diamonds, `C` clubs (`10H`, `AS`, `QC`); jokers are `JK1`, `JK2`. Hearts and
diamonds are red, spades and clubs black.
"""


def books() -> tuple[RulingBook, ...]:
    """Return the ruling book of every registered system that has one (its ``rulings`` hook,
    a function returning a :class:`RulingBook`), in the registry's order."""
    from toolkit import systems  # the registry sits above the rules layers that import this module

    return tuple(entry.hook("rulings")() for entry in systems.systems() if entry.has("rulings"))


def _wrap(text: str, first: str, indent: str = "  ", width: int = 90) -> list[str]:
    """``text`` wrapped to ``width``, no line but the first starting as a Markdown list item would."""
    import textwrap

    while True:
        lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=indent, break_on_hyphens=False)
        if not any(_LIST_ITEM.match(line) for line in lines[1:]):
            return lines
        width -= 1


#: A line Markdown would read as the start of a list item.
_LIST_ITEM = re.compile(r"\s*(?:[-+*]|\d+[.)])(?:\s|$)")


def _range(book: RulingBook) -> str:
    ids = book.ids()
    return f"**{ids[0]}..{ids[-1]}** ({book.title})" if ids else book.title


def rulings_page(found: tuple[RulingBook, ...]) -> str:
    """Return ``docs/rulings.md``: every ruling of ``found`` in words, each system's index
    (which function implements each key, from the :func:`implements` claims) and the
    readings the toolkit adds."""
    ranges = ", ".join(_range(b) for b in found)
    intro = _PAGE_INTRO.format(ranges=ranges).rstrip("\n").split("\n\n")
    intro[2] = "\n".join(_wrap(" ".join(intro[2].split()), "", ""))
    out = "\n\n".join(intro).split("\n")
    for book in found:
        out += ["", f"## {book.title} ({book.prefix})", "", book.blurb, ""]
        for r in book.rulings:
            out += _wrap(f"**{r.id} — {r.title}.** {r.text}", "- ")
        if book.after_rulings:
            out += ["", *book.after_rulings.split("\n")]
        claimed = book.implementations()
        out += [
            "",
            f"### Where each {book.prefix} ruling is implemented",
            "",
            "| key | what it decides | implemented by |",
            "|---|---|---|",
        ]
        for part in book.parts:
            names = ", ".join(f"`{name}`" for name, _ in claimed.get(part.key, ())) or "(nothing claims it)"
            out.append(f"| {part.key} | {part.what}{' (a reading)' if part.reading else ''} | {names} |")
    out += [
        "",
        "## Readings the toolkit adds",
        "",
        "Where even the rulings are silent, the toolkit reads the drafts as follows (each reading",
        "is a row of its system's index, so it is stated where it is coded):",
        "",
    ]
    for book in found:
        for part in book.parts:
            if part.reading:
                out += _wrap(f"**{part.key}:** {part.reading}", "- ")
    out += [
        "",
        "### Readings added for house rules",
        "",
        "Some house rules reach places the drafts never considered; the toolkit reads them so:",
        "",
    ]
    for book in found:
        for sentence in book.house_readings:
            out += _wrap(sentence, "- ")
    return "\n".join(out) + "\n"


def readme_section(found: tuple[RulingBook, ...]) -> str:
    """Return the README's ruling index (between :data:`README_START` and
    :data:`README_END`): each system's ruling ids and titles, pointing at the page."""
    out = [
        README_START,
        "Every ruling the toolkit reads into the drafts has an id, cited by the code, the logs and",
        "the tests; [`docs/rulings.md`](docs/rulings.md) says what each means and names the one",
        "function implementing it (generated from the code: `python scripts/rulings.py`).",
        "",
        "| system | rulings |",
        "|---|---|",
    ]
    for book in found:
        out.append(f"| {book.title} | " + " · ".join(f"{r.id} {r.title}" for r in book.rulings) + " |")
    out.append(README_END)
    return "\n".join(out)


def with_readme_section(readme: str, found: tuple[RulingBook, ...]) -> str:
    """Return ``readme`` with its ruling index replaced by :func:`readme_section`.

    Raises:
        InvalidSetupError: the README has no marked ruling index.
    """
    start, end = readme.find(README_START), readme.find(README_END)
    if start < 0 or end < start:
        raise InvalidSetupError(f"the README has no ruling index between {README_START!r} and {README_END!r}")
    return readme[:start] + readme_section(found) + readme[end + len(README_END) :]
