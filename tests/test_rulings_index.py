"""The rulings index of docs/implementation.md (one rule, one place): every ruling id is listed,
and each row names the function or table implementing it, which imports and whose
docstring cites the id. Rows still marked ``TODO`` are skipped, by name."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parent.parent / "docs" / "implementation.md"
PREFIXES = {"AM": 10, "FM": 14, "DB": 9}  # the ids of RULINGS.md: AM-1..AM-10, FM-1..FM-14, DB-1..DB-9


def index_rows() -> list[tuple[str, str, str]]:
    """``(id, ruling, implemented by)`` for each row of the index table in the README's
    "Rulings and variants" section."""
    text = README.read_text()
    section = text[text.index("## Rulings and variants") :]
    section = section[: section.index("\n## ", 1)]
    rows = []
    header_seen = False
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if cells[:1] == ["id"] and "implemented by" in cells:
            header_seen = True
            continue
        if header_seen and cells and not set(cells[0]) <= set("-"):
            rows.append((cells[0], cells[1], cells[2]))
        elif header_seen and not cells and rows:
            break
    return rows


ROWS = index_rows()


def resolve(dotted: str) -> Any:
    """Import ``package.module.Name.attribute`` (the longest importable module, then attributes)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


def test_every_ruling_id_is_in_the_index():
    listed = {row[0] for row in ROWS}
    for prefix, most in PREFIXES.items():
        numbers = {int(i.split("-")[1]) for i in listed if i.startswith(f"{prefix}-")}
        assert max(numbers) == most, prefix
        assert numbers == set(range(1, most + 1)), f"{prefix}: missing {sorted(set(range(1, most + 1)) - numbers)}"
    assert all(re.fullmatch(r"(AM|FM|DB)-\d+", i) for i in listed)


@pytest.mark.parametrize(("ruling", "what", "where"), ROWS, ids=[f"{r[0]} {r[1][:30]}" for r in ROWS])
def test_each_row_names_an_object_citing_its_id(ruling, what, where):
    if where == "TODO":
        pytest.skip(f"{ruling} ({what}): implementation not named yet (TODO)")
    match = re.fullmatch(r"`([\w.]+)`", where)
    assert match, f"{ruling}: 'implemented by' must be a dotted path in backticks, got {where!r}"
    obj = resolve(match.group(1))
    doc = inspect.getdoc(obj) or ""
    assert re.search(rf"\b{re.escape(ruling)}(?!\d)", doc), f"{match.group(1)}'s docstring does not cite {ruling}"


def test_todo_rows_are_reported():
    todo = [f"{r[0]} ({r[1]})" for r in ROWS if r[2] == "TODO"]
    if todo:
        pytest.skip(f"{len(todo)} rows still TODO (the lead fills them at merge): " + "; ".join(todo))


def test_the_fairy_meat_rows_agree_with_the_package_index():
    # Two indexes of the same facts must not drift: each Fairy Meat row of the README names
    # a function that toolkit.fairy_meat.rulings.RULINGS also gives for that ruling id (or
    # for one of its added readings), and every id of RULINGS has a README row.
    from toolkit.fairy_meat.rulings import RULINGS

    by_id: dict[str, set[str]] = {}
    for key, path in RULINGS.items():
        for ruling in re.findall(r"FM-\d+", key):
            by_id.setdefault(ruling, set()).add(path)
    rows = [(r, re.fullmatch(r"`([\w.]+)`", where).group(1)) for r, _, where in ROWS if r.startswith("FM-")]
    for ruling, path in rows:
        given = by_id.get(ruling, set())
        assert path in given, f"README names {path} for {ruling}; rulings.py gives {given}"
    assert {r for r, _ in rows} == set(by_id)
