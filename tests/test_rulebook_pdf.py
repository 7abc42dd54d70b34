"""Rule-book export as a print-ready PDF: the text is text (read back with pypdf, a
reader independent of the writer), the cards and dice are drawn, a hostile title is
printed as words, and ``toolkit replay --format pdf`` writes the file like the other
formats (never over a designer's file).

Expected values come from the example files, read by hand (the cards dealt and dice
rolled, their count), and from the narration ``toolkit replay`` prints.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections import Counter

import pytest
from pypdf import PdfReader

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.examples import EXAMPLES_DIR
from toolkit.pictures import Picture
from toolkit.replay import replay_file
from toolkit.rulebook.download import example_download, examples_download, state_download
from toolkit.rulebook.export import export, to_pdf
from toolkit.rulebook.export_model import from_source
from toolkit.rulebook.export_pdf import render_pdf

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))
#: A marked-content sequence of a page (a figure of the structure tree: a picture's drawing).
_MARKED = re.compile(rb"/P <</MCID \d+>> BDC(.*?)EMC", re.S)


def _read(data: bytes) -> PdfReader:
    assert data.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(data))


def _text(reader: PdfReader) -> str:
    """Every page's text, its white space (line breaks where a line wrapped) as single spaces."""
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def _figures(reader: PdfReader) -> list[tuple[int, str]]:
    """Every figure of the PDF's structure tree: (page index, its alternative text)."""
    pages = {page.indirect_reference.idnum: k for k, page in enumerate(reader.pages)}
    document = reader.trailer["/Root"]["/StructTreeRoot"]["/K"][0].get_object()
    out = []
    for kid in document["/K"]:
        element = kid.get_object()
        if element["/S"] == "/Figure":
            out.append((pages[element.raw_get("/Pg").idnum], str(element["/Alt"])))
    return out


# -- the text ----------------------------------------------------------------------------
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_line_of_the_narration_is_text_in_the_pdf(path):
    example = from_source(path)
    text = _text(_read(render_pdf(example)))
    # the narration toolkit replay prints (not the export model): every run of words between pictures
    printed, _ = replay_file(path)
    assert example.title in text and example.outcome in text
    assert " ".join(example.notes.split()) in text
    for line in example.lines:
        for part in line.parts:
            if isinstance(part, str) and part.strip():
                words = " ".join(part.split())
                assert words in text, (line.text, words)
                assert words in " ".join(printed.split()) or "(" in words  # the same words replay prints
    for heading in ("EXAMPLE ·", "SETUP", "OUTCOME"):
        assert heading in text


def test_the_cards_of_an_example_are_searchable_by_their_names():
    # durak_joker_initiative.yaml deals North JK1 5S 7H and South JK2 9S 4D (read off the file)
    text = _text(_read(to_pdf(EXAMPLES_DIR / "durak_joker_initiative.yaml")))
    assert "Joker 1" in text and "Joker 2" in text
    for name in ("5♠", "7♥", "9♠", "4♦"):
        assert name in text
    # a line copies as it reads: each card's words once, the letters drawn on the cards not again
    assert "North draws 3 cards: Joker 1 5♠ 7♥ . (DB-2)" in text and "JOKER" not in text
    # a card named by the words before it keeps those words: "the 9 of Spades"
    assert "the 9 of Spades" in text


def test_the_poker_dice_faces_are_text():
    # grunk_charges_pixie.yaml: Grunk rolls K Q 10 9 9, Pixie K Q; SuperTieBreaker A/A then 9/K
    text = _text(_read(to_pdf(EXAMPLES_DIR / "grunk_charges_pixie.yaml")))
    faces = re.search(r"melee attack: (.*?) — 2 hits", text)
    assert faces is not None and faces[1].split() == ["K", "Q", "10", "9", "9"]
    assert "Grunk charges Pixie" in text and "SuperTieBreaker: Grunk rolls" in text


