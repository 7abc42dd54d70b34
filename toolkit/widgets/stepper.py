"""A step-by-step player for any :class:`~toolkit.engine.GameState`, as an ipywidget.

The stepper walks a game the way a designer reads it aloud: **Step** reveals the
next line of the log; when every line is revealed it rolls the next *roll group*
(all dice of one pool: ``state.roll_group()`` chance nodes, sampled with a seeded
``random.Random``). At a decision node the player chooses with one button per legal
action. **Roll** skips the narration: it rolls the pending group and reveals all it
caused at once (the whole roll and its consequences). A rule-book example is typed
into the outcome box (``"A K 9"``) and applied with **Apply** or Enter; a bad entry shows a
red message and changes nothing. **Back** undoes one of these moves, **Restart**
goes back to the start; the **Seed** box restarts with another seed.

The seeded generator's state is saved with every move, so Back then Step rolls the
same dice again: a seed and a sequence of clicks always give the same log.

The log is exported in the folded "Export" box, previewed and downloaded: as plain text
(the default), or, for a game of a registered system, as a rule-book page (HTML) or
Markdown with its cards and dice as image files (:mod:`toolkit.rulebook.download`; the
``log_format`` dropdown).

Each system's stepper (its ``stepper`` hook, :mod:`toolkit.systems`) puts one under its
own controls; the module of that hook shows a game typed into a :class:`Stepper`, step
by step, in its docstring.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from toolkit.cards import codes_as_text
from toolkit.engine import Event, GameState
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.pictures import log_text, sentence_html
from toolkit.widgets.export_panel import ExportView

__all__ = ["Stepper", "LOG_FORMATS"]

#: The formats of the Export box: (label, format); ``"text"`` is the plain-text log.
LOG_FORMATS: tuple[tuple[str, str], ...] = (
    ("Plain text", "text"),
    ("Rule-book page (HTML)", "html"),
    ("Print-ready PDF", "pdf"),
    ("Markdown with image files (.zip)", "markdown"),
)

StartState = GameState | Callable[[], GameState]

_NEWEST = "background:#fff3bf;font-weight:bold"
_RULING = "color:#888;font-size:85%"


@dataclass(frozen=True)
class _Snapshot:
    """One entry of the history: a state, how many of its events are revealed, and the
    random generator's state after the move (so Back replays the same dice)."""

    state: GameState
    revealed: int
    rng_state: Any


