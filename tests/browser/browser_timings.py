"""The input-to-screen times the browser suite measures, kept for the run's report.

Every figure is recorded with the issue's goal for it (if any); at the end of the session
they are printed as a table and written to ``browser-timings.json`` in pytest's base
temporary directory.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Timing:
    """One measured figure: what was done, how long it took, the goal it is held to."""

    name: str
    seconds: float
    goal: float | None = None
    note: str = ""

    @property
    def meets_goal(self) -> bool | None:
        """True/False against the goal, None when there is no goal."""
        return None if self.goal is None else self.seconds <= self.goal


@dataclass
class TimingLog:
    """The figures of one session, in the order measured."""

    timings: list[Timing] = field(default_factory=list)

    def add(self, name: str, seconds: float, goal: float | None = None, note: str = "") -> Timing:
        """Record a figure and return it."""
        timing = Timing(name, seconds, goal, note)
        self.timings.append(timing)
        return timing

    def table(self) -> str:
        """The figures as aligned text lines: seconds, goal, verdict, name, note."""
        lines = []
        for t in self.timings:
            goal = "" if t.goal is None else f"goal {t.goal:g} s"
            verdict = "" if t.meets_goal is None else ("ok" if t.meets_goal else "MISSED")
            note = f"  ({t.note})" if t.note else ""
            lines.append(f"{t.seconds:8.3f} s  {goal:>12}  {verdict:6}  {t.name}{note}")
        return "\n".join(lines)

    def write(self, path: Path) -> None:
        """Write the figures as JSON (a list of objects with the fields of :class:`Timing`)."""
        rows = [{**asdict(t), "meets_goal": t.meets_goal} for t in self.timings]
        path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
