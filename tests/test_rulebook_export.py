"""Rule-book export (issue 15 item 3): an example replayed and written as HTML or Markdown
with its cards and poker dice drawn.

The exports of three known examples are compared with stored files,
``tests/fixtures/rulebook/*.html`` and ``*.md``, checked by eye (the HTML rendered in
Chromium; re-record them, only for a deliberate change, with
``python tests/test_rulebook_export.py --record`` and look at them again). The other
tests take their expected values from the example files themselves, written by hand:
the cards dealt and dice rolled, in order, the narration ``toolkit replay`` prints.
"""

from __future__ import annotations

import base64
import re
import sys
from html import unescape
from pathlib import Path

import pytest

from toolkit.angry_miniatures.rules import Rules as MiniaturesRules
from toolkit.cards import card_text
from toolkit.cli import main
from toolkit.errors import InvalidSetupError, NotationError
from toolkit.examples import EXAMPLES_DIR
from toolkit.pictures import codes_text
from toolkit.replay import replay_example, replay_file
from toolkit.rulebook.export import export, state_to_html, state_to_markdown, to_html, to_markdown
from toolkit.rulebook.export_markdown import md_escape
from toolkit.rulebook.export_model import from_source, split_pictures, system_of_state
from toolkit.rulebook.svg import BLACK, JOKER, RED, Picture

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulebook"
KNOWN = ("dizzytwig_v_sparklespaz", "grunk_charges_pixie", "durak_joker_initiative")
#: The Markdown fixtures link their pictures as files in this folder (readable fixtures).
IMAGES_LINK = "images"

#: Every card and die of each known example, in the order the narration shows them first,
#: read off the example files by hand (the deck, the rolls, the cards of each round).
CARDS = {
    # deck: KS QC 5C 4C 3D | 2D KC | AS JH 3H (turned up in the second attack)
    "dizzytwig_v_sparklespaz": ["KS", "QC", "5C", "4C", "3D", "2D", "KC", "AS", "JH", "3H"],
    # round 1: JK1 5S 7H | JK2 9S 4D; round 2: JK2 3H 6D 10C | JK1 2H
    "durak_joker_initiative": ["JK1", "5S", "7H", "JK2", "9S", "4D", "3H", "6D", "10C", "2H"],
}
#: Grunk's roll, Pixie's, then the two SuperTieBreaker throws (Grunk's face first).
DICE = ["K", "Q", "10", "9", "9", "K", "Q", "A", "A", "9", "K"]

#: The faces that hit under the default Angry Miniatures rules (AM-1): J, Q, K, A.
DRAFT_HITS = MiniaturesRules().hit_faces


def _path(name: str) -> Path:
    return EXAMPLES_DIR / f"{name}.yaml"


def _markdown(name: str, folder: Path) -> str:
    return to_markdown(_path(name), images=folder / IMAGES_LINK, images_link=IMAGES_LINK)


