"""The Durak battle's narrator: every log line rendered from its event's data (DB-1..DB-9).

The engine decides what happened and puts it in the event's data (docs/event_data.md);
:func:`narrate` words it, given the :func:`cast` (the armies' and leaders' names by side).
The sentences are the rule book's: rewording one is an edit here alone.

>>> cast = {"a": "North", "b": "South", ("a", "leader"): "Olga", ("b", "leader"): "Igor"}
>>> narrate("attack", {"side": "a", "card": "7S"}, cast).text.text
'North attacks with the 7 of Spades (DB-1).'
>>> told = narrate("deal", {"side": "b", "cards": ("9H", "QD")}, cast)
>>> told.text.text, told.public.text
('South draws 2 cards: 9H QD.', 'South draws 2 cards.')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolkit.cards import Card
from toolkit.durak_battle.recon import cards_drawn
from toolkit.durak_battle.rules import SIDES, Rules
from toolkit.engine import GameState, Sentence
from toolkit.narration import Narration
from toolkit.numbers import count

__all__ = ["cast", "hand_sentence", "narrate"]

#: The rulings' morale target, which a morale line leaves unsaid (DB-8).
_DRAFT_TARGET = Rules().morale_target
_OTHER = {"a": "b", "b": "a"}
_NO_CARDS = Sentence(count(0, "card", zero="no"))
_NAMED: dict[str, tuple[Sentence, bool]] = {}
#: The public sentence of an event everyone reads (passed, not defaulted: narration runs
#: on every event of every Monte Carlo trial).
_EVERYONE = Sentence()


def cast(state: GameState) -> Mapping[Any, str]:
    """Return the armies' names by side and their leaders' by ``(side, "leader")``:
    ``{"a": "North", "b": "South", ("a", "leader"): "Olga", ("b", "leader"): "Igor"}``."""
    a, b = state.armies  # type: ignore[attr-defined]
    return {"a": a.name, "b": b.name, ("a", "leader"): a.leader.name, ("b", "leader"): b.leader.name}


def _card(code: str) -> tuple[Sentence, bool]:
    """A card in words (``7 of Spades``, ``Joker``), marked, and whether it is a joker."""
    named = _NAMED.get(code)
    if named is None:
        card = Card(code)
        named = _NAMED[code] = (Sentence.card_name(card), card.is_joker)
    return named


def hand_sentence(cards: Sequence[Card | str]) -> Sentence:
    """Return a hand by its cards' codes, each marked as a card (the rule-book export
    draws them): ``9H QD``; ``no cards`` for none.

    >>> hand_sentence(["9H", "QD"]).marks[1].code, hand_sentence(()).text
    ('QD', 'no cards')
    """
    return Sentence.listing("card", cards) if cards else _NO_CARDS


def _tokens(n: int) -> str:
    return count(n, "token")


def _said(text: str | Sentence) -> Narration:
    """The narration of an event everyone reads alike."""
    return Narration(text if type(text) is Sentence else Sentence(text), _EVERYONE)


def _start(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    if "hands" in data:  # a clash with known hands: both are the designer's alone (DB-2)
        a, b = data["hands"]
        return Narration(
            Sentence.of(f"{cast['a']} holds ", hand_sentence(a), f"; {cast['b']} holds ", hand_sentence(b), "."),
            Sentence(f"{cast['a']} holds {count(len(a), 'card')}; {cast['b']} holds {count(len(b), 'card')}."),
        )
    ta, tb = data["tokens"]
    return _said(f"{cast['a']} ({_tokens(ta)}) against {cast['b']} ({_tokens(tb)}). Round 1.")


def _recon(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    roll, cards, advantage = data["roll"], data["cards"], data["advantage"]
    wild = " with the Wild Die" if data["wild"] else ""
    drawn = count(cards, "card")
    if advantage:
        base = cards_drawn(roll)
        per = (cards - base) // advantage
        outnumbering = "for outnumbering" if per == 1 else f"for outnumbering by {_tokens(advantage)}, {per} per token"
        drawn += f" ({base} + {cards - base} {outnumbering})"
    leader = cast[data["side"], "leader"]
    text = f"{leader} ({cast[data['side']]}) rolls Knowledge (Battle) d{data['die']}{wild}: {roll} — {drawn} (DB-2)."
    return _said(text)


def _deal(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    name, cards = cast[data["side"]], data["cards"]
    if not cards:
        return _said(f"{name} draws no cards.")
    drawn = f"{name} draws {count(len(cards), 'card')}"
    return Narration(Sentence.of(drawn + ": ", hand_sentence(cards), "."), Sentence(drawn + "."))


def _initiative(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    decided = data["decided"]
    if decided == "no_clash":
        return _said("Neither side holds an attack card: no clash this round (DB-3).")
    name = cast[data["holder"]]
    if decided == "coin":
        return _said(f"Tied jokers: a coin flip gives {name} the initiative (DB-3).")
    detail = _card(data["card"])[0]
    if decided == "next_card":
        detail = Sentence.of(detail, "; the tie is broken by her next attack card, the ", _card(data["next_card"])[0])
    takes = " and takes the initiative (DB-3)."
    return Narration(
        Sentence.of(f"{name} holds the highest attack card (", detail, ")" + takes),
        Sentence(f"{name} holds the highest attack card" + takes),  # her card is not played yet
    )


def _attack(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    return _said(Sentence.of(f"{cast[data['side']]} attacks with the ", _card(data["card"])[0], " (DB-1)."))


def _answer(kind: str) -> Callable[[Mapping[str, Any], Mapping[Any, str]], Narration]:
    def told(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
        side = data["side"]
        card, joker = _card(data["card"])
        verdict = "succeeds" if data["succeeded"] else "fails"
        return _said(
            Sentence.of(
                f"{cast[side]} answers with {kind}, the ",
                card,
                f"{' as ' + kind if joker else ''}: it {verdict}; {cast[_OTHER[side]]} loses {data['attacker_loss']}, "
                f"{cast[side]} loses {data['defender_loss']} (DB-1).",
            )
        )

    return told


def _counter(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    name, loss = cast[data["side"]], data["loss"]
    card, joker = _card(data["card"])
    lost = _tokens(loss)
    if data["equal"] and loss:
        how = f"equal, treated as lower (DB-5 variant): she loses {lost} first"
    elif data["counts_as"] == "lower" and not loss:
        how = "lower, but a lower counterattack costs nothing under these rules"
    elif data["equal"]:
        how = "equal, treated as higher: no loss (DB-5)"
    else:
        how = f"lower, she loses {lost} first" if loss else "not lower: no loss"
    return _said(
        Sentence.of(
            f"{name} counterattacks with the ",
            card,
            f"{' as counter' if joker else ''} ({how}); the attack is cancelled and {name} now attacks (DB-1).",
        )
    )


def _strike(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    side = data["side"]
    why = "declines to answer" if data["declined"] else "cannot answer"
    return _said(
        f"{cast[side]} {why}: {cast[_OTHER[side]]} strikes, {cast[side]} loses {_tokens(data['loss'])} (DB-4)."
    )


def _pass(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    why = "does not attack" if data["declined"] else "has no attack card"
    return _said(f"{cast[data['side']]} {why}; the initiative passes (DB-6).")


def _clash(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    if data.get("ended"):
        return _said("Neither side attacks: the clash ends (DB-6).")
    la, lb = data["lost"]
    return _said(f"Tokens lost in the clash: {cast['a']} {la}, {cast['b']} {lb} (DB-7).")


def _destroyed(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    gone = data["destroyed"]
    if len(gone) == len(SIDES):
        return _said("Both armies have no tokens left: both destroyed, nobody wins (DB-7).")
    return _said(f"{cast[gone[0]]} has no tokens left: destroyed (DB-7).")


def _morale(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    roll, penalty, target = data["roll"], data["penalty"], data["target"]
    needs = "" if target == _DRAFT_TARGET else f" (needs {target})"  # the rulings' own target goes unsaid
    fate = "the army stays (DB-8)." if data["stays"] else "the army retreats (DB-8)."
    rolls = f"{cast[data['side'], 'leader']} rolls Spirit d{data['die']}"
    return _said(f"{rolls}: {roll} - {penalty} for tokens lost = {roll - penalty}{needs}: {fate}")


def _round(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    return _said(f"Round {data['round']}.")


def _end(data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    return _said(f"The battle stops after {count(data['rounds'], 'round')}, the most this battle plays.")


#: Each event kind's narrator.
_TOLD: dict[str, Callable[[Mapping[str, Any], Mapping[Any, str]], Narration]] = {
    "start": _start,
    "recon": _recon,
    "deal": _deal,
    "initiative": _initiative,
    "attack": _attack,
    "defence": _answer("defence"),
    "manoeuvre": _answer("manoeuvre"),
    "counter": _counter,
    "strike": _strike,
    "pass": _pass,
    "clash": _clash,
    "destroyed": _destroyed,
    "morale": _morale,
    "round": _round,
    "end": _end,
}


def narrate(kind: str, data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    """Return the sentence (and, for a private event, what the other side reads) of a
    Durak battle event of ``kind`` with payload ``data`` (docs/event_data.md), naming the
    armies and leaders as ``cast`` does (:func:`cast`).

    Raises:
        ValueError: no Durak battle event is of that kind; the message lists them.
    """
    told = _TOLD.get(kind)
    if told is None:
        raise ValueError(f"a Durak battle has no event of kind {kind!r}; the kinds are: {', '.join(_TOLD)}")
    return told(data, cast)
