"""Fairy Meat's narrator: every log line of a combat rendered from its event's data.

The engine and the referee decide what happens and put it in each event's ``data``
(``docs/event_data.md``, sides ``attacker`` and ``defender``); this module only words
it: :func:`narrate` turns ``(kind, data, cast)`` into the sentence a rule book prints,
with the cards it shows marked, and — for an event meant for one fairy's eyes (her hand
as dealt, FM-2; the Trumps she keeps hidden, FM-5) — the sentence the other reads. The
cast (:func:`cast`) says how the sentences call each side: her name and her pronoun
(``Fairy.pronoun``, as the designer calls her).

>>> fairies = cast_of(("Dizzytwig", "Sparklespaz"), ("she", "he"))
>>> narrate("declare", {"side": "defender", "declared": "add"}, fairies).text.text
'Sparklespaz declares he will add Trumps (FM-3).'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from toolkit.cards import Card
from toolkit.engine import GameState, Sentence
from toolkit.fairy_meat.rules import PRONOUNS, Voice
from toolkit.narration import Narration
from toolkit.numbers import count

__all__ = ["Character", "cast", "cast_of", "narrate"]

SIDES = ("attacker", "defender")

#: What a Trump applied in an attack is written after its code, by how it came to be
#: applied (the referee's ``(card, how)`` units: FM-4 placed, FM-6 Wild Trump or turned up).
_HOW = {"placed": "", "wild": " (Wild Trump)", "turned_up": " (turned up)"}

#: The label of a Wild Trump point applied (FM-7): it shows no card.
_POINT = Sentence("Wild Trump point")

_NONE = Sentence("none")
_SEMICOLON = Sentence("; ")
_COMMA = Sentence(", ")


@dataclass(frozen=True)
class Character:
    """How the narration calls one fairy: her name and her pronoun's forms."""

    name: str
    voice: Voice


@lru_cache(maxsize=256)
def cast_of(names: tuple[str, str], pronouns: tuple[str, str] = ("she", "she")) -> Mapping[str, Character]:
    """Return the cast of a combat between fairies called ``names`` (attacker, defender)
    with ``pronouns`` (``"she"``, ``"he"``, ``"they"``): each side's :class:`Character`,
    keyed ``attacker`` and ``defender``."""
    return MappingProxyType(
        {side: Character(name, Voice(*PRONOUNS[p])) for side, name, p in zip(SIDES, names, pronouns, strict=True)}
    )


def cast(state: GameState) -> Mapping[str, Character]:
    """Return how the sentences of a combat call its two fairies (:func:`cast_of`)."""
    a, d = state.fairies  # type: ignore[attr-defined]
    return cast_of((a.name, d.name), (a.pronoun, d.pronoun))


@lru_cache(maxsize=128)
def _card_name(code: str) -> Sentence:
    return Sentence.card_name(Card(code))


def _cards_shown(codes: Sequence[str]) -> Sentence:
    """The cards by their codes, each marked (the rule-book export draws them), or "none"."""
    return Sentence.listing("card", codes) if codes else _NONE


def _label(unit: tuple[str | None, str]) -> Sentence:
    card, how = unit
    return _POINT if card is None else Sentence.of(Sentence.card_code(card), _HOW[how])


def _labels(units: Sequence[tuple[str | None, str]]) -> Sentence:
    """The applied Trumps, repeated labels grouped so the text reads ("3 Wild Trump
    points", not "Wild Trump point, Wild Trump point, Wild Trump point")."""
    seen: dict[Sentence, int] = {}
    for u in units:
        label = _label(u)
        seen[label] = seen.get(label, 0) + 1
    return _COMMA.join(label if n == 1 else count(n, label.text) for label, n in seen.items())


Cast = Mapping[str, Character]
Data = Mapping[str, Any]


