"""``tune.ipynb`` in JupyterLab at 1280 px, run as a designer runs it: the search's progress
lines are one plain output (not stderr's pink boxes, a line each, wrapped mid-word), and
the candidates a designer's table: ranked from 1 as its index (no 0–5 beside it), each
verdict a ✓ or ✗, every number as the toolkit writes it (no ``True``, no ``0.678025``)."""

from __future__ import annotations

import re
import shutil

import pytest

from .lab_server import REPO
from .laptop import close_notebook, laptop_context, open_notebook

NOTEBOOK = "tune.ipynb"
SEARCH = "result = tune(tuning, output, workers=workers)"

#: The first table of a region: its header rows' cells, and each row's cells (index first).
TABLE = """(el) => { const t = el.querySelector('table'); if (!t) return null;
  return {head: Array.from(t.querySelectorAll('thead tr')).map(r =>
            Array.from(r.querySelectorAll('th')).map(c => c.innerText.trim())),
          rows: Array.from(t.querySelectorAll('tbody tr')).map(r =>
            Array.from(r.querySelectorAll('th, td')).map(c => c.innerText.trim()))}; }"""
#: A float as Python prints it, where the toolkit writes a percent or a short number.
RAW_FLOAT = re.compile(r"\b\d\.\d{4,}\b")


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


@pytest.fixture(scope="module")
def tuned(narrow, lab, timings):
    # the notebook reads ../data/tune/ beside the notebooks, as in the repository
    shutil.copytree(REPO / "data" / "tune", lab.root.parent / "data" / "tune", dirs_exist_ok=True)
    nb, console = open_notebook(narrow, lab, NOTEBOOK, timings, NOTEBOOK)
    yield nb, console
    close_notebook(nb)


def test_the_search_shows_its_progress_as_a_plain_output_not_stderr(tuned):
    nb, console = tuned
    check = nb.check_outputs()
    assert check.problems == [] and check.stderr == []
    region = nb.output(SEARCH)
    assert region.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    lines = region.locator(".toolkit-lines")
    assert lines.count() == 1
    text = lines.inner_text()
    assert "settings tried" in text and text.count("settings tried") == 1  # rewritten in place
    assert lines.evaluate("e => getComputedStyle(e).wordBreak") == "normal"  # wrapped between words
    assert console.errors == []


def test_the_candidates_are_a_designers_table(tuned):
    nb, _ = tuned
    region = nb.output(SEARCH)
    table = region.evaluate(TABLE)
    assert table is not None, region.inner_text()[:400]
    rows = table["rows"]
    assert [r[0] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]  # the rank, the only index
    assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows)
    columns = table["head"][0]  # the index's heading cell, then the columns
    assert "rank" in [c for r in table["head"] for c in r]
    cells = [c for r in rows for c in r[1:]]
    assert not {"True", "False", "None", "nan"} & set(cells)
    assert RAW_FLOAT.findall(" ".join(cells)) == []
    verdicts = [c for c in cells if c.endswith(("✓", "✗"))]
    assert len(verdicts) >= 3 * len(rows)  # every target and kept condition, a verdict each
    assert rows[0][columns.index("targets met")] == "2 of 2"  # the best meets both targets
    assert not re.search(r"\b(True|False|None)\b", region.inner_text())
