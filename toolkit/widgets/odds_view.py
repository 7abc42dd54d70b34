"""An explorer's odds as a designer sees them: the table of outcomes (each probability
exact, or an estimate with its interval) and the bar chart, as widgets or static outputs."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from toolkit.numbers import interval_text, percent_text
from toolkit.prob import format_probability

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COLOURS",
    "figure_output",
    "make_chart",
    "new_odds_figure",
    "odds_frame",
    "odds_table_html",
    "paint_compared",
    "probability_shown",
]

#: The bars' colours by the sign of their score.
COLOURS = {"positive": "#4c78a8", "zero": "#bab0ac", "negative": "#e45756"}


def probability_shown(p: Fraction, interval: tuple[float, float] | None, level: bool = True) -> str:
    """A row's probability: exact (``7/27 ≈ 25.9%``), or an estimate with its interval,
    never a fraction (:func:`~toolkit.numbers.interval_text`)."""
    return format_probability(p) if interval is None else interval_text(p, *interval, level=level)


def odds_frame(
    rows: list[tuple[int, str, Fraction]], intervals: list[tuple[float, float]] | None = None
) -> pd.DataFrame:
    """Return the explorer's table as a DataFrame: each outcome, its probability (a float
    for an estimate, never a fraction that reads as exact), its text and, for estimates,
    the interval's ends."""
    import pandas as pd

    columns: dict[str, Any] = {  # an estimate's probability a float: never a fraction that reads as exact
        "outcome": [label for _, label, _ in rows],
        "probability": [p if intervals is None else float(p) for _, _, p in rows],
        "shown": [
            probability_shown(p, iv) for (_, _, p), iv in zip(rows, intervals or [None] * len(rows), strict=True)
        ],
    }
    if intervals is not None:
        columns["low"], columns["high"] = [lo for lo, _ in intervals], [hi for _, hi in intervals]
    return pd.DataFrame(columns)


def odds_table_html(
    rows: list[tuple[int, str, Fraction]], intervals: list[tuple[float, float]] | None = None, note: str = ""
) -> str:
    """The table as HTML: each outcome in words, left-aligned as text reads, and its
    probability (``7/27 ≈ 25.9%``; an estimate ``14.4% ± 1.6%``, the level stated once in
    ``note`` under it) right-aligned as numbers line up."""
    cells = "".join(
        f'<tr><td style="text-align:left;padding:1px 12px 1px 0">{html.escape(label)}</td>'
        f'<td style="text-align:right;padding:1px 0">{html.escape(probability_shown(p, iv, level=False))}</td></tr>'
        for (_, label, p), iv in zip(rows, intervals or [None] * len(rows), strict=True)
    )
    caption = f'<caption style="caption-side:bottom;color:#666">{html.escape(note)}</caption>' if note else ""
    return f'<table class="toolkit-odds-table" style="border-collapse:collapse">{caption}{cells}</table>'


def new_odds_figure(names: Mapping[str, str] | None = None, widget: bool = True) -> Any:
    """Return an empty bar chart of three traces (positive, zero and negative scores, named
    by ``names``): a ``FigureWidget``, or a static ``Figure`` with ``widget=False``."""
    import plotly.graph_objects as go

    fig = go.FigureWidget() if widget else go.Figure()
    for side in ("positive", "zero", "negative"):
        fig.add_bar(
            x=[],
            y=[],
            name=(names or {}).get(side, side),
            marker_color=COLOURS[side],
            hoverinfo="text",
            textposition="outside",
        )
    fig.update_layout(
        height=320,
        margin={"l": 50, "r": 20, "t": 20, "b": 50},
        showlegend=False,
        bargap=0.15,
        xaxis={"tickmode": "array"},
    )
    return fig


def figure_output(fig: Any) -> dict[str, Any]:
    """A static figure as one output for JupyterLab's plotly renderer (plotly.js from
    the JupyterLab extension, loaded once per page; nothing from the network)."""
    import json

    figure = json.loads(fig.to_json())
    figure["config"] = {"displaylogo": False}
    return {"output_type": "display_data", "data": {"application/vnd.plotly.v1+json": figure}, "metadata": {}}


def make_chart(names: Mapping[str, str]) -> tuple[Any, widgets.Widget]:
    """Return ``(FigureWidget, FigureWidget)`` when plotly's widget works here, else
    ``(None, Output)`` for the static fallback."""
    try:
        fig = new_odds_figure(names)
    except Exception:  # plotly or anywidget missing or broken: draw static figures
        return None, widgets.Output()
    return fig, fig


def paint_compared(
    fig: Any,
    titles: tuple[str, str] | None = None,
    xs: Sequence[int] = (),
    ps: Sequence[Fraction] = (),
    hover: Sequence[str] = (),
) -> None:
    """Draw a compared rule set's bars on ``fig`` (hatched, each at ``xs`` beside the bar in
    force, ``ps`` its probabilities, ``hover`` their texts) with a legend naming both
    ``titles`` (the compared rules, the rules in force); with no ``titles``, the figure as
    it always is. Every text is escaped: plotly reads a name as HTML. Returns nothing."""
    if titles is None:
        if len(fig.data) > 3:
            fig.data = fig.data[:3]
        fig.layout.showlegend, fig.layout.barmode = False, None
        return
    if len(fig.data) < 4:
        fig.add_bar(x=[], y=[], hoverinfo="text", textposition="outside", offsetgroup="compared")
    trace = fig.data[3]
    trace.x, trace.y = list(xs), [float(p) * 100 for p in ps]
    trace.text = [percent_text(p) for p in ps]
    trace.name = html.escape(titles[0])
    trace.hovertext = [html.escape(h) for h in hover]
    trace.marker = {"color": "#ffffff", "line": {"color": "#495057", "width": 1.2}, "pattern": {"shape": "/"}}
    for bar in fig.data[:3]:
        bar.offsetgroup = "in force"
        bar.showlegend = False
    fig.data[0].showlegend, fig.data[0].name = True, html.escape(titles[1])
    fig.layout.barmode, fig.layout.showlegend = "group", True
    fig.layout.legend = {"orientation": "h", "y": 1.12, "x": 0}
