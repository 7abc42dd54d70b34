"""Rule-book export: an example as a boxed rule-book paragraph, in HTML,
Markdown or a print-ready PDF, with its cards and poker dice drawn.

``toolkit replay FILE --format html`` (``markdown``, ``pdf``) and the steppers' Export write
what these functions return. The text is the engine's narration of the replayed example
(the event log ``toolkit replay`` prints: setup, each step with its arithmetic and
ruling, the outcome), so it is right by construction; the expectations the file carries
follow, each marked as holding or not, so that a rule change that breaks the example
shows in the export as well as in ``toolkit replay``'s exit code.

>>> from toolkit.examples import EXAMPLES_DIR
>>> page = to_html(EXAMPLES_DIR / "grunk_charges_pixie.yaml")
>>> page.startswith("<!DOCTYPE html>"), page.count('class="rb-die"')
(True, 11)
>>> print(to_markdown(EXAMPLES_DIR / "grunk_charges_pixie.yaml").splitlines()[0])
### Grunk charges Pixie
>>> to_pdf(EXAMPLES_DIR / "grunk_charges_pixie.yaml")[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolkit.engine import Event, GameState
from toolkit.errors import InvalidSetupError
from toolkit.notation import ExampleSource
from toolkit.rulebook.export_html import render_fragment, render_html
from toolkit.rulebook.export_markdown import ImageFiles, render_markdown
from toolkit.rulebook.export_model import RulebookExample, from_source, from_state

__all__ = [
    "FORMATS",
    "to_html",
    "to_markdown",
    "to_pdf",
    "state_to_html",
    "state_to_markdown",
    "export",
    "RulebookExample",
]

#: The export formats, by the name ``toolkit replay --format`` and the steppers use.
FORMATS = ("html", "markdown", "pdf")

Source = str | Path | ExampleSource


def to_html(source: Source, fragment: bool = False) -> str:
    """Return the example (a path, YAML text, or an example already read) replayed and
    written as a self-contained HTML page (``fragment``: an HTML fragment with its own
    scoped style, for a notebook).

    Raises:
        NotationError: the example cannot be read or played, with the line at fault.
    """
    example = from_source(source)
    return render_fragment(example) if fragment else render_html(example)


def to_markdown(source: Source, images: str | Path | None = None, images_link: str | None = None) -> str:
    """Return the example replayed and written as Markdown: given ``images`` (a folder), the
    pictures written there as SVG files and linked as ``images_link/<file>`` (the folder as
    given by default); without it, inline as ``data:`` URIs, which only a terminal or a
    preview should get (GitHub and nbconvert show their alt text alone).

    Raises:
        NotationError: the example cannot be read or played, with the line at fault.
        OSError: the image folder cannot be written.
    """
    sink = ImageFiles(Path(images), images_link or "") if images is not None else None
    return render_markdown(from_source(source), sink)


def to_pdf(source: Source) -> bytes:
    """Return the example replayed and written as a print-ready PDF (A4; its text
    selectable and searchable, its cards and dice drawn as vector paths), its bytes.

    Raises:
        NotationError: the example cannot be read or played, with the line at fault.
    """
    from toolkit.rulebook.export_pdf import render_pdf  # fpdf2 takes half a second to import

    return render_pdf(from_source(source))


def export(
    source: Source, fmt: str, images: str | Path | None = None, images_link: str | None = None
) -> tuple[str | bytes, RulebookExample]:
    """Return the example replayed once and written in the export format ``fmt`` (one of
    :data:`FORMATS`; ``images`` and ``images_link`` as for :func:`to_markdown`), with the
    :class:`RulebookExample` written (its expectations say which hold): text, or the
    bytes of a PDF.

    Raises:
        InvalidSetupError: an unknown format, naming the accepted ones.
        NotationError: the example cannot be read or played.
    """
    if fmt not in FORMATS:
        raise InvalidSetupError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
    example = from_source(source)
    if fmt == "html":
        return render_html(example), example
    if fmt == "pdf":
        from toolkit.rulebook.export_pdf import render_pdf

        return render_pdf(example), example
    sink = ImageFiles(Path(images), images_link or "") if images is not None else None
    return render_markdown(example, sink), example


def state_to_html(
    state: GameState,
    title: str,
    events: Sequence[Event] | None = None,
    viewer: str | None = None,
    fragment: bool = False,
) -> str:
    """Return a game of any registered system so far (a stepper's state; its ``events``,
    or the revealed ones given, as ``viewer`` may read them) as a rule-book HTML page.

    Raises:
        InvalidSetupError: the state is not of a registered system's engine.
    """
    example = from_state(state, title, events=events, viewer=viewer)
    return render_fragment(example) if fragment else render_html(example)


def state_to_markdown(
    state: GameState, title: str, events: Sequence[Event] | None = None, viewer: str | None = None
) -> str:
    """Return a game of any registered system so far as rule-book Markdown (pictures as
    ``data:`` URIs: a preview; :func:`toolkit.rulebook.download.state_download` packs them as
    files); see :func:`state_to_html`."""
    return render_markdown(from_state(state, title, events=events, viewer=viewer))
