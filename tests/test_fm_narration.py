"""Fairy Meat's narration is rendered from event data (FM-2..FM-14): the draft's worked
example carries, in each event's data, what its sentence says (the values worked out by
hand below from the rule text, as the example file's comments and ``expect`` do), and the
narrator words any data it is given, with any cast, the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.engine import EventData, Sentence
from toolkit.fairy_meat.narration import cast, cast_of, narrate
from toolkit.fairy_meat.referee import Play, resolve_attack, wrestling_damage
from toolkit.fairy_meat.rules import Rules
from toolkit.replay import replay_example

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "dizzytwig_v_sparklespaz.yaml"


def _data(kind: str) -> list[dict]:
    return [dict(e.data) for e in replay_example(EXAMPLE).state.events if e.kind == kind]


def test_the_start_carries_the_setup():
    """FM-2: Dizzytwig 4 Kill + 1 (Vibro-Master) + 1 (attacking) - 1 (Fluttered) = 5 cards;
    Sparklespaz 1 Kill + 1 (defending) + 1 (Order Card) - 1 (Vibro-Master) = 2; 2 attacks."""
    assert _data("start") == [
        {
            "wrestling": False,
            "live": (3, 2),
            "kill": (4, 1),
            "weapon": "Vibro-Master",
            "hand_sizes": (5, 2),
            "attacks": 2,
        }
    ]


def test_the_trumps_turned_up_are_in_the_data():
    """FM-4: in the first attack both place Trumps, so nobody's stay hidden (FM-5); in the
    second Dizzytwig says None and Sparklespaz's point is a black Wild Trump point (FM-7)."""
    announced = [d for d in _data("trumps") if "attack" in d]
    assert announced == [
        {"attack": 1, "shown": (("KS", "QC"), ("KC",)), "hidden": None, "face_down": 0, "wild_colour": None},
        {"attack": 2, "shown": ((), ()), "hidden": None, "face_down": 0, "wild_colour": "black"},
    ]


def test_the_referee_explanation_is_data():
    """Attack 1: 3♦ against 2♦, both red so the highest wins (FM-9); every Trump cheats
    (FM-8): Sparklespaz moves Dizzytwig -2 and himself +2 with KS QC, Dizzytwig moves
    +1/-1 with KC: 3 - 2 + 1 = 2 against 2 + 2 - 1 = 3; he wins by 1, half of 1, rounded up, is 1 point.
    Attack 2: 5♣ against 3♥ with J♥ turned up (+1, matching); A♠ and his black point
    cheat: lowest wins (different colours), so Dizzytwig moves herself -2 and him +2:
    3 against 6, she wins by 3, 2 points, 2 damage, and the A♠ gives him a Nasty Hit (FM-12)."""
    told = _data("resolve")
    steps = [d.pop("step") for d in told]
    assert steps == [
        *("value", "value", "colours", "cheat", "cheat", "final", "wins", "scores"),
        *("value", "value", "colours", "cheat", "final", "wins", "damage", "nasty_hit"),
    ]
    first, second = told[:8], told[8:]
    no_trumps = {"matching": (), "trump_total": 0, "bonus": 0}
    assert first[:2] == [
        {"side": "attacker", "card": "3D", "colour": "red", "direction": "subtract", "with_trumps": 3, "value": 3}
        | no_trumps,
        {"side": "defender", "card": "2D", "colour": "red", "direction": "add", "with_trumps": 2, "value": 2}
        | no_trumps,
    ]
    assert first[2:] == [
        {"colours": ("red", "red"), "wins": "highest"},
        {
            "side": "attacker",
            "cheats": (("KS", "placed"), ("QC", "placed")),
            "card": "3D",
            "chooser": "defender",
            "shift": (-2, 2),
        },
        {"side": "defender", "cheats": (("KC", "placed"),), "card": "2D", "chooser": "attacker", "shift": (1, -1)},
        {"values": (2, 3)},
        {"winner": "defender", "difference": 1, "divisor": 2, "points": 1},
        {"side": "defender", "points": 1},
    ]
    assert second[1] == {
        "side": "defender",
        "card": "3H",
        "colour": "red",
        "direction": "add",
        "matching": (("JH", "turned_up"),),
        "trump_total": 1,
        "with_trumps": 4,
        "bonus": 0,
        "value": 4,
    }
    assert second[2:] == [
        {"colours": ("black", "red"), "wins": "lowest"},
        {
            "side": "defender",
            "cheats": (("AS", "turned_up"), (None, "point")),
            "card": "3H",
            "chooser": "attacker",
            "shift": (-2, 2),
        },
        {"values": (3, 6)},
        {"winner": "attacker", "difference": 3, "divisor": 2, "points": 2},
        {"side": "defender", "damage": 2, "by": "points"},
        {"death_card": "AS", "to": ("defender",)},
    ]


def test_the_cast_names_the_sides_and_nothing_else_does():
    """The same data with another cast: only the names and pronouns change (FM-3, FM-10)."""
    state = replay_example(EXAMPLE).state
    assert cast(state)["defender"].name == "Sparklespaz" and cast(state)["defender"].voice.subject == "he"
    others = cast_of(("Ann", "Bo"), ("she", "they"))
    declared = narrate("declare", {"side": "defender", "declared": "add"}, others)
    assert declared.text == Sentence("Bo declares they will add Trumps (FM-3).")
    down = narrate("down", {"side": "defender", "fairy": "Bo"}, others)
    assert down.text.text == "Bo has no Live points left: they are down."
    for event in state.events:
        again = narrate(event.kind, event.data, others).text.text
        assert "Dizzytwig" not in again and "Sparklespaz" not in again, event.kind


def test_the_trumps_she_keeps_hidden_are_named_for_her_alone():
    """FM-5 with Rules(none_reveal="subset"): the defender says None, the attacker reveals
    KC and keeps QC hidden; the other side reads the sentence without the kept card."""
    result = resolve_attack(
        Play("9C", trumps=("KC", "QC")),
        Play("4H"),
        Rules(none_reveal="subset"),
        reveal={"attacker": ["KC"]},
        names=("Ann", "Bo"),
    )
    note = result.explanation[0]
    assert note.ruling == "FM-5" and note.private_to == "attacker"
    assert dict(note.data) == {"step": "none_rule", "side": "attacker", "revealed": ("KC",), "kept": ("QC",)}
    told = narrate("resolve", note.data, cast_of(("Ann", "Bo")))
    head = "Bo said None, so Ann's face-down Trumps stayed hidden; Ann reveals KC"
    assert told.text.text == f"{head} and keeps QC hidden (FM-5)."
    assert told.public.text == f"{head} (FM-5)." and [m.code for m in told.public.marks] == ["KC"]
    assert result.lines[0] == told.text  # the result's lines are the same rendering


def test_an_unknown_kind_or_step_names_those_there_are():
    with pytest.raises(ValueError, match=r"no event of kind 'roll'.*declare"):
        narrate("roll", {}, cast_of(("Ann", "Bo")))
    with pytest.raises(ValueError, match=r"no step 'tie'.*cheat"):
        narrate("resolve", {"step": "tie"}, cast_of(("Ann", "Bo")))


def test_a_wrestling_draw_says_the_damage_the_rule_deals():
    """FM-14: a Wrestling draw deals 1 damage to each (the rule text); the step carries that
    number from ``wrestling_damage`` and the sentence reads it from the data."""
    assert wrestling_damage(None, 0, False, Rules()) == (1, 1)
    told = narrate("resolve", EventData(step="wrestling_draw", damage=1), {})
    assert told.text.text == "Wrestling: a draw deals 1 damage to each (FM-14)."
