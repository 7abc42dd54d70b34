"""One Parquet file from the chunk files of a sweep, without reading their rows.

A sweep's chunk files are written by its workers with every column of the sweep's table
(:func:`~toolkit.sweeps.store.sweep_schema`) besides the store's own. The table file is
then their row groups one after the other: each chunk file's bytes are copied whole (the
kernel copies them, on the workers when they see the folder: no row is decoded or encoded,
and no byte copied, on the machine running the command), and
a new footer lists every row group, its column chunks' offsets moved by where the chunk's
bytes now start, the store's own columns (``key``, ``row``) left out. The footer's schema,
metadata and column orders are those pyarrow writes for the table's schema (a file of no
rows written first), so the file reads as pyarrow would have written it.

The footer is Thrift's compact protocol (the Parquet format's ``FileMetaData``): read and
written here generically, field by field; only the fields named below are changed.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["part_layout", "splice_tables", "copy_ranges", "read_footer", "write_footer"]

MAGIC = b"PAR1"
# Thrift compact types
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)

# Field ids of the Parquet format (parquet.thrift)
_FILE_SCHEMA, _FILE_ROWS, _FILE_GROUPS, _FILE_KEYS, _FILE_CREATED, _FILE_ORDERS = 2, 3, 4, 5, 6, 7
_GROUP_COLUMNS, _GROUP_BYTES, _GROUP_ROWS, _GROUP_OFFSET, _GROUP_COMPRESSED, _GROUP_ORDINAL = 1, 2, 3, 5, 6, 7
_CHUNK_OFFSETS = (2, 4, 6)  # file_offset, offset_index_offset, column_index_offset
_CHUNK_META = 3
_META_PATH, _META_UNCOMPRESSED, _META_COMPRESSED = 3, 6, 7
_META_OFFSETS = (9, 10, 11, 14)  # data, index and dictionary page offsets, bloom filter offset
_META_DATA_PAGE, _META_DICTIONARY_PAGE = 9, 11


# -- Thrift's compact protocol, generically -------------------------------------------------------
class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def take(self, size: int) -> bytes:
        value = self.data[self.at : self.at + size]
        if len(value) != size:
            raise ValueError("the footer ends mid-value")
        self.at += size
        return value

    def value(self, kind: int) -> Any:
        if kind in (_TRUE, _FALSE):  # a bool in a list or map: one byte
            return self.byte()
        if kind == _BYTE:
            return self.byte()
        if kind in (_I16, _I32, _I64):
            return self.zigzag()
        if kind == _DOUBLE:
            return self.take(8)
        if kind == _BINARY:
            return self.take(self.varint())
        if kind in (_LIST, _SET):
            head = self.byte()
            size, element = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            return (element, [self.value(element) for _ in range(size)])
        if kind == _MAP:
            size = self.varint()
            if not size:
                return (0, 0, [])
            head = self.byte()
            return (head >> 4, head & 0x0F, [(self.value(head >> 4), self.value(head & 0x0F)) for _ in range(size)])
        if kind == _STRUCT:
            return self.struct()
        raise ValueError(f"unknown compact type {kind}")

    def struct(self) -> list[list[Any]]:
        fields, last = [], 0
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == _STOP:
                return fields
            delta = head >> 4
            fid = last + delta if delta else self.zigzag()
            value = kind == _TRUE if kind in (_TRUE, _FALSE) else self.value(kind)
            fields.append([fid, kind, value])
            last = fid


class _Mark(int):
    """An offset a part's row group holds relative to the part's first byte after the magic."""


class _Ordinal(int):
    """Where a row group's ordinal goes (known only once the groups are put in order)."""


class _Raw(bytes):
    """A value written already."""


