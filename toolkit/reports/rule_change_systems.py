"""The headline tables of each system, computed for one set of rules: what the
rule-change report (:mod:`toolkit.reports.rule_change`) compares.

Each system's table is a grid of probabilities over two sizes, computed by the system's
own exact calculator with ``rules=``:

- Angry Miniatures: P(the attack deals damage) over attack dice x defence dice
  (:func:`toolkit.angry_miniatures.opposed`, AM-3..AM-5), and in melee P(the attacker
  takes damage back) (AM-3);
- Fairy Meat: P(the attacker wins), P(2 damage or more) and P(the defender wins) one
  attack, averaged over
  every deal, over the attacker's x the defender's hand sizes
  (:func:`toolkit.fairy_meat.deal_averaged_odds`, FM-1..FM-12);
- Durak battle: P(North comes out of a clash ahead: fewer tokens lost than South) in one clash over hand sizes
  (:func:`toolkit.durak_battle.clash_losses`, DB-3..DB-7) and P(North wins) a whole
  battle over army sizes (:func:`toolkit.durak_battle.battle_outcome`, DB-2..DB-9).

Exact wherever the calculator is exact; a Monte Carlo cell (a big Fairy Meat deal, a
big Durak clash) is kept as the exact fraction of its trials, marked ``exact=False`` and
given its 95% interval (:func:`toolkit.comparison.interval_of`: the calculator's own
interval, or a Wilson interval of its trials) and the runs behind it. Every calculator
samples with its default seed under both rule sets, so two rule sets are compared with
common random numbers (the same deals and rolls wherever the decks are alike), run by run
where both cells kept their runs (a Durak battle, a chain over sampled clash tables, keeps
none: its change gets the conservative interval).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from toolkit.comparison import CONFIDENCE, interval_of
from toolkit.errors import InvalidSetupError
from toolkit.odds_samples import Samples

__all__ = ["DEFAULT_PROPOSED", "SIZES", "TABLES", "Cell", "Table", "TableSpec", "headline_tables", "sizes_of"]


@dataclass(frozen=True)
class Cell:
    """One probability of a headline table: at ``(row, column)`` sizes, exact or not, and
    its 95% interval (``low``, ``high``; the value twice when exact). A Monte Carlo cell
    also keeps the runs behind it and its event (``samples``, ``event``), so that the same
    cell under two rule sets, drawn with the same seed, is compared run by run
    (:func:`toolkit.comparison.paired_probability_difference`)."""

    row: int
    column: int
    value: Fraction
    exact: bool = True
    low: Fraction | float | None = None
    high: Fraction | float | None = None
    samples: Samples | None = field(default=None, compare=False, repr=False)
    event: Any = field(default=None, compare=False, repr=False)

    @property
    def interval(self) -> tuple[Fraction | float, Fraction | float]:
        """The 95% interval of :attr:`value` (the value twice when exact)."""
        if self.exact or self.low is None or self.high is None:
            return (self.value, self.value)
        return (self.low, self.high)


@dataclass(frozen=True)
class TableSpec:
    """What a headline table measures and how a sentence names its cells.

    Attributes:
        key: a short name (``"damage"``).
        measure: the probability, as a column heading (``"P(the attack deals damage)"``).
        row_label, column_label: what the two sizes are (``"attack dice"``).
        situation: ``situation.format(row=, column=, column_dice=, column_cards=)``
            names a cell in a sentence (``"a 3-die attack against 2 dice"``;
            ``column_dice`` is ``"1 die"`` or ``"2 dice"``, ``column_cards`` likewise).
        event: what happens, after the situation (``"deals damage"``), said positively
            (a sentence gives its probability before and after, never "less often").
        mirrored: the two sides play by the same rules and sizes, so the cell at
            ``(column, row)`` is this cell's measure for the other side: the list of
            largest changes names each pair once (the cell with ``row <= column``).
    """

    key: str
    measure: str
    row_label: str
    column_label: str
    situation: str
    event: str
    mirrored: bool = False


@dataclass(frozen=True)
class Table:
    """A headline table computed for one set of rules: its spec and its cells, row by row."""

    spec: TableSpec
    cells: tuple[Cell, ...]
    note: str = ""


#: The house-rules file each system's report compares with the default rules when none is
#: given (a shipped file of ``data/rules/<system>/`` that changes the headline odds
#: measurably at the default sizes, so the report shows a change on Run All).
DEFAULT_PROPOSED: dict[str, str] = {
    "angry-miniatures": "tens_hit",
    "fairy-meat": "unhalved_damage",
    "durak-battle": "cheap_strikes",
}

#: The size parameters of each system's tables, with their defaults.
SIZES: dict[str, dict[str, Any]] = {
    "angry-miniatures": {"max_dice": 8, "attack_type": "melee"},
    "fairy-meat": {
        "attacker_cards": [2, 3, 4, 5, 6],
        "defender_cards": [0, 1, 2, 3, 4],
        "policies": ["greedy", "greedy"],
        "trials": 1000,
    },
    "durak-battle": {
        "clash_sizes": [1, 2, 3],
        "tokens_a": [2, 4, 6],
        "tokens_b": [2, 4, 6],
        "policies": ["greedy", "greedy"],
        "max_rounds": 20,
        "trials": 1000,
    },
}


def _sizes(values: Any, what: str, low: int) -> list[int]:
    items = list(values) if isinstance(values, (list, tuple, range)) else [values]
    if not items or any(isinstance(v, bool) or not isinstance(v, int) or v < low for v in items):
        raise InvalidSetupError(f"{what} must be whole numbers of {low} or more, got {values!r}")
    return sorted(set(items))


def _grid(rows: Iterable[int], columns: Iterable[int], value: Callable[[int, int], Cell]) -> tuple[Cell, ...]:
    return tuple(value(r, c) for r in rows for c in columns)


def _cell(row: int, column: int, result: Any, event: Any) -> Cell:
    """The cell of ``P(event)`` read from a calculator's result, with its interval."""
    exact = bool(result.exact)
    value = result.probability(event)
    low, high = (value, value) if exact else interval_of(result, event, CONFIDENCE)
    samples = None if exact else getattr(result, "samples", None)
    return Cell(row, column, value, exact, low, high, samples, event if samples is not None else None)


