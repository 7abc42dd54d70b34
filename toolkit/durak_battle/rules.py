"""Durak mass battle: rule options, leaders and armies (DB-1, DB-2, DB-5..DB-8).

>>> general = Leader("General Vasilisa", battle_die="d8", spirit_die="d6")
>>> Army("Northern host", tokens=8, leader=general).tokens
8
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal, get_args

from toolkit.cards import RANKS, Card, Pile, standard_deck
from toolkit.dice import check_trait_die
from toolkit.errors import InvalidSetupError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field

__all__ = ["Rules", "Leader", "Army", "MAX_TOKENS", "SIDES", "SUIT_SIZE", "fresh_deck", "settle_losses"]

#: The two sides of a battle, as the engine names its players: side a, side b.
SIDES = ("a", "b")

CounterTie = Literal["no_loss", "loses"]
MoralePenalty = Literal["clash", "battle"]

#: Cards of each suit in the deck, 2 to ace (DB-1).
SUIT_SIZE = len(RANKS)

#: Savage Worlds armies have up to 10 tokens (DB-7).
MAX_TOKENS = 10


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Durak battle rules in force: RULINGS.md defaults and the named variants (house
    rules: :mod:`toolkit.house_rules`).

    Attributes:
        jokers: DB-1 — a 54-card deck with two jokers (default) or 52 cards (``False``).
        counter_tie: DB-5 — a Counterattack of equal value to the attack is treated like
            a higher one, ``"no_loss"`` (default), or like a lower one, ``"loses"`` 1 token.
        holder_must_attack: DB-6 — the initiative holder must attack while holding a spade
            (``True``), or may pass (default ``False``).
        morale_penalty: DB-8 — tokens lost ``"clash"`` (default, this clash) or in the
            whole ``"battle"`` count against the Spirit roll.
    """

    SYSTEM: ClassVar[str] = "durak-battle"

    jokers: bool = rule_field(True, ruling="DB-1", help="two jokers in the deck (54 cards), or none (52)")
    counter_tie: CounterTie = rule_field(
        "no_loss", ruling="DB-5", help="a Counterattack equal to the attack: no loss, or loses like a lower one"
    )
    holder_must_attack: bool = rule_field(
        False, ruling="DB-6", help="the initiative holder must attack while she holds a spade"
    )
    morale_penalty: MoralePenalty = rule_field(
        "clash", ruling="DB-8", help="tokens lost in this clash, or in the whole battle, count against Spirit"
    )

    def __post_init__(self) -> None:
        for name, ruling in (("jokers", "DB-1"), ("holder_must_attack", "DB-6")):
            if not isinstance(getattr(self, name), bool):
                raise RuleFieldError(name, f"{name}={getattr(self, name)!r}: use True or False ({ruling})")
        if self.counter_tie not in get_args(CounterTie):
            raise RuleFieldError(
                "counter_tie", f"counter_tie={self.counter_tie!r} is not a variant of DB-5: use 'no_loss' or 'loses'"
            )
        if self.morale_penalty not in get_args(MoralePenalty):
            raise RuleFieldError(
                "morale_penalty",
                f"morale_penalty={self.morale_penalty!r} is not a variant of DB-8: use 'clash' or 'battle'",
            )

    @property
    def joker_count(self) -> int:
        """The jokers in the deck (DB-1): 2, or 0 with ``jokers=False``."""
        return 2 if self.jokers else 0

    @property
    def deck_size(self) -> int:
        """The number of cards in the deck (DB-1): 54 with jokers, 52 without."""
        return 4 * SUIT_SIZE + self.joker_count

    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck (DB-1): the 52 cards, and the two jokers unless ``jokers=False``."""
        return tuple(standard_deck(jokers=self.jokers))


@dataclass(frozen=True)
class Leader:
    """An army's leader: Knowledge (Battle) and Spirit trait dice, Wild Card or Extra (DB-2, DB-8).

    Attributes:
        battle_die, spirit_die: ``"d4"`` … ``"d12"`` (or 4 … 12).
        wild_card: a Wild Card rolls a d6 Wild Die with each trait roll and keeps the higher.
        battle_modifier, spirit_modifier: flat modifiers to the rolls.
    """

    name: str
    battle_die: int | str = 6
    spirit_die: int | str = 6
    wild_card: bool = True
    battle_modifier: int = 0
    spirit_modifier: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "battle_die", check_trait_die(self.battle_die))
        object.__setattr__(self, "spirit_die", check_trait_die(self.spirit_die))
        if not isinstance(self.wild_card, bool):
            raise InvalidSetupError(f"wild_card={self.wild_card!r}: use True (Wild Card) or False (Extra)")
        for name in ("battle_modifier", "spirit_modifier"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidSetupError(f"{self.name}'s {name} must be a whole number, got {value!r}")


@dataclass(frozen=True)
class Army:
    """An army: its tokens (DB-7) and its leader."""

    name: str
    tokens: int
    leader: Leader

    def __post_init__(self) -> None:
        if isinstance(self.tokens, bool) or not isinstance(self.tokens, int) or self.tokens < 0:
            raise InvalidSetupError(
                f"{self.name}'s tokens must be a whole number of 0 or more, got {self.tokens!r} (DB-7)"
            )
        if self.tokens > MAX_TOKENS:
            raise InvalidSetupError(f"{self.name} has {self.tokens} tokens: an army has at most {MAX_TOKENS} (DB-7)")

    @property
    def destroyed(self) -> bool:
        """Whether the army is down to 0 tokens (DB-7)."""
        return self.tokens <= 0

    def lose(self, tokens: int) -> Army:
        """Return the army after losing ``tokens``, never below 0 (DB-7, :func:`settle_losses`)."""
        lost, _, _ = settle_losses((self.tokens, MAX_TOKENS), ((tokens, 0),))
        return replace(self, tokens=self.tokens - lost)


def settle_losses(tokens: tuple[int, int], path: Iterable[tuple[int, int]]) -> tuple[int, int, str | None]:
    """Return the tokens lost by sides a and b and the army destroyed, for armies of
    ``tokens`` taking the cumulative losses ``path`` in order (DB-7).

    Losses never take an army below 0; an army at 0 is destroyed and the clash (and the
    battle) stops there, so later losses of the path do not count. The destroyed army is
    ``"a"``, ``"b"``, ``"both"`` (both reach 0 in the same step: nobody wins) or ``None``.

    >>> settle_losses((3, 10), [(2, 1), (4, 1), (6, 3)])  # a reaches 0 at the second loss
    (3, 1, 'a')
    """
    ta, tb = tokens
    la = lb = 0
    for ca, cb in path:
        la, lb = min(ca, ta), min(cb, tb)
        if ca >= ta and cb >= tb:
            return la, lb, "both"
        if ca >= ta:
            return la, lb, "a"
        if cb >= tb:
            return la, lb, "b"
    return la, lb, None


def fresh_deck(rules: Rules, stacked: Sequence[str | Card] = ()) -> Pile:
    """Return the reshuffled deck a round deals from (DB-9: every round deals fresh hands
    from the whole deck of DB-1), with ``stacked`` cards on top for rule-book examples."""
    return Pile.full(jokers=rules.jokers, stacked=stacked)
