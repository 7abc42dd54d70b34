"""Benchmark: sweeps on Dask — a plain loop, 1 and 2 local workers in one run: the
speed-up against the loop (goal: at least 1.8x on 2 workers), the CPU per point of the
workers and of the machine running the command, and what 100 workers would give (goal:
at least 50x the plain loop for the Angry Miniatures sweep).

Run from the project root::

    .venv/bin/python bench/bench_sweeps.py [--max-pool 50] [--fm-hands 5] [--rounds 3]

Two sweeps:

- Angry Miniatures ``opposed``: attack pools 1..max x defence pools 1..max, melee and
  ranged, both tie-break rules (AM-4): 10,000 points with ``--max-pool 50``;
- Fairy Meat ``deal_averaged_odds``: hand sizes 1..5 x 1..5 under both damage rules
  (FM-10) and both Nasty Hit rules (FM-12): 100 points.

Each is run as a plain loop over the points (the reference: in a fresh process, no
Dask, the calculator called on every point and its result turned into the table's rows,
``Calculator.rows``: one ``Fraction`` and one ``Row`` per outcome), as the same loop with
the rows built in bulk as a worker builds them (``Calculator.columns``: a second
reference, so that the part of the speed-up that comes from the bulk rows is seen apart),
and with :func:`toolkit.sweeps.run_sweep` on a fresh local cluster of 1 and of 2 worker
processes, started as ``toolkit sweep`` starts its own (:func:`toolkit.cluster.start_local`:
one thread per worker, Dask's task profiler off), fresh caches each time (the cluster's
start-up and the workers' imports are not timed; the validation, the computing, the
storing of every chunk and the table are).
The results are checked equal (a digest of every point's exact rows). With ``--rounds K``
the plain loop and the 2-worker run are repeated, alternating, until K pairs per sweep: each
pair's ratio and their median (this machine's speed drifts by a quarter within minutes).

The plain loop is kept on one core (:func:`one_core`), as a Dask worker is.

The 100-worker model splits the CPU time per point of the 2-worker run into the workers'
part (``c``: divides among workers; the copying of the chunk files into the table file
included) and the serial part (``s``: the command's thread — validating the sweep file,
planning the chunks as grid places (the workers build the points) and sending them,
storing them, the table's footer — and what each chunk costs the scheduler and the
client, measured on empty tasks): ``T(W) = N (c / W + s)``, so the speed-up against the
plain loop (``L`` per point) is ``L / (c / W + s)``; see :func:`model` for the
pessimistic reading too. CPU times, unlike wall times, hold on a machine shared with
other work (the "cores used" column shows how much of it the sweep got; the load average
is recorded).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _results import fmt_s, publish

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the client process is watched while the cluster is idle (its ticking rate).
IDLE_SECONDS = 3.0
#: Empty tasks timed for what one task costs the scheduler and the client.
TASKS = 200


def am_text(max_pool: int) -> str:
    return (
        "title: Angry Miniatures pools (benchmark)\nsystem: angry-miniatures\ncalculator: opposed\n"
        f"grid:\n  attack_dice: {{from: 1, to: {max_pool}}}\n  defence_dice: {{from: 1, to: {max_pool}}}\n"
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


def _cpu() -> float:
    """This process's CPU seconds and those of its finished children (there should be
    none: see :func:`one_core`)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def one_core() -> None:
    """Keep the plain loop on one core, as a Dask worker is: the Fairy Meat exact count
    spreads its referee judgements over forked processes when it runs in a
    single-threaded process with many to make (``PARALLEL_MIN_JUDGEMENTS``), which a
    Dask worker (several threads) never does. A loop that used two cores would be a
    reference of two cores, against which 2 workers cannot show their 2x."""
    from toolkit.fairy_meat.odds import classes

    classes.PARALLEL_MIN_JUDGEMENTS = 1 << 62


