"""The draft's Tactical Considerations, tested with optimal play: each
consideration is checked against what the solver's best play does.

The Fairy Meat draft makes claims a designer wants checked: going for extreme values
versus bringing values back to the middle (5–6), the attacker being able to take more
risk than the defender, attacking first versus second, and the value of tracking the
cards played. These functions answer them with numbers from solved games:

- :func:`style_study` deals random known hands (exact per deal, Monte Carlo over deals,
  each mean with its 95% interval) and compares four ways to play — the equilibrium, ``greedy``
  (always the most extreme value), ``cautious`` (values back towards 6, the draft's "safe
  option") and ``random`` — against each other, and measures how extreme each side's
  optimal play is.
- :func:`round_study` plays a round of two attacks — X attacks Y, then Y, if still up,
  attacks X back with the extra cards her defence earned (FM-11) — optimally attack by
  attack, and compares going first with going second.

Each per-deal number is exact (:func:`~.optimal.solve_attack`, verified); the averages
over deals are sample means, each written with its 95% interval (Student's, from its
standard error over the deals).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.cards import Card, Pile, parse_cards, standard_deck
from toolkit.errors import InvalidSetupError, TooBigError, excerpt
from toolkit.fairy_meat.engine import PLAYERS, CombatState
from toolkit.fairy_meat.legality import matches
from toolkit.fairy_meat.policies import MIDPOINT
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.optimal import AttackSolution, solve_attack
from toolkit.fairy_meat.strategy.payoff import Payoff
from toolkit.numbers import interval_text
from toolkit.odds_result import student_t
from toolkit.prob import Distribution
from toolkit.shipped import shipped_path
from toolkit.whole_numbers import whole_number

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "STYLES",
    "Mean",
    "StyleStudy",
    "RoundStudy",
    "WorkedExample",
    "deal_hands",
    "style_study",
    "round_study",
    "extremeness",
    "planned_policy",
    "worked_example",
    "DIZZY_FIRST",
    "SPARKY_FIRST",
    "SPARKY_SECOND",
]

#: The ways of playing compared: the equilibrium and the named policies.
STYLES = ("equilibrium", "greedy", "cautious", "random")

#: Deals a study solves at most quickly (a side without a Numbered card turns up cards
#: and makes the game far bigger: such deals above this size are left out and counted).
QUICK_SIZE = 20_000


@dataclass(frozen=True)
class Mean:
    """A sample mean over deals, with its standard error; written with its 95% interval
    (:meth:`text`), the toolkit's one level."""

    mean: float
    stderr: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        n = len(values)
        if n == 0:
            return cls(float("nan"), float("nan"), 0)
        m = sum(values) / n
        var = sum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return cls(m, math.sqrt(var / n), n)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The mean ± Student's quantile (``n - 1`` degrees of freedom) times its standard
        error: a 12-deal mean's interval is about 2.2 standard errors each side."""
        if self.n < 2:
            return (self.mean, self.mean)
        half = student_t(confidence, self.n - 1) * self.stderr
        return (self.mean - half, self.mean + half)

    def beyond_zero(self, confidence: float = 0.95) -> int:
        """+1 when the whole interval is above zero, -1 when below, 0 when it holds zero."""
        low, high = self.interval(confidence)
        return 1 if low > 0 else -1 if high < 0 else 0

    def text(self, level: bool = True, percent: bool = False, signed: bool = True) -> str:
        """The mean and its 95% interval (:func:`~toolkit.numbers.interval_text`):
        ``'+0.52 ± 0.09 (95%)'``, a share ``'5.5% ± 4.1% (95%)'`` with ``percent``;
        ``level=False`` for a table that states the level once."""
        if self.n < 2:  # one deal (or none): a sample without a spread, never shown as if exact
            return (
                "no deal"
                if self.n == 0
                else f"{interval_text(self.mean, self.mean, self.mean, percent=percent)} (one deal: no interval)"
            )
        low, high = self.interval()
        if percent:  # a share's interval stays within 0%..100%
            low, high = max(0.0, low), min(1.0, high)
        return interval_text(self.mean, low, high, percent=percent, signed=signed and not percent, level=level)

    def __str__(self) -> str:
        return self.text()


