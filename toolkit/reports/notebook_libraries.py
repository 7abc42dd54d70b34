"""The notebook libraries (nbformat, papermill, nbconvert), imported without the IRI
parsers they never use.

nbformat validates notebooks with jsonschema, whose format checkers import
``rfc3987_syntax`` when it is installed (it comes with JupyterLab, through
``jsonschema[format-nongpl]``). That package builds about 35 Earley parsers when it is
imported: 2-3 s of CPU in every process that runs or reads a report (a batch's command
and each of its workers; jsonschema issue #1428). No notebook schema has an ``iri``
format, so the processes that import these libraries through :func:`notebook_library`
mark ``rfc3987_syntax`` as absent first (``sys.modules[name] = None``: an import of it
then fails, and jsonschema leaves the ``iri`` and ``iri-reference`` formats unchecked, as
it does when the package is not installed). A process that has already imported
jsonschema is left as it is.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["notebook_library"]

#: The libraries :func:`notebook_library` imports.
LIBRARIES = ("nbformat", "papermill", "nbconvert")


def notebook_library(name: str) -> ModuleType:
    """Return the module ``name`` (one of :data:`LIBRARIES`), imported without
    ``rfc3987_syntax`` when this process has not imported jsonschema's format checkers yet."""
    if name not in LIBRARIES:
        raise ValueError(f"{name!r} is not a notebook library: {', '.join(LIBRARIES)}")
    if "jsonschema._format" not in sys.modules:
        sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[assignment]
    return importlib.import_module(name)
