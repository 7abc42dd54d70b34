"""Report parameters are data, never code: every value a designer or a file gives a report
(``-p``, a batch file's parameters, the rule-change report's ``sizes``, the strategy
report's list of lists) is checked as plain data and written into the notebook as a literal.

papermill wrote a value it does not know (a tuple from YAML's ``!!pairs``) between double
quotes as its ``str()``: a text holding ``"`` inside the tuple ended the quotes and the rest
ran as Python. Here every parameter of every report gets every value the safe YAML reader
can build, by both routes (``-p`` and a batch file); each is refused in one line, or is
written into the parameters cell and, run, sets the parameter to exactly what was given;
the code the payloads carry never runs (the sentinel file never appears).
"""

from __future__ import annotations

import ast
import datetime
import json
from pathlib import Path

import nbformat
import pytest

from toolkit.errors import InvalidSetupError
from toolkit.reports.jobs import load_parameter_file
from toolkit.reports.literals import parameters_source, plain_problem, write_parameterised
from toolkit.reports.parameters import parse_cli_value, validate_parameters
from toolkit.reports.runner import discover_reports, notebook_parameters, run_report

SENTINEL = Path("/tmp") / f"toolkit-parameter-sentinel-{__name__}"
_CODE = f'__import__("pathlib").Path("{SENTINEL}").touch()'
#: Texts that end a quoted Python string in each way and then run the code.
TEXTS = [
    f'", {_CODE}, "',
    f"', {_CODE}, '",
    f'""", {_CODE}, """',
    f'\\", {_CODE}, \\"',
    f"\\n{_CODE}\\n",
    f'"""\n{_CODE}\n"""',
    f"'''\t\n{_CODE}\n'''",
]

#: YAML a designer could write, as ``-p NAME VALUE`` text, for every tag family the safe
#: reader builds (and the plain values that must pass through unchanged).
YAML_VALUES = [
    *(f"!!pairs [{{{t!r}: 1}}]" for t in TEXTS[:2]),
    f"!!omap [{{{TEXTS[0]!r}: 1}}]",
    f"!!set {{{TEXTS[0]!r}}}",
    "!!binary IiwgX19pbXBvcnRfXygib3MiKSwgIg==",
    "!!timestamp 2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    f"[[1, 1], !!pairs [{{{TEXTS[0]!r}: 2}}]]",
    f"[1, !!set {{{TEXTS[0]!r}}}]",
    f"{{max_dice: !!omap [{{{TEXTS[0]!r}: 1}}]}}",
    "{max_dice: !!binary aGk=}",
    "{? !!binary IiwgeCwgIg== : 1}",
    "{1: 2}",
    "{? 2001-12-14 : 1}",
    ".inf",
    "-.inf",
    ".nan",
    "1e999",
    "1" + "0" * 40,
    *(repr(t) for t in TEXTS),
    *(json.dumps(t) for t in TEXTS),  # YAML's double quotes read their escapes: real line breaks
    repr("line one\nline two"),
    repr('a "quoted" \\back\\slash\\'),
    "[[1, 1], [2, 1]]",
    "{max_dice: 4}",
    "[" * 30 + "]" * 30,
]

#: Values Python callers could pass that no YAML builds.
PYTHON_VALUES = [(1, 1), [(1, 1), (2, 1)], {"max_dice": (1, 2)}, frozenset({1}), b"x", object(), Path("x")]


def _parameters():
    for report, path in discover_reports().items():
        for spec in notebook_parameters(path).values():
            yield pytest.param(path, spec, id=f"{report}-{spec.name}")


def _refused_in_one_line_or_exact(path: Path, name: str, value) -> None:
    """Validate ``{name: value}`` for the notebook at ``path``: a refusal is one line naming
    the parameter; an accepted value is written as the parameters cell, which, run, sets it to
    what validation returned (equal to what was given) and runs nothing else."""
    try:
        checked = validate_parameters(path, {name: value})
    except InvalidSetupError as exc:
        message = str(exc)
        assert "\n" not in message and repr(name) in message and len(message) < 600, message
        return
    source = parameters_source(checked)
    namespace: dict = {}
    exec(compile(source, "<parameters>", "exec"), namespace)  # the point of the test: it must run nothing
    assert not SENTINEL.exists(), f"{name}: {value!r} ran as code"
    assert repr(namespace[name]) == repr(checked[name])
    if not isinstance(value, (int, str)):  # ints become floats for a float; a file becomes its path
        assert namespace[name] == value


@pytest.fixture(autouse=True)
def _no_sentinel():
    SENTINEL.unlink(missing_ok=True)
    yield
    assert not SENTINEL.exists()


