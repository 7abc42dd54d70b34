"""What the systems' notebook widgets share: escaping, a coloured line of text, a count
in words ("1 card", "3 cards"), reading a field of an outcome that may be a mapping
or an object, and the one rule for the numbers a designer reads (issue 12, from
:mod:`toolkit.numbers`): :func:`probability_text` (``'7/27 ≈ 25.9%'``, ``'48.8%'``),
:func:`number_text` for means (``'7/3 ≈ 2.33'``, ``'≈ 1.31'``), :func:`estimate_text`
and :func:`method_text` for Monte Carlo, :func:`fold_labels` for tables and bars."""

from __future__ import annotations

import html
from typing import Any

from toolkit.numbers import count, estimate_text, fold_labels, method_text, number_text, percent_text, probability_text
from toolkit.prob import field_of

__all__ = [
    "ERROR",
    "OK",
    "coloured",
    "count",
    "esc",
    "estimate_text",
    "field",
    "fold_labels",
    "method_text",
    "number_text",
    "percent_text",
    "probability_text",
]

#: The colour of a refusal, an error or a broken expectation.
ERROR = "#c92a2a"
#: The colour of a line that says all is well (an export that replays, expectations met).
OK = "#2b8a3e"


def esc(text: object) -> str:
    """``text`` as HTML-escaped text."""
    return html.escape(str(text))


def coloured(text: object, colour: str) -> str:
    """``text``, escaped, in a ``<span>`` of that colour (an error line, a note)."""
    return f'<span style="color:{colour}">{esc(text)}</span>'


def field(outcome: Any, name: str, default: Any = None) -> Any:
    """The field ``name`` of an outcome given as a mapping or as an object with that
    attribute (a calculator may return either, :func:`toolkit.prob.field_of`), ``default``
    when it has none.

    >>> field({"winner": "a"}, "winner"), field(object(), "rounds", 1)
    ('a', 1)
    """
    try:
        return field_of(outcome, name)
    except KeyError:
        return default
