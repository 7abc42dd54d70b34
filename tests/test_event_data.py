"""Events carry data: the payload each engine gives its events, checked against the shipped
examples worked out by hand from the rule text (the expected values are those of the files'
comments and ``expect`` blocks, not of the engine), and the catalogue situations reading it.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from toolkit import systems
from toolkit.engine import Event
from toolkit.errors import ArgumentTypeError
from toolkit.replay import replay_example
from toolkit.rulebook import situation

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def _events(name: str, kind: str) -> list[dict]:
    state = replay_example(EXAMPLES / name).state
    return [dict(e.data) for e in state.events if e.kind == kind]


def test_durak_events_carry_hands_initiative_answers_and_losses():
    """durak_joker_initiative.yaml: the hand-worked rounds (DB-1..DB-7)."""
    name = "durak_joker_initiative.yaml"
    assert _events(name, "start") == [{"tokens": (7, 5)}]
    # Voivode Ilya: d6 with the Wild Die; Hetman Ostap, an Extra: d8 alone (the file's armies).
    assert _events(name, "recon")[:2] == [
        {"side": "a", "roll": 1, "cards": 3, "advantage": 2, "die": 6, "wild": True},  # 1 + 2 for outnumbering (DB-2)
        {"side": "b", "roll": 3, "cards": 3, "advantage": 0, "die": 8, "wild": False},
    ]
    # North (originally attacked) first: Spirit d8, 7 - 3 = 4 stays; South d10, 8 - 3 stays (DB-8).
    assert _events(name, "morale")[:2] == [
        {"side": "a", "roll": 7, "penalty": 3, "stays": True, "die": 8, "target": 4},
        {"side": "b", "roll": 8, "penalty": 3, "stays": True, "die": 10, "target": 4},
    ]
    assert _events(name, "round")[0] == {"round": 2}
    assert [(d["side"], d["cards"]) for d in _events(name, "deal")] == [
        ("a", ("JK1", "5S", "7H")),
        ("b", ("JK2", "9S", "4D")),
        ("a", ("JK2", "3H", "6D", "10C")),
        ("b", ("JK1", "2H")),
    ]
    # Round 1: joker against joker, 9S beats 5S (DB-3); round 2: a coin.
    assert _events(name, "initiative") == [
        {"decided": "next_card", "holder": "b", "card": "JK2", "next_card": "9S"},
        {"decided": "coin", "holder": "b"},
    ]
    assert [(d["card"], d["succeeded"], d["attacker_loss"], d["defender_loss"]) for d in _events(name, "defence")] == [
        ("JK1", True, 2, 1),  # South -2, North -1 (DB-1)
        ("7H", False, 1, 2),  # South -1, North -2
        ("JK2", True, 2, 1),
    ]
    # The joker counter is higher than the 5: no loss (DB-5).
    assert _events(name, "counter") == [
        {"side": "b", "card": "JK2", "against": "5S", "equal": False, "counts_as": "higher", "loss": 0}
    ]
    # South passes by choice; then neither holds an attack card (DB-6).
    assert [(d["side"], d["declined"]) for d in _events(name, "pass")] == [("b", True), ("b", False), ("a", False)]


def test_angry_miniatures_events_carry_faces_and_the_judgement():
    """grunk_charges_pixie.yaml: a melee charge, 5 dice against 2 (AM-2, AM-9), 2 hits each,
    level down the chain (Aces 0, Kings 1, Queens 1, Jacks 0 each), a SuperTieBreaker
    rerolled once and won by Pixie, who deals exactly 1 damage back in melee (AM-1, AM-4)."""
    name = "grunk_charges_pixie.yaml"
    assert _events(name, "start") == [
        {"attack_type": "melee", "defenders": ("Pixie",), "attack_dice": 5, "defence_dice": (2,)}
    ]
    assert _events(name, "roll") == [
        {"side": "Grunk", "roll": "melee", "faces": ("K", "Q", "10", "9", "9"), "hits": 2},
        {"side": "Pixie", "roll": "defence", "faces": ("K", "Q"), "hits": 2},
    ]
    assert _events(name, "hits") == [{"attack_hits": 2, "defence_hits": 2}]
    level = [("A", 0), ("K", 1), ("Q", 1), ("J", 0)]
    assert _events(name, "tie_break") == [
        {"step": "tie", "hits": 2},
        *({"step": "face", "face": f, "attack_count": n, "defence_count": n, "winner": None} for f, n in level),
        {"step": "super_tiebreak"},
    ]
    assert _events(name, "super_tiebreak") == [
        {"faces": ("A", "A"), "defender": "Pixie", "winner": None},
        {"faces": ("9", "K"), "defender": "Pixie", "winner": "defender"},
    ]
    assert _events(name, "damage") == [
        {
            "defender": "Pixie",
            "attack_hits": 2,
            "defence_hits": 2,
            "decided_by": "super_tiebreak",
            "winner": "defender",
            "damage": 0,
            "damage_back": 1,
            "tie_damage": 1,  # AM-4: a won tie deals exactly 1
        }
    ]


def test_fairy_meat_events_carry_hands_plays_draws_and_points():
    """dizzytwig_v_sparklespaz.yaml: Sparklespaz keeps 1 point, defends with it as a black
    Wild Trump point, turns up A♠, J♥ and his Numbered 3♥, and goes down (FM-6..FM-11)."""
    name = "dizzytwig_v_sparklespaz.yaml"
    assert _events(name, "deal") == [
        {"side": "attacker", "cards": ("KS", "QC", "5C", "4C", "3D")},
        {"side": "defender", "cards": ("2D", "KC")},
    ]
    assert _events(name, "play") == [
        {"plays": ("play", "play"), "cards": ("3D", "2D")},
        {"plays": ("play", "points"), "cards": ("5C", None)},
    ]
    assert [(d["card"], d["numbered"]) for d in _events(name, "draw")] == [("AS", False), ("JH", False), ("3H", True)]
    assert _events(name, "score") == [{"side": "defender", "score": "bonus", "points": 1}]
    assert [d for d in _events(name, "trumps") if "wild_points" in d] == [
        {"side": "defender", "wild_points": 1, "colour": "black"}
    ]
    assert _events(name, "down") == [{"side": "defender", "fairy": "Sparklespaz"}]


def test_one_wild_trump_point_is_wild_trump_points():
    """FM-7: a single point used as a Wild Trump point is the situation too (the text says
    "1 black Wild Trump point", which a match on the plural words missed)."""
    state = replay_example(EXAMPLES / "dizzytwig_v_sparklespaz.yaml").state
    assert situation("fairy-meat", "wild_trump_points").shows(state)
    assert situation("fairy-meat", "wild_trump_turns_up_ace_of_spades").shows(state)
    assert not situation("fairy-meat", "wild_trump_played").shows(state)  # he turned cards up (FM-7)


def test_event_data_is_frozen_and_checked():
    e = Event("deal", "North draws 2 cards.", data={"cards": ["7S", "QD"], "side": "a"})
    assert e.data["cards"] == ("7S", "QD") and hash(e) == hash(Event("deal", "North draws 2 cards.", data=e.data))
    with pytest.raises(TypeError):
        e.data["side"] = "b"  # type: ignore[index]
    with pytest.raises(ArgumentTypeError, match="event data must be a mapping"):
        Event("deal", "x", data=["cards"])  # type: ignore[arg-type]
    assert dict(Event("round", "Round 2.").data) == {}


def _documented() -> dict[tuple[str, str], set[str]]:
    """(system, kind) -> the names in that row of docs/event_data.md's tables."""
    sections = {"Fairy Meat": "fairy-meat", "Durak battle": "durak-battle", "Angry Miniatures": "angry-miniatures"}
    rows: dict[tuple[str, str], set[str]] = {}
    system = ""
    for line in (EXAMPLES.parents[1] / "docs" / "event_data.md").read_text().splitlines():
        if line.startswith("## "):
            system = next(v for k, v in sections.items() if line[3:].startswith(k))
        elif system and line.startswith("| `"):
            kinds, words = line.split("|")[1:3]
            for kind in re.findall(r"`([^`]+)`", kinds):
                rows[(system, kind)] = set(re.findall(r"`([^`]+)`", words))
    return rows


@pytest.mark.parametrize("system", ["fairy-meat", "durak-battle", "angry-miniatures"])
def test_every_payload_key_is_documented(system):
    """docs/event_data.md names every key an event of each kind carries, on random games."""
    documented = _documented()
    entry = systems.system(system)
    games = itertools.islice(entry.hook("searcher").candidates(entry.rules_class()(), {}, random.Random(4)), 200)
    seen = set()
    for state in games:
        for e in state.events:
            for key in e.data:
                seen.add((e.kind, key))
                assert key in documented.get((system, e.kind), ()), (e.kind, key)
    assert len(seen) >= 10  # the games reach many kinds of event
