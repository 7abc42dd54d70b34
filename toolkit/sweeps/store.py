"""The result store of a sweep: every finished point kept as soon as it is done, and the
tidy table built from them.

Finished points are written in ``DIR/.points/``, one small Parquet file per finished
chunk (encoded on the worker: :func:`encode_chunk`), each written to a temporary file and
moved into place with :func:`os.replace` (atomic): an interrupted sweep leaves whole files
only. A point is known by its key (:func:`~toolkit.sweeps.spec.point_key`: system,
calculator, arguments, every rules field and the fingerprint of the toolkit's code), so a
rerun skips every point already stored, whatever chunks it was computed in.

A rerun trusts a stored chunk only after checking it (:func:`chunk_problem`): read whole,
the store's columns and types, the code fingerprint, each point's key the hash of the
point's full definition recorded beside it (system, calculator, every argument and
every rules field: a chunk of another sweep relabelled with this one's keys is not
trusted), the checksum of its rows and definitions recorded in its metadata, no empty
cell, no point twice, each point's probabilities summing to 1.
A chunk that fails is set aside with one line and its points computed again
(:class:`PointStore`); the table is built from trusted chunks only. The table file
records the identity of its sweep (:func:`table_sweep`), so that two different sweeps of
the same name cannot overwrite each other's table.

The table (:func:`sweep_table`) has one row per grid point and outcome: the point's
arguments and rules columns, ``outcome``, ``kind`` (``"probability"``, ``"chance"`` or ``"value"``),
the exact number as ``numerator`` and ``denominator`` (decimal integers as text: exact
at any size; empty when the calculator reports a float only), ``value`` (float),
``low`` and ``high`` (the interval the calculator gives for the number: the value twice
when exact; empty for an estimate whose calculator gives no interval), ``exact`` (false
for Monte Carlo frequencies and floats) and ``seconds`` (the point's time on its worker).
It is read from the stored chunks with Arrow (no row-by-row Python; one key looked up per
point, not per row), so that the client's share of a big sweep stays small.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Iterable
from fractions import Fraction
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.files import write_atomic
from toolkit.notation import excerpt
from toolkit.sweeps import fingerprint
from toolkit.sweeps.calculators import ROW_COLUMNS, Row, rows_columns
from toolkit.sweeps.grid import GridPoints, definition_key

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.sweeps.spec import Sweep

__all__ = [
    "PointStore",
    "chunk_checksum",
    "chunk_problem",
    "chunk_table",
    "columns_table",
    "encode_chunk",
    "encode_columns",
    "rows_checksum",
    "store_schema",
    "grid_columns",
    "layout_columns",
    "splice_table",
    "sweep_arrow",
    "sweep_schema",
    "sweep_table",
    "table_frame",
    "table_sweep",
    "write_atomic",
    "write_table",
    "TABLE_COLUMNS",
    "FLOAT_SUM_TOLERANCE",
]

#: The columns every sweep table has after the point's own columns.
TABLE_COLUMNS = ("outcome", "kind", "numerator", "denominator", "value", "low", "high", "exact", "seconds")
#: How far from 1 the float-only probabilities of a stored point may sum.
FLOAT_SUM_TOLERANCE = 1e-9
#: The key-value metadata of a chunk file: the code fingerprint, the points' definitions
#: and the checksum of both with the rows.
CODE_KEY, DEFINITIONS_KEY, CHECKSUM_KEY = "toolkit.code", "toolkit.definitions", "toolkit.checksum"
#: The key-value metadata of a table file: its sweep (identity, title, system, calculator).
SWEEP_KEY = "toolkit.sweep"


def store_schema() -> Any:
    """The Arrow schema of a stored chunk: ``key``, ``row`` and :data:`TABLE_COLUMNS`."""
    import pyarrow as pa

    return pa.schema(
        [
            ("key", pa.string()),
            ("row", pa.int32()),
            ("outcome", pa.string()),
            ("kind", pa.string()),
            ("numerator", pa.string()),
            ("denominator", pa.string()),
            ("value", pa.float64()),
            ("low", pa.float64()),
            ("high", pa.float64()),
            ("exact", pa.bool_()),
            ("seconds", pa.float64()),
        ]
    )


def encode_chunk(
    points: Iterable[tuple[str, list[Row], float]], code: str | None = None, definitions: Any = None
) -> bytes:
    """Return the Parquet bytes of finished points ``(key, rows, seconds)``: one row per
    point and outcome (``key``, ``row``: the outcome's place in the point, the columns of
    :data:`TABLE_COLUMNS`; exact numbers as decimal text). The file's key-value metadata
    records the fingerprint of the code that computed them (``code``, default this
    process's: :func:`~.fingerprint.code_fingerprint`), each point's definition
    (``definitions``: ``{key: definition}``, :func:`~.spec.point_definition`: what the
    point asks, of which its key is the hash with the code's fingerprint) and the checksum
    of both (:func:`chunk_checksum`), which a rerun checks before trusting the file."""
    return encode_columns(
        [(key, rows_columns(rows), seconds) for key, rows, seconds in points], code, None, definitions
    )


def encode_columns(
    points: Iterable[tuple[str, dict[str, list[Any]], float]],
    code: str | None = None,
    layout: Any = None,
    definitions: Any = None,
) -> bytes:
    """Return the Parquet bytes of finished points ``(key, columns, seconds)``, each
    point's rows given as :data:`~.calculators.ROW_COLUMNS` (what
    :meth:`~.calculators.Calculator.columns` returns): as :func:`encode_chunk`, with the
    sweep table's further columns when given their ``layout`` (:func:`columns_table`)."""
    import pyarrow.parquet as pq

    points = list(points)
    table = columns_table(points, layout)
    known = dict(definitions or {})
    recorded = {key: known[key] for key, _, _ in points if key in known}
    metadata = {
        CODE_KEY: code or fingerprint.code_fingerprint(),
        DEFINITIONS_KEY: json.dumps(recorded, sort_keys=True),
        CHECKSUM_KEY: chunk_checksum(table, recorded),
    }
    buffer = io.BytesIO()
    pq.write_table(table.replace_schema_metadata(metadata), buffer, use_dictionary=DICTIONARY_COLUMNS)
    return buffer.getvalue()


def chunk_checksum(table: Any, definitions: dict[str, str]) -> str:
    """Return the checksum of a chunk: of its rows (:func:`rows_checksum`) and of its
    points' definitions ``{key: definition}``, so that neither changes unseen."""
    text = rows_checksum(table) + json.dumps(definitions, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


#: The stored columns worth a dictionary (few distinct values); the numerators are not.
DICTIONARY_COLUMNS = ["key", "outcome", "kind", "denominator"]


def chunk_table(points: Iterable[tuple[str, list[Row], float]]) -> Any:
    """Return the Arrow table of finished points ``(key, rows, seconds)`` in the store's
    schema (:func:`store_schema`): ``low`` and ``high`` are each row's :meth:`~Row.bounds`."""
    return columns_table([(key, rows_columns(rows), seconds) for key, rows, seconds in points])


def columns_table(points: Iterable[tuple[str, dict[str, list[Any]], float]], layout: Any = None) -> Any:
    """Return the Arrow table of finished points ``(key, columns, seconds)`` in the
    store's schema (:func:`store_schema`), built column by column: the points' columns
    joined, the key and the time repeated over each point's rows. With ``layout`` —
    ``(schema, system, calculator, [(grid index, column values)] of the points)`` — the
    sweep table's further columns follow (:func:`layout_columns`)."""
    import numpy as np
    import pyarrow as pa

    keys, counts, seconds, parts = [], [], [], []
    for key, columns, spent in points:
        keys.append(key)
        counts.append(len(columns["outcome"]))
        seconds.append(spent)
        parts.append(columns)
    schema = store_schema()
    total = sum(counts)
    if not total:
        return schema.empty_table()
    owner = np.repeat(np.arange(len(keys)), counts)
    starts = np.repeat(np.cumsum([0, *counts[:-1]]), counts)

    def joined(name: str) -> list[Any]:
        return list(chain.from_iterable(part[name] for part in parts))

    columns = {
        "key": pa.array(keys, pa.string()).take(pa.array(owner)),
        "row": pa.array(np.arange(total) - starts, pa.int32()),
        **{name: pa.array(joined(name), schema.field(name).type) for name in ROW_COLUMNS},
        "seconds": pa.array(np.repeat(np.asarray(seconds, dtype=np.float64), counts)),
    }
    if layout is None:
        return pa.table(columns, schema=schema)
    table_schema, system, name, placed = layout
    extra = layout_columns(table_schema, system, name, counts, placed)
    fields = [*schema, *(f for f in table_schema if f.name in extra)]
    return pa.table({**columns, **extra}, schema=pa.schema(fields))


def rows_checksum(table: Any) -> str:
    """Return the checksum of a chunk's rows: a hash of every cell of the store's columns
    and of any further column (the sweep table's, :func:`sweep_schema`), their nulls
    included, independent of how Arrow or Parquet lay the columns out."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    digest = hashlib.sha256()
    ours = ("key", "row", *TABLE_COLUMNS)
    for name in [*ours, *(c for c in table.column_names if c not in ours)]:
        column = table.column(name).combine_chunks()
        digest.update(f"{name}:{len(column)}:{column.type};".encode())
        if not len(column):
            continue
        digest.update(np.asarray(pc.is_valid(column).to_numpy(zero_copy_only=False)).tobytes())
        if pa.types.is_string(column.type):
            filled = pc.fill_null(column, "")
            offsets = np.frombuffer(filled.buffers()[1], dtype=np.int32)[
                filled.offset : filled.offset + len(filled) + 1
            ]
            data = filled.buffers()[2]
            digest.update((offsets - offsets[0]).tobytes())
            if data is not None:
                digest.update(memoryview(data)[int(offsets[0]) : int(offsets[-1])])
        else:
            empty = False if pa.types.is_boolean(column.type) else 0
            digest.update(np.asarray(pc.fill_null(column, empty).to_numpy(zero_copy_only=False)).tobytes())
    return digest.hexdigest()


def chunk_problem(table: Any, metadata: dict[bytes, bytes] | None) -> str | None:
    """Return why a stored chunk (its Arrow table and key-value metadata) cannot be
    trusted, in a few words, or ``None`` when it can: a missing column or one of another
    type, no or another code fingerprint, rows or definitions that do not match their
    checksum, a point whose key is not the hash of its recorded definition (the rows of
    another point, relabelled), empty
    cells, a point's row twice or missing, a point whose probabilities do not sum to 1
    (exact rows exactly, float-only rows within :data:`FLOAT_SUM_TOLERANCE`)."""
    expected = store_schema()
    for field in expected:
        if field.name not in table.column_names:
            return f"it has no column {field.name!r}"
        found = table.schema.field(field.name).type
        if found != field.type:
            return f"its column {field.name!r} holds {found}, not {field.type}"
    metadata = metadata or {}
    code = metadata.get(CODE_KEY.encode(), b"").decode(errors="replace")
    if not code:
        return "it records no code fingerprint (written by an older toolkit)"
    ours = fingerprint.code_fingerprint()
    if code != ours:
        return f"it was computed by other toolkit code (fingerprint {excerpt(code)}, this toolkit's {ours})"
    try:
        definitions = json.loads(metadata.get(DEFINITIONS_KEY.encode(), b"{}"))
    except ValueError:
        definitions = None
    if not isinstance(definitions, dict) or not all(isinstance(d, str) for d in definitions.values()):
        return "its points' definitions cannot be read"
    if metadata.get(CHECKSUM_KEY.encode(), b"").decode(errors="replace") != chunk_checksum(table, definitions):
        return "its rows do not match their checksum"
    for key in table.column("key").unique().to_pylist():
        definition = definitions.get(key)
        if definition is None:
            return f"it records no definition of point {excerpt(key)}"
        if definition_key(definition, ours) != key:
            return f"point {excerpt(key)} is not the point its definition gives (a chunk of another sweep, relabelled?)"
    return _content_problem(table.select(list(expected.names)))


def _interval_problem(table: Any) -> str | None:
    """A row whose interval is half empty, does not hold its value, or (exact) is not
    the value twice."""
    import pyarrow.compute as pc

    low, high, value = table.column("low"), table.column("high"), table.column("value")
    if not pc.all(pc.equal(pc.is_null(low), pc.is_null(high))).as_py():
        return "a row has a low bound without a high one or the reverse"
    slack = pc.multiply(pc.add(pc.abs(value), 1.0), 1e-12)
    inside = pc.and_(pc.less_equal(pc.subtract(low, slack), value), pc.less_equal(value, pc.add(high, slack)))
    if pc.any(pc.invert(inside)).as_py():
        return "a row's interval (low, high) does not hold its value"
    exact = pc.and_(table.column("exact"), pc.or_(pc.not_equal(low, value), pc.not_equal(high, value)))
    if pc.any(exact).as_py():
        return "an exact row has an interval other than its value"
    if pc.any(pc.and_(table.column("exact"), pc.is_null(low))).as_py():
        return "an exact row has no interval"
    return None


def _points_together(table: Any) -> bool:
    """Whether each point's rows are consecutive, numbered 0, 1, ...: a new point starts
    exactly where the row number goes back to 0 (what :func:`sweep_arrow` relies on)."""
    import numpy as np
    import pyarrow.compute as pc

    key = table.column("key").combine_chunks()
    row = np.asarray(table.column("row").to_numpy(), dtype=np.int64)
    new = np.asarray(pc.not_equal(key.slice(1), key.slice(0, len(key) - 1)).to_numpy(zero_copy_only=False))
    steps = row[1:] == row[:-1] + 1
    return bool(row[0] == 0 and np.all(new == (row[1:] == 0)) and np.all(new | steps))


def _content_problem(table: Any) -> str | None:
    """What the checksum cannot vouch for (a file rewritten with a fresh checksum): every
    cell filled (``numerator`` and ``denominator`` empty together, ``low`` and ``high``
    too), each point's rows numbered 0..n-1 once each, each interval holding its value
    (the value itself when exact), each point's probabilities (the outcomes of its
    distribution, not its ``"chance"`` rows of single events) summing to 1."""
    import pyarrow.compute as pc

    for name in ("key", "row", "outcome", "kind", "value", "exact", "seconds"):
        if table.column(name).null_count:
            return f"its column {name!r} has empty cells"
    if (
        not pc.equal(pc.is_null(table.column("numerator")), pc.is_null(table.column("denominator")))
        .to_numpy(zero_copy_only=False)
        .all()
    ):
        return "a row has a numerator without a denominator or the reverse"
    interval = _interval_problem(table)
    if interval is not None:
        return interval
    counts = table.group_by("key").aggregate(
        [("row", "count"), ("row", "min"), ("row", "max"), ("row", "count_distinct")]
    )
    for key, count, low, high, distinct in zip(
        *(counts.column(c).to_pylist() for c in ("key", "row_count", "row_min", "row_max", "row_count_distinct")),
        strict=True,
    ):
        if distinct != count:
            return f"it holds rows of point {excerpt(key)} twice"
        if low != 0 or high != count - 1:
            return f"point {excerpt(key)} misses rows (it has {count} of rows 0..{high})"
    if len(table) and not _points_together(table):
        return "a point's rows are not together, in order from row 0"
    probabilities = table.filter(pc.equal(table.column("kind"), "probability"))
    sums: dict[str, list[Any]] = {}  # key -> [exact sum, float sum, exact rows, float-only rows]
    for key, numerator, denominator, value in zip(
        *(probabilities.column(c).to_pylist() for c in ("key", "numerator", "denominator", "value")), strict=True
    ):
        total = sums.setdefault(key, [Fraction(0), 0.0, 0, 0])
        if numerator is None:
            total[1] += value
            total[3] += 1
            continue
        try:
            total[0] += Fraction(int(numerator), int(denominator))
        except (ValueError, ZeroDivisionError):
            number = f"{excerpt(numerator)}/{excerpt(denominator)}"
            return f"point {excerpt(key)} has a number that is not a fraction ({number})"
        total[2] += 1
    for key, (exact, floats, exact_rows, float_rows) in sums.items():
        if exact_rows and float_rows:
            return f"point {excerpt(key)} mixes exact and float-only probabilities"
        if exact_rows and exact != 1:
            return f"the probabilities of point {excerpt(key)} sum to {exact}, not 1"
        if float_rows and abs(floats - 1) > FLOAT_SUM_TOLERANCE:
            return f"the probabilities of point {excerpt(key)} sum to {floats:.12g}, not 1"
    return None


class PointStore:
    """The finished points of the sweeps written to one output folder (``DIR/.points/``).

    A chunk file is trusted only once it is checked (:func:`chunk_problem`, or written by
    this store): one that cannot be read whole or fails a check is renamed
    ``NAME.parquet.ignored`` (or, if it cannot be renamed, left to be overwritten), told in
    one line of :attr:`notices`, and counted in :attr:`set_aside`; its points are not
    :meth:`done`, so they are computed again. An entry that is not a regular file (a
    folder named ``x.parquet``) is skipped, with a line.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory) / ".points"
        #: One line per chunk set aside or entry skipped, in the order found.
        self.notices: list[str] = []
        #: The number of chunks set aside (their points computed again).
        self.set_aside = 0
        self._trusted: dict[Path, tuple[int, int]] = {}  # checked or written here: (size, mtime)
        self._skipped: set[Path] = set()

    def files(self) -> list[Path]:
        """The stored chunk files (regular files only: any other entry is skipped)."""
        if not self.directory.is_dir():
            return []
        found = []
        for path in sorted(self.directory.glob("*.parquet")):
            if path.is_file():
                found.append(path)
            elif path not in self._skipped:
                self._skipped.add(path)
                self.notices.append(f"skipped {path}: it is not a file (only chunk files are read)")
        return found

    def _load(self, path: Path, columns: list[str] | None = None) -> Any:
        """The chunk at ``path`` as an Arrow table if it can be trusted, else ``None``
        (set aside, with a line)."""
        import pyarrow.parquet as pq

        try:
            stat = path.stat()
            if self._trusted.get(path) == (stat.st_size, stat.st_mtime_ns):
                return pq.read_table(path, columns=columns)
            parquet = pq.ParquetFile(path)
            metadata = parquet.schema_arrow.metadata
            table = parquet.read()
            problem = chunk_problem(table, metadata)
        except FileNotFoundError:  # removed meanwhile (by another run): nothing to trust
            return None
        except Exception as exc:  # any failure to read a damaged file: the file is set aside
            problem = (
                f"it cannot be read whole ({excerpt(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)})"
            )
        if problem is not None:
            self._set_aside(path, problem)
            return None
        self._trusted[path] = (stat.st_size, stat.st_mtime_ns)
        return table if columns is None else table.select(columns)

    def _set_aside(self, path: Path, problem: str) -> None:
        aside = path.with_name(path.name + ".ignored")
        try:
            os.replace(path, aside)
            where = f"renamed {aside.name}"
        except OSError:  # a read-only folder: the file stays, and the recomputed chunk overwrites it
            where = "left in place"
        self.set_aside += 1
        self.notices.append(f"ignored {path}: {problem} ({where}; its points are computed again)")

    def done(self) -> set[str]:
        """Return the keys of every point of a trusted chunk (see the class)."""
        keys: set[str] = set()
        for path in self.files():
            table = self._load(path, ["key"])
            if table is not None:
                keys.update(table.column("key").unique().to_pylist())
        return keys

    def save(self, payload: bytes, keys: list[str]) -> Path | None:
        """Store the points ``keys`` encoded by :func:`encode_chunk` (one file, written
        atomically); return its path (``None`` when ``keys`` is empty)."""
        if not keys:
            return None
        self.directory.mkdir(exist_ok=True)  # not its parent: an output folder removed meanwhile is not made again
        path = self._chunk_path(keys)
        write_atomic(path, payload)
        stat = path.stat()
        self._trusted[path] = (stat.st_size, stat.st_mtime_ns)
        return path

    def _chunk_path(self, keys: list[str]) -> Path:
        return self.directory / f"{hashlib.sha256(''.join(keys).encode()).hexdigest()[:24]}.parquet"

    # -- chunk files written by the workers -------------------------------------------------
    # A worker that sees the output folder writes its chunk's file itself, under a hidden
    # staging name (never read as a chunk); the client moves it into place once it has
    # checked the worker's code, so that only the client decides what is stored.
    def open_run(self, run: str) -> None:
        """Leave the marker of run ``run`` (a worker that reads it back sees this folder),
        and remove the files staged for runs that are over (a worker killed mid-write)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        for path in self.directory.glob(".*.staged"):
            if not self._marker(path.suffixes[-2].lstrip(".") if len(path.suffixes) > 1 else "").is_file():
                with contextlib.suppress(OSError):
                    path.unlink()
        write_atomic(self._marker(run), run.encode())

    def sees_run(self, run: str) -> bool:
        """Whether this folder holds the marker of run ``run`` (:meth:`open_run`)."""
        try:
            return self._marker(run).read_bytes() == run.encode()
        except OSError:
            return False

    def stage(self, payload: bytes, keys: list[str], run: str) -> Path | None:
        """Write a chunk's bytes under its staging name for run ``run``; return its path,
        or ``None`` when the run is over meanwhile (interrupted: the file is removed).

        Written in place, not through a temporary file: a staged file is never read as a
        chunk, and :meth:`commit` moves it only once the worker has said its size, after
        the last byte was written."""
        path = self._staged_path(keys, run)
        try:
            with open(path, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:  # a full disk: no half file is left
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        if not self.sees_run(run):
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        return path

    def _staged_path(self, keys: list[str], run: str) -> Path:
        return self.directory / f".{self._chunk_path(keys).stem}.{run}.staged"

    def commit(self, keys: list[str], run: str, size: int) -> Path | None:
        """Move the chunk file of the points ``keys`` staged for run ``run`` into place and
        trust it; return its path, or ``None`` (nothing stored) when there is no such
        staged file or it is not of the ``size`` the worker wrote.

        Raises:
            OSError: the folder cannot be written, or was removed."""
        staged = self._staged_path(keys, run)
        try:
            if staged.stat().st_size != size:
                return None
        except FileNotFoundError:
            if not self.directory.is_dir():  # the folder itself was removed
                raise
            return None
        path = self._chunk_path(keys)
        os.replace(staged, path)
        stat = path.stat()
        self._trusted[path] = (stat.st_size, stat.st_mtime_ns)
        return path

    def close_run(self, run: str) -> None:
        """Remove the marker of run ``run`` and the chunk files staged for it and not
        moved into place (a cancelled chunk's)."""
        with contextlib.suppress(OSError):
            self._marker(run).unlink()  # first: a worker that stages after this removes its own file
        for path in self.directory.glob(f".*.{run}.staged"):
            with contextlib.suppress(OSError):
                path.unlink()

    def _marker(self, run: str) -> Path:
        return self.directory / f".run-{run}"

    def tables(self) -> list[Any]:
        """Every trusted stored chunk, as an Arrow table (``key``, ``row`` and :data:`TABLE_COLUMNS`)."""
        return [t for t in (self._load(path) for path in self.files()) if t is not None]

    def rows(self) -> pd.DataFrame:
        """Every stored row (``key``, ``row`` and :data:`TABLE_COLUMNS`), one per point and outcome."""
        import pyarrow as pa

        tables = [t.replace_schema_metadata(None) for t in self.tables()]
        frame = pa.concat_tables(tables).to_pandas() if tables else empty_rows().to_pandas()
        return frame.drop_duplicates(["key", "row"])


def empty_rows() -> Any:
    """The stored rows of no point: an empty Arrow table with the store's columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pq.read_table(pa.BufferReader(encode_chunk([])))


def sweep_table(sweep: Sweep, tables: list[Any]) -> pd.DataFrame:
    """Return the tidy table of ``sweep`` from the stored chunks ``tables``
    (:meth:`PointStore.tables`) as a pandas frame: :func:`sweep_arrow` (its text columns
    backed by Arrow, not one Python string per cell)."""
    return table_frame(sweep_arrow(sweep, tables))


def table_frame(table: Any) -> pd.DataFrame:
    """Return a sweep's Arrow table as a pandas frame, its text columns kept in Arrow
    (``string[pyarrow]``; ``numerator`` and ``denominator`` are ``string``, as always)."""
    import pandas as pd
    import pyarrow as pa

    text = pd.StringDtype("pyarrow")
    return table.to_pandas(types_mapper={pa.string(): text, pa.large_string(): text}.get)


def sweep_schema(sweep: Sweep, points: Any = None) -> Any:
    """Return the Arrow schema of the sweep's table (:func:`sweep_arrow`): ``point``,
    ``system``, ``calculator``, the point's columns (the types of their values over the
    whole grid, text when mixed: ``points``, the grid's columns as an Arrow table, if
    already made), :data:`TABLE_COLUMNS`, ``toolkit_version``."""
    import pyarrow as pa

    if points is None and isinstance(sweep.points, GridPoints) and not sweep.points.built:
        # points not built: each column's values over the grid once each (the same types)
        columns = {name: _column(tuple(values)) for name, values in sweep.points.grid.column_values().items()}
        points = pa.schema([(name, column.type) for name, column in columns.items()]).empty_table()
    grid = points if points is not None else grid_columns(sweep)
    stored = store_schema()
    return pa.schema(
        [
            ("point", pa.int64()),
            ("system", pa.string()),
            ("calculator", pa.string()),
            *((name, grid.schema.field(name).type) for name in grid.column_names),
            *((name, stored.field(name).type) for name in TABLE_COLUMNS),
            ("toolkit_version", pa.string()),
        ]
    )


def grid_columns(sweep: Sweep) -> Any:
    """The point's columns of every grid point, as an Arrow table (one row per point)."""
    import pyarrow as pa

    names = [c for c, _ in sweep.points[0].columns]
    values = list(zip(*(tuple(v for _, v in p.columns) for p in sweep.points), strict=True))
    return pa.table({name: _column(column) for name, column in zip(names, values, strict=True)})


