"""Tuning files: reading and validating one (nothing runs on a bad file).

A tuning file (YAML, read with :func:`toolkit.notation.load_yaml`) asks which house rules
give the odds a designer wants::

    title: Strike cost for a one-card edge
    system: durak-battle
    calculator: clash_losses             # a calculator of the sweep registry
    fixed: {method: exact}               # its fixed arguments
    baseline: default                    # the rules the search starts from (a file, a mapping)
    targets:
      - name: the bigger hand comes out ahead
        at: {cards_a: 2, cards_b: 1}     # the sizes this target is measured at
        probability: {lost_a: {below: lost_b}}
        value: 65%                       # and a tolerance; or at_least / at_most;
        tolerance: 3%                    # or maximise: true / minimise: true
    knobs:                               # what may change: a sweep grid's syntax
      rules:
        strike_loss: {from: 1, to: 8}
    constraints:
      max_changed: 1                     # at most this many fields changed from the baseline
      keep: [jokers]                     # fields that must stay as in the baseline
      hold: []                           # targets (with value or at_least/at_most) that must keep holding

A measure is one of ``probability: {field: condition}`` (the probability of the outcomes
whose fields meet every condition: a value, a list of values, or ``{at_least, at_most,
above, below}`` with a number or another field's name), ``mean: field`` (the mean of a
number field of the outcomes) or ``row: name`` (a quantity the calculator reports by name,
an ``odds_table`` measure say). ``than: {args}`` makes it a difference: the measure at
``at`` minus the same measure at ``than``. An outcome's fields are read from its label
(``winner=attacker, points=1``); ``outcome`` is the whole label (a number when it is one).

Every problem is found before anything runs, each at its line, with what is accepted; a
search space too big for its search method says its size (:class:`~toolkit.errors.TooBigError`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, NotationError, TooBigError
from toolkit.files import designer_file
from toolkit.house_rules import load_rules, rules_class
from toolkit.notation import LineMap, ParseErrors, excerpt, load_yaml
from toolkit.numbers import count
from toolkit.sweeps import Calculator, calculator
from toolkit.sweeps.spec import grid_values

__all__ = [
    "Condition",
    "Knob",
    "Measure",
    "Target",
    "Tuning",
    "load_tuning",
    "tuning_from_mapping",
    "number",
    "SEARCHES",
    "TOP_KEYS",
    "MAX_EXHAUSTIVE",
    "MAX_TRIALS",
]

#: The keys a tuning file may hold.
TOP_KEYS = (
    "title",
    "notes",
    "system",
    "calculator",
    "fixed",
    "baseline",
    "targets",
    "knobs",
    "constraints",
    "search",
    "trials",
    "seed",
    "best",
    "exhaustive_up_to",
    "rule_change",
)
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
CONSTRAINT_KEYS = ("max_changed", "keep", "hold")
CONDITION_KEYS = ("at_least", "at_most", "above", "below")
#: The search methods: ``auto`` is exhaustive up to ``exhaustive_up_to`` points, else
#: bisection (one whole-number knob, one target with a value) or Optuna.
SEARCHES = ("auto", "exhaustive", "optuna", "bisection")
#: The most points (knob settings) an exhaustive search runs.
MAX_EXHAUSTIVE = 20_000
#: Exhaustive below this many knob settings when ``search: auto`` (the file may change it).
EXHAUSTIVE_UP_TO = 2_000
#: The most trials of an Optuna search.
MAX_TRIALS = 10_000
#: The most settings a whole-number or list knob may have.
MAX_KNOB_VALUES = 100_000


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
    ``"maximise"`` or ``"minimise"``."""

    name: str
    measure: Measure
    at: tuple[tuple[str, Any], ...]
    than: tuple[tuple[str, Any], ...] | None
    goal: str
    low: Fraction | None = None
    high: Fraction | None = None
    value: Fraction | None = None
    tolerance: Fraction | None = None

    def describe_goal(self) -> str:
        """Return the goal in words (``"65% ± 3%"``, ``"at least 50%"``, ``"as large as possible"``)."""
        if self.goal == "maximise":
            return "as large as possible"
        if self.goal == "minimise":
            return "as small as possible"
        if self.value is not None:
            return f"{shown_number(self.value)} ± {shown_number(self.tolerance or 0)}"
        if self.low is not None and self.high is not None:
            return f"from {shown_number(self.low)} to {shown_number(self.high)}"
        if self.low is not None:
            return f"at least {shown_number(self.low)}"
        return f"at most {shown_number(self.high)}"

    def where(self) -> str:
        """Return the sizes in words (``"cards_a=2, cards_b=1"``, and ``"minus at …"``)."""
        text = ", ".join(f"{k}={v}" for k, v in self.at)
        if self.than is not None:
            text += " minus at " + ", ".join(f"{k}={v}" for k, v in self.than)
        return text


