"""``toolkit.tune(...)``: load a tuning file, search, rank honestly and write the results."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from toolkit.files import FolderFault, fault_reason, quoted_path
from toolkit.folder_lock import folder_lock
from toolkit.numbers import count
from toolkit.progress import line_stream
from toolkit.tune.evaluate import Evaluator, open_client
from toolkit.tune.output import check_outputs, verdict_text, write_outputs
from toolkit.tune.ranking import Candidate, measured_best, rank
from toolkit.tune.search import method_of, run_search, with_intervals
from toolkit.tune.spec import Tuning, load_tuning

__all__ = ["TuneResult", "tune"]


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune` found: every candidate measured, best first
    (:class:`~toolkit.tune.ranking.Candidate`), the method, the settings measured, the
    points computed now and read back from the store, the files written, the rule-change
    comparison of the best (or ``None``) and the seconds."""

    tuning: Tuning
    candidates: tuple[Candidate, ...]
    method: str
    measured: int
    computed: int
    reused: int
    files: tuple[Path, ...]
    rule_change: Any
    seconds: float
    lines: tuple[str, ...] = ()

    @property
    def best(self) -> Candidate | None:
        """The best candidate measured (``None`` when nothing could be measured: a setting
        whose points failed is never named the best)."""
        return measured_best(self.candidates)

    @property
    def failures(self) -> tuple[str, ...]:
        """One line per setting whose point failed: the setting and the error."""
        return tuple(f"{c.setting.describe()}: {c.failure}" for c in self.candidates if c.failure)

    @property
    def found(self) -> bool:
        """Whether the best candidate meets every target and keeps every constraint."""
        best = self.best
        return best is not None and best.reaches

    def table(self, n: int | None = None) -> Any:
        """The best ``n`` candidates (default: the file's ``best``) as a designer reads them: a
        DataFrame indexed by rank, verdicts as ✓/✗, numbers as text
        (:func:`~toolkit.tune.output.candidates_table`; the CSV keeps the floats)."""
        from toolkit.tune.output import candidates_table

        return candidates_table(self.tuning, list(self.candidates[: n or self.tuning.best]))

    def summary(self) -> str:
        """One line: what was measured, whether the targets are met, and the best setting
        with each target's value (and interval) against its goal; when no setting reaches
        the targets it says so and names the closest (ranked by distance, not by fewest
        changes: :mod:`toolkit.tune.ranking`)."""
        verdict = verdict_text(self.tuning, self.candidates)
        if self.failures:
            verdict += f" ({count(len(self.failures), 'setting')} failed: see the failures)"
        return (
            f"{self.measured:,} settings measured ({self.method}; {self.computed:,} points computed now, "
            f"{self.reused:,} read back from the store) in {self.seconds:.1f} s: {verdict}"
        )


def tune(
    source: str | Path | Tuning,
    output_dir: str | Path | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    stream: TextIO | str | None = "auto",
    progress: Any = "auto",
    report: bool = True,
) -> TuneResult:
    """Find the house rules that hit a tuning file's targets.

    Args:
        source: a tuning file (path or YAML text) or a :class:`~toolkit.tune.spec.Tuning`.
        output_dir: where the results go (``DIR/<name>.csv``, ``.html``, ``_<rank>.yaml``,
            ``_rule_change.csv`` and ``.html``) and the points are stored (``DIR/.search/``: a rerun
            into the same folder reuses them); ``None``: ``tune/``.
        workers, scheduler, client: the Dask cluster, as :func:`toolkit.sweeps.run_sweep`.
        stream: where the progress lines go: ``"auto"``, one plain output rewritten in place in
            a notebook (:class:`~toolkit.progress.NotebookLines`) and stderr elsewhere; a
            stream; ``None``: nowhere.
        progress: the sweep runner's progress of an exhaustive search (``"auto"``,
            ``"terminal"``, ``"widget"`` or ``None``).
        report: whether to run the rule-change report of the best against the baseline
            (``DIR/<name>_rule_change.html``, a papermill run of its notebook).

    Returns:
        A :class:`TuneResult`.

    Raises:
        InvalidSetupError, TooBigError, NotationError: the tuning file (nothing has run).
        MeasureError: a target the calculator's outcomes cannot give.
    """
    started = time.perf_counter()
    tuning = source if isinstance(source, Tuning) else load_tuning(source)
    out = Path(output_dir if output_dir is not None else "tune")
    stream = line_stream(stream)
    notice = None if stream is None else lambda line: print(line, file=stream, flush=True)
    with folder_lock(out, f"toolkit tune {tuning.where}", notice):  # one writer per folder: a second run waits
        check_outputs(tuning, out)
        return _tune(tuning, out, started, workers, scheduler, client, stream, progress, report)


def _tune(
    tuning: Tuning,
    out: Path,
    started: float,
    workers: int | None,
    scheduler: str | None,
    client: Any,
    stream: TextIO | None,
    progress: Any,
    report: bool,
) -> TuneResult:
    """:func:`tune` once its output folder is locked and checked."""
    shown = progress if stream is not None else None
    try:
        if method_of(tuning) == "exhaustive" or client is not None:
            evaluator = Evaluator(tuning, out, workers=workers, scheduler=scheduler, client=client)
            searched = run_search(tuning, evaluator, stream, shown)
        else:
            with open_client(workers, scheduler) as opened:
                evaluator = Evaluator(tuning, out, workers=workers, client=opened)
                searched = run_search(tuning, evaluator, stream, shown)
    except FolderFault as exc:  # its store could not be written: no best is named from a part
        raise FolderFault(f"toolkit tune stopped, naming no best: {exc}") from None
    ranked = rank(tuning, list(searched.evaluated))
    top = ranked[: tuning.best]
    if any(m is not None and not m.exact for c in top for m in c.measures):
        ranked = rank(
            tuning, with_intervals(tuning, evaluator, top) + [_as_evaluated(c) for c in ranked[tuning.best :]]
        )
    try:
        files, change = write_outputs(tuning, ranked, len(searched.evaluated), searched.lines, out, report)
    except OSError as exc:
        raise FolderFault(
            f"cannot write in {quoted_path(out)}: {fault_reason(exc)}; kept: every measured point, in "
            f"{evaluator.folder} (a rerun writes the results without computing them again); the results were "
            "not all written"
        ) from None
    return TuneResult(
        tuning,
        tuple(ranked),
        searched.method,
        len(searched.evaluated),
        evaluator.computed,
        evaluator.reused,
        tuple(files),
        change,
        time.perf_counter() - started,
        searched.lines,
    )


def _as_evaluated(c: Candidate) -> tuple[Any, Any, Any, Any]:
    return c.setting, c.rules, c.measures, c.failure
