"""An odds explorer: controls on top; a chart, a summary line and a table of an exact
distribution below, recomputed on every change.

A designer sees at once that a change is being worked on: the moment an input changes,
the explorer takes the CSS class ``toolkit-busy``, its chart is dimmed and a status line
(``aria-busy="true"``) says what is being computed; all three go when the new numbers
are drawn. In a running kernel the computation waits :data:`SETTLE_SECONDS` for the
inputs to settle, so a newer change supersedes an older one instead of queueing behind
it; outside one (a script, a test) it runs at once. Reading :attr:`OddsExplorer.distribution`,
``table``, ``summary_text`` or ``error`` first finishes a computation still waiting.
Sliders the explorer is given compute once, on release (``continuous_update=False``).
Switching the view (exactly / at least) only shows the other view's chart and table, drawn
with the numbers: the browser switches them itself, without waiting for the kernel.

It is generic over any calculator that returns a :class:`~toolkit.prob.Distribution`
and any *score* of its outcomes as a signed whole number: positive for what the
defender suffers, negative for what comes back at the attacker (AM-3's melee return
damage, a counter-attack). The chart shows each side in its own colour; the view
toggle switches between P(score = k) ("exactly") and P(at least k on that side)
("at least"). Probabilities are printed exactly, ``7/27 ≈ 25.9%``; when the calculator's
result is an estimate (an :class:`~toolkit.odds_result.Odds` that is not exact: Monte Carlo
runs, or exact arithmetic on sampled parts) each row is its estimate ± its interval, read
from the result's own ``interval`` (``14.4% ± 1.6%``, the level said once under the table,
never a fraction of the runs), and each bar has its error bar.

**House rules**: give ``rules_system=`` a system's name (one of
:func:`toolkit.systems.names`) and the explorer shows a :class:`~toolkit.widgets.rules_picker.RulesPicker`
above its controls ("Rules:" — the default rules and every ``data/rules/<system>/*.yaml``,
by title, with the notes and changes of the one chosen, and a box to load another file).
The calculation then receives the rules in force as one more keyword argument,
``compute(**control_values, rules=Rules(...))`` (``values``, ``summary`` and ``adjust``
see it as ``values["rules"]``); picking other rules recomputes like any control (busy
state, settling). A system's explorer builds its ``Rules`` from ``rules`` —
``dataclasses.replace(rules, zero_tie=...)`` for the variant controls it has — so its
controls change the house rules rather than replace them. ``rules=`` gives the rules to
start with (a ``Rules``, a file path, a shipped name or a mapping).

**Save and compare**: under the picker, the :class:`~toolkit.widgets.workbench.Workbench`
saves the rules in force as a house-rules file ("Save as house rules…") and picks a second
rule set ("Compare with…"), which the explorer computes with the same controls and draws
beside the first in the same chart and table, each row with its difference
(:func:`toolkit.comparison.difference`; :attr:`OddsExplorer.differences`).

The chart is a plotly figure shown in an ``ipywidgets.Output`` through JupyterLab's
plotly renderer (plotly.js loaded once per page); ``live_figure=True`` uses a plotly
``FigureWidget`` updated in place instead (it ships plotly.js with every explorer).

>>> import ipywidgets as widgets
>>> from toolkit.prob import Distribution
>>> dice = widgets.IntSlider(value=1, min=1, max=3, description="dice")
>>> ex = OddsExplorer({"dice": dice}, lambda dice: Distribution.uniform(range(dice + 1)), score=lambda k: k)
>>> ex.table[["outcome", "shown"]].values.tolist()
[['1 damage to defender', '1/2 = 50%'], ['nothing', '1/2 = 50%']]
>>> dice.value = 3
>>> ex.distribution.probability(3)
Fraction(1, 4)
"""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import ipywidgets as widgets

from toolkit.comparison import Difference, difference
from toolkit.errors import ToolkitError
from toolkit.numbers import fold_sides, percent_text
from toolkit.prob import Distribution
from toolkit.question import compared_headline, headline_of
from toolkit.widgets.common import coloured, control_grid, control_grid_style
from toolkit.widgets.odds_view import (
    figure_output,
    make_chart,
    new_odds_figure,
    odds_frame,
    odds_table_html,
    paint_compared,
    probability_shown,
)

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.widgets.rules_picker import RulesPicker
    from toolkit.widgets.workbench import Workbench

__all__ = [
    "BUSY_CLASS",
    "NUMBERS_CLASS",
    "OddsExplorer",
    "SETTLE_SECONDS",
    "SHARE_SECONDS",
    "VIEWS",
    "VIEW_TOGGLE_CLASS",
    "view_class",
]

#: The two views of the chart and table.
VIEWS: tuple[str, ...] = ("exactly", "at least")

#: How long (seconds) a running kernel waits after a change before computing: a newer
#: change within this time supersedes it (two quick clicks compute once).
SETTLE_SECONDS = 0.08

#: The name under which the rules in force reach ``compute`` (with a rules picker).
RULES = "rules"

