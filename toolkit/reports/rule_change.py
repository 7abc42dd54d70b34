"""The rule-change report: what a house rule does to a system's headline odds.

:func:`compare_rules` computes each headline table of a system
(:mod:`toolkit.reports.rule_change_systems`) under a baseline (the default rules or a
house-rules file) and under the proposed house rules, and returns a
:class:`RuleChange`: the tables side by side with the exact change of every cell
(``Fraction``), the largest changes first, plain sentences ("With Tens hit, a 3-die
attack against 2 dice deals damage: 52% → 66% (+14 points)") and
the figures (a diverging heatmap of the change, before/after curves).

Where a cell is a Monte Carlo estimate, both rule sets are sampled with the same seed
(common random numbers) and the change carries its 95% interval
(:class:`toolkit.comparison.Difference`): a change whose interval contains 0 reads "no
measurable change (within ±x points)", is listed after every measured change, is never
narrated and is left white in the heatmap.

A changed rules field that none of the tables can see (a rule about characters, when the
tables are by pool size: the system's :class:`~toolkit.plugin.headline.Reach`) is said to
be not measured by these tables, with the calculator that does measure it
(:meth:`RuleChange.out_of_reach`), never "no change".

``notebooks/rule_change_report.ipynb`` shows it; run it with
``toolkit report rule-change -p system angry-miniatures -p proposed tens_hit``.

>>> from fractions import Fraction
>>> short(Fraction(1, 3)), short(Fraction(123456, 1000003))
('1/3 ≈ 33.3%', '12.3%')
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.comparison import Difference, difference_of, paired_probability_difference, value_text
from toolkit.numbers import count, percent_text, points_text
from toolkit.prob import format_probability
from toolkit.question import Question, compared, headline_over
from toolkit.reports.parameters import read_rules_parameter
from toolkit.reports.rule_change_systems import Cell, Reach, Table, TableSpec, headline_tables, reach_of

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["Change", "Compared", "OutOfReach", "RuleChange", "compare_rules", "sentence", "short"]

#: The longest fraction a short value shows (else only the percent).
SHORT_FRACTION_CHARS = 9


def short(p: Fraction) -> str:
    """Return a probability shown short: a short fraction with its percent
    (``'1/3 ≈ 33.3%'``), or the percent alone (``'12.3%'``)."""
    return format_probability(Fraction(p), max_fraction_chars=SHORT_FRACTION_CHARS)


def cell_text(p: Fraction, exact: bool) -> str:
    """Return a cell's probability as a designer reads it: :func:`short` when exact, the
    percent alone for a Monte Carlo estimate (never shown as a fraction, which would look exact)."""
    return short(p) if exact else percent_text(p)


@dataclass(frozen=True)
class Change:
    """One cell of a headline table under both rule sets: ``before`` (baseline) and
    ``after`` (proposed), exact fractions; ``exact`` is False when either is a Monte
    Carlo estimate, and then ``before_interval``/``after_interval`` are their 95%
    intervals (None: the value twice) and ``paired`` the change compared run by run when
    both cells kept the same runs (the same seed, sizes and trials)."""

    spec: TableSpec
    row: int
    column: int
    before: Fraction
    after: Fraction
    exact: bool = True
    before_interval: tuple[Any, Any] | None = None
    after_interval: tuple[Any, Any] | None = None
    paired: Difference | None = None

    @property
    def delta(self) -> Fraction:
        """The change, ``after - before`` (exact arithmetic on the two values)."""
        return self.after - self.before

    @property
    def difference(self) -> Difference:
        """The change with its 95% interval: exact when both values are; the paired interval
        when both cells kept the same runs (:attr:`paired`); else Newcombe's interval from
        the two (:func:`toolkit.comparison.difference_of`, conservative)."""
        if self.paired is not None:
            return self.paired
        return difference_of(
            self.before,
            self.before_interval or (self.before, self.before),
            self.after,
            self.after_interval or (self.after, self.after),
        )

    @property
    def measurable(self) -> bool:
        """Whether the change is measured (exact and non-zero, or its interval excludes 0)."""
        return self.difference.measurable

    def before_text(self) -> str:
        """The baseline value as a designer reads it (an estimate with its ±)."""
        return self._text(self.before, self.before_interval)

    def after_text(self) -> str:
        """The proposed value as a designer reads it (an estimate with its ±)."""
        return self._text(self.after, self.after_interval)

    def _text(self, value: Fraction, interval: tuple[Any, Any] | None) -> str:
        if interval is None:  # no interval known: exact, or (an estimate) its percent, never a fraction
            return cell_text(value, self.exact)
        return value_text(value, interval)

    @property
    def situation(self) -> str:
        """The cell in words (``"a 3-die attack against 2 dice"``, ``"an 8-die attack …"``)."""
        c = self.column
        text = self.spec.situation.format(
            row=self.row,
            column=c,
            column_dice=count(c, "die"),
            column_cards=count(c, "card"),
        )
        return re.sub(r"\ba (?=(?:8|11|18|8\d)-)", "an ", text)  # "an 8-die attack", "an 11-card hand"


@dataclass(frozen=True)
class Compared:
    """One headline table under both rule sets: its spec, every cell's :class:`Change`
    (row by row), a note on how it was computed, what each table answers (``asked``: the
    baseline's and the proposal's :class:`~toolkit.question.Question`) and the results
    read under both (``results``: how they were obtained)."""

    spec: TableSpec
    changes: tuple[Change, ...]
    note: str = ""
    asked: tuple[Question | None, Question | None] = (None, None)
    results: tuple[Any, ...] = dataclasses.field(default=(), compare=False, repr=False)

    @property
    def question(self) -> str:
        """Both tables' questions in one line (:func:`both_questions`): the first line of
        this table's caption."""
        return both_questions([self])

    @property
    def rows(self) -> list[int]:
        """The row sizes, in order."""
        return sorted({c.row for c in self.changes})

    @property
    def columns(self) -> list[int]:
        """The column sizes, in order."""
        return sorted({c.column for c in self.changes})

    def shown(self, baseline: str = "baseline", proposed: str = "proposed") -> pd.DataFrame:
        """Return the table side by side as a designer reads it: the two sizes, both values
        (exact, or an estimate with its ±), the change (:class:`~toolkit.comparison.Difference`:
        points, or "no measurable change (within ±x points)") and, when any cell is an
        estimate, how each line was obtained."""
        import pandas as pd

        frame = pd.DataFrame(
            {
                self.spec.row_label: [c.row for c in self.changes],
                self.spec.column_label: [c.column for c in self.changes],
                baseline: [c.before_text() for c in self.changes],
                proposed: [c.after_text() for c in self.changes],
                "change": [c.difference.text() for c in self.changes],
            }
        )
        if not all(c.exact for c in self.changes):
            frame["how"] = [c.difference.how if not c.exact else "exact" for c in self.changes]
        return frame

    def frame(self) -> pd.DataFrame:
        """Return the table side by side: one line per cell with the two sizes, the
        baseline and proposed probabilities (exact Fractions) and the change (exact)."""
        import pandas as pd

        return pd.DataFrame(
            {
                self.spec.row_label: [c.row for c in self.changes],
                self.spec.column_label: [c.column for c in self.changes],
                "baseline": [c.before for c in self.changes],
                "proposed": [c.after for c in self.changes],
                "change": [c.delta for c in self.changes],
                "exact": [c.exact for c in self.changes],
            }
        )

    def grid(self, which: str = "change") -> pd.DataFrame:
        """Return one value per cell as a grid (rows x columns, exact Fractions):
        ``"baseline"``, ``"proposed"`` or ``"change"``."""
        frame = self.frame()
        return frame.pivot(index=self.spec.row_label, columns=self.spec.column_label, values=which)

    def heatmap(self, baseline: str = "baseline", proposed: str = "proposed") -> go.Figure:
        """Return a diverging heatmap of the change in percentage points (blue: more
        often, red: less often, white: no change); the hover shows both values."""
        import plotly.graph_objects as go

        rows, columns = self.rows, self.columns
        at = {(c.row, c.column): c for c in self.changes}
        # a change that is not measurable is drawn white (0) and written "–": never a colour to read
        z = [[float(at[r, c].delta) * 100 if at[r, c].measurable else 0.0 for c in columns] for r in rows]
        hover = [
            [
                f"{at[r, c].before_text()} → {at[r, c].after_text()}: {at[r, c].difference.text()}"
                + ("" if at[r, c].exact else " (Monte Carlo)")
                for c in columns
            ]
            for r in rows
        ]
        text = [  # in points by the one writer: a small change keeps its digits, never "+0.0"
            [
                points_text(at[r, c].delta).split(" point")[0] if at[r, c].measurable or at[r, c].delta == 0 else "–"
                for c in columns
            ]
            for r in rows
        ]
        reach = max((abs(v) for line in z for v in line), default=0.0) or 1.0
        fig = go.Figure(
            go.Heatmap(
                z=z,
                x=[str(c) for c in columns],
                y=[str(r) for r in rows],
                text=text,
                texttemplate="%{text}",
                customdata=hover,
                hovertemplate=f"{self.spec.row_label} %{{y}}, {self.spec.column_label} %{{x}}: "
                "%{customdata}<extra></extra>",
                colorscale="RdBu",
                zmid=0,
                zmin=-reach,
                zmax=reach,
                colorbar={"title": {"text": "points"}},
            )
        )
        fig.update_layout(
            title=f"{self.spec.measure}: {proposed} minus {baseline}, percentage points"
            + ("" if all(c.measurable or c.delta == 0 for c in self.changes) else " (–: no measurable change)"),
            xaxis_title=self.spec.column_label,
            yaxis_title=self.spec.row_label,
            template="plotly_white",
        )
        return fig

    def curves(self, baseline: str = "baseline", proposed: str = "proposed", most: int = 4) -> go.Figure:
        """Return before/after curves over the column sizes, for up to ``most`` row sizes
        spread over the range: the baseline dashed, the proposed rules solid."""
        import plotly.graph_objects as go
        from plotly.colors import qualitative

        rows = self.rows
        if len(rows) > most:
            step = (len(rows) - 1) / (most - 1)
            rows = sorted({rows[round(i * step)] for i in range(most)})
        columns = self.columns
        at = {(c.row, c.column): c for c in self.changes}
        fig = go.Figure()
        for i, r in enumerate(rows):
            colour = qualitative.Plotly[i % len(qualitative.Plotly)]
            for label, which, dash in ((baseline, "before", "dash"), (proposed, "after", "solid")):
                cells = [at[r, c] for c in columns]
                values = [getattr(cell, which) for cell in cells]
                fig.add_scatter(
                    x=columns,
                    y=[float(v) for v in values],
                    mode="lines+markers",
                    name=f"{self.spec.row_label}: {r}, {label}",  # "attack dice: 1, Tens hit", never "1 attack dice"
                    line={"color": colour, "dash": dash},
                    hovertext=[cell.before_text() if which == "before" else cell.after_text() for cell in cells],
                    hoverinfo="text+name",
                )
        fig.update_layout(
            title=f"{self.spec.measure}: {baseline} (dashed) and {proposed} (solid)",
            xaxis_title=self.spec.column_label,
            yaxis_title="probability",
            yaxis_tickformat=".0%",
            template="plotly_white",
        )
        return fig


