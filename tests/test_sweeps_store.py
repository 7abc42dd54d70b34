"""The sweep store on a rerun (issue 20): a stored chunk that is damaged, of other code
or stale is set aside with one line and its points computed again, and the table equals
a clean run's; a non-file entry is skipped; two different sweeps cannot share a table.

Each damage is made to one chunk of a clean run of a 6-point sweep in 3 chunks; the
rerun must then compute exactly that chunk's 2 points again.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from toolkit.errors import InvalidSetupError
from toolkit.sweeps import run_sweep
from toolkit.sweeps.calculators import Row
from toolkit.sweeps.fingerprint import code_fingerprint
from toolkit.sweeps.grid import definition_key
from toolkit.sweeps.store import PointStore, chunk_checksum, chunk_problem, encode_chunk, rows_checksum

distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

#: One card against hand compositions (FM-1), 6 points in chunks of 2: 3 chunk files.
HANDS = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: {from: 0, to: 5}\nchunk: 2\n"
#: The table's columns that do not depend on the run (``seconds`` is each run's own time).
SAME = ["point", "system", "calculator", "cards", "outcome", "kind", "numerator", "denominator", "value", "exact"]


@pytest.fixture(scope="module")
def clean(client: object, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """A clean run's folder and table (the reference of every rerun here)."""
    out = tmp_path_factory.mktemp("clean")
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, len(list((out / ".points").glob("*.parquet")))) == (6, 3)
    return out, result.table


def rewrite(path: Path, change: Callable[[object], object], checksum: str = "keep") -> None:
    """Rewrite a chunk's table through ``change``, with its metadata kept
    (``checksum="keep"``) or the checksum made fresh for the changed rows (``"fresh"``:
    what the checksum alone cannot catch)."""
    table = pq.read_table(path)
    metadata = dict(table.schema.metadata)
    changed = change(table.replace_schema_metadata(None))
    if checksum == "fresh":
        metadata[b"toolkit.checksum"] = fresh_checksum(changed, metadata)
    pq.write_table(changed.replace_schema_metadata(metadata), path)


def fresh_checksum(table: object, metadata: dict) -> bytes:
    """The checksum a chunk of ``table`` and ``metadata`` would have (made afresh)."""
    return chunk_checksum(table, json.loads(metadata[b"toolkit.definitions"])).encode()


def key_of(name: str) -> tuple[str, dict[str, str]]:
    """A point's key for the definition ``name``, and the definitions a chunk records of it."""
    key = definition_key(name, code_fingerprint())
    return key, {key: name}


def set_column(table: object, name: str, values: list) -> object:
    index = table.column_names.index(name)
    return table.set_column(index, table.schema.field(name), pa.array(values, table.schema.field(name).type))


def flip_outside_key(path: Path) -> None:
    """Flip bytes in the middle of the ``numerator`` column's data (not the key column's)."""
    meta = pq.ParquetFile(path).metadata.row_group(0)
    column = next(meta.column(i) for i in range(meta.num_columns) if meta.column(i).path_in_schema == "numerator")
    data = bytearray(path.read_bytes())
    middle = column.data_page_offset + column.total_compressed_size // 2
    for i in range(middle, middle + 4):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def numerator_changed(table: object) -> object:
    numerators = table.column("numerator").to_pylist()
    numerators[0] = str(int(numerators[0]) + 1)
    return set_column(table, "numerator", numerators)


def null_numerator(table: object) -> object:
    numerators = table.column("numerator").to_pylist()
    numerators[-1] = None
    return set_column(table, "numerator", numerators)


def row_twice(table: object) -> object:
    return pa.concat_tables([table, table.slice(0, 1)])


def last_row_dropped(table: object) -> object:
    return table.slice(0, len(table) - 1)


