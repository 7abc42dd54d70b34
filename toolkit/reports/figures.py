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
>>> format_cell(Fraction(1574571079174182208193, 1204941652776856566000))
'≈ 1.31'

Every text a designer or a file supplies (an army's name, a house-rules title) is shown as
text: :func:`plain` escapes it for a Markdown sentence, :func:`say` renders its Markdown
with no links, images or raw HTML, and :func:`show` lets no link tag into a chart's labels.

>>> print(plain("[North](javascript:alert(1)) <b>"))
\\[North\\]\\(javascript\\:alert\\(1\\)\\) \\<b\\>

Every number goes through the one display rule of :mod:`toolkit.numbers`: a
fraction only while it is short, Monte Carlo estimates as ``estimate ± interval``, tails
below 0.05% folded into one ``'≥ k'`` row (:func:`fold_frame`) or bar (:func:`bar`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.errors import InvalidSetupError
from toolkit.montecarlo import Estimate
from toolkit.numbers import (
    TAIL,
    AtLeast,
    AtMost,
    Points,
    fold_labels,
    fold_tail,
    fold_weights,
    interval_text,
    number_text,
    percent_text,
    probability_text,
)
from toolkit.prob import Distribution
from toolkit.question import headline_of

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = [
    "show",
    "say",
    "plain",
    "markdown_html",
    "chart_text",
    "table",
    "reset",
    "format_cell",
    "fold_frame",
    "bar",
    "hover_text",
]

#: The most rows a report table shows; the rest are counted in a last "… N more rows" line.
MAX_TABLE_ROWS = 200

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
    import plotly.io as pio

    # Every label passes chart_text: an army's name in a title or a legend cannot become a link.
    return pio.to_html(
        _chart_texts(fig.to_plotly_json()),
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


#: ASCII punctuation, which Markdown may read as syntax (``<`` and ``&`` as HTML); CommonMark
#: lets a backslash escape any of it.
_MARKDOWN_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def plain(value: object) -> str:
    """Return ``str(value)`` as Markdown that shows exactly that text: every ASCII
    punctuation mark backslash-escaped (HTML's ``<`` and ``&`` included) and line breaks
    as spaces, so a name such as ``'[North](javascript:…)'``, ``'![s](http://…)'``,
    ``'**bold**'`` or ``'<script>'`` in a :func:`say` sentence is read as itself, never as
    a link, an image, emphasis or markup.

    >>> print(plain("**North** & <South>"))
    \\*\\*North\\*\\* \\& \\<South\\>
    """
    out = []
    for ch in str(value):
        if ch in _MARKDOWN_PUNCTUATION:
            out.append("\\" + ch)
        elif ch in "\r\n":
            out.append(" ")  # a line break could start a heading, a list or a quote
        else:
            out.append(ch)
    return "".join(out)


def markdown_html(text: str) -> str:
    """Return the HTML of the Markdown ``text`` as :func:`say` shows it: emphasis, code,
    lists and tables as usual, but raw HTML escaped and every link, image and bare address
    reduced to its text, so nothing in ``text`` can make the page link to or load anything.

    >>> markdown_html("**Ogre** [wins](javascript:alert(1)) ![x](http://127.0.0.1:9/x.png) <b>")
    '<p><strong>Ogre</strong> wins x &lt;b&gt;</p>\\n'
    """
    return _text_only_markdown()(text)


_RENDER: Any = None


def _text_only_markdown() -> Any:
    """The Markdown renderer of :func:`markdown_html`, built once (mistune, nbconvert's own)."""
    global _RENDER
    if _RENDER is None:
        import mistune

        class TextOnly(mistune.HTMLRenderer):
            def link(self, text: str, url: str, title: str | None = None) -> str:
                return text  # the link's words, never an href

            def image(self, text: str, url: str, title: str | None = None) -> str:
                return html.escape(text)  # the alt text, never a src

        # No "url" plugin: a bare address stays text (nbconvert's own renderer links it).
        _RENDER = mistune.create_markdown(renderer=TextOnly(escape=True), plugins=["strikethrough", "table"])
    return _RENDER


def say(text: str) -> None:
    """Display ``text`` as a Markdown paragraph (the plain-language conclusion of a
    report section), rendered by :func:`markdown_html`: raw HTML is escaped and links,
    images and addresses show as text only, so a value echoed in it can never become
    markup (a ``<script>``) nor a link or a remote image. Wrap a designer's text in
    :func:`plain` so that it also keeps its ``*`` and ``[`` as written. Returns nothing."""
    from IPython.display import HTML, display

    if not isinstance(text, str):
        raise TypeError(f"say() needs a str of Markdown, got {type(text).__name__}")
    display(HTML(markdown_html(text)))


#: The tags the toolkit itself writes in chart labels (plotly reads a few HTML tags in its
#: texts; none of these takes an attribute, so none can link or load anything).
_CHART_TAG = re.compile(r"<(?!/?(?:br|b|i|em|sup|sub|extra)\s*/?>)", re.IGNORECASE)


def chart_text(value: str) -> str:
    """Return a chart label with every ``<`` that does not open one of the attribute-less
    tags the toolkit writes (``<br>``, ``<b>``, ``<i>``, ``<sup>``, ``<sub>``, ``<extra>``)
    written ``&lt;``, which plotly shows as ``<``: a name such as ``'<a href=…>'`` is shown
    as itself, never as a link.

    >>> chart_text('<a href="http://x">North</a><br>wins')
    '&lt;a href="http://x">North&lt;/a><br>wins'
    """
    return _CHART_TAG.sub("&lt;", value)


def _chart_texts(node: Any) -> Any:
    """``node`` (a figure's JSON) with :func:`chart_text` applied to every string in it."""
    if isinstance(node, str):
        return chart_text(node)
    if isinstance(node, dict):
        return {k: _chart_texts(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_chart_texts(v) for v in node]
    return node


def format_cell(value: Any, percent: bool = False) -> Any:
    """Return how a table shows ``value``, by the display rule of :mod:`toolkit.numbers`:
    a ``Fraction`` as a number (``'7/2 = 3.5'``, ``'7/3 ≈ 2.33'``, ``'≈ 1.31'``
    when the fraction is long), or as a probability when ``percent`` (``'7/27 ≈ 25.9%'``,
    ``'48.8%'``); a float as ``'1.31'`` (``'25.9%'`` in a percent column); a Monte Carlo
    :class:`~toolkit.montecarlo.Estimate` as ``'48.8% ± 0.7% (95%), estimated from …'``;
    a :class:`~toolkit.numbers.Points` as ``'−9.6 points'``; ``True``/``False`` as ``'yes'``/``'no'``,
    ``None`` as an empty cell and a list as its items joined (``'greedy, greedy'``): no Python
    value on the page; anything else unchanged."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, Estimate):
        return value.text()
    if isinstance(value, Points):  # a difference of probabilities: '−9.6 points', never a fraction or '%'
        return str(value)
    if isinstance(value, Fraction):
        return probability_text(value) if percent else number_text(value)
    if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):  # not NaN
        return percent_text(value) if percent else number_text(value)
    if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        return ", ".join(str(format_cell(v, percent)) for v in value)
    return value


def fold_frame(
    df: pd.DataFrame,
    outcome: str,
    probability: str = "probability",
    threshold: Fraction = TAIL,
    sums: Sequence[str] = ("percent",),
) -> pd.DataFrame:
    """Return ``df`` (rows in display order, one per outcome, the tail last) with its last
    rows whose ``probability`` column together is below ``threshold`` (0.05%) folded into
    one row (a long tail of 0.0% rows says nothing): ``outcome`` reads ``'≥ k'``, ``probability`` and the ``sums``
    columns present hold the sum of the rows folded (exact for fractions), other
    columns are left empty. The total is kept exactly; ``df`` is not changed.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"damage": [0, 1, 2, 3], "probability": [Fraction(1, 2), Fraction(4997, 10000),
    ...                       Fraction(2, 10000), Fraction(1, 10000)]})
    >>> fold_frame(frame, "damage")["damage"].tolist(), fold_frame(frame, "damage")["probability"].tolist()[-1]
    ([0, 1, '≥ 2'], Fraction(3, 10000))
    """
    import pandas as pd

    for column in (outcome, probability):
        if column not in df.columns:
            raise InvalidSetupError(
                f"{column!r} is not a column of the table; columns: {', '.join(repr(c) for c in df.columns)}"
            )
    values = list(df[probability])
    if not values:
        return df.copy()
    total, weights = _common_weights(values)
    folded = fold_weights(list(enumerate(weights)), total, threshold)
    if len(folded) == len(values):
        return df.copy()
    first = folded[-1][0].k  # AtLeast(the first row folded)
    tail = df.iloc[first:]
    row: dict[str, Any] = {column: "" for column in df.columns}
    row[outcome] = str(AtLeast(tail[outcome].iloc[0]))
    row[probability] = Fraction(folded[-1][1], total)
    for column in sums:
        if column in df.columns and column not in (outcome, probability):
            cells = list(tail[column])
            exact = all(isinstance(c, int | Fraction) and not isinstance(c, bool) for c in cells)
            if exact:
                den, nums = _common_weights(cells)
                row[column] = Fraction(sum(nums), den)
            else:
                row[column] = sum(cells)
    out = pd.concat([df.iloc[:first], pd.DataFrame([row])], ignore_index=True)
    return out.astype(object)


def _common_weights(values: Sequence[Any]) -> tuple[int, list[int]]:
    """``values`` (exact) as integer weights over their common denominator, and that
    denominator: no gcd per value, so thousands of huge fractions add up fast."""
    import math

    exact = [Fraction(v) for v in values]
    total = math.lcm(*{v.denominator for v in exact})
    return total, [v.numerator * (total // v.denominator) for v in exact]


def hover_text(label: object, p: Fraction | Estimate) -> str:
    """The hover text of a bar: ``'2 damage: 7/27 ≈ 25.9%'`` (``'… 48.8% ± 0.7% (95%), …'``
    for an estimate)."""
    return f"{label}: {p.text() if isinstance(p, Estimate) else probability_text(p)}"


def bar(
    rows: Distribution[Any] | Sequence[tuple[Any, Fraction]],
    name: str | None = None,
    threshold: Fraction = TAIL,
    label: Any = str,
    **kwargs: Any,
) -> go.Bar:
    """Return a plotly bar trace of a distribution (or of ``(outcome, probability)`` pairs in
    display order) as a designer reads it: the tail below ``threshold`` (0.05%) folded into
    one ``'≥ k'`` bar, heights in percent, each bar's text its percent (never ``0.0%`` for a
    possible outcome) and its hover text the probability by the display rule (``'2: 7/27 ≈
    25.9%'``). A result that is an estimate (an :class:`~toolkit.odds_result.Odds` that is
    not exact) draws each bar with its error bar, from the result's own interval, and its
    hover text ``'2: 14.4% ± 1.6% (95%)'``. ``label`` writes an outcome; ``kwargs`` go to
    ``go.Bar``."""
    import plotly.graph_objects as go

    shown = fold_labels(rows, threshold, label=label)
    intervals = _intervals(rows, threshold)
    hover = [hover_text(k, p) for k, p in shown]
    if intervals is not None:
        level = getattr(rows, "confidence", 0.95)
        hover = [f"{k}: {interval_text(p, lo, hi, level)}" for (k, p), (lo, hi) in zip(shown, intervals, strict=True)]
        kwargs.setdefault(
            "error_y",
            {
                "type": "data",
                "symmetric": False,
                "array": [max(0.0, hi - float(p)) * 100 for (_, p), (_, hi) in zip(shown, intervals, strict=True)],
                "arrayminus": [max(0.0, float(p) - lo) * 100 for (_, p), (lo, _) in zip(shown, intervals, strict=True)],
            },
        )
    return go.Bar(
        x=[k for k, _ in shown],
        y=[float(p) * 100 for _, p in shown],
        text=[percent_text(p) for _, p in shown],
        hovertext=hover,
        hoverinfo="text",
        name=name,
        **kwargs,
    )


def _intervals(rows: Any, threshold: Fraction) -> list[tuple[float, float]] | None:
    """Each shown bar's interval when ``rows`` is an estimate with ``interval`` (a folded
    tail's: the interval of every outcome from its first), else ``None``."""
    if getattr(rows, "exact", True) or not callable(getattr(rows, "interval", None)):
        return None
    out = []
    for o, _ in fold_tail(rows, threshold):
        if isinstance(o, AtLeast):
            event = lambda x, k=o.k: x >= k
        elif isinstance(o, AtMost):
            event = lambda x, k=o.k: x <= k
        else:
            event = lambda x, o=o: x == o
        low, high = rows.interval(event)
        out.append((float(low), float(high)))
    return out


def table_html(
    df: pd.DataFrame,
    caption: str | None = None,
    percent_columns: Sequence[str] | None = None,
    question: Any = None,
) -> str:
    """Return the HTML of ``df`` as :func:`table` shows it (every text HTML-escaped)."""
    percent = list(percent_columns or [])
    missing = [c for c in percent if c not in df.columns]
    if missing:
        raise InvalidSetupError(
            f"percent_columns {missing!r} are not columns of the table; "
            f"columns: {', '.join(repr(c) for c in df.columns)}"
        )
    hidden = max(0, len(df) - MAX_TABLE_ROWS)
    shown = df.iloc[:MAX_TABLE_ROWS].copy()  # a 9,100-row table is neither read nor fast
    for column in shown.columns:
        is_percent = column in percent
        shown[column] = shown[column].map(lambda v, p=is_percent: format_cell(v, p)).astype(object)
    if not _is_default_index(df):  # the index as columns: no row of index names, no "None"
        shown.index.names = [name if name is not None else "" for name in shown.index.names]
        if not set(shown.index.names) & set(shown.columns):  # else a column would be written twice
            shown = shown.reset_index()
    shown.columns.name = None  # a pivot's column name ("kind") would be a row of its own
    index = not _is_default_index(shown)
    markup = shown.to_html(escape=True, index=index, border=0, classes="toolkit-table", na_rep="")
    markup = _text_left(markup, shown, shown.index.nlevels if index else 0)
    line = question if isinstance(question, str) else headline_of(question)
    if caption is not None or line:
        heading = f"<b>{html.escape(line)}</b>" if line else ""
        text = html.escape(str(caption)) if caption is not None else ""
        markup = markup.replace(">", f"><caption>{'<br>'.join(filter(None, (heading, text)))}</caption>", 1)
    if hidden:
        markup += f"<p>… {hidden:,} more rows not shown</p>"
    return markup


def table(
    df: pd.DataFrame,
    caption: str | None = None,
    percent_columns: Sequence[str] | None = None,
    question: Any = None,
) -> None:
    """Display a DataFrame as an HTML table. Returns nothing.

    ``question`` states what the numbers answer, as the caption's first line: a result
    (its ``headline()``, :mod:`toolkit.question`) or that line itself — for a table over
    several sizes, :func:`toolkit.question.headline` of their question (``"Angry Miniatures
    · 1–8 v 1–8 dice · melee · draft rules · exact"``). ``caption`` follows it.

    Numbers follow :func:`format_cell`: ``Fraction`` values with a decimal (``'7/2 = 3.5'``,
    ``'≈ 1.31'`` when long); in the ``percent_columns`` as probabilities (``'7/27 ≈ 25.9%'``,
    ``'48.8%'``, floats as ``'25.9%'``). A plain ``0..n-1`` index is hidden. Names are
    HTML-escaped. At most :data:`MAX_TABLE_ROWS` rows are shown (fold tails first with
    :func:`fold_frame`).
    """
    from IPython.display import HTML, display

    display(HTML(table_html(df, caption=caption, percent_columns=percent_columns, question=question)))


def _text_left(markup: str, shown: pd.DataFrame, before: int = 0) -> str:
    """``markup`` (a table's HTML, ``before`` index cells ahead of each row's) with its columns
    of words aligned left (notebook pages align every cell right, which suits numbers only)."""
    words = [before + i for i, c in enumerate(shown.columns) if all(_is_words(v) for v in shown[c])]
    if not words:
        return markup
    left = ' style="text-align: left;"'

    def row(m: re.Match[str]) -> str:
        cells = re.split(r"(<t[dh]\b[^>]*>)", m.group(0))
        k = -1
        for i, part in enumerate(cells):
            if re.fullmatch(r"<t[dh]\b[^>]*>", part):
                k += 1
                if k in words:
                    cells[i] = part[:-1] + left + ">"
        return "".join(cells)

    markup = markup.replace('<tr style="text-align: right;">', "<tr>")
    return re.sub(r"(?s)<tr>.*?</tr>", row, markup)


def _is_words(value: Any) -> bool:
    """Whether a shown cell is words (a name, a sentence), not a number."""
    return isinstance(value, str) and not re.match(r"\s*[≈≥<>+−-]?\s*\d", value)


def _is_default_index(df: pd.DataFrame) -> bool:
    import pandas as pd

    index = df.index
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 and index.name is None
