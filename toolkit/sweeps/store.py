"""The result store of a sweep: every finished point kept as soon as it is done, and the
tidy table built from them.

Finished points are written in ``DIR/.points/``, one small JSON file per finished chunk,
each written to a temporary file and moved into place with :func:`os.replace` (atomic):
an interrupted sweep leaves whole files only. A point is known by its key
(:func:`~toolkit.sweeps.spec.point_key`: system, calculator, arguments, every rules field
and the toolkit version), so a rerun skips every point already stored, whatever chunks
it was computed in.

The table (:func:`sweep_table`) has one row per grid point and outcome: the point's
arguments and rules columns, ``outcome``, ``kind`` (``"probability"`` or ``"value"``),
the exact number as ``numerator`` and ``denominator`` (decimal integers as text: exact
at any size; empty when the calculator reports a float only), ``value`` (float),
``exact`` (false for Monte Carlo frequencies and floats) and ``seconds`` (the point's
time on its worker).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.sweeps.calculators import Row

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.sweeps.spec import Sweep

__all__ = ["PointStore", "PointResult", "sweep_table", "write_atomic", "TABLE_COLUMNS"]

#: The columns every sweep table has after the point's own columns.
TABLE_COLUMNS = ("outcome", "kind", "numerator", "denominator", "value", "exact", "seconds")

#: A finished point as stored: its key, rows and seconds.
PointResult = dict[str, Any]


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


def encode_rows(rows: Iterable[Row]) -> list[list[Any]]:
    """Rows as JSON values (exact numbers as decimal text)."""
    out = []
    for r in rows:
        num = None if r.exact is None else str(r.exact.numerator)
        den = None if r.exact is None else str(r.exact.denominator)
        out.append([r.outcome, r.kind, num, den, r.value, r.is_exact])
    return out


def encode_points(results: list[PointResult]) -> bytes:
    """The JSON bytes of a store file holding ``results``."""
    return json.dumps({"points": results}, separators=(",", ":")).encode()


class PointStore:
    """The finished points of the sweeps written to one output folder (``DIR/.points/``)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory) / ".points"

    def done(self) -> dict[str, PointResult]:
        """Return every stored point by key (files that cannot be read are skipped: the
        points in them are computed again)."""
        found: dict[str, PointResult] = {}
        if not self.directory.is_dir():
            return found
        for path in sorted(self.directory.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                for record in data["points"]:
                    found[record["key"]] = record
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return found

    def save(self, results: list[PointResult]) -> Path | None:
        """Store finished points (one file, written atomically); return its path (``None``
        when there is nothing to store)."""
        if not results:
            return None
        return self.save_payload(encode_points(results), [r["key"] for r in results])

    def save_payload(self, payload: bytes, keys: list[str]) -> Path | None:
        """Store the points ``keys`` already encoded by :func:`encode_points` (one file,
        written atomically); return its path (``None`` when ``keys`` is empty)."""
        if not keys:
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256("".join(keys).encode()).hexdigest()[:24]
        path = self.directory / f"{name}.json"
        write_atomic(path, payload)
        return path


def sweep_table(sweep: Sweep, done: Mapping[str, PointResult]) -> pd.DataFrame:
    """Return the tidy table of ``sweep`` from the stored points ``done``: one row per
    point and outcome, in grid order; points not done are left out."""
    import pandas as pd

    from toolkit import __version__

    names = [c for c, _ in sweep.points[0].columns]
    columns: dict[str, list[Any]] = {c: [] for c in ("point", *names, *TABLE_COLUMNS)}
    for index, point in enumerate(sweep.points):
        stored = done.get(point.key)
        if stored is None or not stored["rows"]:
            continue
        rows = stored["rows"]
        k = len(rows)
        columns["point"] += [index] * k
        for name, value in point.columns:
            columns[name] += [value] * k
        for name, values in zip(TABLE_COLUMNS[:6], zip(*rows, strict=True), strict=True):
            columns[name] += values
        columns["seconds"] += [float(stored["seconds"])] * k
    frame = pd.DataFrame(columns)
    frame.insert(1, "system", sweep.system)
    frame.insert(2, "calculator", sweep.calculator.name)
    frame["toolkit_version"] = __version__
    for name in ("numerator", "denominator"):
        frame[name] = frame[name].astype("string")
    frame["value"] = frame["value"].astype("float64")
    frame["seconds"] = frame["seconds"].astype("float64")
    frame["exact"] = frame["exact"].astype("bool")
    return frame


def write_table(frame: pd.DataFrame, path: Path) -> Path:
    """Write the table as Parquet, atomically; return the path."""
    import io

    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    write_atomic(path, buffer.getvalue())
    return path
