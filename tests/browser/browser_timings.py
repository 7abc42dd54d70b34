"""The input-to-screen times the browser suite measures, kept for the run's report.

Every figure is recorded with the issue's goal for it (if any) and the machine's pace
when it was measured (:mod:`.machine_pace`: how many times slower than the machine the
goals and limits were set on, at least 1); a goal or limit is met when the figure is
within it times the pace. At the end of the session the figures are printed as a table
and written to ``browser-timings.json`` in pytest's base temporary directory.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Timing:
    """One measured figure: what was done, how long it took, the goal it is held to, the
    machine's pace while it was measured."""

    name: str
    seconds: float
    goal: float | None = None
    note: str = ""
    pace: float = 1.0

    def within(self, limit: float) -> bool:
        """Whether the figure is within ``limit`` seconds at this machine's pace."""
        return self.seconds <= limit * self.pace

    def says(self, limit: float) -> str:
        """The figure against ``limit`` in words, for an assertion's message."""
        return f"{self.seconds:.3f} s against {limit:g} s × pace {self.pace:.2f} = {limit * self.pace:.3f} s"

    @property
    def meets_goal(self) -> bool | None:
        """True/False against the goal (times the pace), None when there is no goal."""
        return None if self.goal is None else self.within(self.goal)


@dataclass
class TimingLog:
    """The figures of one session, in the order measured."""

    timings: list[Timing] = field(default_factory=list)

    def add(self, name: str, seconds: float, goal: float | None = None, note: str = "", pace: float = 1.0) -> Timing:
        """Record a figure (measured at ``pace``) and return it."""
        timing = Timing(name, seconds, goal, note, pace)
        self.timings.append(timing)
        return timing

    def table(self) -> str:
        """The figures as aligned text lines: seconds, goal (and the pace it is scaled by),
        verdict, name, note."""
        lines = []
        for t in self.timings:
            goal = "" if t.goal is None else f"goal {t.goal:g} s" + (f" ×{t.pace:.2f}" if t.pace > 1 else "")
            verdict = "" if t.meets_goal is None else ("ok" if t.meets_goal else "MISSED")
            note = f"  ({t.note})" if t.note else ""
            lines.append(f"{t.seconds:8.3f} s  {goal:>18}  {verdict:6}  {t.name}{note}")
        return "\n".join(lines)

    def write(self, path: Path) -> None:
        """Write the figures as JSON (a list of objects with the fields of :class:`Timing`)."""
        rows = [{**asdict(t), "meets_goal": t.meets_goal} for t in self.timings]
        path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
