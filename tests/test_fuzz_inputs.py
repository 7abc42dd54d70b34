"""A fuzz suite (hypothesis, fixed seed, about a minute in all) over the example reader
and replay of every system, the parameter reader and the Angry Miniatures calculators'
argument checks (issue 13): no traceback (only the toolkit's errors), no hang, bounded
memory, and every accepted file replays the same way twice."""

from __future__ import annotations

import contextlib
import resource
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.angry_miniatures import odds, repeated
from toolkit.errors import ToolkitError
from toolkit.notation import load_yaml
from toolkit.replay import replay_file
from toolkit.reports.runner import discover_reports, notebook_parameters, parse_cli_value

#: The process's peak memory (KB) when this module's first test starts: what the other test
#: modules of the session used is not the fuzzed readers' doing.
_PEAK: dict[str, int] = {}


@pytest.fixture(autouse=True, scope="module")
def _peak_before_fuzzing():
    if hasattr(resource, "getrusage"):
        _PEAK["before"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    yield


EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "data" / "examples").glob("*.yaml"))
TEXTS = [p.read_text() for p in EXAMPLES]

FUZZ = settings(
    derandomize=True,  # a fixed seed: the same examples every run
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

NASTY = [
    "true",
    "false",
    '"false"',
    "no",
    "2.7",
    "-1",
    "0",
    "10**20",
    "100000000000000000000",
    "[]",
    "{}",
    "[1, 2]",
    "{a: 1}",
    "null",
    "~",
    "!!int x",
    "!!bool maybe",
    "&a x",
    "*a",
    "!!python/name:os.system",
    "KS KS",
    "'<script>alert(1)</script>'",
    "x" * 300,
    "1e400",
    ".nan",
    "2001-12-14",
    "!!binary aGk=",
    "| \n  text",
    "é",
]


def _mutate(text: str, ops: list[tuple[int, int, int]]) -> str:
    lines = text.splitlines()
    for kind, where, what in ops:
        if not lines:
            break
        i = where % len(lines)
        line = lines[i]
        if kind == 0:  # drop a line
            del lines[i]
        elif kind == 1:  # repeat a line
            lines.insert(i, line)
        elif kind == 2 and ":" in line:  # a nasty value after a key
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {NASTY[what % len(NASTY)]}"
        elif kind == 3:  # a nasty value in place of a word
            words = line.split(" ")
            words[what % len(words)] = NASTY[what % len(NASTY)]
            lines[i] = " ".join(words)
        else:  # indent or dedent
            lines[i] = ("  " + line) if what % 2 else line.lstrip()
    return "\n".join(lines) + "\n"


def _replay(path: Path) -> tuple[str, list[str]] | str:
    try:
        return replay_file(path)
    except ToolkitError as exc:
        message = str(exc)
        assert "Traceback" not in message and len(message) < 20_000
        return message


@settings(FUZZ, max_examples=600)
@given(
    base=st.sampled_from(range(len(TEXTS))),
    ops=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.integers(0, 10_000)), max_size=6),
)
def test_mutated_examples_replay_or_refuse_cleanly(base, ops):
    text = _mutate(TEXTS[base], ops)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant.yaml"
        path.write_text(text)
        start = time.perf_counter()
        first = _replay(path)
        assert time.perf_counter() - start < 10
        if not isinstance(first, str):  # accepted: it replays the same way twice
            assert _replay(path) == first


@FUZZ
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_any_bytes_read_cleanly(raw):
    with contextlib.suppress(ToolkitError):
        load_yaml(raw)


SPECS = [spec for path in discover_reports().values() for spec in notebook_parameters(path).values()]


@FUZZ
@given(st.text(max_size=120) | st.sampled_from(NASTY), st.sampled_from(SPECS))
def test_parameter_values_read_and_check_cleanly(text, spec):
    try:
        value = parse_cli_value(text, spec.type_name)
    except ToolkitError:
        return
    problem = spec.problem(value)
    assert problem is None or len(problem) < 500


ARGS = (
    st.integers(-3, 10)
    | st.integers(10**3, 10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=5)
    | st.none()
    | st.booleans()
    | st.lists(st.integers(-2, 6), max_size=4)
)


@settings(FUZZ, max_examples=300)
@given(st.sampled_from(["hit", "crit", "opposed", "area", "take_out", "expected"]), ARGS, ARGS, ARGS, ARGS)
def test_calculator_arguments_are_checked(which, a, b, c, d):
    calls = {
        "hit": lambda: odds.hit_distribution(a),
        "crit": lambda: odds.crit_probability(a),
        "opposed": lambda: odds.opposed(a, b, "melee"),
        "area": lambda: odds.area_attack(a, b if isinstance(b, list) else [b]),
        "take_out": lambda: repeated.attacks_to_take_out(a, b, c, cap=d),
        "expected": lambda: repeated.expected_attacks_to_take_out(a, b, c),
    }
    start = time.perf_counter()
    with contextlib.suppress(ToolkitError, TypeError):
        calls[which]()
    assert time.perf_counter() - start < 3


@pytest.mark.skipif(not hasattr(resource, "getrusage"), reason="no resource module")
def test_memory_stayed_bounded():
    # the fuzzed inputs above raised the process's peak memory by under 1 GB (KB)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - _PEAK["before"] < 2**20