def first_row_of_a_point_dropped(table: object) -> object:
    """Row 0 of the chunk's last point dropped (its other rows kept)."""
    keys = table.column("key").to_pylist()
    first = keys.index(keys[-1])
    return pa.concat_tables([table.slice(0, first), table.slice(first + 1)])


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[:100]), "it cannot be read whole"),
    "garbage": (lambda p: p.write_bytes(b"PAR1" + b"\x00" * 64 + b"PAR1"), "it cannot be read whole"),
    "bytes flipped outside the key column": (flip_outside_key, ""),
    "changed numerator": (lambda p: rewrite(p, numerator_changed), "its rows do not match their checksum"),
    "a null": (lambda p: rewrite(p, null_numerator), "its rows do not match their checksum"),
    "a duplicated row": (lambda p: rewrite(p, row_twice), "its rows do not match their checksum"),
    "a dropped row": (lambda p: rewrite(p, last_row_dropped), "its rows do not match their checksum"),
    "changed numerator, fresh checksum": (
        lambda p: rewrite(p, numerator_changed, "fresh"),
        "sum to ",  # e.g. 1 + 1/52 instead of 1 (FM-1: the outcomes of a hand sum to 1)
    ),
    "a null, fresh checksum": (
        lambda p: rewrite(p, null_numerator, "fresh"),
        "a row has a numerator without a denominator or the reverse",
    ),
    "a duplicated row, fresh checksum": (lambda p: rewrite(p, row_twice, "fresh"), "twice"),
    "a dropped row, fresh checksum": (lambda p: rewrite(p, last_row_dropped, "fresh"), "sum to"),
    "row 0 dropped, fresh checksum": (lambda p: rewrite(p, first_row_of_a_point_dropped, "fresh"), "misses rows"),
    "a missing column": (lambda p: rewrite(p, lambda t: t.drop_columns(["value"])), "it has no column 'value'"),
    "a column of another type": (
        lambda p: rewrite(p, lambda t: t.set_column(1, "row", t.column("row").cast(pa.int64()))),
        "its column 'row' holds int64, not int32",
    ),
    "no code fingerprint": (
        lambda p: pq.write_table(pq.read_table(p).replace_schema_metadata(None), p),
        "it records no code fingerprint (written by an older toolkit)",
    ),
}


def damaged_copy(clean: tuple[Path, pd.DataFrame], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the clean run's folder without its table; the chunk file to damage."""
    out = tmp_path / "out"
    shutil.copytree(clean[0] / ".points", out / ".points")
    return out, sorted((out / ".points").glob("*.parquet"))[1]


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_a_damaged_chunk_is_set_aside_reported_and_recomputed(
    damage: str, client: object, clean: tuple[Path, pd.DataFrame], tmp_path: Path
) -> None:
    out, chunk = damaged_copy(clean, tmp_path)
    make, expected = DAMAGES[damage]
    make(chunk)
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, result.skipped, result.set_aside) == (2, 4, 1)
    assert len(result.notices) == 1
    line = result.notices[0]
    assert "\n" not in line and line.startswith(f"ignored {chunk}: ") and expected in line
    assert line.endswith(f"(renamed {chunk.name}.ignored; its points are computed again)")
    assert (chunk.parent / f"{chunk.name}.ignored").is_file()
    pd.testing.assert_frame_equal(result.table[SAME], clean[1][SAME])
    assert "1 stored chunk set aside (damaged or of other code) and computed again" in result.summary()
    # The recomputed chunk is whole: a second rerun has nothing to do and nothing to say.
    again = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (again.computed, again.skipped, again.set_aside, again.notices) == (0, 6, 0, ())


