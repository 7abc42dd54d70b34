"""Sweeps that scale: each row's interval (``low``/``high``), the rows built in bulk on
the workers, chunk files written by the workers and moved into place by the client,
points grouped by the arguments that share cached work, point keys written from pieces,
a fresh sweep's points built by the workers from their places in the grid.

The expected values come from elsewhere than the code under test: the calculators called
directly (their ``interval``), ``Calculator.rows`` (one ``Fraction`` per outcome),
:func:`~toolkit.sweeps.spec.point_key` (the whole point dumped as JSON), hand arithmetic.
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from toolkit.sweeps import calculator, fingerprint, load_sweep, run_sweep
from toolkit.sweeps.calculators import Row, rows_columns
from toolkit.sweeps.grid import GridPoints, definition_key
from toolkit.sweeps.runner import plan_chunks, plan_lanes, plan_places, plan_work
from toolkit.sweeps.spec import point_key
from toolkit.sweeps.store import PointStore, chunk_checksum, chunk_problem, encode_chunk, sweep_schema, table_sweep

distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

#: Monte Carlo deal-averaged odds (an estimate with Wilson intervals) and exact pools.
ESTIMATED = (
    "system: fairy-meat\ncalculator: deal_averaged_odds\n"
    "grid:\n  attacker_cards: [1, 2]\n  defender_cards: [1]\n"
    "fixed:\n  method: monte_carlo\n  trials: 300\n  seed: 7\nchunk: 1\n"
)
POOLS = (
    "system: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_type: [melee, ranged]\n  attack_dice: [1, 2, 3]\n  defence_dice: [0, 1]\nchunk: 2\n"
)


# -- low and high --------------------------------------------------------------------------------
def test_exact_rows_have_their_value_as_both_bounds(client: object, tmp_path: Path) -> None:
    table = run_sweep(POOLS, tmp_path, client=client, progress=None, report=False).table
    assert table["exact"].all()
    assert (table["low"] == table["value"]).all() and (table["high"] == table["value"]).all()
    # AM-1: 4 hit faces of 6; ranged 1 die against none: one damage with probability 2/3.
    hit = table[
        (table["attack_dice"] == 1)
        & (table["defence_dice"] == 0)
        & (table["attack_type"] == "ranged")
        & (table["outcome"] == "defender_damage=1, attacker_damage=0, attacker_crit=False, defender_crit=False")
    ]
    assert hit["low"].tolist() == [2 / 3] and hit["high"].tolist() == [2 / 3]
    written = pd.read_parquet(tmp_path / "sweep.parquet")
    assert {"low", "high"} <= set(written.columns)


def test_estimated_rows_carry_the_calculators_interval(client: object, tmp_path: Path) -> None:
    from toolkit.fairy_meat import deal_averaged_odds

    table = run_sweep(ESTIMATED, tmp_path, client=client, progress=None, report=False).table
    assert not table["exact"].any()
    assert (table["low"] <= table["value"]).all() and (table["value"] <= table["high"]).all()
    assert (table["low"] < table["high"]).any()
    for cards in (1, 2):
        direct = deal_averaged_odds(cards, 1, method="monte_carlo", trials=300, seed=7)
        part = table[table["attacker_cards"] == cards]
        calc = calculator("fairy-meat", "deal_averaged_odds")
        labels = [r.outcome for r in calc.rows(direct)]
        expected = dict(zip(labels, (direct.interval(o) for o in direct.distribution.outcomes()), strict=True))
        found = {o: (lo, hi) for o, lo, hi in zip(part["outcome"], part["low"], part["high"], strict=True)}
        assert found.keys() == expected.keys()
        for outcome, (low, high) in expected.items():
            assert found[outcome] == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))


def test_a_row_without_an_interval_has_empty_bounds_unless_exact() -> None:
    assert Row("a", "probability", Fraction(1, 2), 0.5, True).bounds() == (0.5, 0.5)
    assert Row("a", "probability", Fraction(1, 2), 0.5, False).bounds() == (None, None)
    assert Row("a", "probability", Fraction(1, 2), 0.5, False, 0.4, 0.6).bounds() == (0.4, 0.6)


def test_a_stored_interval_that_does_not_hold_its_value_is_refused() -> None:
    half = [Row("a", "probability", Fraction(1, 2), 0.5, False, 0.4, 0.6)] * 2
    key = definition_key("k", fingerprint.code_fingerprint())
    rows = [half[0], half[1]._replace(outcome="b")]
    table = pq.read_table(pa.BufferReader(encode_chunk([(key, rows, 0.1)], None, {key: "k"})))
    assert chunk_problem(table, table.schema.metadata) is None
    low = table.column("low").to_pylist()
    low[0] = 0.55
    changed = table.set_column(table.column_names.index("low"), "low", pa.array(low, pa.float64()))
    metadata = {**table.schema.metadata, b"toolkit.checksum": chunk_checksum(changed, {key: "k"}).encode()}
    assert chunk_problem(changed, metadata) == "a row's interval (low, high) does not hold its value"


# -- the rows in bulk ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "name", "args"),
    [
        ("angry-miniatures", "opposed", {"attack_dice": 4, "defence_dice": 3}),
        ("angry-miniatures", "attacks_to_take_out", {"attack_dice": 2, "defence_dice": 1, "health": 3}),
        ("fairy-meat", "hand_composition", {"cards": 3}),
        ("fairy-meat", "deal_averaged_odds", {"attacker_cards": 2, "defender_cards": 1, "method": "exact"}),
        (
            "fairy-meat",
            "deal_averaged_odds",
            {"attacker_cards": 2, "defender_cards": 2, "method": "monte_carlo", "trials": 50},
        ),
        ("durak-battle", "clash_losses", {"cards_a": 2, "cards_b": 1, "method": "monte_carlo", "trials": 40}),
    ],
)
def test_rows_in_bulk_equal_the_rows(system: str, name: str, args: dict) -> None:
    calc = calculator(system, name)
    result = calc.call(args, None if not calc.takes_rules else _default_rules(system))
    assert calc.columns(result) == rows_columns(calc.rows(result))


def _default_rules(system: str) -> object:
    from toolkit.house_rules import rules_class

    return rules_class(system)()


# -- chunk files written by the workers ----------------------------------------------------------
def test_workers_write_the_chunk_files_and_leave_nothing_else(client: object, tmp_path: Path) -> None:
    result = run_sweep(POOLS, tmp_path, client=client, progress=None, report=False)
    stored = sorted((tmp_path / ".points").iterdir())
    assert len(stored) == 6 and all(p.suffix == ".parquet" for p in stored)  # 12 points, chunk: 2
    assert result.computed == 12
    again = run_sweep(POOLS, tmp_path, client=client, progress=None, report=False)
    assert (again.computed, again.skipped, again.set_aside) == (0, 12, 0)


def test_workers_that_cannot_see_the_folder_send_the_bytes(
    client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = run_sweep(POOLS, tmp_path / "a", client=client, progress=None, report=False)
    monkeypatch.setattr(PointStore, "sees_run", lambda self, run: False)
    result = run_sweep(POOLS, tmp_path / "b", client=client, progress=None, report=False)
    assert result.computed == 12 and len(list((tmp_path / "b" / ".points").glob("*.parquet"))) == 6
    same = [c for c in reference.table.columns if c != "seconds"]
    pd.testing.assert_frame_equal(result.table[same], reference.table[same])


def test_files_staged_for_a_run_that_is_over_are_removed(tmp_path: Path) -> None:
    store = PointStore(tmp_path)
    store.open_run("old")
    old = store.stage(b"half a chunk", ["k"], "old")
    assert old is not None and old.is_file() and old.name.startswith(".")
    assert store.done() == set()  # a staged file is never read as a chunk
    store.close_run("old")
    assert not old.exists()
    (tmp_path / ".points" / ".x.killed.staged").write_bytes(b"left by a killed worker")
    store.open_run("new")
    assert not (tmp_path / ".points" / ".x.killed.staged").exists()
    assert store.commit(["k"], "new", 5) is None  # nothing staged for it: nothing stored
    store.close_run("new")
    assert list((tmp_path / ".points").iterdir()) == []


# -- grouping ------------------------------------------------------------------------------------
def test_points_sharing_pools_go_in_one_chunk_largest_first() -> None:
    sweep = load_sweep(POOLS)
    # grid order: attack_type first, so the two points of one pair of pools are 6 apart
    assert sweep.points[0].arguments()["attack_type"] != sweep.points[6].arguments()["attack_type"]
    chunks = plan_chunks(sweep, sweep.points, workers=2)
    pools = [{(p.arguments()["attack_dice"], p.arguments()["defence_dice"]) for p in c} for c in chunks]
    assert pools == [{(3, 1)}, {(3, 0)}, {(2, 1)}, {(2, 0)}, {(1, 1)}, {(1, 0)}]
    assert sorted(p.key for c in chunks for p in c) == sorted(p.key for p in sweep.points)


def test_a_worker_computes_the_chunks_in_the_planned_order(tmp_path: Path) -> None:
    """Largest first, as planned (:func:`plan_chunks`): Dask on its own runs the chunks that
    wait for a free worker in an order of its own (here the second before the first; on two
    worker processes, the rest last-submitted first: the largest would finish last)."""
    from distributed import Client, LocalCluster, get_task_stream

    sweep = load_sweep(POOLS.replace("chunk: 2", "chunk: 1"))
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as one,
        get_task_stream(one) as stream,
    ):
        busy = one.submit(time.sleep, 1.0, pure=False)  # the worker busy: every chunk waits for it
        result = run_sweep(sweep, tmp_path, client=one, progress=None, report=False)
        busy.result()
    assert result.ok and result.computed == 12
    started = {
        int(str(task["key"]).rsplit("-", 1)[1]): min(s["start"] for s in task["startstops"] if s["action"] == "compute")
        for task in stream.data
        if str(task["key"]).startswith("sweep-")
    }
    assert sorted(started, key=started.get) == list(range(12))


# -- point keys ----------------------------------------------------------------------------------
def test_point_keys_from_pieces_equal_the_whole_points_key() -> None:
    text = (
        "system: durak-battle\ncalculator: clash_losses\n"
        "grid:\n  cards_a: [1, 2]\n  policies: [greedy, [greedy, random]]\n"
        "  rules:\n    jokers: [false, true]\nfixed:\n  cards_b: 1\n  method: monte_carlo\n  trials: 10\n"
    )
    for source in (text, POOLS, ESTIMATED):
        sweep = load_sweep(source)
        code = fingerprint.code_fingerprint()
        for p in sweep.points:
            assert p.key == point_key(sweep.system, sweep.calculator.name, p.arguments(), p.rules, code)


# -- the table spliced from the chunk files ------------------------------------------------------
def test_the_spliced_table_equals_the_table_built_from_the_rows(client: object, tmp_path: Path) -> None:
    """Pools first in the grid: each chunk's points follow each other, so a fresh run
    splices the chunk files (no row read); a rerun (points stored before) builds the table
    from the stored rows. Both files read the same, and both equal a plain loop."""
    text = POOLS.replace("  attack_type: [melee, ranged]\n", "") + "  attack_type: [melee, ranged]\n"
    text = text.replace("chunk: 2\n  attack_type: [melee, ranged]\n", "  attack_type: [melee, ranged]\nchunk: 2\n")
    sweep = load_sweep(text)
    assert sweep.swept == ("attack_dice", "defence_dice", "attack_type")
    fresh = run_sweep(text, tmp_path, client=client, progress=None, report=False)
    assert fresh.rows is None  # spliced: the table is read from the file only when asked for
    spliced = pd.read_parquet(tmp_path / "sweep.parquet")
    (tmp_path / "sweep.parquet").unlink()
    rebuilt = run_sweep(text, tmp_path, client=client, progress=None, report=False)
    assert rebuilt.rows is not None and rebuilt.skipped == 12
    built = pd.read_parquet(tmp_path / "sweep.parquet")
    pd.testing.assert_frame_equal(spliced, built)
    pd.testing.assert_frame_equal(fresh.table, rebuilt.table)
    assert spliced["point"].tolist() == sorted(spliced["point"].tolist())
    assert "key" not in spliced.columns and "row" not in spliced.columns
    calc = sweep.calculator
    for index, point in enumerate(sweep.points):
        rows = calc.rows(calc.call(point.arguments(), point.rules))
        part = spliced[spliced["point"] == index]
        assert list(part["outcome"]) == [r.outcome for r in rows]
        assert [Fraction(int(n), int(d)) for n, d in zip(part["numerator"], part["denominator"], strict=True)] == [
            r.exact for r in rows
        ]
        assert dict(point.columns)["attack_dice"] == part["attack_dice"].iloc[0]


def test_a_group_is_split_only_when_bigger_than_the_chunk_allowed() -> None:
    """Groups of 2 (melee and ranged share their pools). The sweep file's chunk: 1 is
    kept (one point per task); without one, a group is whole even when the chunk size
    from the calculator's time is smaller (here forced to 1), as long as each of the
    workers keeps its share of chunks."""
    sweep = load_sweep(POOLS.replace("chunk: 2", "chunk: 1"))
    assert [len(c) for c in plan_chunks(sweep, sweep.points, workers=2)] == [1] * 12
    auto = load_sweep(POOLS.replace("chunk: 2\n", ""))
    slow = auto.calculator.__class__(**{**auto.calculator.__dict__, "seconds": 10.0})  # 1 point by time
    auto = auto.__class__(**{**auto.__dict__, "calculator": slow})
    chunks = plan_chunks(auto, auto.points, workers=1)  # a share of 12 / 8: 2 points
    assert [len(c) for c in chunks] == [2] * 6
    assert all(len({(p.arguments()["attack_dice"], p.arguments()["defence_dice"]) for p in c}) == 1 for c in chunks)


# -- points built by the workers -----------------------------------------------------------------
def _identity(sweep: object) -> str:
    """A sweep's identity from its points dumped whole (:func:`~toolkit.sweeps.spec.point_definition`)."""
    import hashlib

    from toolkit.sweeps.spec import point_definition

    whole = hashlib.sha256(f"{sweep.system}:{sweep.calculator.name}".encode())
    for p in sweep.points:
        whole.update(point_definition(sweep.system, sweep.calculator.name, p.arguments(), p.rules).encode())
    return whole.hexdigest()[:32]


