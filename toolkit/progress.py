"""Long work shows progress: a bar in a notebook, a line on the command line, nothing for short work.

A calculation that may run for long opens :func:`progress` around its work (what it does,
how many steps it expects, what a step is) and its inner loops call :func:`tick` once a
step (a simulated attack, a clash). Nothing is shown for work done within
:data:`SHOW_AFTER` seconds; past that, a progress bar appears in a notebook (ipywidgets)
and a line on stderr elsewhere (rewritten in place on a terminal, every few seconds in a
log), with the steps done, the share and the time spent. A calculation inside another (a
battle's clash tables, a sweep's points) adds its steps to the one already shown.

Ctrl-C stops the work where it is: :class:`KeyboardInterrupt` propagates unchanged, the
display says "interrupted", and the calculators write nothing until their work is whole
(a result, a cache entry), so the next call starts clean.

>>> with progress("simulated attacks", 3) as shown:
...     for _ in range(3):
...         tick()
>>> shown.done, shown.visible
(3, False)
"""

from __future__ import annotations

import functools
import html
import inspect
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

__all__ = [
    "SHOW_AFTER",
    "NotebookLines",
    "Shown",
    "duration_text",
    "expect",
    "in_notebook",
    "line_stream",
    "progress",
    "shows_progress",
    "tick",
    "watch",
]

#: Seconds of work after which its progress is shown.
SHOW_AFTER = 2.0
#: Seconds between two redrawings (a terminal line, a bar); a log gets a line every 5 s.
_REDRAW, _LOG_EVERY = 0.25, 5.0
#: Seconds between two readings of the clock (the steps between them adapt to it).
_CHECK_EVERY = 0.05

F = TypeVar("F", bound=Callable[..., Any])
_ACTIVE: list[Shown] = []
_WATCHERS: list[Callable[[Shown], None]] = []


def duration_text(seconds: float) -> str:
    """Return a duration as a designer reads it: ``'42 s'``, ``'12 min'``, ``'3.9 h'``.

    >>> duration_text(42), duration_text(720), duration_text(14_176)
    ('42 s', '12 min', '3.9 h')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where a widget can be shown)."""
    shell: Any = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except AttributeError:
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