def layout_columns(schema: Any, system: str, name: str, counts: list[int], points: list[tuple[int, tuple]]) -> dict:
    """The sweep table's columns of a chunk (:func:`sweep_schema`, the stored ones aside)
    for points ``(index in the grid, the point's column values)`` of ``counts`` rows each:
    what a worker adds to its chunk file, so that the table is its chunk files spliced
    (:mod:`.splice`)."""
    import numpy as np
    import pyarrow as pa

    from toolkit import __version__

    owner = pa.array(np.repeat(np.arange(len(points)), counts))
    rows = int(sum(counts))
    same = pa.array(np.zeros(rows, dtype=np.int32))
    columns: dict[str, Any] = {
        "point": pa.array([i for i, _ in points], pa.int64()).take(owner),
        "system": pa.array([system], pa.string()).take(same),
        "calculator": pa.array([name], pa.string()).take(same),
    }
    grid = [f for f in schema if f.name not in ("point", "system", "calculator", "toolkit_version", *TABLE_COLUMNS)]
    for at, field in enumerate(grid):
        values = [v[at] for _, v in points]
        try:
            array = pa.array(values, field.type)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed values: as text, as the whole grid's column
            array = pa.array([str(v) for v in values], field.type)
        columns[field.name] = array.take(owner)
    columns["toolkit_version"] = pa.array([__version__], pa.string()).take(same)
    return columns


