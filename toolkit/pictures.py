"""Cards and poker dice as a designer reads them: one place for their text and their picture.

Every stepper, log, explorer and rule-book export draws a card or a die face from here, so
they look alike everywhere: the words are :func:`toolkit.cards.card_text` (``K♠``, ``10♥``,
``Joker 1``) and :func:`toolkit.dice.face_text`, the picture is a :class:`Picture` (an SVG
card or die), inline in a widget (:meth:`Picture.html`) or an export (:meth:`Picture.svg`).
A sentence of a log (:class:`toolkit.engine.Sentence`, its cards and faces marked by the
referee) is written for reading with :func:`sentence_text` (a whole log: :func:`log_text`)
and drawn with :func:`sentence_html`. Codes (``KS``, ``JK1``) stay what a designer types in files.

A :class:`Picture` is one card (``"KS"``, ``"10H"``, ``"JK1"``, or ``"JK"``: a joker the
text does not number) or one poker-die face (``9 10 J Q K A``, AM-1). Its
:meth:`Picture.svg` is a complete ``<svg>`` element (namespace, ``role="img"``, an
``aria-label`` and a ``<title>`` naming it), with no font, script, style sheet or link
outside it: it is pasted inline into HTML, written to a file next to a Markdown export,
or put in a ``data:`` URI (:meth:`Picture.data_uri`).

Suit colours follow :attr:`toolkit.cards.Card.colour` (hearts and diamonds red, spades
and clubs black; FM-1, DB-1); the suits are drawn as paths (no font needs the ♠♥♦♣
glyphs); jokers are purple with a star. Poker-die faces that hit under the example's
rules (its ``hit_faces``, AM-1: J, Q, K, A by default) are printed red, the others black.

>>> p = Picture.card("KS")
>>> p.label, p.file_name
('King of Spades', 'card-KS.svg')
>>> p.svg().startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'aria-label="King of Spades"' in p.svg()
True
>>> Picture.die("a", hits=("J", "Q", "K", "A")).label, Picture.card("JK2").label, Picture.card("Joker").label
('Poker die: A', 'Joker (JK2)', 'Joker')
>>> Picture.card("10H").text, Picture.card("JK1").text, Picture.die("k", hits=("J", "Q", "K", "A")).text
('10♥', 'Joker 1', 'K')
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from html import escape

from toolkit.cards import Card, card_text
from toolkit.dice import face_text, parse_face
from toolkit.engine import Event, Sentence

__all__ = [
    "RED",
    "BLACK",
    "JOKER",
    "Picture",
    "CARD_SIZE",
    "DIE_SIZE",
    "INLINE_SCALE",
    "sentence_text",
    "log_text",
    "sentence_html",
    "cards_html",
    "paint_codes",
    "codes_text",
]

#: Ink of hearts and diamonds, of spades and clubs, of jokers (the widgets' red and black).
RED, BLACK, JOKER = "#c92a2a", "#212529", "#6741d9"
#: The natural size (width, height) in pixels of a card and of a die (Markdown shows them so).
CARD_SIZE = (36, 50)
DIE_SIZE = (34, 34)
#: How much smaller a picture is drawn inside a line of a widget than in an export.
INLINE_SCALE = 0.8

_NS = 'xmlns="http://www.w3.org/2000/svg"'
_FONT = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
#: The suits as paths in a 100 x 100 box.
_SUIT_PATHS = {
    "H": "M50 94C22 72 2 54 2 31C2 13 15 3 29 3C39 3 46 9 50 19C54 9 61 3 71 3C85 3 98 13 98 31C98 54 78 72 50 94Z",
    "D": "M50 2L88 50L50 98L12 50Z",
    "S": "M50 3C78 30 98 45 98 64C98 79 87 87 75 87C65 87 58 82 54 75C55 86 60 93 68 99H32C40 93 45 86 46 75"
    "C42 82 35 87 25 87C13 87 2 79 2 64C2 45 22 30 50 3Z",
    "C": "M50 4A22 22 0 0 1 66 41A22 22 0 1 1 55 72C56 85 60 93 68 99H32C40 93 44 85 45 72A22 22 0 1 1 34 41"
    "A22 22 0 0 1 50 4Z",
}
_STAR = "M50 4L61 38H97L68 59L79 94L50 73L21 94L32 59L3 38H39Z"


@dataclass(frozen=True)
class Picture:
    """One card or one poker-die face to draw.

    Attributes:
        kind: ``"card"`` or ``"die"``.
        code: the card's code (``"QC"``, ``"10H"``, ``"JK1"``; ``"JK"`` for a joker the text
            does not number) or the die's face (``"10"``, ``"A"``).
        hit: for a die, whether its face hits under the example's rules (drawn red, AM-1;
            ``None``: not known, drawn as ``usual`` says).
        usual: for a die, whether its face hits under the system's default rules (a die
            that hits otherwise under house rules is named ``-hit`` / ``-miss``).
    """

    kind: str
    code: str
    hit: bool | None = None
    usual: bool | None = None

    @classmethod
    def card(cls, code: str | Card) -> Picture:
        """Return the picture of a card or card code (``"Joker"`` or ``"JK"``: an unnumbered
        joker).

        Raises:
            NotationError: not a card code (from :class:`toolkit.cards.Card`).
        """
        if isinstance(code, Card):
            return cls("card", code.code)
        if code.strip().upper() in ("JK", "JOKER"):
            return cls("card", "JK")
        return cls("card", Card(code).code)

    @classmethod
    def die(cls, face: str, hits: Collection[str], usual: Collection[str] | None = None) -> Picture:
        """Return the picture of a poker-die face, red if it is one of ``hits`` (the
        example's rules' ``hit_faces``, AM-1); ``usual`` are the default rules' hit faces
        (``None``: the same as ``hits``).

        Raises:
            NotationError: not a poker-die face (from :func:`toolkit.dice.parse_face`).
        """
        code = parse_face(face)
        return cls("die", code, code in hits, code in (hits if usual is None else usual))

    @property
    def label(self) -> str:
        """What the picture shows, in words: ``'Queen of Clubs'``, ``'Joker (JK1)'``, ``'Poker die: Q'``."""
        if self.kind == "die":
            return f"Poker die: {self.code}"
        if self.code == "JK":
            return "Joker"
        card = Card(self.code)
        return f"Joker ({card.code})" if card.is_joker else card.name

    @property
    def text(self) -> str:
        """What the picture shows, as a designer reads it in a line: ``'Q♣'``, ``'Joker 1'``, ``'K'``
        (:func:`toolkit.cards.card_text`, :func:`toolkit.dice.face_text`)."""
        return face_text(self.code) if self.kind == "die" else card_text(self.code)

    @property
    def file_name(self) -> str:
        """The file a Markdown export writes it to: ``card-QC.svg``, ``die-10.svg``."""
        return f"{self.kind}-{self.code}{self._hit_suffix}.svg"

    @property
    def _hit_suffix(self) -> str:
        """``-hit`` / ``-miss`` for a die that hits, or does not, against the default rules (house rules)."""
        if self.kind != "die" or self.hit is None or self.usual is None or self.hit == self.usual:
            return ""
        return "-hit" if self.hit else "-miss"

    @property
    def size(self) -> tuple[int, int]:
        """Its natural (width, height) in pixels."""
        return CARD_SIZE if self.kind == "card" else DIE_SIZE

    def svg(self) -> str:
        """Return the picture as one self-contained ``<svg>`` element."""
        width, height = self.size
        label = escape(self.label)
        body = self._die_body() if self.kind == "die" else self._card_body()
        view = "0 0 72 100" if self.kind == "card" else "0 0 60 60"
        return (
            f'<svg {_NS} class="rb-{self.kind}" viewBox="{view}" width="{width}" height="{height}" '
            f'role="img" aria-label="{label}" data-code="{escape(self.code)}"><title>{label}</title>{body}</svg>'
        )

    def html(self, note: str = "", set_aside: bool = False, scale: float = INLINE_SCALE, named: bool = False) -> str:
        """Return the picture inline in a line of a widget: its SVG (as an image) ``scale`` times
        its natural size, its words (:attr:`text`) kept as the line's text (read, copied and
        searched as ``K♠``), and a tooltip naming it and ``note`` (its action, "face down as a
        Trump"); ``set_aside`` (face down, played) draws it dashed and faded. A picture drawn after
        the words that name it (``named``: "the 7 of Spades") adds no words of its own."""
        width, height = self.size
        title = self.label + (f" — {note}" if note else "")
        style = "display:inline-block;vertical-align:middle;margin:1px 3px 1px 0;line-height:0"
        if set_aside:
            style += ";outline:2px dashed #868e96;outline-offset:1px;opacity:.75"
        return (
            f'<span class="toolkit-pic" data-text="{escape(self.text)}" title="{escape(title)}" style="{style}">'
            f'<img src="{self.data_uri()}" alt="" width="{width * scale:g}" height="{height * scale:g}">'
            + ("" if named else f'<span style="font-size:0">{escape(self.text)}</span>')
            + "</span>"
        )

    def data_uri(self) -> str:
        """Return the picture as a ``data:image/svg+xml;base64,...`` URI (Markdown inline images)."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg().encode("utf-8")).decode("ascii")

    # -- drawing ---------------------------------------------------------------------
    def _card_body(self) -> str:
        frame = '<rect x="1.5" y="1.5" width="69" height="97" rx="7" fill="#fff" stroke="{}" stroke-width="2"/>'
        if self.code == "JK" or Card(self.code).is_joker:
            number = "" if self.code == "JK" else self.code[-1]
            return (
                frame.format(JOKER)
                + _shape(_STAR, 16, 28, 40, JOKER)
                + _text(36, 86, "JOKER", 13, JOKER, anchor="middle", spacing=1)
                + (_text(8, 20, number, 16, JOKER) if number else "")
            )
        card = Card(self.code)
        ink = RED if card.colour == "red" else BLACK
        path = _SUIT_PATHS[card.suit or "S"]
        wide = card.rank == "10"
        return (
            frame.format("#868e96")
            + _text(5 if wide else 8, 31, card.rank, 26 if wide else 30, ink, spacing=-2 if wide else 0)
            + _shape(path, 9, 40, 15, ink)
            + _shape(path, 30, 52, 36, ink)
        )

    def _die_body(self) -> str:
        hit = self.usual if self.hit is None else self.hit
        ink = RED if hit else BLACK
        size = 24 if self.code == "10" else 30
        return (
            '<rect x="2" y="2" width="56" height="56" rx="10" fill="#fffdf5" stroke="#495057" stroke-width="2.5"/>'
            '<rect x="7" y="7" width="46" height="46" rx="7" fill="none" stroke="#dee2e6" stroke-width="1.5"/>'
            + _text(30, 41, self.code, size, ink, anchor="middle")
        )


def _shape(path: str, x: float, y: float, size: float, ink: str) -> str:
    """A 100 x 100 path placed at (x, y), ``size`` pixels wide."""
    return f'<path d="{path}" fill="{ink}" transform="translate({x} {y}) scale({size / 100:g})"/>'


def _text(x: float, y: float, text: str, size: int, ink: str, anchor: str = "start", spacing: float = 0) -> str:
    extra = f' letter-spacing="{spacing:g}"' if spacing else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-family="{_FONT}" font-size="{size}" font-weight="bold" fill="{ink}" '
        f'text-anchor="{anchor}"{extra}>{escape(text)}</text>'
    )