def test_a_sweep_files_points_are_built_when_first_asked_for() -> None:
    sweep = load_sweep(POOLS)
    assert isinstance(sweep.points, GridPoints) and not sweep.points.built and sweep.size == 12
    # grid order, the first entry slowest: melee (1, 0), (1, 1), (2, 0) ..., then ranged
    assert sweep.points.at(1).arguments() == {"attack_dice": 1, "defence_dice": 1, "attack_type": "melee"}
    assert not sweep.points.built
    assert [(p.arguments()["attack_type"], p.arguments()["attack_dice"]) for p in sweep.points][5:7] == [
        ("melee", 3),
        ("ranged", 1),
    ]
    code = fingerprint.code_fingerprint()
    assert [p.key for p in sweep.points] == [
        point_key(sweep.system, sweep.calculator.name, p.arguments(), p.rules, code) for p in sweep.points
    ]
    assert sweep.identity == _identity(sweep)


def test_a_value_repeated_in_the_grid_is_one_point() -> None:
    sweep = load_sweep(POOLS.replace("attack_dice: [1, 2, 3]", "attack_dice: [1, 2, 1, 3]"))
    assert sweep.size == 12 and sweep.points.built  # 2 x 4 x 2 places, 2 x 3 x 2 points
    assert len({p.key for p in sweep.points}) == 12
    assert sweep.identity == _identity(sweep) == load_sweep(POOLS).identity


