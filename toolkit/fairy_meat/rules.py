"""Fairy Meat alternate combat: rule options, fairies, weapons and combat hand sizes (FM-1, FM-2).

>>> vibro = Weapon("Vibro-Master", attack_bonus=1, defence_modifier=-1, attacks=2)
>>> dizzy = Fairy("Dizzytwig", live=3, kill=4, weapon=vibro)
>>> sparky = Fairy("Sparklespaz", live=2, kill=1)
>>> attacker_hand_size(dizzy, fluttered=True), defender_hand_size(sparky, dizzy, holds_order_card=True)
(5, 2)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar, Literal, get_args

from toolkit.cards import Card
from toolkit.errors import InvalidSetupError, NotationError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field
from toolkit.notation import excerpt
from toolkit.rulings import implements
from toolkit.whole_numbers import whole_number

__all__ = [
    "Rules",
    "Weapon",
    "Fairy",
    "PRONOUNS",
    "Voice",
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


@implements("FM-3")
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


#: Ranks a Numbered card may have (FM-1): it is worth its pips.
NUMBERED_RANKS_ACCEPTED: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
#: Every rank of the 52-card deck, lowest first.
ALL_RANKS: tuple[str, ...] = (*NUMBERED_RANKS_ACCEPTED, "J", "Q", "K", "A")
#: The rule book's damage table (FM-10 variant ``damage="table"``, page 11 style): a
#: difference of 1-4 deals 1 damage, 5-8 deals 2, 9 or more 3.
RULEBOOK_DAMAGE_TABLE: tuple[tuple[str, int], ...] = (("1-4", 1), ("5-8", 2), ("9+", 3))
#: Bounds of the hand-size terms (FM-2) and of a Trump's worth (FM-1).
TERM_RANGE = (-10, 10)
TRUMP_VALUE_RANGE = (1, 10)
DIVISOR_RANGE = (1, 10)
WINS = ("highest", "lowest")


def _check_ranks(name: str, value: object, accepted: tuple[str, ...], ruling: str) -> tuple[str, ...]:
    """The ranks of ``value`` (a list of rank names) in deck order; raise naming the field."""
    items = (value,) if isinstance(value, (str, int)) and not isinstance(value, bool) else value
    items = tuple(items) if isinstance(items, list) else items
    if not isinstance(items, tuple) or not items:
        raise RuleFieldError(
            name,
            f"{name}={value!r} is not valid ({ruling}): give a non-empty list of ranks among {', '.join(accepted)}",
        )
    ranks = []
    for item in items:
        text = str(item).strip().upper() if isinstance(item, (str, int)) and not isinstance(item, bool) else None
        if text == "T":
            text = "10"
        if text not in accepted:
            raise RuleFieldError(
                name, f"{name}: {item!r} is not valid ({ruling}): the ranks accepted are {', '.join(accepted)}"
            )
        if text in ranks:
            raise RuleFieldError(name, f"{name}: rank {text} is listed twice ({ruling})")
        ranks.append(text)
    return tuple(r for r in accepted if r in ranks)


def _range_key(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _parse_range(key: object) -> tuple[int, int | None] | None:
    """``"1-4"`` -> (1, 4), ``"9+"`` -> (9, None), ``5`` or ``"5"`` -> (5, 5); None if not a range."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return (key, key)
    if not isinstance(key, str):
        return None
    text = key.replace(" ", "")
    m = re.fullmatch(r"(\d+)(?:-(\d+)|(\+))?", text)
    if not m:
        return None
    lo = int(m.group(1))
    if m.group(3):
        return (lo, None)
    return (lo, int(m.group(2)) if m.group(2) else lo)


#: The most rows a damage table may have (FM-10): every attack looks its difference up in
#: it, and a few rows are what a rule book prints (the rule book's has 3).
MAX_DAMAGE_TABLE_ROWS = 100


