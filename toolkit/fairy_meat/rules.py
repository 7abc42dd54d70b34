"""Fairy Meat alternate combat: rule options, fairies, weapons and combat hand sizes (FM-1, FM-2).

>>> vibro = Weapon("Vibro-Master", attack_bonus=1, defence_modifier=-1, attacks=2)
>>> dizzy = Fairy("Dizzytwig", live=3, kill=4, weapon=vibro)
>>> sparky = Fairy("Sparklespaz", live=2, kill=1)
>>> attacker_hand_size(dizzy, fluttered=True), defender_hand_size(sparky, dizzy, holds_order_card=True)
(5, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal, get_args

from toolkit.errors import InvalidSetupError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field

__all__ = [
    "Rules",
    "Weapon",
    "Fairy",
    "Direction",
    "attacker_hand_size",
    "defender_hand_size",
    "combat_hand_sizes",
    "check_direction",
]

Direction = Literal["add", "subtract"]
Damage = Literal["halved", "table"]
NoneReveal = Literal["all_or_nothing", "subset"]
Undefended = Literal["blind_draw", "unopposed"]
NastyHit = Literal["damaged", "loser"]
NoneMeans = Literal["no_trumps", "no_face_down"]
WrestlingHand = Literal["as_usual", "kill_only"]


def check_direction(direction: str) -> str:
    """Return ``direction`` if it is ``'add'`` or ``'subtract'`` (FM-3); raise otherwise."""
    if direction not in get_args(Direction):
        raise InvalidSetupError(f"{direction!r} is not a declaration: declare 'add' or 'subtract' (FM-3)")
    return direction


def _check_option(name: str, value: object, allowed: tuple[str, ...], ruling: str) -> None:
    if value not in allowed:
        raise RuleFieldError(
            name, f"{name}={value!r} is not a variant of {ruling}: use " + " or ".join(repr(v) for v in allowed)
        )


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Fairy Meat rules in force: RULINGS.md defaults and the named variants (house
    rules: :mod:`toolkit.house_rules`).

    Attributes:
        damage: FM-10 — ``"halved"`` (default: 1 damage per point, points =
            ceil(difference / 2)) or ``"table"`` (no halving: difference 1–4 → 1 damage,
            5–8 → 2, 9+ → 3, rulebook p.11 style).
        none_reveal: FM-5 — when the other side said None, the owner of face-down trumps
            reveals ``"all_or_nothing"`` (default) or any ``"subset"`` of them.
        undefended: FM-7 — a defender with no card and no points ``"blind_draw"``s
            (default: turns up cards as a Wild Trump with no declared trumps) or is
            ``"unopposed"`` (the attacker wins, points = ceil(attacker value / 2)).
        nasty_hit: FM-12 — the Ace of Spades gives a Nasty Hit to the fairy who takes
            ``"damaged"`` (default) or to the ``"loser"`` even without damage.
        none_means: FM-5 — who has said None: a fairy who applies ``"no_trumps"`` of any
            kind in the attack (default: no face-down Trumps, no Wild Trump, no Trumps
            turned up, no Wild Trump points), or any fairy who places ``"no_face_down"``
            Trumps, whatever she plays or turns up later.
        wrestling_hand: FM-2/FM-14 — Wrestling hands: both draw by Kill points and the
            other terms apply ``"as_usual"`` (default: the attacker's +1, weapons and every
            modifier), or both draw exactly their Kill points (``"kill_only"``).
    """

    SYSTEM: ClassVar[str] = "fairy-meat"

    damage: Damage = rule_field("halved", ruling="FM-10", help="points to damage: halved, or the rulebook's table")
    none_reveal: NoneReveal = rule_field(
        "all_or_nothing", ruling="FM-5", help="after a None: reveal every hidden Trump, or any subset"
    )
    undefended: Undefended = rule_field(
        "blind_draw", ruling="FM-7", help="a defender with nothing: draws blind, or the attack is unopposed"
    )
    nasty_hit: NastyHit = rule_field(
        "damaged", ruling="FM-12", help="the Ace of Spades hits the damaged fairy or the loser"
    )
    none_means: NoneMeans = rule_field(
        "no_trumps", ruling="FM-5", help="who has said None: no Trumps at all, or none face down"
    )
    wrestling_hand: WrestlingHand = rule_field(
        "as_usual", ruling="FM-2/FM-14", help="Wrestling hands: Kill points with the usual terms, or Kill points only"
    )

    def __post_init__(self) -> None:
        _check_option("damage", self.damage, get_args(Damage), "FM-10")
        _check_option("none_reveal", self.none_reveal, get_args(NoneReveal), "FM-5")
        _check_option("undefended", self.undefended, get_args(Undefended), "FM-7")
        _check_option("nasty_hit", self.nasty_hit, get_args(NastyHit), "FM-12")
        _check_option("none_means", self.none_means, get_args(NoneMeans), "FM-5")
        _check_option("wrestling_hand", self.wrestling_hand, get_args(WrestlingHand), "FM-2/FM-14")


