"""What a fairy may place and play, what the other side sees, and which Trumps match
(FM-4, FM-5, FM-6, FM-8): the one legality every Fairy Meat module calls.

The referee, the engine, the odds calculators, the known-hands and hidden-hands solvers
and the widgets all ask these functions — on cards, or on card-type counts through the
``*_by_type`` forms, which call the card functions on representative cards
(:func:`~toolkit.fairy_meat.deck.representative_hand`) so the two can never disagree.

>>> from toolkit.cards import parse_cards
>>> [" ".join(c.code for c in s) for s in trump_sets(parse_cards("KS QH JH"))]
['QH', 'JH', 'QH JH', 'KS']
>>> [" ".join(c.code for c in s) for s in trump_sets(parse_cards("QH JH"))]  # FM-6: keep one back
['QH', 'JH']
>>> trump_sets_by_type(2, 0, 0, False)
{None: 1, ('red', 1, False): 2}
>>> hidden_trumps_owner((True, False)), trumps_seen(mine=False, theirs=True)
(0, 'count')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from math import comb
from typing import Literal

from toolkit.cards import Card
from toolkit.fairy_meat.deck import (
    COLOURS,
    is_death_card,
    is_numbered,
    is_trump,
    representative_hand,
    type_index,
)
from toolkit.fairy_meat.rules import Rules
from toolkit.rulings import implements

__all__ = [
    "Placed",
    "defence_without_cards",
    "hidden_trumps_owner",
    "matches",
    "placed_cards",
    "placed_type",
    "playable_cards",
    "playable_types",
    "trump_sets",
    "trump_sets_by_type",
    "trumps_seen",
]

#: A set of Trumps placed face down, by type (FM-4): ``None`` ("None") or
#: ``(colour, Trumps but the A♠, whether the A♠ is among them)``, and a fourth item,
#: the jokers among them, when the rules add jokers and some are placed.
Placed = tuple | None


@implements("FM-8")
def matches(trump_colour: str | None, card_colour: str | None) -> bool:
    """Whether a Trump (or Wild Trump point) of ``trump_colour`` matches a Numbered card of
    ``card_colour`` (FM-8): matching Trumps are applied by their owner in her declared
    direction; the others are cheating, and the opponent moves the values with them. A
    joker (house rules ``Rules(jokers=...)``: a Trump of no colour, ``None``) matches every card."""
    return trump_colour is None or trump_colour == card_colour


@implements("FM-4", "FM-6 keep-back")
def trump_sets(hand: Sequence[Card], *, keep_wild: bool = True, rules: Rules | None = None) -> list[tuple[Card, ...]]:
    """The sets of Trumps a fairy may place face down from ``hand`` (FM-4): any non-empty
    set of Trumps of one colour (saying None, the empty set, is always allowed and not
    listed). With no Numbered card she must keep a Trump back to play as her Wild Trump
    (FM-6), so the set of all her Trumps is left out — unless ``keep_wild=False`` (the
    known-hands solver's size estimate counts that set too).

    Red sets first, then black, each by size, in hand order (the engine's legal actions).
    Under ``rules`` the Trumps are its Trump ranks; a joker (no colour) joins a set of
    either colour, and a set of jokers only is listed once.
    """
    has_numbered = any(is_numbered(c, rules) for c in hand)
    trumps = [c for c in hand if is_trump(c, rules)]
    out = []
    seen = set()
    for colour in COLOURS:
        group = [c for c in trumps if c.colour in (colour, None)]
        for k in range(1, len(group) + 1):
            for subset in itertools.combinations(group, k):
                if keep_wild and not has_numbered and len(subset) == len(trumps):
                    continue
                if subset in seen:
                    continue
                seen.add(subset)
                out.append(subset)
    return out


def placed_type(cards: Sequence[Card], rules: Rules | None = None) -> Placed:
    """The type of a set of Trumps placed face down (FM-4): ``None`` for none, else
    ``(colour, Trumps but the death card and the jokers, the death card (A♠) among them)``,
    and a fourth item, the jokers among them, when there are any (a set of jokers only
    is labelled black)."""
    if not cards:
        return None
    ace = any(is_death_card(c, rules) for c in cards)
    jokers = sum(1 for c in cards if c.is_joker)
    colour = next((c.colour for c in cards if c.colour is not None), "black")
    return (colour, len(cards) - int(ace) - jokers, ace) + ((jokers,) if jokers else ())


def placed_cards(hand: Sequence[Card], placed: Placed, rules: Rules | None = None) -> list[Card]:
    """Cards of ``hand`` making up a set of Trumps of type ``placed`` (FM-4): its first
    Trumps of that colour but the death card (the A♠), the death card if it is among
    them, and its first jokers."""
    if placed is None:
        return []
    colour, n, ace = placed[:3]
    jokers = placed[3] if len(placed) > 3 else 0
    out = [c for c in hand if is_trump(c, rules) and c.colour == colour and not is_death_card(c, rules)][:n]
    out += [c for c in hand if is_death_card(c, rules)][: int(ace)]
    return out + [c for c in hand if c.is_joker][:jokers]


@cache
def trump_sets_by_type(
    red: int, black: int, ace: int, has_numbered: bool, jokers: int = 0, death: str = "black"
) -> dict[Placed, int]:
    """:func:`trump_sets` for a hand of ``red`` red Trumps and ``black`` black Trumps but
    the death card, ``ace`` death cards (0 or 1; the A♠, or the rules' death card of
    colour ``death``), ``jokers`` jokers and Numbered cards or not (FM-4, FM-6), by type:
    {``None`` (saying None): 1, each legal :data:`Placed`: how many sets of cards it
    stands for} — C(red, k) red sets of k; C(black, k) black sets of k with or without the
    A♠; each with any C(jokers, j) of the jokers (a joker joins either colour; a set of
    jokers only is listed once); without a Numbered card the set of all her Trumps is kept
    back (FM-6). Keys come None, red by size, black without the A♠ by size, black with it
    by size, then the sets of jokers only."""
    counts: dict[Placed, int] = {None: 1}
    total = red + black + ace + jokers
    for colour, n, aces in (("red", red, ace * (death == "red")), ("black", black, ace * (death == "black"))):
        for a in range(aces + 1):
            for k in range(n + 1):
                for j in range(jokers + 1):
                    if k + a and (has_numbered or k + a + j < total):
                        counts[(colour, k, bool(a)) + ((j,) if j else ())] = comb(n, k) * comb(jokers, j)
    for j in range(1, jokers + 1):
        if has_numbered or j < total:
            counts[("black", 0, False, j)] = comb(jokers, j)
    return counts


@implements("FM-6")
def playable_cards(hand: Sequence[Card], placed: Sequence[Card] = (), rules: Rules | None = None) -> list[Card]:
    """The cards a fairy may play at the Numbered-card step (FM-6): every Numbered card of
    her hand (she must play one if she holds one); without one, every Trump not placed
    face down, played as a Wild Trump. In hand order; Numbered and Trump ranks by ``rules``."""
    rest = [c for c in hand if c not in placed]
    numbered = [c for c in rest if is_numbered(c, rules)]
    if numbered:
        return numbered
    return [c for c in rest if is_trump(c, rules)]


@cache
def playable_types(hand: tuple[int, ...], placed: Placed) -> tuple[int, ...]:
    """:func:`playable_cards` by type (FM-6): ``hand`` is 21 counts, ``placed`` the
    Trumps placed (:data:`Placed`); returns the distinct type indices she may play
    (18-20: a Trump played as a Wild Trump), in type order."""
    cards = representative_hand(hand, 0)
    chosen = placed_cards(cards, placed)
    return tuple(dict.fromkeys(type_index(c) for c in playable_cards(cards, chosen)))


@implements("FM-7")
def defence_without_cards(wild_points: bool, rules: Rules) -> Literal["points", "blind", "unopposed"]:
    """How a defender with neither Numbered card nor Trump defends (FM-7): with the points
    she scored against the previous attack as Wild Trump points (``"points"``, then she
    turns up cards as in FM-6); without, she is undefended: a ``"blind"`` draw (default)
    or, with ``Rules(undefended="unopposed")``, ``"unopposed"`` (the attacker wins)."""
    if wild_points:
        return "points"
    return "unopposed" if rules.undefended == "unopposed" else "blind"


@implements("FM-5")
def hidden_trumps_owner(
    placed: tuple[bool, bool], other_trumps: tuple[bool, bool] = (False, False), rules: Rules | None = None
) -> int | None:
    """The side (0 attacker, 1 defender) whose face-down Trumps stay hidden (FM-5): she
    placed Trumps and the other side has said None. ``placed`` says, per side, whether she
    placed any face down; ``other_trumps``, whether she applies any other Trump in this
    attack: a Wild Trump played from the hand, Trumps turned up by a draw, Wild Trump
    points (FM-6, FM-7). Who has said None: under ``Rules(none_means="no_trumps")``
    (default) a fairy who applies no Trump of any kind; under ``"no_face_down"`` any
    fairy who placed none face down. ``None`` when nobody's Trumps stay hidden (every
    Trump placed is revealed). An undefended defender places none, so says None unless
    her blind draw turns up a Trump (under the default).

    >>> hidden_trumps_owner((True, False)), hidden_trumps_owner((True, False), (False, True))
    (0, None)
    >>> hidden_trumps_owner((True, False), (False, True), Rules(none_means="no_face_down"))
    0
    """
    only_face_down = rules is not None and rules.none_means == "no_face_down"
    said_none = [not placed[i] and (only_face_down or not other_trumps[i]) for i in (0, 1)]
    if placed[0] and said_none[1]:
        return 0
    if placed[1] and said_none[0]:
        return 1
    return None


@implements("FM-5 seen")
def trumps_seen(
    mine: bool, theirs: bool, mine_other: bool = False, rules: Rules | None = None
) -> Literal["none", "count", "set"]:
    """What a fairy sees of the other's face-down Trumps once both have placed theirs
    (FM-5): ``"none"`` (the other placed none), ``"count"`` (only how many cards lie face
    down: she has said None so far, so they stay hidden), or ``"set"`` (revealed).
    ``mine`` / ``theirs``: whether each placed any Trumps; ``mine_other``: whether she
    applies any other Trump so far (Wild Trump, Trumps turned up, Wild Trump points: then
    she has not said None under the default ``none_means="no_trumps"``)."""
    if not theirs:
        return "none"
    return "count" if hidden_trumps_owner((mine, theirs), (mine_other, False), rules) == 1 else "set"