class _Writer:
    def __init__(self) -> None:
        self.out = io.BytesIO()
        self.pieces: list[bytes | int | None] = []  # bytes, offsets (_Mark) and ordinals (None)

    def cut(self, mark: int | None) -> None:
        self.pieces.append(self.out.getvalue())
        self.pieces.append(mark)
        self.out = io.BytesIO()

    def finish(self) -> list[bytes | int | None]:
        self.pieces.append(self.out.getvalue())
        return self.pieces

    def byte(self, value: int) -> None:
        self.out.write(bytes((value,)))

    def varint(self, n: int) -> None:
        while True:
            if n < 0x80:
                self.byte(n)
                return
            self.byte((n & 0x7F) | 0x80)
            n >>= 7

    def zigzag(self, n: int) -> None:
        self.varint((n << 1) ^ (n >> 63))

    def value(self, kind: int, value: Any) -> None:
        if isinstance(value, _Raw):
            self.out.write(value)
        elif kind in (_TRUE, _FALSE, _BYTE):
            self.byte(value)
        elif isinstance(value, _Mark):
            self.cut(int(value))
        elif isinstance(value, _Ordinal):
            self.cut(None)
        elif kind in (_I16, _I32, _I64):
            self.zigzag(value)
        elif kind == _DOUBLE:
            self.out.write(value)
        elif kind == _BINARY:
            self.varint(len(value))
            self.out.write(value)
        elif kind in (_LIST, _SET):
            element, items = value
            if len(items) < 15:
                self.byte((len(items) << 4) | element)
            else:
                self.byte(0xF0 | element)
                self.varint(len(items))
            for item in items:
                self.value(element, item)
        elif kind == _MAP:
            key, val, items = value
            self.varint(len(items))
            if items:
                self.byte((key << 4) | val)
                for k, v in items:
                    self.value(key, k)
                    self.value(val, v)
        elif kind == _STRUCT:
            self.struct(value)
        else:
            raise ValueError(f"unknown compact type {kind}")

    def struct(self, fields: list[list[Any]]) -> None:
        last = 0
        for fid, kind, value in fields:
            if kind in (_TRUE, _FALSE):
                kind = _TRUE if value else _FALSE
            delta = fid - last
            if 0 < delta <= 15:
                self.byte((delta << 4) | kind)
            else:
                self.byte(kind)
                self.zigzag(fid)
            if kind not in (_TRUE, _FALSE):
                self.value(kind, value)
            last = fid
        self.byte(_STOP)


def read_footer(path: Path) -> tuple[list[list[Any]], int]:
    """Return a Parquet file's footer (``FileMetaData`` as ``[field id, type, value]``
    fields) and where it starts.

    Raises:
        ValueError: not a Parquet file (no magic bytes, or a footer longer than the file).
    """
    size = path.stat().st_size
    with open(path, "rb") as handle:
        if size < 12 or handle.read(4) != MAGIC:
            raise ValueError(f"{path.name} is not a Parquet file")
        handle.seek(size - 8)
        tail = handle.read(8)
        (length,) = struct.unpack("<I", tail[:4])
        if tail[4:] != MAGIC or length > size - 12:
            raise ValueError(f"{path.name} is not a whole Parquet file")
        handle.seek(size - 8 - length)
        return _Reader(handle.read(length)).struct(), size - 8 - length


def write_footer(fields: list[list[Any]]) -> bytes:
    """Return the compact-protocol bytes of a footer read by :func:`read_footer`."""
    writer = _Writer()
    writer.struct(fields)
    return writer.out.getvalue()


def _field(fields: list[list[Any]], fid: int) -> list[Any] | None:
    return next((f for f in fields if f[0] == fid), None)


def _shifted(fields: list[list[Any]], ids: Sequence[int], shift: int | None) -> list[list[Any]]:
    """The fields with those of ``ids`` moved by ``shift`` (``None``: marked, :class:`_Mark`)."""
    return [
        [fid, kind, (_Mark(value) if shift is None else value + shift) if fid in ids else value]
        for fid, kind, value in fields
    ]


def _column_name(chunk: list[list[Any]]) -> str:
    meta = _field(chunk, _CHUNK_META)
    if meta is None:
        raise ValueError("a column chunk has no metadata")
    path = _field(meta[2], _META_PATH)
    return ".".join(p.decode() for p in path[2][1]) if path else ""


