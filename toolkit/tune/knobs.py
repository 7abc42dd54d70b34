"""The knobs of a tuning file: the calculator arguments and rules fields a search may
change, with their values, each checked before anything runs — an argument by the
calculator's bounds, a rules field by building the baseline rules with it (the rules' own
checks) — and the calculator arguments of ``fixed``, ``at`` and ``than``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.house_rules import load_rules, rules_class
from toolkit.notation import ParseErrors, excerpt
from toolkit.sweeps import Calculator
from toolkit.sweeps.spec import grid_values

__all__ = ["Knob", "calculator_arguments", "is_rules_field", "parse_knobs", "MAX_KNOB_VALUES"]

#: The most settings a whole-number or list knob may have.
MAX_KNOB_VALUES = 100_000


@dataclass(frozen=True)
class Knob:
    """One thing the search may change: a rules field (``is_rule``) or a calculator
    argument, with its ``values`` (a list or whole-number range: categorical or integer),
    or ``low``/``high`` for a float argument searched continuously (``values`` empty)."""

    name: str
    is_rule: bool
    values: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    whole_range: bool = False

    @property
    def label(self) -> str:
        """The knob's column name: ``rules.strike_loss`` or the argument's name."""
        return f"rules.{self.name}" if self.is_rule else self.name

    @property
    def size(self) -> int | None:
        """How many settings the knob has (``None``: a continuous float range)."""
        return len(self.values) if self.values else None


def calculator_arguments(calc: Calculator, raw: Any, errors: ParseErrors, *path: Any) -> tuple[tuple[str, Any], ...]:
    """Calculator arguments ``{name: value}`` checked by their :class:`~toolkit.sweeps.Param`,
    each under the argument's name (a name it had before a rename, an alias, is read as it)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        errors.add(f"{path[-1]} must map arguments of {calc.name} to values, got {excerpt(raw)}", *path)
        return ()
    out: dict[str, Any] = {}
    for arg, value in raw.items():
        try:
            param = calc.param(arg)
            if param.name in out:
                errors.add(f"{' and '.join(param.names)} name one argument: give it once", *path, arg)
                continue
            out[param.name] = param.check(value)
        except InvalidSetupError as exc:
            hint = " (rules fields are knobs under knobs: rules:, or in baseline)" if is_rules_field(calc, arg) else ""
            errors.add(f"{exc}{hint}", *path, arg)
    return tuple(out.items())


def is_rules_field(calc: Calculator, name: Any) -> bool:
    """Whether ``name`` is a field of the rules ``calc`` takes (for the hint of a misplaced one)."""
    return calc.takes_rules and isinstance(name, str) and name in rules_class(calc.system).field_names()


def parse_knobs(calc: Calculator, system: str, baseline: Any, raw: Any, errors: ParseErrors) -> tuple[Knob, ...]:
    """The knobs, each value checked: an argument's by its Param, a rules field's by
    building the baseline rules with it (the rules' own bounds)."""
    if not isinstance(raw, dict) or not raw:
        errors.add(
            "knobs must map what may change to its values: arguments (attack_dice: [3, 4]) and rules fields "
            "(rules: {strike_loss: {from: 1, to: 8}})",
            "knobs",
        )
        return ()
    knobs: list[Knob] = []
    for arg, values in raw.items():
        if arg == "rules":
            continue
        try:
            param = calc.param(arg)
        except InvalidSetupError as exc:
            hint = " (rules fields go under rules:)" if is_rules_field(calc, arg) else ""
            errors.add(f"knobs: {exc}{hint}", "knobs", arg)
            continue
        if any(k.name == param.name for k in knobs):
            errors.add(f"knobs: {' and '.join(param.names)} name one argument: give it once", "knobs", arg)
            continue
        knob = _argument_knob(param, values, errors)
        if knob is not None:
            knobs.append(knob)
    rules_raw = raw.get("rules")
    if rules_raw is not None:
        if not calc.takes_rules:
            errors.add(f"{calc.name} takes no rules: remove knobs: rules", "knobs", "rules")
        elif not isinstance(rules_raw, dict) or not rules_raw:
            errors.add(f"knobs: rules must map rules fields to values, got {excerpt(rules_raw)}", "knobs", "rules")
        else:
            names = rules_class(system).field_names()
            for field, values in rules_raw.items():
                if field not in names:
                    errors.add(
                        f"knobs: {excerpt(field)} is not a field of the {system} rules; "
                        f"the fields are {', '.join(names)}",
                        "knobs",
                        "rules",
                        field,
                    )
                    continue
                knob = _rules_knob(system, baseline, field, values, errors)
                if knob is not None:
                    knobs.append(knob)
    if not knobs and not errors:
        errors.add("knobs: give at least one argument or rules field to change", "knobs")
    return tuple(knobs)


def _float_range(raw: Any) -> tuple[float, float] | None:
    """``{from: 0.5, to: 2.5}`` with a number that is not whole: a continuous range."""
    if not isinstance(raw, dict) or set(raw) != {"from", "to"}:
        return None
    low, high = raw["from"], raw["to"]
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high))
    if not numbers or all(float(v).is_integer() for v in (low, high)):
        return None
    return float(low), float(high)


def _argument_knob(param: Any, raw: Any, errors: ParseErrors) -> Knob | None:
    path = ("knobs", param.name)
    span = _float_range(raw)
    if span is not None:
        if param.kind != "float":
            errors.add(f"knobs: {param.name} must be {param.accepted()}: a range of whole numbers or a list", *path)
            return None
        bad = [v for v in span if not param.low <= v <= param.high]
        if bad or span[0] > span[1]:
            errors.add(
                f"knobs: {param.name} must be {param.accepted()}, got the range {span[0]:g} to {span[1]:g}", *path
            )
            return None
        return Knob(param.name, False, low=span[0], high=span[1])
    values = grid_values(raw, f"knobs: {param.name}", errors, *path)
    if values is None:
        return None
    if len(values) > MAX_KNOB_VALUES:
        errors.add(f"knobs: {param.name} has {len(values):,} values; a knob has at most {MAX_KNOB_VALUES:,}", *path)
        return None
    checked = []
    for i, value in enumerate(values):
        try:
            checked.append(param.check(value))
        except InvalidSetupError as exc:
            errors.add(f"knobs: {exc}", *path, *((i,) if isinstance(raw, list) else ()))
            return None
    return Knob(param.name, False, tuple(checked), whole_range=isinstance(values, range))


def _rules_knob(system: str, baseline: Any, field: str, raw: Any, errors: ParseErrors) -> Knob | None:
    path = ("knobs", "rules", field)
    values = grid_values(raw, f"knobs: rules: {field}", errors, *path)
    if values is None:
        return None
    if len(values) > MAX_KNOB_VALUES:
        errors.add(f"knobs: rules: {field} has {len(values):,} values; a knob has at most {MAX_KNOB_VALUES:,}", *path)
        return None
    mapping = baseline.to_mapping()
    checked = []
    for i, value in enumerate(values):
        try:
            rules = load_rules(system, {**mapping, field: value})
        except InvalidSetupError as exc:
            text = str(exc).split(": ", 1)[-1] if str(exc).startswith("rules") else str(exc)
            errors.add(f"knobs: rules: {text}", *path, *((i,) if isinstance(raw, list) else ()))
            return None
        checked.append(getattr(rules, field))
    return Knob(field, True, tuple(checked), whole_range=isinstance(values, range))
