"""`toolkit report` under hostile and careless input (issue 13): parameters read by the
safe reader and validated before anything echoes them, clear errors for bad output
folders and Ctrl-C, a cell timeout, and batch folders that stay consistent."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import nbformat
import pytest

import toolkit.reports.running as running
from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.reports import figures
from toolkit.reports.runner import (
    BatchBusy,
    ReportFailed,
    check_output_dir,
    discover_reports,
    notebook_parameters,
    parse_cli_value,
    run_batch,
    run_report,
    validate_parameters,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PAYLOAD = "<script>alert(1)</script>"
BOMB = "[" + ", ".join(["&a [x, x, x, x, x, x, x, x, x]"] + ["*a"] * 8) + "]"


# -- parameters --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        (BOMB, "alias *a refused"),
        ("!!int x", "!!int cannot read 'x'"),
        ("!!bool maybe", "!!bool cannot read 'maybe'"),
        ("{a: 1, a: 2}", "duplicate key 'a'"),
        ("!!python/object/apply:os.system [echo]", "could not determine a constructor"),
    ],
)
def test_cli_values_the_safe_reader_refuses(text, words):
    start = time.perf_counter()
    with pytest.raises(InvalidSetupError, match="not valid YAML") as info:
        parse_cli_value(text)
    assert time.perf_counter() - start < 1
    assert words in str(info.value) and len(str(info.value)) < 300


def test_cli_value_that_is_not_yaml_stays_text():
    assert parse_cli_value("[") == "["
    assert parse_cli_value("x: y: z") == "x: y: z"


@pytest.mark.parametrize("argv_value", [BOMB, "!!int x"])
def test_cli_bad_value_is_one_line(argv_value, capsys, tmp_path):
    code = main(["report", "sample", "-p", "n", argv_value, "--notebooks", str(FIXTURES), "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_parameter_file_with_a_bomb_or_tag(tmp_path):
    from toolkit.reports.runner import load_parameter_file

    for text in (f"reports: {BOMB}\n", "reports:\n  - report: !!int x\n", b"reports: [\xff]\n"):
        path = tmp_path / "jobs.yaml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        with pytest.raises(InvalidSetupError) as info:
            load_parameter_file(path)
        assert str(path) in str(info.value) and len(str(info.value)) < 400


def test_validation_message_quotes_a_short_excerpt():
    with pytest.raises(InvalidSetupError) as info:
        validate_parameters(FIXTURES / "sample_report.ipynb", {"n": "x" * 100_000})
    assert len(str(info.value)) < 500


def _string_parameters():
    for report, path in discover_reports().items():
        for spec in notebook_parameters(path).values():
            default = spec.default_value()
            if spec.type_name == "str" or (
                spec.type_name == "list" and isinstance(default, list) and default and isinstance(default[0], str)
            ):
                yield report, path, spec


@pytest.mark.parametrize(("report", "path", "spec"), list(_string_parameters()), ids=lambda v: getattr(v, "name", v))
def test_script_payloads_in_string_parameters_are_refused_or_only_echoed_escaped(report, path, spec, monkeypatch):
    """Every text parameter of every report: a listed choice refuses the payload before
    the run; free text is accepted, and whatever a report says is escaped (say())."""
    value = [PAYLOAD, PAYLOAD] if spec.type_name == "list" else PAYLOAD
    # a situation is checked against the catalogue, a system against the registry, a
    # number written as text (a payoff weight) against its range
    if spec.choices or spec.name in ("situation", "system") or spec.bounds:
        with pytest.raises(InvalidSetupError, match=r"takes|has no situation|unknown system|must be a number from"):
            validate_parameters(path, {spec.name: value})
    else:
        validate_parameters(path, {spec.name: value})
    shown: list[str] = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj.data))
    figures.say(f"**policies:** {value}")
    assert "<script>" not in shown[0] and "&lt;script&gt;" in shown[0]


def test_durak_policies_script_is_refused_before_the_run(capsys, tmp_path):
    code = main(["report", "durak-battle", "-p", "policies", f'["{PAYLOAD}", "greedy"]', "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "takes 'greedy' or 'random' or 'optimal'" in err
    assert list(tmp_path.iterdir()) == []


# -- output folders ------------------------------------------------------------------------
def test_output_onto_a_file_or_under_a_file(tmp_path, capsys):
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    for target, words in ((a_file, "is a file, not a folder"), (a_file / "sub", "which is a file")):
        with pytest.raises(InvalidSetupError, match=words):
            check_output_dir(target)
        code = main(["report", "sample", "--notebooks", str(FIXTURES), "-o", str(target)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and words in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_output_where_writing_is_not_allowed(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(InvalidSetupError, match="permission denied"):
        check_output_dir(locked / "out")


# -- batches -------------------------------------------------------------------------------
def test_second_batch_into_the_same_folder_gets_a_clear_message(tmp_path):
    (tmp_path / running.LOCK_NAME).write_text(str(os.getpid()))  # a live batch holds it
    with pytest.raises(BatchBusy, match="another batch"):
        run_batch([("nope", {})], tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    (tmp_path / running.LOCK_NAME).write_text("999999999")  # a batch that is gone
    result = run_batch([("nope", {})], tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    assert not result.ok and not (tmp_path / running.LOCK_NAME).exists()


def test_index_is_rewritten_from_what_the_folder_holds(tmp_path):
    manifest = {
        "kept": {"report": "sample", "parameters": {"n": 2}, "status": "ok", "seconds": 1.0},
        "gone": {"report": "sample", "parameters": {}, "status": "ok", "seconds": 1.0},
    }
    (tmp_path / running.MANIFEST_NAME).write_text(json.dumps(manifest))
    (tmp_path / "kept.html").write_text("<p>kept</p>")
    result = run_batch([("nope", {})], tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    index = result.index_path.read_text(encoding="utf-8")
    assert '<a href="kept.html">kept</a>' in index and "gone" not in index and "nope" in index
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".batch-")] == []


def test_interrupted_batch_leaves_the_previous_state(tmp_path, monkeypatch):
    (tmp_path / "sample.html").write_text("previous good report")

    def interrupted(*args, **kwargs):
        (Path(args[2]) / "sample.html").write_text("partial")
        raise KeyboardInterrupt

    monkeypatch.setattr(running, "run_report", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_batch([("sample", {})], tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    assert (tmp_path / "sample.html").read_text() == "previous good report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sample.html"]  # no lock, no temporary folder


def test_ctrl_c_is_one_line(tmp_path, capsys, monkeypatch):
    import toolkit.reports.runner as runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_batch", interrupted)
    monkeypatch.setattr(runner, "check_kernel", lambda name: None)
    code = main(["report", "sample", "--notebooks", str(FIXTURES), "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 130 and err.strip().startswith("interrupted:") and "Traceback" not in err
    assert err.strip().count("\n") == 0


@pytest.mark.slow
def test_a_hanging_cell_times_out_and_fails_like_a_failing_report(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("while True:\n    pass")]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "loop_report.ipynb"))
    start = time.perf_counter()
    result = run_batch(
        [("loop", {}), ("loop", {"n": 2})], tmp_path / "out", notebooks_dir=folder, progress=lambda _: None, timeout=2
    )
    assert time.perf_counter() - start < 120
    assert [r.status for r in result.results] == ["failed", "failed"]  # the batch went on
    assert "longer than the timeout of 2 s" in result.results[0].error
    with pytest.raises(ReportFailed, match="timeout"):
        run_report("loop", {}, tmp_path / "one", notebooks_dir=folder, progress=lambda _: None, timeout=2)


# The real renders with script payloads (issue 13 item 4) are in tests/test_hostile_renders.py.
