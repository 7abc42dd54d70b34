"""Rule-book examples, found and exported from a notebook: pick the system, the situation
and the rules, press Find, look at each example as the rule book prints it, tick the ones
to keep and download them (``notebooks/rulebook_examples.ipynb``).

:class:`ExamplePicker` drives the same search as ``toolkit find-example``
(:func:`toolkit.rulebook.finder.search`, seeded: the same choices find the same examples)
and the same export as ``toolkit replay --format`` (:mod:`toolkit.rulebook.download`). Only
the examples ticked are exported: one file, or a ``.zip`` of several.

By default it starts on the first system of the rule-book's catalogue and its first
situation; any registered system with a catalogue (:mod:`toolkit.systems`) can be chosen.

>>> from toolkit import systems
>>> system = systems.names("situations")[-1]
>>> picker = ExamplePicker(system, catalogue(system)[0].name, n=1, budget_seconds=5)
>>> picker.find()
>>> len(picker.found), picker.chosen_texts() == [picker.found[0].text]
(1, True)
>>> picker.export_format.value = "yaml"
>>> 'download="' in picker.export_view.link.value
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit import systems
from toolkit.errors import ToolkitError
from toolkit.rulebook.download import DOWNLOAD_FORMATS, example_download, examples_download
from toolkit.rulebook.finder import DEFAULT_BUDGET, DEFAULT_SEED, rules_for, search
from toolkit.rulebook.situations import catalogue, catalogued_systems
from toolkit.widgets.common import ERROR, NOTE, coloured
from toolkit.widgets.export_panel import ExportView
from toolkit.widgets.rules_picker import RulesPicker

__all__ = ["ExamplePicker", "STATIC_NOTE"]

_WIDE = widgets.Layout(width="auto", max_width="100%")
_FIT = {"description_width": "initial"}


class ExamplePicker:
    """The interactive rule-book examples finder (see the module's docstring).

    Args:
        system: the system to start with (by default the first of the rule-book's catalogue).
        situation: the situation's catalogue name to start with ("": the first).
        rules: the rules to start with (as :class:`~toolkit.widgets.rules_picker.RulesPicker`
            takes them: None, a file, a shipped name, a mapping).
        n: how many examples to find.
        seed: the search's seed.
        budget_seconds: the search's time budget.

    Attributes:
        found: the examples found by the last Find (:class:`~toolkit.rulebook.finder.FoundExample`).
        widget: the whole finder, to display.
    """

    def __init__(
        self,
        system: str = "",
        situation: str = "",
        rules: Any = None,
        n: int = 3,
        seed: int = DEFAULT_SEED,
        budget_seconds: float = DEFAULT_BUDGET,
    ) -> None:
        self.found: list[Any] = []
        self.seed = seed
        self.budget_seconds = budget_seconds
        self.system = widgets.Dropdown(
            options=[(systems.system(s).title, s) for s in catalogued_systems()],
            value=system or catalogued_systems()[0],
            description="System",
            style=_FIT,
        )
        self.situation = widgets.Dropdown(description="Situation", style=_FIT, layout=_WIDE)
        self.count = widgets.BoundedIntText(
            value=n, min=1, max=6, description="Examples", style=_FIT, layout=widgets.Layout(width="9em")
        )
        self.find_button = widgets.Button(description="Find", button_style="info", tooltip="Search for examples")
        self.status = widgets.HTML()
        self.results = widgets.VBox(layout=widgets.Layout(width="100%"))
        self.export_format = widgets.Dropdown(
            options=DOWNLOAD_FORMATS, value="html", description="Export as", style=_FIT, layout=_WIDE
        )
        self.export_view = ExportView()
        self._ticks: list[widgets.Checkbox] = []
        self.rules_box = widgets.VBox()
        self._set_system(system, rules, situation)
        self.system.observe(lambda change: self._set_system(change["new"]), names="value")
        self.find_button.on_click(lambda _: self.find())
        self.export_format.observe(lambda _: self.export(), names="value")
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.system, self.count, self.find_button]),
                self.situation,
                self.rules_box,
                self.status,
                self.results,
                widgets.HTML("<h4>Export the examples ticked</h4>"),
                self.export_format,
                self.export_view.widget,
            ],
            layout=widgets.Layout(width="100%"),
        )
        self.widget.add_class("toolkit-example-picker")

    # -- choosing ---------------------------------------------------------------------------
    def _set_system(self, system: str, rules: Any = None, situation: str = "") -> None:
        options = [(s.label, s.name) for s in catalogue(system)]
        self.situation.options = options
        names = [name for _, name in options]
        self.situation.value = situation if situation in names else names[0]
        self.rules = RulesPicker(system, rules)
        self.rules_box.children = (self.rules.widget,)
        self.found = []
        self._show_found()

    def find(self) -> None:
        """Search for the chosen number of examples of the chosen situation under the chosen
        rules (under the situation's own variant where those rules make it impossible)."""
        system, situation = self.system.value, self.situation.value
        self.status.value = coloured("Searching…", NOTE)
        self.find_button.disabled = True
        try:
            under = rules_for(system, situation, self.rules.rules)
            self.found = search(
                system, situation, under, n=self.count.value, seed=self.seed, budget_seconds=self.budget_seconds
            )
        except ToolkitError as e:
            self.found = []
            self.status.value = coloured(str(e), ERROR)
            self._show_found(keep_status=True)
            return
        finally:
            self.find_button.disabled = False
        label = self.situation.label.rstrip(".")
        if not self.found:
            said = f"No example of “{label}” found in {self.budget_seconds:g} s: try again with another seed."
        else:
            said = f"{len(self.found)} example{'' if len(self.found) == 1 else 's'} of “{label}”"
            if under != self.rules.rules:
                said += f", searched under rules where it can happen ({under.variant_name()})"
            said += "."
        self.status.value = coloured(said, NOTE)
        self._show_found(keep_status=True)

    def _show_found(self, keep_status: bool = False) -> None:
        from toolkit.rulebook.export import to_html

        if not keep_status:
            self.status.value = coloured("Pick a situation and press Find.", NOTE)
        self._ticks = []
        rows: list[widgets.Widget] = []
        for k, example in enumerate(self.found, 1):
            tick = widgets.Checkbox(value=True, description=f"Export example {k}", indent=False)
            tick.observe(lambda _: self.export(), names="value")
            self._ticks.append(tick)
            try:
                preview = to_html(example.text, fragment=True)
            except ToolkitError as e:
                preview = coloured(f"This example does not replay: {e}", ERROR)
            rows += [tick, widgets.HTML(preview, layout=widgets.Layout(width="100%"))]
        self.results.children = tuple(rows)
        self.export()

    # -- exporting --------------------------------------------------------------------------
    def chosen_texts(self) -> list[str]:
        """The example files (YAML) of the examples ticked, in order."""
        return [example.text for example, tick in zip(self.found, self._ticks, strict=True) if tick.value]

    def export(self) -> None:
        """Show the download of the examples ticked in the chosen format (one file, or a
        ``.zip`` of several), or why there is none."""
        texts = self.chosen_texts()
        if not texts:
            self.export_view.refuse("Nothing to export yet: find examples and tick the ones to keep.", NOTE)
            return
        fmt = self.export_format.value
        try:
            if len(texts) == 1:
                download = example_download(texts[0], fmt)
            else:
                download = examples_download(texts, fmt, f"{self.situation.label} examples")
        except ToolkitError as e:
            self.export_view.refuse(f"Cannot export: {e}")
            return
        self.export_view.show(download)

    # -- display ----------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget; where widgets cannot show (a report rendered to HTML), a sentence
        saying where the finder is, never the widget's Python repr."""
        bundle = dict(self.widget._repr_mimebundle_(**kwargs))
        bundle["text/plain"] = STATIC_NOTE
        return bundle


#: What a page without live widgets (a rendered report) shows in the finder's place.
STATIC_NOTE = (
    "The interactive finder (system, situation, rules, Find, preview, export) shows here when this "
    "notebook runs in JupyterLab."
)