def _visible_text(page: str) -> str:
    """The page's text with the pictures' codes (the hidden ``rb-alt`` spans) kept and
    each picture's own markup dropped."""
    body = page[page.index("<body>") :]
    body = re.sub(r"<svg\b.*?</svg>", "", body, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", "", body))


# -- the stored exports, checked by eye ------------------------------------------------------
@pytest.mark.parametrize("name", KNOWN)
def test_html_export_is_the_stored_one(name):
    assert to_html(_path(name)) == (FIXTURES / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", KNOWN)
def test_markdown_export_is_the_stored_one(name, tmp_path):
    text = _markdown(name, tmp_path)
    assert text == (FIXTURES / f"{name}.md").read_text(encoding="utf-8")
    # every picture linked was written, as the picture it names
    drawn = {p.file_name: p for p in from_source(_path(name)).pictures}
    for link in re.findall(r"\]\((images/[^)]+)\)", text):
        path = tmp_path / link
        kind, code = path.stem.split("-", 1)
        assert (drawn[path.name].kind, drawn[path.name].code) == (kind, code)
        assert path.read_text(encoding="utf-8") == drawn[path.name].svg() + "\n"


#: Grunk's charge with the shipped house rule that 10s hit (AM-1 hit_faces): by hand, Grunk's
#: K Q 10 is 3 hits against Pixie's K Q, 2: Pixie takes 1 damage, no SuperTieBreaker.
TENS_HIT = """system: angry-miniatures
title: Grunk charges Pixie, tens hitting
notes: Tens hit.
rules: tens_hit
attacker: {name: Grunk, melee: 4, body: 3, health: 5}
defender: {name: Pixie, body: 2, health: 3}
attack: melee
modifiers: {charge: true}
rolls:
  - Grunk: K Q 10 9 9
  - Pixie: K Q
expect:
  hits: {Grunk: 3, Pixie: 2}
  damage: {Grunk: 0, Pixie: 1}
"""


def test_dice_are_red_when_they_hit_under_the_examples_house_rules(tmp_path):
    page = to_html(TENS_HIT)
    inks = {
        code: _fills(svg)
        for svg, code in re.findall(r'(<svg [^>]*class="rb-die"[^>]*data-code="([^"]+)".*?</svg>)', page, re.S)
    }
    assert inks == {"K": {RED}, "Q": {RED}, "10": {RED}, "9": {BLACK}}  # tens_hit: 10 J Q K A hit
    text = to_markdown(TENS_HIT, images=tmp_path / IMAGES_LINK, images_link=IMAGES_LINK)
    files = sorted(p.name for p in (tmp_path / IMAGES_LINK).iterdir() if p.name.startswith("die-"))
    assert files == ["die-10-hit.svg", "die-9.svg", "die-K.svg", "die-Q.svg"]  # a draft blank that hits here
    assert "die-10-hit.svg" in text and _fills((tmp_path / IMAGES_LINK / "die-10-hit.svg").read_text()) == {RED}
    a_only = Picture.die("J", hits=("A",), usual=DRAFT_HITS)
    assert _fills(a_only.svg()) == {BLACK} and a_only.file_name == "die-J-miss.svg"


# -- every card and die is drawn, in order ---------------------------------------------------
@pytest.mark.parametrize("name", sorted(CARDS))
def test_every_card_of_the_example_is_drawn(name):
    page = to_html(_path(name))
    drawn = re.findall(r'<svg [^>]*class="rb-card"[^>]*data-code="([^"]+)"', page)
    first_seen = list(dict.fromkeys(c for c in drawn if c != "JK"))
    assert first_seen == CARDS[name]
    markdown = to_markdown(_path(name))
    labels = re.findall(r"!\[([^\]]*)\]\(data:image/svg\+xml;base64,", markdown)
    assert len(labels) == len(drawn)  # the same pictures, inline in the Markdown
    # the Markdown's text of each picture is the HTML's hidden text: the card as a log writes it
    hidden = [unescape(t) for t in re.findall(r'<span class="rb-alt">([^<]*)</span>', page)]
    assert [label for label in labels if label] == hidden and len(hidden) > 10
    assert set(hidden) <= {card_text(c) for c in CARDS[name]} | {"Joker"}


def test_every_die_is_drawn_in_the_order_rolled():
    page = to_html(_path("grunk_charges_pixie"))
    assert re.findall(r'<svg [^>]*class="rb-die"[^>]*data-code="([^"]+)"', page) == DICE
    assert re.findall(r'class="rb-card"', page) == []


def test_an_unnumbered_joker_in_words_is_drawn_as_a_joker():
    # round 2: "South attacks with the Joker (DB-1)." names no joker by code
    events = replay_example(_path("durak_joker_initiative")).state.events
    (event,) = [e for e in events if e.text == "South attacks with the Joker (DB-1)."]
    line = [p for p in split_pictures(event) if not isinstance(p, str)]
    assert [(p.kind, p.code) for p in line] == [("card", "JK")] and line[0].label == "Joker"
    assert 'data-code="JK"' in to_html(_path("durak_joker_initiative"))


# -- the text is the engine's narration, with its numbers --------------------------------------
@pytest.mark.parametrize("name", KNOWN)
def test_every_line_of_the_narration_is_printed(name):
    narrated, problems = replay_file(_path(name))
    assert problems == []
    text = _visible_text(to_html(_path(name)))
    log = narrated.split("\n")
    for line in log[2:]:  # the title and its underline are the heading
        # cards are printed as a designer reads them (K♠ for the code KS), as everywhere
        assert " ".join(codes_text(line).split()) in " ".join(text.split()), line


def test_the_arithmetic_of_a_known_example_is_printed_exactly():
    text = " ".join(_visible_text(to_html(_path("dizzytwig_v_sparklespaz"))).split())
    # hand arithmetic from the Fairy Meat draft's worked example (FM-8, FM-9, FM-10)
    assert "Final values: Dizzytwig 2, Sparklespaz 3." in text
    assert "Sparklespaz wins by 1: half of 1, rounded up, is 1 point (FM-10)." in text
    assert "Final values: Dizzytwig 3, Sparklespaz 6." in text
    assert "Dizzytwig wins by 3: half of 3, rounded up, is 2 points (FM-10)." in text
    assert "Sparklespaz takes 2 damage" in text


def test_setup_play_and_outcome_are_cut_where_the_game_starts():
    example = from_source(_path("durak_joker_initiative"))
    assert [line.kind for line in example.setup] == ["start", "recon", "recon", "deal", "deal"]
    assert example.play[0].text.startswith("South holds the highest attack card (Joker")
    assert [line.text for line in example.play if line.is_heading] == ["Round 2."]
    assert example.outcome == "After round 2: North 3 tokens, South 0; South destroyed; North holds the field."
    page = to_html(_path("durak_joker_initiative"))
    assert '<ol start="14">' in page  # the numbering goes on after "Round 2." (13 steps in round 1)


# -- expectations -------------------------------------------------------------------------
def test_expectations_are_listed_each_with_whether_it_holds(tmp_path):
    example = from_source(_path("grunk_charges_pixie"))
    assert [e.text for e in example.expectations] == [
        "hits: Grunk 2, Pixie 2",
        "damage: Grunk 1, Pixie 0",
        "crits: none",
        "out: none",
    ]
    assert example.holds
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        _path("grunk_charges_pixie").read_text().replace("damage: {Grunk: 1, Pixie: 0}", "damage: {Grunk: 0, Pixie: 1}")
    )
    example = from_source(broken)
    assert [e.holds for e in example.expectations] == [True, False, True, True]
    assert "Grunk has 1, the example expects 0" in example.expectations[1].problems[0]
    page = to_html(broken)
    assert "1 of " in page and "NOT met" in page and 'class="rb-broken"' in page
    assert "✗ damage: Grunk 0, Pixie 1 — " in to_markdown(broken)


def test_each_list_expectation_is_checked_alone(tmp_path):
    text = _path("dizzytwig_v_sparklespaz").read_text()
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("winner: attacker, points: 2", "winner: attacker, points: 3"))
    example = from_source(broken)
    assert [e.holds for e in example.expectations] == [True, False]
    assert example.expectations[1].text.startswith("attack 2: attacker value 3; defender value 6")


