"""Rule-book examples: a catalogue of situations per system and a finder of examples
that show them.

- :mod:`.situations`: :class:`Situation` (a named predicate over a finished example),
  :func:`catalogue` and :func:`situation` per system;
- :mod:`.finder`: :func:`find_examples` — example files (YAML that ``toolkit replay``
  replays, ``expect`` filled in) found by searching deals and rolls, simplest first;
- :mod:`.export`: :func:`to_html` and :func:`to_markdown` — an example as a boxed rule-book
  paragraph with its cards and dice drawn (:mod:`.svg`).

Names are imported lazily (``toolkit.rulebook.find_examples``) so that the export
modules of this package load without the searchers.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Situation",
    "as_situation",
    "catalogue",
    "situation",
    "situation_names",
    "find_examples",
    "search",
    "verify",
    "FoundExample",
    "to_html",
    "to_markdown",
]

_WHERE = {
    "Situation": "situations",
    "as_situation": "situations",
    "catalogue": "situations",
    "situation": "situations",
    "situation_names": "situations",
    "find_examples": "finder",
    "search": "finder",
    "verify": "finder",
    "FoundExample": "finder",
    "to_html": "export",
    "to_markdown": "export",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"toolkit.rulebook.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'toolkit.rulebook' has no attribute {name!r}")
