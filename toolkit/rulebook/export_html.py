"""A :class:`~toolkit.rulebook.export_model.RulebookExample` written as HTML: a boxed
example ready to print, its cards and dice drawn inline as SVG.

The page is self-contained: one document with its style sheet inline, no script, no
font, image or link to fetch (its Content-Security-Policy forbids any), every name and
line escaped. Print styles keep the box on one page and its colours as drawn. The
expectations the file carries, and whether they hold, follow the box (left out of print:
they are for the designer, not the rule book).
"""

from __future__ import annotations

import re
from html import escape

from toolkit.pictures import Picture
from toolkit.rulebook.export_model import Expectation, Illustration, Line, RulebookExample, checks_verdict

__all__ = ["STYLE", "render_html", "render_fragment"]

#: The style sheet: every rule under ``.rb-example`` / ``.rb-checks`` (a fragment in a
#: notebook touches nothing else), the print rules last.
STYLE = """
.rb-example{font-family:Georgia,'DejaVu Serif','Times New Roman',serif;color:#212529;background:#fbfaf6;
 max-width:46em;margin:1.2em auto;padding:.9em 1.3em 1em;border:2px solid #495057;border-radius:6px;
 line-height:1.55;font-size:15px}
.rb-example header{border-bottom:1px solid #adb5bd;margin-bottom:.5em}
.rb-example .rb-kicker{font:600 11px/1.3 'DejaVu Sans',Arial,sans-serif;text-transform:uppercase;
 letter-spacing:.08em;color:#6c757d;margin:0}
.rb-example .rb-title{font-size:1.45em;margin:.1em 0 .35em;line-height:1.25}
.rb-example .rb-part{font:700 11px/1.3 'DejaVu Sans',Arial,sans-serif;text-transform:uppercase;letter-spacing:.07em;
 color:#495057;margin:1em 0 .3em}
.rb-example .rb-round{font-size:1em;margin:.7em 0 .2em}
.rb-example .rb-notes{font-style:italic;margin:.4em 0}
.rb-example ul,.rb-example ol{margin:.2em 0;padding-left:1.8em}
.rb-example li{margin:.2em 0}
.rb-example .rb-setup ul{list-style:none;padding-left:0}
.rb-example svg{vertical-align:middle;width:auto;height:2.4em;margin:.05em .15em}
.rb-example svg.rb-die{height:1.8em}
.rb-example .rb-setup svg.rb-card{height:3.1em}
.rb-example .rb-pic{white-space:nowrap}
.rb-example .rb-alt{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.rb-example .rb-ruling{color:#868e96;font-size:.85em}
.rb-example .rb-id{white-space:nowrap}
.rb-example .rb-outcome p{font-weight:bold;margin:.2em 0}
.rb-checks{font:13px/1.5 'DejaVu Sans',Arial,sans-serif;max-width:46em;margin:.4em auto 1.2em;color:#495057}
.rb-checks ul{list-style:none;padding-left:0;margin:.2em 0}
.rb-checks .rb-holds::before{content:"\\2713\\00a0";color:#2b8a3e;font-weight:bold}
.rb-checks .rb-broken{color:#c92a2a}
.rb-checks .rb-broken::before{content:"\\2717\\00a0";font-weight:bold}
@media print{
 .rb-example{background:none;border:1.5pt solid #000;margin:0;max-width:none;break-inside:avoid;
  page-break-inside:avoid;font-size:11pt}
 .rb-example,.rb-example svg{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 .rb-checks{display:none}
}
"""

#: A ruling id (``FM-8``, ``AM-4``, ``DB-1``): never broken at its hyphen.
_RULING_ID = re.compile(r"\b([A-Z]{2,3}-\d+)\b")

_PAGE_STYLE = "body{margin:0;padding:.5em 1em;background:#fff}@page{margin:15mm}"
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def render_html(example: RulebookExample) -> str:
    """Return the example as a whole HTML document (self-contained, ready to print)."""
    title = escape(f"{example.title} — a rule-book example")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_PAGE_STYLE}{STYLE}</style>\n</head>\n<body>\n"
        + _body(example)
        + "</body>\n</html>\n"
    )


