"""Solving the hidden-hands game by CFR+ with measured exploitability (:func:`solve_hidden`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from toolkit.cards import parse_cards
from toolkit.equilibrium.cfr import CFRPlus, best_response_value, profile_value
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.hands import HIDDEN_LIMIT, check_cards, deck_caps, hidden_size
from toolkit.fairy_meat.strategy.hidden.matrix import build_game
from toolkit.fairy_meat.strategy.hidden.solution import HiddenSolution
from toolkit.fairy_meat.strategy.payoff import Payoff
from toolkit.odds_result import check_time_limit
from toolkit.whole_numbers import whole_number

__all__ = ["solve_hidden"]


def solve_hidden(
    attacker_cards: int,
    defender_cards: int,
    rules: Rules | None = None,
    payoff: Payoff | None = None,
    *,
    removed: Sequence[str] = (),
    target: float = 0.01,
    max_iterations: int = 2000,
    time_limit: float = 60.0,
    check_every: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> HiddenSolution:
    """Solve one attack with hidden hands (FM-1..FM-10, FM-12) by CFR+.

    The payoff-free part of the game (referee judgements, Wild Trump draw laws, the
    matrix's entries) is remembered for the two most recent (sizes, deck, rules): solving
    again with another payoff only values the outcomes for it (the same matrix as a cold
    build); :func:`~.policies.clear_strategy_cache` forgets it.

    Args:
        attacker_cards, defender_cards: hand sizes (whole numbers >= 1, FM-2).
        rules: the rules in force, any valid rule set: the deck is the rules' (its
            Numbered and Trump ranks, 0-2 jokers, the death card of either colour or none,
            FM-1, FM-12), a Trump is worth ``trump_value`` (FM-8), and every other field is
            the referee's (``Rules.undefended`` never applies: with a card each the defender
            always has one to play, FM-6, FM-7).
        payoff: the zero-sum payoff (attacker's view, :class:`~.payoff.Payoff`).
        removed: cards known to be out of the deck (e.g. the Spoils Heap, FM-13).
        target: stop when the measured exploitability is at most ``target`` x the
            payoff range.
        max_iterations: stop after this many iterations anyway. The target and this
            budget are deterministic: a solve that stops on them gives the same figures
            on any machine, however slow or loaded.
        time_limit: a safety net (seconds, build included): a solve stopped by it depends
            on the machine's speed, and its ``stopped`` says ``"time"``
            (:meth:`~.solution.HiddenSolution.stop_note` words it for a report).
        check_every: measure the exploitability every this many iterations (default:
            5 for small games, 25 for large).
        clock: the clock the time limit reads (seconds; a test can slow it).

    Returns:
        :class:`HiddenSolution`: value, bounds (exact best responses in float64: measured,
        not estimated), the curve of exploitability, what stopped the solve (``stopped``:
        ``"target"``, ``"iterations"`` or ``"time"``), and readers of the strategies.

    Raises:
        InvalidSetupError: bad sizes, rules, payoff, target or limits.
        NotationError / InvalidSetupError: a bad or repeated card code in ``removed``.
        TooBigError: :func:`hidden_size` above :data:`HIDDEN_LIMIT`, before starting.
    """
    started = clock()
    rules = Rules() if rules is None else rules
    payoff = Payoff() if payoff is None else payoff
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    a = check_cards(attacker_cards, "attacker_cards", rules)
    d = check_cards(defender_cards, "defender_cards", rules)
    if not isinstance(payoff, Payoff):
        raise InvalidSetupError(f"payoff must be a fairy_meat Payoff, got {payoff!r}")
    if isinstance(target, bool) or not isinstance(target, int | float) or not target > 0:
        raise InvalidSetupError(f"target must be a number > 0.0, got {target!r}")
    time_limit = check_time_limit(time_limit)  # math.inf, or 10**400: no limit
    for name, value in (("max_iterations", max_iterations), ("check_every", check_every)):
        if value is None:
            continue
        whole_number(value, name, 1)
    if isinstance(removed, str):
        removed = removed.replace(",", " ").split()
    caps = deck_caps(removed, rules)
    removed_codes = tuple(c.code for c in parse_cards(list(removed)))
    if a + d > sum(caps):
        raise InvalidSetupError(f"{a} + {d} cards cannot be dealt from a deck of {sum(caps)} cards (FM-1)")
    size = hidden_size(a, d, rules)
    if size > HIDDEN_LIMIT:
        raise TooBigError(
            f"the hidden-hands game {a} v {d} has size {size:,} (hidden_size), above the limit of {HIDDEN_LIMIT:,} "
            "(about 3 v 2): use smaller hands, toolkit.fairy_meat.solve_attack for known hands, or Monte Carlo "
            "play-outs with the greedy policy (toolkit.fairy_meat.odds.deal_averaged_odds)"
        )
    if sum(caps) - a - d < 1 or sum(caps[:18]) < 2:
        raise InvalidSetupError(
            f"the deck left after the deal needs Numbered cards for Wild Trump draws (FM-6): it holds {sum(caps)} "
            f"cards, {sum(caps[:18])} of them Numbered, for hands of {a} and {d}"
        )
    game = build_game(a, d, caps, rules, payoff)  # shared with other payoffs' games (not their matrix)
    build = clock() - started
    solver = CFRPlus(game.sides, game.matrix)
    every = check_every or (5 if game.matrix.nnz < 1_000_000 else 25)
    goal = target * game.payoff_range
    curve: list[tuple[int, float, float]] = []
    lower = upper = 0.0
    stopped = ""
    while not stopped:
        solver.step()
        it = solver.t
        out_of_time = clock() - started >= time_limit
        last = it >= max_iterations or out_of_time
        if it % every == 0 or last:
            sa, sd = solver.average(0), solver.average(1)
            upper = best_response_value(game.sides, game.matrix, 0, sd)
            lower = best_response_value(game.sides, game.matrix, 1, sa)
            curve.append((it, clock() - started, upper - lower))
            if upper - lower <= goal:
                stopped = "target"
            elif it >= max_iterations:
                stopped = "iterations"
            elif out_of_time:
                stopped = "time"
    sa, sd = solver.average(0), solver.average(1)
    value = profile_value(game.sides, game.matrix, sa, sd)
    expl = upper - lower
    return HiddenSolution(
        attacker_cards=a,
        defender_cards=d,
        value=value,
        lower=lower,
        upper=upper,
        exploitability=expl,
        exploitability_share=expl / game.payoff_range if game.payoff_range else 0.0,
        payoff_range=game.payoff_range,
        iterations=solver.t,
        seconds=clock() - started,
        curve=tuple(curve),
        build_seconds=build,
        rules=rules,
        payoff=payoff,
        removed=removed_codes,
        stopped=stopped,
        target=target,
        time_limit=time_limit,
        _game=game,
        _strat=(sa, sd),
    )
