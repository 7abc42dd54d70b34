"""Python's cycle collector paused while an exact count builds its tables.

An exact count (the Fairy Meat deal-averaged odds, say) fills caches of hundreds of
thousands of small containers that never form garbage cycles: reference counting frees
whatever it drops. Python's cycle collector still walks them, a whole walk each time the
long-lived objects have grown by a quarter, which cost about 15% of a cold Fairy Meat
sweep (``bench/README.md``). :func:`paused_collection` switches the collector off for the
duration of such a count and back on after it, as it was, also when the count raises.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["paused_collection"]

_lock = threading.Lock()
#: How many counts run inside :func:`paused_collection` now (in any thread), and whether
#: the collector was on when the first of them started.
_state = {"inside": 0, "was_enabled": False}


@contextlib.contextmanager
def paused_collection() -> Iterator[None]:
    """Switch the cycle collector off inside the ``with`` block; when the last block still
    running in any thread ends, switch it back on if it was on when the first began (an
    application that keeps it off keeps it off). Nested and concurrent blocks are fine."""
    with _lock:
        if _state["inside"] == 0:
            _state["was_enabled"] = gc.isenabled()
            gc.disable()
        _state["inside"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["inside"] -= 1
            if _state["inside"] == 0 and _state["was_enabled"]:
                gc.enable()
