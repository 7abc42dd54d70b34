"""Exact Durak mass-battle odds: hand sizes, initiative, morale, a clash, a whole battle.

Seven calculators, each cross-checked in ``tests/test_durak_battle_odds.py`` against
hand arithmetic from the rule text, brute force over every deal, and the engine
(:mod:`.engine`) enumerated or sampled:

- :func:`hand_size_distribution` — cards drawn at reconnaissance (DB-2);
- :func:`suit_composition` — what an ``n``-card hand holds, by suit (DB-1);
- :func:`initiative` — who attacks first, or no clash, for two hand sizes (DB-3);
- :func:`morale_pass_probability` — a Spirit check after ``k`` tokens lost (DB-8);
- :func:`clash_value` — one clash with both hands known, as a perfect-information game:
  the minimax value, the optimal line, and the value of every action in any position;
- :func:`clash_losses` — tokens lost in one clash for two hand sizes, averaged over every
  deal, under a pair of policies (:mod:`.policies`): exact while small
  (:data:`EXACT_LIMIT`), Monte Carlo over the engine beyond;
- :func:`battle_outcome` — the whole battle as a Markov chain over rounds.

How a clash is computed exactly
-------------------------------
The referee (:func:`~.clash.answer_attack`) judges every answer; this module never
decides one itself. The course of a clash — who attacks next, passes, automatic strikes
(DB-4, DB-6), losses as they happen (DB-7) — is played by the clash state machine,
:class:`~.position.ClashPosition`, the same one the engine's :class:`~.engine.BattleState`
steps (the engine adds tokens, the log, rounds and morale around it). The tests check
the calculators against brute force over every deal of small hands through
:func:`~.engine.start_clash` and :func:`~toolkit.engine.enumerate_outcomes`, and Monte
Carlo over the engine.

1. **Only the order of the cards matters.** The referee compares card values (higher,
   equal, lower) and nothing else (DB-1, DB-5); the policies must too (see
   :mod:`.policies`). So every deal whose cards are in the same order — the same suits
   held by the same side at each distinct rank, the same jokers — plays alike. The
   calculator lists these *deal classes*: a sequence of ``k`` rank levels, each naming
   which side holds which suits at that rank. A class stands for ``C(13, k)`` deals (the
   ranks its levels take), times the ways to hand out the jokers. :func:`exact_size`
   counts the classes; the weights add up to every deal, ``C(N, na) C(N - na, nb)``.
2. **Positions are shared.** Where a policy chooses at random, the positions after each
   choice are renumbered the same way (ranks squeezed to 2, 3, 4, ..., jokers renamed in
   order) and memoised, so a position reached from many deals is played once; a forced
   line (the greedy policy) is simply followed. Swapping the sides (and their policies)
   mirrors a table: 2 v 3 is read off 3 v 2.
3. **Losses as a path.** A clash's result is kept as the sequence of cumulative losses
   ``(a, b)`` after each loss (capped at :data:`~.rules.MAX_TOKENS`), plus who held the
   initiative. From the path, the losses for any armies follow without replaying: DB-7
   floors, and the clash stops when an army reaches 0 (side ``a`` is checked first, as
   the engine does). So a battle needs each pair of hand sizes once, whatever the tokens.

The switch-over: ``method="auto"`` is exact while :func:`exact_size` (the number of deal
classes) is at most :data:`EXACT_LIMIT`, and Monte Carlo above it; ``method="exact"``
above the limit raises :class:`~toolkit.errors.TooBigError` before starting.

>>> hand_size_distribution("d4", wild_die=False).items()
[(1, Fraction(1, 4)), (2, Fraction(1, 4)), (3, Fraction(1, 4)), (4, Fraction(1, 4))]
>>> morale_pass_probability("d4")  # max(d4, d6) >= 4: 1 - (3/4)(3/6)
Fraction(5, 8)
>>> initiative(1, 1, Rules(jokers=False))[None]  # neither card a spade: (39/52)(38/51)
Fraction(19, 34)
"""

from __future__ import annotations

import html
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb, lcm
from numbers import Rational
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit.cards import JOKERS, RANKS, SUITS, Card, check_distinct, parse_cards, standard_deck
from toolkit.dice import trait_roll
from toolkit.durak_battle import recon
from toolkit.durak_battle.clash import card_value
from toolkit.durak_battle.engine import BattleState, start_clash
from toolkit.durak_battle.initiative import NO_CLASH, initiative_holder
from toolkit.durak_battle.morale import morale_holds, morale_order, morale_penalty
from toolkit.durak_battle.policies import POLICIES, action_key, greedy_action, greedy_policy, random_policy
from toolkit.durak_battle.position import ClashPosition
from toolkit.durak_battle.rules import MAX_TOKENS, SIDES, Army, Leader, Rules, settle_losses
from toolkit.engine import Policy, play_out, policy_name, policy_pair
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError, TooBigError
from toolkit.montecarlo import Estimate
from toolkit.prob import Distribution

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "DEFAULT_BATTLE_TRIALS",
    "SuitComposition",
    "ActionValue",
    "ClashValue",
    "ClashOutcome",
    "ClashLosses",
    "BattleEnd",
    "BattleOdds",
    "hand_size_distribution",
    "suit_composition",
    "initiative",
    "morale_pass_probability",
    "clash_value",
    "best_action",
    "exact_size",
    "clash_losses",
    "battle_outcome",
    "clear_caches",
]

#: ``method="auto"`` computes a clash exactly while :func:`exact_size` — the number of
#: deal classes (deals with the same ordering of cards, see the module docstring) — is at
#: most this, and by Monte Carlo above it; ``method="exact"`` above it raises
#: :class:`~toolkit.errors.TooBigError`. Sizes: 1 v 1 has 53 classes, 2 v 2 4,462, 4 v 1
#: 19,729, 3 v 2 39,342, 5 v 1 125,249, 3 v 3 415,862: every clash of up to 5 cards in all
#: is exact (and 6 v 0), larger ones are sampled. On one core greedy play takes about 60
#: microseconds a class (3 v 2: 2.5 s), random play about four times longer (3 v 2: 10 s).
EXACT_LIMIT = 40_000

#: Monte Carlo clashes played through the engine when :func:`clash_losses` is given none.
DEFAULT_TRIALS = 5_000

#: Monte Carlo clashes per pair of hand sizes in :func:`battle_outcome` (sampled with
#: :class:`~.position.ClashPosition`, the clash state machine the engine steps too).
DEFAULT_BATTLE_TRIALS = 1_000


_METHODS = ("auto", "exact", "monte_carlo")
_SAMPLERS = ("engine", "model")
#: One Card object per code: positions hold these, so cards compare by code.
_CARD = {c.code: c for c in standard_deck(jokers=True)}
_BY_RANK_SUIT = {(RANKS.index(c.rank), c.suit): c for c in _CARD.values() if not c.is_joker}
_JOKER_CARDS = tuple(_CARD[j] for j in JOKERS)
# Per card code, looked up instead of recomputed: its value (DB-1), sort key, whether it
# can attack and the answers it can make (from the referee's actions_of).
_VALUE = {code: card_value(c) for code, c in _CARD.items()}
_SORT = {code: c.sort_key for code, c in _CARD.items()}


