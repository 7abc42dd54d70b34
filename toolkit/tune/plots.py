"""The search, plotted: each target's measure against each knob, one point per setting
measured, coloured by whether it meets the target, an estimate with its 95% error bar,
the target's band shaded, the knob's values in order along the axis."""

from __future__ import annotations

import html
from collections.abc import Sequence
from numbers import Real
from typing import TYPE_CHECKING, Any

from toolkit.tune.knobs import Knob
from toolkit.tune.ranking import Candidate
from toolkit.tune.spec import Tuning

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["search_frame", "search_figures", "search_html"]


def _text(value: Any) -> Any:
    return " ".join(map(str, value)) if isinstance(value, tuple) else value


def _numeric(knob: Knob) -> bool:
    """Whether the knob's values are numbers (a number axis, sorted), not categories."""
    return (
        knob.whole_range or not knob.values or all(isinstance(v, Real) and not isinstance(v, bool) for v in knob.values)
    )


def search_frame(tuning: Tuning, candidates: Sequence[Candidate]) -> pd.DataFrame:
    """One row per setting measured (``candidates``, best first, as ranked): its rank, the
    knob values (lists as text), each target's measure (float, for plots), the ends of its
    interval (the value twice when exact; ``None`` when an estimate has none) and verdict."""
    import pandas as pd

    rows = []
    for rank, c in enumerate(candidates, 1):
        row: dict[str, Any] = {"rank": rank, "setting": c.setting.describe()}
        row.update({label: _text(v) for label, v in c.setting.values})
        for t, m, met in zip(tuning.every_target, c.measures, c.met, strict=True):
            row[t.name] = None if m is None else float(m.value)
            row[f"{t.name} low"] = None if m is None or m.low is None else float(m.low)
            row[f"{t.name} high"] = None if m is None or m.high is None else float(m.high)
            row[f"{t.name} met"] = "met" if met else "not met"
        rows.append(row)
    return pd.DataFrame(rows)


def search_figures(tuning: Tuning, candidates: Sequence[Candidate]) -> list[go.Figure]:
    """One plotly figure per target and knob: the target's measure against the knob's value
    over every setting measured (the best one starred, an estimate with its interval as an
    error bar), the target's band shaded, the knob's values in order (numbers sorted, lists
    in the order the tuning file gives them)."""
    import plotly.graph_objects as go

    frame = search_frame(tuning, candidates)
    figures = []
    for t in tuning.every_target:
        for knob in tuning.knobs:
            numeric = _numeric(knob)

            def xs(values: Any, numeric: bool = numeric) -> list[Any]:
                return list(values) if numeric else [str(v) for v in values]

            fig = go.Figure()
            for verdict, colour in (("met", "#2a9d8f"), ("not met", "#e76f51")):
                part = frame[frame[f"{t.name} met"] == verdict] if len(frame) else frame
                if not len(part):
                    continue
                value, low, high = part[t.name], part[f"{t.name} low"], part[f"{t.name} high"]
                fig.add_trace(
                    go.Scatter(
                        x=xs(part[knob.label]),
                        y=value,
                        mode="markers",
                        name=verdict,
                        marker={"color": colour, "size": 9},
                        error_y={
                            "type": "data",
                            "symmetric": False,
                            "array": (high - value).fillna(0).clip(lower=0).tolist(),
                            "arrayminus": (value - low).fillna(0).clip(lower=0).tolist(),
                            "color": colour,
                        },
                        text=[html.escape(x) for x in part["setting"]],
                        hovertemplate="%{text}<br>%{y:.4g}<extra></extra>",
                    )
                )
            if len(frame):
                best = frame.iloc[0]
                fig.add_trace(
                    go.Scatter(
                        x=xs([best[knob.label]]),
                        y=[best[t.name]],
                        mode="markers",
                        name="best" if candidates[0].reaches else "closest",
                        marker={"symbol": "star", "size": 16, "color": "#264653"},
                    )
                )
            shown = [
                float(v) for c in (t.name, f"{t.name} low", f"{t.name} high") if len(frame) for v in frame[c].dropna()
            ]
            if t.goal == "range":
                low = float(t.low) if t.low is not None else None
                high = float(t.high) if t.high is not None else None
                shown += [b for b in (low, high) if b is not None]
                if low is not None and high is not None:
                    fig.add_hrect(y0=low, y1=high, fillcolor="#2a9d8f", opacity=0.12, line_width=0)
                for bound in (low, high):
                    if bound is not None:
                        fig.add_hline(y=bound, line_dash="dot", line_color="#2a9d8f")
            if numeric:
                fig.update_xaxes(type="linear")
            else:  # the knob's values in the file's order, never the order the ranking found them in
                fig.update_xaxes(
                    type="category", categoryorder="array", categoryarray=[str(_text(v)) for v in knob.values]
                )
            if shown:  # the points and the target's band both in view, however far apart
                pad = (max(shown) - min(shown)) * 0.08 or 0.01
                fig.update_yaxes(range=[min(shown) - pad, max(shown) + pad])
            fig.update_layout(  # a designer's names are data: plotly reads a few tags in titles
                title=html.escape(f"{t.name} ({t.describe_goal()}) against {knob.label}"),
                xaxis_title=html.escape(knob.label),
                yaxis_title=html.escape(t.measure.describe()),
                height=360,
            )
            figures.append(fig)
    return figures


def search_html(tuning: Tuning, candidates: Sequence[Candidate]) -> str:
    """The figures of :func:`search_figures` as HTML for a page, plotly's script inline
    once (the page reads offline)."""
    return "\n".join(
        fig.to_html(full_html=False, include_plotlyjs=i == 0, config={"displaylogo": False})
        for i, fig in enumerate(search_figures(tuning, candidates))
    )
