"""The page to share, in Chromium with the network off: a sweep run with ``toolkit sweep``
writes it beside its table; picking values with its controls (a slider, buttons, a list)
shows the table's numbers for that setting; a hostile title stays text."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from toolkit import share_page as share
from toolkit.numbers import probability_text
from toolkit.sweeps.words import outcome_words

from .browser_session import ConsoleLog
from .lab_server import REPO

SWEEP = (
    "title: Attack dice against one die, two rule sets\nsystem: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_dice: {from: 1, to: 6}\n  defence_dice: [1]\n  rules_files: [default, tens_hit]\n"
)
HOSTILE = "</script><script>alert('title')</script>"
#: An attack that deals no damage, as the table labels it.
NO_DAMAGE = "defender_damage=0, attacker_damage=0, attacker_crit=False, defender_crit=False"


@pytest.fixture
def offline_page(chromium):
    """A page in a context of its own with the network off (only file:// answers)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_offline(True)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page = context.new_page()
    console, dialogs = ConsoleLog(label="share page"), []
    console.watch(page)
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield page, console, dialogs
    context.close()


def expected(table: pd.DataFrame, dice: int, rules_file: str, outcome: str) -> str:
    rows = table[(table["attack_dice"] == dice) & (table["rules_file"] == rules_file) & (table["outcome"] == outcome)]
    assert len(rows) == 1
    return probability_text(Fraction(int(rows.iloc[0]["numerator"]), int(rows.iloc[0]["denominator"])))


def test_picking_values_shows_the_tables_numbers_offline(offline_page, tmp_path: Path) -> None:
    page, console, dialogs = offline_page
    (tmp_path / "dice.yaml").write_text(SWEEP, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    command = ["sweep", str(tmp_path / "dice.yaml"), "-o", str(tmp_path / "out"), "--workers", "1"]
    run = subprocess.run(
        [sys.executable, "-m", "toolkit", *command],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    shared = tmp_path / "out" / "dice.share.html"
    assert f"page to share: {shared}" in run.stdout
    table = pd.read_parquet(tmp_path / "out" / "dice.parquet")

    page.goto(shared.as_uri())
    number = page.locator(f'tr[data-outcome="{outcome_words(NO_DAMAGE)}"] td.number')
    assert number.inner_text() == expected(table, 1, "default", NO_DAMAGE) == "1/9 ≈ 11.1%"
    slider = page.get_by_role("slider", name="attack dice")
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # 1 -> 4 dice, as a reader moves the slider
    assert page.locator("#controls output").inner_text() == "4"
    assert number.inner_text() == expected(table, 4, "default", NO_DAMAGE)
    page.get_by_label("tens_hit.yaml (Tens hit)").check()
    assert number.inner_text() == expected(table, 4, "tens_hit", NO_DAMAGE)
    assert number.inner_text() != expected(table, 4, "default", NO_DAMAGE)
    assert page.locator(".setting").inner_text() == "attack dice: 4 · house rules: tens_hit.yaml (Tens hit)"
    assert not console.errors and not dialogs


def test_a_list_of_values_and_a_hostile_title_offline(offline_page, tmp_path: Path) -> None:
    page, console, dialogs = offline_page
    names = ["plain", "tens hit", HOSTILE, "cheap crits", "no return"]
    rows = {
        (i,): (share.SharedRow("win", "probability", i / 10, i / 10, i / 10, f"{i}/10 = {i * 10}%"),) for i in range(5)
    }
    grid = share.SharedGrid(HOSTILE, (share.SharedAxis("house rules", tuple(names)),), rows, notes=HOSTILE)
    path = tmp_path / "hostile.html"
    path.write_text(share.page_html(grid), encoding="utf-8")
    page.goto(path.as_uri())
    assert page.locator("h1").inner_text() == HOSTILE
    picker = page.get_by_role("combobox", name="house rules")
    picker.select_option(label=HOSTILE)
    assert page.locator('tr[data-outcome="win"] td.number').inner_text() == "2/10 = 20%"
    picker.select_option(label="no return")
    assert page.locator('tr[data-outcome="win"] td.number').inner_text() == "4/10 = 40%"
    assert not console.errors and not dialogs


@pytest.fixture(scope="module")
def explore_session(browser_context, lab, timings):
    from .browser_session import open_and_run

    yield from open_and_run(browser_context, lab, "angry_miniatures_explore.ipynb", timings)


def test_the_explorers_button_gives_a_page_that_works_offline(explore_session, offline_page, tmp_path: Path) -> None:
    """In JupyterLab, "Page to share" under the Angry Miniatures explorer gives a link; the
    file it downloads, opened offline, shows for 1 die against 1 the odds worked by hand
    (AM-1: 4 hit faces of 6, both miss 1/3 * 1/3 = 1/9)."""
    import base64

    from .browser_session import notebook_area

    area = notebook_area(explore_session)
    area.get_by_role("button", name="Page to share", exact=True).first.click()
    link = area.locator('a.rb-download[download$=".share.html"]').first
    link.wait_for(timeout=120_000)
    assert link.get_attribute("download") == "angry-miniatures-one-attack.share.html"
    href = link.get_attribute("href")
    saved = tmp_path / "attack.share.html"
    saved.write_bytes(base64.b64decode(href.split("base64,", 1)[1]))
    page, console, dialogs = offline_page
    page.goto(saved.as_uri())
    for name in ("Attack dice", "Defence dice"):
        control = page.get_by_role("slider", name=name)
        control.focus()
        page.keyboard.press("Home")  # 0 dice
        page.keyboard.press("ArrowRight")  # 1 die
    assert page.locator(".setting").inner_text() == "Attack dice: 1 · Defence dice: 1"
    assert page.locator('tr[data-outcome="no damage"] td.number').inner_text() == "1/9 ≈ 11.1%"
    assert not console.errors and not dialogs and explore_session.console.errors == []
