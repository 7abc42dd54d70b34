"""What the systems' notebook widgets share: escaping, a coloured line of text, a count
in words ("1 card", "3 cards"), reading a field of an outcome that may be a mapping
or an object, and the one rule for the numbers a designer reads (from
:mod:`toolkit.numbers`): :func:`probability_text` (``'7/27 ≈ 25.9%'``, ``'48.8%'``),
:func:`number_text` for means (``'7/3 ≈ 2.33'``, ``'≈ 1.31'``), :func:`estimate_text`
and :func:`method_text` for Monte Carlo, :func:`fold_labels` for tables and bars."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from toolkit.numbers import count, estimate_text, fold_labels, method_text, number_text, percent_text, probability_text
from toolkit.prob import field_of

__all__ = [
    "ERROR",
    "NOTE",
    "OK",
    "PICKED_CLASS",
    "PICKED_STYLE",
    "TEXT_TABLE",
    "TEXT_TABLE_STYLE",
    "ToggleBar",
    "CONTROL_GRID_STYLE",
    "coloured",
    "control_grid",
    "control_grid_style",
    "count",
    "esc",
    "estimate_text",
    "field",
    "mark_picked",
    "fitting_width",
    "fold_labels",
    "method_text",
    "number_text",
    "percent_text",
    "probability_text",
]

#: The colour of a refusal, an error or a broken expectation.
ERROR = "#c92a2a"
#: The colour of a line that says all is well (an export that replays, expectations met).
OK = "#2b8a3e"
#: The neutral colour of a plain note: the example's next move, a partial (unfinished)
#: export — normal states, neither an error nor a success, so
#: neither is shown in red or green.
NOTE = "#444"


def esc(text: object) -> str:
    """``text`` as HTML-escaped text."""
    return html.escape(str(text))


def coloured(text: object, colour: str) -> str:
    """``text``, escaped, in a ``<span>`` of that colour (an error line, a note)."""
    return f'<span style="color:{colour}">{esc(text)}</span>'


def fitting_width(description: str, options: Any = ()) -> str:
    """A CSS width (in ``em``) in which a control's ``description`` and its longest
    option label both fit whole, with room for a dropdown's arrow (a cut-off label hides
    what the control chooses). ``options`` are labels or ``(label, value)`` pairs.

    >>> fitting_width("Morale (DB-8)", [("this clash (default)", "clash"), ("whole battle", "battle")])
    '22.3em'
    """
    labels = [o[0] if isinstance(o, tuple) else str(o) for o in options] or [""]
    characters = len(description) + max(map(len, labels))
    return f"{0.6 * characters + 2.5:.1f}em"  # 0.6 em a character is generous for the UI font


#: Controls whose description is a label on their left (aligned in a control grid).
_LABELLED_LEFT = (
    widgets.IntSlider,
    widgets.FloatSlider,
    widgets.SelectionSlider,
    widgets.Dropdown,
    widgets.IntText,
    widgets.BoundedIntText,
    widgets.Text,
    widgets.ToggleButtons,
)
#: Sliders: their track needs room right of the label (never a dot).
_SLIDERS = (widgets.IntSlider, widgets.FloatSlider, widgets.SelectionSlider)
#: Controls that fill their grid cell (a slider's track as long as the cell allows).
_FILL_CELL = (widgets.IntSlider, widgets.FloatSlider, widgets.SelectionSlider, widgets.Text)


#: The most room (em) a grid cell gives a control right of its label, and the widest its
#: labels' column grows (a longer label wraps onto a second line, shown whole): two cells
#: side by side fit in a notebook 1280 px wide with JupyterLab's file browser open (about
#: 850 px of output at 13 px an em).
_MOST_ROOM = 17.5
_MOST_LABEL = 12.5

#: The CSS class of a control that takes a whole row of its control grid (a dropdown whose
#: choices need more than a cell): a class, since JupyterLab's widget manager does not put a
#: ``Layout(grid_column=...)`` on the page, and the control then overlapped its neighbour.
WHOLE_ROW = "toolkit-whole-row"

#: The page style of a control grid (:func:`control_grid`): a label longer than the labels'
#: column wraps onto two lines, its row as tall as it needs, instead of being cut off; a
#: :data:`WHOLE_ROW` control spans every column.
CONTROL_GRID_STYLE = (
    f"<style>.toolkit-controls>.{WHOLE_ROW}{{grid-column:1/-1}}"
    ".toolkit-controls .widget-inline-hbox{height:auto;min-height:var(--jp-widgets-inline-height);"
    "align-items:center}.toolkit-controls .widget-inline-hbox>.widget-label{white-space:normal;"
    "line-height:1.15;height:auto;text-overflow:clip}.toolkit-controls .widget-checkbox .widget-label-basic{"
    "white-space:normal;line-height:1.15}</style>"
)


def control_grid_style() -> widgets.HTML:
    """The widget that puts :data:`CONTROL_GRID_STYLE` on the page (invisible; place it
    beside a :func:`control_grid`)."""
    return widgets.HTML(CONTROL_GRID_STYLE, layout=widgets.Layout(display="none"))


def _option_width(dropdown: widgets.Dropdown) -> float:
    """The width (em) a dropdown's longest choice needs, its arrow included (0.6 em a
    character is generous for the UI font)."""
    labels = getattr(dropdown, "_options_labels", ()) or ("",)
    return 0.6 * max(map(len, labels)) + 2.5


def whole_row(control: widgets.Widget, wide: bool) -> None:
    """Make ``control`` take a whole row of its control grid (:data:`WHOLE_ROW`), or a cell."""
    if wide:
        control.add_class(WHOLE_ROW)
    else:
        control.remove_class(WHOLE_ROW)


def control_grid(items: Sequence[widgets.Widget | Sequence[widgets.Widget]]) -> widgets.GridBox:
    """The one look of every explorer's and stepper's controls, so they look and align alike: a compact grid
    whose cells are as wide as the longest label needs, as many to a row as the width
    allows. An item that is a list of controls (one army's, one fairy's) is one cell, a
    column of its own: two such groups stand side by side when the page is wide enough,
    one above the other when not (never squeezed). Every label on the left of its control
    gets the same width, so sliders and dropdowns line up and their labels show whole
    (again after a label changes); a slider fills its cell, a dropdown is as wide as its
    choices need, and one whose choices need more than a cell takes a whole row. Returns the ``GridBox`` (its
    children are the controls and the groups' boxes; their ``style``/``layout`` adjusted)."""
    cells: list[widgets.Widget] = []
    controls: list[widgets.Widget] = []
    for item in items:
        if isinstance(item, widgets.Widget):
            cells.append(item)
            controls.append(item)
        else:
            group = widgets.VBox(list(item), layout=widgets.Layout(min_width="0"))
            group.add_class("toolkit-control-group")
            cells.append(group)
            controls.extend(item)
    in_group = {id(c) for c in controls} - {id(c) for c in cells}
    labelled = [c for c in controls if isinstance(c, _LABELLED_LEFT)]
    checkboxes = [c for c in controls if isinstance(c, widgets.Checkbox) and id(c) not in in_group]
    grid = widgets.GridBox(cells, layout=widgets.Layout(grid_gap="2px 18px", width="100%"))
    grid.add_class("toolkit-controls")

    def align(_: Any = None) -> None:
        longest = max((len(getattr(c, "description", "") or "") for c in labelled), default=0)
        # a longer label wraps onto a second line (CONTROL_GRID_STYLE) rather than widen every cell
        label = min(0.55 * longest + 1, _MOST_LABEL) if longest else 0
        needs = {id(c): _option_width(c) for c in labelled if isinstance(c, widgets.Dropdown)}
        # room right of the label: the widest dropdown's choices, within bounds; a dropdown
        # whose choices need more takes a whole row, as wide as they need
        least = 14.0 if any(isinstance(c, _SLIDERS) for c in labelled) else 12.0  # a slider's track, readable
        room = min(max([least, *(n for n in needs.values() if n <= _MOST_ROOM)]), _MOST_ROOM)
        for control in labelled:
            if getattr(control, "description", ""):
                control.style.description_width = f"{label:.1f}em"
            wide = needs.get(id(control), 0.0) > room
            if id(control) not in in_group:
                whole_row(control, wide)
            if id(control) in needs:  # as wide as its choices need: a d8 is not a long bar
                control.layout.width = f"{label + max(needs[id(control)], 6.0):.1f}em"
            elif isinstance(control, _FILL_CELL):
                control.layout.width = "auto"  # the cell less its margins: 100% ran 2 px past it
            elif isinstance(control, widgets.IntText | widgets.BoundedIntText):
                control.layout.width = f"{label + 7:.1f}em"  # room for a few digits after the label
        cell = label + room
        # a checkbox whose words need more than a cell takes a whole row, shown whole
        for box in checkboxes:
            whole_row(box, 0.55 * len(box.description or "") + 2.5 > cell)
        # never wider than the page: a cell shrinks to the whole width rather than overflow
        grid.layout.grid_template_columns = f"repeat(auto-fill, minmax(min({cell:.1f}em, 100%), 1fr))"

    align()
    for control in labelled:
        control.observe(align, names="description")
    return grid


#: The CSS class of a table of words (hands, a hint's choices): read left to right.
TEXT_TABLE = "toolkit-text-table"
#: The page style of such a table: every cell left-aligned, as text reads (JupyterLab
#: right-aligns table cells by default, which suits numbers only).
TEXT_TABLE_STYLE = f"<style>.{TEXT_TABLE} td,.{TEXT_TABLE} th{{text-align:left;vertical-align:baseline}}</style>"

#: The CSS class of a toggle button that is on (a hit face ticked, a card picked).
PICKED_CLASS = "toolkit-picked"
#: The page style of a toggle that is on: a clear fill and outline, the label's own colour
#: kept (a red card stays red) — not the theme's faint grey, which reads as
#: disabled.
PICKED_STYLE = (
    f"<style>.jupyter-button.{PICKED_CLASS}{{background:#ffe066 !important;"
    "box-shadow:inset 0 0 0 2px #f08c00 !important;opacity:1 !important}</style>"
)


def mark_picked(button: widgets.ToggleButton) -> widgets.ToggleButton:
    """Make ``button`` show clearly whether it is on (:data:`PICKED_CLASS` and a tick
    icon, kept in step with its value; the page needs :data:`PICKED_STYLE` once).
    Returns the button."""

    def show(on: bool) -> None:
        if on:
            button.add_class(PICKED_CLASS)
        else:
            button.remove_class(PICKED_CLASS)
        button.icon = "check" if on else ""

    show(bool(button.value))
    button.observe(lambda change: show(bool(change["new"])), names="value")
    return button


class ToggleBar(widgets.HBox):
    """A bar of toggle buttons, any number of them on: a multiple choice a designer sees
    whole and changes with one click per option (a native multi-select needs Ctrl-click,
    and a plain click leaves one option alone chosen). ``value`` is the tuple of the
    options on, in the options' order; observe it as any control's.

    >>> bar = ToggleBar(["9", "10", "J"], ("J",), "Hits")
    >>> bar.buttons[1].value = True
    >>> bar.value
    ('10', 'J')
    """

    value = traitlets.Tuple()
    options = traitlets.Tuple()
    description = traitlets.Unicode()
    disabled = traitlets.Bool(False)

    def __init__(self, options: Sequence[str], value: Sequence[str], description: str, tooltip: str = "") -> None:
        super().__init__(layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.add_class("toolkit-toggle-bar")
        self._tooltip = tooltip
        self._syncing = False
        self._label = widgets.HTML(
            f"{PICKED_STYLE}{html.escape(description)}", layout=widgets.Layout(margin="0 8px 0 0")
        )
        self.buttons: list[widgets.ToggleButton] = []
        self.description = description
        self.options = tuple(options)
        self.value = tuple(o for o in self.options if o in set(value))
        self._build()
        self.observe(lambda _: self._build(), names="options")
        self.observe(lambda _: self._show(), names=["value", "disabled"])

    @traitlets.validate("value")
    def _in_order(self, proposal: Any) -> tuple[str, ...]:
        """The value in the options' order (any value not among the options kept last)."""
        chosen = tuple(proposal["value"])
        return tuple(o for o in self.options if o in chosen) + tuple(v for v in chosen if v not in self.options)

    def _build(self) -> None:
        self.buttons = []
        for option in self.options:
            button = widgets.ToggleButton(
                value=option in self.value,
                description=option,
                tooltip=f"{self._tooltip}: {option}" if self._tooltip else option,
                layout=widgets.Layout(width="auto", min_width="3.2em"),
                disabled=self.disabled,
            )
            mark_picked(button)
            button.observe(lambda _: self._clicked(), names="value")
            self.buttons.append(button)
        self.children = (self._label, *self.buttons)
        self._clicked()  # options gone from the bar leave the value

    def _clicked(self) -> None:
        if not self._syncing:
            self.value = tuple(b.description for b in self.buttons if b.value)

    def _show(self) -> None:
        self._syncing = True
        try:
            for button in self.buttons:
                button.value = button.description in self.value
                button.disabled = self.disabled
        finally:
            self._syncing = False


def field(outcome: Any, name: str, default: Any = None) -> Any:
    """The field ``name`` of an outcome given as a mapping or as an object with that
    attribute (a calculator may return either, :func:`toolkit.prob.field_of`), ``default``
    when it has none.

    >>> field({"winner": "a"}, "winner"), field(object(), "rounds", 1)
    ('a', 1)
    """
    try:
        return field_of(outcome, name)
    except KeyError:
        return default
