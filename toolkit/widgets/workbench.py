"""The explorer's workbench: keep what was found, and set it beside another rule set.

Under every explorer with a house-rules picker (:class:`~toolkit.widgets.explorer.OddsExplorer`
with ``rules_system=``), one row:

- **Save as house rules…** opens a small form — a title, notes, where to save (empty: the
  system's rules folder, ``data/rules/<system>/<title>.yaml``; or a folder, or a ``.yaml``
  path) and "replace a file already there" (off: a file already there is never
  overwritten unasked). Saving writes the rules in force, only the fields changed from the
  rulings (:func:`toolkit.house_rules.write_house_rules`), reads the file back, lists it in
  the **Rules:** dropdown and picks it: every explorer, report and sweep of the system
  lists it from then on.
- **Compare with…** picks a second rule set — the rules before the hand changes (the
  picked file as it is), the default rules, a shipped file or a saved one — which the
  explorer then computes beside the rules in force, with the same controls, in the same
  chart (the second set of bars hatched) and table (a column each, and the paired
  difference with its interval: :func:`toolkit.comparison.difference`, exact for two exact
  results).

Titles and notes are text: checked for control characters when saved, escaped wherever
they are shown.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.house_rules import RulesFile, read_house_rules, write_house_rules

__all__ = ["BEFORE", "NOTHING", "Workbench", "compare_table_html", "with_rules"]

#: The "Compare with…" choice of no comparison.
NOTHING = "<nothing>"

#: The "Compare with…" choice of the rules before the hand changes (the picked file).
BEFORE = "<before>"

_WIDE = {"description_width": "initial"}


def with_rules(values: dict[str, Any], rules: Any, controls: Sequence[str], key: str = "rules") -> dict[str, Any]:
    """Return the control ``values`` of a computation under ``rules`` instead: ``rules``
    under ``key`` and every control named like a field of the rules set to that field (an
    explorer's controls change the rules field by field, so they must say the other rules'
    fields too); every other control (the sizes, the policies) as it is."""
    fields = set(type(rules).field_names())
    out = dict(values)
    out[key] = rules
    for name in controls:
        if name in fields:
            out[name] = getattr(rules, name)
    return out


class Workbench:
    """The "Save as house rules…" button with its form, and the "Compare with…" dropdown.

    Args:
        picker: the explorer's :class:`~toolkit.widgets.rules_picker.RulesPicker`.
        in_force: returns the rules in force (the picked rules with the hand changes).
        on_compare: called when the rules compared with change (the explorer recomputes).

    Attributes:
        saved: the path of the last file saved (None before any).
        message: the line saying what was saved, or why not (escaped).
        widget: the row and the form, to place under the explorer.
    """

    def __init__(self, picker: Any, in_force: Callable[[], Any], on_compare: Callable[[], None]) -> None:
        self.picker, self._in_force, self._on_compare = picker, in_force, on_compare
        self.saved: Path | None = None
        self.save_button = widgets.Button(
            description="Save as house rules…",
            tooltip="save the rules in force as a house-rules file",
            layout=widgets.Layout(width="auto"),  # the label whole
        )
        self.title_box = widgets.Text(description="Title:", placeholder="what these rules try", style=_WIDE)
        self.notes_box = widgets.Textarea(
            description="Notes:", placeholder="why, and what you found", style=_WIDE, layout={"width": "32em"}
        )
        self.path_box = widgets.Text(
            description="Save to:",
            placeholder=f"{picker.directory}/<title>.yaml",
            style=_WIDE,
            layout={"width": "32em"},
        )
        self.replace_box = widgets.Checkbox(value=False, description="replace a file already there", indent=False)
        self.write_button = widgets.Button(description="Save", button_style="primary", tooltip="write the file")
        self.cancel_button = widgets.Button(description="Cancel")
        self.form = widgets.VBox(
            [
                self.title_box,
                self.notes_box,
                self.path_box,
                widgets.HBox([self.replace_box, self.write_button, self.cancel_button]),
            ],
            layout=widgets.Layout(display="none"),
        )
        self.form.add_class("toolkit-save-form")
        self.compare = widgets.Dropdown(
            options=self._options(), value=NOTHING, description="Compare with…", style=_WIDE
        )
        self.compare.layout.width = "auto"
        self.message = widgets.HTML()
        self.widget = widgets.VBox([widgets.HBox([self.save_button, self.compare]), self.form, self.message])
        self.widget.add_class("toolkit-workbench")
        self.save_button.on_click(lambda _: self.open_form())
        self.cancel_button.on_click(lambda _: setattr(self.form.layout, "display", "none"))
        self.write_button.on_click(lambda _: self.save())
        self._quiet = False
        self.compare.observe(lambda _: self._quiet or self._on_compare(), names="value")
        picker.observe(lambda _: self._refresh())  # a file loaded: offered here too

    # -- saving --------------------------------------------------------------------------
    def open_form(self) -> None:
        """Show the save form (its title the picked file's, to edit)."""
        picked = self.picker.rules_file(self.picker.picked)
        if not self.title_box.value.strip() and picked.path is not None:  # a file's title, to edit
            self.title_box.value = picked.title
        self.form.layout.display = "flex"

    def save(self) -> Path | None:
        """Write the rules in force as a house-rules file from the form (title, notes, where,
        replace), list it in the Rules dropdown and pick it. Returns its path, or None when
        it could not be written (the message line says why, and nothing was overwritten)."""
        before = self.picker.picked
        try:
            rules = self._in_force()  # controls that make no valid rules say why here
            path = write_house_rules(
                rules,
                self.title_box.value,
                self.notes_box.value,
                self.path_box.value.strip() or self.picker.directory,
                replace=self.replace_box.value,
            )
        except ToolkitError as exc:
            self.say(str(exc), error=True)
            return None
        self.saved = path
        self.replace_box.value = False  # the next save asks again
        self.form.layout.display = "none"
        if self.compare.value == BEFORE:  # still the rules the hand changes were made to
            self._refresh()
            self.compare.value = before if before in self._values() else NOTHING
        self.picker.load(str(path))
        system = type(rules).system_title()
        changed = "; ".join(rules.describe_changes()) or "no field changed from the rulings"
        if path.parent.resolve() == Path(self.picker.directory).resolve():
            where = f"the Rules dropdown of every {system} explorer lists it, by its title"
        else:
            where = "another explorer loads it by this path in its Rules box"
        self.say(f"Saved {path} ({changed}) — {where}.")
        return path

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the message line (escaped; in red, as an alert, if ``error``)."""
        style = ' style="color:#c92a2a" role="alert"' if error else ' style="color:#2b8a3e"'
        self.message.value = f"<span{style}>{html.escape(text)}</span>"

    # -- comparing -----------------------------------------------------------------------
    def compare_with(self, source: Any) -> None:
        """Compare with ``source``: None (nothing), :data:`BEFORE`, a value of the Rules
        dropdown, or a house-rules file (a path or a shipped name: added to the choices).

        Raises:
            InvalidSetupError: rules that cannot be read (file, line and field named).
        """
        if source is None:
            source = NOTHING
        if not (isinstance(source, str) and source in self._values()):
            read = read_house_rules(self.picker.system, source)
            if read.path is None:
                raise InvalidSetupError("compare with a house-rules file, a choice of the Rules dropdown or BEFORE")
            source = self.picker.add(read)
            self._refresh()
        self.compare.value = source

    def compared(self) -> RulesFile | None:
        """The rules compared with (their title, notes, path), None when nothing is."""
        value = self.compare.value
        if value == NOTHING:
            return None
        if value == BEFORE:
            picked = self.picker.rules_file(self.picker.picked)
            return RulesFile(picked.rules, f"before the hand changes ({picked.title})", picked.notes, picked.path)
        return self.picker.rules_file(value)

    def _options(self) -> list[tuple[str, str]]:
        return [("nothing", NOTHING), ("the rules before the hand changes", BEFORE), *self.picker.options]

    def _values(self) -> set[str]:
        return {value for _, value in self._options()}

    def _refresh(self) -> None:
        options = self._options()
        if list(self.compare.options) != options:
            value, self._quiet = self.compare.value, True  # new options reset the choice: not a pick
            try:
                self.compare.options = options
                self.compare.value = value if value in {v for _, v in options} else NOTHING
            finally:
                self._quiet = False
            if self.compare.value != value:
                self._on_compare()


def compare_table_html(
    titles: tuple[str, str], rows: Sequence[tuple[str, str, str, str]], note: str = "", headline: str = ""
) -> str:
    """The explorer's table beside a second rule set: a header naming both (escaped), then
    each outcome (left-aligned), its probability under the rules in force and under the
    other rules, and the difference (``+4.6 points``; an estimate's with its interval),
    right-aligned; ``note`` under it (how estimates were found, the level once)."""
    cell = 'style="text-align:right;padding:1px 0 1px 12px"'
    head = "".join(
        f'<th style="text-align:{"left" if i == 0 else "right"};padding:1px 0 1px {0 if i == 0 else 12}px">'
        f"{html.escape(text)}</th>"
        for i, text in enumerate(("", *titles, "difference"))
    )
    body = "".join(
        f'<tr><td style="text-align:left;padding:1px 12px 1px 0">{html.escape(label)}</td>'
        + "".join(f"<td {cell}>{html.escape(text)}</td>" for text in texts)
        + "</tr>"
        for label, *texts in rows
    )
    caption = " · ".join(part for part in (headline, note) if part)
    shown = f'<caption style="caption-side:bottom;color:#666">{html.escape(caption)}</caption>' if caption else ""
    return (
        f'<table class="toolkit-odds-table toolkit-compare-table" style="border-collapse:collapse">'
        f"{shown}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
