"""Exact odds, rules engines and notebook tools for tabletop combat designers."""

from toolkit.errors import (
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    TooBigError,
    ToolkitError,
)
from toolkit.prob import Distribution, format_probability

__all__ = [
    "Distribution",
    "format_probability",
    "ToolkitError",
    "NotationError",
    "InvalidSetupError",
    "IllegalActionError",
    "TooBigError",
]
__version__ = "0.1.0"
