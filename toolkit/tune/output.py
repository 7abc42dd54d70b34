"""What a tuning run writes: the table of the best candidates (CSV and HTML), each
candidate as a house-rules file whose ``notes:`` say what it achieves in numbers, and the
rule-change report of the best against the baseline: its table
(:func:`toolkit.reports.rule_change.compare_rules`) and the report itself, the
``rule-change`` report notebook run by papermill (:func:`toolkit.reports.running.run_report`)
as ``toolkit report rule-change`` runs it."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.numbers import interval_text, number_text, percent_text
from toolkit.output_folder import OutputFolder
from toolkit.prob import format_probability
from toolkit.tune.measures import Measured
from toolkit.tune.ranking import Candidate
from toolkit.tune.spec import Target, Tuning

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "tune_question",
    "value_text",
    "verdict_text",
    "spreadsheet_cell",
    "spreadsheet_csv",
    "candidates_frame",
    "candidates_table",
    "candidate_notes",
    "check_outputs",
    "output_folder",
    "output_names",
    "write_outputs",
    "write_rule_change_report",
]


def output_folder(tuning: Tuning, output_dir: str | Path) -> OutputFolder:
    """The output folder of ``tuning`` as its run writes it (:class:`~toolkit.output_folder.OutputFolder`)."""
    return OutputFolder(output_dir, f"tune {tuning.name}")


def output_names(tuning: Tuning) -> list[str]:
    """Every file a run of ``tuning`` may write in its output folder (see :func:`write_outputs`)."""
    name = tuning.name
    candidates = [f"{name}_{i}.yaml" for i in range(1, tuning.best + 1)]
    report = [f"{name}_rule_change.{ext}" for ext in ("csv", "html", "ipynb")]
    return [f"{name}.csv", f"{name}.html", *candidates, *report, f"{name}_baseline.yaml"]


def check_outputs(tuning: Tuning, output_dir: str | Path) -> None:
    """Refuse, before any work, a run of ``tuning`` whose outputs would replace its input
    files (the tuning file, the baseline) or a file the toolkit did not write
    (:meth:`~toolkit.output_folder.OutputFolder.check`).

    Raises:
        InvalidSetupError: one line naming the file.
    """
    output_folder(tuning, output_dir).check(output_names(tuning), [tuning.where, tuning.baseline_file])


def value_text(target: Target, m: Measured | None) -> str:
    """A measure as a designer reads it: ``'13/20 = 65%'`` or ``'64.2%'`` for a
    probability, the number and its unit for a mean (``'53/54 tokens'``); an estimate with
    its 95% interval (:func:`~toolkit.numbers.interval_text`, ``'64.2% ± 4.7% (95%)'``,
    ``'2.6 ± 0.5 tokens (95%)'``), or ``(no interval)``."""
    if m is None:
        return "failed"
    share = target.unit == "%" and target.than is None
    unit = f" {target.unit}" if target.unit not in ("", "%") else ""
    if m.exact:
        v = Fraction(m.value)
        if share:
            return format_probability(v)
        return (str(v) if v.denominator < 1000 else f"{float(v):.4g}") + unit
    shown = percent_text(m.value) if share else f"{float(m.value):.4g}{unit}"
    if m.low is None or m.high is None:
        return f"{shown} (estimate, no interval)"
    if share:
        return interval_text(m.value, m.low, m.high)
    return interval_text(m.value, m.low, m.high, percent=False, level=False) + f"{unit} (95%)"


def verdict_text(tuning: Tuning, candidates: Sequence[Candidate]) -> str:
    """The search's verdict in one line: ``'every target met; best: S (...)'``, or, when no
    setting reaches the targets, ``'no setting reaches the targets; closest: S (...)'`` —
    the candidate nearest the targets (:mod:`toolkit.tune.ranking`), each target's value
    with its interval against its goal."""
    if not candidates:
        return "nothing could be measured"
    best = candidates[0]
    values = "; ".join(
        f"{t.name} {value_text(t, m)}, aimed at {t.describe_goal()}"
        for t, m in zip(tuning.every_target, best.measures, strict=True)
    )
    verdict = "every target met; best" if best.reaches else "no setting reaches the targets; closest"
    if not best.reaches and len(tuning.every_target) > 1:  # ranked by targets met, then by distance
        kept = "" if not tuning.holds else f", constraints {'kept' if best.holds else 'broken'}"
        values = f"{best.targets_met} of {len(tuning.targets)} targets met{kept}: {values}"
    return f"{verdict}: {best.setting.words(tuning.system)} ({values})"


#: What a spreadsheet reads as the start of a formula in a cell (``=HYPERLINK(...)``,
#: ``@SUM(...)``, ``+cmd|...``, ``-1+...``; a tab or a carriage return before one).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain number, which a spreadsheet reads as a number (``-0.25``, ``+3``, ``-1e-05``).
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def spreadsheet_cell(value: Any) -> Any:
    """Return a CSV cell that a spreadsheet shows as text: a text starting like a formula
    is prefixed with ``'`` (a plain negative number stays a number).

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("-0.25"), spreadsheet_cell(-1), spreadsheet_cell("-1+2")
    ("'=HYPERLINK(1)", '-0.25', -1, "'-1+2")
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def spreadsheet_csv(frame: pd.DataFrame) -> bytes:
    """Return ``frame`` as CSV (UTF-8) whose cells and headers a spreadsheet cannot run
    (:func:`spreadsheet_cell`): a target's name or a knob's value is the designer's text."""
    safe = frame.map(spreadsheet_cell)
    safe.columns = [spreadsheet_cell(str(c)) for c in frame.columns]
    return safe.to_csv(index=False).encode()