def test_the_places_are_planned_as_the_points() -> None:
    for text in (POOLS.replace("chunk: 2\n", ""), POOLS, ESTIMATED):
        sweep = load_sweep(text)
        places = plan_places(sweep, sweep.points.grid, workers=2)
        assert not sweep.points.built
        chunks = plan_chunks(sweep, sweep.points, workers=2)
        assert [[sweep.points[i].key for i in chunk] for chunk in places] == [[p.key for p in c] for c in chunks]


def test_the_table_schema_of_unbuilt_points_is_that_of_the_points() -> None:
    text = (
        "system: durak-battle\ncalculator: clash_losses\n"
        "grid:\n  cards_a: [1, 2]\n  policies: [greedy, [greedy, random]]\n"
        "  rules:\n    jokers: [false, true]\nfixed:\n  cards_b: 1\n  method: monte_carlo\n  trials: 10\n"
    )
    for source in (text, POOLS, ESTIMATED):
        unbuilt, built = load_sweep(source), load_sweep(source)
        assert list(built.points) and built.points.built
        assert sweep_schema(unbuilt) == sweep_schema(built)
        assert not unbuilt.points.built


def test_a_fresh_sweep_sends_places_and_learns_its_identity(client: object, tmp_path: Path) -> None:
    """No point is built on the machine running the command: the workers build them and
    send their definitions back, from which the identity the table records is worked out.
    (Pools first in the grid: the chunks follow each other and the table is spliced; when
    they interleave, the table is built from the stored rows, by key: the points are then
    built here.)"""
    text = POOLS.replace("  attack_type: [melee, ranged]\n", "").replace(
        "chunk: 2", "  attack_type: [melee, ranged]\nchunk: 2"
    )
    sweep = load_sweep(text)
    assert sweep.swept == ("attack_dice", "defence_dice", "attack_type")
    result = run_sweep(sweep, tmp_path, client=client, progress=None, report=False)
    assert result.computed == 12 and not sweep.points.built
    expected = _identity(load_sweep(text))
    assert sweep.identity == expected and not sweep.points.built
    assert table_sweep(tmp_path / "sweep.parquet")["identity"] == expected
    # the rows against the calculator called directly on each point, at its place
    table = result.table
    calc = sweep.calculator
    for index, point in enumerate(load_sweep(text).points):
        rows = calc.rows(calc.call(point.arguments(), point.rules))
        part = table[table["point"] == index]
        assert list(part["outcome"]) == [r.outcome for r in rows]
        assert [Fraction(int(n), int(d)) for n, d in zip(part["numerator"], part["denominator"], strict=True)] == [
            r.exact for r in rows
        ]
        assert part["attack_type"].iloc[0] == point.arguments()["attack_type"]


