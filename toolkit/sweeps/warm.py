"""A worker plugin that warms each Dask worker for a sweep's calculator before its first
chunk: the system's package, the calculator and Arrow imported once per worker process,
also on workers that join the cluster later (:func:`~.work.warm_worker`)."""

from __future__ import annotations

import contextlib
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from toolkit.sweeps.work import warm_worker

__all__ = ["SweepWarmUp"]


class SweepWarmUp(WorkerPlugin):
    """Run :func:`~.work.warm_worker` for calculator ``name`` of ``system`` on each worker."""

    def __init__(self, system: str, name: str) -> None:
        self.system, self.name = system, name

    def setup(self, worker: Any) -> None:
        with contextlib.suppress(Exception):  # a worker that cannot: its chunks say why
            warm_worker(self.system, self.name)