def sentence(change: Change, proposed: str, baseline: str = "default rules") -> str:
    """Return one change in plain words, said once and positively: the event, its
    probability before and after, and the change in percentage points — ``"With Tens hit,
    a 3-die attack against 2 dice deals damage: 52% → 66% (+14 points)."`` (``"instead
    of BASELINE"`` is said when the baseline is not the default rules; never "less often"
    after a measure that is itself a comparison). Estimates carry their ± and the change
    its 95% interval; a change that is not measurable says so and nothing more."""
    than = "" if baseline == "default rules" else f" instead of {baseline}"
    before, after = change.before_text(), change.after_text()
    estimate = "" if change.exact else ", Monte Carlo estimates"
    if change.delta == 0:
        if change.exact:
            return f"With {proposed}{than}, {change.situation} {change.spec.event} exactly as often ({after})."
        return f"With {proposed}{than}, {change.situation} {change.spec.event}: the same estimate ({after})."
    diff = change.difference
    if not diff.measurable:
        return f"With {proposed}{than}, {change.situation} {change.spec.event}: {diff.text()}{estimate}."
    if change.exact or change.before_interval is None:
        text = f"{change.situation} {change.spec.event}: {before} → {after} ({diff.text()}{estimate})"
    else:
        text = f"{change.situation} {change.spec.event}: {before} → {after}, a change of {diff.text()}{estimate}"
    return f"With {proposed}{than}, {text}."  # a situation may start with an army's name: its case is kept


