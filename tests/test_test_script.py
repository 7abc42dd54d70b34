"""``python3 scripts/test.py`` (the README's test command) says in one line, at the start
and at the end, that the browser suite is skipped and how to run it, when Chromium is
missing outside CI; in CI a missing Chromium fails the browser suite instead (its conftest)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(monkeypatch, name: str, file: str):
    """The module of ``scripts/<file>`` (scripts/ on the path for its own imports)."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def script(monkeypatch):
    yield load_script(monkeypatch, "toolkit_test_script", "test.py")
    sys.modules.pop("toolkit_test_script", None)


def test_a_missing_chromium_is_said_with_the_way_to_run_the_browser_suite(script, monkeypatch, tmp_path):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "no-chromium"))
    line = script.browser_missing()
    assert line.startswith("browser suite skipped: no Chromium at ") and str(tmp_path / "no-chromium") in line
    assert "bash .ci/run" in line and "apt-get install chromium" in line and "\n" not in line


def test_nothing_is_said_when_chromium_is_there_or_in_ci(script, monkeypatch, tmp_path):
    browser = tmp_path / "chromium"
    browser.write_text("")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("CHROMIUM", str(browser))
    assert script.browser_missing() == ""
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("CI", "true")
    assert script.browser_missing() == ""  # CI fails the browser suite instead of skipping it


@pytest.fixture()
def bootstrap(monkeypatch):
    return load_script(monkeypatch, "toolkit_bootstrap", "_bootstrap.py")


def test_a_venv_without_pip_is_seen(bootstrap, tmp_path):
    import venv

    venv.EnvBuilder(with_pip=False).create(tmp_path / "half")  # as a creation stopped before pip
    python = tmp_path / "half" / "bin" / "python"
    assert not bootstrap.has_pip(python)
    assert bootstrap.has_pip(Path(sys.executable))


def test_a_venv_left_half_made_is_made_again_before_installing(bootstrap, monkeypatch, tmp_path):
    # A first command stopped while it created .venv leaves a python without pip and no
    # install stamp: the next run makes the venv again (cleared), then installs into it.
    half = tmp_path / ".venv"
    (half / "bin").mkdir(parents=True)
    (half / "bin" / "python").write_text("")
    made, calls = [], []

    class Builder:
        def __init__(self, **options):
            made.append(options)

        def create(self, path):
            made.append(path)

    def run(args, **_):
        calls.append([str(a) for a in args])
        has = not (args[1:4] == ["-m", "pip", "--version"] and not made)
        return bootstrap.subprocess.CompletedProcess(args, 0 if has else 1)

    monkeypatch.setattr(bootstrap, "VENV", half)
    monkeypatch.setattr(bootstrap.venv, "EnvBuilder", Builder)
    monkeypatch.setattr(bootstrap.subprocess, "run", run)
    monkeypatch.setattr(bootstrap, "install", lambda python, requirement: calls.append(["install", requirement]))
    monkeypatch.setattr(bootstrap, "compile_bytecode", lambda python: None)
    bootstrap.venv_python()
    assert made == [{"with_pip": True, "clear": True}, half]
    assert ["install", f"{bootstrap.ROOT}[dev]"] in calls and (half / ".installed").exists()
