"""What the 1280 px tests share: a laptop-wide browser context that saves downloads, a
notebook opened and run in it, and the check that no rule-book example box is cut off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .browser_session import ConsoleLog, offline
from .notebook_page import NotebookPage

#: Every rule-book example box whose content does not fit what shows it (a frame, an output
#: area or any ancestor that clips): "title: content height > shown height".
CUT_OFF_BOXES = """(root) => {
  const cut = [];
  for (const box of root.querySelectorAll('article.rb-example')) {
    if (box.offsetParent === null) continue;
    const need = box.getBoundingClientRect();
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1)
      cut.push(box.querySelector('.rb-title').innerText + ': overflows its own box');
    // every ancestor up to the cell's output area (a frame, an output scrolled into a box);
    // the notebook's own scrolling is not a cut
    for (let el = box.parentElement; el && el !== root; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const shown = el.getBoundingClientRect();
      if (need.top < shown.top - 1 || need.bottom > shown.bottom + 1 || need.right > shown.right + 1)
        cut.push(box.querySelector('.rb-title').innerText + ': ' + Math.round(need.height) + ' px in ' +
                 Math.round(shown.height) + ' px (' + el.className + ')');
      if (el.classList.contains('jp-Cell-outputArea')) break;
    }
  }
  return cut;
}"""


def laptop_context(chromium: Any) -> Iterator[Any]:
    """A browser context 1280 px wide (a laptop), offline, saving downloads (a module
    fixture's body)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    context.set_default_timeout(60_000)
    context.route("**/*", offline)
    yield context
    context.close()


def write_scratch_notebook(lab: Any, name: str, cells: list[str]) -> None:
    """Write a notebook of code ``cells`` (their sources) beside the others, without outputs."""
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c} for c in cells
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.root / name).write_text(json.dumps(notebook), encoding="utf-8")


def open_notebook(narrow: Any, lab: Any, name: str, timings: Any, label: str) -> tuple[NotebookPage, ConsoleLog]:
    page = narrow.new_page()
    console = ConsoleLog(label=label)
    console.watch(page)
    nb = NotebookPage(page, lab.page_url(name), lab.root / name)
    nb.open()
    timings.add(f"{name}: Run All Cells to kernel idle", nb.run_all(timeout_s=300))
    nb.wait_widgets_drawn()
    return nb, console


def close_notebook(nb: NotebookPage) -> None:
    try:
        nb.page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }")
    finally:
        nb.page.close()
