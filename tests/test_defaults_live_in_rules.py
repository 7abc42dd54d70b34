"""Defaults live only in ``Rules()``: no ``rules is None`` branch in
``toolkit/`` restates a default of the rulings as a literal or as a constant that holds only
the default (``1 if rules is None else rules.trump_value``, ``ACE_OF_SPADES if rules is
None``, ``MORALE_TARGET``). A branch that reads ``Rules()`` (``rules = Rules() if rules is
None else rules``) or a rules-aware function (``numbered_pips(rules)``) is fine.

Read as text, nothing is imported: each ``rules is None`` / ``rules is not None`` line is
checked, with the next line when it ends a block header (``if rules is None:``)."""

from __future__ import annotations

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
EXCUSED = {
}


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
