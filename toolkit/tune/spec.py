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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.house_rules import load_rules, rules_class
from toolkit.notation import LineMap, ParseErrors, excerpt, read_designer_yaml
from toolkit.numbers import count
from toolkit.sweeps import Calculator, calculator
from toolkit.tune.knobs import Knob, calculator_arguments, parse_knobs
from toolkit.tune.targets import Condition, Measure, Target, number, parse_targets

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
CONSTRAINT_KEYS = ("max_changed", "keep", "hold")
#: The search methods: ``auto`` is exhaustive up to ``exhaustive_up_to`` points, else
#: bisection (one whole-number knob, one target with a value) or Optuna.
SEARCHES = ("auto", "exhaustive", "optuna", "bisection")
#: The most points (knob settings) an exhaustive search runs.
MAX_EXHAUSTIVE = 20_000
#: Exhaustive below this many knob settings when ``search: auto`` (the file may change it).
EXHAUSTIVE_UP_TO = 2_000
#: The most trials of an Optuna search.
MAX_TRIALS = 10_000


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


def load_tuning(source: str | Path) -> Tuning:
    """Return the validated :class:`Tuning` of a tuning file (a path, or YAML text with a line break).

    Raises:
        InvalidSetupError: every problem of the file, one a line (``FILE:LINE: problem``).
        TooBigError: a search space bigger than its search method runs (with its size).
        NotationError: not a file or not valid YAML.
    """
    read = read_designer_yaml(source, "tuning", "give a tuning file, e.g. data/tune/*.yaml")
    return tuning_from_mapping(read.document.data, read.where, read.document.lines, name=read.name, base=read.base)


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
        raise InvalidSetupError(errors.summary()) from None
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

    fixed = calculator_arguments(calc, data.get("fixed"), errors, "fixed")
    baseline, baseline_label = _baseline(system, data.get("baseline"), errors, base)
    knobs = parse_knobs(calc, system, baseline, data.get("knobs"), errors)
    knob_args = {k.name for k in knobs if not k.is_rule}
    for arg in knob_args & {a for a, _ in fixed}:
        errors.add(f"{arg} is both a knob and fixed: give it once", "fixed", arg)
    targets = parse_targets(calc, data.get("targets"), errors, "targets", knob_args, required=True)
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
        holds = parse_targets(calc, constraints.get("hold"), errors, ("constraints", "hold"), knob_args, required=False)
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
        raise InvalidSetupError(errors.summary())
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