# -- checks ------------------------------------------------------------------------------
def _whole(value: object, what: str, minimum: int = 0, hint: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidSetupError(
            f"{what} must be a whole number of {minimum} or more, got {value!r}" + (f" ({hint})" if hint else "")
        )
    return value


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a durak_battle Rules, got {rules!r}")
    return rules


def _check_sizes(cards_a: object, cards_b: object, rules: Rules) -> tuple[int, int]:
    na = _whole(cards_a, "cards_a (side a's hand size)", hint="DB-2")
    nb = _whole(cards_b, "cards_b (side b's hand size)", hint="DB-2")
    deck = rules.deck_size
    if na + nb > deck:
        raise InvalidSetupError(
            f"{na} + {nb} cards is more than the {deck}-card deck holds (jokers={rules.jokers}, DB-1)"
        )
    return na, nb


# -- reconnaissance (DB-2) -----------------------------------------------------------------
def hand_size_distribution(
    battle_die: int | str, wild_die: bool = True, modifier: int = 0, token_advantage: int = 0
) -> Distribution[int]:
    """Return the exact distribution of the number of cards a leader draws (DB-2): her
    Knowledge (Battle) trait roll (the die and, for a Wild Card, a d6 Wild Die, keeping
    the higher; no explosions; plus ``modifier``), at least 0, plus 1 card per token by
    which her army outnumbers the other (``token_advantage``).

    Raises:
        InvalidSetupError: a die other than d4, d6, d8, d10, d12; a modifier that is not a
            whole number; a negative advantage.

    >>> hand_size_distribution("d6", wild_die=False, modifier=-2).items()[0]  # 1, 2 -> 0 cards
    (0, Fraction(1, 3))
    """
    if not isinstance(wild_die, bool):
        raise InvalidSetupError(f"wild_die={wild_die!r}: use True (a Wild Card) or False (an Extra) (DB-2)")
    _whole(token_advantage, "token_advantage", hint="DB-2: +1 card per token the own army outnumbers the other by")
    return trait_roll(battle_die, wild_die, modifier).map(lambda r: recon.cards_drawn(r, token_advantage))


class SuitComposition(NamedTuple):
    """How many cards of each suit (and jokers) a hand holds (DB-1: suit = action)."""

    spades: int
    hearts: int
    diamonds: int
    clubs: int
    jokers: int


def suit_composition(n: int, rules: Rules | None = None) -> Distribution[SuitComposition]:
    """Return the exact distribution of an ``n``-card hand's suits: counts of spades
    (attack), hearts (defence), diamonds (manoeuvre), clubs (counterattack) and jokers
    (DB-1) — the multivariate hypergeometric law of a 54-card deck (52 with
    ``Rules(jokers=False)``).

    Raises:
        InvalidSetupError: ``n`` negative or more than the deck.

    >>> suit_composition(1, Rules(jokers=False))[(1, 0, 0, 0, 0)]
    Fraction(1, 4)
    """
    rules = _rules(rules)
    n, _ = _check_sizes(n, 0, rules)
    jokers = 2 if rules.jokers else 0
    weights: dict[SuitComposition, int] = {}
    for j in range(min(n, jokers) + 1):
        for s in range(min(n - j, 13) + 1):
            for h in range(min(n - j - s, 13) + 1):
                for d in range(min(n - j - s - h, 13) + 1):
                    c = n - j - s - h - d
                    if c <= 13:
                        weights[SuitComposition(s, h, d, c, j)] = (
                            comb(jokers, j) * comb(13, s) * comb(13, h) * comb(13, d) * comb(13, c)
                        )
    return Distribution.from_int_weights(weights)


# -- initiative (DB-3) ---------------------------------------------------------------------
def initiative(cards_a: int, cards_b: int, rules: Rules | None = None) -> Distribution[str | None]:
    """Return the exact distribution of who takes the initiative (DB-3) when side a is
    dealt ``cards_a`` cards and side b ``cards_b`` from one shuffled deck (DB-1): ``"a"``,
    ``"b"``, or ``None`` — no clash, neither side holds an attack card (spade or joker).

    The counting argument: only the attack cards matter. The side with more jokers wins
    (a joker outranks every spade, and joker against joker compares the next attack
    cards); with as many jokers each, the side holding the highest spade dealt wins —
    given that ``s_a + s_b`` spades are dealt, each is equally likely to be the highest,
    so ``C(13, s_a + s_b) C(s_a + s_b - 1, s_a - 1)`` of the spade deals favour a; with
    one joker each and no spade, the identical lists go to a 50/50 coin.

    Raises:
        InvalidSetupError: a negative size, or more cards than the deck.

    >>> initiative(1, 1)["a"]  # half of 1 - (39/54)(38/53)
    Fraction(115, 477)
    """
    rules = _rules(rules)
    na, nb = _check_sizes(cards_a, cards_b, rules)
    jokers = 2 if rules.jokers else 0
    others = rules.deck_size - 13 - jokers
    weights: dict[str | None, int] = defaultdict(int)
    for ja in range(min(na, jokers) + 1):
        for jb in range(min(nb, jokers - ja) + 1):
            wj = comb(jokers, ja) * comb(jokers - ja, jb)
            for sa in range(min(na - ja, 13) + 1):
                for sb in range(min(nb - jb, 13 - sa) + 1):
                    oa, ob = na - ja - sa, nb - jb - sb
                    if oa + ob > others:
                        continue
                    w = wj * comb(others, oa) * comb(others - oa, ob)
                    spades = comb(13, sa + sb)
                    if ja != jb:
                        weights["a" if ja > jb else "b"] += 2 * w * comb(13, sa) * comb(13 - sa, sb)
                    elif sa + sb == 0:
                        if ja == 0:
                            weights[None] += 2 * w
                        else:  # joker against joker, nothing else: a coin flip
                            weights["a"] += w
                            weights["b"] += w
                    else:
                        top_a = comb(sa + sb - 1, sa - 1) if sa else 0
                        top_b = comb(sa + sb - 1, sb - 1) if sb else 0
                        weights["a"] += 2 * w * spades * top_a
                        weights["b"] += 2 * w * spades * top_b
    return Distribution.from_int_weights(dict(weights))


# -- morale (DB-8) ----------------------------------------------------------------------------
def morale_pass_probability(
    spirit_die: int | str, wild_die: bool = True, tokens_lost: int = 0, modifier: int = 0
) -> Fraction:
    """Return the probability that a leader's Spirit check keeps her army in the battle
    (DB-8): trait roll (die and, for a Wild Card, a d6 Wild Die, keeping the higher; no
    explosions) ``+ modifier - tokens_lost >= 4``.

    Raises:
        InvalidSetupError: a die other than d4..d12, a negative ``tokens_lost``.

    >>> morale_pass_probability("d6", wild_die=False)
    Fraction(1, 2)
    """
    if not isinstance(wild_die, bool):
        raise InvalidSetupError(f"wild_die={wild_die!r}: use True (a Wild Card) or False (an Extra) (DB-8)")
    _whole(tokens_lost, "tokens_lost", hint="DB-8: -1 per token lost")
    return trait_roll(spirit_die, wild_die, modifier).probability(lambda r: morale_holds(r, tokens_lost))


# -- the clash as positions -------------------------------------------------------------
def _hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand as the calculators hold it: the deck's Card objects, lowest first."""
    return tuple(sorted((_CARD[c.code] for c in cards), key=lambda c: _SORT[c.code]))


def _position_of(state: Any) -> ClashPosition:
    """The clash position of an engine state (or a position), hands sorted as the memos keep them."""
    node = ClashPosition.from_state(state)
    table = None if node.table is None else _CARD[node.table.code]
    return node._replace(hands=(_hand(node.hands[0]), _hand(node.hands[1])), table=table)


def _canon(node: ClashPosition) -> ClashPosition:
    """The same position with ranks squeezed to 2, 3, 4, ... and jokers renamed JK1, JK2 in
    order of appearance: it plays exactly like the original (only comparisons matter)."""
    hands, table = node.hands, node.table
    values = set()
    jokers: list[str] = []
    for hand in hands:
        for c in hand:
            if c.suit is None:
                jokers.append(c.code)
            else:
                values.add(_VALUE[c.code])
    if table is not None:
        if table.suit is None:
            jokers.append(table.code)
        else:
            values.add(_VALUE[table.code])
    order = sorted(values)
    if (not order or order[-1] == len(order) - 1) and all(j == JOKERS[k] for k, j in enumerate(jokers)):
        return node
    remap = {v: k for k, v in enumerate(order)}
    rename = {j: _JOKER_CARDS[k] for k, j in enumerate(jokers)}

    def conv(c: Card) -> Card:
        return rename[c.code] if c.suit is None else _BY_RANK_SUIT[(remap[_VALUE[c.code]], c.suit)]

    # squeezing keeps a sorted hand sorted; a hand's two jokers appear as JK1, JK2 already
    new_hands = (tuple(conv(c) for c in hands[0]), tuple(conv(c) for c in hands[1]))
    return ClashPosition(
        new_hands,  # type: ignore[arg-type]
        node.stage,
        node.holder,
        node.attacking,
        None if table is None else conv(table),
        node.passes,
        node.rules,
        node.forced,
    )


# -- policies -------------------------------------------------------------------------
def _policies(policies: Sequence[str | Policy] | str | Policy) -> tuple[Policy, Policy]:
    return policy_pair(policies, POLICIES, ("side a", "side b"))


def _policy_name(p: Policy) -> str:
    return policy_name(p, POLICIES)


def _choices(node: ClashPosition, pols: tuple[Policy, Policy]) -> tuple[list[tuple[str, int]], int]:
    """The policy's actions at ``node`` with integer weights, and their total. The greedy
    and random policies are called without building a Distribution (the same functions
    underneath); any other policy's answer is checked for legality."""
    policy = pols[0] if node.current_player == "a" else pols[1]
    if policy is greedy_policy:
        return [(greedy_action(node), 1)], 1
    if policy is random_policy:
        legal = node.legal_actions()
        return [(a, 1) for a in legal], len(legal)
    try:
        choice = policy(node)
    except AttributeError as e:
        raise InvalidSetupError(
            f"policy {_policy_name(policy)} read something a clash position does not show ({e}): the exact "
            "calculator gives policies only current_player, legal_actions(), stage, holder, attacking, table, "
            "hands, passes and rules; use method='monte_carlo' with sampler='engine' for other policies"
        ) from None
    if not isinstance(choice, Distribution):
        raise InvalidSetupError(
            f"policy {_policy_name(policy)} returned {choice!r}, not a Distribution over legal actions"
        )
    legal = node.legal_actions()
    for action in choice:
        if action not in legal:
            raise IllegalActionError(
                f"policy {_policy_name(policy)} chose {action!r}, which is not legal in {node!r}: " + ", ".join(legal)
            )
    return list(choice.weights().items()), choice.total


# -- minimax with both hands known --------------------------------------------------------
Payoff = tuple[Any, Any] | Callable[[int, int], Any]


class _Solver:
    """Minimax over clash positions, memoised. ``weights=(w_a, w_b)``: a's payoff is
    ``w_b * b's losses - w_a * a's losses``; ``terminal``: a payoff of the final losses
    instead. ``tokens``: DB-7 floors (an army at 0 ends the clash); ``None``: no floors."""

    def __init__(self, rules: Rules, payoff: Payoff, tokens: tuple[int, int] | None, max_states: int) -> None:
        self.rules = rules
        self.tokens = tokens
        self.max_states = max_states
        if callable(payoff):
            self.weights: tuple[Any, Any] | None = None
            self.terminal: Callable[[int, int], Any] | None = payoff
        else:
            self.weights = (payoff[0], payoff[1])
            self.terminal = None
        # additive payoffs without floors need no losses in the memo key
        self.additive = self.terminal is None and tokens is None
        self.memo: dict[Hashable, Any] = {}

    def _end(self, lost: tuple[int, int]) -> Any:
        if self.terminal is not None:
            value = self.terminal(*lost)
            if not isinstance(value, Rational):
                raise InvalidSetupError(f"the payoff must return an int or a Fraction, got {value!r}")
            return value
        assert self.weights is not None
        return self.weights[1] * lost[1] - self.weights[0] * lost[0]

    def _apply_losses(self, lost: tuple[int, int], events: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], bool]:
        la, lb = lost
        for da, db in events:
            if self.tokens is None:
                la, lb = la + da, lb + db
            else:
                la, lb, destroyed = settle_losses(self.tokens, ((la + da, lb + db),))
                if destroyed is not None:  # DB-7: destroyed, the battle ends
                    return (la, lb), True
        return (la, lb), False

    def action_value(self, node: ClashPosition, action: str, lost: tuple[int, int]) -> Any:
        """a's payoff after ``action`` (with losses ``lost`` so far), both then playing best."""
        child, events = node.losses_after(action)
        if self.additive:
            gain = self._end(self._apply_losses((0, 0), events)[0])
            return gain + (self.value(child, (0, 0)) if child is not None else 0) + self._end(lost)
        after, over = self._apply_losses(lost, events)
        if over or child is None:
            return self._end(after)
        return self.value(child, after)

    def value(self, node: ClashPosition, lost: tuple[int, int]) -> Any:
        """a's payoff from ``node`` with losses ``lost`` so far, both playing best."""
        if self.additive:
            key: Hashable = _canon(node).key
            found = self.memo.get(key)
            if found is None:
                found = self.memo[key] = self._best(node, (0, 0))
            return found + self._end(lost)
        key = (_canon(node).key, lost)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._best(node, lost)
        return found

    def _best(self, node: ClashPosition, lost: tuple[int, int]) -> Any:
        if len(self.memo) >= self.max_states:
            raise TooBigError(
                f"the minimax search passed {self.max_states:,} positions: these hands are too big to "
                "search exactly; play the clash with policies (clash_losses) or Monte Carlo instead"
            )
        values = [self.action_value(node, a, lost) for a in node.legal_actions()]
        return max(values) if node.current_player == "a" else min(values)

    def ranked(self, node: ClashPosition, lost: tuple[int, int]) -> list[tuple[str, Any]]:
        """Every legal action with its value, best first for the side to move (ties by
        :func:`~.policies.action_key`)."""
        sign = 1 if node.current_player == "a" else -1
        pairs = [(a, self.action_value(node, a, lost)) for a in node.legal_actions()]
        return sorted(pairs, key=lambda p: (-sign * p[1], action_key(p[0])))