def _pictures(said: Sentence, hits: Collection[str]) -> list[str | Picture | tuple[Picture]]:
    """The sentence cut into words and the pictures of its marked cards and faces (a card
    marked on its words, ``5 of Clubs``, keeps them and is drawn after them: a 1-tuple)."""
    parts: list[str | Picture | tuple[Picture]] = []
    at = 0
    for mark in said.marks:
        words = said.text[mark.start : mark.end]
        if mark.kind == "die":
            parts += [said.text[at : mark.start], Picture.die(mark.code, hits)]
        elif words == mark.code:
            parts += [said.text[at : mark.start], Picture.card(mark.code)]
        else:
            parts += [said.text[at : mark.end], " ", (Picture.card(mark.code),)]
        at = mark.end
    parts.append(said.text[at:])
    return [p for p in parts if p != ""]


def sentence_text(said: Sentence | str) -> str:
    """Return a sentence as a designer reads it in plain text: every card or face the referee
    marked on its code written as :attr:`Picture.text` (``KS`` becomes ``K♠``); words and
    unmarked text unchanged.

    >>> sentence_text(Sentence.of("Ann draws: ", Sentence.listing("card", ["KS", "10H", "JK1"]), "."))
    'Ann draws: K♠ 10♥ Joker 1.'
    """
    said = Sentence.of(said)
    out, at = [], 0
    for mark in said.marks:
        words = said.text[mark.start : mark.end]
        out.append(said.text[at : mark.start])
        if mark.kind == "die":
            out.append(face_text(mark.code))
        else:
            out.append(card_text(mark.code) if words == mark.code else words)
        at = mark.end
    out.append(said.text[at:])
    return "".join(out)


