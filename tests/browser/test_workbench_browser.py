"""Save and compare in JupyterLab: the Angry Miniatures explorer at 3 v 2 in melee, used as
a designer would — one click makes 10 a hit (AM-1), "Save as house rules…" with a title
and notes writes the file, and "Compare with…" the default rules shows a second column
and the difference.

Expected by the brute force of ``tests/brute_force.py``: one damage to the defender has
9805/15552 with 10-A hitting against 122/243 with the draft's J-A: +1997/15552, +12.8
points (tests/test_explorer_workbench.py).
"""

from __future__ import annotations

import re

import nbformat
import pytest

from .browser_session import open_and_run

NOTEBOOK = "workbench_check.ipynb"
EXPLORER = "odds_explorer("

SOURCE = """from toolkit.angry_miniatures.widgets import odds_explorer

odds_explorer(attack_dice=3, defence_dice=2, attack_type="melee")"""


@pytest.fixture(scope="module")
def session(browser_context, lab, timings):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, lab.root / NOTEBOOK)
    yield from open_and_run(browser_context, lab, NOTEBOOK, timings)


def test_save_the_hand_changes_then_compare_with_the_default_rules(session):
    from playwright.sync_api import expect

    from toolkit.angry_miniatures import Rules
    from toolkit.house_rules import read_house_rules

    region = session.notebook.output(EXPLORER)
    ten = region.locator(".toolkit-toggle-bar button", has_text=re.compile(r"^\s*10\s*$"))
    ten.click()
    expect(region).to_contain_text("changed here by hand", timeout=30_000)

    workbench = region.locator(".toolkit-workbench")
    workbench.get_by_role("button", name="Save as house rules…").click()
    form = workbench.locator(".toolkit-save-form")
    expect(form).to_be_visible()
    target = session.notebook.path.parent / "saved_rules"
    form.locator("input[type=text]").nth(0).fill("Tens <b>hit</b> too")
    form.locator("textarea").fill("What if 10s hit?\nAttacks land more often.")
    form.locator("input[type=text]").nth(1).fill(str(target))
    form.get_by_role("button", name="Save", exact=True).click()
    expect(workbench).to_contain_text("Saved", timeout=30_000)
    saved = target / "tens_b_hit_b_too.yaml"
    assert saved.is_file()
    read = read_house_rules("angry-miniatures", saved)
    assert read.rules == Rules(hit_faces=("10", "J", "Q", "K", "A")) and read.title == "Tens <b>hit</b> too"
    picker = region.locator(".toolkit-rules-picker select")
    expect(picker.locator("option:checked")).to_have_text("Tens <b>hit</b> too", timeout=30_000)
    assert region.locator(".toolkit-rules-picker b", has_text="hit").count() == 0  # the title as text

    workbench.locator("select").select_option(label="default rules")
    table = region.locator(".toolkit-compare-table:visible")
    expect(table).to_have_count(1, timeout=60_000)
    head = table.locator("th").all_inner_texts()
    assert [h.strip() for h in head] == ["", "Tens <b>hit</b> too", "default rules", "difference"]
    row = table.locator("tr", has_text="1 damage to defender")
    expect(row).to_contain_text("+12.8 points")
    # 9805/15552 is shown as its percent (a denominator of 10,000 or more), 122/243 whole
    assert [c.strip() for c in row.locator("td").all_inner_texts()] == [
        "1 damage to defender",
        "63.0%",
        "122/243 ≈ 50.2%",
        "+12.8 points",
    ]
    assert session.console.errors == []
