"""A :class:`~toolkit.rulebook.export_model.RulebookExample` written as a print-ready PDF:
the boxed example of the HTML export, on A4, its text real text (selected, copied and
searched in any PDF reader) and its cards and dice drawn as vector paths.

The pictures are :meth:`toolkit.pictures.Picture.svg`, the same drawing the HTML and
Markdown exports show, turned into PDF paths by fpdf2 (a maintained pure-Python PDF
library: its SVG reader draws paths and shapes), their letters (a card's rank, a die's
face) drawn as the outlines of the font's glyphs (:func:`outlined`); each picture carries
its words (``K♠``, ``Joker 1``, a die's ``Q``) as invisible text over it, as the HTML
export's hidden text, so a search for ``K♠`` finds it and a copied line reads
``North draws 3 cards: Joker 1 5♠ 7♥.`` The text is set in DejaVu Serif (shipped beside this module, embedded as
a subset: every reader shows it alike, and it has the suits ♠♥♦♣).

Every name and line is written as text, never read as markup: a fairy called
``<b>Bo</b>`` is printed so; control characters print as ``�``. As in the HTML export's
print style, the expectations the file carries are left out of the page (they are for the
designer, not the rule book); the PDF's subject line says whether they hold.
"""

from __future__ import annotations

import functools
import io
import logging
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont
from fpdf import FPDF
from fpdf.enums import TextMode

from toolkit.pictures import Picture
from toolkit.rulebook.export_model import Illustration, Line, RulebookExample, checks_verdict

__all__ = ["render_pdf", "outlined", "FONT_DIR"]

#: The fonts the PDF embeds (DejaVu Serif, with its licence).
FONT_DIR = Path(__file__).with_name("fonts")
_FONTS = {"": "DejaVuSerif.ttf", "B": "DejaVuSerif-Bold.ttf", "I": "DejaVuSerif-Italic.ttf"}

# the page (A4, millimetres) and the box drawn around the example on each page
_MARGIN, _PAD = 18.0, 5.0
_BODY, _LEADING = 10.5, 1.45  # points, and line height in ems
_PT = 25.4 / 72  # millimetres in a point
#: Picture heights (mm): a card in a line, a card in the setup (larger, as the HTML export),
#: a die.
_CARD_H, _SETUP_CARD_H, _DIE_H = 8.0, 10.0, 6.0
#: A paragraph shorter than this (mm) goes whole onto the next page rather than split.
_KEEP_TOGETHER = 60.0
_INK, _GREY, _RULE = (33, 37, 41), (108, 117, 125), (73, 80, 87)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SVG = "{http://www.w3.org/2000/svg}"


def render_pdf(examples: RulebookExample | Sequence[RulebookExample], title: str = "") -> bytes:
    """Return the example (or several, each from a new page: the rule-book notebook's
    chosen examples, the document named ``title``) as a PDF document, its bytes: A4, one box
    per page an example spans, the pages numbered when there are several."""
    chosen = (examples,) if isinstance(examples, RulebookExample) else tuple(examples)
    with _quiet_svg_reader():
        page = _Page(chosen, title)
        data = page.write()
        if page.pdf.pages_count > 1:  # written again, each page numbered "page 2 of 3"
            data = _Page(chosen, title, page.pdf.pages_count).write()
        return data


@contextmanager
def _quiet_svg_reader() -> Iterator[None]:
    """fpdf2 logs each SVG element it does not draw (the pictures' ``<title>``, read by
    screen readers in HTML): not the designer's concern."""
    logger = logging.getLogger("fpdf.svg")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _printable(text: str) -> str:
    """The text as it is printed: control characters as ``�``, tabs and line breaks as spaces."""
    return _CONTROL.sub("\ufffd", unicodedata.normalize("NFC", text)).replace("\t", " ").replace("\n", " ")


@dataclass(frozen=True)
class _Piece:
    """One unit of a line being set: a run of words (``text``) or a picture, and its width (mm)."""

    width: float
    text: str = ""
    picture: Picture | None = None
    height: float = 0.0


