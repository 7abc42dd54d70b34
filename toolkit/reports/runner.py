"""Run report notebooks with papermill and export them to self-contained HTML.

A report is a notebook ``notebooks/<name>_report.ipynb``; its command-line name is the
stem without ``_report``, underscores as dashes (``angry_miniatures_report.ipynb`` is
``angry-miniatures``). A strategy report ``notebooks/<name>_strategy.ipynb`` is one too,
named with its ``strategy`` (``fairy_meat_strategy.ipynb`` is ``fairy-meat-strategy``).
Its parameters are the assignments of the cell tagged
``parameters``; their types come from an annotation (``max_dice: int = 10``) or
else from the literal default (``max_dice = 10``).

Papermill only warns about an unknown parameter and never checks types, so
:func:`validate_parameters` does both before a run.

>>> parse_cli_value("8"), parse_cli_value("[4, 6]"), parse_cli_value("true"), parse_cli_value("melee")
(8, [4, 6], True, 'melee')
>>> parse_cli_value("8", "str")
'8'
>>> spec = ParameterSpec("max_dice", "int", "10", "largest pool")
>>> spec.describe()
'max_dice: int = 10  # largest pool'
"""

from __future__ import annotations

import ast
import html
import re
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolkit.errors import InvalidSetupError, ToolkitError

__all__ = [
    "REPORTS",
    "BatchResult",
    "Job",
    "JobResult",
    "ParameterSpec",
    "ReportFailed",
    "ReportIndex",
    "check_kernel",
    "default_notebooks_dir",
    "discover_reports",
    "find_report",
    "load_parameter_file",
    "notebook_parameters",
    "notebook_title",
    "parse_cli_value",
    "render_html",
    "run_batch",
    "run_report",
    "validate_parameters",
]

REPORT_SUFFIX = "_report.ipynb"
#: Strategy reports (game-theory analyses) keep "strategy" in their name.
STRATEGY_SUFFIX = "_strategy.ipynb"

#: Parameter types the runner checks; ``None`` in :attr:`ParameterSpec.type_name` means any.
CHECKED_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "str": (str,),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
}

_ANNOTATION_TYPES = {
    "int": "int",
    "float": "float",
    "str": "str",
    "bool": "bool",
    "list": "list",
    "List": "list",
    "tuple": "list",
    "Tuple": "list",
    "Sequence": "list",
    "dict": "dict",
    "Dict": "dict",
    "Mapping": "dict",
}

_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