def plain_loop(text: str, bulk: bool = False) -> tuple[float, float, str]:
    """Run in a fresh process: the seconds (wall and CPU) of calling the calculator on
    every point in a loop and turning each result into rows (``Calculator.rows``, or with
    ``bulk`` ``Calculator.columns``), and the digest of the rows."""
    from toolkit.sweeps import load_sweep

    one_core()
    sweep = load_sweep(text)
    calc = sweep.calculator
    cpu = _cpu()
    started = time.perf_counter()
    if bulk:
        columns = [calc.columns(calc.call(p.arguments(), p.rules)) for p in sweep.points]
    else:
        results = [calc.rows(calc.call(p.arguments(), p.rules)) for p in sweep.points]
    seconds = time.perf_counter() - started
    cpu = _cpu() - cpu
    if bulk:
        items = [
            (i, o, n, d)
            for i, c in enumerate(columns)
            for o, n, d in zip(c["outcome"], c["numerator"], c["denominator"], strict=True)
            if n is not None
        ]
    else:
        items = [
            (i, r.outcome, str(r.exact.numerator), str(r.exact.denominator))
            for i, rows in enumerate(results)
            for r in rows
            if r.exact is not None
        ]
    return seconds, cpu, digest(items)


def warm(system: str, calc: str) -> None:
    """Import what a chunk needs (the system, pyarrow, pandas) in this process."""
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    from toolkit.sweeps.calculators import calculator

    calculator(system, calc)


def nothing(i: int) -> int:
    """An empty task (what a task costs the scheduler and the client, apart from its work)."""
    return i


def on_dask(text: str, workers: int) -> tuple[float, str, int, float, float, float, float, float, int, float]:
    """The seconds of :func:`run_sweep` on a fresh local cluster of ``workers`` processes,
    the digest of its table, the number of points, the CPU seconds used by the workers,
    by this process (the client, with the local cluster's scheduler and their event loops,
    which also tick while waiting) and by the thread that ran the command, this process's
    CPU seconds per second while the cluster is idle and per empty task (both measured
    before the run), the number of chunks (tasks) the run sent, and the workers' CPU
    seconds per second while idle (together)."""
    from toolkit import cluster as dask_cluster
    from toolkit.sweeps import load_sweep, run_sweep

    client, cluster = dask_cluster.start_local(workers)  # the cluster `toolkit sweep` starts
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory() as out:
        stack.callback(dask_cluster.close, client, cluster)
        client.wait_for_workers(workers)
        system, calc = load_sweep(text).system, load_sweep(text).calculator.name
        client.run(warm, system, calc)  # imports, once per worker: not a per-point cost
        warm(system, calc)
        tiny = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: [1]\n"
        run_sweep(tiny, Path(out) / "warm-up", client=client, progress=None, report=False)  # first-call costs
        idle, idle_workers = time.process_time(), client.run(time.process_time)
        time.sleep(IDLE_SECONDS)  # the CPU while nothing runs: event loops, heartbeats, the scheduler's ticks
        idle_rate = (time.process_time() - idle) / IDLE_SECONDS
        after_idle = client.run(time.process_time)
        workers_idle_rate = sum(after_idle[w] - idle_workers[w] for w in after_idle if w in idle_workers) / IDLE_SECONDS
        # What a task costs the client and the scheduler (both in this process): TASKS empty
        # tasks submitted and gathered, less the idle ticking over as long as they took.
        cpu_tasks, wall_tasks = time.process_time(), time.perf_counter()
        client.gather([client.submit(nothing, i, pure=False) for i in range(TASKS)])
        wall_tasks = time.perf_counter() - wall_tasks
        task_cpu = max(0.0, time.process_time() - cpu_tasks - idle_rate * wall_tasks) / TASKS
        cpu_workers = client.run(time.process_time)
        cpu_client = time.process_time()
        cpu_command = time.thread_time()
        sent: list[int] = []  # the chunks stored, one call each
        started = time.perf_counter()
        result = run_sweep(
            text, out, client=client, progress=None, report=False, on_chunk=lambda _, done: sent.append(done)
        )
        seconds = time.perf_counter() - started
        cpu_command = time.thread_time() - cpu_command
        cpu_client = time.process_time() - cpu_client
        after = client.run(time.process_time)
        cpu_workers = sum(after[w] - cpu_workers[w] for w in after if w in cpu_workers)
        if not result.ok:
            sys.exit(f"the sweep failed: {result.failures[0].describe()}")
        table = result.table.dropna(subset=["numerator"])  # read from the table file (after the timing)
        items = list(
            zip(table["point"].astype(int), table["outcome"], table["numerator"], table["denominator"], strict=True)
        )
    found = digest([(int(p), o, str(n), str(d)) for p, o, n, d in items])
    chunks = len(sent)
    return (
        seconds,
        found,
        result.sweep.size,
        cpu_workers,
        cpu_client,
        cpu_command,
        idle_rate,
        task_cpu,
        chunks,
        workers_idle_rate,
    )


