"""Run a sweep on Dask distributed: a local cluster of worker processes by default, any
running scheduler by address.

:func:`run_sweep` validates the sweep file (nothing runs on a bad one), skips the points
already stored in ``DIR/.points/`` (:mod:`.store`), and sends the rest in chunks
(:func:`plan_chunks`: points that share cached work together, largest first), each as one
pickled value. Every worker is warmed once (:mod:`.warm`). A worker builds its points'
rows in bulk and, when it sees the output folder, writes its chunk file itself under a
hidden name and returns a small summary; the client moves the file into place once the
worker's code fingerprint is checked (a worker that does not see the folder sends the
file's bytes instead). ``DIR/<name>.parquet`` is then the chunk files spliced
(:mod:`.splice`: no row is read here) when they follow each other in grid order, else it
is built from the stored rows in Arrow; ``DIR/<name>.html`` is the report.

Faults: a point that raises is reported with its parameters and error while the others
finish (:class:`Failure`); a worker process that dies mid-chunk is replaced and the
scheduler runs its chunk again elsewhere (Dask's own recovery: no point is lost); Ctrl-C
cancels what is running and leaves every stored point (and no half-written file: every
stored file is moved into place whole, and what a cancelled chunk staged is removed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import os
import pickle
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from toolkit import cluster as dask_cluster
from toolkit.cluster import default_workers, parse_scheduler, probe_scheduler
from toolkit.errors import InvalidSetupError
from toolkit.files import FolderFault, fault_reason, quoted_path
from toolkit.folder_lock import folder_lock
from toolkit.notation import excerpt
from toolkit.numbers import count as counted
from toolkit.output_folder import OutputFolder
from toolkit.sweeps.grid import Grid, GridPoints
from toolkit.sweeps.progress import Progress, make_progress
from toolkit.sweeps.result import Failure, SweepResult
from toolkit.sweeps.spec import Point, Sweep, load_sweep
from toolkit.sweeps.store import PointStore, splice_table, sweep_arrow, sweep_schema, write_table
from toolkit.sweeps.work import Places, compute_chunk, copy_share
from toolkit.whole_numbers import whole_number

__all__ = [
    "Failure",
    "SweepResult",
    "run_sweep",
    "chunk_size",
    "plan_chunks",
    "plan_places",
    "plan_lanes",
    "plan_work",
    "default_workers",
    "local_workers",
    "parse_scheduler",
    "probe_scheduler",
    "CHUNK_SECONDS",
]

#: About how long one chunk of small points should take (seconds).
CHUNK_SECONDS = 1.0
#: At least this many chunks per worker (so that the work is shared out evenly).
CHUNKS_PER_WORKER = 8
#: Of the chunks dealt to a worker's lane (:func:`plan_work`), the last 1 in this many (at
#: least one) prefer no worker: Dask holds them back (they wait in its scheduler's queue while
#: each worker has its own lane's chunks to run) and gives them to whichever worker runs
#: out first, so that the lanes end together (measured in ``bench/README.md``, the sweeps section).
OPEN_TAIL = 4
#: The value of a ``(column, value)`` pair of a point's columns.
_value = itemgetter(1)


def chunk_size(sweep: Sweep, points: int, workers: int) -> int:
    """Points per task: the sweep file's ``chunk`` if given, else about
    :data:`CHUNK_SECONDS` of the calculator's work, at most a share that still gives each
    worker :data:`CHUNKS_PER_WORKER` chunks."""
    if sweep.chunk:
        return sweep.chunk
    by_time = max(1, round(CHUNK_SECONDS / sweep.calculator.seconds))
    by_share = max(1, math.ceil(points / (CHUNKS_PER_WORKER * max(workers, 1))))
    return max(1, min(by_time, by_share))


def local_workers(requested: int | None, chunks: int) -> tuple[int, str | None]:
    """Return the worker processes of a local cluster and, when fewer than ``requested``,
    the line that says why: no more than the cores this process may use
    (:func:`default_workers`) and than the ``chunks`` to run.

    >>> local_workers(4, 1)[0], local_workers(None, 1)
    (1, (1, None))
    """
    if requested is not None:
        whole_number(requested, "workers", 1)
    cores = default_workers()
    used = max(1, min(requested or cores, cores, chunks))
    if requested is None or used == requested:
        return used, None
    why = []
    if used == cores < requested:
        why.append(f"this machine has {cores} core{'s' if cores != 1 else ''} for this sweep")
    if used == chunks < requested:
        why.append(f"the sweep has {chunks:,} chunk{'s' if chunks != 1 else ''} to run")
    return used, f"workers: {requested:,} asked for, {used} started ({' and '.join(why)})"


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

    The output folder has one writer at a time (:func:`~toolkit.folder_lock.folder_lock`):
    a run into a folder another run writes waits for it, with one line, then resumes.
    """
    started = time.perf_counter()
    sweep = source if isinstance(source, Sweep) else load_sweep(source)
    out = Path(output_dir)
    shown = make_progress(progress)
    # one writer per folder: a second run waits (a line says for whom), then resumes
    with folder_lock(out, f"toolkit sweep {sweep.where}", shown.notice if type(shown) is not Progress else None):
        store = PointStore(out)
        try:
            return _sweep(sweep, out, store, shown, started, workers, scheduler, client, report, on_chunk)
        except _WriteFailed as failed:
            raise _fault(sweep, out, store, failed) from None


