"""Paths a designer gives (issue 20 item 6): every reader of a designer's file refuses a
named pipe, a folder, a device and an unknown ``~user`` in one line naming the path,
before opening it (a named pipe used to block the reader, and the explorer's kernel with
it); an output that is one of the inputs is refused.

A named pipe is only ever read in a thread with a deadline: should a reader open it, the
test writes to the pipe to let the reader go, then fails."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.examples import system_of
from toolkit.files import designer_file, read_designer_file, same_file
from toolkit.house_rules import RulesFile, find_rules_file, load_rules, rules_class
from toolkit.notation import load_yaml, read_example
from toolkit.replay import replay_file

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
GRUNK = (EXAMPLES / "grunk_charges_pixie.yaml").read_text()
NO_USER = "~no_such_user_of_the_toolkit"
DEADLINE = 10  # seconds: a refusal takes milliseconds; a reader blocked on a pipe never returns

requires_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe called like a YAML file, nobody writing to it."""
    path = tmp_path / "house.yaml"
    os.mkfifo(path)
    yield path


def _refused(fifo_path: Path | None, call: Callable[[], Any], kind: type[Exception] = ToolkitError) -> str:
    """Run ``call`` in a thread with a deadline; return the one-line message it raised.
    If it is still running at the deadline (blocked opening ``fifo_path``), release it by
    opening the pipe for writing, and fail."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(DEADLINE)
    if worker.is_alive():
        if fifo_path is not None:  # let the blocked reader go, so nothing is left hanging
            fd = os.open(fifo_path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
            worker.join(DEADLINE)
        pytest.fail(f"still running after {DEADLINE} s: blocked on the named pipe")
    error = outcome.get("error")
    assert error is not None, f"not refused: returned {outcome.get('value')!r}"
    assert isinstance(error, kind), f"{type(error).__name__}: {error}"
    message = str(error)
    assert "\n" not in message and "Traceback" not in message, message
    return message


# -- the one function ------------------------------------------------------------------------
@requires_fifo
def test_designer_file_names_each_kind_of_non_file(fifo, tmp_path):
    assert designer_file(__file__) == Path(__file__)
    assert _refused(fifo, lambda: designer_file(fifo, "house-rules file")) == (
        f"house-rules file {str(fifo)!r} is a named pipe (FIFO), not a file"
    )
    folder = _refused(None, lambda: designer_file(tmp_path, "example"))
    assert folder == f"example {str(tmp_path)!r} is a folder, not a file"
    assert _refused(None, lambda: designer_file("/dev/zero")) == "file '/dev/zero' is a character device, not a file"
    assert _refused(None, lambda: designer_file(tmp_path / "none.yaml", "batch file")) == (
        f"batch file {str(tmp_path / 'none.yaml')!r} does not exist"
    )
    message = _refused(None, lambda: designer_file(f"{NO_USER}/house.yaml", "house-rules file"))
    assert message == (
        f"house-rules file '{NO_USER}/house.yaml': no home folder found for user "
        f"'{NO_USER[1:]}'; write the path without '~'"
    )
    kind = _refused(None, lambda: designer_file(tmp_path, error=NotationError))
    assert "folder" in kind


def test_tilde_is_expanded_to_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "house.yaml").write_text("system: angry-miniatures\nnotes: n\nhit_faces: ['10', J, Q, K, A]\n")
    assert designer_file("~/house.yaml") == tmp_path / "house.yaml"
    read = RulesFile.read("~/house.yaml")  # a designer types ~ in the picker, or in -p rules
    assert read.rules.hit_faces == ("10", "J", "Q", "K", "A") and read.path == tmp_path / "house.yaml"
    assert load_rules("angry-miniatures", "~/house.yaml") == read.rules


def test_read_designer_file_reads_up_to_the_limit(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_bytes(b"0123456789")
    assert read_designer_file(path, 4) == b"0123"
    assert read_designer_file(path, 100) == b"0123456789"
    message = _refused(None, lambda: read_designer_file("/dev/zero", 10**9, "example", error=NotationError))
    assert message == "example '/dev/zero' is a character device, not a file"  # never read: it never ends


# -- every reader ----------------------------------------------------------------------------
@requires_fifo
def test_house_rules_readers_refuse_a_pipe_a_folder_a_device_and_an_unknown_home(fifo, tmp_path):
    cls = rules_class("angry-miniatures")
    for bad, says in (
        (fifo, "is a named pipe (FIFO), not a file"),
        (tmp_path, "is a folder, not a file"),
        (Path("/dev/zero"), "is a character device, not a file"),
        (Path(f"{NO_USER}/house.yaml"), "no home folder found for user"),
    ):
        for call in (
            partial(cls.from_yaml, bad),
            partial(RulesFile.read, bad),
            partial(load_rules, "angry-miniatures", str(bad)),
            partial(find_rules_file, "angry-miniatures", str(bad)),
        ):
            message = _refused(fifo, call, InvalidSetupError)
            assert str(bad) in message and says in message, message


@requires_fifo
def test_example_readers_refuse_a_pipe_and_an_unknown_home(fifo):
    for bad, says in ((fifo, "named pipe"), (Path(f"{NO_USER}/x.yaml"), "no home folder")):
        for call in (partial(replay_file, bad), partial(read_example, bad, "moves"), partial(load_yaml, bad)):
            message = _refused(fifo, call, NotationError)
            assert str(bad) in message and says in message, message
    assert _thread_result(lambda: system_of(fifo)) is None  # not an example: listed as none


def _thread_result(call: Callable[[], Any]) -> Any:
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    worker.start()
    worker.join(DEADLINE)
    assert not worker.is_alive(), "blocked"
    return outcome[0]


@requires_fifo
def test_an_examples_rules_key_naming_a_pipe_is_refused_at_its_line(fifo, tmp_path):
    example = tmp_path / "grunk.yaml"
    example.write_text(GRUNK.replace("attack: melee\n", "attack: melee\nrules: house.yaml\n"))  # the pipe, beside it
    message = _refused(fifo, lambda: replay_file(example), NotationError)
    assert message.startswith(f"{example}:14: rules: house-rules file") and "named pipe" in message
    example.write_text(GRUNK.replace("attack: melee\n", f"attack: melee\nrules: {NO_USER}/h.yaml\n"))
    message = _refused(None, lambda: replay_file(example), NotationError)
    assert message.startswith(f"{example}:14: rules: house-rules file") and "no home folder" in message


@requires_fifo
def test_report_rules_parameter_sweep_rules_files_and_batch_files_refuse_a_pipe(fifo, tmp_path):
    from toolkit.reports.jobs import load_parameter_file
    from toolkit.reports.parameters import read_rules_parameter
    from toolkit.sweeps.spec import load_sweep

    for bad in (str(fifo), f"{NO_USER}/h.yaml"):
        message = _refused(fifo, partial(read_rules_parameter, "angry-miniatures", bad), InvalidSetupError)
        assert bad in message
        sweep = tmp_path / "s.yaml"
        sweep.write_text(
            "system: angry-miniatures\ncalculator: opposed\n"
            f"grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules_files: [{bad!r}]\n"
        )
        message = _refused(fifo, partial(load_sweep, sweep), InvalidSetupError)
        assert message.startswith(f"{sweep}:6: rules_files: house-rules file") and bad in message
        message = _refused(fifo, partial(load_parameter_file, bad), InvalidSetupError)
        assert message.startswith(f"parameter file {bad!r}"), message


@requires_fifo
def test_a_sweep_file_that_is_a_pipe_a_folder_or_under_an_unknown_home_is_refused(fifo, tmp_path):
    from toolkit.sweeps.spec import load_sweep

    assert _refused(fifo, partial(load_sweep, fifo), NotationError) == (
        f"sweep file {str(fifo)!r} is a named pipe (FIFO), not a file: give a sweep file, e.g. data/sweeps/*.yaml"
    )
    assert "is a folder, not a file" in _refused(None, partial(load_sweep, tmp_path), NotationError)
    message = _refused(None, partial(load_sweep, f"{NO_USER}/s.yaml"), NotationError)
    assert message.startswith(f"sweep file '{NO_USER}/s.yaml': no home folder found for user"), message


@requires_fifo
def test_find_example_rules_option_refuses_a_pipe(fifo, capsys):
    from toolkit.cli import main

    argv = ["find-example", "angry-miniatures", "tie_decided_by_aces", "--rules", str(fifo)]
    assert _thread_result(partial(main, argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named pipe" in err and str(fifo) in err


@requires_fifo
def test_the_rules_picker_shows_one_line_and_keeps_the_kernel_free(fifo, tmp_path):
    pytest.importorskip("ipywidgets")
    from toolkit.widgets.rules_picker import RulesPicker

    (tmp_path / "real.yaml").write_text("system: angry-miniatures\nnotes: n\nhit_faces: ['10', J, Q, K, A]\n")
    picker = _thread_result(lambda: RulesPicker("angry-miniatures", directory=tmp_path))  # the pipe is not listed
    assert [label for label, _ in picker.options] == ["default rules", "real"]
    for bad, says in ((str(fifo), "named pipe"), (f"{NO_USER}/h.yaml", "no home folder"), (str(tmp_path), "folder")):
        assert _thread_result(partial(picker.load, bad)) is False
        assert says in picker.error and bad in picker.error and "\n" not in picker.error


# -- an output that is an input --------------------------------------------------------------
def test_same_file_follows_links_and_resolves_paths(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_text("x")
    (tmp_path / "link.yaml").symlink_to(a)
    assert same_file(a, tmp_path / "link.yaml") and same_file(a, tmp_path / "sub" / ".." / "a.yaml")
    assert not same_file(a, tmp_path / "b.yaml")
    assert same_file(tmp_path / "new.yaml", tmp_path / "." / "new.yaml")  # neither exists yet: the same path
