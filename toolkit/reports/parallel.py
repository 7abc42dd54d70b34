"""Running the jobs of a report batch in parallel on Dask distributed, on this
machine's cores or on any running cluster by address.

A batch of several jobs runs on a local cluster of worker processes (one thread each, so a
worker runs one notebook at a time; each notebook still runs on its own kernel through
papermill). Workers send their progress lines back to the batch as Dask events; the batch
prints them in its own process, in the order each job produced them, and moves each
finished report into place as soon as it is done.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from toolkit import cluster as dask_cluster

__all__ = ["default_workers", "run_parallel"]

#: Seconds between two looks at the running jobs.
_POLL = 0.1
#: Seconds the workers may take to start and register with the scheduler.
_START_TIMEOUT = 120
#: Seconds a closing cluster and a killed process are waited for at most.
_KILL_TIMEOUT = 5


def default_workers(jobs: int) -> int:
    """Return the number of worker processes a batch of ``jobs`` jobs uses by default:
    one per core the process may use (:func:`toolkit.cluster.default_workers`), and no
    more than there are jobs (at least 1)."""
    return max(1, min(dask_cluster.default_workers(), jobs))


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
    Higher ``priorities`` start first, each task on a worker of its own as one is free.
    Ctrl-C (KeyboardInterrupt) kills the workers and their kernels, closes the cluster
    within a few seconds and is raised again.
    """
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

    # One job per worker, started by this loop: two jobs of a batch are too few for the
    # scheduler's own queue (it queues only a task group larger than twice the threads), so
    # it would place both at once, on one worker if the second had not yet registered.
    # memory_limit 0: the kernels do the work; never pause or restart a waiting worker.
    client, cluster = dask_cluster.start_local(workers, memory_limit=0, quiet=True)
    try:
        with client:
            try:
                client.wait_for_workers(workers, timeout=_START_TIMEOUT)
                client.subscribe_topic(topic, lambda event: events.put(tuple(event[1])))
                waiting = sorted(range(len(tasks)), key=lambda i: -(priorities[i] if priorities else 0))
                pending: dict[Any, tuple[int, str]] = {}

                def start_next() -> None:
                    busy = {address for _, address in pending.values()}
                    idle = [a for a in client.scheduler_info()["workers"] if a not in busy]
                    i = waiting.pop(0)
                    future = client.submit(
                        _remote,
                        tasks[i],
                        topic,
                        i,
                        key=f"report-job-{i}-{topic}",
                        workers=idle[:1] or None,
                        allow_other_workers=True,  # if that worker dies, any other may run it
                        retries=0,
                        pure=False,
                    )
                    pending[future] = (i, idle[0] if idle else "")

                while waiting and len(pending) < workers:
                    start_next()
                while pending:
                    drain()
                    done = [f for f in pending if f.done()]
                    if not done:
                        time.sleep(_POLL)
                        continue
                    for future in done:
                        i, _ = pending.pop(future)
                        try:
                            result, lines = future.result()
                        except Exception as exc:  # the task raised, or its worker died
                            drain()
                            finish(i, failed(i, exc))
                        else:
                            drain()
                            for number, line in enumerate(lines):
                                show(i, number, line)
                            finish(i, result)
                        if waiting:
                            start_next()
                client.unsubscribe_topic(topic)
            except BaseException:
                # Ctrl-C (or an error here): end the workers' kernels and the workers now; a
                # graceful close would wait on the notebooks they are running.
                _kill_workers(cluster)
                raise
    finally:
        _close(cluster)


def _worker_processes(cluster: Any) -> list[Any]:
    """The cluster's worker processes and everything they started (the kernels), as
    ``psutil.Process`` objects, children first."""
    import psutil

    found = []
    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        if not pid:
            continue
        try:
            worker = psutil.Process(pid)
            found.extend(worker.children(recursive=True))
            found.append(worker)
        except psutil.Error:  # already gone
            continue
    return found


def _kill_workers(cluster: Any) -> None:
    """Kill the kernels and worker processes of ``cluster`` (a worker's nanny then sees it
    end while the cluster closes, and does not start it again)."""
    import psutil

    processes = _worker_processes(cluster)
    closing = threading.Thread(target=_close, args=(cluster,), daemon=True)
    closing.start()  # the nannies are told to close first, so none restarts its worker
    time.sleep(_POLL)
    for process in processes:
        with suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(processes, timeout=_KILL_TIMEOUT)
    closing.join(_KILL_TIMEOUT)


def _close(cluster: Any) -> None:
    """Close ``cluster`` within a bounded time (a worker still busy is killed by its nanny)."""
    dask_cluster.close(None, cluster)