def bench(name: str, text: str) -> tuple[str, dict[str, float]]:
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        loop_s, loop_cpu, loop_digest = pool.submit(plain_loop, text).result()
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        bulk_s, bulk_cpu, bulk_digest = pool.submit(plain_loop, text, True).result()
    one_s, one_digest, n, one_w, one_c, *_, one_idle = on_dask(text, 1)
    two_s, two_digest, _, two_w, two_c, two_t, idle_rate, task_cpu, chunks, two_idle = on_dask(text, 2)
    if not loop_digest == bulk_digest == one_digest == two_digest:
        sys.exit(
            f"{name}: the sweeps and the plain loops disagree "
            f"({loop_digest}, {bulk_digest}, {one_digest}, {two_digest})"
        )
    figures = {
        "n": n,
        "loop": loop_s,
        "bulk": bulk_s,
        "loop_cpu": loop_cpu,
        "bulk_cpu": bulk_cpu,
        "one": one_s,
        "two": two_s,
        "worker_cpu": two_w / n,
        "client_cpu": two_c / n,
        "command_cpu": two_t / n,
        "idle_rate": idle_rate,
        "scheduler_cpu": task_cpu * chunks / n,
        "task_cpu": task_cpu,
        "chunks": chunks,
        "one_work": max(0.0, one_w - one_idle * one_s) / n,
        "two_work": max(0.0, two_w - two_idle * two_s) / n,
        "two_idle": two_idle,
        "loop_cores": loop_cpu / loop_s,
    }

    def cpu(workers_cpu: float, client_cpu: float, wall: float, thread: float | None = None) -> str:
        command = f" / {thread / n * 1000:.4f} ms" if thread is not None else ""
        return (
            f"{workers_cpu / n * 1000:.3f} ms | {client_cpu / n * 1000:.4f} ms{command} | "
            f"{(workers_cpu + client_cpu) / wall:.2f}"
        )

    def loop_row(label: str, seconds: float, used: float) -> str:
        return (
            f"| {name if label == 'plain loop' else ''} | {n if label == 'plain loop' else ''} | {label} | "
            f"{fmt_s(seconds)} | {n / seconds:,.1f} | {loop_s / seconds:.2f}x | {used / n * 1000:.3f} ms | - | "
            f"{used / seconds:.2f} |\n"
        )

    rows = (
        loop_row("plain loop", loop_s, loop_cpu)
        + loop_row("plain loop, rows in bulk", bulk_s, bulk_cpu)
        + f"| | | 1 worker | {fmt_s(one_s)} | {n / one_s:,.1f} | {loop_s / one_s:.2f}x | "
        f"{cpu(one_w, one_c, one_s)} |\n"
        f"| | | 2 workers | {fmt_s(two_s)} | {n / two_s:,.1f} | {loop_s / two_s:.2f}x | "
        f"{cpu(two_w, two_c, two_s, two_t)} |\n"
    )
    return rows, figures