class _WriteFailed(Exception):
    """A write into the output folder failed (:func:`_writing`): ``.error`` (an
    ``OSError``), ``.table``: whether the table was written before it."""

    def __init__(self, error: OSError, table: bool = False) -> None:
        super().__init__(str(error))
        self.error, self.table = error, table


@contextlib.contextmanager
def _writing(table: bool = False) -> Iterator[None]:
    """Mark an ``OSError`` raised inside as a write into the output folder that failed
    (told in one line by :func:`_fault`), apart from any other (a cluster's connection)."""
    try:
        yield
    except OSError as exc:
        raise _WriteFailed(exc, table) from exc


def _fault(sweep: Sweep, out: Path, store: PointStore, failed: _WriteFailed) -> FolderFault:
    """The one line of a write that failed: the folder, why, what was kept."""
    if not store.directory.is_dir():
        kept = "nothing of this sweep is kept there (the folder is gone)"
    else:
        stored = len(store.done() & {p.key for p in sweep.points})
        kept = f"kept: {counted(stored, 'point')} of {sweep.size:,}, stored in {store.directory} (a rerun goes on)"
    table = f"the table {out / sweep.name}.parquet is written" if failed.table else "the table was not written"
    return FolderFault(f"cannot write in {quoted_path(out)}: {fault_reason(failed.error)}; {kept}; {table}")


