"""Benchmark: the HTML of a 9,100-outcome distribution (issue 13: it was slow).

Run from the project root::

    .venv/bin/python bench/bench_display.py [--dice 9100] [--runs 3]

Times ``Distribution._repr_html_`` (what a notebook shows for a distribution) on
``hit_distribution(9100)`` — 9,101 outcomes whose probabilities are fractions of
about 4,300 digits — against the reference: the display as it was before issue 13
(every outcome a row, each probability printed as a fraction or its value, one
Fraction per row), a copy of which is kept below and run in the same process. The
figure to read is the ratio reference / ours. Also times a report table of the same
distribution (:func:`toolkit.reports.figures.table_html` of its folded frame).
"""

from __future__ import annotations

import argparse
import html
from fractions import Fraction
from pathlib import Path

from _results import best_time, fmt_s, publish

from toolkit.angry_miniatures import hit_distribution
from toolkit.prob import Distribution, fraction_text
from toolkit.reports.figures import fold_frame, table_html


def reference_html(d: Distribution) -> str:
    """The HTML of a distribution as it was before issue 13 (the reference)."""
    rows = []
    for o, p in d.items():
        label = html.escape(str(o))
        bar = f'<div style="background:#4c78a8;height:0.8em;width:{float(p) * 100:.2f}%"></div>'
        rows.append(
            f"<tr><td style='text-align:left'>{label}</td><td>{html.escape(fraction_text(p))}</td>"
            f"<td>{float(p) * 100:.2f}%</td><td style='width:10em'>{bar}</td></tr>"
        )
    return (
        "<table><thead><tr><th>outcome</th><th>probability</th><th>percent</th><th></th>"
        "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", type=int, default=9100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    d = hit_distribution(args.dice)
    before, old = best_time(lambda: reference_html(d), args.runs, lambda: None)
    after, new = best_time(d._repr_html_, args.runs, lambda: None)
    frame = d.to_frame()
    table, markup = best_time(
        lambda: table_html(fold_frame(frame, "outcome"), percent_columns=["probability"]), 1, lambda: None
    )
    total = sum((p for _, p in d.folded()), Fraction(0))
    if total != 1:
        raise SystemExit(f"folding lost probability: the folded rows sum to {total}")
    report = (
        f"# Displaying a distribution of {len(d):,} outcomes (hit_distribution({args.dice}))\n\n"
        "| display | time | HTML size |\n|---|---|---|\n"
        f"| before issue 13 (reference, every row) | {fmt_s(before)} | {len(old):,} chars |\n"
        f"| `_repr_html_` now (tails folded, 40 rows) | {fmt_s(after)} | {len(new):,} chars |\n"
        f"| report table (`fold_frame` + `table_html`) | {fmt_s(table)} | {len(markup):,} chars |\n\n"
        f"reference / ours: {before / after:.0f}x faster (best of {args.runs}, same run).\n"
    )
    publish(report, Path(__file__).resolve().parent / "results" / "display.md")


if __name__ == "__main__":
    main()
