"""Playing cards: codes, colours, decks, draw piles and the Spoils Heap.

Card codes as in docs/rulings.md: rank ``2``–``10``, ``J``, ``Q``, ``K``, ``A`` followed by
suit ``S`` (spades), ``H`` (hearts), ``D`` (diamonds), ``C`` (clubs) — ``10H``, ``AS``,
``QC`` — and jokers ``JK1``, ``JK2`` (``Joker`` reads as the first joker not yet used).
Red = hearts and diamonds; black = spades and clubs. Shared by Fairy Meat (FM-1) and
the Durak battle (DB-1).

>>> Card("10h")
Card('10H')
>>> Card("AS").colour, Card("AS").rank, Card("QD").is_face
('black', 'A', True)
>>> parse_cards("KS QC 5C")
(Card('KS'), Card('QC'), Card('5C'))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import total_ordering
from operator import attrgetter

from toolkit.errors import InvalidSetupError, NotationError
from toolkit.whole_numbers import at_most_items

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "card_text",
    "cards_text",
    "parse_card",
    "parse_cards",
    "standard_deck",
    "check_distinct",
    "Pile",
]

#: Ranks from lowest to highest (DB-1 order; Fairy Meat values them by FM-1).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANK_NAMES = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
#: How a suit is printed for a designer to read (``K♠``): the one place cards are written so.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKERS: tuple[str, ...] = ("JK1", "JK2")
_RED = {"H", "D"}
#: A card's place in the order of :class:`Card` (its ``sort_key``): sorting by it gives the
#: order ``sorted(cards)`` gives, without a Python-level comparison per pair.
_IN_ORDER = attrgetter("sort_key")
_ACCEPTED = "ranks 2-10 J Q K A, suits S H D C (e.g. 10H, AS, QC), or jokers JK1 JK2"


def _normalise(text: str) -> str:
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a card: write a code like '10H' ({_ACCEPTED})")
    code = text.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    if code in JOKERS:
        return code
    rank, suit = code[:-1], code[-1:]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise NotationError(f"{text!r} is not a card: {_ACCEPTED}")
    return rank + suit


@total_ordering
@dataclass(frozen=True)
class Card:
    """One playing card, written by its code: ``Card('10H')``, ``Card('AS')``, ``Card('JK1')``.

    Cards compare by rank (2 lowest, A highest, jokers above all, DB-1), then suit.
    """

    code: str
    rank: str = field(init=False, repr=False, compare=False)
    suit: str | None = field(init=False, repr=False, compare=False)
    #: (rank index, suit index): 2 lowest, A highest, jokers above every card.
    sort_key: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        code = _normalise(self.code)
        object.__setattr__(self, "code", code)
        if code in JOKERS:
            object.__setattr__(self, "rank", "Joker")
            object.__setattr__(self, "suit", None)
        else:
            object.__setattr__(self, "rank", code[:-1])
            object.__setattr__(self, "suit", code[-1])
        if code in JOKERS:
            key = (len(RANKS), JOKERS.index(code))
        else:
            key = (RANKS.index(self.rank), SUITS.index(self.suit or "S"))
        object.__setattr__(self, "sort_key", key)

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def colour(self) -> str | None:
        """``'red'`` (hearts, diamonds), ``'black'`` (spades, clubs), ``None`` for a joker."""
        if self.suit is None:
            return None
        return "red" if self.suit in _RED else "black"

    @property
    def is_face(self) -> bool:
        """Whether the rank is J, Q, K or A (Fairy Meat's Trumps, FM-1)."""
        return self.rank in ("J", "Q", "K", "A")

    @property
    def pips(self) -> int | None:
        """The number on a 2–10 card, ``None`` for J, Q, K, A and jokers."""
        return int(self.rank) if self.rank.isdigit() else None

    @property
    def name(self) -> str:
        """The card in words: ``'Ace of Spades'``, ``'10 of Hearts'``, ``'Joker'``."""
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[self.suit or 'S']}"


