"""``toolkit replay`` through the registry of systems (issue 9): every example file of
data/examples/ replays, whatever its system, with no code per system in replay.py."""

from __future__ import annotations

import pytest

from toolkit import systems
from toolkit.cli import main
from toolkit.errors import NotationError
from toolkit.examples import EXAMPLES_DIR, example_files, system_of
from toolkit.notation import ExampleNotation
from toolkit.replay import SYSTEMS, replay_file


def test_every_system_is_registered_with_its_notation():
    assert SYSTEMS == ("fairy-meat", "durak-battle", "angry-miniatures")
    for entry in systems.systems():
        found = entry.notation()
        assert isinstance(found, ExampleNotation) and found.system == entry.name
        assert __import__(entry.package, fromlist=["NOTATION"])  # the package imports
        assert callable(found.plan)


def test_each_system_has_an_example_and_all_replay(capsys):
    files = example_files()
    assert {system_of(f) for f in files} == set(SYSTEMS)
    for path in files:
        _, problems = replay_file(path)
        assert problems == [], path
        notation = systems.notation(system_of(path))
        moves, states, error = notation.plan(notation.load(path))  # what a stepper's example mode walks
        assert error == "" and len(states) == len(moves) + 1 and states[-1].is_terminal
        assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Grunk charges Pixie" in out and "Dizzytwig v Sparklespaz" in out


def test_an_unknown_system_names_the_known_ones(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("system: chess\ntitle: x\n")
    with pytest.raises(NotationError, match="unknown system 'chess'; examples can be replayed for: fairy-meat, "):
        replay_file(path)
    with pytest.raises(NotationError, match="the systems are: fairy-meat, durak-battle, angry-miniatures"):
        systems.system("chess")


def test_replay_list_and_usage(capsys):
    assert main(["replay", "--list"]) == 0
    out = capsys.readouterr().out
    assert "angry-miniatures  (Angry Miniatures)" in out and str(EXAMPLES_DIR / "grunk_charges_pixie.yaml") in out
    assert main(["replay"]) == 2
    assert "give an example FILE" in capsys.readouterr().err
    assert main(["replay", "no/such.yaml"]) == 2


def test_unmet_expectations_exit_1(tmp_path, capsys):
    path = tmp_path / "wrong.yaml"
    path.write_text(
        (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text().replace("{Grunk: 1, Pixie: 0}", "{Grunk: 0}")
    )
    assert main(["replay", str(path)]) == 1
    assert "expectation not met: line 22: damage: Grunk has 1, the example expects 0" in capsys.readouterr().err
