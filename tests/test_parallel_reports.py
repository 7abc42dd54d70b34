"""Report batches in parallel on a local Dask cluster (issue 14, item 4).

The notebooks are a light stand-in for the fixture ``tests/fixtures/sample_report.ipynb``
made here (the same parameters, one cell that prints them: no pandas or plotly to import,
a kernel run's largest cost; the batch machinery is what is checked here, the sample's
page is checked in tests/test_reports.py), the fixture ``failing_report.ipynb`` (raises in
its third cell) and a notebook made here that never ends. A parallel batch must give what
a sequential one gives: the same results, the same progress lines (each job's in order),
the same index and files, the same timeout and Ctrl-C behaviour; its progress lines name
the output folder, never the batch's temporary ``.batch-*`` folder (issue 13).
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest
from process_progress import wait_while_working

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.reports import running
from toolkit.reports.runner import Job, default_workers, run_batch

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JOBS = [Job("sample", {"n": 2}, "s-1"), Job("failing"), Job("nope"), Job("sample", {"label": "<b>x</b>"})]


def _summary(result, out):
    return [(r.output_name, r.status, r.error and r.error.replace(str(out), "OUT")) for r in result.results]


def _light_notebooks(folder: Path) -> Path:
    """``folder`` with ``sample_report.ipynb``, the fixture's parameters and title with one cell
    printing them, and a copy of the fixture ``failing_report.ipynb``."""
    fixture = nbformat.read(str(FIXTURES / "sample_report.ipynb"), as_version=4)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    title, params = fixture.cells[0], fixture.cells[1]
    assert title.source.startswith("# Sample report") and "parameters" in params.metadata["tags"]
    nb.cells = [title, params, nbformat.v4.new_code_cell('print(f"The sample ran with n = {n} and {label}.")')]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(folder / "sample_report.ipynb"))
    (folder / "failing_report.ipynb").write_bytes((FIXTURES / "failing_report.ipynb").read_bytes())
    return folder


@pytest.fixture(scope="module")
def light(tmp_path_factory) -> Path:
    """The folder of :func:`_light_notebooks`, made once for the module."""
    return _light_notebooks(tmp_path_factory.mktemp("light"))


def _loop_notebooks(folder: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("import time\nwhile True:\n    time.sleep(0.05)")]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(folder / "loop_report.ipynb"))
    return folder


@pytest.fixture(scope="module")
def both_runs(tmp_path_factory, light):
    """The same four jobs one after another and on two workers (three kernel runs each: one
    job fails before its run, one during it), on the light notebooks."""
    runs = {}
    for workers in (1, 2):
        out = tmp_path_factory.mktemp(f"workers{workers}")
        lines: list[str] = []
        start = time.perf_counter()
        result = run_batch(JOBS, out, notebooks_dir=light, progress=lines.append, workers=workers)
        runs[workers] = (result, lines, out.resolve(), time.perf_counter() - start)
    return runs


def test_default_workers_is_sized_to_the_machine_and_the_batch():
    cores = len(os.sched_getaffinity(0))
    assert default_workers(1) == 1
    assert default_workers(100) == cores
    assert default_workers(2) == min(2, cores)
    assert default_workers(0) == 1


@pytest.mark.slow
def test_parallel_batch_gives_the_sequential_results(both_runs):
    sequential, parallel = both_runs[1][0], both_runs[2][0]
    assert _summary(parallel, both_runs[2][2]) == _summary(sequential, both_runs[1][2])  # order, statuses, messages
    assert [r.status for r in parallel.results] == ["ok", "failed", "failed", "ok"]
    assert "ValueError: bad <value> & size 2" in parallel.results[1].error
    assert "unknown report 'nope'" in parallel.results[2].error
    out = both_runs[2][2]
    assert parallel.index_path == out / "index.html"
    index = parallel.index_path.read_text(encoding="utf-8")
    assert index.count('class="ok"') == 2 and index.count('class="failed"') == 2
    assert "&lt;b&gt;x&lt;/b&gt;" in index and "<b>x" not in index
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        [".toolkit-index.json", "index.html", "failing.html", "failing.ipynb"]
        + [f"{s}.{x}" for s in ("s-1", "sample") for x in ("html", "ipynb")]
    )  # no lock, no temporary folder
    for r in parallel.results:  # the paths are where the files now are
        for path in (r.html_path, r.notebook_path):
            assert path is None or (path.parent == out and path.is_file())
    assert str(out) in parallel.results[1].error and ".batch-" not in parallel.results[1].error


@pytest.mark.slow
def test_parallel_progress_lines_are_each_jobs_in_order(both_runs):
    sequential_lines, (first, *lines) = both_runs[1][1], both_runs[2][1]
    assert first == "4 reports, 2 at a time: starting 2 worker processes…"  # at once, before the cluster
    assert sorted(lines) != [] and len(lines) == len(sequential_lines)
    for label in ("[1/4] s-1:", "[2/4] failing:", "[3/4] nope:", "[4/4] sample:"):
        mine = [x for x in lines if x.startswith(label)]
        theirs = [x for x in sequential_lines if x.startswith(label)]
        assert len(mine) == len(theirs) >= 1
        assert [x.split(" after ")[0].split(" in ")[0] for x in mine] == [
            x.split(" after ")[0].split(" in ")[0] for x in theirs
        ]  # the same lines but for the seconds
    for workers in (1, 2):
        out = both_runs[workers][2]
        done = [x for x in both_runs[workers][1] if ": done in " in x]
        assert len(done) == 2
        for line in done:  # issue 13: the final path, not the temporary folder
            assert ".batch-" not in line and line.endswith(".html") and Path(line.split(" -> ")[1]).parent == out


def test_workers_must_be_a_whole_number_from_one(tmp_path):
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(InvalidSetupError, match="workers must be a whole number"):
            run_batch([("nope", {})], tmp_path, notebooks_dir=FIXTURES, workers=bad)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["0", "x", "1000"])
def test_cli_bad_workers_exit_2(value, capsys, tmp_path):
    code = main(["report", "all", "--workers", value, "--notebooks", str(FIXTURES), "-o", str(tmp_path)])
    assert code == 2 and "--workers" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_one_worker_runs_in_this_process(tmp_path, monkeypatch):
    """--workers 1 starts no cluster (today's sequential run)."""
    import toolkit.reports.parallel as parallel

    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started")

    monkeypatch.setattr(parallel, "run_parallel", no_cluster)
    monkeypatch.setattr(running, "run_report", lambda *a, **k: (_ for _ in ()).throw(KeyError("x")))
    result = run_batch([("sample", {}), ("failing", {})], tmp_path, notebooks_dir=FIXTURES, progress=lambda _: None)
    assert [r.status for r in result.results] == ["failed", "failed"]


@pytest.mark.slow
def test_parallel_timeout_fails_the_report_and_the_batch_goes_on(tmp_path):
    folder = _loop_notebooks(tmp_path / "notebooks")
    start = time.perf_counter()
    result = run_batch(
        [("loop", {}), ("loop", {"n": 2}), ("loop", {"n": 3})],
        tmp_path / "out",
        notebooks_dir=folder,
        progress=lambda _: None,
        timeout=2,
        workers=2,
    )
    assert time.perf_counter() - start < 180
    assert [r.status for r in result.results] == ["failed"] * 3
    assert all("longer than the timeout of 2 s" in r.error for r in result.results)


def _read_lines(pipe) -> queue.Queue:
    """A queue of ``pipe``'s lines, read by a daemon thread, ``None`` at its end."""
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in pipe:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _drain(lines: queue.Queue, deadline: float) -> list[str]:
    """Every line of ``lines`` up to its end, waiting no longer than ``deadline``."""
    got: list[str] = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.05, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            return got
        got.append(line)
    raise AssertionError(f"the output did not end: {got}")


@pytest.mark.slow
def test_ctrl_c_stops_a_parallel_batch_with_one_line_and_leaves_no_lock(tmp_path):
    folder = _loop_notebooks(tmp_path / "notebooks")
    out = tmp_path / "out"
    out.mkdir()
    (out / "loop.html").write_text("previous good report")
    jobs = tmp_path / "jobs.yaml"
    jobs.write_text("reports:\n  - report: loop\n  - report: loop\n    name: loop-2\n")
    # without PYTHONUNBUFFERED: the batch's lines reach a pipe only because it flushes them
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | {"PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "report", "-f", str(jobs), "--workers", "2"]
        + ["--notebooks", str(folder), "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    # Both pipes read by threads into queues: every wait below has a deadline and a full
    # stderr pipe can never block the batch.
    out_lines, err_lines = _read_lines(proc.stdout), _read_lines(proc.stderr)
    seen: list[str] = []

    def lines_until(enough) -> bool:
        while True:
            try:
                line = out_lines.get_nowait()
            except queue.Empty:
                return enough()
            if line is not None:
                seen.append(line)

    try:
        # the waits go on while the batch (or a worker, or a kernel) uses the processor: a
        # loaded machine slows it, and only a batch that stops working fails
        assert wait_while_working(lambda: lines_until(lambda: bool(seen)), proc.pid), "the batch printed nothing"
        assert "starting 2 worker processes" in seen[0], seen
        assert wait_while_working(lambda: lines_until(lambda: sum("running" in x for x in seen) == 2), proc.pid), (
            f"both jobs did not start: {seen}"
        )
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
        started = time.monotonic()
        stopped = wait_while_working(lambda: proc.poll() is not None, proc.pid)
        assert stopped, f"the batch stopped working {time.monotonic() - started:.1f} s after Ctrl-C but did not end"
        err = "".join(_drain(err_lines, deadline=time.monotonic() + 10))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    assert proc.returncode == 130
    lines = [x for x in err.strip().splitlines() if x.strip() and "WARNING" not in x]
    assert len(lines) == 1 and lines[0].startswith("interrupted:") and "Traceback" not in err
    assert (out / "loop.html").read_text() == "previous good report"
    assert sorted(p.name for p in out.iterdir()) == ["loop.html"]  # no lock, no temporary folder
    assert _group_ends(proc.pid, within=5), "a worker or a kernel of the batch outlived it"


def _group_ends(group: int, within: float) -> bool:
    """Whether every process of the process group ``group`` has ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_two_workers_run_two_jobs_at_once(tmp_path):
    """Each job notes when its cell started and ended (3 s apart): on two workers the two
    intervals overlap, whichever worker registered first."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("n = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        params,
        nbformat.v4.new_code_cell("import time\nt0 = time.time()\ntime.sleep(3)\nprint(t0, time.time())"),
    ]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "nap_report.ipynb"))
    out = tmp_path / "out"
    result = run_batch([("nap", {}), ("nap", {"n": 2})], out, notebooks_dir=folder, progress=lambda _: None, workers=2)
    assert [r.status for r in result.results] == ["ok", "ok"]
    spans = []
    for name in ("nap", "nap-2"):
        cell = nbformat.read(str(out / f"{name}.ipynb"), as_version=4).cells[-1]
        spans.append([float(x) for x in cell.outputs[0]["text"].split()])
    (a0, a1), (b0, b1) = spans
    assert a0 < b1 and b0 < a1, f"the jobs ran one after the other: {spans}"


