"""``toolkit replay`` through the registry of systems (issue 9): every example file of
data/examples/ replays, whatever its system, with no code per system in replay.py."""

from __future__ import annotations

import re

import pytest

from toolkit import systems
from toolkit.cli import main
from toolkit.errors import NotationError
from toolkit.examples import EXAMPLES_DIR, example_files, system_of
from toolkit.notation import ExampleNotation
from toolkit.replay import SYSTEMS, replay_file


def test_every_system_is_registered_with_its_notation():
    assert SYSTEMS == ("fairy-meat", "durak-battle", "angry-miniatures")
    for entry in systems.systems():
        found = entry.example_notation()
        assert isinstance(found, ExampleNotation) and found.system == entry.name
        assert __import__(entry.package, fromlist=["NOTATION"])  # the package imports
        assert callable(found.plan)


def test_each_system_has_an_example_and_all_replay(capsys):
    files = example_files()
    assert {system_of(f) for f in files} == set(SYSTEMS)
    for path in files:
        _, problems = replay_file(path)
        assert problems == [], path
        notation = systems.notation(system_of(path))
        moves, states, error = notation.plan(notation.load(path))  # what a stepper's example mode walks
        assert error == "" and len(states) == len(moves) + 1 and states[-1].is_terminal
        assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Grunk charges Pixie" in out and "Dizzytwig v Sparklespaz" in out