# -- groups of points dealt to the workers --------------------------------------------------------
#: Deal-averaged odds of 3 x 3 hand sizes under 4 rules variants: a pair of hand sizes shares its
#: deals and plays under every variant; the tables of one hand size serve every pair. Chunks of
#: 4 points (without ``chunk`` a sweep this small is cut finer, to share it out evenly).
JUDGED = (
    "system: fairy-meat\ncalculator: deal_averaged_odds\n"
    "grid:\n  attacker_cards: [1, 2, 3]\n  defender_cards: [3, 2, 1]\n"
    "  rules:\n    damage: [halved, table]\n    nasty_hit: [damaged, loser]\nfixed:\n  method: exact\nchunk: 4\n"
)


def test_groups_are_dealt_diagonally() -> None:
    """A group's lane is the sum of its values' ranks modulo the lanes (worked by hand)."""
    assert plan_lanes([(1, 1), (1, 2), (2, 1), (2, 2)], 2) == [0, 1, 1, 0]
    assert plan_lanes([(2, 2), (1, 1), (2, 1), (1, 2)], 2) == [0, 0, 1, 1]  # ranks, not places
    assert plan_lanes([(4,), (1,), (3,), (2,)], 3) == [0, 0, 2, 1]
    assert plan_lanes([(10, "b"), (9, "a"), (10, "a")], 2) == [0, 0, 1]  # 10 after 9, "b" after "a"
    assert plan_lanes([], 2) == []


