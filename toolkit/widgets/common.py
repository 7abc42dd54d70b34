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
    "NOTE",
    "OK",
    "coloured",
    "count",
    "esc",
    "estimate_text",
    "field",
    "fitting_width",
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
#: The neutral colour of a plain note: the example's next move, a partial (unfinished)
#: export — normal states, neither an error nor a success (issue 12).
NOTE = "#444"


def esc(text: object) -> str:
    """``text`` as HTML-escaped text."""
    return html.escape(str(text))


def coloured(text: object, colour: str) -> str:
    """``text``, escaped, in a ``<span>`` of that colour (an error line, a note)."""
    return f'<span style="color:{colour}">{esc(text)}</span>'


def fitting_width(description: str, options: Any = ()) -> str:
    """A CSS width (in ``em``) in which a control's ``description`` and its longest
    option label both fit whole, with room for a dropdown's arrow (issue 12 item 6: no
    cut-off labels). ``options`` are labels or ``(label, value)`` pairs.

    >>> fitting_width("Morale (DB-8)", [("this clash (default)", "clash"), ("whole battle", "battle")])
    '22.3em'
    """
    labels = [o[0] if isinstance(o, tuple) else str(o) for o in options] or [""]
    characters = len(description) + max(map(len, labels))
    return f"{0.6 * characters + 2.5:.1f}em"  # 0.6 em a character is generous for the UI font


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