# -- the pictures ---------------------------------------------------------------------------
def test_every_die_of_an_example_is_drawn_as_a_figure_of_paths():
    # by hand from grunk_charges_pixie.yaml: 5 attack dice + 2 defence dice + 2 x 2 SuperTieBreaker dice
    reader = _read(to_pdf(EXAMPLES_DIR / "grunk_charges_pixie.yaml"))
    figures = _figures(reader)
    assert len(figures) == 5 + 2 + 4
    assert Counter(alt for _, alt in figures)["Poker die: K"] == 3
    for k, page in enumerate(reader.pages):
        content = page.get_contents().get_data()
        drawn = _MARKED.findall(content)
        assert len(drawn) == sum(p == k for p, _ in figures)
        for body in drawn:  # each picture: its frame and face filled as paths, its letters too (no text)
            assert re.search(rb"\s[fB]\s", body) and b"Tj" not in body


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_picture_of_every_example_is_drawn_on_its_page(path):
    example = from_source(path)
    reader = _read(render_pdf(example))
    expected = [p.label for line in example.lines for p in line.parts if isinstance(p, Picture)]
    figures = _figures(reader)
    assert [alt for _, alt in figures] == expected
    per_page = Counter(page for page, _ in figures)
    for k, page in enumerate(reader.pages):
        assert len(_MARKED.findall(page.get_contents().get_data())) == per_page[k]


def test_a_long_example_runs_over_pages_in_order():
    # a stepper's game of many rounds: the text goes on, in order, on the next page
    example = from_source(EXAMPLES_DIR / "durak_counterattack_chain.yaml")
    long = dataclasses.replace(example, play=example.play * 4)
    reader = _read(render_pdf(long))
    assert len(reader.pages) > len(_read(render_pdf(example)).pages)
    text = _text(reader)
    assert text.index("SETUP") < text.index("PLAY") < text.rindex("OUTCOME")
    assert text.rindex(" ".join(example.outcome.split())) > text.rindex("OUTCOME")
    pages = len(reader.pages)
    for k, page in enumerate(reader.pages, 1):  # loose pages stay in order
        assert page.extract_text().rstrip().endswith(f"A counterattack chain at the ford — page {k} of {pages}")
    assert (
        not _read(to_pdf(EXAMPLES_DIR / "grunk_charges_pixie.yaml")).pages[0].extract_text().rstrip().endswith("of 1")
    )
    for page in reader.pages[1:]:  # a step is never split across pages: each page starts with one
        assert re.match(r"(\d+\. |Round \d+\.|PLAY|OUTCOME)", page.extract_text()), page.extract_text()[:80]


# -- a hostile title ----------------------------------------------------------------------
def test_a_hostile_title_is_printed_as_words_not_read():
    example = from_source(EXAMPLES_DIR / "grunk_charges_pixie.yaml")
    markup = "<b>Bo</b> & <script>alert(1)</script> **not bold** \\(x\\) ) Tj ("
    long = "Sparklespaz" * 40  # one word wider than the page
    title = f"{markup}\x07\x1b[31m red\x00 {long}"
    reader = _read(render_pdf(dataclasses.replace(example, title=title, notes="<i>n</i>\x1b")))
    text = _text(reader)
    assert markup in text and "<i>n</i>\ufffd" in text
    assert "\ufffd\ufffd[31m red\ufffd" in text  # control characters shown, none obeyed
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text)
    assert long not in text and long in "".join(text.split())  # broken across lines at characters, all kept
    assert reader.metadata.title == f"{markup}\ufffd\ufffd[31m red\ufffd {long} — a rule-book example"
    # still the example: the narration follows the title
    assert "Grunk makes a melee attack on Pixie" in text
    width = float(reader.pages[0].mediabox.width)
    seen: list[float] = []  # where each run of text starts, on any page
    for page in reader.pages:
        page.extract_text(visitor_text=lambda t, cm, tm, *_: seen.append(tm[4] * cm[0] + cm[4]) if t.strip() else None)
    assert seen and all(0 <= x < width for x in seen)