def part_layout(data: bytes, wanted: Sequence[str]) -> dict[str, Any]:
    """Return what :func:`splice_tables` needs of a chunk file (its Parquet bytes
    ``data``), worked out where the file is written (a worker) rather than on the machine
    splicing: its row groups' footer entries, of the columns ``wanted`` in that order,
    written out with their offsets (relative to the file's first byte after the magic)
    and ordinals left open (``pieces``: bytes, offsets, ``None``), its rows, row groups
    and where its data ends (``end``: its footer's start).

    Raises:
        ValueError: not a Parquet file, or a column of ``wanted`` missing.
    """
    footer, end = _footer_of_bytes(data)
    groups = _field(footer, _FILE_GROUPS)
    writer = _Writer()
    rows = count = 0
    for group in groups[2][1] if groups else []:
        writer.struct(_moved(group, list(wanted), None, None))
        rows += _field(group, _GROUP_ROWS)[2]
        count += 1
    return {"pieces": writer.finish(), "rows": rows, "groups": count, "end": end}


def splice_tables(
    template: bytes,
    parts: Sequence[tuple[Path, dict[str, Any] | None]],
    path: Path,
    copy: Callable[[str, list[tuple[str, int, int, int]]], Any] | None = None,
) -> int:
    """Write ``path`` (through a temporary file, moved into place) as one Parquet file
    holding the row groups of the files ``parts`` in order, with the schema, metadata and
    column orders of ``template`` (the Parquet bytes of a file of no rows written by
    pyarrow for the table's schema): each part's column chunks of the template's columns,
    in the template's order; return the number of rows.

    Each part is ``(file, its part_layout)``; a part without its layout has its footer
    read here. Where each part's bytes go is known from the layouts alone, so the file's
    head and footer are written here and the parts' bytes are copied into place by
    ``copy(file, [(part, start, size, at)])`` — on the workers, in parallel, when they
    see the folder — or else here (:func:`copy_ranges`).

    Raises:
        ValueError: a part lacks a column of the template, or is not a whole Parquet file.
    """
    head, _ = _footer_of_bytes(template)
    wanted = [_field(element, 4)[2].decode() for element in _field(head, _FILE_SCHEMA)[2][1][1:]]  # leaf names
    groups = io.BytesIO()
    rows = count = ordinal = 0
    copies: list[tuple[str, int, int, int]] = []
    at = len(MAGIC)
    for part, layout in parts:
        if layout is None:
            with open(part, "rb") as source:
                layout = part_layout(source.read(), wanted)
        shift = at - len(MAGIC)
        copies.append((str(part), len(MAGIC), layout["end"] - len(MAGIC), at))
        at += layout["end"] - len(MAGIC)
        for piece in layout["pieces"]:
            if isinstance(piece, bytes):
                groups.write(piece)
            elif piece is None:  # the ordinal of the group, when the part's footer gives one
                groups.write(_zigzag_bytes(ordinal))
                ordinal += 1
            else:
                groups.write(_zigzag_bytes(piece + shift))
        rows += layout["rows"]
        count += layout["groups"]
    header = _Writer()
    if count < 15:
        header.byte((count << 4) | _STRUCT)
    else:
        header.byte(0xF0 | _STRUCT)
        header.varint(count)
    listed = _Raw(header.out.getvalue() + groups.getvalue())
    fields = [[fid, kind, value] for fid, kind, value in head if fid not in (_FILE_ROWS, _FILE_GROUPS)]
    fields += [[_FILE_ROWS, _I64, rows], [_FILE_GROUPS, _LIST, listed]]
    fields.sort(key=lambda f: f[0])
    footer_bytes = write_footer(fields)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(MAGIC)
            out.truncate(at)  # the parts' bytes go in between, written in place
            out.seek(at)
            out.write(footer_bytes)
            out.write(struct.pack("<I", len(footer_bytes)))
            out.write(MAGIC)
        if copies:
            (copy or copy_ranges)(str(tmp), copies)
        with open(tmp, "rb+") as out:
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return rows


