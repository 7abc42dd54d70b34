"""Run a sweep on Dask distributed: a local cluster of worker processes by default, any
running scheduler by address.

:func:`run_sweep` validates the sweep file (nothing runs on a bad one), skips the points
already stored in ``DIR/.points/`` (:mod:`.store`), sends the rest in chunks (small points
together, so that scheduling does not dominate), stores each finished chunk as soon as it
arrives, and writes ``DIR/<name>.parquet`` and ``DIR/<name>.html``.

Faults: a point that raises is reported with its parameters and error while the others
finish (:class:`Failure`); a worker process that dies mid-chunk is replaced and the
scheduler runs its chunk again elsewhere (Dask's own recovery: no point is lost); Ctrl-C
cancels what is running and leaves every stored point (and no half-written file, every
file being written atomically).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import InvalidSetupError
from toolkit.notation import excerpt
from toolkit.sweeps.progress import Progress, make_progress
from toolkit.sweeps.spec import Point, Sweep, load_sweep
from toolkit.sweeps.store import PointStore, sweep_table, write_table
from toolkit.sweeps.work import compute_chunk

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Failure", "SweepResult", "run_sweep", "chunk_size", "default_workers", "CHUNK_SECONDS"]

#: About how long one chunk of small points should take (seconds).
CHUNK_SECONDS = 1.0
#: At least this many chunks per worker (so that the work is shared out evenly).
CHUNKS_PER_WORKER = 8
#: How long to wait for a scheduler given by address (seconds).
CONNECT_TIMEOUT = 15


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
    skipped, the failures, the files written and the workers used."""

    sweep: Sweep
    table: pd.DataFrame
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

    @property
    def ok(self) -> bool:
        """Whether every point of the sweep is in the table."""
        return not self.failures

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


