"""The Durak battle headline tables of the rule-change report
(:mod:`toolkit.reports.rule_change`): P(North comes out of a clash ahead: fewer tokens
lost than South) in one clash over hand sizes (:func:`toolkit.durak_battle.clash_losses`,
DB-3..DB-7) and P(North wins) a whole battle over army sizes
(:func:`toolkit.durak_battle.battle_outcome`, DB-2..DB-9); Monte Carlo where exact is too
big, with its interval.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.plugin.headline import Cell, Table, TableSpec, cell_of, grid, size_list

__all__ = ["DB_BATTLE", "DB_CLASH", "DB_NAMES", "SIZES", "tables"]

#: The sizes of the tables, with their defaults.
SIZES: dict[str, Any] = {
    "clash_sizes": [1, 2, 3],
    "tokens_a": [2, 4, 6],
    "tokens_b": [2, 4, 6],
    "policies": ["greedy", "greedy"],
    "max_rounds": 20,
    "trials": 1000,
}

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


def tables(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(North comes out of the clash ahead) in one clash over hand sizes, and P(North wins) a
    battle over army sizes (both leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards)."""
    from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses

    hands = size_list(sizes["clash_sizes"], "clash_sizes", 1)
    rows = size_list(sizes["tokens_a"], "tokens_a", 1)
    columns = size_list(sizes["tokens_b"], "tokens_b", 1)
    pols, trials = tuple(sizes["policies"]), sizes["trials"]

    def clash(na: int, nb: int) -> Cell:
        return cell_of(na, nb, clash_losses(na, nb, pols, rules, trials=trials), lambda lost: lost[0] < lost[1])

    def battle(ta: int, tb: int) -> Cell:
        north, south = DB_NAMES
        a = Army(north, ta, Leader(f"{north}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        b = Army(south, tb, Leader(f"{south}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        result = battle_outcome(a, b, rules, pols, max_rounds=sizes["max_rounds"], trials=trials)
        return cell_of(ta, tb, result, lambda end: end.winner == "a")

    north, south = DB_NAMES
    note = f"policies: {north} {pols[0]}, {south} {pols[1]}; leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards"
    return [
        Table(DB_CLASH, grid(hands, hands, clash), note),
        Table(DB_BATTLE, grid(rows, columns, battle), note + f"; undecided after {sizes['max_rounds']} rounds"),
    ]
