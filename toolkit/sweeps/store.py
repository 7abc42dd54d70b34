"""The result store of a sweep: every finished point kept as soon as it is done, and the
tidy table built from them.

Finished points are written in ``DIR/.points/``, one small Parquet file per finished
chunk (encoded on the worker: :func:`encode_chunk`), each written to a temporary file and
moved into place with :func:`os.replace` (atomic): an interrupted sweep leaves whole files
only. A point is known by its key (:func:`~toolkit.sweeps.spec.point_key`: system,
calculator, arguments, every rules field and the toolkit version), so a rerun skips every
point already stored, whatever chunks it was computed in.

The table (:func:`sweep_table`) has one row per grid point and outcome: the point's
arguments and rules columns, ``outcome``, ``kind`` (``"probability"`` or ``"value"``),
the exact number as ``numerator`` and ``denominator`` (decimal integers as text: exact
at any size; empty when the calculator reports a float only), ``value`` (float),
``exact`` (false for Monte Carlo frequencies and floats) and ``seconds`` (the point's
time on its worker). It is read from the stored chunks with Arrow (no row-by-row Python),
so that the client's share of a big sweep stays small.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.sweeps.calculators import Row

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.sweeps.spec import Sweep

__all__ = ["PointStore", "encode_chunk", "sweep_table", "write_atomic", "write_table", "TABLE_COLUMNS"]

#: The columns every sweep table has after the point's own columns.
TABLE_COLUMNS = ("outcome", "kind", "numerator", "denominator", "value", "exact", "seconds")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and
    :func:`os.replace`: ``path`` is either the old file or the whole new one, never half."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def encode_chunk(points: Iterable[tuple[str, list[Row], float]]) -> bytes:
    """Return the Parquet bytes of finished points ``(key, rows, seconds)``: one row per
    point and outcome (``key``, ``row``: the outcome's place in the point, the columns of
    :data:`TABLE_COLUMNS`; exact numbers as decimal text)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols: dict[str, list[Any]] = {c: [] for c in ("key", "row", *TABLE_COLUMNS)}
    for key, rows, seconds in points:
        for i, r in enumerate(rows):
            cols["key"].append(key)
            cols["row"].append(i)
            cols["outcome"].append(r.outcome)
            cols["kind"].append(r.kind)
            cols["numerator"].append(None if r.exact is None else str(r.exact.numerator))
            cols["denominator"].append(None if r.exact is None else str(r.exact.denominator))
            cols["value"].append(r.value)
            cols["exact"].append(r.is_exact)
            cols["seconds"].append(seconds)
    schema = pa.schema(
        [
            ("key", pa.string()),
            ("row", pa.int32()),
            ("outcome", pa.string()),
            ("kind", pa.string()),
            ("numerator", pa.string()),
            ("denominator", pa.string()),
            ("value", pa.float64()),
            ("exact", pa.bool_()),
            ("seconds", pa.float64()),
        ]
    )
    buffer = io.BytesIO()
    pq.write_table(pa.table(cols, schema=schema), buffer)
    return buffer.getvalue()


class PointStore:
    """The finished points of the sweeps written to one output folder (``DIR/.points/``)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory) / ".points"

    def files(self) -> list[Path]:
        """The stored chunk files."""
        return sorted(self.directory.glob("*.parquet")) if self.directory.is_dir() else []

    def _read(self, path: Path, columns: list[str] | None = None) -> Any:
        import pyarrow.parquet as pq

        try:
            return pq.read_table(path, columns=columns)
        except (OSError, ValueError):  # unreadable: its points are computed again
            return None

    def done(self) -> set[str]:
        """Return the keys of every stored point (a file that cannot be read is skipped:
        the points in it are computed again)."""
        keys: set[str] = set()
        for path in self.files():
            table = self._read(path, ["key"])
            if table is not None:
                keys.update(table.column("key").unique().to_pylist())
        return keys

    def save(self, payload: bytes, keys: list[str]) -> Path | None:
        """Store the points ``keys`` encoded by :func:`encode_chunk` (one file, written
        atomically); return its path (``None`` when ``keys`` is empty)."""
        if not keys:
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256("".join(keys).encode()).hexdigest()[:24]
        path = self.directory / f"{name}.parquet"
        write_atomic(path, payload)
        return path

    def tables(self) -> list[Any]:
        """Every readable stored chunk, as an Arrow table (``key``, ``row`` and :data:`TABLE_COLUMNS`)."""
        return [t for t in (self._read(path) for path in self.files()) if t is not None]

    def rows(self) -> pd.DataFrame:
        """Every stored row (``key``, ``row`` and :data:`TABLE_COLUMNS`), one per point and outcome."""
        import pyarrow as pa

        tables = self.tables()
        frame = pa.concat_tables(tables).to_pandas() if tables else empty_rows().to_pandas()
        return frame.drop_duplicates(["key", "row"])


def empty_rows() -> Any:
    """The stored rows of no point: an empty Arrow table with the store's columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pq.read_table(pa.BufferReader(encode_chunk([])))


