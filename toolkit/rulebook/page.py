"""The "rule-book examples" page of a system: one verified example for every situation
of its catalogue (``notebooks/rulebook_examples.ipynb`` shows it), so every situation has an example the engine replays.

:func:`examples_page` finds the first example of each situation
(:func:`~toolkit.rulebook.finder.search`, under the situation's own variant where
the rules in force make it impossible: :func:`~toolkit.rulebook.finder.rules_for`),
replays it as ``toolkit replay`` does and keeps the narration and any unmet expectation;
:func:`entry_html` renders one entry (every text HTML-escaped), with the rule-book export
(``toolkit.rulebook.export.to_html``) when that module is installed.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from toolkit import systems
from toolkit.errors import InvalidSetupError
from toolkit.rulebook.finder import DEFAULT_BUDGET, DEFAULT_SEED, CandidatePool, rules_for, search
from toolkit.rulebook.situations import Situation, as_situation, catalogue

__all__ = ["PageEntry", "entry_html", "example_entry", "examples_page", "export_function", "framed", "source_html"]


@dataclass(frozen=True)
class PageEntry:
    """One situation of the page.

    Attributes:
        situation: the situation.
        text: the example file found (``""`` if none).
        narration: the example replayed as prose (``toolkit replay``'s text).
        problems: the expectations the replay does not meet (empty: verified).
        seconds: how long the search took.
        rules: the variant searched under (``Rules.variant_name()``).
        note: why there is no example, if there is none.
    """

    situation: Situation
    text: str
    narration: str
    problems: tuple[str, ...]
    seconds: float
    rules: str
    note: str = ""

    @property
    def verified(self) -> bool:
        """Whether an example was found and replays with every expectation met."""
        return bool(self.text) and not self.problems


def example_entry(
    system: str,
    situation: str | Situation,
    rules: Any = None,
    seed: int = DEFAULT_SEED,
    budget_seconds: float = DEFAULT_BUDGET,
    pool: CandidatePool | None = None,
) -> PageEntry:
    """Return the page entry of one situation: its first example found and replayed (the
    searches of one ``pool`` share the games they play: the same examples, found sooner)."""
    wanted = as_situation(system, situation)
    t0 = time.perf_counter()
    try:
        rules_ = rules_for(system, wanted, rules)
    except InvalidSetupError as exc:
        return PageEntry(wanted, "", "", (), 0.0, "", str(exc))
    found = search(system, wanted, rules_, n=1, seed=seed, budget_seconds=budget_seconds, pool=pool)
    seconds = time.perf_counter() - t0
    if not found:
        note = f"no example found in {budget_seconds:g} s (seed {seed})"
        return PageEntry(wanted, "", "", (), seconds, rules_.variant_name(), note)
    # the search replayed the file to verify it: its state is what toolkit replay plays
    notation = systems.notation(system)
    narration, problems = notation.replayed_text(notation.load(found[0].text), found[0].state)
    return PageEntry(wanted, found[0].text, narration, tuple(problems), seconds, rules_.variant_name())


def examples_page(
    system: str,
    rules: Any = None,
    seed: int = DEFAULT_SEED,
    budget_seconds: float = DEFAULT_BUDGET,
    situations: Iterable[str | Situation] | None = None,
) -> list[PageEntry]:
    """Return the page entries of every situation of ``system``'s catalogue (or of
    ``situations``), in catalogue order. The searches share the games they play
    (:class:`~toolkit.rulebook.finder.CandidatePool`): each entry is the one its own
    search finds, and a game played for one situation is not played again for another."""
    chosen = catalogue(system) if situations is None else tuple(situations)
    pool = CandidatePool()
    return [example_entry(system, s, rules, seed, budget_seconds, pool) for s in chosen]


def export_function(fragment: bool = False) -> Callable[[str], str] | None:
    """Return the rule-book export of an example's YAML text: a self-contained HTML page
    (``toolkit.rulebook.export.to_html``), or with ``fragment`` the boxed example as an HTML
    fragment with its own scoped style, sized to its content (a notebook's preview); ``None``
    when the export module is not installed."""
    if importlib.util.find_spec("toolkit.rulebook.export") is None:
        return None
    to_html = getattr(importlib.import_module("toolkit.rulebook.export"), "to_html", None)
    if to_html is None or not fragment:
        return to_html
    return lambda text: to_html(text, fragment=True)


def framed(document: str) -> str:
    """Return an exported HTML page shown inline at its own height, never in a frame that
    cuts it: the page's ``<body>`` (its style sheet is scoped to the example's box)."""
    start, end = document.find("<body>"), document.rfind("</body>")
    body = document[start + len("<body>") : end] if start >= 0 and end > start else document
    head = document[: max(start, 0)]
    head_style = ""
    if "<style>" in head and "</style>" in head:
        head_style = head[head.index("<style>") : head.index("</style>") + len("</style>")]
        head_style = head_style.replace("body{", ".rb-framed{").replace("@page{margin:15mm}", "")
    return f'<div class="rb-framed">{head_style}{body}</div>'


def source_html(text: str, command: str = "") -> str:
    """Return an example file's YAML in a folded box to copy (class ``rb-source``: a
    designer's file, its keys as the file writes them), with the command that finds it."""
    run = f"<p>Found by <code>{html.escape(command)}</code></p>" if command else ""
    return (
        f'<details class="rb-source"><summary>Example file (YAML, to copy)</summary>{run}'
        f"<pre>{html.escape(text)}</pre></details>"
    )


def entry_html(entry: PageEntry, export: Callable[[str], str] | None = None, system: str = "") -> str:
    """Return one entry as HTML: the situation's heading and rulings, the rules searched
    under in words, the example as the rule book prints it (``export``: an example's text
    to HTML, shown at its own height; else the prose) or why there is none, and the example
    file to copy. Every text is escaped."""
    s = entry.situation
    rulings = f"Rulings {html.escape(', '.join(s.rulings))} · " if s.rulings else ""
    parts = [
        f"<h3>{html.escape(s.label)}</h3>",
        f"<p>{rulings}rules: {html.escape(entry.rules or 'default rules')}</p>",
    ]
    if not entry.text:
        parts.append(f"<p><em>{html.escape(entry.note)}</em></p>")
        return "\n".join(parts)
    verdict = (
        "verified: replays with every expectation met"
        if entry.verified
        else "NOT verified: " + "; ".join(entry.problems)
    )
    parts.append(f"<p>{html.escape(verdict)} · found in {entry.seconds:.2f} s</p>")
    if export is not None:
        parts.append(framed(export(entry.text)))
    else:
        parts.append(f"<pre>{html.escape(entry.narration)}</pre>")
    command = f"toolkit find-example {system} {s.name}" if system else ""
    parts.append(source_html(entry.text, command))
    return "\n".join(parts)