def sweep_arrow(sweep: Sweep, tables: list[Any]) -> Any:
    """Return the tidy table of ``sweep`` from the stored chunks ``tables``
    (:meth:`PointStore.tables`) as an Arrow table: one row per point and outcome, in grid
    order (``point``, ``system``, ``calculator``, the point's columns,
    :data:`TABLE_COLUMNS`, ``toolkit_version``); points not stored (and rows of other
    sweeps in the same folder) are left out, and a point stored twice (in two chunk files)
    is taken from one of them.

    A point's rows are consecutive in a chunk and start at row 0 (:func:`chunk_problem`
    checks it), so only the first row of each point is looked up by key, all chunks at
    once; the rows are sorted only when the chunks do not already give the grid order."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from toolkit import __version__

    keys = pa.array([p.key for p in sweep.points], pa.string())
    names = [c for c, _ in sweep.points[0].columns]
    points = grid_columns(sweep)
    tables = [t for t in tables if len(t)] or [empty_rows()]
    starts, lengths = [], []
    for table in tables:
        row = np.asarray(table.column("row").to_numpy(), dtype=np.int64)
        first = np.flatnonzero(row == 0)
        starts.append(table.column("key").take(pa.array(first)))
        lengths.append(np.diff(np.append(first, len(row))))
    found = pc.index_in(pa.concat_arrays([c for s in starts for c in s.chunks] or [pa.array([], pa.string())]), keys)
    found = np.asarray(found.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
    located, at = [], 0
    for table, count in zip(tables, lengths, strict=True):
        located.append((table, found[at : at + len(count)], count))
        at += len(count)
    located.sort(key=lambda item: _first_point(item[1]))  # chunks in grid order: the rows need no sort
    seen = np.zeros(len(sweep.points), dtype=bool)
    parts, point_parts = [], []
    for table, point, count in located:
        mask = point >= 0
        mask[mask] = ~seen[point[mask]]  # a point already taken from another chunk file
        seen[point[mask]] = True
        kept = table.select(["row", *TABLE_COLUMNS]).replace_schema_metadata(None)
        if not mask.all():
            kept = kept.filter(pa.array(np.repeat(mask, count)))
        parts.append(kept)
        point_parts.append(np.repeat(point[mask], count[mask]))
    rows = pa.concat_tables(parts)
    point = np.concatenate(point_parts) if point_parts else np.zeros(0, dtype=np.int64)
    row = np.asarray(rows.column("row").to_numpy(), dtype=np.int64) if len(rows) else point
    ordered = bool(np.all((point[1:] > point[:-1]) | ((point[1:] == point[:-1]) & (row[1:] > row[:-1]))))
    if not ordered:
        order = np.lexsort((row, point))
        rows, point = rows.take(pa.array(order)), point[order]
    point_column = pa.array(point, pa.int64())
    grid = points.take(point_column)
    same = pa.array(np.zeros(len(point), dtype=np.int32))

    def constant(text: str) -> Any:
        return pa.array([text], pa.string()).take(same)

    return pa.table(
        {
            "point": point_column,
            "system": constant(sweep.system),
            "calculator": constant(sweep.calculator.name),
            **{name: grid.column(name) for name in names},
            **{name: rows.column(name) for name in TABLE_COLUMNS},
            "toolkit_version": constant(__version__),
        },
        schema=sweep_schema(sweep, points),
    )


def _first_point(points: Any) -> int:
    """The first grid point among a chunk's points (``-1``: not of this sweep); -1 if none."""
    found = points[points >= 0]
    return int(found.min()) if len(found) else -1


