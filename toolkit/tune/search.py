"""The search over knob settings: exhaustive, bisection or Optuna.

- **exhaustive** — every setting (those changing more rules fields than ``max_changed``
  left out before anything runs), all at once on the sweep runner;
- **bisection** — one whole-number knob, one target: assumes the measure is monotone in
  the knob, halves the range to where it crosses the target and measures the neighbours
  (about log2 of the settings; the verdicts are still those of the measured values);
- **optuna** — Optuna's TPE sampler (integer, categorical and float knobs), asking a batch
  of trials at a time and measuring each batch on the Dask workers; it minimises
  :func:`~toolkit.tune.ranking.score`. The same file, seed and store ask the same trials
  again, so a rerun reads them back from the store and goes on.

``search: auto`` is exhaustive up to ``exhaustive_up_to`` settings, else bisection where
it applies, else Optuna.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from toolkit.errors import InvalidSetupError
from toolkit.numbers import count
from toolkit.tune.evaluate import Evaluator, Setting
from toolkit.tune.measures import Measured, MeasureError, estimate_interval, measure_target
from toolkit.tune.output import value_text
from toolkit.tune.ranking import Candidate, changed_fields, measured_best, rank, score
from toolkit.tune.spec import Tuning, bisection_problem

__all__ = ["SearchLog", "method_of", "settings_of", "run_search"]

Evaluated = tuple[Setting, Any, tuple[Measured | None, ...], str | None]


def method_of(tuning: Tuning) -> str:
    """The search method ``tuning`` runs (``auto`` resolved)."""
    if tuning.search != "auto":
        return tuning.search
    size = tuning.size
    if size is not None and size <= tuning.exhaustive_up_to:
        return "exhaustive"
    return "bisection" if bisection_problem(tuning) is None else "optuna"


def settings_of(tuning: Tuning, evaluator: Evaluator) -> Iterable[Setting]:
    """Every setting of the knobs, in order, leaving out those that change more rules
    fields than ``max_changed``."""
    for combo in itertools.product(*(k.values for k in tuning.knobs)):
        setting = Setting(tuple((k.label, v) for k, v in zip(tuning.knobs, combo, strict=True)))
        if tuning.max_changed is not None:
            changed = changed_fields(evaluator.rules_of(setting), tuning.baseline, tuning.rule_knobs)
            if len(changed) > tuning.max_changed:
                continue
        yield setting


class SearchLog:
    """Progress lines of a search (points tried, best so far, time left) on ``stream``."""

    def __init__(self, tuning: Tuning, stream: TextIO | None = sys.stderr) -> None:
        self.tuning, self.stream = tuning, stream
        self.started = time.perf_counter()
        self.lines: list[str] = []

    def say(self, line: str) -> None:
        self.lines.append(line)
        if self.stream is not None:
            print(line, file=self.stream, flush=True)

    def progress(self, tried: int, total: int | None, best: Candidate | None) -> None:
        elapsed = time.perf_counter() - self.started
        parts = [f"tune: {tried:,}" + (f"/{total:,}" if total else "") + " settings tried"]
        if best is not None:
            shown = best.setting.words(self.tuning.system)
            parts.append(f"best so far: {shown} ({describe_verdict(self.tuning, best)})")
        if total and tried and tried < total:
            parts.append(f"about {elapsed / tried * (total - tried):.0f} s left")
        line = ", ".join(parts)
        update = getattr(self.stream, "update", None)  # a notebook's output rewrites it in place
        if update is None:
            self.say(line)
        else:
            self.lines.append(line)
            update(line)


def describe_verdict(tuning: Tuning, c: Candidate) -> str:
    """``"1 of 1 targets met: P(...) 65.2%"`` for a progress line."""
    shown = "; ".join(
        f"{t.name} {value_text(t, m)}" for t, m in zip(tuning.every_target, c.measures, strict=True) if m is not None
    )
    return f"{c.targets_met} of {len(tuning.targets)} targets met" + (f": {shown}" if shown else "")


@dataclass(frozen=True)
class Searched:
    """What a search measured: every setting with its rules, measures and failure, the
    method, the settings in the space (``None``: unbounded) and the progress lines."""

    evaluated: tuple[Evaluated, ...]
    method: str
    space: int | None
    lines: tuple[str, ...]


def measure(tuning: Tuning, evaluator: Evaluator, setting: Setting) -> Evaluated:
    """A setting's rules, each target's measure (``None`` when a point failed) and the failure."""
    rules = evaluator.rules_of(setting) if tuning.calculator.takes_rules else None
    failure = evaluator.failure(setting)
    if failure is not None:
        return setting, rules, tuple(None for _ in tuning.every_target), failure
    measures = []
    for target in tuning.every_target:
        try:
            measures.append(measure_target(target, lambda at: evaluator.rows(setting, at)))
        except MeasureError as exc:
            raise MeasureError(f"{tuning.where}: target {target.name!r}: {exc}") from None
    return setting, rules, tuple(measures), None


def run_search(
    tuning: Tuning, evaluator: Evaluator, stream: TextIO | None = sys.stderr, progress: Any = None
) -> Searched:
    """Run ``tuning``'s search (:func:`method_of`) and return what it measured.

    Raises:
        MeasureError: a target the calculator's outcomes cannot give (after the first point).
    """
    log = SearchLog(tuning, stream)
    method = method_of(tuning)
    log.say(f"tune: {tuning.title}: the knobs make {tuning.size_text()}; search: {method}")
    if method == "exhaustive":
        settings = list(settings_of(tuning, evaluator))
        if not settings:
            raise _none_allowed(tuning, f"the {count(tuning.size or 0, 'setting')} of the knobs")
        if tuning.max_changed is not None and tuning.size and len(settings) < tuning.size:
            log.say(f"tune: {len(settings):,} of them change at most {count(tuning.max_changed, 'rules field')}")
        evaluator.run(settings, progress)
        evaluated = [measure(tuning, evaluator, s) for s in settings]
        ranked = rank(tuning, evaluated)
        log.progress(len(settings), len(settings), measured_best(ranked))
    elif method == "bisection":
        evaluated = _bisection(tuning, evaluator, log)
    else:
        evaluated = _optuna(tuning, evaluator, log)
    return Searched(tuple(evaluated), method, tuning.size, tuple(log.lines))


def _bisection(tuning: Tuning, evaluator: Evaluator, log: SearchLog) -> list[Evaluated]:
    knob, target = tuning.knobs[0], tuning.targets[0]
    values = knob.values
    aim = target.value if target.value is not None else (target.low if target.low is not None else target.high)
    done: dict[int, Evaluated] = {}

    def at(i: int) -> float:
        if i not in done:
            setting = Setting(((knob.label, values[i]),))
            evaluator.run([setting])
            done[i] = measure(tuning, evaluator, setting)
            ranked = rank(tuning, list(done.values()))
            log.progress(len(done), None, measured_best(ranked))
        m = done[i][2][0]
        return float("nan") if m is None else float(m.value)

    low, high = 0, len(values) - 1
    increasing = at(high) >= at(low)
    # the first index whose measure has reached the aim (in the measure's direction)
    while high - low > 1:
        mid = (low + high) // 2
        reached = at(mid) >= aim if increasing else at(mid) <= aim
        low, high = (low, mid) if reached else (mid, high)
    for i in (low - 1, low, high, high + 1):
        if 0 <= i < len(values):
            at(i)
    log.say(f"tune: bisection measured {len(done)} of {len(values):,} settings (it assumes the measure is monotone)")
    return list(done.values())


def _optuna(tuning: Tuning, evaluator: Evaluator, log: SearchLog) -> list[Evaluated]:
    import optuna

    from toolkit.sweeps import default_workers

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=tuning.seed)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    batch = max(2, 2 * (evaluator.workers or default_workers()))
    evaluated: dict[Setting, Evaluated] = {}
    tried = 0
    while tried < tuning.trials:
        trials = [study.ask() for _ in range(min(batch, tuning.trials - tried))]
        settings = [_suggest(tuning, trial) for trial in trials]
        allowed = [
            s
            for s in settings
            if tuning.max_changed is None
            or len(changed_fields(evaluator.rules_of(s), tuning.baseline, tuning.rule_knobs)) <= tuning.max_changed
        ]
        evaluator.run([s for s in dict.fromkeys(allowed) if s not in evaluated])
        for trial, setting in zip(trials, settings, strict=True):
            if setting not in allowed:
                study.tell(trial, 10 * 1_000.0 * (len(tuning.every_target) + 1))
                continue
            if setting not in evaluated:
                evaluated[setting] = measure(tuning, evaluator, setting)
            _, rules, measures, _ = evaluated[setting]
            study.tell(trial, score(tuning, measures, len(changed_fields(rules, tuning.baseline, tuning.rule_knobs))))
        tried += len(trials)
        ranked = rank(tuning, list(evaluated.values()))
        log.progress(tried, tuning.trials, measured_best(ranked))
    if not evaluated:
        raise _none_allowed(tuning, f"the {count(tried, 'setting')} tried")
    log.say(f"tune: optuna tried {tuning.trials:,} trials, {len(evaluated):,} distinct settings")
    return list(evaluated.values())


def _none_allowed(tuning: Tuning, settings: str) -> InvalidSetupError:
    """The error of a search that ``max_changed`` (the one constraint that removes
    settings) left with none of ``settings`` to measure."""
    return InvalidSetupError(
        f"{tuning.where}: constraints: max_changed: {tuning.max_changed} leaves none of {settings} to measure "
        f"(each changes more than {count(tuning.max_changed or 0, 'rules field')} from {tuning.baseline_label}): "
        "raise max_changed, or give a knob the baseline's value"
    )


def _suggest(tuning: Tuning, trial: Any) -> Setting:
    """A trial's setting: whole-number ranges as integers, lists as categories, float ranges as floats."""
    values = []
    for knob in tuning.knobs:
        if not knob.values:
            values.append((knob.label, trial.suggest_float(knob.label, knob.low, knob.high)))
        elif knob.whole_range and len(knob.values) > 1:
            step = knob.values[1] - knob.values[0]
            values.append((knob.label, trial.suggest_int(knob.label, knob.values[0], knob.values[-1], step=step)))
        else:
            index = trial.suggest_categorical(knob.label, list(range(len(knob.values))))
            values.append((knob.label, knob.values[index]))
    return Setting(tuple(values))


def with_intervals(tuning: Tuning, evaluator: Evaluator, candidates: Sequence[Candidate]) -> list[Evaluated]:
    """The candidates as evaluated, each estimate given its interval where the calculator's
    result has one (computed again here: the same seed gives the same estimate)."""
    out = []
    for c in candidates:
        measures = list(c.measures)
        for i, (t, m) in enumerate(zip(tuning.every_target, c.measures, strict=True)):
            if m is None or m.exact or t.than is not None:
                continue
            args = evaluator.args_of(c.setting, t.at)
            result = tuning.calculator.call(args, c.rules)
            interval = estimate_interval(t.measure, result, evaluator.rows(c.setting, t.at))
            if interval is not None:
                measures[i] = Measured(m.value, False, *interval)
        out.append((c.setting, c.rules, tuple(measures), c.failure))
    return out
