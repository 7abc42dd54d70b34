"""Durak mass battle: rule options, leaders and armies (DB-1, DB-2, DB-5..DB-8).

>>> general = Leader("General Vasilisa", battle_die="d8", spirit_die="d6")
>>> Army("Northern host", tokens=8, leader=general).tokens
8
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from operator import attrgetter
from typing import ClassVar, Literal, NamedTuple, get_args

from toolkit.cards import RANKS, Card, Pile, standard_deck
from toolkit.dice import check_trait_die
from toolkit.errors import InvalidSetupError
from toolkit.house_rules import HouseRules, RuleFieldError, rule_field
from toolkit.rulings import implements
from toolkit.whole_numbers import is_whole_number, whole_number

__all__ = [
    "Rules",
    "Leader",
    "Army",
    "leader_words",
    "ACTIONS",
    "CARD_ID",
    "CARD_ORDER",
    "DEFAULT_SUITS",
    "MOVE_BITS",
    "PASS_MOVE",
    "TAKE_MOVE",
    "MAX_LOSS",
    "MAX_TOKENS",
    "SIDES",
    "SUIT_SIZE",
    "SUIT_WORDS",
    "SuitTables",
    "suit_tables",
    "fresh_deck",
    "settle_losses",
]

#: The two sides of a battle, as the engine names its players: side a, side b.
SIDES = ("a", "b")

CounterTie = Literal["no_loss", "loses"]
MoralePenalty = Literal["clash", "battle"]

#: Cards of each suit in the deck, 2 to ace (DB-1).
SUIT_SIZE = len(RANKS)

#: Savage Worlds armies have up to 10 tokens (DB-7).
MAX_TOKENS = 10


#: The four actions a card can be played as (DB-1), in the order of the answer table.
ACTIONS: tuple[str, ...] = ("attack", "defence", "manoeuvre", "counter")

#: The suits of the deck (DB-1) and how the texts name them.
SUIT_WORDS = {"S": ("spade", "spades"), "H": ("heart", "hearts"), "D": ("diamond", "diamonds"), "C": ("club", "clubs")}
_SUIT_ALIASES = {
    **{s: s for s in SUIT_WORDS},
    **{word: s for s, words in SUIT_WORDS.items() for word in words},
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
}

#: DB-1 as drawn up: spades Attack, hearts Defence, diamonds Manoeuvre, clubs Counterattack.
DEFAULT_SUITS: tuple[tuple[str, str], ...] = (("attack", "S"), ("defence", "H"), ("manoeuvre", "D"), ("counter", "C"))

#: The most tokens one step of a clash may cost a side (an army has at most 10, DB-7).
MAX_LOSS = 10


#: The deck's cards lowest first (by ``sort_key``: rank, then suit; the two jokers last). A
#: card's *id* is its place here: the clash machinery (:mod:`.position`, the policies, the
#: calculators) holds hands as tuples of ids, which compare as the cards do; the 52-card
#: deck's cards have the same ids (the jokers are the two highest).
CARD_ORDER: tuple[Card, ...] = tuple(sorted(standard_deck(jokers=True), key=attrgetter("sort_key")))
#: Each card code's id (its place in :data:`CARD_ORDER`).
CARD_ID: dict[str, int] = {c.code: k for k, c in enumerate(CARD_ORDER)}

#: A clash action as one integer, a *move*: ``verb << MOVE_BITS | card id``, the verb the
#: action's place in :data:`ACTIONS` (attack 0 .. counter 3), or :data:`PASS_MOVE` and
#: :data:`TAKE_MOVE` (no card). :mod:`.position` reads and writes them as the engine's strings.
MOVE_BITS = 6
#: The move ``"pass"`` (DB-6) and the move ``"take"`` (the strike taken, DB-4).
PASS_MOVE = len(ACTIONS) << MOVE_BITS
TAKE_MOVE = (len(ACTIONS) + 1) << MOVE_BITS


class SuitTables(NamedTuple):
    """What each card code can do under one assignment of suits to actions (DB-1), looked
    up instead of recomputed: its actions (a joker: all four), whether it can attack,
    the answers it allows, and whether it is of the attack suit (a joker is not: DB-6);
    and the same by card id (:data:`CARD_ORDER`), as the clash machinery asks: the ids that
    can attack, that can answer, of the attack suit, and each id's answers as moves; the
    first three as bitmasks of ids too (a hand held as a bitmask, :mod:`.position`)."""

    action_of_suit: dict[str, str]
    suit_of_action: dict[str, str]
    actions: dict[str, tuple[str, ...]]
    can_attack: dict[str, bool]
    answers: dict[str, tuple[str, ...]]
    attack_suit: dict[str, bool]
    attack_ids: frozenset[int]
    answer_ids: frozenset[int]
    attack_suit_ids: frozenset[int]
    answer_moves: tuple[tuple[int, ...], ...]
    attack_mask: int
    answer_mask: int
    attack_suit_mask: int


@cache
def suit_tables(suits: tuple[tuple[str, str], ...]) -> SuitTables:
    """Return the :class:`SuitTables` of an assignment ``((action, suit), ...)`` (DB-1)."""
    suit_of = dict(suits)
    action_of = {s: a for a, s in suits}
    actions = {c.code: (ACTIONS if c.is_joker else (action_of[c.suit or "S"],)) for c in standard_deck(jokers=True)}
    can_attack = {code: "attack" in acts for code, acts in actions.items()}
    answers = {code: tuple(a for a in acts if a != "attack") for code, acts in actions.items()}
    attack_suit = {code: acts == ("attack",) for code, acts in actions.items()}
    codes = [c.code for c in CARD_ORDER]
    attack_ids = frozenset(k for k, code in enumerate(codes) if can_attack[code])
    answer_ids = frozenset(k for k, code in enumerate(codes) if answers[code])
    attack_suit_ids = frozenset(k for k, code in enumerate(codes) if attack_suit[code])
    return SuitTables(
        action_of,
        suit_of,
        actions,
        can_attack,
        answers,
        attack_suit,
        attack_ids,
        answer_ids,
        attack_suit_ids,
        tuple(tuple(ACTIONS.index(a) << MOVE_BITS | k for a in answers[code]) for k, code in enumerate(codes)),
        sum(1 << k for k in attack_ids),
        sum(1 << k for k in answer_ids),
        sum(1 << k for k in attack_suit_ids),
    )


def _pair(name: str, value: object, ruling: str) -> tuple[int, int]:
    """A loss pair ``(attacker, defender)`` from a list, tuple or mapping, checked."""
    if isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value) and value:
        keys = dict(value)
        if set(keys) == {"attacker", "defender"}:
            value = (keys["attacker"], keys["defender"])
    ok = (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(is_whole_number(v) and 0 <= v <= MAX_LOSS for v in value)
    )
    if not ok:
        raise RuleFieldError(
            name,
            f"{name}={value!r}: give the tokens lost by [the attacker, the defender], two whole numbers "
            f"from 0 to {MAX_LOSS} ({ruling})",
        )
    return (value[0], value[1])  # type: ignore[index]


def _suits(value: object) -> tuple[tuple[str, str], ...]:
    """The assignment of suits to actions, checked: every action one suit, no suit twice (DB-1)."""
    accepted = (
        "give each of attack, defence, manoeuvre and counter its own suit (S, H, D or C), e.g. "
        "{attack: S, defence: H, manoeuvre: D, counter: C} (DB-1)"
    )
    if isinstance(value, dict):
        value = tuple(value.items())
    if not isinstance(value, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in value):
        raise RuleFieldError("suits", f"suits={value!r}: {accepted}")
    given: dict[str, str] = {}
    for action, suit in value:
        if action not in ACTIONS:
            raise RuleFieldError("suits", f"suits: {action!r} is not an action; {accepted}")
        code = _SUIT_ALIASES.get(suit.strip().upper() if isinstance(suit, str) and len(suit.strip()) == 1 else suit)
        if code is None and isinstance(suit, str):
            code = _SUIT_ALIASES.get(suit.strip().lower())
        if code is None:
            raise RuleFieldError("suits", f"suits: {action}={suit!r} is not a suit; {accepted}")
        if action in given:
            raise RuleFieldError("suits", f"suits: {action} is given twice; {accepted}")
        given[action] = code
    missing = [a for a in ACTIONS if a not in given]
    if missing:
        has = "has" if len(missing) == 1 else "have"
        raise RuleFieldError("suits", f"suits: {', '.join(missing)} {has} no suit; {accepted}")
    seen: dict[str, str] = {}
    for action in ACTIONS:
        twice = given[action]
        if twice in seen:
            raise RuleFieldError(
                "suits", f"suits: {SUIT_WORDS[twice][1]} are used twice ({seen[twice]} and {action}); {accepted}"
            )
        seen[given[action]] = action
    return tuple((a, given[a]) for a in ACTIONS)


@dataclass(frozen=True)
class Rules(HouseRules):
    """The Durak battle rules in force: every number and table of the draft, defaults as
    ruled in docs/rulings.md, the named variants among them (house rules:
    :mod:`toolkit.house_rules`; shipped files in ``data/rules/durak-battle/``).

    Attributes:
        jokers: DB-1 — a 54-card deck with two jokers (default) or 52 cards (``False``).
        suits: DB-1 — the suit of each action, ``((action, suit), ...)`` for attack,
            defence, manoeuvre and counter (a YAML mapping ``{attack: S, ...}``): each
            action its own suit.
        strike_loss: DB-4 — tokens the defender loses to an unanswered attack (4).
        defence_won, defence_lost: DB-1 — tokens lost by (the attacker, the defender) when
            a Defence is as high as the attack or higher ((2, 1)), or lower ((1, 2)).
        manoeuvre_won, manoeuvre_lost: DB-1 — the same for a Manoeuvre ((1, 0), (0, 2)).
        counter_lower_loss: DB-1, DB-5 — tokens the counterattacker loses first when her
            card is lower than the attack (1).
        counter_tie: DB-5 — a Counterattack of equal value to the attack is treated like
            a higher one, ``"no_loss"`` (default), or like a lower one, ``"loses"``.
        holder_must_attack: DB-6 — the initiative holder must attack while holding a card
            of the attack suit (``True``), or may pass (default ``False``).
        cards_per_token: DB-2 — cards drawn per token by which the army outnumbers the other (1).
        morale_target: DB-8 — the Spirit total, after the penalty, that keeps the army (4).
        morale_per_token: DB-8 — the penalty to the Spirit roll per token lost (1).
        morale_penalty: DB-8 — tokens lost ``"clash"`` (default, this clash) or in the
            whole ``"battle"`` count against the Spirit roll.
    """

    SYSTEM: ClassVar[str] = "durak-battle"
    TITLE: ClassVar[str] = "Durak battle"

    jokers: bool = rule_field(
        True, ruling="DB-1", help="two jokers in the deck (54 cards), or none (52)", label="Jokers"
    )
    suits: tuple[tuple[str, str], ...] = rule_field(
        DEFAULT_SUITS,
        ruling="DB-1",
        help="the suit of each action: attack, defence, manoeuvre, counter",
        yaml="mapping",
        label="Suits of the actions",
    )
    strike_loss: int = rule_field(
        4,
        ruling="DB-4",
        help="tokens the defender loses to an unanswered attack",
        label="Tokens lost to a strike",
        bounds=(0, MAX_LOSS),
    )
    defence_won: tuple[int, int] = rule_field(
        (2, 1),
        ruling="DB-1",
        help="tokens lost by [attacker, defender] when a Defence is as high as the attack",
        label="Defence as high: tokens lost (attacker, defender)",
    )
    defence_lost: tuple[int, int] = rule_field(
        (1, 2),
        ruling="DB-1",
        help="tokens lost by [attacker, defender] when a Defence is lower than the attack",
        label="Defence lower: tokens lost (attacker, defender)",
    )
    manoeuvre_won: tuple[int, int] = rule_field(
        (1, 0),
        ruling="DB-1",
        help="tokens lost by [attacker, defender] when a Manoeuvre is as high as the attack",
        label="Manoeuvre as high: tokens lost (attacker, defender)",
    )
    manoeuvre_lost: tuple[int, int] = rule_field(
        (0, 2),
        ruling="DB-1",
        help="tokens lost by [attacker, defender] when a Manoeuvre is lower than the attack",
        label="Manoeuvre lower: tokens lost (attacker, defender)",
    )
    counter_lower_loss: int = rule_field(
        1,
        ruling="DB-5",
        help="tokens a counterattacker loses first when her card is lower than the attack",
        label="Tokens a lower Counterattack costs",
        bounds=(0, MAX_LOSS),
    )
    counter_tie: CounterTie = rule_field(
        "no_loss",
        ruling="DB-5",
        help="a Counterattack equal to the attack: no loss, or loses like a lower one",
        label="An equal Counterattack",
    )
    holder_must_attack: bool = rule_field(
        False,
        ruling="DB-6",
        help="the initiative holder must attack while she holds a card of the attack suit",
        label="Initiative holder must attack",
    )
    cards_per_token: int = rule_field(
        1,
        ruling="DB-2",
        help="cards drawn per token by which the army outnumbers the other",
        label="Cards per token outnumbering",
        bounds=(0, 5),
    )
    morale_target: int = rule_field(
        4,
        ruling="DB-8",
        help="the Spirit total (after the penalty) that keeps the army",
        label="Morale target",
        bounds=(1, 20),
    )
    morale_per_token: int = rule_field(
        1,
        ruling="DB-8",
        help="the penalty to the Spirit roll per token lost",
        label="Morale penalty per token",
        bounds=(0, 5),
    )
    morale_penalty: MoralePenalty = rule_field(
        "clash",
        ruling="DB-8",
        help="tokens lost in this clash, or in the whole battle, count against Spirit",
        label="Tokens counted against Spirit",
    )

    def __post_init__(self) -> None:
        for name, ruling in (("jokers", "DB-1"), ("holder_must_attack", "DB-6")):
            if not isinstance(getattr(self, name), bool):
                raise RuleFieldError(name, f"{name}={getattr(self, name)!r}: use True or False ({ruling})")
        object.__setattr__(self, "suits", _suits(self.suits))
        for name in ("defence_won", "defence_lost", "manoeuvre_won", "manoeuvre_lost"):
            object.__setattr__(self, name, _pair(name, getattr(self, name), "DB-1"))
        for name, what, ruling in (
            ("strike_loss", "tokens lost to an unanswered attack", "DB-4"),
            ("counter_lower_loss", "tokens lost by a lower counter", "DB-5"),
            ("cards_per_token", "cards per token of advantage", "DB-2"),
            ("morale_target", "the Spirit total needed to stay", "DB-8"),
            ("morale_per_token", "the Spirit penalty per token lost", "DB-8"),
        ):
            self.check_bounded(name, what, ruling)
        if self.counter_tie not in get_args(CounterTie):
            raise RuleFieldError(
                "counter_tie", f"counter_tie={self.counter_tie!r} is not a variant of DB-5: use 'no_loss' or 'loses'"
            )
        if self.morale_penalty not in get_args(MoralePenalty):
            raise RuleFieldError(
                "morale_penalty",
                f"morale_penalty={self.morale_penalty!r} is not a variant of DB-8: use 'clash' or 'battle'",
            )
        # Not fields: what each card can do (DB-1), and the referee's judgements, remembered.
        object.__setattr__(self, "tables", suit_tables(self.suits))
        object.__setattr__(self, "judged", {})

    tables: ClassVar[SuitTables]
    judged: ClassVar[dict]

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in self.field_names()}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    @property
    def joker_count(self) -> int:
        """The jokers in the deck (DB-1): 2, or 0 with ``jokers=False``."""
        return 2 if self.jokers else 0

    @property
    def deck_size(self) -> int:
        """The number of cards in the deck (DB-1): 54 with jokers, 52 without."""
        return 4 * SUIT_SIZE + self.joker_count

    @implements("DB-1")
    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck (DB-1): the 52 cards, and the two jokers unless ``jokers=False``."""
        return tuple(standard_deck(jokers=self.jokers))

    def suit_of(self, action: str) -> str:
        """The suit code (``"S"``) of an action (DB-1, :attr:`suits`)."""
        return self.tables.suit_of_action[action]

    def suit_word(self, action: str, plural: bool = False) -> str:
        """How the texts name the suit of an action: ``"spade"``, or ``"spades"`` (DB-1)."""
        return SUIT_WORDS[self.suit_of(action)][1 if plural else 0]

    def suits_text(self) -> str:
        """The suits as actions, in words: ``"hearts defend, diamonds manoeuvre, clubs
        counter, spades attack"`` (DB-1)."""
        verbs = {"defence": "defend", "manoeuvre": "manoeuvre", "counter": "counter", "attack": "attack"}
        return ", ".join(f"{self.suit_word(a, True)} {verbs[a]}" for a in ("defence", "manoeuvre", "counter", "attack"))


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
            whole_number(value, f"{self.name}'s {name}")


