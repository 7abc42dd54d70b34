"""Checks of the calculators' arguments, with messages that name the input and the ruling."""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.durak_battle.policies import POLICIES
from toolkit.durak_battle.rules import MAX_TOKENS, Rules
from toolkit.engine import Policy, policy_name, policy_pair
from toolkit.errors import InvalidSetupError, excerpt
from toolkit.odds_result import METHODS
from toolkit.whole_numbers import whole_number

__all__ = [
    "METHODS",
    "SAMPLERS",
    "check_rules",
    "check_sizes",
    "check_tokens",
    "check_policies",
    "policy_label",
]

SAMPLERS = ("engine", "model")


def check_rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a durak_battle Rules, got {rules!r}")
    return rules


def check_sizes(cards_a: object, cards_b: object, rules: Rules) -> tuple[int, int]:
    na = whole_number(cards_a, "cards_a (side a's hand size)", 0, ruling="DB-2")
    nb = whole_number(cards_b, "cards_b (side b's hand size)", 0, ruling="DB-2")
    deck = rules.deck_size
    if na + nb > deck:
        raise InvalidSetupError(
            f"{na} + {nb} cards is more than the {deck}-card deck holds (jokers={rules.jokers}, DB-1)"
        )
    return na, nb


def check_policies(policies: Sequence[str | Policy] | str | Policy) -> tuple[Policy, Policy]:
    return policy_pair(policies, POLICIES, ("side a", "side b"))


def policy_label(p: Policy) -> str:
    return policy_name(p, POLICIES)


def check_tokens(tokens: object) -> tuple[int, int] | None:
    if tokens is None:
        return None
    if not isinstance(tokens, tuple | list) or len(tokens) != 2:
        raise InvalidSetupError(f"tokens must be a pair (side a's, side b's) or None, got {tokens!r}")
    for t in tokens:
        whole_number(t, f"each of tokens {excerpt(tokens)}", 1, MAX_TOKENS, ruling="DB-7")
    return (tokens[0], tokens[1])
