"""The "rule-book examples" page of a system: one verified example for every situation
of its catalogue (``notebooks/rulebook_examples.ipynb`` shows it; issue 15 item 4).

:func:`examples_page` finds the first example of each situation
(:func:`~toolkit.rulebook.finder.find_examples`, under the situation's own variant where
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
from toolkit.rulebook.finder import DEFAULT_BUDGET, DEFAULT_SEED, find_examples, rules_for
from toolkit.rulebook.situations import Situation, as_situation, catalogue

__all__ = ["PageEntry", "entry_html", "example_entry", "examples_page", "export_function", "framed"]


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
) -> PageEntry:
    """Return the page entry of one situation: its first example found and replayed."""
    wanted = as_situation(system, situation)
    t0 = time.perf_counter()
    try:
        rules_ = rules_for(system, wanted, rules)
    except InvalidSetupError as exc:
        return PageEntry(wanted, "", "", (), 0.0, "", str(exc))
    found = find_examples(system, wanted, rules_, n=1, seed=seed, budget_seconds=budget_seconds)
    seconds = time.perf_counter() - t0
    if not found:
        note = f"no example found in {budget_seconds:g} s (seed {seed})"
        return PageEntry(wanted, "", "", (), seconds, rules_.variant_name(), note)
    narration, problems = systems.notation(system).replay_text(found[0])
    return PageEntry(wanted, found[0], narration, tuple(problems), seconds, rules_.variant_name())


def examples_page(
    system: str,
    rules: Any = None,
    seed: int = DEFAULT_SEED,
    budget_seconds: float = DEFAULT_BUDGET,
    situations: Iterable[str | Situation] | None = None,
) -> list[PageEntry]:
    """Return the page entries of every situation of ``system``'s catalogue (or of
    ``situations``), in catalogue order."""
    chosen = catalogue(system) if situations is None else tuple(situations)
    return [example_entry(system, s, rules, seed, budget_seconds) for s in chosen]


def export_function() -> Callable[[str], str] | None:
    """Return ``toolkit.rulebook.export.to_html`` (an example's YAML text -> a
    self-contained HTML page), or ``None`` when the export module is not installed."""
    if importlib.util.find_spec("toolkit.rulebook.export") is None:
        return None
    return getattr(importlib.import_module("toolkit.rulebook.export"), "to_html", None)


def framed(document: str, height_em: int = 28) -> str:
    """Return an exported HTML page shown inside a frame of the page (its styles and
    print rules stay its own): an ``iframe`` whose ``srcdoc`` is the escaped page."""
    doc = html.escape(document, quote=True)
    return f'<iframe srcdoc="{doc}" style="width:100%;height:{height_em}em;border:1px solid #ccc"></iframe>'


def entry_html(entry: PageEntry, export: Callable[[str], str] | None = None) -> str:
    """Return one entry as HTML: the situation's heading, rulings and name, the example
    as prose (or why there is none), the export in a frame when ``export`` is given, and
    the example file to copy. Every text is escaped."""
    s = entry.situation
    rulings = f" ({html.escape(', '.join(s.rulings))})" if s.rulings else ""
    parts = [
        f"<h3>{html.escape(s.description)}</h3>",
        f"<p><code>{html.escape(s.name)}</code>{rulings} — rules: {html.escape(entry.rules or '–')}</p>",
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
    parts.append(f"<details><summary>Example file</summary><pre>{html.escape(entry.text)}</pre></details>")
    return "\n".join(parts)
