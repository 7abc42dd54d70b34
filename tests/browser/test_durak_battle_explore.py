"""durak_battle_explore.ipynb in JupyterLab: run it, play the worked example (a chain of
counterattacks, DB-4 … DB-8) to its end by clicking, Back, and use the battle-odds
explorer (a slider, quick/careful, the exactly/at-least view), timing each answer
against issue 12's goals."""

from __future__ import annotations

import re

import pytest

from .browser_session import OUTSIDE_RULINGS, notebook_area, open_and_run, outputs_text
from .machine_pace import paced
from .notebook_page import (
    button,
    cut_off_labels,
    nudge,
    short_sliders,
    slider_value,
    time_cell_to_chart,
    time_view_switch,
    unreadable_numbers,
    viewport_width,
)

NOTEBOOK = "durak_battle_explore.ipynb"
EXAMPLE = 'battle_stepper(example="durak_counterattack_chain.yaml")'
ROUND = "round_explorer()"
EXPLORER = "odds_explorer()"
NEXT = "Play the example's next move"

#: The issue's goals (seconds) and the margins held on a noisy 2-core machine.
DEFAULT_GOAL, DEFAULT_LIMIT = 1.0, 2.0
VIEW_SWITCH_GOAL, VIEW_SWITCH_LIMIT = 0.1, 0.3
BUSY_GOAL, BUSY_LIMIT = 0.1, 0.3

#: Internal side ids in text a designer reads (issue 12 item 4).
SIDE_IDS = re.compile(r"\b[ab] (retreats|destroyed|wins|attacks)\b|\bside [ab]'s view\b|\((a|b)\)")


@pytest.fixture(scope="module")
def session(browser_context, lab, timings):
    yield from open_and_run(browser_context, lab, NOTEBOOK, timings)


def tokens_slider(region):
    """The first army's tokens slider of an explorer ("North: tokens")."""
    return region.locator(".widget-slider").filter(has_text=re.compile(r": tokens")).first


def test_runs_and_every_widget_renders(session):
    check = session.notebook.check_outputs()
    assert not check.problems, check.problems
    assert check.widgets >= 4 and check.rendered == check.widgets
    assert session.console.errors == []


