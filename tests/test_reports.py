"""Tests of the report runner, the display helpers and the ``toolkit report`` command.

The notebooks are the tiny fixtures in ``tests/fixtures`` (``sample_report.ipynb``:
parameters and two charts; ``failing_report.ipynb``: raises in its third cell), so these
tests do not depend on the real reports. Kernel runs are shared by module fixtures.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import nbformat
import pandas as pd
import plotly.graph_objects as go
import pytest
from plotly.offline import get_plotlyjs_version

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.reports import figures
from toolkit.reports.runner import (
    REPORTS,
    Job,
    ParameterSpec,
    ReportFailed,
    ReportIndex,
    discover_reports,
    load_parameter_file,
    notebook_parameters,
    parse_cli_value,
    render_html,
    run_batch,
    run_report,
    validate_parameters,
)

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE = FIXTURES / "sample_report.ipynb"
FAILING = FIXTURES / "failing_report.ipynb"
REPO = Path(__file__).parent.parent
PLOTLY_BANNER = f"plotly.js v{get_plotlyjs_version()}"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# -- fixtures notebooks ---------------------------------------------------------------------
def test_fixture_notebooks_are_committed_without_outputs():
    for path in (SAMPLE, FAILING):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, path


def test_discover_reports_names_notebooks_by_stem():
    assert discover_reports(FIXTURES) == {"failing": FAILING, "sample": SAMPLE}
    index = ReportIndex(FIXTURES)
    assert list(index) == ["failing", "sample"] and index["sample"] == SAMPLE
    assert discover_reports(FIXTURES / "missing") == {}
    assert all(path.name.endswith(("_report.ipynb", "_strategy.ipynb", "_examples.ipynb")) for path in REPORTS.values())


def test_notebook_parameters_infers_types_from_defaults():
    specs = notebook_parameters(SAMPLE)
    assert list(specs) == ["n", "label", "ratio", "items"]
    assert specs["n"] == ParameterSpec("n", "int", "3", "how many bars")
    assert [s.type_name for s in specs.values()] == ["int", "str", "float", "list"]
    assert specs["label"].default == '"x"'


# -- parameters -------------------------------------------------------------------------------
def test_unknown_parameter_lists_every_accepted_one():
    with pytest.raises(InvalidSetupError) as info:
        validate_parameters(SAMPLE, {"nn": 3})
    message = str(info.value)
    assert "'nn'" in message
    for shown in (
        "n: int (default 3)",
        'label: str (default "x")',
        "ratio: float (default 0.5)",
        "items: list (default [1, 2])",
    ):
        assert shown in message


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"n": "abc"}, "parameter 'n' of sample_report.ipynb must be int (default 3), got 'abc' (str)"),
        ({"n": True}, "must be int"),
        ({"n": 2.5}, "got 2.5 (float)"),
        ({"ratio": "high"}, "must be float"),
        ({"items": 3}, "must be list"),
        ({"label": 8}, "must be str"),
    ],
)
def test_wrong_type_names_parameter_type_and_value(params, expected):
    with pytest.raises(InvalidSetupError, match="must be") as info:
        validate_parameters(SAMPLE, params)
    assert expected in str(info.value)


def test_valid_parameters_pass_and_ints_become_floats():
    checked = validate_parameters(SAMPLE, {"n": 5, "ratio": 1, "items": [3], "label": "y"})
    assert checked == {"n": 5, "ratio": 1.0, "items": [3], "label": "y"}
    assert isinstance(checked["ratio"], float)


def test_parameterless_default_type_accepts_anything():
    spec = ParameterSpec("anything", None, "None")
    assert spec.accepts(3) and spec.accepts("x") and spec.accepts(None)
    assert spec.describe() == "anything: any = None"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("8", 8),
        ("0.5", 0.5),
        ("[4, 6]", [4, 6]),
        ("true", True),
        ("melee", "melee"),
        ("{a: 1}", {"a": 1}),
        ("'8'", "8"),
        ("[1,", "[1,"),  # not YAML: stays text
        ("__import__('os').getcwd()", "__import__('os').getcwd()"),  # never evaluated
    ],
)
def test_parse_cli_value_reads_yaml(text, value):
    assert parse_cli_value(text) == value
    assert type(parse_cli_value(text)) is type(value)


def test_parse_cli_value_uses_the_parameter_type():
    assert parse_cli_value("8", "str") == "8"
    assert parse_cli_value("1e3", "float") == 1000.0
    assert parse_cli_value("many", "float") == "many"


# -- parameter files --------------------------------------------------------------------------
def test_load_parameter_file(tmp_path):
    path = tmp_path / "jobs.yaml"
    path.write_text("reports:\n  - report: sample\n    name: small\n    parameters: {n: 2}\n  - report: failing\n")
    assert load_parameter_file(path) == [Job("sample", {"n": 2}, "small"), Job("failing", {}, None)]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("reports: [", "is not valid YAML"),
        ("- report: sample\n", "expected a mapping with a 'reports' list"),
        ("reports: []\n", "'reports' must be a non-empty list"),
        ("reports: [sample]\n", "job 1 must be a mapping"),
        ("reports:\n  - name: x\n", "job 1 needs 'report: NAME'"),
        ("reports:\n  - report: sample\n    params: {n: 1}\n", "unknown keys ['params']"),
        ("reports:\n  - report: sample\n    parameters: [1]\n", "'parameters' must be a mapping"),
        ("reports:\n  - report: sample\n    name: ../x\n", "not usable as a file name"),
        ("reports:\n  - {report: sample, name: a}\n  - {report: failing, name: a}\n", "used twice"),
        ("reports: [{report: sample}]\nextra: 1\n", "unknown top-level keys ['extra']"),
    ],
)
def test_bad_parameter_file_names_file_and_problem(tmp_path, text, problem):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(InvalidSetupError) as info:
        load_parameter_file(path)
    assert str(path) in str(info.value)
    assert problem in str(info.value)


def test_missing_parameter_file():
    with pytest.raises(InvalidSetupError, match="does not exist"):
        load_parameter_file("no_such_file.yaml")


def test_example_batch_file_is_valid():
    jobs = load_parameter_file(REPO / "data" / "batch" / "angry_miniatures_small.yaml")
    assert [(j.report, dict(j.parameters)) for j in jobs] == [("angry-miniatures", {"max_dice": 6})]
    assert load_parameter_file("angry_miniatures_small.yaml") == jobs  # found in data/batch/
    notebook = REPO / "notebooks" / "angry_miniatures_report.ipynb"
    if notebook.exists():
        validate_parameters(notebook, jobs[0].parameters)


# -- display helpers (no kernel) --------------------------------------------------------------
def test_show_inlines_plotlyjs_only_the_first_time(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    figures.reset()
    try:
        fig = go.Figure(go.Bar(x=[1, 2], y=[3, 4]))
        figures.show(fig)
        figures.show(fig)
    finally:
        figures.reset()
    first, second = (obj.data for obj in shown)
    assert PLOTLY_BANNER in first and PLOTLY_BANNER not in second
    assert "plotly-graph-div" in second and '"displaylogo": false' in second
    with pytest.raises(TypeError, match="plotly figure"):
        figures.show({"data": []})


def test_say_displays_markdown(monkeypatch):
    """say() renders its Markdown itself (links and raw HTML off, see test_report_injection.py)."""
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    figures.say("Melee **wins**, `3` dice.")
    assert (
        type(shown[0]).__name__ == "HTML"
        and shown[0].data == "<p>Melee <strong>wins</strong>, <code>3</code> dice.</p>\n"
    )


def test_table_formats_fractions_and_escapes_names():
    df = pd.DataFrame(
        {"name": ["<Ogre & co>", "elf"], "p": [Fraction(7, 27), Fraction(1, 2)], "mean": [Fraction(7, 2), 3]}
    )
    markup = figures.table_html(df, caption="Odds <1>", percent_columns=["p"])
    assert "&lt;Ogre &amp; co&gt;" in markup and "<Ogre" not in markup
    assert "7/27 ≈ 25.9%" in markup and "1/2 = 50%" in markup
    assert "7/2 = 3.5" in markup
    assert "<caption>Odds &lt;1&gt;</caption>" in markup
    assert "<th></th>" not in markup  # default index hidden
    with pytest.raises(InvalidSetupError, match="'chance'"):
        figures.table_html(df, percent_columns=["chance"])


# -- real runs ----------------------------------------------------------------------------------
def _args(*argv: str | Path) -> list[str]:
    return [str(a) for a in argv]


@pytest.fixture(scope="module")
def single_run(tmp_path_factory):
    """``toolkit report sample -p label 'zebra<42>' -p n 4`` (one kernel run)."""
    out = tmp_path_factory.mktemp("single")
    code = main(
        _args("report", "sample", "-p", "label", "zebra<42>", "-p", "n", "4", "--notebooks", FIXTURES, "-o", out)
    )
    return code, out


@pytest.fixture(scope="module")
def batch_run(tmp_path_factory):
    """``toolkit report -f jobs.yaml --workers 1`` with a succeeding and a failing job (two
    kernel runs, one after the other in this process: without ``--workers`` two jobs would
    start a Dask cluster of two worker processes, which is not what these tests check; a
    parallel batch gives what a sequential one gives, tests/test_parallel_reports.py)."""
    out = tmp_path_factory.mktemp("batch")
    jobs = out / "jobs.yaml"
    jobs.write_text(
        "reports:\n"
        "  - report: sample\n    name: s-1\n    parameters: {label: '<b>bold & co</b>', ratio: 1}\n"
        "  - report: failing\n"
    )
    code = main(_args("report", "-f", jobs, "--workers", "1", "--notebooks", FIXTURES, "-o", out / "html"))
    return code, out / "html"


@pytest.fixture(scope="module")
def failed_run(tmp_path_factory):
    """``run_report('failing', {'size': 5})`` (one kernel run), with its progress lines."""
    out = tmp_path_factory.mktemp("failed")
    lines: list[str] = []
    with pytest.raises(ReportFailed) as info:
        run_report("failing", {"size": 5}, out, notebooks_dir=FIXTURES, progress=lines.append)
    return info.value, lines, out


@pytest.mark.slow
def test_report_html_has_parameters_and_plotlyjs_once(single_run):
    code, out = single_run
    assert code == 0
    page = (out / "sample.html").read_text(encoding="utf-8")
    assert (out / "sample.ipynb").is_file()
    assert "zebra&lt;42&gt;" in page and "zebra<42>" not in page  # injected, shown escaped
    assert "n = 4" in page  # the say() sentence of the run
    assert page.count(PLOTLY_BANNER) == 1  # two charts, one plotly.js
    assert page.count('class="plotly-graph-div"') == 2
    assert "<script" in page
    assert "7/27 ≈ 25.9%" in page
    assert "from toolkit.reports import" not in page  # code hidden by default
    assert not (out / "index.html").exists()  # a single report needs no index
    # issue 12 item 7: nothing loaded from the network (no require.js, no MathJax), and the
    # parameters line under the title
    assert not re.search(r"<script[^>]*\bsrc=", page) and "require.min.js" not in page
    assert "cdnjs" not in page and 'type="text/x-mathjax-config"' not in page
    assert page.index('id="Sample-report"') < page.index("toolkit-parameters")


def _rendered(tmp_path: Path, cells: list, parameters=(("n", "4", True), ("label", "x", False))) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    path = tmp_path / "executed.ipynb"
    nbformat.write(nb, str(path))
    return render_html(path, tmp_path / "page.html", parameters=parameters).read_text(encoding="utf-8")


def test_render_html_puts_the_parameters_line_under_the_title(tmp_path):
    """Issue 12 item 7: the title first, then the parameters line, then the introduction."""
    page = _rendered(
        tmp_path,
        [
            nbformat.v4.new_code_cell("x = 1"),
            nbformat.v4.new_markdown_cell("# The Title\n\nThe introduction.\n\nMore of it."),
            nbformat.v4.new_markdown_cell("## 1. A section"),
        ],
    )
    title, line = page.index('id="The-Title"'), page.index("Run with n <b>4</b>")
    assert title < line < page.index("The introduction.") < page.index("More of it.") < page.index("A section")
    assert "Otherwise as by default: label <b>x</b>" in page
    assert page.count("toolkit-parameters") == 1
    # no title: the line comes first
    page = _rendered(tmp_path, [nbformat.v4.new_markdown_cell("Only prose.")], (("n", "4", False),))
    assert page.index("Run as by default: n <b>4</b>") < page.index("Only prose.")


def test_render_html_loads_nothing_from_the_network(tmp_path):
    """Issue 12 item 7: no require.js, MathJax, mermaid or widget-manager script tags."""
    page = _rendered(tmp_path, [nbformat.v4.new_markdown_cell("# T\n\nSome $x$ text.")])
    assert re.findall(r"<script[^>]*>", page) == []  # the page itself has no script; charts bring their own
    assert "cdnjs" not in page and "require" not in page and "MathJax" not in page
    assert '<h1 id="T">' in page  # still nbconvert's lab page


def test_a_report_prints_to_pdf_from_the_browser(tmp_path):
    """A report's PDF is the browser's Print of its page: the page carries its print style
    sheet once (A4, no prompts, charts and table rows never split), inside the page's head."""
    page = _rendered(tmp_path, [nbformat.v4.new_markdown_cell("# T\n\nText.")])
    assert page.count("@media print{") == 1 and "@page{size:A4;margin:14mm}" in page
    assert page.index("@media print{") < page.index("</head>")
    assert ".jp-InputPrompt,.jp-OutputPrompt{display:none!important}" in page


