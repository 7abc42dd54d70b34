"""Benchmark: sweeps on Dask (issue 14) — points per second on 1 and 2 local workers, the
speed-up, the overhead per point against a plain loop, and what a 100-worker cluster
would take for a 1,000,000-point sweep.

Run from the project root::

    .venv/bin/python bench/bench_sweeps.py [--max-pool 50] [--fm-hands 5]

Two sweeps:

- Angry Miniatures ``opposed``: attack pools 1..max x defence pools 1..max, melee and
  ranged, both tie-break rules (AM-4): 10,000 points with ``--max-pool 50``;
- Fairy Meat ``deal_averaged_odds``: hand sizes 1..5 x 1..5 under both damage rules
  (FM-10) and both Nasty Hit rules (FM-12): 100 points.

Each is run as a plain loop over the points (the reference: the calculator called in a
fresh process, no Dask) and with :func:`toolkit.sweeps.run_sweep` on a fresh local cluster
of 1 and of 2 worker processes (fresh caches each time; the cluster's start-up and the
workers' imports are not timed, the validation, the storing of every chunk and the table
are). The three results
are checked equal (a digest of every point's exact rows). The 100-worker estimate splits
the CPU time per point of the 2-worker run into the workers' part (``c``: divides among
workers) and the client's (``s``: storing chunks, the table, the local scheduler; serial):
``T(W) = N (c / W + s)``. CPU times, unlike wall times, hold on a machine shared with
other work (the "cores used" column shows how much of it the sweep got).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _results import fmt_s, publish

ROOT = Path(__file__).resolve().parent.parent


def am_text(max_pool: int) -> str:
    return (
        "title: Angry Miniatures pools (benchmark)\nsystem: angry-miniatures\ncalculator: opposed\n"
        f"grid:\n  attack_dice: {{from: 1, to: {max_pool}}}\n  defense_dice: {{from: 1, to: {max_pool}}}\n"
        "  attack_type: [melee, ranged]\n  rules:\n    tie_break: [chain, coin_flip]\n"
    )


def fm_text(hands: int) -> str:
    return (
        "title: Fairy Meat hand sizes (benchmark)\nsystem: fairy-meat\ncalculator: deal_averaged_odds\n"
        f"grid:\n  attacker_cards: {{from: 1, to: {hands}}}\n  defender_cards: {{from: 1, to: {hands}}}\n"
        "  rules:\n    damage: [halved, table]\n    nasty_hit: [damaged, loser]\nfixed:\n  method: exact\n"
    )


def digest(items: list[tuple[int, str, str, str]]) -> str:
    """A digest of (point, outcome, numerator, denominator) rows, order-free."""
    return hashlib.sha256(repr(sorted(items)).encode()).hexdigest()[:16]


def plain_loop(text: str) -> tuple[float, str]:
    """Run in a fresh process: the seconds of calling the calculator on every point in a
    loop, and the digest of the rows."""
    from toolkit.sweeps import load_sweep

    sweep = load_sweep(text)
    calc = sweep.calculator
    started = time.perf_counter()
    results = [calc.rows(calc.call(p.arguments(), p.rules)) for p in sweep.points]
    seconds = time.perf_counter() - started
    items = [
        (i, r.outcome, str(r.exact.numerator), str(r.exact.denominator))
        for i, rows in enumerate(results)
        for r in rows
        if r.exact is not None
    ]
    return seconds, digest(items)


def warm(system: str, calc: str) -> None:
    """Import what a chunk needs (the system, pyarrow, pandas) in this process."""
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    from toolkit.sweeps.calculators import calculator

    calculator(system, calc)


def on_dask(text: str, workers: int) -> tuple[float, str, int, float, float]:
    """The seconds of :func:`run_sweep` on a fresh local cluster of ``workers`` processes,
    the digest of its table, the number of points, and the CPU seconds used by the workers
    and by this process (the client, with the local cluster's scheduler)."""
    from distributed import Client, LocalCluster

    from toolkit.sweeps import load_sweep, run_sweep

    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as client,
        tempfile.TemporaryDirectory() as out,
    ):
        client.wait_for_workers(workers)
        system, calc = load_sweep(text).system, load_sweep(text).calculator.name
        client.run(warm, system, calc)  # imports, once per worker: not a per-point cost
        warm(system, calc)
        tiny = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: [1]\n"
        run_sweep(tiny, Path(out) / "warm-up", client=client, progress=None, report=False)  # first-call costs
        cpu_workers = client.run(time.process_time)
        cpu_client = time.process_time()
        started = time.perf_counter()
        result = run_sweep(text, out, client=client, progress=None, report=False)
        seconds = time.perf_counter() - started
        cpu_client = time.process_time() - cpu_client
        after = client.run(time.process_time)
        cpu_workers = sum(after[w] - cpu_workers[w] for w in after if w in cpu_workers)
    if not result.ok:
        sys.exit(f"the sweep failed: {result.failures[0].describe()}")
    table = result.table.dropna(subset=["numerator"])
    items = list(
        zip(table["point"].astype(int), table["outcome"], table["numerator"], table["denominator"], strict=True)
    )
    found = digest([(int(p), o, str(n), str(d)) for p, o, n, d in items])
    return seconds, found, result.sweep.size, cpu_workers, cpu_client