class Shown:
    """The progress of one piece of work: ``done`` of ``total`` steps (``None``: not known
    ahead), what a step is, and whether it is ``visible`` yet; in a notebook ``bar`` and
    ``label`` are its widgets (``None`` elsewhere)."""

    def __init__(self, unit: str, total: int | None, stream: TextIO | None = None) -> None:
        self.unit, self.total, self.done = unit, total, 0
        self.started = time.perf_counter()
        self.visible = False
        self._stream = stream or sys.stderr
        self._tty = bool(getattr(self._stream, "isatty", lambda: False)())
        self.bar: Any = None
        self.label: Any = None
        self._drawn = 0.0
        self._checked = self.started
        self._next, self._stride = 1, 1  # the clock is read every ``stride`` steps, about every 1/20 s

    def line(self) -> str:
        """``"12,000/20,000 simulated attacks (60%), 8 s"``."""
        spent = f"{time.perf_counter() - self.started:.0f} s"
        if self.total:
            return f"{self.done:,}/{self.total:,} {self.unit} ({self.done / self.total:.0%}), {spent}"
        return f"{self.done:,} {self.unit}, {spent}"

    def expect(self, steps: int) -> None:
        """``steps`` more steps to do than first said (a further batch of runs)."""
        if self.total is not None:
            self.total += steps

    def advance(self, steps: int = 1) -> None:
        """``steps`` more steps done: the display follows, no more often than it can be read."""
        self.done += steps
        if self.done < self._next:
            return
        now = time.perf_counter()
        quick = now - self._checked < _CHECK_EVERY
        self._stride = min(self._stride * 2, 1 << 16) if quick else max(self._stride // 2, 1)
        self._next, self._checked = self.done + self._stride, now
        for watcher in list(_WATCHERS):
            watcher(self)
        if now - self.started >= SHOW_AFTER and now - self._drawn >= (_REDRAW if self._tty or self.bar else 0):
            self._draw(now)

    def _draw(self, now: float) -> None:
        if not self._tty and self.bar is None and self.visible and now - self._drawn < _LOG_EVERY:
            return
        self._drawn = now
        if not self.visible:
            self.visible = True
            if in_notebook():
                self._open_bar()
        if self.bar is not None:
            self.bar.max = max(self.total or self.done, self.done, 1)
            self.bar.value = self.done
            self.label.value = html.escape(self.line())
        elif self._tty:
            print(f"\r{self.line()}\033[K", end="", file=self._stream, flush=True)
        else:
            print(self.line(), file=self._stream, flush=True)

    def _open_bar(self) -> None:
        import ipywidgets as widgets
        from IPython.display import display

        self.bar = widgets.IntProgress(value=0, min=0, max=max(self.total or 1, 1), description="working")
        self.label = widgets.HTML()
        display(widgets.HBox([self.bar, self.label]))

    def close(self, interrupted: bool = False) -> None:
        """The work ended (or was interrupted): the display says so, if it was shown."""
        if not self.visible:
            return
        if self.bar is not None:
            self.bar.value = self.done
            self.bar.bar_style = "warning" if interrupted else "success"
            self.label.value = html.escape(self.line() + (" — interrupted" if interrupted else ""))
        else:
            end = " — interrupted" if interrupted else ""
            print(f"\r{self.line()}{end}\033[K" if self._tty else f"{self.line()}{end}", file=self._stream, flush=True)


class NotebookLines:
    """Where a long run's lines go in a notebook (instead of stderr, which a notebook draws
    as a pink box per write, wrapped mid-word): one output of plain text, wrapped between
    words and rewritten in place, that keeps every line said and only the latest of the
    lines given to :meth:`update` (a progress line). A text stream: ``print(line, file=it)``
    says a line. No widget, so a saved notebook opened again still shows it."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.latest = ""
        self._partial = ""
        self._handle: Any = None

    def write(self, text: str) -> int:
        """Add ``text``; each whole line is said (:meth:`say`)."""
        *lines, self._partial = (self._partial + text).split("\n")
        for line in lines:
            self.say(line)
        return len(text)

    def flush(self) -> None:
        """Nothing to flush: every whole line is shown as it comes."""

    def isatty(self) -> bool:
        return False

    def say(self, line: str) -> None:
        """Show ``line`` below the ones said before."""
        self.said.append(line)
        self._show()

    def update(self, line: str) -> None:
        """Show ``line`` in place of the previous progress line."""
        self.latest = line
        self._show()

    def text(self) -> str:
        """What the output shows, a line each."""
        return "\n".join([*self.said, self.latest] if self.latest else self.said)

    def _show(self) -> None:
        from IPython.display import display

        lines = "".join(f"<div>{html.escape(line)}</div>" for line in self.text().split("\n"))
        bundle = {"text/plain": self.text(), "text/html": f'<div class="toolkit-lines">{lines}</div>'}
        if self._handle is None:
            self._handle = display(bundle, raw=True, display_id=True)
        else:
            self._handle.update(bundle, raw=True)


def line_stream(stream: TextIO | str | None) -> TextIO | NotebookLines | None:
    """Where a run's lines go: ``"auto"`` is a :class:`NotebookLines` in a notebook and
    stderr elsewhere; a stream or ``None`` (nowhere) as given."""
    if stream == "auto":
        return NotebookLines() if in_notebook() else sys.stderr
    return stream  # type: ignore[return-value]


@contextmanager
def progress(unit: str, total: int | None = None, stream: TextIO | None = None) -> Iterator[Shown]:
    """Show the progress of the work inside (after :data:`SHOW_AFTER` seconds): ``total``
    steps of ``unit`` (``"simulated attacks"``; ``None``: not known ahead), each counted by
    :func:`tick`. Inside work already shown, its steps add to that display. A
    :class:`KeyboardInterrupt` (Ctrl-C) propagates; the display says "interrupted"."""
    if _ACTIVE:
        outer = _ACTIVE[-1]
        if outer.total is not None and total is not None:
            outer.total += total
        elif total is None:
            outer.total = None
        yield outer
        return
    shown = Shown(unit, total, stream)
    _ACTIVE.append(shown)
    try:
        yield shown
    except KeyboardInterrupt:
        shown.close(interrupted=True)
        raise
    else:
        shown.close()
    finally:
        _ACTIVE.remove(shown)


def shows_progress(describe: Callable[[Mapping[str, Any]], tuple[str, int | None]]) -> Callable[[F], F]:
    """Run the decorated function inside :func:`progress`: ``describe`` takes its arguments
    by name (defaults filled in) and returns what a step is and how many are expected
    (``None``: not known ahead)."""

    def decorate(f: F) -> F:
        signature = inspect.signature(f)

        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            asked = signature.bind(*args, **kwargs)
            asked.apply_defaults()
            with progress(*describe(asked.arguments)):
                return f(*args, **kwargs)

        return run  # type: ignore[return-value]

    return decorate


def expect(steps: int) -> None:
    """``steps`` more steps for the work in progress than first said (a further batch)."""
    if _ACTIVE:
        _ACTIVE[-1].expect(steps)


def tick(steps: int = 1) -> None:
    """Count ``steps`` steps of the work in progress (nothing outside :func:`progress`)."""
    if _ACTIVE:  # the common case in two comparisons: a run costs tens of microseconds
        shown = _ACTIVE[-1]
        if shown.done + steps < shown._next:
            shown.done += steps
        else:
            shown.advance(steps)


@contextmanager
def watch(watcher: Callable[[Shown], None]) -> Iterator[None]:
    """Call ``watcher(shown)`` whenever the work in progress reads its clock (every few
    steps): what tests use to stop a calculation part way, as Ctrl-C would."""
    _WATCHERS.append(watcher)
    try:
        yield
    finally:
        _WATCHERS.remove(watcher)