def candidates_frame(tuning: Tuning, candidates: list[Candidate]) -> pd.DataFrame:
    """The table of the candidates: rank, the knob values, the rules fields changed, each
    target's measure (text, and its float) and verdict, the distance."""
    import pandas as pd

    rows = []
    for i, c in enumerate(candidates, 1):
        row: dict[str, Any] = {"rank": i}
        for label, value in c.setting.values:
            row[label] = value if not isinstance(value, tuple) else " ".join(map(str, value))
        row["changed"] = ", ".join(c.changed) or "none"
        for t, m, met in zip(tuning.every_target, c.measures, c.met, strict=True):
            row[t.name] = value_text(t, m)
            row[f"{t.name} (value)"] = None if m is None else float(m.value)
            row[f"{t.name} met"] = met
        row["targets met"] = f"{c.targets_met} of {len(tuning.targets)}"
        row["constraints hold"] = c.holds
        row["distance"] = round(c.distance, 6)
        if c.failure:
            row["failure"] = c.failure
        rows.append(row)
    return pd.DataFrame(rows)


def candidates_table(tuning: Tuning, candidates: list[Candidate]) -> pd.DataFrame:
    """The candidates as a designer reads them, ranked (the rank is the index, from 1): the
    knob values, the rules fields changed, each target's and each kept condition's number
    with ✓ (met) or ✗ and its goal in the heading, the targets met, whether the constraints
    are kept, and the distance from the targets in the toolkit's numbers (no ``True``, no
    ``0.678025``). :func:`candidates_frame` keeps the floats, for a spreadsheet."""
    import pandas as pd

    rows = []
    for c in candidates:
        row: dict[str, Any] = {}
        for label, value in c.setting.values:
            row[label] = " ".join(map(str, value)) if isinstance(value, tuple) else _plain_text(value)
        row["rules changed"] = ", ".join(c.changed) or "none"
        for t, m, met in zip(tuning.every_target, c.measures, c.met, strict=True):
            row[f"{t.name} ({t.describe_goal()})"] = f"{value_text(t, m)} {'✓' if met else '✗'}"
        row["targets met"] = f"{c.targets_met} of {len(tuning.targets)}"
        row["constraints"] = "✓ kept" if c.holds else "✗ broken"
        row["distance from the targets"] = number_text(c.distance)
        if c.failure:
            row["failure"] = c.failure
        rows.append(row)
    return pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="rank"))


def candidate_notes(tuning: Tuning, c: Candidate, rank: int, measured: int) -> str:
    """The ``notes:`` of a candidate's house-rules file: what it changes, and each target's
    number against its goal."""
    lines = [
        f"Found by toolkit tune from {Path(tuning.where).name} ({tuning.title}): candidate {rank} of "
        f"{measured:,} settings measured."
    ]
    if c.changed:
        before, after = tuning.baseline.to_mapping(changed_only=False), c.rules.to_mapping(changed_only=False)
        changes = "; ".join(f"{f}: {_plain_text(before[f])} -> {_plain_text(after[f])}" for f in c.changed)
        lines.append(f"Changed from {tuning.baseline_label}: {changes}.")
    else:
        lines.append(f"No rules field changed from {tuning.baseline_label}.")
    arguments = [f"{k}={v}" for k, v in c.setting.values if not k.startswith("rules.")]
    if arguments:
        lines.append("With " + ", ".join(arguments) + ".")
    for t, m, met in zip(tuning.every_target, c.measures, c.met, strict=True):
        where = f" at {t.where()}" if t.at or t.than else ""
        verdict = "met" if met else "not met"
        lines.append(
            f"{t.name} ({t.measure.describe()}{where}): {value_text(t, m)}; aimed at {t.describe_goal()}: {verdict}."
        )
    return "\n".join(lines)


