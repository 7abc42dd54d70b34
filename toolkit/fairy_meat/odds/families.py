"""The standard policies' play by card type: what each fairy does in an attack given her hand's counts (FM-3..FM-7)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from toolkit.cards import Card
from toolkit.engine import Policy
from toolkit.fairy_meat.deck import (
    COLOURS,
    JOKER_TRUMP,
    PIPS,
    TRUMP_LETTERS,
    numbered_mask,
    numbered_type,
    type_index,
)
from toolkit.fairy_meat.legality import (
    defence_without_cards,
    trump_sets_by_type,
)
from toolkit.fairy_meat.policies import (
    ace_is_upside,
    greedy_order,
    greedy_policy,
    random_policy,
)
from toolkit.fairy_meat.rules import Rules

__all__ = [
    "type_key",
    "TYPES_OF_COLOUR",
    "TRUMP_COLOUR",
    "Family",
    "Spec",
    "NO_NUMBERED",
    "ALL_TYPES",
    "Choice",
    "placed_of",
    "GreedyModel",
    "RandomModel",
    "MODELS",
]


def type_key(card: Card, rules: Rules | None = None) -> int | str:
    """The card's type under ``rules`` (:func:`~toolkit.fairy_meat.deck.type_index`),
    Trumps by letter (``J`` for a joker)."""
    t = type_index(card, rules)
    return TRUMP_LETTERS.get(t, "J" if t == JOKER_TRUMP else t)


TYPES_OF_COLOUR = {c: [numbered_type(c, p) for p in PIPS] for c in COLOURS}


TRUMP_COLOUR = {"R": "red", "B": "black", "S": "black"}


class Family(NamedTuple):
    """What one fairy does in the attack, at the level of card types.

    kind: "play" (a Numbered card from hand), "wild" (FM-6), "blind" (FM-7, no card),
    "unopposed" (FM-7 variant); sign: +1 Add, -1 Subtract (FM-3); placed: the Trumps
    put face down (colour, Trumps but the A♠, A♠ among them) or None (FM-4);
    wild: the Wild Trump's type; colour: the Numbered card's colour for "play".
    """

    kind: str
    sign: int
    placed: tuple[str, int, bool] | None
    wild: str | None
    colour: str | None


# Numbered-card constraints ("specs"): ("none",) no Numbered card in hand; ("top", k, mask):
# holds type k and no type outside ``mask`` (greedy); ("card", k): one specific card of type
# k is the one played, counted once per such card (random).
Spec = tuple


NO_NUMBERED: Spec = ("none",)


ALL_TYPES = (1 << 18) - 1


class Choice(NamedTuple):
    family: Family
    weight: Fraction
    types: tuple[tuple[int, Spec], ...]  # (Numbered type played, its spec); () for draws


def placed_of(colour: str, red: int, black: int, ace: int) -> tuple[str, int, bool] | None:
    if colour == "red":
        return ("red", red, False) if red else None
    return ("black", black, bool(ace)) if black + ace else None


class GreedyModel:
    """:func:`~.policies.greedy_policy` by card types: which Numbered type she plays is the
    first type of :func:`~.policies.greedy_order` that she holds."""

    policy = staticmethod(greedy_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, int, int], rules: Rules) -> tuple[Choice, ...]:
        r, b, s = comp
        n = h - r - b - s
        if h == 0:
            kind = defence_without_cards(False, rules)
            return (Choice(Family(kind, 1, None, None, None), Fraction(1), ()),)
        if n == 0:
            # greedy_wild: the A♠ if it is pure upside, else red, else black, else the A♠.
            if ace_is_upside(role, rules, False) and s:
                wild = "S"
            else:
                wild = "R" if r else "B" if b else "S"
            return (Choice(Family("wild", 1, None, wild, None), Fraction(1), ()),)
        order = greedy_order(r, b + s)
        groups: dict[tuple[str, str], list[tuple[int, Spec]]] = defaultdict(list)
        present = mask = numbered_mask(rules)  # the Numbered types of the rules' deck (FM-1)
        for colour, pips, direction in order:
            k = numbered_type(colour, pips)
            if not present >> k & 1:
                continue  # a rank the rules' deck does not hold as Numbered cards
            groups[(colour, direction)].append((k, ("top", k, mask)))
            mask &= ~(1 << k)
        out = []
        for (colour, direction), types in groups.items():
            family = Family("play", 1 if direction == "add" else -1, placed_of(colour, r, b, s), None, colour)
            out.append(Choice(family, Fraction(1), tuple(types)))
        return tuple(out)


class RandomModel:
    """:func:`~.policies.random_policy` by card types: uniform declaration, uniform over
    the legal sets of Trumps placed (FM-4), uniform Numbered card or Wild Trump."""

    policy = staticmethod(random_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, int, int], rules: Rules) -> tuple[Choice, ...]:
        r, b, s = comp
        n = h - r - b - s
        half = Fraction(1, 2)
        if h == 0:
            kind = defence_without_cards(False, rules)
            return tuple(Choice(Family(kind, sign, None, None, None), half, ()) for sign in (1, -1))
        # The legal Trump actions (FM-4, FM-6): None, or any non-empty set of one colour.
        placed = trump_sets_by_type(r, b, s, n > 0)
        total = sum(placed.values())
        out = []
        for p, mult in placed.items():
            if not mult:
                continue
            w = half * Fraction(mult, total)
            if n:
                present = numbered_mask(rules)
                for colour in COLOURS:
                    types = tuple(
                        (k, ("card", k) if present == ALL_TYPES else ("card", k, present))
                        for k in TYPES_OF_COLOUR[colour]
                        if present >> k & 1
                    )
                    for sign in (1, -1):
                        out.append(Choice(Family("play", sign, p, None, colour), w / n, types))
                continue
            used = {"R": 0, "B": 0, "S": 0}
            if p is not None:
                if p[0] == "red":
                    used["R"] = p[1]
                else:
                    used["B"], used["S"] = p[1], int(p[2])
            left = {"R": r - used["R"], "B": b - used["B"], "S": s - used["S"]}
            rest = sum(left.values())
            for wild, count in left.items():
                if count:
                    for sign in (1, -1):
                        out.append(Choice(Family("wild", sign, p, wild, None), w * Fraction(count, rest), ()))
        return tuple(out)


MODELS: dict[Policy, type] = {greedy_policy: GreedyModel, random_policy: RandomModel}
