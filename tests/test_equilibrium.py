"""The sequence-form solver against games whose values are known independently.

References: Kuhn poker's value for the first player, -1/18 (Kuhn 1950; the classic
worked example of imperfect-information games), rock-paper-scissors (value 0, the
uniform mix is the only equilibrium), and a best response worked out by hand.
"""

from dataclasses import dataclass
from fractions import Fraction

import pytest

from toolkit.engine import CHANCE, TERMINAL, GameState
from toolkit.equilibrium import best_response, build_tree, profile_value, solve
from toolkit.errors import TooBigError, ToolkitError

CARDS = ("J", "Q", "K")


@dataclass(frozen=True)
class Kuhn(GameState):
    """Kuhn poker: each antes 1, one card each from J Q K; first checks or bets 1; ..."""

    cards: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()

    @property
    def current_player(self) -> str:
        if len(self.cards) < 2:
            return CHANCE
        if self._over():
            return TERMINAL
        return ("first", "second")[len(self.moves) % 2]

    @property
    def events(self):
        return ()

    def _over(self) -> bool:
        m = self.moves
        return m in (
            ("check", "check"),
            ("bet", "call"),
            ("bet", "fold"),
            ("check", "bet", "call"),
            ("check", "bet", "fold"),
        )

    def _chance_outcomes(self):
        rest = [c for c in CARDS if c not in self.cards]
        return [(c, Fraction(1, len(rest))) for c in rest]

    def _legal_actions(self):
        return ["call", "fold"] if self.moves and self.moves[-1] == "bet" else ["check", "bet"]

    def _apply(self, action):
        if len(self.cards) < 2:
            return Kuhn(self.cards + (action,), self.moves)
        return Kuhn(self.cards, self.moves + (action,))

    def payoff(self) -> Fraction:
        m = self.moves
        if m[-1] == "fold":
            return Fraction(1 if len(m) % 2 == 0 else -1)  # the bettor wins the ante
        stake = 2 if "bet" in m else 1
        win = CARDS.index(self.cards[0]) > CARDS.index(self.cards[1])
        return Fraction(stake if win else -stake)


def kuhn_tree():
    return build_tree(
        Kuhn(),
        players=("first", "second"),
        information=lambda s, p: (s.cards[p], s.moves),
        value=lambda s: s.payoff(),
    )


def test_kuhn_poker_value_is_minus_one_eighteenth():
    sol = solve(kuhn_tree())
    assert sol.verified
    assert sol.value == Fraction(-1, 18)
    assert sol.exploitability == 0


def test_kuhn_poker_first_player_bets_jack_at_most_a_third():
    # Kuhn's family of equilibria: the first player bluffs a Jack with alpha <= 1/3 and
    # bets a King with 3 * alpha.
    tree = kuhn_tree()
    sol = solve(tree)
    mixes = {info.key: mix for info, mix in zip(tree.infosets[0], sol.strategies[0], strict=True)}
    alpha = mixes[("J", ())]["bet"]
    assert 0 <= alpha <= Fraction(1, 3)
    assert mixes[("K", ())]["bet"] == 3 * alpha


def test_best_response_to_always_bet_by_hand():
    # Second player facing a first player who always bets: calling with K wins 2, with Q
    # wins 2 against J and loses 2 against K, folding loses 1. Best: call K, call Q iff
    # it pays (against J or K: +2 or -2, average 0 > -1), fold J (-1 rather than -2).
    tree = kuhn_tree()
    always_bet = [
        {"check": Fraction(0), "bet": Fraction(1)}
        if "bet" in mix_info.actions
        else {a: Fraction(1, len(mix_info.actions)) for a in mix_info.actions}
        for mix_info in tree.infosets[0]
    ]
    value, strategy = best_response(tree, 1, always_bet)
    # first player's payoff: J bets: vs Q call (-2), vs K call (-2); Q bets: vs J fold (+1), vs K call (-2);
    # K bets: vs J fold (+1), vs Q call (+2) -> (-2 -2 +1 -2 +1 +2) / 6 = -1/3
    assert value == Fraction(-1, 3)
    assert profile_value(tree, (always_bet, strategy)) == value


@dataclass(frozen=True)
class RPS(GameState):
    moves: tuple[str, ...] = ()

    @property
    def current_player(self):
        return TERMINAL if len(self.moves) == 2 else ("one", "two")[len(self.moves)]

    @property
    def events(self):
        return ()

    def _legal_actions(self):
        return ["rock", "paper", "scissors"]

    def _apply(self, action):
        return RPS(self.moves + (action,))


def rps_value(s: RPS) -> Fraction:
    beats = {("rock", "scissors"), ("paper", "rock"), ("scissors", "paper")}
    a, b = s.moves
    return Fraction(1 if (a, b) in beats else -1 if (b, a) in beats else 0)


def test_rock_paper_scissors_uniform():
    tree = build_tree(RPS(), players=("one", "two"), information=lambda s, p: (), value=rps_value)
    sol = solve(tree)
    assert sol.value == 0 and sol.verified
    assert sol.strategies[0][0] == {a: Fraction(1, 3) for a in ("rock", "paper", "scissors")}


def test_an_unexact_strategy_shows_its_exploitability():
    tree = build_tree(RPS(), players=("one", "two"), information=lambda s, p: (), value=rps_value)
    rocky = [{"rock": Fraction(1, 2), "paper": Fraction(1, 4), "scissors": Fraction(1, 4)}]
    # against half rock, paper earns 1/2 - 1/4 = 1/4; against it, the other's best earns the same
    assert best_response(tree, 0, rocky)[0] == Fraction(1, 4)
    assert best_response(tree, 1, rocky)[0] == Fraction(-1, 4)


def test_perfect_recall_is_checked():
    # the second player "forgets" nothing but the first is told to forget her own move
    with pytest.raises(ToolkitError, match="perfect recall"):
        build_tree(
            Kuhn(),
            players=("first", "second"),
            information=lambda s, p: (s.cards[p], len(s.moves)),
            value=lambda s: s.payoff(),
        )


def test_node_limit_stops_the_walk():
    with pytest.raises(TooBigError, match="more than 10 nodes"):
        build_tree(
            Kuhn(),
            players=("first", "second"),
            information=lambda s, p: (s.cards[p], s.moves),
            value=lambda s: s.payoff(),
            node_limit=10,
        )


def test_exact_vertex_recovery_when_rounding_fails():
    # Rounding the LP's strategies to whole numbers (denominator 1) cannot give Kuhn's
    # mixed equilibrium; the exact recovery of the LP's vertex (a linear system in
    # fractions) must still find one: value -1/18, exploitability 0.
    sol = solve(kuhn_tree(), denominators=(1,))
    assert sol.verified
    assert sol.value == Fraction(-1, 18)
