"""The rulings index is generated from the code and true (one rule, one place).

Each system's ``rulings.py`` lists its rulings (AM-1..AM-10, FM-1..FM-14, DB-1..DB-9) and
the rows of its index; the rules layer claims each row with ``@implements``. Here:
docs/rulings.md and the README's list are what ``scripts/rulings.py`` writes; every id is
there; exactly one function claims each row, and its docstring cites the id; and every
claimed function runs when the rule-book examples are replayed (traced with
``sys.setprofile``), or, for the few readings only a calculator needs, when that
calculator runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType

import pytest

from toolkit.errors import InvalidSetupError
from toolkit.replay import replay_example
from toolkit.rulings import Part, Ruling, RulingBook, books, code_of, forget, implements, with_readme_section

ROOT = Path(__file__).resolve().parent.parent
#: The ruling ids of the three drafts' rulings: AM-1..AM-10, FM-1..FM-14, DB-1..DB-9.
IDS = {"AM": 10, "FM": 14, "DB": 9}
#: The rule-book examples: the shipped ones and those the rule-book tests keep.
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "fixtures" / "rulebook").glob("*.yaml")
)
BOOKS = books()


def _script():
    spec = importlib.util.spec_from_file_location("rulings_script", ROOT / "scripts" / "rulings.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_page_and_readme_index_are_up_to_date():
    for path, text in _script().expected().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is out of date: run python scripts/rulings.py"


def test_every_ruling_id_has_a_book_entry_and_nothing_else():
    assert {b.prefix for b in BOOKS} == set(IDS)
    for book in BOOKS:
        assert book.ids() == tuple(f"{book.prefix}-{n}" for n in range(1, IDS[book.prefix] + 1))
        assert all(r.title and r.text for r in book.rulings)


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.prefix)
def test_each_row_is_claimed_by_exactly_one_function_citing_its_id(book):
    assert book.problems() == []


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.prefix)
def test_ids_cited_in_the_rulings_texts_exist(book):
    known = {r.id for b in BOOKS for r in b.rulings}
    for text in [r.text for r in book.rulings] + [p.reading for p in book.parts] + list(book.house_readings):
        for cited in re.findall(r"\b(?:AM|FM|DB)-\d+\b", text):
            assert cited in known, (book.prefix, cited, text[:60])


def test_every_claim_in_the_toolkit_is_in_a_book_and_found_from_its_modules():
    # a claim in a module the book does not list would be missed by a fresh
    # `python scripts/rulings.py`: import every module, then check where each claim lives
    import pkgutil

    import toolkit

    for module in pkgutil.walk_packages(toolkit.__path__, "toolkit."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    for book in BOOKS:
        listed = {p.key for p in book.parts}
        for key, claimed in book.implementations().items():
            assert key in listed, f"{key} is claimed but is not a row of the {book.prefix} index"
            for name, function in claimed:
                assert function.__module__ in book.modules, f"{name}: add {function.__module__} to the book's modules"


def test_two_functions_claiming_one_ruling_is_a_problem():
    book = RulingBook("test", "Test", "ZZ", "", (Ruling("ZZ-1", "one", "One."),), (Part("ZZ-1", "one"),), ())
    assert book.problems() == ["ZZ-1 (one): no function claims it (@implements('ZZ-1'))"]
    try:

        @implements("ZZ-1")
        def first() -> None:
            """ZZ-1, once."""

        @implements("ZZ-1")
        def second() -> None:
            """ZZ-1, again."""

        @implements("ZZ-2")
        def stray() -> None:
            """Says nothing."""

        problems = book.problems()
        assert any("ZZ-1 is claimed by 2 functions" in p and "second" in p for p in problems), problems
        assert any("ZZ-2 is claimed by" in p and "not a part" in p for p in problems), problems
        with pytest.raises(InvalidSetupError, match="exactly one"):
            book.implementation("ZZ-1")
    finally:
        forget("ZZ-1")
        forget("ZZ-2")


def test_a_key_that_is_not_a_ruling_key_is_refused():
    with pytest.raises(InvalidSetupError, match="not a ruling key"):
        implements("FM8")


def test_the_readme_index_needs_its_markers():
    with pytest.raises(InvalidSetupError, match="no ruling index"):
        with_readme_section("# no index here\n", BOOKS)


# -- every claimed function is reached ----------------------------------------------------
@contextmanager
def traced() -> Iterator[set[CodeType]]:
    """Collect the code of every Python function called inside the block."""
    seen: set[CodeType] = set()

    def profile(frame, event, _arg):
        if event == "call":
            seen.add(frame.f_code)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(previous)


def _hidden_hands_solver() -> None:
    from toolkit.fairy_meat.odds.caches import clear_caches
    from toolkit.fairy_meat.strategy.hidden import solve_hidden
    from toolkit.fairy_meat.strategy.hidden.matrix import clear_build_cache
    from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache

    _clear_caches()  # earlier tests in this process may have built it
    clear_caches(), clear_build_cache(), clear_strategy_cache()
    solve_hidden(1, 1, max_iterations=5)


def _exact_odds() -> None:
    from toolkit.fairy_meat.odds import deal_averaged_odds
    from toolkit.fairy_meat.odds.caches import clear_caches

    _clear_caches()  # earlier tests in this process may have counted it
    clear_caches()
    deal_averaged_odds(1, 1)


#: How a part that the examples do not reach is reached (its ``reached_by``): a small run.
CALCULATORS: dict[str, Callable[[], None]] = {
    "the hidden-hands solver": _hidden_hands_solver,
    "the exact odds": _exact_odds,
}


def test_the_examples_are_there():
    assert len(EXAMPLES) >= 30 and all(p.exists() for p in EXAMPLES)


def _clear_caches() -> None:
    """Forget everything the toolkit's modules cached (a cached function is not called
    again, nor what it calls): every ``cache_clear`` of every loaded toolkit module."""
    for name, module in list(sys.modules.items()):
        if name.startswith("toolkit.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


@pytest.fixture(scope="module")
def reached_by_examples() -> set[CodeType]:
    _clear_caches()
    with traced() as seen:
        for path in EXAMPLES:
            replay_example(path)
    return seen


@pytest.fixture(scope="module")
def reached(reached_by_examples) -> set[CodeType]:
    _clear_caches()
    with traced() as seen:
        for run in CALCULATORS.values():
            run()
    return seen | reached_by_examples


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.prefix)
def test_every_claimed_function_is_reached(book, reached, reached_by_examples):
    found = book.implementations()
    missing = []
    for part in book.parts:
        assert part.reached_by == "examples" or part.reached_by in CALCULATORS, part
        for name, function in found.get(part.key, ()):
            where = reached_by_examples if part.reached_by == "examples" else reached
            if code_of(function) not in where:
                missing.append(f"{part.key}: {name} (reached by {part.reached_by})")
    assert missing == [], "never reached: " + "; ".join(missing)