class Stepper:
    """Play any game state step by step in JupyterLab (display it, or its ``.widget``).

    Args:
        start: the state to start from, or a zero-argument function returning it
            (called again on every restart).
        seed: seed of the random generator used by Step and Roll.
        title: an optional heading shown above the stepper.
        decision_panel: a function ``state -> widgets`` shown at decision steps in place
            of one button per legal action (e.g. a system's cards to click).
        on_refresh: called after every redraw (a system's own panels follow the state).

    The log draws the cards and dice the referee marked as the rule-book export does
    (:mod:`toolkit.pictures`), dice that hit under the rules in force in red (AM-1).

    The Python methods (:meth:`step`, :meth:`roll`, :meth:`type_outcome`,
    :meth:`choose`, :meth:`back`, :meth:`restart`) do what the buttons do; like the
    buttons they never raise for a bad move but put the message in :attr:`error`.
    """

    def __init__(
        self,
        start: StartState,
        seed: int = 0,
        title: str = "",
        decision_panel: Callable[[GameState], list[widgets.Widget]] | None = None,
        on_refresh: Callable[[], None] | None = None,
    ) -> None:
        self._panel = decision_panel
        self._on_refresh = on_refresh
        self._start = start
        self._seed = seed
        self._history: list[_Snapshot] = []
        self._error = ""
        self._note = ""
        self._syncing = False
        self._viewer: str | None = None
        self._build(title)
        self.restart(seed)

    # -- what a notebook reads ----------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The current game state."""
        return self._history[-1].state

    @property
    def start_state(self) -> GameState:
        """The state the stepper (re)started from."""
        return self._history[0].state

    def clear_message(self) -> None:
        """Clear the last move's error or note (nothing else changes): e.g. once the
        designer mends what a refusal was about. Returns None."""
        if self._error or self._note:
            self._clear()
            self._refresh()

    def refuse(self, message: str) -> None:
        """Show ``message`` as the error of a move that was not made (nothing changes)."""
        self._clear()
        self._error = message
        self._refresh()

    @property
    def viewer(self) -> str | None:
        """Whose eyes the log is shown through: ``None`` (the designer: everything) or a
        side, who reads the other sides' private events in their public form only.
        Setting it redraws the log at once."""
        return self._viewer

    @viewer.setter
    def viewer(self, side: str | None) -> None:
        if side != self._viewer:
            self._viewer = side
            self._refresh()

    @property
    def seed(self) -> int:
        """The seed the stepper was (re)started with."""
        return self._seed

    @property
    def revealed_events(self) -> list[Event]:
        """The events shown in the log so far, oldest first."""
        snap = self._history[-1]
        return list(snap.state.events[: snap.revealed])

    @property
    def pending(self) -> int:
        """How many events of the current state Step has still to reveal."""
        snap = self._history[-1]
        return max(0, len(snap.state.events) - snap.revealed)

    @property
    def log_text(self) -> str:
        """The revealed log as plain text, one event a line, as :attr:`viewer` may see it:
        the engine's narration with its cards written as a designer reads them (``K♠``,
        ``Joker 1``: :func:`toolkit.pictures.log_text`), as ``toolkit replay`` prints it."""
        return log_text(self.revealed_events, self.viewer)

    def export_log(self, fmt: str | None = None) -> str:
        """Return the revealed log as :attr:`viewer` may see it: plain text (``fmt=None``),
        or a rule-book example of the game so far (``"html"``: a self-contained page,
        ``"markdown"``), titled with the stepper's title (:mod:`toolkit.rulebook.export`).

        Raises:
            InvalidSetupError: a rule-book format for a state of no registered system, or
                an unknown format (naming the accepted ones).
        """
        if fmt is None or fmt == "text":
            return self.log_text
        if fmt == "pdf":
            raise InvalidSetupError("a PDF is not text: export_download('pdf').data holds its bytes")
        return self.export_download(fmt).source

    def export_download(self, fmt: str) -> Any:
        """Return the revealed log as a rule-book :class:`~toolkit.rulebook.download.Download`
        (``"html"``, ``"pdf"`` or ``"markdown"``: a preview, a file to download, its source).

        Raises:
            InvalidSetupError: a state of no registered system, or an unknown format.
        """
        from toolkit.rulebook.download import state_download

        if fmt not in [f for _, f in LOG_FORMATS[1:]]:
            raise InvalidSetupError(
                f"unknown log format {fmt!r}: use one of {', '.join(repr(f) for _, f in LOG_FORMATS)}"
            )
        return state_download(self.state, self._title_text, fmt, events=self.revealed_events, viewer=self.viewer)

    @property
    def error(self) -> str:
        """The message of the last move that failed, or ``""`` after a move that worked."""
        return self._error

    @property
    def note(self) -> str:
        """Why the last Step did nothing (the game is over, a player must choose), or ``""``."""
        return self._note

    # -- moves ------------------------------------------------------------------------------
    def step(self) -> None:
        """Reveal the next event; when all are revealed, roll the next roll group at a
        chance node (revealing its first event). At a decision node or at the end,
        do nothing but say so in :attr:`note`."""
        self._clear()
        snap = self._history[-1]
        if self.pending:
            self._push(snap.state, snap.revealed + 1)
        elif snap.state.is_chance_node:
            new = self._attempt(lambda: self._roll_group(snap.state))
            if new is not None:
                self._push(new, min(len(new.events), snap.revealed + 1))
        elif snap.state.is_terminal:
            self._note = "Finished: press Back or Restart."
        else:
            self._note = f"{snap.state.current_player} to choose: use the buttons."
        self._refresh()

    def roll(self) -> None:
        """Roll the whole pending roll group with the seeded generator and reveal every
        event so far (Roll does not narrate line by line; Step does)."""
        self._clear()
        state = self.state
        if state.is_terminal:
            self._error = "The game is over: nothing to roll. Press Back or Restart."
        elif not state.is_chance_node:
            self._error = f"Nothing to roll: {state.current_player} chooses first (use the buttons)."
        else:
            new = self._attempt(lambda: self._roll_group(state))
            if new is not None:
                self._push(new, len(new.events))
        self._refresh()

    def type_outcome(self, text: str) -> None:
        """Apply the outcomes (or actions) written in ``text``, as ``state.parse_actions``
        reads them (for Angry Miniatures: faces ``"A K 9"``, SuperTieBreaker throws
        ``"K K, A 9"``), and reveal every event so far. A bad entry leaves the state
        unchanged and puts the message in :attr:`error`."""
        self._clear()
        state = self.state
        if state.is_terminal:
            self._error = "The game is over: nothing more to apply. Press Back or Restart."
        elif not text.strip():
            self._error = "Type an outcome first" + self._example(state) + "."
        else:
            new = self._attempt(lambda: state.apply_all(state.parse_actions(text)))
            if new is not None:
                self._push(new, len(new.events))
                self.outcome_box.value = ""
        self._refresh()

    def choose(self, action: Hashable) -> None:
        """Take a legal action at a decision node (an action, or its written form) and
        reveal every event so far."""
        self._clear()
        state = self.state

        def apply() -> GameState:
            if action not in state.legal_actions() and isinstance(action, str):
                return state.apply(state.parse_action(action))
            return state.apply(action)

        new = self._attempt(apply)
        if new is not None:
            self._push(new, len(new.events))
        self._refresh()

    def back(self) -> None:
        """Undo the last move (a step, roll, typed outcome or choice)."""
        self._clear()
        if len(self._history) > 1:
            self._history.pop()
            self._rng.setstate(self._history[-1].rng_state)
        else:
            self._note = "Already at the start."
        self._refresh()

    def restart(self, seed: int | None = None) -> None:
        """Go back to the start state and re-seed (with ``seed`` if given).

        A start function that cannot build a state (a bad setup) raises its
        :class:`~toolkit.errors.ToolkitError` when the stepper is created; later the
        message goes to :attr:`error` and the stepper stays where it was.
        """
        try:
            start = self._start() if callable(self._start) else self._start
        except ToolkitError as e:
            if not self._history:
                raise
            self._error = str(e)
            self._refresh()
            return
        if seed is not None:
            self._seed = seed
        self._rng = random.Random(self._seed)
        self._history = [_Snapshot(start, min(1, len(start.events)), self._rng.getstate())]
        self._clear()
        self._refresh()

    def set_start(self, start: StartState, seed: int | None = None) -> None:
        """Start over from another state (or start function), keeping the seed unless given."""
        self._start = start
        self.restart(seed)

    # -- display -----------------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- internals ---------------------------------------------------------------------------
    def _clear(self) -> None:
        self._error = ""
        self._note = ""

    def _attempt(self, move: Callable[[], GameState]) -> GameState | None:
        try:
            return move()
        except ToolkitError as e:
            self._error = str(e)
            return None

    def _push(self, state: GameState, revealed: int) -> None:
        self._history.append(_Snapshot(state, revealed, self._rng.getstate()))

    def _roll_group(self, state: GameState) -> GameState:
        for _ in range(max(1, state.roll_group())):
            if not state.is_chance_node:
                break
            state = state.apply(state.sample_chance(self._rng))
        return state

    @staticmethod
    def _example(state: GameState) -> str:
        if state.is_chance_node:
            options = [state.action_to_string(o) for o, _ in state.chance_outcomes()]
        else:
            options = [state.action_to_string(a) for a in state.legal_actions()]
        if not options:
            return ""
        shown = ", ".join(codes_as_text(o) for o in options[:6]) + (", …" if len(options) > 6 else "")
        return f", e.g. one of {shown}"

    def _build(self, title: str) -> None:
        self._title_text = title
        self.title = widgets.HTML(f"<b>{html.escape(title)}</b>" if title else "")
        self.prompt_line = widgets.HTML()
        self.step_button = widgets.Button(description="Step", tooltip="Reveal the next line, or roll the next dice")
        self.roll_button = widgets.Button(description="Roll", tooltip="Roll the whole pending roll group")
        self.back_button = widgets.Button(description="Back", tooltip="Undo one move")
        self.restart_button = widgets.Button(description="Restart", tooltip="Back to the start, re-seeded")
        fit = {"description_width": "initial"}  # labels shown whole
        self.seed_box = widgets.IntText(
            value=self._seed, description="Seed", style=fit, layout=widgets.Layout(width="12em")
        )
        self.outcome_box = widgets.Text(description="Outcome", style=fit, layout=widgets.Layout(width="28em"))
        self.apply_button = widgets.Button(description="Apply", tooltip="Apply the typed outcome")
        self.decision_box = widgets.HBox()
        self.error_line = widgets.HTML()
        self.log_view = widgets.HTML()
        self.export_view = ExportView("12em")
        self.log_copy = self.export_view.source  # the exported text, to copy
        self.log_format = widgets.Dropdown(
            options=LOG_FORMATS, value="text", description="Format", layout=widgets.Layout(width="24em")
        )
        self.export_accordion = copy = widgets.Accordion(
            children=[widgets.VBox([self.log_format, self.export_view.widget])],
            titles=("Export: preview and download (plain text, rule-book page, Markdown with images)",),
        )
        self.log_format.observe(lambda _: self._show_log_copy(), names="value")

        self.step_button.on_click(lambda _: self.step())
        self.roll_button.on_click(lambda _: self.roll())
        self.back_button.on_click(lambda _: self.back())
        self.restart_button.on_click(lambda _: self.restart())
        self.apply_button.on_click(lambda _: self.submit_outcome())
        self.outcome_box.on_msg(self._on_outcome_message)  # Enter in the box applies it
        self.seed_box.observe(self._on_seed, names="value")

        self.widget = widgets.VBox(
            [
                self.title,
                self.prompt_line,
                widgets.HBox(
                    [self.step_button, self.roll_button, self.back_button, self.restart_button, self.seed_box]
                ),
                widgets.HBox([self.outcome_box, self.apply_button]),
                self.decision_box,
                self.error_line,
                self.log_view,
                copy,
            ]
        )

    def _on_outcome_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Enter in the Outcome box (the browser sends ``{"event": "submit"}``) does what
        Apply does."""
        if isinstance(content, dict) and content.get("event") == "submit":
            self.submit_outcome()

    def submit_outcome(self) -> None:
        """Apply what is typed in the Outcome box, as Apply and Enter in the box do."""
        if not self.apply_button.disabled:
            self.type_outcome(self.outcome_box.value)

    def _on_seed(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self.restart(int(change["new"]))

    def _refresh(self) -> None:
        state, pending = self.state, self.pending
        if pending:
            lines = "line" if pending == 1 else "lines"
            prompt = f"{pending} more {lines} to read: press Step (or Roll / Apply to skip ahead)."
        else:
            prompt = state.prompt()
        self.prompt_line.value = f"<i>{html.escape(prompt)}</i>"
        self.step_button.disabled = not pending and not state.is_chance_node
        self.roll_button.disabled = not state.is_chance_node
        self.back_button.disabled = len(self._history) <= 1
        self.apply_button.disabled = state.is_terminal
        self.outcome_box.placeholder = "type the outcome" + self._example(state) if not state.is_terminal else ""
        self._syncing = True
        try:
            self.seed_box.value = self._seed
        finally:
            self._syncing = False
        self.decision_buttons = self._decision_buttons(state)
        self.decision_box.children = tuple(self.decision_buttons)
        message = self._error or self._note
        colour = "#c92a2a" if self._error else "#666"
        self.error_line.value = f'<span style="color:{colour}">{html.escape(message)}</span>' if message else ""
        self.log_view.value = self._log_html()
        self._show_log_copy()
        if self._on_refresh is not None:
            self._on_refresh()

    def _show_log_copy(self) -> None:
        """The Export box in the chosen format: its preview, download and source (a game no
        export can write says why)."""
        fmt = self.log_format.value or "text"
        if fmt == "text":
            self.export_view.show_text(self.log_text, "log.txt")
            return
        try:
            self.export_view.show(self.export_download(fmt))
        except ToolkitError as e:
            self.export_view.refuse(f"Cannot export this game as a rule-book example: {e}")
            self.log_copy.value = f"Cannot export this game as a rule-book example: {e}"

    def _decision_buttons(self, state: GameState) -> list[widgets.Button]:
        if self._panel is not None:
            return self._panel(state)  # type: ignore[return-value]
        if state.is_chance_node or state.is_terminal:
            return []
        buttons = []
        for action in state.legal_actions():
            label = state.action_to_string(action)
            button = widgets.Button(
                description=label, tooltip=f"{state.current_player}: {label}", layout=widgets.Layout(width="auto")
            )
            button.on_click(lambda _, a=action: self.choose(a))
            buttons.append(button)
        return buttons

    def _log_html(self) -> str:
        events = self.revealed_events
        hits = getattr(getattr(self.state, "rules", None), "hit_faces", ())  # red: hit faces in force (AM-1)
        lines = []
        for i, e in enumerate(events):
            seen = e.seen_as(self.viewer)
            if seen is None:
                continue
            text = sentence_html(seen, hits)
            if e.ruling and e.ruling not in e.text:
                text += f' <span style="{_RULING}">[{html.escape(e.ruling)}]</span>'
            style = _NEWEST if i == len(events) - 1 else ""
            lines.append(f'<div style="{style}">{text}</div>')
        return '<div style="font-family:sans-serif;line-height:1.5">' + "".join(lines) + "</div>"
