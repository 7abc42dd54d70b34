"""Progress of a sweep: points done of the total, the rate and the time left — a line in
the terminal, or a progress-bar widget in a notebook."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from toolkit.progress import duration_text, in_notebook

__all__ = ["Progress", "TerminalProgress", "WidgetProgress", "make_progress", "in_notebook", "status_line"]


def status_line(done: int, total: int, failed: int, elapsed: float, computed: int) -> str:
    """Return ``"120/400 points (30%), 25.1 points/s, about 11 s left"`` (and the failures):
    the rate counts the points computed in this run (not the ones a rerun skipped).

    >>> status_line(10, 40, 1, 2.0, 10)
    '10/40 points (25%), 5.0 points/s, about 6 s left, 1 failed'
    """
    share = done / total if total else 1.0
    parts = [f"{done:,}/{total:,} points ({share:.0%})"]
    if computed and elapsed > 0:
        rate = computed / elapsed
        parts.append(f"{rate:,.1f} points/s")
        if done < total:
            parts.append(f"about {duration_text((total - done) / rate)} left")
    if failed:
        parts.append(f"{failed:,} failed")
    return ", ".join(parts)


class Progress:
    """Silent progress (the base: ``progress=None``); subclasses show it."""

    def __init__(self) -> None:
        self.total = self.done = self.failed = self.computed = 0
        self.started = time.perf_counter()

    def start(self, total: int, skipped: int, dashboard: str | None, workers: int) -> None:
        """The sweep starts: ``total`` points, ``skipped`` of them already stored."""
        self.total, self.done, self.started = total, skipped, time.perf_counter()

    def update(self, points: int, failed: int) -> None:
        """``points`` more points finished, ``failed`` of them with an error."""
        self.done += points
        self.computed += points
        self.failed += failed
        self.show()

    def line(self) -> str:
        return status_line(self.done, self.total, self.failed, time.perf_counter() - self.started, self.computed)

    def show(self) -> None:
        """Show the current state (nothing here)."""

    def notice(self, line: str) -> None:
        """Tell one line about the run (a stored chunk set aside, workers capped): nothing here."""

    def close(self, interrupted: bool = False) -> None:
        """The sweep ended (or was interrupted)."""


class TerminalProgress(Progress):
    """One line on ``stream`` (stderr), rewritten in place on a terminal; on a pipe or a
    log file a line at most every ``every`` seconds."""

    def __init__(self, stream: TextIO | None = None, every: float = 5.0) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.2 if self.tty else every
        self.last = 0.0

    def start(self, total: int, skipped: int, dashboard: str | None, workers: int) -> None:
        super().start(total, skipped, dashboard, workers)
        where = f"{workers} worker{'s' if workers != 1 else ''}"
        print(f"sweep: {total:,} points, {skipped:,} already done; {where}", file=self.stream)
        if dashboard:
            print(f"dashboard: {dashboard}", file=self.stream)
        else:
            print("dashboard: not available here (Dask's dashboard needs the bokeh package)", file=self.stream)
        self.show(force=True)

    def notice(self, line: str) -> None:
        print(line, file=self.stream, flush=True)

    def show(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < self.every and self.done < self.total:
            return
        self.last = now
        state = (self.done, self.failed)
        if state == getattr(self, "shown", None):
            return
        self.shown = state
        line = self.line()
        if self.tty:
            print(f"\r{line}\033[K", end="", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)

    def close(self, interrupted: bool = False) -> None:
        self.show(force=True)
        if self.tty:
            print(file=self.stream)


class WidgetProgress(Progress):
    """An ipywidgets progress bar and a status line, for a sweep run from a notebook."""

    def __init__(self) -> None:
        super().__init__()
        import ipywidgets as widgets
        from IPython.display import display

        self.bar = widgets.IntProgress(value=0, min=0, max=1, description="sweep")
        self.label = widgets.HTML()
        self.notes = widgets.HTML()
        display(widgets.VBox([widgets.HBox([self.bar, self.label]), self.notes]))

    def notice(self, line: str) -> None:
        import html

        self.notes.value += f"<div>{html.escape(line)}</div>"

    def start(self, total: int, skipped: int, dashboard: str | None, workers: int) -> None:
        import html

        super().start(total, skipped, dashboard, workers)
        self.bar.max = max(total, 1)
        self.dashboard = f' · <a href="{html.escape(dashboard)}" target="_blank">dashboard</a>' if dashboard else ""
        self.show()

    def show(self) -> None:
        import html

        self.bar.value = self.done
        self.label.value = html.escape(self.line()) + getattr(self, "dashboard", "")

    def close(self, interrupted: bool = False) -> None:
        self.show()
        self.bar.bar_style = "warning" if interrupted or self.failed else "success"


def make_progress(kind: str | Progress | None) -> Progress:
    """Return the progress display: ``"auto"`` (a widget in a notebook, else the terminal),
    ``"terminal"``, ``"widget"``, ``None`` (silent), or a :class:`Progress` given."""
    if isinstance(kind, Progress):
        return kind
    if kind is None or kind == "none":
        return Progress()
    if kind == "widget" or (kind == "auto" and in_notebook()):
        return WidgetProgress()
    return TerminalProgress()
