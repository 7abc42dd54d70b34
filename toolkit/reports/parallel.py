"""Running the jobs of a report batch in parallel on Dask distributed (issue 14, item 4).

A batch of several jobs runs on a local cluster of worker processes (one thread each, so a
worker runs one notebook at a time; each notebook still runs on its own kernel through
papermill). Workers send their progress lines back to the batch as Dask events; the batch
prints them in its own process, in the order each job produced them, and moves each
finished report into place as soon as it is done.
"""

from __future__ import annotations

import os
import queue
import signal
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

__all__ = ["default_workers", "run_parallel"]

#: Seconds between two looks at the running jobs.
_POLL = 0.1


def default_workers(jobs: int) -> int:
    """Return the number of worker processes a batch of ``jobs`` jobs uses by default:
    one per core the process may use, and no more than there are jobs (at least 1)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, jobs))


@contextmanager
def _sigint_ignored_in_children():
    """Start worker processes with Ctrl-C ignored: the batch (this process) handles it,
    closes the cluster and prints one line; workers must not print tracebacks of their own."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to protect
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _remote(task: Callable[[Callable[[str], Any]], Any], topic: str, index: int) -> tuple[Any, list[str]]:
    """Run ``task(progress)`` on a worker; each progress line goes back at once as an
    event ``(index, number, line)`` and with the result (a line whose event is lost is
    still printed)."""
    from distributed import get_worker

    worker = get_worker()
    lines: list[str] = []

    def progress(line: str) -> None:
        worker.log_event(topic, (index, len(lines), line))
        lines.append(line)

    return task(progress), lines


def run_parallel(
    tasks: Sequence[Callable[[Callable[[str], Any]], Any]],
    workers: int,
    progress: Callable[[str], Any],
    finish: Callable[[int, Any], None],
    *,
    failed: Callable[[int, BaseException], Any],
    priorities: Sequence[float] | None = None,
) -> None:
    """Run every ``task(progress)`` on a local Dask cluster of ``workers`` processes.

    ``finish(i, result)`` is called in this process (the caller's thread) as each task
    ends, in the order they end; a task that raised, or whose worker died, gives
    ``finish(i, failed(i, error))``. ``progress`` gets each task's lines in order.
    Higher ``priorities`` start first. Ctrl-C (KeyboardInterrupt) closes the cluster
    (its workers and their kernels end) and is raised again.
    """
    import logging

    from distributed import Client, LocalCluster

    topic = f"toolkit-batch-{uuid.uuid4().hex}"
    events: queue.Queue[tuple[int, int, str]] = queue.Queue()
    printed = [0] * len(tasks)

    def show(index: int, number: int, line: str) -> None:
        if number == printed[index]:  # lines of one job in order, each once
            progress(line)
            printed[index] += 1

    def drain() -> None:
        while True:
            try:
                show(*events.get_nowait())
            except queue.Empty:
                return

    import dask

    # one job per worker at a time; the others wait on the scheduler, highest priority first
    with _sigint_ignored_in_children(), dask.config.set({"distributed.scheduler.worker-saturation": 1.0}):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: two batches at once must not clash
            memory_limit=0,  # the kernels do the work; never pause or restart a waiting worker
            silence_logs=logging.CRITICAL,
        )
    try:
        with Client(cluster, set_as_default=False) as client:
            client.subscribe_topic(topic, lambda event: events.put(tuple(event[1])))
            order = sorted(range(len(tasks)), key=lambda i: -(priorities[i] if priorities else 0))
            futures = {
                client.submit(
                    _remote,
                    tasks[i],
                    topic,
                    i,
                    key=f"report-job-{i}-{topic}",
                    priority=(priorities[i] if priorities else 0),
                    retries=0,
                ): i
                for i in order  # submitted in priority order too: a free worker takes the first
            }
            pending = dict(futures)
            while pending:
                drain()
                done = [f for f in pending if f.done()]
                if not done:
                    time.sleep(_POLL)
                    continue
                for future in done:
                    i = pending.pop(future)
                    try:
                        result, lines = future.result()
                    except Exception as exc:  # the task raised, or its worker died
                        drain()
                        finish(i, failed(i, exc))
                        continue
                    drain()
                    for number, line in enumerate(lines):
                        show(i, number, line)
                    finish(i, result)
            client.unsubscribe_topic(topic)
    finally:
        cluster.close(timeout=10)
