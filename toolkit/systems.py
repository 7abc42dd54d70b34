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

A plug-in is checked as it comes in: its name is a slug and no other system's (a clash is
an error naming both packages, never a replacement); a module of ``TOOLKIT_SYSTEMS`` that
fails to import is left out with one line (:func:`plugin_problems`, and a
:class:`PluginWarning`) while every other system keeps working; and a hook that cannot be
imported, raises or is not what it should be is an :class:`~toolkit.errors.InvalidSetupError`
naming the system and the hook.

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
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolkit.errors import InvalidSetupError, NotationError, ToolkitError, excerpt
from toolkit.notation import ExampleNotation, control_character

__all__ = [
    "HOOKS",
    "PLUGINS_VARIABLE",
    "PluginWarning",
    "System",
    "default_system",
    "load_hook",
    "names",
    "notation",
    "plugin_problems",
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

#: A system's name: lower-case letters and digits in words joined by hyphens (``fairy-meat``).
_SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: A package: a dotted Python module name.
_PACKAGE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


class PluginWarning(UserWarning):
    """A module of :data:`PLUGINS_VARIABLE` failed to import: its systems are missing."""


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
        if not isinstance(self.name, str) or not _SLUG.fullmatch(self.name):
            raise InvalidSetupError(
                "a system's name is lower-case letters and digits in words joined by hyphens "
                f"(fairy-meat), got {excerpt(self.name)}"
            )
        for field in ("title", "package", *HOOKS, "showcase_rules"):
            if not isinstance(getattr(self, field), str):
                raise InvalidSetupError(
                    f"system {self.name}: its {field} must be a string, got {excerpt(getattr(self, field))}"
                )
        if not self.title.strip() or control_character(self.title, lines=False) is not None:
            raise InvalidSetupError(
                f"system {self.name}: its title must be one line of text, got {excerpt(self.title)}"
            )
        if not _PACKAGE.fullmatch(self.package):
            raise InvalidSetupError(
                f"system {self.name}: its package must be a module name (toolkit.fairy_meat), "
                f"got {excerpt(self.package)}"
            )
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
            InvalidSetupError: the system supplies nothing for it, its module cannot be
                imported, or it is not what the hook supplies (a notation of another system,
                a rules hook that is no class): the message names the system and the hook.
        """
        target = getattr(self, _checked(hook))
        if not target:
            raise InvalidSetupError(f"{self.name} has no {hook} (its System registers none)")
        where = f"system {self.name}: its {hook} hook {excerpt(target)}"
        try:
            found = load_hook(target)
        except (Exception, SystemExit) as exc:  # a plug-in's module: missing, raising or exiting as it is imported
            raise InvalidSetupError(f"{where} cannot be loaded: {_reason(exc)}") from exc
        if hook == "notation" and isinstance(found, ExampleNotation) and found.system != self.name:
            raise InvalidSetupError(f"{where} is the notation of {excerpt(found.system)}, not of {self.name}")
        kind, fits = _KINDS.get(hook, ("", None))
        if fits is not None and not fits(found):
            raise InvalidSetupError(f"{where} is {excerpt(found, 60)}, not {kind}")
        return found

    def call(self, hook: str, *args: Any) -> Any:
        """Return what the function the system supplies for ``hook`` returns for ``args``.

        Raises:
            InvalidSetupError: as :meth:`hook`, or the function raised an error that is not
                the toolkit's own (the message names the system, the hook and the error);
                the toolkit's errors (bad input) pass unchanged.
        """
        function = self.hook(hook)
        try:
            return function(*args)
        except ToolkitError:
            raise
        except Exception as exc:  # a plug-in's bug: named, not a traceback
            raise InvalidSetupError(f"system {self.name}: its {hook} hook raised {_reason(exc)}") from exc

    def example_notation(self) -> ExampleNotation:
        """Return the system's example notation (importing its module)."""
        return self.hook("notation")  # type: ignore[no-any-return]

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


#: What each hook must supply, as words and a check (the others are any object).
_KINDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "notation": ("an ExampleNotation", lambda found: isinstance(found, ExampleNotation)),
    "rules": ("a class", lambda found: isinstance(found, type)),
    "sizes": ("a mapping", lambda found: isinstance(found, Mapping)),
    **{hook: ("a function", callable) for hook in ("tables", "calculators", "stepper", "explorer", "rule_controls")},
}


def _reason(exc: BaseException) -> str:
    """An exception as one short line: ``no module named 'x'``, ``ValueError: ...``."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return f"no module named {excerpt(exc.name)}"
    text = " ".join(str(exc).split())
    text = text if isinstance(exc, ToolkitError) else f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= 300 else f"{text[:300]}…"


def _checked(hook: str) -> str:
    if hook not in HOOKS:
        raise InvalidSetupError(f"unknown hook {hook!r}: a system's hooks are {', '.join(HOOKS)}")
    return hook


_REGISTRY: dict[str, System] = {}
_PLUGINS_LOADED: list[str] = []
_PLUGIN_PROBLEMS: dict[str, str] = {}


def register(entry: System) -> System:
    """Add a system to the registry and return it (registering the same system again
    changes nothing).

    Raises:
        InvalidSetupError: ``entry`` is not a :class:`System`, or another system has its name
            (the message names both packages: a system is never replaced) or its package.
    """
    if not isinstance(entry, System):
        raise InvalidSetupError(f"register takes a System, got {excerpt(entry, 60)}")
    known = _REGISTRY.get(entry.name)
    if known is not None and known != entry:
        raise InvalidSetupError(
            f"system name {entry.name} of package {entry.package} is already the name of package {known.package} "
            f"({known.title}): a system's name must be unique, so register it under another name"
        )
    owner = next((s for s in _REGISTRY.values() if s.package == entry.package and s.name != entry.name), None)
    if owner is not None:
        raise InvalidSetupError(
            f"system {entry.name}: its package {entry.package} is already the package of {owner.name} "
            "(a game state belongs to the system whose package defines it): give the system its own package"
        )
    return _REGISTRY.setdefault(entry.name, entry)


def unregister(name: str) -> System | None:
    """Remove the system called ``name`` from the registry and return it (``None``: none)."""
    return _REGISTRY.pop(name, None)


def _plugin_modules() -> list[str]:
    """The modules :data:`PLUGINS_VARIABLE` names now."""
    return [m for m in (m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(",")) if m]


def _load_plugins() -> None:
    """Import the modules :data:`PLUGINS_VARIABLE` names (once each): they register their
    systems. One that fails is left out, with one line in :func:`plugin_problems` and a
    :class:`PluginWarning`."""
    for module in _plugin_modules():
        if module not in _PLUGINS_LOADED:
            _PLUGINS_LOADED.append(module)
            try:
                importlib.import_module(module)
            except (Exception, SystemExit) as exc:  # missing, raising, exiting, or registering a bad system
                problem = f"the plug-in {excerpt(module)} of {PLUGINS_VARIABLE} is left out: {_reason(exc)}"
                _PLUGIN_PROBLEMS[module] = problem
                warnings.warn(problem, PluginWarning, stacklevel=3)


def plugin_problems() -> tuple[str, ...]:
    """Return one line for each module :data:`PLUGINS_VARIABLE` names that failed to
    import (which and why), in its order."""
    _load_plugins()
    return tuple(_PLUGIN_PROBLEMS[m] for m in _plugin_modules() if m in _PLUGIN_PROBLEMS)


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
        left_out = "".join(f"; {problem}" for problem in plugin_problems())
        known = ", ".join(_REGISTRY)
        raise NotationError(f"unknown system {excerpt(name)}; the systems are: {known}{left_out}") from None


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
