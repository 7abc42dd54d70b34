"""Report parameters: the notebook's cell tagged ``parameters``, checked before a run.

Parameter types come from an annotation (``max_dice: int = 10``) or else from the
literal default (``max_dice = 10``). Papermill only warns about an unknown parameter
and never checks types, so :func:`validate_parameters` does both before a run.

A parameter whose help comment starts with ``house rules`` (``rules = None  # house
rules: ...``) takes a system's house rules: ``None`` for the default rules, a
house-rules file (a path or the name of a shipped one, ``data/rules/<system>/``) or a
mapping of fields. It is read before the run (:func:`read_rules_parameter`), so a bad
file fails at once with its file, line and field named. The system is the notebook's
``system`` parameter, else the one its file name starts with
(``angry_miniatures_report.ipynb``: ``angry-miniatures``).

>>> parse_cli_value("8"), parse_cli_value("[4, 6]"), parse_cli_value("true"), parse_cli_value("melee")
(8, [4, 6], True, 'melee')
>>> ParameterSpec("max_dice", "int", "10", "largest pool").describe()
'max_dice: int = 10  # largest pool'
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.house_rules import read_house_rules
from toolkit.notation import YamlSyntaxError, control_character, excerpt, load_yaml
from toolkit.reports.literals import ACCEPTED, plain_problem
from toolkit.reports.notebook_libraries import notebook_library

__all__ = [
    "CHECKED_TYPES",
    "RULES_HELP",
    "ParameterSpec",
    "format_value",
    "parameter_words",
    "default_value",
    "notebook_parameters",
    "notebook_system",
    "parse_cli_value",
    "read_rules_parameter",
    "rules_html",
    "validate_parameters",
    "with_variants",
]

#: How the help comment of a house-rules parameter starts (lower case).
RULES_HELP = "house rules"

#: Parameter types the runner checks; ``None`` in :attr:`ParameterSpec.type_name` means any.
CHECKED_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "str": (str,),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
}

_ANNOTATION_TYPES = {
    "int": "int",
    "float": "float",
    "str": "str",
    "bool": "bool",
    "list": "list",
    "List": "list",
    "tuple": "list",
    "Tuple": "list",
    "Sequence": "list",
    "dict": "dict",
    "Dict": "dict",
    "Mapping": "dict",
}


@dataclass(frozen=True)
class ParameterSpec:
    """One parameter of a report notebook.

    ``type_name`` is one of ``int``, ``float``, ``str``, ``bool``, ``list``, ``dict``, or
    ``None`` when any value is accepted (a ``None`` default, or a default that is not a
    literal such as ``list(range(3))``). ``default`` is the default's source text.
    """

    name: str
    type_name: str | None
    default: str
    help: str = ""

    def accepts(self, value: Any) -> bool:
        """Return whether ``value`` has this parameter's type (an int is a float; a bool
        is not an int)."""
        if self.type_name is None:
            return True
        if isinstance(value, bool) and self.type_name != "bool":
            return False
        return isinstance(value, CHECKED_TYPES[self.type_name])

    @property
    def choices(self) -> tuple[str, ...]:
        """The words the help comment quotes (``'AM-5: "miss" or "super_tiebreak"'``):
        the only values a text parameter, or each text of a list parameter, may take
        (empty: no such list in the comment)."""
        if self.type_name not in ("str", "list"):
            return ()
        return tuple(_QUOTED.findall(self.help))

    def default_value(self) -> Any:
        """The default, as a value (None if it is not a literal)."""
        try:
            return ast.literal_eval(self.default)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None

    @property
    def bounds(self) -> tuple[str, str] | None:
        """The range the help comment declares at its end (``# largest pool [1 to 15]``),
        as its two numbers' text; None if it declares none. A number parameter's value, each
        number of a list parameter, and a text parameter's number (``"1/2"``) must lie in it."""
        found = _RANGE.search(self.help)
        return (found[1], found[2]) if found else None

    def takes(self) -> str:
        """What this parameter takes, in words: its declared range with its type
        (``"a whole number from 1 to 15"``), else any plain value
        (:data:`toolkit.reports.literals.ACCEPTED`)."""
        if self.bounds is None:
            return ACCEPTED
        kind = _RANGED_KINDS.get(self.type_name or "", "numbers")
        return f"{kind} from {self.bounds[0]} to {self.bounds[1]}"

    def _out_of_range(self, value: Any) -> str | None:
        """Why ``value`` (of this parameter's type) is outside :attr:`bounds`, or None."""
        if self.bounds is None:
            return None
        low, high = (Fraction(b) for b in self.bounds)
        where = f"from {self.bounds[0]} to {self.bounds[1]}"
        if isinstance(value, str):
            if not _NUMBER_TEXT.fullmatch(value.strip()) or not low <= Fraction(value.strip()) <= high:
                return f"must be a number {where}, written as 2, -0.5 or 1/3"
            return None
        odd = next((v for v in _numbers(value) if not low <= _as_written(v) <= high), None)
        if odd is None:
            return None
        return f"must be {where}" if odd is value else f"takes numbers {where}, got an item {excerpt(odd)}"

    def problem(self, value: Any) -> str | None:
        """Return why ``value`` cannot be given to this parameter (None if it can): the
        wrong type, an item of a list of another type than the default's items, a number
        outside the declared range (:attr:`bounds`), a word not among :attr:`choices`, or
        text that is too long or holds control characters (what a report echoes is
        escaped besides: :func:`toolkit.reports.figures.say`)."""
        if not self.accepts(value):
            return f"must be {self.type_name}" if self.bounds is None else f"must be {self.takes()}"
        out = self._out_of_range(value)
        if out is not None:
            return out
        items = value if isinstance(value, list) else [value]
        if isinstance(value, list):
            if len(value) > MAX_LIST_ITEMS:
                return f"has {len(value):,} items; at most {MAX_LIST_ITEMS}"
            default = self.default_value()
            kinds = {_kind(v) for v in default} if isinstance(default, (list, tuple)) and default else set()
            odd = next((v for v in value if kinds and _kind(v) not in kinds), None)
            if odd is not None:
                return f"is a list of {' or '.join(sorted(kinds))} values, got an item {excerpt(odd)}"
        for item in _texts(items):
            if len(item) > MAX_TEXT_CHARS:
                return f"holds a text of {len(item):,} characters; at most {MAX_TEXT_CHARS}"
            if control_character(item) is not None:
                return f"holds {excerpt(item)}: control characters are not accepted"
            if self.choices and item not in self.choices:
                return f"takes {' or '.join(map(repr, self.choices))}, got {excerpt(item)}"
        return None

    @property
    def is_rules(self) -> bool:
        """Whether this parameter takes house rules (its help starts with :data:`RULES_HELP`)."""
        return self.help.strip().lower().startswith(RULES_HELP)

    def describe(self) -> str:
        """Return ``'name: type = default  # help'`` (type ``any`` when unchecked)."""
        text = f"{self.name}: {self.type_name or 'any'} = {self.default}"
        return f"{text}  # {self.help}" if self.help else text


#: The longest text, and the most items of a list, a report parameter may be given.
MAX_TEXT_CHARS = 200
MAX_LIST_ITEMS = 1000

_QUOTED = re.compile(r'"([A-Za-z0-9_.\-]+)"')
#: What a parameter with a declared range takes, by its type.
_RANGED_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "a number as text (2, -0.5 or 1/3)",
    "list": "a list of numbers",
}
#: A range declared at the end of a parameter's help comment: ``[1 to 15]``, ``[0 to 0.5]``.
_RANGE = re.compile(r"\[(-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)\]\s*$")
#: The number a text parameter with a range takes: whole, decimal or a fraction (no exponent).
_NUMBER_TEXT = re.compile(r"-?\d{1,15}(?:\.\d{1,15}|/0*[1-9]\d{0,14})?")


