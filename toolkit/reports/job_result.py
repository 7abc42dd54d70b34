"""What became of one job of a report batch (:class:`JobResult`).

Its own module, below both :mod:`toolkit.reports.running` (which runs the jobs and builds
the results) and :mod:`toolkit.reports.batch_index` (which writes the index page of the
results), so neither of those two imports the other to name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from toolkit.reports.jobs import Job

__all__ = ["JobResult"]


@dataclass(frozen=True)
class JobResult:
    """What became of one job of a batch: ``status`` is ``'ok'`` or ``'failed'`` (then
    ``error`` is the message); ``html_path`` may exist for a failed run (partial report)."""

    job: Job
    output_name: str
    status: Literal["ok", "failed"]
    html_path: Path | None
    notebook_path: Path | None
    seconds: float
    error: str | None = None
    title: str | None = None
