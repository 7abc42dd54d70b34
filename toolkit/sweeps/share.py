"""A sweep's page to share (:mod:`toolkit.share_page`), written beside its table as
``DIR/<name>.share.html``: a control per swept column, each point's rows of the table
written by the toolkit's one display rule — an exact probability as ``'7/27 ≈ 25.9%'``, an
estimate with its 95% interval, ``'48.8% ± 0.7% (95%)'``
(:func:`~toolkit.odds_result.estimate_value_text`), a value (a mean, a game value) by
:func:`~toolkit.odds_result.estimate_mean_text` — and the columns that do not vary as facts.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import share_page
from toolkit.errors import ToolkitError
from toolkit.files import write_atomic
from toolkit.odds_result import estimate_mean_text, estimate_value_text
from toolkit.share_page import SharedAxis, SharedGrid, SharedRow, check_shared_size, page_html
from toolkit.sweeps.store import TABLE_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.sweeps.result import SweepResult
    from toolkit.sweeps.spec import Sweep

__all__ = ["row_text", "share_name", "shared_notice", "sweep_grid", "write_share_page"]

#: Table columns that say nothing a reader picks (the sweep's bookkeeping).
_NOT_SETTINGS = {"point", "system", "calculator", "toolkit_version", *TABLE_COLUMNS}

#: Swept columns read otherwise on a page than in a report: a house-rules file is picked
#: as "house rules" (each by the name results give it), the rulings as written as "default rules".
_AXIS_LABELS = {"rules_file": "house rules"}
_VALUE_WORDS = {("rules_file", "default"): "default rules"}


def share_name(sweep_name: str) -> str:
    """Return the file name of a sweep's share page, beside its table: ``<name>.share.html``."""
    return f"{sweep_name}.share.html"


def _cell(x: Any) -> float | None:
    """A float cell of the table (``None`` when empty)."""
    if x is None:
        return None
    value = float(x)
    return None if math.isnan(value) else value


def row_text(kind: str, exact: bool, numerator: Any, denominator: Any, value: float, low: Any, high: Any) -> str:
    """Return a table row's number as the toolkit writes it: exact from its fraction
    (``'7/27 ≈ 25.9%'``, a value ``'7/3 ≈ 2.33'``), an estimate with its 95% interval
    (``'48.8% ± 0.7% (95%)'``), an estimate without one marked as such.

    >>> row_text("probability", True, "7", "27", 7 / 27, 7 / 27, 7 / 27)
    '7/27 ≈ 25.9%'
    >>> row_text("probability", False, "61", "125", 0.488, 0.481, 0.495)
    '48.8% ± 0.7% (95%)'
    """
    writer = estimate_mean_text if kind == "value" else estimate_value_text
    if exact and numerator not in (None, "") and denominator not in (None, ""):
        x = Fraction(int(numerator), int(denominator))
        return writer(x, x, x)
    low, high = _cell(low), _cell(high)
    if low is None or high is None:
        return f"{writer(value, value, value)} (estimate; no interval given)"
    return writer(value, low, high)


def _rows(part: pd.DataFrame, headline: str = "") -> tuple[SharedRow, ...]:
    """A point's rows, each outcome in words; first, when the calculator has a headline
    field (who wins) and the point is exact, its probabilities summed by that field's value
    (:func:`~toolkit.sweeps.report.headline_rows`), exactly. An estimate's sum would need
    its own interval, which the table does not give: its outcomes alone are shown."""
    from toolkit.sweeps.report import headline_rows
    from toolkit.sweeps.words import outcome_words

    columns = ("outcome", "kind", "exact", "numerator", "denominator", "value", "low", "high")
    rows = [
        SharedRow(
            outcome_words(outcome), str(kind), float(value), _cell(low), _cell(high),
            row_text(str(kind), bool(exact), num, den, float(value), low, high),
        )
        for outcome, kind, exact, num, den, value, low, high in zip(*(part[c] for c in columns), strict=True)
    ]  # fmt: skip
    head = headline_rows(part, headline) if headline and part["exact"].all() else part.iloc[0:0]
    sums: dict[str, Fraction] = {}
    for label, num, den in zip(head["outcome"], head["numerator"], head["denominator"], strict=True):
        sums[label] = sums.get(label, Fraction(0)) + Fraction(int(num), int(den))
    first = [
        SharedRow(k, "headline", float(x), float(x), float(x), estimate_value_text(x, x, x)) for k, x in sums.items()
    ]
    return tuple(first + rows)


def sweep_grid(result: SweepResult) -> SharedGrid:
    """Return the share page of a sweep: an axis per swept column (in the sweep's order,
    its values in grid order, in words), each point's rows from the table, the columns
    that do not vary as facts.

    Raises:
        TooBigError: more than :data:`share_page.MAX_SHARED_POINTS` points.
    """
    from toolkit.house_rules import load_rules, value_words
    from toolkit.sweeps.words import field_words
    from toolkit.systems import system as system_entry

    sweep, table = result.sweep, result.table
    check_shared_size(sweep.size, f"the sweep {sweep.name}")
    system = sweep.system
    table = table.sort_values("point", kind="stable")
    swept = [f for f in sweep.swept if f in table.columns]
    values = {f: list(dict.fromkeys(table[f].tolist())) for f in swept}  # names in the sweep file's order
    for f in swept:
        if table[f].dtype.kind in "iuf":  # numbers in order, as a slider moves
            values[f].sort()

    def words(f: str, v: Any) -> str:
        if f == "rules_file" and v != "default":  # a shipped file as results name it: "tens_hit.yaml (Tens hit)"
            try:
                return load_rules(system, str(v)).file_title() or value_words(v)
            except ToolkitError:  # a file of the designer's, known here by its name only
                return value_words(v)
        return _VALUE_WORDS.get((f, v)) or value_words(v)

    axes = tuple(
        SharedAxis(_AXIS_LABELS.get(f) or field_words(system, f), tuple(words(f, v) for v in values[f])) for f in swept
    )
    points = {}
    headline = getattr(sweep.calculator, "headline", "")
    for _, part in table.groupby("point", sort=True):
        first = part.iloc[0]
        points[tuple(values[f].index(first[f]) for f in swept)] = _rows(part, headline)
    try:
        system_title = system_entry(system).title
    except Exception:  # a plug-in gone since: its name as written
        system_title = system
    facts = [("system", system_title), ("calculator", sweep.calculator.help)]
    for column in table.columns:
        if column in _NOT_SETTINGS or column in swept:
            continue
        kept = table[column].dropna().unique().tolist()
        if len(kept) == 1:
            facts.append((field_words(system, column), value_words(kept[0])))
    return SharedGrid(sweep.title, axes, points, sweep.notes, tuple(facts))


def write_share_page(result: SweepResult, path: Path) -> Path | None:
    """Write the share page of a sweep (:func:`sweep_grid`) to ``path`` atomically;
    return the path, or ``None`` for a sweep of more than :data:`share_page.MAX_SHARED_POINTS`
    points (:func:`shared_notice` says so)."""
    if result.sweep.size > share_page.MAX_SHARED_POINTS:
        return None
    write_atomic(path, page_html(sweep_grid(result)).encode("utf-8"))
    return path


def shared_notice(sweep: Sweep) -> tuple[str, ...]:
    """The line a sweep too big for a share page gives instead of one (none otherwise)."""
    if sweep.size <= share_page.MAX_SHARED_POINTS:
        return ()
    return (
        f"no page to share: {sweep.size:,} points, a page holds at most {share_page.MAX_SHARED_POINTS:,} "
        "(a sweep file of fewer values writes one)",
    )
