"""The odds explorer as a designer meets it (issue 12 item 1): a busy state the moment an
input changes, a newer change superseding an older one, slider drags computed once on
release, view switches that only redraw; and Enter in the stepper's Outcome box (item 7).
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

import ipywidgets as widgets
import pytest

from toolkit.angry_miniatures import start_attack_from_pools
from toolkit.prob import Distribution
from toolkit.widgets import OddsExplorer, Stepper
from toolkit.widgets.common import count
from toolkit.widgets.explorer import BUSY_CLASS, NUMBERS_CLASS, SETTLE_SECONDS, VIEW_TOGGLE_CLASS, view_class


def _counted_explorer() -> tuple[OddsExplorer, list[dict], widgets.IntSlider]:
    """An explorer of a fair die with ``dice`` faces, recording every computation."""
    calls: list[dict] = []
    dice = widgets.IntSlider(value=2, min=1, max=6, description="Faces")

    def compute(dice: int) -> Distribution[int]:
        calls.append({"dice": dice})
        return Distribution.uniform(range(dice))

    return OddsExplorer({"dice": dice}, compute, score=lambda k: k), calls, dice


def test_sliders_compute_once_on_release():
    ex, _, dice = _counted_explorer()
    assert dice.continuous_update is False
    assert ex.view.style.button_width == "auto"  # the view buttons' labels fit


def test_view_switch_redraws_without_recomputing():
    ex, calls, _ = _counted_explorer()
    assert len(calls) == 1
    ex.view.value = "at least"
    assert len(calls) == 1  # the distribution is reused
    assert ex.table["outcome"].tolist() == ["at least 1 damage to defender"]
    assert ex.table["probability"].tolist() == [Fraction(1, 2)]
    assert list(ex.shown_figure.data[0].y) == [50.0]
    ex.view.value = "exactly"
    assert len(calls) == 1 and ex.table["outcome"].tolist() == ["1 damage to defender", "nothing"]


def test_outside_a_kernel_a_change_computes_at_once_and_is_not_busy():
    ex, calls, dice = _counted_explorer()
    dice.value = 4
    assert len(calls) == 2 and not ex.busy
    assert BUSY_CLASS not in ex.widget._dom_classes
    assert "aria-busy" not in ex.status_line.value


def test_in_a_kernel_a_change_shows_busy_at_once_and_newer_changes_supersede():
    async def designer() -> None:
        ex, calls, dice = _counted_explorer()
        dice.value = 3
        # busy at once, before anything is computed: the class, ARIA and a line in words
        assert ex.busy and BUSY_CLASS in ex.widget._dom_classes
        assert 'aria-busy="true"' in ex.status_line.value
        assert "Computing the odds for Faces = 3" in ex.status_line.value
        assert len(calls) == 1
        dice.value = 5  # a newer change before the first was computed
        dice.value = 6
        await asyncio.sleep(SETTLE_SECONDS * 3)
        assert calls == [{"dice": 2}, {"dice": 6}]  # computed once, for the newest value
        assert not ex.busy and BUSY_CLASS not in ex.widget._dom_classes
        assert "aria-busy" not in ex.status_line.value
        assert ex.distribution.probability(5) == Fraction(1, 6)

    asyncio.run(designer())


def test_in_a_kernel_reading_the_numbers_finishes_a_waiting_computation():
    async def notebook_cell() -> None:
        ex, calls, dice = _counted_explorer()
        dice.value = 4  # as a cell would set it, then read at once
        assert ex.table["probability"].tolist() == [Fraction(1, 4)] * 4
        assert not ex.busy and len(calls) == 2
        await asyncio.sleep(SETTLE_SECONDS * 3)
        assert len(calls) == 2  # nothing left waiting

    asyncio.run(notebook_cell())


def test_a_failed_computation_clears_the_busy_state():
    def compute(dice: int) -> Distribution[int]:
        from toolkit.errors import ToolkitError

        if dice > 3:
            raise ToolkitError("too many faces")
        return Distribution.uniform(range(dice))

    dice = widgets.IntSlider(value=2, min=1, max=6, description="Faces")
    ex = OddsExplorer({"dice": dice}, compute, score=lambda k: k)
    dice.value = 5
    assert ex.error == "too many faces" and not ex.busy


def test_enter_in_the_outcome_box_applies_it():
    stepper = Stepper(start_attack_from_pools(3, 2, "melee"))
    stepper.outcome_box.value = "A K 9"
    # Enter makes the browser send {"event": "submit"}, which calls submit_outcome
    # (the browser suite presses the key itself)
    stepper.submit_outcome()
    assert stepper.error == "" and stepper.outcome_box.value == ""
    assert stepper.revealed_events[-1].text.endswith(": A K 9 — 2 hits.")


def test_counts_in_words():
    assert count(1, "card") == "1 card" and count(0, "card") == "0 cards"
    assert count(1, "die", "dice") == "1 die" and count(3, "die", "dice") == "3 dice"


def test_view_switch_only_shows_the_other_views_chart():
    ex, calls, dice = _counted_explorer()
    exactly, at_least = (ex._view_outputs[v] for v in ("exactly", "at least"))
    tables = {v: ex._view_tables[v] for v in ("exactly", "at least")}
    # the browser shows the pressed view's chart and table, and hides the other's, itself
    assert view_class("at least") in at_least._dom_classes and view_class("at least") in tables["at least"]._dom_classes
    assert VIEW_TOGGLE_CLASS in ex.view._dom_classes
    assert (
        f'.{VIEW_TOGGLE_CLASS}:has(button.mod-active[data-value="at%20least"]) ~ * .{view_class("exactly")}'
        "{display:none}"
    ) in ex.view_style.value
    assert "1/2 = 50%" in tables["exactly"].value and tables["at least"].value != tables["exactly"].value
    drawn = (exactly.outputs, at_least.outputs, tables["exactly"].value, tables["at least"].value)
    ex.view.value = "at least"
    assert (exactly.outputs, at_least.outputs, tables["exactly"].value, tables["at least"].value) == drawn
    assert len(calls) == 1 and ex.table_view is tables["at least"]  # nothing computed or drawn again
    assert ex.shown_figure.layout.yaxis.title.text == "% at least"
    dice.value = 3  # new numbers: both views drawn again
    assert ex.shown_figure.data[0].y == pytest.approx((100 / 3, 200 / 3))  # at least 2, at least 1


def test_a_live_figure_is_updated_in_place():
    dice = widgets.IntSlider(value=2, min=1, max=6, description="Faces")
    ex = OddsExplorer(
        {"dice": dice}, lambda dice: Distribution.uniform(range(dice)), score=lambda k: k, live_figure=True
    )
    assert ex.chart is ex.figure and ex.shown_figure is ex.figure
    ex.view.value = "at least"
    assert ex.figure.layout.yaxis.title.text == "% at least"


def test_the_busy_state_dims_the_sentence_and_the_table_too():
    """Issue 23 item 5: while a change is computed, every number that will change is
    dimmed — the chart, the summary sentence and the table — not the chart alone."""
    ex, _, _ = _counted_explorer()
    style = ex.status_line.value
    assert f".toolkit-explorer.{BUSY_CLASS} .{NUMBERS_CLASS}" in style
    for part in (ex.chart, ex.summary_line, ex.table_view):
        assert NUMBERS_CLASS in part._dom_classes
    assert NUMBERS_CLASS not in ex.view._dom_classes  # the controls stay readable


def test_the_exactly_chart_never_labels_its_centre_bar_at_least():
    """Issue 23 item 5: the middle bar (score 0, "nothing") is labelled 0, not "≥ 0"; a
    folded far tail still reads "≥ k"."""
    tail = {k: Fraction(1, 10**6) for k in (5, 6)}
    weights = {0: Fraction(1, 2), 1: Fraction(1, 4), -1: Fraction(1, 4) - 2 * Fraction(1, 10**6), **tail}
    ex = OddsExplorer({}, lambda: Distribution(weights), score=lambda k: k)
    ticks = dict(zip(ex.shown_figure.layout.xaxis.tickvals, ex.shown_figure.layout.xaxis.ticktext, strict=True))
    assert ticks[0] == "0" and ticks[1] == "1" and ticks[-1] == "1"
    assert ticks[5] == "≥ 5"  # 5 and 6 (2 in a million) folded into one bar


def test_the_table_reads_text_left_and_numbers_right():
    ex, _, _ = _counted_explorer()
    html = ex.table_view.value
    assert '<td style="text-align:left' in html and '<td style="text-align:right' in html
    assert "1/2 = 50%" in html


def test_controls_come_after_the_picture_in_one_grid():
    """Issue 23 item 9: the chart first, then the controls grouped in a grid whose labels
    share one width (aligned)."""
    a = widgets.IntSlider(description="Attack dice")
    b = widgets.IntSlider(description="Defenders in the area")
    ex = OddsExplorer({"a": a, "b": b}, lambda a, b: Distribution.uniform([a, b]), score=lambda k: k)
    children = list(ex.widget.children)
    chart_row = next(i for i, c in enumerate(children) if ex.chart in getattr(c, "children", ()))
    assert children.index(ex.controls_grid) > chart_row
    assert isinstance(ex.controls_grid, widgets.GridBox) and list(ex.controls_grid.children) == [a, b]
    assert a.style.description_width == b.style.description_width
    assert a.layout.width == b.layout.width == "auto"  # the cell less its margins (100% ran past it)


def test_the_busy_line_names_a_toggle_bars_choices_in_words():
    """The status line says what is computed in words: a toggle bar's faces, never a
    Python tuple."""
    from toolkit.widgets.common import ToggleBar

    async def designer() -> None:
        bar = ToggleBar(["9", "10", "J"], ("J",), "Hits")
        ex = OddsExplorer({"hits": bar}, lambda hits: Distribution.uniform([len(hits)]), score=lambda k: k)
        bar.buttons[1].value = True
        assert "Computing the odds for Hits = 10 J" in ex.status_line.value and "(" not in ex.status_line.value
        await asyncio.sleep(SETTLE_SECONDS * 3)
        assert ex.distribution.probability(2) == 1

    asyncio.run(designer())


def test_grouped_controls_share_one_cell_and_one_label_width():
    """One army's (one fairy's) controls are one cell of the grid, a column of their own
    (side by side when the page is wide enough, never squeezed); labels share one width."""
    a = widgets.IntSlider(description="North: tokens")
    b = widgets.IntSlider(description="South: tokens")
    c = widgets.Checkbox(description="two jokers")
    ex = OddsExplorer(
        {"a": a, "b": b, "c": c}, lambda a, b, c: Distribution.uniform([a]), score=lambda k: k, groups=[["a"], ["b"]]
    )
    cells = ex.controls_grid.children
    assert [list(cell.children) for cell in cells[:2]] == [[a], [b]] and cells[2] is c
    assert a.style.description_width == b.style.description_width
    assert "auto-fill" in ex.controls_grid.layout.grid_template_columns
    assert "min(" in ex.controls_grid.layout.grid_template_columns  # a cell never wider than the page