def card_text(card: Card | str) -> str:
    """Return a card as a designer reads it: ``'K♠'``, ``'10♥'``, ``'Joker 1'`` (``'Joker'``
    for ``"JK"``, a joker a text does not number). Codes (``KS``) stay what a designer
    types; every widget, log and export prints this instead.

    >>> card_text("KS"), card_text(Card("10h")), card_text("JK2"), card_text("JK")
    ('K♠', '10♥', 'Joker 2', 'Joker')

    Raises:
        NotationError: not a card code.
    """
    if isinstance(card, str) and card.strip().upper() in ("JK", "JOKER"):
        return "Joker"
    card = parse_card(card)
    if card.is_joker:
        return f"Joker {card.code[-1]}"
    return card.rank + SUIT_SYMBOLS[card.suit or "S"]


def cards_text(cards: Iterable[Card | str], empty: str = "none") -> str:
    """Return cards as a designer reads them, one space between (``'K♠ Q♣ 5♣'``);
    ``empty`` when there are none."""
    return " ".join(card_text(c) for c in cards) or empty


def codes_as_text(text: str) -> str:
    """Return ``text`` (a move or an option as a state writes it, ``'play 3D'``, ``'trumps
    KS QC'``) with each word that is a card code written as a designer reads cards
    (:func:`card_text`); other words unchanged.

    >>> codes_as_text("trumps KS QC"), codes_as_text("declare add"), codes_as_text("K")
    ('trumps K♠ Q♣', 'declare add', 'K')
    """
    return " ".join(_word_as_card(w) for w in text.split(" "))


#: A word shaped like a card code: a rank and a suit letter (``KS``, ``10H``), or a joker's.
_CODE = re.compile(r"(?:[2-9]|10|[JQKA])[SHDC]|JK\d?")


def _word_as_card(word: str) -> str:
    if not _CODE.fullmatch(word):
        return word
    try:
        return card_text(word)
    except NotationError:
        return word


def parse_card(text: str | Card) -> Card:
    """Return the card for a code (case-insensitive; ``♠♥♦♣`` accepted for suits).

    Raises:
        NotationError: not a card code, with the accepted ranks and suits.
    """
    return text if isinstance(text, Card) else Card(text)


