"""What a sweep or a tune wrote in its output folder, so that it overwrites nothing else.

Each file a run writes there is listed in the folder's record, ``DIR/.toolkit-written.json``:
its name, the run that wrote it (``"tune NAME"``, ``"sweep NAME"``) and its size,
modification time and inode as written. Before any work, :meth:`OutputFolder.check`
refuses, in one line, an output that would replace one of the run's inputs (the tuning or
sweep file, a house-rules file) or a file the toolkit did not write there (a designer's,
or one changed since it was written): nothing a designer wrote is overwritten. A rerun
removes what the earlier run of the same name wrote and this one does not write
(:meth:`OutputFolder.clear_earlier`: a tune with fewer candidates today), only while each
such file is as it was written, so that no file there claims a run it was not part of.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.files import quoted_path, same_file, write_atomic

__all__ = ["OutputFolder", "RECORD_NAME"]

#: The record of what the toolkit wrote in an output folder.
RECORD_NAME = ".toolkit-written.json"


def _stamp(path: Path) -> list[int] | None:
    """A file's size, modification time (ns) and inode, or ``None`` when there is none."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


class OutputFolder:
    """The output folder ``folder`` as the run ``owner`` (``"tune NAME"``) writes it."""

    def __init__(self, folder: str | Path, owner: str) -> None:
        self.folder = Path(folder)
        self.owner = owner
        self.record_path = self.folder / RECORD_NAME

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.record_path.read_bytes())
        except (OSError, ValueError):  # none yet, or unreadable: nothing is known to be ours
            return {}
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict):
            return {}
        return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, dict)}

    def _save(self, files: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.record_path, json.dumps({"files": files}, indent=1, sort_keys=True).encode())

    def ours(self, name: str) -> bool:
        """Whether ``DIR/name`` is a file the toolkit wrote and nobody changed since."""
        entry = self._read().get(name)
        return entry is not None and entry.get("stamp") == _stamp(self.folder / name)

    def check(
        self, names: Iterable[str], inputs: Iterable[str | os.PathLike[str]] = (), also_ours: Iterable[str] = ()
    ) -> None:
        """Refuse (before any work) to write the outputs ``names`` in the folder when one
        would replace an input (``inputs``: the files the run reads) or a file there that
        the toolkit did not write (or that was changed since); ``also_ours``: names known
        to be the toolkit's by their content (a sweep's table records its sweep).

        Raises:
            InvalidSetupError: one line naming the file and what to do.
        """
        inputs = [i for i in inputs if i]
        also_ours = set(also_ours)
        for name in names:
            path = self.folder / name
            read = next((i for i in inputs if same_file(path, i)), None)
            if read is not None:
                raise InvalidSetupError(
                    f"{self.owner} would write {quoted_path(path)}, which is its own input "
                    f"{quoted_path(read)}: give another output folder (-o)"
                )
            if _stamp(path) is None or name in also_ours or self.ours(name):
                continue
            raise InvalidSetupError(
                f"{self.owner} would overwrite {quoted_path(path)}, a file it did not write (or changed since it "
                "was written): move or rename that file, or give another output folder (-o)"
            )

    def write(self, name: str, data: bytes) -> Path:
        """Write ``DIR/name`` atomically and record it as this run's; return its path."""
        path = self.folder / name
        write_atomic(path, data)
        self.adopt(path)
        return path

    def adopt(self, path: str | os.PathLike[str]) -> None:
        """Record the file ``path`` of the folder (written by another function: a table
        spliced, a report run) as this run's."""
        path = Path(path)
        files = self._read()
        files[path.name] = {"by": self.owner, "stamp": _stamp(path)}
        self._save(files)

    def clear_earlier(self, keep: Iterable[str]) -> list[Path]:
        """Remove the files an earlier run of this owner wrote and this one does not
        (``keep``: this run's names), each only while it is as it was written (a file
        changed since is a designer's now: kept, and forgotten); return the paths removed."""
        keep = set(keep)
        files = self._read()
        removed, forgotten = [], False
        for name, entry in list(files.items()):
            if entry.get("by") != self.owner or name in keep:
                continue
            path = self.folder / name
            if entry.get("stamp") == _stamp(path):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                removed.append(path)
            del files[name]
            forgotten = True
        if forgotten:
            self._save(files)
        return removed
