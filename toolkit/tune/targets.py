"""The targets of a tuning file: what is measured (a probability, a mean, a reported
quantity; a difference between two sizes), where, and the goal — read and checked with
the file's line of every problem (see :mod:`toolkit.tune.spec`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolkit.notation import ParseErrors, excerpt
from toolkit.numbers import WRITTEN_RANGE, NumberRangeError, percent_text, written_number
from toolkit.sweeps import Calculator
from toolkit.tune.knobs import calculator_arguments

__all__ = ["Condition", "Measure", "Target", "number", "parse_targets", "TARGET_KEYS"]

#: The keys of one target.
TARGET_KEYS = (
    "name",
    "at",
    "than",
    "probability",
    "mean",
    "row",
    "value",
    "tolerance",
    "at_least",
    "at_most",
    "maximise",
    "minimise",
)
MEASURE_KEYS = ("probability", "mean", "row")
CONDITION_KEYS = ("at_least", "at_most", "above", "below")


@dataclass(frozen=True)
class Condition:
    """What one field of an outcome must be: ``values`` (any of them), or bounds — each a
    number or the name of another field of the same outcome."""

    values: tuple[Any, ...] = ()
    at_least: Any = None
    at_most: Any = None
    above: Any = None
    below: Any = None

    def describe(self, field: str) -> str:
        """Return the condition in words (``"lost_a below lost_b"``)."""
        if self.values:
            shown = " or ".join(str(v) for v in self.values)
            return f"{field} {shown}" if field != "outcome" else shown
        parts = [
            f"{field} {word} {bound}"
            for word, bound in (
                ("at least", self.at_least),
                ("at most", self.at_most),
                ("above", self.above),
                ("below", self.below),
            )
            if bound is not None
        ]
        return " and ".join(parts)


@dataclass(frozen=True)
class Measure:
    """A measure of a calculator's result: ``kind`` ``"probability"`` (of the outcomes
    meeting ``event``), ``"mean"`` (of the number field ``field``) or ``"row"`` (the
    reported quantity named ``field``)."""

    kind: str
    field: str = ""
    event: tuple[tuple[str, Condition], ...] = ()

    def describe(self) -> str:
        """Return the measure in words (``"P(winner attacker)"``, ``"mean damage"``)."""
        if self.kind == "probability":
            return "P(" + ", ".join(c.describe(f) for f, c in self.event) + ")"
        if self.kind == "mean":
            return f"mean {self.field}"
        return self.field


@dataclass(frozen=True)
class Target:
    """One target: a :class:`Measure` at the arguments ``at`` (minus the same measure at
    ``than`` when given), and its goal: ``"range"`` (the measure between ``low`` and
    ``high``, either ``None`` for no bound; ``value`` and ``tolerance`` when written so),
    ``"maximise"`` or ``"minimise"``; ``unit``: the measure's unit (``"%"`` for a
    probability; a mean's or a reported quantity's from its calculator's
    :meth:`~toolkit.sweeps.Calculator.unit`, ``""``: none)."""

    name: str
    measure: Measure
    at: tuple[tuple[str, Any], ...]
    than: tuple[tuple[str, Any], ...] | None
    goal: str
    low: Fraction | None = None
    high: Fraction | None = None
    value: Fraction | None = None
    tolerance: Fraction | None = None
    unit: str = ""

    def describe_goal(self) -> str:
        """Return the goal in words, in the measure's unit: a probability in percent
        (``"65% ± 3%"``, ``"at least 50%"``), a mean in its unit (``"1 ± 0.06 tokens"``),
        or ``"as large as possible"``."""
        if self.goal == "maximise":
            return "as large as possible"
        if self.goal == "minimise":
            return "as small as possible"
        unit = f" {self.unit}" if self.unit not in ("", "%") else ""
        if self.value is not None:
            return f"{self.shown(self.value)} ± {self.shown(self.tolerance or 0)}{unit}"
        if self.low is not None and self.high is not None:
            return f"from {self.shown(self.low)} to {self.shown(self.high)}{unit}"
        if self.low is not None:
            return f"at least {self.shown(self.low)}{unit}"
        return f"at most {self.shown(self.high)}{unit}"

    def shown(self, x: Fraction | float | int) -> str:
        """Return a number of the goal as written back to a designer: a percent when the
        measure is a probability (or a difference of two), else the number, whatever its
        size (a mean of 53/54 tokens is 0.981, not 98.1%)."""
        return percent_text(x) if self.unit == "%" else f"{float(Fraction(x)):.6g}"

    def where(self) -> str:
        """Return the sizes in words (``"cards_a=2, cards_b=1"``, and ``"minus at …"``)."""
        text = ", ".join(f"{k}={v}" for k, v in self.at)
        if self.than is not None:
            text += " minus at " + ", ".join(f"{k}={v}" for k, v in self.than)
        return text


def number(raw: Any) -> Fraction | None:
    """Return a goal's number as written — ``0.65``, ``65%``, ``"2/3"``, ``3`` — exactly
    (``0.65`` is 13/20), or ``None`` when it is not one (:func:`toolkit.numbers.written_number`,
    which bounds its size before converting it).

    >>> number("65%"), number(0.5), number("2/3"), number("many")
    (Fraction(13, 20), Fraction(1, 2), Fraction(2, 3), None)

    Raises:
        NumberRangeError: a number outside :data:`~toolkit.numbers.WRITTEN_RANGE`.
    """
    return written_number(raw)


def _number(raw: Any, errors: ParseErrors, what: str, *path: Any) -> Fraction | bool | None:
    """:func:`number` of a file's value, or ``False`` with the error recorded at ``path``
    (``what`` names the field) when it is a number outside the accepted range."""
    try:
        return number(raw)
    except NumberRangeError:
        errors.add(f"{what} must be {WRITTEN_RANGE}, got {excerpt(raw)}", *path)
        return False


def parse_targets(
    calc: Calculator, raw: Any, errors: ParseErrors, key: str | tuple[str, ...], knob_args: set[str], *, required: bool
) -> tuple[Target, ...]:
    """Return the targets of the list ``raw`` found at ``key`` (``"targets"``, or
    ``("constraints", "hold")``), each problem recorded in ``errors`` at its line; a target
    may not fix a knob's argument in ``at`` or ``than`` (``knob_args``). ``required``: an
    empty or missing list is an error."""
    path = (key,) if isinstance(key, str) else key
    what = " ".join(path).replace("constraints hold", "constraints: hold")
    if raw is None and not required:
        return ()
    if not isinstance(raw, list) or not raw:
        errors.add(
            f"{what} must be a list of targets, each a measure (probability, mean or row), where it is measured "
            "(at) and a goal (value and tolerance, at_least / at_most, maximise or minimise)",
            *path,
        )
        return ()
    targets = []
    for i, item in enumerate(raw):
        target = _target(calc, item, errors, (*path, i), knob_args, f"{what} {i + 1}")
        if target is not None:
            targets.append(target)
    return tuple(targets)


def _target(
    calc: Calculator, raw: Any, errors: ParseErrors, path: tuple[Any, ...], knob_args: set[str], default_name: str
) -> Target | None:
    if not isinstance(raw, dict):
        errors.add(f"a target must be a mapping with {', '.join(TARGET_KEYS)}, got {excerpt(raw)}", *path)
        return None
    before = len(errors.messages)
    errors.check_keys(raw, TARGET_KEYS, "target: ", *path)
    name = errors.text(raw.get("name"), "target name", *path, "name", default="", limit=200)
    at = calculator_arguments(calc, raw.get("at"), errors, *path, "at")
    than = calculator_arguments(calc, raw.get("than"), errors, *path, "than") if "than" in raw else None
    for arg, _ in at + (than or ()):
        if arg in knob_args:
            errors.add(f"{arg} is a knob: a target cannot also fix it in at or than", *path, "at", arg)
    measure = _measure(raw, errors, path)
    goal, low, high, value, tolerance = _goal(raw, errors, path)
    if len(errors.messages) > before or measure is None or goal is None:
        return None
    unit = calc.unit(measure.field) if measure.kind != "probability" else "%"
    if unit == "%" and not _shares(raw, than is not None, errors, path):
        return None
    if not name:
        name = measure.describe() + (f" at {', '.join(f'{k}={v}' for k, v in at)}" if at else "")
    return Target(name, measure, at, than, goal, low, high, value, tolerance, unit)


def _shares(raw: Mapping[str, Any], difference: bool, errors: ParseErrors, path: tuple[Any, ...]) -> bool:
    """Whether the numbers of a probability's goal are probabilities: from 0% to 100%
    (from -100% to 100% for a difference of two, ``than``); each one outside is recorded
    in ``errors``."""
    low, accepted = (-1, "from -100% to 100% (a difference of two)") if difference else (0, "from 0% to 100%")
    fits = True
    for key in ("value", "at_least", "at_most"):
        given = number(raw.get(key))
        if given is not None and not low <= given <= 1:
            errors.add(f"{key} must be a probability {accepted}, got {excerpt(raw[key])}", *path, key)
            fits = False
    return fits


def _measure(raw: Mapping[str, Any], errors: ParseErrors, path: tuple[Any, ...]) -> Measure | None:
    given = [k for k in MEASURE_KEYS if k in raw]
    if len(given) != 1:
        errors.add(
            "a target measures one thing: probability: {field: condition}, mean: field or row: name "
            f"(got {', '.join(given) or 'none'})",
            *path,
        )
        return None
    kind = given[0]
    if kind in ("mean", "row"):
        field = raw[kind]
        if not isinstance(field, str) or not field.strip():
            errors.add(
                f"{kind} must name a field of the outcomes or a reported quantity, got {excerpt(field)}", *path, kind
            )
            return None
        return Measure(kind, field.strip())
    event = raw["probability"]
    if not isinstance(event, dict) or not event:
        errors.add(
            "probability must map outcome fields to conditions, e.g. {winner: attacker} or "
            f"{{outcome: {{at_most: 3}}}}, got {excerpt(event)}",
            *path,
            "probability",
        )
        return None
    conditions = []
    for field, cond in event.items():
        condition = _condition(field, cond, errors, (*path, "probability", field))
        if condition is not None:
            conditions.append((str(field), condition))
    return Measure("probability", event=tuple(conditions)) if len(conditions) == len(event) else None


def _condition(field: Any, raw: Any, errors: ParseErrors, path: tuple[Any, ...]) -> Condition | None:
    scalar = (str, int, float, bool)
    if isinstance(raw, scalar):
        return Condition(values=(raw,))
    if isinstance(raw, list) and raw and all(isinstance(v, scalar) for v in raw):
        return Condition(values=tuple(raw))
    if isinstance(raw, dict) and raw:
        errors.check_keys(raw, CONDITION_KEYS, f"{field}: ", *path)
        bounds = {}
        for key in CONDITION_KEYS:
            if key not in raw:
                continue
            bound = raw[key]
            value = _number(bound, errors, f"{field}: {key}", *path, key)
            if value is False:
                return None
            if isinstance(bound, str) and value is None:
                bounds[key] = bound.strip()  # another field of the outcome
            elif value is not None:
                bounds[key] = value
            else:
                errors.add(f"{field}: {key} must be a number or another field's name, got {excerpt(bound)}", *path, key)
                return None
        return Condition(**bounds) if bounds else None
    errors.add(
        f"{field}: a condition is a value, a list of values or {{at_least, at_most, above, below}}, got {excerpt(raw)}",
        *path,
    )
    return None


def _goal(
    raw: Mapping[str, Any], errors: ParseErrors, path: tuple[Any, ...]
) -> tuple[str | None, Fraction | None, Fraction | None, Fraction | None, Fraction | None]:
    kinds = [k for k in ("value", "at_least", "at_most", "maximise", "minimise") if k in raw]
    accepted = "value with tolerance, at_least and/or at_most, maximise: true or minimise: true"
    if not kinds or (len(kinds) > 1 and set(kinds) != {"at_least", "at_most"}):
        errors.add(f"a target has one goal: {accepted} (got {', '.join(kinds) or 'none'})", *path)
        return None, None, None, None, None
    for key in ("maximise", "minimise"):
        if key in raw:
            if raw[key] is not True:
                errors.add(f"{key} must be true, got {excerpt(raw[key])}", *path, key)
                return None, None, None, None, None
            if "tolerance" in raw:
                errors.add(f"tolerance goes with value, not with {key}", *path, "tolerance")
            return key, None, None, None, None
    numbers = {}
    for key in ("value", "tolerance", "at_least", "at_most"):
        if key in raw:
            value = _number(raw[key], errors, key, *path, key)
            if value is False:
                return None, None, None, None, None
            numbers[key] = value
            if numbers[key] is None:
                errors.add(f"{key} must be a number (0.65, 65% or 2/3), got {excerpt(raw[key])}", *path, key)
                return None, None, None, None, None
    if "value" in numbers:
        tolerance = numbers.get("tolerance")
        if tolerance is None or tolerance < 0:
            errors.add(
                "value needs a tolerance of 0 or more (tolerance: 2%)",
                *path,
                "tolerance" if "tolerance" in raw else "value",
            )
            return None, None, None, None, None
        value = numbers["value"]
        return "range", value - tolerance, value + tolerance, value, tolerance
    if "tolerance" in raw:
        errors.add("tolerance goes with value, not with at_least / at_most", *path, "tolerance")
        return None, None, None, None, None
    low, high = numbers.get("at_least"), numbers.get("at_most")
    if low is not None and high is not None and low > high:
        errors.add(f"at_least ({low}) is above at_most ({high}): no value can meet it", *path, "at_least")
        return None, None, None, None, None
    return "range", low, high, None, None
