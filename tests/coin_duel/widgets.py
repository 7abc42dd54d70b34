"""The coin duel's widgets: the generic stepper on a duel, an odds explorer, and the
rules' controls (bounded by the rules' own bounds)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from coin_duel.engine import start_duel
from coin_duel.headline import duel_odds
from coin_duel.rules import BOUNDS, Rules
from toolkit.widgets.explorer import OddsExplorer
from toolkit.widgets.stepper import Stepper

__all__ = ["duel_stepper", "odds_explorer", "rule_controls"]


def duel_stepper(coins_a: int = 2, coins_b: int = 2, rules: Rules | None = None, seed: int = 0) -> Stepper:
    """Return the generic stepper on a duel."""
    return Stepper(start_duel(coins_a, coins_b, rules), seed=seed, title="Coin duel")


def rule_controls(rules: Rules) -> dict[str, widgets.IntSlider]:
    """Return a slider per whole-number field, bounded as the rules validate it."""
    return {
        name: widgets.IntSlider(value=getattr(rules, name), min=low, max=high, description=Rules.field_label(name))
        for name, (low, high) in BOUNDS.items()
    }


def odds_explorer(coins_a: int = 2, coins_b: int = 2, rules: Rules | None = None) -> OddsExplorer:
    """Return an explorer of :func:`duel_odds` over both pools."""
    rules = rules or Rules()
    pools = {
        f"coins_{s}": widgets.IntSlider(value=v, min=1, max=rules.max_coins, description=f"coins {s}")
        for s, v in (("a", coins_a), ("b", coins_b))
    }

    def score(outcome: Any) -> int:
        return {"first": 1, "second": -1}.get(outcome, 0)

    return OddsExplorer(
        pools,
        lambda coins_a, coins_b: duel_odds(coins_a, coins_b, rules),
        score,
        positive="first side wins",
        negative="second side wins",
        zero="draw",
        title="Coin duel",
    )
