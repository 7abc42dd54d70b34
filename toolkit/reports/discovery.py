"""Finding report notebooks: ``notebooks/<name>_report.ipynb`` (and ``*_strategy.ipynb``,
``*_examples.ipynb``) and their command-line names.

A report's command-line name is the stem without ``_report``, underscores as dashes
(``angry_miniatures_report.ipynb`` is ``angry-miniatures``); a strategy report keeps
``strategy`` in its name (``fairy_meat_strategy.ipynb`` is ``fairy-meat-strategy``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from toolkit.errors import InvalidSetupError
from toolkit.reports.notebook_libraries import notebook_library

__all__ = [
    "REPORTS",
    "REPORT_SUFFIX",
    "STRATEGY_SUFFIX",
    "EXAMPLES_SUFFIX",
    "ReportIndex",
    "default_notebooks_dir",
    "discover_reports",
    "find_report",
    "notebook_title",
    "report_name",
    "repository_root",
]

REPORT_SUFFIX = "_report.ipynb"
#: Strategy reports (game-theory analyses) keep "strategy" in their name.
STRATEGY_SUFFIX = "_strategy.ipynb"
#: Pages of rule-book examples (``rulebook_examples.ipynb`` is ``rulebook-examples``).
EXAMPLES_SUFFIX = "_examples.ipynb"


def repository_root() -> Path:
    """Return the repository root: the parent of the ``toolkit`` package directory."""
    return Path(__file__).resolve().parent.parent.parent


def default_notebooks_dir() -> Path:
    """Return the directory of the report notebooks: ``notebooks/`` at the repository root
    (``./notebooks`` when the package is installed elsewhere and that does not exist)."""
    beside = repository_root() / "notebooks"
    if beside.is_dir():
        return beside
    return Path.cwd() / "notebooks"


def report_name(path: Path) -> str:
    """Return the command-line name of a report notebook path.

    >>> report_name(Path("notebooks/coin_duel_report.ipynb"))
    'coin-duel'
    >>> report_name(Path("notebooks/coin_duel_strategy.ipynb"))
    'coin-duel-strategy'
    >>> report_name(Path("notebooks/rulebook_examples.ipynb"))
    'rulebook-examples'
    """
    if path.name.endswith(REPORT_SUFFIX):
        return path.name[: -len(REPORT_SUFFIX)].replace("_", "-")
    return path.stem.replace("_", "-")


def discover_reports(notebooks_dir: Path | str | None = None) -> dict[str, Path]:
    """Return report name -> notebook path for every ``*_report.ipynb``,
    ``*_strategy.ipynb`` and ``*_examples.ipynb`` in the notebooks directory (default :func:`default_notebooks_dir`),
    sorted by name."""
    directory = Path(notebooks_dir) if notebooks_dir is not None else default_notebooks_dir()
    if not directory.is_dir():
        return {}
    paths = [directory.glob("*" + suffix) for suffix in (REPORT_SUFFIX, STRATEGY_SUFFIX, EXAMPLES_SUFFIX)]
    paths = [p for found in paths for p in found]
    found = {report_name(p): p for p in paths if p.is_file()}
    return dict(sorted(found.items()))


class ReportIndex(Mapping[str, Path]):
    """The reports of a notebooks directory as a read-only mapping name -> notebook path.

    It looks at the directory on every access, so a notebook added while a session runs
    is a report at once.
    """

    def __init__(self, notebooks_dir: Path | str | None = None):
        self.notebooks_dir = notebooks_dir

    def _reports(self) -> dict[str, Path]:
        return discover_reports(self.notebooks_dir)

    def __getitem__(self, name: str) -> Path:
        return self._reports()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._reports())

    def __len__(self) -> int:
        return len(self._reports())

    def __repr__(self) -> str:
        return f"ReportIndex({self._reports()!r})"


#: Every report of the repository's ``notebooks/`` directory, name -> notebook path.
REPORTS: Mapping[str, Path] = ReportIndex()


def find_report(name: str, notebooks_dir: Path | str | None = None) -> Path:
    """Return the notebook path of report ``name``; unknown names raise
    :class:`InvalidSetupError` listing the reports there are."""
    reports = discover_reports(notebooks_dir)
    if name in reports:
        return reports[name]
    directory = Path(notebooks_dir) if notebooks_dir is not None else default_notebooks_dir()
    if not reports:
        raise InvalidSetupError(
            f"unknown report {name!r}: there are no reports (no *{REPORT_SUFFIX} in {str(directory)!r})"
        )
    raise InvalidSetupError(f"unknown report {name!r}; reports: {', '.join(reports)}")


def notebook_title(path: Path | str) -> str | None:
    """Return the text of the first Markdown ``# heading`` of a notebook, or ``None``."""
    nbformat = notebook_library("nbformat")

    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return None
