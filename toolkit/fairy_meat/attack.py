"""One attack of a Fairy Meat combat as played, and the rules that close it (FM-5, FM-7, FM-11, FM-13).

:class:`Attack` records each side's choices in one attack (pairs are (attacker,
defender)); the engine (:mod:`toolkit.fairy_meat.engine`) fills it in step by step. The
rules applied when an attack ends are named functions here: how a winning defender may
keep her points (:func:`score_options`, FM-11), which cards go to the Spoils Heap
(:func:`spent_cards`, FM-13), the Wild Trump points of the next attack
(:func:`wild_trump_points`, FM-7), whether the attacker's remaining attacks are lost
(:func:`attacks_lost`, FM-13); and what each side has seen of it (:func:`attack_seen`, FM-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.cards import Card
from toolkit.fairy_meat.deck import card_type
from toolkit.fairy_meat.legality import hidden_trumps_owner
from toolkit.fairy_meat.referee import AttackResult
from toolkit.fairy_meat.rules import Rules
from toolkit.rulings import implements

__all__ = [
    "NO_CHOICE",
    "Attack",
    "score_options",
    "spent_cards",
    "wild_trump_points",
    "extra_cards_spent",
    "attacks_lost",
    "card_types",
    "attack_seen",
    "other_trumps",
    "hidden_owner",
]

#: No choice made yet, for either side.
NO_CHOICE: tuple[None, None] = (None, None)


@dataclass(frozen=True)
class Attack:
    """One attack in progress; pairs are (attacker, defender)."""

    trumps: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None] = NO_CHOICE
    wild_colour: str | None = None  # the defender's Wild Trump points colour (FM-7)
    plays: tuple[str | None, str | None] = NO_CHOICE  # "play", "wild", "points", "blind", "unopposed"
    cards: tuple[Card | None, Card | None] = NO_CHOICE  # Numbered card from hand, or the Wild Trump card
    drawn: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())  # Trumps turned up
    number: tuple[Card | None, Card | None] = NO_CHOICE  # the Numbered card that counts
    reveal: tuple[Card, ...] | None = None
    bonus: bool | None = None
    shifts: tuple[tuple[int, int] | None, tuple[int, int] | None] = NO_CHOICE
    result: AttackResult | None = None
    score: str | None = None  # the defender's FM-11 choice
    escape: bool | None = None  # the Wrestling winner's FM-14 choice


@implements("FM-11")
def score_options(attack_no: int, attacks: int) -> list[str]:
    """How a defender who wins attack ``attack_no`` (0-based) of ``attacks`` may keep her
    points (FM-11): ``"score cards"`` (a: extra cards for her attack back at the same fairy
    this turn), and ``"score bonus"`` (b: a next-defence bonus) only when a further
    attack of this combat follows."""
    options = ["score cards"]
    if attack_no + 1 < attacks:
        options.append("score bonus")
    return options


@implements("FM-5 spoils", "FM-13")
def spent_cards(a: Attack) -> list[Card]:
    """The cards of a finished attack that go to the Spoils Heap (FM-13): both sides'
    face-down Trumps — also those left hidden under the None rule (FM-5: "all associated
    cards played") —, the cards played, the Trumps and Numbered cards turned up."""
    spent: list[Card] = []
    for i in (0, 1):
        spent += list(a.trumps[i] or ())
        if a.cards[i] is not None:
            spent.append(a.cards[i])
        spent += list(a.drawn[i])
        if a.plays[i] != "play" and a.number[i] is not None:
            spent.append(a.number[i])
    return spent


@implements("FM-7 points")
def wild_trump_points(result: AttackResult) -> int:
    """The points a defender may use as Wild Trump points against the next attack (FM-7):
    those she scored against this one, whichever FM-11 option she chose (0 if she lost)."""
    return result.points if result.winner == "defender" else 0


@implements("FM-7 spent once")
def extra_cards_spent(previous: Attack | None, current: Attack, points: int, defender_has_attacked: bool) -> int:
    """The extra cards (FM-11 a) no longer owed because their points were spent as Wild
    Trump points (FM-7: points are spent once): ``points`` — those scored against the
    ``previous`` attack — when the defender chose extra cards for them and uses them as
    Wild Trump points in the ``current`` attack, else 0 (also when she has already attacked
    this round: her extra cards were never owed). (A next-defence bonus is never
    applied with Wild Trump points, and lapses after the attack anyway.)"""
    if previous is None or defender_has_attacked or current.plays[1] != "points" or previous.score == "bonus":
        return 0
    return points


@implements("FM-13 no cards")
def attacks_lost(attacker_hand: Sequence[Card]) -> bool:
    """Whether the attacker loses her remaining attacks of the combat (FM-13): she has no
    cards left in her combat hand to attack with."""
    return not attacker_hand


def other_trumps(a: Attack, i: int) -> bool:
    """Whether side ``i`` applies, so far in attack ``a``, a Trump not placed face down: a
    Wild Trump played from the hand (once both Numbered cards are played), Trumps turned
    up, Wild Trump points (FM-6, FM-7)."""
    wild = a.plays[i] == "wild" and a.plays[1 - i] is not None  # face up with the Numbered cards
    return wild or bool(a.drawn[i]) or (i == 1 and a.wild_colour is not None)


def hidden_owner(a: Attack, rules: Rules | None = None) -> int | None:
    """The side whose face-down Trumps stay hidden in attack ``a`` so far (FM-5:
    :func:`~toolkit.fairy_meat.legality.hidden_trumps_owner` on what each side has placed
    and applied); ``None`` until both have placed theirs. Under the default
    ``none_means="no_trumps"`` it is settled only once the Numbered cards are played and
    the draws made: a Wild Trump or a Trump turned up by the other side reveals them."""
    if a.trumps[0] is None or a.trumps[1] is None:
        return None
    return hidden_trumps_owner((bool(a.trumps[0]), bool(a.trumps[1])), (other_trumps(a, 0), other_trumps(a, 1)), rules)


def card_types(cards: Sequence[Card] | None, rules: Rules | None = None) -> tuple[str, ...] | None:
    """The sorted card types of some cards (:func:`~toolkit.fairy_meat.deck.card_type`,
    FM-1, FM-12), or ``None`` for cards not yet chosen."""
    return None if cards is None else tuple(sorted(card_type(c, rules) for c in cards))


def attack_seen(a: Attack, i: int, rules: Rules | None = None) -> tuple:
    """What side ``i`` has seen of one attack, by card type (see
    :meth:`~toolkit.fairy_meat.engine.CombatState.information_state`; FM-5 under ``rules``)."""
    o = 1 - i
    own_trumps, theirs = a.trumps[i], a.trumps[o]
    if own_trumps is None or theirs is None:
        other_seen: object = None  # the opponent's Trumps are face down and not yet turned
    elif hidden_owner(a, rules) != o:
        other_seen = card_types(theirs, rules)
    else:  # she has said None: the opponent's stay hidden, only their number shows (FM-5)
        other_seen = ("face down", len(theirs), card_types(a.reveal, rules))
    both_played = a.plays[0] is not None and a.plays[1] is not None
    plays = tuple(
        (a.plays[j], card_types([a.cards[j]] if a.cards[j] is not None else [], rules))
        if (j == i or both_played)
        else None
        for j in (0, 1)
    )
    both_placed = a.trumps[0] is not None and a.trumps[1] is not None
    numbers = tuple(
        card_types([a.number[j]] if a.number[j] is not None else [], rules) if (j == i or both_played) else None
        for j in (0, 1)
    )
    return (
        card_types(own_trumps, rules),
        other_seen,
        a.wild_colour if both_placed else None,
        plays,
        (card_types(a.drawn[0], rules), card_types(a.drawn[1], rules)),
        numbers,
        card_types(a.reveal, rules),
        a.bonus,
        a.shifts,
        a.score,
        a.escape,
    )
