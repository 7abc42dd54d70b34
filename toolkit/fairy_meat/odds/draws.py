"""The Wild Trump draw law applied to the deck left by both hands: one and two draws (FM-6)."""

from __future__ import annotations

import itertools
import math
from functools import cache

from toolkit.fairy_meat.deck import (
    wild_draw_ways,
)

__all__ = ["falling", "turn_ups", "single_draws", "double_draws", "single_draw_count", "double_draw_count"]


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def turn_ups(trumps: tuple[int, ...]) -> itertools.product:
    """Every count by kind of Trumps a draw may turn up from ``trumps`` left by kind."""
    return itertools.product(*(range(n + 1) for n in trumps))


@cache
def single_draws(trumps: tuple[int, ...], deck: int, k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Trumps turned up before the first Numbered card, by kind: ((red, black, A♠[, jokers]),
    weight), the weight being P(these Trumps, then one specific Numbered card) x deck_(k)."""
    out = []
    for turned in turn_ups(trumps):
        j = sum(turned)
        w = wild_draw_ways(trumps, turned) * falling(deck - j - 1, k - j - 1)
        out.append((turned, w))
    return tuple(out)


@cache
def double_draws(
    trumps: tuple[int, ...], deck: int, k: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """The attacker's draw, then the defender's from what is left: (first Trumps, second
    Trumps, P(both, each ending with one specific Numbered card) x deck_(k))."""
    out = []
    for first, _ in single_draws(trumps, deck, k):
        j1 = sum(first)
        head = wild_draw_ways(trumps, first)
        rest = tuple(t - f for t, f in zip(trumps, first, strict=True))
        for second in turn_ups(rest):
            j2 = sum(second)
            w = head * wild_draw_ways(rest, second)
            out.append((first, second, w * falling(deck - j1 - j2 - 2, k - j1 - j2 - 2)))
    return tuple(out)


def single_draw_count(trumps: tuple[int, ...]) -> int:
    """How many entries :func:`single_draws` has for ``trumps`` left by kind, without making
    them: every count up to what is left of each kind, Π (T_i + 1)."""
    return math.prod(t + 1 for t in trumps)


def double_draw_count(trumps: tuple[int, ...]) -> int:
    """How many entries :func:`double_draws` has for ``trumps`` left by kind, without making
    them: the first draw turns up f_i ≤ T_i of each kind and the second up to T_i - f_i, so
    Π Σ_f (T_i - f + 1) = Π (T_i + 1)(T_i + 2) / 2."""
    return math.prod((t + 1) * (t + 2) // 2 for t in trumps)
