"""Where the toolkit's shipped files are: the house rules, rule-book examples, batch, sweep
and tuning files and the Fairy Meat weapons of ``data/``.

In the repository, ``toolkit/data`` is a link to the top-level ``data/`` folder that designers
edit and the README names; a wheel carries those files themselves as the package data
``toolkit/data/**`` (pyproject.toml). Both are found here, through :mod:`importlib.resources`,
so a toolkit installed outside the repository lists and loads its shipped rules and examples.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["DATA_DIR", "shipped_path"]


def _data_dir() -> Path:
    """Return the folder of the shipped files: the package's ``data`` resource, as a path
    (the toolkit is installed as files, a wheel or the repository, never a zip), with the
    repository's link followed, so a shipped file has one path (``data/rules/...``) whether
    it was found here or named by a designer."""
    return Path(str(resources.files("toolkit").joinpath("data"))).resolve()


#: The folder of the shipped files (``data/`` of the repository, ``toolkit/data`` of a wheel).
DATA_DIR = _data_dir()


def shipped_path(*parts: str) -> Path:
    """Return the path of a shipped file or folder under :data:`DATA_DIR`.

    >>> shipped_path("rules").is_dir()
    True
    >>> shipped_path("examples").is_dir()
    True
    """
    return DATA_DIR.joinpath(*parts)