class _Page:
    """The PDF being written: the example's blocks set one after another down the page."""

    def __init__(self, examples: tuple[RulebookExample, ...], title: str = "", pages: int = 1) -> None:
        self.examples = examples
        self.example = examples[0]
        self.pages = pages
        pdf = FPDF(unit="mm", format="A4")
        pdf.set_auto_page_break(False)
        pdf.set_margins(_MARGIN, _MARGIN)
        for style, name in _FONTS.items():
            pdf.add_font("serif", style, str(FONT_DIR / name))
        if len(examples) == 1 and not title:
            pdf.set_title(f"{_printable(self.example.title) or 'Example'} — a rule-book example")
        else:
            pdf.set_title(_printable(title) or f"{len(examples)} rule-book examples")
        if len(examples) == 1:
            pdf.set_subject(f"Example · {self.example.system_title}. {_verdict(self.example)}")
        else:
            pdf.set_subject(" ".join(f"{_printable(e.title)}: {_verdict(e)}" for e in examples))
        pdf.set_creator("toolkit (rule-book export)")
        pdf.set_lang("en")
        self.pdf = pdf
        self.left, self.right = _MARGIN + _PAD, pdf.w - _MARGIN - _PAD
        self.bottom = pdf.h - _MARGIN - _PAD
        self.y = 0.0
        self.box_top = 0.0

    # -- the document -----------------------------------------------------------------
    def write(self) -> bytes:
        for example in self.examples:
            self.example = example
            self._new_page()
            self._write_example(example)
            self._close_box()
        return bytes(self.pdf.output())

    def _write_example(self, ex: RulebookExample) -> None:
        self._small_caps(f"Example · {ex.system_title}")
        self._paragraph([_printable(ex.title) or "Example"], "B", 17, gap=1.0)
        self.pdf.set_draw_color(173, 181, 189)
        self.pdf.set_line_width(0.25)
        self.pdf.line(self.left, self.y + 1, self.right, self.y + 1)
        self.y += 3
        if ex.notes:
            self._paragraph([_printable(ex.notes)], "I", _BODY)
        if ex.setup:
            self._small_caps("Setup")
            for line in ex.setup:
                self._paragraph(_parts(line), "", _BODY, card_height=_SETUP_CARD_H)
        if ex.play:
            self._small_caps("Play")
            number = 1
            for line in ex.play:
                if line.is_heading:
                    self._paragraph(_parts(line), "B", _BODY, gap=0.5)
                    continue
                self._paragraph(_parts(line), "", _BODY, marker=f"{number}.")
                number += 1
        self._small_caps("Outcome")
        self._paragraph([_printable(ex.outcome)], "B", _BODY)

    # -- pages and the box ------------------------------------------------------------
    def _new_page(self) -> None:
        self.pdf.add_page()
        self.y = self.box_top = _MARGIN
        self.y += _PAD

    def _close_box(self) -> None:
        self.pdf.set_draw_color(*_RULE)
        self.pdf.set_line_width(0.5)
        bottom = self.y + _PAD - 1
        self.pdf.rect(
            _MARGIN, self.box_top, self.pdf.w - 2 * _MARGIN, bottom - self.box_top, round_corners=True, corner_radius=2
        )
        if self.pages > 1:
            self._page_number()

    def _page_number(self) -> None:
        """Under the box of each page of an example that spans several: its title (cut
        short) and ``page 2 of 3``, small and grey, so that loose pages stay in order."""
        pdf = self.pdf
        title = _printable(self.example.title) or "Example"
        if len(title) > 60:
            title = title[:59].rstrip() + "…"
        words = f"{title} — page {pdf.page_no()} of {self.pages}"
        with pdf.local_context(font_style="I", font_size_pt=8, text_color=_GREY):  # the paragraph's font after
            pdf.text(pdf.w - _MARGIN - pdf.get_string_width(words), pdf.h - _MARGIN / 2, words)

    def _room(self, height: float) -> None:
        """Go on to a new page (the box closed on this one) unless ``height`` fits below."""
        if self.y + height > self.bottom and self.y > self.box_top + _PAD:
            self._close_box()
            self._new_page()

    # -- blocks -------------------------------------------------------------------------
    def _small_caps(self, text: str) -> None:
        """A section's heading: small, spaced capitals in grey (``SETUP``)."""
        pdf = self.pdf
        self._room(12)
        self.y += 2.5
        pdf.set_font("serif", "B", 7.5)
        pdf.set_char_spacing(0.6)
        pdf.set_text_color(*_GREY)
        for row in self._rows([_printable(text).upper()], self.right - self.left, 7.5):
            self._draw_row(row, self.left, 7.5)
        pdf.set_char_spacing(0)
        pdf.set_text_color(*_INK)
        self.y += 0.8

    def _paragraph(
        self,
        parts: Sequence[str | Picture],
        style: str,
        size: float,
        marker: str = "",
        gap: float = 0.6,
        card_height: float = _CARD_H,
    ) -> None:
        """Words and pictures set in lines between the box's sides (after ``marker``, a
        step's number, hanging in the margin of the text), then ``gap`` mm below."""
        pdf = self.pdf
        pdf.set_font("serif", style, size)
        pdf.set_text_color(*_INK)
        indent = 7.0 if marker else 0.0
        rows = self._rows(parts, self.right - self.left - indent, size, card_height)
        whole = sum(_row_height(row, size) for row in rows)
        if whole < _KEEP_TOGETHER:  # a step is not split across pages (a long note may be)
            self._room(whole)
        for k, row in enumerate(rows):
            height = _row_height(row, size)
            self._room(height)
            if marker and k == 0:
                baseline = self.y + (height + size * _PT * 0.7) / 2
                pdf.text(self.left, baseline, marker)
            self._draw_row(row, self.left + indent, size)
        self.y += gap

    def _rows(
        self, parts: Sequence[str | Picture], width: float, size: float, card_height: float = _CARD_H
    ) -> list[list[_Piece]]:
        """The parts cut into rows no wider than ``width``: words broken at spaces (a word
        wider than a row at any character), a picture never split."""
        pdf = self.pdf
        pieces: list[_Piece] = []
        for part in parts:
            if isinstance(part, Picture):
                height = _DIE_H if part.kind == "die" else card_height
                w, h = part.size
                before = [_Piece(pdf.get_string_width(" "), " ")] if isinstance(part, Illustration) else []
                pieces += [*before, _Piece(height * w / h + 1.0, picture=part, height=height)]
                continue
            for word in re.findall(r"\s+|\S+", part):
                text = " " if word.isspace() else word
                pieces += [_Piece(pdf.get_string_width(c), c) for c in _fit(pdf, text, width)]
        rows: list[list[_Piece]] = [[]]
        used = 0.0
        for piece in pieces:
            if rows[-1] and used + piece.width > width and piece.text != " ":
                while rows[-1] and rows[-1][-1].text == " ":
                    rows[-1].pop()
                rows.append([])
                used = 0.0
            if not rows[-1] and piece.text == " ":
                continue
            rows[-1].append(piece)
            used += piece.width
        return [row for row in rows if row]

    def _draw_row(self, row: list[_Piece], x: float, size: float) -> None:
        """Draw one row at the current height (runs of words as one string each, so that
        a reader copies them with their spaces), pictures centred on the text's middle."""
        pdf = self.pdf
        height = _row_height(row, size)
        middle = self.y + height / 2
        baseline = middle + size * _PT * 0.35
        run, run_x = "", x
        for piece in row:
            if piece.picture is None:
                if not run:
                    run_x = x
                run += piece.text
                x += piece.width
                continue
            if run:
                pdf.text(run_x, baseline, run)
                run = ""
            self._picture(piece, x, middle, baseline)
            x += piece.width
        if run:
            pdf.text(run_x, baseline, run)
        self.y += height

    def _picture(self, piece: _Piece, x: float, middle: float, baseline: float) -> None:
        """The picture's drawing and, unless the words before it name it, its words (``K♠``)
        as invisible text over it."""
        picture = piece.picture
        assert picture is not None
        pdf = self.pdf
        if not isinstance(picture, Illustration):
            pdf.text_mode = TextMode.INVISIBLE
            pdf.text(x + 0.5, baseline, picture.text)
            pdf.text_mode = TextMode.FILL
        svg = io.BytesIO(outlined(picture.svg()).encode("utf-8"))
        pdf.image(svg, x=x + 0.5, y=middle - piece.height / 2, h=piece.height, alt_text=picture.label)


