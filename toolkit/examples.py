"""Reading rule-book example files: YAML read safely, with the name used in error messages.

Every system's notation module (``toolkit.<system>.notation``) reads its files through
:func:`read_example`, so example files are always data (``yaml.safe_load``), never code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from toolkit.errors import NotationError

__all__ = ["read_example"]


def read_example(source: str | Path, shape: str) -> tuple[dict[str, Any], str, str]:
    """Return ``(data, text, where)`` for an example given as a path or as YAML text.

    ``where`` names the source in messages (the path, or ``<example>``); ``shape`` says
    what the file must hold, for the error when it is not a mapping.

    Raises:
        NotationError: not valid YAML, or not a mapping.
    """
    path = Path(source) if not (isinstance(source, str) and "\n" in source) else None
    if path is not None and not path.is_file():
        raise NotationError(f"{str(path)!r} is not a file: give the path of an example, e.g. data/examples/*.yaml")
    text = path.read_text() if path is not None else str(source)
    where = str(path) if path is not None else "<example>"
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise NotationError(f"{where}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise NotationError(f"{where}: an example is a mapping with {shape}")
    return data, text, where