# -- escaping and self-containment ------------------------------------------------------------
EVIL, ODD = "<script>evil()</script>", "Bo*b*_[x]"
HOSTILE = f"""system: fairy-meat
title: <script>alert(1)</script> & *co*
notes: "<img src=x onerror=alert(2)> [link](http://example.com) _x_"
wrestling: true
attacker: {{name: "{EVIL}", live: 5, kill: 1}}
defender: {{name: "{ODD}", live: 5, kill: 1}}
deck: 9H 3C  2H
moves:
  - "{EVIL}": declare add
  - "{ODD}": declare add
  - "{EVIL}": trumps none
  - "{ODD}": trumps none
  - "{EVIL}": play 9H
  - "{ODD}": play 2H
  - "{EVIL}": escape
expect:
  - {{attack: 1, attacker_value: 9, defender_value: 2, winner: attacker, points: 4, damage: 0}}
"""


def test_names_are_escaped_in_html_and_markdown():
    page = to_html(HOSTILE)
    assert page.count("&lt;script&gt;evil()&lt;/script&gt;") >= 10  # every line that names her
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;evil()&lt;/script&gt;" in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; *co*" in page
    markdown = to_markdown(HOSTILE)
    assert "<script" not in markdown.lower() and "<img" not in markdown.lower()
    assert "&lt;script&gt;evil()&lt;/script&gt;" in markdown
    assert "Bo\\*b\\*\\_\\[x\\]" in markdown and "\\[link\\](http://example.com)" in markdown