def _kind(value: Any) -> str:
    """The kind of a list item, for the message (``bool`` is not an ``int``)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "whole number"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


def _leaves(values: Any) -> list[Any]:
    """Every value in ``values`` that is not a list or a mapping (nested lists and
    mappings, keys included, iteratively), in order."""
    out: list[Any] = []
    stack = [values]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(reversed(value))
        elif isinstance(value, dict):
            for k, v in reversed(list(value.items())):
                stack.extend((v, k))
        else:
            out.append(value)
    return out


def _numbers(values: Any) -> list[int | float]:
    """Every number in ``values`` (nested lists and mappings included; a bool is no number)."""
    return [v for v in _leaves(values) if isinstance(v, (int, float)) and not isinstance(v, bool)]


def _as_written(number: int | float) -> int | Fraction:
    """A number as its text says (``1e-06`` is one millionth, not the float nearest it);
    a NaN stays a NaN, outside every range."""
    if isinstance(number, float) and math.isfinite(number):
        return Fraction(repr(number))
    return number


def _texts(values: Any) -> list[str]:
    """Every text in ``values`` (nested lists and mappings included)."""
    return [v for v in _leaves(values) if isinstance(v, str)]


def _type_of_default(default: str) -> str | None:
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    for name in ("bool", "int", "float", "str", "list", "dict"):
        if type(value) is CHECKED_TYPES[name][0]:
            return name
    if isinstance(value, tuple):
        return "list"
    return None


def _type_of_annotation(annotation: str) -> str | None:
    base = annotation.split("[", 1)[0].strip()
    return _ANNOTATION_TYPES.get(base)


def notebook_parameters(path: Path | str) -> dict[str, ParameterSpec]:
    """Return the parameters of the notebook's cell tagged ``parameters``, in order
    (empty when there is no such cell), using ``papermill.inspect_notebook`` (once per
    version of the file: a run reads them several times)."""
    path = Path(path)
    if not path.is_file():
        raise InvalidSetupError(f"no notebook at {str(path)!r}")
    stat = path.stat()
    return {spec.name: spec for spec in _inspected(str(path.resolve()), stat.st_mtime_ns, stat.st_size)}


@functools.lru_cache(maxsize=64)
def _inspected(path: str, mtime_ns: int, size: int) -> tuple[ParameterSpec, ...]:
    """The parameters of the notebook at ``path`` as it is at ``mtime_ns`` and ``size``."""
    papermill = notebook_library("papermill")

    try:
        inspected = papermill.inspect_notebook(path)
    except Exception as exc:  # papermill raises plain ValueError/JSON errors here
        raise InvalidSetupError(f"cannot read the parameters of {path!r}: {exc}") from exc
    specs = []
    for name, p in inspected.items():
        declared = p.get("inferred_type_name") or "None"
        default = str(p.get("default", ""))
        type_name = _type_of_annotation(declared) if declared != "None" else _type_of_default(default)
        specs.append(ParameterSpec(name, type_name, default, str(p.get("help") or "")))
    return tuple(specs)


def _accepted_list(specs: Mapping[str, ParameterSpec]) -> str:
    if not specs:
        return "it accepts no parameters"
    shown = "; ".join(f"{s.name}: {s.type_name or 'any'} (default {s.default})" for s in specs.values())
    return f"accepted parameters: {shown}"


def validate_parameters(path: Path | str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``params`` checked against the notebook's parameters cell, ints given for
    float parameters turned into floats.

    An unknown name, a value that is not plain data (a tuple, a set, bytes, a date, an
    object: :func:`toolkit.reports.literals.plain_problem`) or a value of the wrong type
    raises :class:`InvalidSetupError` naming it and listing every accepted parameter
    with its type and default.
    """
    specs = notebook_parameters(path)
    where = Path(path).name
    checked: dict[str, Any] = {}
    # house rules last: they are read for the system the (checked) parameters name
    ordered = sorted(params.items(), key=lambda item: item[0] in specs and specs[item[0]].is_rules)
    for name, value in ordered:
        spec = specs.get(name)
        if spec is None:
            raise InvalidSetupError(f"{where} has no parameter {excerpt(name)}; {_accepted_list(specs)}")
        not_plain = plain_problem(value)
        if not_plain is not None:
            takes = "a parameter takes " + ACCEPTED if spec.bounds is None else "it takes " + spec.takes()
            raise InvalidSetupError(f"parameter {name!r} of {where} holds {not_plain}; {takes}")
        problem = spec.problem(value)
        if problem is not None:
            raise InvalidSetupError(
                f"parameter {excerpt(name)} of {where} {problem} (default {spec.default}), "
                f"got {excerpt(value)} ({type(value).__name__})"
            )
        if spec.is_rules:
            value = _checked_rules(path, specs, params, name, value)
        if name == "situation" and value:
            _check_situation(path, specs, params, value)
        if name == "sizes" and value is not None:
            _check_sizes(path, specs, params, value)
        if name == "system" and not spec.choices:
            _check_system(path, value)
        if spec.type_name == "float" and isinstance(value, int):
            value = float(value)
        checked[name] = value
    return {name: checked[name] for name in params}