# -- the command, the downloads -------------------------------------------------------------
def test_replay_format_pdf_writes_the_file(tmp_path, capsys):
    out = tmp_path / "print" / "grunk.pdf"
    assert main(["replay", str(EXAMPLES_DIR / "grunk_charges_pixie.yaml"), "--format", "pdf", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (f"wrote {out}\n", "")  # nothing of the PDF library's on the terminal
    assert "Grunk charges Pixie" in _text(_read(out.read_bytes()))


def test_replay_format_pdf_needs_an_output_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(EXAMPLES_DIR / "grunk_charges_pixie.yaml"), "--format", "pdf"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --format pdf writes a file: give -o OUT.pdf (a PDF is not printed to the terminal)\n"
    assert list(tmp_path.iterdir()) == []


def test_replay_format_pdf_still_checks_the_expectations(tmp_path, capsys):
    path = tmp_path / "grunk.yaml"
    text = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text()
    path.write_text(text.replace("Grunk: 1", "Grunk: 0"))
    assert main(["replay", str(path), "--format", "pdf", "-o", str(tmp_path / "g.pdf")]) == 1
    assert "expectation not met" in capsys.readouterr().err
    assert "NOT met" in _read((tmp_path / "g.pdf").read_bytes()).metadata.subject


def test_the_download_is_a_pdf_previewed_as_the_page():
    text = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text()
    d = example_download(text, "pdf")
    assert (d.file_name, d.mime, d.source) == ("grunk-charges-pixie.pdf", "application/pdf", "")
    assert "Grunk charges Pixie" in _text(_read(d.data)) and 'class="rb-example"' in d.preview
    # several chosen examples: one PDF to print, each example from a new page, every picture drawn
    durak = (EXAMPLES_DIR / "durak_joker_initiative.yaml").read_text()
    both = examples_download([text, durak], "pdf", "Examples to print")
    assert (both.file_name, both.mime) == ("examples-to-print.pdf", "application/pdf")
    reader = _read(both.data)
    alone = [len(_read(example_download(t, "pdf").data).pages) for t in (text, durak)]
    assert len(reader.pages) == sum(alone) and reader.metadata.title == "Examples to print"
    assert reader.pages[0].extract_text().startswith("EXAMPLE · ANGRY MINIATURES\nGrunk charges Pixie")
    assert reader.pages[alone[0]].extract_text().startswith("EXAMPLE · DURAK MASS BATTLE\nJoker against joker")
    assert len(_figures(reader)) == 11 + len(_figures(_read(example_download(durak, "pdf").data)))
    assert both.preview.count('class="rb-example"') == 2
    with pytest.raises(InvalidSetupError, match="html, pdf, markdown, yaml"):
        example_download(text, "docx")
    data, example = export(EXAMPLES_DIR / "grunk_charges_pixie.yaml", "pdf")
    assert isinstance(data, bytes) and example.holds


def test_a_steppers_game_so_far_downloads_as_pdf():
    from toolkit.angry_miniatures import start_attack_from_pools
    from toolkit.widgets import Stepper

    state = start_attack_from_pools(3, 2, "melee")
    state = state.apply_all(state.parse_actions("A K 9")).apply_all(state.parse_actions("Q 10"))
    d = state_download(state, "Three against two", "pdf")
    text = _text(_read(d.data))
    assert d.file_name == "three-against-two.pdf" and "Three against two" in text
    assert [alt for _, alt in _figures(_read(d.data))] == [f"Poker die: {f}" for f in ("A", "K", "9", "Q", "10")]
    stepper = Stepper(state)
    assert stepper.export_download("pdf").data.startswith(b"%PDF-")
    with pytest.raises(InvalidSetupError, match="a PDF is not text"):
        stepper.export_log("pdf")
