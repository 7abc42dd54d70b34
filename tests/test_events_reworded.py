"""Events carry data: the narration is words for the designer, and nothing reads it back.

Every event any engine makes is reworded here (each stretch of text between two marks is
reversed and its case swapped, each marked card or die face's words are changed, and the
sentence starts with a sign), the way a designer's edit to a sentence would change it.
Then every catalogue situation of every registered system must be found by the same
example as before (same seed: the situations read ``Event.data`` and the engine's state,
never the text), and the rule-book export of each must draw the same cards and dice, hit
faces the same, in the same lines (it draws from the marks' codes, never the words; only
where a picture stands, in place of a code or after the words naming a card, follows the
words, by design).
"""

from __future__ import annotations

import pytest

from toolkit.engine import Event, Mark, Sentence
from toolkit.rulebook import catalogue, search
from toolkit.rulebook.export_model import from_source
from toolkit.rulebook.situations import catalogued_systems

#: The sign a reworded sentence starts with: it tells the rewording took effect, and keeps
#: an event rebuilt from a reworded one (``dataclasses.replace``) from being reworded twice.
SIGN = "⟲ "


def reworded(text: str, marks: tuple[Mark, ...]) -> Sentence:
    """``text`` with every stretch between its marks reversed and case-swapped, each marked
    card or face's words case-swapped inside guillemets (the mark keeps its code: the same
    card or face), and :data:`SIGN` first."""
    if not text or text.startswith(SIGN):
        return Sentence(text, marks)
    pieces: list[str | Sentence] = [SIGN]
    at = 0
    for m in marks:
        words = f"«{text[m.start : m.end].swapcase()}»"
        pieces += [text[at : m.start][::-1].swapcase(), Sentence(words, (Mark(0, len(words), m.kind, m.code),))]
        at = m.end
    pieces.append(text[at:][::-1].swapcase())
    return Sentence.of(*pieces)


def test_rewording_changes_every_word_and_keeps_the_codes():
    said = Sentence.of("Ann draws 2 cards: ", Sentence.listing("card", ["9H", "3C"]), ".")
    new = reworded(said.text, said.marks)
    assert new.text == "⟲  :SDRAC 2 SWARD NNa«9h» «3c»."
    assert [(new.text[m.start : m.end], m.kind, m.code) for m in new.marks] == [
        ("«9h»", "card", "9H"),
        ("«3c»", "card", "3C"),
    ]
    assert reworded(new.text, new.marks) == new


@pytest.fixture
def reword_every_event(monkeypatch):
    """Reword the text and the public text of every :class:`Event` as it is made."""
    made = Event.__post_init__

    def post_init(self: Event) -> None:
        made(self)
        text = reworded(self.text, self.marks)
        public = reworded(self.public_text, self.public_marks)
        object.__setattr__(self, "text", text.text)
        object.__setattr__(self, "marks", text.marks)
        object.__setattr__(self, "public_text", public.text)
        object.__setattr__(self, "public_marks", public.marks)

    monkeypatch.setattr(Event, "__post_init__", post_init)


def _found(system: str) -> dict[str, tuple[str, ...]]:
    """Each catalogue situation's first example (the finder's default seed), with the kind,
    ruling and pictures of every line of its rule-book export."""
    out = {}
    for s in catalogue(system):
        found = search(system, s.name, n=1, budget_seconds=30)
        if not found:
            out[s.name] = ("not found",)
            continue
        one = found[0]
        pictures = tuple(
            f"{line.kind} {line.ruling} " + " ".join(f"{p.kind}:{p.code}:{p.hit}" for p in line.pictures)
            for line in from_source(one.text).lines
        )
        out[s.name] = (one.text, *pictures)
    return out


@pytest.mark.parametrize("system", catalogued_systems())
def test_rewording_every_sentence_changes_no_example_and_no_picture(system, request):
    plain = _found(system)
    request.getfixturevalue("reword_every_event")
    (one,) = search(system, catalogue(system)[0].name, n=1, budget_seconds=30)
    assert all(e.text.startswith(SIGN) for e in one.state.events if e.text)  # the rewording is in force
    assert _found(system) == plain
