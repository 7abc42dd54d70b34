"""Report parameters as data: what a parameter value may be, and the one writer that puts
the values into a notebook.

A value a designer or a file gives a report is *plain*: a whole number (at most
:data:`MAX_DIGITS` digits), a finite number, text, true/false or None, or a list or a
mapping (text keys) of plain values, nested at most :data:`MAX_DEPTH` deep. Anything
else a YAML reader can build (a tuple from ``!!pairs`` or ``!!omap``, a set, bytes from
``!!binary``, a date from ``!!timestamp``) or a Python caller can pass is refused:
:func:`plain_problem` says where and what it is.

:func:`parameters_source` writes the checked values as the notebook's
``injected-parameters`` cell, each as the ``repr`` of a plain value (a Python literal),
and reads the cell back before it is used: every line must be ``name = literal`` and the
literal must be equal to the value given, so no value can become code.

>>> plain_problem([1, {"a": [2.5, None, True]}]) is None
True
>>> plain_problem([[1, 1], (2, 1)])
'a tuple (YAML !!pairs or !!omap) at [1]'
>>> print(parameters_source({"label": 'say "hi"', "sizes": [[1, 1]]}))
# Parameters given to this run (each a literal value, checked by the toolkit)
label = 'say "hi"'
sizes = [[1, 1]]
"""

from __future__ import annotations

import ast
import datetime
import keyword
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.reports.notebook_libraries import notebook_library

__all__ = [
    "ACCEPTED",
    "INJECTED_TAG",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_VALUES",
    "parameters_source",
    "plain_problem",
    "write_parameterised",
]

#: What a report parameter may hold, in the words of the refusal.
ACCEPTED = "numbers, text, true/false, null, and lists and mappings (text keys) of those"
#: The most digits of a whole number in a parameter (larger ones are no size or count).
MAX_DIGITS = 18
#: How deeply lists and mappings may nest in one parameter.
MAX_DEPTH = 20
#: The most values (items, keys and leaves) one parameter may hold.
MAX_VALUES = 100_000

_SCALARS = (type(None), bool, int, float, str)


def _kind(value: Any) -> str:
    """What a value that is not plain is, as a designer would recognise it."""
    if isinstance(value, tuple):
        return "a tuple (YAML !!pairs or !!omap)"
    if isinstance(value, (set, frozenset)):
        return "a set (YAML !!set)"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "binary data (YAML !!binary)"
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date or time (YAML !!timestamp)"
    return f"a {type(value).__name__}"


def _at(path: tuple[Any, ...]) -> str:
    """`` at [0]['max_dice']``: where in a parameter's value (nothing for the value itself)."""
    return " at " + "".join(f"[{k!r}]" for k in path) if path else ""


def plain_problem(value: Any) -> str | None:
    """Return what in ``value`` is not plain and where (``"a set (YAML !!set) at [0]"``),
    or None when the whole value is plain (checked iteratively: no depth is too deep to
    check; exact types only, so no subclass of ``str`` or ``int`` with its own ``repr``)."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    seen = 0
    while stack:
        item, path = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return f"more than {MAX_VALUES:,} values"
        if len(path) > MAX_DEPTH:
            return f"lists or mappings nested more than {MAX_DEPTH} deep{_at(path[:MAX_DEPTH])}"
        kind = type(item)
        if kind is float and not math.isfinite(item):
            return f"the number {item!r}{_at(path)}: only finite numbers"
        if kind is int and abs(item) >= 10**MAX_DIGITS:
            return f"a whole number of more than {MAX_DIGITS} digits{_at(path)}"
        if kind in _SCALARS:
            continue
        if kind is list:
            stack.extend((v, (*path, i)) for i, v in enumerate(item))
        elif kind is dict:
            for k, v in item.items():
                if type(k) is not str:
                    return f"a mapping key that is {_kind(k) if type(k) not in _SCALARS else repr(k)}{_at(path)}"
                stack.append((v, (*path, k)))
        else:
            return f"{_kind(item)}{_at(path)}"
    return None


def parameters_source(values: Mapping[str, Any]) -> str:
    """Return the source of the ``injected-parameters`` cell that sets ``values``: one
    ``name = repr(value)`` line each, read back and compared with the values before it
    is returned.

    Raises:
        InvalidSetupError: a name that is not a Python name, or a value that is not plain
            (:func:`plain_problem`), or a line that does not read back as the value given.
    """
    lines = ["# Parameters given to this run (each a literal value, checked by the toolkit)"]
    for name, value in values.items():
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise InvalidSetupError(f"{name!r} is not a parameter name")
        problem = plain_problem(value)
        if problem is not None:
            raise InvalidSetupError(f"parameter {name!r} holds {problem}; a parameter takes {ACCEPTED}")
        lines.append(f"{name} = {value!r}")
    source = "\n".join(lines)
    statements = ast.parse(source).body
    for statement, (name, value) in zip(statements, values.items(), strict=True):
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == name
            and _same(ast.literal_eval(statement.value), value)
        ):
            raise InvalidSetupError(f"parameter {name!r} cannot be written as a literal value")
    return source


def _same(a: Any, b: Any) -> bool:
    """Whether two plain values are equal and of the same types throughout (``1`` is not
    ``True`` nor ``1.0``)."""
    return repr(a) == repr(b)


#: The tag of the cell holding a run's parameters (papermill's name for it, which
#: papermill's own tools and the runner's cell numbering read).
INJECTED_TAG = "injected-parameters"


def write_parameterised(notebook: Path | str, values: Mapping[str, Any], target: Path | str) -> Path:
    """Write ``notebook`` to ``target`` with its run's parameters: a cell tagged
    :data:`INJECTED_TAG` holding :func:`parameters_source` right after the cell tagged
    ``parameters`` (first if there is none; no cell at all without values), ``values``
    recorded in the notebook's papermill metadata; return ``target``. papermill then runs
    ``target`` with no parameters of its own to write.

    Raises:
        InvalidSetupError: as :func:`parameters_source`.
    """
    nbformat = notebook_library("nbformat")

    nb = nbformat.read(str(notebook), as_version=4)
    if values:
        cell = nbformat.v4.new_code_cell(parameters_source(values))
        cell.metadata["tags"] = [INJECTED_TAG]
        tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
        nb.cells.insert(tagged[0] + 1 if tagged else 0, cell)
        nb.metadata.setdefault("papermill", {})["parameters"] = dict(values)
    nbformat.write(nb, str(target))
    return Path(target)
