"""angry_miniatures_explore.ipynb in JupyterLab: run it, then play an attack in the
stepper to its end by clicking (AM-2 … AM-4 narrated), Back, and use the odds explorer
(a slider, the exactly/at-least view) as a designer would, timing each answer."""

from __future__ import annotations

import re

import pytest

from .browser_session import OUTSIDE_RULINGS, notebook_area, open_and_run, outputs_text
from .browser_timings import Timing
from .machine_pace import paced
from .notebook_page import (
    button,
    cut_off_labels,
    drag_slider,
    nudge,
    short_sliders,
    slider,
    slider_value,
    time_cell_to_chart,
    time_view_switch,
    timed_text,
    unreadable_numbers,
    viewport_width,
)

NOTEBOOK = "angry_miniatures_explore.ipynb"
STEPPER = "attack_stepper(grunk"
EXPLORER = "odds_explorer()"

#: The issue's goals (seconds) and the margins the suite holds them to on a noisy 2-core
#: machine, both times the machine's pace (:mod:`.machine_pace`).
VIEW_SWITCH_GOAL, VIEW_SWITCH_LIMIT = 0.1, 0.3
BUSY_GOAL, BUSY_LIMIT = 0.1, 0.3


@pytest.fixture(scope="module")
def session(browser_context, lab, timings):
    yield from open_and_run(browser_context, lab, NOTEBOOK, timings)


def test_runs_and_every_widget_renders(session):
    check = session.notebook.check_outputs()
    assert not check.problems, check.problems
    assert check.widgets >= 2 and check.rendered == check.widgets
    assert session.console.errors == []


