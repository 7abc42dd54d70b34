"""What a stepper's Export shows: a preview of the export and a link that downloads it,
with its source folded away to copy (never a raw text box alone).

The download is an HTML link with a ``download`` attribute and a ``data:`` URL (ipywidgets
has no download widget; its HTML widget shows such a link, and the browser saves the file
without a server). What the file holds is made by :mod:`toolkit.rulebook.download`.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit.widgets.common import coloured, esc

__all__ = ["ExportView"]


class ExportView:
    """The preview, the download link and the folded source of one export.

    Attributes:
        preview: the export as it will look (HTML at its own height).
        link: the download link (empty until there is something to download).
        source: the main file's text, to copy (in the folded :attr:`source_box`).
        widget: the three, the link first.
    """

    def __init__(self, source_height: str = "14em") -> None:
        self.link = widgets.HTML()
        self.preview = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.source = widgets.Textarea(layout=widgets.Layout(width="100%", height=source_height))
        self.source.add_class("rb-export-source")  # the file itself (YAML keys and all), not page text
        self.source_box = widgets.Accordion(children=[self.source], titles=("Source, to copy",))
        self.source_box.selected_index = None
        self.widget = widgets.VBox([self.link, self.preview, self.source_box], layout=widgets.Layout(width="100%"))

    def show(self, download: Any) -> None:
        """Show a :class:`~toolkit.rulebook.download.Download`: its preview, its link, its source."""
        from toolkit.rulebook.download import download_link

        self.link.value = download_link(download)
        self.preview.value = download.preview
        self.source.value = download.source
        # a PDF has no text to copy: its text is selected in the preview or the PDF itself
        self.source_box.layout.display = None if download.source else "none"

    def show_text(self, text: str, file_name: str = "log.txt") -> None:
        """Show plain text: a preview of it, a link to download it as ``file_name``."""
        from toolkit.rulebook.download import Download, download_link

        self.link.value = download_link(Download(file_name, text.encode(), "", text))
        self.preview.value = f'<pre style="white-space:pre-wrap;font-family:inherit">{esc(text)}</pre>'
        self.source.value = text
        self.source_box.layout.display = None

    def refuse(self, message: str, colour: str = "#c92a2a") -> None:
        """Show why there is nothing to download (no link, the message as the preview)."""
        self.link.value = ""
        self.preview.value = coloured(message, colour)
