"""Example files are written without PyYAML's pure-Python emitter, byte for byte as it
writes them: :func:`toolkit.notation.dump_example` (``yaml.dump`` with the example dumper)
and :func:`toolkit.notation.dump_yaml` (``yaml.safe_dump``)."""

from __future__ import annotations

import random

import pytest
import yaml

from toolkit.examples import example_files
from toolkit.notation import FlowMap, dump_example, dump_yaml, load_yaml, write_example

WORDS = [
    "a", "b c", "North", "does not roll", "10D", "JK2", "AS", "K♠", "é ü", "it's", "'q'", '"d"', "x -", "- a",
    "a: b", "a #b", "#c", "{x}", "[y]", "a,b", "?", "*s", "&a", "!t", "%p", "@", "`", "3:4", "=", "<<", "---", "...",
    "yes", "No", "on", "OFF", "Y", "n", "null", "~", "10", "-1", "+1", "1e3", "0x10", "0o7", "1.5", "", " lead",
    "trail ", "tab\there", "line\nbreak", "word " * 30, "w" * 60 + " " + "v" * 61, "z " * 40, "y" * 130,
]  # fmt: skip


def _scalar(rng: random.Random):
    r = rng.random()
    if r < 0.6:
        return rng.choice(WORDS)
    if r < 0.75:
        return rng.randint(-5, 10**6)
    if r < 0.88:
        return rng.choice([True, False, None])
    if r < 0.9:
        return rng.random()  # a float: PyYAML writes it
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)}"


def _value(rng: random.Random, shared: list, depth: int = 0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return _scalar(rng)
    if r < 0.48:
        return shared  # the same list twice in a document: PyYAML writes an anchor and an alias
    if r < 0.63:
        return [_value(rng, shared, depth + 1) for _ in range(rng.randint(0, 4))]
    kind = FlowMap if r < 0.8 else dict
    return kind((_scalar(rng), _value(rng, shared, depth + 1)) for _ in range(rng.randint(0, 5)))


class _ExampleDumper(yaml.SafeDumper):
    """The dumper dump_example documents, built here again: the safe dumper, list items
    indented under their key, FlowMap on one line."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


_ExampleDumper.add_representer(
    FlowMap, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)
)


def _pyyaml(function, data, width):
    try:
        if function is dump_example:
            return yaml.dump(
                data, Dumper=_ExampleDumper, sort_keys=False, allow_unicode=True, width=width, default_flow_style=False
            )
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=width)
    except yaml.YAMLError as exc:
        return type(exc)


def _ours(function, data, width):
    try:
        return function(data, width)
    except yaml.YAMLError as exc:
        return type(exc)


@pytest.mark.parametrize("function", [dump_example, dump_yaml])
@pytest.mark.parametrize("seed", range(4))
def test_random_documents_are_written_as_pyyaml_writes_them(function, seed):
    rng = random.Random(seed)
    for _ in range(300):
        shared: list = [1, "x"]
        data = {str(_scalar(rng)): _value(rng, shared) for _ in range(rng.randint(1, 6))}
        width = rng.choice([110, 110, 100, 80, 40, 20])
        assert _ours(function, data, width) == _pyyaml(function, data, width), (data, width)


@pytest.mark.parametrize("function", [dump_example, dump_yaml])
def test_long_keys_and_lines_break_where_pyyaml_breaks_them(function):
    for length in range(100, 140):
        for width in (20, 80, 110, 200):
            plain = "x" * (length // 2) + " " + "y" * (length - length // 2 - 1)
            quoted = "yes" + "z" * (length - 3)
            for key in (plain, quoted):
                for data in (
                    {key: 1},
                    {"a": FlowMap({key: "b c"})},
                    {"a": [key, {key: [key]}]},
                    {"a": FlowMap({"b": key, "c": [key, 1]})},
                ):
                    assert _ours(function, data, width) == _pyyaml(function, data, width), (data, width)


def test_the_shipped_examples_are_written_again_as_pyyaml_writes_them():
    files = example_files()
    assert files
    for path in files:
        data = load_yaml(path).data
        assert dump_yaml(data, 100) == yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        assert dump_example(data) == _pyyaml(dump_example, data, 110)


def test_write_example_writes_a_played_game_as_before():
    title = "Heads: a long title that runs past the width of the line " * 3
    setup = {"sides": ["A", "B"], "coins": FlowMap(A=3, B=2)}
    expect = [FlowMap(round=1, lost=FlowMap(A=0, B=2))]
    text = write_example("coin-duel", title, None, setup, {"flips": ["H T", "yes"]}, expect, finished=False)
    data = {
        "system": "coin-duel",
        "title": title,
        **setup,
        "unfinished": True,
        "flips": ["H T", "yes"],
        "expect": expect,
    }
    assert text == _pyyaml(dump_example, data, 110)
    assert load_yaml(text).data["flips"] == ["H T", "yes"]
