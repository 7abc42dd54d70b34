"""Fixtures of the browser suite: one JupyterLab server and one headless Chromium for the
session, a page per notebook, the console errors of every page, the timing log.

Chromium is Debian's ``chromium`` (``/usr/bin/chromium``, or ``$CHROMIUM``) driven by
Playwright; ``.ci/run`` installs it. Without it (or without Playwright) the suite is
skipped, with the reason, except in CI (``CI=true``) where that is a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_session import CHROMIUM, CHROMIUM_FLAGS, IN_CI, TIMINGS, missing_browser, offline
from .browser_timings import TimingLog


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if TIMINGS.timings:
        terminalreporter.section("browser timings (input event to change on screen)")
        terminalreporter.write_line(TIMINGS.table())
        path = getattr(config, "_browser_timings_path", None)
        if path is not None:
            terminalreporter.write_line(f"written to {path}")


@pytest.fixture(scope="session")
def timings(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TimingLog]:
    """The session's timing log, written to ``browser-timings.json`` at the end."""
    yield TIMINGS
    path = tmp_path_factory.getbasetemp() / "browser-timings.json"
    TIMINGS.write(path)
    request.config._browser_timings_path = path  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Headless Chromium (a Playwright Browser); skipped where absent, failed in CI."""
    why = missing_browser()
    if why:
        if IN_CI:
            pytest.fail(f"the browser suite must run in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def lab(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A JupyterLab server on a temporary copy of ``notebooks/`` (started after Chromium is known to be there)."""
    from .lab_server import start_lab

    server = start_lab(tmp_path_factory.mktemp("jupyterlab"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser_context(chromium: Any) -> Iterator[Any]:
    """One browser context for the session (a wide window), with the network blocked
    except 127.0.0.1 and local files."""
    context = chromium.new_context(viewport={"width": 1500, "height": 1000})
    context.set_default_timeout(60_000)
    context.route("**/*", offline)
    yield context
    context.close()


@pytest.fixture(autouse=True)
def _console_label(request: pytest.FixtureRequest) -> None:
    """Name the running test in the console errors of its module's notebook page."""
    if "session" in request.fixturenames:
        request.getfixturevalue("session").console.label = request.node.name
