"""A rule-book export as a designer takes it away: a preview on the page and a file to
download, in one of :data:`DOWNLOAD_FORMATS`.

- ``html``: the self-contained rule-book page (:func:`toolkit.rulebook.export.to_html`);
- ``pdf``: the same example as a print-ready PDF, its text selectable and its pictures
  drawn (:mod:`toolkit.rulebook.export_pdf`), previewed as the HTML page;
- ``markdown``: a ``.zip`` holding the Markdown and, beside it in ``images/``, the cards
  and dice as SVG files it links (GitHub and nbconvert show no inline ``data:`` picture);
- ``yaml``: the example file itself (``toolkit replay`` plays it; its ``expect`` block
  keeps it right).

The download is an ordinary link with a ``download`` attribute and a ``data:`` URL (what
ipywidgets' HTML widget shows: it has no download widget of its own), so it works in
JupyterLab, in a saved notebook and offline.

>>> from toolkit.examples import EXAMPLES_DIR
>>> text = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text(encoding="utf-8")
>>> d = example_download(text, "markdown", "Grunk charges Pixie")
>>> d.file_name, sorted(zip_names(d.data))[:2]
('grunk-charges-pixie.zip', ['grunk-charges-pixie.md', 'images/die-10.svg'])
>>> 'download="grunk-charges-pixie.zip"' in download_link(d)
True
"""

from __future__ import annotations

import base64
import html
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.engine import Event, GameState
from toolkit.errors import InvalidSetupError
from toolkit.rulebook.export_html import render_fragment, render_html
from toolkit.rulebook.export_markdown import ImageBundle, render_markdown
from toolkit.rulebook.export_model import RulebookExample, from_source, from_state

__all__ = [
    "DOWNLOAD_FORMATS",
    "Download",
    "example_download",
    "examples_download",
    "state_download",
    "download_link",
    "file_stem",
    "zip_names",
]

#: The formats a designer downloads, by (label, format).
DOWNLOAD_FORMATS: tuple[tuple[str, str], ...] = (
    ("Rule-book page (HTML)", "html"),
    ("Print-ready PDF", "pdf"),
    ("Markdown with image files (.zip)", "markdown"),
    ("Example file (YAML)", "yaml"),
)

_MIME = {
    "html": "text/html",
    "pdf": "application/pdf",
    "zip": "application/zip",
    "yaml": "application/x-yaml",
    "txt": "text/plain",
}


@dataclass(frozen=True)
class Download:
    """An export ready to show and to download.

    Attributes:
        file_name: the name the browser saves it as (``grunk-charges-pixie.zip``).
        data: the file's bytes.
        preview: HTML showing what the file holds, at its own height (escaped).
        source: the text of the main file (the page's HTML, the Markdown, the YAML; a PDF
            has none: ``""``).
        example: the replayed example (its expectations say which hold), if there is one.
    """

    file_name: str
    data: bytes
    preview: str
    source: str
    example: RulebookExample | None = None

    @property
    def mime(self) -> str:
        """The file's media type."""
        return _MIME.get(self.file_name.rsplit(".", 1)[-1], "application/octet-stream")


def file_stem(title: str) -> str:
    """Return a file name for a title: lower case, words joined by hyphens
    (``"Grunk charges Pixie!"`` -> ``"grunk-charges-pixie"``; ``"example"`` when empty)."""
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return stem[:60].strip("-") or "example"


def _check(fmt: str) -> None:
    known = [f for _, f in DOWNLOAD_FORMATS]
    if fmt not in known:
        raise InvalidSetupError(f"unknown export format {fmt!r}: use one of {', '.join(known)}")


def _from_example(example: RulebookExample, fmt: str, stem: str, yaml_text: str) -> Download:
    if fmt == "html":
        page = render_html(example)
        return Download(f"{stem}.html", page.encode(), render_fragment(example), page, example)
    if fmt == "pdf":
        from toolkit.rulebook.export_pdf import render_pdf  # fpdf2 takes half a second to import

        data = render_pdf(example)
        note = (
            f'<p style="color:#555">{html.escape(stem)}.pdf (A4, {len(data) // 1024} kB) prints the example '
            "as it shows here; its text is text (select, copy, search).</p>"
        )
        return Download(f"{stem}.pdf", data, note + render_fragment(example), "", example)
    if fmt == "markdown":
        bundle = ImageBundle("images")
        text = render_markdown(example, bundle)
        data = _zip({f"{stem}.md": text, **{f"images/{n}": svg for n, svg in bundle.files.items()}})
        preview = _markdown_preview(text, bundle, f"{stem}.md")
        return Download(f"{stem}.zip", data, preview, text, example)
    if not yaml_text:
        raise InvalidSetupError("this game has no example file to export: choose HTML, PDF or Markdown")
    return example_download(yaml_text, "yaml", stem)


def example_download(text: str, fmt: str, title: str = "") -> Download:
    """Return an example file's YAML ``text`` replayed and exported as ``fmt`` (one of
    :data:`DOWNLOAD_FORMATS`), its file named after ``title`` (else the example's).

    Raises:
        InvalidSetupError: an unknown format (the accepted ones named).
        NotationError: the example cannot be read or played, with the line at fault.
    """
    _check(fmt)
    if fmt == "yaml":  # the file itself: nothing to replay
        preview = f'<pre class="rb-source" style="white-space:pre-wrap">{html.escape(text)}</pre>'
        return Download(f"{file_stem(title or _title_of(text))}.yaml", text.encode(), preview, text)
    example = from_source(text)
    return _from_example(example, fmt, file_stem(title or example.title), text)


