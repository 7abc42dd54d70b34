"""The index page of a batch run: one row per report, with its parameters, status and
links to the HTML and the executed notebook.
"""

from __future__ import annotations

import html
import time
import urllib.parse
from collections.abc import Iterable
from pathlib import Path

from toolkit.reports.job_result import JobResult
from toolkit.reports.parameters import parameter_words

__all__ = ["write_batch_index"]

_INDEX_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.8em; text-align: left; vertical-align: top; }
code { font-size: 0.9em; }
.ok { color: #1a7f37; font-weight: bold; }
.failed { color: #cf222e; font-weight: bold; }
.title { color: #555; font-size: 0.9em; }
.error { color: #cf222e; white-space: pre-wrap; max-width: 50em; }
"""


def _link(path: Path | None, text: str) -> str:
    if path is None:
        return html.escape(text)
    href = html.escape(urllib.parse.quote(path.name), quote=True)
    return f'<a href="{href}">{html.escape(text)}</a>'


def write_batch_index(results: Iterable[JobResult], path: Path | str) -> Path:
    """Write the batch index page (every text HTML-escaped) and return its path."""
    rows = []
    results = list(results)
    for r in results:
        params = (
            "<br>".join(
                f"{html.escape(label)} <b>{html.escape(words)}</b>"
                for label, words in (parameter_words(str(k), v) for k, v in r.job.parameters.items())
            )
            or "defaults"
        )
        status = f'<span class="{r.status}">{r.status}</span>'
        if r.error:
            status += f'<div class="error">{html.escape(r.error)}</div>'
        notebook = _link(r.notebook_path, "notebook") if r.notebook_path else ""
        title = f'<div class="title">{html.escape(r.title)}</div>' if r.title else ""
        rows.append(
            "<tr>"
            f"<td>{_link(r.html_path, r.output_name)}</td>"
            f"<td>{html.escape(r.job.report)}{title}</td>"
            f"<td>{params}</td>"
            f"<td>{status}</td>"
            f"<td>{r.seconds:.1f} s</td>"
            f"<td>{notebook}</td>"
            "</tr>"
        )
    failed = sum(r.status == "failed" for r in results)
    summary = f"{len(results)} reports, {len(results) - failed} ok, {failed} failed"
    page = (
        '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>Reports</title>\n'
        f"<style>{_INDEX_STYLE}</style>\n</head>\n<body>\n<h1>Reports</h1>\n"
        f"<p>{html.escape(summary)} ({html.escape(time.strftime('%Y-%m-%d %H:%M'))})</p>\n"
        "<table>\n<thead><tr><th>Output</th><th>Report</th><th>Parameters</th><th>Status</th>"
        "<th>Time</th><th>Executed</th></tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
        "</body>\n</html>\n"
    )
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path
