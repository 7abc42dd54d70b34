"""Defaults live only in ``Rules()``: no ``rules is None`` branch in
``toolkit/`` restates a default of the rulings as a literal or as a constant that holds only
the default (``1 if rules is None else rules.trump_value``, ``ACE_OF_SPADES if rules is
None``, ``MORALE_TARGET``). A branch that reads ``Rules()`` (``rules = Rules() if rules is
None else rules``) or a rules-aware function (``numbered_pips(rules)``) is fine.

Read as text, nothing is imported: each ``rules is None`` / ``rules is not None`` line is
checked, with the next line when it ends a block header (``if rules is None:``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "toolkit"

#: What a branch on missing rules must not carry: a number, a card code, or a name holding a
#: default of the rulings (the draft's deck, pips, Trump pools, death card, morale target).
DRAFT_LITERALS = (
    # a number, not an index or a slice: 1 if rules is None else rules.trump_value
    re.compile(r"(?<![\w.\[:])\d+(?![\w.])"),
    re.compile(r"""["'](?:10|[2-9JQKA])[SHDC]["']"""),  # a card code: "AS" if rules is None
    re.compile(
        r"\b(?:TRUMP_POOLS|ACE_OF_SPADES|PIPS|TYPE_CAPS|RED_TRUMPS|BLACK_TRUMPS_BUT_ACE|"
        r"MORALE_TARGET|HIT_FACES|SUIT_ACTION|STRIKE_LOSS|SUIT_LABELS)\b"
    ),
)
BRANCH = re.compile(r"\brules is (?:not )?None\b")

#: Lines still waiting, each with why: the hidden-hands solver (strategy/hidden) was being
#: reworked on another branch when this test came; its two go there.
EXCUSED = {}


def draft_literals(text: str) -> list[tuple[int, str]]:
    """``(line number, statement)`` of each branch on missing rules carrying a draft literal."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        code = line.split("#", 1)[0]
        if not BRANCH.search(code):
            continue
        statement = code
        if code.rstrip().endswith(":") and i + 1 < len(lines):
            statement += "\n" + lines[i + 1].split("#", 1)[0]
        if any(p.search(statement) for p in DRAFT_LITERALS):
            found.append((i + 1, statement.strip()))
    return found


def test_the_pattern_catches_the_branches_it_is_for():
    # the forms removed from toolkit/ (odds/classes.py, odds/weighing.py, deck.py, durak_battle/morale.py)
    bad = [
        "    return (death_colour(rules), 1 if rules is None else rules.trump_value)",
        '    code = "AS" if rules is None else rules.death_card',
        "    pips = PIPS if rules is None else numbered_pips(rules)",
        "    source = TRUMP_POOLS if rules is None else trump_pools(rules)",
        "    return x >= (rules.morale_target if rules is not None else MORALE_TARGET)",
        "    if rules is None:\n        return RED_TRUMPS, BLACK_TRUMPS_BUT_ACE, 1, 0",
        "    if rules is None:\n        divisor = 2",
    ]
    for text in bad:
        assert draft_literals(text), text
    fine = [
        "    rules = Rules() if rules is None else rules",
        "    pips = numbered_pips(rules)",
        "    if rules is None:\n        return Rules()",
        "    jokers = JOKERS[: rules.jokers] if rules is not None else ()",
        "    if rules is None:\n        return ()",
    ]
    assert [t for t in fine if draft_literals(t)] == []


def test_no_rules_is_none_branch_restates_a_default():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for n, statement in draft_literals(path.read_text(encoding="utf-8")):
            if not any(rel == f and snippet in statement for f, snippet in EXCUSED):
                found.append(f"toolkit/{rel}:{n}: {statement}")
    assert found == []


# -- constants that hold only the defaults --------------------------------------------------------
#: Constants that held only the draft's defaults, gone for functions of the rules in force
#: (``type_caps(rules)``, ``trump_pools(rules)``, ``numbered_pips(rules)``, ``kind_caps(rules)``,
#: ``draw_outcomes(rules)``, ``rules.morale_target``...): none may be defined again.
REMOVED_CONSTANTS = frozenset(
    {
        "TRUMP_POOLS",
        "ACE_OF_SPADES",
        "PIPS",
        "TYPE_CAPS",
        "RED_TRUMPS",
        "BLACK_TRUMPS_BUT_ACE",
        "NUMBERED_CARDS",
        "DECK_SIZE",
        "DRAW_OUTCOMES",
        "MORALE_TARGET",
        "HIT_FACES",
        "SUIT_ACTION",
        "STRIKE_LOSS",
        "SUIT_LABELS",
    }
)


def _rules_parameters(trees: dict[str, ast.Module]) -> dict[str, int]:
    """Every function of ``toolkit/`` with a ``rules`` parameter: name -> its position."""
    out: dict[str, int] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
                if "rules" in names:
                    out[node.name] = names.index("rules")
    return out


def _defaults_read(value: ast.expr, rules_functions: dict[str, int]) -> str | None:
    """What in ``value`` reads the default rules: a ``Rules()`` (of any system), or a call of a
    rules-aware function that passes no rules (``trump_pools()``); ``None`` if nothing."""
    for node in ast.walk(value):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name.endswith("Rules"):
            return f"{name}()"
        position = rules_functions.get(name)
        if position is None:
            continue
        if len(node.args) <= position and all(k.arg != "rules" for k in node.keywords):
            return f"{name}() without rules"
    return None


def default_only_constants(trees: dict[str, ast.Module]) -> list[str]:
    """``path:line: NAME`` of each module-level public name that holds only the defaults: one
    of :data:`REMOVED_CONSTANTS`, or a value computed from the default rules (``X =
    trump_pools()``, ``X = Rules().pips``). A private fallback (``_DEFAULT = Rules()``) is fine."""
    rules_functions = _rules_parameters(trees)
    found = []
    for rel, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            for name in names:
                if name in REMOVED_CONSTANTS:
                    found.append(f"{rel}:{node.lineno}: {name}")
                elif not name.startswith("_") and (why := _defaults_read(value, rules_functions)):
                    found.append(f"{rel}:{node.lineno}: {name} = ... {why}")
    return found


def _trees(sources: dict[str, str]) -> dict[str, ast.Module]:
    return {rel: ast.parse(text) for rel, text in sources.items()}


def test_the_constant_check_catches_what_it_is_for():
    helpers = "def trump_pools(rules=None): ...\ndef type_caps(rules=None): ...\nclass Rules: ...\n"
    bad = [
        'ACE_OF_SPADES = Card("AS")',
        "PIPS = range(2, 11)",
        "TYPE_CAPS: tuple[int, ...] = (2,) * 18 + (8, 7, 1)",
        "TRUMP_POOLS = trump_pools()",
        "CAPS = type_caps()",
        "TARGET = Rules().morale_target",
        "POOLS = trump_pools(Rules())",
    ]
    for line in bad:
        assert default_only_constants(_trees({"m.py": helpers + line})), line
    fine = [
        "_DEFAULT = Rules()",
        "N_TYPES = 21",
        "NAMES = tuple(type_name(t) for t in range(21))",
        "def pools(rules):\n    return trump_pools(rules)",
        "LIMIT = 300_000",
    ]
    assert [x for x in fine if default_only_constants(_trees({"m.py": helpers + x}))] == []


def test_no_constant_holds_only_the_defaults():
    trees = _trees(
        {path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")}
    )
    assert default_only_constants(trees) == []