def notebook_system(path: Path | str, specs: Mapping[str, ParameterSpec], params: Mapping[str, Any]) -> str | None:
    """Return the system a report's house rules are for: its ``system`` parameter (as
    given, else its default), else the system whose name the notebook's file name starts
    with (``fairy_meat_strategy.ipynb``: ``fairy-meat``); None if neither."""
    from toolkit import systems

    if "system" in params:
        return str(params["system"])
    if "system" in specs:
        default = specs["system"].default_value()
        return str(default) if default is not None else None
    stem = Path(path).stem
    found = [n for n in systems.names() if stem.startswith(n.replace("-", "_"))]
    return max(found, key=len) if found else None


def _check_situation(
    path: Path | str, specs: Mapping[str, ParameterSpec], params: Mapping[str, Any], value: Any
) -> None:
    """Refuse a ``situation`` that is not in the catalogue of the report's system before the
    run (the rule-book examples report would fail in its search cell)."""
    from toolkit.rulebook.situations import catalogued_systems, situation_names

    system = notebook_system(path, specs, params)
    if system not in catalogued_systems():
        return  # an unknown system is refused by its own parameter (or in the notebook)
    names = situation_names(system)
    if value not in names:
        raise InvalidSetupError(
            f"parameter 'situation' of {Path(path).name}: {system} has no situation {excerpt(value)}; "
            f"use one of {', '.join(names)}"
        )