@pytest.fixture(scope="module")
def played_example(session, timings):
    """The worked example played to its end by clicking; the stepper's text at the end."""
    nb = session.notebook
    region = nb.output(EXAMPLE)
    nxt = button(region, NEXT)
    clicks = []
    for _ in range(80):
        if nxt.is_disabled():
            break
        clicks.append(nb.timed(nxt.click, region, parts="text", timeout_s=30))
        nb.wait_idle(30)  # the button's state arrives after the log's
    else:
        pytest.fail("the example did not end within 80 clicks")
    text = region.inner_text()
    timings.add(f"Durak example: next move, slowest of {len(clicks)}", max(clicks))
    timings.add(f"Durak example: next move, median of {len(clicks)}", sorted(clicks)[len(clicks) // 2])
    return clicks, text


def test_worked_example_played_to_the_end_by_clicking_then_back(session, played_example, timings):
    clicks, text = played_example
    assert re.search(r"The example is played out; its (expectation is|\d+ expectations are) met", text), text[-600:]
    assert "DB-" in text
    nb = session.notebook
    region = nb.output(EXAMPLE)
    back = nb.timed(button(region, "Back").click, region, parts="text")
    nb.wait_idle(30)
    timings.add("Durak example: Back", back)
    assert re.search(rf"Next in the example \({len(clicks)} of {len(clicks)}\)", region.inner_text())
    assert not button(region, NEXT).is_disabled()
    assert max(clicks) < 2 and back < 2
    assert session.console.errors == []


def test_stepper_names_armies_not_side_ids(played_example):
    _, text = played_example
    found = sorted({m.group(0) for m in SIDE_IDS.finditer(text)})
    assert not found, found


def test_round_explorer_slider_redraws(session, timings):
    nb = session.notebook
    region = nb.output(ROUND)
    tokens = tokens_slider(region)
    start = slider_value(tokens)
    seconds = nb.timed(lambda: nudge(tokens), region, parts="both")
    timings.add(f"Durak round explorer: tokens {start}→{int(start) + 1}, chart and summary redrawn", seconds)
    nb.timed(lambda: nudge(tokens, "ArrowLeft"), region, parts="both")
    assert seconds < 5


def test_explorer_slider_redraws_chart_and_summary(session, timings):
    nb = session.notebook
    region = nb.output(EXPLORER)
    tokens = tokens_slider(region)
    start = slider_value(tokens)
    seconds = nb.timed(lambda: nudge(tokens, "ArrowLeft"), region, parts="both")
    assert slider_value(tokens) == str(int(start) - 1)
    timings.add(f"Durak explorer (quick): tokens {start}→{int(start) - 1}, chart and summary redrawn", seconds)
    back = nb.timed(lambda: nudge(tokens), region, parts="both")
    timings.add(f"Durak explorer (quick): tokens {int(start) - 1}→{start}, chart and summary redrawn", back)
    assert seconds < 30
    assert session.console.errors == []


@pytest.fixture(scope="module")
def view_switch(session, timings):
    """exactly→at least with the quick odds; then quick→careful timed (the issue measured
    19.9 s; the careful view switch, 7.5 s there, is left out to keep the suite short)."""
    nb = session.notebook
    region = nb.output(EXPLORER)
    timed = time_view_switch(nb, region)
    switch = timings.add(
        "Durak explorer (quick): view exactly→at least", timed.seconds, VIEW_SWITCH_GOAL, timed.note, timed.pace
    )
    careful = nb.timed(button(region, "careful").click, region, parts="text", timeout_s=240)
    timings.add("Durak explorer: Clash odds quick→careful, summary redrawn", careful)
    nb.timed(button(region, "quick").click, region, parts="text", timeout_s=240)
    return switch


def test_explorer_view_switch_is_fast(view_switch):
    assert view_switch.within(VIEW_SWITCH_LIMIT), view_switch.says(VIEW_SWITCH_LIMIT)


def test_explorer_shows_busy_state_at_once(session, timings):
    nb = session.notebook
    region = nb.output(EXPLORER)
    tokens = tokens_slider(region)
    with paced() as pace:
        seen = nb.busy_within(lambda: nudge(tokens, "ArrowLeft"), region, BUSY_LIMIT * pace.before)
    nb.wait_idle(60)
    nudge(tokens)
    nb.wait_idle(60)
    assert seen is not None, f"no busy state within {BUSY_LIMIT} s × pace {pace.before:.2f} of the input"
    timings.add("Durak explorer: busy state shown", seen, BUSY_GOAL, pace=pace.value)


@pytest.fixture(scope="module")
def default_answer(session, timings):
    with paced() as pace:
        seen = time_cell_to_chart(session.notebook, EXPLORER)
    session.notebook.wait_idle(60)
    timings.add("Durak explorer: default settings, cell run to the kernel done", seen["done"])
    timings.add("Durak explorer: default settings, cell run to the controls drawn", seen.get("controls", float("nan")))
    return timings.add(
        "Durak explorer: default settings, cell run to chart drawn", seen["chart"], DEFAULT_GOAL, pace=pace.value
    )


def test_explorer_default_settings_answer_within_a_second(default_answer):
    assert default_answer.within(DEFAULT_LIMIT), default_answer.says(DEFAULT_LIMIT)


def test_labels_fit(session):
    cut = list(dict.fromkeys(cut_off_labels(notebook_area(session))))
    assert not cut, cut


def test_numbers_are_readable(session):
    found = unreadable_numbers(outputs_text(session))
    assert not found, found


def test_rulings_are_linked_inside_the_repository(session):
    lines = [line for line in notebook_area(session).inner_text().splitlines() if OUTSIDE_RULINGS in line]
    assert not lines, lines


def test_nothing_cut_off_at_1280px(session):
    """Issue 23 item 3: at 1280 px no select ("Knowledge (Battle) d‹"), label or toggle is
    cut and no slider is squeezed."""
    with viewport_width(session.page, 1280):
        area = notebook_area(session)
        cut = list(dict.fromkeys(cut_off_labels(area))) + short_sliders(area)
    assert not cut, cut


def test_explorers_show_the_picture_before_their_controls(session):
    """Issue 23 item 9: the round explorer's chart comes before its controls, which sit in
    a grid (each army's controls a column of their own), not one control a row."""
    region = session.notebook.output(ROUND)
    chart = region.locator(".toolkit-chart").first.bounding_box()
    grid = region.locator(".toolkit-controls").first
    assert chart and grid.bounding_box() and chart["y"] < grid.bounding_box()["y"]
    tops = grid.evaluate("g => Array.from(g.children).map(c => Math.round(c.getBoundingClientRect().top))")
    assert len(set(tops)) <= (len(tops) + 1) // 2, tops  # at least two cells a row


def test_an_army_change_ends_the_example_with_a_neutral_note(session):
    """Issue 23 item 6: South 3 tokens down, the example ends where its cards no longer
    fit, with one neutral note naming the file's line, and play goes on by hand."""
    nb = session.notebook
    region = nb.output(EXAMPLE)
    south = region.locator(".widget-slider").filter(has_text=re.compile(r"South: tokens"))
    start = slider_value(south)
    for _ in range(3):
        nudge(south, "ArrowLeft")
    # the kernel can be idle before the army change shows (under load its message arrives
    # late): wait for the change itself, so that "Play all" plays the changed battle
    fewer = rf"against South \({int(start) - 3} tokens\)"
    region.get_by_text(re.compile(fewer)).first.wait_for(timeout=30_000)
    nb.wait_idle(30)
    try:
        button(region, "Play all").click()
        region.get_by_text("no longer fits").first.wait_for(timeout=60_000)
        nb.wait_idle(60)
        text = region.inner_text()
        assert text.count("no longer fits") == 1, text[-800:]
        assert "Continue by hand from here" in text and "durak_counterattack_chain.yaml" in text
        assert not re.search(r"/\S+\.yaml", text), "a path is shown"
        colour = region.get_by_text("no longer fits").evaluate("e => getComputedStyle(e).color")
        assert colour != "rgb(201, 42, 42)", "shown as an error"
    finally:
        for _ in range(3):
            nudge(south)
        nb.wait_idle(30)
    assert slider_value(south) == start


def test_no_console_errors(session):
    assert session.console.errors == []
