"""A stepper's Export in JupyterLab at 1280 px: the Format dropdown shows its choice (it was
blank), Export previews the rule-book page at its own height and the Markdown as it renders,
the PDF as the page it prints, and the download link saves the file (Chromium's ``expect_download``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from python_on_page import python_on_page

from toolkit.examples import EXAMPLES_DIR
from toolkit.replay import replay_file

from .laptop import CUT_OFF_BOXES, close_notebook, laptop_context, open_notebook, write_scratch_notebook

STEPPER_NOTEBOOK = "stepper_export.ipynb"
STEPPER = 'combat_stepper(example="dizzytwig_v_sparklespaz.yaml")'
#: A card code as a designer types it, left in text she reads.
CARD_CODE = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[SHDC](?!\w)|\bJK[12]\b")


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


@pytest.fixture(scope="module")
def stepper(narrow, lab, timings):
    """A scratch notebook beside the others: the worked example played out in a stepper."""
    source = f"from toolkit.fairy_meat.widgets import combat_stepper\n\nst = {STEPPER}\nst.play_all()\nst"
    write_scratch_notebook(lab, STEPPER_NOTEBOOK, [source])
    nb, console = open_notebook(narrow, lab, STEPPER_NOTEBOOK, timings, STEPPER_NOTEBOOK)
    yield nb, console
    close_notebook(nb)


# -- a stepper's Export --------------------------------------------------------------------------
def test_the_steppers_export_previews_and_downloads(stepper):
    nb, console = stepper
    region = nb.output(STEPPER)
    region.locator(".jupyter-widget-Collapse-header, .lm-AccordionPanel-title, .p-Accordion-title").filter(
        has_text="example file, rule-book page"
    ).first.click()
    fmt = region.locator("select").filter(has_text="Example file (YAML)")
    # the Format dropdown shows its choice (it was blank)
    shown = fmt.evaluate("s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''")
    assert shown.replace("\xa0", " ") == "Example file (YAML)"  # ipywidgets writes its spaces unbreakable
    region.get_by_role("button", name="Export", exact=True).click()
    nb.wait_idle(30)
    assert region.locator("a.rb-download:visible").count() == 1
    fmt.select_option(label="Rule-book page (HTML)")
    nb.wait_idle(30)
    preview = region.locator("article.rb-example:visible")
    assert preview.count() == 1 and preview.locator("svg.rb-card").count() > 10
    assert region.evaluate(CUT_OFF_BOXES) == []
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download:visible").click()
    page = Path(caught.value.path()).read_text(encoding="utf-8")
    assert caught.value.suggested_filename.endswith(".html") and page.startswith("<!DOCTYPE html>")
    fmt.select_option(label="Markdown with image files (.zip)")
    nb.wait_idle(30)
    assert region.locator(".rb-markdown img:visible").count() > 10  # the Markdown previewed as it renders
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download:visible").click()
    assert caught.value.suggested_filename.endswith(".zip")
    fmt.select_option(label="Print-ready PDF")
    nb.wait_idle(30)
    assert region.locator("article.rb-example:visible").count() == 1  # previewed as the page it prints
    with nb.page.expect_download() as caught:
        region.locator("a.rb-download:visible").click()
    pdf = PdfReader(caught.value.path())
    assert caught.value.suggested_filename.endswith(".pdf") and "Dizzytwig draws 5 cards" in pdf.pages[0].extract_text()
    assert python_on_page(region.inner_text()) == []
    assert console.errors == []


def test_the_log_downloads_as_toolkit_replay_prints_it_cards_as_symbols(stepper):
    # the plain-text log a designer reads writes a card as K♠ (never KS), the same bytes as
    # `toolkit replay FILE` prints for the example the stepper played
    nb, console = stepper
    region = nb.output(STEPPER)
    # the one Export of the stepper (open already after the test above): its log is a format of it
    fmt = region.locator("select").filter(has_text="Example file (YAML)")
    if not fmt.is_visible():
        region.locator(".jupyter-widget-Collapse-header, .lm-AccordionPanel-title, .p-Accordion-title").filter(
            has_text="Export: preview and download (example file"
        ).first.click()
        nb.wait_idle(30)
    fmt.select_option(label="Plain text (the log)")
    region.get_by_role("button", name="Export", exact=True).click()
    nb.wait_idle(30)
    link = region.locator('a.rb-download[download="log.txt"]:visible')
    assert link.count() == 1
    with nb.page.expect_download() as caught:
        link.click()
    log = Path(caught.value.path()).read_text(encoding="utf-8")
    printed, problems = replay_file(EXAMPLES_DIR / "dizzytwig_v_sparklespaz.yaml")
    assert problems == [] and log and log in printed
    assert "Dizzytwig draws 5 cards: K♠ Q♣ 5♣ 4♣ 3♦." in log.splitlines()
    assert CARD_CODE.findall(log) == [], CARD_CODE.findall(log)[:5]
    assert console.errors == []
