"""The registry of systems: which rule systems the toolkit knows, and where each one's
notation, rules, rule-book catalogue, headline tables, sweep calculators and widgets are.

A rule system is a plug-in. It registers one :class:`System`: its ``system:`` name, its
title, its package, and a *hook* for everything it supplies, each a lazy
``"module:attr"`` string (``"module"`` alone names the module itself). Nothing is
imported until a tool asks for that part (:meth:`System.hook`), so listing the systems
imports none of them. Every tool iterates this registry — ``toolkit replay``, the
rule-book finder and catalogue, the rule-change report, the sweep calculators, the
command line, the notebooks — and no generic package names a system.

The hooks (every one optional but ``notation`` and ``rules``):

- ``notation``: its :class:`~toolkit.notation.ExampleNotation` (reads, replays and
  writes example files).
- ``rules``: its ``Rules`` class (:mod:`toolkit.house_rules`).
- ``situations``: its rule-book catalogue, a sequence of
  :class:`~toolkit.rulebook.situations.Situation`.
- ``searcher``: its rule-book searcher, an object (usually a module) with ``HINTS``,
  ``candidates(rules, hints, rng)``, ``simplicity(state)`` and optionally
  ``complete(text, state)`` (:mod:`toolkit.rulebook.finder`).
- ``tables``: ``tables(rules, sizes) -> [Table, ...]``, its headline tables for the
  rule-change report (:mod:`toolkit.reports.rule_change_systems`).
- ``sizes``: the mapping of those tables' sizes to their defaults.
- ``reach``: which of those tables see each rules field, and what measures a field none
  of them sees (a :class:`~toolkit.plugin.headline.Reach`; without it every table sees
  every field).
- ``calculators``: ``calculators() -> [Calculator, ...]``, what a sweep can run
  (:mod:`toolkit.sweeps.calculators`).
- ``stepper``, ``explorer``: functions returning its step-by-step player and its odds
  explorer (ipywidgets).
- ``rule_controls``: ``rule_controls(rules) -> {field: widget}``, the controls of its
  whole-number rules fields, bounded as its ``Rules`` validates them.
- ``rulings``: where its rulings are implemented (a module or a table).

A system outside the toolkit registers itself with :func:`register` when its module is
imported; to reach a process the toolkit starts (a report's kernel, a sweep's worker),
name its module in the environment variable ``TOOLKIT_SYSTEMS`` (module names, separated
by commas), which the registry imports on first use.

>>> names()[:3]
('fairy-meat', 'durak-battle', 'angry-miniatures')
>>> system("durak-battle").package
'toolkit.durak_battle'
>>> system("durak-battle").has("tables")
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolkit.errors import InvalidSetupError, NotationError
from toolkit.notation import ExampleNotation

__all__ = [
    "HOOKS",
    "PLUGINS_VARIABLE",
    "System",
    "default_system",
    "load_hook",
    "names",
    "notation",
    "register",
    "system",
    "unregister",
    "systems",
]

#: What a system can supply, by hook name (see the module's docstring).
HOOKS: tuple[str, ...] = (
    "notation",
    "rules",
    "situations",
    "searcher",
    "tables",
    "sizes",
    "reach",
    "calculators",
    "stepper",
    "explorer",
    "rule_controls",
    "rulings",
    "narration",
)

#: The environment variable naming modules that register systems from outside the toolkit.
PLUGINS_VARIABLE = "TOOLKIT_SYSTEMS"


def load_hook(target: str) -> Any:
    """Return what a ``"module:attr"`` hook names (the module itself for ``"module"``),
    importing the module."""
    module, _, attr = target.partition(":")
    found: Any = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        found = getattr(found, part)
    return found


@dataclass(frozen=True)
class System:
    """A rule system of the toolkit: its names and its hooks.

    Attributes:
        name: its ``system:`` in example files (``"fairy-meat"``).
        title: what a designer calls it (``"Fairy Meat alternate combat"``).
        package: its package (``"toolkit.fairy_meat"``); a game state whose class is
            defined in it belongs to this system.
        notation, rules, situations, searcher, tables, sizes, reach, calculators, stepper,
            explorer, rule_controls, rulings, narration: the hooks, each ``"module:attr"`` or ``"module"``
            (``""``: the system supplies none). ``notation`` defaults to
            ``"<package>.notation:NOTATION"`` and ``rules`` to ``"<package>.rules:Rules"``.
        showcase_rules: the shipped house-rules file (its name without ``.yaml``) the
            rule-change report proposes when none is given: one that changes the headline
            odds measurably at the default sizes.
    """

    name: str
    title: str
    package: str
    notation: str = ""
    rules: str = ""
    situations: str = ""
    searcher: str = ""
    tables: str = ""
    sizes: str = ""
    reach: str = ""
    calculators: str = ""
    stepper: str = ""
    explorer: str = ""
    rule_controls: str = ""
    rulings: str = ""
    narration: str = ""
    showcase_rules: str = ""

    def __post_init__(self) -> None:
        if not self.notation:
            object.__setattr__(self, "notation", f"{self.package}.notation:NOTATION")
        if not self.rules:
            object.__setattr__(self, "rules", f"{self.package}.rules:Rules")

    def has(self, hook: str) -> bool:
        """Return whether the system supplies ``hook`` (one of :data:`HOOKS`)."""
        return bool(getattr(self, _checked(hook)))

    def hook(self, hook: str) -> Any:
        """Return what the system supplies for ``hook``, importing its module.

        Raises:
            InvalidSetupError: the system supplies nothing for it (the message names the
                system and the hook).
        """
        target = getattr(self, _checked(hook))
        if not target:
            raise InvalidSetupError(f"{self.name} has no {hook} (its System registers none)")
        return load_hook(target)

    def example_notation(self) -> ExampleNotation:
        """Return the system's example notation (importing its module)."""
        found = self.hook("notation")
        assert isinstance(found, ExampleNotation) and found.system == self.name
        return found

    def rules_class(self) -> type:
        """Return the system's ``Rules`` class (importing its module)."""
        return self.hook("rules")  # type: ignore[no-any-return]

    def default_sizes(self) -> dict[str, Any]:
        """Return the sizes of the system's headline tables with their defaults."""
        return dict(self.hook("sizes"))

    def check_sizes(self, sizes: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return the headline tables' sizes: the defaults changed by ``sizes`` (a value of
        ``None`` keeps the default). The values are checked by the tables themselves.

        Raises:
            InvalidSetupError: ``sizes`` is not a mapping or names a size the system's tables
                do not read (the message lists those they read).
        """
        chosen = self.default_sizes()
        if sizes is None:
            return chosen
        if not isinstance(sizes, Mapping):
            raise InvalidSetupError(
                f"sizes must be a mapping of {self.name}'s sizes ({', '.join(chosen)}), got {type(sizes).__name__}"
            )
        unknown = [str(k) for k in sizes if k not in chosen]
        if unknown:
            raise InvalidSetupError(
                f"unknown size {', '.join(map(repr, unknown))} for {self.name}: its sizes are {', '.join(chosen)}"
            )
        chosen.update({k: v for k, v in sizes.items() if v is not None})
        return chosen


def _checked(hook: str) -> str:
    if hook not in HOOKS:
        raise InvalidSetupError(f"unknown hook {hook!r}: a system's hooks are {', '.join(HOOKS)}")
    return hook


_REGISTRY: dict[str, System] = {}
_PLUGINS_LOADED: list[str] = []


def register(entry: System) -> System:
    """Add a system to the registry (replacing one of the same name) and return it."""
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> System | None:
    """Remove the system called ``name`` from the registry and return it (``None``: none)."""
    return _REGISTRY.pop(name, None)


def _load_plugins() -> None:
    """Import the modules :data:`PLUGINS_VARIABLE` names (once each): they register their systems."""
    for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(","))):
        if module not in _PLUGINS_LOADED:
            _PLUGINS_LOADED.append(module)
            importlib.import_module(module)


def systems() -> tuple[System, ...]:
    """Return every registered system, in the order registered."""
    _load_plugins()
    return tuple(_REGISTRY.values())


def names(hook: str | None = None) -> tuple[str, ...]:
    """Return the ``system:`` names of every registered system (only those that supply
    ``hook`` if given)."""
    return tuple(s.name for s in systems() if hook is None or s.has(hook))


def default_system() -> str:
    """Return the system of an example file that names none: the first registered (its
    notation was the toolkit's first, from before files named their system)."""
    return names()[0]


def system(name: str) -> System:
    """Return the registered system called ``name``.

    Raises:
        NotationError: no such system; the message names the known ones.
    """
    _load_plugins()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise NotationError(f"unknown system {name!r}; the systems are: {', '.join(_REGISTRY)}") from None


def notation(name: str) -> ExampleNotation:
    """Return the example notation of the system called ``name`` (see :func:`system`)."""
    return system(name).example_notation()


# The systems shipped with the toolkit: the one place in the toolkit's generic modules
# that names them.
register(
    System(
        "fairy-meat",
        "Fairy Meat alternate combat",
        "toolkit.fairy_meat",
        situations="toolkit.fairy_meat.situations:CATALOGUE",
        searcher="toolkit.fairy_meat.finder",
        tables="toolkit.fairy_meat.headline:tables",
        sizes="toolkit.fairy_meat.headline:SIZES",
        reach="toolkit.fairy_meat.headline:REACH",
        calculators="toolkit.fairy_meat.sweep_calculators:calculators",
        stepper="toolkit.fairy_meat.widgets.stepper:combat_stepper",
        explorer="toolkit.fairy_meat.widgets.explorers:odds_explorer",
        rule_controls="toolkit.fairy_meat.widgets.cards:numeric_controls",
        rulings="toolkit.fairy_meat.rulings:ruling_book",
        narration="toolkit.fairy_meat.narration",
        showcase_rules="unhalved_damage",
    )
)
register(
    System(
        "durak-battle",
        "Durak mass battle",
        "toolkit.durak_battle",
        situations="toolkit.durak_battle.situations:CATALOGUE",
        searcher="toolkit.durak_battle.finder",
        tables="toolkit.durak_battle.headline:tables",
        sizes="toolkit.durak_battle.headline:SIZES",
        reach="toolkit.durak_battle.headline:REACH",
        calculators="toolkit.durak_battle.sweep_calculators:calculators",
        stepper="toolkit.durak_battle.widgets.stepper:battle_stepper",
        explorer="toolkit.durak_battle.widgets.explorers:odds_explorer",
        rule_controls="toolkit.durak_battle.widgets.pieces:number_controls",
        rulings="toolkit.durak_battle.rulings:ruling_book",
        narration="toolkit.durak_battle.narration",
        showcase_rules="cheap_strikes",
    )
)
register(
    System(
        "angry-miniatures",
        "Angry Miniatures",
        "toolkit.angry_miniatures",
        situations="toolkit.angry_miniatures.situations:CATALOGUE",
        searcher="toolkit.angry_miniatures.finder",
        tables="toolkit.angry_miniatures.headline:tables",
        sizes="toolkit.angry_miniatures.headline:SIZES",
        reach="toolkit.angry_miniatures.headline:REACH",
        calculators="toolkit.angry_miniatures.sweep_calculators:calculators",
        stepper="toolkit.angry_miniatures.widgets:attack_stepper",
        explorer="toolkit.angry_miniatures.widgets:odds_explorer",
        rule_controls="toolkit.angry_miniatures.widgets:rule_controls",
        rulings="toolkit.angry_miniatures.rulings:ruling_book",
        showcase_rules="tens_hit",
        narration="toolkit.angry_miniatures.narration",
    )
)
