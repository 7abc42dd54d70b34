"""The notation base every system's example files share (issue 9: one notation base):
the line map, error collection, safe reading and the plan loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.errors import NotationError
from toolkit.fairy_meat.notation import load_example, replay
from toolkit.notation import LineMap, ParseErrors, PlanStop, follow_plan, narrate, read_example

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def test_line_map_gives_each_value_its_own_line():
    text = (
        "title: T\nmoves:\n  - A: play 3D\n  - B: play 4C\n  - A: play 3D\n"
        "rounds:\n  - cards: 2S\n    moves:\n      - A: x\n"
    )
    lines = LineMap.of_text(text)
    assert lines.line("title") == 1
    assert lines.line("moves", 0) == 3 and lines.line("moves", 2) == 5  # the repeated move, at its own line
    assert lines.line("rounds", 0, "moves", 0) == 9
    # a missing path falls back to its nearest ancestor (a block value: its first line)
    assert lines.line("rounds", 0, "moves", 7) == 9
    assert lines.line("nowhere") == 1  # the document itself starts at line 1


def test_a_repeated_move_is_reported_at_its_own_line_fm():
    # Line 24 repeats line 17's move; the Trumps are spent by then (FM-4, FM-13). The old
    # reader reported the first line containing the text (17).
    text = (EXAMPLES / "dizzytwig_v_sparklespaz.yaml").read_text()
    bad = text.replace("- Dizzytwig: trumps none", "- Dizzytwig: trumps KS QC")
    with pytest.raises(NotationError, match=r"^<example>:24: Dizzytwig: "):
        replay(load_example(bad))


def test_errors_are_collected_and_raised_together():
    errors = ParseErrors("f.yaml", LineMap.of_text("a: 1\nb:\n  c: 2\n"))
    errors.add("first", "a")
    errors.check_keys({"c": 2, "d": 3}, {"c"}, "b: ", "b")
    errors.add("no line")
    with pytest.raises(NotationError) as info:
        errors.raise_if_any()
    assert str(info.value).splitlines() == [
        "f.yaml:1: first",
        "f.yaml:3: b: unknown key 'd'; keys are c",  # 'd' is not in the file: b's value, line 3
        "f.yaml: no line",
    ]
    with pytest.raises(NotationError, match="incomplete example"):
        ParseErrors("g.yaml").raise_if_any(incomplete=True)
    ParseErrors("g.yaml").raise_if_any()  # nothing to raise


def test_files_are_data_not_code():
    with pytest.raises(NotationError, match="not valid YAML"):
        read_example("a: !!python/object/apply:os.system ['echo hacked']\nb: 1\n", "a mapping")
    with pytest.raises(NotationError, match="an example is a mapping with moves"):
        read_example("- 1\n- 2\n", "moves")
    with pytest.raises(NotationError, match="is not a file"):
        read_example("no/such/file.yaml", "moves")


def test_the_plan_loop_collects_moves_and_states_and_stops_at_the_first_refusal():
    def planner(state):
        while state < 3:
            state = yield 1
        raise PlanStop("f.yaml:9: left over")

    def apply(state, move):
        return state + move

    assert follow_plan(0, planner, apply) == ([1, 1, 1], [0, 1, 2, 3], "f.yaml:9: left over")

    def quiet(state):
        yield 5

    def refuse(state, move):
        raise NotationError("f.yaml:3: illegal")

    assert follow_plan(0, quiet, apply) == ([5], [0, 5], "")
    assert follow_plan(0, quiet, refuse) == ([], [0], "f.yaml:3: illegal")


def test_narrate_prints_title_notes_log_summary():
    assert narrate("T", "n\n", "log", "sum") == "T\n=\nn\n\nlog\n\nsum"
    assert narrate("T", "", "log", "sum") == "T\n=\nlog\n\nsum"
