"""rulebook_examples.ipynb and a stepper's Export in JupyterLab at 1280 px, as a designer
uses them: the notebook runs with no warning and no Python on the page, every rule-book
example is shown whole (no frame cuts it), the finder finds, previews and downloads only the
examples ticked, and the stepper's Export shows its format, a preview and a download.

Downloads are real: the link is clicked and Chromium saves the file (``expect_download``)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from python_on_page import python_on_page

from .browser_session import ConsoleLog, offline
from .notebook_page import NotebookPage, cut_off_labels

NOTEBOOK = "rulebook_examples.ipynb"
PICKER = "ExamplePicker("
STEPPER_NOTEBOOK = "stepper_export.ipynb"
STEPPER = 'combat_stepper(example="dizzytwig_v_sparklespaz.yaml")'

#: Every rule-book example box whose content does not fit what shows it (a frame, an output
#: area or any ancestor that clips): "title: content height > shown height".
CUT_OFF_BOXES = """(root) => {
  const cut = [];
  for (const box of root.querySelectorAll('article.rb-example')) {
    if (box.offsetParent === null) continue;
    const need = box.getBoundingClientRect();
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1)
      cut.push(box.querySelector('h1').innerText + ': overflows its own box');
    for (let el = box.parentElement; el && el !== root; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const shown = el.getBoundingClientRect();
      if (need.top < shown.top - 1 || need.bottom > shown.bottom + 1 || need.right > shown.right + 1)
        cut.push(box.querySelector('h1').innerText + ': ' + Math.round(need.height) + ' px in ' +
                 Math.round(shown.height) + ' px (' + el.className + ')');
    }
  }
  return cut;
}"""


@pytest.fixture(scope="module")
def narrow(chromium):
    """A browser context 1280 px wide (a laptop), offline, saving downloads."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    context.set_default_timeout(60_000)
    context.route("**/*", offline)
    yield context
    context.close()


def _open(narrow, lab, name: str, timings, label: str) -> tuple[NotebookPage, ConsoleLog]:
    page = narrow.new_page()
    console = ConsoleLog(label=label)
    console.watch(page)
    nb = NotebookPage(page, lab.page_url(name), lab.root / name)
    nb.open()
    timings.add(f"{name}: Run All Cells to kernel idle", nb.run_all(timeout_s=300))
    nb.wait_widgets_drawn()
    return nb, console


def _close(nb: NotebookPage) -> None:
    try:
        nb.page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }")
    finally:
        nb.page.close()


@pytest.fixture(scope="module")
def rulebook(narrow, lab, timings):
    nb, console = _open(narrow, lab, NOTEBOOK, timings, NOTEBOOK)
    yield nb, console
    _close(nb)


@pytest.fixture(scope="module")
def stepper(narrow, lab, timings):
    """A scratch notebook beside the others: the worked example played out in a stepper."""
    source = f"from toolkit.fairy_meat.widgets import combat_stepper\n\nst = {STEPPER}\nst.play_all()\nst"
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.root / STEPPER_NOTEBOOK).write_text(json.dumps(notebook), encoding="utf-8")
    nb, console = _open(narrow, lab, STEPPER_NOTEBOOK, timings, STEPPER_NOTEBOOK)
    yield nb, console
    _close(nb)


def _outputs(nb: NotebookPage) -> str:
    return "\n".join(nb.page.locator(".jp-Notebook .jp-OutputArea-output").all_inner_texts())


# -- the notebook as a report and a page -------------------------------------------------------
def test_runs_with_no_warning_and_no_python_on_the_page(rulebook):
    nb, console = rulebook
    check = nb.check_outputs()
    assert not check.problems, check.problems
    assert check.stderr == []  # IPython's "Consider using IFrame" warning once showed here
    assert check.widgets >= 1 and check.rendered == check.widgets
    shown = _outputs(nb)
    assert "of 18 situations have a verified example" in shown
    assert python_on_page(shown) == [], python_on_page(shown)[:5]
    assert console.errors == []