def check_damage_table(value: object) -> tuple[tuple[str, int], ...]:
    """Return a damage table (FM-10) as ``(("1-4", 1), ("5-8", 2), ("9+", 3))``: ranges of
    differences, from 1 with no gap and no overlap, the last open (``"9+"``), each with a
    whole damage >= 0, at most :data:`MAX_DAMAGE_TABLE_ROWS` rows. Given as a mapping of
    range to damage (``{"1-4": 1, "5-8": 2, "9+": 3}``, as a YAML file writes it) or as
    ``(range, damage)`` pairs. Raise :class:`RuleFieldError` naming ``damage_table`` otherwise.

    >>> check_damage_table({"1-4": 1, "5-8": 2, "9+": 3})
    (('1-4', 1), ('5-8', 2), ('9+', 3))
    """
    accepted = (
        "a mapping of differences to damage, e.g. {'1-4': 1, '5-8': 2, '9+': 3} (or (range, damage) pairs): "
        "ranges from 1, no gap, last one open"
    )
    if isinstance(value, Mapping):
        value = tuple(value.items())
    elif isinstance(value, list):
        value = tuple(tuple(p) if isinstance(p, list) else p for p in value)
    if not isinstance(value, tuple) or not value or not all(isinstance(p, tuple) and len(p) == 2 for p in value):
        raise RuleFieldError("damage_table", f"damage_table={excerpt(value)} is not valid (FM-10): give {accepted}")
    if len(value) > MAX_DAMAGE_TABLE_ROWS:
        raise RuleFieldError(
            "damage_table",
            f"damage_table has {len(value):,} rows (FM-10): at most {MAX_DAMAGE_TABLE_ROWS}; "
            "make the last range open ('9+') instead of listing every difference",
        )
    rows = []
    for key, damage in value:
        rng = _parse_range(key)
        if rng is None or rng[0] < 1 or (rng[1] is not None and rng[1] < rng[0]):
            raise RuleFieldError(
                "damage_table", f"damage_table: {excerpt(key)} is not a range of differences (FM-10): give {accepted}"
            )
        whole_number(
            damage,
            f"damage_table: the damage for {excerpt(key)}",
            0,
            100,
            ruling="FM-10",
            error=functools.partial(RuleFieldError, "damage_table"),
        )
        rows.append((rng, damage))
    rows.sort(key=lambda r: r[0][0])
    expected = 1
    for (lo, hi), _ in rows:
        if expected is None:
            raise RuleFieldError(
                "damage_table", f"damage_table: {_range_key(lo, hi)} follows an open range (FM-10): give {accepted}"
            )
        if lo != expected:
            what = "a gap" if lo > expected else "an overlap"
            raise RuleFieldError(
                "damage_table",
                f"damage_table has {what} at a difference of {min(lo, expected)} (FM-10): give {accepted}",
            )
        expected = None if hi is None else hi + 1
    if expected is not None:
        raise RuleFieldError(
            "damage_table",
            f"damage_table stops at a difference of {expected - 1} (FM-10): end with an open range like '9+'",
        )
    return tuple((_range_key(lo, hi), damage) for (lo, hi), damage in rows)