def model(f: dict[str, float], workers: int = 100, points: int = 1_000_000) -> str:
    """What ``workers`` workers would give, from the CPU time per point of the 2-worker
    run: ``T(W) = N (c / W + s)``; the workers' share ``c`` divides among workers, the
    serial share ``s`` does not; against the plain loop's CPU per point.

    Every serial cost of the command is counted in ``s``, in two readings. The serial
    reading: the thread that ran the command (validating the grid, planning and sending
    the chunks, storing them, the table's footer) plus what each chunk costs the scheduler
    and the client apart from its work (measured on empty tasks, times the chunks per
    point of this run: at 1,000,000 points on 100 workers the chunks are bigger, so this
    is pessimistic); the event loops' and heartbeats' idle ticking is left out (it runs on
    their own thread whatever runs; its share of a core is shown; a real cluster's
    scheduler runs on a machine of its own). The pessimistic reading: the whole process's
    CPU per point, the ticking over the whole (long, on a loaded machine) run included as
    if it were work per point."""
    c = f["worker_cpu"]
    loop, bulk = f["loop_cpu"] / f["n"], f["bulk_cpu"] / f["n"]
    parts = []
    serial = f["command_cpu"] + f["scheduler_cpu"]
    readings = (
        (
            f"the command's thread and the scheduler's work ({f['command_cpu'] * 1000:.4f} + "
            f"{f['scheduler_cpu'] * 1000:.4f} ms per point: {f['task_cpu'] * 1000:.2f} ms per task, "
            f"{f['chunks']} chunks)",
            serial,
        ),
        (f"the client's whole process ({f['client_cpu'] * 1000:.4f} ms per point)", f["client_cpu"]),
    )
    for label, s in readings:
        per_point = c / workers + s
        parts.append(
            f"with {label} as the serial share: **{loop / per_point:.1f}x the plain "
            f"loop** ({bulk / per_point:.1f}x the loop with the rows in bulk), {points:,} points about "
            f"{fmt_s(points * per_point)}, any cluster capped at {loop / s:,.0f}x the plain loop"
        )
    return (
        f"per point {c * 1000:.3f} ms of worker CPU (shared out); the plain loop {loop * 1000:.3f} ms of CPU "
        f"({bulk * 1000:.3f} ms with the rows in bulk); the client process idle {f['idle_rate'] * 100:.1f}% of a core; "
        f"on {workers} workers " + "; ".join(parts)
    )


def ratios(am: dict[str, float], fm: dict[str, float]) -> str:
    """The two figures the goals are about, and the model, in a few lines."""
    return (
        f"On 2 workers against the plain loop: Angry Miniatures **{am['loop'] / am['two']:.2f}x**, "
        f"Fairy Meat **{fm['loop'] / fm['two']:.2f}x** (goal >= 1.8x; the plain loops used {am['loop_cores']:.2f} "
        f"and {fm['loop_cores']:.2f} cores); from 1 to 2 workers: {am['one'] / am['two']:.2f}x and "
        f"{fm['one'] / fm['two']:.2f}x.\n\n"
        f"Worker CPU per point less the workers' idle ticking (their event loops and heartbeats over the run, "
        f"{am['two_idle'] * 100:.1f}% of a core for the 2 together): Angry Miniatures {am['one_work'] * 1000:.3f} ms "
        f"on 1 worker, {am['two_work'] * 1000:.3f} ms on 2 (the plain loop {am['loop_cpu'] / am['n'] * 1000:.3f} ms); "
        f"Fairy Meat {fm['one_work'] * 1000:.1f} ms on 1, {fm['two_work'] * 1000:.1f} ms on 2 (the plain loop "
        f"{fm['loop_cpu'] / fm['n'] * 1000:.1f} ms). Duplication factor (the 2 workers' CPU, less their idle "
        f"ticking, over the plain loop's; 1.00: no work done twice): Angry Miniatures "
        f"**{am['two_work'] * am['n'] / am['loop_cpu']:.2f}**, Fairy Meat "
        f"**{fm['two_work'] * fm['n'] / fm['loop_cpu']:.2f}**"
        f" (against the loop with the rows in bulk: {am['two_work'] * am['n'] / am['bulk_cpu']:.2f} and "
        f"{fm['two_work'] * fm['n'] / fm['bulk_cpu']:.2f}). The command's thread per point: Angry Miniatures "
        f"{am['command_cpu'] * 1000:.4f} ms, Fairy Meat {fm['command_cpu'] * 1000:.3f} ms.\n\n"
        f"Angry Miniatures, 100 workers (model; goal >= 50x): {model(am)}.\n"
    )


