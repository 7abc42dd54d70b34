"""Exact finite probability distributions.

A :class:`Distribution` maps outcomes to integer weights over a common total,
like icepool's dice: every probability it hands out is a
:class:`fractions.Fraction`, and the probabilities always sum to exactly 1.
Floats appear only where asked for (``to_frame(floats=True)``, plots).

>>> coin = Distribution.uniform(["heads", "tails"])
>>> coin.probability("heads")
Fraction(1, 2)
>>> two = coin.combine(coin, lambda a, b: (a, b).count("heads"))
>>> two.items()
[(0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))]
>>> two.mean()
Fraction(1, 1)
"""

from __future__ import annotations

import html
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from toolkit.errors import UnknownNameError
from toolkit.numbers import SHORT_DENOMINATOR, TAIL, fold_tail, fold_weights, percent_text, probability_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Distribution",
    "MAX_FRACTION_DIGITS",
    "format_probability",
    "fraction_text",
    "field_of",
    "NO_EVENT",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

Field = str | int | Callable[[Any], Any]


def format_probability(p: Fraction, digits: int = 1, max_fraction_chars: int | None = 21) -> str:
    """Return ``p`` as a designer reads it, by the one display rule of
    :func:`toolkit.numbers.probability_text`: ``'7/27 ≈ 25.9%'``
    (``'1/2 = 50%'`` when exact) while the fraction is short (denominator under 10,000),
    else the percent alone, ``'69.7%'`` — never ``'≈ 69.7%'``, so ``f"P(win) = {…}"``
    reads right. ``max_fraction_chars`` (kept for old callers) also leaves out a fraction
    whose text is longer. The exact value stays in the data.

    >>> format_probability(Fraction(7, 27))
    '7/27 ≈ 25.9%'
    >>> format_probability(Fraction(1, 2))
    '1/2 = 50%'
    >>> format_probability(Fraction(7824196859001415461407, 11224232549076291776337))
    '69.7%'
    """
    text = probability_text(p, digits)
    if max_fraction_chars is not None and " " in text and len(text.split(" ")[0]) > max_fraction_chars:
        return percent_text(p, digits)
    return text


#: Fractions with more digits than this are shown by their value (Python refuses to
#: print integers of more than 4,300 digits, and nobody reads them).
MAX_FRACTION_DIGITS = 4000


def _digits(p: Fraction) -> int:
    """About how many digits ``p`` has, numerator and denominator together (never printing it)."""
    return int((abs(p.numerator).bit_length() + p.denominator.bit_length()) * 0.30103) + 2


def fraction_text(p: Fraction | int) -> str:
    """Return ``p`` as text: ``'7/27'``, or for a fraction of thousands of digits its
    value, ``'≈ 0.25 (a fraction of 9,130 digits)'``; never raises.

    >>> fraction_text(Fraction(7, 27))
    '7/27'
    >>> fraction_text(Fraction(1, 3**9000))
    '≈ 0 (a fraction of 4,296 digits)'
    """
    p = Fraction(p)
    size = _digits(p)
    if size <= MAX_FRACTION_DIGITS:
        return str(p)
    try:
        value = f"{float(p):.6g}"
    except OverflowError:
        value = "a huge number"
    return f"≈ {value} (a fraction of {size:,} digits)"


def field_of(outcome: Any, field: Field) -> Any:
    """Return one field of an outcome: a dataclass attribute, a mapping key, a tuple index,
    or the value of a function of the outcome. A name the outcome does not have raises
    :class:`~toolkit.errors.UnknownNameError` (a ``KeyError`` too) listing the ones it has."""
    if callable(field):
        return field(outcome)
    if isinstance(field, str):
        if isinstance(outcome, Mapping) and field in outcome:
            return outcome[field]
        from toolkit.outcome_names import field_names  # on use: the rules layer imports this module

        names = field_names(outcome)
        if field in names or (
            not isinstance(outcome, Mapping) and isinstance(getattr(type(outcome), field, None), property)
        ):
            return getattr(outcome, field)
        there = f"fields: {', '.join(names)}" if names else "it is a plain value, with no named fields"
        raise UnknownNameError(f"outcome {outcome!r} has no field {field!r}; {there}")
    return outcome[field]


