"""The README and docs speak to designers: the README's first screen says what to run, what
to open and how long it takes, in a few lines; no page of the README or of docs/ is a
benchmark diary (dates, clock times, processor models, load averages). Measurements live
in bench/README.md, as ratios measured in the same run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: What a benchmark diary writes: a date, a clock time, a machine, its load.
DIARY = re.compile(
    r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December)\b"
    r"|\b20\d\d-\d\d-\d\d\b|\b\d{1,2}:\d\d(?:-\d{1,2}:\d\d)? UTC\b"
    r"|\b(?:EPYC|Xeon|Ryzen|GHz)\b|\bload(?: average)? (?:of |about )?\d|\bon an idle\b"
)


def test_the_check_finds_a_diary():
    for line in (
        "(`10 reports in 50.1 s` on an idle 2-core machine, AMD EPYC, 3 December 2026; 50.1, 64.8 s)",
        "runs of 10:29-10:32 UTC, load about 3",
        "idle 2-core machine (2026-12-03, load 1.5)",
    ):
        assert DIARY.search(line), line
    assert not DIARY.search("about 2 minutes on a fresh machine, about a minute after that")


def first_screen() -> str:
    """The README up to its first section heading: what a designer reads on opening it."""
    return README.split("\n## ", 1)[0]


def test_the_readme_starts_with_its_two_commands():
    assert README.split("```sh\n", 1)[1].startswith("python3 scripts/reports.py\npython3 scripts/test.py\n```")


def test_the_readmes_first_screen_says_what_to_run_open_and_how_long_in_a_few_lines():
    screen = first_screen()
    assert len(screen.splitlines()) <= 25, len(screen.splitlines())
    assert "reports/index.html" in screen and "jupyter lab notebooks/" in screen
    assert "about 2 minutes on a fresh\nmachine, about a minute after that" in screen
    assert not DIARY.search(screen), DIARY.search(screen)
    assert not re.search(r"\d+\.\d+ s\b", screen), "a timing to the tenth of a second is a measurement"


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name)
def test_no_page_is_a_benchmark_diary(path):
    text = path.read_text(encoding="utf-8")
    found = [text[max(0, m.start() - 60) : m.end() + 30].replace("\n", " ") for m in DIARY.finditer(text)]
    assert found == [], "\n".join(found)


def test_the_measurements_live_in_the_bench_readme_as_ratios():
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    summary = bench.split("\n## The scripts", 1)[0]
    assert "ratio" in summary and summary.count("\n|") >= 20
    assert "bench/README.md" in README
