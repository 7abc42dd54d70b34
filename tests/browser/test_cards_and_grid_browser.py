"""Cards and dice drawn one way, and the control grid with the file browser open, in JupyterLab
at 1280 px.

A scratch notebook beside the others holds the three steppers as a designer uses them (the
Fairy Meat worked example played out and a combat at its Trumps step, a Durak example played
out, an Angry Miniatures attack rolled). Checked in the browser, as a designer sees them:

* every card and die in the logs and hands is the rule-book export's picture
  (:mod:`toolkit.pictures`), drawn (the image loads), read as ``K♠`` — no card code (``KS``,
  ``JK1``) is left in the text a designer reads, and no Python (``python_on_page``);
* the Fairy Meat card buttons read ``K♠`` and are filled by what the card does (a Trump or a
  Numbered card, FM-1), as the Durak hands are by action (DB-1);
* with JupyterLab's file browser open at 1280 px, every control grid (the steppers' and the
  three odds explorers') keeps more than one column, no label, button or dropdown is cut
  off and no slider is squeezed to a dot.
"""

from __future__ import annotations

import re

import pytest
from python_on_page import python_on_page

from .laptop import close_notebook, laptop_context, open_notebook, write_scratch_notebook
from .notebook_page import cut_off_labels, short_sliders

NOTEBOOK = "cards_and_grid.ipynb"
FM_EXAMPLE = 'fm = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")'
FM_TRUMPS = 'fm2 = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", fluttered=True, holds_order_card=True)'
DB_EXAMPLE = 'db = battle_stepper(example="durak_counterattack_chain.yaml")'
AM_ATTACK = "am = attack_stepper()"
EXPLORERS = ("fm_odds()", "am_odds()", "round_explorer()")
CELLS = [
    f"from toolkit.fairy_meat.widgets import combat_stepper\n\n{FM_EXAMPLE}\nfm.play_all()\nfm",
    f"{FM_TRUMPS}\nfm2.stepper.roll(); fm2.choose('declare add'); fm2.stepper.roll(); fm2.choose('declare add')\nfm2",
    f"from toolkit.durak_battle.widgets import battle_stepper\n\n{DB_EXAMPLE}\ndb.play_all()\ndb",
    f"from toolkit.angry_miniatures.widgets import attack_stepper\n\n{AM_ATTACK}\nam.stepper.roll()\n"
    "am.stepper.roll()\nam",
    "from toolkit.fairy_meat.widgets import odds_explorer as fm_odds\n\nfm_odds()",
    "from toolkit.angry_miniatures.widgets import odds_explorer as am_odds\n\nam_odds()",
    "from toolkit.durak_battle.widgets import round_explorer\n\nround_explorer()",
]
#: A card code as a designer types it, left in text she reads.
CARD_CODE = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[SHDC](?!\w)|\bJK[12]\b")


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


@pytest.fixture(scope="module")
def steppers(narrow, lab, timings):
    write_scratch_notebook(lab, NOTEBOOK, CELLS)
    nb, console = open_notebook(narrow, lab, NOTEBOOK, timings, NOTEBOOK)
    yield nb, console
    close_notebook(nb)


#: The pictures in a region: (their words, whether the image is drawn, its tooltip).
PICTURES = """(el) => Array.from(el.querySelectorAll('.toolkit-pic')).filter(p => p.offsetParent !== null)
  .map(p => { const img = p.querySelector('img');
              return [p.dataset.text, !!img && img.complete && img.naturalWidth > 0, p.title]; })"""


@pytest.mark.parametrize("code", [FM_EXAMPLE, FM_TRUMPS, DB_EXAMPLE, AM_ATTACK])
def test_cards_and_dice_are_drawn_and_read_one_way(steppers, code):
    nb, console = steppers
    region = nb.output(code)
    pictures = region.evaluate(PICTURES)
    assert pictures, f"{code}: no card or die drawn"
    assert all(drawn for _, drawn, _ in pictures), [p for p in pictures if not p[1]][:3]
    text = region.inner_text()
    assert CARD_CODE.findall(text) == [], f"{code}: card codes left in the text: {CARD_CODE.findall(text)[:5]}"
    assert python_on_page(text, code) == []
    words = {w for w, _, _ in pictures}
    if code == AM_ATTACK:  # poker-die faces (AM-1)
        assert words <= {"9", "10", "J", "Q", "K", "A"} and all(t.startswith("Poker die") for _, _, t in pictures)
    else:
        assert all(re.fullmatch(r"(?:10|[2-9JQKA])[♠♥♦♣]|Joker(?: [12])?", w) for w in words), words
    assert console.errors == []


@pytest.mark.parametrize("code", EXPLORERS)
def test_explorers_show_no_card_code(steppers, code):
    """An explorer names cards as a designer reads them, if at all (no ``KS``), and no Python."""
    nb, _ = steppers
    text = nb.output(code).inner_text()
    assert CARD_CODE.findall(text) == [], CARD_CODE.findall(text)[:5]
    assert python_on_page(text, code) == []


def test_fairy_meat_card_buttons_read_like_the_cards_and_are_filled_by_role(steppers):
    nb, _ = steppers
    region = nb.output(FM_TRUMPS)
    king = region.locator("button.toolkit-card-trump", has_text="K♠")
    assert king.count() == 1
    five = region.locator("button.toolkit-card-numbered", has_text="5♣")
    assert five.count() == 1
    fills = [b.evaluate("b => getComputedStyle(b).backgroundColor") for b in (king, five)]
    assert fills[0] != fills[1]  # a Trump and a Numbered card look different (FM-1)
    colour = king.evaluate("b => getComputedStyle(b).color")
    assert colour == "rgb(33, 37, 41)"  # a spade in black ink (the suit colour stays, FM-4)
    assert "Numbered card" in region.inner_text() and "Trump (J Q K A)" in region.inner_text()


#: Each control grid on the page: its columns and width.
GRIDS = """() => Array.from(document.querySelectorAll('.toolkit-controls')).filter(g => g.offsetParent !== null)
  .map(g => [getComputedStyle(g).gridTemplateColumns.split(' ').filter(Boolean).length,
             Math.round(g.getBoundingClientRect().width)])"""


def test_control_grids_keep_columns_with_the_file_browser_open(steppers):
    nb, _ = steppers
    page = nb.page
    page.evaluate("async () => { await window.jupyterapp.commands.execute('filebrowser:activate'); }")
    page.wait_for_timeout(600)
    assert page.evaluate("() => !window.jupyterapp.shell.leftCollapsed"), "the file browser did not open"
    browser = page.locator(".jp-FileBrowser").first
    assert browser.is_visible() and browser.bounding_box()["width"] > 150
    grids = page.evaluate(GRIDS)
    assert len(grids) >= 7, grids  # four steppers, three explorers
    assert all(columns > 1 for columns, _ in grids), f"(columns, px) of each grid: {grids}"
    for code in (FM_EXAMPLE, FM_TRUMPS, DB_EXAMPLE, AM_ATTACK, *EXPLORERS):
        region = nb.output(code)
        assert cut_off_labels(region) + short_sliders(region) == [], code