@dataclass(frozen=True)
class OutOfReach:
    """A changed rules field that none of a report's tables can see: its name, the
    designer's label, its ruling, its two values (baseline, proposed) and where it is
    measured, as a clause (:meth:`toolkit.plugin.headline.Reach.measured_by`)."""

    field: str
    label: str
    ruling: str
    before: Any
    after: Any
    measured_by: str

    def text(self) -> str:
        """Return the field in one sentence: ``"Melee defender's extra die (AM-6: no → yes)
        is not measured by these tables: measure it with …"``."""
        from toolkit.house_rules import value_words

        ruling = f"{self.ruling}: " if self.ruling else ""
        values = f"{value_words(self.before)} → {value_words(self.after)}"
        return f"{self.label} ({ruling}{values}) is not measured by these tables: {self.measured_by}."


@dataclass(frozen=True)
class RuleChange:
    """A system's headline tables under two rule sets (see :func:`compare_rules`).

    Attributes:
        system: the system's name (its ``system:`` in :mod:`toolkit.systems`).
        baseline, proposed: the two :class:`~toolkit.house_rules.RulesFile` (rules,
            title, notes, path).
        tables: each headline table compared, as :class:`Compared`.
        sizes: the sizes the tables were computed at.
        reach: which tables see each rules field (the system's ``reach`` hook).
    """

    system: str
    baseline: Any
    proposed: Any
    tables: tuple[Compared, ...]
    sizes: Mapping[str, Any]
    reach: Reach = dataclasses.field(default_factory=Reach)

    @property
    def question(self) -> str:
        """What every table here answers, in one line (:func:`both_questions`): the first
        line of the caption of :meth:`largest_shown`."""
        return both_questions(self.tables)

    def changed_fields(self) -> dict[str, tuple[Any, Any]]:
        """Return ``{field: (baseline value, proposed value)}`` for every rules field the
        two rule sets set differently, in the fields' order."""
        before, after = self.baseline.rules, self.proposed.rules
        return {
            name: (getattr(before, name), getattr(after, name))
            for name in type(after).field_names()
            if getattr(before, name) != getattr(after, name)
        }

    def out_of_reach(self) -> list[OutOfReach]:
        """Return the changed rules fields that none of these tables can see, each with
        where it is measured (:class:`~toolkit.plugin.headline.Reach`). When every changed
        field is declared out of reach and yet a cell moved, these sizes or policies do see
        them (a rule greedy play never meets, with random play asked for): none is listed."""
        specs = [t.spec for t in self.tables]
        rules = type(self.proposed.rules)
        ruling = {f.name: f.metadata.get("ruling", "") for f in dataclasses.fields(rules)}
        changed = self.changed_fields()
        unseen = [
            OutOfReach(name, rules.field_label(name), ruling[name], a, b, self.reach.measured_by(name, specs))
            for name, (a, b) in changed.items()
            if not self.reach.seen_by(name, specs)
        ]
        moved = any(c.delta != 0 for t in self.tables for c in t.changes)
        return [] if moved and len(unseen) == len(changed) else unseen

    @property
    def titles(self) -> tuple[str, str]:
        """The two rule sets' titles (the proposed one told apart if both are equal)."""
        before, after = self.baseline.title, self.proposed.title
        return (before, after if after != before else f"{after} (proposed)")

    def largest(self, n: int = 10) -> list[Change]:
        """Return the ``n`` largest changes over every table: the measured changes first,
        largest first (exact comparison of the changes' sizes; ties in table, row and
        column order), then the changes that are not measurable (their interval contains
        0), largest first. Cells that do not change are left out, and so is the mirror of
        each cell of a table whose two sides play alike (``spec.mirrored``: the cell at
        ``(column, row)`` is the same measure for the other side, so only ``row <= column``
        is listed, where the table holds it)."""
        order = {c.spec.key: i for i, c in enumerate(self.tables)}
        cells = {(c.spec.key, c.row, c.column) for t in self.tables for c in t.changes}

        def mirror_listed(c: Change) -> bool:  # the same pair of sizes is listed as (column, row)
            return c.spec.mirrored and c.row > c.column and (c.spec.key, c.column, c.row) in cells

        every = [c for t in self.tables for c in t.changes if c.delta != 0 and not mirror_listed(c)]
        every.sort(key=lambda c: (not c.measurable, -abs(c.delta), order[c.spec.key], c.row, c.column))
        return every[: max(0, n)]

    def measured(self, n: int = 10) -> list[Change]:
        """Return the ``n`` largest measured changes (:meth:`largest` without the ones that
        are not measurable)."""
        return [c for c in self.largest(n) if c.measurable]

    def largest_frame(self, n: int = 10) -> pd.DataFrame:
        """Return :meth:`largest` as a table: what, where, both values (exact Fractions)
        and the change in percentage points (:class:`~toolkit.comparison.Difference`: the
        exact ``delta`` stays in the data, shown ``'−9.6 points'``, ``'−3.1 ± 1.2 points
        (95%)'`` or ``'no measurable change (within ±2.1 points)'``)."""
        import pandas as pd

        before, after = self.titles
        rows = [
            {
                "measure": c.spec.measure,
                "where": c.situation,
                before: c.before,
                after: c.after,
                "change": c.difference,
                "exact": c.exact,
            }
            for c in self.largest(n)
        ]
        columns = ["measure", "where", before, after, "change", "exact"]
        return pd.DataFrame(rows, columns=columns)

    def largest_shown(self, n: int = 10) -> pd.DataFrame:
        """Return :meth:`largest` as a designer reads it: what, where, both values (exact,
        or an estimate with its ±), the change in words and how it was obtained."""
        import pandas as pd

        before, after = self.titles
        rows = [
            {
                "measure": c.spec.measure,
                "where": c.situation,
                before: c.before_text(),
                after: c.after_text(),
                "change": c.difference.text(),
                "how": c.difference.how if not c.exact else "exact",
            }
            for c in self.largest(n)
        ]
        frame = pd.DataFrame(rows, columns=["measure", "where", before, after, "change", "how"])
        return frame.drop(columns=["how"]) if (frame["how"] == "exact").all() else frame

    def sentences(self, n: int = 3) -> list[str]:
        """Return the ``n`` largest measured changes in plain words (:func:`sentence`), or
        one sentence saying that nothing changed, or that nothing changed measurably (the
        changes found are all inside their intervals); then one sentence per changed field
        that none of these tables can see (:meth:`out_of_reach`: "not measured by these
        tables", with the calculator that measures it). When every changed field is out of
        reach, nothing is said of the tables' odds: they cannot show that rule."""
        before, after = self.titles
        unseen = [f.text() for f in self.out_of_reach()]
        found = self.measured(n)
        if found:
            return [sentence(c, after, before) for c in found] + unseen
        if unseen and len(unseen) == len(self.changed_fields()):
            return unseen
        measures = ", ".join(t.spec.measure for t in self.tables)
        if self.largest(1):
            none = (
                f"{after} changes none of these odds measurably: every change of {measures} from {before} "
                "is inside its 95% interval (see the table)."
            )
        else:
            none = f"{after} changes none of these odds: {measures} are exactly as with {before}."
        return [none, *unseen]

    def unchanged(self) -> list[str]:
        """Return the measures whose every cell is exactly the same under both rule sets."""
        return [t.spec.measure for t in self.tables if all(c.delta == 0 for c in t.changes)]

    def unmeasured(self) -> list[str]:
        """Return the measures that change somewhere but nowhere measurably (every change
        inside its interval)."""
        return [
            t.spec.measure
            for t in self.tables
            if any(c.delta != 0 for c in t.changes) and not any(c.measurable for c in t.changes)
        ]


