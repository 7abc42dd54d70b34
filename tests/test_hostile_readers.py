"""Hostile and careless example files (issue 13): every one gets one clear NotationError
with its file and line, quickly and in little memory; valid files read as before."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.errors import NotationError
from toolkit.notation import MAX_FILE_BYTES, excerpt, load_yaml
from toolkit.replay import replay_file

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
FM = (EXAMPLES / "dizzytwig_v_sparklespaz.yaml").read_text()
DB = (EXAMPLES / "durak_counterattack_chain.yaml").read_text()
AM = (EXAMPLES / "grunk_charges_pixie.yaml").read_text()

BOMB_LINES = "".join(f"{a}: &{a} [{', '.join([f'*{b}'] * 9)}]\n" for a, b in zip("bcdefghij", "abcdefghi", strict=True))
BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + BOMB_LINES


def _refuse(text: str | bytes, tmp_path: Path, name: str = "bad.yaml") -> str:
    """Replay ``text`` as a file; return the one-line error (and check it is quick and small)."""
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(NotationError) as info:
        replay_file(path)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert seconds < 2, f"took {seconds:.1f} s to refuse"
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB to refuse"
    message = str(info.value)
    assert str(path) in message and "Traceback" not in message
    assert len(message) < 2000, "the message quotes the whole value"
    return message


@pytest.mark.parametrize(
    "head",
    ["system: durak-battle\n", "system: fairy-meat\n", "system: angry-miniatures\n"],
)
def test_alias_bomb_never_used_is_refused_at_once(head, tmp_path):
    message = _refuse(head + BOMB, tmp_path)
    assert ":3: " in message and "alias *a refused" in message


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("system: fairy-meat", "x: &s fairy-meat\nsystem: *s"),  # the system as an alias
        ("  - Dizzytwig: play 5C", "  - &m {Dizzytwig: play 5C}\n  - *m"),  # a move as an alias
        ("expect:", "x: &e [1, 2]\nexpect:"),  # an anchor (harmless) is fine; used below
    ],
)
def test_aliases_in_a_fairy_meat_example_are_refused(old, new, tmp_path):
    text = FM.replace(old, new)
    if "*" not in new:
        text = text.replace("expect:\n", "expect: *e\n")
    assert "alias" in _refuse(text, tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ("weapon: Vibro-Master", "weapon: [Vibro-Master]", 9, "unknown weapon ['Vibro-Master']"),
        ("deck: KS QC 5C 4C 3D  2D KC  AS JH 3H", "deck: [1, 2, 3]", 12, "a card is a code"),
        (
            "fluttered: true}",
            "fluttered: true, modifiers: two}",
            9,
            "modifiers must be a whole number from -100 to 100, got 'two'",
        ),
        (
            "fluttered: true}",
            "fluttered: true, modifiers: 2.7}",
            9,
            "modifiers must be a whole number from -100 to 100, got 2.7",
        ),
        ("{attack: 1,", "{attack: one,", 28, "attack must be a whole number from 1 to 100, got 'one'"),
        ("fluttered: true", 'fluttered: "false"', 9, "fluttered must be true or false, got 'false'"),
        ("holds_order_card: true", "holds_order_card: 1", 10, "holds_order_card must be true or false"),
        ("system: fairy-meat", "system: fairy-meat\nwrestling: 'no'", 4, "wrestling must be true or false"),
        ("system: fairy-meat", "system: fairy-meat\nrules: x", 4, "no house-rules file"),
        (
            "kill: 4",
            "kill: 100000000000000000000",
            9,
            "kill must be a whole number from 0 to 100, got 100000000000000000000",
        ),
        ("deck: KS QC", "deck: KS KS", 12, "KS appear more than once"),
        (
            "attacker: {name: Dizzytwig, live: 3, kill: 4, weapon: Vibro-Master, fluttered: true}",
            "attacker: D",
            9,
            "attacker must be a mapping",
        ),
        ("system: fairy-meat", "system: fairy-meat\nattacks: 1.5", 4, "attacks must be a whole number"),
        ("system: fairy-meat", "system: fairy-meat\nnotes: x\nnotes: y", 5, "duplicate key 'notes'"),
        ("title: Dizzytwig v Sparklespaz", "title: !!int x", 4, "!!int cannot read 'x'"),
        ("title: Dizzytwig v Sparklespaz", "title: !!bool maybe", 4, "!!bool cannot read 'maybe'"),
        (
            "title: Dizzytwig v Sparklespaz",
            "title: !!python/object/apply:os.system [echo]",
            4,
            "could not determine a constructor",
        ),
    ],
)
def test_fairy_meat_bad_fields_one_error_at_their_line(old, new, line, words, tmp_path):
    assert old in FM
    message = _refuse(FM.replace(old, new), tmp_path)
    assert f"bad.yaml:{line}: " in message and words in message


def test_fairy_meat_moves_and_expect_of_the_wrong_shape(tmp_path):
    head = FM.split("moves:")[0]
    assert "moves must be a list" in _refuse(head + "moves: 5\n", tmp_path)
    assert "expect must be a list" in _refuse(FM.split("expect:")[0] + "expect: 5\n", tmp_path)


def test_left_over_move_is_reported_at_its_own_line(tmp_path):
    text = FM.replace("  - Dizzytwig: play 5C\n", "  - Dizzytwig: play 5C\n  - Dizzytwig: play 5C\n")
    assert "bad.yaml:27: the combat is over" in _refuse(text, tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("- {round: 1,", "- {round: [1],", "round must be a whole number from 1 to 1,000, got [1]"),
        ("tokens: 8", "tokens: 7.5", "tokens must be a whole number from 0 to 10,000, got 7.5"),
        ("wild_card: true}", "wild_card: 'no'}", "wild_card must be true or false"),
        (
            "system: durak-battle",
            "system: durak-battle\nmax_rounds: -1",
            "max_rounds must be a whole number from 1 to 1,000, got -1",
        ),
        ("  - recon: {North: 4, South: 4}", "  - recon: {North: 4, North: 9}", "duplicate key 'North'"),
    ],
)
def test_durak_bad_fields(old, new, words, tmp_path):
    assert old in DB
    message = _refuse(DB.replace(old, new, 1), tmp_path)
    assert words in message and len(message.splitlines()) <= 2


def test_durak_three_armies_is_one_error_not_a_flood(tmp_path):
    extra = "  - name: East\n    tokens: 8\n    leader: {name: X, battle_die: d6, spirit_die: d6}\nrounds:"
    message = _refuse(DB.replace("rounds:", extra, 1), tmp_path)
    assert message.count("\n") == 0 and "armies must list two armies" in message


def test_not_utf8_and_huge_files(tmp_path):
    assert "bad.yaml:4: not UTF-8 text" in _refuse(FM.encode().replace(b"Dizzytwig v", b"Dizzytwig \xe9v", 1), tmp_path)
    huge = FM + "# " + "x" * (MAX_FILE_BYTES + 10) + "\n"
    assert "too big" in _refuse(huge, tmp_path)
    deep = "system: fairy-meat\nnotes: " + "[" * 5000 + "]" * 5000 + "\n"
    assert "nest" in _refuse(deep, tmp_path)


def test_a_long_file_is_read_to_its_first_left_over_move(tmp_path):
    """16,000 moves are read and the first one left over is named at its line. How the
    reading time grows with the moves is measured in bench/bench_readers.py, not here."""
    head = FM.split("expect:")[0]
    path = tmp_path / "long.yaml"
    path.write_text(head + "  - Dizzytwig: play 5C\n" * 16_000)
    with pytest.raises(NotationError, match=":27: the combat is over"):
        replay_file(path)


def test_cli_replay_prints_one_line_for_a_tag_error(tmp_path, capsys):
    path = tmp_path / "tag.yaml"
    path.write_text("system: fairy-meat\nattacker: !!int x\n")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and ":2: not valid YAML: !!int cannot read 'x'" in err


def test_excerpt_is_short_and_never_raises():
    assert len(excerpt("x" * 10**6)) < 80
    assert excerpt(10**5000) == "a whole number of 5001 digits"
    assert "items" in excerpt(list(range(1000)))


def test_valid_examples_still_replay():
    for path in sorted(EXAMPLES.glob("*.yaml")):
        text, problems = replay_file(path)
        assert text and problems == []


def test_load_yaml_reports_lines_and_keeps_data():
    doc = load_yaml("a: 1\nb:\n  - x\n  - {c: 2}\n")
    assert doc.data == {"a": 1, "b": ["x", {"c": 2}]}
    assert doc.lines.line("b", 1, "c") == 4


# -- control characters in names and titles (issue 20 item 8: they reached the terminal) ------
OSC_TITLE = r"\e]0;owned\a"  # YAML's double-quoted escapes: ESC ] 0 ; ... BEL sets a terminal's title


def _line_of(text: str, start: str) -> int:
    """The 1-based line of ``text`` that starts with ``start``."""
    return next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith(start))


@pytest.mark.parametrize("text", [FM, DB, AM], ids=["fm", "db", "am"])
def test_a_title_with_a_terminal_escape_is_refused_at_its_line(text, tmp_path):
    line = _line_of(text, "title:")
    title = text.splitlines()[line - 1]
    message = _refuse(text.replace(title, f'title: "Fight{OSC_TITLE}"'), tmp_path)
    assert message == (
        f"{tmp_path / 'bad.yaml'}:{line}: title holds 'Fight\\x1b]0;owned\\x07': control characters ('\\x1b') "
        "are not accepted (newlines and tabs only in notes)"
    )


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("  - name: North", '  - name: "North\\x9b31m"', "armies.0.name holds 'North\\x9b31m'"),  # C1 CSI
        ("    leader: {name: Voivode Dobrynya,", '    leader: {name: "D\\a",', "armies.0.leader.name holds 'D\\x07'"),
        ("  - name: North", '  - name: "North\\nSouth"', "armies.0.name holds 'North\\nSouth'"),  # one line only
        ("system: durak-battle", 'system: durak-battle\n"x\\ey": 1', "x\\x1by holds 'x\\x1by'"),  # a key
    ],
)
def test_a_name_with_a_control_character_is_refused_naming_its_field(old, new, field, tmp_path):
    assert old in DB
    bad = DB.replace(old, new, 1)
    line = _line_of(bad, new.splitlines()[-1])
    message = _refuse(bad, tmp_path)
    assert f"bad.yaml:{line}: {field}: control characters" in message
    assert "\x1b" not in message and "\x9b" not in message and "\x07" not in message  # written out, inert


def test_notes_may_hold_newlines_and_tabs_but_no_escape(tmp_path):
    notes = AM[AM.index("notes: >") : AM.index("attacker:")]
    path = tmp_path / "notes.yaml"
    path.write_text(AM.replace(notes, 'notes: "Two\\tcolumns\\nand lines"\n'))
    _, problems = replay_file(path)
    assert problems == []
    message = _refuse(AM.replace(notes, 'notes: "ring\\a"\n'), tmp_path)
    assert f":{_line_of(AM, 'notes:')}: notes holds 'ring\\x07': control characters ('\\x07') are not accepted" in (
        message
    )


def test_a_raw_escape_byte_is_refused_by_the_reader(tmp_path):
    message = _refuse(AM.replace("Grunk charges Pixie", "Grunk\x1b]0;owned\x07"), tmp_path)
    assert f":{_line_of(AM, 'title:')}: not valid YAML: a character is not allowed" in message
    assert "\x1b" not in message


def test_one_definition_of_control_characters_for_files_and_report_parameters():
    from toolkit.notation import control_character
    from toolkit.reports.parameters import ParameterSpec

    # C0 but tab and newline, DEL, C1 (U+0080..U+009F); tab and newline too in one-line texts
    found = [c for c in map(chr, range(0x200)) if control_character(c) is not None]
    assert found == [chr(c) for c in [*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]]
    assert control_character("\t", lines=False) == "\t" and control_character("é ü ✓") is None
    spec = ParameterSpec("name_a", "str", "'North'", "")
    for text in ("North\x1b]0;t\x07", "North\x9b31m"):
        assert spec.problem(text) == f"holds {excerpt(text)}: control characters are not accepted"
    assert spec.problem("North") is None