@pytest.mark.slow
def test_kernel_stderr_reaches_the_terminal_without_the_tcp_warning(tmp_path, capfd):
    """Issue 12 item 7: the kernel's TCP warning is dropped, anything else it writes to its
    stderr (a real error) still reaches the terminal."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("import os\nos.write(2, b'kernel says: real trouble\\n')")]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "noisy_report.ipynb"))
    run_report("noisy", {}, tmp_path / "out", notebooks_dir=folder, progress=lambda _: None)
    err = ""
    for _ in range(50):  # the copy runs in a thread until the kernel's pipe closes
        err += capfd.readouterr().err
        if "real trouble" in err:
            break
        time.sleep(0.1)
    assert "kernel says: real trouble" in err
    assert "without encryption" not in err


@pytest.mark.slow
def test_failing_report_names_cell_and_error(failed_run):
    error, lines, out = failed_run
    assert error.report == "failing"
    assert error.cell_index == 2  # the third cell of the notebook, not counting papermill's
    assert error.ename == "ValueError" and error.evalue == "bad <value> & size 5"
    assert error.first_line == 'raise ValueError(f"bad <value> & size {size}")'
    message = str(error)
    assert "'failing'" in message and "cell index 2" in message and "ValueError: bad <value>" in message
    assert lines[0] == "[1/1] failing: running failing…"
    assert lines[1].startswith("[1/1] failing: FAILED after ") and "ValueError" in lines[1]
    assert error.html_path == out / "failing.html" and error.html_path.is_file()  # partial report


@pytest.mark.slow
def test_batch_links_every_report_and_shows_failure(batch_run, capsys):
    code, out = batch_run
    assert code == 1
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="s-1.html">s-1</a>' in index and '<a href="failing.html">failing</a>' in index
    assert (out / "s-1.html").is_file() and (out / "failing.html").is_file()
    assert index.count('class="ok"') == 1 and index.count('class="failed"') == 1
    assert "ValueError: bad &lt;value&gt; &amp; size 2" in index
    assert "&lt;b&gt;bold &amp; co&lt;/b&gt;" in index and "<b>bold" not in index
    assert "Sample report" in index  # notebook title


def test_run_batch_continues_after_bad_job(tmp_path):
    lines: list[str] = []
    result = run_batch(
        [("nope", {}), Job("sample", {"n": "many"})], tmp_path, notebooks_dir=FIXTURES, progress=lines.append
    )
    assert not result.ok and len(result.failed) == 2
    assert "unknown report 'nope'; reports: failing, sample" in result.failed[0].error
    assert "must be int" in result.failed[1].error
    assert result.index_path == tmp_path.resolve() / "index.html"
    assert len(lines) == 2 and lines[0].startswith("[1/2] nope: FAILED")


# -- command line ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "sample", "-p", "nn", "1"], "has no parameter 'nn'; accepted parameters: n: int"),
        (["report", "sample", "-p", "n", "many"], "parameter 'n' of sample_report.ipynb must be int"),
        (["report", "nope"], "unknown report 'nope'; reports: failing, sample"),
        (["report", "all", "-p", "n", "1"], "-p sets a parameter of one report"),
        (["report"], "give a report NAME"),
        (["report", "-f", "no_such_jobs.yaml"], "does not exist"),
        (["report", "sample", "--kernel", "no-such-kernel"], "no Jupyter kernel 'no-such-kernel'"),
    ],
)
def test_cli_bad_arguments_exit_2_without_traceback(argv, message, capsys, tmp_path):
    code = main([*argv, "--notebooks", str(FIXTURES), "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing ran


def test_cli_usage_errors(capsys):
    assert main([]) == 2
    assert main(["report", "-p", "n"]) == 2  # argparse: -p needs NAME VALUE
    assert main(["report", "--help"]) == 0
    capsys.readouterr()


def test_cli_list(capsys):
    assert main(["report", "--list", "--notebooks", str(FIXTURES)]) == 0
    out = capsys.readouterr().out
    assert "sample  (" in out and "    n: int = 3  # how many bars" in out
    assert "failing  (" in out and "    size: int = 2" in out


@pytest.mark.slow
def test_cli_exit_codes_of_runs(single_run, batch_run):
    assert single_run[0] == 0
    assert batch_run[0] == 1


def test_python_m_toolkit():
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "report", "--list", "--notebooks", str(FIXTURES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "sample  (" in done.stdout
