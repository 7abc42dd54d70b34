"""Finding rule-book example files: ``data/examples/*.yaml`` and the system each names.

Reading one is :func:`toolkit.notation.read_example` (the safe reader :func:`toolkit.notation.load_yaml`);
replaying one is :func:`toolkit.replay.replay_file`.
"""

from __future__ import annotations

from pathlib import Path

from toolkit.errors import NotationError
from toolkit.notation import load_yaml
from toolkit.shipped import shipped_path
from toolkit.systems import default_system

__all__ = ["EXAMPLES_DIR", "example_files", "system_of"]

#: Where the examples that come with the toolkit are.
EXAMPLES_DIR = shipped_path("examples")


def system_of(path: str | Path) -> str | None:
    """Return the ``system:`` an example file names (:func:`toolkit.systems.default_system` when
    it names none), or None if the file is not a YAML mapping."""
    try:
        data = load_yaml(Path(path)).data
    except NotationError:
        return None
    if not isinstance(data, dict):
        return None
    return str(data["system"]) if "system" in data else default_system()


def example_files(system: str | None = None, directory: str | Path | None = None) -> list[Path]:
    """Return the example files in ``directory`` (default :data:`EXAMPLES_DIR`), sorted
    by name; only those of ``system`` (a name of :func:`toolkit.systems.names`) if given."""
    folder = Path(directory) if directory is not None else EXAMPLES_DIR
    files = sorted(f for f in folder.glob("*.yaml") if f.is_file())  # never a folder or a named pipe
    return [f for f in files if system is None or system_of(f) == system]
