"""The Wild Trump draw law applied to the deck left by both hands: one and two draws (FM-6)."""

from __future__ import annotations

from functools import cache

from toolkit.fairy_meat.deck import (
    wild_draw_ways,
)

__all__ = ["falling", "single_draws", "double_draws"]


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def single_draws(trumps: tuple[int, int, int], deck: int, k: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """Trumps turned up before the first Numbered card, by type: ((red, black, A♠), weight),
    the weight being P(these Trumps, then one specific Numbered card) x deck_(k)."""
    red, black, ace = trumps
    out = []
    for r in range(red + 1):
        for b in range(black + 1):
            for s in range(ace + 1):
                j = r + b + s
                w = wild_draw_ways(trumps, (r, b, s)) * falling(deck - j - 1, k - j - 1)
                out.append(((r, b, s), w))
    return tuple(out)


@cache
def double_draws(
    trumps: tuple[int, int, int], deck: int, k: int
) -> tuple[tuple[tuple[int, int, int], tuple[int, int, int], int], ...]:
    """The attacker's draw, then the defender's from what is left: (first Trumps, second
    Trumps, P(both, each ending with one specific Numbered card) x deck_(k))."""
    red, black, ace = trumps
    out = []
    for (r1, b1, s1), _ in single_draws(trumps, deck, k):
        j1 = r1 + b1 + s1
        head = wild_draw_ways(trumps, (r1, b1, s1))
        for r2 in range(red - r1 + 1):
            for b2 in range(black - b1 + 1):
                for s2 in range(ace - s1 + 1):
                    j2 = r2 + b2 + s2
                    w = head * wild_draw_ways((red - r1, black - b1, ace - s1), (r2, b2, s2))
                    out.append(((r1, b1, s1), (r2, b2, s2), w * falling(deck - j1 - j2 - 2, k - j1 - j2 - 2)))
    return tuple(out)