@pytest.mark.parametrize("checksum", ["of the rows", "of the rows and definitions"])
def test_a_chunk_of_another_sweep_relabelled_is_recomputed(
    checksum: str, client: object, clean: tuple[Path, pd.DataFrame], tmp_path: Path
) -> None:
    """A chunk of hands of 6 and 7 cards, its keys changed to those of this sweep's
    points of 2 and 3 cards and its checksum made afresh: its rows would pass every
    content check (each point's probabilities sum to 1), but the points' recorded
    definitions are not those the keys are the hash of."""
    other = run_sweep(
        HANDS.replace("from: 0, to: 5", "from: 6, to: 11"),
        tmp_path / "other",
        client=client,
        progress=None,
        report=False,
    )
    out, chunk = damaged_copy(clean, tmp_path)
    ours = pq.read_table(chunk).column("key").unique().to_pylist()
    source = next(p for p in sorted((tmp_path / "other" / ".points").glob("*.parquet")))
    table = pq.read_table(source)
    theirs = table.column("key").unique().to_pylist()
    assert len(theirs) == len(ours) == 2 and other.computed == 6
    relabelled = pa.array([ours[theirs.index(k)] for k in table.column("key").to_pylist()], pa.string())
    changed = table.set_column(0, table.schema.field("key"), relabelled)
    metadata = dict(table.schema.metadata)
    if checksum == "of the rows":  # what the checksum was before it covered the definitions
        metadata[b"toolkit.checksum"] = rows_checksum(changed.replace_schema_metadata(None)).encode()
    else:  # the recorded definitions relabelled too: each under its new key
        definitions = json.loads(metadata[b"toolkit.definitions"])
        metadata[b"toolkit.definitions"] = json.dumps(
            {ours[theirs.index(k)]: d for k, d in definitions.items()}
        ).encode()
        metadata[b"toolkit.checksum"] = fresh_checksum(changed.replace_schema_metadata(None), metadata)
    pq.write_table(changed.replace_schema_metadata(metadata), chunk)
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, result.skipped, result.set_aside) == (2, 4, 1)
    expected = (
        "its rows do not match their checksum" if checksum == "of the rows" else "is not the point its definition gives"
    )
    assert expected in result.notices[0]
    pd.testing.assert_frame_equal(result.table[SAME], clean[1][SAME])


def test_a_chunk_of_other_code_is_recomputed(client: object, clean: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    """A chunk holding this sweep's keys, but whose metadata names other code (with a
    checksum that matches its rows): its numbers are not trusted."""
    out, chunk = damaged_copy(clean, tmp_path)
    table = pq.read_table(chunk)
    metadata = {**table.schema.metadata, b"toolkit.code": b"0000000000000000"}
    pq.write_table(table.replace_schema_metadata(metadata), chunk)
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, result.set_aside) == (2, 1)
    assert "it was computed by other toolkit code (fingerprint '0000000000000000'" in result.notices[0]
    pd.testing.assert_frame_equal(result.table[SAME], clean[1][SAME])


