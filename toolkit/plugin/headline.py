"""A system's headline tables, as its ``tables`` hook returns them (:mod:`toolkit.systems`):
the grids of probabilities over two sizes that the rule-change report compares
(:mod:`toolkit.reports.rule_change`), and the helpers a system builds them with.

A cell is exact wherever the system's calculator is exact; a Monte Carlo cell is kept as
the exact fraction of its trials, marked ``exact=False`` and given its 95% interval
(:func:`toolkit.comparison.interval_of`: the calculator's own interval, or a Wilson
interval of its trials) and the runs behind it. Every calculator samples with its default
seed under both rule sets, so two rule sets are compared with common random numbers (the
same deals and rolls wherever the decks are alike), run by run where both cells kept their
runs (a Durak battle, a chain over sampled clash tables, keeps none: its change gets the
conservative interval).

A system also declares which of its tables can see each of its rules fields (:class:`Reach`,
its ``reach`` hook): a table by pool or hand size cannot see a rule about characters or
modifiers, and the rule-change report then says that the field is not measured by these
tables, naming the calculator that does measure it, instead of reading "no change".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from toolkit.comparison import CONFIDENCE, interval_of
from toolkit.errors import InvalidSetupError, excerpt
from toolkit.odds_samples import Samples
from toolkit.question import Question
from toolkit.whole_numbers import at_most_items, whole_number

#: The most sizes a headline table's rows or columns list.
MAX_SIZES = 1_000

__all__ = ["Cell", "Reach", "Table", "TableSpec", "cell_of", "grid", "size_list", "span"]


@dataclass(frozen=True)
class Cell:
    """One probability of a headline table: at ``(row, column)`` sizes, exact or not, and
    its 95% interval (``low``, ``high``; the value twice when exact). A Monte Carlo cell
    also keeps the runs behind it and its event (``samples``, ``event``), so that the same
    cell under two rule sets, drawn with the same seed, is compared run by run
    (:func:`toolkit.comparison.paired_probability_difference`)."""

    row: int
    column: int
    value: Fraction
    exact: bool = True
    low: Fraction | float | None = None
    high: Fraction | float | None = None
    samples: Samples | None = field(default=None, compare=False, repr=False)
    event: Any = field(default=None, compare=False, repr=False)

    @property
    def interval(self) -> tuple[Fraction | float, Fraction | float]:
        """The 95% interval of :attr:`value` (the value twice when exact)."""
        if self.exact or self.low is None or self.high is None:
            return (self.value, self.value)
        return (self.low, self.high)


@dataclass(frozen=True)
class TableSpec:
    """What a headline table measures and how a sentence names its cells.

    Attributes:
        key: a short name (``"damage"``).
        measure: the probability, as a column heading (``"P(the attack deals damage)"``).
        row_label, column_label: what the two sizes are (``"attack dice"``).
        situation: ``situation.format(row=, column=, column_dice=, column_cards=)``
            names a cell in a sentence (``"a 3-die attack against 2 dice"``;
            ``column_dice`` is ``"1 die"`` or ``"2 dice"``, ``column_cards`` likewise).
        event: what happens, after the situation (``"deals damage"``), said positively
            (a sentence gives its probability before and after, never "less often").
        mirrored: the two sides play by the same rules and sizes, so the cell at
            ``(column, row)`` is this cell's measure for the other side: the list of
            largest changes names each pair once (the cell with ``row <= column``).
    """

    key: str
    measure: str
    row_label: str
    column_label: str
    situation: str
    event: str
    mirrored: bool = False


@dataclass(frozen=True)
class Table:
    """A headline table computed for one set of rules: its spec and its cells, row by row;
    what it answers (``question``: the :class:`~toolkit.question.Question` of its results,
    its sizes the table's ranges, :func:`span`) and the results read (``results``: how
    they were obtained, for :func:`~toolkit.question.headline_over`)."""

    spec: TableSpec
    cells: tuple[Cell, ...]
    note: str = ""
    question: Question | None = None
    results: tuple[Any, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Reach:
    """Which of a system's headline tables can see each of its rules fields: every table
    sees a field but those this record names (a contract test changes every field of every
    system and checks it against this record).

    Attributes:
        only: ``{field: (TableSpec, ...)}``: the tables that alone see a field (the melee
            table of damage back, say); at sizes that draw none of them, no table sees it.
        unseen: ``{field: where it is measured}``: the fields no headline table can see,
            each with the calculator that does measure it, in words a designer can type
            (``"opposed(*attack_pools(attacker, defender, 'melee', rules=rules), 'melee', rules)
            with a Character(melee_character=True) defender"``).
    """

    only: Mapping[str, tuple[TableSpec, ...]] = field(default_factory=dict)
    unseen: Mapping[str, str] = field(default_factory=dict)

    def seen_by(self, name: str, tables: Iterable[TableSpec]) -> list[TableSpec]:
        """Return the tables among ``tables`` that can see the rules field ``name``."""
        if name in self.unseen:
            return []
        only = self.only.get(name)
        return [t for t in tables if only is None or t.key in {o.key for o in only}]

    def measured_by(self, name: str, tables: Iterable[TableSpec]) -> str:
        """Return where the rules field ``name`` is measured when none of ``tables`` sees it,
        as a clause: ``"measure it with <its declared calculator>"``, or the tables that
        alone see it, drawn at other sizes."""
        if name in self.unseen:
            return f"measure it with {self.unseen[name]}"
        shown = {t.key for t in tables}
        others = [t.measure for t in self.only.get(name, ()) if t.key not in shown] or ["other tables"]
        return f"only {' and '.join(others)} can see it, at sizes that draw {'it' if len(others) < 2 else 'them'}"


def size_list(values: Any, what: str, low: int) -> list[int]:
    """Return the sizes ``values`` (one whole number or a list) sorted without repeats.

    Raises:
        InvalidSetupError: a value that is not a whole number of ``low`` or more.
    """
    items = at_most_items(values, what, MAX_SIZES, "sizes") if isinstance(values, (list, tuple, range)) else [values]
    if not items:
        raise InvalidSetupError(f"{what} must list whole numbers of {low} or more, got {excerpt(values)}")
    for v in items:
        whole_number(v, f"each of {what} {excerpt(values)}", low)
    return sorted(set(items))


def span(sizes: Iterable[int]) -> str:
    """The sizes of a table's rows or columns in a question: ``"1–8"``, or ``"3"`` alone.

    >>> span([1, 2, 8]), span([3])
    ('1–8', '3')
    """
    values = sorted(sizes)
    return f"{values[0]}–{values[-1]}" if values[0] != values[-1] else str(values[0])


def grid(rows: Iterable[int], columns: Iterable[int], value: Callable[[int, int], Cell]) -> tuple[Cell, ...]:
    """Return the cells ``value(row, column)``, row by row."""
    return tuple(value(r, c) for r in rows for c in columns)


def cell_of(row: int, column: int, result: Any, event: Any) -> Cell:
    """The cell of ``P(event)`` read from a calculator's result, with its interval."""
    exact = bool(result.exact)
    value = result.probability(event)
    low, high = (value, value) if exact else interval_of(result, event, CONFIDENCE)
    samples = None if exact else getattr(result, "samples", None)
    return Cell(row, column, value, exact, low, high, samples, event if samples is not None else None)
