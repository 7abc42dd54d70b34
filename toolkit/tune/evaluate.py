"""Evaluating knob settings: each setting becomes sweep points (one per size a target is
measured at), run by the sweep runner (:func:`toolkit.sweeps.run_sweep`) on Dask and kept
in its store, so that a rerun into the same folder reuses every point already computed.

A :class:`Setting` is one value per knob. Its rules are the baseline with the setting's
rules fields (built with :func:`toolkit.house_rules.load_rules`: the rules' own checks),
its arguments the calculator's defaults, the file's fixed arguments, the setting's
argument knobs and the target's ``at``. The points are keyed as a sweep's
(:func:`toolkit.sweeps.spec.point_key`): a tuning file and a sweep file asking the same
point share it.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from toolkit.house_rules import load_rules
from toolkit.sweeps import Point, Row, Sweep, run_sweep
from toolkit.sweeps.fingerprint import code_fingerprint
from toolkit.sweeps.spec import point_key
from toolkit.tune.spec import Tuning

__all__ = ["Setting", "Evaluator", "open_client", "SEARCH_FOLDER"]

#: Where, under the output folder, the search's points are stored (the sweep store).
SEARCH_FOLDER = ".search"


@dataclass(frozen=True)
class Setting:
    """One value per knob, in the tuning file's knob order: ``((label, value), ...)``."""

    values: tuple[tuple[str, Any], ...]

    def describe(self) -> str:
        """Return the setting in one line (``"rules.strike_loss=5"``)."""
        return ", ".join(f"{k}={_shown(v)}" for k, v in self.values)

    def words(self, system: str) -> str:
        """Return the setting as a designer reads it: each knob by its label, its value in
        words (``"Hit faces: A; Damage for winning a tie: 1"``; ``"attack dice: 5"``); :meth:`describe` is the
        file's spelling, for the tables and the CSV."""
        from toolkit.house_rules import value_words
        from toolkit.sweeps.words import field_words

        return "; ".join(f"{field_words(system, k)}: {value_words(v)}" for k, v in self.values)


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


class Evaluator:
    """Turns settings into points, runs the missing ones and returns each point's rows."""

    def __init__(
        self,
        tuning: Tuning,
        output_dir: str | Path,
        *,
        workers: int | None = None,
        scheduler: str | None = None,
        client: Any = None,
    ) -> None:
        self.tuning = tuning
        self.folder = Path(output_dir) / SEARCH_FOLDER
        self.workers, self.scheduler, self.client = workers, scheduler, client
        self.code = code_fingerprint()
        self._rules: dict[tuple[tuple[str, Any], ...], Any] = {}
        self._rows: dict[str, list[Row]] = {}
        self.failures: dict[str, str] = {}
        self.computed = 0
        self.reused = 0
        self.identity = hashlib.sha256(
            f"tune:{tuning.system}:{tuning.calculator.name}:{tuning.name}".encode()
        ).hexdigest()[:32]

    # -- settings to points ----------------------------------------------------------------
    def rules_of(self, setting: Setting) -> Any:
        """The rules of a setting: the baseline with the setting's rules fields."""
        changes = tuple((label[len("rules.") :], v) for label, v in setting.values if label.startswith("rules."))
        if changes not in self._rules:
            if not changes:
                self._rules[changes] = self.tuning.baseline
            else:
                mapping = {**self.tuning.baseline.to_mapping(), **dict(changes)}
                self._rules[changes] = load_rules(self.tuning.system, mapping)
        return self._rules[changes]

    def args_of(self, setting: Setting, at: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
        """The full arguments of a setting at one size."""
        calc = self.tuning.calculator
        args = {p.name: p.default for p in calc.params}
        args.update(dict(self.tuning.fixed))
        args.update({label: v for label, v in setting.values if not label.startswith("rules.")})
        args.update(dict(at))
        return args

    def point(self, setting: Setting, at: tuple[tuple[str, Any], ...]) -> Point:
        """The sweep point of a setting at one size."""
        calc, tuning = self.tuning.calculator, self.tuning
        args = self.args_of(setting, at)
        rules = self.rules_of(setting) if calc.takes_rules else None
        key = point_key(tuning.system, calc.name, args, rules, self.code)
        columns = tuple((name, calc.param(name).column(v)) for name, v in args.items())
        label = rules.variant_name() if rules is not None else ""
        return Point(key, tuple(args.items()), rules, (*columns, ("rules", label)))

    def points_of(self, settings: Sequence[Setting]) -> list[Point]:
        """Every point the settings need (each once), in order."""
        seen, out = set(), []
        for setting in settings:
            for at in self.tuning.sizes():
                p = self.point(setting, at)
                if p.key not in seen:
                    seen.add(p.key)
                    out.append(p)
        return out

    # -- running -----------------------------------------------------------------------------
    def run(self, settings: Sequence[Setting], progress: Any = None) -> None:
        """Compute (or read back from the store) every point of ``settings``; afterwards
        :meth:`rows` answers for each of them (a failed point is in :attr:`failures`)."""
        points = [p for p in self.points_of(settings) if p.key not in self._rows and p.key not in self.failures]
        if not points:
            return
        tuning = self.tuning
        sweep = Sweep(
            f"{tuning.name}-points",
            tuning.title,
            "",
            tuning.system,
            tuning.calculator,
            (),
            tuple(points),
            None,
            tuning.where,
            self.identity,
        )
        result = run_sweep(
            sweep,
            self.folder,
            workers=self.workers,
            scheduler=self.scheduler if self.client is None else None,
            client=self.client,
            progress=progress,
            report=False,
        )
        self.computed += result.computed
        self.reused += result.skipped
        for failure in result.failures:
            self.failures[failure.point.key] = failure.error
        table = result.table
        if len(table):
            for index, group in table.groupby("point", sort=False):
                self._rows[points[int(index)].key] = [_row(r) for r in group.itertuples(index=False)]

    def rows(self, setting: Setting, at: tuple[tuple[str, Any], ...]) -> list[Row]:
        """The rows of a setting at one size (computed by :meth:`run`).

        Raises:
            KeyError: the point was not run, or failed (its error in :attr:`failures`).
        """
        return self._rows[self.point(setting, at).key]

    def failure(self, setting: Setting) -> str | None:
        """The error of the setting's first failed point, or ``None``."""
        for at in self.tuning.sizes():
            key = self.point(setting, at).key
            if key in self.failures:
                return self.failures[key]
        return None


def _row(r: Any) -> Row:
    """A stored table row as a :class:`~toolkit.sweeps.Row`."""
    numerator, denominator = r.numerator, r.denominator
    exact = None
    if isinstance(numerator, str) and isinstance(denominator, str):
        exact = Fraction(int(numerator), int(denominator))
    return Row(r.outcome, r.kind, exact, float(r.value), bool(r.exact))


@contextlib.contextmanager
def open_client(workers: int | None, scheduler: str | None, client: Any = None) -> Any:
    """Yield a Dask client for a search of many small batches: ``client`` if given, one
    connected to ``scheduler``, or a local cluster of ``workers`` processes (default: the
    cores this process may use, :func:`toolkit.cluster.default_workers`); closed afterwards
    when opened here."""
    if client is not None:
        yield client
        return
    from toolkit import cluster as dask_cluster
    from toolkit.sweeps.runner import local_workers

    cluster = None
    if scheduler:
        opened, _ = dask_cluster.connect(scheduler)
    else:
        count, _ = local_workers(workers, workers or dask_cluster.default_workers())
        opened, cluster = dask_cluster.start_local(count)
    try:
        yield opened
    finally:
        dask_cluster.close(opened, cluster)