def sweep_table(sweep: Sweep, tables: list[Any]) -> pd.DataFrame:
    """Return the tidy table of ``sweep`` from the stored chunks ``tables``
    (:meth:`PointStore.tables`): one row per point and outcome, in grid order; points not
    stored (and rows of other sweeps in the same folder) are left out, and a point stored
    twice (in two chunk files) is taken from one of them. Each row finds its point by its
    key in Arrow, through the chunk's few distinct keys (no Python loop over rows); the rows
    are sorted only when the chunks do not already give the grid order."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from toolkit import __version__

    keys = pa.array([p.key for p in sweep.points], pa.string())
    names = [c for c, _ in sweep.points[0].columns]
    values = list(zip(*(tuple(v for _, v in p.columns) for p in sweep.points), strict=True))
    points = pa.table({name: _column(column) for name, column in zip(names, values, strict=True)})
    located = []
    for table in tables or [empty_rows()]:
        key = table.column("key").combine_chunks()
        encoded = key if pa.types.is_dictionary(key.type) else pc.dictionary_encode(key)
        # the point of each distinct key of the chunk, then of each row
        point = pc.take(pc.index_in(encoded.dictionary, value_set=keys), encoded.indices)
        located.append((table, np.asarray(point.fill_null(-1), dtype=np.int64)))
    located.sort(key=lambda item: _first_point(item[1]))  # chunks in grid order: the rows need no sort
    seen = np.zeros(len(sweep.points), dtype=bool)
    parts, point_parts = [], []
    for table, point in located:
        mask = point >= 0
        mask[mask] = ~seen[point[mask]]  # a point already taken from another chunk file
        seen[point[mask]] = True
        parts.append(table.filter(pa.array(mask)).select(["row", *TABLE_COLUMNS]))
        point_parts.append(point[mask])
    rows = pa.concat_tables(parts)
    point = np.concatenate(point_parts) if point_parts else np.zeros(0, dtype=np.int64)
    row = np.asarray(rows.column("row").to_numpy(), dtype=np.int64) if len(rows) else point
    ordered = bool(np.all((point[1:] > point[:-1]) | ((point[1:] == point[:-1]) & (row[1:] > row[:-1]))))
    if not ordered:
        order = np.lexsort((row, point))
        rows, point = rows.take(pa.array(order)), point[order]
    point_column = pa.array(point, pa.int64())
    grid = points.take(point_column)
    out = pa.table(
        {
            "point": point_column,
            **{name: grid.column(name) for name in names},
            **{name: rows.column(name) for name in TABLE_COLUMNS},
        }
    )
    frame = out.to_pandas()
    frame.insert(1, "system", sweep.system)
    frame.insert(2, "calculator", sweep.calculator.name)
    frame["toolkit_version"] = __version__
    for name in ("numerator", "denominator"):
        frame[name] = frame[name].astype("string")
    frame["value"] = frame["value"].astype("float64")
    frame["seconds"] = frame["seconds"].astype("float64")
    frame["exact"] = frame["exact"].astype("bool")
    return frame


def _first_point(points: Any) -> int:
    """The first grid point among a chunk's rows' points (``-1``: not of this sweep); -1 if none."""
    found = points[points >= 0]
    return int(found.min()) if len(found) else -1


def _column(values: tuple[Any, ...]) -> Any:
    """An Arrow column of a grid column's values (as text if their types are mixed)."""
    import pyarrow as pa

    try:
        return pa.array(list(values))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([str(v) for v in values], pa.string())


def write_table(frame: pd.DataFrame, path: Path) -> Path:
    """Write the table as Parquet, atomically; return the path."""
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    write_atomic(path, buffer.getvalue())
    return path