#: The name of the "Compare with…" input, for the status line.
COMPARE = "compare"

#: The longest a "Page to share" click may compute (seconds, from the last setting's time):
#: a longer page is refused with its size, pointing to ``share_page(vary=...)``.
SHARE_SECONDS = 30.0

#: The CSS class of an explorer (and of its status line) while it computes.
BUSY_CLASS = "toolkit-busy"

#: The CSS class of every part of an explorer that shows numbers a change will redraw:
#: the chart, the summary sentence and the table (dimmed together while busy).
NUMBERS_CLASS = "toolkit-numbers"

#: The class of the view toggle (exactly / at least), and each view's chart and table.
VIEW_TOGGLE_CLASS = "toolkit-view-toggle"


def view_class(view: str) -> str:
    """The class of ``view``'s chart and table (``"toolkit-view-at-least"``)."""
    return "toolkit-view-" + view.replace(" ", "-")


#: Which view's chart and table show follows the toggle's pressed button in the browser
#: itself (its ``mod-active`` class, set on the click): a switch waits for no round trip
#: to the kernel, which then only keeps its own state (the shown figure) in step.
_VIEW_STYLE = (
    "<style>"
    + "".join(
        ",".join(
            f'.{VIEW_TOGGLE_CLASS}:has(button.mod-active[data-value="{quote(view)}"]) ~ * .{view_class(other)}'
            for other in VIEWS
            if other != view
        )
        + "{display:none}"
        for view in VIEWS
    )
    + "</style>"
)
#: The page style that dims every number of a busy explorer (chart, sentence and table)
#: until the new numbers are drawn (not only the chart: a stale table reads as new).
_BUSY_STYLE = "<style>.toolkit-explorer.toolkit-busy .toolkit-numbers{opacity:0.35;transition:opacity 0.1s}</style>"

#: The slider widgets whose drags should compute once, on release.
_SLIDERS = (
    widgets.IntSlider,
    widgets.FloatSlider,
    widgets.FloatLogSlider,
    widgets.IntRangeSlider,
    widgets.FloatRangeSlider,
    widgets.SelectionSlider,
    widgets.SelectionRangeSlider,
)