@functools.cache
def _letters() -> TTFont:
    """The bold face whose glyph outlines draw the pictures' letters."""
    return TTFont(str(FONT_DIR / _FONTS["B"]))


def outlined(svg: str) -> str:
    """Return an SVG picture with each ``<text>`` (its ``x``, ``y``, ``font-size``,
    ``text-anchor``, ``letter-spacing`` and ``fill``) replaced by a ``<path>`` of its letters'
    outlines in DejaVu Serif Bold: in the PDF a drawing, not text, so a reader finds and copies
    a picture's words once (its invisible text), never its rank a second time.

    >>> out = outlined('<svg xmlns="http://www.w3.org/2000/svg"><text x="8" y="31" font-size="30">K</text></svg>')
    >>> "<text" in out, out.count("<path"), 'fill="#000"' in out
    (False, 1, True)
    """
    font = _letters()
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    em = font["head"].unitsPerEm
    root = ET.fromstring(svg)
    for parent in list(root.iter()):
        for k, child in enumerate(list(parent)):
            if child.tag != f"{_SVG}text":
                continue
            names = [cmap.get(ord(c), ".notdef") for c in child.text or ""]
            size = float(child.get("font-size", "16"))
            spacing = float(child.get("letter-spacing", "0"))
            scale = size / em
            width = sum(glyphs[n].width * scale for n in names) + spacing * max(len(names) - 1, 0)
            x = float(child.get("x", "0")) - {"middle": width / 2, "end": width}.get(child.get("text-anchor", ""), 0)
            y = float(child.get("y", "0"))
            pen = SVGPathPen(glyphs)
            for name in names:
                glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, x, y)))
                x += glyphs[name].width * scale + spacing
            parent.remove(child)
            parent.insert(k, ET.Element(f"{_SVG}path", {"d": pen.getCommands(), "fill": child.get("fill", "#000")}))
    ET.register_namespace("", _SVG[1:-1])
    return ET.tostring(root, encoding="unicode")


def _fit(pdf: FPDF, word: str, width: float) -> list[str]:
    """A word cut into pieces no wider than ``width`` (a very long name), else the word."""
    if pdf.get_string_width(word) <= width:
        return [word]
    pieces, current = [], ""
    for char in word:
        if current and pdf.get_string_width(current + char) > width:
            pieces.append(current)
            current = ""
        current += char
    return [*pieces, current]


def _row_height(row: list[_Piece], size: float) -> float:
    return max([size * _PT * _LEADING] + [p.height + 1.2 for p in row if p.picture is not None])


def _parts(line: Line) -> list[str | Picture]:
    """A line's words (printable) and pictures, its ruling after it when the text does not
    name it (as the HTML export)."""
    parts: list[str | Picture] = [p if isinstance(p, Picture) else _printable(p) for p in line.parts]
    if line.ruling and line.ruling not in line.text:
        parts.append(f" ({_printable(line.ruling)})")
    return parts


def _verdict(example: RulebookExample) -> str:
    """What the expectations say, for the PDF's subject line (the sentence every export writes)."""
    if not example.expectations:
        return "The example file carries no expectations."
    return checks_verdict(example.expectations)
