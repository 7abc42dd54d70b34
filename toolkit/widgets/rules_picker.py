"""A rules picker: which house rules an explorer computes with.

A "Rules:" dropdown offers the default rules and every house-rules file of the system
(``data/rules/<system>/*.yaml``, by title); under it, the chosen file's notes (escaped)
and what it changes from the rulings (``rules.changes()``), and a box to load another
house-rules file by its path. A file that cannot be read is shown as one line naming the
file, line and field — never a traceback — and the rules in force stay as they were.

>>> from toolkit import systems
>>> picker = RulesPicker(systems.default_system())
>>> picker.rules.variant_name(), picker.dropdown.description
('default rules', 'Rules:')
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ToolkitError
from toolkit.house_rules import value_words
from toolkit.whole_numbers import is_whole_number

__all__ = ["DEFAULT", "RulesPicker", "controls_follow_picks", "notes_paragraphs", "rules_panel_html", "set_control"]

#: The dropdown value of the default rules (the rulings of ``docs/rulings.md``).
DEFAULT = ""

#: The dropdown value of rules given as an object rather than a file.
GIVEN = "<given>"


def _one_line(exc: BaseException) -> str:
    """An error as one line: the problems of a multi-line message joined with ``; ``."""
    text = str(exc).strip() or type(exc).__name__
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


class RulesPicker:
    """A dropdown of a system's house rules, the chosen file's notes and changes, and a
    box to load another file.

    Args:
        system: the system's name (one of :func:`toolkit.systems.names`).
        rules: the rules to start with: None (the default rules), the system's ``Rules``,
            a house-rules file (a path or a shipped name) or a mapping of fields.
        directory: where the house-rules files are (default ``data/rules/<system>/``).
        on_change: called with the new rules each time other rules are picked or loaded.

    Attributes:
        rules: the rules in force (the system's ``Rules``).
        title: their title (``"default rules"``, a file's ``title:``).
        error: the last error, one line (``""`` when none).
        widget: the whole picker, to display or place in another widget.

    Raises:
        InvalidSetupError: an unknown system, or starting rules that cannot be read.
    """

    def __init__(
        self,
        system: str,
        rules: Any = None,
        *,
        directory: str | Path | None = None,
        on_change: Callable[[Any], None] | None = None,
    ) -> None:
        from toolkit.house_rules import RulesFile, read_house_rules, rules_class, rules_files

        self.system = system
        self._cls = rules_class(system)
        self._listeners: list[Callable[[Any], None]] = [on_change] if on_change is not None else []
        self._quiet = False
        self._files: dict[str, Any] = {DEFAULT: RulesFile(self._cls(), "default rules", "", None)}
        options: list[tuple[str, str]] = [("default rules", DEFAULT)]
        self._broken: dict[str, str] = {}
        for path in rules_files(system, directory):
            try:
                read = RulesFile.read(path, self._cls)
            except ToolkitError as exc:  # listed, but picking it shows why it cannot be used
                self._broken[str(path)] = _one_line(exc)
                options.append((f"{path.stem} (cannot be read)", str(path)))
                continue
            self._files[str(path)] = read
            options.append((self._label(read.title, options), str(path)))
        self._options = options
        start = read_house_rules(system, rules)
        value = DEFAULT
        if start.path is not None:
            value = self._add(start)
        elif start.rules.changes():  # rules given as an object or a mapping
            self._files[GIVEN] = start
            self._options.append((f"as given ({start.rules.variant_name()})", GIVEN))
            value = GIVEN
        self.dropdown = widgets.Dropdown(
            options=self._options,
            value=value,
            description="Rules:",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )
        self.path_box = widgets.Text(
            placeholder="another house-rules file: path/to/rules.yaml",
            continuous_update=False,
            layout=widgets.Layout(width="24em"),
        )
        self.load_button = widgets.Button(description="Load", tooltip="load the house-rules file at this path")
        self.notes = widgets.HTML()
        self.error_line = widgets.HTML()
        self.error = ""
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.dropdown, self.path_box, self.load_button]),
                self.error_line,
                self.notes,
            ]
        )
        self.widget.add_class("toolkit-rules-picker")
        self._value = value
        self._show(self._files[value])
        self.dropdown.observe(lambda change: self.pick(change["new"]), names="value")
        self.load_button.on_click(lambda _: self.load(self.path_box.value))
        # Enter (or leaving the box) loads the path typed; the button loads it again
        self.path_box.observe(lambda change: change["new"].strip() and self.load(change["new"]), names="value")

    # -- what the explorer reads ---------------------------------------------------------
    @property
    def options(self) -> list[tuple[str, str]]:
        """The dropdown's choices: ``(title, value)``; the value is a file's path,
        :data:`DEFAULT` for the default rules."""
        return list(self._options)

    # -- changing the rules --------------------------------------------------------------
    def pick(self, value: str) -> None:
        """Use the rules of the dropdown's choice ``value`` (a listed file's path, or
        :data:`DEFAULT`); a file that cannot be read shows its error and changes nothing."""
        if self._quiet or value == self._value:
            return
        if value in self._broken:
            self._fail(self._broken[value])
            self.dropdown.value = self._value  # back to the rules still in force
            return
        self._value = value
        self._use(self._files[value])

    def load(self, path: str) -> bool:
        """Read the house-rules file at ``path``, add it to the dropdown and use it.
        Returns whether it could be used; if not, the error is shown as one line."""
        from toolkit.house_rules import RulesFile

        text = (path or "").strip()
        if not text:
            self._fail("give the path of a house-rules file (YAML) to load")
            return False
        try:
            read = RulesFile.read(text, self._cls)  # expands ~; refuses a pipe before opening it
        except (ToolkitError, OSError, ValueError) as exc:
            self._fail(_one_line(exc))
            return False
        value = self._add(read)
        self._value = value
        self._quiet = True  # new options reset the dropdown's choice: not a pick
        try:
            self.dropdown.options = self._options
            self.dropdown.value = value
        finally:
            self._quiet = False
        self._use(read)
        return True

    # -- internals -----------------------------------------------------------------------
    @staticmethod
    def _label(title: str, options: list[tuple[str, str]]) -> str:
        taken = {label for label, _ in options}
        label, n = title, 2
        while label in taken:
            label, n = f"{title} ({n})", n + 1
        return label

    def _add(self, read: Any) -> str:
        """List a file just read (once: a file listed already keeps its entry); return
        its dropdown value."""
        value = str(Path(read.path).resolve())
        for i, (_, listed) in enumerate(self._options):
            if listed not in (DEFAULT, GIVEN) and str(Path(listed).resolve()) == value:
                self._files[listed] = read
                if self._broken.pop(listed, None) is not None:  # it can be read now
                    self._options[i] = (self._label(read.title, self._options), listed)
                return listed
        self._files[value] = read
        self._options = [*self._options, (self._label(read.title, self._options), value)]
        return value

    def _use(self, read: Any) -> None:
        self.error, self.error_line.value = "", ""
        self._show(read)
        for listener in self._listeners:
            listener(read.rules)

    def observe(self, callback: Callable[[Any], None], first: bool = False) -> None:
        """Call ``callback(rules)`` too whenever other rules are picked or loaded (before
        the other listeners if ``first``: e.g. an explorer that sets its controls from the
        rules before it recomputes)."""
        if first:
            self._listeners.insert(0, callback)
        else:
            self._listeners.append(callback)

    def _show(self, read: Any) -> None:
        self.rules, self.title = read.rules, read.title
        self._read = read
        self.notes.value = rules_panel_html(read)

    def show_in_force(self, in_force: Any, not_counted: Mapping[str, str] | None = None) -> None:
        """Redraw the "Rules in force" panel for the rules a computation really used:
        the picked file's rules with what the controls changed by hand (each such field
        marked "set here"), and — for the fields in ``not_counted`` (field → why) that
        the rules change — why the numbers do not follow them (a picked file that
        seems to change nothing says why). A file that could not be loaded before is no
        longer news once other changes are computed: its error line is cleared. Returns None."""
        self.error, self.error_line.value = "", ""
        self.notes.value = rules_panel_html(self._read, in_force, not_counted)

    def _fail(self, message: str) -> None:
        self.error = message
        self.error_line.value = f'<span style="color:#c92a2a" role="alert">{html.escape(message)}</span>'

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def notes_paragraphs(notes: str) -> list[str]:
    r"""A house-rules file's notes as paragraphs: a YAML block keeps the file's line
    breaks, which are not the reader's; a blank line still starts a new paragraph.

    >>> notes_paragraphs("What if a strike\ncosts 1?\n\nA new paragraph.\n")
    ['What if a strike costs 1?', 'A new paragraph.']
    """
    paragraphs, lines = [], []
    for line in [*notes.splitlines(), ""]:
        if line.strip():
            lines.append(line.strip())
        elif lines:
            paragraphs.append(" ".join(lines))
            lines = []
    return paragraphs


def rules_panel_html(read: Any, in_force: Any = None, not_counted: Mapping[str, str] | None = None) -> str:
    """The picker's "Rules in force" panel: the picked file's title and notes (as
    paragraphs, escaped), then every field the rules in force change from the defaults
    with its default; a field whose value the controls set (``in_force`` differs from the
    file there) is marked "set here", and a field the file changed that the controls set
    back says so. For the changed fields in ``not_counted`` (field → why the numbers do
    not depend on it) the panel says why they change nothing here; if nothing else is
    changed, it says the numbers are those of the default rules."""
    picked = read.rules
    rules = picked if in_force is None else in_force
    info = type(rules).field_info()
    label = type(rules).field_label
    by_hand = in_force is not None and in_force != picked
    title = html.escape(read.title) + (" <i>(changed here by hand)</i>" if by_hand else "")
    parts = [f"<p><b>Rules in force ({html.escape(rules.SYSTEM)}):</b> {title}"]
    if read.path is not None:
        parts[0] += f" <code>{html.escape(Path(read.path).name)}</code>"
    parts[0] += "</p>"
    parts += [f'<p style="margin:0 0 4px 1em;color:#444">{html.escape(p)}</p>' for p in notes_paragraphs(read.notes)]
    changes = rules.changes()
    items = []
    for name, (old, new) in changes.items():
        mark = " — set here" if by_hand and getattr(picked, name) != new else ""
        items.append(
            f"<li>{html.escape(label(name))}: {html.escape(value_words(new))} "
            f"(by default {html.escape(value_words(old))}){mark}</li>"
        )
    for name, (old, _) in picked.changes().items():
        if name not in changes:
            default = html.escape(value_words(old))
            items.append(f"<li>{html.escape(label(name))}: set back to the default here ({default})</li>")
    if items:
        parts.append(f'<ul style="margin:2px 0">{"".join(items)}</ul>')
    else:
        parts.append("<p>Every rule as in the rulings (no field changed).</p>")
    unused = {name: why for name, why in (not_counted or {}).items() if name in changes}
    if unused:
        named = "; ".join(
            f"{html.escape(label(name))}{_ruling(info[name]['ruling'])}: {html.escape(why)}"
            for name, why in unused.items()
        )
        if set(unused) == set(changes):
            lead = "These odds do not count what these rules change, so the numbers are those of the default rules"
        else:
            lead = "Not counted by these odds"
        parts.append(f'<p class="toolkit-not-counted" style="color:#444">{lead} — {named}.</p>')
    return '<div class="toolkit-rules">' + "".join(parts) + "</div>"


def _ruling(ruling: str) -> str:
    """`` (FM-2)`` after a field's name, escaped (nothing for a field of no ruling)."""
    return f" ({html.escape(ruling)})" if ruling else ""


def set_control(control: Any, value: Any) -> None:
    """Set ``control`` to ``value``, first widening a bounded control's ``min``/``max`` to
    take it: a house-rules number outside a slider's usual range (``morale_target: 15``
    against a highest of 12, DB-8) is shown and used as it is, never clamped to the bound.
    Controls without bounds (checkboxes, dropdowns) are simply set. Returns None."""
    if is_whole_number(value) and hasattr(control, "min") and hasattr(control, "max"):
        control.min, control.max = min(control.min, value), max(control.max, value)
    control.value = value


def controls_follow_picks(explorer: Any, controls: Mapping[str, Any]) -> Any:
    """Make each control of ``controls`` named like a field of the rules take that field's
    value whenever ``explorer``'s picker picks other rules, before the explorer recomputes:
    the controls then change the picked rules field by field instead of
    replacing them. Returns ``explorer`` (unchanged when it has no picker)."""
    picker = getattr(explorer, "rules_picker", None)
    if picker is None:
        return explorer

    def picked(rules: Any) -> None:
        fields = set(type(rules).field_names())
        for name, control in controls.items():
            if name in fields:
                set_control(control, getattr(rules, name))

    picker.observe(picked, first=True)
    return explorer