def _sweep(
    sweep: Sweep,
    out: Path,
    store: PointStore,
    shown: Progress,
    started: float,
    workers: int | None,
    scheduler: str | None,
    client: Any,
    report: bool,
    on_chunk: Callable[[Any, int], None] | None,
) -> SweepResult:
    """:func:`run_sweep` once its output folder is locked."""
    table_file = out / f"{sweep.name}.parquet"
    folder = _check_outputs(sweep, out, report)
    done = store.done()
    for line in store.notices:
        shown.notice(line)
    # A fresh sweep whose points are not built here: its chunks go as grid places, each
    # worker building its points (none built on this machine); else the points not stored.
    grid = sweep.points.grid if isinstance(sweep.points, GridPoints) and not sweep.points.built and not done else None
    todo = [] if grid is not None else [p for p in sweep.points if p.key not in done]
    count = grid.size if grid is not None else len(todo)
    skipped = sweep.size - count
    failures: list[Failure] = []
    # the chunk files written now: first and last place, file, part, whether a worker wrote it
    spans: list[tuple[int, int, Path, Any, bool]] = []
    table_schema = sweep_schema(sweep) if count else None
    used_workers, dashboard = 0, None
    if count:
        own_client = client is None
        cluster = None
        if own_client and scheduler:
            client, dashboard = dask_cluster.connect(scheduler, shown.notice)
        elif own_client:
            planned, _ = local_workers(workers, count)  # checks the number; at most the cores and points
            started_workers, capped = local_workers(workers, math.ceil(count / chunk_size(sweep, count, planned)))
            if capped:
                shown.notice(capped)
            client, cluster = dask_cluster.start_local(started_workers)
            dashboard = dask_cluster.dashboard_link(client)
        else:
            dashboard = dask_cluster.dashboard_link(client)
        try:
            used_workers = dask_cluster.worker_count(client) if cluster is None else len(cluster.workers)
            shown.start(sweep.size, skipped, dashboard, used_workers)
            failures = _run(sweep, todo, grid, client, store, done, shown, used_workers, on_chunk, spans, table_schema)
            parts = _spliceable(spans) if skipped == 0 else None
            if parts is not None:
                copy = _copy_on_workers(client, used_workers) if all(staged for *_, staged in spans) else None
                with _writing():
                    table_path = splice_table(sweep, [part[:2] for part in parts], table_file, table_schema, copy)
            shown.close()
        except BaseException:
            shown.close(interrupted=True)
            raise
        finally:
            if own_client:
                dask_cluster.close(client, cluster)
    else:
        parts = None
    arrow = None
    if parts is None:
        shown_notices = len(store.notices)
        arrow = sweep_arrow(sweep, store.tables())
        for line in store.notices[shown_notices:]:  # a chunk damaged while the sweep ran
            shown.notice(line)
        with _writing():
            table_path = write_table(arrow, table_file, sweep)
    with _writing(table=True):
        folder.adopt(table_path)
    result = SweepResult(
        sweep,
        arrow,
        count - len(failures),
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
        from toolkit.sweeps.share import share_name, shared_notice, write_share_page

        with _writing(table=True):
            result = dataclasses.replace(result, report_path=write_report(result, out / f"{sweep.name}.html"))
            folder.adopt(result.report_path)
            share = write_share_page(result, out / share_name(sweep.name))
            if share is not None:
                folder.adopt(share)
            result = dataclasses.replace(result, share_path=share, notices=result.notices + shared_notice(sweep))
    return result


def _spliceable(spans: list[tuple[int, int, Path, Any, bool]]) -> list[tuple[Path, Any]] | None:
    """The chunk files written now (with what the splice needs of each) in grid order,
    when their points follow each other in it (no two chunks' places interleave): the
    table is then these files spliced; ``None`` otherwise."""
    ordered = sorted(spans, key=lambda span: span[0])
    if any(after[0] <= before[1] for before, after in itertools.pairwise(ordered)):
        return None
    return [(path, part) for _, _, path, part, _ in ordered]


def _copy_on_workers(client: Any, workers: int) -> Callable[[str, list[tuple[str, int, int, int]]], None]:
    """Copy the chunk files' bytes into the table file on the workers, which wrote those
    files and so see the folder (:func:`~.splice.copy_ranges`, one share of the chunks
    each, in parallel): the machine running the command copies none. Should a worker
    fail to, the copies are made here (each goes to its own place: copying one twice
    writes the same bytes)."""
    from toolkit.sweeps.splice import copy_ranges

    def copy(target: str, copies: list[tuple[str, int, int, int]]) -> None:
        target = os.path.abspath(target)  # the workers' working folder may be another
        copies = [(os.path.abspath(part), start, size, at) for part, start, size, at in copies]
        count = max(1, min(workers, len(copies)))
        shares = [copies[i::count] for i in range(count)]
        try:
            futures = [client.submit(copy_share, target, share, pure=False) for share in shares]
            faults = client.gather(futures)
        except Exception:  # a worker lost: copied here instead
            faults = [()]
        if any(fault is not None for fault in faults):  # or one that could not write there
            copy_ranges(target, copies)

    return copy


def _check_outputs(sweep: Sweep, out: Path, report: bool) -> OutputFolder:
    """Refuse, before any work, to write the table (and the report) of ``sweep`` in
    ``out`` over its own sweep file, a file the toolkit did not write there, or the table
    of another sweep of the same name (:func:`_check_table_is_ours`); return the folder
    that records what the run writes.

    The same sweep (same identity) resumes; a table that records no sweep is rebuilt from
    the stored points when the toolkit wrote it (unreadable: a disk that filled up)."""
    from toolkit.sweeps.share import share_name
    from toolkit.sweeps.store import table_sweep

    table = out / f"{sweep.name}.parquet"
    record = table_sweep(table)
    _check_table_is_ours(sweep, table, record)
    folder = OutputFolder(out, f"sweep {sweep.name}")
    names = [table.name, *([f"{sweep.name}.html", share_name(sweep.name)] if report else [])]
    # a table that records this sweep is the toolkit's, and so is its report beside it
    folder.check(names, [sweep.where], names if record is not None else ())
    return folder


def _check_table_is_ours(sweep: Sweep, path: Path, record: dict[str, Any] | None) -> None:
    """Refuse to write ``path`` when it holds the table of another sweep of the same name
    (``record``: what the table records, :func:`~.store.table_sweep`)."""
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


def _chunks(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def plan_chunks(sweep: Sweep, points: Sequence[Point], workers: int) -> list[list[Point]]:
    """Return the chunks (tasks) of ``points``, in the order they are sent.

    Of :func:`chunk_size` points each. When the calculator names the arguments that share
    cached work (``Calculator.shares``: the same pools, the same hand sizes), the points
    are grouped by them first and a group is kept whole in one chunk (split only when it
    is bigger than the sweep file's ``chunk``, or without one than a worker's share of
    the points; whole groups fill a chunk up to its size), so that one worker computes
    that work rather than each; and the chunks are sent largest values first
    (more dice, more cards usually take longer), so that the last chunks to finish are
    short ones and no worker waits long for the others at the end."""
    at = _shared_at(sweep)
    planned = _plan(sweep, len(points), lambda i: tuple(points[i].args[a][1] for a in at), workers)
    return [[points[i] for i in chunk] for chunk in planned]


def plan_lanes(values: Sequence[tuple[Any, ...]], lanes: int) -> list[int]:
    """Return the lane (``0 .. lanes - 1``) of each group of points, given by its values
    of the arguments that share cached work (``Calculator.shares``).

    The groups are dealt diagonally: a group's lane is the sum of its values' ranks (among
    the values each argument takes, :func:`_ordered`) modulo ``lanes``. Each lane then holds
    every value of each argument (a checkerboard on 2 lanes: 1 v 1, 1 v 3, 2 v 2 ... on one,
    1 v 2, 2 v 1 ... on the other), so that what a worker computes once per value of one
    argument (Fairy Meat: the tables of one hand size) serves several of its groups, and
    the lanes' loads are even when the work grows with each argument. E.g. hand sizes
    1..2 x 1..2 on 2 lanes: ``[0, 1, 1, 0]``."""
    if not values:
        return []
    ranks = [
        {v: r for r, v in enumerate(sorted({group[a] for group in values}, key=_ordered))}
        for a in range(len(values[0]))
    ]
    return [sum(rank[v] for rank, v in zip(ranks, group, strict=True)) % lanes for group in values]


def plan_places(sweep: Sweep, grid: Grid, workers: int) -> list[list[int]]:
    """Return the chunks of every place of ``grid`` (the points of ``sweep``, unbuilt),
    planned as :func:`plan_chunks` plans the points: the places of each chunk. The rules
    variants of one combination of the swept values share its arguments: grouped together
    (one look-up per combination, not per place)."""
    total = grid.size
    size = chunk_size(sweep, total, workers)
    if not _shared_at(sweep):
        return _chunks(range(total), size)
    return _fill(sweep, _place_groups(sweep, grid), total, size, workers)


def _place_groups(sweep: Sweep, grid: Grid) -> dict[tuple[Any, ...], list[int]]:
    """The places of ``grid`` by their values of the arguments that share cached work."""
    at = _shared_at(sweep)
    count = len(grid.variants)
    axis = {a: i for i, a in enumerate(grid.axes)}
    values = [[piece[0] for piece in grid.pieces[a]] for a in at]
    combinations = itertools.product(*(range(len(grid.pieces[a])) for a in grid.axes))
    groups: dict[tuple[Any, ...], list[int]] = {}
    try:
        for c, combo in enumerate(combinations):
            shared = tuple(v[combo[axis[a]]] if a in axis else v[0] for a, v in zip(at, values, strict=True))
            groups.setdefault(shared, []).extend(range(c * count, (c + 1) * count))
    except TypeError:  # a value that does not hash: grouped by its sort key instead
        groups = {}
        for p in range(grid.size):
            shared = tuple(_ordered(grid.value(p, grid.names[a])) for a in at)
            groups.setdefault(shared, []).append(p)
    return groups


def _shared_at(sweep: Sweep) -> list[int]:
    """The positions, among the calculator's arguments, of those that share cached work."""
    calc = sweep.calculator
    return [calc.param_names.index(name) for name in calc.shares if name in calc.param_names]


def _plan(sweep: Sweep, count: int, shared: Callable[[int], tuple[Any, ...]], workers: int) -> list[list[int]]:
    """The chunks of items ``0 .. count - 1`` (see :func:`plan_chunks`), ``shared(i)``
    giving item ``i``'s values of the arguments that share cached work."""
    size = chunk_size(sweep, count, workers)
    if not _shared_at(sweep):
        return _chunks(range(count), size)
    return _fill(sweep, _item_groups(count, shared), count, size, workers)


def _item_groups(count: int, shared: Callable[[int], tuple[Any, ...]]) -> dict[tuple[Any, ...], list[int]]:
    """Items ``0 .. count - 1`` by ``shared(i)`` (in one pass: sorted once per group)."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    try:
        for i in range(count):
            groups.setdefault(shared(i), []).append(i)
    except TypeError:  # a value that does not hash (a list): grouped by its sort key instead
        groups = {}
        for i in range(count):
            groups.setdefault(tuple(_ordered(v) for v in shared(i)), []).append(i)
    return groups


def _fill(
    sweep: Sweep,
    groups: dict[tuple[Any, ...], list[int]],
    count: int,
    size: int,
    workers: int,
    measure: Callable[[tuple[Any, ...]], int] | None = None,
) -> list[list[int]]:
    """The chunks of the ``groups`` of ``count`` items, largest shared values first (with
    ``measure``, the largest measure of a group first, then the largest values), each group
    whole in one chunk unless too big (see :func:`plan_chunks`)."""
    # A group is kept whole up to this size: the sweep file's chunk if given, else up to the
    # share that still gives each worker CHUNKS_PER_WORKER chunks.
    whole = size if sweep.chunk else max(size, math.ceil(count / (CHUNKS_PER_WORKER * max(workers, 1))))
    chunks: list[list[int]] = []

    def order(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return (measure(values) if measure else 0, tuple(_ordered(v) for v in values))

    for values in sorted(groups, key=order, reverse=True):
        members = groups[values]
        if chunks and len(chunks[-1]) + len(members) <= size:
            chunks[-1].extend(members)  # whole groups together, up to the chunk's size
        else:
            chunks.extend(_chunks(members, size) if len(members) > whole else [members])
    return chunks


def plan_work(
    sweep: Sweep, todo: list[Point], grid: Grid | None, addresses: list[str], workers: int
) -> list[tuple[list[Any], list[str] | None]]:
    """Return the chunks to send, in order: places of ``grid`` (every place), else points
    of ``todo``; each with the addresses of the workers it prefers (``None``: any).

    Planned by :func:`plan_places` or :func:`plan_chunks`; for a calculator whose groups
    share cached work with each other (``Calculator.deal_groups``), on several workers
    ``addresses``, the groups are first dealt to one lane per worker (:func:`plan_lanes`),
    each lane's chunks planned alike and preferring its worker, the lanes' chunks in turn;
    the last of each lane's chunks (its smallest: a quarter of them, at least one,
    :data:`OPEN_TAIL`) go to any worker, so that the lanes end together."""
    lanes = len(addresses)
    if not sweep.calculator.deal_groups or lanes < 2 or not _shared_at(sweep):
        chunks = plan_places(sweep, grid, workers) if grid is not None else plan_chunks(sweep, todo, workers)
        return [(chunk, None) for chunk in chunks]
    if grid is not None:
        groups = _place_groups(sweep, grid)
    else:
        at = _shared_at(sweep)
        groups = _item_groups(len(todo), lambda i: tuple(todo[i].args[a][1] for a in at))
    keys = list(groups)
    dealt: list[dict[tuple[Any, ...], list[int]]] = [{} for _ in range(lanes)]
    for key, lane in zip(keys, plan_lanes(keys, lanes), strict=True):
        dealt[lane][key] = groups[key]
    # each group's size by its first point (a group's points share the values that make it)
    firsts = [members[0] for members in groups.values()]
    built = [p for p, _ in grid.build(firsts)] if grid is not None else [todo[i] for i in firsts]
    measured = [sweep.calculator.measure(p.arguments(), p.rules) for p in built]
    sizes = {key: 0 if m is None else m[0] for key, m in zip(groups, measured, strict=True)}
    turns = []
    for w, lane in enumerate(dealt):
        count = sum(map(len, lane.values()))
        chunks = _fill(sweep, lane, count, chunk_size(sweep, count, 1), 1, sizes.__getitem__)
        if grid is None:
            chunks = [[todo[i] for i in chunk] for chunk in chunks]
        pinned = len(chunks) - max(1, len(chunks) // OPEN_TAIL)
        turns.append([(chunk, [addresses[w]] if i < pinned else None) for i, chunk in enumerate(chunks)])
    return [sent for turn in itertools.zip_longest(*turns) for sent in turn if sent is not None]


def _ordered(value: Any) -> tuple[int, Any]:
    """A sort key of any argument's value: numbers by size, anything else by its text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value)
    return (1, str(value))


def _run(
    sweep: Sweep,
    todo: list[Point],
    grid: Grid | None,
    client: Any,
    store: PointStore,
    done: set[str],
    shown: Progress,
    workers: int,
    on_chunk: Callable[[Any, int], None] | None,
    spans: list[tuple[int, int, Path, Any, bool]],
    table_schema: Any,
) -> list[Failure]:
    """Submit the chunks, store each as it finishes (adding to ``spans`` the first and
    last grid place of its points and its file); return the failures. The chunks of the
    points ``todo``, or with ``grid`` of its every place, sent as places (:class:`~.work.Places`:
    the workers build the points, and send back their definitions, from which the
    sweep's identity is worked out here: :meth:`~.grid.GridPoints.learn`)."""
    from distributed import as_completed

    from toolkit import __version__
    from toolkit.sweeps import fingerprint

    code = fingerprint.code_fingerprint()
    calc = sweep.calculator
    by_key = {p.key: p for p in todo}
    definitions: list[str | None] = [None] * (grid.size if grid is not None else 0)

    def members(chunk: list[Any]) -> list[Point]:
        return [p for p, _ in grid.build(chunk)] if grid is not None else chunk

    run_id = uuid.uuid4().hex[:8]
    directory: str | None = str(store.directory.parent.resolve())
    try:
        store.open_run(run_id)  # the workers that see it write their chunk files themselves
    except OSError:
        directory = None
    _warm_up(client, sweep.system, calc.name)
    schema = table_schema.serialize().to_pybytes()
    if grid is not None:
        sent = pickle.dumps(grid, protocol=pickle.HIGHEST_PROTOCOL)
    else:
        place = {p.key: i for i, p in enumerate(sweep.points)}
    planned = plan_work(sweep, todo, grid, dask_cluster.worker_addresses(client), workers)
    futures = {}
    for i, (chunk, where) in enumerate(planned):
        # one opaque value: Dask would otherwise walk every point's arguments looking for tasks
        if grid is not None:
            work = pickle.dumps((Places(sent, chunk), (schema, None)), protocol=pickle.HIGHEST_PROTOCOL)
        else:
            work = pickle.dumps(
                (
                    [(p.key, p.args, p.rules) for p in chunk],
                    (schema, [(place[p.key], tuple(map(_value, p.columns))) for p in chunk]),
                ),
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        future = client.submit(
            compute_chunk,
            sweep.system,
            calc.name,
            work,
            directory,
            run_id,
            pure=False,
            key=f"sweep-{sweep.name}-{run_id}-{i}",
            # run in the planned order (largest first): without it, Dask runs the chunks
            # that wait for a free worker in an order of its own (on two worker processes,
            # the first two, then the rest last-submitted first)
            priority=len(planned) - i,
            **({} if where is None else {"workers": where, "allow_other_workers": True}),
        )
        futures[future] = chunk
    failures: list[Failure] = []
    finished = 0
    try:
        waiting = as_completed(list(futures), loop=client.loop)
        for future in waiting:
            if future.status in ("pending", "lost"):
                # its result was lost with a worker after it finished (a worker killed while it
                # held it): the scheduler computes it again, so wait for it again
                waiting.add(future)
                continue
            chunk = futures.pop(future)
            if future.status != "finished":
                error = _chunk_error(future)
                if future.status == "finished":  # computed again while its error was asked for
                    futures[future] = chunk
                    waiting.add(future)
                    continue
                failures += [Failure(p, error) for p in members(chunk)]
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
                failures += [Failure(p, error) for p in members(chunk)]
                shown.update(len(chunk), len(chunk))
                continue
            if grid is not None:
                for place_of, definition in zip(chunk, outcome["definitions"], strict=True):
                    definitions[place_of] = definition
            errors = list(outcome["errors"])
            with _writing():
                if outcome.get("fault") is not None:  # the worker could not write its chunk file
                    raise OSError(*outcome["fault"])
                if outcome.get("staged") is not None:
                    path = store.commit(outcome["done"], run_id, outcome["staged"])
                else:
                    path = store.save(outcome["payload"], outcome["done"])
            if path is None:
                lost = "the worker's chunk file was not found in the output folder (removed meanwhile?)"
                errors += [(key, lost) for key in outcome["done"]]
                outcome["done"] = []
            if path is not None and outcome.get("span") is not None:
                spans.append((*outcome["span"], path, outcome.get("part"), outcome.get("staged") is not None))
            done.update(outcome["done"])
            if errors and grid is not None:
                by_key.update((p.key, p) for p in members(chunk))
            failures += [Failure(by_key[key], error) for key, error in errors]
            count = len(outcome["done"]) + len(errors)
            finished += count
            shown.update(count, len(errors))
            if on_chunk is not None:
                on_chunk(client, finished)
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        raise
    finally:
        with contextlib.suppress(OSError):
            store.close_run(run_id)  # and any chunk file staged for it but not stored
    if grid is not None and isinstance(sweep.points, GridPoints) and None not in definitions:
        sweep.points.learn([d for d in definitions if d is not None])
    return failures


def _warm_up(client: Any, system: str, name: str) -> None:
    """Have every worker, and every worker that joins later, import what the chunks of
    calculator ``name`` of ``system`` need (:class:`~.warm.SweepWarmUp`) before its
    first chunk: a worker plugin, registered once per calculator."""
    from toolkit.sweeps.warm import SweepWarmUp

    with contextlib.suppress(Exception):  # an old scheduler without plugins: the chunks import it
        client.register_plugin(SweepWarmUp(system, name), name=f"toolkit-sweep-warm-up-{system}-{name}")


def _chunk_error(future: Any) -> str:
    """The error of a chunk that did not finish (a worker lost too often, a cancellation)."""
    try:
        exc = future.exception(timeout=5)
    except Exception as inner:  # described, never raised
        exc = inner
    if exc is None:
        return f"the chunk was {future.status}"
    return f"{type(exc).__name__}: {exc}"