def shown_number(x: Fraction | float | int) -> str:
    """A goal's number as written back to a designer: a percent for a share, else the number."""
    x = Fraction(x)
    if 0 <= abs(x) <= 1 and x.denominator != 1:
        return f"{float(x) * 100:.4g}%"
    return f"{float(x):.6g}"


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


@dataclass(frozen=True)
class Tuning:
    """A validated tuning file (see the module)."""

    name: str
    title: str
    notes: str
    system: str
    calculator: Calculator
    fixed: tuple[tuple[str, Any], ...]
    baseline: Any
    baseline_label: str
    targets: tuple[Target, ...]
    holds: tuple[Target, ...]
    knobs: tuple[Knob, ...]
    max_changed: int | None
    keep: tuple[str, ...]
    search: str
    trials: int
    seed: int
    best: int
    exhaustive_up_to: int
    where: str = "<tuning>"
    base: Path | None = None
    #: The sizes of the rule-change report of the best against the baseline (``None``:
    #: no report; empty: the report's own sizes).
    rule_change: tuple[tuple[str, Any], ...] | None = ()

    @property
    def size(self) -> int | None:
        """The number of knob settings (``None`` when a knob is a continuous range)."""
        sizes = [k.size for k in self.knobs]
        return None if None in sizes else math.prod(s for s in sizes if s is not None)

    def size_text(self) -> str:
        """The space's size in words: ``"64 settings (8 rules.strike_loss x 8 rules.morale_target)"``."""
        parts = " x ".join(f"{k.size:,} {k.label}" if k.size else f"a range of {k.label}" for k in self.knobs)
        total = self.size
        head = "an unbounded number of settings" if total is None else f"{total:,} settings"
        return f"{head} ({parts})"

    @property
    def rule_knobs(self) -> tuple[str, ...]:
        """The rules fields the knobs change."""
        return tuple(k.name for k in self.knobs if k.is_rule)

    @property
    def every_target(self) -> tuple[Target, ...]:
        """The targets, then the constraints' targets that must keep holding."""
        return self.targets + self.holds

    def sizes(self) -> list[tuple[tuple[str, Any], ...]]:
        """Every distinct set of arguments a target is measured at (``at`` and ``than``), in order."""
        found: list[tuple[tuple[str, Any], ...]] = []
        for t in self.every_target:
            for at in (t.at, t.than):
                if at is not None and at not in found:
                    found.append(at)
        return found


