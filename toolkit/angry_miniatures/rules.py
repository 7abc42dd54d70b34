"""Angry Miniatures rules: variants, characters, modifiers and dice pools (AM-2, AM-5, AM-6, AM-9).

>>> grunk = Character("Grunk", melee=4, body=3, health=5, melee_character=True)
>>> pixie = Character("Pixie", magic=3, body=2, mind=3, spirit=4, health=3)
>>> attack_pools(grunk, pixie, "melee", Modifiers(charge=True))
Pools(attack=5, defence=2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal, NamedTuple, get_args

from toolkit.errors import ArgumentTypeError, InvalidSetupError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field
from toolkit.notation import excerpt

__all__ = [
    "ATTACK_TYPES",
    "AttackType",
    "Rules",
    "Character",
    "Modifiers",
    "Pools",
    "attack_pools",
    "check_attack_type",
    "check_pool",
]

AttackType = Literal["melee", "ranged", "magic"]
#: The three attack types and the stat each is defended with (AM-2).
ATTACK_TYPES: tuple[str, ...] = get_args(AttackType)
DEFENCE_STAT: dict[str, str] = {"melee": "body", "ranged": "mind", "magic": "spirit"}

ZeroTie = Literal["miss", "super_tiebreak"]
TieBreak = Literal["chain", "coin_flip"]


def check_attack_type(attack_type: str) -> str:
    """Return ``attack_type`` if it is one of melee, ranged, magic; raise otherwise (AM-2)."""
    if not isinstance(attack_type, str):
        raise ArgumentTypeError(
            f"attack_type must be one of {', '.join(ATTACK_TYPES)} (a str), got {type(attack_type).__name__}"
        )
    if attack_type not in ATTACK_TYPES:
        raise InvalidSetupError(
            f"{excerpt(attack_type)} is not an attack type: use one of {', '.join(ATTACK_TYPES)} (AM-2)"
        )
    return attack_type


def check_pool(dice: object, what: str = "pool") -> int:
    """Return ``dice`` as a pool size if it is a whole number >= 0; raise otherwise (AM-2)."""
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise ArgumentTypeError(f"{what} must be a whole number of dice (0 or more), got {excerpt(dice)}")
    if dice < 0:
        raise InvalidSetupError(
            f"{what} of {dice} dice is negative: a pool is 0 or more dice (AM-2; modifiers "
            "that would take it below 0 leave it at 0 — use attack_pools for that)"
        )
    return dice


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Angry Miniatures rules in force: the defaults of RULINGS.md and the named variants
    (house rules: :mod:`toolkit.house_rules`).

    Attributes:
        zero_tie: what happens when both sides roll 0 hits (AM-5): ``"miss"`` (default,
            nobody takes damage) or ``"super_tiebreak"`` (a SuperTieBreaker decides, as a tie).
        melee_defence_bonus: the draft's experimental rule (AM-6): a melee character
            defending in melee rolls one extra die. Off by default.
        tie_break: not a ruling but a yardstick for reports (AM-4): ``"chain"`` (default,
            Aces, Kings, Queens, Jacks, then SuperTieBreaker) or ``"coin_flip"`` (every tie
            on hits decided by a fair coin, no tie-break dice read).
    """

    SYSTEM: ClassVar[str] = "angry-miniatures"

    zero_tie: ZeroTie = rule_field("miss", ruling="AM-5", help="both sides roll 0 hits: a miss, or a SuperTieBreaker")
    melee_defence_bonus: bool = rule_field(
        False, ruling="AM-6", help="a melee character defending in melee rolls +1 die"
    )
    tie_break: TieBreak = rule_field("chain", ruling="AM-4", help="ties on hits: the tie-break chain, or a coin flip")

    def __post_init__(self) -> None:
        if self.zero_tie not in get_args(ZeroTie):
            raise RuleFieldError(
                "zero_tie",
                f"zero_tie={self.zero_tie!r} is not a variant of AM-5: use "
                + " or ".join(repr(v) for v in get_args(ZeroTie)),
            )
        if not isinstance(self.melee_defence_bonus, bool):
            raise RuleFieldError(
                "melee_defence_bonus", f"melee_defence_bonus={self.melee_defence_bonus!r}: use True or False (AM-6)"
            )
        if self.tie_break not in get_args(TieBreak):
            raise RuleFieldError(
                "tie_break",
                f"tie_break={self.tie_break!r}: use " + " or ".join(repr(v) for v in get_args(TieBreak)) + " (AM-4)",
            )


