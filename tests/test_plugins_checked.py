"""Plug-in systems are checked as they come in (:mod:`toolkit.systems`): a name is a slug
and no other system's (a clash names both packages and replaces nothing); a module of
``TOOLKIT_SYSTEMS`` that is missing or raises as it is imported is one line naming it while
every other command works, ``--help`` first; and a hook that is missing, raises or is a
notation of another system is one line naming the system and the hook, from every command.
Each case is a small fake plug-in written into a temporary folder.
"""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import pytest

from toolkit import systems
from toolkit.cli import main
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.systems import System

_MODULES = itertools.count()


@pytest.fixture
def registry():
    """The registry as it was before the test, afterwards (a plug-in's systems removed)."""
    before = systems.names()
    yield
    for name in set(systems.names()) - set(before):
        systems.unregister(name)


@pytest.fixture
def plugin(tmp_path, monkeypatch, registry):
    """``plugin(source)``: a module of ``source`` in a temporary folder, named in
    TOOLKIT_SYSTEMS (a fresh name each time, as a designer's plug-in would be)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    named: list[str] = []

    def write(source: str) -> str:
        module = f"fake_plugin_{next(_MODULES)}"
        (tmp_path / f"{module}.py").write_text(source)
        named.append(module)
        monkeypatch.setenv(systems.PLUGINS_VARIABLE, ",".join(named))
        return module

    return write


def _register(source: str) -> str:
    return f"from toolkit.systems import System, register\nregister(System({source}))\n"


@pytest.mark.parametrize("name", ["", 123, "Fairy Meat", "fairy_meat", "-duel", "duel-", "two--hyphens", None])
def test_a_name_must_be_a_slug(name):
    with pytest.raises(InvalidSetupError, match=r"^a system's name is lower-case letters and digits .* got "):
        System(name, "A duel", "duel")


@pytest.mark.parametrize(
    "fields, problem",
    [
        ({"title": ""}, "its title must be one line of text"),
        ({"title": "Duel\x1b]0;owned\x07"}, "its title must be one line of text"),
        ({"package": "not a module"}, "its package must be a module name"),
        ({"calculators": 5}, "its calculators must be a string, got 5"),
    ],
)
def test_the_other_fields_are_checked_too(fields, problem):
    with pytest.raises(InvalidSetupError, match=f"^system coin-toss: {problem}"):
        System(**{"name": "coin-toss", "title": "Coin toss", "package": "coin_toss", **fields})


def test_a_shipped_name_is_never_replaced(registry):
    shipped = systems.system("angry-miniatures")
    with pytest.raises(InvalidSetupError) as raised:
        systems.register(System("angry-miniatures", "Impostor", "impostor"))
    message = str(raised.value)
    assert "impostor" in message and "toolkit.angry_miniatures" in message and "must be unique" in message
    assert systems.system("angry-miniatures") is shipped and systems.names().count("angry-miniatures") == 1
    assert systems.register(shipped) is shipped  # the same system again changes nothing
    with pytest.raises(InvalidSetupError, match="register takes a System, got 'angry-miniatures'"):
        systems.register("angry-miniatures")
    with pytest.raises(InvalidSetupError, match=r"package toolkit\.angry_miniatures is already the package of angry-m"):
        systems.register(System("angry-copies", "Copies", "toolkit.angry_miniatures"))
    assert "angry-copies" not in systems.names()


@pytest.mark.parametrize(
    "source, reason",
    [
        ("import no_such_module_anywhere\n", "no module named 'no_such_module_anywhere'"),
        ("raise RuntimeError('boom as it is imported')\n", "RuntimeError: boom as it is imported"),
        ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
        (_register("'angry-miniatures', 'Impostor', 'impostor'"), "is already the name of package toolkit.angry"),
        (_register("'', 'Nameless', 'nameless'"), "a system's name is lower-case letters"),
        (_register("123, 'Numbered', 'numbered'"), "a system's name is lower-case letters"),
    ],
)
def test_a_plugin_that_fails_to_import_is_one_line_and_the_rest_works(plugin, capsys, source, reason):
    module = plugin(source)
    assert main(["--help"]) == 0
    captured = capsys.readouterr()
    assert "usage: toolkit" in captured.out
    (line,) = captured.err.splitlines()
    assert line.startswith(f"warning: the plug-in '{module}' of TOOLKIT_SYSTEMS is left out: ") and reason in line
    # the shipped systems, each command of theirs
    assert main(["replay", "--list"]) == 0 and main(["sweep", "--list"]) == 0
    assert main(["find-example", "--list", "fairy-meat"]) == 0
    out = capsys.readouterr().out
    assert "angry-miniatures  (Angry Miniatures)" in out and "angry-miniatures opposed:" in out
    assert systems.system("angry-miniatures").package == "toolkit.angry_miniatures"
    assert systems.plugin_problems() == (line.removeprefix("warning: "),)
    with pytest.raises(ToolkitError, match=f"unknown system 'its-duel'.*the plug-in '{module}'"):
        systems.system("its-duel")


def test_a_failing_plugin_is_a_warning_in_python(plugin):
    plugin("raise RuntimeError('boom')\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert "fairy-meat" in systems.names()
    (warning,) = [w for w in caught if issubclass(w.category, systems.PluginWarning)]
    assert "is left out: RuntimeError: boom" in str(warning.message)


@pytest.fixture
def broken(registry, tmp_path):
    """A system whose package is missing and whose calculators and situations hooks name a
    module that is not there."""
    yield systems.register(
        System(
            "broken-duel",
            "Broken duel",
            "no_such_duel",
            calculators="no_such_duel.calculators:calculators",
            situations="no_such_duel.situations:CATALOGUE",
        )
    )


def _one_error(capsys) -> str:
    (line,) = capsys.readouterr().err.splitlines()
    return line


def test_a_missing_hook_is_one_line_from_every_command(broken, tmp_path, capsys):
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("system: broken-duel\ncalculator: duel\ngrid: {coins: [1]}\n")
    tune = tmp_path / "tune.yaml"
    tune.write_text(
        "title: t\nsystem: broken-duel\ncalculator: duel\ntargets:\n  - name: x\n    probability: {outcome: a}\n"
        "    at_least: 50%\nknobs:\n  rules:\n    coins: [1, 2]\n"
    )
    example = tmp_path / "example.yaml"
    example.write_text("system: broken-duel\ntitle: a duel\n")
    missing = "cannot be loaded: no module named 'no_such_duel'"
    calculators = f"system broken-duel: its calculators hook 'no_such_duel.calculators:calculators' {missing}"
    commands = [
        (["sweep", "--list"], calculators),
        (["sweep", str(sweep), "-o", str(tmp_path / "swept")], calculators),
        (["tune", str(tune), "-o", str(tmp_path / "tuned")], calculators),
        (["replay", str(example)], f"system broken-duel: its notation hook 'no_such_duel.notation:NOTATION' {missing}"),
        (
            ["find-example", "broken-duel", "a_tie"],
            f"system broken-duel: its situations hook 'no_such_duel.situations:CATALOGUE' {missing}",
        ),
    ]
    for argv, message in commands:
        assert main(argv) == 2, argv
        assert message in _one_error(capsys), argv
    main(["sweep", "--list"])  # the other systems' calculators are listed all the same
    assert "angry-miniatures opposed:" in capsys.readouterr().out


def test_a_raising_or_wrong_hook_is_one_line(registry, plugin, capsys):
    module = plugin(
        "def calculators():\n    return 1 / 0\ndef strays():\n    return ['not a calculator']\nNOT_A_CLASS = 5\n"
    )
    __import__(module)
    raising = systems.register(System("raising-duel", "Raising duel", module, calculators=f"{module}:calculators"))
    assert main(["sweep", "--list"]) == 2
    assert "system raising-duel: its calculators hook raised ZeroDivisionError: division by zero" in _one_error(capsys)
    systems.register(System("stray-duel", "Stray duel", f"{module}_strays", calculators=f"{module}:strays"))
    with pytest.raises(InvalidSetupError, match="stray-duel: its calculators hook returned 'not a calculator', not a"):
        __import__("toolkit.sweeps").sweeps.calculators_of("stray-duel")
    wrong = System("wrong-duel", "Wrong duel", module, rules=f"{module}:NOT_A_CLASS")
    with pytest.raises(InvalidSetupError, match=f"wrong-duel: its rules hook '{module}:NOT_A_CLASS' is 5, not a class"):
        wrong.rules_class()
    assert raising.has("calculators")


def test_a_notation_of_another_system_is_checked_against_its_system(registry, tmp_path, capsys):
    systems.register(System("other-duel", "Other duel", "other_duel", notation="toolkit.fairy_meat.notation:NOTATION"))
    example = tmp_path / "example.yaml"
    example.write_text("system: other-duel\ntitle: a duel\n")
    assert main(["replay", str(example)]) == 2
    assert _one_error(capsys) == (
        "error: system other-duel: its notation hook 'toolkit.fairy_meat.notation:NOTATION' "
        "is the notation of 'fairy-meat', not of other-duel"
    )


def test_the_shipped_and_test_systems_pass_the_checks():
    import coin_duel

    for entry in (*systems.systems(), coin_duel.SYSTEM):
        assert entry.example_notation().system == entry.name
        assert isinstance(entry.rules_class(), type)
    assert Path(systems.__file__).name == "systems.py"
