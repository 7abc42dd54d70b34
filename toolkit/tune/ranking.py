"""Honest verdicts and the ranking of candidates.

A range target (a value with its tolerance, or bounds) counts as met only when the exact
value, or the whole interval of an estimate, lies within it; an estimate without an
interval is never met. A ``maximise``/``minimise`` target is met by the candidates whose
exact value is the best found. Candidates are ranked: those that keep every constraint
(``hold`` targets) first, then by targets met; among those that meet every target, by
fewest rules fields changed from the baseline, then by distance (how far, in tolerances,
each value is from its target); among those that do not, by distance first (the closest
to the targets, not the setting that changes least), then by fewest fields changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolkit.tune.measures import Measured
from toolkit.tune.spec import Target, Tuning

__all__ = ["Candidate", "meets", "distance", "changed_fields", "measured_best", "rank", "score"]

#: The weight of one unmet target in the single number Optuna minimises.
UNMET_WEIGHT = 1_000.0


@dataclass(frozen=True)
class Candidate:
    """One evaluated setting: its knob values, rules, the rules fields changed from the
    baseline, each target's measure (``None``: failed) and verdict, in the order of
    :attr:`Tuning.every_target`, and the distance."""

    setting: Any
    rules: Any
    changed: tuple[str, ...]
    measures: tuple[Measured | None, ...]
    met: tuple[bool, ...]
    distance: float
    failure: str | None = None
    targets: int = 0

    @property
    def targets_met(self) -> int:
        """How many of the tuning file's targets (not the constraints') are met."""
        return sum(self.met[: self.targets])

    @property
    def holds(self) -> bool:
        """Whether every constraint target keeps holding."""
        return all(self.met[self.targets :])

    @property
    def measured(self) -> bool:
        """Whether every target of this candidate was measured (its points did not fail)."""
        return self.failure is None and None not in self.measures

    @property
    def reaches(self) -> bool:
        """Whether it meets every target and keeps every constraint."""
        return self.holds and self.targets_met == self.targets

    def sort_key(self) -> tuple[Any, ...]:
        """Constraints kept, targets met; then fewest changes before distance for a
        candidate that reaches every target, distance before changes for one that does not."""
        fewest = len(self.changed) if self.reaches else 0
        return (not self.holds, -self.targets_met, fewest, self.distance, len(self.changed), self.setting.describe())


def meets(target: Target, measured: Measured | None) -> bool:
    """Whether a range target is met: the exact value, or the whole interval of an
    estimate, within its bounds (an estimate without an interval: never)."""
    if measured is None or target.goal != "range":
        return False
    low, high = (measured.value, measured.value) if measured.exact else (measured.low, measured.high)
    if low is None or high is None:
        return False
    return (target.low is None or low >= target.low) and (target.high is None or high <= target.high)


def _gap(target: Target, value: Fraction | float) -> float:
    """How far a value is from a range target, in tolerances (or in units when there is
    no tolerance): from the value aimed at, or from the bound it is outside of."""
    scale = float(target.tolerance) if target.tolerance else 1.0
    if target.value is not None:
        return abs(float(value) - float(target.value)) / scale
    if target.low is not None and value < target.low:
        return float(target.low - Fraction(value)) / scale
    if target.high is not None and value > target.high:
        return float(Fraction(value) - target.high) / scale
    return 0.0


def distance(targets: Sequence[Target], measures: Sequence[Measured | None], best: dict[int, float]) -> float:
    """The sum of each target's gap (:func:`_gap`); a maximised target's gap is its
    shortfall from the best found (``best`` by target index), a failed measure counts 10^6."""
    total = 0.0
    for i, (t, m) in enumerate(zip(targets, measures, strict=True)):
        if m is None:
            total += 1e6
        elif t.goal == "range":
            total += _gap(t, m.value)
        elif i in best:
            total += abs(best[i] - float(m.value))
    return total


def score(tuning: Tuning, measures: Sequence[Measured | None], changed: int) -> float:
    """The single number the Optuna search minimises: unmet targets weigh
    :data:`UNMET_WEIGHT` each, then the gaps, then (a little) the fields changed; a
    maximised target adds minus its value (a minimised one, its value)."""
    total = 0.01 * changed
    for t, m in zip(tuning.every_target, measures, strict=True):
        if m is None:
            total += 2 * UNMET_WEIGHT
        elif t.goal == "range":
            total += (0 if meets(t, m) else UNMET_WEIGHT) + _gap(t, m.value)
        else:
            total += -float(m.value) if t.goal == "maximise" else float(m.value)
    return total


def changed_fields(rules: Any, baseline: Any, fields: Sequence[str] | None = None) -> tuple[str, ...]:
    """The rules fields among ``fields`` (default: every field) whose value differs from
    the baseline's. Given the knobs' fields, a field the rules derive from a knob (the
    tie-break order from the hit faces, say) is not counted as a second change."""
    if rules is None:
        return ()
    names = rules.field_names() if fields is None else fields
    return tuple(f for f in names if getattr(rules, f) != getattr(baseline, f))


def measured_best(candidates: Sequence[Candidate]) -> Candidate | None:
    """The first of ``candidates`` (ranked) that was measured: a best is never a setting
    whose points failed; ``None`` when none was measured."""
    return next((c for c in candidates if c.measured), None)


def rank(
    tuning: Tuning, evaluated: Sequence[tuple[Any, Any, tuple[Measured | None, ...], str | None]]
) -> list[Candidate]:
    """Return the candidates of ``evaluated`` — ``(setting, rules, measures, failure)`` —
    with their verdicts, best first (see the module)."""
    targets = tuning.every_target
    best: dict[int, float] = {}
    exact_best: dict[int, Fraction] = {}
    for i, t in enumerate(targets):
        if t.goal == "range":
            continue
        values = [m[i] for _, _, m, _ in evaluated if m[i] is not None]
        if not values:
            continue
        pick = max if t.goal == "maximise" else min
        best[i] = pick(float(v.value) for v in values)
        exact = [Fraction(v.value) for v in values if v.exact]
        if exact:
            exact_best[i] = pick(exact)
    out = []
    for setting, rules, measures, failure in evaluated:
        met = tuple(
            meets(t, m) if t.goal == "range" else (m is not None and m.exact and exact_best.get(i) == m.value)
            for i, (t, m) in enumerate(zip(targets, measures, strict=True))
        )
        out.append(
            Candidate(
                setting,
                rules,
                changed_fields(rules, tuning.baseline, tuning.rule_knobs),
                measures,
                met,
                distance(targets, measures, best),
                failure,
                len(tuning.targets),
            )
        )
    allowed = [c for c in out if tuning.max_changed is None or len(c.changed) <= tuning.max_changed]
    return sorted(allowed, key=Candidate.sort_key)
