"""Benchmark: the Durak battle calculators with the default rules, against a reference
version of the toolkit measured in the same run (issue 11: house rules must not make the
default rules slower).

Run from the project root::

    .venv/bin/python bench/bench_durak.py [--reference REF] [--runs 3]

``--reference`` is a git revision (default ``main``): its ``toolkit/`` is exported with
``git archive`` into a temporary folder and the same workloads are timed there, in a
subprocess, alternating with this checkout's. The figures to read are the ratios
**this checkout / reference** (1.00 = as fast; above 1.10 is a regression). Each timed run
starts with cold caches. The workloads (default rules, greedy unless said):

- ``clash 3v2 exact``: :func:`clash_losses` (3, 2) exact, every deal class played;
- ``clash 2v2 random``: the same for 2 v 2 with random policies (memoised positions);
- ``clash_value 7v7``: a 7 v 7 clash solved by minimax with both hands known;
- ``battle 4v4``: :func:`battle_outcome` of two armies of 4 tokens, d4 leaders, exact;
- ``monte carlo engine``: 1,500 clashes 4 v 4 through the engine.

The two results of each workload must be equal (exactly): the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ("clash 3v2 exact", "clash 2v2 random", "clash_value 7v7", "battle 4v4", "monte carlo engine")

# The timing code, run in a subprocess against one toolkit (the API used is the same in both).
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses, clash_value, clear_caches

def run(name):
    if name == "clash 3v2 exact":
        return str(clash_losses(3, 2, method="exact").joint.items())
    if name == "clash 2v2 random":
        return str(clash_losses(2, 2, "random", method="exact").joint.items())
    if name == "clash_value 7v7":
        return str(clash_value("2S 5S 9H QH 3D KD 7C", "4S JS 8H 2D 10D 6C AC").value)
    if name == "battle 4v4":
        a, b = Army("A", 4, Leader("L", battle_die="d4")), Army("B", 4, Leader("M", battle_die="d4"))
        return str(battle_outcome(a, b, max_rounds=6).distribution.items())
    if name == "monte carlo engine":
        return str(clash_losses(4, 4, method="monte_carlo", trials=1500, seed=3).joint.items())
    raise SystemExit(name)

out = {}
for name in sys.argv[2].split(","):
    clear_caches()
    t0 = time.perf_counter()
    result = run(name)
    out[name] = (time.perf_counter() - t0, result)
print(json.dumps(out))
"""


def export(ref: str, folder: Path) -> Path:
    """Export ``toolkit/`` of git revision ``ref`` into ``folder`` and return the folder."""
    archive = folder / "ref.tar"
    subprocess.run(["git", "archive", "-o", str(archive), ref, "toolkit"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def measure(path: Path, names: tuple[str, ...]) -> dict[str, tuple[float, str]]:
    """Time ``names`` in a fresh interpreter whose ``toolkit`` is the one under ``path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), ",".join(names)], env=env, capture_output=True, text=True, check=True
    )
    return {k: (v[0], v[1]) for k, v in json.loads(done.stdout).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="main")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from _results import fmt_s, publish

    best: dict[str, dict[str, float]] = {"ours": {}, "ref": {}}
    results: dict[str, dict[str, str]] = {"ours": {}, "ref": {}}
    with tempfile.TemporaryDirectory() as tmp:
        ref = export(args.reference, Path(tmp))
        for _ in range(args.runs):  # alternate, so that machine noise hits both alike
            for who, path in (("ref", ref), ("ours", ROOT)):
                for name, (seconds, result) in measure(path, WORKLOADS).items():
                    best[who][name] = min(seconds, best[who].get(name, float("inf")))
                    results[who][name] = result
    rows = []
    bad = []
    for name in WORKLOADS:
        ours, ref_s = best["ours"][name], best["ref"][name]
        same = results["ours"][name] == results["ref"][name]
        if not same:
            bad.append(name)
        rows.append(f"| {name} | {fmt_s(ref_s)} | {fmt_s(ours)} | {ours / ref_s:.2f} | {'yes' if same else 'NO'} |")
    report = (
        f"# Durak battle, default rules: this checkout against {args.reference}\n\n"
        f"Best of {args.runs} cold runs each, alternating.\n\n"
        "| workload | reference | ours | ours / reference | same result |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )
    publish(report, ROOT / "bench" / "results" / "durak.md")
    if bad:
        sys.exit(f"results differ from the reference: {', '.join(bad)}")


if __name__ == "__main__":
    main()