def test_no_example_is_cut_off_at_1280_px(rulebook):
    nb, _ = rulebook
    notebook = nb.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    assert notebook.locator("iframe").count() == 0
    boxes = notebook.locator("article.rb-example")
    assert boxes.count() >= 18  # one per situation of the catalogue
    assert notebook.evaluate(CUT_OFF_BOXES) == []
    assert cut_off_labels(nb.output(PICKER)) == []  # the finder's selects show their whole choice


# -- the finder ---------------------------------------------------------------------------------
def test_the_finder_finds_previews_and_downloads_only_the_examples_ticked(rulebook, timings):
    nb, console = rulebook
    region = nb.output(PICKER)
    selects = region.locator("select")
    selects.nth(0).select_option(label="Angry Miniatures")
    nb.wait_idle(30)
    region.locator("select").nth(2).select_option(label="A crit on defence.")
    nb.wait_idle(30)
    region.locator("button", has_text="Find").click()
    nb.page.wait_for_function(
        "(el) => /examples? of/.test(el.innerText)", arg=region.element_handle(), timeout=120_000
    )
    nb.wait_idle(60)
    status = region.inner_text()
    assert "3 examples of “A crit on defence”" in status
    previews = region.locator("article.rb-example")
    assert previews.count() == 3 + 0  # the three found (the download's preview follows the ticks)
    assert region.evaluate(CUT_OFF_BOXES) == []

    # untick the second and third: the download is the first alone, as its example file
    ticks = region.locator("input[type=checkbox]")
    assert ticks.count() == 3
    ticks.nth(1).uncheck()
    ticks.nth(2).uncheck()
    nb.wait_idle(30)
    region.locator("select").filter(has_text="Example file (YAML)").select_option(label="Example file (YAML)")
    nb.wait_idle(30)
    link = region.locator("a.rb-download")
    with nb.page.expect_download() as caught:
        link.click()
    download = caught.value
    assert download.suggested_filename.endswith(".yaml")
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.startswith("system: angry-miniatures") and text.count("system:") == 1

    # two ticked, as Markdown: one .zip with both files and their pictures beside them
    ticks.nth(1).check()
    nb.wait_idle(30)
    region.locator("select").filter(has_text="Markdown with image files").select_option(
        label="Markdown with image files (.zip)"
    )
    nb.wait_idle(30)
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download").click()
    data = Path(caught.value.path()).read_bytes()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    markdown = [n for n in names if n.endswith(".md")]
    assert len(markdown) == 2 and any(n.startswith("images/") and n.endswith(".svg") for n in names)
    body = zipfile.ZipFile(io.BytesIO(data)).read(markdown[0]).decode()
    assert "](images/" in body and "](data:" not in body
    assert console.errors == []


# -- a stepper's Export --------------------------------------------------------------------------
def test_the_steppers_export_previews_and_downloads(stepper):
    nb, console = stepper
    region = nb.output(STEPPER)
    region.locator(".jupyter-widget-Collapse-header, .lm-AccordionPanel-title, .p-Accordion-title").filter(
        has_text="Export: preview and download"
    ).first.click()
    fmt = region.locator("select").filter(has_text="Example file (YAML)")
    # the Format dropdown shows its choice (it was blank)
    assert fmt.evaluate("s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''") == (
        "Example file (YAML)"
    )
    region.locator("button", has_text="Export").click()
    nb.wait_idle(30)
    assert region.locator("a.rb-download").count() == 1
    fmt.select_option(label="Rule-book page (HTML)")
    nb.wait_idle(30)
    preview = region.locator("article.rb-example")
    assert preview.count() == 1 and preview.locator("svg.rb-card").count() > 10
    assert region.evaluate(CUT_OFF_BOXES) == []
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download").click()
    page = Path(caught.value.path()).read_text(encoding="utf-8")
    assert caught.value.suggested_filename.endswith(".html") and page.startswith("<!DOCTYPE html>")
    fmt.select_option(label="Markdown with image files (.zip)")
    nb.wait_idle(30)
    assert region.locator(".rb-markdown img").count() > 10  # the Markdown previewed as it renders
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download").click()
    assert caught.value.suggested_filename.endswith(".zip")
    assert python_on_page(region.inner_text()) == []
    assert console.errors == []
