"""Measuring a target on a calculator's rows (the rows a sweep stores for each point).

A point's rows (:class:`toolkit.sweeps.Row`: an outcome label, its kind, the exact number
or a float, whether it is exact) are read as outcomes with fields: a label
``winner=attacker, points=1`` has the fields ``winner`` and ``points``; every label is
also the field ``outcome`` (a number when the label is one: ``"3"`` attacks). A
:class:`Measured` value is exact when every row it reads is exact; otherwise it is an
estimate, and it carries an interval only when the calculator's result gives one
(:func:`estimate_interval`, read duck-typed from ``.interval(event)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.numbers import NumberRangeError, written_number
from toolkit.sweeps.calculators import outcome_label
from toolkit.tune.spec import Condition, Measure, Target

__all__ = [
    "Measured",
    "MeasureError",
    "outcome_fields",
    "event_holds",
    "measure_rows",
    "measure_target",
    "estimate_interval",
]


class MeasureError(InvalidSetupError):
    """A measure that the calculator's outcomes cannot give (a field no outcome has, a
    mean over outcomes that are not numbers): the message names it and what there is."""


@dataclass(frozen=True)
class Measured:
    """A target's measure at one setting: the ``value`` (a ``Fraction`` when exact),
    whether it is ``exact``, and the interval ``low``..``high`` (the value twice when
    exact; ``None`` for an estimate the calculator gives no interval for)."""

    value: Fraction | float
    exact: bool
    low: Fraction | float | None
    high: Fraction | float | None

    @classmethod
    def of_exact(cls, value: Fraction) -> Measured:
        return cls(value, True, value, value)

    def minus(self, other: Measured) -> Measured:
        """The difference of two measures; its interval is the widest the two allow."""
        if self.exact and other.exact:
            return Measured.of_exact(Fraction(self.value) - Fraction(other.value))
        low = None if self.low is None or other.high is None else self.low - other.high
        high = None if self.high is None or other.low is None else self.high - other.low
        return Measured(self.value - other.value, False, low, high)


def _as_number(text: str) -> Any:
    """A label's field as a number when it reads as one, ``True``/``False`` as booleans, else the text."""
    if text in ("True", "False"):
        return text == "True"
    try:
        value = written_number(text)
    except NumberRangeError:
        return text
    if value is None:
        return text
    return value.numerator if value.denominator == 1 else value


def outcome_fields(label: str) -> dict[str, Any]:
    """Return the fields of an outcome label: ``k=v`` pairs, and ``outcome`` (the whole label).

    >>> outcome_fields("lost_a=1, lost_b=3")
    {'lost_a': 1, 'lost_b': 3, 'outcome': 'lost_a=1, lost_b=3'}
    >>> outcome_fields("3")
    {'outcome': 3}
    """
    fields: dict[str, Any] = {}
    parts = [p.strip() for p in label.split(",")]
    if all("=" in p for p in parts):
        for part in parts:
            key, _, value = part.partition("=")
            fields[key.strip()] = _as_number(value.strip())
    fields["outcome"] = _as_number(label.strip())
    return fields


