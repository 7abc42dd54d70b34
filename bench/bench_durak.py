"""Benchmark: the Durak battle calculators with the default rules, against a reference
version of the toolkit measured in the same run (issue 11: house rules must not make the
default rules slower; issue 14 item 5: the report's battle cell faster, same results).

Run from the project root::

    .venv/bin/python bench/bench_durak.py [--reference REF] [--runs 3] [--only "report battle cell"]

``--reference`` is a git revision (default ``main``): its ``toolkit/`` is exported with
``git archive`` into a temporary folder and the same workloads are timed there, in a
subprocess, alternating with this checkout's. The figures to read are the ratios
**this checkout / reference** (1.00 = as fast; above 1.10 is a regression). Each timed run
starts with cold caches. The workloads (default rules, greedy unless said):

- ``clash 3v2 exact``: :func:`clash_losses` (3, 2) exact, every deal class played;
- ``clash 2v2 random``: the same for 2 v 2 with random policies (memoised positions);
- ``clash_value 7v7``: a 7 v 7 clash solved by minimax with both hands known;
- ``battle 4v4``: :func:`battle_outcome` of two armies of 4 tokens, d4 leaders, exact;
- ``monte carlo engine``: 1,500 clashes 4 v 4 through the engine;
- ``clash 8v8 sampled``: 1,000 clashes 8 v 8 sampled with the clash positions (greedy,
  then random v greedy): :func:`sampled_clash_paths`, what ``method="auto"`` uses above
  the exact limit;
- ``report battle cell``: the battle cell of ``notebooks/durak_battle_report.ipynb`` —
  North's 4, 6, 8 and 10 tokens against South's 6, leaders d8/d6 with the wild card,
  greedy v greedy, ``max_rounds=20``, 1,000 trials per sampled pair of hand sizes (most of
  the report's time: 166 pairs sampled, 27 exact).

The two results of each workload must be equal (exactly): the script exits 1 otherwise.

``--growth`` measures instead how the exact clash grows per card, in this checkout alone:
for each pair of hand sizes from 1 v 1 to 4 v 3 (greedy v greedy; random v random up to
3 v 3), the deal classes (:func:`exact_size`), the deals played by the comparison-class
count (:mod:`~toolkit.durak_battle.odds.comparison_classes`), and the CPU seconds of
:func:`exact_clash_paths` by comparison classes and by deal classes (the path before it,
``classes="deal"``, timed in the same run up to ``--old-up-to`` cards in all, default 6),
with their ratio; the two tables must be equal. CPU time (``time.process_time``) because the
machine is shared: wall time under load is several times larger. Written to
``bench/results/durak_exact_growth.md``; docs/exactness.md quotes it.
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
WORKLOADS = (
    "clash 3v2 exact",
    "clash 2v2 random",
    "clash_value 7v7",
    "battle 4v4",
    "monte carlo engine",
    "clash 8v8 sampled",
    "report battle cell",
    "report suit cell",
    "report variants cell",
)

# The timing code, run in a subprocess against one toolkit (the API used is the same in both).
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from toolkit.durak_battle import Army, Leader, Rules, battle_outcome, clash_losses, clash_value
from toolkit.durak_battle.odds import clear_caches  # not in the package's public face

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
    if name == "clash 8v8 sampled":
        g = clash_losses(8, 8, method="monte_carlo", sampler="model", trials=1000, seed=1)
        r = clash_losses(8, 8, ("random", "greedy"), method="monte_carlo", sampler="model", trials=1000, seed=1)
        return str(g.joint.items()) + str(r.joint.items())
    if name == "report battle cell":
        la = Leader("North's leader", battle_die="d8", spirit_die="d6", wild_card=True)
        lb = Leader("South's leader", battle_die="d8", spirit_die="d6", wild_card=True)
        return str([
            battle_outcome(
                Army("North", ta, la), Army("South", 6, lb), Rules(), ("greedy", "greedy"), max_rounds=20, trials=1000
            ).distribution.items()
            for ta in (4, 6, 8, 10)
        ])
    if name == "report suit cell":
        from toolkit.durak_battle import suit_values
        return str([(v.label, v.mean, v.interval) for v in suit_values(cards=4, trials=150, rules=Rules(), seed=1)])
    if name == "report variants cell":
        from dataclasses import replace
        base = Rules()
        variants = (base, replace(base, jokers=False), replace(base, counter_tie="loses"),
                    replace(base, holder_must_attack=True))
        return str([clash_losses(3, 3, ("greedy", "greedy"), r, trials=1000).joint.items() for r in variants])
    raise SystemExit(name)

out = {}
for name in sys.argv[2].split(","):
    clear_caches()
    t0 = time.process_time()  # CPU seconds: the machine is shared, wall time under load is not a measure
    result = run(name)
    out[name] = (time.process_time() - t0, result)
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


GROWTH_SIZES = ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (3, 3), (4, 2), (5, 1), (4, 3))


def growth(old_up_to: int) -> None:
    """How the exact clash grows per card: deal classes, deals played, CPU seconds of the
    comparison-class and the deal-class count, their ratio (see the module docstring)."""
    import time

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from _results import publish

    from toolkit.durak_battle.odds.checks import check_policies
    from toolkit.durak_battle.odds.clash_losses import clear_caches, exact_clash_paths
    from toolkit.durak_battle.odds.comparison_classes import comparison_class_count
    from toolkit.durak_battle.odds.deal_classes import exact_size
    from toolkit.durak_battle.rules import Rules

    rules = Rules()

    def cpu(fn):  # CPU seconds of fn() from cold caches, and its result
        clear_caches()
        t0 = time.process_time()
        result = fn()
        return time.process_time() - t0, result

    rows, bad = [], []
    cases = [(na, nb, "greedy") for na, nb in GROWTH_SIZES]
    cases += [(na, nb, "random") for na, nb in GROWTH_SIZES if na + nb <= 6 and (na, nb) != (4, 2) and na > nb - 1]
    for na, nb, pol in cases:
        pols = check_policies(pol)
        plays = comparison_class_count(na, nb, rules, mirror=na == nb)
        new_s, new = cpu(lambda na=na, nb=nb, pols=pols: exact_clash_paths(na, nb, pols, rules))
        if na + nb <= old_up_to:
            old_s, old = cpu(lambda na=na, nb=nb, pols=pols: exact_clash_paths(na, nb, pols, rules, classes="deal"))
            if old != new:
                bad.append(f"{na} v {nb} {pol}")
            old_text, ratio = f"{old_s:.2f} s", f"{old_s / new_s:.1f}x"
        else:
            old_text, ratio = "not run", "—"
        rows.append(
            f"| {na} v {nb} | {pol} | {exact_size(na, nb, rules):,} | {plays:,} | {new_s:.2f} s "
            f"| {old_text} | {ratio} |"
        )
        print(rows[-1], flush=True)
    report = (
        "# Durak exact clash: growth per card (default rules)\n\n"
        "CPU seconds of one cold `exact_clash_paths`; deals played = comparison classes (a deal and its "
        "mirror image once for equal hands).\n\n"
        "| cards | policies | deal classes | deals played | CPU, comparison classes | CPU, deal classes (before) "
        "| speed-up |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    publish(report, ROOT / "bench" / "results" / "durak_exact_growth.md")
    if bad:
        sys.exit(f"the comparison classes differ from the deal classes: {', '.join(bad)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="main")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=WORKLOADS, default=list(WORKLOADS), help="workloads to time")
    parser.add_argument("--growth", action="store_true", help="measure how the exact clash grows per card")
    parser.add_argument("--old-up-to", type=int, default=6, help="--growth: old path up to N cards")
    args = parser.parse_args()
    if args.growth:
        growth(args.old_up_to)
        return
    names = tuple(n for n in WORKLOADS if n in args.only)
    sys.path.insert(0, str(ROOT / "bench"))
    from _results import fmt_s, publish

    best: dict[str, dict[str, float]] = {"ours": {}, "ref": {}}
    results: dict[str, dict[str, str]] = {"ours": {}, "ref": {}}
    with tempfile.TemporaryDirectory() as tmp:
        ref = export(args.reference, Path(tmp))
        for _ in range(args.runs):  # alternate, so that machine noise hits both alike
            for who, path in (("ref", ref), ("ours", ROOT)):
                for name, (seconds, result) in measure(path, names).items():
                    best[who][name] = min(seconds, best[who].get(name, float("inf")))
                    results[who][name] = result
    rows = []
    bad = []
    for name in names:
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
