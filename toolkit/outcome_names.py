"""Names in outcomes: the sides a designer named, and questions asked by field name.

Every calculator's outcome is a small record (a named tuple, or a frozen dataclass) whose
fields are the names the tuning and sweep files use (``winner``, ``lost_a``,
``nasty_hit``). A side of a question is a :class:`Side`: the name the designer gave
(``"Horde"``) that also equals its role (``"a"``), so both ``o.winner == "Horde"`` and
``o.winner == "a"`` hold for the Horde's wins; comparing it with a name that is neither
raises :class:`~toolkit.errors.UnknownNameError` listing the sides there are.

:func:`where_event` turns the keyword form of an event (``probability(winner="Horde")``)
into a predicate after checking every name against the outcomes' fields and every value
against the values the field can take (:data:`FIELD_VALUES` of the record, its sides,
the values seen), so a misspelling is an error, never a silent 0%.

>>> horde, elves = sides(("a", "Horde"), ("b", "Elves"))
>>> horde == "Horde", horde == "a", horde == "Elves", str(horde)
(True, True, False, 'Horde')
>>> horde == "Hordes"
Traceback (most recent call last):
...
toolkit.errors.UnknownNameError: no side 'Hordes': the sides are 'Horde' (side a) and 'Elves' (side b)
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from toolkit.errors import UnknownNameError

__all__ = ["Side", "sides", "side_role", "field_names", "field_values", "where_event", "known_values"]


class Side(str):
    """One side of a question: the designer's name for it (the string itself: what prints,
    what files and tables show) that also equals its role (``"a"``, ``"attacker"``).

    Attributes:
        role: the side's role in the calculator (``"a"``/``"b"``, ``"attacker"``/``"defender"``).
        sides: every ``(role, name)`` of the question, this one included: what a comparison
            checks a name against.
        words: the other words the field holds (``"draw"``, ``"both"``): equal to no side,
            never an error.

    A string equals a side when it is the side's name, or (named by no side) its role; a
    string that names no side and no role raises :class:`~toolkit.errors.UnknownNameError`.
    A name two sides share equals both (a mirror match: say the role to tell them apart).
    Two sides are equal when both role and name are. A side hashes as its name, so a set
    or table of names finds it (``{o.winner for o in r} == {"Horde"}``); a
    :class:`~toolkit.prob.Distribution` finds it by its role too.
    """

    role: str
    sides: tuple[tuple[str, str], ...]
    words: tuple[str, ...]

    def __new__(
        cls, role: str, name: str | None = None, sides: Iterable[tuple[str, str]] = (), words: Iterable[str] = ()
    ) -> Side:
        name = role if name is None else str(name)
        self = super().__new__(cls, name)
        self.role = role
        self.sides = tuple(sides) or ((role, name),)
        self.words = tuple(words)
        return self

    @property
    def name(self) -> str:
        """The designer's name for the side (the string itself, as a plain ``str``)."""
        return str.__str__(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Side):
            return self.role == other.role and str.__eq__(self, other)
        if not isinstance(other, str):
            return NotImplemented
        if other in self.words and all(other != name for _, name in self.sides):
            return False
        if str.__eq__(self, other):
            return True  # its name (shared or not: two sides of one name are each called it)
        return self.role == side_role(other, self.sides, self.words)

    def __ne__(self, other: object) -> bool:
        same = self.__eq__(other)
        return same if same is NotImplemented else not same

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __repr__(self) -> str:
        return repr(self.name)

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> Any:
        return (Side, (self.role, self.name, self.sides, self.words))


def field_values(**values: tuple[Any, ...]) -> Mapping[str, tuple[Any, ...]]:
    """A record's ``FIELD_VALUES``: the values each named field holds besides numbers
    (the class :class:`Side` among them: the field holds the question's sides), read-only.

    >>> dict(field_values(winner=(Side, "draw")))
    {'winner': (<class 'toolkit.outcome_names.Side'>, 'draw')}
    """
    return MappingProxyType(values)


def sides(*pairs: tuple[str, str], words: Iterable[str] = ()) -> tuple[Side, ...]:
    """The :class:`Side` of each ``(role, name)``, each knowing all of them (and the other
    ``words`` its field holds, such as ``"draw"``)."""
    words = tuple(words)
    return tuple(Side(role, name, pairs, words) for role, name in pairs)


def _each(pairs: Iterable[tuple[str, str]]) -> list[str]:
    return [f"{name!r} (side {role})" if name != role else repr(role) for role, name in pairs]


def _listed(pairs: Iterable[tuple[str, str]]) -> str:
    shown = _each(pairs)
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def side_role(text: str, pairs: Iterable[tuple[str, str]], words: Iterable[str] = ()) -> str:
    """The role ``text`` names among ``pairs`` (``(role, name)``): a side's name first (the
    first side of that name), else a role. Raises :class:`~toolkit.errors.UnknownNameError`
    for a name of no side, listing the sides."""
    pairs = tuple(pairs)
    named = [role for role, name in pairs if name == text]
    if named:
        return named[0]
    if any(role == text for role, _ in pairs):
        return text
    also = "".join(f" (or {w!r})" for w in words)
    raise UnknownNameError(f"no side {text!r}: the sides are {_listed(pairs)}{also}")


def field_names(outcome: Any) -> list[str]:
    """The named fields of an outcome (a dataclass, a named tuple or a mapping); none for
    a plain value."""
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        return [f.name for f in dataclasses.fields(outcome)]
    if hasattr(outcome, "_fields"):
        return list(outcome._fields)
    if isinstance(outcome, Mapping):
        return [str(k) for k in outcome]
    return []