# -- finding reports -------------------------------------------------------------------
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

    >>> report_name(Path("notebooks/angry_miniatures_report.ipynb"))
    'angry-miniatures'
    >>> report_name(Path("notebooks/fairy_meat_strategy.ipynb"))
    'fairy-meat-strategy'
    """
    if path.name.endswith(REPORT_SUFFIX):
        return path.name[: -len(REPORT_SUFFIX)].replace("_", "-")
    return path.stem.replace("_", "-")


def discover_reports(notebooks_dir: Path | str | None = None) -> dict[str, Path]:
    """Return report name -> notebook path for every ``*_report.ipynb`` and
    ``*_strategy.ipynb`` in the notebooks directory (default :func:`default_notebooks_dir`),
    sorted by name."""
    directory = Path(notebooks_dir) if notebooks_dir is not None else default_notebooks_dir()
    if not directory.is_dir():
        return {}
    paths = [*directory.glob("*" + REPORT_SUFFIX), *directory.glob("*" + STRATEGY_SUFFIX)]
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
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return None


# -- parameters ------------------------------------------------------------------------
@dataclass(frozen=True)
class ParameterSpec:
    """One parameter of a report notebook.

    ``type_name`` is one of ``int``, ``float``, ``str``, ``bool``, ``list``, ``dict``, or
    ``None`` when any value is accepted (a ``None`` default, or a default that is not a
    literal such as ``list(range(3))``). ``default`` is the default's source text.
    """

    name: str
    type_name: str | None
    default: str
    help: str = ""

    def accepts(self, value: Any) -> bool:
        """Return whether ``value`` has this parameter's type (an int is a float; a bool
        is not an int)."""
        if self.type_name is None:
            return True
        if isinstance(value, bool) and self.type_name != "bool":
            return False
        return isinstance(value, CHECKED_TYPES[self.type_name])

    def describe(self) -> str:
        """Return ``'name: type = default  # help'`` (type ``any`` when unchecked)."""
        text = f"{self.name}: {self.type_name or 'any'} = {self.default}"
        return f"{text}  # {self.help}" if self.help else text


def _type_of_default(default: str) -> str | None:
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    for name in ("bool", "int", "float", "str", "list", "dict"):
        if type(value) is CHECKED_TYPES[name][0]:
            return name
    if isinstance(value, tuple):
        return "list"
    return None


def _type_of_annotation(annotation: str) -> str | None:
    base = annotation.split("[", 1)[0].strip()
    return _ANNOTATION_TYPES.get(base)


def notebook_parameters(path: Path | str) -> dict[str, ParameterSpec]:
    """Return the parameters of the notebook's cell tagged ``parameters``, in order
    (empty when there is no such cell), using ``papermill.inspect_notebook``."""
    import papermill

    path = Path(path)
    if not path.is_file():
        raise InvalidSetupError(f"no notebook at {str(path)!r}")
    try:
        inspected = papermill.inspect_notebook(str(path))
    except Exception as exc:  # papermill raises plain ValueError/JSON errors here
        raise InvalidSetupError(f"cannot read the parameters of {str(path)!r}: {exc}") from exc
    specs: dict[str, ParameterSpec] = {}
    for name, p in inspected.items():
        declared = p.get("inferred_type_name") or "None"
        default = str(p.get("default", ""))
        type_name = _type_of_annotation(declared) if declared != "None" else _type_of_default(default)
        specs[name] = ParameterSpec(name, type_name, default, str(p.get("help") or ""))
    return specs


def _accepted_list(specs: Mapping[str, ParameterSpec]) -> str:
    if not specs:
        return "it accepts no parameters"
    shown = "; ".join(f"{s.name}: {s.type_name or 'any'} (default {s.default})" for s in specs.values())
    return f"accepted parameters: {shown}"


def validate_parameters(path: Path | str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``params`` checked against the notebook's parameters cell, ints given for
    float parameters turned into floats.

    An unknown name or a value of the wrong type raises :class:`InvalidSetupError`
    naming it and listing every accepted parameter with its type and default.
    """
    specs = notebook_parameters(path)
    where = Path(path).name
    checked: dict[str, Any] = {}
    for name, value in params.items():
        spec = specs.get(name)
        if spec is None:
            raise InvalidSetupError(f"{where} has no parameter {name!r}; {_accepted_list(specs)}")
        if not spec.accepts(value):
            raise InvalidSetupError(
                f"parameter {name!r} of {where} must be {spec.type_name} (default {spec.default}), "
                f"got {value!r} ({type(value).__name__})"
            )
        if spec.type_name == "float" and isinstance(value, int):
            value = float(value)
        checked[name] = value
    return checked


def parse_cli_value(text: str, type_name: str | None = None) -> Any:
    """Return the value of a command-line ``-p NAME VALUE``, read as YAML (``yaml.safe_load``,
    never ``eval``): ``8`` is an int, ``[4, 6]`` a list, ``true`` a bool, ``melee`` a str.

    Text that is not valid YAML stays a str. With ``type_name="str"`` the text is taken
    as it is (``-p label 8`` gives ``'8'``); with ``"float"`` forms YAML reads as text,
    such as ``1e3``, are read as floats.
    """
    import yaml

    if type_name == "str":
        return text
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if type_name == "float" and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


# -- parameter files -------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """One report run: the report name, its parameters and an optional output name."""

    report: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = None

    @property
    def output_name(self) -> str:
        """The output file stem: ``name`` if given, else the report name."""
        return self.name or self.report


def check_output_name(name: str, where: str = "output name") -> str:
    """Return ``name`` if it is usable as an output file stem (letters, digits, ``.``,
    ``_``, ``-``; not ``index``), else raise :class:`InvalidSetupError`."""
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name) or name == "index":
        raise InvalidSetupError(
            f"{where} {name!r} is not usable as a file name: use letters, digits, '.', '_' "
            "and '-' (starting with a letter or digit), and not 'index' (the batch index)"
        )
    return name


