"""The Angry Miniatures headline tables of the rule-change report
(:mod:`toolkit.reports.rule_change`): P(the attack deals damage) over attack dice x
defence dice (:func:`toolkit.angry_miniatures.opposed`, AM-3..AM-5), P(a crit on
either roll) (AM-7) and in melee P(the attacker takes damage back) (AM-3), exact.

The tables are by pool size: they cannot see the rules about characters and modifiers
(AM-6, AM-9), nor the tie-break's details (AM-4: a tie's winner is even either way, by
symmetry), which :data:`REACH` declares with the calculators that measure them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.plugin.headline import Cell, Reach, Table, TableSpec, grid, span

__all__ = ["AM_CRIT", "AM_DAMAGE", "AM_RETURN", "REACH", "SIZES", "tables"]

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
AM_CRIT = TableSpec(
    "crit",
    "P(a crit on either roll)",
    "attack dice",
    "defence dice",
    "a {row}-die attack against {column_dice}",
    "has a crit on either roll",
)

#: What the tables cannot see (AM-3 only in melee; AM-4's tie-break, AM-6, AM-9), and the
#: calculator that measures each.
_POOLS = "opposed(*attack_pools(attacker, defender, attack_type, modifiers, rules), attack_type, rules)"
REACH = Reach(
    only={"return_damage": (AM_RETURN,)},
    unseen={
        "melee_defence_bonus": f"{_POOLS} with a Character(melee_character=True) defender in melee "
        "(AM-6: 3 against 2 dice becomes 3 against 3), or the odds explorer, whose melee defender is one",
        **{
            name: f"{_POOLS} with Modifiers({modifier}) (AM-9)"
            for name, modifier in (
                ("charge_dice", "charge=True"),
                ("elevation_dice", "higher_elevation=True"),
                ("terrain_dice", "hindering_terrain=1"),
                ("occupied_dice", "occupied_squares=1"),
                ("prone_dice", "prone=True"),
            )
        },
        **{
            name: "opposed(a, d, attack_type, rules).probability(lambda o: o.hit and o.attacker_crit): "
            "the chain gives a tie to the roll with more of its first face, so it changes which side "
            "wins a tie with a crit, not how often a tie is won nor how often a roll crits (AM-4)"
            for name in ("tie_break", "tie_break_order")
        },
    },
)


def tables(rules: Any, sizes: Mapping[str, Any]) -> list[Table]:
    """P(damage) over pools 1..max_dice both ways (AM-3, AM-4, AM-5) and P(a crit on
    either roll) (AM-7), exact; in melee also P(damage back to the attacker) (AM-3)."""
    from toolkit.angry_miniatures import opposed
    from toolkit.angry_miniatures.rules import check_attack_type, check_pool

    max_dice, attack_type = sizes["max_dice"], sizes["attack_type"]
    check_pool(max_dice, "max_dice")
    check_attack_type(attack_type)
    pools = range(1, max_dice + 1)
    outcomes = {(a, d): opposed(a, d, attack_type, rules) for a in pools for d in pools}
    asked = outcomes[1, 1].question.but(sizes=f"{span(pools)} v {span(pools)} dice", size=None)
    results = tuple(outcomes.values())
    damage = grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.hit)))
    tables = [Table(AM_DAMAGE, damage, "", asked, results)]
    if attack_type == "melee":
        back = grid(pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.attacker_damage > 0)))
        tables.append(Table(AM_RETURN, back, "", asked, results))
    crit = grid(
        pools, pools, lambda a, d: Cell(a, d, outcomes[a, d].probability(lambda o: o.attacker_crit or o.defender_crit))
    )
    return [*tables, Table(AM_CRIT, crit, "", asked, results)]