def _check_system(path: Path | str, value: Any) -> None:
    """Refuse a ``system`` that is not registered (:mod:`toolkit.systems`) before the run."""
    from toolkit import systems

    if value not in systems.names():
        raise InvalidSetupError(
            f"parameter 'system' of {Path(path).name}: unknown system {excerpt(value)}; "
            f"the systems are: {', '.join(systems.names())}"
        )


#: The range of every number a headline table's size holds (``sizes: {max_dice: 4}``),
#: by the size's name, else :data:`SIZE_RANGE`: a table of pools, hands or armies of a
#: hundred is far past any exact calculator, and each size is computed under two rule sets.
SIZE_RANGES: dict[str, tuple[int, int]] = {"trials": (1, 100_000)}
SIZE_RANGE = (0, 100)


def _check_sizes(path: Path | str, specs: Mapping[str, ParameterSpec], params: Mapping[str, Any], value: Any) -> None:
    """Refuse ``sizes`` that the report's system does not read (its registry hook ``sizes``,
    :meth:`toolkit.systems.System.check_sizes`), or that hold a number outside its range
    (:data:`SIZE_RANGES`), before the run."""
    from toolkit import systems

    where = f"parameter 'sizes' of {Path(path).name}"
    for name, size in value.items() if isinstance(value, Mapping) else ():
        low, high = SIZE_RANGES.get(name, SIZE_RANGE)
        odd = next((v for v in _numbers(size) if not low <= _as_written(v) <= high), None)
        if odd is not None:
            raise InvalidSetupError(f"{where}: {excerpt(name)} takes numbers from {low} to {high}, got {excerpt(odd)}")
    system = notebook_system(path, specs, params)
    if system not in systems.names("sizes"):
        return  # an unknown system is refused by its own parameter (or in the notebook)
    try:
        systems.system(system).check_sizes(value)
    except InvalidSetupError as exc:
        raise InvalidSetupError(f"{where}: {exc}") from None