def _check_death_card(value: object, trump_ranks: tuple[str, ...]) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    try:
        card = Card(value) if isinstance(value, str) else None
    except NotationError:
        card = None
    if card is None or card.is_joker:
        raise RuleFieldError(
            "death_card", f"death_card={value!r} is not valid (FM-12): give a card code like 'AS', or 'none'"
        )
    if card.rank not in trump_ranks:
        raise RuleFieldError(
            "death_card",
            f"death_card={card.code!r} is not a Trump (FM-12): the death card is applied as a Trump; the Trump ranks "
            f"are {', '.join(trump_ranks)}: name one of their cards, or 'none'",
        )
    return card.code


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Fairy Meat rules in force: docs/rulings.md defaults, the named variants and every
    number and table of the draft, so a house rule is a changed field (:mod:`toolkit.house_rules`).

    Attributes:
        numbered_ranks: FM-1 — the ranks that are Numbered cards, worth their pips
            (default 2-10; among 2-10).
        trump_ranks: FM-1 — the ranks that are Trumps (default J Q K A; any rank not a
            Numbered rank). A rank that is neither is taken out of the deck.
        trump_value: FM-1/FM-8 — what one applied matching Trump (or Wild Trump point)
            adds or subtracts (default 1). Cheating Trumps still move each value by 1.
        jokers: FM-1 — jokers in the deck (default 0; 1 or 2). House-rules reading: a
            joker is a Trump of no colour that matches every Numbered card, and may be
            placed face down with Trumps of either colour.
        attacker_bonus, order_card_bonus, flutter_penalty: FM-2 — the attacker's extra
            cards for attacking (+1), the defender's for holding an Order Card (+1), the
            cards a Fluttered attacker loses (1).
        points_divisor: FM-10 — the winner scores ceil(difference / divisor) points
            (default 2; 1: the full difference).
        damage: FM-10 — ``"halved"`` (default: 1 damage per point) or ``"table"``
            (damage read from :attr:`damage_table` by the difference, no halving).
        damage_table: FM-10 — the ranges of differences and their damage for
            ``damage="table"``; empty means the rule book's 1-4: 1, 5-8: 2, 9+: 3. Giving
            a table sets ``damage="table"``.
        same_colour_wins, different_colour_wins: FM-9 — which final value wins when the
            Numbered cards are of the same colour (``"highest"``) or different colours
            (``"lowest"``).
        death_card: FM-12 — the card that gives a Nasty Hit when applied (``"AS"``;
            any Trump, or ``None``: no Nasty Hits).
        none_reveal: FM-5 — when the other side said None, the owner of face-down trumps
            reveals ``"all_or_nothing"`` (default) or any ``"subset"`` of them.
        undefended: FM-7 — a defender with no card and no points ``"blind_draw"``s
            (default: turns up cards as a Wild Trump with no declared trumps) or is
            ``"unopposed"`` (the attacker wins, points = ceil(attacker value / divisor)).
        nasty_hit: FM-12 — the death card gives a Nasty Hit to the fairy who takes
            ``"damaged"`` (default) or to the ``"loser"`` even without damage.
        none_means: FM-5 — who has said None: a fairy who applies ``"no_trumps"`` of any
            kind in the attack (default: no face-down Trumps, no Wild Trump, no Trumps
            turned up, no Wild Trump points), or any fairy who places ``"no_face_down"``
            Trumps, whatever she plays or turns up later.
        wrestling_hand: FM-2/FM-14 — Wrestling hands: both draw by Kill points and the
            other terms apply ``"as_usual"`` (default: the attacker's bonus, weapons and every
            modifier), or both draw exactly their Kill points (``"kill_only"``).
    """

    SYSTEM: ClassVar[str] = "fairy-meat"
    TITLE: ClassVar[str] = "Fairy Meat"

    numbered_ranks: tuple[str, ...] = rule_field(
        NUMBERED_RANKS_ACCEPTED,
        ruling="FM-1",
        help="ranks that are Numbered cards (worth their pips), among 2-10",
        label="Numbered ranks",
    )
    trump_ranks: tuple[str, ...] = rule_field(
        ("J", "Q", "K", "A"),
        ruling="FM-1",
        help="ranks that are Trumps; a rank in neither list leaves the deck",
        label="Trump ranks",
    )
    trump_value: int = rule_field(
        1,
        ruling="FM-1/FM-8",
        help="what one applied matching Trump adds or subtracts",
        label="Value of a Trump",
        bounds=TRUMP_VALUE_RANGE,
    )
    jokers: int = rule_field(
        0,
        ruling="FM-1",
        help="jokers in the deck (0-2): Trumps of no colour that match any card",
        label="Jokers in the deck",
        bounds=(0, 2),
    )
    attacker_bonus: int = rule_field(
        1,
        ruling="FM-2",
        help="extra cards the attacker draws for attacking",
        label="Attacker's extra cards",
        bounds=TERM_RANGE,
    )
    order_card_bonus: int = rule_field(
        1,
        ruling="FM-2",
        help="extra cards a defender holding an Order Card draws",
        label="Order Card extra cards",
        bounds=TERM_RANGE,
    )
    flutter_penalty: int = rule_field(
        1,
        ruling="FM-2",
        help="cards a Fluttered attacker draws fewer",
        label="Cards a Fluttered attacker loses",
        bounds=TERM_RANGE,
    )
    points_divisor: int = rule_field(
        2,
        ruling="FM-10",
        help="the winner scores the difference divided by this, rounded up; 1: the full difference",
        label="Points divisor",
        bounds=DIVISOR_RANGE,
    )
    damage: Damage = rule_field(
        "halved",
        ruling="FM-10",
        help="points to damage: 1 per point, or by the damage table",
        label="Damage from points",
    )
    damage_table: tuple[tuple[str, int], ...] = rule_field(
        (),
        ruling="FM-10",
        help="damage by difference, e.g. {1-4: 1, 5-8: 2, 9+: 3} (empty: the rule book's)",
        yaml="mapping",
        label="Damage table",
    )
    same_colour_wins: str = rule_field(
        "highest",
        ruling="FM-9",
        help="Numbered cards of one colour: highest or lowest wins",
        label="Same colours: who wins",
    )
    different_colour_wins: str = rule_field(
        "lowest",
        ruling="FM-9",
        help="Numbered cards of different colours: highest or lowest wins",
        label="Different colours: who wins",
    )
    death_card: str | None = rule_field(
        "AS", ruling="FM-12", help="the Trump that gives a Nasty Hit (or none)", label="Death card"
    )
    none_reveal: NoneReveal = rule_field(
        "all_or_nothing",
        ruling="FM-5",
        help="after a None: reveal every hidden Trump, or any subset",
        label="After a None, reveal",
    )
    undefended: Undefended = rule_field(
        "blind_draw",
        ruling="FM-7",
        help="a defender with nothing: draws blind, or the attack is unopposed",
        label="A defender with nothing",
    )
    nasty_hit: NastyHit = rule_field(
        "damaged",
        ruling="FM-12",
        help="the death card hits the damaged fairy or the loser",
        label="Nasty Hit goes to",
    )
    none_means: NoneMeans = rule_field(
        "no_trumps",
        ruling="FM-5",
        help="who has said None: no Trumps at all, or none face down",
        label="Saying None means",
    )
    wrestling_hand: WrestlingHand = rule_field(
        "as_usual",
        ruling="FM-2/FM-14",
        help="Wrestling hands: Kill points with the usual terms, or Kill points only",
        label="Wrestling hands",
    )

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(
            self, "numbered_ranks", _check_ranks("numbered_ranks", self.numbered_ranks, NUMBERED_RANKS_ACCEPTED, "FM-1")
        )
        put(self, "trump_ranks", _check_ranks("trump_ranks", self.trump_ranks, ALL_RANKS, "FM-1"))
        both = [r for r in self.trump_ranks if r in self.numbered_ranks]
        if both:
            raise RuleFieldError(
                "trump_ranks",
                f"trump_ranks: {', '.join(both)} {'is' if len(both) == 1 else 'are'} also in numbered_ranks (FM-1): "
                "a rank is either Numbered or a Trump",
            )
        self.check_bounded("trump_value", ruling="FM-1")
        self.check_bounded("jokers", ruling="FM-1")
        for name in ("attacker_bonus", "order_card_bonus", "flutter_penalty"):
            self.check_bounded(name, ruling="FM-2")
        self.check_bounded("points_divisor", ruling="FM-10")
        _check_option("damage", self.damage, get_args(Damage), "FM-10")
        if self.damage_table != ():
            put(self, "damage_table", check_damage_table(self.damage_table))
            put(self, "damage", "table")
        _check_option("same_colour_wins", self.same_colour_wins, WINS, "FM-9")
        _check_option("different_colour_wins", self.different_colour_wins, WINS, "FM-9")
        put(self, "death_card", _check_death_card(self.death_card, self.trump_ranks))
        _check_option("none_reveal", self.none_reveal, get_args(NoneReveal), "FM-5")
        _check_option("undefended", self.undefended, get_args(Undefended), "FM-7")
        _check_option("nasty_hit", self.nasty_hit, get_args(NastyHit), "FM-12")
        _check_option("none_means", self.none_means, get_args(NoneMeans), "FM-5")
        _check_option("wrestling_hand", self.wrestling_hand, get_args(WrestlingHand), "FM-2/FM-14")

    @property
    def table(self) -> tuple[tuple[str, int], ...]:
        """The damage table in force under ``damage="table"`` (FM-10): :attr:`damage_table`,
        or the rule book's when none is given."""
        return self.damage_table or RULEBOOK_DAMAGE_TABLE

    #: The fields only the referee's judgement of an attack reads (FM-10: how a difference
    #: becomes points and damage): no deal, play or class of attacks depends on them, so
    #: rule sets that differ only there share everything before the judgement.
    JUDGEMENT_FIELDS: ClassVar[tuple[str, ...]] = ("points_divisor", "damage", "damage_table")

    def before_judgement(self) -> Rules:
        """These rules with :attr:`JUDGEMENT_FIELDS` at their defaults (FM-10): equal for two
        rule sets that deal, play and class attacks alike (a cache key for the calculators)."""
        if all(getattr(self, f) == _DEFAULTS_OF_JUDGEMENT[f] for f in self.JUDGEMENT_FIELDS):
            return self
        return replace(self, **_DEFAULTS_OF_JUDGEMENT)

    #: The fields the referee's reading of an attack reads besides :attr:`JUDGEMENT_FIELDS`
    #: (FM-5: who has said None, and what the owner of hidden Trumps then reveals): no deal
    #: and no play of the standard policies depends on them.
    READING_FIELDS: ClassVar[tuple[str, ...]] = ("none_means", "none_reveal")

    def deals_and_plays(self) -> Rules:
        """These rules with :attr:`JUDGEMENT_FIELDS` and :attr:`READING_FIELDS` at their
        defaults (FM-5, FM-10): equal for two rule sets whose deals and standard plays are
        alike (a cache key for the calculators)."""
        base = self.before_judgement()
        if all(getattr(base, f) == _DEFAULTS_OF_READING[f] for f in self.READING_FIELDS):
            return base
        return replace(base, **_DEFAULTS_OF_READING)

    def beats(self, value: int, other: int, same_colour: bool) -> bool:
        """Whether final ``value`` beats ``other`` (FM-9, this rule set's colour rule)."""
        wins = self.same_colour_wins if same_colour else self.different_colour_wins
        return value > other if wins == "highest" else value < other


