"""A calculator a sweep can run, as a system's ``calculators`` hook supplies them
(:mod:`toolkit.systems`): one public function of the system, its arguments (with their
types and bounds, checked before a sweep runs) and how its result becomes rows of the
sweep table. The registry of every system's calculators is the sweeps'
(:mod:`toolkit.sweeps.calculators`).

A :class:`Calculator` wraps one public function of a system's package (the rulings it
implements are those of the function); it never computes odds itself. Its
:meth:`~Calculator.rows` turn the result into :class:`Row`\\ s: one per outcome of a
distribution (exact ``Fraction``), or one per reported quantity (a game value, an
exploitability).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import floordiv, truediv
from typing import Any, NamedTuple

from toolkit.errors import ArgumentTypeError, InvalidSetupError
from toolkit.notation import excerpt
from toolkit.outcome_names import field_names
from toolkit.whole_numbers import accepted_whole_numbers, whole_number

__all__ = [
    "distribution_rows",
    "intervals",
    "value_rows",
    "Param",
    "Row",
    "Calculator",
    "interval_of",
    "outcome_label",
    "result_columns",
    "result_rows",
    "rows_columns",
    "ROW_COLUMNS",
]

#: A range longer than this, of an argument that is not a number, is checked only up to
#: its first refused value.
LONG_RANGE = 1_000


class Row(NamedTuple):
    """One row of a point's result: an ``outcome`` label, its ``kind`` (``"probability"``:
    one outcome of a distribution, whose rows sum to 1; ``"chance"``: the probability of one
    event, not part of a distribution; or ``"value"``), the exact number (``Fraction``, or ``None`` when the calculator
    reports a float only), the float, whether the number is exact (a Monte Carlo
    frequency is a ``Fraction`` of the trials but not exact), and the interval
    ``low``..``high`` the calculator gives for it (``None``: it gives none; the table
    then holds the value itself when exact, an empty cell otherwise: :meth:`bounds`)."""

    outcome: str
    kind: str
    exact: Fraction | None
    value: float
    is_exact: bool
    low: float | None = None
    high: float | None = None

    def bounds(self) -> tuple[float | None, float | None]:
        """Return ``(low, high)`` as the table holds them: the calculator's interval, else
        the value twice when it is exact, else ``(None, None)`` (an estimate whose
        calculator gives no interval: not knowable here)."""
        if self.low is not None and self.high is not None:
            return self.low, self.high
        if self.is_exact:
            return self.value, self.value
        return None, None


@dataclass(frozen=True)
class Param:
    """One argument of a calculator: its ``kind`` (``"int"``, ``"choice"``, ``"bool"``,
    ``"float"``, ``"cards"``, ``"policies"`` or ``"die"``), its default (``None``: it
    must be given), bounds or choices, a line of help, and ``aliases``: the names it had
    before a rename, oldest first, which designer files (sweeps, tunings) written with
    them may still use (:meth:`Calculator.param` finds it by any of them).

    >>> dice = Param("defence_dice", "int", low=0, high=8, aliases=("defense_dice",))
    >>> dice.stored_name, dice.names
    ('defense_dice', ('defence_dice', 'defense_dice'))
    """

    name: str
    kind: str
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is None

    @property
    def names(self) -> tuple[str, ...]:
        """Every name a designer file may give the argument: its name, then its aliases."""
        return (self.name, *self.aliases)

    @property
    def stored_name(self) -> str:
        """The name the argument's value is fingerprinted under in a sweep's point keys and
        identity (:func:`toolkit.sweeps.spec.point_definition`): its first name (the oldest
        alias) when it was renamed, so that points and tables stored before a rename are
        still found after it."""
        return self.aliases[0] if self.aliases else self.name

    def accepted(self) -> str:
        """Return what the argument accepts, in words (for error messages and --list)."""
        if self.kind == "int":
            return accepted_whole_numbers(int(self.low or 0), int(self.high or 0))
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "cards":
            return 'card codes, e.g. "KS QC 5C"'
        if self.kind == "policies":
            return f"a policy ({', '.join(self.choices)}) or a pair [attacker's, defender's]"
        if self.kind == "die":
            return "a trait die: d4, d6, d8, d10 or d12"
        return self.kind

    def check(self, value: Any) -> Any:
        """Return ``value`` as the calculator takes it (a policy pair as a tuple).

        Raises:
            ArgumentTypeError: a value of the wrong type or out of bounds; the message
                names the argument and what it accepts.
        """
        bad = ArgumentTypeError(f"{self.name} must be {self.accepted()}, got {excerpt(value)}")
        kind = self.kind
        if kind == "int":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            value = whole_number(value, self.name, int(self.low or 0), int(self.high or 0), error=ArgumentTypeError)
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.low <= value <= self.high:  # type: ignore[operator]
                raise bad
            value = float(value)
        elif kind == "choice":
            if value not in self.choices:
                raise bad
        elif kind == "bool":
            if not isinstance(value, bool):
                raise bad
        elif kind == "cards":
            if isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value):
                value = " ".join(value)
            if not isinstance(value, str) or len(value) > 400:
                raise bad
        elif kind == "policies":
            pair = (value, value) if isinstance(value, str) else value
            if not isinstance(pair, (list, tuple)) or len(pair) != 2 or any(p not in self.choices for p in pair):
                raise bad
            value = tuple(pair)
        elif kind == "die":
            from toolkit.dice import check_trait_die

            try:
                value = f"d{check_trait_die(value)}"
            except InvalidSetupError:
                raise bad from None
        return value

    def bad_in_range(self, values: range) -> tuple[int | None, int | None]:
        """Return how many of the whole numbers ``values`` the argument refuses and the
        first of them (``(0, None)``: none). A number's bounds are compared with the range's
        ends (no value is checked one by one: a range may hold a million values); another
        kind is checked value by value, stopping at the first refused one of a long range
        (the count is then ``None``).

        >>> Param("dice", "int", low=0, high=200).bad_in_range(range(-5, 1_000_001))
        (999805, -5)
        >>> Param("dice", "int", low=0, high=200).bad_in_range(range(0, 201, 50))
        (0, None)
        """
        if self.kind in ("int", "float"):
            low, high = math.ceil(self.low), math.floor(self.high)  # type: ignore[arg-type]
            start, step, n = values.start, values.step, len(values)
            first_in = max(0, -((start - low) // step))  # the first index at or above low
            last_in = min(n - 1, (high - start) // step)  # the last index at or below high
            inside = max(0, last_in - first_in + 1)
            if inside == n:
                return 0, None
            first = values[0] if first_in > 0 or inside == 0 else values[last_in + 1]
            return n - inside, first
        count, first = 0, None
        for value in values:
            try:
                self.check(value)
            except InvalidSetupError:
                count += 1
                if first is None:
                    first = value
                    if len(values) > LONG_RANGE:
                        return None, first
        return count, first

    def column(self, value: Any) -> Any:
        """Return ``value`` as it is written in the sweep table's column (a policy pair as
        ``"greedy/random"``)."""
        if self.kind == "policies":
            return "/".join(value)
        return value


def outcome_label(outcome: Any) -> str:
    """Return a short, stable label of an outcome: its fields as ``"winner=attacker,
    points=1"`` for a named tuple or a dataclass (the names Python uses, so a tuning file
    asks ``{defender_damage: {at_least: 1}}``), ``"a, b"`` for a plain tuple, its ``str``
    otherwise. Outcomes recur from point to point: each label is kept once made
    (:data:`LABELS` of them at most)."""
    try:
        return _LABELS[outcome]
    except KeyError:
        label = _label(outcome)
    except TypeError:  # not hashable
        return _label(outcome)
    if len(_LABELS) >= LABELS:
        _LABELS.clear()
    _LABELS[outcome] = label
    return label


#: The most outcome labels kept (:func:`outcome_label`).
LABELS = 100_000
_LABELS: dict[Any, str] = {}


def _label(outcome: Any) -> str:
    names = field_names(outcome)
    if names and not isinstance(outcome, Mapping):
        return ", ".join(f"{k}={getattr(outcome, k)}" for k in names)
    if isinstance(outcome, tuple):
        return ", ".join(map(str, outcome))
    return str(outcome)


def distribution_rows(dist: Any, is_exact: bool = True, result: Any = None) -> list[Row]:
    """One probability row per outcome of a :class:`~toolkit.prob.Distribution`, in its
    order, each with its interval read from ``result`` (:func:`interval_of`)."""
    rows = [
        Row(outcome_label(o), "probability", p if type(p) is Fraction else Fraction(p), float(p), is_exact)
        for o, p in dist.items()
    ]
    if result is None or is_exact:
        return rows
    return [r._replace(low=low, high=high) for r, (low, high) in zip(rows, intervals(result, dist), strict=True)]


#: The columns of a point's rows, as :func:`result_columns` and :meth:`Calculator.columns` give them.
ROW_COLUMNS = ("outcome", "kind", "numerator", "denominator", "value", "low", "high", "exact")


def rows_columns(rows: list[Row]) -> dict[str, list[Any]]:
    """Return rows as :data:`ROW_COLUMNS` (exact numbers as decimal text, ``low`` and
    ``high`` as :meth:`Row.bounds`)."""
    bounds = [r.bounds() for r in rows]
    return {
        "outcome": [r.outcome for r in rows],
        "kind": [r.kind for r in rows],
        "numerator": [None if r.exact is None else str(r.exact.numerator) for r in rows],
        "denominator": [None if r.exact is None else str(r.exact.denominator) for r in rows],
        "value": [r.value for r in rows],
        "low": [b[0] for b in bounds],
        "high": [b[1] for b in bounds],
        "exact": [r.is_exact for r in rows],
    }


def result_columns(result: Any) -> dict[str, list[Any]]:
    """Return the rows :func:`result_rows` gives, as :data:`ROW_COLUMNS`, built from the
    distribution's integer weights in bulk (no ``Fraction`` or :class:`Row` per outcome:
    what a sweep's worker writes). Each probability is ``weight / total`` reduced by their
    greatest common divisor, its float the correctly rounded quotient (as
    ``float(Fraction)`` gives it)."""
    dist = getattr(result, "distribution", result)
    is_exact = bool(getattr(result, "exact", True))
    outcomes = dist.outcomes()
    weights = list(map(dist.weights().__getitem__, outcomes))
    total = dist.total
    divisors = list(map(math.gcd, weights, repeat(total)))
    numerators = list(map(floordiv, weights, divisors))
    denominators = list(map(floordiv, repeat(total), divisors))
    shown: dict[int, str] = {}  # many outcomes share a denominator: written once
    count = len(outcomes)
    values = list(map(truediv, weights, repeat(total)))
    if is_exact:
        low, high = values, values
    else:
        low, high = [list(side) for side in zip(*intervals(result, dist), strict=True)] or ([], [])
    return {
        "outcome": list(map(outcome_label, outcomes)),
        "kind": ["probability"] * count,
        "numerator": list(map(str, numerators)),
        "denominator": [shown.get(d) or shown.setdefault(d, str(d)) for d in denominators],
        "value": values,
        "low": low,
        "high": high,
        "exact": [is_exact] * count,
    }


def result_rows(result: Any) -> list[Row]:
    """The :func:`distribution_rows` of a calculator's result, read duck-typed: its
    ``distribution`` (or the result itself when it is a distribution), ``exact`` (true
    when it does not say) and ``interval``."""
    dist = getattr(result, "distribution", result)
    return distribution_rows(dist, bool(getattr(result, "exact", True)), result)


def interval_of(result: Any, event: Any) -> tuple[float | None, float | None]:
    """Return the interval a calculator's result gives for an outcome or predicate,
    read duck-typed: ``result.interval(event)`` when the result has one (the exact value
    twice when ``result.exact``), else ``(None, None)``."""
    interval = getattr(result, "interval", None)
    if not callable(interval):
        return None, None
    low, high = interval(event)
    return float(low), float(high)


def intervals(result: Any, dist: Any) -> list[tuple[float | None, float | None]]:
    """The :func:`interval_of` ``result`` for each outcome of ``dist``, in its order."""
    return [interval_of(result, o) for o in dist.outcomes()]


def value_rows(values: Mapping[str, Any], is_exact: bool = True) -> list[Row]:
    """One value row per named quantity (a ``Fraction`` kept exactly, a float as a float)."""
    rows = []
    for name, v in values.items():
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            rows.append(Row(name, "value", Fraction(v), float(v), is_exact))
        else:
            rows.append(Row(name, "value", None, float(v), False))
    return rows


@dataclass(frozen=True)
class Calculator:
    """A public calculator of one system, as a sweep runs it.

    Attributes:
        system, name: the system's ``system:`` name and the function's public name.
        params: its arguments (the rules are not one of them: see ``takes_rules``).
        run: ``run(args, rules) -> result`` calls the system's function.
        to_rows: the result as :class:`Row`\\ s.
        takes_rules: whether the function takes the system's ``Rules``.
        size: ``size(args, rules) -> (size, limit, alternative)`` of the calculator's own
            exact-size check under the point's rules (``None`` when the point is not
            exact), or ``None`` (checked for every point before running).
        seconds: a rough time of one point, for chunking small points together.
        max_points: the most points of one sweep of this calculator.
        help: one line.
        shares: the arguments whose equal values share cached work (the same pools, the
            same hand sizes): a sweep runs points that agree on them in the same chunk
            (under every rules variant of the sweep).
        deal_groups: whether groups of points with different values of ``shares`` share
            cached work too (Fairy Meat: the tables of one hand size, the referee's
            judgements under one rules variant): a sweep on several workers then deals the
            groups out to them, one lane per worker, each lane holding every value of each
            of those arguments (``toolkit.sweeps.runner.plan_lanes``).
        units: the unit of each number field of the outcomes and of each reported quantity
            that has one, ``(field, unit)`` pairs (``("lost_a", "tokens")``; ``"%"``: a
            probability): a tuning target's mean of it is written in it (``1 ± 0.06 tokens``).
        headline: the outcome field a sweep's page charts first (``"winner"``: who wins),
            its probability rows summed over the other fields; ``""``: none (the page leads
            with the chances of single events, where the calculator gives them).
    """

    system: str
    name: str
    params: tuple[Param, ...]
    run: Callable[[dict[str, Any], Any], Any]
    to_rows: Callable[[Any], list[Row]]
    takes_rules: bool = True
    size: Callable[[dict[str, Any], Any], tuple[int, int, str] | None] | None = None
    seconds: float = 0.01
    max_points: int = 2_000_000
    help: str = ""
    shares: tuple[str, ...] = ()
    deal_groups: bool = False
    units: tuple[tuple[str, str], ...] = ()
    headline: str = ""

    def unit(self, field: str) -> str:
        """Return the unit of the outcomes' field or reported quantity ``field`` (``""``: none)."""
        return dict(self.units).get(field, "")

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def param(self, name: str) -> Param:
        """Return the argument called ``name``, or that had ``name`` before a rename (one of
        its ``aliases``).

        Raises:
            InvalidSetupError: no such argument (the message lists them).
        """
        for p in self.params:
            if p.name == name:
                return p
        for p in self.params:
            if name in p.aliases:
                return p
        raise InvalidSetupError(
            f"{excerpt(name)} is not an argument of {self.name}; its arguments are {', '.join(self.param_names)}"
        )

    def call(self, args: Mapping[str, Any], rules: Any) -> Any:
        """Return the calculator's result for ``args`` (defaults filled in) and ``rules``."""
        full = {p.name: p.default for p in self.params}
        full.update(args)
        return self.run(full, rules)

    def measure(self, args: Mapping[str, Any], rules: Any) -> tuple[int, int, str] | None:
        """Return ``(size, limit, alternative)`` of the exact computation of ``args`` under
        ``rules`` (:attr:`size`), or ``None``: the calculator has no size, the point is not
        computed exactly, or its rules refuse it (the point then fails on its own, with its
        message)."""
        if self.size is None:
            return None
        try:
            return self.size(args, rules)
        except InvalidSetupError:
            return None

    def rows(self, result: Any) -> list[Row]:
        """Return the rows of a result of :meth:`call`."""
        return self.to_rows(result)

    def columns(self, result: Any) -> dict[str, list[Any]]:
        """Return the rows of a result of :meth:`call` as :data:`ROW_COLUMNS`: in bulk
        (:func:`result_columns`) for a calculator whose rows are :func:`result_rows`, else
        through :meth:`rows`."""
        if self.to_rows is result_rows:
            return result_columns(result)
        return rows_columns(self.rows(result))

    def describe(self) -> str:
        """Return one line per argument: name, what it accepts, the default."""
        lines = [f"{self.system} {self.name}: {self.help}" + ("" if self.takes_rules else " (no rules)")]
        for p in self.params:
            default = "required" if p.required else f"default {p.column(p.default)!r}"
            lines.append(f"    {p.name}: {p.accepted()} ({default})")
        return "\n".join(lines)