def copy_ranges(target: str, copies: Sequence[tuple[str, int, int, int]]) -> int:
    """Copy each ``(file, start, size, at)``: ``size`` bytes of ``file`` from ``start``
    into ``target`` (which exists) at ``at`` (in the kernel where it can: no byte passes
    through Python); return the bytes copied. The parts of one splice go to distinct
    places, so several processes may copy them at once."""
    total = 0
    with open(target, "rb+") as out:
        for part, start, size, at in copies:
            with open(part, "rb") as source:
                _copy(source, out, start, size, at)
            total += size
    return total


def _zigzag_bytes(n: int) -> bytes:
    writer = _Writer()
    writer.zigzag(n)
    return writer.out.getvalue()


def _footer_of_bytes(data: bytes) -> tuple[list[list[Any]], int]:
    """A Parquet file's footer (from its bytes) and where it starts."""
    if len(data) < 12 or data[:4] != MAGIC or data[-4:] != MAGIC:
        raise ValueError("not a whole Parquet file")
    (length,) = struct.unpack("<I", data[-8:-4])
    start = len(data) - 8 - length
    if start < 4:
        raise ValueError("not a whole Parquet file")
    return _Reader(data[start : len(data) - 8]).struct(), start


def _moved(group: list[list[Any]], wanted: list[str], shift: int | None, ordinal: int | None) -> list[list[Any]]:
    """A row group of a part with its column chunks of ``wanted`` (in that order), their
    offsets moved by ``shift``, its sizes and offset recomputed, and its new ordinal
    (``None`` for both: marked, to be filled in by :func:`splice_tables`)."""
    chunks = {_column_name(c): c for c in _field(group, _GROUP_COLUMNS)[2][1]}
    missing = [name for name in wanted if name not in chunks]
    if missing:
        raise ValueError(f"a chunk file has no column {missing[0]!r}")
    kept = []
    uncompressed = compressed = 0
    first = None
    for name in wanted:
        chunk = _shifted(chunks[name], _CHUNK_OFFSETS, shift)
        meta_field = _field(chunk, _CHUNK_META)
        meta = _shifted(meta_field[2], _META_OFFSETS, shift)
        meta_field[2] = meta
        uncompressed += _field(meta, _META_UNCOMPRESSED)[2]
        compressed += _field(meta, _META_COMPRESSED)[2]
        if first is None:
            dictionary = _field(meta, _META_DICTIONARY_PAGE)
            first = dictionary[2] if dictionary is not None else _field(meta, _META_DATA_PAGE)[2]
        kept.append(chunk)
    out = []
    for fid, kind, value in group:
        if fid == _GROUP_COLUMNS:
            value = (_STRUCT, kept)
        elif fid == _GROUP_BYTES:
            value = uncompressed
        elif fid == _GROUP_OFFSET:
            value = first
        elif fid == _GROUP_COMPRESSED:
            value = compressed
        elif fid == _GROUP_ORDINAL:
            value = _Ordinal(0) if ordinal is None else ordinal
        out.append([fid, kind, value])
    return out


def _copy(source: Any, out: Any, start: int, size: int, at: int) -> None:
    """Write ``size`` bytes of ``source`` from ``start`` into ``out`` at ``at`` (in the
    kernel where it can: no byte passes through Python)."""
    done = 0
    try:
        while done < size:
            sent = os.copy_file_range(source.fileno(), out.fileno(), size - done, start + done, at + done)
            if not sent:
                break
            done += sent
    except (AttributeError, OSError):  # not on Linux, or file systems that refuse it: copied below
        pass
    while done < size:
        block = os.pread(source.fileno(), min(size - done, 1 << 20), start + done)
        if not block:
            raise ValueError("a chunk file ended early")
        os.pwrite(out.fileno(), block, at + done)
        done += len(block)
