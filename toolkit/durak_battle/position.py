"""The clash state machine (DB-3..DB-6): one light, immutable position and its step.

A :class:`ClashPosition` is a clash between two known hands at an attack or an answer:
whose turn it is, the legal actions (:meth:`~ClashPosition.legal_actions`) and what an
action does (:meth:`~ClashPosition.step`), as a sequence of :class:`Beat` — an attack, an
answer judged by the referee (:func:`~.clash.answer_attack`), a strike, a pass, the end
of the clash — each with the tokens it costs. It carries no tokens, log, rounds or
morale: the engine (:class:`~.engine.BattleState`) adds those around it, narrating each
beat and flooring the losses (DB-7, :func:`~.rules.settle_losses`); the calculators, the
battle chain, Monte Carlo, the policies and the notation play the same positions.

Action strings are the engine's: ``attack 7S``, ``pass``, ``defence 9H``,
``manoeuvre QD``, ``counter 5C`` (a joker as any of them), ``take``.

Inside, a position holds each hand as a bitmask of card ids (:data:`~.rules.CARD_ORDER`:
small ints that compare as the cards do) and the calculators step it by *moves*, actions as one integer
(:func:`move_of`, :meth:`~ClashPosition.legal_moves`, :meth:`~ClashPosition.losses_after_move`);
Card objects and strings are made only at the edges: :attr:`~ClashPosition.hands`, the
beats, the legal actions, the keys.

>>> from toolkit.cards import parse_cards
>>> pos, beats = ClashPosition.begin((parse_cards("7S 9H"), parse_cards("10S 3C")), 1, Rules())
>>> pos.legal_actions()  # the initiative holder must open with an attack (DB-3)
['attack 10S']
>>> pos, beats = pos.step("attack 10S")
>>> pos.legal_actions()
['defence 9H', 'take']
>>> pos, beats = pos.step("defence 9H")  # 9 < 10 fails: a loses 2, b 1; b has no spade: a must attack
>>> [(b.kind, b.loss) for b in beats]
[('answer', (2, 1)), ('pass', (0, 0))]
>>> pos
ClashPosition(a: 7S; b: 3C; attack a, passes 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from toolkit.cards import JOKERS, Card, standard_deck
from toolkit.durak_battle.clash import Answer, card_value, judged_answer, strike
from toolkit.durak_battle.initiative_rule import attack_ids
from toolkit.durak_battle.rules import (
    ACTIONS,
    CARD_ID,
    CARD_ORDER,
    MOVE_BITS,
    PASS_MOVE,
    SIDES,
    TAKE_MOVE,
    Rules,
)
from toolkit.errors import IllegalActionError
from toolkit.rulings import implements

__all__ = [
    "DECK",
    "Beat",
    "ClashPosition",
    "PASSES_TO_END",
    "action_of",
    "can_attack",
    "can_answer",
    "clash_over",
    "may_pass",
    "move_of",
    "beat_losses",
    "sorted_hand",
]

#: Attack turns passed in a row that end the clash (DB-6: neither side attacks).
PASSES_TO_END = 2

Hands = tuple[tuple[Card, ...], tuple[Card, ...]]
#: Both hands as bitmasks of card ids (:data:`~.rules.CARD_ORDER`), and the order in which
#: their cards are listed: ``None`` lowest first, or the ids of the hands as given (the
#: engine's hands, in the order dealt; cards played since are skipped).
Held = tuple[int, int, tuple[int, ...] | None]

#: The deck's Card objects (jokers included), in the order of ``standard_deck``: the same
#: objects as :data:`~.rules.CARD_ORDER`, which the beats and :attr:`ClashPosition.hands` give.
DECK: tuple[Card, ...] = tuple(CARD_ORDER[CARD_ID[c.code]] for c in standard_deck(jokers=True))
_CODE = tuple(c.code for c in CARD_ORDER)  # by id
_VALUE = tuple(card_value(c) for c in CARD_ORDER)  # by id
_SUIT = tuple(c.suit for c in CARD_ORDER)  # by id; None for a joker
_BY_VALUE_SUIT = {(_VALUE[k], c.suit): k for k, c in enumerate(CARD_ORDER) if c.suit is not None}
_JOKER_IDS = tuple(CARD_ID[j] for j in JOKERS)
_CARD_MASK = (1 << MOVE_BITS) - 1

#: Each action string's move, and each move's action string (:func:`move_of`, :func:`action_of`).
_MOVE: dict[str, int] = {
    **{f"{verb} {code}": k << MOVE_BITS | i for k, verb in enumerate(ACTIONS) for i, code in enumerate(_CODE)},
    "pass": PASS_MOVE,
    "take": TAKE_MOVE,
}
_ACTION: dict[int, str] = {move: action for action, move in _MOVE.items()}
_ATTACK = ACTIONS.index("attack")


def move_of(action: str) -> int:
    """The move (one integer, :data:`~.rules.MOVE_BITS`) of an action string such as
    ``"attack 7S"``, ``"pass"`` or ``"take"``.

    Raises:
        IllegalActionError: not a clash action.
    """
    move = _MOVE.get(action)
    if move is None:
        raise IllegalActionError(f"{action!r} is not a clash action (e.g. 'attack 7S', 'defence 9H', 'pass', 'take')")
    return move


def action_of(move: int) -> str:
    """The action string of a move (:func:`move_of`)."""
    return _ACTION[move]


# For :attr:`ClashPosition.canonical_key`: each card id's bit in a mask of the rank values
# held (0 for a joker), and per (mask, joker ids in order of appearance) the canonical code
# of every card id (the squeeze of :meth:`ClashPosition.canonical`), remembered as met.
_BIT = tuple(0 if c.suit is None else 1 << _VALUE[k] for k, c in enumerate(CARD_ORDER))
_SQUEEZED: dict[tuple[int, tuple[int, ...]], list[str]] = {}


def _squeezed(mask: int, jokers: tuple[int, ...]) -> list[str]:
    """The canonical code of each card id for the rank values of ``mask`` and the jokers
    met in order ``jokers`` (ranks squeezed to 2, 3, ..., jokers renamed JK1, JK2)."""
    order = [v for v in range(_VALUE[_JOKER_IDS[0]]) if mask >> v & 1]
    remap = {v: k for k, v in enumerate(order)}
    out = ["" for _ in CARD_ORDER]
    for k, bit in enumerate(_BIT):
        if bit & mask:
            out[k] = _CODE[_BY_VALUE_SUIT[(remap[_VALUE[k]], _SUIT[k])]]
    for n, j in enumerate(jokers):
        out[j] = JOKERS[n]
    _SQUEEZED[(mask, jokers)] = out
    return out


# For :attr:`ClashPosition.memo_key`: the two hands and the table card as three lanes of one
# integer (a's card ids from bit 0, b's from bit 64, the table card's from bit 128), a card id
# being ``4 * value + suit`` below 52 and a joker 52 or 53 (:data:`~.rules.CARD_ORDER`).
_LANE = 64
_SUITED = (1 << 52) - 1  # the non-joker card ids of one lane
_NIBBLES = sum(1 << 4 * v for v in range(13))  # each value's lowest bit
_LANE_NIBBLE = 15 | 15 << _LANE | 15 << 2 * _LANE  # one value's four suits, in each lane
_SHIFTS: dict[int, tuple[int, ...]] = {}  # by the nibbles of the values held: each held value's nibble


def _shifts(present: int) -> tuple[int, ...]:
    """The bit of each value held (``present``: a nibble's lowest bit per value), lowest first."""
    found = _SHIFTS[present] = tuple(4 * v for v in range(13) if present >> 4 * v & 1)
    return found


def _renamed_jokers(code: int) -> int:
    """The jokers of the three lanes (``code``: a's two joker bits, b's, the table's, two bits
    each) renamed JK1, JK2 in order of appearance (a's lowest first, then b's, then the
    table), as :meth:`ClashPosition.canonical` renames them, placed at bits 52, 53 of their lane."""
    out, n = 0, 0
    for lane in range(3):
        for j in range(2):
            if code >> 2 * lane + j & 1:
                out |= 1 << (52 + n) << lane * _LANE
                n += 1
    return out


_JOKER_LANES = tuple(_renamed_jokers(code) for code in range(64))

_NO_LOSS = (0, 0)
# Positions are built without the NamedTuple's keyword handling in the inner loops (all eight fields given).
_new = tuple.__new__


class Beat(NamedTuple):
    """One thing that happens in a clash, in order.

    Attributes:
        kind: ``"attack"``, ``"answer"`` (a Defence or Manoeuvre), ``"counter"``,
            ``"strike"``, ``"pass"`` or ``"end"`` (neither side attacks: the clash ends).
        side: the side (0 for a, 1 for b) who attacks, answers, counterattacks, passes, or
            is struck; -1 for ``"end"``.
        card: the card played, if any.
        answer: the referee's :class:`~.clash.Answer` of an answer, counter or strike.
        loss: tokens lost by (a, b) at this beat, before the DB-7 floor.
        auto: a strike she could not answer (not declined, DB-4), or a pass with no attack
            card (DB-6).
    """

    kind: str
    side: int
    card: Card | None = None
    answer: Answer | None = None
    loss: tuple[int, int] = _NO_LOSS
    auto: bool = False


def beat_losses(beats: Iterable[Beat]) -> tuple[tuple[int, int], ...]:
    """The losses ``(a, b)`` of the beats that cost tokens, in order."""
    return tuple(b.loss for b in beats if b.loss != _NO_LOSS)


def sorted_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand as the calculators hold it: the deck's Card objects, lowest first."""
    return tuple(CARD_ORDER[i] for i in sorted(_ids(cards)))


def _ids(hand: Iterable[Card]) -> tuple[int, ...]:
    """A hand's card ids, in the hand's order."""
    return tuple(CARD_ID[c.code] for c in hand)


def _mask(ids: Iterable[int]) -> int:
    """The bitmask of card ids."""
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


def _held(a: tuple[int, ...], b: tuple[int, ...]) -> Held:
    """Two hands of card ids as :data:`Held`: their order kept unless both are lowest first."""
    ordered = a == tuple(sorted(a)) and b == tuple(sorted(b))  # a hand's ids are distinct
    return (_mask(a), _mask(b), None if ordered else a + b)


def _listed(mask: int, order: tuple[int, ...] | None) -> tuple[int, ...]:
    """The card ids of ``mask`` in the order of :data:`Held` (lowest first when ``order`` is ``None``)."""
    if order is not None:
        return tuple(i for i in order if mask >> i & 1)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


#: ``forced`` of a clash's first attack turn: the initiative holder's opening attack is
#: compulsory (DB-3, "an action always begins with an attack"), a joker included.
OPENING = -1


@implements("DB-6")
def _may_pass(hand: int, side: int, forced: int | None, rules: Rules) -> bool:
    """:func:`may_pass` on a hand's bitmask of card ids (DB-6): never at the opening, always
    without a card of the attack suit, else unless she holds the initiative and the holder
    must attack."""
    if forced == OPENING:
        return False
    if not hand & rules.tables.attack_suit_mask:
        return True
    if forced == side:
        return False
    return not rules.holder_must_attack


def may_pass(hand: Iterable[Card], side: int, forced: int | None, rules: Rules) -> bool:
    """Return whether ``side``, to attack, may pass (DB-6): never at the clash's opening
    attack (``forced == OPENING``, DB-3: the opening attack is compulsory); a side holding
    no card of the attack suit (spades by default) may (jokers are never compulsory); the
    side the initiative was passed to (``forced``) must attack while she holds one; the
    initiative holder may pass unless the variant ``holder_must_attack``."""
    return _may_pass(_mask(_ids(hand)), side, forced, rules)


@implements("DB-6 no attack card")
def _can_attack(hand: int, rules: Rules) -> bool:
    """:func:`can_attack` on a hand's bitmask of card ids: a side to attack without an
    attack card passes by itself (DB-6)."""
    return hand & rules.tables.attack_mask != 0


def can_attack(hand: Iterable[Card], rules: Rules | None = None) -> bool:
    """Return whether a hand holds an attack card, one of the attack suit (spades by
    default) or a joker (DB-1); a side to attack without one passes by itself (DB-6)."""
    return _can_attack(_mask(_ids(hand)), rules or _DEFAULT)


@implements("DB-6 both pass")
def clash_over(passes: int) -> bool:
    """Return whether ``passes`` attack turns passed in a row end the clash (DB-6: both
    sides pass in a row — neither attacks)."""
    return passes >= PASSES_TO_END


@implements("DB-4 no answer")
def _can_answer(hand: int, rules: Rules) -> bool:
    """:func:`can_answer` on a hand's bitmask of card ids: without a card that can answer,
    the attack is a strike at once (DB-4)."""
    return hand & rules.tables.answer_mask != 0


def can_answer(hand: Iterable[Card], rules: Rules | None = None) -> bool:
    """Return whether a hand holds a card that can answer an attack (DB-4): without one
    the attack is a strike at once."""
    return _can_answer(_mask(_ids(hand)), rules or _DEFAULT)


_DEFAULT = Rules()


def _strike(rules: Rules) -> Answer:
    """:func:`~.clash.strike` under ``rules`` (DB-4), worked out once per rules."""
    hit = rules.judged.get(_STRIKE)
    if hit is None:
        hit = rules.judged[_STRIKE] = strike(rules)
    return hit


_STRIKE = "strike"


def _judged(table: int, move: int, rules: Rules) -> Answer:
    """The referee's judgement (:func:`~.clash.judged_answer`, DB-1, DB-5) of the answer
    ``move`` to the card id ``table``, remembered with the rules by one integer."""
    key = table << (2 * MOVE_BITS) | move
    found = rules.judged.get(key)
    if found is None:
        card = CARD_ORDER[move & _CARD_MASK]
        found = rules.judged[key] = judged_answer(CARD_ORDER[table], card, ACTIONS[move >> MOVE_BITS], rules)
    return found


def _loss(side: int, tokens: int) -> tuple[int, int]:
    return (tokens, 0) if side == 0 else (0, tokens)


class ClashPosition(NamedTuple):
    """A clash position between two known hands, at an ``attack`` or an ``answer``.

    Attributes:
        held: each side's cards as a bitmask of card ids (:data:`~.rules.CARD_ORDER`), and
            the order they are listed in (:data:`Held`: lowest first, or as given, kept as
            cards are played); :attr:`ids` gives the ids, :attr:`hands` the Card objects.
        stage: ``"attack"`` (``holder`` attacks or passes) or ``"answer"`` (the side
            other than ``attacking`` answers the ``table`` card).
        holder: the side holding the initiative (DB-6).
        attacking, table_id: at an answer, the side whose card is on the table and that
            card's id (:attr:`table` gives the Card).
        passes: attack turns passed in a row (two end the clash, DB-6).
        rules: the rules in force.
        forced: the side the initiative was passed to: she must attack while she holds a
            spade (DB-6).
    """

    held: Held
    stage: str
    holder: int
    attacking: int | None
    table_id: int | None
    passes: int
    rules: Rules
    forced: int | None = None

    is_terminal = False
    is_chance_node = False

    # -- building ---------------------------------------------------------------------
    @classmethod
    def begin(cls, hands: Hands, holder: int, rules: Rules) -> tuple[ClashPosition | None, tuple[Beat, ...]]:
        """Return the clash's first position with ``holder`` holding the initiative (DB-3)
        and the beats before it (a side with no attack card passes by itself, DB-6);
        ``None`` when the clash is over at once."""
        return _attack_turn(_held(_ids(hands[0]), _ids(hands[1])), holder, 0, rules, OPENING, (), True)

    @classmethod
    def begin_ids(cls, ids: tuple[tuple[int, ...], tuple[int, ...]], holder: int, rules: Rules) -> ClashPosition | None:
        """:meth:`begin` for hands given as card ids, without the beats (the calculators'
        start: only passes can come before the first position, and they cost nothing)."""
        return _attack_turn(_held(ids[0], ids[1]), holder, 0, rules, OPENING, (), False)[0]

    @classmethod
    def from_state(cls, state: Any) -> ClashPosition:
        """Return the position of an engine state (or a position) at a decision of a clash.

        Raises:
            IllegalActionError: the state is not at an attack or answer decision.
        """
        if isinstance(state, ClashPosition):
            return state
        if getattr(state, "stage", None) not in ("attack", "answer"):
            raise IllegalActionError(
                f"no clash decision here (stage {getattr(state, 'stage', None)!r}): "
                "give a state at an attack or an answer"
            )
        return cls(
            _held(_ids(state.hands[0]), _ids(state.hands[1])),
            state.stage,
            state.holder,
            state.attacking,
            None if state.table is None else CARD_ID[state.table.code],
            state.passes,
            state.rules,
            state.forced,
        )

    # -- reading ----------------------------------------------------------------------
    @property
    def ids(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each side's card ids, in the order held (:data:`Held`)."""
        a, b, order = self.held
        return _listed(a, order), _listed(b, order)

    @property
    def hands(self) -> Hands:
        """Each side's cards (the deck's Card objects), in the order held."""
        a, b = self.ids
        return tuple(CARD_ORDER[i] for i in a), tuple(CARD_ORDER[i] for i in b)

    @property
    def table(self) -> Card | None:
        """At an answer, the card on the table; ``None`` at an attack."""
        return None if self.table_id is None else CARD_ORDER[self.table_id]

    @property
    def current_player(self) -> str:
        """``"a"`` or ``"b"``: the side to act."""
        if self.stage == "attack":
            return SIDES[self.holder]
        return SIDES[1 - self.attacking]  # type: ignore[operator]

    @property
    def mover(self) -> int:
        """The side to act, 0 or 1."""
        return self.holder if self.stage == "attack" else 1 - self.attacking  # type: ignore[operator]

    @property
    def key(self) -> str:
        """The position as a string (hands, stage, sides, table card, passes), for memos."""
        table = _CODE[self.table_id] if self.table_id is not None else "-"
        return (
            " ".join(map(_CODE.__getitem__, self.ids[0]))
            + "|"
            + " ".join(map(_CODE.__getitem__, self.ids[1]))
            + f"|{self.stage}{self.holder}{self.attacking}{table}{self.passes}{self.forced}"
        )

    @property
    def canonical_key(self) -> str:
        """``self.canonical().key``, worked out without building the canonical position
        (the memo key of the minimax search and the calculators)."""
        ids, table = self.ids, self.table_id
        mask = 0
        jokers: tuple[int, ...] = ()
        for hand in ids:
            for i in hand:
                bit = _BIT[i]
                if bit:
                    mask |= bit
                else:
                    jokers += (i,)
        if table is not None:
            bit = _BIT[table]
            if bit:
                mask |= bit
            else:
                jokers += (table,)
        codes = _SQUEEZED.get((mask, jokers)) or _squeezed(mask, jokers)
        get = codes.__getitem__
        return (
            " ".join(map(get, ids[0]))
            + "|"
            + " ".join(map(get, ids[1]))
            + f"|{self.stage}{self.holder}{self.attacking}{'-' if table is None else codes[table]}"
            f"{self.passes}{self.forced}"
        )

    @property
    def memo_key(self) -> tuple:
        """A hashable key that two positions share exactly when their :attr:`canonical_key`
        is the same (the memo key of the minimax search and the calculators), worked out
        from the hands' bitmasks: the canonical squeeze of the ranks (ranks squeezed to 2, 3,
        ..., jokers renamed JK1, JK2 in order of appearance, :meth:`canonical`) as one
        integer, with the stage, sides and passes. Hands listed in a given order (not lowest
        first) keep :attr:`canonical_key`, which lists them in that order."""
        (a, b, order), stage, holder, attacking, table, passes, _, forced = self
        if order is not None:
            return self.canonical_key  # type: ignore[return-value]
        lanes = a | b << _LANE
        if table is not None:
            lanes |= 1 << table << 2 * _LANE
        suited = lanes & ~(3 << 52 | 3 << 52 + _LANE | 3 << 52 + 2 * _LANE)
        union = (suited | suited >> _LANE | suited >> 2 * _LANE) & _SUITED
        present = (union | union >> 1 | union >> 2 | union >> 3) & _NIBBLES
        squeezed = _JOKER_LANES[(lanes >> 52 & 3) | (lanes >> 52 + _LANE & 3) << 2 | (lanes >> 52 + 2 * _LANE & 3) << 4]
        to = 0
        for shift in _SHIFTS.get(present) or _shifts(present):
            squeezed |= (suited >> shift & _LANE_NIBBLE) << to
            to += 4
        return (squeezed, stage, holder, attacking, passes, forced)

    def canonical(self) -> ClashPosition:
        """The same position with ranks squeezed to 2, 3, 4, ... and jokers renamed JK1, JK2 in
        order of appearance: it plays exactly like the original, since the referee only
        compares card values (DB-1, DB-5) — the calculators' memos share positions by it."""
        ids, table = self.ids, self.table_id
        values = set()
        jokers: list[int] = []
        for hand in ids:
            for i in hand:
                if _SUIT[i] is None:
                    jokers.append(i)
                else:
                    values.add(_VALUE[i])
        if table is not None:
            if _SUIT[table] is None:
                jokers.append(table)
            else:
                values.add(_VALUE[table])
        order = sorted(values)
        if (not order or order[-1] == len(order) - 1) and all(j == _JOKER_IDS[k] for k, j in enumerate(jokers)):
            return self
        remap = {v: k for k, v in enumerate(order)}
        rename = {j: _JOKER_IDS[k] for k, j in enumerate(jokers)}

        def conv(i: int) -> int:
            return rename[i] if _SUIT[i] is None else _BY_VALUE_SUIT[(remap[_VALUE[i]], _SUIT[i])]

        # squeezing keeps a sorted hand sorted; a hand's two jokers appear as JK1, JK2 already
        a, b = tuple(map(conv, ids[0])), tuple(map(conv, ids[1]))
        new = (_mask(a), _mask(b), None if self.held[2] is None else a + b)
        table = None if table is None else conv(table)
        return _new(ClashPosition, (new, self.stage, self.holder, self.attacking, table, *self[5:]))

    def may_pass(self) -> bool:
        """Whether the side to attack may pass (DB-6, :func:`may_pass`)."""
        return _may_pass(self.held[self.holder], self.holder, self.forced, self.rules)

    def legal_moves(self) -> list[int]:
        """The moves (:func:`move_of`) of the side to move: attack with each spade or joker,
        highest first, and pass if she may (DB-6); or answer with each card as each action
        it allows but attack (DB-1), or take the strike (DB-4)."""
        if self.stage == "attack":
            out = [_ATTACK << MOVE_BITS | i for i in attack_ids(self.ids[self.holder], self.rules)]
            if self.may_pass():
                out.append(PASS_MOVE)
            return out
        answers = self.rules.tables.answer_moves
        out = [m for i in self.ids[1 - self.attacking] for m in answers[i]]  # type: ignore[operator]
        out.append(TAKE_MOVE)  # DB-4: she may decline and take the strike
        return out

    def legal_actions(self) -> list[str]:
        """The actions of :meth:`legal_moves`, as the engine's strings, in the same order."""
        return list(map(_ACTION.__getitem__, self.legal_moves()))

    # -- stepping ---------------------------------------------------------------------
    def step(self, action: str) -> tuple[ClashPosition | None, tuple[Beat, ...]]:
        """Return the position after ``action`` (``None`` when the clash is over) and the
        beats it causes, in the order they happen (a counterattack's token comes before an
        automatic strike that follows it, DB-4, DB-5): the course of a clash — the side whose
        attack was settled holds the initiative, passes move it, two in a row end the
        clash (DB-6).

        Raises:
            IllegalActionError: ``action`` is not legal here.
        """
        move = _MOVE.get(action)
        if move is None or move not in self.legal_moves():
            raise IllegalActionError(
                f"{action!r} is not possible for {self.current_player} here: " + ", ".join(self.legal_actions())
            )
        return _advance(self, move, True)  # type: ignore[return-value]

    def advance(self, action: str) -> tuple[ClashPosition | None, tuple[Beat, ...]]:
        """:meth:`step` for an action known to be legal (the engine checks it first)."""
        return _advance(self, _MOVE[action], True)  # type: ignore[return-value]

    def losses_after(self, action: str) -> tuple[ClashPosition | None, tuple[tuple[int, int], ...]]:
        """The same step as :meth:`advance` (legal ``action``), giving only the losses
        ``(a, b)`` of the beats that cost tokens, in order — the calculators' inner loop."""
        return _advance(self, _MOVE[action], False)  # type: ignore[return-value]

    def losses_after_move(self, move: int) -> tuple[ClashPosition | None, tuple[tuple[int, int], ...]]:
        """:meth:`losses_after` for a legal move (:func:`move_of`). (Replaced below by the
        course itself, :func:`_advance`, whose ``narrate`` is ``False`` by default: one call
        less at every step of the calculators.)"""
        return _advance(self, move, False)  # type: ignore[return-value]  # pragma: no cover

    def __repr__(self) -> str:
        def text(h: tuple[int, ...]) -> str:
            return " ".join(map(_CODE.__getitem__, h)) or "-"

        table = f", table {_CODE[self.table_id]} by {SIDES[self.attacking]}" if self.table_id is not None else ""  # type: ignore[index]
        return (
            f"ClashPosition(a: {text(self.ids[0])}; b: {text(self.ids[1])}; {self.stage} "
            f"{self.current_player}{table}, passes {self.passes})"
        )


# The course of a clash. ``out`` collects what a step causes: the beats themselves when
# ``narrate``, else only the losses of the beats that cost tokens (the same course, told
# briefly for the calculators).
Out = tuple


@implements("DB-6 course")
def _advance(pos: ClashPosition, move: int, narrate: bool = False) -> tuple[ClashPosition | None, Out]:
    """The one course of a clash step, for the engine and the calculators alike: an attack,
    a pass (DB-6), a strike taken (DB-4) or an answer judged (DB-5), then whose turn it is
    (the side whose attack was settled holds the initiative; two passes end it, DB-6)."""
    held, stage, holder, attacker, table, passes, rules, forced = pos
    if stage == "attack":
        if move == PASS_MOVE:
            return _pass(held, holder, passes, rules, False, (), narrate)
        card = move & _CARD_MASK
        out = (Beat("attack", holder, CARD_ORDER[card]),) if narrate else ()
        forced = None if forced == OPENING else forced  # the opening attack is made (DB-3)
        a, b, order = held
        held = (a ^ 1 << card, b, order) if holder == 0 else (a, b ^ 1 << card, order)
        return _attacked(held, holder, card, rules, forced, out, narrate)
    assert attacker is not None and table is not None
    j = 1 - attacker
    if move == TAKE_MOVE:  # DB-4: she declines and takes the strike
        hit = _strike(rules)
        loss = _loss(j, hit.defender_loss)
        out = (Beat("strike", j, None, hit, loss),) if narrate else (loss,)
        return _attack_turn(held, attacker, 0, rules, forced, out, narrate)
    card = move & _CARD_MASK
    result = rules.judged.get(table << (2 * MOVE_BITS) | move) or _judged(table, move, rules)
    a, b, order = held
    held = (a ^ 1 << card, b, order) if j == 0 else (a, b ^ 1 << card, order)
    if result.counter:  # the counterattacker pays first, then her card is the attack (DB-1, DB-5)
        loss = _loss(j, result.defender_loss)
        if narrate:
            out = (Beat("counter", j, CARD_ORDER[card], result, loss),)
        else:
            out = (loss,) if result.defender_loss else ()
        return _attacked(held, j, card, rules, None, out, narrate)  # won by a counterattack: nobody is forced
    mine, theirs = result.attacker_loss, result.defender_loss
    loss = (mine, theirs) if attacker == 0 else (theirs, mine)
    if narrate:
        out = (Beat("answer", j, CARD_ORDER[card], result, loss),)
    else:
        out = (loss,) if mine or theirs else ()
    return _attack_turn(held, attacker, 0, rules, forced, out, narrate)


def _attack_turn(
    held: Held, holder: int, passes: int, rules: Rules, forced: int | None, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """``holder`` is to attack: a side with no attack card passes by itself (DB-6)."""
    if _can_attack(held[holder], rules):
        return _new(ClashPosition, (held, "attack", holder, None, None, passes, rules, forced)), out
    return _pass(held, holder, passes, rules, True, out, narrate)


def _pass(
    held: Held, i: int, passes: int, rules: Rules, auto: bool, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """Side ``i`` passes: two passes in a row end the clash; otherwise the initiative
    passes and the other side must attack while she holds a spade (DB-6)."""
    if narrate:
        out += (Beat("pass", i, auto=auto),)
    if clash_over(passes + 1):
        return None, (out + (Beat("end", -1),) if narrate else out)
    return _attack_turn(held, 1 - i, passes + 1, rules, 1 - i, out, narrate)


def _attacked(
    held: Held, attacker: int, card: int, rules: Rules, forced: int | None, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """An attack (or counterattack) card is on the table: the other side answers, or is
    struck at once when she has no card that can answer (DB-4)."""
    defender = 1 - attacker
    if _can_answer(held[defender], rules):
        return _new(ClashPosition, (held, "answer", attacker, attacker, card, 0, rules, forced)), out
    hit = _strike(rules)
    loss = _loss(defender, hit.defender_loss)
    out += (Beat("strike", defender, None, hit, loss, auto=True),) if narrate else (loss,)
    return _attack_turn(held, attacker, 0, rules, forced, out, narrate)


#: The calculators' step (:meth:`ClashPosition.losses_after_move`) is the course itself.
ClashPosition.losses_after_move = _advance  # type: ignore[method-assign]
