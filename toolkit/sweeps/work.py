"""What a Dask worker runs: one chunk of grid points, each timed, each failure kept with
its point (the others go on).

Only plain data crosses the wire: the calculator by ``(system, name)`` (each worker finds
it in its own registry), the points' keys, arguments and rules (frozen dataclasses), and
back the rows as JSON values (:func:`~toolkit.sweeps.store.encode_rows`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from toolkit.sweeps.calculators import calculator
from toolkit.sweeps.store import PointResult, encode_points, encode_rows

__all__ = ["compute_chunk", "compute_points"]

#: The longest error message kept for a failed point.
ERROR_CHARS = 500


def compute_chunk(system: str, name: str, items: Sequence[tuple[str, Any, Any]]) -> dict[str, Any]:
    """Compute the points ``items`` — ``(key, args, rules)`` — of calculator ``name`` of
    ``system``. Return ``{"payload", "done", "errors"}``: the finished points as the JSON
    bytes of a store file (:meth:`~toolkit.sweeps.store.PointStore.save_payload`: encoded
    here, on the worker, so the client only writes it), their keys, and ``(key, error)``
    for each point that raised (its type and message)."""
    records = compute_points(system, name, items)
    good = [r for r in records if "rows" in r]
    return {
        "payload": encode_points(good) if good else b"",
        "done": [r["key"] for r in good],
        "errors": [(r["key"], r["error"]) for r in records if "rows" not in r],
    }


def compute_points(system: str, name: str, items: Sequence[tuple[str, Any, Any]]) -> list[PointResult]:
    """One record per point of ``items``: ``{"key", "rows", "seconds"}``, or ``{"key",
    "error", "seconds"}`` for a point that raised."""
    calc = calculator(system, name)
    out: list[PointResult] = []
    for key, args, rules in items:
        started = time.perf_counter()
        try:
            rows = calc.rows(calc.call(dict(args), rules))
        except Exception as exc:  # a failing point is reported, the others go on
            message = str(exc) or repr(exc)
            if len(message) > ERROR_CHARS:
                message = message[:ERROR_CHARS] + "…"
            out.append(
                {"key": key, "error": f"{type(exc).__name__}: {message}", "seconds": time.perf_counter() - started}
            )
            continue
        out.append({"key": key, "rows": encode_rows(rows), "seconds": time.perf_counter() - started})
    return out