# -- the combat's steps (the engine's events) ------------------------------------------
def _start(d: Data, c: Cast) -> str:
    a, b = c["attacker"], c["defender"]
    live, kill, sizes = d["live"], d["kill"], d["hand_sizes"]
    kind = "Wrestling" if d["wrestling"] else "Combat"
    return (
        f"{kind}: {a.name} ({live[0]} Live, {kill[0]} Kill, {d['weapon']}) attacks {b.name} ({live[1]} Live, "
        f"{kill[1]} Kill): {count(sizes[0], 'card')} against {sizes[1]}, {count(d['attacks'], 'attack')} (FM-2)."
    )


def _deal(d: Data, c: Cast) -> Narration:
    cards = d["cards"]
    drawn = f"{c[d['side']].name} draws {count(len(cards), 'card')}"
    return Narration(Sentence.of(f"{drawn}: ", _cards_shown(cards), "."), Sentence(f"{drawn}."))


def _draw(d: Data, c: Cast) -> Sentence:
    who = c[d["side"]]
    her = who.voice.possessive
    what = f": {her} Numbered card (FM-6)." if d["numbered"] else f": a Trump, it joins {her} Trumps (FM-6)."
    return Sentence.of(f"{who.name} turns up the ", _card_name(d["card"]), what)


def _declare(d: Data, c: Cast) -> str:
    who = c[d["side"]]
    return f"{who.name} declares {who.voice.subject} will {d['declared']} Trumps (FM-3)."


def _trumps(d: Data, c: Cast) -> str | Sentence:
    if "wild_points" in d:  # FM-7: a defender with no cards defends with her points
        who = c[d["side"]]
        wild = count(d["wild_points"], f"{d['colour']} Wild Trump point")
        return f"{who.name} has no cards: {who.voice.possessive} points become {wild} (FM-7)."
    if "revealed" in d:  # FM-5: the other side played a Trump, so she has not said None
        owner = d["revealed"]
        other = c[SIDES[1 - SIDES.index(owner)]]
        v = other.voice
        return Sentence.of(
            f"{other.name} plays Trumps, so {v.subject} {v.verb('has', 'have')} not said None: "
            f"{c[owner].name}'s face-down Trumps are revealed: ",
            _cards_shown(d["cards"]),
            " (FM-5).",
        )
    parts: list[str | Sentence] = []  # FM-4: both sides' Trumps turned face up (or kept hidden, FM-5)
    for i, side in enumerate(SIDES):
        name, shown = c[side].name, d["shown"][i]
        if side == d["hidden"]:
            n = d["face_down"]
            stay = "it stays" if n == 1 else "they stay"
            parts.append(f"{name} places {count(n, 'Trump')} face down, and {stay} hidden (FM-5)")
        elif shown:
            parts.append(Sentence.of(f"{name} reveals ", _cards_shown(shown)))
        elif not (i == 1 and d["wild_colour"]):
            parts.append(f"{name} says None")
    return Sentence.of(f"Attack {d['attack']}: ", _SEMICOLON.join(parts), " (FM-4).")


def _play(d: Data, c: Cast) -> Sentence:
    parts: list[str | Sentence] = []
    for side, kind, card in zip(SIDES, d["plays"], d["cards"], strict=True):
        who = c[side]
        if kind == "play" and card is not None:
            parts.append(Sentence.of(f"{who.name} the ", _card_name(card)))
        elif kind == "wild" and card is not None:
            parts.append(
                Sentence.of(f"{who.name} has none and plays the ", _card_name(card), " as a Wild Trump (FM-6)")
            )
        elif kind == "points":
            parts.append(f"{who.name} has none and turns up cards with {who.voice.possessive} Wild Trump points (FM-7)")
        elif kind == "blind":
            parts.append(f"{who.name} is undefended and turns up cards blind (FM-7)")
        elif kind == "unopposed":
            parts.append(f"{who.name} is undefended (FM-7 variant: unopposed)")
    return Sentence.of("Numbered cards revealed: ", _SEMICOLON.join(parts), ".")