def test_an_unknown_system_names_the_known_ones(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("system: chess\ntitle: x\n")
    with pytest.raises(NotationError, match="unknown system 'chess'; examples can be replayed for: fairy-meat, "):
        replay_file(path)
    with pytest.raises(NotationError, match="the systems are: fairy-meat, durak-battle, angry-miniatures"):
        systems.system("chess")


def test_replay_list_and_usage(capsys):
    assert main(["replay", "--list"]) == 0
    out = capsys.readouterr().out
    assert "angry-miniatures  (Angry Miniatures)" in out and str(EXAMPLES_DIR / "grunk_charges_pixie.yaml") in out
    assert main(["replay"]) == 2
    assert "give an example FILE" in capsys.readouterr().err
    assert main(["replay", "no/such.yaml"]) == 2


def test_unmet_expectations_exit_1(tmp_path, capsys):
    path = tmp_path / "wrong.yaml"
    path.write_text(
        (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text().replace("{Grunk: 1, Pixie: 0}", "{Grunk: 0}")
    )
    assert main(["replay", str(path)]) == 1
    assert "expectation not met: line 22: damage: Grunk has 1, the example expects 0" in capsys.readouterr().err


# -- rule-book export (issue 15 item 3; the exports themselves: tests/test_rulebook_export.py) --
def test_replay_format_html_and_markdown_print_the_rule_book_export(capsys):
    from toolkit.rulebook.export import to_html, to_markdown

    path = EXAMPLES_DIR / "grunk_charges_pixie.yaml"
    assert main(["replay", str(path), "--format", "html"]) == 0
    assert capsys.readouterr().out == to_html(path)
    assert main(["replay", str(path), "--format", "markdown"]) == 0
    assert capsys.readouterr().out == to_markdown(path)
    assert main(["replay", str(path), "--format", "text"]) == 0
    assert capsys.readouterr().out == replay_file(path)[0] + "\n"  # the default is unchanged


def test_replay_format_writes_a_file_and_still_checks_expectations(tmp_path, capsys):
    path = tmp_path / "wrong.yaml"
    path.write_text(
        (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text().replace("{Grunk: 1, Pixie: 0}", "{Grunk: 0}")
    )
    out = tmp_path / "out" / "wrong.html"
    assert main(["replay", str(path), "--format", "html", "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert f"wrote {out}" in captured.out
    assert "expectation not met: line 22: damage: Grunk has 1, the example expects 0" in captured.err
    page = out.read_text()
    assert 'class="rb-broken"' in page and "Grunk has 1, the example expects 0" in page


def test_replay_images_is_for_markdown_only(capsys, tmp_path):
    path = str(EXAMPLES_DIR / "grunk_charges_pixie.yaml")
    assert main(["replay", path, "--images", str(tmp_path)]) == 2
    assert "--images DIR is for --format markdown" in capsys.readouterr().err
    assert main(["replay", path, "--format", "pdf", "--images", str(tmp_path), "-o", str(tmp_path / "a.pdf")]) == 2
    assert "--images DIR is for --format markdown (html and pdf draw the pictures inline)" in capsys.readouterr().err
    assert main(["replay", path, "--format", "docx"]) == 2
    assert "invalid choice: 'docx'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_replay_markdown_images_without_output_link_the_folder_as_given(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = str(EXAMPLES_DIR / "durak_joker_initiative.yaml")
    assert main(["replay", path, "--format", "markdown", "--images", "pics"]) == 0
    text = capsys.readouterr().out
    assert "](pics/card-JK1.svg)" in text and (tmp_path / "pics" / "card-JK1.svg").is_file()


# -- an output that is an input, and what reaches the terminal (issue 20 items 6 and 8) ------
@pytest.mark.parametrize("fmt", ["html", "markdown", "pdf", "text"])
def test_replay_refuses_to_write_over_the_example_it_replays(tmp_path, capsys, fmt):
    path = tmp_path / "grunk.yaml"
    original = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text()
    path.write_text(original)
    (tmp_path / "link.yaml").symlink_to(path)
    for output in (path, tmp_path / "." / "grunk.yaml", tmp_path / "link.yaml"):
        assert main(["replay", str(path), "--format", fmt, "-o", str(output)]) == 2
        err = capsys.readouterr().err
        assert err == f"error: -o {str(output)!r} is the example: give another output file (it would be overwritten)\n"
    assert path.read_text() == original
    assert main(["replay", str(path), "--format", fmt, "-o", str(tmp_path / "out.txt")]) == 0  # another file: fine


def test_replay_refuses_to_write_over_the_house_rules_file_the_example_names(tmp_path, capsys):
    house = tmp_path / "house.yaml"
    house.write_text("system: angry-miniatures\nnotes: n\nzero_tie: miss\n")
    before = house.read_text()
    path = tmp_path / "grunk.yaml"
    grunk = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text()
    path.write_text(grunk.replace("attack: melee\n", "attack: melee\nrules: house.yaml\n"))
    for fmt in ("html", "pdf"):
        assert main(["replay", str(path), "--format", fmt, "-o", str(house)]) == 2
        assert "is the house-rules file the example names" in capsys.readouterr().err
    assert house.read_text() == before


def test_replay_prints_no_control_character_to_the_terminal(tmp_path, capsys, monkeypatch):
    # names are refused at load (tests/test_hostile_readers.py); this is the last guard on
    # printing: a text that held one anyway reaches the terminal written out, inert
    def hostile(_):
        return "Grunk\x1b]0;owned\x07 charges\x9b31m Pixie\n", ["bell\x07"]

    monkeypatch.setattr("toolkit.replay.replay_file", hostile)  # the command imports it when it runs
    assert main(["replay", str(EXAMPLES_DIR / "grunk_charges_pixie.yaml")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "Grunk\\x1b]0;owned\\x07 charges\\x9b31m Pixie\n"
    assert captured.err == "expectation not met: bell\\x07\n"


def test_replay_markdown_links_images_in_a_folder_with_a_space_and_parentheses(tmp_path, capsys):
    path = str(EXAMPLES_DIR / "durak_joker_initiative.yaml")
    out = tmp_path / "book" / "joker.md"
    pics = tmp_path / "book" / "my pics (2)"
    assert main(["replay", path, "--format", "markdown", "--images", str(pics), "-o", str(out)]) == 0
    text = out.read_text()
    assert "](my%20pics%20%282%29/card-JK1.svg)" in text and (pics / "card-JK1.svg").is_file()
    assert "](my pics" not in text  # a space or a parenthesis ends a Markdown link target


def test_replay_markdown_to_a_file_writes_its_images_beside_it_by_default(tmp_path, capsys):
    """A Markdown file must not rely on inline data: SVG (GitHub and nbconvert show only the
    alt text): with -o and no --images, the pictures go to OUT-images beside it."""
    out = tmp_path / "grunk.md"
    assert main(["replay", str(EXAMPLES_DIR / "grunk_charges_pixie.yaml"), "--format", "markdown", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "](data:" not in text and "![K](grunk-images/die-K.svg)" in text
    assert (tmp_path / "grunk-images" / "die-K.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "\n<!--\nThe example file's " in text  # the checklist is out of the printed body


_CODE = re.compile(r"(?<![\w&#])(?:10|[2-9JQKA])[SHDC](?!\w)|\bJK[12]\b")


def test_replay_prints_the_log_the_steppers_log_txt_holds_cards_as_symbols(capsys):
    # Every plain-text log a designer reads writes a card as K♠ / Joker 1 (never KS, JK1),
    # and `toolkit replay FILE` prints the very log a stepper that played the file offers as log.txt.
    shown_cards = 0
    for path in example_files():
        if system_of(path) not in ("fairy-meat", "durak-battle"):  # the card systems (FM-1, DB-1)
            continue
        st = systems.system(system_of(path)).hook("stepper")(example=path)
        st.play_all()
        log = st.stepper.log_text
        assert st.stepper.export_log() == log and log
        assert main(["replay", str(path)]) == 0
        printed = capsys.readouterr().out
        assert log in printed, path
        assert not _CODE.search(printed), (path, _CODE.search(printed))
        shown_cards += len(re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]|Joker [12]", printed))
    assert shown_cards > 20  # the card examples do print cards


def test_the_code_pattern_of_that_test_finds_codes():
    assert [m.group(0) for m in _CODE.finditer("draws KS 10H JK1; rolls K Q 10 (AM-1); Kill 4")] == ["KS", "10H", "JK1"]
