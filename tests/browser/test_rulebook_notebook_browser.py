"""rulebook_examples.ipynb in JupyterLab at 1280 px, as a designer uses it: the notebook
runs with no warning and no Python on the page, every rule-book example is shown whole (no
frame cuts it), and the finder finds, previews and downloads only the examples ticked
(a stepper's Export: test_stepper_export_browser.py).

Downloads are real: the link is clicked and Chromium saves the file (``expect_download``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from python_on_page import python_on_page

from .laptop import CUT_OFF_BOXES, close_notebook, laptop_context, open_notebook
from .notebook_page import NotebookPage, cut_off_labels

NOTEBOOK = "rulebook_examples.ipynb"
PICKER = "ExamplePicker("


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


@pytest.fixture(scope="module")
def rulebook(narrow, lab, timings):
    nb, console = open_notebook(narrow, lab, NOTEBOOK, timings, NOTEBOOK)
    yield nb, console
    close_notebook(nb)


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
    region.locator("select").nth(1).select_option(label="A crit on defence.")
    nb.wait_idle(30)
    region.locator("button", has_text="Find").click()
    nb.page.wait_for_function("(el) => /examples? of/.test(el.innerText)", arg=region.element_handle(), timeout=120_000)
    nb.wait_idle(60)
    status = region.inner_text()
    assert "3 examples of “A crit on defence”" in status
    previews = region.locator("article.rb-example")
    assert previews.count() == 3 + 3  # the three found, and the three ticked in the download's preview
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
