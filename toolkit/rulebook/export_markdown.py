"""A :class:`~toolkit.rulebook.export_model.RulebookExample` written as Markdown, its
cards and dice as images: SVG files in a folder next to it (:class:`ImageFiles`), or kept
in memory for a download that packs them beside the Markdown (:class:`ImageBundle`),
linked by a relative path. Inline ``data:`` URIs remain for a preview only: GitHub and
nbconvert show only their alt text.

The expectations the example file carries are not part of the rule-book text: they
follow it in an HTML comment (every renderer hides it; a designer deletes it or keeps it).

Every line of narration and every name is escaped, for Markdown (``*``, ``_``, ``[``,
a list marker at the start) and for the HTML a Markdown renderer lets through (``<``,
``&``): a fairy called ``<script>`` is printed as her name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from urllib.parse import quote

from toolkit.pictures import Picture
from toolkit.rulebook.export_model import Illustration, Line, RulebookExample, checks_verdict

__all__ = ["ImageFiles", "ImageBundle", "render_markdown", "md_escape"]

_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
_LINE_START = re.compile(r"^(\s*)(\d+)([.)])|^(\s*)([-+>=])")


def md_escape(text: str) -> str:
    """Return ``text`` as Markdown that prints it as it is (no emphasis, link, list or
    raw HTML).

    >>> md_escape("<script>*Bo*_1. [x]")
    '&lt;script&gt;\\\\*Bo\\\\*\\\\_1. \\\\[x\\\\]'
    >>> md_escape("3. not a list")
    '3\\\\. not a list'
    """
    text = _SPECIAL.sub(r"\\\1", escape(text, quote=False))
    return _LINE_START.sub(lambda m: f"{m[1]}{m[2]}\\{m[3]}" if m[2] else f"{m[4]}\\{m[5]}", text)


@dataclass
class ImageFiles:
    """Where a Markdown export puts its pictures: SVG files in ``folder``, linked as
    ``link/<file>`` (the folder as the Markdown file sees it; the folder itself by default).
    :attr:`written` lists the files written."""

    folder: Path
    link: str = ""
    written: list[Path] = field(default_factory=list)

    def image(self, picture: Picture) -> str:
        """Write the picture's file (once) and return its relative link, percent-encoded
        (a space or a parenthesis in the folder's name would end the Markdown link)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / picture.file_name
        if path not in self.written:
            path.write_text(picture.svg() + "\n", encoding="utf-8")
            self.written.append(path)
        base = (self.link or self.folder.as_posix()).rstrip("/")
        return quote(f"{base}/{picture.file_name}" if base else picture.file_name, safe="/")


@dataclass
class ImageBundle:
    """Where a downloaded Markdown export keeps its pictures: in memory, by file name
    (:attr:`files`), linked as ``link/<file>``; the download packs them beside it."""

    link: str = "images"
    files: dict[str, str] = field(default_factory=dict)

    def image(self, picture: Picture) -> str:
        """Keep the picture's SVG (once) and return its relative link."""
        self.files.setdefault(picture.file_name, picture.svg() + "\n")
        return quote(f"{self.link.rstrip('/')}/{picture.file_name}" if self.link else picture.file_name, safe="/")


def render_markdown(example: RulebookExample, images: ImageFiles | ImageBundle | None = None) -> str:
    """Return the example as Markdown; pictures written to (or kept by) ``images`` and
    linked, or, without ``images``, inline as ``data:`` URIs (a preview)."""

    def line(item: Line) -> str:
        parts = []
        for p in item.parts:
            if isinstance(p, Picture):
                target = images.image(p) if images is not None else p.data_uri()
                # its text as the log writes it (K♠, as the HTML export's hidden text); none after
                # the words that name it already ("the 5 of Clubs"), as the HTML export
                named = isinstance(p, Illustration)
                parts.append(f"{' ' if named else ''}![{'' if named else md_escape(p.text)}]({target})")
            else:
                parts.append(md_escape(p))
        text = "".join(parts)
        if item.ruling and item.ruling not in item.text:
            text += f" ({md_escape(item.ruling)})"
        return text

    out = [f"### {md_escape(example.title)}", "", f"*Example · {md_escape(example.system_title)}*", ""]
    if example.notes:
        out += [f"_{md_escape(example.notes)}_", ""]
    if example.setup:
        out += ["**Setup**", ""] + [f"- {line(item)}" for item in example.setup] + [""]
    out += ["**Play**", ""] if example.play else []
    number = 1
    for item in example.play:
        if item.is_heading:
            out += ["", f"**{line(item)}**", ""]
            continue
        out.append(f"{number}. {line(item)}")
        number += 1
    out += ["", f"**Outcome.** {md_escape(example.outcome)}", ""]
    out += _checks(example)
    return "\n".join(out).replace("\n\n\n", "\n\n")


def _checks(example: RulebookExample) -> list[str]:
    expectations = example.expectations
    if not expectations:
        return ["<!-- The example file carries no expectations. -->", ""]
    out = ["<!--", checks_verdict(expectations)]
    for e in expectations:
        mark = "✓" if e.holds else "✗"
        why = "" if e.holds else " — " + "; ".join(e.problems)
        out.append(_comment_safe(f"{mark} {e.text}{why}"))
    return [*out, "-->", ""]


def _comment_safe(text: str) -> str:
    """A line that cannot end the HTML comment it stands in (no ``--``, no ``>`` after it)."""
    return text.replace("--", "- -").replace(">", "&gt;")
