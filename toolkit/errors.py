"""The toolkit's errors: one ``ValueError`` subclass per kind of bad input.

Each message names the input (``!r``), the ruling it breaks where there is one,
and what is accepted, so a designer can fix the input without reading a traceback.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = [
    "ToolkitError",
    "NotationError",
    "InvalidSetupError",
    "IllegalActionError",
    "TooBigError",
    "PrecisionNotReachedError",
    "ArgumentTypeError",
    "UnknownNameError",
    "excerpt",
    "path_excerpt",
    "EXCERPT_CHARS",
    "PATH_CHARS",
]


class ToolkitError(ValueError):
    """Base class of every error the toolkit raises for bad input."""


class NotationError(ToolkitError):
    """A die face, card code or example-file line that cannot be read."""


class InvalidSetupError(ToolkitError):
    """A pool, stat, Health, rule option or parameter outside what the rules accept."""


class IllegalActionError(ToolkitError):
    """An action that the rules do not allow in the current state (the state is unchanged)."""


class TooBigError(ToolkitError):
    """An exact computation too large to run; the message gives its size and the alternative."""


class PrecisionNotReachedError(TooBigError):
    """Sampling stopped at its time limit before its estimates reached the precision asked
    for; the message gives the precision reached, the runs behind it and the time."""


class ArgumentTypeError(InvalidSetupError, TypeError):
    """An argument of the wrong type (a word where a number of dice goes, a str for the
    rules); the message names the argument. Both a ``TypeError`` and an
    :class:`InvalidSetupError`, so either may be caught."""


class UnknownNameError(InvalidSetupError, KeyError):
    """A field, side or value an outcome does not have (``winner="Hordes"``, ``mean("lost")``);
    the message lists the ones it has. Also a ``KeyError``, as a missing field always was."""

    def __str__(self) -> str:  # a KeyError would print its message in quotes
        return str(self.args[0]) if self.args else ""


#: The longest excerpt of a bad value an error message quotes.
EXCERPT_CHARS = 40
#: The longest path an error message quotes whole (a longer one loses its middle).
PATH_CHARS = 160


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """Return a short quotation of ``value`` for an error message: its ``repr``, cut to
    about ``limit`` characters (``'aaaa…' (5000 characters)``); never the whole of a
    huge value, and never an exception (a value too big to print is described).

    >>> excerpt("x" * 100, 10)
    "'xxxxxxxxx… (102 characters)"
    >>> excerpt(10**5000)
    'a whole number of 5001 digits'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a whole number of {_digits(value)} digits"
    if isinstance(value, (str, bytes)) and len(value) > limit:
        text = repr(value[: limit + 1])
        return f"{text[:limit]}… ({len(value) + 2} characters)"
    if isinstance(value, (list, tuple, dict, set)) and len(value) > 8:
        kind = type(value).__name__
        return f"a {kind} of {len(value)} items"
    try:
        text = repr(value)
    except (ValueError, RecursionError, MemoryError):
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def path_excerpt(path: str | bytes | os.PathLike[Any], limit: int = PATH_CHARS) -> str:
    """Return a path quoted for a one-line error message: its ``repr``, and when it is
    longer than ``limit`` characters its start and its end, where the file name is, with
    the middle left out (never an exception).

    >>> path_excerpt("/tmp/" + "x" * 200 + "/store/table.parquet", 60)
    "'/tmp/xxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxx/store/table.parquet' (225 characters)"
    """
    try:
        text = os.fsdecode(path)
    except (TypeError, ValueError):
        return excerpt(path, limit)
    if len(text) <= limit:
        return repr(text)
    head = limit // 3
    return f"{repr(text[:head])[:-1]}…{repr(text[head - limit :])[1:]} ({len(text):,} characters)"


def _digits(n: int) -> int:
    """The number of decimal digits of ``n`` (without printing it)."""
    n = abs(n)
    if n < 10:
        return 1
    guess = int(n.bit_length() * 0.30102999566398120)  # log10(2)
    return guess + 1 if n >= 10**guess else guess