def _score(d: Data, c: Cast) -> str:
    who, points = c[d["side"]], d["points"]
    v = who.voice
    if d["score"] == "bonus":
        return f"{who.name} keeps {v.possessive} {count(points, 'point')} for {v.possessive} next defence (FM-11)."
    if d["score"] == "no_effect":
        return (
            f"{who.name} takes extra cards, but {v.subject} {v.verb('has', 'have')} already attacked this round: "
            "no effect (FM-11)."
        )
    other = c[SIDES[1 - SIDES.index(d["side"])]]
    return (
        f"{who.name} will draw {count(points, 'extra card')} when {v.subject} {v.verb('attacks')} {other.name} "
        "back (FM-11)."
    )


def _down(d: Data, c: Cast) -> str:
    fallen = c[d["side"]]
    v = fallen.voice
    return f"{fallen.name} has no Live points left: {v.subject} {v.verb('is', 'are')} down."


def _end(d: Data, c: Cast) -> str:
    if d.get("attacks_lost"):
        a = c["attacker"]
        return f"{a.name} has no cards left: {a.voice.possessive} remaining attacks are lost (FM-13)."
    return "The combat is over."


# -- the referee's explanation of one attack (``resolve`` events, by ``step``) ---------------
def _none_rule(d: Data, c: Cast) -> Narration:
    owner, shown, kept = d["side"], d["revealed"], d["kept"]
    who, other = c[owner].name, c[SIDES[1 - SIDES.index(owner)]].name
    head = (
        f"{other} said None, so {who}'s face-down Trumps stayed hidden; {who} ",
        Sentence.of("reveals ", Sentence.listing("card", shown, ", ")) if shown else "reveals none",
    )
    if not (kept and shown):
        return Narration(Sentence.of(*head, " (FM-5)."))
    # FM-5: the Trumps she keeps hidden are named for her eyes only
    clause = Sentence.of(" and keeps ", Sentence.listing("card", kept, ", "), " hidden")
    return Narration(Sentence.of(*head, clause, " (FM-5)."), Sentence.of(*head, " (FM-5)."))


def _value(d: Data, c: Cast) -> Sentence:
    direction = d["direction"]
    pieces: list[str | Sentence] = [f"{c[d['side']].name} plays the ", _card_name(d["card"]), f" ({d['colour']})"]
    if d["matching"]:
        sign = "+" if direction == "add" else "-"
        pieces += [
            "; matching Trumps ",
            _labels(d["matching"]),
            f" apply {sign}{d['trump_total']} ({direction}, FM-8): {d['with_trumps']}",
        ]
    if d["bonus"]:
        pieces.append(f"; the bonus of {count(d['bonus'], 'point')} applies ({direction}, FM-11): {d['value']}")
    return Sentence.of(*pieces, ".")


def _colours(d: Data, c: Cast) -> str:
    ca, cd = d["colours"]
    if ca == cd:
        return f"Both Numbered cards are {ca}: the {d['wins']} value wins (FM-9)."
    return f"The Numbered cards are of different colours: the {d['wins']} value wins (FM-9)."


def _cheat(d: Data, c: Cast) -> Sentence:
    n, (x, y) = len(d["cheats"]), d["shift"]
    return Sentence.of(
        f"{c[d['side']].name} is a Naughty Little Cheating fairy: ",
        _labels(d["cheats"]),
        f" {'does' if n == 1 else 'do'} not match the ",
        _card_name(d["card"]),
        f", so {c[d['chooser']].name} moves {c['attacker'].name}'s value {x:+d} and "
        f"{c['defender'].name}'s {y:+d} (FM-8).",
    )


def _final(d: Data, c: Cast) -> str:
    va, vd = d["values"]
    return f"Final values: {c['attacker'].name} {va}, {c['defender'].name} {vd}."


def _share(difference: int, divisor: int, points: int) -> str:
    """FM-10's points in words: ``'half of 5, rounded up, is 3 points'`` (the draft's
    divisor 2), ``'6 points'`` (divisor 1), ``'7 divided by 3, rounded up, is 3 points'``."""
    if divisor == 1:
        return count(points, "point")
    part = "half of" if divisor == 2 else ""
    whole = f"{part} {difference}" if part else f"{difference} divided by {divisor}"
    rounded = "" if difference % divisor == 0 else ", rounded up,"
    return f"{whole}{rounded} is {count(points, 'point')}"