#: The most cards a list of cards may hold (no deck of any system has more).
MAX_CARDS = 500
_WORD = re.compile(r"[^\s,]+")


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Return the cards in ``"KS QC 5C"`` (spaces or commas) or a list of codes.

    ``Joker`` is read as the first joker not yet listed (``JK1``, then ``JK2``). At most
    :data:`MAX_CARDS` are read: a longer list (a 3-million-card hand, an endless iterator)
    is refused in one line before the rest is read.
    """
    words = (m.group(0) for m in _WORD.finditer(text)) if isinstance(text, str) else text
    parts = at_most_items(words, "a list of cards", MAX_CARDS, "cards", error=NotationError)
    cards: list[Card] = []
    for part in parts:
        if isinstance(part, str) and part.strip().upper() == "JOKER":
            free = [j for j in JOKERS if Card(j) not in cards]
            if not free:
                raise NotationError("'Joker' listed more than twice: a deck has two jokers (JK1, JK2)")
            cards.append(Card(free[0]))
        else:
            cards.append(parse_card(part))
    return tuple(cards)


def standard_deck(jokers: bool = False) -> tuple[Card, ...]:
    """Return the 52-card deck (54 with ``jokers``), in a fixed order: by suit, then rank."""
    cards = [Card(rank + suit) for suit in SUITS for rank in RANKS]
    if jokers:
        cards += [Card(j) for j in JOKERS]
    return tuple(cards)


def check_distinct(cards: Sequence[Card], what: str = "these cards") -> None:
    """Raise if a card appears twice among ``cards`` (one deck holds each card once)."""
    repeated = [c.code for c, n in Counter(cards).items() if n > 1]
    if repeated:
        raise InvalidSetupError(f"{', '.join(repeated)} appear more than once in {what}: a deck holds each card once")


@dataclass(frozen=True)
class Pile:
    """A draw pile and its discard pile (the Spoils Heap in Fairy Meat, FM-13).

    ``stacked`` is the known top part of the draw pile, top card first (for rule-book
    examples); ``shuffled`` is the rest, in an order nobody knows, so drawing from it
    is a chance step with each card equally likely. When both are empty the discards
    are reshuffled into the draw pile.
    """

    stacked: tuple[Card, ...] = ()
    shuffled: frozenset[Card] = frozenset()
    discards: tuple[Card, ...] = ()

    @classmethod
    def full(cls, jokers: bool = False, stacked: Iterable[str | Card] = ()) -> Pile:
        """Return a full deck with ``stacked`` cards on top in that order, the rest shuffled.

        Raises:
            NotationError / InvalidSetupError: an unknown code or a card stacked twice.
        """
        deck = standard_deck(jokers)
        return cls.of_deck(deck, stacked, f"not in a {len(deck)}-card deck (jokers={jokers})")

    @classmethod
    def of_deck(cls, deck: Sequence[Card], stacked: Iterable[str | Card], not_in: str) -> Pile:
        """Return the pile of ``deck`` with ``stacked`` cards on top in that order, the rest
        shuffled; ``not_in`` ends the error for a stacked card the deck lacks
        (``"KS not in a 52-card deck ..."``).

        Raises:
            NotationError / InvalidSetupError: an unknown code, a card stacked twice or one
                not in ``deck``.
        """
        top = parse_cards(stacked)
        check_distinct(top, "the stacked deck")
        missing = [c.code for c in top if c not in deck]
        if missing:
            raise InvalidSetupError(f"{', '.join(missing)} {not_in}")
        return cls(top, frozenset(deck) - frozenset(top))

    @property
    def size(self) -> int:
        """Cards left to draw (before any reshuffle)."""
        return len(self.stacked) + len(self.shuffled)

    def remaining(self) -> frozenset[Card]:
        """Every card still in the draw pile."""
        return frozenset(self.stacked) | self.shuffled

    @property
    def is_empty(self) -> bool:
        """Whether no card can come next: nothing stacked, nothing shuffled, no discards
        to reshuffle (:meth:`next_options` is empty)."""
        return not (self.stacked or self.shuffled or self.discards)

    @property
    def needs_chance(self) -> bool:
        """Whether the next card drawn is a chance outcome (nothing stacked on top)."""
        return not self.stacked and (bool(self.shuffled) or bool(self.discards))

    def next_options(self) -> list[Card]:
        """The cards that can come next: the stacked top card, or any shuffled card
        (after a reshuffle of the discards if the pile is empty)."""
        if self.stacked:
            return [self.stacked[0]]
        pool = self.shuffled or frozenset(self.discards)
        return sorted(pool, key=_IN_ORDER)

    def next_options_in(self, deck: tuple[Card, ...]) -> list[Card]:
        """Return :meth:`next_options` (the same cards, in the same order) read from ``deck``,
        every card the pile may hold, sorted: a search that draws many cards does not sort
        the pile again at every card."""
        if self.stacked or not self.shuffled:
            return self.next_options()
        return [c for c in deck if c in self.shuffled]

    def weighted_next_options(
        self, deck: tuple[Card, ...], weight: Mapping[Card, float], drawable: tuple[tuple[str, Card, float], ...]
    ) -> tuple[list[Card], list[float]]:
        """Return :meth:`next_options_in` (``deck``) and each card's ``weight``: the same
        lists in the same order. ``drawable`` is ``deck`` as ``(code, card, weight)``. A card
        is equal to another with its code (``Card`` compares and hashes its code alone), so
        the shuffled cards are found by their codes, without hashing each card of the deck:
        the example searches draw their cards this way."""
        if self.stacked or not self.shuffled:
            cards = self.next_options_in(deck)
            return cards, [weight[c] for c in cards]
        codes = {c.code for c in self.shuffled}
        cards, chances = [], []
        for code, card, w in drawable:
            if code in codes:
                cards.append(card)
                chances.append(w)
        return cards, chances

    def draw(self, card: Card) -> Pile:
        """Return the pile after ``card`` is drawn (it must be one of :meth:`next_options`)."""
        if self.stacked:
            if card != self.stacked[0]:
                raise InvalidSetupError(f"{card} is not the top card of the stacked deck ({self.stacked[0]})")
            return Pile(self.stacked[1:], self.shuffled, self.discards)
        if not self.shuffled:  # reshuffle the discards (FM-13: only when the deck runs out)
            if card not in self.discards:
                raise InvalidSetupError(f"{card} is not in the reshuffled discards")
            return Pile((), frozenset(self.discards) - {card}, ())
        if card not in self.shuffled:
            raise InvalidSetupError(f"{card} is not in the draw pile")
        return Pile((), self.shuffled - {card}, self.discards)

    def discard(self, cards: Iterable[Card]) -> Pile:
        """Return the pile with ``cards`` added to the discards."""
        return Pile(self.stacked, self.shuffled, self.discards + tuple(cards))