def _checked_rules(
    path: Path | str, specs: Mapping[str, ParameterSpec], params: Mapping[str, Any], name: str, value: Any
) -> Any:
    """A house-rules parameter read before the run: the value to give the notebook (a
    file found from here is given by its absolute path: the notebook runs elsewhere)."""
    where = Path(path).name
    system = notebook_system(path, specs, params)
    if system is None:
        raise InvalidSetupError(f"parameter {excerpt(name)} of {where}: the notebook names no system for its rules")
    try:
        house = read_rules_parameter(system, value)
    except InvalidSetupError as exc:
        raise InvalidSetupError(f"parameter {excerpt(name)} of {where}: {exc}") from None
    if isinstance(value, str) and house.path is not None and Path(value).expanduser().is_file():
        return str(house.path.resolve())
    return value


#: A report's house-rules parameter is read as any house rules a designer gives
#: (:func:`toolkit.house_rules.read_house_rules`): the one reader, under the name reports use.
read_rules_parameter = read_house_rules


def rules_html(house: Any, heading: str = "Rules in force", rules: Any = None) -> str:
    """Return the HTML a report shows, once, of the rules it used: ``heading`` and the
    system, the title, the notes and each changed field with its default (every text
    escaped). ``house`` is what :func:`read_rules_parameter` returns; ``rules``, the rules
    in force when the report's own parameters (a variant) change the house rules (the
    title then says so)."""
    import html

    from toolkit.house_rules import value_words
    from toolkit.systems import system as system_entry

    title = house.title
    if rules is not None and rules != house.rules:
        title += ", with this report's parameters"
    rules = house.rules if rules is None else rules
    system_title = system_entry(rules.SYSTEM).title
    parts = [f"<p><b>{html.escape(heading)} ({html.escape(system_title)}):</b> {html.escape(title)}"]
    if house.path is not None:
        parts[0] += f" <code>{html.escape(Path(house.path).name)}</code>"
    parts[0] += "</p>"
    if house.notes.strip():
        parts.append(f'<blockquote style="white-space:pre-wrap">{html.escape(house.notes.strip())}</blockquote>')
    changes = rules.changes()
    if changes:
        items = "".join(
            f"<li>{html.escape(rules.field_label(name))}: {html.escape(value_words(new))} "
            f"(by default {html.escape(value_words(old))})</li>"
            for name, (old, new) in changes.items()
        )
        parts.append(f"<ul>{items}</ul>")
    else:
        parts.append("<p>Every rule as the rulings say (no field changed).</p>")
    return '<div class="toolkit-rules">' + "".join(parts) + "</div>"


