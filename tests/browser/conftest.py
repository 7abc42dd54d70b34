"""Fixtures of the browser suite: one JupyterLab server and one headless Chromium for the
session, a page per notebook, the console errors of every page, the timing log.

Chromium is Debian's ``chromium`` (``/usr/bin/chromium``, or ``$CHROMIUM``) driven by
Playwright; ``.ci/run`` installs it. Without it (or without Playwright) the suite is
skipped, with the reason, except in CI (``CI=true``) where that is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from timings import TimingLog

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = os.environ.get("CI", "").lower() == "true"
TIMINGS = TimingLog()


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


def missing_browser() -> str:
    """Why the browser suite cannot run here, or ``""``."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists() and not shutil.which(str(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set $CHROMIUM)"
    return ""


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
    from jupyterlab_server import start_lab

    server = start_lab(tmp_path_factory.mktemp("jupyterlab"))
    yield server
    server.stop()


@dataclass
class ConsoleLog:
    """A page's console errors and uncaught exceptions, in order."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    label: str = ""  # what was being done (the test's name), added to each error

    def watch(self, page: Any) -> None:
        """Collect from ``page`` from now on."""

        def on_console(message: Any) -> None:
            if message.type == "error":
                where = message.location.get("url", "")
                self.errors.append(f"[{self.label}] console.error: {message.text} ({where})")
            elif message.type == "warning":
                self.warnings.append(message.text)

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.errors.append(f"[{self.label}] uncaught: {error}"))


def offline(route: Any) -> None:
    """A Playwright route handler: only file:// and 127.0.0.1 are reachable."""
    url = route.request.url
    if url.startswith(("file://", "data:", "blob:")) or url.split("/")[2].split(":")[0] == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


@pytest.fixture(scope="session")
def browser_context(chromium: Any) -> Iterator[Any]:
    """One browser context for the session (a wide window), with the network blocked
    except 127.0.0.1 and local files."""
    context = chromium.new_context(viewport={"width": 1500, "height": 1000})
    context.set_default_timeout(60_000)
    context.route("**/*", offline)
    yield context
    context.close()


@dataclass
class ExploreSession:
    """An explore notebook open and run in a page, with its console log and run time."""

    notebook: Any  # notebook_page.NotebookPage
    console: ConsoleLog
    run_seconds: float

    @property
    def page(self) -> Any:
        return self.notebook.page


def open_and_run(browser_context: Any, lab: Any, name: str, timings: TimingLog) -> Iterator[ExploreSession]:
    """Open ``notebooks/<name>`` in a new page, run all its cells, yield the session;
    shut its kernel down and close the page afterwards (a module fixture's body)."""
    from notebook_page import NotebookPage

    page = browser_context.new_page()
    console = ConsoleLog()
    console.watch(page)
    notebook = NotebookPage(page, lab.page_url(name), lab.root / name)
    notebook.open()
    seconds = notebook.run_all()
    timings.add(f"{name}: Run All Cells to kernel idle", seconds)
    notebook.wait_widgets_drawn()
    yield ExploreSession(notebook, console, seconds)
    try:
        page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }")
    finally:
        page.close()


@pytest.fixture(autouse=True)
def _console_label(request: pytest.FixtureRequest) -> None:
    """Name the running test in the console errors of its module's notebook page."""
    if "session" in request.fixturenames:
        request.getfixturevalue("session").console.label = request.node.name


def known_defect(reason: str) -> pytest.MarkDecorator:
    """Mark a test that shows a defect the product has today: it must fail on an assertion
    (``xfail(strict=True)``), so the day the product is fixed the test says so."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)
