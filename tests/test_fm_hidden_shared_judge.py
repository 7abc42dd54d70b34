"""The referee's judgements shared by the hidden-hands games of one rule set (FM-5..FM-12).

A game built after games of other hand sizes or another deck left asks the referee only
about classes none of them met; its own key and outcome numbering is still the order it
meets them, so its matrix, outcome list and solve are bit-for-bit those of a cold build
(every cache cleared). Also: the build's sort-based unique is NumPy's ``np.unique``, and its
sums by (colours, class, difference) are ``np.unique`` of the triples with ``np.bincount``'s sums.
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden import solve_hidden
from toolkit.fairy_meat.strategy.hidden.policies import clear_strategy_cache
from toolkit.fairy_meat.strategy.hidden.sorted_counts import group_ints, sum_by_triple, unique_ints


def _solve(a: int, d: int, rules: Rules, removed: tuple[str, ...] = ()):
    return solve_hidden(a, d, rules, removed=removed, target=1e-12, max_iterations=10, time_limit=600, check_every=5)


def _bits(h) -> tuple:
    m = h.game.matrix
    return (
        m.data.tobytes(),
        m.indices.tobytes(),
        m.indptr.tobytes(),
        tuple(h.game.judge.outcomes),
        tuple(h.game.judge.keys),
        (h.value, h.lower, h.upper, h.payoff_range, tuple(c[0::2] for c in h.curve)),
    )


@pytest.mark.parametrize("rules", [Rules(), Rules(trump_value=2)], ids=["draft", "trump worth 2"])
def test_shared_judgements_give_the_cold_build_bit_for_bit(rules):
    clear_strategy_cache()
    cold = _solve(2, 1, rules)
    cold_21, cold_calls = _bits(cold), cold.game.judge.calls
    clear_strategy_cache()
    cold_dep = _bits(_solve(1, 1, rules, ("2H", "3H", "4D")))
    clear_strategy_cache()
    _solve(1, 1, rules)  # judges classes the next games meet again
    warm_21 = _solve(2, 1, rules)
    warm_dep = _solve(1, 1, rules, ("2H", "3H", "4D"))  # another deck left: the same rules' classes
    assert _bits(warm_21) == cold_21
    assert _bits(warm_dep) == cold_dep
    assert warm_21.game.judge.calls < cold_calls  # the referee was asked less
    clear_strategy_cache()


@pytest.mark.parametrize("n", [0, 1, 7, 300, 5000])
def test_unique_ints_is_numpys_unique(n):
    rng = np.random.default_rng(n)
    big = rng.integers(0, 2**61, size=n)  # too large to pack with its position: the plain stable sort
    for values in (rng.integers(0, 40, size=n), rng.integers(-5, 10**9, size=(n, 3)), big):
        want = np.unique(values, return_index=True, return_inverse=True)
        got = unique_ints(values)
        for w, g in zip(want, got, strict=True):
            assert np.array_equal(w.reshape(-1), g)


@pytest.mark.parametrize("n", [1, 50, 3000])
@pytest.mark.parametrize("spread", [3, 40, 5000], ids=["few classes", "some classes", "spread classes"])
def test_sum_by_triple_is_unique_and_bincount(n, spread):
    rng = np.random.default_rng(n * spread)
    first = rng.integers(0, 4, size=n)
    second = rng.integers(0, spread, size=n) * 7 + 11  # class key ids: few distinct, spread apart
    third = rng.integers(-20, 20, size=n)
    weights = rng.random(n)
    triples, inverse = np.unique(np.stack([first, second, third], axis=1), axis=0, return_inverse=True)
    want = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(triples))
    got_first, got_second, got_third, got = sum_by_triple(first, second, third, weights)
    assert np.array_equal(np.stack([got_first, got_second, got_third], axis=1), triples)
    assert np.array_equal(got, want)  # the same sums, bit for bit


@pytest.mark.parametrize("n", [1, 2, 30, 432, 4000])
def test_group_ints_is_a_dict_of_groups_in_order_of_appearance(n):
    rng = np.random.default_rng(n + 1)
    for values in (rng.integers(0, 6, size=n), rng.integers(0, 10**6, size=n), np.full(n, 3)):
        # the plain reference: groups numbered as they come, a stable argsort of the numbers
        groups: dict[int, int] = {}
        number = np.array([groups.setdefault(v, len(groups)) for v in values.tolist()], dtype=np.int64)
        firsts: dict[int, int] = {}
        for i, g in enumerate(number.tolist()):
            firsts.setdefault(g, i)
        order = np.argsort(number, kind="stable")
        starts = np.searchsorted(number[order], np.arange(len(groups)))
        first, got_order, got_starts = group_ints(values)
        assert values[first].tolist() == list(groups)
        assert np.array_equal(first, list(firsts.values()))
        assert got_order.dtype == order.dtype and np.array_equal(got_order, order)
        assert got_starts.dtype == starts.dtype and np.array_equal(got_starts, starts)
