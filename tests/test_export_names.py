"""The rule-book export draws the cards and dice the referee marked on each event, never
what the narration's words look like (issue 20 item 7).

A character or an army may be called ``QH``, ``10S``, ``KH``, ``Joker`` or ``A``: the
export of an example with such names must draw exactly the pictures of the same example
with plain names, in the same places. The expected counts are read off the narration by
hand (see each count's comment); rewording the engine's sentences changes no picture.
"""

from __future__ import annotations

import pickle
import re

import pytest

from toolkit.cards import Card
from toolkit.durak_battle.engine import start_battle
from toolkit.durak_battle.rules import Army, Leader
from toolkit.engine import Event, EventData, Mark, Sentence
from toolkit.errors import ArgumentTypeError, InvalidSetupError
from toolkit.examples import EXAMPLES_DIR
from toolkit.replay import replay_example
from toolkit.rulebook.export import to_html, to_markdown
from toolkit.rulebook.export_model import Illustration, from_source, split_pictures

#: Each known example, its names renamed like card codes, die faces and a joker, and the
#: pictures its export draws, counted by hand from the narration.
RENAMED = {
    # 11 dice: Grunk's 5 (K Q 10 9 9), Pixie's 2 (K Q), two SuperTieBreaker throws of 2 (A A, 9 K).
    "grunk_charges_pixie": ({"Grunk": "A", "Pixie": "KH"}, 11),
    # 29 cards: the hands 5 + 2; attack 1: Trumps revealed 3, Numbered cards revealed 2, the two
    # plays 1 + 1, the two cheating lines 3 + 2; attack 2: Numbered card revealed 1, turned up 3,
    # the two plays 1 + 2, the cheating line 2, the Nasty Hit's Ace of Spades 1.
    "dizzytwig_v_sparklespaz": ({"Dizzytwig": "QH", "Sparklespaz": "Joker"}, 29),
    # 21 cards: round 1: hands 3 + 3, initiative 2 (the Joker, the 9 of Spades), the attack, the
    # defence, the attack, the counter, the defence 1 each; round 2: hands 4 + 2, attack and
    # defence 1 each.
    "durak_joker_initiative": (
        {"North": "10S", "South": "Joker", "Voivode Ilya": "KH", "Hetman Ostap": "A"},
        21,
    ),
}

_HTML_PICTURE = re.compile(
    r'<span class="rb-pic"><svg [^>]*class="rb-(card|die)"[^>]*data-code="([^"]+)".*?</svg>'
    r'(?:<span class="rb-alt">[^<]*</span>)?</span>',
    re.S,
)
_MD_PICTURE = re.compile(r"!\[([^\]]*)\]\(data:image/svg\+xml;base64,[A-Za-z0-9+/=]+\)")


def _rename(text: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9])", new, text)  # "_North": Markdown
    return text


def _html_layout(page: str) -> tuple[str, list[tuple[str, str]]]:
    """The page with each picture replaced by ``⟦kind:code⟧``, and the pictures in order."""
    return _HTML_PICTURE.sub(r"⟦\1:\2⟧", page), _HTML_PICTURE.findall(page)


