"""An odds explorer: controls on top; a chart, a summary line and a table of an exact
distribution below, recomputed on every change.

It is generic over any calculator that returns a :class:`~toolkit.prob.Distribution`
and any *score* of its outcomes as a signed whole number: positive for what the
defender suffers, negative for what comes back at the attacker (AM-3's melee return
damage, a counter-attack). The chart shows each side in its own colour; the view
toggle switches between P(score = k) ("exactly") and P(at least k on that side)
("at least"). Probabilities are printed exactly, ``7/27 ≈ 25.9%``.

The chart is a ``plotly`` ``FigureWidget`` updated in place; where that cannot be
built it falls back to an ``ipywidgets.Output`` showing a static figure.

>>> import ipywidgets as widgets
>>> from toolkit.prob import Distribution
>>> dice = widgets.IntSlider(value=1, min=1, max=3, description="dice")
>>> ex = OddsExplorer({"dice": dice}, lambda dice: Distribution.uniform(range(dice + 1)), score=lambda k: k)
>>> ex.table[["outcome", "shown"]].values.tolist()
[['1 damage to defender', '1/2 = 50%'], ['nothing', '1/2 = 50%']]
>>> dice.value = 3
>>> ex.distribution.probability(3)
Fraction(1, 4)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from toolkit.errors import ToolkitError
from toolkit.prob import Distribution, format_probability

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["OddsExplorer", "VIEWS"]

#: The two views of the chart and table.
VIEWS: tuple[str, ...] = ("exactly", "at least")

_COLOURS = {"positive": "#4c78a8", "zero": "#bab0ac", "negative": "#e45756"}


class OddsExplorer:
    """Controls, a chart, a summary line and a table of one exact distribution.

    Args:
        controls: the input widgets by name, in display order; every change recomputes.
        compute: called with each control's value as a keyword argument; returns the
            exact distribution of outcomes.
        score: the outcome as a signed whole number (positive: to the defender,
            negative: back to the attacker, 0: neither).
        positive, negative: what a positive / negative score is called in labels.
        zero: the label of a score of 0.
        summary: returns the summary sentences for a distribution and the control values.
        adjust: called with the control values before each computation, to enable or
            disable controls that do not apply (it must not change their values).
        view: the starting view, ``"exactly"`` or ``"at least"``.
        title: a heading shown above the controls.

    Attributes:
        distribution: the current exact distribution (as ``compute`` returned it).
        table: the current table (columns ``outcome``, ``probability`` as an exact
            Fraction, ``shown`` as ``7/27 ≈ 25.9%``).
        summary_text: the current summary line, plain text.
        error: the message of the last failed computation, or ``""``.
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        compute: Callable[..., Distribution[Any]],
        score: Callable[[Any], int],
        *,
        positive: str = "damage to defender",
        negative: str = "damage back to attacker",
        zero: str = "nothing",
        summary: Callable[[Distribution[Any], Mapping[str, Any]], Sequence[str]] | None = None,
        adjust: Callable[[Mapping[str, Any]], None] | None = None,
        view: str = "exactly",
        title: str = "",
    ) -> None:
        if view not in VIEWS:
            raise ToolkitError(f"view {view!r} is not a view: use one of {', '.join(map(repr, VIEWS))}")
        self.controls = dict(controls)
        self._compute, self._score, self._summary, self._adjust = compute, score, summary, adjust
        self._names = {"positive": positive, "negative": negative, "zero": zero}
        self.error = ""
        self.summary_text = ""
        self.view = widgets.ToggleButtons(options=list(VIEWS), value=view, description="Show")
        self.summary_line = widgets.HTML()
        self.table_view = widgets.HTML()
        self.error_line = widgets.HTML()
        self.figure, self.chart = _make_chart(self._names)
        #: The figure last drawn: the live FigureWidget, or the static fallback's Figure.
        self.shown_figure: Any = self.figure
        heading = widgets.HTML(f"<b>{html.escape(title)}</b>") if title else widgets.HTML()
        self.widget = widgets.VBox(
            [
                heading,
                *self.controls.values(),
                self.view,
                self.error_line,
                self.summary_line,
                self.chart,
                self.table_view,
            ]
        )
        for control in [*self.controls.values(), self.view]:
            control.observe(lambda _: self.update(), names="value")
        self.update()

    @property
    def values(self) -> dict[str, Any]:
        """The current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def update(self) -> None:
        """Recompute the distribution from the controls and redraw the chart, summary
        and table (called on every change; time this for the speed budget)."""
        values = self.values
        if self._adjust is not None:
            self._adjust(values)
        try:
            distribution = self._compute(**values)
        except ToolkitError as e:
            if not hasattr(self, "distribution"):
                raise  # the starting values must work
            self.error = str(e)
            self.error_line.value = f'<span style="color:#c92a2a">{html.escape(self.error)}</span>'
            return
        self.error, self.error_line.value = "", ""
        self.distribution = distribution
        self.scores: Distribution[int] = distribution.map(self._score)
        rows = self._rows(self.scores, self.view.value)
        self.table = _frame(rows)
        self.summary_text = " · ".join(self._summary(distribution, values)) if self._summary else ""
        self.summary_line.value = html.escape(self.summary_text)
        self.table_view.value = self.table[["outcome", "shown"]].to_html(index=False, header=False, border=0)
        self._draw(rows)

    # -- display ---------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- internals -----------------------------------------------------------------------
    def label(self, k: int, view: str = "exactly") -> str:
        """Return how a score ``k`` is written in the table (``"2 damage to defender"``,
        ``"at least 2 damage to defender"``)."""
        if k == 0:
            return self._names["zero"]
        side = self._names["positive" if k > 0 else "negative"]
        return f"{'at least ' if view == 'at least' else ''}{abs(k)} {side}"

    def _rows(self, scores: Distribution[int], view: str) -> list[tuple[int, str, Fraction]]:
        """(score, label, probability), the defender's side first, largest score first."""
        ks = sorted(scores.outcomes(), reverse=True)
        if view == "exactly":
            return [(k, self.label(k), scores[k]) for k in ks]
        weights, total = scores.weights(), scores.total
        rows = []
        for k in range(max(ks), 0, -1):
            rows.append((k, self.label(k, view), Fraction(sum(w for s, w in weights.items() if s >= k), total)))
        for k in range(-1, min(ks) - 1, -1):
            rows.append((k, self.label(k, view), Fraction(sum(w for s, w in weights.items() if s <= k), total)))
        return rows

    def _draw(self, rows: list[tuple[int, str, Fraction]]) -> None:
        sides = {"positive": [r for r in rows if r[0] > 0], "zero": [r for r in rows if r[0] == 0]}
        sides["negative"] = [r for r in rows if r[0] < 0]
        ticks = sorted(r[0] for r in rows)
        title = "← " + self._names["negative"] + "   |   " + self._names["positive"] + " →"
        if not sides["negative"]:
            title = self._names["positive"]

        def paint(fig: Any) -> None:
            for trace, side in zip(fig.data, ("positive", "zero", "negative"), strict=True):
                part = sides[side]
                trace.x = [k for k, _, _ in part]
                trace.y = [float(p) * 100 for _, _, p in part]
                trace.hovertext = [f"{label}: {format_probability(p)}" for _, label, p in part]
                trace.text = [f"{float(p) * 100:.1f}%" for _, _, p in part]
            fig.layout.xaxis.tickvals = ticks
            fig.layout.xaxis.ticktext = [str(abs(k)) for k in ticks]
            fig.layout.xaxis.title.text = title
            fig.layout.yaxis.title.text = "% " + ("exactly" if self.view.value == "exactly" else "at least")

        if self.figure is not None:
            with self.figure.batch_update():
                paint(self.figure)
        else:
            fig = _new_figure(self._names, widget=False)
            paint(fig)
            self.shown_figure = fig
            self.chart.clear_output(wait=True)
            with self.chart:
                fig.show()


def _frame(rows: list[tuple[int, str, Fraction]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {
            "outcome": [label for _, label, _ in rows],
            "probability": [p for _, _, p in rows],
            "shown": [format_probability(p) for _, _, p in rows],
        }
    )


def _new_figure(names: Mapping[str, str] | None = None, widget: bool = True) -> Any:
    import plotly.graph_objects as go

    fig = go.FigureWidget() if widget else go.Figure()
    for side in ("positive", "zero", "negative"):
        fig.add_bar(
            x=[],
            y=[],
            name=(names or {}).get(side, side),
            marker_color=_COLOURS[side],
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


def _make_chart(names: Mapping[str, str]) -> tuple[Any, widgets.Widget]:
    """Return ``(FigureWidget, FigureWidget)`` when plotly's widget works here, else
    ``(None, Output)`` for the static fallback."""
    try:
        fig = _new_figure(names)
    except Exception:  # plotly or anywidget missing or broken: draw static figures
        return None, widgets.Output()
    return fig, fig