# -- Angry Miniatures ---------------------------------------------------------------------
AM_DAMAGE = TableSpec(
    "damage",
    "P(the attack deals damage)",
    "attack dice",
    "defence dice",
    "a {row}-die attack against {column_dice}",
    "deals damage",
)
AM_RETURN = TableSpec(
    "return",
    "P(the attacker takes damage back)",
    "attack dice",
    "defence dice",
    "a {row}-die melee attacker against {column_dice}",
    "takes damage back",
)


def _angry_miniatures(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(damage) over pools 1..max_dice both ways (AM-3, AM-4, AM-5), exact; in melee also
    P(damage back to the attacker) (AM-3)."""
    from toolkit.angry_miniatures import check_attack_type, check_pool, opposed

    max_dice, attack_type = sizes["max_dice"], sizes["attack_type"]
    check_pool(max_dice, "max_dice")
    check_attack_type(attack_type)
    pools = range(1, max_dice + 1)
    outcomes = {(a, d): opposed(a, d, attack_type, rules) for a in pools for d in pools}
    tables = [
        Table(AM_DAMAGE, _grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.hit))))
    ]
    if attack_type == "melee":
        back = _grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.attacker_damage > 0)))
        tables.append(Table(AM_RETURN, back))
    return tables


# -- Fairy Meat ---------------------------------------------------------------------------
FM_WINS = TableSpec(
    "attacker_wins",
    "P(the attacker wins)",
    "attacker's cards",
    "defender's cards",
    "an attacker with a {row}-card hand against {column_cards}",
    "wins",
)
FM_DEFENDER = TableSpec(
    "defender_wins",
    "P(the defender wins)",
    "attacker's cards",
    "defender's cards",
    "a defender with {column_cards} against a {row}-card hand",
    "wins",
)
FM_DAMAGE = TableSpec(
    "damage",
    "P(the attack deals 2 damage or more)",
    "attacker's cards",
    "defender's cards",
    "an attacker with a {row}-card hand against {column_cards}",
    "deals 2 damage or more",
)


def _fairy_meat(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(attacker wins), P(2 damage or more) (FM-10) and P(defender wins) over hand sizes,
    averaged over every deal (exact where :func:`~toolkit.fairy_meat.deal_averaged_odds`
    is, else Monte Carlo)."""
    from toolkit.fairy_meat import deal_averaged_odds

    rows = _sizes(sizes["attacker_cards"], "attacker_cards", 1)
    columns = _sizes(sizes["defender_cards"], "defender_cards", 0)
    pols = tuple(sizes["policies"])
    odds = {(a, d): deal_averaged_odds(a, d, pols, rules, trials=sizes["trials"]) for a in rows for d in columns}

    def won(side: str) -> Callable[[int, int], Cell]:
        return lambda a, d: _cell(a, d, odds[a, d], lambda o: o.winner == side)

    def damaged(a: int, d: int) -> Cell:
        return _cell(a, d, odds[a, d], lambda o: (o.damage or 0) >= 2)

    note = f"policies: attacker {pols[0]}, defender {pols[1]}"
    return [
        Table(FM_WINS, _grid(rows, columns, won("attacker")), note),
        Table(FM_DAMAGE, _grid(rows, columns, damaged), note),
        Table(FM_DEFENDER, _grid(rows, columns, won("defender")), note),
    ]


# -- Durak battle -------------------------------------------------------------------------
#: The two armies' names in the Durak tables (as the Durak report's defaults): never the
#: internal side ids "a" and "b" in a designer's text, which names armies as the designer does.
DB_NAMES = ("North", "South")

DB_CLASH = TableSpec(
    "clash",
    f"P({DB_NAMES[0]} comes out of the clash ahead: fewer tokens lost than {DB_NAMES[1]})",
    f"{DB_NAMES[0]}'s cards",
    f"{DB_NAMES[1]}'s cards",
    DB_NAMES[0] + " with a {row}-card hand against {column_cards}",
    "comes out of the clash ahead",
    mirrored=True,
)
DB_BATTLE = TableSpec(
    "battle",
    f"P({DB_NAMES[0]} wins the battle)",
    f"{DB_NAMES[0]}'s tokens",
    f"{DB_NAMES[1]}'s tokens",
    DB_NAMES[0] + " with {row} tokens against {column}",
    "wins the battle",
    mirrored=True,
)


def _durak_battle(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(North comes out of the clash ahead) in one clash over hand sizes, and P(North wins) a
    battle over army sizes (both leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards)."""
    from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses

    hands = _sizes(sizes["clash_sizes"], "clash_sizes", 1)
    rows = _sizes(sizes["tokens_a"], "tokens_a", 1)
    columns = _sizes(sizes["tokens_b"], "tokens_b", 1)
    pols, trials = tuple(sizes["policies"]), sizes["trials"]

    def clash(na: int, nb: int) -> Cell:
        return _cell(na, nb, clash_losses(na, nb, pols, rules, trials=trials), lambda lost: lost[0] < lost[1])

    def battle(ta: int, tb: int) -> Cell:
        north, south = DB_NAMES
        a = Army(north, ta, Leader(f"{north}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        b = Army(south, tb, Leader(f"{south}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        result = battle_outcome(a, b, rules, pols, max_rounds=sizes["max_rounds"], trials=trials)
        return _cell(ta, tb, result, lambda end: end.winner == "a")

    north, south = DB_NAMES
    note = f"policies: {north} {pols[0]}, {south} {pols[1]}; leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards"
    return [
        Table(DB_CLASH, _grid(hands, hands, clash), note),
        Table(DB_BATTLE, _grid(rows, columns, battle), note + f"; undecided after {sizes['max_rounds']} rounds"),
    ]


#: Each system's headline tables: ``function(rules, sizes) -> [Table, ...]``.
TABLES: dict[str, Callable[[Any, Mapping[str, Any]], list[Table]]] = {
    "angry-miniatures": _angry_miniatures,
    "fairy-meat": _fairy_meat,
    "durak-battle": _durak_battle,
}


def headline_tables(system: str, rules: Any, sizes: Mapping[str, Any] | None = None) -> list[Table]:
    """Return ``system``'s headline tables under ``rules`` (a system's ``Rules``), at the
    sizes of :data:`SIZES` changed by ``sizes`` (keys of other systems are ignored).

    Raises:
        InvalidSetupError: an unknown system (the systems are named) or bad sizes.
    """
    if system not in TABLES:
        raise InvalidSetupError(f"unknown system {system!r}; the systems are: {', '.join(TABLES)}")
    chosen = dict(SIZES[system])
    chosen.update({k: v for k, v in (sizes or {}).items() if k in chosen and v is not None})
    return TABLES[system](rules, chosen)


def sizes_of(system: str) -> Sequence[str]:
    """Return the names of the size parameters ``system``'s tables read."""
    return tuple(SIZES.get(system, {}))
