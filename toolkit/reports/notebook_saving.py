"""How a report's executed notebook is written while it runs.

papermill writes the whole executed notebook to disk when each cell starts and when it
ends; a report's notebook holds plotly's library and every chart (about 5 MB), so those
writes cost a report 1-2 s of the batch's CPU. The report runs write it instead when the
run starts, at most once every :data:`SAVE_EVERY` seconds while it runs (so a long run
still leaves its progress on disk), and always when it ends, whether it ended well, with
an error, a timeout, a dead kernel or Ctrl-C: papermill's own end of run, which the
report's HTML (or its partial HTML after a failure) is made from.
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["SAVE_EVERY", "report_engine"]

#: The most seconds a running report's notebook on disk lags behind the run.
SAVE_EVERY = 30.0
#: The name the report runs' papermill engine is registered under.
_ENGINE = "toolkit-reports"


@cache
def report_engine() -> str:
    """Register the report runs' papermill engine (once) and return its name, for
    ``papermill.execute_notebook(..., engine_name=report_engine())``: papermill's nbclient
    engine, whose saves while the notebook runs are at most one per :data:`SAVE_EVERY`
    seconds, with the last save at the end of the run always made."""
    from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

    class SparseSaves(NotebookExecutionManager):
        """papermill's execution record, writing the notebook at the start, at most once
        every :data:`SAVE_EVERY` seconds, and at the end of the run."""

        ending = False
        saved = False

        def save(self, **kwargs: Any) -> None:
            waited = (self.now() - self.last_save_time).total_seconds()
            if self.ending or not self.saved or waited >= SAVE_EVERY:
                super().save(**kwargs)
                self.saved = True

        def notebook_complete(self, **kwargs: Any) -> None:
            self.ending = True  # papermill calls this in a finally: the last save is always made
            super().notebook_complete(**kwargs)

    class ReportEngine(NBClientEngine):
        """papermill's nbclient engine with :class:`SparseSaves` as its execution record."""

        @classmethod
        def execute_notebook(
            cls,
            nb: Any,
            kernel_name: str,
            output_path: str | None = None,
            progress_bar: bool = True,
            log_output: bool = False,
            autosave_cell_every: int = 30,
            **kwargs: Any,
        ) -> Any:
            record = SparseSaves(
                nb,
                output_path=output_path,
                progress_bar=progress_bar,
                log_output=log_output,
                autosave_cell_every=autosave_cell_every,
            )
            record.notebook_start()
            try:
                cls.execute_managed_notebook(record, kernel_name, log_output=log_output, **kwargs)
            finally:
                record.cleanup_pbar()
                record.notebook_complete()
            return record.nb

    papermill_engines.register(_ENGINE, ReportEngine)
    return _ENGINE
