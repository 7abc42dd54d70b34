"""One writer per output folder: a sweep or a tune holds ``DIR/.toolkit.lock`` for its run.

The lock is :func:`fcntl.flock` on that file, which the kernel releases when the process
that holds it ends, however it ends (a SIGKILL too): a killed run leaves no lock behind
that could block. A second run into the same folder waits for the first, saying so in one
line that names the folder and the other run (its pid and command), then goes on from
what the first stored. The file is never removed (a run waiting on it would otherwise
lock a file no longer there while a third created a new one).

Within one process the lock is taken once per thread: a run inside a run of the same
folder (a tune's own sweeps) goes on.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from toolkit.errors import InvalidSetupError
from toolkit.files import quoted_path

__all__ = ["folder_lock", "LOCK_NAME"]

#: The lock file of an output folder.
LOCK_NAME = ".toolkit.lock"

_HELD: dict[tuple[str, int], int] = {}  # (folder, thread) -> how many times held


def _holder(fd: int) -> str:
    """What the lock file says of the run holding it (``"pid 123: toolkit sweep x.yaml"``)."""
    with contextlib.suppress(OSError):
        text = os.pread(fd, 300, 0).decode(errors="replace").strip()
        if text:
            return text
    return "another run"


@contextlib.contextmanager
def folder_lock(
    folder: str | os.PathLike[str], what: str, notice: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the lock of the output folder ``folder`` (created if missing) for the run
    ``what`` (``"toolkit sweep hands.yaml"``); when another run holds it, tell ``notice``
    (default: standard error) in one line and wait for it.

    Raises:
        InvalidSetupError: the folder cannot be made or written (one line naming it:
            nothing has run).
    """
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        key = (str(path.resolve()), threading.get_ident())
    except OSError as exc:
        raise InvalidSetupError(
            f"cannot write in {quoted_path(path)}: {exc.strerror or exc} (nothing has run)"
        ) from None
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    try:
        import fcntl
    except ImportError:  # no flock (Windows): one writer is the designer's to keep
        yield
        return
    try:
        fd = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise InvalidSetupError(
            f"cannot write in {quoted_path(path)}: {exc.strerror or exc} (nothing has run)"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            line = (
                f"waiting: {quoted_path(path)} is being written by {_holder(fd)}; this run goes on when that one ends "
                "(Ctrl-C to stop waiting)"
            )
            (notice or (lambda text: print(text, file=sys.stderr, flush=True)))(line)
            fcntl.flock(fd, fcntl.LOCK_EX)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}: {what}".encode(), 0)
        _HELD[key] = 1
        try:
            yield
        finally:
            del _HELD[key]
    finally:
        os.close(fd)  # releases the lock
