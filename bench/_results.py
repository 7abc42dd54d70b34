"""Where every benchmark script puts its figures: printed, and written as Markdown to
``bench/results/`` (not committed)."""

from __future__ import annotations

from pathlib import Path


def publish(report: str, path: Path) -> None:
    """Print the Markdown ``report`` and write it to ``path`` (creating ``bench/results/``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report, encoding="utf-8")
    print("\n" + report)
    print(f"written to {path}")