def _paired(before: Cell, after: Cell) -> Difference | None:
    """The change of a Monte Carlo cell compared run by run, when both cells kept the same
    runs (:func:`toolkit.comparison.paired_probability_difference`), else ``None``."""
    if before.samples is None or after.samples is None or not before.samples.aligned(after.samples):
        return None
    return paired_probability_difference(before.samples, after.samples, before.event)


def compare(baseline_tables: list[Table], proposed_tables: list[Table]) -> tuple[Compared, ...]:
    """Return each headline table under both rule sets, cell by cell (the two lists come
    from :func:`~toolkit.reports.rule_change_systems.headline_tables` at the same sizes)."""
    out = []
    for before, after in zip(baseline_tables, proposed_tables, strict=True):
        cells: dict[tuple[int, int], Cell] = {(c.row, c.column): c for c in after.cells}
        changes = tuple(
            Change(
                before.spec,
                c.row,
                c.column,
                c.value,
                cells[c.row, c.column].value,
                c.exact and cells[c.row, c.column].exact,
                c.interval,
                cells[c.row, c.column].interval,
                _paired(c, cells[c.row, c.column]),
            )
            for c in before.cells
        )
        asked = (before.question, after.question)
        out.append(Compared(before.spec, changes, before.note, asked, (*before.results, *after.results)))
    return tuple(out)


