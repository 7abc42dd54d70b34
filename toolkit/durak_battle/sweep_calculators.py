"""The Durak battle calculators a sweep can run (:mod:`toolkit.sweeps.calculators`): the
exact value of a clash between known hands, the tokens lost in one clash of two hand
sizes (DB-1..DB-7) and how a whole battle ends (DB-1..DB-9), with their arguments and bounds.
"""

from __future__ import annotations

from typing import Any

from toolkit.odds_result import MAX_TRIALS
from toolkit.plugin.calculator import Calculator, Param, Row, interval_of, value_rows

__all__ = ["calculators"]


def calculators() -> list[Calculator]:
    """Return the Durak battle calculators a sweep can run (the system's ``calculators`` hook)."""
    from toolkit.durak_battle import POLICIES, Army, Leader, battle_outcome, clash_losses, clash_value
    from toolkit.durak_battle.odds import DEFAULT_BATTLE_TRIALS, DEFAULT_TRIALS, EXACT_LIMIT, exact_size
    from toolkit.durak_battle.rules import MAX_TOKENS

    system = "durak-battle"
    policies = Param("policies", "policies", ("greedy", "greedy"), choices=tuple(POLICIES), help="each side's play")
    method = Param("method", "choice", "auto", choices=("auto", "exact", "monte_carlo"), help="exact or Monte Carlo")
    seed = Param("seed", "int", 0, low=0, high=2**31, help="Monte Carlo seed")
    tokens = (("lost_a", "tokens"), ("lost_b", "tokens"))  # what a clash costs each side (DB-4, DB-5)

    def losses_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str] | None:
        if args["method"] != "exact":
            return None
        return (exact_size(args["cards_a"], args["cards_b"], rules), EXACT_LIMIT, "method: auto or monte_carlo")

    def losses_rows(result: Any) -> list[Row]:
        pairs = result.distribution.map(lambda o: (o[0], o[1]))
        rows = [Row(f"lost_a={a}, lost_b={b}", "probability", p, float(p), result.exact) for (a, b), p in pairs.items()]
        if result.exact:
            return rows
        bounds = [interval_of(result, lambda o, pair=pair: (o[0], o[1]) == pair) for pair in pairs.outcomes()]
        return [r._replace(low=low, high=high) for r, (low, high) in zip(rows, bounds, strict=True)]

    def battle_rows(result: Any) -> list[Row]:
        ends = result.distribution.map(lambda e: (e.winner or "none", e.how))
        rows = [Row(f"winner={w}, how={h}", "probability", p, float(p), result.exact) for (w, h), p in ends.items()]
        if not result.exact:
            bounds = [
                interval_of(result, lambda e, end=end: (e.winner or "none", e.how) == end) for end in ends.outcomes()
            ]
            rows = [r._replace(low=low, high=high) for r, (low, high) in zip(rows, bounds, strict=True)]
        rounds = result.distribution.mean("rounds")
        return rows + [Row("mean rounds", "value", rounds, float(rounds), result.exact)]

    def army(name: str, a: dict[str, Any], side: str) -> Army:
        leader = Leader(f"{name}'s leader", a[f"battle_die_{side}"], a[f"spirit_die_{side}"], a[f"wild_card_{side}"])
        return Army(name, a[f"tokens_{side}"], leader)

    side_params: tuple[Param, ...] = ()
    for side in ("a", "b"):
        side_params += (
            Param(f"tokens_{side}", "int", low=1, high=MAX_TOKENS, help=f"army {side}'s tokens (DB-7)"),
            Param(f"battle_die_{side}", "die", "d6", help=f"army {side}'s leader's Knowledge (Battle) die (DB-2)"),
            Param(f"spirit_die_{side}", "die", "d6", help=f"army {side}'s leader's Spirit die (DB-8)"),
            Param(f"wild_card_{side}", "bool", True, help=f"whether army {side}'s leader is a Wild Card"),
        )
    return [
        Calculator(
            system,
            "clash_value",
            (Param("hand_a", "cards", help="side a's cards"), Param("hand_b", "cards", help="side b's cards")),
            lambda a, r: clash_value(a["hand_a"], a["hand_b"], r),
            lambda v: value_rows({"value": v.value, "lost_a": v.lost_a, "lost_b": v.lost_b}),
            seconds=0.01,
            help="one clash with both hands known: the exact minimax value and losses (DB-3..DB-7)",
            units=tokens,
        ),
        Calculator(
            system,
            "clash_losses",
            (
                Param("cards_a", "int", low=0, high=27, help="side a's hand size"),
                Param("cards_b", "int", low=0, high=27, help="side b's hand size"),
                policies,
                method,
                Param("trials", "int", DEFAULT_TRIALS, low=1, high=MAX_TRIALS, help="Monte Carlo clashes"),
                seed,
            ),
            lambda a, r: clash_losses(
                a["cards_a"], a["cards_b"], a["policies"], r, a["method"], a["trials"], a["seed"]
            ),
            losses_rows,
            size=losses_size,
            seconds=1.0,
            max_points=20_000,
            help="the tokens each side loses in one clash of two hand sizes (clash odds, DB-1..DB-7)",
            shares=("cards_a", "cards_b"),
            units=tokens,
        ),
        Calculator(
            system,
            "battle_outcome",
            side_params
            + (
                policies,
                Param("max_rounds", "int", 50, low=1, high=1000, help="rounds before 'undecided'"),
                method,
                Param(
                    "trials", "int", DEFAULT_BATTLE_TRIALS, low=1, high=MAX_TRIALS, help="Monte Carlo clashes per pair"
                ),
                seed,
            ),
            lambda a, r: battle_outcome(
                army("a", a, "a"),
                army("b", a, "b"),
                r,
                a["policies"],
                a["max_rounds"],
                a["method"],
                a["trials"],
                a["seed"],
            ),
            battle_rows,
            seconds=5.0,
            max_points=5_000,
            help="how a whole battle ends: winner and how (retreat, destroyed, undecided), mean rounds (DB-1..DB-9)",
            units=(("mean rounds", "rounds"),),
            headline="winner",
        ),
    ]