def with_variants(rules: Any, **fields: Any) -> Any:
    """Return house rules with a report's variant parameters on top: each field given a
    value other than the default rules' replaces the house rules' value; a variant
    parameter left at its default keeps what the house rules say.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Rules:  # a system's rules: a frozen dataclass whose defaults are the rulings
    ...     hit_on: int = 5
    ...     reroll: bool = False
    >>> with_variants(Rules(hit_on=4), hit_on=5, reroll=True)  # hit_on=5 is the default: 4 stays
    Rules(hit_on=4, reroll=True)
    """
    import dataclasses

    default = type(rules)()
    changed = {name: value for name, value in fields.items() if value != getattr(default, name)}
    return dataclasses.replace(rules, **changed) if changed else rules


def parse_cli_value(text: str, type_name: str | None = None) -> Any:
    """Return the value of a command-line ``-p NAME VALUE``, read as YAML by the safe
    reader (:func:`toolkit.notation.load_yaml`, never ``eval``): ``8`` is an int,
    ``[4, 6]`` a list, ``true`` a bool, ``melee`` a str.

    Text that is not valid YAML stays a str. With ``type_name="str"`` the text is taken
    as it is (``-p label 8`` gives ``'8'``); with ``"float"`` forms YAML reads as text,
    such as ``1e3``, are read as floats.

    Raises:
        InvalidSetupError: YAML the safe reader refuses (an alias, a duplicate key, a
            bad tag such as ``!!int x``, too big), with a short excerpt.
    """
    if type_name == "str":
        return text
    try:
        value = load_yaml(text, "-p value").data
    except YamlSyntaxError:
        return text
    except NotationError as exc:
        raise InvalidSetupError(str(exc)) from None
    if type_name == "float" and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def format_value(value: Any) -> str:
    """Return a parameter value as Python writes it (the command line's ``-p`` echo)."""
    return repr(value)


#: Report parameters whose ``None`` means the rulings themselves (no house rules).
RULES_PARAMETERS = ("rules", "baseline")


def parameter_words(name: str, value: Any) -> tuple[str, str]:
    """Return a report parameter as a designer reads it in a report's header and the
    batch index: its name in words and its value in words (a list as ``melee, ranged,
    magic``, a choice with spaces, ``yes``/``no``, a house-rules file by its file name,
    ``None`` as "default rules" for the rules and "not set" otherwise).

    >>> parameter_words("attack_types", ["melee", "ranged"])
    ('attack types', 'melee, ranged')
    >>> parameter_words("rules", None), parameter_words("zero_tie", "super_tiebreak")
    (('rules', 'default rules'), ('zero tie', 'super tiebreak'))
    >>> parameter_words("rules", "/home/d/data/rules/angry-miniatures/tens_hit.yaml")
    ('rules', 'tens_hit.yaml')
    >>> parameter_words("hidden_sizes", [[1, 1], [2, 1]])
    ('hidden sizes', '(1, 1), (2, 1)')
    """
    from toolkit.house_rules import value_words

    label = name.replace("_", " ")
    if value is None:
        return label, "default rules" if name in RULES_PARAMETERS else "not set"
    if isinstance(value, Mapping):
        return label, "; ".join(f"{str(k).replace('_', ' ')}: {_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, str) and value.endswith((".yaml", ".yml")):
        return label, Path(value).name
    if name == "system" and isinstance(value, str):
        return label, _system_title(value)
    if isinstance(value, bool):
        return label, value_words(value)
    return label, _words(value)


def _system_title(name: str) -> str:
    """A system by its title ("Angry Miniatures"), its ``system:`` name if none is registered."""
    from toolkit.systems import system

    try:
        return system(name).title
    except ToolkitError:
        return name


def _words(value: Any) -> str:
    """A parameter value in words: lists joined, nested lists in parentheses."""
    from toolkit.house_rules import value_words

    if isinstance(value, (list, tuple)):
        return ", ".join(f"({_words(v)})" if isinstance(v, (list, tuple)) else _words(v) for v in value) or "none"
    return value_words(value)


def default_value(source: str) -> Any:
    """Return the value of a parameter's default source text (``'["melee", "ranged"]'``),
    or the text itself when it is not a literal."""
    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return source
