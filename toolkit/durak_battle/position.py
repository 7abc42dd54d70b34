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
from operator import attrgetter
from typing import Any, NamedTuple

from toolkit.cards import JOKERS, RANKS, Card, standard_deck
from toolkit.durak_battle.clash import Answer, card_value, judged_answer, strike
from toolkit.durak_battle.initiative_rule import attack_cards
from toolkit.durak_battle.rules import SIDES, Rules
from toolkit.errors import IllegalActionError
from toolkit.rulings import implements

__all__ = [
    "DECK",
    "Beat",
    "ClashPosition",
    "PASSES_TO_END",
    "can_attack",
    "can_answer",
    "clash_over",
    "may_pass",
    "beat_losses",
    "sorted_hand",
]

#: Attack turns passed in a row that end the clash (DB-6: neither side attacks).
PASSES_TO_END = 2

Hands = tuple[tuple[Card, ...], tuple[Card, ...]]

# Per card code, looked up instead of recomputed; what a card can do depends on the
# rules' suits (DB-1) and is looked up in ``rules.tables`` (the referee's actions_of).
#: The deck's Card objects (jokers included), shared by the calculators: a hand made of
#: these is stepped by identity (:func:`_without`), never by comparing codes.
DECK: tuple[Card, ...] = standard_deck(jokers=True)
_CARDS = DECK
_CARD = {c.code: c for c in _CARDS}
_VALUE = {c.code: card_value(c) for c in _CARDS}
_CODE = attrgetter("code")
_SORT_KEY = attrgetter("sort_key")
_BY_RANK_SUIT = {(RANKS.index(c.rank), c.suit): c for c in _CARDS if not c.is_joker}
_JOKER_CARDS = tuple(_CARD[j] for j in JOKERS)
# For :attr:`ClashPosition.canonical_key`: each card's bit in a mask of the rank values
# held (0 for a joker), and per (mask, jokers in order of appearance) the canonical code of
# every card code (the squeeze of :meth:`ClashPosition.canonical`), remembered as met.
_BIT = {c.code: 0 if c.suit is None else 1 << _VALUE[c.code] for c in _CARDS}
_SQUEEZED: dict[tuple[int, tuple[str, ...]], dict[str, str]] = {}


def _squeezed(mask: int, jokers: tuple[str, ...]) -> dict[str, str]:
    """The canonical code of each card code for the rank values of ``mask`` and the jokers
    met in order ``jokers`` (ranks squeezed to 2, 3, ..., jokers renamed JK1, JK2)."""
    order = [v for v in range(len(RANKS)) if mask >> v & 1]
    remap = {v: k for k, v in enumerate(order)}
    held = (c for c in _CARDS if c.suit is not None and _BIT[c.code] & mask)
    out = {c.code: _BY_RANK_SUIT[(remap[_VALUE[c.code]], c.suit)].code for c in held}
    out.update({j: JOKERS[k] for k, j in enumerate(jokers)})
    _SQUEEZED[(mask, jokers)] = out
    return out


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
    return tuple(sorted(map(_CARD.__getitem__, map(_CODE, cards)), key=_SORT_KEY))


#: ``forced`` of a clash's first attack turn: the initiative holder's opening attack is
#: compulsory (DB-3, "an action always begins with an attack"), a joker included.
OPENING = -1


@implements("DB-6")
def may_pass(hand: Iterable[Card], side: int, forced: int | None, rules: Rules) -> bool:
    """Return whether ``side``, to attack, may pass (DB-6): never at the clash's opening
    attack (``forced == OPENING``, DB-3: the opening attack is compulsory); a side holding
    no card of the attack suit (spades by default) may (jokers are never compulsory); the
    side the initiative was passed to (``forced``) must attack while she holds one; the
    initiative holder may pass unless the variant ``holder_must_attack``."""
    if forced == OPENING:
        return False
    suited = rules.tables.attack_suit
    if not any(suited[c.code] for c in hand):
        return True
    if forced == side:
        return False
    return not rules.holder_must_attack


