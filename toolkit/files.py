"""The files a designer names, checked before anything is opened.

Every reader of a designer's file (example files, house-rules files and an example's
``rules:``, report ``-p rules``, ``--rules``, a sweep's ``rules_files``, batch files, the
explorers' Rules picker) goes through :func:`designer_file`, and the safe YAML reader
(:func:`toolkit.notation.load_yaml`) reads through :func:`read_designer_file`:

- ``~`` and ``~user`` are expanded, and a home folder that cannot be found is one line
  (``Path.expanduser`` raises ``RuntimeError`` for it);
- anything but a regular file is refused by its kind before it is opened: a folder, a
  device (``/dev/zero`` never ends), a named pipe (opening one waits for a writer forever,
  which froze a notebook's kernel through the Rules picker), a socket;
- the file is opened so that opening cannot block, checked again (a pipe swapped in between),
  and read up to a limit.

:func:`same_file` tells whether two paths are one file (an output that would overwrite an
input).

>>> designer_file("/", "house-rules file")
Traceback (most recent call last):
...
toolkit.errors.InvalidSetupError: house-rules file '/' is a folder, not a file
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from toolkit.errors import InvalidSetupError, ToolkitError, path_excerpt

__all__ = ["designer_file", "read_designer_file", "expand_home", "same_file", "file_kind"]


def _quoted(path: str | os.PathLike[str]) -> str:
    return path_excerpt(path)


def file_kind(mode: int) -> str:
    """Return what a ``stat`` mode is, in words: ``"a regular file"``, ``"a folder"``,
    ``"a named pipe (FIFO)"``, ``"a character device"``, ``"a block device"``, ``"a socket"``."""
    for test, kind in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a regular file"


def expand_home(
    path: str | os.PathLike[str], what: str = "file", *, error: type[ToolkitError] = InvalidSetupError
) -> Path:
    """Return ``path`` with a leading ``~`` or ``~user`` replaced by that home folder.

    Raises:
        ToolkitError: (of kind ``error``) the home folder cannot be found (no such user,
            or no ``HOME``); the message names the path.
    """
    text = os.fspath(path)
    if not text.startswith("~"):
        return Path(text)
    expanded = os.path.expanduser(text)  # leaves the path as it is when the user is unknown
    if expanded.startswith("~"):
        user = text[1:].split(os.sep, 1)[0]
        who = f"user {user!r}" if user else "you (HOME is not set)"
        raise error(f"{what} {_quoted(text)}: no home folder found for {who}; write the path without '~'")
    return Path(expanded)


def designer_file(
    path: str | os.PathLike[str],
    what: str = "file",
    *,
    error: type[ToolkitError] = InvalidSetupError,
    missing: str = "does not exist",
    hint: str = "",
) -> Path:
    """Return the regular file ``path`` names (``~`` expanded), checked with ``os.stat``
    before anything opens it.

    Args:
        path: the path as the designer wrote it.
        what: what the file is, for the message (``"house-rules file"``).
        error: the kind of error to raise (``NotationError`` for example files).
        missing: what the message says of a path where nothing is.
        hint: said after the problem (``"give the path of an example"``).

    Raises:
        ToolkitError: (of kind ``error``) one line naming the path: nothing there, a
            folder, a device, a named pipe or a socket, an unknown home folder, a path
            that cannot be looked at.
    """
    full = expand_home(path, what, error=error)
    tail = f": {hint}" if hint else ""
    try:
        mode = os.stat(full).st_mode
    except FileNotFoundError:
        raise error(f"{what} {_quoted(path)} {missing}{tail}") from None
    except ValueError:  # an embedded NUL
        raise error(f"{what} {_quoted(path)} is not a path: it holds a NUL character") from None
    except OSError as exc:
        raise error(f"{what} {_quoted(path)} cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise error(f"{what} {_quoted(path)} is {file_kind(mode)}, not a file{tail}")
    return full


def read_designer_file(
    path: str | os.PathLike[str],
    limit: int,
    what: str = "file",
    *,
    error: type[ToolkitError] = InvalidSetupError,
) -> bytes:
    """Return the first ``limit`` bytes of the regular file ``path`` (checked by
    :func:`designer_file`), opened without blocking and checked again once open.

    Raises:
        ToolkitError: (of kind ``error``) what :func:`designer_file` raises, or a file
            that cannot be opened or read (the message names the path and why).
    """
    full = designer_file(path, what, error=error)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(full, flags)
    except OSError as exc:
        raise error(f"{what} {_quoted(path)} cannot be read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # replaced between the check and the open
            raise error(f"{what} {_quoted(path)} is {file_kind(mode)}, not a file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(limit)
    except OSError as exc:
        raise error(f"{what} {_quoted(path)} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Return whether ``a`` and ``b`` are the same file (one inode, or one resolved path
    when either does not exist yet); False when either cannot be looked at."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()
    except (OSError, ValueError, RuntimeError):
        return False
