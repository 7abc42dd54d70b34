"""One clash with both hands known, solved exactly as a perfect-information game (:func:`clash_value`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational
from typing import Any, NamedTuple

from toolkit.cards import Card, check_distinct, parse_cards
from toolkit.durak_battle.best_play import ClashSolver, Payoff, position_of, solver_for
from toolkit.durak_battle.engine import BattleState, start_clash
from toolkit.durak_battle.initiative_rule import NO_CLASH, TIE_COIN, initiative_holder
from toolkit.durak_battle.odds.checks import (
    check_rules,
    check_tokens,
)
from toolkit.durak_battle.position import ClashPosition, sorted_hand
from toolkit.durak_battle.rules import MAX_TOKENS, SIDES, Army, Leader, Rules
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError, TooBigError

__all__ = [
    "ActionValue",
    "ClashValue",
    "clash_value",
    "clash_armies",
]

#: Most cards the two hands of :func:`clash_value` may hold together: the search visits up
#: to 2 ** cards hand positions, so 20 cards is about a million.
CLASH_CARDS_LIMIT = 20


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
    _solver: ClashSolver | None = field(default=None, repr=False, compare=False)

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
        node = position_of(state)
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


def clash_armies(tokens: tuple[int, int] | None) -> tuple[Army, Army]:
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
        TooBigError: more than :data:`CLASH_CARDS_LIMIT` cards in the two hands (before
            starting), or more than 2,000,000 positions to search.

    >>> cv = clash_value("7S 9H QD", "10S 4H")
    >>> cv.value, cv.lost_a, cv.lost_b  # b attacks with 10S, a manoeuvres with QD; a's 7S beats 4H
    (Fraction(2, 1), Fraction(1, 1), Fraction(3, 1))
    >>> cv.line
    ('attack 10S', 'manoeuvre QD', 'attack 7S', 'defence 4H')
    >>> cv.best_answers(cv.start.apply("attack 10S"))[0]
    ActionValue(action='manoeuvre QD', value=Fraction(2, 1))
    """
    rules = check_rules(rules)
    a, b = _parse_hand(hand_a, "a", rules), _parse_hand(hand_b, "b", rules)
    check_distinct(a + b, "the two hands")
    if len(a) + len(b) > CLASH_CARDS_LIMIT:
        raise TooBigError(
            f"a clash of {len(a)} v {len(b)} cards can reach up to 2^{len(a) + len(b)} = {2 ** (len(a) + len(b)):,} "
            f"hand positions (limit: {CLASH_CARDS_LIMIT} cards in the two hands): solve smaller hands, or estimate "
            f"with clash_losses({len(a)}, {len(b)}, method='monte_carlo') over random deals"
        )
    tokens = check_tokens(tokens)
    payoff = _check_payoff(payoff)
    if callable(payoff):  # a function is seldom met twice: its own solver, forgotten after
        return _clash_value(ClashSolver(rules, payoff, tokens), a, b, rules, tokens)
    solver = solver_for(rules, payoff, tokens)  # the session's memo: positions recur from deal to deal
    if not solver.memo:
        return _clash_value(solver, a, b, rules, tokens)
    try:
        return _clash_value(solver, a, b, rules, tokens)
    except TooBigError:  # the memo kept from other clashes left too little room: search again alone
        return _clash_value(solver_for(rules, payoff, tokens, fresh=True), a, b, rules, tokens)


def _clash_value(
    solver: ClashSolver, a: tuple[Card, ...], b: tuple[Card, ...], rules: Rules, tokens: tuple[int, int] | None
) -> ClashValue:
    """:func:`clash_value` of two checked hands with ``solver``."""
    army_a, army_b = clash_armies(tokens)
    who = initiative_holder(a, b, rules)
    hands = (sorted_hand(a), sorted_hand(b))
    if who is NO_CLASH:
        zero = Fraction(solver.payoff_of((0, 0)))
        start = start_clash(army_a, army_b, (a, b), rules)
        return ClashValue(zero, Fraction(0), Fraction(0), None, None, (), start=start, tokens=tokens)
    if who is None:
        branches = {}
        for side in SIDES:
            branches[side] = _solve_from(solver, hands, SIDES.index(side), rules, tokens, (a, b), side)
        half = TIE_COIN  # DB-3: each side wins the coin half the time
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


def _solve_from(solver: ClashSolver, hands, holder: int, rules: Rules, tokens, dealt, coin: str | None) -> ClashValue:
    army_a, army_b = clash_armies(tokens)
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
        lost, over = solver.apply_losses(lost, events)
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
