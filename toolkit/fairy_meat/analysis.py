"""Questions about the Fairy Meat rules that need the engine played out, for reports.

:func:`none_rule_value` measures what the None rule (FM-5) is worth: how often it comes
into play, and how much the owner of the hidden Trumps gains by being allowed to keep
them hidden rather than having to reveal them. It samples deals and plays (Monte Carlo
with 95% intervals) and, at every None-rule moment, judges both choices with the
referee — so the gain per moment is exact, only the average over deals is sampled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from toolkit.engine import Policy, policy_pair
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.engine import CombatState, start_combat
from toolkit.fairy_meat.policies import POLICIES
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.montecarlo import Estimate, z_for

__all__ = ["NoneRuleValue", "none_rule_value"]


@dataclass(frozen=True)
class NoneRuleValue:
    """What the None rule (FM-5) did over ``trials`` sampled first attacks.

    Attributes:
        applies: attacks where one side said None and the other had face-down Trumps.
        kept_hidden: of those, attacks where the owner kept some Trumps hidden.
        gain: the owner's total gain in points (won minus lost) from her best choice over
            revealing everything, summed over the attacks where the rule applied (exact
            per attack, from the referee).
        gain_squares: the sum of squared gains (for the interval of the mean).
    """

    trials: int
    applies: int
    kept_hidden: int
    gain: Fraction
    gain_squares: Fraction

    @property
    def applies_estimate(self) -> Estimate:
        """How often the None rule comes into play."""
        return Estimate(self.applies, self.trials)

    @property
    def mean_gain(self) -> float:
        """The owner's mean gain in points per attack where the rule applies."""
        return float(self.gain / self.applies) if self.applies else 0.0

    def mean_gain_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """A normal-approximation interval for :attr:`mean_gain`, at the toolkit's one level (95%) unless asked."""
        if self.applies < 2:
            return (self.mean_gain, self.mean_gain)
        n = self.applies
        mean = self.gain / n
        var = (self.gain_squares / n - mean * mean) * Fraction(n, n - 1)
        half = z_for(confidence) * (float(var) / n) ** 0.5
        return (float(mean) - half, float(mean) + half)


def _points_for(state: CombatState, side: int) -> int:
    r = state.cur.result or state.results[-1]
    if r.winner is None:
        return 0
    return r.points if r.winner == ("attacker", "defender")[side] else -r.points


def _settle_best(state: CombatState) -> CombatState:
    while state.cur.result is None and state.best_action() is not None:
        state = state.apply(state.best_action())
    return state


def none_rule_value(
    attacker_cards: int,
    defender_cards: int,
    policies: Sequence[str | Policy] = ("greedy", "greedy"),
    rules: Rules | None = None,
    trials: int = 2000,
    seed: int = 0,
) -> NoneRuleValue:
    """Sample ``trials`` first attacks between hands of the given sizes and measure the
    None rule (FM-5): how often it applies, how often the owner keeps Trumps hidden, and
    her gain in points over having to reveal them all.

    Raises:
        InvalidSetupError: sizes below 1, or an unknown policy name.
    """
    rules = rules or Rules()
    if attacker_cards < 1 or defender_cards < 1:
        raise InvalidSetupError("both hands need at least 1 card to place Trumps (FM-4, FM-5)")
    pols = policy_pair(tuple(policies), POLICIES, ("attacker", "defender"))
    rng = random.Random(seed)
    attacker = Fairy("Attacker", live=3, kill=attacker_cards - 1)
    defender = Fairy("Defender", live=defender_cards, kill=1)
    applies = kept = 0
    gain = squares = Fraction(0)
    for _ in range(trials):
        state = start_combat(attacker, defender, rules, attacks=1)
        while not state.is_terminal and state.phase()[0] != "reveal" and state.cur.result is None:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
            else:
                side = ("attacker", "defender").index(state.current_player)
                state = state.apply(pols[side](state).sample(rng))
        if state.phase()[0] != "reveal":
            continue
        applies += 1
        owner = state.phase()[1]
        best = _settle_best(state)
        forced = _settle_best(state.apply("reveal all"))
        result = best.cur.result or best.results[-1]
        if set(result.revealed[("attacker", "defender")[owner]]) != set(state.cur.trumps[owner] or ()):
            kept += 1
        g = Fraction(_points_for(best, owner) - _points_for(forced, owner))
        gain += g
        squares += g * g
    return NoneRuleValue(trials, applies, kept, gain, squares)
