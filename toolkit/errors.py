"""The toolkit's errors: one ``ValueError`` subclass per kind of bad input.

Each message names the input (``!r``), the ruling it breaks where there is one,
and what is accepted, so a designer can fix the input without reading a traceback.
"""

from __future__ import annotations

__all__ = [
    "ToolkitError",
    "NotationError",
    "InvalidSetupError",
    "IllegalActionError",
    "TooBigError",
    "ArgumentTypeError",
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


class ArgumentTypeError(InvalidSetupError, TypeError):
    """An argument of the wrong type (a word where a number of dice goes, a str for the
    rules); the message names the argument. Both a ``TypeError`` and an
    :class:`InvalidSetupError`, so either may be caught."""