@implements("DB-6 no attack card")
def can_attack(hand: Iterable[Card], rules: Rules | None = None) -> bool:
    """Return whether a hand holds an attack card, one of the attack suit (spades by
    default) or a joker (DB-1); a side to attack without one passes by itself (DB-6)."""
    table = (rules or _DEFAULT).tables.can_attack
    for c in hand:  # noqa: SIM110 - a loop, not any(): faster, and the calculators ask at every turn
        if table[c.code]:
            return True
    return False


@implements("DB-6 both pass")
def clash_over(passes: int) -> bool:
    """Return whether ``passes`` attack turns passed in a row end the clash (DB-6: both
    sides pass in a row — neither attacks)."""
    return passes >= PASSES_TO_END


@implements("DB-4 no answer")
def can_answer(hand: Iterable[Card], rules: Rules | None = None) -> bool:
    """Return whether a hand holds a card that can answer an attack (DB-4): without one
    the attack is a strike at once."""
    table = (rules or _DEFAULT).tables.answers
    for c in hand:  # noqa: SIM110 - as can_attack
        if table[c.code]:
            return True
    return False


_DEFAULT = Rules()


def _strike(rules: Rules) -> Answer:
    """:func:`~.clash.strike` under ``rules`` (DB-4), worked out once per rules."""
    hit = rules.judged.get(_STRIKE)
    if hit is None:
        hit = rules.judged[_STRIKE] = strike(rules)
    return hit


_STRIKE = "strike"


def _loss(side: int, tokens: int) -> tuple[int, int]:
    return (tokens, 0) if side == 0 else (0, tokens)


def _without(hands: Hands, i: int, card: Card) -> Hands:
    hand = hands[i]
    if type(hand) is not tuple:  # a hand given as a list is kept as a tuple from here on
        hand = tuple(hand)
    k = 0
    for c in hand:  # the deck's own Card objects (the calculators' hands): by identity
        if c is card:
            rest = hand[:k] + hand[k + 1 :]
            break
        k += 1  # noqa: SIM113 - a counter, not enumerate(): faster, at every step of every clash
    else:  # other Card objects: by code
        code = card.code
        rest = tuple(c for c in hand if c.code != code)
    return (rest, hands[1]) if i == 0 else (hands[0], rest)


