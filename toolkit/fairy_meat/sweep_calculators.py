"""The Fairy Meat calculators a sweep can run (:mod:`toolkit.sweeps.calculators`): hand
composition (FM-1, FM-12), attack odds between known hands and averaged over every deal
(FM-1..FM-12), and the known- and hidden-hands solvers, with their arguments and bounds.
"""

from __future__ import annotations

from typing import Any

from toolkit.odds_result import MAX_TRIALS
from toolkit.plugin.calculator import Calculator, Param, Row, result_rows, value_rows

__all__ = ["calculators"]


def calculators() -> list[Calculator]:
    """Return the Fairy Meat calculators a sweep can run (the system's ``calculators`` hook)."""
    from toolkit.fairy_meat import (
        POLICIES,
        attack_odds,
        deal_averaged_odds,
        hand_composition,
        solve_attack,
        solve_hidden,
    )
    from toolkit.fairy_meat.odds import DEFAULT_TRIALS, EXACT_LIMIT, GENERIC_EXACT_LIMIT, exact_size
    from toolkit.fairy_meat.strategy import HIDDEN_LIMIT, hidden_size

    system = "fairy-meat"
    policies = Param(
        "policies", "policies", ("greedy", "greedy"), choices=tuple(POLICIES), help="the two fairies' play"
    )
    hands = (
        Param("attacker_hand", "cards", help="the attacker's combat hand"),
        Param("defender_hand", "cards", help="the defender's combat hand (may be empty, FM-7)"),
    )
    method = Param("method", "choice", "auto", choices=("auto", "exact", "monte_carlo"), help="exact or Monte Carlo")

    def deal_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str] | None:
        if args["method"] != "exact":
            return None
        from toolkit.fairy_meat.odds.checks import resolve_policies
        from toolkit.fairy_meat.odds.deals import model_pair

        # the limit deal_averaged_odds applies: the standard policies' models, or the generic count
        limit = (
            EXACT_LIMIT if model_pair(resolve_policies(args["policies"]), rules) is not None else GENERIC_EXACT_LIMIT
        )
        return (
            exact_size(args["attacker_cards"], args["defender_cards"], args["policies"], rules),
            limit,
            "method: auto or monte_carlo",
        )

    def deal_rows(result: Any) -> list[Row]:
        return result_rows(result)

    def solution_rows(s: Any) -> list[Row]:
        return value_rows({"value": s.value, "lower": s.lower, "upper": s.upper, "exploitability": s.exploitability})

    def hidden_rows(s: Any) -> list[Row]:
        return value_rows(
            {
                "value": s.value,
                "lower": s.lower,
                "upper": s.upper,
                "exploitability": s.exploitability,
                "iterations": float(s.iterations),
            }
        )

    sizes = (
        Param("attacker_cards", "int", low=1, high=52, help="the attacker's hand size (FM-2)"),
        Param("defender_cards", "int", low=0, high=51, help="the defender's hand size (FM-2, FM-7)"),
    )
    return [
        Calculator(
            system,
            "hand_composition",
            (Param("cards", "int", low=0, high=52, help="the hand size (FM-1)"),),
            lambda a, r: hand_composition(a["cards"], r),
            result_rows,
            seconds=0.001,
            help="what a combat hand holds: Numbered cards, red and black Trumps, the death card, jokers (FM-1, FM-12)",
        ),
        Calculator(
            system,
            "attack_odds",
            hands + (policies,),
            lambda a, r: attack_odds(a["attacker_hand"], a["defender_hand"], a["policies"], r),
            result_rows,
            seconds=0.01,
            help="one attack between two known hands under two policies (FM-3..FM-12)",
            headline="winner",
        ),
        Calculator(
            system,
            "deal_averaged_odds",
            sizes
            + (
                policies,
                method,
                Param("trials", "int", DEFAULT_TRIALS, low=1, high=MAX_TRIALS, help="Monte Carlo trials"),
                Param("seed", "int", 0, low=0, high=2**31, help="Monte Carlo seed"),
            ),
            lambda a, r: deal_averaged_odds(
                a["attacker_cards"], a["defender_cards"], a["policies"], r, a["method"], a["trials"], a["seed"]
            ),
            deal_rows,
            size=deal_size,
            seconds=0.15,
            max_points=20_000,
            help="one attack averaged over every deal of two hand sizes (FM-1, FM-2)",
            # one pair of hand sizes shares its deals and plays under every rules variant; the
            # tables of one hand size (its draws) and the referee's judgements under one rules
            # variant serve every pair: pairs dealt to the workers so that each sees every size
            shares=("attacker_cards", "defender_cards"),
            deal_groups=True,
            headline="winner",
        ),
        Calculator(
            system,
            "solve_attack",
            hands[:1]
            + (
                Param("defender_hand", "cards", help="the defender's combat hand"),
                Param("attacks", "int", 1, low=1, high=52, help="attacks from these hands (FM-13)"),
            ),
            lambda a, r: solve_attack(a["attacker_hand"], a["defender_hand"], r, attacks=a["attacks"]),
            solution_rows,
            seconds=0.5,
            max_points=20_000,
            help="the exact equilibrium of an attack between known hands (known-hands solver)",
        ),
        Calculator(
            system,
            "solve_hidden",
            (
                Param("attacker_cards", "int", low=1, high=52, help="the attacker's hand size"),
                Param("defender_cards", "int", low=1, high=51, help="the defender's hand size"),
                Param("target", "float", 0.01, low=1e-9, high=1.0, help="stop at this exploitability share"),
                Param("max_iterations", "int", 2000, low=1, high=10**6, help="CFR+ iterations at most"),
                Param("time_limit", "float", 60.0, low=0.1, high=86_400.0, help="seconds per point at most"),
            ),
            lambda a, r: solve_hidden(
                a["attacker_cards"],
                a["defender_cards"],
                r,
                target=a["target"],
                max_iterations=a["max_iterations"],
                time_limit=a["time_limit"],
            ),
            hidden_rows,
            size=lambda a, r: (
                hidden_size(a["attacker_cards"], a["defender_cards"], r),
                HIDDEN_LIMIT,
                "smaller hands, or deal_averaged_odds with fixed policies",
            ),
            seconds=5.0,
            max_points=5_000,
            help="one attack with hidden hands, solved by CFR+ (hidden-hands solver; floats, measured bounds)",
        ),
    ]
