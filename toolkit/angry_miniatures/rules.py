"""Angry Miniatures rules: variants, characters, modifiers and dice pools (AM-2, AM-5, AM-6, AM-9).

:class:`Rules` holds every number and table of the draft as a field, so a house
rule is a changed field: the die's faces and hits (AM-1), the tie-break chain and a won tie's damage
(AM-4), melee return damage (AM-3), the crit (AM-7) and each AM-9 modifier's size, with
the named variants; the defaults are the rulings of ``docs/rulings.md``.

>>> grunk = Character("Grunk", melee=4, body=3, health=5, melee_character=True)
>>> pixie = Character("Pixie", magic=3, body=2, mind=3, spirit=4, health=3)
>>> attack_pools(grunk, pixie, "melee", Modifiers(charge=True))
Pools(attack=5, defence=2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import ClassVar, Literal, NamedTuple, get_args

from toolkit.dice import POKER_FACES, parse_face
from toolkit.errors import ArgumentTypeError, InvalidSetupError, NotationError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field
from toolkit.notation import excerpt
from toolkit.rulings import implements
from toolkit.whole_numbers import whole_number

__all__ = [
    "ATTACK_TYPES",
    "FACE_NAMES",
    "FACE_PLURALS",
    "MODIFIER_SIZES",
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
    hint = "a pool is 0 or more dice (modifiers that would take it below 0 leave it at 0: use attack_pools for that)"
    return whole_number(dice, what, 0, ruling="AM-2", hint=hint, type_error=ArgumentTypeError)


#: The names of the die's faces, lowest to highest (AM-1; AM-4's SuperTieBreaker order).
FACE_NAMES: tuple[str, ...] = POKER_FACES
#: The plural of each face, for the log and the tie-break steps (AM-4).
FACE_PLURALS: dict[str, str] = {"9": "9s", "10": "10s", "J": "Jacks", "Q": "Queens", "K": "Kings", "A": "Aces"}
#: The AM-9 modifier sizes: field name, what it is, the modifier it sizes.
MODIFIER_SIZES: tuple[tuple[str, str], ...] = (
    ("charge_dice", "attack dice for a melee charge of more than 2 squares"),
    ("elevation_dice", "attack dice from higher ground (ranged, magic)"),
    ("terrain_dice", "defence dice per square of hindering terrain (ranged, magic)"),
    ("occupied_dice", "defence dice per occupied square crossed (ranged, magic)"),
    ("prone_dice", "defence dice taken away from a prone defender"),
)
#: The largest size of an AM-9 modifier, of a won tie's damage, of a crit's count and of
#: the die (number of faces, repeats counted).
MAX_MODIFIER = 10
MAX_TIE_DAMAGE = 100
MAX_CRIT_COUNT = 20
MAX_DIE_FACES = 60

_DEFAULT_CHAIN: tuple[str, ...] = ("A", "K", "Q", "J")


def _face_list(field: str, value: object, accepted: str, allow_repeats: bool = False) -> tuple[str, ...]:
    """Return ``value`` (a list of faces, or one string ``"J Q K A"``) as canonical face
    names; raise :class:`RuleFieldError` naming ``field`` otherwise."""
    items: list[object]
    if isinstance(value, str):
        items = list(value.replace(",", " ").split())
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise RuleFieldError(field, f"{field}={excerpt(value)}: {accepted}")
    faces = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise RuleFieldError(field, f"{field}: {excerpt(item)} is not a face; {accepted}")
        try:
            faces.append(parse_face(str(item)))
        except NotationError:
            raise RuleFieldError(field, f"{field}: {excerpt(item)} is not a face; {accepted}") from None
    if not allow_repeats and len(set(faces)) != len(faces):
        repeated = sorted({f for f in faces if faces.count(f) > 1}, key=FACE_NAMES.index)
        raise RuleFieldError(field, f"{field} names {', '.join(repeated)} more than once; {accepted}")
    return tuple(faces)


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Angry Miniatures rules in force: the defaults of ``docs/rulings.md``, the named
    variants, and every number and table of the draft as a field (house rules:
    :mod:`toolkit.house_rules`).

    Faces are named as on the die: ``"9"``, ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``.
    A list of faces may be given as a list or tuple (``("10", "J", "Q", "K", "A")``) or one
    string (``"10 J Q K A"``); it is stored as a tuple in the die's order.

    Attributes:
        die_faces: the faces of one die (AM-1), repeats allowed (a face written twice
            comes up twice as often); at least two different faces. Default 9 10 J Q K A.
        hit_faces: the faces that count as hits (AM-1). Default J Q K A.
        tie_break_order: the faces compared, in order, when both sides tie on hits (AM-4):
            the side with more of the first wins, then the next, ...; still tied, a
            SuperTieBreaker. Hit faces only (the chain ranks hits). Left out, it is the
            draft's Aces, Kings, Queens, Jacks — those of them that hit.
        tie_damage: damage dealt by the winner of a tie on hits (AM-4). Default 1.
        return_damage: in melee, the defender deals damage back when she wins (AM-3, and
            a won tie, AM-4). Default True.
        crit_faces, crit_count: a roll crits with ``crit_count`` or more dice showing one
            of ``crit_faces`` (AM-7). Default 2 Aces.
        charge_dice, elevation_dice, terrain_dice, occupied_dice, prone_dice: the size
            of each AM-9 modifier, in dice. Default 1 each.
        zero_tie: what happens when both sides roll 0 hits (AM-5): ``"miss"`` (default,
            nobody takes damage) or ``"super_tiebreak"`` (a SuperTieBreaker decides, as a tie).
        melee_defence_bonus: the draft's experimental rule (AM-6): a melee character
            defending in melee rolls one extra die. Off by default.
        tie_break: not a ruling but a yardstick for reports (AM-4): ``"chain"`` (default,
            the tie-break order, then SuperTieBreaker) or ``"coin_flip"`` (every tie on
            hits decided by a fair coin, no tie-break dice read).

    >>> Rules(hit_faces="10 J Q K A").hit_faces
    ('10', 'J', 'Q', 'K', 'A')
    >>> Rules(hit_faces=("Q", "K", "A")).tie_break_order
    ('A', 'K', 'Q')
    """

    SYSTEM: ClassVar[str] = "angry-miniatures"
    TITLE: ClassVar[str] = "Angry Miniatures"

    die_faces: tuple[str, ...] = rule_field(
        FACE_NAMES,
        ruling="AM-1",
        help="the faces of one die (repeats allowed: a face twice is twice as likely)",
        label="Die faces",
    )
    hit_faces: tuple[str, ...] = rule_field(
        ("J", "Q", "K", "A"), ruling="AM-1", help="the faces that count as hits", label="Hit faces"
    )
    tie_break_order: tuple[str, ...] | None = rule_field(
        None,
        ruling="AM-4",
        help="ties on hits: the faces compared in order (most of the first wins, then the next)",
        label="Tie-break order",
    )
    tie_damage: int = rule_field(
        1,
        ruling="AM-4",
        help="damage dealt by the winner of a tie on hits",
        label="Damage for winning a tie",
        bounds=(0, MAX_TIE_DAMAGE),
    )
    return_damage: bool = rule_field(
        True,
        ruling="AM-3",
        help="in melee the defender deals damage back when she wins (hits or a tie)",
        label="Melee damage back",
    )
    crit_faces: tuple[str, ...] = rule_field(
        ("A",), ruling="AM-7", help="the faces counted for a crit", label="Crit faces"
    )
    crit_count: int = rule_field(
        2,
        ruling="AM-7",
        help="a roll crits with this many dice or more showing a crit face",
        label="Dice showing a crit face to crit",
        bounds=(1, MAX_CRIT_COUNT),
    )
    charge_dice: int = rule_field(
        1,
        ruling="AM-9",
        help="attack dice for a melee charge of more than 2 squares",
        label="Charge dice",
        bounds=(0, MAX_MODIFIER),
    )
    elevation_dice: int = rule_field(
        1,
        ruling="AM-9",
        help="attack dice from higher ground (ranged and magic)",
        label="Higher-ground dice",
        bounds=(0, MAX_MODIFIER),
    )
    terrain_dice: int = rule_field(
        1,
        ruling="AM-9",
        help="defence dice per square of hindering terrain crossed (ranged and magic)",
        label="Defence dice per terrain square",
        bounds=(0, MAX_MODIFIER),
    )
    occupied_dice: int = rule_field(
        1,
        ruling="AM-9",
        help="defence dice per occupied square crossed (ranged and magic)",
        label="Defence dice per occupied square",
        bounds=(0, MAX_MODIFIER),
    )
    prone_dice: int = rule_field(
        1,
        ruling="AM-9",
        help="defence dice taken away from a prone defender",
        label="Dice a prone defender loses",
        bounds=(0, MAX_MODIFIER),
    )
    zero_tie: ZeroTie = rule_field(
        "miss", ruling="AM-5", help="both sides roll 0 hits: a miss, or a SuperTieBreaker", label="Both roll no hits"
    )
    melee_defence_bonus: bool = rule_field(
        False,
        ruling="AM-6",
        help="a melee character defending in melee rolls +1 die",
        label="Melee defender's extra die",
    )
    tie_break: TieBreak = rule_field(
        "chain", ruling="AM-4", help="ties on hits: the tie-break chain, or a coin flip", label="Ties on hits"
    )

    def __post_init__(self) -> None:
        names = ", ".join(FACE_NAMES)
        die = _face_list(
            "die_faces",
            self.die_faces,
            f"the die's faces are a list of at least two different faces of {names} (repeats allowed, AM-1)",
            allow_repeats=True,
        )
        if len(set(die)) < 2 or len(die) > MAX_DIE_FACES:
            raise RuleFieldError(
                "die_faces",
                f"die_faces={excerpt(self.die_faces)}: a die has at least two different faces and at most "
                f"{MAX_DIE_FACES} faces in all, each one of {names} (AM-1)",
            )
        die = tuple(sorted(die, key=FACE_NAMES.index))
        on_die = sorted(set(die), key=FACE_NAMES.index)
        on_die_text = ", ".join(on_die)
        accepted = f"name faces of the die ({on_die_text})"
        hits = _face_list("hit_faces", self.hit_faces, accepted + " (AM-1)")
        if not hits:
            raise RuleFieldError("hit_faces", f"hit_faces={excerpt(self.hit_faces)}: no face hits; {accepted} (AM-1)")
        # A die without some default face: say that the field left out must be given too.
        also = "" if die == FACE_NAMES else " (the die_faces changed: give this field too)"
        missing = [f for f in hits if f not in on_die]
        if missing:
            raise RuleFieldError(
                "hit_faces", f"hit_faces names {', '.join(missing)}, not a face of the die; {accepted} (AM-1){also}"
            )
        hits = tuple(f for f in on_die if f in hits)
        if self.tie_break_order is None:
            chain = tuple(f for f in _DEFAULT_CHAIN if f in hits)
        else:
            chain = _face_list(
                "tie_break_order", self.tie_break_order, f"name hit faces ({', '.join(hits)}) in order (AM-4)"
            )
            wrong = [f for f in chain if f not in hits]
            if wrong:
                raise RuleFieldError(
                    "tie_break_order",
                    f"tie_break_order names {', '.join(wrong)}, "
                    + ("not a face of the die" if any(f not in on_die for f in wrong) else "not a hit face")
                    + f": the chain compares hit faces only ({', '.join(hits)}) (AM-4)",
                )
        self.check_bounded("tie_damage", "a won tie's damage", "AM-4")
        if not isinstance(self.return_damage, bool):
            raise RuleFieldError(
                "return_damage", f"return_damage={excerpt(self.return_damage)}: use True or False (AM-3)"
            )
        crit = _face_list("crit_faces", self.crit_faces, accepted + " (AM-7)")
        if not crit or any(f not in on_die for f in crit):
            raise RuleFieldError(
                "crit_faces",
                f"crit_faces={excerpt(self.crit_faces)}: name one or more faces of the die ({on_die_text}) "
                f"(AM-7){also}",
            )
        crit = tuple(f for f in on_die if f in crit)
        self.check_bounded("crit_count", "the dice a crit needs", "AM-7")
        for name, what in MODIFIER_SIZES:
            self.check_bounded(name, what, "AM-9")
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
        for name, value in (("die_faces", die), ("hit_faces", hits), ("tie_break_order", chain), ("crit_faces", crit)):
            object.__setattr__(self, name, value)

    def __str__(self) -> str:
        return self.variant_name()

    # -- what the referee, the engine and the calculators ask (AM-1, AM-4, AM-7) ----------
    def face_weights(self) -> tuple[tuple[str, int], ...]:
        """Return each different face of the die with how many of its faces show it,
        lowest first (AM-1): ``(("9", 1), ("10", 1), ...)`` for the poker die."""
        return _face_weights(self.die_faces)

    @implements("AM-1")
    def count_hits(self, faces: Sequence[str]) -> int:
        """Return the number of hits in a roll (AM-1)."""
        hits = self.hit_faces
        return sum(1 for f in faces if f in hits)

    def crit_count_of(self, faces: Sequence[str]) -> int:
        """Return how many dice of a roll show a crit face (AM-7; whether that crits is
        :func:`toolkit.angry_miniatures.referee.crit_from_aces`)."""
        crit = self.crit_faces
        return sum(1 for f in faces if f in crit)


