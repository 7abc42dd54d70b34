"""What the browser suite's tests share: where Chromium is and with which flags, the
console log of a page, the network block, an explore notebook opened and run, and the
mark of a test that shows a defect the product has today."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .browser_timings import TimingLog

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
TIMINGS = TimingLog()  # the session's figures


def missing_browser() -> str:
    """Why the browser suite cannot run here, or ``""``."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists() and not shutil.which(str(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set $CHROMIUM)"
    return ""


#: Console errors seen now and then (about 2 runs in 8) and not yet traced to a widget:
#: kept apart (``ConsoleLog.intermittent``) and printed, so that the suite does not fail at
#: random while the defect is open (issue 12). Any other console error fails the suite.
INTERMITTENT_ERRORS = ("Error setting state: Cannot read properties of undefined (reading 'length')",)


@dataclass
class ConsoleLog:
    """A page's console errors and uncaught exceptions, in order."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    intermittent: list[str] = field(default_factory=list)
    label: str = ""  # what was being done (the test's name), added to each error

    def watch(self, page: Any) -> None:
        """Collect from ``page`` from now on."""

        def on_console(message: Any) -> None:
            if message.type == "error":
                where = message.location.get("url", "")
                line = f"[{self.label}] console.error: {message.text} ({where})"
                if any(known in message.text for known in INTERMITTENT_ERRORS):
                    self.intermittent.append(line)
                    print(f"known intermittent console error (issue 12, open): {line}")
                else:
                    self.errors.append(line)
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
    from .notebook_page import NotebookPage

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


def known_defect(reason: str) -> pytest.MarkDecorator:
    """Mark a test that shows a defect the product has today: it must fail on an assertion
    (``xfail(strict=True)``), so the day the product is fixed the test says so."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)


def notebook_area(session: ExploreSession) -> Any:
    """The open notebook's cells (a Playwright Locator)."""
    return session.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")


def outputs_text(session: ExploreSession) -> str:
    """Everything the notebook's outputs show, as text."""
    return "\n".join(notebook_area(session).locator(".jp-OutputArea-output").all_inner_texts())


#: A path to the rulings outside the repository (issue 12 item 5).
OUTSIDE_RULINGS = "shared/rules"