def deal_hands(a: int, d: int, n: int, seed: int = 0, removed: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Return ``n`` random deals of ``a`` and ``d`` cards from the 52-card deck (FM-1)
    less ``removed``, as card-code strings, reproducible from ``seed``."""
    for value, what in ((a, "attacker's cards"), (d, "defender's cards"), (n, "deals")):
        whole_number(value, f"the number of {what}", 1)
    gone = set(parse_cards(removed))
    deck = [c.code for c in standard_deck() if c not in gone]
    if a + d > len(deck):
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from {len(deck)} cards")
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(deck, a + d)
        out.append((" ".join(cards[:a]), " ".join(cards[a:])))
    return out


def _solve_quick(a: str, d: str, rules: Rules, payoff: Payoff) -> AttackSolution | None:
    try:
        return solve_attack(a, d, rules, payoff, size_limit=QUICK_SIZE)
    except TooBigError:
        return None


def extremeness(sol: AttackSolution, side: str) -> Fraction:
    """Return how far from the middle value 6 ``side``'s optimal play aims, on average:
    |Numbered card ± the worth of her own placed Trumps that match it, in her declared
    direction - 6| (FM-3, FM-8: :func:`~toolkit.fairy_meat.legality.matches`, so a joker
    matches every card, and each counts the rules' ``trump_value``), weighted by how likely
    optimal play makes each choice. Wild Trumps (FM-6) are left out (the card is not hers
    to choose)."""
    i = PLAYERS.index(side)  # type: ignore[arg-type]
    total = weight = Fraction(0)
    for d in sol.decisions(side):
        state = d["state"]
        assert isinstance(state, CombatState)
        if state.phase()[0] != "play":
            continue
        sign = 1 if state.declared[i] == "add" else -1
        placed = state.cur.trumps[i] or ()
        for action, p in d["mix"].items():
            verb, _, code = action.partition(" ")
            if verb != "play" or not p:
                continue
            card = Card(code)
            own = sum(1 for c in placed if matches(c.colour, card.colour))
            aim = (card.pips or 0) + sign * own * sol.rules.trump_value
            total += d["chance"] * p * abs(aim - MIDPOINT)
            weight += d["chance"] * p
    return total / weight if weight else Fraction(0)


@dataclass(frozen=True)
class StyleStudy:
    """Styles of play against each other over random known-hand deals.

    Attributes:
        values: (attacker style, defender style) -> mean payoff for the attacker.
        exploits: (side, naive style) -> mean of what the best reply to that style earns
            (attacker's payoff; for the defender, lower is better for her).
        extremeness: side -> mean distance from 6 at which optimal play aims.
        style_extremeness: (side, style) -> the same for greedy and cautious play.
        solved, skipped: deals solved, and deals left out as too big to solve quickly.
    """

    a: int
    d: int
    payoff: Payoff
    values: dict[tuple[str, str], Mean]
    exploits: dict[tuple[str, str], Mean]
    extremeness: dict[str, Mean]
    solved: int
    skipped: int
    per_deal: list[dict] = field(default_factory=list, repr=False)

    def table(self) -> pd.DataFrame:
        """Rows: the attacker's style; columns: the defender's; mean payoff for the attacker."""
        import pandas as pd

        return pd.DataFrame(
            [[self.values[(a, d)].mean for d in STYLES] for a in STYLES],
            index=pd.Index([f"attacker {a}" for a in STYLES], name=""),
            columns=[f"defender {d}" for d in STYLES],
        )

    def cost_of(self, side: str, style: str) -> Mean:
        """Mean payoff lost by ``side`` playing ``style`` instead of the equilibrium, against
        an optimal opponent (positive: it costs her)."""
        key = "attacker" if side == "attacker" else "defender"
        diffs = []
        for row in self.per_deal:
            eq = row[("equilibrium", "equilibrium")]
            other = row[(style, "equilibrium")] if key == "attacker" else row[("equilibrium", style)]
            diffs.append(eq - other if key == "attacker" else other - eq)
        return Mean.of(diffs)


def style_study(
    a: int = 5,
    d: int = 3,
    deals: int = 40,
    seed: int = 1,
    rules: Rules | None = None,
    payoff: Payoff | None = None,
) -> StyleStudy:
    """Return a :class:`StyleStudy` over ``deals`` random deals of ``a`` v ``d`` known cards."""
    rules, payoff = rules or Rules(), payoff or Payoff()
    rows: list[dict] = []
    skipped = 0
    for hand_a, hand_d in deal_hands(a, d, deals, seed):
        sol = _solve_quick(hand_a, hand_d, rules, payoff)
        if sol is None:
            skipped += 1
            continue
        row: dict = {(x, y): float(sol.value_of(x, y)) for x in STYLES for y in STYLES}
        for naive in STYLES[1:]:
            row[("attacker", naive)] = float(sol.best_response_value("attacker", naive))
            row[("defender", naive)] = float(sol.best_response_value("defender", naive))
        row["extreme"] = {s: float(extremeness(sol, s)) for s in PLAYERS}
        rows.append(row)
    return StyleStudy(
        a,
        d,
        payoff,
        values={(x, y): Mean.of([r[(x, y)] for r in rows]) for x in STYLES for y in STYLES},
        exploits={(s, n): Mean.of([r[(s, n)] for r in rows]) for s in PLAYERS for n in STYLES[1:]},
        extremeness={s: Mean.of([r["extreme"][s] for r in rows]) for s in PLAYERS},
        solved=len(rows),
        skipped=skipped,
        per_deal=rows,
    )


@dataclass(frozen=True)
class RoundStudy:
    """Going first or second in a round of two attacks between fairies X and Y.

    Attributes:
        net: who goes first (``"X"`` or ``"Y"``) -> X's mean damage dealt minus damage taken.
        down: who goes first -> (share of rounds where Y is down before attacking back,
            share where X is down at the end).
        dealt, taken: who goes first -> X's mean damage dealt / taken.
    """

    x: tuple[int, int]
    y: tuple[int, int]
    net: dict[str, Mean]
    dealt: dict[str, Mean]
    taken: dict[str, Mean]
    down_first_defender: dict[str, Mean]
    skipped: int


def _attack_outcomes(
    attacker_cards: int, defender_cards: int, deals: int, seed: int, rules: Rules, payoff: Payoff
) -> tuple[list[dict[tuple[int, int], Fraction]], int]:
    """Per random deal: the exact distribution of (damage, defender points) under optimal play."""
    out, skipped = [], 0
    if defender_cards < 1:
        defender_cards = 0
    for hand_a, hand_d in deal_hands(attacker_cards, max(defender_cards, 1), deals, seed):
        if defender_cards == 0:
            hand_d = ""
        sol = _solve_quick(hand_a, hand_d, rules, payoff) if hand_d else None
        if sol is None:
            skipped += 1
            continue
        dist = sol.outcomes(
            lambda s: (s.results[-1].damage, s.results[-1].points if s.results[-1].winner == "defender" else 0)
        )
        out.append(dict(dist.items()))
    return out, skipped


def round_study(
    x: tuple[int, int] = (2, 2),
    y: tuple[int, int] = (2, 2),
    deals: int = 20,
    seed: int = 1,
    rules: Rules | None = None,
    payoff: Payoff | None = None,
) -> RoundStudy:
    """Return a :class:`RoundStudy` for fairies with ``(Live, Kill)`` points ``x`` and ``y``.

    The round (FM-2, FM-10, FM-11): the first attacker draws Kill + 1 cards, the defender
    Live + 1 (she still holds her Order Card); the defender's points become extra cards
    for her attack back (FM-11 a; a single attack has no next defence); damage comes off
    Live, and a fairy at 0 Live is down and cannot attack back. The second attack: Kill
    + 1 + extra cards against Live (the first attacker has used her Order Card). Each
    attack is played optimally on its own with both hands known (the payoff the solver
    maximises is :class:`Payoff`); deals are random and fresh for each attack (the deck
    is treated as full again: the Spoils Heap of the first attack is ignored).
    """
    rules, payoff = rules or Rules(), payoff or Payoff()
    for fairy in (x, y):
        for v, what in zip(fairy, ("Live points", "Kill points"), strict=False):
            whole_number(v, f"{what} of {excerpt(fairy)}", 1)
    net, dealt, taken, down = {}, {}, {}, {}
    skipped = 0
    cache: dict[tuple[int, int], tuple[float, int]] = {}
    firsts: dict[tuple[int, int], tuple[list[dict[tuple[int, int], Fraction]], int]] = {}  # first attacks, by sizes

    def mean_damage(att_cards: int, def_cards: int, s: int) -> float:
        if (att_cards, def_cards) not in cache:
            outs, sk = _attack_outcomes(att_cards, def_cards, deals, s, rules, payoff)
            m = sum(float(p) * dmg for o in outs for (dmg, _), p in o.items()) / max(1, len(outs))
            cache[(att_cards, def_cards)] = (m, sk)
        return cache[(att_cards, def_cards)][0]

    for first in ("X", "Y"):
        (l1, k1), (l2, k2) = (x, y) if first == "X" else (y, x)  # first attacker 1, first defender 2
        if (k1 + 1, l2 + 1) not in firsts:  # fairies alike: going first or second deals the same first attacks
            firsts[(k1 + 1, l2 + 1)] = _attack_outcomes(k1 + 1, l2 + 1, deals, seed, rules, payoff)
        outs, sk = firsts[(k1 + 1, l2 + 1)]
        skipped += sk
        d1s, d2s, downs = [], [], []
        for o in outs:
            d1 = sum(float(p) * dmg for (dmg, _), p in o.items())
            back = 0.0
            down_p = 0.0
            for (dmg, pts), p in o.items():
                if dmg >= l2:
                    down_p += float(p)
                    continue
                back += float(p) * mean_damage(k2 + 1 + pts, l1, seed + 1)
            d1s.append(d1)
            d2s.append(back)
            downs.append(down_p)
        sign = 1 if first == "X" else -1
        net[first] = Mean.of([sign * (a - b) for a, b in zip(d1s, d2s, strict=True)])
        dealt[first] = Mean.of(d1s if first == "X" else d2s)
        taken[first] = Mean.of(d2s if first == "X" else d1s)
        down[first] = Mean.of(downs)
    skipped += sum(sk for _, sk in cache.values())
    return RoundStudy(x, y, net, dealt, taken, down, skipped)


def planned_policy(moves: dict[str, str]) -> Callable[[CombatState], Distribution[Any]]:
    """Return the engine policy that plays fixed moves by step — ``{"declare": "declare
    subtract", "trumps": "trumps KS QC", "play": "play 3D"}`` — and the referee's best
    choice elsewhere (what a fairy of a rule-book example did, as a strategy)."""

    def policy(state: CombatState) -> Distribution[Any]:
        best = state.best_action()
        if best is not None:
            return Distribution.certain(best)
        wanted = moves.get(state.phase()[0])
        legal = state.legal_actions()
        if wanted is None or wanted not in legal:
            wanted = state.parse_action(wanted) if wanted else legal[0]
        return Distribution.certain(wanted)

    return policy


@dataclass(frozen=True)
class WorkedExample:
    """The draft's worked example (Dizzytwig v Sparklespaz) against optimal play.

    Attributes:
        first: the first attack solved (both hands known).
        first_as_played: payoff of the draft's plays in the first attack (exact).
        dizzy_exposed: what Sparklespaz's best reply earns against Dizzy's draft plan.
        sparky_exposed: what Dizzytwig's best reply earns against Sparky's draft plan.
        second: the second attack solved from where the draft's first attack left them.
        second_as_played: expected payoff of the draft's second-attack plays (the cards
            Sparky turns up are chance, so this is an average, exact).
    """

    first: AttackSolution
    first_as_played: Fraction
    dizzy_exposed: Fraction
    sparky_exposed: Fraction
    second: AttackSolution
    second_as_played: Fraction


#: The draft's worked example as data.
WORKED_EXAMPLE = shipped_path("examples", "dizzytwig_v_sparklespaz.yaml")

#: The draft's plays (the Fairy Meat draft's worked example).
DIZZY_FIRST = {"declare": "declare subtract", "trumps": "trumps KS QC", "play": "play 3D"}
SPARKY_FIRST = {"declare": "declare add", "trumps": "trumps KC", "play": "play 2D"}
DIZZY_SECOND = {"trumps": "trumps none", "play": "play 5C"}
SPARKY_SECOND = {"trumps": "points black"}


def worked_example(rules: Rules | None = None, payoff: Payoff | None = None) -> WorkedExample:
    """Return the :class:`WorkedExample`: each attack of the draft's example solved, and
    the draft's own plays valued against it (FM-3..FM-12)."""
    from toolkit.fairy_meat.notation import load_example, plan_example
    from toolkit.fairy_meat.strategy.optimal import solve_combat

    example = load_example(WORKED_EXAMPLE)
    _, states, _ = plan_example(example)
    rules = rules or example.start.rules
    first = solve_attack("KS QC 5C 4C 3D", "2D KC", rules, payoff)
    dizzy, sparky = planned_policy(DIZZY_FIRST), planned_policy(SPARKY_FIRST)
    # the second attack from where the draft's first attack left them; the rest of the
    # deck is shuffled again for the solver (the example stacks the cards Sparky turns up)
    second_state = next(s for s in states if s.attack_no == 1 and s.phase()[0] == "trumps")
    second_state = replace(
        second_state,
        rules=rules,
        pile=Pile((), second_state.pile.remaining(), second_state.pile.discards),
    )
    second = solve_combat(second_state, payoff)
    return WorkedExample(
        first=first,
        first_as_played=first.value_of(dizzy, sparky),
        dizzy_exposed=first.best_response_value("defender", dizzy),
        sparky_exposed=first.best_response_value("attacker", sparky),
        second=second,
        second_as_played=second.value_of(planned_policy(DIZZY_SECOND), planned_policy(SPARKY_SECOND)),
    )
