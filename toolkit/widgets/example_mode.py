"""A system's stepper that follows a rule-book example, one move at a time.

:class:`FollowsExample` is the base of a card system's stepper widget (Fairy Meat's
``CombatStepper``, the Durak ``BattleStepper``): it owns what every such stepper does
the same way, and asks the system for what only it knows.

What it does: create the generic :class:`~toolkit.widgets.Stepper` and wire the setup
controls (:meth:`_start`); restart on a setup change, or show why the setup cannot be
played (:meth:`_changed`); plan the example from the stepper's start and find where play
is on it (:meth:`_replan`, :meth:`_position`); ``next_move`` and ``play_all``; the
example's buttons and line (:meth:`_build_example_and_export`, :meth:`_example_rows`,
:meth:`_show_example`); the hands panel, both hands or one side's view
(:meth:`_show_hands`); the decision panel, rebuilt only when the state changes
(:meth:`_decision_panel`); Export (:meth:`_export`, :meth:`_export_accordion`); Back and
notebook display. Export previews and downloads the example file's YAML, or that file replayed as
a rule-book page or Markdown with its image files (``export_format``;
:mod:`toolkit.rulebook.download`).

What the system gives (class attributes, and methods it must or may define):

* ``_load_hint``: what ``next_move`` says when no example is loaded;
  ``_noun``: ``"combat"``, ``"battle"`` (in "The battle has left the example here" and
  the Export tooltip); ``_sides``: the sides in ``state.observation`` order (the one-side
  views); ``_state_type``: the system's state class, ``S`` (``state`` checks it, and the
  decision panel is built at its decisions only); ``_export_height``: the export box's
  height.
* required: ``setup()``, ``_controls()``, ``_layout()``, ``_show_setup()``,
  ``_plan_example(start)``, ``_expectation_problems()``, ``_hand_rows(state)``,
  ``_clear_panel()``, ``_decision_widgets(state)``, ``_example_text(state, title)``,
  ``_export_verdict(state, text)`` and ``export()`` (which calls :meth:`_export`);
  a ``view`` ToggleButtons and a ``hands_view`` HTML, ``setup_line`` and ``error_line``.
* optional hooks: ``_adjust()`` (enable or disable controls before a setup is
  read; nothing by default), ``_show_more()`` (the system's other panels after every
  move; nothing by default), ``_move_label(move)`` (the example line's name of the next
  move; its ``label`` by default), ``_paint_codes(escaped)`` (card codes of a one-side view and of the
  example line drawn as pictures, :func:`toolkit.pictures.paint_codes`). A system that loads examples sets
  ``_loading`` while it sets its controls, so those changes do not restart the stepper
  one at a time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Generic, TypeVar

import ipywidgets as widgets

from toolkit.engine import GameState
from toolkit.errors import ToolkitError
from toolkit.pictures import paint_codes
from toolkit.widgets.common import ERROR, NOTE, OK, TEXT_TABLE, TEXT_TABLE_STYLE, coloured, count, esc
from toolkit.widgets.export_panel import ExportView
from toolkit.widgets.stepper import Stepper

__all__ = ["FollowsExample", "EXPORT_FORMATS", "plan_stop_text"]

#: The system's state class (``CombatState``, ``BattleState``).
S = TypeVar("S", bound=GameState)

#: The formats of Export: (label, format), the example file first.
EXPORT_FORMATS: tuple[tuple[str, str], ...] = (
    ("Example file (YAML)", "yaml"),
    ("Rule-book page (HTML)", "html"),
    ("Print-ready PDF", "pdf"),
    ("Markdown with image files (.zip)", "markdown"),
    ("Plain text (the log)", "text"),
)

#: What the note adds under an example file's export (only there: a page or a log is not
#: an example file to save in ``data/examples/``).
SAVE_HINT = " Save it as data/examples/<name>.yaml and run `toolkit replay <file>`."

_TABLE = f'{TEXT_TABLE_STYLE}<table class="{TEXT_TABLE}" style="border-collapse:separate;border-spacing:8px 2px">'

#: The start of a planning error that names the example file by its path and line.
_FILE_LINE = re.compile(r"^(?P<path>[^\n]*?\.ya?ml):(?P<line>\d+):\s*")


def plan_stop_text(error: str) -> tuple[str, str]:
    """Split why an example's plan stops into where (``"line 18 of example.yaml"``: the
    file by its name, never its whole path) and why (the rest of the message).

    >>> plan_stop_text("/home/x/data/examples/a.yaml:18: Sparklespaz: KC is not in his hand")
    ('line 18 of a.yaml', 'Sparklespaz: KC is not in his hand')
    >>> plan_stop_text("no more cards")
    ('', 'no more cards')
    """
    m = _FILE_LINE.match(error)
    if m is None:
        return "", error
    return f"line {m['line']} of {Path(m['path']).name}", error[m.end() :]


class FollowsExample(Generic[S]):
    """The shared base of a system's stepper that can follow a rule-book example, its
    states of class ``S`` (see the module's docstring for what a system defines)."""

    example: Any
    stepper: Stepper
    widget: widgets.VBox
    view: widgets.ToggleButtons
    hands_view: widgets.HTML
    error_line: widgets.HTML
    _plan: list[Any]
    _path: list[Any]
    _plan_error: str
    _panel_state: GameState | None
    _panel_widgets: list[widgets.Widget]
    #: What to say when no example is loaded (how to load one).
    _load_hint: str = "No example is loaded."
    #: What one game is called: "combat", "battle".
    _noun: str = "game"
    #: The sides, in the order of ``state.names`` (the one-side views).
    _sides: tuple[str, ...] = ()
    #: The system's state class (``S``): every state of the stepper is one.
    _state_type: type[S]
    #: The height of the export box.
    _export_height: str = "16em"
    #: True until the stepper exists (it redraws while being built).
    _ready: bool = False
    #: True while a system sets its controls itself (a loaded example): no restart per control.
    _loading: bool = False

    # -- what the system defines ------------------------------------------------------------
    def setup(self) -> GameState:  # pragma: no cover - every system defines it
        raise NotImplementedError

    def _controls(self) -> list[widgets.ValueWidget]:  # pragma: no cover - every system defines it
        raise NotImplementedError

    def _layout(self) -> widgets.VBox:  # pragma: no cover - every system defines it
        raise NotImplementedError

    def _show_setup(self) -> None:  # pragma: no cover - every system defines it
        raise NotImplementedError

    def _plan_example(self, start: GameState) -> tuple[list[Any], list[Any], str]:  # pragma: no cover
        """The loaded example planned from ``start``: its moves, the states they pass
        through, and why it stops early ("" if it does not)."""
        raise NotImplementedError

    def _expectation_problems(self) -> list[str]:  # pragma: no cover - every system defines it
        """What the played-out example's expectations find wrong at the current state."""
        raise NotImplementedError

    def _hand_rows(self, state: Any) -> list[str]:  # pragma: no cover - every system defines it
        """The hands panel's table rows (``<tr>...</tr>``), both hands shown."""
        raise NotImplementedError

    def _clear_panel(self) -> None:  # pragma: no cover - every system defines it
        """Forget the last decision panel's buttons (the state has changed)."""
        raise NotImplementedError

    def _decision_widgets(self, state: Any) -> list[widgets.Widget]:  # pragma: no cover
        """The widgets for the decision pending at ``state`` (a decision of ``_state_type``)."""
        raise NotImplementedError

    def _example_text(self, state: Any, title: str) -> str:  # pragma: no cover - every system defines it
        """The game so far as a rule-book example's YAML."""
        raise NotImplementedError

    def _export_verdict(self, state: Any, text: str) -> tuple[str, str]:  # pragma: no cover
        """Whether the exported ``text`` replays: the export note and its colour."""
        raise NotImplementedError

    def export(self) -> str:  # pragma: no cover - every system defines it
        raise NotImplementedError

    # -- the hooks a system may override ----------------------------------------------------
    def _adjust(self) -> None:
        """Enable or disable controls before the setup is read (nothing by default)."""

    def _show_more(self) -> None:
        """Redraw the system's other panels after every move (nothing by default)."""

    def _move_label(self, move: Any) -> str:
        """How the example line names the example's next move."""
        return str(move.label)

    def _paint_codes(self, escaped: str) -> str:
        """Draw the card codes of an escaped line (a one-side view, the example line) as the
        pictures every log and export shows (:func:`toolkit.pictures.paint_codes`)."""
        return paint_codes(escaped)

    # -- what a notebook reads ----------------------------------------------------------------
    @property
    def state(self) -> S:
        """The current state of the game (the stepper's, of the system's state class)."""
        state = self.stepper.state
        assert isinstance(state, self._state_type)
        return state

    # -- building --------------------------------------------------------------------------
    def _start(self, seed: int, title: str) -> None:
        """Create the stepper and show everything, then wire the controls and build
        :attr:`widget`. The stepper calls ``setup()`` now (raising for a bad starting
        setup) and on every restart."""
        self._plan, self._path, self._plan_error = [], [], ""
        self._panel_state = None
        self._panel_widgets = []
        self._ready = False
        self._own_start: GameState | None = None
        self.stepper = Stepper(
            self.setup,
            seed=seed,
            title=title,
            decision_panel=self._decision_panel,
            on_refresh=self._after_refresh,
        )
        self._ready = True
        self._adjust()
        self._own_start = self.stepper.start_state  # the example's own setup (a change is a what-if)
        self._replan()
        self._after_refresh()
        self._show_setup()
        for control in self._controls():
            control.observe(lambda _: self._changed(), names="value")
        self.view.observe(lambda _: self._show_hands(), names="value")
        self.widget = self._layout()

    def _build_example_and_export(self) -> None:
        """The example's buttons and line (``next_move_button``, ``play_all_button``,
        ``example_line``), and Export's (``export_title``, ``export_button``,
        ``export_box``, ``export_note``)."""
        self.next_move_button = widgets.Button(
            description="Play the example's next move", layout=widgets.Layout(width="auto"), button_style="info"
        )
        self.play_all_button = widgets.Button(description="Play all", tooltip="Play the example to its end")
        self.example_line = widgets.HTML()
        self.next_move_button.on_click(lambda _: self.next_move())
        self.play_all_button.on_click(lambda _: self.play_all())
        self.export_title = widgets.Text(
            description="Title", style={"description_width": "initial"}, layout=widgets.Layout(width="30em")
        )
        self.export_button = widgets.Button(
            description="Export", tooltip=f"Write the {self._noun} so far as an example file"
        )
        self.export_view = ExportView(self._export_height)
        self.export_box = self.export_view.source  # the exported file's text, to copy
        self.export_note = widgets.HTML()
        self.export_format = widgets.Dropdown(
            options=EXPORT_FORMATS, value="yaml", description="Format", layout=widgets.Layout(width="24em")
        )
        self.export_button.on_click(lambda _: self.export())
        self.export_format.observe(lambda _: self.export() if self.export_box.value else None, names="value")

    def _title_first(self) -> widgets.HTML:
        """The stepper's title, taken out of the stepper's own box to head the whole
        widget, above the setup controls (the title says what the
        controls set up, so it comes first). Returns it."""
        title = self.stepper.title
        self.stepper.widget.children = tuple(c for c in self.stepper.widget.children if c is not title)
        return title

    def _example_rows(self) -> list[widgets.Widget]:
        """The example's buttons and line for the layout (none while no example is loaded)."""
        if self.example is None:
            return []
        return [widgets.HBox([self.next_move_button, self.play_all_button]), self.example_line]

    def _export_accordion(self) -> widgets.Accordion:
        """Export, folded: the title, format and button, the note, then the download link,
        the preview and the source to copy (:class:`~toolkit.widgets.export_panel.ExportView`).
        The one Export of the widget: the stepper's own (its log, a page, Markdown) is taken
        out of its box, its plain-text log offered here as a format."""
        inner = self.stepper.export_accordion
        self.stepper.widget.children = tuple(c for c in self.stepper.widget.children if c is not inner)
        export = widgets.VBox(
            [
                widgets.HBox([self.export_title, self.export_format, self.export_button]),
                self.export_note,
                self.export_view.widget,
            ]
        )
        return widgets.Accordion(
            children=[export],
            titles=("Export: preview and download (example file, rule-book page, Markdown with images, the log)",),
        )

    # -- reacting ---------------------------------------------------------------------------
    def _changed(self) -> None:
        """A setup control changed: restart with the new setup (same seed) and replan the
        example from it, or show why the setup cannot be played and change nothing."""
        if self._loading:
            return
        self._adjust()
        try:
            self.setup()
        except ToolkitError as e:
            self.error_line.value = coloured(e, ERROR)
            return
        self.error_line.value = ""
        self.stepper.restart()  # calls setup() again: same seed, new setup
        if self._own_start is None:  # an example just loaded: this is its own setup
            self._own_start = self.stepper.start_state
        self._replan()
        self._after_refresh()
        self._show_setup()

    def _replan(self) -> None:
        """Plan the example from the stepper's start; with no example, an empty plan."""
        if self.example is None:
            self._plan, self._path, self._plan_error = [], [], ""
            return
        self._plan, self._path, self._plan_error = self._plan_example(self.stepper.start_state)

    @property
    def what_if(self) -> bool:
        """Whether the stepper plays the loaded example from a setup other than the
        example's own (a setup control changed: "what if she had no Order Card?")."""
        return self.example is not None and self.stepper.start_state != self._own_start

    def _plan_stop(self) -> tuple[str, str]:
        """Why the example's plan stops early, as ``(text, colour)``. From the example's
        own setup it is a broken example (an error); in a what-if it is what the question
        found — the example's next move does not fit the new setup — so it is a neutral
        note that play goes on by hand from here."""
        where, why = plan_stop_text(self._plan_error)
        if not self.what_if:
            return f"The example stops here ({where}): {why}" if where else f"The example stops here: {why}", ERROR
        move = f"its next move ({where})" if where else "its next move"
        return (
            f"With this setup the example ends here: {move} no longer fits — {why}. "
            "Continue by hand from here, or change the setup back.",
            NOTE,
        )

    def _position(self) -> int | None:
        """Where the current state is on the example's path (index of the next move), or
        None. The very state is looked for first, then an equal one (a move played by
        hand that the example also plays)."""
        state = self.stepper.state
        for k, s in enumerate(self._path):
            if s is state:
                return k
        for k, s in enumerate(self._path):
            if s == state:
                return k
        return None

    def _after_refresh(self) -> None:
        if not self._ready:
            return
        self._show_hands()
        self._show_example()
        self._show_more()

    def _show_hands(self) -> None:
        """Both hands as a table (designer), or one side's view from ``state.observation``."""
        state = self.state
        view = self.view.value
        if view == "both":
            self.hands_view.value = _TABLE + "".join(self._hand_rows(state)) + "</table>"
            return
        lines = state.observation(view).splitlines()
        self.hands_view.value = (
            f"<div><i>What {esc(state.names[self._sides.index(view)])} may see:</i></div>"
            + "".join(f"<div>{self._paint_codes(esc(line))}</div>" for line in lines)
        )

    def _show_example(self) -> None:
        """The example line (the next move, where play left the example, why it stops,
        or whether its expectations are met); Next move and Play all only while playable."""
        if self.example is None:
            return
        k = self._position()
        if k is None:  # the designer took over: a normal state, not an error
            text = f"The {self._noun} has left the example here: press Back to return to it, or Restart."
            colour = NOTE
        elif k < len(self._plan):
            text = f"Next in the example ({k + 1} of {len(self._plan)}): {self._move_label(self._plan[k])}."
            colour = NOTE
        elif self._plan_error:
            text, colour = self._plan_stop()
        else:
            problems = self._expectation_problems()
            if problems:
                text, colour = "The example is played out, but: " + "; ".join(problems), ERROR
            else:
                met = len(self.example.expect)
                which = "its expectation is" if met == 1 else f"its {count(met, 'expectation')} are"
                text, colour = f"The example is played out; {which} met.", OK
        drawn = self._paint_codes(esc(text)) if k is not None and k < len(self._plan) else esc(text)
        self.example_line.value = f'<span style="color:{colour}">{drawn}</span>'
        playable = k is not None and k < len(self._plan)
        self.next_move_button.disabled = self.play_all_button.disabled = not playable

    def _decision_panel(self, state: GameState) -> list[widgets.Widget]:
        """The widgets for the decision pending at ``state`` (rebuilt only when the state changes)."""
        if state is self._panel_state:
            return self._panel_widgets
        self._panel_state = state
        self._clear_panel()
        deciding = isinstance(state, self._state_type) and not (state.is_chance_node or state.is_terminal)
        self._panel_widgets = self._decision_widgets(state) if deciding else []
        return self._panel_widgets

    # -- moves -------------------------------------------------------------------------------
    def next_move(self) -> None:
        """Play the example's next move: cards or rolls at a chance step, else its next
        decision (or the referee's best choice where the example leaves one out)."""
        if self.example is None:
            self.stepper.refuse(self._load_hint)
            return
        k = self._position()
        if k is None:
            self.stepper.refuse("Play has left the example here: press Back to return to it, or Restart.")
            return
        if k >= len(self._plan):
            self.stepper.refuse(self._plan_stop()[0] if self._plan_error else "The example is played out.")
            return
        move = self._plan[k]
        if move.chance:
            self.stepper.type_outcome(move.text)
        else:
            self.stepper.choose(move.text)

    def play_all(self) -> None:
        """Play the example's remaining moves, each one a move Back can undo. Where the
        plan stops early the example line says why (once: not again as a refusal)."""
        while self.example is not None:
            k = self._position()
            if k is None or k >= len(self._plan):
                break
            self.next_move()
            if self.stepper.error:
                break

    def back(self) -> None:
        """Undo the last move (the stepper's Back)."""
        self.stepper.back()

    def _export(self, untitled: str) -> str:
        """Fill the export box with the game so far as a rule-book example (titled
        ``untitled`` when the title box is empty), say whether it replays, and return it:
        the example file's YAML, or, as ``export_format`` says, that file replayed and
        written as rule-book HTML or Markdown with its cards drawn
        (:mod:`toolkit.rulebook.export`: what ``toolkit replay FILE --format`` writes).

        A partial example (the game unfinished) is a normal export: a verdict that it
        replays is shown in the neutral :data:`~toolkit.widgets.common.NOTE` colour, not
        as a success or an error (it is neither); only a file that does not replay is red."""
        from toolkit.rulebook.download import example_download

        state = self.state
        title = self.export_title.value.strip() or untitled
        text = self._example_text(state, title)
        note, colour = self._export_verdict(state, text)
        if colour == OK and not state.is_terminal:
            colour = NOTE
        fmt = self.export_format.value or "yaml"
        if colour == OK and fmt == "yaml":
            note += SAVE_HINT
        if fmt == "text":  # the log as the stepper writes it: no example file to check
            self.export_view.show_text(self.stepper.log_text, "log.txt")
            self.export_note.value = coloured(note, colour)
            return self.stepper.log_text
        try:
            download = example_download(text, fmt, title)
        except ToolkitError as e:
            note, colour = f"{note} The {fmt} export cannot be written (the example file is shown): {e}", ERROR
            download = example_download(text, "yaml", title)
        self.export_view.show(download)
        text = download.source
        self.export_note.value = coloured(note, colour)
        return text

    # -- display ------------------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