def number(raw: Any) -> Fraction | None:
    """Return a goal's number as written — ``0.65``, ``65%``, ``"2/3"``, ``3`` — exactly
    (``0.65`` is 13/20), or ``None`` when it is not one.

    >>> number("65%"), number(0.5), number("2/3"), number("many")
    (Fraction(13, 20), Fraction(1, 2), Fraction(2, 3), None)
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return Fraction(raw)
    if isinstance(raw, float):
        return Fraction(str(raw)) if math.isfinite(raw) else None
    if isinstance(raw, str) and len(raw) < 40:
        text = raw.strip()
        scale = Fraction(1)
        if text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        try:
            return Fraction(text) * scale
        except (ValueError, ZeroDivisionError):
            return None
    return None


def load_tuning(source: str | Path) -> Tuning:
    """Return the validated :class:`Tuning` of a tuning file (a path, or YAML text with a line break).

    Raises:
        InvalidSetupError: every problem of the file, one a line (``FILE:LINE: problem``).
        TooBigError: a search space bigger than its search method runs (with its size).
        NotationError: not a file or not valid YAML.
    """
    if isinstance(source, str) and "\n" in source:
        document = load_yaml(source, "<tuning>")
        where, name, base = "<tuning>", "tuning", None
    else:
        path = designer_file(
            source,
            "tuning file",
            error=NotationError,
            missing="is not a file",
            hint="give a tuning file, e.g. data/tune/*.yaml",
        )
        document = load_yaml(path)
        where, name, base = str(path), path.stem, path.parent
    return tuning_from_mapping(document.data, where, document.lines, name=name, base=base)


def tuning_from_mapping(
    data: Any, where: str = "<tuning>", lines: LineMap | None = None, *, name: str = "tuning", base: Path | None = None
) -> Tuning:
    """Return the validated :class:`Tuning` of a tuning file's data (see :func:`load_tuning`).

    Raises:
        InvalidSetupError, TooBigError: as :func:`load_tuning`.
    """
    errors = ParseErrors(where, lines)
    if not isinstance(data, dict):
        raise InvalidSetupError(f"{where}: a tuning file is a mapping with {', '.join(TOP_KEYS)}")
    errors.check_keys(data, TOP_KEYS, "")
    errors.check_controls(data)
    system, calc_name = data.get("system"), data.get("calculator")
    if system is None or calc_name is None:
        raise InvalidSetupError(f"{where}: name the system and the calculator (system: ..., calculator: ...)")
    try:
        calc = calculator(system, calc_name)
    except InvalidSetupError as exc:
        errors.add(str(exc), "calculator" if "calculator" in str(exc) else "system")
        raise InvalidSetupError("\n".join(errors.messages)) from None
    title = errors.text(data.get("title"), "title", "title", default=f"{system} {calc.name}", limit=200)
    notes = errors.text(data.get("notes"), "notes", "notes")
    search = data.get("search", "auto")
    if search not in SEARCHES:
        errors.add(f"search must be one of {', '.join(SEARCHES)}, got {excerpt(search)}", "search")
        search = "auto"
    trials = errors.whole(data.get("trials"), "trials", "trials", low=1, high=MAX_TRIALS, default=100) or 100
    seed = errors.whole(data.get("seed"), "seed", "seed", low=0, high=2**31, default=0) or 0
    best = errors.whole(data.get("best"), "best (candidates written)", "best", low=1, high=100, default=10) or 10
    up_to = (
        errors.whole(
            data.get("exhaustive_up_to"),
            "exhaustive_up_to",
            "exhaustive_up_to",
            low=1,
            high=MAX_EXHAUSTIVE,
            default=EXHAUSTIVE_UP_TO,
        )
        or EXHAUSTIVE_UP_TO
    )

    fixed = _arguments(calc, data.get("fixed"), errors, "fixed")
    baseline, baseline_label = _baseline(system, data.get("baseline"), errors, base)
    knobs = _knobs(calc, system, baseline, data.get("knobs"), errors)
    knob_args = {k.name for k in knobs if not k.is_rule}
    for arg in knob_args & {a for a, _ in fixed}:
        errors.add(f"{arg} is both a knob and fixed: give it once", "fixed", arg)
    targets = _targets(calc, data.get("targets"), errors, "targets", knob_args, required=True)
    constraints = data.get("constraints") or {}
    max_changed, keep, holds = None, (), ()
    if not isinstance(constraints, dict):
        errors.add(
            f"constraints must be a mapping with {', '.join(CONSTRAINT_KEYS)}, got {excerpt(constraints)}",
            "constraints",
        )
    else:
        errors.check_keys(constraints, CONSTRAINT_KEYS, "constraints: ", "constraints")
        max_changed = errors.whole(
            constraints.get("max_changed"), "constraints: max_changed", "constraints", "max_changed", low=0, high=1000
        )
        keep = _keep(system, constraints.get("keep"), knobs, errors)
        holds = _targets(calc, constraints.get("hold"), errors, ("constraints", "hold"), knob_args, required=False)
        for i, t in enumerate(holds):
            if t.goal != "range":
                errors.add(
                    f"constraints: hold: {t.name} must keep holding, so it needs value and tolerance, or at_least / "
                    "at_most (not maximise or minimise)",
                    "constraints",
                    "hold",
                    i,
                )
    named = set(data.get("knobs") or {}) if isinstance(data.get("knobs"), dict) else set()
    given = {a for a, _ in fixed} | knob_args | named  # a refused knob is told once, not also as missing
    for i, t in enumerate(targets + holds):
        for at in (t.at, t.than):
            if at is None:
                continue
            missing = [p.name for p in calc.params if p.required and p.name not in given and p.name not in dict(at)]
            if missing:
                path = ("targets", i) if i < len(targets) else ("constraints", "hold", i - len(targets))
                errors.add(f"{t.name}: {calc.name} needs {', '.join(missing)}: give them in fixed, knobs or at", *path)
    rule_change = _rule_change(system, data.get("rule_change", {}), errors)
    if errors:
        raise InvalidSetupError("\n".join(errors.messages))
    tuning = Tuning(
        name,
        title,
        notes,
        system,
        calc,
        fixed,
        baseline,
        baseline_label,
        targets,
        holds,
        knobs,
        max_changed,
        keep,
        search,
        trials,
        seed,
        best,
        up_to,
        where,
        base,
        rule_change,
    )
    check_bounds(tuning)
    return tuning


def check_bounds(tuning: Tuning) -> None:
    """Refuse, before anything runs, a search bigger than its method runs (with the size).

    Raises:
        TooBigError: exhaustive search of more than :data:`MAX_EXHAUSTIVE` settings, a
            search whose points (settings times the sizes measured) pass the calculator's
            limit, or bisection that does not apply.
        InvalidSetupError: bisection asked for where it does not apply.
    """
    size, sizes = tuning.size, len(tuning.sizes())
    limit = tuning.calculator.max_points
    where = tuning.where
    if tuning.search == "exhaustive":
        if size is None:
            raise TooBigError(
                f"{where}: the knobs make {tuning.size_text()}: an exhaustive search needs lists or whole-number "
                "ranges; use search: optuna for a float range"
            )
        if size > MAX_EXHAUSTIVE or size * sizes > limit:
            raise TooBigError(
                f"{where}: the knobs make {tuning.size_text()}, measured at {count(sizes, 'size')}: "
                f"{size * sizes:,} points; "
                f"an exhaustive search runs at most {min(MAX_EXHAUSTIVE, limit):,}: narrow the knobs or use search: "
                f"optuna with trials: N"
            )
    big = size is None or size > tuning.exhaustive_up_to
    searched = tuning.search == "optuna" or (tuning.search == "auto" and big and bisection_problem(tuning) is not None)
    if searched and tuning.trials * sizes > limit:
        raise TooBigError(
            f"{where}: {tuning.trials:,} trials measured at {count(sizes, 'size')} make "
            f"{tuning.trials * sizes:,} points; "
            f"{tuning.calculator.name} runs at most {limit:,} in one search: fewer trials"
        )
    if tuning.search == "bisection":
        problem = bisection_problem(tuning)
        if problem:
            raise InvalidSetupError(f"{where}: search: bisection {problem}")


def bisection_problem(tuning: Tuning) -> str | None:
    """Why bisection does not apply to ``tuning`` (``None`` when it does): it needs one
    knob of whole numbers in order and one target with a value or bounds."""
    if len(tuning.knobs) != 1 or not tuning.knobs[0].whole_range:
        return "needs exactly one knob, a whole-number range {from: A, to: B}"
    if len(tuning.targets) != 1 or tuning.targets[0].goal != "range":
        return "needs exactly one target with value and tolerance (or at_least / at_most)"
    return None


# -- the parts --------------------------------------------------------------------------------
def _rule_change(system: str, raw: Any, errors: ParseErrors) -> tuple[tuple[str, Any], ...] | None:
    """The rule-change report's sizes (``false``: no report), each a size the system's
    headline tables read (:func:`toolkit.reports.rule_change_systems.sizes_of`)."""
    from toolkit.reports.rule_change_systems import sizes_of

    if raw is False:
        return None
    if raw is None or raw is True:
        return ()
    accepted = sizes_of(system)
    if not isinstance(raw, dict):
        errors.add(
            f"rule_change must be false or a mapping of sizes ({', '.join(accepted)}), got {excerpt(raw)}",
            "rule_change",
        )
        return ()
    for key in raw:
        if key not in accepted:
            errors.add(
                f"rule_change: unknown size {excerpt(key)}; the sizes of {system} are {', '.join(accepted)}",
                "rule_change",
                key,
            )
    return tuple((k, v) for k, v in raw.items() if k in accepted)


def _arguments(calc: Calculator, raw: Any, errors: ParseErrors, *path: Any) -> tuple[tuple[str, Any], ...]:
    """Calculator arguments ``{name: value}`` checked by their :class:`~toolkit.sweeps.Param`."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        errors.add(f"{path[-1]} must map arguments of {calc.name} to values, got {excerpt(raw)}", *path)
        return ()
    out = []
    for arg, value in raw.items():
        try:
            param = calc.param(arg)
            out.append((arg, param.check(value)))
        except InvalidSetupError as exc:
            hint = " (rules fields are knobs under knobs: rules:, or in baseline)" if _is_rule(calc, arg) else ""
            errors.add(f"{exc}{hint}", *path, arg)
    return tuple(out)