def _properties(outcome: Any) -> list[str]:
    """The public properties of an outcome's type (``hit`` of an attack): askable like fields."""
    return [n for n in dir(type(outcome)) if not n.startswith("_") and isinstance(getattr(type(outcome), n), property)]


def _value(outcome: Any, name: str) -> Any:
    return outcome[name] if isinstance(outcome, Mapping) else getattr(outcome, name)


def _declared(outcomes: list[Any], name: str) -> tuple[Any, ...]:
    """The values the outcomes' record declares for field ``name`` (its ``FIELD_VALUES``;
    the class :class:`Side` among them: the field holds the question's sides)."""
    return getattr(type(outcomes[0]), "FIELD_VALUES", {}).get(name, ()) if outcomes else ()


def known_values(outcomes: Iterable[Any], name: str) -> list[Any]:
    """The values field ``name`` can take: those the record declares (its ``FIELD_VALUES``)
    and those seen, the sides of any :class:`Side` among them as names and roles."""
    outcomes = list(outcomes)
    declared = [v for v in _declared(outcomes, name) if v is not Side]
    seen = [_value(o, name) for o in outcomes]
    values: list[Any] = []
    for v in [*declared, *seen]:
        if isinstance(v, Side):
            for role, side_name in v.sides:
                values.extend(x for x in (side_name, role) if not any(x is y or x == y for y in values))
        elif not any(type(v) is type(y) and v == y for y in values):
            values.append(v)
    return values


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float | Fraction) and not isinstance(v, bool)


def _sides_in(outcomes: list[Any]) -> tuple[tuple[str, str], ...]:
    """The ``(role, name)`` of the sides of the question, from any :class:`Side` the outcomes hold."""
    for o in outcomes:
        for name in field_names(o):
            v = _value(o, name)
            if isinstance(v, Side):
                return v.sides
    return ()


def _check_value(outcomes: list[Any], name: str, value: Any) -> None:
    """Raise :class:`~toolkit.errors.UnknownNameError` when ``value`` is no value field
    ``name`` can take: a name that is no side, a word the field never holds, a word where
    the field is a number or a flag, a number where it is a word."""
    known = known_values(outcomes, name)
    if value is None or any(value is v or (type(value) is type(v) and value == v) for v in known):
        return
    kinds = {"flag" if isinstance(v, bool) else "number" if _is_number(v) else "word" for v in known if v is not None}
    kind = "flag" if isinstance(value, bool) else "number" if _is_number(value) else "word"
    if kind == "number" and kinds == {"number"}:
        return  # a number no outcome reaches has probability 0, truly
    pairs = _sides_in(outcomes)
    holds_sides = bool(pairs) and (
        Side in _declared(outcomes, name) or any(isinstance(_value(o, name), Side) for o in outcomes)
    )
    if holds_sides and kind == "word":
        try:
            side_role(value, pairs)
            return
        except UnknownNameError:
            pass
    words = [v for v in known if not (holds_sides and any(v in pair for pair in pairs))]
    with contextlib.suppress(TypeError):  # words and numbers together: as declared, then seen
        words.sort(key=lambda v: (v is None, v))
    words = [repr(v) for v in words]
    shown = (_each(pairs) if holds_sides else []) + words
    listed = ", ".join(shown[:12]) + (", …" if len(shown) > 12 else "")
    raise UnknownNameError(f"{name} is never {value!r}: its values are {listed}")


def where_event(outcomes: Iterable[Any], where: Mapping[str, Any]) -> Callable[[Any], bool]:
    """The predicate of the keyword form of an event: every field ``name`` equals its
    value (or, for a function, the function of the field holds), after checking each name
    against the outcomes' fields (and public properties) and each value against
    :func:`known_values`. Raises :class:`~toolkit.errors.UnknownNameError` naming what is there.

    >>> from typing import NamedTuple
    >>> class Hit(NamedTuple):
    ...     damage: int
    ...     crit: bool
    >>> event = where_event([Hit(0, False), Hit(2, True)], {"damage": 2})
    >>> event(Hit(2, True)), event(Hit(0, False))
    (True, False)
    >>> where_event([Hit(0, False)], {"dmg": 2})
    Traceback (most recent call last):
    ...
    toolkit.errors.UnknownNameError: no field 'dmg': the outcomes' fields are damage, crit
    """
    outcomes = list(outcomes)
    if not where:
        raise UnknownNameError("an event needs a predicate or at least one field=value")
    first = outcomes[0] if outcomes else None
    names = field_names(first)
    if not names:
        shown = ", ".join(map(repr, outcomes[:3])) + (", …" if len(outcomes) > 3 else "")
        raise UnknownNameError(
            f"these outcomes are plain values ({shown}), with no fields to name ({', '.join(where)}): "
            "ask with a predicate, say lambda o: o >= 3"
        )
    askable = names + [p for p in _properties(first) if p not in names]
    tests: list[tuple[str, Callable[[Any], bool]]] = []
    for name, value in where.items():
        if name not in askable:
            extra = f" (and {', '.join(askable[len(names) :])})" if len(askable) > len(names) else ""
            raise UnknownNameError(f"no field {name!r}: the outcomes' fields are {', '.join(names)}{extra}")
        if callable(value):
            tests.append((name, value))
            continue
        _check_value(outcomes, name, value)
        tests.append((name, lambda v, want=value: v == want and (isinstance(v, bool) == isinstance(want, bool))))
    return lambda o: all(test(_value(o, name)) for name, test in tests)