def _md_layout(page: str) -> tuple[str, list[str]]:
    return _MD_PICTURE.sub(r"⟦\1⟧", page), _MD_PICTURE.findall(page)


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_names_like_cards_draw_the_pictures_of_plain_names_in_the_same_places(name):
    names, pictures = RENAMED[name]
    plain = (EXAMPLES_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    odd = _rename(plain, names)
    assert odd != plain
    plain_html, plain_pics = _html_layout(to_html(plain))
    odd_html, odd_pics = _html_layout(to_html(odd))
    assert len(plain_pics) == len(odd_pics) == pictures
    assert odd_pics == plain_pics
    assert odd_html == _rename(plain_html, names)  # every picture where it was, every name a name
    for new in names.values():
        assert new in odd_html
    plain_md, plain_labels = _md_layout(to_markdown(plain))
    odd_md, odd_labels = _md_layout(to_markdown(odd))
    assert len(plain_labels) == len(odd_labels) == pictures
    assert odd_md == _rename(plain_md, names)


def test_a_dice_game_with_card_names_draws_no_card():
    # Angry Miniatures rolls poker dice only: a character called QH or Joker is not a card.
    text = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text(encoding="utf-8")
    page = to_html(_rename(text, {"Grunk": "QH", "Pixie": "Joker"}))
    assert 'class="rb-card"' not in page
    assert page.count('class="rb-die"') == 11
    assert "QH makes a melee attack on Joker" in page


# -- rewording ------------------------------------------------------------------------------
def _line_pictures(name: str) -> list[tuple[str, list[tuple[str, str, bool]]]]:
    example = from_source(EXAMPLES_DIR / f"{name}.yaml")
    return [
        (line.text, [(p.kind, p.code, isinstance(p, Illustration)) for p in line.pictures]) for line in example.lines
    ]


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_rewording_the_narration_changes_no_picture(name, monkeypatch):
    before = _line_pictures(name)
    # Every "5 cards", "2 hits", "3 tokens" of the three systems' narrators reworded: the
    # sentences change, the cards and dice they show do not.
    for module in (
        "toolkit.angry_miniatures.narration",
        "toolkit.durak_battle.narration",
        "toolkit.fairy_meat.narration",
    ):
        monkeypatch.setattr(f"{module}.count", lambda n, word: f"{word} x{n}")
    after = _line_pictures(name)
    assert len(after) == len(before)
    assert [t for t, _ in after] != [t for t, _ in before]
    assert [p for _, p in after] == [p for _, p in before]


def test_events_with_other_words_and_the_same_marks_draw_the_same_pictures():
    one = Event.told("roll", Sentence.of("Grunk rolls 2 dice: ", Sentence.listing("die", ["K", "10"]), " — 1 hit."))
    other = Event.told("roll", Sentence.of("Up come ", Sentence.die("K"), " and ", Sentence.die("10"), " for Grunk."))
    drawn = [[(p.kind, p.code) for p in split_pictures(e) if not isinstance(p, str)] for e in (one, other)]
    assert drawn == [[("die", "K"), ("die", "10")]] * 2
    # The same words as a plain text (no marks) draw nothing: the words are not read.
    assert split_pictures(Event("roll", one.text)) == (one.text,)


def test_a_card_in_words_is_illustrated_after_its_words():
    five = Sentence.shows("card", "5C", "5 of Clubs")
    parts = split_pictures(Sentence.of("QH plays the ", five, " (black)."))
    assert parts[:2] == ("QH plays the 5 of Clubs",) + (Illustration("card", "5C"),)
    assert parts[2] == " (black)."


def test_a_private_events_public_text_has_its_own_marks():
    event = Event.told(
        "deal",
        Sentence.of("KH draws 2 cards: ", Sentence.listing("card", ["9H", "QS"]), "."),
        audience=("a",),
        public_text="KH draws 2 cards.",
    )
    assert [m.code for m in event.seen_as("a").marks] == ["9H", "QS"]
    assert event.seen_as("b") == Sentence("KH draws 2 cards.")
    assert event.seen_by("b") == "KH draws 2 cards."


# -- Event and its data ---------------------------------------------------------------------------
def test_sentence_marks_follow_their_pieces():
    s = Sentence.of("A rolls ", Sentence.die("A"), ", KH rolls ", Sentence.die("10"), ".")
    assert s.text == "A rolls A, KH rolls 10."
    # by hand: "A rolls " is 8 characters, ", KH rolls " 11 more after the face.
    assert s.marks == (Mark(8, 9, "die", "A"), Mark(20, 22, "die", "10"))
    assert s.without(9, 20) == Sentence("A rolls A10.", (Mark(8, 9, "die", "A"), Mark(9, 11, "die", "10")))
    assert Sentence(", ").join(["x", Sentence.card_code("JK1")]).marks == (Mark(3, 6, "card", "JK1"),)
    assert pickle.loads(pickle.dumps(s)) == s and hash(pickle.loads(pickle.dumps(s))) == hash(s)


def test_an_event_without_data_is_as_before():
    e = Event("start", "North (7 tokens) against South (5 tokens).", "DB-7")
    assert (e.marks, e.public_marks, dict(e.data)) == ((), (), {})
    assert e == Event("start", "North (7 tokens) against South (5 tokens).", "DB-7")


def test_events_compare_hash_and_pickle_with_their_marks_and_data():
    e = Event.told(
        "roll",
        Sentence.of("QH rolls 1 die for defence: ", Sentence.die("Q"), " — 1 hit."),
        "AM-1",
        data={"faces": ["Q"], "hits": 1, "by": {"side": "QH"}},
    )
    assert e.data["faces"] == ("Q",) and e.data["by"] == {"side": "QH"}
    copy = pickle.loads(pickle.dumps(e))
    assert copy == e and hash(copy) == hash(e) and copy.marks[0] == Mark(28, 29, "die", "Q")
    assert {e, copy} == {e}
    assert e != Event(e.kind, e.text, e.ruling)  # the same words showing nothing are another event
    assert e != Event.told(e.kind, e.sentence, e.ruling, data={"faces": ["K"], "hits": 1, "by": {"side": "QH"}})
    # A whole game goes to a Dask worker and back with its marked events (and Fairy Meat's marked steps).
    state = replay_example(EXAMPLES_DIR / "dizzytwig_v_sparklespaz.yaml").state
    again = pickle.loads(pickle.dumps(state))
    assert again.events == state.events and any(e.marks for e in again.events)
    assert again.results[0].lines == state.results[0].lines and again.results[0].lines[0].marks


def test_bad_marks_and_data_are_refused_in_one_line():
    with pytest.raises(InvalidSetupError, match=r"mark \(3, 9, 'card', 'KS'\) does not fit 'KS'"):
        Event("x", "KS", marks=((3, 9, "card", "KS"),))
    with pytest.raises(InvalidSetupError, match="kind one of card, die"):
        Sentence("KS", (Mark(0, 2, "token", "KS"),))
    with pytest.raises(ArgumentTypeError, match="event data 'f' is a bytearray, which cannot be frozen"):
        EventData(f=bytearray(b"x"))
    with pytest.raises(ArgumentTypeError, match="event data must be a mapping, got list"):
        Event("x", "y", data=["a"])  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="str and Sentence pieces, got int"):
        Sentence.of("x", 3)  # type: ignore[arg-type]