def _title_of(text: str) -> str:
    """The ``title:`` of an example file's YAML, or "" (the file name of a YAML download)."""
    match = re.search(r"^title:\s*['\"]?(.+?)['\"]?\s*$", text, re.MULTILINE)
    return match[1] if match else ""


def state_download(
    state: GameState,
    title: str,
    fmt: str,
    events: Sequence[Event] | None = None,
    viewer: str | None = None,
    yaml_text: str = "",
) -> Download:
    """Return a game of a registered system so far (a stepper's; the ``events`` revealed, as
    ``viewer`` may see them) exported as ``fmt``; ``yaml`` needs the game's example file
    (``yaml_text``).

    Raises:
        InvalidSetupError: an unknown format, a state of no registered system, or YAML asked
            of a game that has no example file.
    """
    _check(fmt)
    if not title:  # untitled: named after its system ("Angry Miniatures example"), never "An example"
        from toolkit import systems
        from toolkit.rulebook.export_model import system_of_state

        title = f"{systems.system(system_of_state(state)).title} example"
    example = from_state(state, title, events=events, viewer=viewer)
    return _from_example(example, fmt, file_stem(title), yaml_text)


def examples_download(texts: Sequence[str], fmt: str, name: str) -> Download:
    """Return several example files exported together as ``fmt``: one ``.zip`` named
    ``name`` holding a file per example (and, for Markdown, their shared ``images/``); for
    ``pdf``, one PDF named ``name``, each example from a new page.

    Raises:
        InvalidSetupError: no example chosen, or an unknown format.
        NotationError: an example cannot be read or played.
    """
    _check(fmt)
    if not texts:
        raise InvalidSetupError("no example chosen: tick the examples to export")
    if fmt == "pdf":  # one document to print, each example from a new page
        from toolkit.rulebook.export_pdf import render_pdf

        examples = [from_source(text) for text in texts]
        data = render_pdf(examples, name)
        note = (
            f'<p style="color:#555"><b>{html.escape(file_stem(name))}.pdf</b> prints the {len(examples)} examples '
            f"below, each from a new page (A4, {len(data) // 1024} kB).</p>"
        )
        return Download(f"{file_stem(name)}.pdf", data, note + "".join(render_fragment(e) for e in examples), "")
    files: dict[str, str | bytes] = {}
    previews = []
    for k, text in enumerate(texts, 1):
        example = from_source(text)
        stem = f"{k:02d}-{file_stem(example.title)}"
        one = _from_example(example, fmt, stem, text)
        if fmt == "markdown":
            with zipfile.ZipFile(io.BytesIO(one.data)) as z:
                for member in z.namelist():
                    files[member] = z.read(member)
        else:
            files[one.file_name] = one.data
        previews.append(one.preview)
    stem = file_stem(name)
    listing = ", ".join(html.escape(n) for n in files if not n.startswith("images/"))
    pictures = sum(n.startswith("images/") for n in files)
    note = f"<p><b>{html.escape(stem)}.zip</b> holds {listing}" + (
        f" and {pictures} picture files in images/.</p>" if pictures else ".</p>"
    )
    return Download(f"{stem}.zip", _zip(files), note + "".join(previews), "", None)


def download_link(download: Download, label: str = "") -> str:
    """Return an HTML link that saves ``download`` (a ``download`` attribute and a
    ``data:`` URL: no server, no network), styled as a button."""
    href = f"data:{download.mime};base64,{base64.b64encode(download.data).decode('ascii')}"
    text = label or f"Download {download.file_name}"
    return (
        f'<a class="rb-download" download="{html.escape(download.file_name, quote=True)}" href="{href}" '
        'style="display:inline-block;padding:.3em .9em;border:1px solid #1c7ed6;border-radius:4px;'
        f'background:#e7f5ff;color:#1864ab;text-decoration:none;font-weight:600">{html.escape(text)}</a>'
    )


def zip_names(data: bytes) -> list[str]:
    """Return the names of the files in a ``.zip`` download."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.namelist()


def _zip(files: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in files.items():
            z.writestr(name, content.encode() if isinstance(content, str) else content)
    return buffer.getvalue()


def _markdown_preview(text: str, bundle: ImageBundle, name: str) -> str:
    """The Markdown as it renders, its linked pictures shown from the bundle (the preview
    only), under a line saying what the download holds."""
    import mistune

    body = text.split("\n<!--", 1)[0]  # the expectations' comment is not shown
    rendered = mistune.create_markdown(escape=True)(body)
    for file_name, svg in bundle.files.items():
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
        rendered = rendered.replace(f'src="{bundle.link}/{file_name}"', f'src="{uri}"')
    pictures = len(bundle.files)
    held = f"{name} and {pictures} picture file{'' if pictures == 1 else 's'} in images/"
    return (
        f'<p style="color:#555">The download holds {html.escape(held)}. The Markdown renders as:</p>'
        '<div class="rb-markdown" style="border:1px solid #ccc;padding:.3em 1em;max-width:46em">'
        f"<style>.rb-markdown img{{height:1.8em;vertical-align:middle}}</style>{rendered}</div>"
    )
