"""The Angry Miniatures headline tables of the rule-change report
(:mod:`toolkit.reports.rule_change`): P(the attack deals damage) over attack dice x
defence dice (:func:`toolkit.angry_miniatures.opposed`, AM-3..AM-5), and in melee
P(the attacker takes damage back) (AM-3), exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.plugin.headline import Cell, Table, TableSpec, grid

__all__ = ["AM_DAMAGE", "AM_RETURN", "SIZES", "tables"]

#: The sizes of the tables, with their defaults.
SIZES: dict[str, Any] = {"max_dice": 8, "attack_type": "melee"}

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


def tables(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(damage) over pools 1..max_dice both ways (AM-3, AM-4, AM-5), exact; in melee also
    P(damage back to the attacker) (AM-3)."""
    from toolkit.angry_miniatures import opposed
    from toolkit.angry_miniatures.rules import check_attack_type, check_pool

    max_dice, attack_type = sizes["max_dice"], sizes["attack_type"]
    check_pool(max_dice, "max_dice")
    check_attack_type(attack_type)
    pools = range(1, max_dice + 1)
    outcomes = {(a, d): opposed(a, d, attack_type, rules) for a in pools for d in pools}
    tables = [
        Table(AM_DAMAGE, grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.hit))))
    ]
    if attack_type == "melee":
        back = grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.attacker_damage > 0)))
        tables.append(Table(AM_RETURN, back))
    return tables