@pytest.mark.parametrize(("path", "spec"), list(_parameters()))
def test_every_parameter_refuses_or_keeps_exactly_every_yaml_value(path, spec):
    for text in YAML_VALUES:
        try:
            value = parse_cli_value(text, spec.type_name)
        except InvalidSetupError as exc:  # the safe reader refused it, in one line
            assert "\n" not in str(exc)
            continue
        _refused_in_one_line_or_exact(path, spec.name, value)
    refused = rf"^parameter '{spec.name}' of .* holds .*; (a parameter|it) takes"
    for value in PYTHON_VALUES:
        with pytest.raises(InvalidSetupError, match=refused):
            validate_parameters(path, {spec.name: value})


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("!!pairs [{a: 1}]", "a tuple (YAML !!pairs or !!omap) at [0]"),
        ("[[1, 1], !!omap [{a: 1}]]", "a tuple (YAML !!pairs or !!omap) at [1][0]"),
        ("!!set {a}", "a set (YAML !!set)"),
        ("{max_dice: !!binary aGk=}", "binary data (YAML !!binary) at ['max_dice']"),
        ("!!timestamp 2001-12-14", "a date or time (YAML !!timestamp)"),
        ("{1: 2}", "a mapping key that is 1"),
        (".nan", "the number nan: only finite numbers"),
        ("1" + "0" * 40, "a whole number of more than 18 digits"),
    ],
)
def test_the_refusal_names_what_was_found_and_where(text, kind):
    assert plain_problem(parse_cli_value(text)) == kind


def test_a_batch_file_gets_the_same_checks(tmp_path):
    """The batch route: a file's parameters, read by the batch reader, reach the same checks."""
    strategy = discover_reports()["fairy-meat-strategy"]
    rule_change = discover_reports()["rule-change"]
    cases = [
        ("fairy-meat-strategy", "hidden_sizes", f"!!pairs [{{{TEXTS[0]!r}: 2}}]", strategy),
        ("rule-change", "sizes", f"!!omap [{{{TEXTS[0]!r}: 1}}]", rule_change),
        ("rule-change", "sizes", f"{{max_dice: !!set {{{TEXTS[0]!r}}}}}", rule_change),
        ("rule-change", "proposed", "!!binary aGk=", rule_change),
    ]
    for report, name, text, path in cases:
        batch = tmp_path / "jobs.yaml"
        batch.write_text(f"reports:\n  - report: {report}\n    parameters:\n      {name}: {text}\n")
        (job,) = load_parameter_file(batch)
        with pytest.raises(InvalidSetupError, match=rf"^parameter '{name}' of .* holds "):
            validate_parameters(path, job.parameters)


def test_the_writer_refuses_what_is_not_plain_even_unchecked():
    """The one writer checks again: a caller that skipped validation still gets no code."""
    for value in ((TEXTS[0], 1), [(TEXTS[0], 1)], {TEXTS[0]}, TEXTS[0].encode(), datetime.date(2001, 1, 1)):
        with pytest.raises(InvalidSetupError, match="holds"):
            parameters_source({"x": value})
    for name in ("import os", "x; y", "class", ""):
        with pytest.raises(InvalidSetupError, match="not a parameter name"):
            parameters_source({name: 1})
    source = parameters_source({"x": TEXTS[0], "y": [TEXTS[2], {"k": TEXTS[3]}], "z": -0.0})
    tree = ast.parse(source)
    assert all(isinstance(node, ast.Assign) for node in tree.body) and len(tree.body) == 3


def test_the_parameters_cell_goes_after_the_cell_tagged_parameters(tmp_path):
    source = Path(__file__).parent / "fixtures" / "sample_report.ipynb"
    target = write_parameterised(source, {"label": TEXTS[0], "items": [1, 2, 3]}, tmp_path / "out.ipynb")
    cells = nbformat.read(str(target), as_version=4).cells
    tags = [c.metadata.get("tags", []) for c in cells]
    assert tags.index(["injected-parameters"]) == tags.index(["parameters"]) + 1
    injected = cells[tags.index(["injected-parameters"])]
    assert "label = " + repr(TEXTS[0]) in injected.source.splitlines()


@pytest.mark.slow
def test_one_run_end_to_end_sets_the_value_and_runs_nothing(tmp_path):
    """One real kernel run: the texts that broke papermill's quotes arrive exactly as given."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("texts = []  # free texts\nsizes = None")
    params.metadata["tags"] = ["parameters"]
    check = nbformat.v4.new_code_cell(f"assert texts == {TEXTS!r}, texts\nassert sizes == {{'a': [[1, 2]]}}, sizes")
    nb.cells = [nbformat.v4.new_markdown_cell("# Probe"), params, check]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "probe_report.ipynb"))
    html = run_report(
        "probe", {"texts": TEXTS, "sizes": {"a": [[1, 2]]}}, tmp_path / "out", notebooks_dir=folder, progress=print
    )
    assert html.is_file() and not SENTINEL.exists()
    with pytest.raises(InvalidSetupError, match="holds a tuple"):
        run_report("probe", {"sizes": [(TEXTS[0], 1)]}, tmp_path / "out", notebooks_dir=folder, progress=print)
