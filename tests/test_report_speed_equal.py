"""The report speed-ups (issue 14, item 5) change no result.

- Durak battle chain (DB-2..DB-8): :func:`battle_outcome` now sums the clash tables as
  integers, shares the chain's transitions between battles of the same leaders and rules,
  and uses one clash table for both morale variants (DB-8 is rolled after the clash).
  Checked against an independent Markov chain written here with plain fractions from the
  same clash tables, cold and warm, exact and Monte Carlo (same seed: equal).
- Fairy Meat hidden hands (FM-1..FM-7): the engine policies' strategies are remembered
  per game structure (a second payoff reuses them) and their representative states per
  game; ``dummy_hand`` reads a cached list of Numbered cards. Checked against the old
  filler loop and against a cold computation.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from toolkit.cards import standard_deck
from toolkit.durak_battle import Army, Leader, Rules
from toolkit.durak_battle.morale import morale_holds, morale_order, morale_penalty, spirit_roll
from toolkit.durak_battle.odds import BattleEnd, battle_outcome
from toolkit.durak_battle.odds.checks import check_policies
from toolkit.durak_battle.odds.clash_losses import clear_caches, exact_clash_paths, sampled_clash_paths
from toolkit.durak_battle.recon import cards_drawn, knowledge_roll, token_advantage
from toolkit.durak_battle.rules import SIDES, settle_losses
from toolkit.fairy_meat import Payoff
from toolkit.fairy_meat import Rules as FairyRules
from toolkit.fairy_meat.deck import is_numbered, trump_pools
from toolkit.fairy_meat.policies import cautious_policy
from toolkit.fairy_meat.strategy.hidden import solve_hidden
from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache, dummy_hand, policy_strategy

# Small armies whose hands stay within EXACT_LIMIT (as tests/test_durak_battle_odds.py).
LEADER_A = Leader("Ana", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-2)
LEADER_B = Leader("Bo", battle_die="d6", spirit_die="d8", wild_card=False, battle_modifier=-4)


def reference_battle(ta0, tb0, rules, max_rounds, method="exact", trials=0, seed=0):
    """The battle chain of DB-2..DB-8 with plain fractions: one dict of state -> probability
    per round, each clash path's probability multiplied out (the pre-speed-up arithmetic)."""
    pols = check_policies(("greedy", "greedy"))
    rolls = [knowledge_roll(LEADER_A), knowledge_roll(LEADER_B)]
    spirit = [spirit_roll(LEADER_A), spirit_roll(LEADER_B)]

    def table(na, nb):
        if method == "monte_carlo":
            counts = sampled_clash_paths(na, nb, pols, rules, trials, seed)
            return {k: Fraction(n, trials) for k, n in counts.items()}
        return exact_clash_paths(na, nb, pols, rules)

    def holds(side, penalty):
        return spirit[side].probability(lambda r: morale_holds(r, penalty))

    alive = {(ta0, tb0): Fraction(1)}
    result: dict[BattleEnd, Fraction] = defaultdict(Fraction)
    for round_no in range(1, max_rounds + 1):
        new: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (ta, tb), w in alive.items():
            adv = (token_advantage(ta, tb), token_advantage(tb, ta))
            sizes = (
                rolls[0]
                .map(lambda r, k=adv[0]: cards_drawn(r, k))
                .combine(rolls[1].map(lambda r, k=adv[1]: cards_drawn(r, k)))
            )
            for (na, nb), p in sizes.items():
                for (holder, path), q in table(na, nb).items():
                    x = w * p * q
                    if holder is None:
                        new[(ta, tb)] += x
                        continue
                    la, lb, destroyed = settle_losses((ta, tb), path)
                    if destroyed is not None:
                        winner = None if destroyed == "both" else SIDES[1 - SIDES.index(destroyed)]
                        result[BattleEnd(winner, "destroyed", round_no)] += x
                        continue
                    left = (ta - la, tb - lb)
                    lost = (morale_penalty(rules, la, ta0 - left[0]), morale_penalty(rules, lb, tb0 - left[1]))
                    first, second = morale_order(1 - SIDES.index(holder))
                    p1, p2 = holds(first, lost[first]), holds(second, lost[second])
                    result[BattleEnd(SIDES[second], "retreat", round_no)] += x * (1 - p1)
                    result[BattleEnd(SIDES[first], "retreat", round_no)] += x * p1 * (1 - p2)
                    new[left] += x * p1 * p2
        alive = {s: w for s, w in new.items() if w}
    if alive:
        result[BattleEnd(None, "undecided", max_rounds)] += sum(alive.values())
    return {e: p for e, p in result.items() if p}


