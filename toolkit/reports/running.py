"""Running report notebooks with papermill and exporting them to self-contained HTML,
one report or a batch.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.notation import excerpt
from toolkit.reports.batch_index import write_batch_index
from toolkit.reports.discovery import find_report, notebook_title
from toolkit.reports.job_result import JobResult
from toolkit.reports.jobs import Job, check_output_name
from toolkit.reports.literals import INJECTED_TAG, write_parameterised
from toolkit.reports.notebook_libraries import notebook_library
from toolkit.reports.parameters import default_value, notebook_parameters, parameter_words, validate_parameters
from toolkit.whole_numbers import whole_number

__all__ = [
    "DEFAULT_TIMEOUT",
    "BatchBusy",
    "BatchResult",
    "check_output_dir",
    "JobResult",
    "ReportFailed",
    "check_kernel",
    "render_html",
    "parameter_summary",
    "parameters_cell",
    "run_batch",
    "run_report",
    "start_order",
]


#: The default limit on one cell's run time, in seconds (``toolkit report --timeout``).
DEFAULT_TIMEOUT = 600.0

#: The lock file a batch holds in its output folder while it runs.
LOCK_NAME = ".toolkit-batch.lock"
#: What the batches into a folder have produced (the index is rewritten from it).
MANIFEST_NAME = ".toolkit-index.json"


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


#: The one line of a kernel's log that :func:`_quiet_kernel_manager` drops. ipykernel
#: (7.x) warns at every start that its ZeroMQ sockets use TCP without encryption; the
#: report kernels are started by this process on this machine and listen on 127.0.0.1
#: only, so the warning says nothing a designer can act on (and a batch printed it once
#: per report). Every other line the kernel writes, errors included, still reaches stderr.
_TCP_WARNING = b"Kernel is running over TCP without encryption"


#: How a report's kernel is stopped once its last cell has answered (nbclient's
#: ``shutdown_kernel``): ``"immediate"`` kills the kernel's process group at once. Every
#: output has reached the notebook by then; a graceful stop only made the batch wait
#: (0.3-2.7 s a report: the kernel's own teardown and jupyter_client's polling for its
#: end; ipykernel, stopped gracefully, also ends the processes its cells started).
KERNEL_SHUTDOWN = "immediate"


def _forward_kernel_stderr(read_fd: int, target_fd: int = 2) -> None:
    """Copy a kernel's stderr (the read end of its pipe) to ``target_fd`` line by line,
    dropping the :data:`_TCP_WARNING` line; returns when the kernel closes the pipe."""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        for line in iter(pipe.readline, b""):
            if _TCP_WARNING not in line:
                with contextlib.suppress(OSError):  # no terminal left to write to
                    os.write(target_fd, line)


def _dies_with_this_process() -> Callable[[], None] | None:
    """Return what a report's kernel runs between its fork and its start so that it is
    killed when this process ends, however it ends (Linux's parent-death signal; None
    elsewhere). ipykernel watches its parent too, but from a thread: a cell computing in
    one long C call (``Fraction("1e999999999")``) never lets it run, and the kernel went on
    for minutes after the command was killed."""
    import ctypes
    import signal

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def die_with_parent() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the command ended before the signal was asked for
            os.kill(os.getpid(), signal.SIGKILL)

    return die_with_parent


#: Linux's ``prctl`` option: the signal a process gets when its parent ends.
_PR_SET_PDEATHSIG = 1


@cache
def _quiet_kernel_manager() -> type:
    """Return the kernel manager class the report runs use: jupyter_client's
    ``AsyncKernelManager`` (nbclient's default) whose kernel writes its stderr into a
    pipe copied to this process's stderr without the TCP warning (:data:`_TCP_WARNING`)."""
    import threading

    from jupyter_client import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        """A kernel manager whose kernels do not print the TCP-without-encryption warning."""

        async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
            kw.setdefault("preexec_fn", _dies_with_this_process())
            if kw.get("stderr") is not None:  # a caller chose the kernel's stderr: keep it
                await super()._async_launch_kernel(kernel_cmd, **kw)
                return
            read_fd, write_fd = os.pipe()
            try:
                await super()._async_launch_kernel(kernel_cmd, **{**kw, "stderr": write_fd})
            except BaseException:
                os.close(read_fd)
                raise
            finally:
                os.close(write_fd)  # the kernel holds its own copy
            threading.Thread(target=_forward_kernel_stderr, args=(read_fd,), daemon=True).start()

    return QuietKernelManager


def _first_line(source: str) -> str:
    for line in source.splitlines():
        if line.strip():
            line = line.strip()
            return line if len(line) <= 80 else line[:77] + "..."
    return ""


def _original_cell_index(executed: Path, cell_index: int) -> int:
    """Map papermill's cell index (counting its injected-parameters cell) to the index of
    the same cell in the report notebook."""
    nbformat = notebook_library("nbformat")

    try:
        nb = nbformat.read(str(executed), as_version=4)
    except Exception:
        return cell_index
    cells = [c for c in nb.cells if "papermill-error-cell-tag" not in c.metadata.get("tags", [])]
    injected = sum(INJECTED_TAG in c.metadata.get("tags", []) for c in cells[:cell_index])
    return cell_index - injected


def parameter_summary(path: Path, values: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """Return (name in words, value in words, given) for every parameter of the notebook
    (:func:`~toolkit.reports.parameters.parameter_words`: no Python on the page)."""
    specs = notebook_parameters(path)
    return [
        (*parameter_words(name, values[name] if name in values else default_value(spec.default)), name in values)
        for name, spec in specs.items()
    ]


#: The exporter's template: nbconvert's ``lab`` page without the scripts it loads from the
#: network (require.js, MathJax, mermaid, the widgets' manager), so a report opened offline
#: logs no error and asks the network for nothing. The reports need none
#: of them: plotly.js is inlined once by :func:`toolkit.reports.figures.show` and works
#: without require.js, the reports write no TeX and no diagrams, and their outputs hold no
#: live widgets. Its print style sheet (:data:`PRINT_STYLE`) makes the browser's Print a PDF of the report.
OFFLINE_TEMPLATE = "toolkit_offline.html.j2"

#: How a report prints (the browser's Print, "Save as PDF"): A4 with margins, white, no
#: prompts, a chart, a table row, a rule-book example or a short cell never split across
#: pages, a heading kept with what follows it, colours as shown.
PRINT_STYLE = """@media print{
@page{size:A4;margin:14mm}
body,.jp-Notebook{background:#fff!important;padding:0!important;margin:0!important}
.jp-InputPrompt,.jp-OutputPrompt{display:none!important}
.jp-Cell{padding:0!important}
.js-plotly-plot,.plotly-graph-div,figure,img,svg,tr,.rb-example{break-inside:avoid}
h1,h2,h3,h4{break-after:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}"""

_OFFLINE_TEMPLATE_TEXT = (
    """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block extra_css %}<style type="text/css">"""
    + PRINT_STYLE
    + """</style>{% endblock extra_css %}
"""
)


def parameters_cell(rows: list[tuple[str, str, bool]]) -> Any:
    """Return the Markdown cell listing the run's parameters (every text escaped)."""
    nbformat = notebook_library("nbformat")

    given = [f"{html.escape(n)} <b>{html.escape(v)}</b>" for n, v, g in rows if g]
    default = [f"{html.escape(n)} <b>{html.escape(v)}</b>" for n, v, g in rows if not g]
    parts = []
    if given:
        parts.append("Run with " + "; ".join(given) + ".")
    if default:
        parts.append(("Otherwise as by default: " if given else "Run as by default: ") + "; ".join(default) + ".")
    return nbformat.v4.new_markdown_cell('<div class="toolkit-parameters"><p>' + " ".join(parts) + "</p></div>")


def _insert_under_title(nb: Any, cell: Any) -> None:
    """Insert ``cell`` right under the notebook's title (its first Markdown ``# heading``,
    the line :func:`~toolkit.reports.discovery.notebook_title` reads): the title's cell is
    split after the heading, so the introduction follows the inserted cell. Without a
    title the cell goes first."""
    nbformat = notebook_library("nbformat")

    for index, title_cell in enumerate(nb.cells):
        if title_cell.cell_type != "markdown":
            continue
        lines = title_cell.source.splitlines(keepends=True)
        for k, line in enumerate(lines):
            if line.startswith("# "):
                rest = "".join(lines[k + 1 :]).lstrip("\n")
                title_cell.source = "".join(lines[: k + 1]).rstrip("\n")
                after = [cell]
                if rest.strip():
                    tail = nbformat.v4.new_markdown_cell(rest)
                    if "attachments" in title_cell:
                        tail["attachments"] = title_cell["attachments"]
                    after.append(tail)
                nb.cells[index + 1 : index + 1] = after
                return
    nb.cells.insert(0, cell)


def render_html(
    notebook_path: Path | str,
    html_path: Path | str,
    *,
    title: str | None = None,
    parameters: Iterable[tuple[str, str, bool]] = (),
    show_code: bool = False,
) -> Path:
    """Write an executed notebook as one self-contained HTML file and return its path.

    nbconvert's ``lab`` template without network scripts (:data:`OFFLINE_TEMPLATE`): the
    page loads nothing from the network. Without ``show_code`` only prose, tables, charts
    and errors show. ``parameters`` rows ``(name, value text, given)`` are listed in one
    line under the report's title."""
    import jinja2

    nbformat = notebook_library("nbformat")
    HTMLExporter = notebook_library("nbconvert").HTMLExporter

    nb = nbformat.read(str(notebook_path), as_version=4)
    rows = list(parameters)
    if rows:
        _insert_under_title(nb, parameters_cell(rows))
    exporter = HTMLExporter(
        template_name="lab",
        extra_loaders=[jinja2.DictLoader({OFFLINE_TEMPLATE: _OFFLINE_TEMPLATE_TEXT})],
        template_file=OFFLINE_TEMPLATE,
    )
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
    timeout: float | None = DEFAULT_TIMEOUT,
    shown_dir: Path | str | None = None,
) -> Path:
    """Run report ``name`` with ``params`` and return the path of its HTML,
    ``<output_dir>/<output_name or name>.html`` (the executed ``.ipynb`` is kept beside it).

    Parameters are checked first (:class:`InvalidSetupError`); an error in the notebook
    raises :class:`ReportFailed` naming the cell (its HTML up to the error is still
    written). ``progress`` gets one line when the run starts and one when it ends;
    ``position`` is ``(i, n)`` in a batch. A cell running longer than ``timeout``
    seconds (None: no limit) stops the run: :class:`ReportFailed` like any failure.
    ``shown_dir`` is the folder the progress line names for the HTML (a batch writes into
    a temporary folder and moves the report into its output folder, which it names).
    """
    papermill = notebook_library("papermill")
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from papermill.exceptions import PapermillExecutionError

    from toolkit.reports.notebook_saving import report_engine

    notebook = find_report(name, notebooks_dir)
    values = validate_parameters(notebook, params or {})
    stem = check_output_name(output_name or name)
    out_dir = Path(output_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    executed = out_dir / f"{stem}.ipynb"
    html_path = out_dir / f"{stem}.html"
    label = f"{_ordinal(position)} {stem}"
    summary = parameter_summary(notebook, values)
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
    # the parameters are written as checked literals here; papermill's own writer puts a
    # value it does not know between quotes as its str(), which can end the quotes
    write_parameterised(notebook, values, executed)
    try:
        papermill.execute_notebook(
            str(executed),
            str(executed),
            parameters=None,
            kernel_name=kernel_name,
            progress_bar=sys.stderr.isatty(),
            cwd=str(notebook.parent),
            execution_timeout=timeout,
            kernel_manager_class=_quiet_kernel_manager(),
            engine_name=report_engine(),
            shutdown_kernel=KERNEL_SHUTDOWN,
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
    except (DeadKernelError, CellTimeoutError, RuntimeError, TimeoutError) as exc:  # kernel died, timed out
        seconds = time.perf_counter() - start
        progress(f"{label}: FAILED after {seconds:.1f} s ({type(exc).__name__})")
        why = (
            f"a cell ran longer than the timeout of {timeout:g} s (toolkit report --timeout)"
            if isinstance(exc, (CellTimeoutError, TimeoutError)) and timeout
            else f"{type(exc).__name__}: {_first_line(str(exc))}"
        )
        partial = render() if executed.is_file() else None
        raise ReportFailed(
            f"report {name!r} could not run: {why}",
            report=name,
            ename=type(exc).__name__,
            evalue=str(exc),
            notebook_path=executed if executed.is_file() else None,
            html_path=partial,
        ) from None
    render_html(executed, html_path, title=title, parameters=summary, show_code=show_code)
    seconds = time.perf_counter() - start
    shown = html_path if shown_dir is None else Path(shown_dir) / html_path.name
    progress(f"{label}: done in {seconds:.1f} s -> {shown}")
    return html_path


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


class BatchBusy(InvalidSetupError):
    """Another batch is writing into the same output folder."""


def check_output_dir(output_dir: Path | str) -> Path:
    """Return ``output_dir`` resolved if reports can be written there (it need not exist
    yet), without creating anything.

    Raises:
        InvalidSetupError: it is a file, lies under a file, or the folder (or the
            nearest existing folder above it) does not allow writing.
    """
    out = Path(output_dir).expanduser().resolve()
    if out.exists() and not out.is_dir():
        raise InvalidSetupError(f"output {excerpt(str(out))} is a file, not a folder: give a folder with -o")
    existing = out
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidSetupError(
            f"output {excerpt(str(out))} lies under {excerpt(str(existing))}, which is a file: give a folder with -o"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InvalidSetupError(f"cannot write into {excerpt(str(existing))} (permission denied): give another -o")
    return out


class _BatchLock:
    """The output folder's lock (:data:`LOCK_NAME`, holding the batch's process id): a
    second batch into the same folder gets :class:`BatchBusy`; a lock left by a process
    that is gone is taken over."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self.held = False

    def __enter__(self) -> _BatchLock:
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                pid = self._owner()
                if pid is not None and _alive(pid):
                    raise BatchBusy(
                        f"another batch (process {pid}) is writing into {self.path.parent}: wait for it to finish "
                        "or give another -o folder"
                    ) from None
                self.path.unlink(missing_ok=True)  # left by a batch that is gone
                continue
            with os.fdopen(fd, "w") as handle:
                handle.write(str(os.getpid()))
            self.held = True
            return self
        raise BatchBusy(f"cannot lock {self.path.parent} for a batch: remove {self.path} if no batch is running")

    def _owner(self) -> int | None:
        try:
            return int(self.path.read_text().strip() or "0") or None
        except (OSError, ValueError):
            return None

    def __exit__(self, *exc: object) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _move_in(result: JobResult, out_dir: Path) -> JobResult:
    """Move a finished job's files from the batch's own folder into ``out_dir`` (replacing
    the previous run's; a file this run did not produce is removed, so no stale output
    stays behind a failure) and return the result with the new paths."""
    moved: dict[str, Path | None] = {}
    for attr, suffix in (("html_path", ".html"), ("notebook_path", ".ipynb")):
        source = getattr(result, attr)
        target = out_dir / f"{result.output_name}{suffix}"
        if source is not None and Path(source).is_file():
            os.replace(source, target)
            moved[attr] = target
        else:
            target.unlink(missing_ok=True)
            moved[attr] = None
    return replace(result, **moved)


def _read_manifest(out_dir: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads((out_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_index(out_dir: Path, results: list[JobResult]) -> Path:
    """Record ``results`` in the folder's manifest and rewrite ``index.html`` from it,
    keeping only entries whose files are still there (written atomically)."""
    manifest = _read_manifest(out_dir)
    for r in results:
        manifest[r.output_name] = {
            "report": r.job.report,
            "parameters": json.loads(json.dumps(dict(r.job.parameters), default=repr)),
            "status": r.status,
            "seconds": r.seconds,
            "error": r.error,
            "title": r.title,
        }
    rows: list[JobResult] = []
    for stem, entry in list(manifest.items()):
        html_file, notebook = out_dir / f"{stem}.html", out_dir / f"{stem}.ipynb"
        if not html_file.is_file() and not notebook.is_file() and entry.get("status") == "ok":
            del manifest[stem]  # its files are gone: the index must not claim it
            continue
        try:
            job = Job(str(entry["report"]), dict(entry.get("parameters") or {}), stem)
            rows.append(
                JobResult(
                    job,
                    stem,
                    "ok" if entry.get("status") == "ok" else "failed",
                    html_file if html_file.is_file() else None,
                    notebook if notebook.is_file() else None,
                    float(entry.get("seconds") or 0.0),
                    entry.get("error"),
                    entry.get("title"),
                )
            )
        except (KeyError, TypeError, ValueError):
            del manifest[stem]
    temporary = out_dir / f".{MANIFEST_NAME}.{os.getpid()}"
    temporary.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    os.replace(temporary, out_dir / MANIFEST_NAME)
    index_tmp = write_batch_index(rows, out_dir / f".index.html.{os.getpid()}")
    os.replace(index_tmp, out_dir / "index.html")
    return out_dir / "index.html"


def run_batch(
    jobs: Iterable[Job | tuple[str, Mapping[str, Any]]],
    output_dir: Path | str,
    *,
    kernel_name: str = "python3",
    progress: Callable[[str], Any] = print,
    notebooks_dir: Path | str | None = None,
    show_code: bool = False,
    write_index: bool = True,
    timeout: float | None = DEFAULT_TIMEOUT,
    workers: int = 1,
) -> BatchResult:
    """Run every job (a :class:`Job` or a ``(report, parameters)`` pair), carrying on after
    a failure, and return a :class:`BatchResult`. Writes ``<output_dir>/index.html``
    linking each report with its parameters and status (unless ``write_index`` is false).
    Jobs left unnamed that share a report are named ``report``, ``report-2``, …

    The batch holds the folder's lock (a second batch into it gets :class:`BatchBusy`),
    runs each report in its own temporary folder and moves the finished files into
    place, then rewrites the index from what the folder holds: an interrupted batch
    leaves every report either as it was or as this batch finished it. ``timeout`` is
    each cell's limit in seconds (a report that exceeds it fails; the batch goes on).

    ``workers`` above 1 runs the jobs in parallel on a local Dask cluster of that many
    worker processes (:mod:`toolkit.reports.parallel`; never more than there are jobs),
    longest first (by the folder's previous run times, else the notebooks' sizes); 1 runs them one after another in
    this process. Progress lines, results and the index are the same either way, but for the
    parallel batch's first line, at once, that it starts its workers.
    """
    job_list = [_as_job(j) for j in jobs]
    names = _unique_names(job_list)
    whole_number(workers, "workers", 1)
    out_dir = check_output_dir(output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    slots: list[JobResult | None] = [None] * len(job_list)
    index: Path | None = None
    with _BatchLock(out_dir):
        work = Path(tempfile.mkdtemp(prefix=".batch-", dir=out_dir))

        def finish(i: int, result: JobResult) -> None:
            nonlocal index
            result = _move_in(result, out_dir)
            if result.error:  # the message names the files where they now are
                result = replace(result, error=result.error.replace(str(work), str(out_dir)))
            slots[i] = result
            if write_index:
                index = _write_index(out_dir, [result])

        tasks = [
            partial(
                _run_job,
                job,
                stem,
                (i, len(job_list)),
                work,
                kernel_name=kernel_name,
                notebooks_dir=notebooks_dir,
                show_code=show_code,
                timeout=timeout,
                shown_dir=out_dir,
            )
            for i, (job, stem) in enumerate(zip(job_list, names, strict=True), start=1)
        ]
        try:
            if workers > 1 and len(tasks) > 1:
                _run_in_parallel(
                    tasks, job_list, names, out_dir, min(workers, len(tasks)), progress, finish, notebooks_dir
                )
            else:
                for i, task in enumerate(tasks):
                    finish(i, task(progress))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if write_index and index is None:
            index = _write_index(out_dir, [])
    return BatchResult(tuple(r for r in slots if r is not None), index)


def start_order(
    jobs: list[Job], names: list[str], out_dir: Path, notebooks_dir: Path | str | None = None
) -> list[float]:
    """Return each job's priority in a parallel batch (higher starts first): the seconds
    it took in the folder's previous batch (its manifest); a job never run there comes
    before every such job, the largest notebook first (its size stands in for its time:
    in a fresh folder the strategy report starts at once)."""
    previous = _read_manifest(Path(out_dir))

    def priority(i: int) -> float:
        entry = previous.get(names[i])
        seconds = entry.get("seconds") if isinstance(entry, dict) else None
        if isinstance(seconds, (int, float)) and entry.get("report") == jobs[i].report:
            return float(seconds)
        try:
            return 1e9 + find_report(jobs[i].report, notebooks_dir).stat().st_size
        except Exception:  # a bad job fails when it runs; its place in the queue hardly matters
            return 1e9

    return [priority(i) for i in range(len(jobs))]


def _run_in_parallel(
    tasks: list[Callable[[Callable[[str], Any]], JobResult]],
    jobs: list[Job],
    names: list[str],
    out_dir: Path,
    workers: int,
    progress: Callable[[str], Any],
    finish: Callable[[int, JobResult], None],
    notebooks_dir: Path | str | None,
) -> None:
    """Run the batch's tasks on a local Dask cluster, longest first (:func:`start_order`)."""
    from toolkit.reports.parallel import run_parallel

    def failed(i: int, exc: BaseException) -> JobResult:
        message = f"the worker running it failed: {type(exc).__name__}: {_first_line(str(exc))}"
        progress(f"{_ordinal((i + 1, len(jobs)))} {names[i]}: FAILED ({message})")
        return JobResult(
            jobs[i], names[i], "failed", None, None, 0.0, message, _title_of(jobs[i].report, notebooks_dir)
        )

    # the first line at once: the workers take seconds to start (far more on a loaded machine)
    progress(f"{len(jobs)} reports, {workers} at a time: starting {workers} worker processes…")
    order = start_order(jobs, names, out_dir, notebooks_dir)
    run_parallel(tasks, workers, progress, finish, failed=failed, priorities=order)


def _run_job(
    job: Job,
    stem: str,
    position: tuple[int, int],
    work: Path,
    progress: Callable[[str], Any],
    *,
    kernel_name: str,
    notebooks_dir: Path | str | None,
    show_code: bool,
    timeout: float | None,
    shown_dir: Path | None = None,
) -> JobResult:
    """Run one job of a batch into ``work`` and return what became of it (``shown_dir``:
    the folder its progress line names, where the batch moves it)."""
    start = time.perf_counter()
    title = _title_of(job.report, notebooks_dir)
    try:
        html_path = run_report(
            job.report,
            job.parameters,
            work,
            kernel_name=kernel_name,
            progress=progress,
            notebooks_dir=notebooks_dir,
            show_code=show_code,
            output_name=stem,
            position=position,
            timeout=timeout,
            shown_dir=shown_dir,
        )
    except ReportFailed as exc:
        return JobResult(
            job, stem, "failed", exc.html_path, exc.notebook_path, time.perf_counter() - start, str(exc), title
        )
    except Exception as exc:  # a bad job or a crash must not stop the batch
        message = str(exc) if isinstance(exc, ToolkitError) else f"{type(exc).__name__}: {exc}"
        progress(f"{_ordinal(position)} {stem}: FAILED ({message})")
        return JobResult(job, stem, "failed", None, None, time.perf_counter() - start, message, title)
    notebook = html_path.with_suffix(".ipynb")
    return JobResult(job, stem, "ok", html_path, notebook, time.perf_counter() - start, None, title)
