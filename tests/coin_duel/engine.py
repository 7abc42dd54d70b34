"""The coin duel's engine and referee: one chance node per side's flip (the number of
heads, binomial), the referee's verdict after both (CD-2)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb

from coin_duel.narration import narrate
from coin_duel.rules import Rules
from toolkit.engine import CHANCE, TERMINAL, Event, GameState
from toolkit.errors import InvalidSetupError
from toolkit.narration import narrated

__all__ = ["DuelState", "heads_chances", "judge", "start_duel"]


def heads_chances(coins: int) -> list[tuple[int, Fraction]]:
    """Return ``(heads, probability)`` for a pool of ``coins`` fair coins (CD-1)."""
    return [(k, Fraction(comb(coins, k), 2**coins)) for k in range(coins + 1)]


def judge(heads: tuple[int, int], rerolls: int, rules: Rules) -> str:
    """Return the verdict of one throw (CD-2): ``"0"`` or ``"1"`` (the side with more
    heads wins), ``"reroll"`` (a tie with rerolls left) or ``"draw"``."""
    if heads[0] != heads[1]:
        return "0" if heads[0] > heads[1] else "1"
    return "reroll" if rerolls < rules.tie_rerolls else "draw"


@dataclass(frozen=True)
class DuelState(GameState):
    """A coin duel: the sides' names and pools, the heads of the throw so far, the
    rerolls used, the winner (a name, ``""`` for a draw, ``None`` while it goes on)."""

    names: tuple[str, str]
    coins: tuple[int, int]
    rules: Rules
    heads: tuple[int, ...] = ()
    rerolls: int = 0
    winner: str | None = None
    log_events: tuple[Event, ...] = ()

    @property
    def current_player(self) -> str:
        return TERMINAL if self.winner is not None else CHANCE

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log_events

    def _chance_outcomes(self) -> Sequence[tuple[Hashable, Fraction]]:
        return heads_chances(self.coins[len(self.heads)])

    def prompt(self) -> str:
        if self.winner is not None:
            return "Finished."
        return f"{self.names[len(self.heads)]} flips {self.coins[len(self.heads)]} coins."

    def _apply(self, action: Hashable) -> GameState:
        assert isinstance(action, int)
        side = len(self.heads)
        cast = dict(enumerate(self.names))
        flip = narrated(
            "flip", {"side": side, "coins": self.coins[side], "heads": action}, cast, narrate, ruling="CD-1"
        )
        heads = (*self.heads, action)
        events = (*self.log_events, flip)
        if len(heads) < 2:
            return replace(self, heads=heads, log_events=events)
        verdict = judge((heads[0], heads[1]), self.rerolls, self.rules)
        if verdict == "reroll":
            said = narrated("tie", {"heads": action}, cast, narrate, ruling="CD-2")
            return replace(self, heads=(), rerolls=self.rerolls + 1, log_events=(*events, said))
        if verdict == "draw":
            said = narrated("draw", {"winner": ""}, cast, narrate, ruling="CD-2")
            return replace(self, heads=heads, winner="", log_events=(*events, said))
        won = self.names[int(verdict)]
        said = narrated("win", {"winner": won}, cast, narrate, ruling="CD-2")
        return replace(self, heads=heads, winner=won, log_events=(*events, said))


def start_duel(
    coins_a: int, coins_b: int, rules: Rules | None = None, names: tuple[str, str] = ("Ann", "Bo")
) -> DuelState:
    """Return the start of a duel of ``coins_a`` against ``coins_b`` coins (CD-1).

    Raises:
        InvalidSetupError: a pool that is not a whole number from 1 to ``max_coins``, or two
            sides of the same name.
    """
    rules = rules if rules is not None else Rules()
    for coins in (coins_a, coins_b):
        if isinstance(coins, bool) or not isinstance(coins, int) or not 1 <= coins <= rules.max_coins:
            raise InvalidSetupError(f"a pool is a whole number of coins from 1 to {rules.max_coins}, got {coins!r}")
    if names[0] == names[1]:
        raise InvalidSetupError(f"the two sides need two names, got {names[0]!r} twice")
    opening = narrated("setup", {"coins": (coins_a, coins_b)}, dict(enumerate(names)), narrate)
    return DuelState(tuple(names), (coins_a, coins_b), rules, log_events=(opening,))  # type: ignore[arg-type]
