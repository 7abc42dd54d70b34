"""Questions about the Durak battle that need many clashes played, for reports.

:func:`suit_values` asks what one more card of each suit is worth in a clash (DB-1:
the suit is the action): deal two random hands, give side a one extra card of a suit
from the rest of the deck, and compare the clash's minimax value (both playing best
with both hands known, :func:`~.odds.clash_value`) with and without it. Each clash is
solved exactly; only the average over deals is sampled (Monte Carlo, with intervals).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle.clash import suit_action
from toolkit.durak_battle.odds import clash_value
from toolkit.durak_battle.rules import SUIT_WORDS, Rules
from toolkit.errors import InvalidSetupError
from toolkit.montecarlo import z_for
from toolkit.numbers import interval_text

__all__ = ["SuitValue", "suit_values", "suit_label"]


@dataclass(frozen=True)
class SuitValue:
    """The mean gain, in tokens (b's losses minus a's), of one extra card of a suit."""

    suit: str
    trials: int
    mean: float
    half_width: float  # of the interval at ``confidence``
    action_label: str = ""  # the action the suit gives under the rules in force (DB-1)
    confidence: float = 0.95

    @property
    def label(self) -> str:
        """The card compared, by its action: ``"attack (spade)"`` (DB-1, under the rules in force)."""
        return self.action_label or suit_label(self.suit)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mean - self.half_width, self.mean + self.half_width)

    def text(self, level: bool = True) -> str:
        """The mean gain and its interval (:func:`~toolkit.numbers.interval_text`),
        ``'+0.52 ± 0.09 (95%)'``; ``level=False`` for a table that states it once."""
        return interval_text(self.mean, *self.interval, self.confidence, percent=False, signed=True, level=level)


def suit_values(
    cards: int = 4, trials: int = 300, rules: Rules | None = None, seed: int = 0, confidence: float = 0.95
) -> list[SuitValue]:
    """Return, for each suit (and the joker when ``rules.jokers``), the mean gain in the
    clash's minimax value (tokens b loses minus tokens a loses) of giving side a one extra
    card of that suit, over ``trials`` random deals of ``cards`` cards each (DB-1..DB-6),
    with its normal interval at ``confidence`` (the toolkit's one level, 95%).

    The same deals are used for every suit, so the differences between suits are paired.

    Raises:
        InvalidSetupError: fewer than 1 card or trials, or hands too big to solve quickly.
    """
    rules = rules or Rules()
    if not 1 <= cards <= 6:
        raise InvalidSetupError(f"cards must be 1 to 6 (each clash is solved exactly), got {cards!r}")
    if trials < 2:
        raise InvalidSetupError(f"trials must be at least 2, got {trials!r}")
    rng = random.Random(seed)
    deck = list(standard_deck(rules.jokers))
    suits = ["S", "H", "D", "C"] + (["JK"] if rules.jokers else [])
    gains: dict[str, list[Fraction]] = {s: [] for s in suits}
    for _ in range(trials):
        dealt = rng.sample(deck, 2 * cards)
        a, b = dealt[:cards], dealt[cards:]
        base = clash_value(a, b, rules).value
        rest = [c for c in deck if c not in dealt]
        for s in suits:
            pool = [c for c in rest if (c.is_joker if s == "JK" else c.suit == s)]
            if not pool:
                continue
            extra: Card = rng.choice(pool)
            gains[s].append(Fraction(clash_value([*a, extra], b, rules).value) - Fraction(base))
    z = z_for(confidence)
    out = []
    for s in suits:
        xs = gains[s]
        n = len(xs)
        exact_mean = sum(xs) / n  # exact (Fractions), worked out once
        mean = float(exact_mean)
        var = float(sum((x - exact_mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
        out.append(SuitValue(s, n, mean, z * math.sqrt(var / n), suit_label(s, rules), confidence))
    return out


def suit_label(suit: str, rules: Rules | None = None) -> str:
    """Return how a report names the cards of ``suit`` (``"JK"`` for the jokers): the
    action it gives under ``rules`` and the suit, ``"attack (spade)"`` (DB-1)."""
    if suit == "JK":
        return "joker"
    return f"{suit_action(suit, rules)} ({SUIT_WORDS[suit][0]})"