def test_only_a_calculator_whose_groups_share_work_is_dealt() -> None:
    judged, pools = load_sweep(JUDGED), load_sweep(POOLS)
    assert judged.calculator.deal_groups and not pools.calculator.deal_groups
    assert all(where is None for _, where in plan_work(pools, [], pools.points.grid, ["w0", "w1"], 2))
    assert all(where is None for _, where in plan_work(judged, [], judged.points.grid, ["w0"], 1))


@pytest.mark.parametrize("built", [False, True])
def test_each_lane_sees_every_hand_size_and_keeps_a_pairs_rules_variants_together(built: bool) -> None:
    sweep = load_sweep(JUDGED)
    grid = sweep.points.grid
    todo = list(sweep.points) if built else []
    sent = plan_work(sweep, todo, None if built else grid, ["tcp://a:1", "tcp://b:2"], 2)
    order, seen = [], []
    for chunk, where in sent:
        points = chunk if built else [sweep.points[i] for i in chunk]
        pairs = {(p.arguments()["attacker_cards"], p.arguments()["defender_cards"]) for p in points}
        assert len(pairs) == 1 and len(points) == 4  # a pair's four rules variants in one chunk
        order.append((*pairs, None if where is None else where[0]))
        seen += [p.key for p in points]
    assert sorted(seen) == sorted(p.key for p in sweep.points)
    # The checkerboard: 1 v 1, 1 v 3, 2 v 2, 3 v 1, 3 v 3 on one worker, the rest on the other,
    # so that each worker sees every hand size of each side; the lanes in turn, each lane's
    # largest exact size first (exact_size: 3 v 3 164,936; 2 v 2 123,804; 3 v 1 and 1 v 3
    # 106,164, then the larger values; 1 v 1 73,616; 3 v 2 and 2 v 3 140,880; 2 v 1 and 1 v 2
    # 95,012), its last quarter (at least one chunk) to any worker: the lanes end together.
    a, b = "tcp://a:1", "tcp://b:2"
    assert order == [
        ((3, 3), a),
        ((3, 2), b),
        ((2, 2), a),
        ((2, 3), b),
        ((3, 1), a),
        ((2, 1), b),
        ((1, 3), a),
        ((1, 2), None),
        ((1, 1), None),
    ]


def test_a_sweep_dealt_in_lanes_gives_the_calculators_rows(client: object, tmp_path: Path) -> None:
    sweep = load_sweep(JUDGED)
    result = run_sweep(sweep, tmp_path, client=client, progress=None, report=False)
    assert result.ok and result.computed == 36
    calc, table = sweep.calculator, result.table
    for index, point in enumerate(load_sweep(JUDGED).points):
        rows = calc.rows(calc.call(point.arguments(), point.rules))
        part = table[table["point"] == index]
        assert [Fraction(int(n), int(d)) for n, d in zip(part["numerator"], part["denominator"], strict=True)] == [
            r.exact for r in rows
        ]
