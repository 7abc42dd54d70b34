"""Checks of the odds calculators' inputs: hand sizes (FM-1, FM-2, FM-6, FM-13), hands, policies."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from toolkit.cards import Card, parse_cards
from toolkit.engine import Policy, policy_name, policy_pair
from toolkit.errors import InvalidSetupError, NotationError
from toolkit.fairy_meat.deck import (
    DECK_SIZE,
)
from toolkit.fairy_meat.policies import (
    POLICIES,
)

__all__ = ["check_hand_size", "check_hand_sizes", "parse_hand", "resolve_policies", "policy_label"]


def check_hand_size(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InvalidSetupError(f"{what} must be a whole number of cards >= 0, got {n!r}")
    if n > DECK_SIZE:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds {DECK_SIZE} (FM-1)")
    return n


def check_hand_sizes(a: object, d: object) -> tuple[int, int]:
    a = check_hand_size(a, "the attacker's hand size")
    d = check_hand_size(d, "the defender's hand size")
    if a == 0:
        raise InvalidSetupError(
            "the attacker's hand size is 0: with no card she makes no attack (FM-13); give her at least 1 card"
        )
    if a + d > DECK_SIZE - 1:
        raise InvalidSetupError(
            f"hands of {a} and {d} cards leave {DECK_SIZE - a - d} in the {DECK_SIZE}-card deck: "
            "at least 1 must stay to be turned up (FM-6)"
        )
    return a, d


def parse_hand(hand: str | Iterable[str | Card], who: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(hand)  # type: ignore[arg-type]
    except NotationError as e:
        raise NotationError(f"{who}'s hand: {e}") from None
    jokers = [c.code for c in cards if c.is_joker]
    if jokers:
        raise InvalidSetupError(f"{who}'s hand holds {', '.join(jokers)}: Fairy Meat uses 52 cards, no jokers (FM-1)")
    return cards


def resolve_policies(policies: Sequence[str | Policy] | str | Policy) -> tuple[Policy, Policy]:
    return policy_pair(policies, POLICIES, ("attacker", "defender"))


def policy_label(p: Policy) -> str:
    return policy_name(p, POLICIES)
