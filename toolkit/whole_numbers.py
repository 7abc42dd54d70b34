"""One check for whole numbers and their ranges: dice, cards, tokens, trials, rule numbers.

Every count the toolkit takes goes through :func:`whole_number`, so a ``True`` (which
Python counts as 1), a ``2.5`` or a word is refused the same way everywhere, with a
one-line message naming the input, the value given and the whole numbers accepted. A
whole number is any integer Python can use as an index (``operator.index``): an ``int``,
a numpy integer (``np.int64(3)``, what a DataFrame cell or an array gives), any
``numbers.Integral``; never a ``bool`` (nor numpy's) and never a float, even ``3.0``.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Sized
from typing import TypeGuard, TypeVar

from toolkit.errors import InvalidSetupError, excerpt

__all__ = ["whole_number", "accepted_whole_numbers", "is_whole_number", "at_most_items"]

T = TypeVar("T")


def is_whole_number(value: object) -> TypeGuard[int]:
    """Return True if ``value`` is a whole number: an integer Python can index with
    (``int``, ``np.int64``, any ``numbers.Integral``), not a ``bool`` (``True`` is not a
    count; numpy's ``bool`` has no index) and not a float.

    >>> import numpy as np
    >>> is_whole_number(3), is_whole_number(np.int64(3)), is_whole_number(True), is_whole_number(3.0)
    (True, True, False, False)
    """
    return _as_int(value) is not None


def _as_int(value: object) -> int | None:
    """``value`` as a plain ``int`` when it is a whole number (see :func:`is_whole_number`), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)  # an int subclass (an IntEnum) as the plain int it stands for
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def accepted_whole_numbers(low: int | None = None, high: int | None = None) -> str:
    """Return the words for the whole numbers from ``low`` to ``high`` (either end open
    when None), as an error message gives them.

    >>> accepted_whole_numbers(1, 6)
    'a whole number from 1 to 6'
    >>> accepted_whole_numbers(0)
    'a whole number of 0 or more'
    >>> accepted_whole_numbers(high=100)
    'a whole number of at most 100'
    """
    if low is not None and high is not None:
        return f"a whole number from {low:,} to {high:,}"
    if low is not None:
        return f"a whole number of {low:,} or more"
    if high is not None:
        return f"a whole number of at most {high:,}"
    return "a whole number"


def whole_number(
    value: object,
    name: str,
    low: int | None = None,
    high: int | None = None,
    *,
    ruling: str = "",
    hint: str = "",
    what: str = "",
    field: bool = False,
    error: Callable[[str], Exception] = InvalidSetupError,
    type_error: Callable[[str], Exception] | None = None,
) -> int:
    """Return ``value`` as a plain ``int`` if it is a whole number (:func:`is_whole_number`:
    ``np.int64(3)`` gives ``3``) from ``low`` to ``high`` (either end open when None);
    raise otherwise.

    The message is one line: ``"{name} must be a whole number from 1 to 6, got 7 (AM-2)"``
    — the input's name, the numbers accepted, the value given (a short excerpt), then
    ``ruling`` in brackets and ``hint`` after a semicolon when given.

    Args:
        value: what was given; a ``bool`` is refused (``True`` is not 1 die).
        name: the input as the designer knows it (``"cards_a (side a's hand size)"``).
        low, high: the smallest and largest accepted, inclusive; None leaves that end open.
        ruling: the ruling the range comes from (``"DB-7"``), if any.
        hint: a further sentence on what to do instead.
        what: what the number is, in words (``"a won tie's damage"``).
        field: write the message as a rules field is written in a house-rules file,
            ``"{name}={value}: {what}, a whole number from 0 to 100 ({ruling})"``, so
            the field's label can be put after its name (``tie_damage (Tie damage) = 101: ...``).
        error: builds the exception from the message (default :class:`InvalidSetupError`;
            ``functools.partial(RuleFieldError, field)`` for a rules field).
        type_error: builds the exception when ``value`` is not a whole number at all
            (default ``error``), e.g. :class:`~toolkit.errors.ArgumentTypeError`.

    Raises:
        InvalidSetupError: (or what ``error``/``type_error`` build) ``value`` is not a
        whole number, or is outside ``low``..``high``.
    """
    number = _as_int(value)
    if number is not None:
        if (low is None or number >= low) and (high is None or number <= high):
            return number
        build = error
    else:
        build = type_error or error
    accepted = accepted_whole_numbers(low, high)
    given = excerpt(value if number is None else number)  # np.int64(7) reads 7
    if field:
        message = f"{name}={given}: " + (f"{what}, {accepted}" if what else accepted)
        message += f" ({ruling})" if ruling else ""
    else:
        named = f"{name} ({what})" if what else name
        message = f"{named} must be {accepted}, got {given}" + (f" ({ruling})" if ruling else "")
    if hint:
        message += f"; {hint}"
    raise build(message)


def at_most_items(
    values: Iterable[T],
    name: str,
    most: int,
    what: str = "values",
    *,
    error: Callable[[str], Exception] = InvalidSetupError,
) -> list[T]:
    """Return the items of ``values`` as a list if there are at most ``most`` of them,
    reading at most ``most + 1`` (``itertools.islice``): ``range(10**12)``, an endless
    iterator or a 3-million-card hand is refused before it is read whole, in one line
    stating the bound: ``"attack_dice has more than 10,000 values; at most 10,000"``.

    >>> at_most_items(range(3), "pools", 5)
    [0, 1, 2]
    >>> import itertools
    >>> at_most_items(itertools.count(), "pools", 5)
    Traceback (most recent call last):
    ...
    toolkit.errors.InvalidSetupError: pools has more than 5 values; at most 5
    """
    size = None
    if isinstance(values, Sized):
        try:
            size = len(values)
        except OverflowError:  # len(range(10**20)) does not fit in a C integer
            size = None
        else:
            if size <= most:
                return list(values)
    items = list(itertools.islice(values, most + 1)) if size is None else []
    if size is not None or len(items) > most:
        counted = f"{size:,}" if size is not None else f"more than {most:,}"
        raise error(f"{name} has {counted} {what}; at most {most:,}")
    return items