#: Most Live or Kill points a fairy may have (a fairy has a handful; a combat hand of
#: more cards than the deck holds cannot be drawn).
MAX_POINTS = 100


def _whole(value: object, what: str, low: int | None = 0, high: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        bound = f" of {low} or more" if low is not None else ""
        bound += f" and at most {high}" if high is not None else ""
        raise InvalidSetupError(f"{what} must be a whole number{bound}, got {str(value)[:40]!r}")
    return value


@dataclass(frozen=True)
class Weapon:
    """A weapon's combat numbers (FM-2, FM-13).

    Attributes:
        attack_bonus: extra cards for the wielder's attacking combat hand.
        defence_modifier: cards added to (usually taken from) the *target's* defending
            hand — the Vibro-Master's -1 costs Sparklespaz a card in the draft's example.
        attacks: attacks the wielder makes in one combat, all from one combat hand (FM-13).
    """

    name: str
    attack_bonus: int = 0
    defence_modifier: int = 0
    attacks: int = 1

    def __post_init__(self) -> None:
        _whole(self.attack_bonus, f"{self.name}'s attack_bonus", low=None)
        _whole(self.defence_modifier, f"{self.name}'s defence_modifier", low=None)
        _whole(self.attacks, f"{self.name}'s attacks", low=1)


BARE_HANDS = Weapon("bare hands")


@dataclass(frozen=True)
class Fairy:
    """A fairy's Live and Kill points and weapon. Damage comes off Live points; a fairy
    with 0 Live points is down (the draft's example: Sparklespaz, 2 Live, takes 2)."""

    name: str
    live: int
    kill: int
    weapon: Weapon = BARE_HANDS

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidSetupError(f"a fairy needs a name, got {self.name!r}")
        _whole(self.live, f"{self.name}'s Live points", high=MAX_POINTS)
        _whole(self.kill, f"{self.name}'s Kill points", high=MAX_POINTS)

    @property
    def is_down(self) -> bool:
        """Whether she has no Live points left."""
        return self.live <= 0

    def take_damage(self, amount: int) -> Fairy:
        """Return her with ``amount`` fewer Live points (never below 0): damage comes off Live
        points, and a fairy with none left is down (FM-10, the draft's example)."""
        return replace(self, live=max(0, self.live - amount))


def attacker_hand_size(
    fairy: Fairy,
    modifiers: int = 0,
    fluttered: bool = False,
    wrestling: bool = False,
    rules: Rules | None = None,
) -> int:
    """Return the attacking fairy's combat hand size (FM-2): Kill points + weapon attack
    bonus + 1 for attacking + modifiers (-1 if she Fluttered), never below 0. Wrestling
    (FM-14) changes nothing for the attacker, who draws by Kill points anyway — unless
    ``Rules(wrestling_hand="kill_only")``: then only Kill points (+ ``modifiers``) count."""
    if wrestling and (rules or Rules()).wrestling_hand == "kill_only":
        return max(0, fairy.kill + modifiers)
    return max(0, fairy.kill + fairy.weapon.attack_bonus + 1 + modifiers - int(fluttered))


def combat_hand_sizes(
    attacker: Fairy,
    defender: Fairy,
    *,
    attacker_modifiers: int = 0,
    defender_modifiers: int = 0,
    fluttered: bool = False,
    holds_order_card: bool = False,
    wrestling: bool = False,
    rules: Rules | None = None,
) -> tuple[int, int]:
    """Return both combat hand sizes (FM-2): (:func:`attacker_hand_size`,
    :func:`defender_hand_size`). When Wrestling (FM-14) both draw by Kill points and every
    other term applies as usual (default), or exactly their Kill points with
    ``Rules(wrestling_hand="kill_only")``."""
    return (
        attacker_hand_size(attacker, attacker_modifiers, fluttered, wrestling, rules),
        defender_hand_size(defender, attacker, defender_modifiers, holds_order_card, wrestling, rules),
    )


def defender_hand_size(
    fairy: Fairy,
    attacker: Fairy | None = None,
    modifiers: int = 0,
    holds_order_card: bool = False,
    wrestling: bool = False,
    rules: Rules | None = None,
) -> int:
    """Return the defending fairy's combat hand size (FM-2): Live points (Kill points when
    Wrestling, FM-14) + 1 if she still holds an Order Card + the attacker's weapon defence
    modifier + other modifiers, never below 0. With ``Rules(wrestling_hand="kill_only")``
    a Wrestling defender draws only her Kill points (+ ``modifiers``)."""
    kill_only = wrestling and (rules or Rules()).wrestling_hand == "kill_only"
    if kill_only:
        return max(0, fairy.kill + modifiers)
    weapon_mod = attacker.weapon.defence_modifier if attacker is not None else 0
    points = fairy.kill if wrestling else fairy.live
    return max(0, points + int(holds_order_card) + weapon_mod + modifiers)
