"""The Angry Miniatures narrator: every line of an attack's log rendered from its event's data.

The engine (:mod:`.engine`) and the referee (:mod:`.referee`) decide what happened and
put it in each event's data (faces, hits, the tie-break step, damage; keys in
``docs/event_data.md``); this module only words it. Characters are named in the data by
their names, and the role words ``"attacker"``/``"defender"`` (a winner) by the cast: the
attacker's name (one attack has one attacker; in a magic area each judged defender is named
by her event, AM-8).

>>> cast = {"attacker": "Grunk"}
>>> narrate("roll", {"side": "Grunk", "roll": "melee", "faces": ("K", "9"), "hits": 1}, cast).text.text
'Grunk rolls 2 dice for a melee attack: K 9 — 1 hit.'
>>> narrate("tie_break", {"step": "face", "face": "K", "attack_count": 1, "defence_count": 0,
...                       "winner": "attacker"}, cast).text.text
'Kings: attacker 1, defender 0 — the attacker wins the tie (AM-4).'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from toolkit.angry_miniatures.rules import FACE_PLURALS
from toolkit.engine import GameState, Sentence
from toolkit.narration import Narration
from toolkit.numbers import count

__all__ = ["cast", "narrate"]

Data = Mapping[str, Any]
Cast = Mapping[str, str]


def cast(state: GameState) -> dict[str, str]:
    """Return how the sentences call the attacker of an attack state (``{"attacker":
    "Grunk"}``); defenders are named by the events that concern them."""
    return {"attacker": state.attacker.name}  # type: ignore[attr-defined]


def _start(data: Data, cast: Cast) -> str:
    whom = ", ".join(data["defenders"])
    dice = ", ".join(str(n) for n in data["defence_dice"])
    attack = count(data["attack_dice"], "attack die")
    return f"{cast['attacker']} makes a {data['attack_type']} attack on {whom}: {attack} against {dice} (AM-2)."


def _roll(data: Data, cast: Cast) -> Sentence:
    faces, what = data["faces"], data["roll"]
    what = "defence" if what == "defence" else f"a {what} attack"
    shown = Sentence.listing("die", faces) if faces else "no dice"
    return Sentence.of(
        f"{data['side']} rolls {count(len(faces), 'die')} for {what}: ", shown, f" — {count(data['hits'], 'hit')}."
    )


def _target(data: Data, cast: Cast) -> str:
    return f"Against {data['defender']}:"


def _hits(data: Data, cast: Cast) -> str:
    return f"Hits: attacker {data['attack_hits']}, defender {data['defence_hits']}."


def _tie_break(data: Data, cast: Cast) -> str:
    step = data["step"]
    if step == "more_hits":
        return f"The {data['winner']} has more hits (AM-3)."
    if step == "zero_hits":
        if data["zero_tie"] == "miss":
            return "Both rolled 0 hits: the attack misses, nobody takes damage (AM-5)."
        return "Both rolled 0 hits: a SuperTieBreaker decides (AM-5 variant)."
    if step == "tie":
        return f"Tie on {count(data['hits'], 'hit')}: superiority decides (AM-4)."
    if step == "coin_flip":
        return "tie_break='coin_flip': no dice are read, a SuperTieBreaker (a fair coin) decides."
    if step == "face":
        name, na, nd = FACE_PLURALS[data["face"]], data["attack_count"], data["defence_count"]
        if data["winner"] is None:
            return f"{name}: {na} each, still tied."
        return f"{name}: attacker {na}, defender {nd} — the {data['winner']} wins the tie (AM-4)."
    if step == "super_tiebreak":
        return "Every step tied: SuperTieBreaker — each side discards all dice and rolls one (AM-4)."
    raise ValueError(
        f"a tie_break step is one of more_hits, zero_hits, tie, coin_flip, face, super_tiebreak; got {step!r}"
    )


def _super_tiebreak(data: Data, cast: Cast) -> Sentence:
    a, d = data["faces"]
    winner = data["winner"]
    return Sentence.of(
        f"SuperTieBreaker: {cast['attacker']} rolls ",
        Sentence.die(a),
        f", {data['defender']} rolls ",
        Sentence.die(d),
        " — equal, both reroll (AM-4)." if winner is None else f" — the {winner} wins (AM-4).",
    )


def _damage(data: Data, cast: Cast) -> str:
    attacker, defender = cast["attacker"], data["defender"]
    dd, ad, won = data["damage"], data["damage_back"], data["winner"]
    tied = data["attack_hits"] == data["defence_hits"]
    if dd:
        how = f"wins the tie and deals exactly {dd} damage" if tied else f"deals {dd} damage"
        return f"{attacker} {how} to {defender}."
    if ad:
        how = f"wins the tie and deals {ad} damage back" if tied else f"deals {ad} damage back"
        return f"{defender} {how} to {attacker} (melee)."
    if data["decided_by"] == "zero_hits":
        return f"The attack on {defender} misses."
    if tied and won is not None and data["tie_damage"] == 0:
        who = attacker if won == "attacker" else defender
        return f"{who} wins the tie, which deals no damage (tie_damage=0, AM-4)."
    return f"The attack on {defender} fails; no damage."


def _crit(data: Data, cast: Cast) -> str:
    words = f"{data['crit_count']}+ " + " or ".join(FACE_PLURALS[f] for f in reversed(data["crit_faces"]))
    if data["counts"]:
        return f"{data['character']} crits ({words}, AM-7)."
    return f"{data['character']} rolled {words} but has already crit this turn: no crit (AM-7)."


def _out(data: Data, cast: Cast) -> str:
    return f"{data['character']} has taken {data['damage']} damage with Health {data['health']}: out (AM-10)."


#: Each event kind's sentence.
_SENTENCES: dict[str, Callable[[Data, Cast], str | Sentence]] = {
    "start": _start,
    "roll": _roll,
    "target": _target,
    "hits": _hits,
    "tie_break": _tie_break,
    "super_tiebreak": _super_tiebreak,
    "damage": _damage,
    "crit": _crit,
    "out": _out,
}


def narrate(kind: str, data: Data, cast: Cast) -> Narration:
    """Return the sentence of an Angry Miniatures event of ``kind`` with payload ``data``
    (every side reads it: an attack has no hidden information).

    Raises:
        ValueError: a kind that is not an Angry Miniatures event.
    """
    try:
        sentence = _SENTENCES[kind]
    except KeyError:
        raise ValueError(
            f"an Angry Miniatures attack has no event of kind {kind!r}; its kinds are {', '.join(_SENTENCES)}"
        ) from None
    told = sentence(data, cast)
    return _unmarked(told) if type(told) is str else Narration(told)


@lru_cache(maxsize=1024)
def _unmarked(text: str) -> Narration:
    """The narration of a sentence that shows no die, built once per distinct text (the
    engine logs the same few on every branch it visits)."""
    return Narration(Sentence.of(text))