def render_fragment(example: RulebookExample) -> str:
    """Return the example as an HTML fragment with its own scoped style sheet (a notebook
    output, a stepper's preview)."""
    return f'<div class="rb-export"><style>{STYLE}</style>\n{_body(example, top=4)}</div>'


def _body(example: RulebookExample, top: int = 1) -> str:
    """The boxed example, its title a heading of level ``top`` (1 on its own page; lower
    inside a page that has its own title, such as a report), its parts one level below."""
    h, part = f"h{top}", f"h{top + 1}"
    out = [
        f'<article class="rb-example" data-system="{escape(example.system)}">\n',
        "<header>",
        f'<p class="rb-kicker">Example · {escape(example.system_title)}</p>',
        f'<{h} class="rb-title">{escape(example.title)}</{h}>',
        "</header>\n",
    ]
    if example.notes:
        out.append(f'<p class="rb-notes">{escape(example.notes)}</p>\n')
    if example.setup:
        out.append(f'<section class="rb-setup">\n<{part} class="rb-part">Setup</{part}>\n<ul>\n')
        out += [f"<li>{_line(line)}</li>\n" for line in example.setup]
        out.append("</ul>\n</section>\n")
    if example.play:
        out.append(_play(example.play, top + 1))
    out.append(
        f'<section class="rb-outcome">\n<{part} class="rb-part">Outcome</{part}>\n'
        f"<p>{escape(example.outcome)}</p>\n</section>\n"
    )
    out.append("</article>\n")
    out.append(_checks(example.expectations))
    return "".join(out)


def _play(lines: tuple[Line, ...], level: int = 2) -> str:
    """The play (its heading of ``level``): numbered steps, a heading line (``Round 2.``)
    closing one list and opening the next, the numbering going on."""
    h, sub = f"h{level}", f"h{level + 1}"
    out = [f'<section class="rb-play">\n<{h} class="rb-part">Play</{h}>\n']
    number, open_list = 1, False
    for line in lines:
        if line.is_heading:
            if open_list:
                out.append("</ol>\n")
                open_list = False
            out.append(f'<{sub} class="rb-round">{_line(line)}</{sub}>\n')
            continue
        if not open_list:
            out.append(f'<ol start="{number}">\n' if number > 1 else "<ol>\n")
            open_list = True
        out.append(f"<li>{_line(line)}</li>\n")
        number += 1
    if open_list:
        out.append("</ol>\n")
    out.append("</section>\n")
    return "".join(out)


def _line(line: Line) -> str:
    text = "".join(_picture(p) if isinstance(p, Picture) else _words(p) for p in line.parts)
    if line.ruling and line.ruling not in line.text:
        text += f' <span class="rb-ruling">({escape(line.ruling)})</span>'
    return text


def _words(text: str) -> str:
    """Escaped text, its ruling ids kept on one line."""
    return _RULING_ID.sub(r'<span class="rb-id">\1</span>', escape(text))


def _picture(picture: Picture) -> str:
    """The picture inline, its words (``K♠``) kept as hidden text (copy, search, screen readers)
    unless the words before it name it already (an :class:`Illustration`)."""
    if isinstance(picture, Illustration):
        return f'<span class="rb-pic">{picture.svg()}</span>'
    return f'<span class="rb-pic">{picture.svg()}<span class="rb-alt">{escape(picture.text)}</span></span>'


def _checks(expectations: tuple[Expectation, ...]) -> str:
    if not expectations:
        return '<aside class="rb-checks"><p>The example file carries no expectations.</p></aside>\n'
    out = [f'<aside class="rb-checks">\n<p>{escape(checks_verdict(expectations))}</p>\n']
    out.append("<ul>\n")
    for e in expectations:
        if e.holds:
            out.append(f'<li class="rb-holds">{escape(e.text)}</li>\n')
        else:
            out.append(f'<li class="rb-broken">{escape(e.text)} — {escape("; ".join(e.problems))}</li>\n')
    out.append("</ul>\n</aside>\n")
    return "".join(out)
