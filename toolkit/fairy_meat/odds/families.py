"""The standard policies' play by card type: what each fairy does in an attack given her hand's counts (FM-3..FM-7)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from toolkit.cards import Card
from toolkit.engine import Policy
from toolkit.fairy_meat.deck import (
    COLOURS,
    JOKER_TRUMP,
    TRUMP_LETTERS,
    death_colour,
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
    "type_keys",
    "TYPES_OF_COLOUR",
    "TRUMP_COLOUR",
    "trump_colour",
    "Family",
    "Spec",
    "NO_NUMBERED",
    "ALL_TYPES",
    "Choice",
    "placed_of",
    "trump_counts",
    "GreedyModel",
    "RandomModel",
    "MODELS",
]


def type_key(card: Card, rules: Rules | None = None) -> int | str:
    """The card's type under ``rules`` (:func:`~toolkit.fairy_meat.deck.type_index`),
    Trumps by letter (``J`` for a joker)."""
    t = type_index(card, rules)
    return TRUMP_LETTERS.get(t, "J" if t == JOKER_TRUMP else t)


class _TypeKeys(dict):
    """Card codes to their :func:`type_key` under one rule set, filled as cards are asked."""

    def __init__(self, rules: Rules | None) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, code: str) -> int | str:
        key = self[code] = type_key(Card(code), self.rules)
        return key


@cache
def type_keys(rules: Rules | None = None) -> Mapping[str, int | str]:
    """:func:`type_key` of every card under ``rules``, by card code (the enumerations read
    it at every state: a card's type is worked out once per rule set, FM-1)."""
    return _TypeKeys(rules)


#: The Numbered type slots of each colour (FM-1), as :func:`~toolkit.fairy_meat.deck.numbered_type`
#: numbers them: red 0..8, black 9..17 — all 18, whichever the rules' deck holds
#: (:func:`~toolkit.fairy_meat.deck.numbered_mask` says which).
TYPES_OF_COLOUR = {"red": list(range(0, 9)), "black": list(range(9, 18))}


#: The colour of each Trump kind by letter but the death card's (FM-1): a joker (``J``)
#: has none, and matches every card.
TRUMP_COLOUR = {"R": "red", "B": "black", "J": None}


def trump_colour(letter: str, death: str) -> str | None:
    """The colour of a Trump kind by letter (FM-1, FM-8, FM-12): the death card's (``S``)
    is ``death``, the rules' :func:`~toolkit.fairy_meat.deck.death_colour` (black for the
    A♠); a joker's (``J``) ``None`` (it matches every card)."""
    return death if letter == "S" else TRUMP_COLOUR[letter]


class Family(NamedTuple):
    """What one fairy does in the attack, at the level of card types.

    kind: "play" (a Numbered card from hand), "wild" (FM-6), "blind" (FM-7, no card),
    "unopposed" (FM-7 variant); sign: +1 Add, -1 Subtract (FM-3); placed: the Trumps
    put face down (colour, Trumps but the death card, the death card among them, and
    the jokers among them when there are any: :data:`~toolkit.fairy_meat.legality.Placed`)
    or None (FM-4); wild: the Wild Trump's kind (``R``, ``B``, ``S`` the death card,
    ``J`` a joker); colour: the Numbered card's colour for "play".
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


def placed_of(colour: str, red: int, black: int, ace: int, jokers: int = 0, death: str = "black") -> tuple | None:
    """Every Trump of ``colour`` a hand holds, placed face down (FM-4; the greedy fairy's
    set): (colour, Trumps but the death card, the death card among them) and its jokers
    (a joker joins either colour), ``None`` if that is no card."""
    n = red if colour == "red" else black
    a = bool(ace) and death == colour
    if not n + a + jokers:
        return None
    return (colour, n, a) + ((jokers,) if jokers else ())


def trump_counts(comp: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A hand's Trumps by kind (red, black but the death card, the death card, jokers)
    from a composition of three kinds (the draft's deck) or four (jokers)."""
    r, b, s = comp[:3]
    return r, b, s, (comp[3] if len(comp) > 3 else 0)


class GreedyModel:
    """:func:`~.policies.greedy_policy` by card types: which Numbered type she plays is the
    first type of :func:`~.policies.greedy_order` that she holds."""

    policy = staticmethod(greedy_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, ...], rules: Rules) -> tuple[Choice, ...]:
        """Her play with an ``h``-card hand holding Trumps ``comp`` (red, black but the
        death card, the death card, and jokers when the rules add them)."""
        r, b, s, j = trump_counts(comp)
        death = death_colour(rules)
        n = h - r - b - s - j
        if h == 0:
            kind = defence_without_cards(False, rules)
            return (Choice(Family(kind, 1, None, None, None), Fraction(1), ()),)
        if n == 0:
            # greedy_wild: the death card if it is pure upside, else red, else black, else a
            # joker, else the death card.
            if ace_is_upside(role, rules, False) and s:
                wild = "S"
            else:
                wild = "R" if r else "B" if b else "J" if j else "S"
            return (Choice(Family("wild", 1, None, wild, None), Fraction(1), ()),)
        # her Trumps of each colour: the death card with its colour, a joker with both
        order = greedy_order(r + s * (death == "red") + j, b + s * (death == "black") + j)
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
            placed = placed_of(colour, r, b, s, j, death)
            family = Family("play", 1 if direction == "add" else -1, placed, None, colour)
            out.append(Choice(family, Fraction(1), tuple(types)))
        return tuple(out)


class RandomModel:
    """:func:`~.policies.random_policy` by card types: uniform declaration, uniform over
    the legal sets of Trumps placed (FM-4), uniform Numbered card or Wild Trump."""

    policy = staticmethod(random_policy)

    @staticmethod
    @cache
    def choices(role: str, h: int, comp: tuple[int, ...], rules: Rules) -> tuple[Choice, ...]:
        """Her play with an ``h``-card hand holding Trumps ``comp`` (as :class:`GreedyModel`)."""
        r, b, s, j = trump_counts(comp)
        death = death_colour(rules)
        n = h - r - b - s - j
        half = Fraction(1, 2)
        if h == 0:
            kind = defence_without_cards(False, rules)
            return tuple(Choice(Family(kind, sign, None, None, None), half, ()) for sign in (1, -1))
        # The legal Trump actions (FM-4, FM-6): None, or any non-empty set of one colour.
        placed = trump_sets_by_type(r, b, s, n > 0, j, death)
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
            used = {"R": 0, "B": 0, "S": 0, "J": 0}
            if p is not None:
                used["R" if p[0] == "red" else "B"] = p[1]
                used["S"], used["J"] = int(p[2]), (p[3] if len(p) > 3 else 0)
            left = {"R": r - used["R"], "B": b - used["B"], "S": s - used["S"], "J": j - used["J"]}
            rest = sum(left.values())
            for wild, count in left.items():
                if count:
                    for sign in (1, -1):
                        out.append(Choice(Family("wild", sign, p, wild, None), w * Fraction(count, rest), ()))
        return tuple(out)


MODELS: dict[Policy, type] = {greedy_policy: GreedyModel, random_policy: RandomModel}
