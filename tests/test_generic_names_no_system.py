"""No generic package names a rule system: a system is a plug-in (toolkit.systems).

The generic modules — every module of ``toolkit/`` outside the systems' own packages:
the core modules, ``rulebook``, ``reports``, ``sweeps``, ``tune``, ``widgets``,
``equilibrium``, the command line — reach a system only through the registry's hooks.
So none of them imports a system's package (at the top or inside a function) or holds a
system's name in its code (a string literal that is not a docstring: a dict keyed by
``"fairy-meat"``, a module path ``"toolkit.durak_battle..."``). Docstrings and comments may
name a system as an example. Parsed with :mod:`ast`, nothing is imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "toolkit"

#: The shipped systems' packages (their own code may name themselves).
SYSTEM_PACKAGES = ("fairy_meat", "durak_battle", "angry_miniatures")
#: A system's name as code would hold it: ``fairy-meat``, ``fairy_meat``, ``Fairy Meat``.
SYSTEM_NAME = re.compile(r"fairy[-_ ]meat|durak[-_ ]battle|angry[-_ ]miniatures", re.IGNORECASE)

#: Generic modules allowed to name systems, each with why.
ALLOWED: dict[str, str] = {
    "toolkit/systems.py": (
        "the registry registers the systems shipped with the toolkit: the one list of them "
        "(a system outside the toolkit registers itself the same way)"
    ),
}


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _system_package(module: str | None) -> bool:
    parts = (module or "").split(".")
    return len(parts) > 1 and parts[0] == "toolkit" and parts[1] in SYSTEM_PACKAGES


def system_mentions(path: Path) -> list[str]:
    """Where the module at ``path`` imports a system's package or names a system in code."""
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if _system_package(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and _system_package(node.module):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and SYSTEM_NAME.search(node.value)
        ):
            found.append(f"line {node.lineno}: {node.value[:60]!r}")
    return found


def generic_modules() -> list[Path]:
    """Every module of ``toolkit/`` outside the systems' packages."""
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in SYSTEM_PACKAGES]


def test_no_generic_module_names_a_system():
    offenders = {}
    for path in generic_modules():
        where = path.relative_to(ROOT).as_posix()
        mentions = system_mentions(path)
        if mentions and where not in ALLOWED:
            offenders[where] = mentions
    assert offenders == {}, "generic modules that name a system (use toolkit.systems' hooks): " + repr(offenders)


def test_the_allow_list_is_needed():
    """An entry of the allow-list that no longer names a system is removed."""
    for where in ALLOWED:
        assert system_mentions(ROOT / where), f"{where} names no system: remove it from ALLOWED"


def test_the_check_finds_what_it_looks_for(tmp_path):
    module = tmp_path / "probe.py"
    module.write_text(
        '"""A docstring may say fairy-meat."""\n'
        "import toolkit.durak_battle.rules\n"
        "def f():\n"
        '    """Nor here: angry-miniatures."""\n'
        "    from toolkit.angry_miniatures import opposed\n"
        '    return {"fairy-meat": "toolkit.fairy_meat.finder"}\n'
        "from toolkit.cards import Card  # Durak in a comment is fine\n"
    )
    found = system_mentions(module)
    assert [m.split(":")[0] for m in found] == ["line 2", "line 5", "line 6", "line 6"]
    assert len(generic_modules()) > 50 and not any("fairy_meat" in p.parts for p in generic_modules())


# -- docstrings and doctests of the front-ends -------------------------------------------------------
#: The generic packages and modules whose docstrings and doctests too name no system: their
#: examples read a system's name from the registry (``toolkit.systems.names()``), or live in
#: the system's own package, where a designer of that system looks.
NAMELESS = (
    "rulebook",
    "reports",
    "sweeps",
    "tune",
    "widgets",
    "cli.py",
    "notation.py",
    "examples.py",
    "house_rules.py",
)
#: A system's name as a docstring would give it: its registry name quoted (``"fairy-meat"``)
#: or its package's module path (``toolkit.durak_battle``).
NAMED_SYSTEM = re.compile(
    r"""["'](angry-miniatures|fairy-meat|durak-battle)["']|toolkit\.(angry_miniatures|fairy_meat|durak_battle)"""
)


def named_systems(text: str) -> list[str]:
    """``line N: text`` of each line of a module's source (code, docstring, comment) naming a system."""
    return [f"line {n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if NAMED_SYSTEM.search(line)]


def nameless_modules() -> list[Path]:
    """The modules of :data:`NAMELESS`."""
    out = []
    for name in NAMELESS:
        where = PACKAGE / name
        out += sorted(where.rglob("*.py")) if where.is_dir() else [where]
    return out


def test_front_ends_name_no_system_even_in_docstrings():
    offenders = {}
    for path in nameless_modules():
        if found := named_systems(path.read_text(encoding="utf-8")):
            offenders[path.relative_to(ROOT).as_posix()] = found
    assert offenders == {}, "use toolkit.systems.names() or move the example to the system's package: " + repr(
        offenders
    )


def test_the_docstring_check_finds_what_it_looks_for():
    text = (
        '""">>> RulesPicker("angry-miniatures")\n'
        ">>> from toolkit.fairy_meat import Rules\n"
        "A system's name read from toolkit.systems.names() is fine; so is Fairy Meat in prose.\n"
        '"""\n'
        "x = 'durak-battle'  # toolkit.durak_battle\n"
    )
    assert [m.split(":")[0] for m in named_systems(text)] == ["line 1", "line 2", "line 5"]
    modules = nameless_modules()
    assert all(p.is_file() for p in modules) and len(modules) > 40
    assert {p.relative_to(PACKAGE).parts[0] for p in modules} >= {"rulebook", "reports", "sweeps", "widgets"}