def log_text(events: Iterable[Event], side: str | None = None) -> str:
    """Return a log as a designer reads it in plain text, one event a line: what ``side``
    may see of each event (``None``: everything; :meth:`toolkit.engine.Event.seen_as`),
    its cards and faces written by :func:`sentence_text` (``K♠``, ``Joker 1``). What
    ``toolkit replay`` prints and a stepper's ``log.txt`` holds; the engine's own
    :meth:`~toolkit.engine.GameState.log` keeps the codes.

    >>> e = Event.told("draw", Sentence.of("Ann draws: ", Sentence.listing("card", ["KS", "JK1"]), "."),
    ...                audience=("Ann",), public_text="Ann draws 2 cards.")
    >>> log_text([e]), log_text([e], "Bo")
    ('Ann draws: K♠ Joker 1.', 'Ann draws 2 cards.')
    """
    seen = (e.seen_as(side) for e in events)
    return "\n".join(sentence_text(said) for said in seen if said is not None)


def sentence_html(said: Sentence | str, hits: Collection[str] = (), words: Callable[[str], str] = escape) -> str:
    """Return a sentence as HTML for a widget: its words escaped (by ``words``), each card and
    face the referee marked drawn inline (:meth:`Picture.html`), as the rule-book export
    draws them; dice that hit under the rules in force (``hits``, AM-1) in red."""
    return "".join(
        words(p) if isinstance(p, str) else p.html() if isinstance(p, Picture) else p[0].html(named=True)
        for p in _pictures(Sentence.of(said), hits)
    )


def cards_html(cards: Collection[Card], empty: str = "") -> str:
    """Return cards drawn in a row (a hand); ``empty`` (already HTML) when there are none."""
    return "".join(Picture.card(c).html() for c in cards) or empty


_CODE = re.compile(r"(?<![\w&#])(10|[2-9JQKA])([SHDC])(?!\w)|(?<![\w&#])JK[12](?!\w)")


def paint_codes(escaped: str) -> str:
    """Draw the card codes found in already-escaped text that carries no marks (a side's view
    of the table, written as codes) as pictures; everything else unchanged."""
    return _CODE.sub(lambda m: Picture.card(m.group(0)).html(), escaped)


def codes_text(text: str) -> str:
    """Return plain text that carries no marks (a typed action, ``trumps KS QC``) with its
    card codes written as a designer reads them (``trumps K♠ Q♣``).

    >>> codes_text("trumps KS 10H, then JK1")
    'trumps K♠ 10♥, then Joker 1'
    """
    return _CODE.sub(lambda m: card_text(m.group(0)), text)
