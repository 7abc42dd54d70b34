"""Fairy Meat examples state the end of the combat (issue 10 item 6): each fairy's Live
points (FM-10), who suffered Nasty Hits (FM-12), the extra cards still owed (FM-11) and
whether a Wrestling winner gave up the damage to escape (FM-14); every unmet expectation,
an attack's as well, names its line in the file. The expected values are worked out by
hand from the rule text and the draft's worked example, not from a replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.errors import NotationError
from toolkit.fairy_meat.notation import check_expectations, load_example, replay

WORKED = (Path(__file__).resolve().parent.parent / "data" / "examples" / "dizzytwig_v_sparklespaz.yaml").read_text()

#: The draft's worked example ends: Dizzy (3 Live) is never hurt; Sparky (2 Live) takes 2
#: damage and a Nasty Hit in attack 2 (the file's own attack expectations); he kept his
#: attack-1 point as a bonus (FM-11, "score bonus"), so no extra card is owed; no Wrestling.
WORKED_END = "  - {live: {Dizzytwig: 3, Sparklespaz: 0}, nasty_hits: [Sparklespaz], extra_cards: 0, escaped: false}\n"


def with_end(text: str, end: str) -> str:
    return text.rstrip("\n") + "\n" + end


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def problems(text: str) -> list[str]:
    example = load_example(text)
    return check_expectations(example, replay(example))


def test_the_worked_example_meets_its_end():
    assert problems(with_end(WORKED, WORKED_END)) == []


def test_roles_name_the_fairies_too():
    end = "  - {live: {attacker: 3, defender: 0}, nasty_hits: [defender]}\n"
    assert problems(with_end(WORKED, end)) == []


@pytest.mark.parametrize(
    ("end", "says"),
    [
        ("  - {live: {Dizzytwig: 2}}\n", "Dizzytwig ends with 3 Live, the example expects 2"),
        ("  - {live: {Sparklespaz: 1}}\n", "Sparklespaz ends with 0 Live, the example expects 1"),
        ("  - {nasty_hits: []}\n", "Nasty Hits (FM-12) to Sparklespaz, the example expects none"),
        ("  - {nasty_hits: [Dizzytwig]}\n", "Nasty Hits (FM-12) to Sparklespaz, the example expects Dizzytwig"),
        ("  - {extra_cards: 1}\n", "Sparklespaz is owed 0 extra cards (FM-11), the example expects 1"),
        ("  - {escaped: true}\n", "nobody escaped the Wrestling (FM-14), the example expects escaped: true"),
    ],
)
def test_each_missed_end_key_names_its_line(end, says):
    text = with_end(WORKED, end)
    found = problems(text)
    assert found == [f"line {len(text.splitlines())}: {says}"]


def test_a_missed_attack_expectation_names_its_line_too():
    text = WORKED.replace("winner: defender, points: 1", "winner: attacker, points: 1")
    line = line_of(text, "{attack: 1,")
    assert problems(text) == [f"line {line}: attack 1: winner is 'defender', the example expects 'attacker'"]


#: Wrestling (FM-14): Bramble (Kill 1) draws 1 + 1 for attacking = 2 cards, Thistle
#: (Kill 1) 1 card. Both Add: 5 against 9; Thistle wins and gives up the damage to escape,
#: so nobody is hurt: both keep their 2 Live, and no Nasty Hit.
WRESTLING = """\
system: fairy-meat
title: An escape
attacker: {name: Bramble, live: 2, kill: 1}
defender: {name: Thistle, live: 2, kill: 1}
wrestling: true
deck: 5C 6H 9C
moves:
  - Bramble: declare add
  - Thistle: declare add
  - Bramble: trumps none
  - Thistle: trumps none
  - Bramble: play 5C
  - Thistle: play 9C
  - Thistle: escape
expect:
  - {attack: 1, winner: defender, damage: 0}
  - {live: {Bramble: 2, Thistle: 2}, nasty_hits: [], escaped: true}
"""


def test_a_wrestling_escape_meets_its_end():
    assert problems(WRESTLING) == []


def test_a_wrestling_escape_missed():
    text = WRESTLING.replace("escaped: true", "escaped: false").replace("Thistle: 2}", "Thistle: 0}")
    line = len(text.splitlines())
    assert problems(text) == [
        f"line {line}: Thistle ends with 2 Live, the example expects 0",
        f"line {line}: a Wrestling winner gave up the damage to escape (FM-14), the example expects escaped: false",
    ]


#: Two attacks, no Trumps. Attack 1: 4C against 6S, one colour, the higher wins (FM-9):
#: Thistle by 2, 1 point (FM-10), taken as an extra card for her attack back (FM-11 a).
#: Attack 2: 5C against 8H, two colours, the lower wins: Bramble by 3, 2 points, 2 damage:
#: Thistle 2 -> 0 Live; no A♠, no Nasty Hit (FM-12); the extra card is still owed.
EXTRA = """\
system: fairy-meat
title: An extra card owed
attacker: {name: Bramble, live: 3, kill: 2}
defender: {name: Thistle, live: 2, kill: 1}
attacks: 2
deck: 5C 4C 3D  6S 8H
moves:
  - Bramble: declare add
  - Thistle: declare add
  - Bramble: trumps none
  - Thistle: trumps none
  - Bramble: play 4C
  - Thistle: play 6S
  - Thistle: score cards
  - Bramble: trumps none
  - Thistle: trumps none
  - Bramble: play 5C
  - Thistle: play 8H
expect:
  - {attack: 1, winner: defender, points: 1}
  - {attack: 2, winner: attacker, points: 2, damage: 2}
"""


def test_extra_cards_owed_at_the_end():
    assert problems(EXTRA + "  - {extra_cards: 1, live: {Bramble: 3, Thistle: 0}, nasty_hits: []}\n") == []
    text = EXTRA + "  - {extra_cards: 0}\n"
    assert problems(text) == [
        f"line {len(text.splitlines())}: Thistle is owed 1 extra card (FM-11), the example expects 0"
    ]


@pytest.mark.parametrize(
    ("end", "says"),
    [
        ("  - {live: 3}\n", "live is a mapping"),
        ("  - {live: {Pixie: 3}}\n", "names a fairy (Dizzytwig, Sparklespaz, attacker, defender)"),
        ("  - {live: {Dizzytwig: -1}}\n", "live of 'Dizzytwig'"),
        ("  - {nasty_hits: Sparklespaz}\n", "nasty_hits is a list"),
        ("  - {extra_cards: 1.5}\n", "extra_cards"),
        ("  - {escaped: 'no'}\n", "escaped"),
        ("  - {damage: 2}\n", "unknown keys ['damage'] in the end of the combat's"),
        ("  - {}\n", "an expectation is a mapping"),
    ],
)
def test_bad_end_expectations_are_refused_at_their_line(end, says):
    text = with_end(WORKED, end)
    with pytest.raises(NotationError, match=f":{len(text.splitlines())}: .*") as err:
        load_example(text)
    assert says in str(err.value)
