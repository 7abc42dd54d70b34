"""Every number a designer writes in a file is bounded before any work: one place turns text
into numbers (:func:`toolkit.numbers.written_number`) and bounds its size before converting
it; huge exponents, NaN, infinities and huge integers in every shipped kind of file get one
line naming the file, the line, the field and what is accepted."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.errors import ToolkitError
from toolkit.house_rules import load_rules
from toolkit.numbers import WRITTEN_RANGE, NumberRangeError, written_number
from toolkit.replay import replay_example
from toolkit.sweeps.spec import load_sweep
from toolkit.tune.spec import load_tuning

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("65%", Fraction(13, 20)),
        (0.06, Fraction(3, 50)),
        ("2/3", Fraction(2, 3)),
        (" -1.5e3 ", Fraction(-1500)),
        ("1e-30", Fraction(1, 10**30)),
        ("1_000", Fraction(1000)),
        (10**12, Fraction(10**12)),
        ("many", None),
        ("10**400", None),
        ("1/0", None),
        (True, None),
        ([1], None),
    ],
)
def test_written_numbers_are_exact_or_not_numbers(raw, value):
    assert written_number(raw) == value


@pytest.mark.parametrize(
    "raw",
    [
        "1e400",
        "1e-31",
        "1e99999",
        "-1e13",
        "1000000000001",
        10**12 + 1,
        10**400,
        float("nan"),
        float("inf"),
        "-inf",
        "NaN",
        "1e-300",
        1e-300,
        "1/1000000000000000000000000000000000",
        "5e13%",
    ],
)
def test_numbers_out_of_range_are_refused_with_the_range(raw):
    with pytest.raises(NumberRangeError) as info:
        written_number(raw)
    assert str(info.value) == WRITTEN_RANGE
    assert "1,000,000,000,000" in WRITTEN_RANGE and "30 decimals" in WRITTEN_RANGE


TUNING = """\
system: angry-miniatures
calculator: attacks_to_take_out
fixed: {attack_dice: 4, health: 5, attack_type: melee, cap: 10}
targets:
  - at: {defence_dice: 2}
    probability: {outcome: {at_most: 3}}
    GOAL
knobs:
  rules:
    tie_damage: [0, 1, 2]
"""
HOSTILE = ['"1e400"', "1e400", ".nan", ".inf", "-.inf", "1" + "0" * 400, '"1e-40"']


@pytest.mark.parametrize("bad", HOSTILE)
@pytest.mark.parametrize(
    ("goal", "field", "line"),
    [
        ("at_least: BAD", "at_least", 7),
        ("at_most: BAD", "at_most", 7),
        ("value: BAD\n    tolerance: 3%", "value", 7),
        ("value: 50%\n    tolerance: BAD", "tolerance", 8),
        ("probability: {outcome: {at_most: BAD}}\n    at_least: 1%", "outcome: at_most", 6),
    ],
)
def test_a_tuning_files_numbers_out_of_range_are_one_line_with_file_line_field_and_range(
    tmp_path, goal, field, line, bad
):
    text = TUNING.replace("GOAL", goal.replace("BAD", bad))
    if "probability: {outcome" in goal:
        text = text.replace("    probability: {outcome: {at_most: 3}}\n", "")
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    with pytest.raises(ToolkitError) as info:
        load_tuning(path)
    (message,) = str(info.value).splitlines()
    assert message.startswith(f"{path}:{line}: {field} must be {WRITTEN_RANGE}, got ")


def test_huge_exponents_answer_at_once_in_a_fresh_interpreter(tmp_path):
    """``Fraction("1e999999999")`` never ends (a billion-digit integer): the bound comes first.
    Run apart, so that a missing bound fails the test at its deadline instead of hanging it."""
    files = []
    for goal in ('at_least: "1e999999999"', 'value: 50%\n    tolerance: "1e-999999999"'):
        path = tmp_path / f"t{len(files)}.yaml"
        path.write_text(TUNING.replace("GOAL", goal))
        files.append(str(path))
    script = textwrap.dedent(
        f"""
        from toolkit.errors import InvalidSetupError
        from toolkit.tune.spec import load_tuning
        for path in {files!r}:
            try:
                load_tuning(path)
            except InvalidSetupError as exc:
                print(exc)
        """
    )
    try:
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("no answer in 120 s: a huge exponent was converted before it was bounded")
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stderr[-500:]
    assert lines[0].endswith(f":7: at_least must be {WRITTEN_RANGE}, got '1e999999999'")
    assert lines[1].endswith(f":8: tolerance must be {WRITTEN_RANGE}, got '1e-999999999'")


NUMBER = re.compile(r"(?<=[\s\[{:,])-?\d+(\.\d+)?%?(?=\s*[,\]}\n])")
LOADERS = {
    "tune": load_tuning,
    "sweeps": load_sweep,
    "examples": replay_example,
    "rules": lambda path: load_rules(path.parent.name, path),
}
SHIPPED = [(kind, path) for kind in LOADERS for path in sorted((DATA / kind).rglob("*.yaml"))]


@pytest.mark.parametrize(("kind", "shipped"), SHIPPED, ids=[f"{k}/{p.name}" for k, p in SHIPPED])
def test_every_number_of_every_shipped_file_bounded_with_its_file_and_line(tmp_path, kind, shipped):
    """Each number of each shipped tuning, sweep, example and house-rules file replaced in
    turn by a huge exponent, NaN, an infinity or a 400-digit integer: refused before any
    work, every problem one short line naming the file and its line (or, in free text, read
    as text)."""
    text = shipped.read_text()
    found = list(NUMBER.finditer(text))
    assert found or kind == "rules"
    path = tmp_path / shipped.parent.name / shipped.name
    path.parent.mkdir()
    for match in found:
        for bad in ('"1e999999999"', ".nan", "-.inf", "1" + "0" * 400):
            path.write_text(text[: match.start()] + bad + text[match.end() :])
            try:
                LOADERS[kind](path)
            except ToolkitError as exc:
                for line in str(exc).splitlines():
                    assert re.match(rf"{re.escape(str(path))}:\d+: ", line) and len(line) < 600, line


def test_an_integer_too_long_for_python_to_read_says_so_at_its_line(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(TUNING.replace("GOAL", "at_least: " + "9" * 5000))
    with pytest.raises(ToolkitError) as info:
        load_tuning(path)
    (message,) = str(info.value).splitlines()
    assert message.startswith(f"{path}:7: not valid YAML: !!int cannot read '999")
    assert message.endswith(": 5,000 digits, above the 4,300 a number may have") and len(message) < 300