def _batch_dir() -> Path:
    return repository_root() / "data" / "batch"


def load_parameter_file(path: Path | str) -> list[Job]:
    """Return the jobs of a YAML parameter file of the form::

        reports:
          - report: angry-miniatures
            name: am-small          # optional output name
            parameters: {max_dice: 6}

    A bare file name not found is also looked for in ``data/batch/``. A bad structure
    raises :class:`InvalidSetupError` naming the file and the problem. Report names and
    parameters are checked against the notebooks only when the jobs run.
    """
    import yaml

    path = Path(path)
    if not path.is_file() and not path.is_absolute() and (_batch_dir() / path).is_file():
        path = _batch_dir() / path
    where = str(path)
    if not path.is_file():
        raise InvalidSetupError(f"parameter file {where!r} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InvalidSetupError(f"parameter file {where!r} is not valid YAML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise InvalidSetupError(f"parameter file {where!r} is not UTF-8 text: {exc}") from exc

    def bad(problem: str) -> InvalidSetupError:
        return InvalidSetupError(f"parameter file {where!r}: {problem}")

    example = "reports: [{report: NAME, name: OUTPUT, parameters: {NAME: VALUE}}]"
    if not isinstance(data, dict) or "reports" not in data:
        raise bad(f"expected a mapping with a 'reports' list ({example}), got {data!r}")
    unknown = [k for k in data if k != "reports"]
    if unknown:
        raise bad(f"unknown top-level keys {unknown!r}; accepted: 'reports'")
    entries = data["reports"]
    if not isinstance(entries, list) or not entries:
        raise bad(f"'reports' must be a non-empty list of jobs ({example}), got {entries!r}")
    jobs: list[Job] = []
    names: set[str] = set()
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise bad(f"job {i} must be a mapping with 'report' and optional 'name', 'parameters'; got {entry!r}")
        extra = [k for k in entry if k not in ("report", "name", "parameters")]
        if extra:
            raise bad(f"job {i} has unknown keys {extra!r}; accepted: 'report', 'name', 'parameters'")
        report = entry.get("report")
        if not isinstance(report, str) or not report:
            raise bad(f"job {i} needs 'report: NAME' (a report name), got {report!r}")
        name = entry.get("name")
        if name is not None:
            if not isinstance(name, str):
                raise bad(f"job {i}: 'name' must be a string, got {name!r}")
            try:
                check_output_name(name, where=f"job {i} name")
            except InvalidSetupError as exc:
                raise bad(str(exc)) from None
            if name in names:
                raise bad(f"job {i}: output name {name!r} is used twice")
            names.add(name)
        parameters = entry.get("parameters")
        if parameters is None:
            parameters = {}
        if not isinstance(parameters, dict) or not all(isinstance(k, str) for k in parameters):
            raise bad(f"job {i}: 'parameters' must be a mapping of parameter names to values, got {parameters!r}")
        jobs.append(Job(report, parameters, name))
    return jobs


# -- running ---------------------------------------------------------------------------
class ReportFailed(ToolkitError):
    """A report notebook raised an error while running (or its kernel died).

    ``report`` is the report name; for an error in a cell, ``cell_index`` is the cell's
    0-based index in the report notebook, ``first_line`` its first source line, ``ename``
    and ``evalue`` the error. ``notebook_path``/``html_path`` are the partial outputs.
    """

    def __init__(
        self,
        message: str,
        *,
        report: str,
        cell_index: int | None = None,
        first_line: str | None = None,
        ename: str | None = None,
        evalue: str | None = None,
        notebook_path: Path | None = None,
        html_path: Path | None = None,
    ):
        super().__init__(message)
        self.report = report
        self.cell_index = cell_index
        self.first_line = first_line
        self.ename = ename
        self.evalue = evalue
        self.notebook_path = notebook_path
        self.html_path = html_path


def check_kernel(kernel_name: str) -> None:
    """Raise :class:`InvalidSetupError` listing the installed kernels if ``kernel_name``
    is not one of them."""
    from jupyter_client.kernelspec import KernelSpecManager

    specs = KernelSpecManager().find_kernel_specs()
    if kernel_name not in specs:
        raise InvalidSetupError(
            f"no Jupyter kernel {kernel_name!r}; installed kernels: {', '.join(sorted(specs)) or 'none'} "
            "(install one with: python -m ipykernel install --sys-prefix --name python3)"
        )


def _first_line(source: str) -> str:
    for line in source.splitlines():
        if line.strip():
            line = line.strip()
            return line if len(line) <= 80 else line[:77] + "..."
    return ""


def _original_cell_index(executed: Path, cell_index: int) -> int:
    """Map papermill's cell index (counting its injected-parameters cell) to the index of
    the same cell in the report notebook."""
    import nbformat

    try:
        nb = nbformat.read(str(executed), as_version=4)
    except Exception:
        return cell_index
    cells = [c for c in nb.cells if "papermill-error-cell-tag" not in c.metadata.get("tags", [])]
    injected = sum("injected-parameters" in c.metadata.get("tags", []) for c in cells[:cell_index])
    return cell_index - injected


def _format_value(value: Any) -> str:
    return repr(value)


def _parameter_summary(path: Path, values: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """Return (name, shown value, given) for every parameter of the notebook."""
    specs = notebook_parameters(path)
    rows = [
        (name, _format_value(values[name]) if name in values else spec.default, name in values)
        for name, spec in specs.items()
    ]
    return rows


def render_html(
    notebook_path: Path | str,
    html_path: Path | str,
    *,
    title: str | None = None,
    parameters: Iterable[tuple[str, str, bool]] = (),
    show_code: bool = False,
) -> Path:
    """Write an executed notebook as one HTML file (nbconvert, template ``lab``) and
    return its path. Without ``show_code`` only prose, tables, charts and errors show.
    ``parameters`` rows ``(name, value text, given)`` are listed at the top."""
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(notebook_path), as_version=4)
    rows = list(parameters)
    if rows:
        given = [f"<code>{html.escape(n)} = {html.escape(v)}</code>" for n, v, g in rows if g]
        default = [f"<code>{html.escape(n)} = {html.escape(v)}</code>" for n, v, g in rows if not g]
        parts = []
        if given:
            parts.append("Run with " + ", ".join(given) + ".")
        if default:
            parts.append(("Defaults: " if given else "All defaults: ") + ", ".join(default) + ".")
        cell = nbformat.v4.new_markdown_cell('<div class="toolkit-parameters"><p>' + " ".join(parts) + "</p></div>")
        nb.cells.insert(0, cell)
    exporter = HTMLExporter(template_name="lab")
    exporter.exclude_input = not show_code
    exporter.exclude_input_prompt = not show_code
    exporter.exclude_output_prompt = not show_code
    resources = {"metadata": {"name": title or Path(html_path).stem}}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    html_path = Path(html_path)
    html_path.write_text(body, encoding="utf-8")
    return html_path


def _ordinal(position: tuple[int, int]) -> str:
    return f"[{position[0]}/{position[1]}]"


def run_report(
    name: str,
    params: Mapping[str, Any] | None,
    output_dir: Path | str,
    *,
    kernel_name: str = "python3",
    progress: Callable[[str], Any] = print,
    notebooks_dir: Path | str | None = None,
    show_code: bool = False,
    output_name: str | None = None,
    position: tuple[int, int] = (1, 1),
) -> Path:
    """Run report ``name`` with ``params`` and return the path of its HTML,
    ``<output_dir>/<output_name or name>.html`` (the executed ``.ipynb`` is kept beside it).

    Parameters are checked first (:class:`InvalidSetupError`); an error in the notebook
    raises :class:`ReportFailed` naming the cell (its HTML up to the error is still
    written). ``progress`` gets one line when the run starts and one when it ends;
    ``position`` is ``(i, n)`` in a batch.
    """
    import papermill
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from papermill.exceptions import PapermillExecutionError

    notebook = find_report(name, notebooks_dir)
    values = validate_parameters(notebook, params or {})
    stem = check_output_name(output_name or name)
    out_dir = Path(output_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    executed = out_dir / f"{stem}.ipynb"
    html_path = out_dir / f"{stem}.html"
    label = f"{_ordinal(position)} {stem}"
    summary = _parameter_summary(notebook, values)
    title = notebook_title(notebook) or name
    if stem != name:
        title = f"{title} ({stem})"

    def render() -> Path | None:
        try:
            return render_html(executed, html_path, title=title, parameters=summary, show_code=show_code)
        except Exception:
            return None

    for stale in (executed, html_path):  # never leave a previous run's output behind a failure
        stale.unlink(missing_ok=True)
    progress(f"{label}: running {name}…")
    start = time.perf_counter()
    try:
        papermill.execute_notebook(
            str(notebook),
            str(executed),
            parameters=values,
            kernel_name=kernel_name,
            progress_bar=sys.stderr.isatty(),
            cwd=str(notebook.parent),
        )
    except PapermillExecutionError as exc:
        seconds = time.perf_counter() - start
        index = _original_cell_index(executed, exc.cell_index)
        line = _first_line(exc.source or "")
        partial = render() if executed.is_file() else None
        progress(f"{label}: FAILED after {seconds:.1f} s ({exc.ename} in cell index {index})")
        raise ReportFailed(
            f"report {name!r} failed at cell index {index} (first line: {line!r}): "
            f"{exc.ename}: {exc.evalue}; the executed notebook with the traceback is {str(executed)!r}",
            report=name,
            cell_index=index,
            first_line=line,
            ename=exc.ename,
            evalue=exc.evalue,
            notebook_path=executed,
            html_path=partial,
        ) from None
    except NoSuchKernel:
        check_kernel(kernel_name)
        raise
    except (DeadKernelError, CellTimeoutError, RuntimeError) as exc:  # kernel died, timed out
        seconds = time.perf_counter() - start
        progress(f"{label}: FAILED after {seconds:.1f} s ({type(exc).__name__})")
        raise ReportFailed(
            f"report {name!r} could not run: {type(exc).__name__}: {exc}",
            report=name,
            ename=type(exc).__name__,
            evalue=str(exc),
            notebook_path=executed if executed.is_file() else None,
        ) from exc
    render_html(executed, html_path, title=title, parameters=summary, show_code=show_code)
    seconds = time.perf_counter() - start
    progress(f"{label}: done in {seconds:.1f} s -> {html_path}")
    return html_path


@dataclass(frozen=True)
class JobResult:
    """What became of one job of a batch: ``status`` is ``'ok'`` or ``'failed'`` (then
    ``error`` is the message); ``html_path`` may exist for a failed run (partial report)."""

    job: Job
    output_name: str
    status: Literal["ok", "failed"]
    html_path: Path | None
    notebook_path: Path | None
    seconds: float
    error: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class BatchResult:
    """The results of :func:`run_batch`, in job order, and the index page (if written)."""

    results: tuple[JobResult, ...]
    index_path: Path | None

    @property
    def failed(self) -> tuple[JobResult, ...]:
        """The jobs that failed."""
        return tuple(r for r in self.results if r.status == "failed")

    @property
    def ok(self) -> bool:
        """Whether every job succeeded."""
        return not self.failed


def _unique_names(jobs: list[Job]) -> list[str]:
    taken = {j.name for j in jobs if j.name}
    names: list[str] = []
    for job in jobs:
        if job.name:
            names.append(job.name)
            continue
        candidate, k = job.report, 1
        while candidate in taken or candidate == "index":
            k += 1
            candidate = f"{job.report}-{k}"
        taken.add(candidate)
        names.append(candidate)
    return names


def _title_of(report: str, notebooks_dir: Path | str | None) -> str | None:
    try:
        return notebook_title(find_report(report, notebooks_dir))
    except Exception:
        return None


def _as_job(job: Job | tuple[str, Mapping[str, Any]]) -> Job:
    if isinstance(job, Job):
        return job
    report, parameters = job
    return Job(report, dict(parameters))


def run_batch(
    jobs: Iterable[Job | tuple[str, Mapping[str, Any]]],
    output_dir: Path | str,
    *,
    kernel_name: str = "python3",
    progress: Callable[[str], Any] = print,
    notebooks_dir: Path | str | None = None,
    show_code: bool = False,
    write_index: bool = True,
) -> BatchResult:
    """Run every job (a :class:`Job` or a ``(report, parameters)`` pair), carrying on after
    a failure, and return a :class:`BatchResult`. Writes ``<output_dir>/index.html``
    linking each report with its parameters and status (unless ``write_index`` is false).
    Jobs left unnamed that share a report are named ``report``, ``report-2``, …"""
    job_list = [_as_job(j) for j in jobs]
    names = _unique_names(job_list)
    out_dir = Path(output_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    results: list[JobResult] = []
    for i, (job, stem) in enumerate(zip(job_list, names, strict=True), start=1):
        start = time.perf_counter()
        title = _title_of(job.report, notebooks_dir)
        try:
            html_path = run_report(
                job.report,
                job.parameters,
                out_dir,
                kernel_name=kernel_name,
                progress=progress,
                notebooks_dir=notebooks_dir,
                show_code=show_code,
                output_name=stem,
                position=(i, len(job_list)),
            )
        except ReportFailed as exc:
            results.append(
                JobResult(
                    job, stem, "failed", exc.html_path, exc.notebook_path, time.perf_counter() - start, str(exc), title
                )
            )
        except Exception as exc:  # a bad job or a crash must not stop the batch
            message = str(exc) if isinstance(exc, ToolkitError) else f"{type(exc).__name__}: {exc}"
            progress(f"{_ordinal((i, len(job_list)))} {stem}: FAILED ({message})")
            results.append(JobResult(job, stem, "failed", None, None, time.perf_counter() - start, message, title))
        else:
            notebook = html_path.with_suffix(".ipynb")
            results.append(JobResult(job, stem, "ok", html_path, notebook, time.perf_counter() - start, None, title))
    index = write_batch_index(results, out_dir / "index.html") if write_index else None
    return BatchResult(tuple(results), index)


_INDEX_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.8em; text-align: left; vertical-align: top; }
code { font-size: 0.9em; }
.ok { color: #1a7f37; font-weight: bold; }
.failed { color: #cf222e; font-weight: bold; }
.title { color: #555; font-size: 0.9em; }
.error { color: #cf222e; white-space: pre-wrap; max-width: 50em; }
"""


def _link(path: Path | None, text: str) -> str:
    if path is None:
        return html.escape(text)
    href = html.escape(urllib.parse.quote(path.name), quote=True)
    return f'<a href="{href}">{html.escape(text)}</a>'


def write_batch_index(results: Iterable[JobResult], path: Path | str) -> Path:
    """Write the batch index page (every text HTML-escaped) and return its path."""
    rows = []
    results = list(results)
    for r in results:
        params = (
            "<br>".join(
                f"<code>{html.escape(str(k))} = {html.escape(_format_value(v))}</code>"
                for k, v in r.job.parameters.items()
            )
            or "defaults"
        )
        status = f'<span class="{r.status}">{r.status}</span>'
        if r.error:
            status += f'<div class="error">{html.escape(r.error)}</div>'
        notebook = _link(r.notebook_path, "notebook") if r.notebook_path else ""
        title = f'<div class="title">{html.escape(r.title)}</div>' if r.title else ""
        rows.append(
            "<tr>"
            f"<td>{_link(r.html_path, r.output_name)}</td>"
            f"<td>{html.escape(r.job.report)}{title}</td>"
            f"<td>{params}</td>"
            f"<td>{status}</td>"
            f"<td>{r.seconds:.1f} s</td>"
            f"<td>{notebook}</td>"
            "</tr>"
        )
    failed = sum(r.status == "failed" for r in results)
    summary = f"{len(results)} reports, {len(results) - failed} ok, {failed} failed"
    page = (
        '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>Reports</title>\n'
        f"<style>{_INDEX_STYLE}</style>\n</head>\n<body>\n<h1>Reports</h1>\n"
        f"<p>{html.escape(summary)} ({html.escape(time.strftime('%Y-%m-%d %H:%M'))})</p>\n"
        "<table>\n<thead><tr><th>Output</th><th>Report</th><th>Parameters</th><th>Status</th>"
        "<th>Time</th><th>Executed</th></tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
        "</body>\n</html>\n"
    )
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path
