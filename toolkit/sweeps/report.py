"""The HTML report of a sweep: plotly charts of the table, faceted by the swept fields.

The page leads with the headline: who wins (the calculator's ``headline`` field, its
outcomes' probabilities summed over their other fields) or, where the calculator gives
them, the chances of single events (a hit, damage back); the probabilities of every raw
outcome follow, folded away, when a headline leads.

The first swept field (a number if there is one) is the x axis; outcomes are the colours
(the :data:`TOP_OUTCOMES` most likely, the rest summed as "other outcomes"); the next two
swept fields are facet columns and rows (at most :data:`MAX_FACETS` values each, evenly
chosen, the caption says which); any further swept field gives one chart per value
combination (at most :data:`MAX_CHARTS`). Probabilities and values (a game value, an
exploitability, mean rounds) get separate charts. Every name from the sweep file is
escaped; plotly.js is inlined once, so the file works offline
(:func:`toolkit.reports.figures.figure_html`).
"""

from __future__ import annotations

import html
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ToolkitError
from toolkit.plugin.headline import span
from toolkit.reports.figures import figure_html
from toolkit.sweeps.store import write_atomic
from toolkit.sweeps.words import field_words
from toolkit.whole_numbers import is_whole_number

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.sweeps.result import SweepResult

__all__ = [
    "write_report",
    "report_html",
    "headline_rows",
    "sweep_question",
    "swept_words",
    "TOP_OUTCOMES",
    "MAX_FACETS",
    "MAX_CHARTS",
]

#: Outcomes drawn one by one in a probability chart (the rest are summed).
TOP_OUTCOMES = 8
#: The most values of one facet field shown.
MAX_FACETS = 6
#: The most charts of one kind (probabilities, values).
MAX_CHARTS = 12


def _spread(values: list[Any], limit: int) -> list[Any]:
    """At most ``limit`` of ``values``, evenly chosen (first and last kept)."""
    if len(values) <= limit:
        return values
    step = (len(values) - 1) / (limit - 1)
    return [values[round(i * step)] for i in range(limit)]


def _axes(table: pd.DataFrame, swept: tuple[str, ...]) -> tuple[str | None, list[str], list[str]]:
    """(x, facet fields, further fields) of the charts."""
    fields = [f for f in swept if f in table.columns]
    numeric = [f for f in fields if table[f].dtype.kind in "iuf"]
    x = numeric[0] if numeric else (fields[0] if fields else None)
    rest = [f for f in fields if f != x]
    return x, rest[:2], rest[2:]


def _label_value(label: str, field: str) -> str | None:
    """The value of ``field`` in an outcome's label (``"winner=attacker, points=1"``), or None."""
    for part in str(label).split(", "):
        name, sep, value = part.partition("=")
        if sep and name == field:
            return value
    return None


def headline_rows(table: pd.DataFrame, field: str) -> pd.DataFrame:
    """Return the probability rows of ``table`` summed by the value of ``field`` in their
    outcomes' labels (``winner=attacker, points=1`` counts for ``winner: attacker``), as
    rows of kind ``"headline"``; none when no outcome names ``field``."""
    part = table[table["kind"] == "probability"]
    values = part["outcome"].map(lambda label: _label_value(label, field))
    named = values.notna()
    if part.empty or not named.all():
        return part.iloc[0:0]
    shown = values.map(lambda v: f"{field.replace('_', ' ')}: {_value_words(v)}")
    return part.assign(outcome=shown, kind="headline")