_SOLVERS: dict[tuple, _Solver] = {}
DEFAULT_MAX_STATES = 2_000_000


def _solver(rules: Rules, payoff: Payoff = (1, 1), tokens: tuple[int, int] | None = None) -> _Solver:
    key = (rules, payoff, tokens)
    found = _SOLVERS.get(key)
    if found is None or len(found.memo) > DEFAULT_MAX_STATES // 2:  # a fresh memo rather than a full one
        found = _SOLVERS[key] = _Solver(rules, payoff, tokens, DEFAULT_MAX_STATES)
    return found


def best_action(state: Any) -> str:
    """Return the minimax action of the side to move with both hands known, playing for the
    unweighted token difference of the rest of the clash without DB-7 floors (ties: the
    first by :func:`~.policies.action_key`). The ``"optimal"`` policy plays it."""
    node = _position_of(state)
    return _solver(node.rules).ranked(node, (0, 0))[0][0]


class ActionValue(NamedTuple):
    """One legal action and side a's payoff if both sides play best after it."""

    action: str
    value: Fraction


@dataclass(frozen=True)
class ClashValue:
    """One clash with both hands known, solved as a perfect-information game.

    Attributes:
        value: side a's payoff when both sides play best (an expectation over the coin
            when jokers tie for the initiative, DB-3); by default the tokens b loses minus
            the tokens a loses.
        lost_a, lost_b: tokens each side loses on the optimal line (averaged over the coin).
        initiative: ``"a"``, ``"b"``, ``"coin"`` (identical attack cards, DB-3) or ``None``
            (no attack card on either side: no clash).
        best_action: the first action on the optimal line (``None`` with no clash or a coin).
        line: the optimal line of play, in engine notation (empty with a coin: see
            ``branches``). Among equally good actions the first by
            :func:`~.policies.action_key` is shown.
        branches: with a coin, the solution for each side winning it (``{"a": ..., "b": ...}``).
        start: the engine state at the start of the clash (after the initiative), to step
            through with ``.apply(action)`` and ask :meth:`best_answers`.
        tokens: the armies' tokens (DB-7 floors), or ``None`` for a clash without floors.
    """

    value: Fraction
    lost_a: Fraction
    lost_b: Fraction
    initiative: str | None
    best_action: str | None
    line: tuple[str, ...]
    branches: Mapping[str, ClashValue] = field(default_factory=dict, repr=False)
    start: BattleState | None = field(default=None, repr=False, compare=False)
    tokens: tuple[int, int] | None = None
    _solver: _Solver | None = field(default=None, repr=False, compare=False)

    def best_answers(self, state: Any = None) -> list[ActionValue]:
        """Return every legal action at ``state`` (an engine state reached from
        :attr:`start`, or a :class:`ClashPosition`; default: the start) with side a's payoff
        when both play best afterwards, best first for the side to move — e.g. "which
        answer is best against this attack?": ``cv.best_answers(cv.start.apply("attack 7S"))``.

        Raises:
            IllegalActionError: ``state`` is not at a decision of the clash.
        """
        if self._solver is None:
            raise IllegalActionError("no clash here: neither side holds an attack card (DB-3)")
        state = self.start if state is None else state
        if state is None or getattr(state, "stage", None) == "coin":
            raise IllegalActionError("the start is a coin flip for the initiative (DB-3): see .branches")
        node = _position_of(state)
        lost = tuple(getattr(state, "lost_clash", (0, 0)))
        return [ActionValue(a, Fraction(v)) for a, v in self._solver.ranked(node, lost)]  # type: ignore[arg-type]


