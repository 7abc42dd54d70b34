"""The points of a sweep's grid, built from their place in it: by the machine running the
command when it needs them, or by the workers for the places of their chunk.

A :class:`Grid` holds what each point is written from (each argument's values with their
table column and JSON piece, each rules variant with its columns and JSON), so that the
point at any place — its key, arguments, rules and columns — is built without the others,
and the same way wherever it is built: by :mod:`.spec` when a sweep file is read, by a
worker for its chunk (:mod:`.work`). :class:`GridPoints` is a sweep's points left unbuilt
until asked for: a fresh sweep on Dask sends its chunks as places and never builds them on
the machine running the command (:mod:`.runner`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

__all__ = ["Point", "Grid", "GridPoints", "definition_key", "json_piece", "fold_identity"]


@dataclass(frozen=True)
class Point:
    """One grid point: its key (what the store and a rerun know it by), the arguments
    (defaults filled in), the rules (``None`` for a calculator without rules) and the
    columns it is written with in the table (the arguments and the rules' labels)."""

    key: str
    args: tuple[tuple[str, Any], ...]
    rules: Any
    columns: tuple[tuple[str, Any], ...]

    def arguments(self) -> dict[str, Any]:
        """Return the arguments as a dict."""
        return dict(self.args)

    def describe(self) -> str:
        """Return the point's parameters in one line (for a failure report)."""
        return ", ".join(f"{k}={v}" for k, v in self.columns)


def definition_key(definition: str, code: str) -> str:
    """Return a point's key: the hash of its definition and of the code's fingerprint."""
    return hashlib.sha256(f"{definition}:{code}".encode()).hexdigest()[:32]


def json_piece(value: Any) -> str:
    """A value as a point's definition writes it (tuples as lists, keys sorted)."""
    return json.dumps(list(value) if isinstance(value, tuple) else value, sort_keys=True, default=str)


def fold_identity(system: str, calc: str, definitions: Iterable[str]) -> str:
    """Return a sweep's identity: the hash of its system, calculator and every point's
    definition, in grid order."""
    identity = hashlib.sha256(f"{system}:{calc}".encode())
    for definition in definitions:
        identity.update(definition.encode())
    return identity.hexdigest()[:32]


@dataclass(frozen=True)
class Grid:
    """A sweep's grid: the product of its swept arguments' values (the first slowest),
    each combination under every rules variant (the innermost). Plain data: pickled to
    the workers whole.

    ``pieces``: for each argument (in the calculator's order), its values, each as
    ``(value, table column, JSON piece)`` (one for an argument not swept); ``axes``: the
    swept arguments' positions in ``names``, in grid order; ``variants``: ``(rules, their
    table columns, their JSON)``; ``order``: the arguments' positions sorted by stored
    name (the definition's JSON is sorted); ``head``, ``tail``, ``end``: the definition's
    fixed text."""

    system: str
    calc: str
    code: str
    names: tuple[str, ...]
    pieces: tuple[tuple[tuple[Any, Any, str], ...], ...]
    axes: tuple[int, ...]
    variants: tuple[tuple[Any, tuple[tuple[str, Any], ...], str], ...]
    order: tuple[int, ...]
    head: str
    tail: str
    end: str

    @property
    def size(self) -> int:
        """The number of places (points, when every point is distinct: :attr:`distinct`)."""
        size = len(self.variants)
        for axis in self.axes:
            size *= len(self.pieces[axis])
        return size

    @property
    def distinct(self) -> bool:
        """Whether every place is a distinct point: no value repeated on an axis and no
        two rules variants alike (else the same point would be at two places)."""
        return all(len({p[2] for p in self.pieces[a]}) == len(self.pieces[a]) for a in self.axes) and len(
            {text for _, _, text in self.variants}
        ) == len(self.variants)

    def picks(self, combination: int) -> list[int]:
        """Each argument's value (its index in ``pieces``) at a combination of the swept
        values (a place without its rules variant)."""
        picked = [0] * len(self.names)
        for axis in reversed(self.axes):
            combination, picked[axis] = divmod(combination, len(self.pieces[axis]))
        return picked

    def value(self, place: int, name: str) -> Any:
        """The value of argument ``name`` at ``place``."""
        at = self.names.index(name)
        return self.pieces[at][self.picks(place // len(self.variants))[at]][0]

    def _combination(self, combination: int) -> tuple[tuple, tuple, str]:
        picked = [self.pieces[i][k] for i, k in enumerate(self.picks(combination))]
        args = tuple((name, piece[0]) for name, piece in zip(self.names, picked, strict=True))
        columns = tuple((name, piece[1]) for name, piece in zip(self.names, picked, strict=True))
        return args, columns, self.head + ", ".join(picked[i][2] for i in self.order) + self.tail

    def build(self, places: Iterable[int]) -> Iterator[tuple[Point, str]]:
        """The point at each place, with its definition (the hash its key is made from)."""
        count = len(self.variants)
        last, made = -1, None
        for place in places:
            combination, variant = divmod(place, count)
            if combination != last:
                last, made = combination, self._combination(combination)
            args, columns, args_text = made
            rules, rule_columns, rules_text = self.variants[variant]
            definition = hashlib.sha256((args_text + rules_text + self.end).encode()).hexdigest()
            yield Point(definition_key(definition, self.code), args, rules, columns + rule_columns), definition

    def arguments(self) -> Iterator[tuple[int, dict[str, Any], Any]]:
        """Every place with its arguments and rules, in grid order (no key made)."""
        place = 0
        base = {name: pieces[0][0] for name, pieces in zip(self.names, self.pieces, strict=True)}
        swept = [(self.names[a], [piece[0] for piece in self.pieces[a]]) for a in self.axes]
        for combo in itertools.product(*(range(len(values)) for _, values in swept)):
            args = dict(base)
            for (name, values), k in zip(swept, combo, strict=True):
                args[name] = values[k]
            for rules, _, _ in self.variants:
                yield place, args, rules
                place += 1

    def column_values(self) -> dict[str, list[Any]]:
        """Each table column of the points with the values it takes over the grid."""
        columns = {name: [p[1] for p in pieces] for name, pieces in zip(self.names, self.pieces, strict=True)}
        for _, rule_columns, _ in self.variants:
            for name, value in rule_columns:
                columns.setdefault(name, []).append(value)
        return columns


class GridPoints(Sequence[Point]):
    """A sweep's points, built from its :class:`Grid` the first time they are asked for
    (the whole grid at once); their number and the grid are known without building them.
    The sweep's identity (:func:`fold_identity`) is worked out from the points'
    definitions: those the workers sent back (:meth:`learn`), else built here."""

    def __init__(self, grid: Grid, points: tuple[Point, ...] | None = None, identity: str | None = None) -> None:
        """``points`` and ``identity``: already built (a grid with a point at two places
        keeps it once: its points are built when read)."""
        self.grid = grid
        self._points = points
        self._identity = identity

    @property
    def built(self) -> bool:
        """Whether the points have been built on this machine."""
        return self._points is not None

    def _build(self) -> tuple[Point, ...]:
        if self._points is None:
            points, definitions = [], []
            for point, definition in self.grid.build(range(self.grid.size)):
                points.append(point)
                definitions.append(definition)
            self._points = tuple(points)
            if self._identity is None:
                self._identity = fold_identity(self.grid.system, self.grid.calc, definitions)
        return self._points

    def identity(self) -> str:
        """The sweep's identity (see :class:`~.spec.Sweep`)."""
        if self._identity is None:
            self._build()
        assert self._identity is not None
        return self._identity

    def learn(self, definitions: Sequence[str]) -> None:
        """Take the identity from every point's definition, in grid order (as the workers
        built them), without building the points here."""
        if self._identity is None and len(definitions) == len(self):
            self._identity = fold_identity(self.grid.system, self.grid.calc, definitions)

    def at(self, place: int) -> Point:
        """The point at ``place``, built alone when the points are not built."""
        if self._points is not None:
            return self._points[place]
        return next(self.grid.build([place]))[0]

    def __len__(self) -> int:
        return self.grid.size if self._points is None else len(self._points)

    @overload
    def __getitem__(self, index: int) -> Point: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Point]: ...
    def __getitem__(self, index: int | slice) -> Point | Sequence[Point]:
        return self._build()[index]

    def __iter__(self) -> Iterator[Point]:
        return iter(self._build())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GridPoints):
            return self.grid == other.grid
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash((self.grid.system, self.grid.calc, len(self)))

    def __repr__(self) -> str:
        return f"GridPoints({len(self):,} points{'' if self.built else ', not built'})"
