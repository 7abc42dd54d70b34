"""What a Dask worker runs: one chunk of grid points, each timed, each failure kept with
its point (the others go on).

Only plain data crosses the wire: the calculator by ``(system, name)`` (each worker finds
it in its own registry), the points' keys, arguments and rules (frozen dataclasses), and
back the finished points as the Parquet bytes of a store file
(:func:`~toolkit.sweeps.store.encode_chunk`: encoded here, so that the client only writes
them), their keys and the errors.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from toolkit.sweeps import fingerprint
from toolkit.sweeps.calculators import calculator
from toolkit.sweeps.store import encode_chunk

__all__ = ["compute_chunk"]

#: The longest error message kept for a failed point.
ERROR_CHARS = 500


def compute_chunk(system: str, name: str, items: Sequence[tuple[str, Any, Any]]) -> dict[str, Any]:
    """Compute the points ``items`` — ``(key, args, rules)`` — of calculator ``name`` of
    ``system``. Return ``{"code", "version", "payload", "done", "errors"}``: the
    fingerprint of the worker's toolkit code (a point's key names the code: the client
    refuses rows of other code) and its version string, the finished points as the
    Parquet bytes of a store file, their keys, and ``(key, error)`` for each point that
    raised (its type and message)."""
    calc = calculator(system, name)
    finished, errors = [], []
    for key, args, rules in items:
        started = time.perf_counter()
        try:
            rows = calc.rows(calc.call(dict(args), rules))
        except Exception as exc:  # a failing point is reported, the others go on
            message = str(exc) or repr(exc)
            if len(message) > ERROR_CHARS:
                message = message[:ERROR_CHARS] + "…"
            errors.append((key, f"{type(exc).__name__}: {message}"))
            continue
        finished.append((key, rows, time.perf_counter() - started))
    from toolkit import __version__

    code = fingerprint.code_fingerprint()
    return {
        "code": code,
        "version": __version__,
        "payload": encode_chunk(finished, code) if finished else b"",
        "done": [key for key, _, _ in finished],
        "errors": errors,
    }
