"""The headline tables of a system, computed for one set of rules: what the rule-change
report (:mod:`toolkit.reports.rule_change`) compares.

Each system supplies its tables through its registry hooks (:mod:`toolkit.systems`):
``tables(rules, sizes) -> [Table, ...]``, a grid of probabilities over two sizes computed
by the system's own exact calculator with ``rules=``, and ``sizes``, the sizes its tables
read with their defaults. This module holds what the tables share: :class:`Table`,
:class:`TableSpec`, :class:`Cell` and the helpers a system builds them with.

Exact wherever the calculator is exact; a Monte Carlo cell is kept as the exact fraction
of its trials, marked ``exact=False`` and given its 95% interval
(:func:`toolkit.comparison.interval_of`: the calculator's own interval, or a Wilson
interval of its trials). Every calculator samples with its default seed under both rule
sets, so two rule sets are compared with common random numbers (the same deals and rolls
wherever the decks are alike).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.plugin.headline import Cell, Reach, Table, TableSpec, cell_of, grid, size_list

__all__ = [
    "Cell",
    "Reach",
    "Table",
    "TableSpec",
    "cell_of",
    "grid",
    "headline_tables",
    "reach_of",
    "size_list",
    "sizes_of",
]


def headline_tables(system: str, rules: Any, sizes: Mapping[str, Any] | None = None) -> list[Table]:
    """Return ``system``'s headline tables under ``rules`` (a system's ``Rules``), at its
    default sizes changed by ``sizes`` (:meth:`toolkit.systems.System.check_sizes`).

    Raises:
        InvalidSetupError: an unknown system or one without tables (the systems are named),
            an unknown size or a bad one.
    """
    entry = _with_tables(system)
    return entry.hook("tables")(rules, entry.check_sizes(sizes))  # type: ignore[no-any-return]


def reach_of(system: str) -> Reach:
    """Return which of ``system``'s headline tables see each of its rules fields (its
    ``reach`` hook; every table sees every field when it declares none).

    Raises:
        InvalidSetupError: an unknown system or one without tables (the systems are named).
    """
    entry = _with_tables(system)
    return entry.hook("reach") if entry.has("reach") else Reach()  # type: ignore[no-any-return]


def sizes_of(system: str) -> Sequence[str]:
    """Return the names of the size parameters ``system``'s tables read (none for a system
    without tables)."""
    try:
        return tuple(_with_tables(system).default_sizes())
    except InvalidSetupError:
        return ()


def _with_tables(system: str) -> Any:
    """The registered system called ``system``, if it has headline tables."""
    from toolkit import systems

    known = systems.names("tables")
    if system not in known:
        raise InvalidSetupError(f"unknown system {system!r}; the systems are: {', '.join(known)}")
    return systems.system(system)
