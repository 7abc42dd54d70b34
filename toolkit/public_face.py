"""A system package's public face: the few dozen names a designer types, imported when
first asked for (PEP 562, a module ``__getattr__``).

A package lists its face as ``{name: submodule}``; :func:`lazy_face` returns the
module's ``__getattr__`` and ``__dir__``. Importing a system's ``rules`` submodule then
runs no calculator, solver or widget module (nor numpy and scipy, which they import), and
``from <system package> import Rules`` imports only that ``rules`` submodule.
Everything else stays importable from its submodule.

>>> getattr_, dir_ = lazy_face("toolkit", {"Distribution": "prob"})
>>> getattr_("Distribution").__name__, "Distribution" in dir_()
('Distribution', True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_face"]


def lazy_face(package: str, face: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return ``(__getattr__, __dir__)`` for ``package``, whose public names are the keys
    of ``face``, each defined in the submodule it maps to (``"rules"`` for
    ``package.rules``). A name is imported on first use and then kept in the package.

    The ``__getattr__`` raises :class:`AttributeError` for any other name, as Python's
    own lookup does (so ``hasattr`` and ``from package import missing`` behave).
    """
    face = dict(face)

    def __getattr__(name: str) -> Any:
        where = face.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(face))

    return __getattr__, __dir__
