"""``python3 scripts/test.py`` (the README's test command) says in one line, at the start
and at the end, that the browser suite is skipped and how to run it, when Chromium is
missing outside CI; in CI a missing Chromium fails the browser suite instead (its conftest)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.fixture()
def script(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("toolkit_test_script", SCRIPTS / "test.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
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
