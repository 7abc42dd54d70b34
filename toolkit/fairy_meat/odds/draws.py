"""The Wild Trump draw law applied to the deck left by both hands: one and two draws (FM-6)."""

from __future__ import annotations

import itertools
from functools import cache

from toolkit.fairy_meat.deck import (
    wild_draw_ways,
)

__all__ = ["falling", "turn_ups", "single_draws", "double_draws"]


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
