"""Rule-book exports (issue 15 item 3) opened in Chromium: the HTML page of each known
example draws every card and die, asks the network for nothing, logs no console error
(a Content-Security-Policy violation would be one), keeps a hostile name as text, and
prints as a box without the designer's checks; the Markdown export's inline pictures
decode as images."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolkit.examples import EXAMPLES_DIR
from toolkit.rulebook.export import to_html, to_markdown

from .browser_session import ConsoleLog

#: example -> (cards drawn, dice drawn), counted by hand from the example files: every
#: card in a hand, turned up or named in a line, every die of each roll and throw.
EXAMPLES = {
    # attack 1: 5 + 2 dealt, Trumps 2 + 1, Numbered cards revealed 1 + 1 and played 1 + 1,
    # cheating KS QC v 3D and KC v 2D; attack 2: 5C revealed, AS JH 3H turned up, 5C and
    # 3H + JH played, cheating AS v 3H, the Nasty Hit's AS
    "dizzytwig_v_sparklespaz": (5 + 2 + 2 + 1 + 1 + 1 + 1 + 1 + 3 + 2 + 1 + 3 + 1 + 2 + 2 + 1, 0),
    # rolls: 5 + 2, SuperTieBreaker throws: 2 + 2
    "grunk_charges_pixie": (0, 11),
    # round 1: 3 + 3 dealt, joker + 9S (initiative), 9S, joker, 5S, joker, 7H;
    # round 2: 4 + 2 dealt, joker, joker
    "durak_joker_initiative": (6 + 2 + 1 + 1 + 1 + 1 + 1 + 6 + 1 + 1, 0),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """The known examples' HTML exports, written once for the module."""
    folder = tmp_path_factory.mktemp("rulebook")
    for name in EXAMPLES:
        (folder / f"{name}.html").write_text(to_html(EXAMPLES_DIR / f"{name}.yaml"), encoding="utf-8")
    return folder


def _open(chromium, url: str):
    """A new page on ``url`` (no network: every request but the page itself is recorded
    and refused), its console log and the requests refused."""
    context = chromium.new_context(viewport={"width": 1000, "height": 900})
    requests: list[str] = []

    def route(r):
        if r.request.url == url:
            r.continue_()
        else:
            requests.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    console = ConsoleLog(label=url.rsplit("/", 1)[-1])
    console.watch(page)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_load_state("load")
    return context, page, console, requests, dialogs


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_exported_page_draws_every_card_and_die(chromium, exported, name):
    context, page, console, requests, _ = _open(chromium, (exported / f"{name}.html").as_uri())
    try:
        cards, dice = EXAMPLES[name]
        for selector, count in (("svg.rb-card", cards), ("svg.rb-die", dice)):
            boxes = [box for box in (el.bounding_box() for el in page.locator(selector).all())]
            assert len(boxes) == count, selector
            assert all(b is not None and b["width"] > 5 and b["height"] > 10 for b in boxes)
        # the pictures are drawn from paths and text in their suit colours, not blank boxes
        if cards:
            fills = page.locator("svg.rb-card path").evaluate_all("els => els.map(e => getComputedStyle(e).fill)")
            assert set(fills) <= {"rgb(201, 42, 42)", "rgb(33, 37, 41)", "rgb(103, 65, 217)"} and len(fills) > cards
        box = page.locator("article.rb-example")
        assert box.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
        title = page.locator("article.rb-example .rb-title").inner_text()
        assert title and title in page.title()
        assert "all" in page.locator("aside.rb-checks").inner_text() and "hold" in page.locator("aside").inner_text()
        assert requests == [] and console.errors == []
    finally:
        context.close()


def test_the_page_reads_as_the_narration(chromium, exported):
    context, page, console, _, _ = _open(chromium, (exported / "dizzytwig_v_sparklespaz.html").as_uri())
    try:
        text = " ".join(page.locator("article").inner_text().split())
        for line in (
            "Dizzytwig draws 5 cards:",
            "Final values: Dizzytwig 2, Sparklespaz 3.",
            "Sparklespaz turns up the Ace of Spades",
            "Dizzytwig wins by 3: half of 3, rounded up, is 2 points (FM-10).",
            "After the combat: Dizzytwig has 3 Live, Sparklespaz 0 Live; damage dealt 2; Nasty Hits: Sparklespaz.",
        ):
            assert line in text, line
        # the codes kept for copying are not shown
        hidden = page.locator(".rb-alt").first.bounding_box()
        assert hidden is not None and hidden["width"] <= 1 and hidden["height"] <= 1
        assert page.locator("section.rb-play li").count() == 27  # the 27 lines after the setup
        assert console.errors == []
    finally:
        context.close()


def test_print_keeps_the_box_and_drops_the_checks(chromium, exported, tmp_path):
    context, page, console, _, _ = _open(chromium, (exported / "grunk_charges_pixie.html").as_uri())
    try:
        page.emulate_media(media="print")
        assert page.locator("aside.rb-checks").is_hidden()
        assert page.locator("article.rb-example").is_visible()
        assert page.locator("svg.rb-die").first.is_visible()
        pdf = page.pdf(format="A4")
        assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1  # one page
        assert console.errors == []
    finally:
        context.close()


def test_a_hostile_name_stays_text(chromium, tmp_path):
    evil = "<script>alert(1)</script>"
    moves = ("declare add", "trumps none", "play 9H")
    text = "\n".join(
        [
            "system: fairy-meat",
            f'title: "{evil} escapes"',
            "wrestling: true",
            f'attacker: {{name: "{evil}", live: 5, kill: 1}}',
            "defender: {name: Bo, live: 5, kill: 1}",
            "deck: 9H 3C 2H",
            "moves:",
            *[line for move in moves for line in (f'  - "{evil}": {move}', f"  - Bo: {move.replace('9H', '2H')}")],
            f'  - "{evil}": escape',
            "",
        ]
    )
    path = tmp_path / "hostile.html"
    path.write_text(to_html(text), encoding="utf-8")
    context, page, console, requests, dialogs = _open(chromium, path.as_uri())
    try:
        assert dialogs == [] and requests == [] and console.errors == []
        assert page.locator("script").count() == 0
        assert evil in page.locator("article").inner_text()
    finally:
        context.close()


def test_the_markdown_pictures_decode_as_images(chromium, tmp_path):
    uris = []
    for name in EXAMPLES:
        uris += re.findall(r"\]\((data:image/svg\+xml;base64,[^)]+)\)", to_markdown(EXAMPLES_DIR / f"{name}.yaml"))
    page_path = tmp_path / "images.html"
    page_path.write_text("<!DOCTYPE html><body>" + "".join(f'<img src="{u}">' for u in uris) + "</body>")
    context, page, console, requests, _ = _open(chromium, page_path.as_uri())
    try:
        sizes = page.locator("img").evaluate_all("els => els.map(e => [e.complete, e.naturalWidth, e.naturalHeight])")
        assert len(sizes) == sum(c + d for c, d in EXAMPLES.values())
        assert all(done and w > 0 and h > 0 for done, w, h in sizes)
        assert requests == [] and console.errors == []
    finally:
        context.close()