def test_stale_chunks_are_recomputed_after_the_code_changes(
    client: object, clean: tuple[Path, pd.DataFrame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = damaged_copy(clean, tmp_path)
    monkeypatch.setattr("toolkit.sweeps.fingerprint.code_fingerprint", lambda: "fedcba9876543210")
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, result.skipped, result.set_aside) == (6, 0, 3)
    assert all("computed by other toolkit code" in line for line in result.notices)
    pd.testing.assert_frame_equal(result.table[SAME], clean[1][SAME])


def test_a_folder_among_the_chunks_is_skipped(client: object, clean: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    out, _ = damaged_copy(clean, tmp_path)
    (out / ".points" / "x.parquet").mkdir()
    result = run_sweep(HANDS, out, client=client, progress=None, report=False)
    assert (result.computed, result.skipped, result.set_aside) == (0, 6, 0)
    assert result.notices == (f"skipped {out / '.points' / 'x.parquet'}: it is not a file (only chunk files are read)",)
    pd.testing.assert_frame_equal(result.table[SAME], clean[1][SAME])


def test_chunk_checks_by_hand() -> None:
    """The content checks on tables built here: exact rows sum to exactly 1, float-only
    rows within 1e-9 of 1."""

    key, definitions = key_of("k")

    def chunk(*rows: Row) -> object:
        return pq.read_table(pa.BufferReader(encode_chunk([(key, list(rows), 0.1)], None, definitions)))

    def problem(table: object) -> str | None:
        return chunk_problem(table, table.schema.metadata)

    third = Row("a", "probability", Fraction(1, 3), 1 / 3, True)
    two_thirds = Row("b", "probability", Fraction(2, 3), 2 / 3, True)
    assert problem(chunk(third, two_thirds)) is None
    assert problem(chunk(third, third)) == f"the probabilities of point {key!r} sum to 2/3, not 1"
    # Values (a game value, say) need not sum to anything.
    assert problem(chunk(Row("value", "value", Fraction(5), 5.0, True))) is None
    floats = [Row(str(i), "probability", None, 0.1, False) for i in range(10)]  # 0.1 ten times: 1 - 1.1e-16
    assert problem(chunk(*floats)) is None
    assert problem(chunk(*floats[:9])) == f"the probabilities of point {key!r} sum to 0.9, not 1"
    assert problem(chunk(third, Row("b", "probability", None, 2 / 3, False))) == (
        f"point {key!r} mixes exact and float-only probabilities"
    )


def test_two_different_sweeps_of_one_name_cannot_share_a_table(client: object, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "hands.yaml", tmp_path / "b" / "hands.yaml"
    first.write_text(HANDS)
    second.write_text(HANDS.replace("to: 5", "to: 3"))
    out = tmp_path / "out"
    run_sweep(first, out, client=client, progress=None, report=False)
    before = (out / "hands.parquet").read_bytes()
    with pytest.raises(InvalidSetupError) as info:
        run_sweep(second, out, client=client, progress=None, report=False)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{out / 'hands.parquet'} is the table of another sweep named hands (")
    assert f"not of {second} (" in message and "6 points" in message and "4 points" in message
    assert (out / "hands.parquet").read_bytes() == before
    # The same sweep (same file, or the same definition elsewhere) resumes.
    again = run_sweep(first, out, client=client, progress=None, report=False)
    assert (again.computed, again.skipped) == (0, 6)
    shutil.copy(first, second)
    assert run_sweep(second, out, client=client, progress=None, report=False).skipped == 6


def test_store_rows_are_built_from_trusted_chunks_only(tmp_path: Path) -> None:
    store = PointStore(tmp_path)
    whole = [
        Row("hit", "probability", Fraction(2, 3), 2 / 3, True),
        Row("miss", "probability", Fraction(1, 3), 1 / 3, True),
    ]
    (a, a_defined), (b, b_defined) = key_of("a"), key_of("b")
    store.save(encode_chunk([(a, whole, 0.1)], None, a_defined), [a])
    (tmp_path / ".points" / "short.parquet").write_bytes(encode_chunk([(b, whole[:1], 0.1)], None, b_defined))
    fresh = PointStore(tmp_path)  # another run: nothing is trusted unchecked
    assert fresh.done() == {a}
    assert fresh.rows()["key"].tolist() == [a, a]
    assert fresh.set_aside == 1 and f"the probabilities of point {b!r} sum to 2/3, not 1" in fresh.notices[0]


def test_a_table_of_single_chances_resumes(client: object, tmp_path: Path) -> None:
    """The opposed table's measures (P hit, P return hit, the crits: AM-3, AM-7) are chances
    of single events, not a distribution: they need not sum to 1, so a rerun trusts their
    chunks (it set every one aside as damaged when they were checked as a distribution)."""
    sweep = (
        "system: angry-miniatures\ncalculator: odds_table\n"
        "grid:\n  attack_dice: [1, 2]\n  defence_dice: [1]\n  attack_type: [melee]\n"
    )
    first = run_sweep(sweep, tmp_path, client=client, progress=None, report=False)
    chances = first.table[first.table["kind"] == "chance"]
    # the old check read these four as one distribution: every rerun set both chunks aside
    assert set(chances["outcome"]) == {"hit", "return_hit", "attacker_crit", "defender_crit"}
    again = run_sweep(sweep, tmp_path, client=client, progress=None, report=False)
    assert (again.computed, again.skipped, again.set_aside, again.notices) == (0, 2, 0, ())