class OddsExplorer:
    """Controls, a chart, a summary line and a table of one exact distribution.

    Args:
        controls: the input widgets by name, in display order; every change recomputes.
        compute: called with each control's value as a keyword argument; returns the
            exact distribution of outcomes.
        score: the outcome as a signed whole number (positive: to the defender,
            negative: back to the attacker, 0: neither).
        positive, negative: what a positive / negative score is called in labels; a pair
            ``(one, many)`` when a score of 1 reads differently (``("more card for North",
            "more cards for North")``: "1 more card for North", "2 more cards for North").
        zero: the label of a score of 0.
        summary: returns the summary sentences for a distribution and the control values.
        headline: returns the line that states the numbers' question (system, sizes,
            policies, rules, how they were obtained) for a distribution and the control
            values, shown above the summary; by default the result's own ``headline()``
            (an :class:`~toolkit.odds_result.Odds`; none for a plain distribution).
        adjust: called with the control values before each computation, to enable or
            disable controls that do not apply (it must not change their values).
        view: the starting view, ``"exactly"`` or ``"at least"``.
        title: a heading shown above the controls.
        rules_system: the system whose house rules a picker above the controls offers
            (None: no picker); ``compute`` then also receives ``rules=``.
        rules: the house rules to start with (with ``rules_system``): None (the default
            rules), the system's ``Rules``, a file path, a shipped name or a mapping.
        live_figure: draw the chart as a plotly ``FigureWidget`` updated in place
            (``figure`` is then that widget). By default (``False``) each drawing is a
            plain plotly figure shown through JupyterLab's plotly renderer, which loads
            plotly.js once per page: a ``FigureWidget`` ships its own ~5 MB copy of
            plotly.js with every explorer (anywidget), which the browser evaluates again.
        rules_in_force: with a rules picker, the rules a computation used, from the
            control values (the picked rules with what the controls set); the picker's
            "Rules in force" panel then shows them, hand-made changes marked. Default: the
            picked rules.
        not_counted: with a rules picker, the rules fields these numbers do not depend
            on, each with why (the sliders set the hand sizes directly, ...): a picked
            file that changes only those says so instead of changing nothing silently.
        groups: names of controls shown together as one column of the controls' grid
            (one army's, one fairy's): side by side when the page is wide enough, one
            above the other when not. Every other control is a cell of its own.

    Attributes:
        rules_picker: the :class:`~toolkit.widgets.rules_picker.RulesPicker` (None
            without ``rules_system``); ``rules`` is the rules in force.
        busy: True from a change of input until its numbers are drawn.
        status_line: the line saying what is being computed (empty when idle).
        distribution: the current exact distribution (as ``compute`` returned it).
        table: the current table (columns ``outcome``, ``probability`` as an exact
            Fraction, ``shown`` as ``7/27 ≈ 25.9%``; for an estimate ``probability`` is a
            float, ``shown`` ``14.4% ± 1.6% (95%)``, with the interval's ``low`` and ``high``).
        summary_text: the current summary line, plain text.
        headline_text: the current line stating the numbers' question, plain text
            (``""`` for a plain distribution).
        error: the message of the last failed computation, or ``""``.
        title: the heading given (also the title of a page to share, :meth:`share_page`).
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        compute: Callable[..., Distribution[Any]],
        score: Callable[[Any], int],
        *,
        positive: str | tuple[str, str] = "damage to defender",
        negative: str | tuple[str, str] = "damage back to attacker",
        zero: str = "nothing",
        summary: Callable[[Distribution[Any], Mapping[str, Any]], Sequence[str]] | None = None,
        headline: Callable[[Distribution[Any], Mapping[str, Any]], str] | None = None,
        adjust: Callable[[Mapping[str, Any]], None] | None = None,
        view: str = "exactly",
        title: str = "",
        rules_system: str | None = None,
        rules: Any = None,
        live_figure: bool = False,
        rules_in_force: Callable[[Mapping[str, Any]], Any] | None = None,
        not_counted: Mapping[str, str] | None = None,
        groups: Sequence[Sequence[str]] = (),
    ) -> None:
        if view not in VIEWS:
            raise ToolkitError(f"view {view!r} is not a view: use one of {', '.join(map(repr, VIEWS))}")
        self.controls = dict(controls)
        for control in self.controls.values():
            if isinstance(control, _SLIDERS):
                control.continuous_update = False  # a drag computes once, on release
        self._compute, self._score, self._summary, self._adjust = compute, score, summary, adjust
        self._headline = headline or (lambda distribution, _: headline_of(distribution))
        self._headline_text = ""
        self._rules_in_force, self._not_counted = rules_in_force, dict(not_counted or {})
        self._forms = {
            side: (name, name) if isinstance(name, str) else tuple(name)
            for side, name in (("positive", positive), ("negative", negative), ("zero", (zero, zero)))
        }
        self._names = {side: many for side, (_, many) in self._forms.items()}
        self._error = ""
        self._summary_text = ""
        self._waiting: asyncio.TimerHandle | None = None
        self.busy = False
        self.rules_picker: RulesPicker | None = None
        self.workbench: Workbench | None = None
        #: The rule set compared with: (title, its distribution, its scores), or None.
        self._compared: tuple[str, Any, Distribution[int]] | None = None
        self._compare_cache: tuple[dict[str, Any], Any] | None = None
        #: Each row's difference (in force minus compared), beside a compared rule set.
        self.differences: list[Difference] = []
        if rules_system is not None:
            from toolkit.widgets.rules_picker import RulesPicker
            from toolkit.widgets.workbench import Workbench

            self.rules_picker = RulesPicker(
                rules_system, rules, on_change=lambda _: self.request_update(RULES, self.rules_picker.title)
            )
            self.workbench = Workbench(
                self.rules_picker,
                in_force=lambda: self.rules_in_force,
                on_compare=lambda: self.request_update(COMPARE, self.workbench.compare.label),
            )
        self.view = widgets.ToggleButtons(
            options=list(VIEWS),
            value=view,
            description="Show",
            style={"description_width": "initial", "button_width": "auto"},  # labels shown whole
        )
        self.status_line = widgets.HTML(_BUSY_STYLE)
        self.summary_line = widgets.HTML()
        self.view.add_class(VIEW_TOGGLE_CLASS)
        #: The rules that show the pressed view's chart and table (:data:`_VIEW_STYLE`).
        self.view_style = widgets.HTML(_VIEW_STYLE, layout=widgets.Layout(display="none"))
        #: One table per view: a view switch only shows another (:data:`_VIEW_STYLE`).
        self._view_tables = {v: widgets.HTML() for v in VIEWS}
        self.tables = widgets.VBox(list(self._view_tables.values()))
        self.error_line = widgets.HTML()
        #: The static figures drawn for the current numbers, by view (live_figure=False).
        self._figures: dict[str, Any] = {}
        #: Whether both views' tables show the current numbers.
        self._tables_drawn = False
        #: One Output per view (live_figure=False): a view switch only shows another.
        self._view_outputs = {v: widgets.Output() for v in VIEWS}
        for v in VIEWS:
            self._view_outputs[v].add_class(view_class(v))
            self._view_tables[v].add_class(view_class(v))
            self._view_tables[v].add_class(NUMBERS_CLASS)  # dimmed while busy
        if live_figure:
            self.figure, self.chart = make_chart(self._names)
        else:
            self.figure, self.chart = None, widgets.VBox(list(self._view_outputs.values()))
        self.chart.add_class("toolkit-chart")
        for part in (self.chart, self.summary_line):
            part.add_class(NUMBERS_CLASS)  # all dimmed while busy: every number that will change
        if self.figure is None:  # a FigureWidget's layout is plotly's, not a box's
            self.chart.layout.flex = "1 1 30em"
        self.tables.layout.flex = "0 1 auto"
        #: The figure last drawn: the live FigureWidget, or the static fallback's Figure.
        self._shown_figure: Any = self.figure
        self.title = title
        heading = widgets.HTML(f"<b>{html.escape(title)}</b>") if title else widgets.HTML()
        #: The controls, grouped in a compact grid (the one look of every explorer).
        grouped = {name for group in groups for name in group}
        items: list[Any] = [[self.controls[name] for name in group] for group in groups]
        items += [control for name, control in self.controls.items() if name not in grouped]
        self.controls_grid = control_grid(items)
        # the picture first: what the numbers are, then the controls that change them
        #: "Page to share": a link that downloads the odds of every slider value (:meth:`offer_share_page`).
        self.share_button = widgets.Button(
            description="Page to share",
            tooltip="one HTML file of these odds for every value of the sliders, for someone without Python",
        )
        self.share_link = widgets.HTML()
        self.share_button.on_click(lambda _: self.offer_share_page())
        self._seconds = 0.0  # the last computation's time: what a page to share would take per setting
        self.widget = widgets.VBox(
            [
                heading,
                self.view,
                self.status_line,
                self.error_line,
                self.summary_line,
                widgets.HBox(
                    [self.chart, self.tables], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")
                ),
                self.controls_grid,
                control_grid_style(),
                self.view_style,
                *([self.rules_picker.widget] if self.rules_picker is not None else []),
                *([self.workbench.widget] if self.workbench is not None else []),
                widgets.HBox([self.share_button, self.share_link], layout=widgets.Layout(align_items="center")),
            ]
        )
        self.widget.add_class("toolkit-explorer")
        for name, control in self.controls.items():
            control.observe(lambda change, name=name: self.request_update(name, change["new"]), names="value")
        self.view.observe(lambda _: self.redraw(), names="value")
        self.update()

    @property
    def values(self) -> dict[str, Any]:
        """The current value of every control, by name (and ``"rules"``, the rules in
        force, with a rules picker — unless a control of that name holds them, which the
        system's explorer then keeps in step with the picker)."""
        values = {name: control.value for name, control in self.controls.items()}
        if self.rules_picker is not None:
            values.setdefault(RULES, self.rules_picker.rules)
        return values

    @property
    def rules(self) -> Any:
        """The house rules in force (None without a rules picker)."""
        return self.rules_picker.rules if self.rules_picker is not None else None

    @property
    def rules_in_force(self) -> Any:
        """The rules the numbers use: the picked rules with what the controls changed
        (None without a rules picker)."""
        if self.rules_picker is None:
            return None
        values = self.values
        return self._rules_in_force(values) if self._rules_in_force is not None else values.get(RULES)

    # -- what a notebook reads (a computation still waiting is finished first) ----------
    @property
    def distribution(self) -> Distribution[Any]:
        """The current exact distribution, as ``compute`` returned it."""
        self.flush()
        return self._distribution

    @property
    def scores(self) -> Distribution[int]:
        """The current distribution of scores (``score`` of each outcome)."""
        self.flush()
        return self._scores

    @property
    def table(self) -> pd.DataFrame:
        """The current table: ``outcome``, ``probability`` (exact; a float for an estimate,
        with its interval's ``low`` and ``high``), ``shown``."""
        self.flush()
        return self._table

    @property
    def summary_text(self) -> str:
        """The current summary line, plain text."""
        self.flush()
        return self._summary_text

    @property
    def headline_text(self) -> str:
        """The current line stating the numbers' question, plain text."""
        self.flush()
        return self._headline_text

    @property
    def error(self) -> str:
        """The message of the last failed computation, or ``""``."""
        self.flush()
        return self._error

    @property
    def table_view(self) -> widgets.HTML:
        """The table of the current view (its rows as HTML in ``.value``)."""
        self.flush()
        return self._view_tables[self.view.value]

    @property
    def shown_figure(self) -> Any:
        """The figure last drawn: the live FigureWidget, or the static fallback's Figure."""
        self.flush()
        return self._shown_figure

    # -- recomputing ---------------------------------------------------------------------
    def request_update(self, name: str = "", value: Any = None) -> None:
        """Show the busy state at once and recompute: after :data:`SETTLE_SECONDS` in a
        running kernel (a newer request replaces a waiting one), else at once. ``name``
        and ``value`` say which input changed, for the status line."""
        what = self._describe(name, value)
        self._show_busy(f"Computing the odds for {what} …" if what else "Computing the odds …")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no kernel loop (a script, a test): compute now
            self.update()
            return
        if self._waiting is not None:
            self._waiting.cancel()  # superseded by this newer change
        self._waiting = loop.call_later(SETTLE_SECONDS, self._run_waiting)

    def flush(self) -> None:
        """Finish a computation still waiting for the inputs to settle, if any."""
        if self._waiting is not None:
            self._run_waiting()

    def _run_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        self.update()

    def update(self) -> None:
        """Recompute the distribution from the controls and redraw the chart, summary
        and table now, then clear the busy state (time this for the speed budget)."""
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        values = self.values
        if self._adjust is not None:
            self._adjust(values)
        try:
            try:
                started = time.perf_counter()
                distribution = self._compute(**values)
                self._seconds = time.perf_counter() - started
            except ToolkitError as e:
                if not hasattr(self, "_distribution"):
                    raise  # the starting values must work
                self._error = str(e)
                self.error_line.value = f'<span style="color:#c92a2a">{html.escape(self._error)}</span>'
                return
            self._error, self.error_line.value = "", ""
            self._figures = {}  # new numbers: every view is drawn again
            self._tables_drawn = False
            self._distribution = distribution
            self._scores = distribution.map(self._score)
            self._summary_text = " · ".join(self._summary(distribution, values)) if self._summary else ""
            self._headline_text = self._headline(distribution, values)
            self._compute_compared(values)
            # beside a compared rule set, the question of both: what differs as compared → in force
            both = compared_headline(self._compared[1], distribution) if self._compared is not None else ""
            line = both or self._headline_text
            heading = f"<b>{html.escape(line)}</b><br>" if line else ""
            self.summary_line.value = heading + html.escape(self._summary_text)
            self.redraw()
            if self.rules_picker is not None:  # the rules these numbers used, hand-made changes marked
                in_force = self._rules_in_force(values) if self._rules_in_force is not None else values.get(RULES)
                self.rules_picker.show_in_force(in_force, self._not_counted)
        finally:
            self._clear_busy()

    def _compute_compared(self, values: dict[str, Any]) -> None:
        """Compute the rule set "Compare with…" names, with every other control as it is
        (after the numbers in force, whose summary and headline are already read)."""
        from toolkit.widgets.workbench import with_rules

        self._compared, self.differences = None, []
        other = self.workbench.compared() if self.workbench is not None else None
        if other is None:
            return
        asked = with_rules(values, other.rules, list(self.controls), RULES)
        if self._compare_cache is not None and self._compare_cache[0] == asked:
            distribution = self._compare_cache[1]
        else:
            try:
                distribution = self._compute(**asked)
            except ToolkitError as e:
                self.workbench.say(f"cannot compare with {other.title}: {e}", error=True)
                return
            self._compare_cache = (asked, distribution)
        self._compared = (other.title, distribution, distribution.map(self._score))

    def _current_title(self) -> str:
        """The rules in force as the comparison's column names them."""
        picker = self.rules_picker
        if picker is None:
            return "these rules"
        try:
            by_hand = self.rules_in_force != picker.rules
        except ToolkitError:  # controls that make no valid rules (the error line says why)
            by_hand = True
        return picker.title + (" (changed here by hand)" if by_hand else "")

    def _view_rows(self, view: str) -> list[tuple[int, str, Fraction]]:
        """The rows of ``view``: the scores in force; beside a compared rule set, every
        score of either (the tails folded on both), each with its probability in force."""
        if self._compared is None:
            return self._rows(self._scores, view)
        mine, theirs = dict(self._scores.items()), dict(self._compared[2].items())
        both = Distribution({k: mine.get(k, 0) + theirs.get(k, 0) for k in {*mine, *theirs}})
        return [
            (k, label, self._scores.probability(self._event(k, label, view))) for k, label, _ in self._rows(both, view)
        ]

    def _compare_table(self, rows: list[tuple[int, str, Fraction]], view: str) -> tuple[str, list[Difference]]:
        """The table beside the compared rule set (HTML) and each row's difference."""
        from toolkit.widgets.workbench import compare_table_html

        title, _, other = self._compared  # type: ignore[misc]
        mine, theirs = self._intervals(rows, view), self._intervals(rows, view, other)
        diffs, cells = [], []
        for i, (k, label, p) in enumerate(rows):
            event = self._event(k, label, view)
            d = difference(other, self._scores, event)  # in force minus compared
            diffs.append(d)
            cells.append(
                (
                    label,
                    probability_shown(p, mine[i] if mine else None, level=False),
                    probability_shown(other.probability(event), theirs[i] if theirs else None, level=False),
                    d.text(level=False),
                )
            )
        notes = dict.fromkeys(n for n in (self._estimated_note(), self._estimated_note(other)) if n)
        how = "difference: in force minus compared" + ("" if all(d.exact for d in diffs) else f", {diffs[0].how}")
        return compare_table_html((self._current_title(), title), cells, "; ".join([*notes, how])), diffs

    def _table_compared(self, rows: list[tuple[int, str, Fraction]], view: str) -> None:
        """Add the compared rule set's columns to :attr:`table`: ``compared`` (its
        probability), ``compared_shown``, ``difference`` (in force minus compared: an exact
        ``Fraction`` for two exact results) and ``difference_shown``; keep each row's
        :class:`~toolkit.comparison.Difference` in :attr:`differences`."""
        title, _, other = self._compared  # type: ignore[misc]
        theirs = self._intervals(rows, view, other)
        self.differences = self._compare_table(rows, view)[1]
        ps = [other.probability(self._event(k, label, view)) for k, label, _ in rows]
        table = self._table
        table["compared"] = ps if theirs is None else [float(p) for p in ps]
        table["compared_shown"] = [probability_shown(p, theirs[i] if theirs else None) for i, p in enumerate(ps)]
        table["difference"] = [d.delta for d in self.differences]
        table["difference_shown"] = [d.text() for d in self.differences]
        table.attrs["compared"] = title

    def redraw(self) -> None:
        """Redraw the table and chart from the distribution already computed, in the
        current view (a view switch only redraws: it never recomputes)."""
        if not hasattr(self, "_scores"):
            return
        view = self.view.value
        rows = self._view_rows(view)
        self._table = odds_frame(rows, self._intervals(rows, view))
        if self._compared is not None:
            self._table_compared(rows, view)
        every: dict[str, Any] = {}  # each view's rows, when new numbers are drawn
        if not self._tables_drawn or (self.figure is None and not self._figures):
            every = {other: rows if other == view else self._view_rows(other) for other in VIEWS}
        if not self._tables_drawn:  # new numbers: each view's table once (the browser shows the chosen one)
            for other in VIEWS:
                if self._compared is not None:
                    self._view_tables[other].value = self._compare_table(every[other], other)[0]
                    continue
                self._view_tables[other].value = odds_table_html(
                    every[other], self._intervals(every[other], other), self._estimated_note()
                )
            self._tables_drawn = True
        if self.figure is not None:
            self._draw(rows, view)
            return
        if not self._figures:  # new numbers: draw each view once (the browser shows the chosen one)
            for other in VIEWS:
                fig = self._draw(every[other], other)
                self._figures[other] = fig
                # set the Output's outputs directly: a redraw may run outside any message
                # (after the inputs settle), where capturing display() would go nowhere
                self._view_outputs[other].outputs = (figure_output(fig),)
        self._shown_figure = self._figures[view]

    def _describe(self, name: str, value: Any) -> str:
        """The changed input in words, ``"Attacker's cards = 6"`` (``""`` if unknown)."""
        if name == RULES and self.rules_picker is not None:
            return f"Rules = {value}"
        if name == COMPARE:
            return f"Compare with = {value}"
        if name not in self.controls:
            return ""
        return f"{self.control_label(name)} = {self.value_text(name, value)}"

    def control_label(self, name: str) -> str:
        """The label of control ``name`` as the page shows it (``"Attack dice"``)."""
        return getattr(self.controls[name], "description", "") or name.replace("_", " ")

    def value_text(self, name: str, value: Any) -> str:
        """A value of control ``name`` as the page shows it: an option by its label
        (``"coin flip (yardstick)"``), a tick box ``on``/``off``, a toggle bar's choices
        ``"J Q K A"``."""
        for option in getattr(self.controls[name], "options", None) or ():
            if isinstance(option, tuple) and len(option) == 2 and option[1] == value:
                return str(option[0])
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, tuple):  # a toggle bar's choices, as a designer reads them
            return " ".join(map(str, value)) or "none"
        return str(value)

    def _show_busy(self, message: str) -> None:
        self.busy = True
        self.widget.add_class(BUSY_CLASS)
        self.status_line.value = (
            f'{_BUSY_STYLE}<div class="{BUSY_CLASS}" role="status" aria-busy="true" '
            f'style="color:#666;font-style:italic">{html.escape(message)}</div>'
        )

    def _clear_busy(self) -> None:
        if self.busy:
            self.busy = False
            self.widget.remove_class(BUSY_CLASS)
            self.status_line.value = _BUSY_STYLE

    # -- a page to share ---------------------------------------------------------------
    def share_grid(self, vary: Mapping[str, Sequence[Any]] | None = None, title: str = "", notes: str = "") -> Any:
        """Return the numbers of a page to share (a :class:`~toolkit.share_page.SharedGrid`):
        this explorer's table for every combination of the values in ``vary`` (control
        name -> values; default: every slider over its whole range), every other control
        as it is now. A house-rules field is varied by its own control (``tie_break=[...]``);
        the picked house rules stay those in force. Each setting carries the explorer's
        headline and summary; a setting the calculation refuses carries its message.

        Raises:
            ToolkitError: a name that is not a control, a control given no value.
            TooBigError: more settings than a page holds, before any is computed.
        """
        import itertools
        import math

        from toolkit.share_page import SharedAxis, SharedGrid, SharedRow, check_shared_size

        if vary is None:
            vary = {n: range(c.min, c.max + 1) for n, c in self.controls.items() if isinstance(c, widgets.IntSlider)}
        lists = {name: list(values) for name, values in vary.items()}
        for name, values in lists.items():
            if name not in self.controls:
                known = ", ".join(self.controls)
                raise ToolkitError(f"{name!r} is not a control of this explorer: vary one of {known}")
            if not values:
                raise ToolkitError(f"give {name!r} at least one value to vary")
        check_shared_size(math.prod(len(v) for v in lists.values()), "this page")
        now = self.values
        points, lines = {}, {}
        for index in itertools.product(*(range(len(v)) for v in lists.values())):
            values = {**now, **{name: lists[name][i] for name, i in zip(lists, index, strict=True)}}
            try:
                distribution = self._compute(**values)
            except ToolkitError as e:
                points[index], lines[index] = (), (str(e),)
                continue
            scores = distribution.map(self._score)
            rows = self._rows(scores, "exactly")
            intervals = self._intervals(rows, "exactly", scores) or [None] * len(rows)
            points[index] = tuple(  # as the explorer's table writes them: an estimate with its interval
                SharedRow(label, "probability", float(p), *(iv or (float(p), float(p))), probability_shown(p, iv))
                for (_, label, p), iv in zip(rows, intervals, strict=True)
            )
            summary = " · ".join(self._summary(distribution, values)) if self._summary else ""
            texts = (self._headline(distribution, values), summary, self._estimated_note(scores))
            lines[index] = tuple(t for t in texts if t)
        axes = tuple(SharedAxis(self.control_label(n), tuple(self.value_text(n, v) for v in lists[n])) for n in lists)
        facts = [
            (self.control_label(n), self.value_text(n, c.value))
            for n, c in self.controls.items()
            if n not in lists and n != RULES and c.layout.display != "none"
        ]
        if self.rules_picker is not None:
            facts.append(("House rules", self.rules_picker.title))
        start = tuple(values.index(now[n]) if now[n] in values else 0 for n, values in lists.items())
        return SharedGrid(title or self.title or "Odds", axes, points, notes, tuple(facts), lines, start)

    def share_page(
        self, path: str | Path, vary: Mapping[str, Sequence[Any]] | None = None, title: str = "", notes: str = ""
    ) -> Path:
        """Write a page to share (:meth:`share_grid`, :func:`~toolkit.share_page.page_html`):
        one HTML file that works offline, on which a reader picks each varied control's
        value and reads the odds; return its path.

        Raises:
            InvalidSetupError: ``path`` is a file that is not a page to share (never overwritten).
        """
        from toolkit.errors import InvalidSetupError
        from toolkit.files import write_atomic
        from toolkit.share_page import is_share_page, page_html

        target = Path(path)
        if target.exists() and not is_share_page(target):
            raise InvalidSetupError(f"{target} is not a page to share: give another file name (it is kept)")
        write_atomic(target, page_html(self.share_grid(vary, title, notes)).encode("utf-8"))
        return target

    def offer_share_page(self) -> None:
        """Show a link that downloads the page to share of every slider's whole range
        (:meth:`share_grid`), or, for a page that would take more than
        :data:`SHARE_SECONDS` at the last setting's pace, why not and what to call."""
        import math

        from toolkit.progress import duration_text
        from toolkit.rulebook.download import Download, download_link, file_stem
        from toolkit.share_page import page_html

        sliders = [c for c in self.controls.values() if isinstance(c, widgets.IntSlider)]
        settings = math.prod(c.max - c.min + 1 for c in sliders)
        if self._seconds * settings > SHARE_SECONDS:
            self.share_link.value = coloured(
                f"a page of every slider's value has {settings:,} settings, about "
                f"{duration_text(self._seconds * settings)} at {self._seconds:.2g} s each (this one's time): "
                "give fewer values with "
                "explorer.share_page(path, vary={...})",
                "#c92a2a",
            )
            return
        try:
            page = page_html(self.share_grid())
        except ToolkitError as e:
            self.share_link.value = coloured(str(e), "#c92a2a")
            return
        name = f"{file_stem(self.title or 'odds')}.share.html"
        self.share_link.value = download_link(Download(name, page.encode("utf-8"), "", page))

    # -- display ---------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- internals -----------------------------------------------------------------------
    def label(self, k: int, view: str = "exactly") -> str:
        """Return how a score ``k`` is written in the table (``"2 damage to defender"``,
        ``"at least 2 damage to defender"``)."""
        if k == 0:
            return self._names["zero"]
        one, many = self._forms["positive" if k > 0 else "negative"]
        return f"{'at least ' if view == 'at least' else ''}{abs(k)} {one if abs(k) == 1 else many}"

    def _rows(self, scores: Distribution[int], view: str) -> list[tuple[int, str, Fraction]]:
        """(score, label, probability), the defender's side first, largest score first."""
        ks = sorted(scores.outcomes(), reverse=True)
        if view == "exactly":
            rows = [(k, self.label(k), scores[k]) for k in ks]
            return fold_sides(rows, lambda k: self.label(k, "at least"))
        weights, total = scores.weights(), scores.total
        rows = []
        for k in range(max(ks), 0, -1):
            rows.append((k, self.label(k, view), Fraction(sum(w for s, w in weights.items() if s >= k), total)))
        for k in range(-1, min(ks) - 1, -1):
            rows.append((k, self.label(k, view), Fraction(sum(w for s, w in weights.items() if s <= k), total)))
        return fold_sides(rows, lambda k: self.label(k, view), cumulative=True)

    def _event(self, k: int, label: str, view: str) -> Callable[[int], bool]:
        """The event a row of ``view`` counts: the score ``k`` itself, or (a folded tail, or
        the "at least" view) every score from ``k`` outwards."""
        if k == 0 or (view == "exactly" and label != self.label(k, "at least")):
            return lambda s: s == k
        return (lambda s: s >= k) if k > 0 else (lambda s: s <= k)

    def _intervals(
        self, rows: list[tuple[int, str, Fraction]], view: str, scores: Any = None
    ) -> list[tuple[float, float]] | None:
        """Each row's interval (at the result's level, 95%) when the numbers are estimates
        (a result that is not exact: Monte Carlo runs, or exact arithmetic on sampled
        parts), read from the result's own ``interval``; ``None`` when exact. ``scores``:
        the scores of another computation than the one shown (a page to share's)."""
        scores = self._scores if scores is None else scores
        if getattr(scores, "exact", True) or not callable(getattr(scores, "interval", None)):
            return None
        out = []
        for k, label, _ in rows:
            low, high = scores.interval(self._event(k, label, view))  # type: ignore[attr-defined]
            out.append((float(low), float(high)))
        return out

    def _estimated_note(self, scores: Any = None) -> str:
        """The line under a table of estimates: the level, once, and how they were found."""
        scores = self._scores if scores is None else scores
        if getattr(scores, "exact", True):
            return ""
        level = f"{getattr(scores, 'confidence', 0.95) * 100:g}%"
        how = scores.how() if callable(getattr(scores, "how", None)) else "estimated"  # type: ignore[attr-defined]
        return f"estimates ± their {level} interval ({how})"

    def _draw(self, rows: list[tuple[int, str, Fraction]], view: str) -> Any:
        """Paint ``rows`` in ``view``: into the live FigureWidget, or into a new static
        figure; return the figure painted."""
        sides = {"positive": [r for r in rows if r[0] > 0], "zero": [r for r in rows if r[0] == 0]}
        sides["negative"] = [r for r in rows if r[0] < 0]
        ticks = sorted(r[0] for r in rows)
        # a folded tail reads "≥ k"; the middle bar (k = 0, "nothing") is never a tail
        folded = {k for k, label, _ in rows if view == "exactly" and k != 0 and label == self.label(k, "at least")}
        title = "← " + self._names["negative"] + "   |   " + self._names["positive"] + " →"
        if not sides["negative"]:
            title = self._names["positive"]

        intervals = dict(zip((r[0] for r in rows), self._intervals(rows, view) or (), strict=False))

        def paint(fig: Any) -> None:
            for trace, side in zip(fig.data[:3], ("positive", "zero", "negative"), strict=True):
                part = sides[side]
                trace.x = [k for k, _, _ in part]
                trace.y = [float(p) * 100 for _, _, p in part]
                shown = [probability_shown(p, intervals.get(k)) for k, _, p in part]
                trace.hovertext = [f"{label}: {text}" for (_, label, _), text in zip(part, shown, strict=True)]
                trace.text = [percent_text(p) for _, _, p in part]  # never 0.0% for a possible outcome
                if intervals:  # estimates: each bar with its interval
                    trace.error_y = {
                        "type": "data",
                        "symmetric": False,
                        "array": [max(0.0, intervals[k][1] - float(p)) * 100 for k, _, p in part],
                        "arrayminus": [max(0.0, float(p) - intervals[k][0]) * 100 for k, _, p in part],
                        "color": "#495057",
                        "thickness": 1.2,
                    }
                else:
                    trace.error_y = {"visible": False}
            fig.layout.xaxis.tickvals = ticks
            fig.layout.xaxis.ticktext = [("≥ " if k in folded else "") + str(abs(k)) for k in ticks]
            fig.layout.xaxis.title.text = title
            fig.layout.yaxis.title.text = "% " + ("exactly" if view == "exactly" else "at least")
            self._paint_compared(fig, rows, view)

        if self.figure is not None:
            with self.figure.batch_update():
                paint(self.figure)
            return self.figure
        fig = new_odds_figure(self._names, widget=False)
        paint(fig)
        return fig

    def _paint_compared(self, fig: Any, rows: list[tuple[int, str, Fraction]], view: str) -> None:
        """Beside a compared rule set, its bars (hatched, each beside the bar in force) and a
        legend naming both; without one, the figure as it always is."""
        if self._compared is None:
            return paint_compared(fig)
        title, _, other = self._compared
        events = [self._event(k, label, view) for k, label, _ in rows]
        ps = [other.probability(e) for e in events]
        diffs = [difference(other, self._scores, e).text(level=False) for e in events]
        hover = [
            f"{title} — {label}: {probability_shown(p, None)} ({d})"
            for (_, label, _), p, d in zip(rows, ps, diffs, strict=True)
        ]
        return paint_compared(fig, (title, self._current_title()), [k for k, _, _ in rows], ps, hover)