def _same(a: Any, b: Any) -> bool:
    """Whether a field's value is a condition's value (numbers by value, else as text)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or str(a).lower() == str(b).lower()
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, float, Fraction)):
        return Fraction(a) == Fraction(str(b)) if isinstance(b, float) else a == b
    return str(a) == str(b)


def _bound(bound: Any, fields: Mapping[str, Any]) -> Any:
    if isinstance(bound, str):
        if bound not in fields:
            raise MeasureError(f"no field {bound!r} to compare with; the outcome's fields are {', '.join(fields)}")
        return fields[bound]
    return bound


def _meets(value: Any, condition: Condition, fields: Mapping[str, Any]) -> bool:
    if condition.values:
        return any(_same(value, v) for v in condition.values)
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return False  # "more than 30" is no number: no bound holds for it
    checks = (
        (condition.at_least, lambda b: value >= b),
        (condition.at_most, lambda b: value <= b),
        (condition.above, lambda b: value > b),
        (condition.below, lambda b: value < b),
    )
    for bound, test in checks:
        if bound is None:
            continue
        b = _bound(bound, fields)
        if isinstance(b, bool) or not isinstance(b, (int, Fraction)) or not test(b):
            return False
    return True


def event_holds(measure: Measure, label: str) -> bool:
    """Whether the outcome ``label`` is in the event of a probability measure."""
    fields = outcome_fields(label)
    return all(field in fields and _meets(fields[field], cond, fields) for field, cond in measure.event)


def _check_values(measure: Measure, every: list[dict[str, Any]]) -> None:
    """Refuse a value no outcome can have, rather than count it as a silent 0%: a value of
    another kind than the field's (text for a number or a yes/no), a whole label where the
    outcomes are named by their fields, or a value spelt otherwise than one the outcomes
    show. (A value of the field's kind that no outcome of this point has is a true 0: an
    attacker without cards never wins.)"""
    for field, cond in measure.event:
        seen = [f[field] for f in every if field in f]
        if not cond.values or any(_same(x, v) for x in seen for v in cond.values):
            continue
        labelled = field == "outcome" and all(len(f) > 1 for f in every)
        numbers = all(isinstance(x, bool | int | Fraction) for x in seen)
        words = {str(x).lower(): x for x in seen if isinstance(x, str)}
        for v in cond.values:
            if labelled:
                example = ", ".join(f"{k}: {x}" for k, x in every[0].items() if k != "outcome")
                raise MeasureError(
                    f"no outcome is {v!r}: the outcomes are named by their fields ({example}); "
                    "ask for fields, e.g. {" + example.split(", ")[0] + "}"
                )
            if numbers and isinstance(_as_number(str(v)), str):
                shown = ", ".join(sorted({str(x) for x in seen}))
                raise MeasureError(f"{field} is never {v!r}: its values are {shown}")
            if isinstance(v, str) and v.lower() in words and v != words[v.lower()]:
                raise MeasureError(f"{field} is never {v!r}: did you mean {words[v.lower()]!r}?")


def measure_rows(measure: Measure, rows: Iterable[Any]) -> Measured:
    """Return ``measure`` of one point's rows (``outcome``, ``kind``, ``exact``, ``value``,
    ``is_exact``: :class:`toolkit.sweeps.Row` or the store's columns).

    Raises:
        MeasureError: a field no outcome has, a quantity not reported, a mean over
            outcomes that are not numbers.
    """
    rows = list(rows)
    if measure.kind == "row":
        for r in rows:
            if r.outcome == measure.field:
                return _of_row(r)
        names = ", ".join(r.outcome for r in rows[:12])
        raise MeasureError(f"no quantity {measure.field!r} in the result; it reports {names}")
    probs = [r for r in rows if r.kind == "probability"]
    if not probs:
        raise MeasureError("the result has no outcomes with probabilities: measure a reported quantity with row: NAME")
    every = [outcome_fields(r.outcome) for r in probs]
    wanted = [f for f, _ in measure.event] if measure.kind == "probability" else [measure.field]
    for field in wanted:
        if not any(field in f for f in every):
            shown = ", ".join(sorted({k for f in every for k in f}))
            raise MeasureError(
                f"no outcome has the field {field!r}; the outcomes read like {probs[0].outcome!r} (fields: {shown})"
            )
    if measure.kind == "probability":
        _check_values(measure, every)
    exact = all(r.is_exact and r.exact is not None for r in probs)
    if measure.kind == "probability":
        chosen = [r for r in probs if event_holds(measure, r.outcome)]
        if exact:
            return Measured.of_exact(sum((r.exact for r in chosen), Fraction(0)))
        return Measured(sum(r.value for r in chosen), False, None, None)
    total: Fraction | float = Fraction(0) if exact else 0.0
    for r, fields in zip(probs, every, strict=True):
        x = fields.get(measure.field)
        weight = r.exact if exact else r.value
        if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
            if weight:
                raise MeasureError(
                    f"the mean of {measure.field} is not defined: the outcome {r.outcome!r} "
                    f"(probability {float(weight):.3g}) has no number for it"
                )
            continue
        total += weight * x
    return Measured.of_exact(total) if exact else Measured(total, False, None, None)


def _of_row(r: Any) -> Measured:
    if r.is_exact and r.exact is not None:
        return Measured.of_exact(Fraction(r.exact))
    return Measured(float(r.value), False, None, None)


def measure_target(target: Target, rows_at: Callable[[tuple[tuple[str, Any], ...]], Iterable[Any]]) -> Measured:
    """Return ``target``'s measure, reading each size's rows with ``rows_at(at)`` (the
    difference of the two sizes when the target has ``than``)."""
    measured = measure_rows(target.measure, rows_at(target.at))
    if target.than is not None:
        measured = measured.minus(measure_rows(target.measure, rows_at(target.than)))
    return measured


def estimate_interval(measure: Measure, result: Any, rows: list[Any]) -> tuple[float, float] | None:
    """Return the interval of a probability measure that is an estimate, from the
    calculator's result: ``result.interval(event)`` (duck-typed), asked with the event on
    the result's outcomes. Only when the result's outcomes are the rows' outcomes one for
    one (their labels): otherwise, and for other measures, ``None`` (no interval)."""
    interval = getattr(result, "interval", None)
    dist = getattr(result, "distribution", None)
    if measure.kind != "probability" or not callable(interval) or dist is None:
        return None
    try:
        labels = {outcome_label(o) for o in dist}
    except TypeError:
        return None
    if labels != {r.outcome for r in rows if r.kind == "probability"}:
        return None
    low, high = interval(lambda o: event_holds(measure, outcome_label(o)))
    return float(low), float(high)