def _parse_hand(hand: str | Iterable[str | Card], who: str, rules: Rules) -> tuple[Card, ...]:
    try:
        cards = parse_cards(hand)  # type: ignore[arg-type]
    except NotationError as e:
        raise NotationError(f"side {who}'s hand: {e}") from None
    if not rules.jokers and any(c.is_joker for c in cards):
        raise InvalidSetupError(f"side {who}'s hand holds a joker, but the deck has none (jokers=False, DB-1)")
    return cards


def _check_tokens(tokens: object) -> tuple[int, int] | None:
    if tokens is None:
        return None
    if not isinstance(tokens, tuple | list) or len(tokens) != 2:
        raise InvalidSetupError(f"tokens must be a pair (side a's, side b's) or None, got {tokens!r}")
    for t in tokens:
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= MAX_TOKENS:
            raise InvalidSetupError(f"tokens must be whole numbers from 1 to {MAX_TOKENS} (DB-7), got {tokens!r}")
    return (tokens[0], tokens[1])


def _check_payoff(payoff: object) -> Payoff:
    if callable(payoff):
        return payoff  # type: ignore[return-value]
    if (
        isinstance(payoff, tuple | list)
        and len(payoff) == 2
        and all(isinstance(w, Rational) and not isinstance(w, bool) for w in payoff)
    ):
        return tuple(w if isinstance(w, int) else Fraction(w) for w in payoff)  # type: ignore[return-value]
    raise InvalidSetupError(
        f"payoff must be a pair of weights (w_a, w_b) — a's payoff is w_b * b's losses - w_a * a's losses — "
        f"or a function (lost_a, lost_b) -> number; got {payoff!r}"
    )


def _armies(tokens: tuple[int, int] | None) -> tuple[Army, Army]:
    ta, tb = tokens if tokens is not None else (MAX_TOKENS, MAX_TOKENS)
    return Army("a", ta, Leader("Leader a")), Army("b", tb, Leader("Leader b"))


def clash_value(
    hand_a: str | Iterable[str | Card],
    hand_b: str | Iterable[str | Card],
    rules: Rules | None = None,
    payoff: Payoff = (1, 1),
    tokens: tuple[int, int] | None = None,
) -> ClashValue:
    """Solve one clash with both hands known (cards are played face up; here both hands
    are known from the start): the exact minimax value, the optimal line, and the value of
    every action in any position (:meth:`ClashValue.best_answers`).

    Side a maximises her payoff, side b minimises it (zero-sum). The default payoff is
    the tokens b loses minus the tokens a loses; ``payoff=(w_a, w_b)`` weighs them
    (``w_b * lost_b - w_a * lost_a``), or a function ``(lost_a, lost_b) -> number`` is
    applied to the final losses. The only chance step in a clash is the coin for tied
    jokers (DB-3): the value is its expectation. With ``tokens=(ta, tb)`` losses floor at
    0 and the clash ends when an army is destroyed (DB-7), as in the engine with armies
    of those tokens; by default (``None``) there are no floors.

    The search replays the clash with :class:`ClashPosition` (the referee judging every
    answer); the tests check it against the engine's game tree.

    Raises:
        NotationError / InvalidSetupError: a bad card code, a card in both hands, a joker
            without jokers, bad tokens or payoff.
        TooBigError: more than 2,000,000 positions to search.

    >>> cv = clash_value("7S 9H QD", "10S 4H")
    >>> cv.value, cv.lost_a, cv.lost_b  # b attacks with 10S, a manoeuvres with QD; a's 7S beats 4H
    (Fraction(2, 1), Fraction(1, 1), Fraction(3, 1))
    >>> cv.line
    ('attack 10S', 'manoeuvre QD', 'attack 7S', 'defence 4H')
    >>> cv.best_answers(cv.start.apply("attack 10S"))[0]
    ActionValue(action='manoeuvre QD', value=Fraction(2, 1))
    """
    rules = _rules(rules)
    a, b = _parse_hand(hand_a, "a", rules), _parse_hand(hand_b, "b", rules)
    check_distinct(a + b, "the two hands")
    tokens = _check_tokens(tokens)
    payoff = _check_payoff(payoff)
    solver = _Solver(rules, payoff, tokens, DEFAULT_MAX_STATES)
    army_a, army_b = _armies(tokens)
    who = initiative_holder(a, b)
    hands = (_hand(a), _hand(b))
    if who == NO_CLASH:
        zero = Fraction(solver._end((0, 0)))
        start = start_clash(army_a, army_b, (a, b), rules)
        return ClashValue(zero, Fraction(0), Fraction(0), None, None, (), start=start, tokens=tokens)
    if who is None:
        branches = {}
        for side in SIDES:
            branches[side] = _solve_from(solver, hands, SIDES.index(side), rules, tokens, (a, b), side)
        half = Fraction(1, 2)
        return ClashValue(
            sum((half * br.value for br in branches.values()), Fraction(0)),
            sum((half * br.lost_a for br in branches.values()), Fraction(0)),
            sum((half * br.lost_b for br in branches.values()), Fraction(0)),
            "coin",
            None,
            (),
            branches,
            start_clash(army_a, army_b, (a, b), rules),
            tokens,
            solver,
        )
    return _solve_from(solver, hands, who, rules, tokens, (a, b), None)


def _solve_from(solver: _Solver, hands, holder: int, rules: Rules, tokens, dealt, coin: str | None) -> ClashValue:
    army_a, army_b = _armies(tokens)
    start = start_clash(army_a, army_b, dealt, rules, coin=coin)
    node, _ = ClashPosition.begin(hands, holder, rules)
    assert node is not None  # the holder has an attack card
    value = solver.value(node, (0, 0))
    line: list[str] = []
    lost = (0, 0)
    current: ClashPosition | None = node
    while current is not None:
        action = solver.ranked(current, lost)[0][0]
        line.append(action)
        current, events = current.losses_after(action)
        lost, over = solver._apply_losses(lost, events)
        if over:
            break
    return ClashValue(
        Fraction(value),
        Fraction(lost[0]),
        Fraction(lost[1]),
        SIDES[holder],
        line[0],
        tuple(line),
        {},
        start,
        tokens,
        solver,
    )


# -- deal classes -------------------------------------------------------------------------
#: The ways one rank can be held: for each suit, nobody (0), side a (1) or side b (2).
_LEVELS: tuple[tuple[tuple[int, ...], int, int], ...] = tuple(
    (owners, owners.count(1), owners.count(2))
    for owners in ((s, h, d, c) for s in range(3) for h in range(3) for d in range(3) for c in range(3))
    if any(owners)
)


@cache
def _classes_count(k: int, ma: int, mb: int) -> int:
    """Sequences of ``k`` non-empty rank levels holding ``ma`` cards of a and ``mb`` of b."""
    if k == 0:
        return 1 if ma == mb == 0 else 0
    return sum(_classes_count(k - 1, ma - ca, mb - cb) for _, ca, cb in _LEVELS if ca <= ma and cb <= mb)


