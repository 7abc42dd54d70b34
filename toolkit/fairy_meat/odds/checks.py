"""Checks of the odds calculators' inputs: hand sizes (FM-1, FM-2, FM-6, FM-13), hands, policies."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from toolkit.cards import Card, parse_cards
from toolkit.engine import Policy, policy_name, policy_pair
from toolkit.errors import InvalidSetupError, NotationError
from toolkit.fairy_meat.deck import deck_cards, standard_layout
from toolkit.fairy_meat.policies import (
    POLICIES,
)
from toolkit.fairy_meat.rules import Rules
from toolkit.numbers import count
from toolkit.whole_numbers import whole_number

__all__ = [
    "counting_applies",
    "draft_types",
    "check_hand_size",
    "check_hand_sizes",
    "parse_hand",
    "resolve_policies",
    "policy_label",
]


def check_hand_size(n: object, what: str, rules: Rules | None = None) -> int:
    """Return ``n`` if it is a whole number of cards the rules' deck can deal (FM-1); raise otherwise."""
    size = len(deck_cards(rules))
    n = whole_number(n, f"{what} (cards)", 0)
    if n > size:
        raise InvalidSetupError(f"{what} is {n} cards, but the deck holds {size} (FM-1)")
    return n


def check_hand_sizes(a: object, d: object, rules: Rules | None = None) -> tuple[int, int]:
    """Return both hand sizes if one deck deals them and leaves a card to turn up (FM-1, FM-6, FM-13)."""
    size = len(deck_cards(rules))
    a = check_hand_size(a, "the attacker's hand size", rules)
    d = check_hand_size(d, "the defender's hand size", rules)
    if a == 0:
        raise InvalidSetupError(
            "the attacker's hand size is 0: with no card she makes no attack (FM-13); give her at least 1 card"
        )
    if a + d > size - 1:
        raise InvalidSetupError(
            f"hands of {a} and {d} cards leave {size - a - d} in the {size}-card deck: "
            "at least 1 must stay to be turned up (FM-6)"
        )
    return a, d


def parse_hand(hand: str | Iterable[str | Card], who: str, rules: Rules | None = None) -> tuple[Card, ...]:
    """Return the cards of a hand, each in the rules' deck (FM-1)."""
    try:
        cards = parse_cards(hand)  # type: ignore[arg-type]
    except NotationError as e:
        raise NotationError(f"{who}'s hand: {e}") from None
    deck = deck_cards(rules)
    outside = [c.code for c in cards if c not in deck]
    if outside:
        rules = Rules() if rules is None else rules
        if rules == Rules():
            what = f"Fairy Meat uses {len(deck)} cards, no jokers"
        else:
            ranks = " ".join((*rules.numbered_ranks, *rules.trump_ranks))
            what = f"the rules' deck has {len(deck)} cards: ranks {ranks}, {count(rules.jokers, 'joker')}"
        raise InvalidSetupError(f"{who}'s hand holds {', '.join(outside)}: {what} (FM-1)")
    return cards


def resolve_policies(policies: Sequence[str | Policy] | str | Policy) -> tuple[Policy, Policy]:
    return policy_pair(policies, POLICIES, ("attacker", "defender"))


def policy_label(p: Policy) -> str:
    return policy_name(p, POLICIES)


def counting_applies(rules: Rules | None) -> bool:
    """Whether the counting model (:func:`~.deals.exact_weights`) holds for ``rules``: for
    every valid rule set. It counts card types — Numbered cards by colour and pips
    (the rules' Numbered ranks), Trumps by kind: red and black but the death card, the
    death card of either colour or none, and jokers (FM-1, FM-12) — and asks the referee
    for what a Trump is worth (FM-8) and every other field (hand sizes, points, damage
    table, colour rule, FM-5/FM-7/FM-12 variants). Kept so that callers can still ask;
    policies without a counting model use the general exact path over hand compositions
    (:func:`~.deals.generic_weights`)."""
    return rules is None or isinstance(rules, Rules)


def draft_types(rules: Rules | None) -> bool:
    """Whether the rules keep the draft's cards — 2-10 Numbered, J Q K A Trumps, no
    jokers, the A♠ the death card (:func:`~toolkit.fairy_meat.deck.standard_layout`),
    a Trump worth anything (FM-8): what the hidden-hands solver needs."""
    return standard_layout(rules)