def _probability_frame(part: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The probability rows with the outcomes past the :data:`TOP_OUTCOMES` most likely summed."""
    top = part.groupby("outcome")["value"].mean().sort_values(ascending=False).index[:TOP_OUTCOMES]
    shown = part.assign(outcome=part["outcome"].where(part["outcome"].isin(top), "other outcomes"))
    return shown.groupby([*by, "outcome"], as_index=False, sort=False)["value"].sum()


def _value_words(value: Any) -> str:
    from toolkit.house_rules import value_words

    return value_words(value)


def _facet_text(text: str) -> str:
    """A facet's title as plotly writes it (``label=value``) in words: ``label: value``."""
    label, _, value = text.partition("=")
    return f"{label}: {value.replace('_', ' ')}" if value else text


def _charts(table: pd.DataFrame, swept: tuple[str, ...], kind: str, system: str = "") -> list[tuple[str, Any]]:
    """The (caption, figure) charts of one kind of row, every field and value in words."""
    import plotly.express as px

    part = table[table["kind"] == kind]
    if part.empty:
        return []
    x, facets, further = _axes(part, swept)
    captions = []
    for f in facets:
        values = sorted(part[f].unique().tolist(), key=str)
        kept = _spread(values, MAX_FACETS)
        if len(kept) < len(values):
            captions.append(f"{field_words(system, f)}: {len(kept)} of {len(values)} values shown")
            part = part[part[f].isin(kept)]
    combos = list(itertools.product(*(sorted(part[f].unique().tolist(), key=str) for f in further)))
    charts = []
    for combo in combos[:MAX_CHARTS]:
        sub = part
        for f, v in zip(further, combo, strict=True):
            sub = sub[sub[f] == v]
        if sub.empty:
            continue
        by = [c for c in (x, *facets) if c is not None]
        if kind in ("probability", "headline"):
            data = _probability_frame(sub, by)
            color, facet_row = "outcome", facets[1] if len(facets) > 1 else None
        else:
            data = sub.groupby([*by, "outcome"], as_index=False, sort=False)["value"].mean()
            color, facet_row = "outcome", facets[1] if len(facets) > 1 else None
        title = ", ".join(f"{field_words(system, f)}: {_value_words(v)}" for f, v in zip(further, combo, strict=True))
        labels = {f: field_words(system, f) for f in (x, *facets) if f is not None}
        common = {
            "color": color,
            "facet_col": facets[0] if facets else None,
            "facet_row": facet_row,
            "title": title or None,
            "labels": {**labels, "value": "value" if kind == "value" else "probability"},
        }
        if x is None:
            fig = px.bar(data, x="outcome", y="value", **common)
        else:
            fig = px.line(data.sort_values(x), x=x, y="value", markers=True, **common)
        facet_rows = data[facet_row].nunique() if facet_row else 1
        fig.update_layout(
            yaxis_title="value" if kind == "value" else "probability",
            legend_title_text="outcome",
            height=max(450, 260 * facet_rows + 140),
        )
        fig.for_each_annotation(lambda a: a.update(text=_facet_text(a.text)))
        if kind == "value":
            fig.update_yaxes(matches=None)
        charts.append((title, fig))
    if len(combos) > MAX_CHARTS:
        more = ", ".join(field_words(system, f) for f in further)
        captions.append(f"{len(combos) - MAX_CHARTS} more combinations of {more} are in the table")
    return [("; ".join(captions), None)] + charts if captions else charts


def swept_words(system: str, field: str, values: list[Any]) -> str:
    """A swept field and its values: ``"attack dice 1–12"`` (whole numbers one apart),
    ``"defence dice 1, 2, 4"``, ``"Ties on hits chain / coin flip"``."""
    ordered = sorted(values, key=lambda v: (not isinstance(v, (int, float)), str(v) if not isinstance(v, int) else v))
    whole = all(is_whole_number(v) for v in ordered)
    if whole and len(ordered) > 2 and ordered[-1] - ordered[0] == len(ordered) - 1:
        shown = span(ordered)
    else:
        shown = (", " if whole else " / ").join(_value_words(v) for v in ordered)
    return f"{field_words(system, field)} {shown}"


def sweep_question(result: SweepResult) -> str:
    """The page's first line (:func:`toolkit.question.headline_over`): the system, the
    calculator, each swept field with its values, the arguments every point shares, the
    rules (as swept, or those of every point) and how the rows were obtained (exact, Monte
    Carlo at 95%, or both)."""
    from types import SimpleNamespace

    from toolkit.house_rules import value_words
    from toolkit.question import Question, headline_over, rules_words

    sweep, table = result.sweep, result.table
    points = sweep.points
    first = points[0] if len(points) else None
    columns = dict(first.columns) if first is not None else {}
    swept = [
        swept_words(sweep.system, f, table[f].unique().tolist() if f in table.columns else [columns.get(f)])
        for f in sweep.swept
    ]
    shared = [
        f"{name.replace('_', ' ')} {value_words(v)}"
        for name, v in (first.args if first else ())
        if name not in sweep.swept
    ]
    if any(f.startswith("rules") for f in sweep.swept):
        rules = "rules as swept"
    else:
        rules = rules_words(first.rules) if first is not None and first.rules is not None else ""
    asked = Question(
        _system_title(sweep.system), "; ".join(swept) or "one point", (sweep.calculator.name, *shared), rules=rules
    )
    exact = table.loc[table["kind"] != "value", "exact"].astype(bool) if not table.empty else []
    kinds = {bool(e) for e in exact}
    how = [
        SimpleNamespace(method="exact" if e else "monte_carlo", trials=None, trial_name="", confidence=0.95)
        for e in kinds
    ]
    return headline_over(asked, how)


def report_html(result: SweepResult) -> str:
    """Return the HTML report of a sweep (one self-contained page)."""
    sweep, table = result.sweep, result.table
    esc = html.escape
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{esc(sweep.title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>",
        f"<h1>{esc(sweep.title)}</h1>",
        f"<p class='question'><strong>{esc(sweep_question(result))}</strong></p>",
    ]
    if sweep.notes:
        parts.append(f"<p>{esc(sweep.notes)}</p>")
    seconds = table.drop_duplicates("point")["seconds"] if not table.empty else table["seconds"]
    facts = [
        ("system", _system_title(sweep.system)),
        ("calculator", sweep.calculator.help),
        ("swept", ", ".join(field_words(sweep.system, f) for f in sweep.swept) or "nothing (one point)"),
        ("points", result.summary()),
        ("point time", f"{seconds.sum():.2f} s in all, {seconds.mean() if len(seconds) else 0:.4f} s mean"),
        ("table", f"{len(table):,} rows: {result.table_path.name if result.table_path else ''}"),
    ]
    parts.append("<table>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(str(v))}</td></tr>" for k, v in facts))
    parts.append("</table>")
    if result.failures:
        parts.append(f"<h2>{len(result.failures)} failed point(s)</h2><ul>")
        parts += [f"<li>{esc(f.describe())}</li>" for f in result.failures[:200]]
        parts.append("</ul>")
    field = getattr(sweep.calculator, "headline", "")
    if field and not table.empty:
        table = _with_rows(table, headline_rows(table, field))
    led = not table.empty and bool((table["kind"].isin(("headline", "chance"))).any())
    headings = (
        ("headline", f"The headline: {field.replace('_', ' ')}"),
        ("chance", "Chances of single events"),
        ("value", "Values"),
        ("probability", "Probabilities of every outcome" if led else "Probabilities"),
    )
    inlined = False
    for kind, heading in headings:
        charts = _charts(table, sweep.swept, kind, sweep.system) if not table.empty else []
        if not charts:
            continue
        folded = led and kind == "probability"
        if folded:  # a chart drawn while folded is sized when it is unfolded
            parts.append("<details ontoggle=\"window.dispatchEvent(new Event('resize'))\">")
            parts.append(f"<summary><strong>{esc(heading)}</strong> (every outcome the calculator gives)</summary>")
        else:
            parts.append(f"<h2>{esc(heading)}</h2>")
        for caption, fig in charts:
            if fig is None:
                parts.append(f"<p><em>{esc(caption)}</em></p>")
                continue
            parts.append(figure_html(fig, include_plotlyjs=not inlined))
            inlined = True
        if folded:
            parts.append("</details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _with_rows(table: pd.DataFrame, more: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the rows of ``more`` after its own."""
    import pandas as pd

    return pd.concat([table, more], ignore_index=True) if not more.empty else table


def _system_title(system: str) -> str:
    from toolkit.systems import system as system_entry

    try:
        return system_entry(system).title
    except ToolkitError:
        return system


def write_report(result: SweepResult, path: Path) -> Path:
    """Write the report of ``result`` to ``path`` (atomically); return the path."""
    write_atomic(path, report_html(result).encode("utf-8"))
    return path