#: The defaults of :attr:`Rules.JUDGEMENT_FIELDS`.
_DEFAULTS_OF_JUDGEMENT = {f: getattr(Rules(), f) for f in Rules.JUDGEMENT_FIELDS}
#: The defaults of :attr:`Rules.READING_FIELDS`.
_DEFAULTS_OF_READING = {f: getattr(Rules(), f) for f in Rules.READING_FIELDS}


#: Most Live or Kill points a fairy may have (a fairy has a handful; a combat hand of
#: more cards than the deck holds cannot be drawn).
MAX_POINTS = 100


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
        whole_number(self.attack_bonus, f"{self.name}'s attack_bonus")
        whole_number(self.defence_modifier, f"{self.name}'s defence_modifier")
        whole_number(self.attacks, f"{self.name}'s attacks", 1, ruling="FM-13")


BARE_HANDS = Weapon("bare hands")


#: The pronouns a fairy may take, so the narration calls each fairy as the designer does: subject, object,
#: possessive, and whether the verb is plural.
PRONOUNS: dict[str, tuple[str, str, str, bool]] = {
    "she": ("she", "her", "her", False),
    "he": ("he", "him", "his", False),
    "they": ("they", "them", "their", True),
}


@dataclass(frozen=True)
class Voice:
    """A pronoun's forms in a narrated line: ``subject`` (she), ``object`` (her),
    ``possessive`` (her), and :meth:`verb` for the agreement ("she has", "they have")."""

    subject: str
    object: str
    possessive: str
    plural: bool = False

    def verb(self, singular: str, plural: str = "") -> str:
        """``singular`` ("has", "plays") for she/he, ``plural`` ("have", "play";
        default: ``singular`` without its final ``s``) for they."""
        return (plural or singular.removesuffix("s")) if self.plural else singular