def test_attack_played_to_the_end_by_clicking_then_back(session, timings):
    nb = session.notebook
    region = nb.output(STEPPER)
    step = button(region, "Step")
    clicks = []
    for _ in range(60):
        if step.is_disabled():  # nothing left to reveal or roll
            break
        clicks.append(nb.timed(step.click, region, parts="text", timeout_s=30))
        nb.wait_idle(30)  # the button's state arrives after the log's
    else:
        pytest.fail("the attack did not end within 60 clicks")
    log = region.inner_text()
    assert "damage" in log and "AM-" in log
    assert button(region, "Roll").is_disabled() and button(region, "Apply").is_disabled()
    timings.add(f"AM stepper: Step click, slowest of {len(clicks)}", max(clicks))
    timings.add(f"AM stepper: Step click, median of {len(clicks)}", sorted(clicks)[len(clicks) // 2])
    back = nb.timed(button(region, "Back").click, region, parts="text")
    nb.wait_idle(30)
    timings.add("AM stepper: Back", back)
    assert not step.is_disabled() or not button(region, "Roll").is_disabled()
    assert max(clicks) < 2 and back < 2  # steppers answer in 20–200 ms (issue 12)
    assert session.console.errors == []


def test_enter_in_the_outcome_box_applies_it(session):
    nb = session.notebook
    region = nb.output(STEPPER)
    button(region, "Restart").click()
    nb.wait_idle(30)
    nb.settle(region)  # the restarted stepper drawn (no fixed pause)
    box = region.locator(".widget-text").filter(has_text="Outcome").locator("input")
    placeholder = box.get_attribute("placeholder") or ""
    example = placeholder.split("one of ", 1)[1].split(",")[0].strip()
    box.fill(example)
    # the stepper shows the outcome applied: waited for (not a fixed 3 s), failing after 30 s
    nb.timed(lambda: box.press("Enter"), region, timeout_s=30)


def test_explorer_slider_redraws_chart_and_summary(session, timings):
    nb = session.notebook
    region = nb.output(EXPLORER)
    dice = slider(region, "Attack dice")
    start = slider_value(dice)
    seconds = nb.timed(lambda: nudge(dice), region, parts="both")
    assert slider_value(dice) == str(int(start) + 1)
    timings.add(f"AM explorer: Attack dice {start}→{int(start) + 1}, chart and summary redrawn", seconds)
    assert seconds < 5
    assert session.console.errors == []


def view_switch(session, timings) -> Timing:
    nb = session.notebook
    region = nb.output(EXPLORER)
    timed = time_view_switch(nb, region)
    return timings.add("AM explorer: view exactly→at least", timed.seconds, VIEW_SWITCH_GOAL, timed.note, timed.pace)


@pytest.fixture(scope="module")
def drag(session, timings):
    nb = session.notebook
    region = nb.output(EXPLORER)
    dice = slider(region, "Attack dice")
    start = slider_value(dice)
    done = drag_slider(nb, dice, region)
    timings.add(
        f"AM explorer: drag Attack dice {start}→{done.value}, release to the last redraw",
        done.settled_after_s,
        note=f"{done.redraws_during} redraws during the drag, {done.redraws_after} after the release",
    )
    drag_slider(nb, dice, region, to_end=False)
    return done


def test_explorer_slider_drag_computes_once_on_release(drag):
    redraws = drag.redraws_during + drag.redraws_after
    assert redraws <= 4, f"{redraws} redraws, the last {drag.settled_after_s:.2f} s after the release"


def test_explorer_view_switch_is_fast(session, timings):
    switch = view_switch(session, timings)
    assert switch.within(VIEW_SWITCH_LIMIT), switch.says(VIEW_SWITCH_LIMIT)


def test_explorer_shows_busy_state_at_once(session, timings):
    nb = session.notebook
    region = nb.output(EXPLORER)
    dice = slider(region, "Defence dice")
    with paced() as pace:
        seen = nb.busy_within(lambda: nudge(dice), region, BUSY_LIMIT * pace.before)
    nb.wait_idle(60)
    assert seen is not None, f"no busy state within {BUSY_LIMIT} s × pace {pace.before:.2f} of the input"
    timings.add("AM explorer: busy state shown", seen, BUSY_GOAL, pace=pace.value)


def test_explorer_default_settings_drawn(session, timings):
    """No goal for this explorer (the issue's 1 s is for Fairy Meat and Durak): recorded, and
    held to 10 s (0.4–0.5 s measured since the chart stopped being a FigureWidget, which
    shipped plotly.js again, about 5 MB, with every explorer: 2.9 s before)."""
    seen = time_cell_to_chart(session.notebook, EXPLORER)
    session.notebook.wait_idle(60)
    timings.add("AM explorer: default settings, cell run to the kernel done", seen["done"])
    timings.add("AM explorer: default settings, cell run to the controls drawn", seen.get("controls", float("nan")))
    seconds = timings.add("AM explorer: default settings, cell run to chart drawn", seen["chart"]).seconds
    assert seconds < 10, f"{seconds:.3f} s"


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
    """Issue 23 item 3: at 1280 px no label or select is cut and no slider is a dot (the
    stepper's "Defenders in the area" was 20 pixels wide)."""
    with viewport_width(session.page, 1280):
        area = notebook_area(session)
        cut = list(dict.fromkeys(cut_off_labels(area))) + short_sliders(area)
    assert not cut, cut


def test_a_click_on_a_hit_face_adds_it(session):
    """Issue 23 item 5: the hit faces are a toggle bar; one plain click on 10 adds it to
    J Q K A (a native multi-select left 10 the only hitting face): 1 die against none then
    hits on 5 faces of 6 (AM-1)."""
    nb = session.notebook
    region = nb.output(EXPLORER)
    for name, value in (("Attack dice", "1"), ("Defence dice", "0")):
        control = slider(region, name)
        while slider_value(control) != value:
            nudge(control, "ArrowLeft" if int(slider_value(control)) > int(value) else "ArrowRight")
            nb.wait_idle(30)
    bar = region.locator(".toolkit-toggle-bar")
    ten = bar.locator("button", has_text=re.compile(r"^\s*10\s*$"))
    try:
        _, text = timed_text(nb, ten.click, region, r"P\(hit\) = 5/6")
        assert "P(hit) = 5/6" in text
        assert "toolkit-picked" in (ten.get_attribute("class") or "")
        jack = bar.locator("button", has_text=re.compile(r"^\s*J\s*$"))
        assert "toolkit-picked" in (jack.get_attribute("class") or "")
    finally:
        ten.click()
        nb.wait_idle(30)


def test_no_console_errors(session):
    assert session.console.errors == []
