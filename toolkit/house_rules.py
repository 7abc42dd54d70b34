"""House rules: every system's ``Rules`` as data, read from and written to YAML files.

A house-rules file names its system and only the fields it changes, with a free-text
``notes:`` (and an optional ``title:``)::

    system: angry-miniatures
    title: Tens hit
    notes: |
      What if 10s also hit? A 3-die attack gets noticeably deadlier.
    hit_faces: ["10", "J", "Q", "K", "A"]

Every system's ``Rules`` is a frozen dataclass that mixes in :class:`HouseRules`. Its
fields are declared with :func:`rule_field` (the ruling each implements and a line of
help), and its ``__post_init__`` validates them, raising :class:`RuleFieldError` (the
field's name, what was given and what is accepted). This module then gives every system
the same:

- ``Rules.from_mapping({...})`` and ``Rules.from_yaml(path)``: unknown fields are errors
  listing the fields, and each error names the file, the line and the field;
- ``rules.to_yaml()`` (YAML text of the changed fields; read back it gives equal rules),
  ``rules.to_mapping()``, ``rules.changes()`` and ``rules.variant_name()``;
- :func:`load_rules` (``None``, a ``Rules``, a mapping, a file path or the name of a
  shipped file) for reports, explorers, example files and sweeps;
- :func:`rules_files`: the shipped files of a system, ``data/rules/<system>/*.yaml``.

The defaults of every field are the rulings of ``docs/rulings.md``; the named variants
of those rulings are some of the fields.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import os
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from toolkit.errors import InvalidSetupError, NotationError, path_excerpt
from toolkit.files import designer_file, expand_home
from toolkit.notation import LineMap, ParseErrors, at_line, dump_example, excerpt, load_yaml
from toolkit.shipped import DATA_DIR, shipped_path
from toolkit.whole_numbers import is_whole_number, whole_number

__all__ = [
    "RULES_DIR",
    "HouseRules",
    "RuleFieldError",
    "labelled_field_message",
    "RulesFile",
    "load_rules",
    "read_house_rules",
    "rebuilt",
    "find_rules_file",
    "rule_field",
    "rules_class",
    "rules_files",
    "read_rules_entry",
    "example_folder",
    "fields_markdown",
    "freeze",
    "value_words",
]

#: Where the shipped house-rules files are: ``data/rules/<system>/*.yaml``.
RULES_DIR = shipped_path("rules")

#: The keys of a house-rules file that are not fields of the rules.
FILE_KEYS = ("system", "title", "notes")

R = TypeVar("R", bound="HouseRules")


class RuleFieldError(InvalidSetupError):
    """A field of a system's rules that is not valid: ``field`` names it, and the message
    says what was given and what is accepted."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message if message.startswith(field) else f"{field}: {message}")


def rule_field(
    default: Any,
    *,
    ruling: str = "",
    help: str = "",
    yaml: str = "",
    label: str = "",
    bounds: tuple[int, int] | None = None,
) -> Any:
    """Declare a field of a system's ``Rules``: its default, the ruling it implements
    (``"AM-3"``), one line of help for controls and reports, and the designer's name of the
    field (``label``: "Hit faces"; every page, widget and export names the field by it, never
    by its YAML key). ``yaml="mapping"`` writes a tuple of ``(key, value)`` pairs as a YAML
    mapping (a damage table, say). ``bounds=(low, high)``: a whole number from ``low`` to
    ``high``; the ``Rules``' validation and every control of the field read them
    (:meth:`HouseRules.field_bounds`), so the two cannot disagree."""
    metadata = {"ruling": ruling, "help": help, "yaml": yaml, "label": label, "bounds": bounds}
    return dataclasses.field(default=default, metadata=metadata)


