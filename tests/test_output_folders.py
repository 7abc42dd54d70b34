"""Nothing a designer wrote is overwritten by a tune or a sweep, and a rerun leaves no file
of the earlier run claiming to be of this one (toolkit/output_folder.py).

The refusals come before any work: no point is computed (no ``.search`` or ``.points``
folder appears), the designer's file is byte for byte as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tune_run import SMALL as TWELVE

from toolkit.errors import InvalidSetupError
from toolkit.folder_lock import LOCK_NAME
from toolkit.output_folder import RECORD_NAME, OutputFolder
from toolkit.sweeps import run_sweep
from toolkit.tune import tune

pytest.importorskip("distributed")

#: 3 settings of the tune tests' (P(no damage) with no defence dice is (1/3)^n: AM-1).
SMALL = TWELVE.replace("to: 12", "to: 3")
RULES = "system: angry-miniatures\ntitle: Cheap crits\ncrit_faces: [K, A]\n"
HANDS = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: {from: 0, to: 2}\n"


def one_line(info: pytest.ExceptionInfo) -> str:
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_baseline_named_like_a_candidate_is_refused_before_any_work(client: object, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    baseline = out / "small_1.yaml"  # what candidate 1 of small.yaml would be called
    baseline.write_text(RULES)
    tuning = tmp_path / "small.yaml"
    tuning.write_text(SMALL + f"baseline: {baseline}\n")
    with pytest.raises(InvalidSetupError) as info:
        tune(tuning, out, client=client, stream=None, progress=None)
    assert one_line(info) == (
        f"tune small would write '{baseline}', which is its own input '{baseline}': give another output folder (-o)"
    )
    assert baseline.read_text() == RULES and sorted(p.name for p in out.iterdir()) == [LOCK_NAME, "small_1.yaml"]


def test_a_designers_file_in_the_way_is_refused(client: object, tmp_path: Path) -> None:
    (tmp_path / "small.csv").write_text("my own notes\n")
    tuning = tmp_path / "small.yaml"
    tuning.write_text(SMALL)
    with pytest.raises(InvalidSetupError) as info:
        tune(tuning, tmp_path, client=client, stream=None, progress=None)
    assert one_line(info).startswith(f"tune small would overwrite '{tmp_path / 'small.csv'}', a file it did not write")
    assert (tmp_path / "small.csv").read_text() == "my own notes\n" and not (tmp_path / ".search").exists()


def test_a_rerun_with_fewer_candidates_leaves_none_of_the_earlier_run(client: object, tmp_path: Path) -> None:
    tuning = tmp_path / "small.yaml"
    tuning.write_text(SMALL + "best: 3\n")
    first = tune(tuning, tmp_path / "out", client=client, stream=None, progress=None)
    out = tmp_path / "out"
    assert sorted(p.name for p in first.files) == [
        "small.csv",
        "small.html",
        "small_1.yaml",
        "small_2.yaml",
        "small_3.yaml",
    ]
    # the designer keeps candidate 3, edited: it is theirs now
    kept = out / "small_3.yaml"
    kept.write_text(kept.read_text() + "# mine\n")
    tuning.write_text(SMALL + "best: 1\n")
    tune(tuning, out, client=client, stream=None, progress=None)
    assert not (out / "small_2.yaml").exists()
    assert kept.read_text().endswith("# mine\n")
    # the third run may not overwrite the edited file either, were it to write a third candidate
    tuning.write_text(SMALL + "best: 3\n")
    with pytest.raises(InvalidSetupError, match=r"small_3\.yaml', a file it did not write"):
        tune(tuning, out, client=client, stream=None, progress=None)


def test_a_sweep_file_is_never_its_own_output(client: object, tmp_path: Path) -> None:
    sweep = tmp_path / "hands.html"  # a sweep file named like its report
    sweep.write_text(HANDS)
    with pytest.raises(InvalidSetupError) as info:
        run_sweep(sweep, tmp_path, client=client, progress=None)
    assert "which is its own input" in one_line(info) and sweep.read_text() == HANDS
    assert not (tmp_path / ".points").exists()
    # a designer's page where the report goes is refused; without the report, the sweep runs
    (tmp_path / "hands.yaml").write_text(HANDS)
    (tmp_path / "hands.html").write_text("<p>mine</p>")
    with pytest.raises(InvalidSetupError, match=r"hands\.html', a file it did not write"):
        run_sweep(tmp_path / "hands.yaml", tmp_path, client=client, progress=None)
    assert run_sweep(tmp_path / "hands.yaml", tmp_path, client=client, progress=None, report=False).computed == 3
    assert (tmp_path / "hands.html").read_text() == "<p>mine</p>"
    # its own table and report are rewritten by a rerun
    (tmp_path / "hands.html").unlink()
    run_sweep(tmp_path / "hands.yaml", tmp_path, client=client, progress=None)
    assert run_sweep(tmp_path / "hands.yaml", tmp_path, client=client, progress=None).skipped == 3


def test_a_table_of_this_sweep_written_before_the_record_is_rewritten(client: object, tmp_path: Path) -> None:
    run_sweep(HANDS, tmp_path, client=client, progress=None)
    (tmp_path / RECORD_NAME).unlink()  # an output folder of an older toolkit
    assert run_sweep(HANDS, tmp_path, client=client, progress=None).skipped == 3


def test_the_record_removes_only_what_it_wrote(tmp_path: Path) -> None:
    folder = OutputFolder(tmp_path, "tune t")
    written = folder.write("t_1.yaml", b"one")
    folder.write("t_2.yaml", b"two")
    OutputFolder(tmp_path, "tune other").write("other_1.yaml", b"x")
    (tmp_path / "mine.yaml").write_text("designer")
    (tmp_path / "t_2.yaml").write_bytes(b"TWO")  # changed since: a designer's now
    assert folder.clear_earlier({"t_9.yaml"}) == [written]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != RECORD_NAME) == [
        "mine.yaml",
        "other_1.yaml",
        "t_2.yaml",
    ]
    assert not folder.ours("t_2.yaml") and OutputFolder(tmp_path, "tune other").ours("other_1.yaml")
    (tmp_path / RECORD_NAME).write_text("[not, a record")  # unreadable: nothing is taken as ours
    with pytest.raises(InvalidSetupError, match=r"other_1\.yaml', a file it did not write"):
        folder.check(["other_1.yaml"])


def test_a_setting_whose_points_failed_gets_no_candidate_file(
    client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every point fails (a calculator that raises, in this process's workers): the table
    lists the settings with their failure, no house-rules file names one, no best is named."""
    from toolkit.plugin.calculator import Calculator

    def broken(self: object, args: object, rules: object) -> object:
        raise RuntimeError("no dice today")

    monkeypatch.setattr(Calculator, "call", broken)
    result = tune(SMALL, tmp_path, client=client, stream=None, progress=None)
    assert len(result.failures) == 3 and result.best is None and "best:" not in result.summary()
    assert sorted(p.name for p in result.files) == ["tuning.csv", "tuning.html"]
    assert "no dice today" in (tmp_path / "tuning.csv").read_text()
