"""The coin duel's exact odds, its headline table (the rule-change report) and its sweep
calculator."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from coin_duel.engine import heads_chances
from coin_duel.rules import Rules
from toolkit.plugin.calculator import Calculator, Param, result_rows
from toolkit.plugin.headline import Cell, Reach, Table, TableSpec, grid, size_list
from toolkit.prob import Distribution

__all__ = ["REACH", "SIZES", "WINS", "calculators", "duel_odds", "tables"]


def duel_odds(coins_a: int, coins_b: int, rules: Rules | None = None) -> Distribution[str]:
    """Return the exact distribution of the duel's end: ``"first"``, ``"second"`` or
    ``"draw"``. One throw ends with p(first), p(second) or a tie; a tie is rerolled
    ``tie_rerolls`` times (CD-2), so P(first) = p(first) * (1 + t + ... + t^R)."""
    rules = rules or Rules()
    a, b = heads_chances(coins_a), heads_chances(coins_b)
    first = sum((p * q for i, p in a for j, q in b if i > j), Fraction(0))
    second = sum((p * q for i, p in a for j, q in b if i < j), Fraction(0))
    tie = 1 - first - second
    rounds = sum(tie**k for k in range(rules.tie_rerolls + 1))
    return Distribution({"first": first * rounds, "second": second * rounds, "draw": tie ** (rules.tie_rerolls + 1)})


#: The table's sizes with their defaults.
SIZES: dict[str, Any] = {"coins": [1, 2, 3]}

WINS = TableSpec(
    "first_wins",
    "P(the first side wins)",
    "first side's coins",
    "second side's coins",
    "a {row}-coin side against {column}",
    "wins",
)


#: The largest pool bounds what a duel may be set up with, not its odds (CD-1).
REACH = Reach(
    unseen={"max_coins": "the stepper, whose pools it bounds: start_duel(coins_a, coins_b, rules) refuses a bigger one"}
)


def tables(rules: Rules, sizes: Mapping[str, Any]) -> list[Table]:
    """P(the first side wins) over both pools, exact."""
    pools = size_list(sizes["coins"], "coins", 1)
    return [Table(WINS, grid(pools, pools, lambda a, b: Cell(a, b, duel_odds(a, b, rules).probability("first"))))]


def calculators() -> list[Calculator]:
    """The coin duel's one sweep calculator: :func:`duel_odds`."""
    pools = tuple(Param(f"coins_{s}", "int", low=1, high=10, help=f"side {s}'s pool (CD-1)") for s in ("a", "b"))
    return [
        Calculator(
            "coin-duel",
            "duel_odds",
            pools,
            lambda a, r: duel_odds(a["coins_a"], a["coins_b"], r),
            result_rows,
            help="how a duel ends (CD-1, CD-2)",
        )
    ]
