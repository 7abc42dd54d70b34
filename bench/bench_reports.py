"""Benchmark: the report notebooks' main computations, this tree against a reference commit.

Run from the project root::

    .venv/bin/python bench/bench_reports.py [--reference e18cda2] [--reports durak_battle_report fairy_meat_strategy]

What is compared (same run, same machine): every code cell of each report notebook,
executed in a fresh Python process with the notebook's default parameters and its display
helpers (``say``, ``table``, ``show``) replaced by recorders, once with the toolkit of the
reference commit (``git archive`` into a temporary folder: the code before the issue-14
speed-ups by default) and once with this tree's. Timed: each cell's CPU time
(``time.process_time``, which another busy process on a shared machine disturbs much less
than wall time) and wall time. Checked: everything the cells print — every ``say`` text
and every ``table`` — is equal between the two runs (exact values equal, Monte Carlo with
the same seeds equal; the one column of solver seconds is left out). Exits 1 if not.

The figure to read is the ratio after / before per report (and per cell). The papermill
kernel start and the HTML export are not included: ``toolkit report all`` adds a few
seconds per report to these.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
RESULTS = Path(__file__).parent / "results" / "reports.md"
DEFAULT_REFERENCE = "e18cda2"  # main before the issue-14 speed-ups
DEFAULT_REPORTS = ("durak_battle_report", "fairy_meat_strategy")


def _child(tree: str, notebook: str, out: str) -> None:
    """Run the notebook's code cells with ``tree``'s toolkit; write times and outputs to ``out``."""
    sys.path.insert(0, tree)
    os.chdir(Path(tree) / "notebooks")
    records: list[tuple[str, str]] = []

    def say(text: object, *args: object, **kwargs: object) -> None:
        records.append(("say", str(text)))

    def table(frame: object, *args: object, **kwargs: object) -> None:
        if hasattr(frame, "drop") and "seconds" in getattr(frame, "columns", ()):
            frame = frame.drop(columns=["seconds"])  # the solver's own timing
        records.append(("table", frame.to_string() if hasattr(frame, "to_string") else repr(frame)))

    def show(*args: object, **kwargs: object) -> None:
        pass

    cells = json.loads((Path(tree) / "notebooks" / f"{notebook}.ipynb").read_text(encoding="utf-8"))["cells"]
    namespace: dict[str, object] = {}
    times = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]).replace("from toolkit.reports import say, show, table", "pass")
        namespace.update(say=say, table=table, show=show)
        cpu, wall = time.process_time(), time.perf_counter()
        exec(compile(source, f"{notebook} cell {i}", "exec"), namespace)
        times.append((i, time.process_time() - cpu, time.perf_counter() - wall))
    Path(out).write_text(json.dumps({"times": times, "records": records, "toolkit": namespace.get("__file__")}))


def _run(tree: Path, notebook: str) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        out = handle.name
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, __file__, "--child", str(tree), notebook, out], check=True, env=env, cwd=str(tree))
    data = json.loads(Path(out).read_text())
    Path(out).unlink()
    return data


def _reference_tree(rev: str, where: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    tree = where / f"reference-{rev}"
    tree.mkdir()
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(tree, filter="data")
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help="git revision of the code before (e18cda2)")
    parser.add_argument("--reports", nargs="+", default=list(DEFAULT_REPORTS), help="notebook stems")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return 0
    lines = [
        f"# Report computations: this tree against {args.reference}",
        "",
        f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores "
        f"(load average {os.getloadavg()[0]:.1f} at the start: the machine may be shared). "
        "CPU seconds (process time) of each notebook's code cells; after / before is the figure to read.",
        "",
        "| report | cell | before (CPU s) | after (CPU s) | after / before | before (wall s) | after (wall s) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        reference = _reference_tree(args.reference, Path(tmp))
        for notebook in args.reports:
            before = _run(reference, notebook)
            after = _run(ROOT, notebook)
            same = before["records"] == after["records"]
            ok &= same
            for (i, cb, wb), (_, ca, wa) in zip(before["times"], after["times"], strict=True):
                if max(cb, ca) >= 0.5:
                    lines.append(f"| {notebook} | {i} | {cb:.1f} | {ca:.1f} | {ca / cb:.2f} | {wb:.1f} | {wa:.1f} |")
            tb = sum(t[1] for t in before["times"])
            ta = sum(t[1] for t in after["times"])
            wb = sum(t[2] for t in before["times"])
            wa = sum(t[2] for t in after["times"])
            lines.append(
                f"| **{notebook}** | all | **{tb:.1f}** | **{ta:.1f}** | **{ta / tb:.2f}** | {wb:.1f} | {wa:.1f} |"
            )
            lines.append(
                f"| {notebook} | outputs | {len(before['records'])} printed | {len(after['records'])} printed | "
                f"{'equal' if same else 'DIFFERENT'} | | |"
            )
    lines += ["", "Printed outputs equal for every report." if ok else "**Printed outputs differ.**", ""]
    from _results import publish

    publish("\n".join(lines), RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    if "--child" not in sys.argv:
        print(f"({time.perf_counter() - started:.0f} s)")
    sys.exit(code)
