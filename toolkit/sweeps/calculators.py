"""The calculators a sweep can run: each public calculator of each system, its arguments
(with their types and bounds, checked before a sweep runs) and how its result becomes
rows of the sweep table.

A :class:`Calculator` wraps one public function of a system's package (the rulings it
implements are those of the function: AM-1..AM-10, FM-1..FM-14, DB-1..DB-9); it never
computes odds itself. Its :meth:`~Calculator.rows` turn the result into
:class:`Row`\\ s: one per outcome of a distribution (exact ``Fraction``), or one per
reported quantity (a game value, an exploitability).

Each system lists its own (its ``calculators`` hook, :mod:`toolkit.systems`, with a worked
example in that module's docstring); here they are found by system and name:

>>> from toolkit import systems
>>> system = systems.names("calculators")[-1]
>>> calc = calculators_of(system)[0]
>>> calculator(system, calc.name).name == calc.name and CALCULATORS[(system, calc.name)].name == calc.name
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from toolkit.errors import InvalidSetupError
from toolkit.notation import excerpt
from toolkit.plugin.calculator import (
    ROW_COLUMNS,
    Calculator,
    Param,
    Row,
    distribution_rows,
    interval_of,
    intervals,
    outcome_label,
    result_columns,
    result_rows,
    rows_columns,
    value_rows,
)

__all__ = [
    "Param",
    "Row",
    "Calculator",
    "CALCULATORS",
    "calculator",
    "calculators_of",
    "distribution_rows",
    "interval_of",
    "intervals",
    "outcome_label",
    "result_columns",
    "result_rows",
    "rows_columns",
    "value_rows",
    "ROW_COLUMNS",
]


# -- the registry -------------------------------------------------------------------------
# Each system supplies its calculators through its ``calculators`` hook
# (:mod:`toolkit.systems`), built when first asked for: a worker imports only its system.
_BUILT: dict[str, dict[str, Calculator]] = {}


def _systems() -> tuple[str, ...]:
    from toolkit import systems

    return systems.names("calculators")


def _of(system: str) -> dict[str, Calculator]:
    if system not in _BUILT:
        from toolkit import systems

        built = systems.system(system).call("calculators")
        strays = [c for c in built if not isinstance(c, Calculator)] if isinstance(built, (list, tuple)) else [built]
        if strays:
            raise InvalidSetupError(
                f"system {system}: its calculators hook returned {excerpt(strays[0], 60)}, not a list of Calculators"
            )
        _BUILT[system] = {c.name: c for c in built}
    return _BUILT[system]


class _Registry(Mapping[tuple[str, str], Calculator]):
    """Every calculator by ``(system, name)``, each system's built on first use."""

    def __getitem__(self, key: tuple[str, str]) -> Calculator:
        system, name = key
        if system not in _systems():
            raise KeyError(key)
        return _of(system)[name]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter([(system, name) for system in _systems() for name in _of(system)])

    def __len__(self) -> int:
        return sum(len(_of(system)) for system in _systems())


#: Every calculator a sweep can run, by ``(system, name)``.
CALCULATORS: Mapping[tuple[str, str], Calculator] = _Registry()


def calculators_of(system: str) -> list[Calculator]:
    """Return the calculators of ``system`` (a name of :func:`toolkit.systems.names`), in
    the registry's order."""
    return list(_of(system).values()) if system in _systems() else []


def calculator(system: str, name: str) -> Calculator:
    """Return the calculator ``name`` of ``system`` (importing only that system).

    Raises:
        InvalidSetupError: an unknown system or calculator (the message lists the accepted ones).
    """
    if not isinstance(system, str) or system not in _systems():
        raise InvalidSetupError(
            f"system {excerpt(system)} is not known; the systems are {', '.join(sorted(_systems()))}"
        )
    try:
        return _of(system)[name]
    except (KeyError, TypeError):
        names = ", ".join(_of(system))
        raise InvalidSetupError(
            f"{excerpt(name)} is not a calculator of {system}; its calculators are {names}"
        ) from None