def _is_rule(calc: Calculator, name: Any) -> bool:
    return calc.takes_rules and isinstance(name, str) and name in rules_class(calc.system).field_names()


def _baseline(system: str, raw: Any, errors: ParseErrors, base: Path | None) -> tuple[Any, str]:
    """The baseline rules (default: the rulings as written) and their label."""
    if raw is None or raw == "default":
        return rules_class(system)(), "default rules"
    try:
        rules = load_rules(system, raw, base)
    except InvalidSetupError as exc:
        errors.add(f"baseline: {exc}", "baseline")
        return rules_class(system)(), "default rules"
    label = Path(raw).stem if isinstance(raw, str) else rules.variant_name()
    return rules, label


def _knobs(calc: Calculator, system: str, baseline: Any, raw: Any, errors: ParseErrors) -> tuple[Knob, ...]:
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
            hint = " (rules fields go under rules:)" if _is_rule(calc, arg) else ""
            errors.add(f"knobs: {exc}{hint}", "knobs", arg)
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


def _keep(system: str, raw: Any, knobs: tuple[Knob, ...], errors: ParseErrors) -> tuple[str, ...]:
    if raw is None:
        return ()
    path = ("constraints", "keep")
    if not isinstance(raw, list) or not all(isinstance(f, str) for f in raw):
        errors.add(f"constraints: keep must be a list of rules fields, got {excerpt(raw)}", *path)
        return ()
    names = rules_class(system).field_names()
    knob_fields = {k.name for k in knobs if k.is_rule}
    for i, field in enumerate(raw):
        if field not in names:
            errors.add(
                f"constraints: keep: {excerpt(field)} is not a field of the {system} rules; the fields are "
                f"{', '.join(names)}",
                *path,
                i,
            )
        elif field in knob_fields:
            errors.add(f"constraints: keep: {field} is also a knob: a field is kept or searched, not both", *path, i)
    return tuple(raw)


def _targets(
    calc: Calculator, raw: Any, errors: ParseErrors, key: str | tuple[str, ...], knob_args: set[str], *, required: bool
) -> tuple[Target, ...]:
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
    at = _arguments(calc, raw.get("at"), errors, *path, "at")
    than = _arguments(calc, raw.get("than"), errors, *path, "than") if "than" in raw else None
    for arg, _ in at + (than or ()):
        if arg in knob_args:
            errors.add(f"{arg} is a knob: a target cannot also fix it in at or than", *path, "at", arg)
    measure = _measure(raw, errors, path)
    goal, low, high, value, tolerance = _goal(raw, errors, path)
    if len(errors.messages) > before or measure is None or goal is None:
        return None
    if not name:
        name = measure.describe() + (f" at {', '.join(f'{k}={v}' for k, v in at)}" if at else "")
    return Target(name, measure, at, than, goal, low, high, value, tolerance)


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
            if isinstance(bound, str) and number(bound) is None:
                bounds[key] = bound.strip()  # another field of the outcome
            elif number(bound) is not None:
                bounds[key] = number(bound)
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
            numbers[key] = number(raw[key])
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
