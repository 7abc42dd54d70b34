"""A round's odds before the clash: cards drawn (DB-2), suits held (DB-1), initiative (DB-3), morale (DB-8)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import comb
from typing import NamedTuple

from toolkit.dice import trait_roll
from toolkit.durak_battle.morale import morale_holds
from toolkit.durak_battle.odds.checks import (
    check_rules,
    check_sizes,
)
from toolkit.durak_battle.recon import cards_drawn
from toolkit.durak_battle.rules import SUIT_SIZE, Rules
from toolkit.errors import InvalidSetupError
from toolkit.prob import Distribution
from toolkit.whole_numbers import whole_number

__all__ = [
    "hand_size_distribution",
    "SuitComposition",
    "suit_composition",
    "initiative",
    "morale_pass_probability",
]


# -- reconnaissance (DB-2) -----------------------------------------------------------------
def hand_size_distribution(
    battle_die: int | str,
    wild_die: bool = True,
    modifier: int = 0,
    token_advantage: int = 0,
    rules: Rules | None = None,
) -> Distribution[int]:
    """Return the exact distribution of the number of cards a leader draws (DB-2): her
    Knowledge (Battle) trait roll (the die and, for a Wild Card, a d6 Wild Die, keeping
    the higher; no explosions; plus ``modifier``), at least 0, plus ``rules.cards_per_token``
    (1 by default) per token by which her army outnumbers the other (``token_advantage``).

    Raises:
        InvalidSetupError: a die other than d4, d6, d8, d10, d12; a modifier that is not a
            whole number; a negative advantage.

    >>> hand_size_distribution("d6", wild_die=False, modifier=-2).items()[0]  # 1, 2 -> 0 cards
    (0, Fraction(1, 3))
    """
    if not isinstance(wild_die, bool):
        raise InvalidSetupError(f"wild_die={wild_die!r}: use True (a Wild Card) or False (an Extra) (DB-2)")
    whole_number(
        token_advantage,
        "token_advantage",
        0,
        ruling="DB-2",
        hint="+1 card per token the own army outnumbers the other by",
    )
    rules = check_rules(rules)
    return trait_roll(battle_die, wild_die, modifier).map(lambda r: cards_drawn(r, token_advantage, rules))


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
    (DB-1; with house-rule ``suits`` the actions move, the counts by suit do not) — the
    multivariate hypergeometric law of a 54-card deck (52 with
    ``Rules(jokers=False)``).

    Raises:
        InvalidSetupError: ``n`` negative or more than the deck.

    >>> suit_composition(1, Rules(jokers=False))[(1, 0, 0, 0, 0)]
    Fraction(1, 4)
    """
    rules = check_rules(rules)
    n, _ = check_sizes(n, 0, rules)
    jokers = rules.joker_count
    weights: dict[SuitComposition, int] = {}
    for j in range(min(n, jokers) + 1):
        for s in range(min(n - j, SUIT_SIZE) + 1):
            for h in range(min(n - j - s, SUIT_SIZE) + 1):
                for d in range(min(n - j - s - h, SUIT_SIZE) + 1):
                    c = n - j - s - h - d
                    if c <= SUIT_SIZE:
                        weights[SuitComposition(s, h, d, c, j)] = (
                            comb(jokers, j)
                            * comb(SUIT_SIZE, s)
                            * comb(SUIT_SIZE, h)
                            * comb(SUIT_SIZE, d)
                            * comb(SUIT_SIZE, c)
                        )
    return Distribution.from_int_weights(weights)


# -- initiative (DB-3) ---------------------------------------------------------------------
def initiative(cards_a: int, cards_b: int, rules: Rules | None = None) -> Distribution[str | None]:
    """Return the exact distribution of who takes the initiative (DB-3) when side a is
    dealt ``cards_a`` cards and side b ``cards_b`` from one shuffled deck (DB-1): ``"a"``,
    ``"b"``, or ``None`` — no clash, neither side holds an attack card (spade or joker).

    The counting argument: only the attack cards matter (the attack suit's, spades by
    default; every suit has 13 cards, so the counts are the same for any ``suits``). The side with more jokers wins
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
    rules = check_rules(rules)
    na, nb = check_sizes(cards_a, cards_b, rules)
    jokers = rules.joker_count
    others = rules.deck_size - SUIT_SIZE - jokers
    weights: dict[str | None, int] = defaultdict(int)
    for ja in range(min(na, jokers) + 1):
        for jb in range(min(nb, jokers - ja) + 1):
            wj = comb(jokers, ja) * comb(jokers - ja, jb)
            for sa in range(min(na - ja, SUIT_SIZE) + 1):
                for sb in range(min(nb - jb, SUIT_SIZE - sa) + 1):
                    oa, ob = na - ja - sa, nb - jb - sb
                    if oa + ob > others:
                        continue
                    w = wj * comb(others, oa) * comb(others - oa, ob)
                    spades = comb(SUIT_SIZE, sa + sb)
                    if ja != jb:
                        weights["a" if ja > jb else "b"] += 2 * w * comb(SUIT_SIZE, sa) * comb(SUIT_SIZE - sa, sb)
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
    spirit_die: int | str, wild_die: bool = True, tokens_lost: int = 0, modifier: int = 0, rules: Rules | None = None
) -> Fraction:
    """Return the probability that a leader's Spirit check keeps her army in the battle
    (DB-8): trait roll (die and, for a Wild Card, a d6 Wild Die, keeping the higher; no
    explosions) ``+ modifier - tokens_lost >= 4`` — with house rules,
    ``- rules.morale_per_token * tokens_lost >= rules.morale_target``.

    Raises:
        InvalidSetupError: a die other than d4..d12, a negative ``tokens_lost``.

    >>> morale_pass_probability("d6", wild_die=False)
    Fraction(1, 2)
    """
    if not isinstance(wild_die, bool):
        raise InvalidSetupError(f"wild_die={wild_die!r}: use True (a Wild Card) or False (an Extra) (DB-8)")
    whole_number(tokens_lost, "tokens_lost", 0, ruling="DB-8", hint="-1 per token lost")
    rules = check_rules(rules)
    penalty = rules.morale_per_token * tokens_lost
    return trait_roll(spirit_die, wild_die, modifier).probability(lambda r: morale_holds(r, penalty, rules))