@dataclass(frozen=True)
class Character:
    """A character's combat stats (AM-2) and her Health track (AM-10).

    Attributes:
        name: shown in the log.
        melee, ranged, magic: attack values (dice rolled when attacking that way).
        body, mind, spirit: defence stats (dice rolled against melee, ranged, magic).
        health: damage that takes her out (at least 1).
        damage: damage taken so far.
        melee_character: whether she is a melee character (for the AM-6 variant).
    """

    name: str
    melee: int = 0
    ranged: int = 0
    magic: int = 0
    body: int = 0
    mind: int = 0
    spirit: int = 0
    health: int = 1
    damage: int = 0
    melee_character: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidSetupError(f"a character needs a name, got {self.name!r}")
        for stat in ("melee", "ranged", "magic", "body", "mind", "spirit", "damage"):
            check_pool(getattr(self, stat), f"{self.name}'s {stat}")
        if isinstance(self.health, bool) or not isinstance(self.health, int) or self.health < 1:
            raise InvalidSetupError(
                f"{self.name}'s Health {self.health!r} is not valid: Health is a whole number of 1 or more (AM-10)"
            )

    @property
    def is_out(self) -> bool:
        """Whether her damage has reached her Health (AM-10)."""
        return self.damage >= self.health

    @property
    def health_left(self) -> int:
        """Health minus damage taken, never below 0."""
        return max(0, self.health - self.damage)

    def attack_value(self, attack_type: str) -> int:
        """Return the attack value used for an attack of this type (AM-2)."""
        return getattr(self, check_attack_type(attack_type))

    def defence_value(self, attack_type: str) -> int:
        """Return the stat rolled against an attack of this type: Body, Mind or Spirit (AM-2)."""
        return getattr(self, DEFENCE_STAT[check_attack_type(attack_type)])

    def take_damage(self, amount: int) -> Character:
        """Return her with ``amount`` more damage (AM-10)."""
        return replace(self, damage=self.damage + amount)


@dataclass(frozen=True)
class Modifiers:
    """The common modifiers of AM-9, plus free extra dice for perks and flaws.

    Attributes:
        hindering_terrain: squares of hindering terrain a ranged/magic attack aims
            through (+1 defence die each).
        occupied_squares: occupied squares (friend or foe) a ranged/magic attack aims
            through (+1 defence die each).
        prone: the defender is prone (-1 defence die).
        charge: the attacker moved more than 2 squares into melee (+1 attack die, melee).
        higher_elevation: the attacker is higher than the defender (+1 attack die,
            ranged/magic).
        extra_attack_dice, extra_defence_dice: any other modifier (perks, flaws), may be
            negative.
    """

    hindering_terrain: int = 0
    occupied_squares: int = 0
    prone: bool = False
    charge: bool = False
    higher_elevation: bool = False
    extra_attack_dice: int = 0
    extra_defence_dice: int = 0

    def __post_init__(self) -> None:
        check_pool(self.hindering_terrain, "hindering_terrain (squares)")
        check_pool(self.occupied_squares, "occupied_squares (squares)")
        for flag in ("prone", "charge", "higher_elevation"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidSetupError(f"{flag}={getattr(self, flag)!r}: use True or False (AM-9)")
        for extra in ("extra_attack_dice", "extra_defence_dice"):
            value = getattr(self, extra)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidSetupError(f"{extra} must be a whole number, got {value!r}")

    def check(self, attack_type: str) -> None:
        """Raise if a modifier does not apply to this attack type (AM-9)."""
        check_attack_type(attack_type)
        if attack_type == "melee":
            bad = [
                name for name in ("hindering_terrain", "occupied_squares", "higher_elevation") if getattr(self, name)
            ]
            if bad:
                raise InvalidSetupError(f"{', '.join(bad)} applies to ranged and magic attacks only, not melee (AM-9)")
        elif self.charge:
            raise InvalidSetupError(f"charge applies to melee attacks only, not {attack_type} (AM-9)")


class Pools(NamedTuple):
    """The dice each side rolls in one attack (a named pair: ``attack, defence = pools``)."""

    attack: int
    defence: int


def attack_pools(
    attacker: Character,
    defender: Character,
    attack_type: str,
    modifiers: Modifiers | None = None,
    rules: Rules | None = None,
) -> Pools:
    """Return the attack and defence pools for one attack, never below 0 dice.

    Implements AM-2 (attack value vs Body/Mind/Spirit), AM-9 (modifiers) and the AM-6
    variant (a melee character defending in melee rolls +1 die).
    """
    modifiers = modifiers or Modifiers()
    rules = rules or Rules()
    modifiers.check(attack_type)
    attack = attacker.attack_value(attack_type) + modifiers.extra_attack_dice
    defence = defender.defence_value(attack_type) + modifiers.extra_defence_dice
    if attack_type == "melee":
        attack += int(modifiers.charge)
        if rules.melee_defence_bonus and defender.melee_character:
            defence += 1
    else:
        attack += int(modifiers.higher_elevation)
        defence += modifiers.hindering_terrain + modifiers.occupied_squares
    defence -= int(modifiers.prone)
    return Pools(max(0, attack), max(0, defence))