def _column(values: tuple[Any, ...]) -> Any:
    """An Arrow column of a grid column's values (as text if their types are mixed)."""
    import pyarrow as pa

    try:
        return pa.array(list(values))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([str(v) for v in values], pa.string())


def sweep_record(sweep: Sweep) -> dict[str, Any]:
    """What a table file records of its sweep: identity, title, system, calculator, points."""
    return {
        "identity": sweep.identity,
        "title": sweep.title,
        "system": sweep.system,
        "calculator": sweep.calculator.name,
        "points": sweep.size,
        "code": fingerprint.code_fingerprint(),
    }


def table_sweep(path: Path) -> dict[str, Any] | None:
    """Return the sweep a table file records (:func:`sweep_record`), or ``None`` when
    there is no such file or it records none (unreadable, or written before tables
    recorded their sweep: the table is rebuilt from the stored points either way)."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return None
    try:
        raw = (pq.read_schema(path).metadata or {}).get(SWEEP_KEY.encode())
        record = json.loads(raw) if raw else None
    except Exception:  # a damaged table is only rewritten: it holds nothing the points do not
        return None
    return record if isinstance(record, dict) and isinstance(record.get("identity"), str) else None


def splice_table(sweep: Sweep, parts: list[tuple[Path, Any]], path: Path, schema: Any = None, copy: Any = None) -> Path:
    """Write the table of ``sweep`` as the chunk files ``parts`` spliced (:mod:`.splice`:
    their rows are not read; each with its :func:`~.splice.part_layout` or ``None``), in
    the order given, recording ``sweep`` like
    :func:`write_table`; return the path. The chunk files hold the table's columns
    (:func:`columns_table` with a layout), their points in grid order; ``schema``: the
    table's (:func:`sweep_schema`), if already made; ``copy``: who copies the parts' bytes
    into place (:func:`~.splice.splice_tables`; default: this process)."""
    import pyarrow.parquet as pq

    from toolkit.sweeps.splice import splice_tables

    record = {SWEEP_KEY.encode(): json.dumps(sweep_record(sweep)).encode()}
    schema = (schema if schema is not None else sweep_schema(sweep)).with_metadata(record)
    template = io.BytesIO()
    pq.write_table(schema.empty_table(), template, use_dictionary=False)
    splice_tables(template.getvalue(), parts, path, copy)
    return path


def write_table(frame: pd.DataFrame | Any, path: Path, sweep: Sweep | None = None) -> Path:
    """Write the table (a pandas frame or an Arrow table) as Parquet, atomically,
    recording ``sweep`` (:func:`sweep_record`) in its metadata; return the path."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
    if sweep is not None:
        metadata = dict(table.schema.metadata or {})
        metadata[SWEEP_KEY.encode()] = json.dumps(sweep_record(sweep)).encode()
        table = table.replace_schema_metadata(metadata)
    buffer = io.BytesIO()
    pq.write_table(table, buffer, use_dictionary=[n for n in table.column_names if n not in BIG_COLUMNS])
    write_atomic(path, buffer.getvalue())
    return path


#: The table's columns of (mostly) distinct values, written without a dictionary.
BIG_COLUMNS = ("numerator", "denominator", "value", "low", "high", "seconds")