class ClashPosition(NamedTuple):
    """A clash position between two known hands, at an ``attack`` or an ``answer``.

    Attributes:
        hands: each side's cards (any order; the order is kept as cards are played).
        stage: ``"attack"`` (``holder`` attacks or passes) or ``"answer"`` (the side
            other than ``attacking`` answers the ``table`` card).
        holder: the side holding the initiative (DB-6).
        attacking, table: at an answer, the side whose card is on the table and that card.
        passes: attack turns passed in a row (two end the clash, DB-6).
        rules: the rules in force.
        forced: the side the initiative was passed to: she must attack while she holds a
            spade (DB-6).
    """

    hands: Hands
    stage: str
    holder: int
    attacking: int | None
    table: Card | None
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
        return _attack_turn(hands, holder, 0, rules, OPENING, (), True)

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
            (tuple(state.hands[0]), tuple(state.hands[1])),
            state.stage,
            state.holder,
            state.attacking,
            state.table,
            state.passes,
            state.rules,
            state.forced,
        )

    # -- reading ----------------------------------------------------------------------
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
        table = self.table.code if self.table is not None else "-"
        return (
            " ".join(c.code for c in self.hands[0])
            + "|"
            + " ".join(c.code for c in self.hands[1])
            + f"|{self.stage}{self.holder}{self.attacking}{table}{self.passes}{self.forced}"
        )

    @property
    def canonical_key(self) -> str:
        """``self.canonical().key``, worked out without building the canonical position
        (the memo key of the minimax search and the calculators)."""
        hands, table = self.hands, self.table
        mask = 0
        jokers: tuple[str, ...] = ()
        for hand in hands:
            for c in hand:
                bit = _BIT[c.code]
                if bit:
                    mask |= bit
                else:
                    jokers += (c.code,)
        if table is not None:
            bit = _BIT[table.code]
            if bit:
                mask |= bit
            else:
                jokers += (table.code,)
        codes = _SQUEEZED.get((mask, jokers)) or _squeezed(mask, jokers)
        get = codes.__getitem__
        return (
            " ".join(map(get, map(_CODE, hands[0])))
            + "|"
            + " ".join(map(get, map(_CODE, hands[1])))
            + f"|{self.stage}{self.holder}{self.attacking}{'-' if table is None else codes[table.code]}"
            f"{self.passes}{self.forced}"
        )

    def canonical(self) -> ClashPosition:
        """The same position with ranks squeezed to 2, 3, 4, ... and jokers renamed JK1, JK2 in
        order of appearance: it plays exactly like the original, since the referee only
        compares card values (DB-1, DB-5) — the calculators' memos share positions by it."""
        hands, table = self.hands, self.table
        values = set()
        jokers: list[str] = []
        for hand in hands:
            for c in hand:
                if c.suit is None:
                    jokers.append(c.code)
                else:
                    values.add(_VALUE[c.code])
        if table is not None:
            if table.suit is None:
                jokers.append(table.code)
            else:
                values.add(_VALUE[table.code])
        order = sorted(values)
        if (not order or order[-1] == len(order) - 1) and all(j == JOKERS[k] for k, j in enumerate(jokers)):
            return self
        remap = {v: k for k, v in enumerate(order)}
        rename = {j: _JOKER_CARDS[k] for k, j in enumerate(jokers)}

        def conv(c: Card) -> Card:
            return rename[c.code] if c.suit is None else _BY_RANK_SUIT[(remap[_VALUE[c.code]], c.suit)]

        # squeezing keeps a sorted hand sorted; a hand's two jokers appear as JK1, JK2 already
        new_hands = (tuple(conv(c) for c in hands[0]), tuple(conv(c) for c in hands[1]))
        table = None if table is None else conv(table)
        return _new(ClashPosition, (new_hands, self.stage, self.holder, self.attacking, table, *self[5:]))

    def may_pass(self) -> bool:
        """Whether the side to attack may pass (DB-6, :func:`may_pass`)."""
        return may_pass(self.hands[self.holder], self.holder, self.forced, self.rules)

    def legal_actions(self) -> list[str]:
        """The actions of the side to move: attack with each spade or joker, highest first,
        and pass if she may (DB-6); or answer with each card as each action it allows but
        attack (DB-1), or take the strike (DB-4)."""
        if self.stage == "attack":
            out = [f"attack {c.code}" for c in attack_cards(self.hands[self.holder], self.rules)]
            if self.may_pass():
                out.append("pass")
            return out
        hand = self.hands[1 - self.attacking]  # type: ignore[operator]
        answers = self.rules.tables.answers
        out = [f"{a} {c.code}" for c in hand for a in answers[c.code]]
        out.append("take")  # DB-4: she may decline and take the strike
        return out

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
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"{action!r} is not possible for {self.current_player} here: " + ", ".join(self.legal_actions())
            )
        return self.advance(action)

    def advance(self, action: str) -> tuple[ClashPosition | None, tuple[Beat, ...]]:
        """:meth:`step` for an action known to be legal (the engine checks it first)."""
        return _advance(self, action, True)  # type: ignore[return-value]

    def losses_after(self, action: str) -> tuple[ClashPosition | None, tuple[tuple[int, int], ...]]:
        """The same step as :meth:`advance` (legal ``action``), giving only the losses
        ``(a, b)`` of the beats that cost tokens, in order — the calculators' inner loop."""
        return _advance(self, action, False)  # type: ignore[return-value]

    def __repr__(self) -> str:
        def text(h: tuple[Card, ...]) -> str:
            return " ".join(c.code for c in h) or "-"

        table = f", table {self.table.code} by {SIDES[self.attacking]}" if self.table else ""  # type: ignore[index]
        return (
            f"ClashPosition(a: {text(self.hands[0])}; b: {text(self.hands[1])}; {self.stage} "
            f"{self.current_player}{table}, passes {self.passes})"
        )