def value_words(value: Any) -> str:
    """Return a rules value as a designer reads it: ``yes``/``no``, ``none``, a list as
    ``10, J, Q, K, A``, pairs as ``attack: H, defence: S``, a choice with its underscores
    read as spaces (``super tiebreak``).

    >>> value_words(("10", "J")), value_words(True), value_words("super_tiebreak"), value_words(None)
    ('10, J', 'yes', 'super tiebreak', 'none')
    >>> value_words((("attack", "H"), ("defence", "S"))), value_words("_my_ name_")
    ('attack: H, defence: S', '_my_ name_')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        value = tuple(value.items())
    if isinstance(value, (tuple, list)):
        if not value:
            return "none"
        if all(isinstance(p, tuple) and len(p) == 2 for p in value):
            return ", ".join(f"{value_words(k)}: {value_words(v)}" for k, v in value)
        return ", ".join(value_words(v) for v in value)
    text = str(value)
    return text.replace("_", " ") if _CHOICE.fullmatch(text) else text  # a name stays as written


#: A choice written as an identifier (``super_tiebreak``): read with spaces.
_CHOICE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


def freeze(value: Any) -> Any:
    """Return ``value`` with every list made a tuple and every mapping a tuple of
    ``(key, value)`` pairs (in the mapping's order), recursively: what a frozen, hashable
    ``Rules`` field holds, whatever YAML gave."""
    if isinstance(value, Mapping):
        return tuple((freeze(k), freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def _plain(value: Any, as_mapping: bool = False) -> Any:
    """The YAML form of a field value: tuples as lists (pairs as a mapping if asked)."""
    if as_mapping and isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        return {k: _plain(v) for k, v in value}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def labelled_field_message(field: str, label: str, message: str) -> str:
    """Return an error about the rules field ``field`` naming it as the designer writes it
    in a file and by its label (declared on :func:`rule_field`), once, at the start.

    >>> labelled_field_message("hit_faces", "Hit faces", "hit_faces: 'Z' is not a face")
    "hit_faces (Hit faces): 'Z' is not a face"
    >>> labelled_field_message("crit_count", "Crit dice", "crit_count=0: a whole number from 1 to 20")
    'crit_count (Crit dice) = 0: a whole number from 1 to 20'
    """
    named = f"{field} ({label})"
    if message.startswith(f"{field}: "):
        return f"{named}: {message[len(field) + 2 :]}"
    if message.startswith(f"{field}="):
        return f"{named} = {message[len(field) + 1 :]}"
    if message.startswith(f"{field} "):
        return named + message[len(field) :]
    return f"{named}: {message}"


def _plain_whole_numbers(rules: Any) -> None:
    """Store each field given as a numpy (or other non-``int``) integer as the plain ``int``
    it stands for, in a list of them too, so that ``Rules(tie_damage=np.int64(2))`` is the
    rules of ``2`` (equal, hashed and written to a file alike)."""
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if is_whole_number(value) and type(value) is not int:
            object.__setattr__(rules, f.name, operator.index(value))
        elif isinstance(value, tuple) and any(is_whole_number(v) and type(v) is not int for v in value):
            plain = tuple(operator.index(v) if is_whole_number(v) else v for v in value)
            object.__setattr__(rules, f.name, plain)


class HouseRules:
    """What every system's ``Rules`` shares (mixed into its frozen dataclass): reading and
    writing house-rules files, the changed fields, a label. Set ``SYSTEM`` to the system's
    name (its ``system:`` in :mod:`toolkit.systems`)."""

    SYSTEM: ClassVar[str] = ""
    #: What a designer calls the system at the head of a result (``"Fairy Meat"``); by
    #: default ``SYSTEM`` in words.
    TITLE: ClassVar[str] = ""

    @classmethod
    def system_title(cls) -> str:
        """What a designer calls the system at the head of a result (:mod:`toolkit.question`)."""
        return cls.TITLE or cls.SYSTEM.replace("-", " ").title()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Make every error of a system's validation (its ``__post_init__``) name the field as
        the designer writes it in a file and by its label: ``hit_faces (Hit faces): ...``
        (:func:`labelled_field_message`)."""
        super().__init_subclass__(**kwargs)
        check = cls.__dict__.get("__post_init__")
        if check is None or getattr(check, "names_fields", False):
            return

        def post_init(self: Any) -> None:
            _plain_whole_numbers(self)
            try:
                check(self)
            except RuleFieldError as exc:
                if getattr(exc, "labelled", False) or exc.field not in type(self).field_names():
                    raise
                message = labelled_field_message(exc.field, type(self).field_label(exc.field), str(exc))
                again = RuleFieldError(exc.field, message)
                again.labelled = True  # type: ignore[attr-defined]
                raise again from None

        post_init.names_fields = True  # type: ignore[attr-defined]
        post_init.__doc__ = check.__doc__
        cls.__post_init__ = post_init  # type: ignore[attr-defined]

    # -- reading -------------------------------------------------------------------------
    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Return the names of every field, in order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def field_label(cls, name: str) -> str:
        """Return the designer's name of the field ``name`` ("Hit faces"): its declared
        ``label``, else its name with spaces (a field of a designer's own system)."""
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name == name:
                return f.metadata.get("label") or name.replace("_", " ").capitalize()
        return name.replace("_", " ")

    @classmethod
    def field_bounds(cls, name: str) -> tuple[int, int]:
        """Return ``(lowest, highest)`` of the whole-number field ``name``, as declared
        (:func:`rule_field`'s ``bounds``): what validation accepts and what a control offers.

        Raises:
            RuleFieldError: ``name`` is not a field with bounds (the message lists those).
        """
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name == name and f.metadata.get("bounds") is not None:
                low, high = f.metadata["bounds"]
                return low, high
        fields = ", ".join(cls.bounded_fields())
        raise RuleFieldError(name, f"{name} is not a whole-number field with bounds: use one of {fields}")

    def check_bounded(self, name: str, what: str = "", ruling: str = "") -> int:
        """Return the whole-number field ``name`` if it lies within its declared bounds
        (:meth:`field_bounds`, the ones its controls offer); else raise.

        Raises:
            RuleFieldError: the value is not a whole number (``True`` is refused) or is
                outside the bounds; the one-line message names the field, ``what`` it is,
                the value, the bounds and ``ruling``.
        """
        error = functools.partial(RuleFieldError, name)
        value = getattr(self, name)
        return whole_number(value, name, *self.field_bounds(name), ruling=ruling, what=what, field=True, error=error)

    @classmethod
    def bounded_fields(cls) -> tuple[str, ...]:
        """Return the names of the fields declared with ``bounds``, in order."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("bounds") is not None)  # type: ignore[arg-type]

    def describe_changes(self, separator: str = "; ") -> list[str]:
        """Return each field that differs from the defaults as a designer reads it:
        ``"Hit faces: 10, J, Q, K, A"`` (:meth:`field_label`, :func:`value_words`)."""
        return [f"{self.field_label(name)}: {value_words(value)}" for name, (_, value) in self.changes().items()]

    @classmethod
    def field_info(cls) -> dict[str, dict[str, Any]]:
        """Return each field's default, ruling and help, by name (for controls and docs)."""
        default = cls()
        return {
            f.name: {
                "default": getattr(default, f.name),
                "ruling": f.metadata.get("ruling", ""),
                "help": f.metadata.get("help", ""),
                "label": cls.field_label(f.name),
                "bounds": f.metadata.get("bounds"),
            }
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        }

    @classmethod
    def from_mapping(
        cls: type[R],
        mapping: Mapping[str, Any] | None,
        where: str = "rules",
        lines: LineMap | None = None,
        path: tuple[Hashable, ...] = (),
    ) -> R:
        """Return the rules with the fields of ``mapping`` changed from the defaults.

        Raises:
            InvalidSetupError: every problem, one a line (``where:LINE: field: problem``): an
                unknown field (the message lists the fields), a wrong type or value.
        """
        errors = ParseErrors(where, lines)
        rules = cls._collect(mapping, errors, path)
        if errors:
            raise InvalidSetupError(errors.summary())
        return rules

    @classmethod
    def _collect(cls: type[R], mapping: Any, errors: ParseErrors, path: tuple[Hashable, ...]) -> R:
        if mapping is None:
            return cls()
        if not isinstance(mapping, Mapping):
            errors.add(f"the rules must be a mapping of fields to values, got {excerpt(mapping)}", *path)
            return cls()
        names = cls.field_names()
        for key in mapping:
            if key not in names:
                errors.add(
                    f"{excerpt(key)} is not a field of the {cls.SYSTEM} rules; the fields are {', '.join(names)}",
                    *path,
                    key,
                )
        known = {k: freeze(v) for k, v in mapping.items() if k in names}
        try:
            return cls(**known)
        except RuleFieldError as exc:
            errors.add(str(exc), *path, exc.field)
        except InvalidSetupError as exc:  # a combination of fields: at the first changed field
            errors.add(str(exc), *path, *(next(iter(known)),) if known else ())
        except TypeError as exc:  # a value the field cannot even hold (unhashable, say)
            errors.add(f"not valid rules: {exc}", *path)
        return cls()

    @classmethod
    def from_yaml(cls: type[R], path: str | Path) -> R:
        """Return the rules of a house-rules file (see :class:`RulesFile`).

        Raises:
            InvalidSetupError: the file cannot be read, names another system, or has an
                unknown field or a value the rules refuse (file, line and field named).
        """
        return RulesFile.read(path, cls).rules

    # -- writing -------------------------------------------------------------------------
    def changes(self) -> dict[str, tuple[Any, Any]]:
        """Return ``{field: (default, value)}`` for every field that differs from the defaults."""
        default = type(self)()
        return {
            name: (getattr(default, name), getattr(self, name))
            for name in self.field_names()
            if getattr(self, name) != getattr(default, name)
        }

    def to_mapping(self, changed_only: bool = True) -> dict[str, Any]:
        """Return the fields as plain YAML values (lists, mappings): only the changed ones
        unless ``changed_only=False``."""
        out = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if changed_only and f.name not in self.changes():
                continue
            out[f.name] = _plain(getattr(self, f.name), f.metadata.get("yaml") == "mapping")
        return out

    def to_yaml(self, title: str = "", notes: str = "") -> str:
        """Return a house-rules file for these rules: the system, the title and notes if
        given, and the changed fields. Written to a file and read back with
        ``from_yaml`` it gives equal rules."""
        data: dict[str, Any] = {"system": self.SYSTEM}
        if title:
            data["title"] = title
        if notes:
            data["notes"] = notes
        data.update(self.to_mapping())
        return dump_example(data)

    def file_title(self) -> str:
        """The house-rules file these rules were read from, as a result's first line names
        it: ``"tens_hit.yaml (Tens hit)"``; ``""`` for rules built otherwise — or changed
        since (``dataclasses.replace``: :func:`rebuilt` keeps the name of unchanged ones)."""
        return str(getattr(self, "_file_title", ""))

    def variant_name(self) -> str:
        """Return a short label naming every field that differs from the defaults, in a
        designer's words (``"Hit faces: 10, J, Q, K, A; Ties on hits: coin flip"``;
        ``"default rules"`` when none does)."""
        return "; ".join(self.describe_changes()) or "default rules"


@dataclass(frozen=True)
class RulesFile:
    """A house-rules file, read: its rules, title and notes, and where it came from."""

    rules: Any
    title: str
    notes: str
    path: Path | None = None

    @classmethod
    def read(cls, path: str | Path, rules_type: type[HouseRules] | None = None) -> RulesFile:
        """Read a house-rules file; ``rules_type`` (a system's ``Rules``) if the file
        must be of that system, else the system it names.

        Raises:
            InvalidSetupError: one line per problem, ``FILE:LINE: problem``: not a regular
                file (a folder, a device, a named pipe, an unknown ``~user``: refused before
                it is opened), not valid YAML, a text holding a control character, another
                system, an unknown field or a value the rules refuse.
        """
        path = designer_file(path, "house-rules file")
        try:
            document = load_yaml(path)
        except NotationError as exc:
            raise InvalidSetupError(str(exc)) from None
        errors = ParseErrors(str(path), document.lines)
        data = document.data
        if not isinstance(data, dict):
            raise InvalidSetupError(
                f"{path}: a house-rules file is a mapping: system, title, notes and the fields it changes"
            )
        named = data.get("system")
        if rules_type is None:
            if named is None:
                from toolkit import systems  # the registry imports every notation lazily

                *others, last = systems.names()
                raise InvalidSetupError(f"{path}: name the system (system: {', '.join(others)} or {last})")
            try:
                rules_type = rules_class(named)
            except InvalidSetupError as exc:
                raise InvalidSetupError(at_line(str(path), document.lines.line("system"), str(exc))) from None
        elif named is not None and named != rules_type.SYSTEM:
            errors.add(f"this file is for {excerpt(named)}, not {rules_type.SYSTEM}", "system")
        errors.check_controls(data)  # a title or a name reaches terminals and reports
        title = errors.text(data.get("title"), "title", "title", limit=200)
        notes = errors.text(data.get("notes"), "notes", "notes")
        fields = {k: v for k, v in data.items() if k not in FILE_KEYS}
        rules = rules_type._collect(fields, errors, ())
        if errors:
            raise InvalidSetupError(errors.summary())
        # what a result's first line names these rules by (no field: equal rules stay equal)
        object.__setattr__(rules, "_file_title", path.name if not title else f"{path.name} ({title})")
        return cls(rules, title or path.stem.replace("_", " "), notes, path)


def rebuilt(rules: Any, base: Any) -> Any:
    """``rules`` rebuilt from ``base`` field by field (an explorer's controls): ``base``
    itself when nothing changed, so that it keeps the name of the file it was read from
    (:meth:`HouseRules.file_title`)."""
    return base if base is not None and rules == base else rules


def rules_class(system: str) -> type[HouseRules]:
    """Return the ``Rules`` class of the system called ``system`` (a name of
    :func:`toolkit.systems.names`): the class whose ``SYSTEM`` is that name.

    >>> from toolkit import systems
    >>> all(rules_class(name).SYSTEM == name for name in systems.names())
    True

    Raises:
        InvalidSetupError: no such system; the message names the systems.
    """
    from toolkit import systems  # the registry imports every notation lazily

    try:
        entry = systems.system(system)
    except NotationError as exc:
        raise InvalidSetupError(str(exc)) from None
    return entry.rules_class()


def rules_files(system: str, directory: str | Path | None = None) -> list[Path]:
    """Return the shipped house-rules files of ``system``: ``data/rules/<system>/*.yaml``
    (or those in ``directory``), sorted by name."""
    folder = Path(directory) if directory is not None else RULES_DIR / system
    return sorted(p for p in folder.glob("*.yaml") if p.is_file()) if folder.is_dir() else []


def find_rules_file(system: str, name: str, base: str | Path | None = None) -> Path | None:
    """Return the house-rules file ``name`` means for ``system``: a path (relative ones
    looked up under ``base`` first, then the working folder), a file of
    ``data/rules/<system>/`` by its name with or without ``.yaml``, or a path from the
    repository root (``data/rules/...``, found in an installed toolkit's package data too);
    None if there is none. ``~`` and ``~user`` are expanded.

    Raises:
        InvalidSetupError: the home folder of ``~user`` cannot be found, or ``name`` names
            no regular file but something else (a folder, a device, a named pipe).
    """
    base = Path(base) if base is not None else None
    candidates = [expand_home(name, "house-rules file")]
    if base is not None:
        candidates.insert(0, base / name)
    candidates += [RULES_DIR / system / name, RULES_DIR / system / f"{name}.yaml", DATA_DIR.resolve().parent / name]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        there = next((c for c in candidates if _exists(c)), None)
        if there is not None:
            designer_file(there, "house-rules file")  # raises: what is there is not a file
    return found


def _exists(path: Path) -> bool:
    """Whether anything is at ``path``, a link that cannot be followed too (a loop of
    links, which :func:`~toolkit.files.designer_file` then names), False for a path that
    cannot be looked at."""
    return os.path.lexists(path)


def load_rules(system: str, source: Any = None, base: str | Path | None = None) -> Any:
    """Return the rules of ``system`` from ``source``: ``None`` (the defaults), a ``Rules``
    of that system, a mapping of fields, or a house-rules file — a path, or the name of a
    shipped file (``"tens_hit"`` for ``data/rules/<system>/tens_hit.yaml``); a relative
    path is looked up under ``base`` first.

    Raises:
        InvalidSetupError: a source of the wrong kind, a file that cannot be found (the
            message lists the shipped ones), or rules that are not valid.
    """
    cls = rules_class(system)
    if source is None:
        return cls()
    if isinstance(source, cls):
        return source
    if isinstance(source, HouseRules):
        raise InvalidSetupError(f"those are {source.SYSTEM} rules, not {system} rules")
    if isinstance(source, Mapping):
        return cls.from_mapping(source)
    if isinstance(source, (str, Path)) and str(source).strip():
        found = find_rules_file(system, str(source), base)
        if found is None:
            shipped = ", ".join(p.stem for p in rules_files(system)) or "none"
            raise InvalidSetupError(
                f"no house-rules file {path_excerpt(source)}: give a path to a YAML file or the name of "
                f"a shipped one (for {system}: {shipped})"
            )
        return RulesFile.read(found, cls).rules
    raise InvalidSetupError(
        f"rules must be a house-rules file (a path or a shipped name) or a mapping of fields, got {excerpt(source)}"
    )


def fields_markdown(system: str) -> str:
    """Return a Markdown table of every field of ``system``'s rules: its name, ruling,
    default (as YAML writes it) and help, with the values accepted of a field with bounds
    — the table ``docs/house_rules.md`` shows (a test keeps the page equal to it)."""
    import yaml

    cls = rules_class(system)
    rows = ["| field | ruling | default | what it sets |", "|---|---|---|---|"]
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        default = _plain(getattr(cls(), f.name), f.metadata.get("yaml") == "mapping")
        shown = yaml.safe_dump(default, default_flow_style=True, sort_keys=False, width=10**6)
        shown = shown.strip().removesuffix("...").strip()
        bounds = f.metadata.get("bounds")
        accepted = f" (a whole number from {bounds[0]} to {bounds[1]})" if bounds else ""
        what = f.metadata.get("help", "") + accepted
        rows.append(f"| `{f.name}` | {f.metadata.get('ruling', '')} | `{shown}` | {what} |")
    return "\n".join(rows)


def example_folder(where: str) -> Path | None:
    """Return the folder of the example file read from ``where`` (None when it is not a
    file: a text given directly): where a ``rules:`` file name is looked up first."""
    path = Path(where)
    return path.parent if where and path.is_file() else None


def read_rules_entry(system: str, raw: Any, errors: ParseErrors, base: Path | None = None) -> Any:
    """Return the rules an example file's ``rules:`` entry gives: a mapping of fields or the
    path of a house-rules file (relative to the example's folder, or a shipped name). Each
    problem is recorded in ``errors`` at its line, and the default rules are returned then.
    The one reader of ``rules:`` for every system's notation."""
    cls = rules_class(system)
    if raw is None:
        return cls()
    if isinstance(raw, str):
        try:
            return load_rules(system, raw, base)
        except InvalidSetupError as exc:
            errors.add(f"rules: {exc}", "rules")
            return cls()
    return cls._collect(raw, errors, ("rules",))


def read_house_rules(system: str, value: Any, base: Path | str | None = None) -> Any:
    """Return the house rules a designer gives (a report's parameter, a rules picker's start), as a
    :class:`~toolkit.house_rules.RulesFile` (its ``rules``, ``title``, ``notes`` and
    ``path``): ``None`` the default rules (title ``"default rules"``), a mapping of fields
    (title ``"inline house rules"``), or a house-rules file — a path (relative ones are
    looked up under ``base`` first) or the name of a shipped one (``"tens_hit"``).

    Raises:
        InvalidSetupError: a value of another kind, a file not found (the shipped ones
            are listed), or rules that are not valid (file, line and field named).
    """
    if isinstance(value, RulesFile):
        return value  # a file picked keeps its title ("Tens hit")
    if value is None or isinstance(value, HouseRules):
        rules = load_rules(system, value)
        if not rules.changes():
            return RulesFile(rules, "default rules", "", None)
        shipped = (RulesFile.read(path, rules_class(system)) for path in rules_files(system))
        # rules a shipped file makes are named by its title, never as anonymous "house rules"
        return next((f for f in shipped if f.rules == rules), RulesFile(rules, "house rules", "", None))
    if isinstance(value, Mapping):
        return RulesFile(rules_class(system).from_mapping(value, where="inline rules"), "inline house rules", "", None)
    if isinstance(value, (str, Path)) and str(value).strip():
        found = find_rules_file(system, str(value), base)
        if found is not None:
            return RulesFile.read(found, rules_class(system))
    load_rules(system, value)  # raises the one message of a source not found or of the wrong kind
    raise InvalidSetupError(f"no house rules {excerpt(value)}")  # pragma: no cover - load_rules raised