def test_markdown_escapes_what_would_be_markup():
    assert md_escape("1. *a* _b_ `c` <d> & e") == "1\\. \\*a\\* \\_b\\_ \\`c\\` &lt;d&gt; &amp; e"
    assert md_escape("- not a list") == "\\- not a list"
    assert md_escape("a - b") == "a - b"


@pytest.mark.parametrize("name", KNOWN)
def test_the_html_page_is_self_contained_and_prints(name):
    page = to_html(_path(name))
    lowered = page.lower()
    for fetch in ("<script", "<link", "<img", "src=", "url(", "@import", "https://"):
        assert fetch not in lowered, fetch
    assert set(re.findall(r"http://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}  # the SVG namespace only
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "@media print" in page and "print-color-adjust:exact" in page
    assert page.count('<article class="rb-example"') == 1


def test_markdown_inline_pictures_are_the_svg_pictures():
    text = to_markdown(_path("grunk_charges_pixie"))
    uris = re.findall(r"!\[([^\]]+)\]\(data:image/svg\+xml;base64,([^)]+)\)", text)
    assert [face for face, _ in uris] == DICE
    for face, data in uris:
        assert base64.b64decode(data).decode("utf-8") == Picture.die(face, DRAFT_HITS).svg()


# -- the pictures -----------------------------------------------------------------------------
def _fills(svg: str) -> set[str]:
    return set(re.findall(r'fill="(#[0-9a-f]{6})"', svg)) - {"#ffffff", "#fffdf5"}


@pytest.mark.parametrize(
    ("code", "ink"),
    [("AH", RED), ("10D", RED), ("2S", BLACK), ("QC", BLACK), ("JK1", JOKER), ("JK", JOKER)],
)
def test_cards_are_drawn_in_their_suit_colour(code, ink):
    # FM-1, DB-1: hearts and diamonds red, spades and clubs black; jokers their own colour
    assert _fills(Picture.card(code).svg()) == {ink}


@pytest.mark.parametrize(("face", "ink"), [("9", BLACK), ("10", BLACK), ("J", RED), ("Q", RED), ("K", RED), ("A", RED)])
def test_poker_dice_show_their_face_hits_in_red(face, ink):
    svg = Picture.die(face, DRAFT_HITS).svg()
    assert f">{face}</text>" in svg and _fills(svg) == {ink}  # J Q K A hit (AM-1)


def test_a_picture_of_something_else_is_refused():
    with pytest.raises(NotationError, match="not a card"):
        Picture.card("1Z")
    with pytest.raises(NotationError, match="not a poker-die face"):
        Picture.die("8", DRAFT_HITS)


# -- the API the finder and the steppers use ---------------------------------------------------
def test_yaml_text_exports_as_its_file_does():
    path = _path("grunk_charges_pixie")
    assert to_html(path.read_text()) == to_html(path)
    assert to_markdown(path.read_text()) == to_markdown(path)
    assert to_html(path, fragment=True).startswith('<div class="rb-export"><style>')


def test_a_bad_format_or_a_bad_example_is_refused():
    with pytest.raises(InvalidSetupError, match="html, markdown, pdf"):
        export(_path("grunk_charges_pixie"), "docx")
    with pytest.raises(NotationError, match="is not a file"):
        to_html("no/such/example.yaml")
    with pytest.raises(NotationError, match="unknown system"):
        to_html("system: chess\ntitle: x\n")


def test_a_steppers_game_so_far_exports_from_its_state():
    from toolkit.angry_miniatures import start_attack_from_pools

    state = start_attack_from_pools(3, 2, "melee")
    state = state.apply_all(state.parse_actions("A K 9")).apply_all(state.parse_actions("Q 10"))
    assert system_of_state(state) == "angry-miniatures"
    page = state_to_html(state, "Three dice against two")
    assert re.findall(r'class="rb-die"[^>]*data-code="([^"]+)"', page) == ["A", "K", "9", "Q", "10"]
    assert "Attacker deals 1 damage to Defender." in page
    half = state_to_markdown(state, "So far", events=state.events[:2])
    assert "The example stops here." in half and "Defender rolls" not in half and "resolved" not in half
    opening = state_to_html(state, "Not yet", events=state.events[:1])
    assert ">Setup</h2>" in opening and ">Play</h2>" not in opening  # nothing played: no empty Play


def test_a_state_of_no_registered_system_is_refused():
    from toolkit.engine import GameState

    class Coin(GameState):
        current_player = "terminal"
        events = ()

        def _apply(self, action):
            return self

    with pytest.raises(InvalidSetupError, match="not a state of a registered system"):
        state_to_html(Coin(), "x")


def test_the_steppers_export_the_rule_book_formats():
    from toolkit.angry_miniatures.widgets import attack_stepper
    from toolkit.fairy_meat.widgets import combat_stepper

    fm = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")
    fm.play_all()
    yaml_text = fm.export()
    fm.export_format.value = "html"  # re-exports at once
    assert fm.export_box.value == to_html(yaml_text)
    assert 'download="dizzytwig-v-sparklespaz.html"' in fm.export_view.link.value
    assert 'class="rb-example"' in fm.export_view.preview.value  # the page itself, previewed
    fm.export_format.value = "markdown"
    # the Markdown links its pictures as files beside it (a .zip), never as inline data: URIs
    assert "![K♠](images/card-KS.svg)" in fm.export_box.value and "](data:" not in fm.export_box.value
    link = fm.export_view.link.value
    assert 'download="dizzytwig-v-sparklespaz.zip"' in link and "data:application/zip;base64," in link
    fm.export_format.value = "yaml"
    assert fm.export_box.value == yaml_text
    assert fm.export_format.label == "Example file (YAML)"  # the Format dropdown is never blank

    am = attack_stepper(seed=3)
    am.stepper.type_outcome("K Q 10")
    plain = am.stepper.log_copy.value
    assert am.stepper.log_format.label == "Plain text" and 'download="log.txt"' in am.stepper.export_view.link.value
    am.stepper.log_format.value = "html"
    assert am.stepper.log_copy.value.startswith("<!DOCTYPE html>") and 'data-code="Q"' in am.stepper.log_copy.value
    am.stepper.log_format.value = "text"
    assert am.stepper.log_copy.value == plain


# -- the command line (more in tests/test_cli_replay.py) -------------------------------------------
def test_cli_writes_markdown_with_picture_files_next_to_it(tmp_path, capsys):
    out = tmp_path / "book" / "grunk.md"
    assert main(["replay", str(_path("grunk_charges_pixie")), "--format", "markdown", "-o", str(out), "--images",
                 str(tmp_path / "book" / "pics")]) == 0  # fmt: skip
    text = out.read_text()
    links = re.findall(r"\]\(([^)]+\.svg)\)", text)
    assert links and all(link.startswith("pics/") and (out.parent / link).is_file() for link in links)
    assert f"wrote {out}" in capsys.readouterr().out


# -- re-recording ---------------------------------------------------------------------------------
def record() -> None:
    """Write the fixtures from the current code (look at them again before committing)."""
    import tempfile

    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name in KNOWN:
        (FIXTURES / f"{name}.html").write_text(to_html(_path(name)), encoding="utf-8")
        with tempfile.TemporaryDirectory() as folder:
            (FIXTURES / f"{name}.md").write_text(_markdown(name, Path(folder)), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
    else:
        print(__doc__)