def test_start_order_is_longest_first(tmp_path):
    """Previous times from the folder's manifest; a job never run there first, the largest
    notebook first."""
    jobs = [Job("sample"), Job("failing"), Job("sample", {}, "s-2"), Job("nope")]
    names = ["sample", "failing", "s-2", "nope"]
    fresh = running.start_order(jobs, names, tmp_path, FIXTURES)
    sizes = {n: (FIXTURES / f"{n}_report.ipynb").stat().st_size for n in ("sample", "failing")}
    assert fresh[0] == fresh[2] == 1e9 + sizes["sample"] and fresh[1] == 1e9 + sizes["failing"]
    assert fresh[3] == 1e9  # an unknown report: runs (and fails) among the new ones
    (tmp_path / running.MANIFEST_NAME).write_text(
        '{"sample": {"report": "sample", "seconds": 12.5}, "failing": {"report": "sample", "seconds": 99}}'
    )
    known = running.start_order(jobs, names, tmp_path, FIXTURES)
    assert known[0] == 12.5  # timed in the previous batch
    assert known[1] == fresh[1]  # the name was another report's: not its time
    assert sorted(range(4), key=lambda i: -known[i])[-1] == 0  # the job known to be quick starts last


def test_cli_batch_ends_with_its_count_and_time(tmp_path, capsys, light):
    """The batch's last line says how many reports ran, in how long and how many at a time
    (the figure the main job's goal is measured by, issue 14)."""
    import re

    jobs = tmp_path / "jobs.yaml"
    jobs.write_text("reports:\n  - report: sample\n  - report: sample\n    name: sample-2\n    parameters: {n: 3}\n")
    code = main(["report", "-f", str(jobs), "--workers", "1", "--notebooks", str(light), "-o", str(tmp_path / "o")])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and lines[-2] == f"index: {(tmp_path / 'o' / 'index.html').resolve()}"
    assert re.fullmatch(r"2 reports in \d+\.\d s \(one after another\)", lines[-1]), lines[-1]