def more_rounds(text: str, first: tuple[float, float], rounds: int) -> tuple[list[tuple[float, float]], str]:
    """The plain loop and 2 workers again, alternating, until ``rounds`` pairs (``first``
    the bench's own): each pair's seconds and their ratio, and the median ratio. On a
    machine whose speed drifts within minutes a single pair says little."""
    pairs = [first]
    spawn = multiprocessing.get_context("spawn")
    for _ in range(rounds - 1):
        with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
            loop_s = pool.submit(plain_loop, text).result()[0]
        pairs.append((loop_s, on_dask(text, 2)[0]))
    each = sorted(loop / two for loop, two in pairs)
    median = each[len(each) // 2] if len(each) % 2 else (each[len(each) // 2 - 1] + each[len(each) // 2]) / 2
    shown = ", ".join(f"{fmt_s(loop)} / {fmt_s(two)} = {loop / two:.2f}x" for loop, two in pairs)
    return pairs, f"{shown}; median **{median:.2f}x**"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pool", type=int, default=50, help="Angry Miniatures pools 1..N (50: 10,000 points)")
    parser.add_argument("--fm-hands", type=int, default=5, help="Fairy Meat hand sizes 1..N (5: 100 points)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="pairs of (plain loop, 2 workers) per sweep, alternating (median shown)"
    )
    args = parser.parse_args()
    load_before = os.getloadavg()
    am_rows, am = bench("Angry Miniatures opposed", am_text(args.max_pool))
    fm_rows, fm = bench("Fairy Meat deal-averaged odds", fm_text(args.fm_hands))
    repeated = ""
    if args.rounds > 1:
        _, am_rounds = more_rounds(am_text(args.max_pool), (am["loop"], am["two"]), args.rounds)
        _, fm_rounds = more_rounds(fm_text(args.fm_hands), (fm["loop"], fm["two"]), args.rounds)
        repeated = (
            f"Plain loop / 2 workers, {args.rounds} rounds alternating (the first is the table's): "
            f"Angry Miniatures {am_rounds}; Fairy Meat {fm_rounds}.\n\n"
        )
    load_after = os.getloadavg()
    report = (
        "# Sweeps on Dask\n\n"
        f"Machine: {os.cpu_count()} cores; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
        "(1 minute; above the cores means other work shared them: read the ratios and the CPU per point).\n\n"
        "| sweep | points | run | time | points/s | against the plain loop | worker CPU per point "
        "| client CPU per point (process / command's thread) | cores used |\n|---|---|---|---|---|---|---|---|---|\n"
        f"{am_rows}{fm_rows}\n"
        f"{ratios(am, fm)}\n"
        f"{repeated}"
        "Worker CPU per point: the workers' CPU seconds over the run, per point (the plain loops' rows: their CPU "
        "per point). Against the plain loop: its wall time over the run's (on a loaded machine, read the CPU "
        "figures and the model, which use CPU times only).\n\n"
        "Client CPU per point: the CPU seconds of the process running `run_sweep` (with the local scheduler). "
        "Cores used: both per second of the run: below the workers' number when other work holds the "
        "machine's cores.\n\n"
        f"Fairy Meat, 100 workers (model): {model(fm)}.\n"
    )
    publish(report, ROOT / "bench" / "results" / "sweeps.md")
    print("\nIn one run:\n" + ratios(am, fm) + ("\n" + repeated if repeated else ""))


if __name__ == "__main__":
    main()
