"""Running report notebooks with papermill and exporting them to self-contained HTML,
one report or a batch.
"""

from __future__ import annotations

import html
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.reports.batch_index import write_batch_index
from toolkit.reports.discovery import find_report, notebook_title
from toolkit.reports.jobs import Job, check_output_name
from toolkit.reports.parameters import format_value, notebook_parameters, validate_parameters

__all__ = [
    "BatchResult",
    "JobResult",
    "ReportFailed",
    "check_kernel",
    "render_html",
    "run_batch",
    "run_report",
]


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


def _parameter_summary(path: Path, values: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """Return (name, shown value, given) for every parameter of the notebook."""
    specs = notebook_parameters(path)
    rows = [
        (name, format_value(values[name]) if name in values else spec.default, name in values)
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