def test_the_engines_put_the_faces_and_the_side_in_the_events_data():
    from toolkit.angry_miniatures.engine import start_attack
    from toolkit.angry_miniatures.rules import Character

    state = start_attack(Character("A", melee=2), Character("KH", body=1), "melee").apply_all(["K", "9", "Q"])
    rolls = [e for e in state.events if e.kind == "roll"]
    # by hand: A rolls K 9 (1 hit, the K), KH rolls Q (1 hit).
    assert [dict(e.data) for e in rolls] == [
        {"side": "A", "roll": "melee", "faces": ("K", "9"), "hits": 1},
        {"side": "KH", "roll": "defence", "faces": ("Q",), "hits": 1},
    ]


def test_an_army_named_like_the_start_of_the_other_still_draws_no_cards():
    # "Fo" draws nothing (a d4 - 6 roll); "Fox"'s deal line begins with "Fo" too, which once hid hers.
    fox = Army("Fox", 5, Leader("Vixen", battle_die="d4", wild_card=False))
    fo = Army("Fo", 5, Leader("Cub", battle_die="d4", wild_card=False, battle_modifier=-6))
    state = start_battle(fox, fo, deck="9S 3H").apply(2).apply(-5).apply_all([Card("9S"), Card("3H")])
    deals = [e.text for e in state.events if e.kind == "deal"]
    assert deals == ["Fox draws 2 cards: 9S 3H.", "Fo draws no cards."]
