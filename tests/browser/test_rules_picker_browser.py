"""The rules picker in JupyterLab (issue 11 item 3): an odds explorer with house rules,
used as a designer would — load a house-rules file by its path, see its notes and the
odds recomputed, go back to the default rules from the "Rules:" dropdown, and get one
clear line (never a traceback) for a file that cannot be used.

Expected odds by hand (AM-1, AM-4, AM-5), one die against one in melee: the attack deals
damage with 4/9 under the default rules, 1/2 with a SuperTieBreaker on no hits (see
tests/test_rules_picker.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from .browser_session import open_and_run
from .notebook_page import timed_text

NOTEBOOK = "rules_picker_check.ipynb"
EXPLORER = "rules_system="
HOUSE = Path(__file__).resolve().parents[1] / "fixtures" / "house_rules"

SOURCE = """import ipywidgets as widgets

from toolkit.angry_miniatures import opposed
from toolkit.widgets.explorer import OddsExplorer

dice = widgets.IntSlider(value=1, min=1, max=3, description="Dice")


def compute(dice, rules):
    return opposed(dice, dice, "melee", rules).map(lambda o: o.defender_damage - o.attacker_damage)


OddsExplorer({"dice": dice}, compute, score=lambda k: k, rules_system="angry-miniatures", title="One die each")"""


@pytest.fixture(scope="module")
def session(browser_context, lab, timings):
    shutil.copytree(HOUSE, lab.root / "house_rules", dirs_exist_ok=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, lab.root / NOTEBOOK)
    yield from open_and_run(browser_context, lab, NOTEBOOK, timings)


def _explorer(session):
    return session.notebook.output(EXPLORER)


def test_the_picker_is_drawn_with_the_default_rules(session):
    check = session.notebook.check_outputs()
    assert not check.problems, check.problems
    region = _explorer(session)
    assert region.locator(".toolkit-rules-picker").count() == 1
    assert "Rules:" in region.inner_text() and "default rules" in region.inner_text()
    assert "4/9" in region.inner_text()
    assert session.console.errors == []


def test_loading_a_file_recomputes_and_shows_its_notes(session, timings):
    region = _explorer(session)
    box = region.locator(".toolkit-rules-picker input[type=text]")
    box.fill(str(session.notebook.path.parent / "house_rules" / "angry-miniatures" / "zero_tie.yaml"))
    seconds, text = timed_text(session.notebook, lambda: box.press("Enter"), region, r"1/2 = 50%")
    timings.add("rules picker: load a house-rules file to odds drawn", seconds)
    assert "SuperTieBreaker on no hits" in text
    assert "<b>not bold</b> & escaped" in text  # the notes as text, never markup
    assert "Both roll no hits: super tiebreak (by default miss)" in text
    assert region.locator(".toolkit-rules-picker b", has_text="not bold").count() == 0
    assert seconds < 5
    assert session.console.errors == []


def test_the_dropdown_goes_back_to_the_default_rules(session):
    region = _explorer(session)
    select = region.locator(".toolkit-rules-picker select")
    labels = select.inner_text().replace("\xa0", " ")  # the widget draws spaces as no-break spaces
    from toolkit.house_rules import RulesFile, rules_files

    shipped = [RulesFile.read(path).title for path in rules_files("angry-miniatures")]
    # the default rules, the shipped files by title, and the file loaded by the test before
    assert labels.splitlines() == ["default rules", *shipped, "SuperTieBreaker on no hits"]
    from playwright.sync_api import expect

    select.select_option(index=0)  # a choice in the list: no key or pointer event to time from
    expect(region).to_contain_text("4/9", timeout=30_000)
    assert "no field changed" in region.inner_text()
    assert session.console.errors == []


def test_a_file_that_cannot_be_used_is_one_line(session):
    region = _explorer(session)
    box = region.locator(".toolkit-rules-picker input[type=text]")
    box.fill(str(session.notebook.path.parent / "house_rules" / "bad_field.yaml"))
    _, text = timed_text(session.notebook, lambda: box.press("Enter"), region, r"is not a field")
    alert = region.locator(".toolkit-rules-picker [role=alert]")
    line = alert.inner_text()
    assert "bad_field.yaml:3:" in line and "'zero_ties' is not a field of the angry-miniatures rules" in line
    assert "\n" not in line.strip() and "Traceback" not in text
    assert "4/9" in text  # the rules in force stay the default ones
    assert session.console.errors == []