def _joker_splits(na: int, nb: int, rules: Rules) -> Iterator[tuple[int, int, int]]:
    jokers = 2 if rules.jokers else 0
    for ja in range(min(na, jokers) + 1):
        for jb in range(min(nb, jokers - ja) + 1):
            if na - ja + nb - jb <= 52:
                yield ja, jb, comb(jokers, ja) * comb(jokers - ja, jb)


def exact_size(cards_a: int, cards_b: int, rules: Rules | None = None) -> int:
    """Return the number of deal classes the exact clash calculator plays for these hand
    sizes: deals with the same ordering of cards play alike (module docstring), so each
    class is played once. :data:`EXACT_LIMIT` is compared with this.

    >>> exact_size(1, 1), exact_size(2, 2), exact_size(3, 2)
    (53, 4462, 39342)
    """
    rules = _rules(rules)
    na, nb = _check_sizes(cards_a, cards_b, rules)
    total = 0
    for ja, jb, _ in _joker_splits(na, nb, rules):
        ma, mb = na - ja, nb - jb
        total += sum(_classes_count(k, ma, mb) for k in range(0 if ma + mb == 0 else 1, 14))
    return total


def _classes(ma: int, mb: int) -> Iterator[tuple[list[Card], list[Card], int]]:
    """Every deal class of ``ma`` and ``mb`` non-joker cards: representative hands (the
    ``k`` levels take ranks 2, 3, ...) and the number of deals it stands for, ``C(13, k)``."""

    def rec(level: int, ra: int, rb: int, a: list[Card], b: list[Card]) -> Iterator[tuple[list[Card], list[Card], int]]:
        if ra == 0 and rb == 0:
            yield a, b, comb(13, level)
            return
        if level == 13 or (13 - level) * 4 < ra + rb:
            return
        for owners, ca, cb in _LEVELS:
            if ca <= ra and cb <= rb:
                na_ = a + [_BY_RANK_SUIT[(level, SUITS[s])] for s in range(4) if owners[s] == 1]
                nb_ = b + [_BY_RANK_SUIT[(level, SUITS[s])] for s in range(4) if owners[s] == 2]
                yield from rec(level + 1, ra - ca, rb - cb, na_, nb_)

    yield from rec(0, ma, mb, [], [])


def _deal_classes(na: int, nb: int, rules: Rules) -> Iterator[tuple[tuple[Card, ...], tuple[Card, ...], int]]:
    for ja, jb, ways in _joker_splits(na, nb, rules):
        ja_cards, jb_cards = _JOKER_CARDS[:ja], _JOKER_CARDS[ja : ja + jb]
        for a, b, w in _classes(na - ja, nb - jb):  # lowest first already; jokers on top
            yield tuple(a) + ja_cards, tuple(b) + jb_cards, w * ways


# -- a clash's losses as a path -------------------------------------------------------------
Path = tuple[tuple[int, int], ...]


def _path(events: Iterable[tuple[int, int]]) -> Path:
    """Cumulative losses after each loss, capped at MAX_TOKENS; once an army has lost
    MAX_TOKENS nothing later can matter to any army (DB-7)."""
    la = lb = 0
    out = []
    for da, db in events:
        if not (da or db):
            continue
        la, lb = min(la + da, MAX_TOKENS), min(lb + db, MAX_TOKENS)
        out.append((la, lb))
        if la >= MAX_TOKENS or lb >= MAX_TOKENS:
            break
    return tuple(out)


Events = tuple[tuple[int, int], ...]