def leader_words(leader: Leader) -> str:
    """A leader's trait dice in a result's first line: Knowledge (Battle) / Spirit,
    ``"d8/d6"``, with ``" Extra"`` for a leader who is no Wild Card and the modifiers when
    set (``"d8/d6 +1/-1"``; DB-2, DB-8)."""
    words = f"d{leader.battle_die}/d{leader.spirit_die}"
    if leader.battle_modifier or leader.spirit_modifier:
        words += f" {leader.battle_modifier:+d}/{leader.spirit_modifier:+d}"
    return words if leader.wild_card else words + " Extra"


@dataclass(frozen=True)
class Army:
    """An army: its tokens (DB-7) and its leader."""

    name: str
    tokens: int
    leader: Leader

    def __post_init__(self) -> None:
        whole_number(self.tokens, f"{self.name}'s tokens", 0, ruling="DB-7")
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


@implements("DB-7")
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
    for ca, cb in path:  # (no min(): the battle chain settles every path of every table)
        if ca >= ta:
            return (ta, tb, "both") if cb >= tb else (ta, cb, "a")
        if cb >= tb:
            return ca, tb, "b"
        la, lb = ca, cb
    return la, lb, None


@implements("DB-9")
def fresh_deck(rules: Rules, stacked: Sequence[str | Card] = ()) -> Pile:
    """Return the reshuffled deck a round deals from (DB-9: every round deals fresh hands
    from the whole deck of DB-1), with ``stacked`` cards on top for rule-book examples."""
    deck = rules.deck()
    return Pile.of_deck(deck, stacked, f"not in a {len(deck)}-card deck (jokers={rules.jokers})")