def outcome(ta, tb, rules, max_rounds, **kw):
    odds = battle_outcome(Army("a", ta, LEADER_A), Army("b", tb, LEADER_B), rules, max_rounds=max_rounds, **kw)
    return {e: p for e, p in odds.items() if p}, odds


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(morale_penalty="battle", counter_tie="loses")], ids=["default", "DB-5 DB-8 variants"]
)
def test_battle_chain_equals_plain_fractions_cold_and_warm(rules):
    clear_caches()
    cold, odds = outcome(2, 2, rules, 4, trials=60)
    assert odds.exact and cold == reference_battle(2, 2, rules, 4)
    outcome(3, 2, rules, 4, trials=60)  # reaches 2 v 2 and shares its states with the next battle
    warm, again = outcome(2, 2, rules, 4, trials=60)
    assert warm == cold and again.note == odds.note and again.method == odds.method


def test_battle_chain_monte_carlo_same_seed_equal():
    rules = Rules(morale_penalty="battle")
    clear_caches()
    cold, odds = outcome(2, 2, rules, 3, method="monte_carlo", trials=150, seed=4)
    assert odds.method == "monte_carlo" and odds.sampled
    assert cold == reference_battle(2, 2, rules, 3, method="monte_carlo", trials=150, seed=4)
    warm, again = outcome(2, 2, rules, 3, method="monte_carlo", trials=150, seed=4)
    assert warm == cold and again.sampled == odds.sampled and again.note == odds.note


def test_clash_tables_do_not_read_the_morale_rule():
    # DB-8 is rolled after the clash: one table serves both morale variants (what the
    # battle chain relies on to share them); same seed, same sample.
    pols = check_policies(("greedy", "greedy"))
    clash, battle = Rules(), Rules(morale_penalty="battle")
    assert sampled_clash_paths(3, 3, pols, clash, 120, 9) == sampled_clash_paths(3, 3, pols, battle, 120, 9)
    assert exact_clash_paths(2, 2, pols, clash) == exact_clash_paths(2, 2, pols, battle)


# -- Fairy Meat hidden hands ------------------------------------------------------------------
def old_dummy_hand(size, placed, avoid, side):
    """The filler loop before the speed-up: the whole standard deck, Numbered cards only."""
    out = []
    if placed is not None:
        colour, n, _ace = placed
        pools = trump_pools()
        pool = [c for c in (pools[colour] if side == 0 else pools[colour][::-1]) if c not in avoid]
        if len(pool) < n:
            return None
        out += pool[:n]
    for card in standard_deck():
        if len(out) >= size:
            break
        if is_numbered(card) and card not in avoid and card not in out:
            out.append(card)
    return out if len(out) == size else None


@pytest.mark.parametrize("side", [0, 1])
def test_dummy_hand_fills_as_before(side):
    deck = [c for c in standard_deck() if is_numbered(c)]
    for size in (1, 2, 3, 5):
        for placed in (None, ("red", 1, False), ("black", 2, False)):
            for avoid in (set(), set(deck[:3]), set(deck[5:30]), set(deck[:-2])):
                assert dummy_hand(size, placed, avoid, side) == old_dummy_hand(size, placed, avoid, side)


def test_policy_strategies_are_shared_between_payoffs_unchanged():
    rules = FairyRules()
    first = solve_hidden(2, 1, rules, Payoff(), target=0.05, time_limit=30)
    clear_strategy_cache()
    cold = policy_strategy(first.game, 0, cautious_policy)
    warm = policy_strategy(first.game, 0, cautious_policy)  # from the cache
    other = solve_hidden(2, 1, rules, Payoff(defender_points=0), target=0.05, time_limit=30)
    shared = policy_strategy(other.game, 0, cautious_policy)  # another payoff: the same structure
    for got in (warm, shared):
        assert len(got) == len(cold) and all(np.array_equal(a, b) for a, b in zip(got, cold, strict=True))
    warm[0][:] = -1  # a caller changing its copy does not change the cache
    assert np.array_equal(policy_strategy(first.game, 0, cautious_policy)[0], cold[0])
    clear_strategy_cache()
    value = other.evaluate(cautious_policy, "greedy")
    clear_strategy_cache()
    fresh = solve_hidden(2, 1, rules, Payoff(defender_points=0), target=0.05, time_limit=30)
    assert fresh.evaluate(cautious_policy, "greedy") == value