@cache
def _face_weights(die: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((f, die.count(f)) for f in FACE_NAMES if f in die)


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
        whole_number(self.health, f"{self.name}'s Health", 1, ruling="AM-10")

    @property
    @implements("AM-10")
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
            whole_number(value, extra, ruling="AM-9")

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


@implements("AM-2", "AM-6", "AM-9")
def attack_pools(
    attacker: Character,
    defender: Character,
    attack_type: str,
    modifiers: Modifiers | None = None,
    rules: Rules | None = None,
) -> Pools:
    """Return the attack and defence pools for one attack, never below 0 dice.

    Implements AM-2 (attack value vs Body/Mind/Spirit), AM-9 (modifiers, each of the
    size ``rules`` give it: ``charge_dice``, ...) and the AM-6 variant (a melee character
    defending in melee rolls +1 die).
    """
    modifiers = modifiers or Modifiers()
    rules = rules or Rules()
    modifiers.check(attack_type)
    attack = attacker.attack_value(attack_type) + modifiers.extra_attack_dice
    defence = defender.defence_value(attack_type) + modifiers.extra_defence_dice
    if attack_type == "melee":
        attack += rules.charge_dice * modifiers.charge
        if rules.melee_defence_bonus and defender.melee_character:
            defence += 1
    else:
        attack += rules.elevation_dice * modifiers.higher_elevation
        defence += rules.terrain_dice * modifiers.hindering_terrain + rules.occupied_dice * modifiers.occupied_squares
    defence -= rules.prone_dice * modifiers.prone
    return Pools(max(0, attack), max(0, defence))
