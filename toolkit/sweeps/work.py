"""What a Dask worker runs: one chunk of grid points, each timed, each failure kept with
its point (the others go on), and the chunk's store file written where the worker can
see the output folder.

Only plain data crosses the wire: the calculator by ``(system, name)`` (each worker finds
it in its own registry), the points' keys, arguments and rules (frozen dataclasses), and
back a small summary: the finished points' keys, the errors and where the chunk's store
file was staged (:meth:`~toolkit.sweeps.store.PointStore.stage`). A worker that cannot see
the output folder (a cluster on other machines without a shared disk) sends the Parquet
bytes of the store file instead (:func:`~toolkit.sweeps.store.encode_columns`: encoded here
either way, so that the client at most writes them). A point's rows are built in bulk
(:meth:`~toolkit.sweeps.calculators.Calculator.columns`: no ``Fraction`` or ``Row`` object
per outcome).
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.sweeps import fingerprint
from toolkit.sweeps.calculators import calculator
from toolkit.sweeps.spec import point_definition
from toolkit.sweeps.splice import part_layout
from toolkit.sweeps.store import PointStore, encode_columns

__all__ = ["Places", "compute_chunk", "copy_share", "warm_worker"]

#: The longest error message kept for a failed point.
ERROR_CHARS = 500


@dataclass(frozen=True)
class Places:
    """A chunk sent as places of the sweep's grid (:class:`~.grid.Grid`, pickled: the
    same bytes for every chunk): the worker builds their points itself."""

    grid: bytes
    places: Sequence[int]

    def items(self) -> tuple[list[tuple[str, Any, Any]], list[tuple[int, tuple[Any, ...]]], list[str]]:
        """The chunk's points as ``(key, args, rules)``, their places with their column
        values (the layout's second part) and their definitions, in the places' order."""
        grid = pickle.loads(self.grid)
        items, places, definitions = [], [], []
        for place, (point, definition) in zip(self.places, grid.build(self.places), strict=True):
            items.append((point.key, point.args, point.rules))
            places.append((place, tuple(value for _, value in point.columns)))
            definitions.append(definition)
        return items, places, definitions


def compute_chunk(
    system: str,
    name: str,
    items: Sequence[tuple[str, Any, Any]] | bytes,
    directory: str | None = None,
    run: str | None = None,
    layout: tuple[bytes, Sequence[tuple[int, tuple[Any, ...]]]] | None = None,
) -> dict[str, Any]:
    """Compute the points ``items`` — ``(key, args, rules)`` — of calculator ``name`` of
    ``system``. Return ``{"code", "version", "payload", "staged", "done", "errors"}``: the
    fingerprint of the worker's toolkit code (a point's key names the code: the client
    refuses rows of other code) and its version string, the finished points' store file
    — staged in ``directory`` by this worker when it sees the marker of run ``run`` there
    (``staged``: its size in bytes; ``payload`` empty), else as Parquet bytes
    (``payload``; ``staged`` ``None``) — their keys, and ``(key, error)`` for each point
    that raised (its type and message); ``fault``: ``(errno, strerror, filename)`` when the
    chunk file could not be written there (a full disk, a read-only or removed folder: the
    client tells it once; nothing is raised here, so no worker logs a traceback).

    With ``layout`` — the sweep table's Arrow schema (serialized) and each item's place
    in the grid and column values — the chunk file also holds the sweep table's columns,
    its points in grid order (``span``: the first and last place), so that the table is
    the chunk files spliced (:mod:`.splice`; ``part``: what the splice needs of this file,
    worked out here: :func:`~.splice.part_layout`). ``items`` may come pickled together with
    the layout, as bytes ``pickle((items, layout))``: one value that Dask sends as it is;
    and as :class:`Places` (with the layout's schema only), the points then built here
    and their definitions sent back (``definitions``, in the places' order).
    """
    if isinstance(items, bytes):
        items, layout = pickle.loads(items)
    definitions = None
    if isinstance(items, Places):
        items, placed_columns, definitions = items.items()
        layout = None if layout is None else (layout[0], placed_columns)
        defined = {key: d for (key, _, _), d in zip(items, definitions, strict=True)}
    else:  # what each point asks, recorded in the chunk file beside its key (the hash of it)
        defined = {key: point_definition(system, name, dict(args), rules) for key, args, rules in items}
    calc = calculator(system, name)
    finished, errors, placed = [], [], []
    items = [(key, args, _interned(rules)) for key, args, rules in items]
    places = dict(zip((key for key, _, _ in items), layout[1], strict=True)) if layout is not None else {}
    for key, args, rules in items:
        started = time.perf_counter()
        try:
            columns = calc.columns(calc.call(dict(args), rules))
        except Exception as exc:  # a failing point is reported, the others go on
            message = str(exc) or repr(exc)
            if len(message) > ERROR_CHARS:
                message = message[:ERROR_CHARS] + "…"
            errors.append((key, f"{type(exc).__name__}: {message}"))
            continue
        finished.append((key, columns, time.perf_counter() - started))
    from toolkit import __version__

    code = fingerprint.code_fingerprint()
    table_layout, span = None, None
    if layout is not None and finished:
        import pyarrow as pa

        finished.sort(key=lambda point: places[point[0]][0])
        placed = [places[key] for key, _, _ in finished]
        table_layout = (pa.ipc.read_schema(pa.py_buffer(layout[0])), system, name, placed)
        span = (placed[0][0], placed[-1][0])
    done = [key for key, _, _ in finished]
    payload = encode_columns(finished, code, table_layout, defined) if finished else b""
    part = part_layout(payload, table_layout[0].names) if table_layout is not None else None
    staged, fault = None, None
    if payload and directory is not None and run is not None:
        store = PointStore(directory)
        try:
            if store.sees_run(run) and store.stage(payload, done, run) is not None:
                staged = len(payload)
                payload = b""
        except OSError as exc:  # a full disk, a read-only or removed folder: the client says it once
            fault, payload = (exc.errno, exc.strerror, exc.filename), b""
    return {
        "code": code,
        "version": __version__,
        "payload": payload,
        "staged": staged,
        "done": done,
        "errors": errors,
        "span": span,
        "part": part,
        "definitions": definitions,
        "fault": fault,
    }


#: One instance of each rules this worker has computed with (see :func:`_interned`).
_RULES: dict[Any, Any] = {}


def _interned(rules: Any) -> Any:
    """The first instance of rules equal to ``rules`` that this worker saw. Each chunk
    arrives with its own (unpickled) rules objects; the calculators' caches are keyed by
    rules, and a key found by identity is found at once, while an equal but distinct
    object is compared field by field on every look-up: a plain loop, which passes the
    same objects every time, would otherwise look up faster than a worker."""
    if rules is None:
        return None
    try:
        return _RULES.setdefault(rules, rules)
    except TypeError:  # rules that do not hash: used as they are
        return rules


def copy_share(target: str, copies: Sequence[tuple[str, int, int, int]]) -> tuple[Any, ...] | None:
    """Copy a worker's share of a table's chunk files into ``target``
    (:func:`~toolkit.sweeps.splice.copy_ranges`); return ``None``, or the error of a copy
    that failed (``(errno, strerror, filename)``: told by the client, not raised here,
    so that no worker logs a traceback)."""
    from toolkit.sweeps.splice import copy_ranges

    try:
        copy_ranges(target, copies)
    except OSError as exc:
        return (exc.errno, exc.strerror, exc.filename)
    return None


def warm_worker(system: str, name: str) -> None:
    """Import what a chunk of calculator ``name`` of ``system`` needs (the system's
    package, its calculator, Arrow and Parquet) in this worker process."""
    import pyarrow.parquet  # noqa: F401

    calculator(system, name)
    fingerprint.code_fingerprint()