def _plain_text(value: Any) -> str:
    """A rules value as a designer writes it: ``[10, J, Q, K, A]``, ``4``, ``true``."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_plain_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def tune_question(tuning: Tuning, candidates: Sequence[Candidate]) -> str:
    """The page's first line (:func:`toolkit.question.headline_over`): the system, the
    fixed sizes, the calculator, what was tuned (each knob with its values), the baseline
    rules and how the settings were measured (exact, or Monte Carlo with its runs)."""
    from types import SimpleNamespace

    from toolkit.house_rules import value_words
    from toolkit.question import Question, headline_over, rules_words
    from toolkit.sweeps.report import swept_words
    from toolkit.systems import system

    def knob_words(k: Any) -> str:
        if k.values:
            return swept_words(tuning.system, k.label, list(k.values))
        return f"{swept_words(tuning.system, k.label, [])}{k.low:g} to {k.high:g}"

    fixed = "; ".join(f"{name.replace('_', ' ')} {value_words(v)}" for name, v in tuning.fixed)
    tuned = "tuning " + "; ".join(knob_words(k) for k in tuning.knobs)
    asked = Question(
        system(tuning.system).title,
        fixed or "the calculator's default sizes",
        (tuning.calculator.name, tuned),
        rules=f"from {rules_words(tuning.baseline)}",
    )
    exact = {m.exact for c in candidates for m in c.measures if m is not None}
    how = [
        SimpleNamespace(
            method="exact" if e else "monte_carlo",
            trials=None if e else tuning.trials,
            trial_name="runs per setting",
            confidence=0.95,
        )
        for e in exact
    ]
    return headline_over(asked, how)


def _html_page(
    tuning: Tuning,
    candidates: Sequence[Candidate],
    frame: pd.DataFrame,
    lines: tuple[str, ...],
    change: Any,
    report: Path | None = None,
) -> str:
    from toolkit.tune.plots import search_html

    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(tuning.title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px}</style></head><body>",
        f"<h1>{html.escape(tuning.title)}</h1>",
        f"<p class='question'><strong>{html.escape(tune_question(tuning, candidates))}</strong></p>",
    ]
    if tuning.notes:
        parts.append(f"<p>{html.escape(tuning.notes)}</p>")
    parts.append("<h2>Targets</h2><ul>")
    for t in tuning.every_target:
        where = f" at {t.where()}" if t.at or t.than else ""
        parts.append(f"<li>{html.escape(f'{t.name}: {t.measure.describe()}{where}, {t.describe_goal()}')}</li>")
    parts.append(f"</ul><p><b>{html.escape(verdict_text(tuning, candidates))}</b></p>")
    parts.append("<h2>Search</h2><pre>" + html.escape("\n".join(lines)) + "</pre>")
    parts.append("<h2>Best candidates</h2>" + frame.to_html(index=False, escape=True))
    parts.append(
        "<h2>Each target against each knob</h2><p>One point per setting measured (an estimate with its 95% "
        "interval), the target's band shaded, the best starred.</p>" + search_html(tuning, candidates)
    )
    if change is not None:
        parts.append("<h2>The best against the baseline (rule-change report)</h2>")
        if report is not None:
            link = html.escape(report.name, quote=True)
            parts.append(f"<p>The whole report, with its tables and charts: <a href='{link}'>{link}</a>.</p>")
        parts.append("<ul>")
        parts += [f"<li>{html.escape(s)}</li>" for s in change.sentences(5)]
        parts.append("</ul>" + change.largest_frame(20).astype(str).to_html(index=False, escape=True))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_rule_change_report(
    tuning: Tuning, best_file: Path, output_dir: Path, folder: OutputFolder | None = None
) -> Path:
    """Run the rule-change report (the ``rule-change`` report notebook, by papermill) of the
    house rules in ``best_file`` against the tuning's baseline, with the tuning file's
    ``rule_change:`` sizes; return the path of its HTML, ``DIR/<name>_rule_change.html``
    (the executed notebook beside it). A baseline other than the default rules is written
    beside it first (``DIR/<name>_baseline.yaml``), so that the report names it. The
    files written are recorded in ``folder`` (default: the tuning's output folder there).

    Raises:
        ReportFailed: the notebook raised (its cell named), or its kernel died.
        InvalidSetupError: no Jupyter kernel to run it.
    """
    from toolkit.reports.running import run_report

    folder = folder or output_folder(tuning, output_dir)
    baseline: str | None = None
    if tuning.baseline.changes():
        path = folder.write(
            f"{tuning.name}_baseline.yaml", tuning.baseline.to_yaml(title=tuning.baseline_label).encode()
        )
        baseline = str(path.resolve())
    params: dict[str, Any] = {"system": tuning.system, "baseline": baseline, "proposed": str(best_file.resolve())}
    params["sizes"] = {k: list(v) if isinstance(v, tuple) else v for k, v in tuning.rule_change or ()}
    stem = f"{tuning.name}_rule_change"
    try:
        return run_report("rule-change", params, output_dir, output_name=stem, progress=lambda _: None)
    finally:  # a failed report's notebook and page are this run's too
        for ext in ("html", "ipynb"):
            if (output_dir / f"{stem}.{ext}").is_file():
                folder.adopt(output_dir / f"{stem}.{ext}")


def write_outputs(
    tuning: Tuning,
    candidates: list[Candidate],
    measured: int,
    lines: tuple[str, ...],
    output_dir: Path,
    report: bool = True,
) -> tuple[list[Path], Any]:
    """Write ``DIR/<name>.csv`` and ``.html`` (the best candidates), ``DIR/<name>_<rank>.yaml``
    (each candidate's house rules) and, unless ``rule_change: false`` or the best changes
    nothing, the best against the baseline: ``DIR/<name>_rule_change.csv`` (the largest
    changes) and, with ``report``, the rule-change report ``DIR/<name>_rule_change.html``
    (:func:`write_rule_change_report`; a report that fails is told in the page's search
    lines, the rest is written). Return the paths and the
    :class:`~toolkit.reports.rule_change.RuleChange` (or ``None``).

    Nothing a designer wrote is replaced (:func:`check_outputs`, again), and what an earlier
    run of the same tuning wrote there is removed first (a rerun with fewer candidates
    leaves no "candidate 3 of 3" of the earlier one)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    check_outputs(tuning, output_dir)
    folder = output_folder(tuning, output_dir)
    folder.clear_earlier(())
    best = candidates[: tuning.best]
    frame = candidates_frame(tuning, best)
    written = [folder.write(f"{tuning.name}.csv", spreadsheet_csv(frame))]
    for i, c in enumerate(best, 1):
        if c.rules is None or not c.measured:  # a setting whose points failed is in the table only
            continue
        text = c.rules.to_yaml(title=f"Candidate {i}: {tuning.title}", notes=candidate_notes(tuning, c, i, measured))
        written.append(folder.write(f"{tuning.name}_{i}.yaml", text.encode()))
    change, report_path = None, None
    if best and best[0].measured and best[0].changed and tuning.rule_change is not None:
        from toolkit.errors import TooBigError
        from toolkit.reports.rule_change import compare_rules

        try:
            change = compare_rules(tuning.system, tuning.baseline, best[0].rules, dict(tuning.rule_change))
        except TooBigError as exc:  # the headline tables of these rules cannot be computed exactly
            lines = (*lines, f"rule-change report: not written ({exc}); give smaller sizes in rule_change:")
        else:
            table = spreadsheet_csv(change.largest_frame(20).astype(str))
            written.append(folder.write(f"{tuning.name}_rule_change.csv", table))
            if report:
                from toolkit.errors import ToolkitError

                try:
                    best_file = output_dir / f"{tuning.name}_1.yaml"
                    report_path = write_rule_change_report(tuning, best_file, output_dir, folder)
                    written.append(report_path)
                except ToolkitError as exc:  # the tables above are written; say why the report is not
                    lines = (*lines, f"rule-change report: not written ({str(exc).splitlines()[0]})")
    page = folder.write(
        f"{tuning.name}.html", _html_page(tuning, candidates, frame, lines, change, report_path).encode()
    )
    written.insert(1, page)
    return written, change
