"""The Fairy Meat headline tables of the rule-change report
(:mod:`toolkit.reports.rule_change`): P(the attacker wins), P(2 damage or more), P(the
defender wins) and P(a Nasty Hit) (FM-12) in one attack, averaged over every deal, over
the attacker's x the defender's hand sizes (:func:`toolkit.fairy_meat.deal_averaged_odds`, FM-1..FM-12);
Monte Carlo where a deal is too big, with its interval.

The tables are by hand size: the FM-2 terms that make a hand size do not enter;
:data:`REACH` declares them with the calculators that measure them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolkit.plugin.headline import Cell, Reach, Table, TableSpec, cell_of, grid, size_list, span

__all__ = ["FM_DAMAGE", "FM_DEFENDER", "FM_NASTY", "FM_WINS", "REACH", "SIZES", "tables"]

#: The sizes of the tables, with their defaults.
SIZES: dict[str, Any] = {
    "attacker_cards": [2, 3, 4, 5, 6],
    "defender_cards": [0, 1, 2, 3, 4],
    "policies": ["greedy", "greedy"],
    "trials": 1000,
}

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
FM_NASTY = TableSpec(
    "nasty_hit",
    "P(a Nasty Hit)",
    "attacker's cards",
    "defender's cards",
    "an attack of a {row}-card hand against {column_cards}",
    "ends in a Nasty Hit",
)


#: What the tables cannot see (FM-2's hand-size terms) and what measures it.
REACH = Reach(
    unseen={
        name: "combat_hand_sizes(attacker, defender, rules=rules) (FM-2) and then deal_averaged_odds at "
        "those sizes, or the combat stepper, which deals by them: the tables set both hand sizes directly"
        for name in ("attacker_bonus", "order_card_bonus", "flutter_penalty", "wrestling_hand")
    }
)


def tables(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(attacker wins), P(2 damage or more) (FM-10), P(defender wins) and P(a Nasty Hit)
    (FM-12) over hand sizes,
    averaged over every deal (exact where :func:`~toolkit.fairy_meat.deal_averaged_odds`
    is, else Monte Carlo)."""
    from toolkit.fairy_meat import deal_averaged_odds

    rows = size_list(sizes["attacker_cards"], "attacker_cards", 1)
    columns = size_list(sizes["defender_cards"], "defender_cards", 0)
    pols = tuple(sizes["policies"])
    odds = {(a, d): deal_averaged_odds(a, d, pols, rules, trials=sizes["trials"]) for a in rows for d in columns}

    def won(side: str) -> Callable[[int, int], Cell]:
        return lambda a, d: cell_of(a, d, odds[a, d], lambda o: o.winner == side)

    def damaged(a: int, d: int) -> Cell:
        return cell_of(a, d, odds[a, d], lambda o: (o.damage or 0) >= 2)

    note = f"policies: attacker {pols[0]}, defender {pols[1]}"
    asked = odds[rows[0], columns[0]].question.but(sizes=f"{span(rows)} v {span(columns)} cards, every deal", size=None)
    results = tuple(odds.values())
    return [
        Table(FM_WINS, grid(rows, columns, won("attacker")), note, asked, results),
        Table(FM_DAMAGE, grid(rows, columns, damaged), note, asked, results),
        Table(FM_DEFENDER, grid(rows, columns, won("defender")), note, asked, results),
        Table(
            FM_NASTY,
            grid(rows, columns, lambda a, d: cell_of(a, d, odds[a, d], lambda o: o.nasty_hit)),
            note,
            asked,
            results,
        ),
    ]
