"""How a report's executed notebook reaches the disk while it runs (toolkit.reports.notebook_saving)
and the notebook libraries imported without jsonschema's IRI parsers (notebook_libraries).

The reference for the number of writes is papermill's own engine, which writes the notebook
when each cell starts and ends: counted here through the same write function."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import papermill.engines
import pytest

from toolkit.reports import ReportFailed, notebook_saving, run_report
from toolkit.reports.notebook_libraries import notebook_library

FIXTURES = Path(__file__).parent / "fixtures"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def writes(monkeypatch) -> list[str]:
    """The paths papermill's execution record writes the notebook to, in order."""
    written: list[str] = []
    real = papermill.engines.write_ipynb

    def counted(nb, path, **kwargs):
        written.append(str(path))
        return real(nb, path, **kwargs)

    monkeypatch.setattr(papermill.engines, "write_ipynb", counted)
    return written


def _code_cells(path: Path) -> list:
    return [c for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code"]


def test_a_report_writes_its_notebook_when_it_starts_and_when_it_ends(tmp_path, writes):
    html = run_report("sample", {"n": 2}, tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    cells = _code_cells(html.with_suffix(".ipynb"))
    assert len(cells) >= 5  # papermill's engine would write it 2 + 2 x 6 times (a Markdown cell too)
    assert writes == [str(html.with_suffix(".ipynb"))] * 2
    # the last write holds the whole run: every cell's outputs and timings
    assert all(c.metadata.papermill["status"] == "completed" for c in cells)
    assert all(c.metadata.papermill["duration"] is not None for c in cells)
    assert cells[-1].outputs and "Plotly.newPlot" in html.read_text()


def test_a_long_run_is_still_written_as_it_goes(tmp_path, writes, monkeypatch):
    """With no time between saves, every save papermill asks for is made: a run longer
    than SAVE_EVERY leaves its progress on disk."""
    monkeypatch.setattr(notebook_saving, "SAVE_EVERY", 0.0)
    html = run_report("sample", {}, tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    cells = nbformat.read(str(html.with_suffix(".ipynb")), as_version=4).cells
    assert len(writes) == 2 + 2 * len(cells)  # each cell, Markdown too, starts and ends


def test_a_timed_out_report_keeps_what_ran_before_the_timeout(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Slow"),
        params,
        nbformat.v4.new_code_cell('print("done before the slow cell")'),
        nbformat.v4.new_code_cell("import time\ntime.sleep(60)"),
    ]
    nbformat.write(nb, str(folder / "slow_report.ipynb"))
    with pytest.raises(ReportFailed, match="longer than the timeout of 3 s") as failed:
        run_report("slow", {}, tmp_path / "out", notebooks_dir=folder, progress=lambda _: None, timeout=3)
    kept = nbformat.read(str(failed.value.notebook_path), as_version=4)
    printed = [o.get("text", "") for c in kept.cells if c.cell_type == "code" for o in c.outputs]
    assert "done before the slow cell\n" in printed
    assert failed.value.html_path is not None and "done before the slow cell" in failed.value.html_path.read_text()


def test_the_notebook_libraries_load_without_the_iri_parsers_and_still_validate():
    code = (
        "import sys\n"
        "from toolkit.reports.notebook_libraries import notebook_library\n"
        "nbformat = notebook_library('nbformat')\n"
        "notebook_library('papermill'); notebook_library('nbconvert')\n"
        "assert sys.modules.get('rfc3987_syntax') is None\n"
        "nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('1')])\n"
        "nbformat.validate(nb)\n"
        "nb.cells[0]['cell_type'] = 'nonsense'\n"
        "try:\n"
        "    nbformat.validate(nb)\n"
        "except nbformat.ValidationError:\n"
        "    print('invalid notebook refused')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "invalid notebook refused"


def test_only_the_notebook_libraries_are_loaded_that_way():
    assert notebook_library("nbformat") is nbformat
    with pytest.raises(ValueError, match="'os' is not a notebook library: nbformat, papermill, nbconvert"):
        notebook_library("os")