def _wins(d: Data, c: Cast) -> str:
    diff = d["difference"]
    return f"{c[d['winner']].name} wins by {diff}: {_share(diff, d['divisor'], d['points'])} (FM-10)."


def _escape(d: Data, c: Cast) -> str:
    return (
        f"{c[d['winner']].name} forgoes the damage and escapes the brawl: {c[d['loser']].name} takes no damage (FM-14)."
    )


def _damage(d: Data, c: Cast) -> str:
    how = {"table": "by the damage table, ", "points": "1 per point, ", None: ""}[d["by"]]
    return f"{c[d['side']].name} takes {d['damage']} damage ({how}FM-10)."


def _nasty_hit(d: Data, c: Cast) -> Sentence:
    code = d["death_card"]
    death = _card_name(code) if code else "death card"
    if not d["to"]:
        return Sentence.of("The ", death, " was applied, but nobody takes damage: no Nasty Hit (FM-12).")
    hit = " and ".join(c[s].name for s in d["to"])
    return Sentence.of(
        "The ", death, f" was applied: {hit} {'suffers' if len(d['to']) == 1 else 'suffer'} a Nasty Hit (FM-12)."
    )


def _unopposed_value(d: Data, c: Cast) -> str:
    a = c["attacker"].name
    return f"{a}'s value is {d['value']}: {a} wins: {_share(d['difference'], d['divisor'], d['points'])}."


_Words = Callable[[Data, Cast], "str | Sentence | Narration"]

#: The referee's explanation steps (``resolve`` events), by the data's ``step``.
_STEPS: dict[str, _Words] = {
    "none_rule": _none_rule,
    "value": _value,
    "colours": _colours,
    "cheat": _cheat,
    "final": _final,
    "draw": lambda d, c: "Equal values: a draw, no points (FM-9).",
    "wrestling_draw": lambda d, c: f"Wrestling: a draw deals {d['damage']} damage to each (FM-14).",
    "wins": _wins,
    "escape": _escape,
    "wrestling_damage": lambda d, c: f"Wrestling: {c[d['loser']].name} takes {d['damage']} damage (FM-14).",
    "damage": _damage,
    "scores": lambda d, c: f"{c[d['side']].name} scores {count(d['points'], 'point')} to use as FM-11 allows.",
    "nasty_hit": _nasty_hit,
    "unopposed": lambda d, c: f"{c['defender'].name} has no card and no points: unopposed (FM-7 variant).",
    "unopposed_value": _unopposed_value,
}


def _resolve(d: Data, c: Cast) -> str | Sentence | Narration:
    words = _STEPS.get(d.get("step", ""))
    if words is None:
        raise ValueError(f"a Fairy Meat explanation has no step {d.get('step')!r}; the steps are {', '.join(_STEPS)}")
    return words(d, c)


#: Each kind of event, its sentence.
_KINDS: dict[str, _Words] = {
    "start": _start,
    "deal": _deal,
    "draw": _draw,
    "declare": _declare,
    "trumps": _trumps,
    "play": _play,
    "resolve": _resolve,
    "score": _score,
    "down": _down,
    "end": _end,
}


def narrate(kind: str, data: Mapping[str, Any], cast: Mapping[str, Character]) -> Narration:
    """Return the sentence of a Fairy Meat event of ``kind`` whose payload is ``data``
    (``docs/event_data.md``), the sides called as ``cast`` says (:func:`cast`), and, for
    an event meant for one fairy's eyes, what the other reads (FM-2, FM-5).

    Raises:
        ValueError: a kind (or an explanation step) Fairy Meat has not, naming those it has.
    """
    words = _KINDS.get(kind)
    if words is None:
        raise ValueError(f"Fairy Meat has no event of kind {kind!r}; the kinds are {', '.join(_KINDS)}")
    told = words(data, cast)
    if type(told) is Narration:
        return told
    return Narration(Sentence.of(told))  # type: ignore[arg-type]