class _PathMemo:
    """The loss events of the rest of a clash by canonical position: integer weights of
    each sequence of losses, over a denominator."""

    def __init__(self, pols: tuple[Policy, Policy]) -> None:
        self.pols = pols
        self.memo: dict[str, tuple[dict[Events, int], int]] = {}

    def events(self, node: ClashPosition, remember: bool = False) -> tuple[dict[Events, int], int]:
        """(weights of each sequence of losses from ``node``, their denominator).

        Positions are remembered (by their canonical form) only where a policy chooses at
        random: a forced line (one action, as the greedy policy plays) is simply followed.
        """
        if remember:
            node = _canon(node)
            found = self.memo.get(node.key)
            if found is not None:
                return found
        choices, total = _choices(node, self.pols)
        if len(choices) == 1:
            child, evs = node.losses_after(choices[0][0])
            if child is None:
                found = ({evs: 1}, 1)
            else:
                sub, den = self.events(child)
                found = ({evs + rest: x for rest, x in sub.items()} if evs else sub, den)
        else:
            parts: list[tuple[int, Events, dict[Events, int] | None, int]] = []
            for action, w in choices:
                child, evs = node.losses_after(action)
                if child is None:
                    parts.append((w, evs, None, 1))
                else:
                    sub, den = self.events(child, remember=True)
                    parts.append((w, evs, sub, den))
            common = lcm(*(den for *_, den in parts))
            out: dict[Events, int] = defaultdict(int)
            for w, evs, sub, den in parts:
                scale = w * (common // den)
                if sub is None:
                    out[evs] += scale
                else:
                    for rest, x in sub.items():
                        out[evs + rest] += scale * x
            found = (dict(out), total * common)
        if remember:
            self.memo[node.key] = found
        return found


_PATH_MEMOS: dict[tuple, _PathMemo] = {}
_EXACT: dict[tuple, dict[tuple[str | None, Path], Fraction]] = {}
_SAMPLED: dict[tuple, Counter] = {}


def clear_caches() -> None:
    """Forget every memoised position, exact clash table and sample (they are kept per
    rules and policies for the session)."""
    _PATH_MEMOS.clear()
    _EXACT.clear()
    _SAMPLED.clear()
    _SOLVERS.clear()


def _exact_paths(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules
) -> dict[tuple[str | None, Path], Fraction]:
    """P(initiative, loss path) over every deal of ``na`` and ``nb`` cards, exactly."""
    key = (na, nb, pols, rules)
    if key in _EXACT:
        return _EXACT[key]
    mirror = _EXACT.get((nb, na, (pols[1], pols[0]), rules))
    if mirror is not None:  # the same clashes with the sides swapped (the rules favour neither)
        _EXACT[key] = {
            (None if h is None else SIDES[1 - SIDES.index(h)], tuple((lb, la) for la, lb in path)): p
            for (h, path), p in mirror.items()
        }
        return _EXACT[key]
    memo = _PATH_MEMOS.setdefault((pols, rules), _PathMemo(pols))
    deck = rules.deck_size
    deals = comb(deck, na) * comb(deck - na, nb)
    # integer weights by denominator (so no fractions are added up deal class by class)
    out: dict[int, dict[tuple[str | None, Path], int]] = defaultdict(lambda: defaultdict(int))
    paths: dict[Events, Path] = {}
    counted = 0
    for a, b, w in _deal_classes(na, nb, rules):
        counted += w
        who = initiative_holder(a, b)
        if who == NO_CLASH:  # DB-3: no attack card, no clash
            out[1][(None, ())] += 2 * w
            continue
        holders = (0, 1) if who is None else (who,)
        share = w * (2 // len(holders))  # weights are doubled: a coin (DB-3) halves a deal
        for h in holders:
            node, _ = ClashPosition.begin((a, b), h, rules)
            assert node is not None  # the side with the initiative has an attack card
            sub, den = memo.events(node)  # a deal class is met once: not remembered
            bucket = out[den]
            side = SIDES[h]
            for evs, x in sub.items():
                path = paths.get(evs)
                if path is None:
                    path = paths[evs] = _path(evs)
                bucket[(side, path)] += share * x
    if counted != deals:  # pragma: no cover - a bug in the class enumeration
        raise AssertionError(f"deal classes count {counted} deals, not {deals}")
    result: dict[tuple[str | None, Path], Fraction] = defaultdict(Fraction)
    for den, bucket in out.items():
        for k, x in bucket.items():
            result[k] += Fraction(x, 2 * deals * den)
    _EXACT[key] = dict(result)
    return _EXACT[key]


def _random_deal(rng: random.Random, deck: Sequence[Card], na: int, nb: int) -> tuple[list[Card], list[Card]]:
    cards = rng.sample(deck, na + nb)
    return cards[:na], cards[na:]


def _sample_paths(na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: Any) -> Counter:
    """Counts of (initiative, loss path) over ``trials`` random deals played with
    :class:`ClashPosition` (each policy's choice sampled)."""
    key = (na, nb, pols, rules, trials, seed)
    if key in _SAMPLED:
        return _SAMPLED[key]
    rng = random.Random(f"{seed}:{na}:{nb}")
    deck = list(rules.deck())
    counts: Counter = Counter()
    for _ in range(trials):
        a, b = _random_deal(rng, deck, na, nb)
        who = initiative_holder(a, b)
        if who == NO_CLASH:
            counts[(None, ())] += 1
            continue
        if who is None:  # DB-3: a fair coin
            who = rng.randrange(2)
        node, _ = ClashPosition.begin((_hand(a), _hand(b)), who, rules)
        events: list[tuple[int, int]] = []
        while node is not None:
            choice, _ = _choices(node, pols)
            action = choice[0][0] if len(choice) == 1 else Distribution.from_int_weights(dict(choice)).sample(rng)
            node, evs = node.losses_after(action)
            events.extend(evs)
        counts[(SIDES[who], _path(events))] += 1
    _SAMPLED[key] = counts
    return counts


# -- clash losses ---------------------------------------------------------------------------
class ClashOutcome(NamedTuple):
    """How one clash ended for the armies.

    Attributes:
        lost_a, lost_b: tokens lost by each side in the clash (never more than it had, DB-7).
        initiative: the side that held the initiative at the start (DB-3) — the other side
            was originally attacked and rolls morale first (DB-8) — or ``None``: no clash.
        destroyed: the side reduced to 0 tokens (DB-7), which ends the clash, or ``None``.
    """

    lost_a: int
    lost_b: int
    initiative: str | None
    destroyed: str | None


def _outcome_key(o: ClashOutcome) -> tuple:
    return (o.lost_a, o.lost_b, o.initiative or "", o.destroyed or "")


@dataclass(frozen=True)
class ClashLosses:
    """Tokens lost in one clash for two hand sizes, averaged over deals (exact or Monte Carlo).

    It reads like the :class:`~toolkit.prob.Distribution` of ``(lost_a, lost_b)`` pairs
    (``result[(1, 2)]``, ``.items()``, ``.probability(event)``, ``.mean(0)``); the joint
    law with who held the initiative and who was destroyed is :attr:`joint`.

    Attributes:
        joint: the distribution of :class:`ClashOutcome` — exact, or (Monte Carlo) the
            observed frequencies as exact fractions of the trials.
        method: ``"exact"`` or ``"monte_carlo"``.
        size: :func:`exact_size` of the request (what ``method="auto"`` compared with
            :data:`EXACT_LIMIT`).
        trials: Monte Carlo trials (``None`` when exact); ``sampler`` says what played them.
        tokens: the armies' tokens the losses are floored at (DB-7).
        confidence: the level of :meth:`interval` (0.99).
    """

    joint: Distribution[ClashOutcome]
    method: str
    size: int
    tokens: tuple[int, int]
    trials: int | None = None
    sampler: str | None = None
    confidence: float = 0.99
    seconds: float = field(default=0.0, compare=False)

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def distribution(self) -> Distribution[tuple[int, int]]:
        """The distribution of ``(tokens lost by a, tokens lost by b)``."""
        return self.joint.marginal(lambda o: (o.lost_a, o.lost_b))

    def __getitem__(self, pair: tuple[int, int]) -> Fraction:
        return self.distribution[pair]

    def __contains__(self, pair: object) -> bool:
        return pair in self.distribution

    def items(self) -> list[tuple[tuple[int, int], Fraction]]:
        return self.distribution.items()

    def outcomes(self) -> list[tuple[int, int]]:
        return self.distribution.outcomes()

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.distribution)

    def __len__(self) -> int:
        return len(self.distribution)

    def marginal(self, f: Any) -> Distribution[Any]:
        return self.distribution.marginal(f)

    def mean(self, f: Any = None) -> Fraction:
        return self.distribution.mean(f)

    def probability(self, event: Any) -> Fraction:
        """The probability of a ``(lost_a, lost_b)`` pair or of a predicate on pairs:
        exact, or the observed frequency."""
        return self.distribution.probability(event)

    def interval(self, event: Any) -> tuple[float, float]:
        """A :attr:`confidence` interval for the probability of a pair or predicate on
        pairs: Wilson's for Monte Carlo, the exact value twice when exact."""
        p = self.probability(event)
        if self.trials is None:
            return (float(p), float(p))
        return Estimate(int(p * self.trials), self.trials).interval(self.confidence)

    def to_frame(self, floats: bool = False) -> pd.DataFrame:
        """A table of the joint outcomes: ``lost_a``, ``lost_b``, ``initiative``,
        ``destroyed``, ``probability`` and ``percent``."""
        return self.joint.to_frame(floats)

    def _repr_html_(self) -> str:
        how = "exact" if self.exact else f"Monte Carlo ({self.sampler}), {self.trials:,} trials"
        return f"<p>Tokens lost (a, b): {html.escape(how)}</p>" + self.distribution._repr_html_()

    def __str__(self) -> str:
        how = "exact" if self.exact else f"Monte Carlo ({self.sampler}), {self.trials:,} trials, 99% intervals"
        lines = [f"ClashLosses ({how}; {self.size:,} deal classes; armies of {self.tokens} tokens)"]
        for pair, p in self.items():
            lo, hi = self.interval(pair)
            shown = f"{float(p):.2%}" if self.exact else f"{float(p):.2%} [{lo:.2%}, {hi:.2%}]"
            lines.append(f"  a loses {pair[0]:2}, b loses {pair[1]:2}: {shown}")
        return "\n".join(lines)


def _sorted_joint(weights: Mapping[ClashOutcome, Any]) -> Distribution[ClashOutcome]:
    return Distribution({o: weights[o] for o in sorted(weights, key=_outcome_key)})


def _engine_sample(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, tokens: tuple[int, int], trials: int, seed: int
) -> Counter:
    rng = random.Random(seed)
    deck = list(rules.deck())
    army_a, army_b = _armies(tokens)
    policy_map = {"a": pols[0], "b": pols[1]}
    counts: Counter = Counter()
    for _ in range(trials):
        a, b = _random_deal(rng, deck, na, nb)
        end = play_out(start_clash(army_a, army_b, (a, b), rules), rng, policy_map)
        assert isinstance(end, BattleState)
        holder = None if end.first_attacked is None else SIDES[1 - end.first_attacked]
        destroyed = end.outcome.split()[0] if end.outcome.endswith("destroyed") else None  # a, b or both
        counts[ClashOutcome(end.lost_clash[0], end.lost_clash[1], holder, destroyed)] += 1
    return counts


def clash_losses(
    cards_a: int,
    cards_b: int,
    policies: Sequence[str | Policy] | str | Policy = ("greedy", "greedy"),
    rules: Rules | None = None,
    method: str = "auto",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    tokens: tuple[int, int] = (MAX_TOKENS, MAX_TOKENS),
    sampler: str = "engine",
) -> ClashLosses:
    """Return the tokens lost by each side in one clash when side a is dealt ``cards_a``
    cards and side b ``cards_b`` from one deck (DB-1, DB-2), averaged over every deal,
    with the initiative (DB-3) and the clash (DB-4..DB-7) played under ``policies``.

    Args:
        cards_a, cards_b: hand sizes.
        policies: (side a's, side b's) policy — names from
            :data:`~toolkit.durak_battle.policies.POLICIES` (``"random"``, ``"greedy"``,
            ``"optimal"``) or functions state -> Distribution (see :mod:`.policies` for
            what a policy may read) — or one for both.
        rules: the rules in force (DB-1 jokers, DB-5, DB-6 variants).
        method: ``"exact"``, ``"monte_carlo"``, or ``"auto"``: exact while
            :func:`exact_size` is at most :data:`EXACT_LIMIT`, Monte Carlo above.
        trials, seed: Monte Carlo clashes and random seed (repeatable).
        tokens: the armies' tokens (default 10 each, the most an army has): losses
            never take an army below 0, and a clash stops when an army is destroyed (DB-7).
        sampler: Monte Carlo through the ``"engine"`` (:func:`~.engine.start_clash` and
            :func:`~toolkit.engine.play_out`, the reference) or the ``"model"``
            (:class:`~.position.ClashPosition` without the engine's log and tokens, many times faster).

    Returns:
        A :class:`ClashLosses`: the distribution of ``(lost_a, lost_b)`` (``.items()``,
        ``result[(la, lb)]``), the joint law with the initiative and destruction
        (``.joint``), ``.method``, and for Monte Carlo 99% Wilson intervals
        (``.interval(event)``).

    Raises:
        InvalidSetupError: bad sizes, tokens, method, sampler, trials or policy.
        TooBigError: ``method="exact"`` above :data:`EXACT_LIMIT`, before starting.

    >>> r = clash_losses(1, 1, method="exact")
    >>> r[(0, 0)], r[(0, 4)]  # no clash (39·38 of 54·53 deals); a's club counters b's spade and strikes
    (Fraction(247, 477), Fraction(91, 2862))
    """
    started = time.perf_counter()
    rules = _rules(rules)
    na, nb = _check_sizes(cards_a, cards_b, rules)
    pols = _policies(policies)
    checked = _check_tokens(tokens)
    if checked is None:
        raise InvalidSetupError(f"tokens must be a pair of whole numbers from 1 to {MAX_TOKENS} (DB-7), got None")
    if method not in _METHODS:
        raise InvalidSetupError(f"method must be one of {', '.join(map(repr, _METHODS))}, got {method!r}")
    if sampler not in _SAMPLERS:
        raise InvalidSetupError(f"sampler must be 'engine' or 'model', got {sampler!r}")
    _whole(trials, "trials", minimum=1)
    size = exact_size(na, nb, rules)
    if method == "exact" and size > EXACT_LIMIT:
        raise TooBigError(
            f"an exact clash for {na} v {nb} cards needs {size:,} deal classes, above the limit of "
            f"{EXACT_LIMIT:,} (EXACT_LIMIT): use method='monte_carlo' (or 'auto') for Monte Carlo with 99% intervals"
        )
    if method == "monte_carlo" or (method == "auto" and size > EXACT_LIMIT):
        if sampler == "engine":
            counts = _engine_sample(na, nb, pols, rules, checked, trials, seed)
        else:
            counts = Counter()
            for (holder, path), n in _sample_paths(na, nb, pols, rules, trials, seed).items():
                la, lb, destroyed = settle_losses(checked, path)
                counts[ClashOutcome(la, lb, holder, destroyed)] += n
        return ClashLosses(
            _sorted_joint(counts), "monte_carlo", size, checked, trials, sampler, seconds=time.perf_counter() - started
        )
    weights: dict[ClashOutcome, Fraction] = defaultdict(Fraction)
    for (holder, path), p in _exact_paths(na, nb, pols, rules).items():
        la, lb, destroyed = settle_losses(checked, path)
        weights[ClashOutcome(la, lb, holder, destroyed)] += p
    return ClashLosses(_sorted_joint(weights), "exact", size, checked, seconds=time.perf_counter() - started)


# -- the whole battle -------------------------------------------------------------------------
class BattleEnd(NamedTuple):
    """How a battle ended.

    Attributes:
        winner: ``"a"``, ``"b"``, or ``None`` when undecided or both armies were destroyed at once.
        how: ``"retreat"`` (the loser failed a morale check, DB-8), ``"destroyed"`` (the
            loser was reduced to 0 tokens, DB-7) or ``"undecided"`` (still going after
            ``max_rounds``).
        rounds: the round it ended in.
    """

    winner: str | None
    how: str
    rounds: int


@dataclass(frozen=True)
class BattleOdds:
    """The outcome of a whole battle, from the Markov chain over rounds.

    It reads like the :class:`~toolkit.prob.Distribution` of :class:`BattleEnd`.

    Attributes:
        distribution: the distribution of :class:`BattleEnd`.
        exact: whether every transition is exact. When some clashes were sampled the
            probabilities are exact arithmetic on Monte Carlo estimates: **approximate**.
        method: ``"exact"``, ``"monte_carlo"`` (every clash sampled) or ``"mixed"``.
        sampled: the (cards a, cards b) hand-size pairs whose clash odds are Monte Carlo.
        trials: Monte Carlo clashes per sampled pair (``None`` when exact).
        note: a sentence saying where the numbers come from.
    """

    distribution: Distribution[BattleEnd]
    exact: bool
    method: str
    sampled: tuple[tuple[int, int], ...] = ()
    trials: int | None = None
    note: str = ""
    states: int = 0
    seconds: float = field(default=0.0, compare=False)

    @property
    def approximate(self) -> bool:
        return not self.exact

    def __getitem__(self, outcome: BattleEnd) -> Fraction:
        return self.distribution[outcome]

    def items(self) -> list[tuple[BattleEnd, Fraction]]:
        return self.distribution.items()

    def outcomes(self) -> list[BattleEnd]:
        return self.distribution.outcomes()

    def __iter__(self) -> Iterator[BattleEnd]:
        return iter(self.distribution)

    def __len__(self) -> int:
        return len(self.distribution)

    def probability(self, event: Any) -> Fraction:
        return self.distribution.probability(event)

    def marginal(self, f: Any) -> Distribution[Any]:
        return self.distribution.marginal(f)

    def mean(self, f: Any = None) -> Fraction:
        return self.distribution.mean(f)

    def winner(self) -> Distribution[str | None]:
        """The distribution of the winner (``None``: undecided)."""
        return self.distribution.marginal("winner")

    def to_frame(self, floats: bool = False) -> pd.DataFrame:
        """A table: ``winner``, ``how``, ``rounds``, ``probability`` and ``percent``."""
        return self.distribution.to_frame(floats)

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.note)}</p>" + self.distribution._repr_html_()

    def __str__(self) -> str:
        lines = [f"BattleOdds, {self.note}"]
        for key, label in (("a", "a wins"), ("b", "b wins"), (None, "undecided")):
            p = self.probability(lambda o, k=key: o.winner == k)
            lines.append(f"  {label:10} {float(p):.2%}")
        return "\n".join(lines)