# The course of a clash. ``out`` collects what a step causes: the beats themselves when
# ``narrate``, else only the losses of the beats that cost tokens (the same course, told
# briefly for the calculators).
Out = tuple


@implements("DB-6 course")
def _advance(pos: ClashPosition, action: str, narrate: bool) -> tuple[ClashPosition | None, Out]:
    """The one course of a clash step, for the engine and the calculators alike: an attack,
    a pass (DB-6), a strike taken (DB-4) or an answer judged (DB-5), then whose turn it is
    (the side whose attack was settled holds the initiative; two passes end it, DB-6)."""
    verb, _, code = action.partition(" ")
    hands, stage, holder, attacker, table, passes, rules, forced = pos
    if stage == "attack":
        if verb == "pass":
            return _pass(hands, holder, passes, rules, False, (), narrate)
        card = _CARD[code]
        out = (Beat("attack", holder, card),) if narrate else ()
        forced = None if forced == OPENING else forced  # the opening attack is made (DB-3)
        return _attacked(_without(hands, holder, card), holder, card, rules, forced, out, narrate)
    assert attacker is not None and table is not None
    j = 1 - attacker
    if verb == "take":  # DB-4: she declines and takes the strike
        hit = _strike(rules)
        loss = _loss(j, hit.defender_loss)
        out = (Beat("strike", j, None, hit, loss),) if narrate else (loss,)
        return _attack_turn(hands, attacker, 0, rules, forced, out, narrate)
    card = _CARD[code]
    result = rules.judged.get((table.code, code, verb)) or judged_answer(table, card, verb, rules)
    hands = _without(hands, j, card)
    if result.counter:  # the counterattacker pays first, then her card is the attack (DB-1, DB-5)
        loss = _loss(j, result.defender_loss)
        if narrate:
            out = (Beat("counter", j, card, result, loss),)
        else:
            out = (loss,) if result.defender_loss else ()
        return _attacked(hands, j, card, rules, None, out, narrate)  # won by a counterattack: nobody is forced
    mine, theirs = result.attacker_loss, result.defender_loss
    loss = (mine, theirs) if attacker == 0 else (theirs, mine)
    if narrate:
        out = (Beat("answer", j, card, result, loss),)
    else:
        out = (loss,) if mine or theirs else ()
    return _attack_turn(hands, attacker, 0, rules, forced, out, narrate)


def _attack_turn(
    hands: Hands, holder: int, passes: int, rules: Rules, forced: int | None, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """``holder`` is to attack: a side with no attack card passes by itself (DB-6)."""
    if can_attack(hands[holder], rules):
        return _new(ClashPosition, (hands, "attack", holder, None, None, passes, rules, forced)), out
    return _pass(hands, holder, passes, rules, True, out, narrate)


def _pass(
    hands: Hands, i: int, passes: int, rules: Rules, auto: bool, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """Side ``i`` passes: two passes in a row end the clash; otherwise the initiative
    passes and the other side must attack while she holds a spade (DB-6)."""
    if narrate:
        out += (Beat("pass", i, auto=auto),)
    if clash_over(passes + 1):
        return None, (out + (Beat("end", -1),) if narrate else out)
    return _attack_turn(hands, 1 - i, passes + 1, rules, 1 - i, out, narrate)


def _attacked(
    hands: Hands, attacker: int, card: Card, rules: Rules, forced: int | None, out: Out, narrate: bool
) -> tuple[ClashPosition | None, Out]:
    """An attack (or counterattack) card is on the table: the other side answers, or is
    struck at once when she has no card that can answer (DB-4)."""
    defender = 1 - attacker
    if can_answer(hands[defender], rules):
        return _new(ClashPosition, (hands, "answer", attacker, attacker, card, 0, rules, forced)), out
    hit = _strike(rules)
    loss = _loss(defender, hit.defender_loss)
    out += (Beat("strike", defender, None, hit, loss, auto=True),) if narrate else (loss,)
    return _attack_turn(hands, attacker, 0, rules, forced, out, narrate)
