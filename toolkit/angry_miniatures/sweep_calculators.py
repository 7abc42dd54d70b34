"""The Angry Miniatures calculators a sweep can run (:mod:`toolkit.sweeps.calculators`):
``opposed`` (AM-3..AM-7), ``odds_table`` and ``attacks_to_take_out`` (AM-10), with their
arguments and bounds.

``defence_dice`` was called ``defense_dice`` before; sweep and tuning files written with
that name still load (its alias).

>>> calc = {c.name: c for c in calculators()}["opposed"]
>>> [p.name for p in calc.params]
['attack_dice', 'defence_dice', 'attack_type']
>>> rows = calc.rows(calc.call({"attack_dice": 1, "defence_dice": 0, "attack_type": "ranged"}, None))
>>> sum(r.exact for r in rows)  # one row per outcome: they sum to 1
Fraction(1, 1)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from toolkit.plugin.calculator import Calculator, Param, Row, result_rows

__all__ = ["calculators"]


def calculators() -> list[Calculator]:
    """Return the Angry Miniatures calculators a sweep can run (the system's ``calculators`` hook)."""
    from toolkit.angry_miniatures import ATTACK_TYPES, attacks_to_take_out, odds_table, opposed
    from toolkit.angry_miniatures.odds import MAX_OPPOSED_DICE
    from toolkit.angry_miniatures.repeated import MAX_CAP, MAX_HEALTH

    system = "angry-miniatures"
    pools = (
        Param("attack_dice", "int", low=0, high=MAX_OPPOSED_DICE, help="the attacker's pool (AM-2)"),
        Param(
            "defence_dice",
            "int",
            low=0,
            high=MAX_OPPOSED_DICE,
            help="the defender's pool (AM-2)",
            aliases=("defense_dice",),  # its name in sweep and tuning files written before the rename
        ),
        Param("attack_type", "choice", "melee", choices=tuple(ATTACK_TYPES), help="melee or ranged (AM-3)"),
    )

    def opposed_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str]:
        return (args["attack_dice"] + args["defence_dice"], MAX_OPPOSED_DICE, "fewer dice")

    chances = ("hit", "return_hit", "attacker_crit", "defender_crit")  # the table's probabilities

    def table_rows(frame: Any) -> list[Row]:
        row = frame.iloc[0]
        measures = [c for c in frame.columns if c not in ("attack_dice", "defence_dice")]
        return [
            Row(
                m,
                "chance" if m in chances else "value",
                Fraction(row[m]),
                float(row[m]),
                True,
            )
            for m in measures
        ]

    return [
        Calculator(
            system,
            "opposed",
            pools,
            lambda a, r: opposed(a["attack_dice"], a["defence_dice"], a["attack_type"], r),
            result_rows,
            size=opposed_size,
            seconds=0.002,
            help="the distribution of one attack's outcome (AM-3, AM-4, AM-5, AM-7)",
            shares=("attack_dice", "defence_dice"),
        ),
        Calculator(
            system,
            "odds_table",
            pools,
            lambda a, r: odds_table([a["attack_dice"]], [a["defence_dice"]], a["attack_type"], r),
            table_rows,
            size=opposed_size,
            seconds=0.003,
            help="the opposed table's measures (P hit, expected damage, crits) of one pair of pools",
            units=tuple((m, "%") for m in chances),
            shares=("attack_dice", "defence_dice"),
        ),
        Calculator(
            system,
            "attacks_to_take_out",
            pools[:2]
            + (
                Param("health", "int", low=1, high=MAX_HEALTH, help="the target's Health (AM-10)"),
                pools[2],
                Param("cap", "int", 30, low=1, high=MAX_CAP, help="attacks counted before 'more than cap'"),
            ),
            lambda a, r: attacks_to_take_out(
                a["attack_dice"], a["defence_dice"], a["health"], a["attack_type"], r, a["cap"]
            ),
            result_rows,
            seconds=0.01,
            help="the distribution of the number of attacks to take out a target (AM-10)",
            units=(("outcome", "attacks"),),
            shares=("attack_dice", "defence_dice"),
        ),
    ]