#: The event of a question asked by field names only (``probability(winner="attacker")``).
NO_EVENT: Any = object()


def _holds_side(outcome: Any) -> bool:
    from toolkit.outcome_names import Side, field_names

    if isinstance(outcome, Side):
        return True
    values = outcome.values() if isinstance(outcome, Mapping) else outcome if isinstance(outcome, tuple) else ()
    if not values and field_names(outcome):
        values = [getattr(outcome, n) for n in field_names(outcome)]
    return any(isinstance(v, Side) for v in values)


def _names(outcome: Any) -> list[str]:
    from toolkit.outcome_names import field_names

    return field_names(outcome)


class Distribution(Generic[T]):
    """An exact finite distribution: each outcome has an integer weight over a common total.

    Build one from weights (``int`` or ``Fraction``, any positive scale)::

        >>> d = Distribution({"hit": 2, "miss": 4})
        >>> d.probability("hit")
        Fraction(1, 3)

    Outcomes may be any hashable values; dataclass, named-tuple and dict outcomes
    have fields that :meth:`marginal`, :meth:`mean` and :meth:`to_frame` understand.
    """

    __slots__ = ("_weights", "_total", "_sided")

    def __init__(self, weights: Mapping[T, int | Fraction] | Iterable[tuple[T, int | Fraction]]):
        items = list(weights.items()) if isinstance(weights, Mapping) else list(weights)
        merged: dict[T, Fraction | int] = {}
        for outcome, w in items:
            if not isinstance(w, Rational):
                raise TypeError(f"weight {w!r} of outcome {outcome!r} is not exact: use an int or a Fraction")
            if w < 0:
                raise ValueError(f"weight {w} of outcome {outcome!r} is negative")
            merged[outcome] = merged.get(outcome, 0) + w
        denominators = [Fraction(w).denominator for w in merged.values()]
        scale = math.lcm(*denominators) if denominators else 1
        ints = {o: int(w * scale) for o, w in merged.items() if w != 0}
        if not ints:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        g = math.gcd(*ints.values())
        self._weights: dict[T, int] = {o: w // g for o, w in ints.items()}
        self._total: int = sum(self._weights.values())

    # -- construction ------------------------------------------------------
    @classmethod
    def from_int_weights(cls, weights: Mapping[T, int]) -> Distribution[T]:
        """Return the distribution of positive integer weights, without the checks of the
        constructor (for calculators whose weights are integers by construction)."""
        kept = {o: w for o, w in weights.items() if w}
        if not kept or any(w < 0 for w in kept.values()):
            return cls(weights)
        self = cls.__new__(cls)
        g = math.gcd(*kept.values())
        self._weights = {o: w // g for o, w in kept.items()} if g > 1 else kept
        self._total = sum(self._weights.values())
        return self

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Return the distribution giving each listed outcome equal weight (repeats count twice)."""
        weights: dict[T, int] = {}
        for o in outcomes:
            weights[o] = weights.get(o, 0) + 1
        return cls(weights)

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        """Return the distribution that is ``outcome`` with probability 1."""
        return cls({outcome: 1})

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[T, Fraction]]) -> Distribution[T]:
        """Return the distribution of ``(outcome, probability)`` pairs, which must sum to 1."""
        pairs = list(pairs)
        total = sum((Fraction(p) for _, p in pairs), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        return cls(pairs)

    # -- reading -----------------------------------------------------------
    @property
    def total(self) -> int:
        """The common denominator of the integer weights."""
        return self._total

    def weight(self, outcome: T) -> int:
        """Return the integer weight of ``outcome`` (0 if impossible). An outcome holding a
        :class:`~toolkit.outcome_names.Side` is found by the side's name as well as its role."""
        w = self._weights.get(outcome)
        if w is not None:
            return w
        if not isinstance(outcome, str | tuple) or not self._holds_sides():
            return 0
        return sum(wt for o, wt in self._weights.items() if o == outcome)

    def _holds_sides(self) -> bool:
        """Whether some outcome holds a :class:`~toolkit.outcome_names.Side` (found once)."""
        sided = getattr(self, "_sided", None)
        if sided is None:
            sided = any(_holds_side(o) for o in self._weights)
            object.__setattr__(self, "_sided", sided)
        return sided

    def outcomes(self) -> list[T]:
        """Return the possible outcomes, sorted when they are sortable."""
        keys = list(self._weights)
        try:
            return sorted(keys)  # type: ignore[type-var]
        except TypeError:
            return keys

    def items(self) -> list[tuple[T, Fraction]]:
        """Return ``(outcome, probability)`` pairs, sorted by outcome when sortable."""
        return [(o, Fraction(self._weights[o], self._total)) for o in self.outcomes()]

    def weights(self) -> dict[T, int]:
        """Return a copy of the outcome -> integer weight mapping (over :attr:`total`)."""
        return dict(self._weights)

    def __getitem__(self, outcome: T) -> Fraction:
        return Fraction(self.weight(outcome), self._total)

    def __iter__(self) -> Iterator[T]:
        return iter(self.outcomes())

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return self.weight(outcome) > 0  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        if self._total != other._total or len(self._weights) != len(other._weights):
            return False
        if self._weights == other._weights:
            return True
        # a side's name and its role are equal but hash apart: match outcome by outcome
        sided, plain = (self, other) if self._holds_sides() else (other, self)
        return sided._holds_sides() and all(sided.weight(o) == w for o, w in plain._weights.items())

    def __hash__(self) -> int:
        return hash((self._total, frozenset(self._weights.items())))

    def probability(self, event: T | Callable[[T], bool] = NO_EVENT, /, **where: Any) -> Fraction:
        """Return the exact probability of an outcome, of an event given as a predicate, or
        of the event that named fields have these values (``winner="attacker"``, a function
        of the field for a test: ``damage=lambda d: d >= 2``), both together when both are
        given. Each name and value is checked first
        (:func:`~toolkit.outcome_names.where_event`): a field or side the outcomes do not
        have raises :class:`~toolkit.errors.UnknownNameError` listing those they have.

        >>> Distribution.uniform(range(1, 7)).probability(lambda x: x >= 5)
        Fraction(1, 3)
        """
        event = self.event(event, **where)
        if callable(event) and not (isinstance(event, Hashable) and event in self._weights):
            w = sum(wt for o, wt in self._weights.items() if event(o))  # type: ignore[operator]
            return Fraction(w, self._total)
        return self[event]  # type: ignore[index]

    def event(self, event: Any = NO_EVENT, /, **where: Any) -> Any:
        """The event asked: ``event`` (an outcome or a predicate) alone, or with the
        keyword form's checked predicate (:func:`~toolkit.outcome_names.where_event`)
        joined to it. What :meth:`probability` and the results' ``interval``/``text`` count."""
        if not where:
            if event is NO_EVENT:
                raise UnknownNameError("an event needs an outcome, a predicate or field=value")
            return event
        from toolkit.outcome_names import where_event

        named = where_event(self._weights, where)
        if event is NO_EVENT:
            return named
        if callable(event) and not (isinstance(event, Hashable) and event in self._weights):
            return lambda o: named(o) and event(o)
        return lambda o: named(o) and o == event

    def at_least(self, value: Any, field: Field | None = None) -> Fraction:
        """Return P(outcome >= value), or P(field >= value)."""
        return self.probability(lambda o: self._value(o, field) >= value)

    def at_most(self, value: Any, field: Field | None = None) -> Fraction:
        """Return P(outcome <= value), or P(field <= value)."""
        return self.probability(lambda o: self._value(o, field) <= value)

    @staticmethod
    def _value(outcome: Any, field: Field | None) -> Any:
        return outcome if field is None else field_of(outcome, field)

    def mean(self, field: Field | None = None) -> Fraction:
        """Return the exact mean of the outcomes (or of one field of them)."""
        s = sum((Fraction(self._value(o, field)) * w for o, w in self._weights.items()), Fraction(0))
        return s / self._total

    def variance(self, field: Field | None = None) -> Fraction:
        """Return the exact variance of the outcomes (or of one field of them)."""
        m = self.mean(field)
        s = sum(
            ((Fraction(self._value(o, field)) - m) ** 2 * w for o, w in self._weights.items()),
            Fraction(0),
        )
        return s / self._total

    # -- transforming ------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """Return the distribution of ``f(outcome)``."""
        out: dict[U, int] = {}
        for o, w in self._weights.items():
            k = f(o)
            out[k] = out.get(k, 0) + w
        return Distribution(out)

    def marginal(self, field: Field) -> Distribution[Any]:
        """Return the distribution of one field of the outcomes (name, index or function)."""
        return self.map(lambda o: field_of(o, field))

    def condition(self, event: Callable[[T], bool]) -> Distribution[T]:
        """Return the distribution given that ``event`` holds."""
        kept = {o: w for o, w in self._weights.items() if event(o)}
        if not kept:
            raise ValueError("cannot condition on an event of probability 0")
        return Distribution(kept)

    def combine(self, other: Distribution[U], f: Callable[[T, U], Any] | None = None) -> Distribution[Any]:
        """Return the distribution of ``f(a, b)`` for independent ``a`` from self and ``b`` from other.

        Without ``f`` the outcome is the pair ``(a, b)``.
        """
        out: dict[Any, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                k = (a, b) if f is None else f(a, b)
                out[k] = out.get(k, 0) + wa * wb
        return Distribution(out)

    def __add__(self, other: Distribution[Any]) -> Distribution[Any]:
        """The sum of two independent numeric distributions."""
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.combine(other, lambda a, b: a + b)

    def repeat(self, n: int, f: Callable[[Any, T], Any] = lambda a, b: a + b) -> Distribution[Any]:
        """Return the distribution of folding ``n`` independent copies with ``f`` (sum by default)."""
        if n < 1:
            raise ValueError(f"repeat needs n >= 1, got {n}")
        result: Distribution[Any] = self
        for _ in range(n - 1):
            result = result.combine(self, f)
        return result

    def sample(self, rng: random.Random) -> T:
        """Return one outcome drawn with its exact probability, using ``rng``."""
        r = rng.randrange(self._total)
        for o, w in self._weights.items():
            r -= w
            if r < 0:
                return o
        raise AssertionError("unreachable: weights sum to total")

    # -- display -----------------------------------------------------------
    def to_series(self, name: str = "probability", floats: bool = False) -> pd.Series:
        """Return a pandas Series indexed by outcome, holding exact ``Fraction``s (or floats)."""
        import pandas as pd

        outcomes = self.outcomes()
        values = [self[o] for o in outcomes]
        if floats:
            values = [float(v) for v in values]
        index = pd.Index(outcomes, tupleize_cols=False, name="outcome")
        return pd.Series(values, index=index, name=name, dtype=float if floats else object)

    def to_frame(self, floats: bool = False, shown: bool = False) -> pd.DataFrame:
        """Return a DataFrame: one column per outcome field, then ``probability`` (exact
        ``Fraction``) and ``percent`` (float, for plots). With ``floats=True`` the
        probability column is float too; with ``shown=True`` a last column ``shown`` holds
        the text a designer reads (:func:`toolkit.numbers.probability_text`)."""
        import pandas as pd

        rows = []
        for o, p in self.items():
            names = _names(o)
            if names and not isinstance(o, Mapping):
                row = {n: getattr(o, n) for n in names}
            elif isinstance(o, Mapping):
                row = dict(o)
            else:
                row = {"outcome": o}
            row["probability"] = float(p) if floats else p
            row["percent"] = float(p * 100)
            if shown:
                row["shown"] = probability_text(p)
            rows.append(row)
        return pd.DataFrame(rows)

    def folded(self, threshold: Fraction = TAIL, lower: bool = False) -> list[tuple[Any, Fraction]]:
        """Return ``(outcome, probability)`` pairs for display, the tail below ``threshold``
        (0.05%) folded into one ``(AtLeast(k), exact sum)`` row shown ``'≥ k'`` (and with
        ``lower`` the head into ``AtMost``): :func:`toolkit.numbers.fold_tail`.

        >>> Distribution({0: 5000, 1: 4997, 2: 1, 3: 1, 4: 1}).folded()[-1]
        (AtLeast(k=2), Fraction(3, 10000))
        """
        return fold_tail(self, threshold, lower)

    def _display_weights(self) -> list[tuple[Any, int]]:
        """``(outcome, weight)`` in display order; numeric outcomes have both tails below
        0.05% folded (``'≤ k'``, ``'≥ k'``). Integer arithmetic only, so a long table displays fast."""
        pairs = [(o, self._weights[o]) for o in self.outcomes()]
        numeric = all(isinstance(o, int | float | Fraction) and not isinstance(o, bool) for o, _ in pairs)
        return fold_weights(pairs, self._total, TAIL, lower=True) if numeric and len(pairs) > 2 else pairs

    def __repr__(self) -> str:
        shown = ", ".join(f"{o!r}: {_short(self[o])}" for o in self.outcomes()[:12])
        more = f", … {len(self) - 12} more" if len(self) > 12 else ""
        return f"Distribution({{{shown}{more}}})"

    def _repr_html_(self) -> str:
        """A table a designer reads: outcome, probability by the display rule of
        :mod:`toolkit.numbers` and a bar; numeric tails below 0.05% folded into ``'≤ k'`` /
        ``'≥ k'`` rows, and at most :data:`MAX_HTML_ROWS` consecutive rows (with
        "… N more rows" lines for the rest), those holding the most probability, built in
        one join: a 9,100-outcome distribution displays in a fraction of a second."""
        rows = self._display_weights()
        total = self._total
        start, stop = _window(rows, MAX_HTML_ROWS)

        def row(o: Any, w: int) -> str:
            p = Fraction(w, total)
            return (
                f"<tr><td style='text-align:left'>{html.escape(str(o))}</td>"
                f"<td>{html.escape(probability_text(p))}</td><td style='width:10em'>"
                f'<div style="background:#4c78a8;height:0.8em;width:{w / total * 100:.2f}%"></div></td></tr>'
            )

        def more(hidden: list[tuple[Any, int]]) -> list[str]:
            if not hidden:
                return []
            mass = percent_text(Fraction(sum(w for _, w in hidden), total))
            span = html.escape(f"{hidden[0][0]} to {hidden[-1][0]}" if len(hidden) > 1 else str(hidden[0][0]))
            return [
                f"<tr><td colspan='3' style='text-align:left'>… {len(hidden):,} more "
                f"{'row' if len(hidden) == 1 else 'rows'} ({span}), together {mass}</td></tr>"
            ]

        parts = ["<table><thead><tr><th>outcome</th><th>probability</th><th></th></tr></thead><tbody>"]
        parts.extend(more(rows[:start]))
        parts.extend(row(o, w) for o, w in rows[start:stop])
        parts.extend(more(rows[stop:]))
        parts.append("</tbody></table>")
        return "".join(parts)


#: The most rows :meth:`Distribution._repr_html_` shows: thousands are neither read nor fast to draw.
MAX_HTML_ROWS = 40


def _window(rows: list[tuple[Any, int]], size: int) -> tuple[int, int]:
    """The ``[start, stop)`` of the ``size`` consecutive rows holding the most weight (all
    rows when there are no more than ``size``): what a long table shows, quickly."""
    if len(rows) <= size:
        return 0, len(rows)
    acc = sum(w for _, w in rows[:size])
    best, best_start = acc, 0
    for i in range(size, len(rows)):
        acc += rows[i][1] - rows[i - size][1]
        if acc > best:
            best, best_start = acc, i - size + 1
    return best_start, best_start + size


def _short(p: Fraction) -> str:
    """A probability in a repr: the fraction while it is short, else its percent."""
    return str(p) if p.denominator < SHORT_DENOMINATOR else percent_text(p)
