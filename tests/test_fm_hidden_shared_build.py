"""The hidden-hands game's payoff-free build, shared between payoffs (issue 14 item 5).

A second payoff on the same (hand sizes, deck, rules) reuses the referee's judgements, the
Wild Trump draw laws and the entries, and only values the outcomes for its payoff. The
references here are independent of the sharing: the same solve built cold (the cache
cleared), and :meth:`Payoff.of` on the referee's results of real attacks (FM-9..FM-12,
FM-14), with the worked example's first attack by hand (Sparklespaz scores 1 point: -1).
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from toolkit.cards import Card, standard_deck
from toolkit.errors import IllegalActionError
from toolkit.fairy_meat.deck import trump_pools
from toolkit.fairy_meat.referee import Play, is_numbered, resolve_attack
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden import solve_hidden
from toolkit.fairy_meat.strategy.hidden.judge import Outcome
from toolkit.fairy_meat.strategy.hidden.matrix import _BUILDS
from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache
from toolkit.fairy_meat.strategy.payoff import Payoff

P = Payoff()
Q = Payoff(damage=2, defender_points="1/2", nasty_hit=3)
PAYOFFS = (P, Q, Payoff(damage=0, defender_points=0, nasty_hit=1), Payoff(damage=1, defender_points=5, nasty_hit=0))


def _solve(a: int, d: int, payoff: Payoff, iterations: int = 15):
    # a fixed number of iterations: the stop does not depend on the clock (the matrices are
    # compared entry by entry; a few iterations with 3 checks compare the solver's path)
    return solve_hidden(a, d, Rules(), payoff, target=1e-12, max_iterations=iterations, time_limit=600, check_every=5)


def _same_matrix(x, y) -> None:
    x, y = x.tocsr(), y.tocsr()
    x.sort_indices()
    y.sort_indices()
    assert x.shape == y.shape
    assert np.array_equal(x.indptr, y.indptr) and np.array_equal(x.indices, y.indices)
    assert np.allclose(x.data, y.data, rtol=0, atol=1e-12)


def _same_solution(x, y) -> None:
    _same_matrix(x.game.matrix, y.game.matrix)
    for name in ("value", "lower", "upper", "payoff_range"):
        assert getattr(x, name) == pytest.approx(getattr(y, name), abs=1e-12, rel=0), name
    assert x.iterations == y.iterations
    pd.testing.assert_frame_equal(x.outcomes(), y.outcomes(), check_exact=False, atol=1e-12, rtol=0)


#: 2 v 1: the attacker places Trumps (FM-4, FM-5 hidden or shown); 1 v 2: the defender does,
#: and with a lone Trump neither can (FM-6). Both have plain entries, single and double Wild
#: Trump draws (FM-6, FM-7) and nasty hits (FM-12): every kind of entry the shared build lays
#: out, at less than half the cost of 2 v 2.
@pytest.mark.parametrize(("a", "d"), [(2, 1), (1, 2)])
def test_second_payoff_shares_the_build_and_changes_nothing(a, d):
    clear_strategy_cache()
    p_cold = _solve(a, d, P)
    q_warm = _solve(a, d, Q)
    p_warm = _solve(a, d, P)
    # shared: the judgements and entries; each game's own: the matrix, range and policy caches
    assert q_warm.game.judge is p_cold.game.judge and q_warm.game.coo is p_cold.game.coo
    assert q_warm.game.matrix is not p_cold.game.matrix
    assert q_warm.game.policy_cache is not p_cold.game.policy_cache
    assert q_warm.game.payoff == Q and p_cold.game.payoff == P
    clear_strategy_cache()  # forgets the shared builds too
    assert not _BUILDS
    q_cold = _solve(a, d, Q)
    assert q_cold.game.judge is not p_cold.game.judge
    _same_solution(p_warm, p_cold)
    _same_solution(q_warm, q_cold)
    # the second payoff really is another game (not P's matrix reused)
    assert abs(q_cold.value - p_cold.value) > 0.5 and q_cold.payoff_range != p_cold.payoff_range
    # a policy's value through a shared build equals the cold one
    assert q_warm.evaluate("greedy", "random") == pytest.approx(q_cold.evaluate("greedy", "random"), abs=1e-12)
    clear_strategy_cache()


def test_the_cache_keeps_two_games():
    clear_strategy_cache()
    for a, d in ((1, 1), (2, 1), (1, 2)):
        _solve(a, d, P, iterations=1)  # which builds are kept: the iterations do not matter
    assert len(_BUILDS) == 2 and all(k[:2] != (1, 1) for k in _BUILDS)
    _solve(2, 1, Q, iterations=1)  # a hit moves it to the end: (1, 2) is the next to go
    _solve(1, 1, Q, iterations=1)
    assert [k[:2] for k in _BUILDS] == [(2, 1), (1, 1)]
    clear_strategy_cache()
    assert not _BUILDS


def test_worked_example_by_hand():
    r = resolve_attack(
        Play("3D", trumps=("KS", "QC"), direction="subtract"), Play("2D", trumps=("KC",), direction="add")
    )
    out = Outcome.of_result(r)
    assert (out.winner, out.points, out.damage) == ("defender", 1, 0)
    assert P.of(out) == -1 and Q.of(out) == Fraction(-1, 2)  # 1 point at weight 1, then at 1/2


def _random_results(n: int, seed: int = 14):
    """Judged attacks of random real plays: any Numbered cards, Trumps of one colour (with
    the A♠ sometimes), either declarations, Wrestling or not (FM-4..FM-12, FM-14)."""
    rng = random.Random(seed)
    numbered = [c for c in standard_deck() if is_numbered(c)]
    out = []
    while len(out) < n:
        na, nd = rng.sample(numbered, 2)
        plays = []
        taken: set = set()
        for number in (na, nd):
            colour = rng.choice(("red", "black"))
            pool = [c for c in trump_pools()[colour] if c not in taken]
            trumps = rng.sample(pool, rng.randint(0, 2))
            if colour == "black" and rng.random() < 0.3:
                trumps.append(Card("AS"))
            if Card("AS") in taken and Card("AS") in trumps:
                trumps.remove(Card("AS"))
            taken.update(trumps)
            plays.append(Play(number, trumps=tuple(trumps), direction=rng.choice(("add", "subtract"))))
        try:
            out.append(resolve_attack(plays[0], plays[1], wrestling=rng.random() < 0.3))
        except IllegalActionError:
            continue
    return out


def test_the_outcome_record_holds_all_a_payoff_reads():
    """Attacks with one outcome record are worth the same under every payoff, and the
    record is worth what the referee's result is worth (the payoff's own rule)."""
    results = _random_results(600)
    by_record = defaultdict(set)
    for r in results:
        rec = Outcome.of_result(r)
        for pay in PAYOFFS:
            assert pay.of(rec) == pay.of(r)
        by_record[rec].add(tuple(pay.of(r) for pay in PAYOFFS))
    assert all(len(v) == 1 for v in by_record.values())
    kinds = {(rec.winner, rec.nasty_hit, rec.attacker_damage > 0) for rec in by_record}
    assert {w for w, _, _ in kinds} == {"attacker", "defender", "draw"}
    assert any(nasty for _, nasty, _ in kinds) and any(wrest for _, _, wrest in kinds)


def test_the_judge_values_its_outcomes_for_each_payoff():
    clear_strategy_cache()
    sol = _solve(2, 1, P)
    judge = sol.game.judge
    for pay in PAYOFFS:
        vec = judge.payvec(pay)
        assert len(vec) == len(judge.outcomes)
        for rec, v in zip(judge.outcomes, vec, strict=True):
            by_hand = pay.damage * (rec.damage - rec.attacker_damage)
            if rec.winner == "defender" and rec.attacker_damage == 0:
                by_hand -= pay.defender_points * rec.points
            by_hand += pay.nasty_hit * sum(1 if s == "defender" else -1 for s in rec.nasty_hit_to)
            assert v == float(by_hand)
    clear_strategy_cache()