def bench(name: str, text: str) -> tuple[str, dict[str, float]]:
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        loop_s, loop_digest = pool.submit(plain_loop, text).result()
    one_s, one_digest, n, one_w, one_c = on_dask(text, 1)
    two_s, two_digest, _, two_w, two_c = on_dask(text, 2)
    if not loop_digest == one_digest == two_digest:
        sys.exit(f"{name}: the sweeps and the plain loop disagree ({loop_digest}, {one_digest}, {two_digest})")
    figures = {"n": n, "loop": loop_s, "one": one_s, "two": two_s, "worker_cpu": two_w / n, "client_cpu": two_c / n}

    def cpu(workers_cpu: float, client_cpu: float, wall: float) -> str:
        return (
            f"{workers_cpu / n * 1000:.3f} ms | {client_cpu / n * 1000:.3f} ms | "
            f"{(workers_cpu + client_cpu) / wall:.2f}"
        )

    rows = (
        f"| {name} | {n:,} | plain loop | {fmt_s(loop_s)} | {n / loop_s:,.1f} | - | - | - | - |\n"
        f"| | | 1 worker | {fmt_s(one_s)} | {n / one_s:,.1f} | {(one_s - loop_s) / n * 1000:+.3f} ms | "
        f"{cpu(one_w, one_c, one_s)} |\n"
        f"| | | 2 workers | {fmt_s(two_s)} | {n / two_s:,.1f} | {(two_s - loop_s / 2) / n * 1000:+.3f} ms | "
        f"{cpu(two_w, two_c, two_s)} |\n"
    )
    return rows, figures


def estimate(f: dict[str, float], points: int = 1_000_000, workers: int = 100) -> str:
    """What ``workers`` would take for ``points`` points of the same kind, from the CPU
    time per point of the 2-worker run: the workers' share divides among workers, the
    client's (storing chunks, the table, the local scheduler) does not."""
    c, s = f["worker_cpu"], f["client_cpu"]
    total = points * (c / workers + s)
    return (
        f"per point {c * 1000:.3f} ms of worker CPU (shared out) and {s * 1000:.3f} ms of client CPU (serial): "
        f"{points:,} points on {workers} workers about {fmt_s(total)} ({points / total:,.0f} points/s; "
        f"the client alone caps any cluster at {1 / s:,.0f} points/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pool", type=int, default=50, help="Angry Miniatures pools 1..N (50: 10,000 points)")
    parser.add_argument("--fm-hands", type=int, default=5, help="Fairy Meat hand sizes 1..N (5: 100 points)")
    args = parser.parse_args()
    am_rows, am = bench("Angry Miniatures opposed", am_text(args.max_pool))
    fm_rows, fm = bench("Fairy Meat deal-averaged odds", fm_text(args.fm_hands))
    report = (
        "# Sweeps on Dask\n\n"
        "| sweep | points | run | time | points/s | overhead per point | worker CPU per point "
        "| client CPU per point | cores used |\n|---|---|---|---|---|---|---|---|---|\n"
        f"{am_rows}{fm_rows}\n"
        f"Speed-up from 1 to 2 workers: Angry Miniatures {am['one'] / am['two']:.2f}x (goal >= 1.7x), "
        f"Fairy Meat {fm['one'] / fm['two']:.2f}x.\n\n"
        "Overhead per point: the sweep's time minus the plain loop's (divided by 2 on 2 workers), per point. "
        "Cores used: the CPU seconds of the workers and of the client (with the local scheduler) per second: "
        "below the workers' number when other work holds the machine's cores.\n\n"
        f"Angry Miniatures, estimate: {estimate(am)}.\n\n"
        f"Fairy Meat, estimate: {estimate(fm)}.\n"
    )
    publish(report, ROOT / "bench" / "results" / "sweeps.md")


if __name__ == "__main__":
    main()
