"""A saved notebook opened again, as a designer does the next day: run it, save it, close
JupyterLab's page and the kernel, open the notebook again. Where the explorers and steppers
were, she sees their last view (the widget state is saved with the notebook), never "Error
displaying widget: model not found", and the page logs no console error."""

from __future__ import annotations

import shutil

import pytest

from .browser_session import ConsoleLog
from .lab_server import NOTEBOOKS
from .laptop import laptop_context
from .notebook_page import NotebookPage

#: A copy of an explore notebook under a name of its own (the other modules open the original).
NOTEBOOK = "reopened_explore.ipynb"
SOURCE = "angry_miniatures_explore.ipynb"


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


def opened(narrow, lab, console: ConsoleLog) -> NotebookPage:
    page = narrow.new_page()
    console.watch(page)
    nb = NotebookPage(page, lab.page_url(NOTEBOOK), lab.root / NOTEBOOK)
    nb.open()
    return nb


def test_a_saved_notebook_opened_again_shows_its_widgets_not_an_error(narrow, lab, timings):
    shutil.copy(NOTEBOOKS / SOURCE, lab.root / NOTEBOOK)
    first = ConsoleLog(label="run and save")
    nb = opened(narrow, lab, first)
    timings.add(f"{NOTEBOOK}: Run All Cells to kernel idle", nb.run_all(timeout_s=300))
    nb.wait_widgets_drawn()
    ran = nb.check_outputs()
    assert ran.widgets >= 2 and ran.rendered == ran.widgets and ran.problems == [], ran
    # saved only once every explorer has drawn its answer and the kernel has been quiet a
    # while: a model still on its way to the page when the state is written is left out of
    # it (what a loaded machine showed once as "model not found" on the reopened page)
    nb.page.wait_for_function("() => document.querySelectorAll('.toolkit-busy').length === 0", timeout=120_000)
    nb.wait_idle(120, quiet_s=1.0)
    nb.wait_widgets_drawn()
    nb.page.evaluate(
        """async () => {
          const panel = window.jupyterapp.shell.currentWidget;
          await window.jupyterapp.commands.execute('docmanager:save');
          if (panel.context.model.dirty) throw new Error('not saved');
          await panel.sessionContext.shutdown();
        }"""
    )
    nb.page.close()
    assert first.errors == []

    again = ConsoleLog(label="opened again")
    nb = opened(narrow, lab, again)
    try:
        nb.wait_widgets_drawn()
        nb.page.wait_for_timeout(1000)  # a view that fails says so once its manager is restored
        shown = nb.check_outputs()
        text = nb.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").inner_text()
        assert "model not found" not in text and "Error displaying widget" not in text
        assert shown.problems == []
        assert shown.widgets == ran.widgets == shown.rendered  # the last view, drawn again
        assert again.errors == []
    finally:
        nb.page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }")
        nb.page.close()
