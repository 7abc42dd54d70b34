"""Sweep files: reading and validating one, and the grid of points it names.

A sweep file (YAML, read with :func:`toolkit.notation.load_yaml`) names a system, one of
its calculators (:mod:`.calculators`), a grid and fixed arguments::

    title: Pools against pools, two tie rules
    system: angry-miniatures
    calculator: opposed
    grid:
      attack_dice: {from: 1, to: 12}      # a range (step: 1 unless given)
      defence_dice: [1, 2, 3, 4]          # or a list
      rules:                              # rules fields, each a list of values
        tie_break: [chain, coin_flip]
      rules_files: [default, tens_hit]    # house-rules files (data/rules/<system>/, paths
                                          # from the sweep file's folder; default: none)
    fixed:
      attack_type: ranged
    chunk: 50                             # points per task (optional)

Every problem is found before anything runs, each at its line: an unknown key, argument,
rules field or calculator (the message lists what is accepted), a value of the wrong type,
a grid bigger than its calculator allows (with its size), a point above the calculator's
own exact limit. The rules of each point are built with
:func:`toolkit.house_rules.load_rules`, so every field of a system's ``Rules`` is sweepable.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.house_rules import load_rules, rules_class
from toolkit.notation import LineMap, ParseErrors, excerpt, read_designer_yaml
from toolkit.sweeps import fingerprint
from toolkit.sweeps.calculators import Calculator, Param, calculator
from toolkit.sweeps.grid import Grid, GridPoints, Point, definition_key, fold_identity, json_piece

__all__ = [
    "Point",
    "Sweep",
    "load_sweep",
    "sweep_from_mapping",
    "point_definition",
    "point_key",
    "MAX_GRID",
    "TOP_KEYS",
    "grid_values",
]

#: The keys a sweep file may hold.
TOP_KEYS = ("title", "notes", "system", "calculator", "grid", "fixed", "chunk")
#: The most points any sweep may have (before the calculator's own limit).
MAX_GRID = 2_000_000
#: The longest range (values) of one grid entry.
MAX_RANGE = 1_000_000
#: The number of points too big for their calculator quoted in the error.
QUOTED = 3
#: The rules variants the rules refuse before the check stops (told one line per field).
MAX_REFUSED = 1_000


@dataclass(frozen=True)
class Sweep:
    """A validated sweep: its calculator, the swept columns and every point, in grid order
    (a sweep file's points are a :class:`~.grid.GridPoints`: built when first asked for)."""

    name: str
    title: str
    notes: str
    system: str
    calculator: Calculator
    swept: tuple[str, ...]
    points: Sequence[Point]
    chunk: int | None = None
    where: str = "<sweep>"
    #: The identity given (see :attr:`identity`); empty: the points' own.
    given_identity: str = ""

    @property
    def size(self) -> int:
        return len(self.points)

    @property
    def identity(self) -> str:
        """The fingerprint of the sweep's definition: system, calculator and every point's
        arguments and rules, in grid order (not the code: the same sweep after a change of
        the toolkit is still the same sweep). A table file records it."""
        if self.given_identity:
            return self.given_identity
        if isinstance(self.points, GridPoints):
            return self.points.identity()
        return ""


def point_definition(system: str, calc: str, args: Mapping[str, Any], rules: Any) -> str:
    """Return the hash of what a point asks: the system, calculator, arguments and every
    field of the rules (the same for every build of the toolkit). A renamed argument is
    written under its first name (:attr:`~toolkit.plugin.calculator.Param.stored_name`), so
    a sweep stored before the rename keeps its points' definitions and its identity."""
    stored = _stored_names(system, calc)
    payload = {
        "system": system,
        "calculator": calc,
        "args": {stored.get(k, k): list(v) if isinstance(v, tuple) else v for k, v in args.items()},
        "rules": None if rules is None else rules.to_mapping(changed_only=False),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def point_key(system: str, calc: str, args: Mapping[str, Any], rules: Any, code: str) -> str:
    """Return the key of a point: a hash of its :func:`point_definition` and of ``code``,
    the fingerprint of the toolkit's code that computes it
    (:func:`~toolkit.sweeps.fingerprint.code_fingerprint`): after a change of the code,
    every point is computed again."""
    return _key(point_definition(system, calc, args, rules), code)


def _stored_names(system: str, calc: str) -> dict[str, str]:
    """``{name: stored name}`` of the calculator's renamed arguments (none for one unknown)."""
    try:
        params = calculator(system, calc).params
    except InvalidSetupError:
        return {}
    return {p.name: p.stored_name for p in params if p.aliases}


_key = definition_key


def load_sweep(source: str | Path) -> Sweep:
    """Return the validated :class:`Sweep` of a sweep file (a path, or YAML text with a line break).

    Raises:
        InvalidSetupError: every problem of the file, one a line (``FILE:LINE: problem``).
        TooBigError: a grid with more points than its calculator allows, or points above
            the calculator's exact limit (with their size and the alternative).
        NotationError: not a file or not valid YAML.
    """
    read = read_designer_yaml(source, "sweep", "give a sweep file, e.g. data/sweeps/*.yaml")
    return sweep_from_mapping(read.document.data, read.where, read.document.lines, name=read.name, base=read.base)


def sweep_from_mapping(
    data: Any,
    where: str = "<sweep>",
    lines: LineMap | None = None,
    *,
    name: str = "sweep",
    base: Path | None = None,
) -> Sweep:
    """Return the validated :class:`Sweep` of a sweep file's data (see :func:`load_sweep`).

    Raises:
        InvalidSetupError, TooBigError: as :func:`load_sweep`.
    """
    errors = ParseErrors(where, lines)
    if not isinstance(data, dict):
        raise InvalidSetupError(f"{where}: a sweep file is a mapping with {', '.join(TOP_KEYS)}")
    errors.check_keys(data, TOP_KEYS, "")
    errors.check_controls(data)  # its title reaches the terminal and the report
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
    chunk = errors.whole(data.get("chunk"), "chunk (points per task)", "chunk", low=1, high=100_000)
    grid = data.get("grid") or {}
    fixed = data.get("fixed") or {}
    for key, value in (("grid", grid), ("fixed", fixed)):
        if not isinstance(value, dict):
            errors.add(f"{key} must be a mapping of arguments to values, got {excerpt(value)}", key)
    if errors:
        raise InvalidSetupError(errors.summary())

    # Each argument under its name: a name it had before a rename (an alias) is read as it.
    candidates: list[tuple[str, Param, list[Any] | range]] = []  # (argument, its Param, values as written)
    gridded: set[str] = set()
    for arg, raw in grid.items():
        if arg in ("rules", "rules_files"):
            continue
        param = _param(calc, arg, errors, ("grid", arg))
        values = _values(raw, arg, errors)
        if param is None:
            continue
        if param.name in gridded:
            errors.add(f"{' and '.join(param.names)} name one argument: give it once", "grid", arg)
            continue
        gridded.add(param.name)
        if values is not None:
            candidates.append((param.name, param, values))
    given: dict[str, Any] = {}
    for arg, raw in fixed.items():
        param = _param(calc, arg, errors, ("fixed", arg))
        if param is None:
            continue
        if param.name in gridded:
            errors.add(f"{arg} is both in the grid and fixed: give it once", "fixed", arg)
        elif param.name in given:
            errors.add(f"{' and '.join(param.names)} name one argument: give it once", "fixed", arg)
        given[param.name] = _checked(param, raw, errors, ("fixed", arg))
    swept_args = {a for a, _, _ in candidates}
    missing = [p.name for p in calc.params if p.required and p.name not in swept_args and p.name not in given]
    if missing:
        errors.add(f"{calc.name} needs {', '.join(missing)}: give them in grid or fixed", "calculator")
    files, rule_axes = _rules_axes(calc, system, grid, errors)
    if errors:
        raise InvalidSetupError(errors.summary())

    # The size from the axes' lengths alone: nothing is checked one value at a time, and no
    # rules are built, before the grid is known to fit.
    shape = [(len(v), a) for a, _, v in candidates] + [(len(v), f"rules.{f}") for f, v in rule_axes]
    if files is not None:
        shape.insert(len(candidates), (len(files), "rules_files"))
    size = math.prod(n for n, _ in shape)
    limit = min(calc.max_points, MAX_GRID)
    if size > limit:
        raise TooBigError(
            f"{where}: the grid has {size:,} points ({' x '.join(f'{n:,} {a}' for n, a in shape) or '1'}); "
            f"a sweep of {calc.name} runs at most {limit:,}: narrow the ranges or split the sweep into several files"
        )
    axes = [(arg, _checked_axis(param, values, errors, arg)) for arg, param, values in candidates]
    variants = _rules_variants(calc, system, files, rule_axes, errors, base)
    if errors:
        raise InvalidSetupError(errors.summary())
    points = _points(calc, system, axes, given, variants)
    _check_sizes(calc, points, where)
    rule_columns = [c for c, _ in variants[0][1]] if variants else []
    swept = tuple(a for a, v in axes if len(v) > 1) + tuple(
        c for c in rule_columns if c != "rules" and len({dict(v[1])[c] for v in variants}) > 1
    )
    return Sweep(name, title, notes, system, calc, swept, points, chunk, where)


def _param(calc: Calculator, arg: Any, errors: ParseErrors, path: tuple[Any, ...]) -> Param | None:
    try:
        return calc.param(arg)
    except InvalidSetupError as exc:
        hint = ""
        if arg in ("rules", "rules_files") or (calc.takes_rules and arg in rules_class(calc.system).field_names()):
            hint = " (rules go in the grid: rules: {field: [values]} or rules_files: [files])"
        errors.add(f"{exc}{hint}", *path)
        return None


def _checked(param: Param, value: Any, errors: ParseErrors, path: tuple[Any, ...]) -> Any:
    try:
        return param.check(value)
    except InvalidSetupError as exc:
        errors.add(str(exc), *path)
        return param.default


def _values(raw: Any, what: str, errors: ParseErrors, *path: Any) -> list[Any] | range | None:
    """The candidate values of a grid entry: a non-empty list, or ``{from, to, step}`` as
    a :class:`range` (its length known without making its values)."""
    path = path or ("grid", what)
    if isinstance(raw, list):
        if not raw:
            errors.add(f"{what}: the list of values is empty", *path)
            return None
        return raw
    if isinstance(raw, dict):
        errors.check_keys(raw, ("from", "to", "step"), f"{what}: ", *path)
        low = errors.whole(raw.get("from"), f"{what}: from", *path, "from", low=-MAX_RANGE, high=MAX_RANGE)
        high = errors.whole(raw.get("to"), f"{what}: to", *path, "to", low=-MAX_RANGE, high=MAX_RANGE)
        step = errors.whole(raw.get("step"), f"{what}: step", *path, "step", low=1, high=MAX_RANGE, default=1)
        if low is None or high is None:
            if "from" not in raw or "to" not in raw:
                errors.add(f"{what}: a range needs from and to, e.g. {{from: 1, to: 12}}", *path)
            return None
        if high < low:
            errors.add(f"{what}: the range goes from {low} to {high}: 'to' must not be below 'from'", *path)
            return None
        return range(low, high + 1, step or 1)
    errors.add(f"{what}: give a list of values or a range {{from: 1, to: 12}}, got {excerpt(raw)}", *path)
    return None


def _checked_axis(param: Param, values: list[Any] | range, errors: ParseErrors, arg: str) -> list[Any] | range:
    """The values of one grid axis as the calculator takes them; every bad value of the
    axis in one line (the first, and how many more). A range is checked as a whole
    (:meth:`Param.bad_in_range`), not value by value."""
    if isinstance(values, range):
        count, first = param.bad_in_range(values)
        if first is None:
            return values if param.kind == "int" else [param.check(v) for v in values]
        message = _refusal(param, first)
        if count is None:
            message += f" (the first refused value of the range's {len(values):,})"
        elif count > 1:
            message += f" (and {count - 1:,} more of the range's {len(values):,} values)"
        errors.add(message, "grid", arg)
        return []
    checked, bad = [], []
    for i, value in enumerate(values):
        try:
            checked.append(param.check(value))
        except InvalidSetupError as exc:
            bad.append((i, str(exc)))
    if bad:
        more = f" (and {len(bad) - 1:,} more bad values of {arg})" if len(bad) > 1 else ""
        errors.add(bad[0][1] + more, "grid", arg, bad[0][0])
    return checked


def _refusal(param: Param, value: Any) -> str:
    """The message of ``param.check(value)`` for a value it refuses."""
    try:
        param.check(value)
    except InvalidSetupError as exc:
        return str(exc)
    return f"{param.name} refuses {excerpt(value)}"


def _rules_axes(
    calc: Calculator, system: str, grid: Mapping[str, Any], errors: ParseErrors
) -> tuple[list[Any] | range | None, list[tuple[str, list[Any] | range]]]:
    """The house-rules files of the grid (``None``: none given) and its rules fields with
    their values as written: what the size needs, nothing loaded or built yet."""
    fields_raw, files_raw = grid.get("rules"), grid.get("rules_files")
    if not calc.takes_rules:
        for key, raw in (("rules", fields_raw), ("rules_files", files_raw)):
            if raw is not None:
                errors.add(f"{calc.name} takes no rules: remove {key}", "grid", key)
        return None, []
    files = None if files_raw is None else _values(files_raw, "rules_files", errors, "grid", "rules_files") or []
    axes: list[tuple[str, list[Any] | range]] = []
    if fields_raw is not None:
        if not isinstance(fields_raw, dict):
            errors.add(f"rules must map rules fields to lists of values, got {excerpt(fields_raw)}", "grid", "rules")
        else:
            names = rules_class(system).field_names()
            for field, raw in fields_raw.items():
                if field not in names:
                    errors.add(
                        f"{excerpt(field)} is not a field of the {system} rules; the fields are {', '.join(names)}",
                        "grid",
                        "rules",
                        field,
                    )
                    continue
                values = _values(raw, f"rules: {field}", errors, "grid", "rules", field)
                if values is not None:
                    axes.append((field, values))
    return files, axes


def _rules_variants(
    calc: Calculator,
    system: str,
    files: list[Any] | range | None,
    axes: list[tuple[str, list[Any] | range]],
    errors: ParseErrors,
    base: Path | None,
) -> list[tuple[Any, tuple[tuple[str, Any], ...]]]:
    """Every rules variant of the grid with its table columns: the house-rules files times
    the product of the swept rules fields (built only once the grid's size is known to
    fit). ``[(None, ())]`` for a calculator without rules. The variants the rules refuse
    are told one line per field (the first, and how many more), the search stopping after
    :data:`MAX_REFUSED` of them."""
    if not calc.takes_rules:
        return [(None, ())]
    cls = rules_class(system)
    bases: list[tuple[str, Any]] = [("", cls())]
    if files is not None:
        bases = []
        for i, name in enumerate(files):
            if name == "default":  # the rulings as written (no file)
                bases.append(("default", cls()))
                continue
            try:
                rules = load_rules(system, name, base)
            except InvalidSetupError as exc:
                errors.add(f"rules_files: {exc}", "grid", "rules_files", i)
                continue
            bases.append((Path(str(name)).stem, rules))
    variants = []
    refused: dict[str | None, list[Any]] = {}  # field (None: the first one) -> [first message, count]
    total = 0
    for label, base_rules in bases:
        mapping = base_rules.to_mapping()
        for combo in itertools.product(*(v for _, v in axes)):
            changes = {f: v for (f, _), v in zip(axes, combo, strict=True)}
            try:
                rules = load_rules(system, {**mapping, **changes})
            except InvalidSetupError as exc:
                field = next((f for f, _ in axes if f in str(exc)), None)
                refused.setdefault(field, [str(exc), 0])[1] += 1
                total += 1
                if total >= MAX_REFUSED:
                    break
                continue
            columns: tuple[tuple[str, Any], ...] = (("rules", rules.variant_name()),)
            if files is not None:
                columns += (("rules_file", label),)
            columns += tuple((f"rules.{f}", _column_text(v)) for f, v in changes.items())
            variants.append((rules, columns))
        if total >= MAX_REFUSED:
            break
    for field, (message, count) in refused.items():
        if count > 1:
            least = "at least " if total >= MAX_REFUSED else ""
            message += f" (and {least}{count - 1:,} more rules variants refused)"
        errors.add(message, "grid", "rules", *((field,) if field else ()))
    return variants or [(cls(), (("rules", "default rules"),))]


def _column_text(value: Any) -> Any:
    """A rules value as a table cell: scalars as they are, lists as YAML-like text."""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, default=str)
    return value


def _points(
    calc: Calculator,
    system: str,
    axes: list[tuple[str, list[Any]]],
    given: Mapping[str, Any],
    variants: list[tuple[Any, tuple[tuple[str, Any], ...]]],
) -> Sequence[Point]:
    """The points of the grid, each once, with the sweep's identity (see :class:`Sweep`).

    Each point's :func:`point_definition` is written from pieces made once (each
    argument's value, each rules variant's fields) rather than from the whole point: the
    same text, at a small share of the cost. When every place of the grid is a distinct
    point (:attr:`~.grid.Grid.distinct`), the points are left unbuilt
    (:class:`~.grid.GridPoints`: a sweep of a million points is not built on the machine
    running the command, its workers build their chunks' points); else they are built
    here, a point repeated in the grid kept once."""
    code = fingerprint.code_fingerprint()
    params = {p.name: p for p in calc.params}
    base = {p.name: p.default for p in calc.params}
    base.update(given)
    choices = {a: list(v) for a, v in axes}
    names = tuple(base)
    stored = {name: params[name].stored_name for name in names}  # a renamed argument: its first name
    grid = Grid(
        system,
        calc.name,
        code,
        names,
        tuple(
            tuple(
                (v, params[name].column(v), f"{json.dumps(stored[name])}: {_json(v)}")
                for v in choices.get(name, [base[name]])
            )
            for name in names
        ),
        tuple(names.index(a) for a, _ in axes),
        tuple(
            (rules, columns, _json(None if rules is None else rules.to_mapping(changed_only=False)))
            for rules, columns in variants
        ),
        # the JSON of the arguments is sorted by name (point_definition)
        tuple(sorted(range(len(names)), key=lambda i: stored[names[i]])),
        '{"args": {',
        "}, " + f'"calculator": {json.dumps(calc.name)}, "rules": ',
        f', "system": {json.dumps(system)}}}',
    )
    if grid.distinct:
        return GridPoints(grid)
    points, definitions = [], []
    seen: set[str] = set()
    for point, definition in grid.build(range(grid.size)):
        if definition in seen:  # the same point twice (a repeated value): computed once
            continue
        seen.add(definition)
        definitions.append(definition)
        points.append(point)
    return GridPoints(grid, tuple(points), fold_identity(system, calc.name, definitions))


def _json(value: Any) -> str:
    """A value as :func:`point_definition` writes it (tuples as lists, keys sorted)."""
    return json_piece(value)


def _check_sizes(calc: Calculator, points: Sequence[Point], where: str) -> None:
    """Refuse, before running, the points above the calculator's own exact limit under
    their own rules (house rules can make a point bigger: Jokers in the deck, say); the
    points left unbuilt (:class:`~.grid.GridPoints`) are checked from their arguments."""
    if calc.size is None:
        return
    if isinstance(points, GridPoints) and not points.built:
        checked = points.grid.arguments()
    else:
        checked = ((i, point.arguments(), point.rules) for i, point in enumerate(points))
    too_big = []
    for place, args, rules in checked:
        measured = calc.measure(args, rules)
        if measured is not None and measured[0] > measured[1]:
            too_big.append((place, measured))
    if too_big:
        place, (size, limit, alternative) = too_big[0]
        at = points.at if isinstance(points, GridPoints) else points.__getitem__
        quoted = "; ".join(at(p).describe() for p, _ in too_big[:QUOTED])
        raise TooBigError(
            f"{where}: {len(too_big):,} of the {len(points):,} points are too big for {calc.name} exactly "
            f"(e.g. size {size:,} above the limit of {limit:,}): {quoted}; use {alternative}"
        )


#: The check of a grid entry's values (a list, or a range ``{from, to, step}``), public for the
#: other files that take values the way a sweep grid does (a tuning file's knobs,
#: :mod:`toolkit.tune`): one rule, one place.
grid_values = _values