def default_workers() -> int:
    """The number of worker processes of the default local cluster: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunk_size(sweep: Sweep, points: int, workers: int) -> int:
    """Points per task: the sweep file's ``chunk`` if given, else about
    :data:`CHUNK_SECONDS` of the calculator's work, at most a share that still gives each
    worker :data:`CHUNKS_PER_WORKER` chunks."""
    if sweep.chunk:
        return sweep.chunk
    by_time = max(1, round(CHUNK_SECONDS / sweep.calculator.seconds))
    by_share = max(1, math.ceil(points / (CHUNKS_PER_WORKER * max(workers, 1))))
    return max(1, min(by_time, by_share))


def _connect(scheduler: str | None, workers: int | None) -> tuple[Any, Any, str | None]:
    """Return (client, local cluster or None, dashboard address)."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidSetupError(
                f"cannot reach the Dask scheduler at {excerpt(scheduler)}: {exc}; give its address as "
                "tcp://HOST:8786 (what `dask scheduler` prints)"
            ) from None
        return client, None, client.dashboard_link
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidSetupError(f"workers must be a whole number of 1 or more, got {excerpt(workers)}")

    # The worker processes ignore Ctrl-C (inherited at their start): the terminal sends it
    # to the whole process group, and the sweep, not each worker, answers it (one line).
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        cluster = LocalCluster(
            n_workers=workers or default_workers(),
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: several sweeps (or helpers) may run at once
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    client = Client(cluster)
    return client, cluster, _dashboard(client)


def _dashboard(client: Any) -> str | None:
    """The address of the cluster's dashboard (``None`` when Dask's dashboard cannot run
    here: it needs bokeh)."""
    import importlib.util

    with contextlib.suppress(Exception):
        return client.dashboard_link if importlib.util.find_spec("bokeh") else None
    return None


def _worker_count(client: Any) -> int:
    with contextlib.suppress(Exception):
        return max(1, len(client.scheduler_info().get("workers", {})))
    return 1


def run_sweep(
    source: str | Path | Sweep,
    output_dir: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: str | Progress | None = "auto",
    report: bool = True,
    on_chunk: Callable[[Any, int], None] | None = None,
) -> SweepResult:
    """Run a sweep file on Dask and write ``DIR/<name>.parquet`` and ``DIR/<name>.html``.

    Args:
        source: a sweep file (path or YAML text) or a :class:`~.spec.Sweep`.
        output_dir: where the table, the report and the stored points (``.points/``) go.
        workers: worker processes of the local cluster (default: the machine's cores).
        scheduler: the address of a running Dask scheduler (``tcp://host:8786``) to use
            instead of a local cluster.
        client: a ``distributed.Client`` already connected (a notebook's, a test's).
        progress: ``"auto"`` (a widget in a notebook, else the terminal), ``"terminal"``,
            ``"widget"``, ``None``, or a :class:`~.progress.Progress`.
        report: whether to write the HTML report.
        on_chunk: called as ``on_chunk(client, points_done)`` after each stored chunk.

    Returns:
        A :class:`SweepResult` (the table holds every stored point of the sweep).

    Raises:
        InvalidSetupError, TooBigError, NotationError: the sweep file (nothing has run).
        KeyboardInterrupt: interrupted; every finished chunk is stored.
    """
    started = time.perf_counter()
    sweep = source if isinstance(source, Sweep) else load_sweep(source)
    out = Path(output_dir)
    table_file = out / f"{sweep.name}.parquet"
    _check_table_is_ours(sweep, table_file)
    out.mkdir(parents=True, exist_ok=True)
    shown = make_progress(progress)
    store = PointStore(out)
    done = store.done()
    for line in store.notices:
        shown.notice(line)
    todo = [p for p in sweep.points if p.key not in done]
    skipped = sweep.size - len(todo)
    failures: list[Failure] = []
    used_workers, dashboard = 0, None
    if todo:
        own_client = client is None
        cluster = None
        if own_client:
            client, cluster, dashboard = _connect(scheduler, workers)
        else:
            dashboard = _dashboard(client)
        try:
            used_workers = _worker_count(client)
            shown.start(sweep.size, skipped, dashboard, used_workers)
            failures = _run(sweep, todo, client, store, done, shown, used_workers, on_chunk)
            shown.close()
        except BaseException:
            shown.close(interrupted=True)
            raise
        finally:
            if own_client:
                with contextlib.suppress(Exception):
                    client.close()
                if cluster is not None:
                    with contextlib.suppress(Exception):
                        cluster.close()
    shown_notices = len(store.notices)
    table = sweep_table(sweep, store.tables())
    for line in store.notices[shown_notices:]:  # a chunk damaged while the sweep ran
        shown.notice(line)
    table_path = write_table(table, table_file, sweep)
    result = SweepResult(
        sweep,
        table,
        len(todo) - len(failures),
        skipped,
        tuple(failures),
        time.perf_counter() - started,
        table_path,
        None,
        used_workers,
        dashboard,
        store.set_aside,
        tuple(store.notices),
    )
    if report:
        from toolkit.sweeps.report import write_report

        result = SweepResult(**{**result.__dict__, "report_path": write_report(result, out / f"{sweep.name}.html")})
    return result


def _check_table_is_ours(sweep: Sweep, path: Path) -> None:
    """Refuse to write ``path`` when it holds the table of another sweep of the same name.

    The same sweep (same identity) resumes; a table that records no sweep (unreadable, or
    older than the record) is rebuilt from the stored points."""
    from toolkit.sweeps.store import table_sweep

    record = table_sweep(path)
    if record is None or record["identity"] == sweep.identity:
        return
    other = f"{excerpt(record.get('title'))}: {excerpt(record.get('system'))} {excerpt(record.get('calculator'))}"
    points = record.get("points")
    count = f", {points:,} points" if isinstance(points, int) else ""
    raise InvalidSetupError(
        f"{path} is the table of another sweep named {sweep.name} ({other}{count}), not of {sweep.where} "
        f"({sweep.title}: {sweep.system} {sweep.calculator.name}, {sweep.size:,} points): give another output "
        "folder (-o) or rename the sweep file, or delete that table to replace it (its stored points are kept)"
    )


def _chunks(points: Sequence[Point], size: int) -> list[list[Point]]:
    return [list(points[i : i + size]) for i in range(0, len(points), size)]


def _run(
    sweep: Sweep,
    todo: list[Point],
    client: Any,
    store: PointStore,
    done: set[str],
    shown: Progress,
    workers: int,
    on_chunk: Callable[[Any, int], None] | None,
) -> list[Failure]:
    """Submit the chunks, store each as it finishes; return the failures."""
    from distributed import as_completed

    from toolkit import __version__
    from toolkit.sweeps import fingerprint

    code = fingerprint.code_fingerprint()
    calc = sweep.calculator
    by_key = {p.key: p for p in todo}
    run_id = uuid.uuid4().hex[:8]
    futures = {}
    for i, chunk in enumerate(_chunks(todo, chunk_size(sweep, len(todo), workers))):
        items = [(p.key, p.args, p.rules) for p in chunk]
        future = client.submit(
            compute_chunk, sweep.system, calc.name, items, pure=False, key=f"sweep-{sweep.name}-{run_id}-{i}"
        )
        futures[future] = chunk
    failures: list[Failure] = []
    finished = 0
    try:
        for future in as_completed(list(futures)):
            chunk = futures.pop(future)
            if future.status != "finished":
                error = _chunk_error(future)
                failures += [Failure(p, error) for p in chunk]
                shown.update(len(chunk), len(chunk))
                continue
            outcome = future.result()
            future.release()
            if outcome.get("code") != code:
                error = (
                    f"the worker runs other toolkit code (toolkit {excerpt(outcome.get('version'))}, code "
                    f"{excerpt(outcome.get('code'))}; this sweep's: toolkit {__version__}, code {code}): "
                    "install the same toolkit on the cluster's workers"
                )
                failures += [Failure(p, error) for p in chunk]
                shown.update(len(chunk), len(chunk))
                continue
            store.save(outcome["payload"], outcome["done"])
            done.update(outcome["done"])
            failures += [Failure(by_key[key], error) for key, error in outcome["errors"]]
            count = len(outcome["done"]) + len(outcome["errors"])
            finished += count
            shown.update(count, len(outcome["errors"]))
            if on_chunk is not None:
                on_chunk(client, finished)
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        raise
    return failures


def _chunk_error(future: Any) -> str:
    """The error of a chunk that did not finish (a worker lost too often, a cancellation)."""
    try:
        exc = future.exception(timeout=5)
    except Exception as inner:  # described, never raised
        exc = inner
    if exc is None:
        return f"the chunk was {future.status}"
    return f"{type(exc).__name__}: {exc}"