def _check_army(army: object, who: str) -> Army:
    if not isinstance(army, Army):
        raise InvalidSetupError(f"army_{who} must be an Army (tokens and a Leader), got {army!r}")
    if army.destroyed:
        raise InvalidSetupError(f"{army.name} has no tokens and cannot fight (DB-7)")
    return army


def battle_outcome(
    army_a: Army,
    army_b: Army,
    rules: Rules | None = None,
    policies: Sequence[str | Policy] | str | Policy = ("greedy", "greedy"),
    max_rounds: int = 50,
    method: str = "auto",
    trials: int = DEFAULT_BATTLE_TRIALS,
    seed: int = 0,
) -> BattleOdds:
    """Return the distribution of how a whole battle ends: the winner, how (``"retreat"``,
    ``"destroyed"``, ``"undecided"`` after ``max_rounds``) and the round.

    The battle is a Markov chain over rounds whose state is both armies' tokens (the
    tokens lost in the whole battle, for ``morale_penalty="battle"``, are the tokens
    each army started with minus what it holds). Each round:

    1. Both leaders roll Knowledge (Battle) and draw that many cards plus 1 per token
       their army outnumbers the other by (DB-2, :func:`hand_size_distribution`), from a
       fresh deck (DB-9).
    2. The clash for those hand sizes (:func:`clash_losses`' tables, exact or Monte Carlo,
       computed once per pair of hand sizes): who held the initiative (DB-3) and the
       losses as they happened. No attack card on either side: no clash and no morale
       roll; the next round starts.
    3. Losses never go below 0; an army at 0 is destroyed and the battle ends at once
       (DB-7; side a is checked first when both reach 0 together, as the engine does).
    4. Morale (DB-8): the side originally attacked — without the initiative — rolls
       Spirit first, -1 per token lost (in the clash, or the battle with the variant),
       4+ to stay; if it stays the other side rolls. A failure is a retreat.

    ``method="auto"`` computes each clash table exactly within :data:`EXACT_LIMIT` and by
    Monte Carlo (``trials`` clashes per pair of hand sizes, played with
    :class:`ClashPosition`) above it; ``"exact"`` raises :class:`~toolkit.errors.TooBigError`
    if any pair is above the limit; ``"monte_carlo"`` samples every pair. With any
    sampled pair the result is approximate: ``result.exact`` is ``False`` and
    ``result.note`` says so.

    Raises:
        InvalidSetupError: a destroyed army, bad rules, policies, method, trials or
            max_rounds; hands that could be larger than the deck.
        TooBigError: ``method="exact"`` when a reachable pair of hand sizes is above the limit.
    """
    started = time.perf_counter()
    rules = _rules(rules)
    army_a, army_b = _check_army(army_a, "a"), _check_army(army_b, "b")
    if army_a.name == army_b.name:
        raise InvalidSetupError(f"the two armies need different names, both are {army_a.name!r}")
    pols = _policies(policies)
    _whole(max_rounds, "max_rounds", minimum=1)
    _whole(trials, "trials", minimum=1)
    if method not in _METHODS:
        raise InvalidSetupError(f"method must be one of {', '.join(map(repr, _METHODS))}, got {method!r}")
    leaders = (army_a.leader, army_b.leader)
    rolls = [trait_roll(ld.battle_die, ld.wild_card, ld.battle_modifier) for ld in leaders]
    spirit = [trait_roll(ld.spirit_die, ld.wild_card, ld.spirit_modifier) for ld in leaders]
    start = (army_a.tokens, army_b.tokens)
    deck = rules.deck_size
    largest = [recon.cards_drawn(max(r.outcomes())) for r in rolls]

    sampled: set[tuple[int, int]] = set()
    tables: dict[tuple[int, int], dict[tuple[str | None, Path], Fraction]] = {}

    def table(na: int, nb: int) -> dict[tuple[str | None, Path], Fraction]:
        if (na, nb) in tables:
            return tables[(na, nb)]
        size = exact_size(na, nb, rules)
        if method == "exact" and size > EXACT_LIMIT:
            raise TooBigError(
                f"the battle reaches clashes of {na} v {nb} cards, {size:,} deal classes, above the limit of "
                f"{EXACT_LIMIT:,} (EXACT_LIMIT): use method='auto' (Monte Carlo for those) or 'monte_carlo'"
            )
        if method == "monte_carlo" or size > EXACT_LIMIT:
            counts = _sample_paths(na, nb, pols, rules, trials, seed)
            found = {k: Fraction(n, trials) for k, n in counts.items()}
            sampled.add((na, nb))
        else:
            found = _exact_paths(na, nb, pols, rules)
        tables[(na, nb)] = found
        return found

    @cache
    def pass_chance(side: int, penalty: int) -> Fraction:
        return spirit[side].probability(lambda r: morale_holds(r, penalty))

    def transition(ta: int, tb: int) -> tuple[dict[tuple[int, int], Fraction], dict[tuple[str, str], Fraction]]:
        """From tokens (ta, tb): next states, and endings (winner, how), for one round."""
        adv = (recon.token_advantage(ta, tb), recon.token_advantage(tb, ta))
        worst = largest[0] + largest[1] + adv[0] + adv[1]
        if worst > deck:
            raise InvalidSetupError(
                f"with tokens {ta} v {tb} the hands could reach {worst} cards ({largest[0]} + {largest[1]} rolled "
                f"+ {adv[0] + adv[1]} for outnumbering), more than the {deck}-card deck holds (DB-1, DB-2)"
            )
        sizes = rolls[0].map(lambda r: recon.cards_drawn(r, adv[0])).combine(
            rolls[1].map(lambda r: recon.cards_drawn(r, adv[1]))
        )
        nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        ends: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        settled: dict[tuple[str | None, int, int, str | None], Fraction] = defaultdict(Fraction)
        for (na, nb), p in sizes.items():
            for (holder, path), q in table(na, nb).items():
                la, lb, destroyed = settle_losses((ta, tb), path)
                settled[(holder, la, lb, destroyed)] += p * q
        for (holder, la, lb, destroyed), p in settled.items():
            if holder is None:  # DB-3: no clash, no morale roll
                nxt[(ta, tb)] += p
                continue
            if destroyed is not None:  # DB-7: both at once leaves no winner
                winner = None if destroyed == "both" else SIDES[1 - SIDES.index(destroyed)]
                ends[(winner, "destroyed")] += p
                continue
            left = (ta - la, tb - lb)
            lost = (
                morale_penalty(rules, la, start[0] - left[0]),
                morale_penalty(rules, lb, start[1] - left[1]),
            )
            first, second = morale_order(1 - SIDES.index(holder))  # DB-8: the side originally attacked first
            p_first = pass_chance(first, lost[first])
            p_second = pass_chance(second, lost[second])
            ends[(SIDES[second], "retreat")] += p * (1 - p_first)
            ends[(SIDES[first], "retreat")] += p * p_first * (1 - p_second)
            nxt[left] += p * p_first * p_second
        return dict(nxt), dict(ends)

    # Transitions as integer weights over one denominator per state, found as reached.
    trans: dict[tuple[int, int], tuple[int, dict[tuple[int, int], int], dict[tuple[str, str], int]]] = {}

    def weights_of(s: tuple[int, int]):
        if s not in trans:
            nxt, ends = transition(*s)
            den = lcm(*(p.denominator for p in list(nxt.values()) + list(ends.values())))
            trans[s] = (
                den,
                {t: int(p * den) for t, p in nxt.items()},
                {e: int(p * den) for e, p in ends.items()},
            )
        return trans[s]

    alive: dict[tuple[int, int], int] = {start: 1}
    scale = 1  # alive weights are over this denominator
    result: dict[BattleEnd, Fraction] = defaultdict(Fraction)
    for round_no in range(1, max_rounds + 1):
        if not alive:
            break
        dens = {s: weights_of(s)[0] for s in alive}
        common = lcm(*dens.values())
        new_alive: dict[tuple[int, int], int] = defaultdict(int)
        ended: dict[tuple[str, str], int] = defaultdict(int)
        for s, w in alive.items():
            den, nxt, ends = trans[s]
            factor = w * (common // den)
            for t, x in nxt.items():
                new_alive[t] += factor * x
            for e, x in ends.items():
                ended[e] += factor * x
        scale *= common
        for (winner, how), x in ended.items():
            if x:
                result[BattleEnd(winner, how, round_no)] += Fraction(x, scale)
        alive = {s: w for s, w in new_alive.items() if w}
    if alive:
        result[BattleEnd(None, "undecided", max_rounds)] += Fraction(sum(alive.values()), scale)
    ordered = sorted(result, key=lambda e: (e.winner or "~", e.how, e.rounds))
    dist = Distribution({e: result[e] for e in ordered})
    all_pairs = len(tables)
    if not sampled:
        how, note = "exact", f"exact: every clash computed exactly ({all_pairs} pairs of hand sizes)"
    else:
        how = "monte_carlo" if len(sampled) == all_pairs else "mixed"
        why = "method='monte_carlo'" if method == "monte_carlo" else f"above EXACT_LIMIT={EXACT_LIMIT:,} deal classes"
        note = (
            f"APPROXIMATE: the clash odds of {len(sampled)} of {all_pairs} pairs of hand sizes are Monte Carlo "
            f"estimates ({trials:,} clashes each; {why}); the chain's arithmetic on them is exact"
        )
    return BattleOdds(
        dist,
        not sampled,
        how,
        tuple(sorted(sampled)),
        trials if sampled else None,
        note,
        len(trans),
        seconds=time.perf_counter() - started,
    )
