"""The search, plotted: each target's measure against each knob, one point per setting
measured, coloured by whether it meets the target, with the target's band shaded."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["search_frame", "search_figures"]


def _text(value: Any) -> Any:
    return " ".join(map(str, value)) if isinstance(value, tuple) else value


def search_frame(result: Any) -> pd.DataFrame:
    """One row per setting measured by a :class:`~toolkit.tune.run.TuneResult`: its rank,
    the knob values (lists as text), each target's measure (float, for plots) and verdict."""
    import pandas as pd

    tuning = result.tuning
    rows = []
    for rank, c in enumerate(result.candidates, 1):
        row: dict[str, Any] = {"rank": rank, "setting": c.setting.describe()}
        row.update({label: _text(v) for label, v in c.setting.values})
        for t, m, met in zip(tuning.every_target, c.measures, c.met, strict=True):
            row[t.name] = None if m is None else float(m.value)
            row[f"{t.name} met"] = "met" if met else "not met"
        rows.append(row)
    return pd.DataFrame(rows)


def search_figures(result: Any) -> list[go.Figure]:
    """One plotly figure per target and knob: the target's measure against the knob's value
    over every setting measured (the best one marked), the target's band shaded."""
    import plotly.graph_objects as go

    frame = search_frame(result)
    tuning = result.tuning
    figures = []
    for t in tuning.every_target:
        for knob in tuning.knobs:
            fig = go.Figure()
            for verdict, colour in (("met", "#2a9d8f"), ("not met", "#e76f51")):
                part = frame[frame[f"{t.name} met"] == verdict]
                fig.add_trace(
                    go.Scatter(
                        x=part[knob.label].astype(str) if knob.values and not knob.whole_range else part[knob.label],
                        y=part[t.name],
                        mode="markers",
                        name=verdict,
                        marker={"color": colour, "size": 9},
                        text=[html.escape(x) for x in part["setting"]],
                        hovertemplate="%{text}<br>%{y:.4g}<extra></extra>",
                    )
                )
            if len(frame):
                best = frame.iloc[0]
                fig.add_trace(
                    go.Scatter(
                        x=[str(best[knob.label]) if knob.values and not knob.whole_range else best[knob.label]],
                        y=[best[t.name]],
                        mode="markers",
                        name="best",
                        marker={"symbol": "star", "size": 16, "color": "#264653"},
                    )
                )
            if t.goal == "range":
                low = float(t.low) if t.low is not None else None
                high = float(t.high) if t.high is not None else None
                if low is not None and high is not None:
                    fig.add_hrect(y0=low, y1=high, fillcolor="#2a9d8f", opacity=0.12, line_width=0)
                for bound in (low, high):
                    if bound is not None:
                        fig.add_hline(y=bound, line_dash="dot", line_color="#2a9d8f")
            fig.update_layout(  # a designer's names are data: plotly reads a few tags in titles
                title=html.escape(f"{t.name} ({t.describe_goal()}) against {knob.label}"),
                xaxis_title=knob.label,
                yaxis_title=t.measure.describe(),
                height=360,
            )
            figures.append(fig)
    return figures
