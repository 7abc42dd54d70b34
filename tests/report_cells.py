"""Run a few cells of a report notebook in this process, without a kernel: the parameters
cell (with the values given), the setup cell after it and the cells holding each marker,
in order; collect what they show (HTML of tables and paragraphs, and the plotly figures).
Used by tests/test_one_way_numbers.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


@dataclass
class Shown:
    """What the cells displayed: each HTML block, and each figure given to ``show``."""

    html: list[str] = field(default_factory=list)
    figures: list[Any] = field(default_factory=list)
    namespace: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join(self.html)


def run_cells(notebook: str, parameters: dict[str, Any], *markers: str, monkeypatch: Any) -> Shown:
    """Run ``notebook``'s parameters cell, ``parameters`` over it, its setup cell and each
    code cell containing one of ``markers``; return what they showed."""
    import IPython.display

    import toolkit.reports
    import toolkit.reports.figures

    shown = Shown()

    def display(obj: Any, *args: Any, **kwargs: Any) -> None:
        shown.html.append(obj.data if hasattr(obj, "data") else str(obj))

    def show(fig: Any) -> None:
        shown.figures.append(fig)

    monkeypatch.setattr(IPython.display, "display", display)
    monkeypatch.setattr(toolkit.reports, "show", show)
    monkeypatch.setattr(toolkit.reports.figures, "show", show)
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    start = next(i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", []))
    chosen = [code[start], code[start + 1]]
    for marker in markers:
        hits = [c for c in code if marker in c.source]
        assert len(hits) == 1, f"{marker!r} is in {len(hits)} cells of {notebook}"
        chosen.append(hits[0])
    namespace = shown.namespace
    exec(compile(code[start].source, f"{notebook}:parameters", "exec"), namespace)
    namespace.update(parameters)
    for i, cell in enumerate(chosen[1:], 1):
        exec(compile(cell.source, f"{notebook}:cell{i}", "exec"), namespace)
    return shown
