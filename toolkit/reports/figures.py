"""Display helpers for report notebooks: charts, prose and tables that survive export.

Report notebooks are run by papermill and turned into one HTML file by nbconvert
(:mod:`toolkit.reports.runner`). Plotly's default notebook renderer emits only the
``application/vnd.plotly.v1+json`` mimetype, which nbconvert's HTML drops, so a
chart shown with ``fig.show()`` vanishes from the report. :func:`show` emits
``text/html`` instead, with plotly.js inlined once per kernel, so the exported
report works offline.

>>> from fractions import Fraction
>>> format_cell(Fraction(7, 2))
'7/2 = 3.5'
>>> format_cell(Fraction(7, 27), percent=True)
'7/27 ≈ 25.9%'
>>> format_cell(Fraction(4, 1))
'4'
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.errors import InvalidSetupError
from toolkit.prob import format_probability, fraction_text

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["show", "say", "table", "reset", "format_cell"]

#: Plotly config of every chart: no Plotly logo in the mode bar, resize with the page.
PLOTLY_CONFIG: dict[str, Any] = {"displaylogo": False, "responsive": True}

#: Height of a chart whose layout sets none (plotly's own notebook renderer uses 525 px).
DEFAULT_HEIGHT = 525

# Whether this kernel process has already emitted plotly.js in an output.
_plotlyjs_sent = False


def reset() -> None:
    """Forget that plotly.js was sent, so the next :func:`show` inlines it again (for tests)."""
    global _plotlyjs_sent
    _plotlyjs_sent = False


def figure_html(fig: go.Figure, include_plotlyjs: bool) -> str:
    """Return the ``<div>`` HTML of ``fig``: with the full plotly.js inlined when
    ``include_plotlyjs`` is true, else relying on plotly.js being already on the page."""
    from plotly.basedatatypes import BaseFigure

    if not isinstance(fig, BaseFigure):
        raise TypeError(f"show() needs a plotly figure (go.Figure), got {fig!r}")
    return fig.to_html(
        full_html=False,
        include_plotlyjs=include_plotlyjs,
        config=PLOTLY_CONFIG,
        default_width="100%",
        default_height=DEFAULT_HEIGHT,
    )


def show(fig: go.Figure) -> None:
    """Display a plotly figure as ``text/html``, which papermill keeps and nbconvert exports.

    The first chart shown in a kernel process carries the whole plotly.js (about 4.5 MB,
    so the report needs no network); later charts reuse it. Returns nothing.
    """
    from IPython.display import HTML, display

    global _plotlyjs_sent
    markup = figure_html(fig, include_plotlyjs=not _plotlyjs_sent)
    display(HTML(markup))
    _plotlyjs_sent = True


def say(text: str) -> None:
    """Display ``text`` as a Markdown paragraph (the plain-language conclusion of a
    report section); ``<``, ``>`` and ``&`` are escaped, so a value echoed in it can
    never become markup (a ``<script>``). Returns nothing."""
    from IPython.display import Markdown, display

    if not isinstance(text, str):
        raise TypeError(f"say() needs a str of Markdown, got {type(text).__name__}")
    display(Markdown(html.escape(text, quote=False)))  # Markdown, never raw HTML: echoed values stay text


def format_cell(value: Any, percent: bool = False) -> Any:
    """Return how a table shows ``value``: a ``Fraction`` as ``'7/2 = 3.5'`` (``'≈'`` when
    rounded), or as a probability ``'7/27 ≈ 25.9%'`` when ``percent``; a float in a
    percent column as ``'25.9%'``; anything else unchanged."""
    if isinstance(value, bool):
        return value
    if isinstance(value, Fraction):
        if percent:
            return format_probability(value)
        if value.denominator == 1:
            return fraction_text(value)
        shown = f"{float(value):.3f}".rstrip("0").rstrip(".")
        sign = "=" if Fraction(shown) == value else "≈"
        if len(fraction_text(value)) > 21:  # a fraction of many digits reads as noise: the decimal only
            return f"{sign} {shown}"
        return f"{value} {sign} {shown}"
    if percent and isinstance(value, float) and value == value:  # not NaN
        return f"{value:.1%}"
    return value


def table_html(
    df: pd.DataFrame,
    caption: str | None = None,
    percent_columns: Sequence[str] | None = None,
) -> str:
    """Return the HTML of ``df`` as :func:`table` shows it (every text HTML-escaped)."""
    percent = list(percent_columns or [])
    missing = [c for c in percent if c not in df.columns]
    if missing:
        raise InvalidSetupError(
            f"percent_columns {missing!r} are not columns of the table; "
            f"columns: {', '.join(repr(c) for c in df.columns)}"
        )
    shown = df.copy()
    for column in shown.columns:
        is_percent = column in percent
        shown[column] = shown[column].map(lambda v, p=is_percent: format_cell(v, p)).astype(object)
    index = not _is_default_index(df)
    markup = shown.to_html(escape=True, index=index, border=0, classes="toolkit-table", na_rep="")
    if caption is not None:
        markup = markup.replace(">", f"><caption>{html.escape(str(caption))}</caption>", 1)
    return markup


def table(
    df: pd.DataFrame,
    caption: str | None = None,
    percent_columns: Sequence[str] | None = None,
) -> None:
    """Display a DataFrame as an HTML table. Returns nothing.

    ``Fraction`` values show exactly with a decimal (``'7/2 = 3.5'``); in the
    ``percent_columns`` they show as probabilities (``'7/27 ≈ 25.9%'``, floats as
    ``'25.9%'``). A plain ``0..n-1`` index is hidden. Names are HTML-escaped.
    """
    from IPython.display import HTML, display

    display(HTML(table_html(df, caption=caption, percent_columns=percent_columns)))


def _is_default_index(df: pd.DataFrame) -> bool:
    import pandas as pd

    index = df.index
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 and index.name is None