def both_questions(tables: Sequence[Compared]) -> str:
    """The one line stating what ``tables``, each under two rule sets, answer: the
    baseline's question and the proposal's compared (:func:`~toolkit.question.compared`,
    each part that differs as ``before → after``), and how every result was obtained
    (:func:`~toolkit.question.headline_over`). Tables that ask different things share the
    first one's system, policies and rules, each table's sizes listed once; ``""`` when a
    table states no question."""
    asked = [q for t in tables for q in t.asked]
    if not asked or None in asked:
        return ""
    before, after = tables[0].asked
    sizes = list(dict.fromkeys(t.asked[0].sizes for t in tables))  # type: ignore[union-attr]
    if len(sizes) > 1 or len({t.asked[0].asked for t in tables}) > 1:  # type: ignore[union-attr]
        before = before.but(sizes="; ".join(sizes), asked=())  # type: ignore[union-attr]
        after = before.but(rules=after.rules)  # type: ignore[union-attr]
    results = [r for t in tables for r in t.results]
    return headline_over(compared(before, after), results)  # type: ignore[arg-type]


def compare_rules(
    system: str, baseline: Any = None, proposed: Any = None, sizes: Mapping[str, Any] | None = None
) -> RuleChange:
    """Return what changing ``system``'s rules from ``baseline`` to ``proposed`` does to
    its headline tables (:mod:`toolkit.reports.rule_change_systems`).

    Args:
        system: the name of a registered system with headline tables (:mod:`toolkit.systems`).
        baseline, proposed: what :func:`~toolkit.reports.parameters.read_rules_parameter`
            reads: None (the default rules), a house-rules file (a path or a shipped
            name), a mapping of fields or a ``Rules``. ``proposed=None`` takes the
            system's showcase file (:attr:`toolkit.systems.System.showcase_rules`, a
            shipped file that changes its headline odds measurably), or its first shipped
            house-rules file (``data/rules/<system>/``) when that one is not shipped.
        sizes: the tables' sizes, a mapping checked by the system's ``sizes`` hook
            (:meth:`toolkit.systems.System.check_sizes`: a size it does not read is refused).

    Raises:
        InvalidSetupError: an unknown system, rules that cannot be read (file, line and
            field named), no proposed rules and no shipped file, or bad sizes.
    """
    from toolkit import systems
    from toolkit.errors import InvalidSetupError
    from toolkit.house_rules import rules_files

    known = systems.names("tables")
    if system not in known:
        raise InvalidSetupError(f"unknown system {system!r}; the systems are: {', '.join(known)}")
    entry = systems.system(system)
    chosen = entry.check_sizes(sizes)
    if proposed is None:
        shipped = rules_files(system)
        if not shipped:
            raise InvalidSetupError(
                f"give the proposed rules (-p proposed FILE.yaml): {system} has no shipped house-rules file"
            )
        showcase = [f for f in shipped if f.stem == entry.showcase_rules]
        proposed = (showcase or shipped)[0]
    before = read_rules_parameter(system, baseline)
    after = read_rules_parameter(system, proposed)
    tables = compare(headline_tables(system, before.rules, chosen), headline_tables(system, after.rules, chosen))
    return RuleChange(system, before, after, tables, chosen, reach_of(system))