@dataclass(frozen=True)
class Fairy:
    """A fairy's Live and Kill points and weapon. Damage comes off Live points; a fairy
    with 0 Live points is down (the draft's example: Sparklespaz, 2 Live, takes 2).
    ``pronoun`` (``"she"``, ``"he"`` or ``"they"``) is how the narration speaks of her
    (the draft's example calls Sparklespaz "he", not "she"); :attr:`voice` gives its forms."""

    name: str
    live: int
    kill: int
    weapon: Weapon = BARE_HANDS
    pronoun: str = "she"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidSetupError(f"a fairy needs a name, got {self.name!r}")
        if self.pronoun not in PRONOUNS:
            raise InvalidSetupError(f"{self.name}'s pronoun must be one of {', '.join(PRONOUNS)}, got {self.pronoun!r}")
        whole_number(self.live, f"{self.name}'s Live points", 0, MAX_POINTS)
        whole_number(self.kill, f"{self.name}'s Kill points", 0, MAX_POINTS)

    @property
    def voice(self) -> Voice:
        """The forms of her pronoun for the narration (``she``/``her``/``her``, ...)."""
        return Voice(*PRONOUNS[self.pronoun])

    @property
    def is_down(self) -> bool:
        """Whether she has no Live points left."""
        return self.live <= 0

    @implements("FM-10 down")
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
    bonus + ``rules.attacker_bonus`` (1) for attacking + modifiers (- ``rules.flutter_penalty``
    (1) if she Fluttered), never below 0. Wrestling
    (FM-14) changes nothing for the attacker, who draws by Kill points anyway — unless
    ``Rules(wrestling_hand="kill_only")``: then she draws exactly her Kill points, with no
    +1, no weapon bonus and no ``modifiers`` (FM-2 variant).

    >>> attacker_hand_size(Fairy("Ann", live=2, kill=3), modifiers=1, wrestling=True,
    ...                    rules=Rules(wrestling_hand="kill_only"))
    3
    """
    rules = rules or Rules()
    if wrestling and rules.wrestling_hand == "kill_only":
        return fairy.kill
    bonus = rules.attacker_bonus - rules.flutter_penalty * int(fluttered)
    return max(0, fairy.kill + fairy.weapon.attack_bonus + bonus + modifiers)


@implements("FM-2")
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
    Wrestling, FM-14) + ``rules.order_card_bonus`` (1) if she still holds an Order Card + the attacker's weapon defence
    modifier + other modifiers, never below 0. With ``Rules(wrestling_hand="kill_only")``
    a Wrestling defender draws exactly her Kill points: no Order Card bonus, no weapon
    modifier and no ``modifiers`` (FM-2 variant)."""
    rules = rules or Rules()
    if wrestling and rules.wrestling_hand == "kill_only":
        return fairy.kill
    weapon_mod = attacker.weapon.defence_modifier if attacker is not None else 0
    points = fairy.kill if wrestling else fairy.live
    return max(0, points + rules.order_card_bonus * int(holds_order_card) + weapon_mod + modifiers)
