"""What a sweep run gives back (:func:`~.runner.run_sweep`): its result and its failed
points. A module of its own so that the runner, which builds a result, and the report,
which reads one, both import it and not each other."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.sweeps.spec import Point, Sweep
from toolkit.sweeps.store import table_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Failure", "SweepResult"]


@dataclass(frozen=True)
class Failure:
    """A point that raised: its parameters and the error (type and message)."""

    point: Point
    error: str

    def describe(self) -> str:
        return f"{self.point.describe()}: {self.error}"


@dataclass(frozen=True)
class SweepResult:
    """What :func:`run_sweep` did: the table, the points computed now and those a rerun
    skipped, the failures, the files written and the workers used.

    ``rows`` is the table as the run made it: an Arrow table, or ``None`` when the table
    file was spliced from the chunk files (no row read on this machine); :attr:`table`
    reads the file then, when first asked for."""

    sweep: Sweep
    rows: Any
    computed: int
    skipped: int
    failures: tuple[Failure, ...]
    seconds: float
    table_path: Path | None
    report_path: Path | None
    workers: int
    dashboard: str | None = None
    #: Stored chunks set aside (damaged, or of other code) whose points were computed again.
    set_aside: int = 0
    #: One line per chunk set aside, entry skipped or setting changed (workers capped).
    notices: tuple[str, ...] = ()
    #: The page to share written beside the table (:mod:`.share`), or ``None``.
    share_path: Path | None = None

    @property
    def ok(self) -> bool:
        """Whether every point of the sweep is in the table."""
        return not self.failures

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """The tidy table (:func:`~.store.sweep_table`): one row per point and outcome, in
        grid order; its text columns backed by Arrow."""
        import pandas as pd
        import pyarrow.parquet as pq

        if isinstance(self.rows, pd.DataFrame):
            return self.rows
        if self.rows is not None:
            return table_frame(self.rows)
        if self.table_path is None:
            raise ValueError("this result holds no table and names no table file")
        return table_frame(pq.read_table(self.table_path).replace_schema_metadata(None))

    def summary(self) -> str:
        """Return the run in one line: points computed now and stored before, chunks set
        aside, failures.

        The points a rerun skipped count as stored before; a chunk set aside is one whose
        points were computed again."""
        parts = [f"{self.sweep.size:,} points: {self.computed:,} computed now, {self.skipped:,} stored before"]
        if self.set_aside:
            parts.append(
                f"{self.set_aside:,} stored chunk{'s' if self.set_aside != 1 else ''} set aside "
                "(damaged or of other code) and computed again"
            )
        if self.failures:
            parts.append(f"{len(self.failures):,} failed")
        return "; ".join(parts)

    def shown(self, **where: Any) -> pd.DataFrame:
        """Return the rows of the points matching ``where`` (``attack_dice=3``) as a designer
        reads them: the swept fields by their labels and each outcome's probability (an exact
        ``Fraction``, else the estimate), without the bookkeeping columns (point, calculator,
        toolkit version, numerator and denominator, bounds, exactness, seconds)."""
        import pandas as pd

        from toolkit.house_rules import value_words
        from toolkit.sweeps.words import field_words, outcome_words

        table = self.table
        for field, value in where.items():
            if field not in table.columns:
                raise ValueError(f"{field!r} is not a field of the sweep; fields: {', '.join(self.sweep.swept)}")
            table = table[table[field] == value]
        exact = [
            Fraction(int(n), int(d)) if e and n == n and d == d else v
            for n, d, e, v in zip(table["numerator"], table["denominator"], table["exact"], table["value"], strict=True)
        ]
        swept = [f for f in self.sweep.swept if f not in where]
        shown = {field_words(self.sweep.system, f): [value_words(v) for v in table[f]] for f in swept}
        outcomes = [outcome_words(label) for label in table["outcome"]]
        return pd.DataFrame({**shown, "outcome": outcomes, "probability": exact})
