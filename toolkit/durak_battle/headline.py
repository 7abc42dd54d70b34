"""The Durak battle headline tables of the rule-change report
(:mod:`toolkit.reports.rule_change`): P(North comes out of a clash ahead: fewer tokens
lost than South) in one clash over hand sizes (:func:`toolkit.durak_battle.clash_losses`,
DB-3..DB-7) and, over army sizes, a whole battle (:func:`toolkit.durak_battle.battle_outcome`,
DB-2..DB-9): P(North wins), and how battles end: P(a retreat) (DB-8), P(an army destroyed)
(DB-7) and P(the battle lasts past its first round); Monte Carlo where exact is too big,
with its interval. The four battle tables read one battle per pair of sizes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolkit.plugin.headline import Cell, Reach, Table, TableSpec, cell_of, grid, size_list, span

__all__ = ["DB_BATTLE", "DB_CLASH", "DB_DESTROYED", "DB_LONG", "DB_NAMES", "DB_RETREAT", "REACH", "SIZES", "tables"]

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
#: How battles end, whoever wins: the same measure for both armies, so each pair of sizes
#: is listed once.
DB_RETREAT, DB_DESTROYED, DB_LONG = (
    TableSpec(
        key,
        measure,
        f"{DB_NAMES[0]}'s tokens",
        f"{DB_NAMES[1]}'s tokens",
        "a battle of {row} tokens against {column}",
        event,
        mirrored=True,
    )
    for key, measure, event in (
        ("retreat", "P(the battle ends in a retreat)", "ends in a retreat"),
        ("destroyed", "P(the battle ends with an army destroyed)", "ends with an army destroyed"),
        ("long", "P(the battle lasts more than one round)", "lasts more than one round"),
    )
)

#: What the tables cannot see: under the greedy play they are drawn with (their default
#: policies), an initiative holder always attacks when she can (DB-6).
REACH = Reach(
    unseen={
        "holder_must_attack": "clash_losses(cards_a, cards_b, ('optimal', 'optimal'), rules) or with "
        "('random', 'random'): greedy play, the tables' default policies, attacks whenever it can, so "
        "it never meets the rule (DB-6)"
    }
)

#: What each battle table counts, of a :class:`~toolkit.durak_battle.BattleEnd`.
BATTLE_EVENTS: tuple[tuple[TableSpec, Callable[[Any], bool]], ...] = (
    (DB_BATTLE, lambda end: end.winner == "a"),
    (DB_RETREAT, lambda end: end.how == "retreat"),
    (DB_DESTROYED, lambda end: end.how == "destroyed"),
    (DB_LONG, lambda end: end.rounds > 1),
)


def tables(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(North comes out of the clash ahead) in one clash over hand sizes, and over army
    sizes P(North wins) a battle, P(it ends in a retreat), P(an army is destroyed) and P(it
    lasts more than one round) (both leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards)."""
    from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses

    hands = size_list(sizes["clash_sizes"], "clash_sizes", 1)
    rows = size_list(sizes["tokens_a"], "tokens_a", 1)
    columns = size_list(sizes["tokens_b"], "tokens_b", 1)
    pols, trials = tuple(sizes["policies"]), sizes["trials"]

    clashes = {
        (na, nb): clash_losses(na, nb, pols, rules, trials=trials, names=DB_NAMES) for na in hands for nb in hands
    }

    def clash(na: int, nb: int) -> Cell:
        return cell_of(na, nb, clashes[na, nb], lambda lost: lost[0] < lost[1])

    def battle(ta: int, tb: int) -> Any:
        north, south = DB_NAMES
        a = Army(north, ta, Leader(f"{north}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        b = Army(south, tb, Leader(f"{south}'s leader", battle_die="d8", spirit_die="d6", wild_card=True))
        return battle_outcome(a, b, rules, pols, max_rounds=sizes["max_rounds"], trials=trials)

    battles = {(ta, tb): battle(ta, tb) for ta in rows for tb in columns}
    north, south = DB_NAMES
    note = f"policies: {north} {pols[0]}, {south} {pols[1]}; leaders d8 Knowledge (Battle), d6 Spirit, Wild Cards"
    battle_note = note + f"; undecided after {sizes['max_rounds']} rounds"
    clash_asked = clashes[hands[0], hands[0]].question.but(sizes=f"{span(hands)} v {span(hands)} cards, one clash")
    first = battles[rows[0], columns[0]]
    battle_asked = first.question.but(sizes=f"{north} {span(rows)} v {south} {span(columns)} tokens", size=None)
    return [Table(DB_CLASH, grid(hands, hands, clash), note, clash_asked.but(size=None), tuple(clashes.values()))] + [
        Table(
            spec,
            grid(rows, columns, lambda ta, tb, ev=event: cell_of(ta, tb, battles[ta, tb], ev)),
            battle_note,
            battle_asked,
            tuple(battles.values()),
        )
        for spec, event in BATTLE_EVENTS
    ]
