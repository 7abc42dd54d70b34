"""Dice: the six-sided poker die of Angry Miniatures (AM-1) and face notation.

Faces are written as on the die: ``9 10 J Q K A``. Rolls are tuples of face
strings, in the order rolled.

>>> parse_faces("A K 10 9")
('A', 'K', '10', '9')

Which faces hit is a rule, not a fact of the die: the ``count_hits`` of the rules in
force (AM-1), in the dice system's own package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from toolkit.errors import InvalidSetupError, NotationError
from toolkit.prob import Distribution
from toolkit.whole_numbers import at_most_items, whole_number

__all__ = [
    "TRAIT_DICE",
    "check_trait_die",
    "trait_roll",
    "POKER_FACES",
    "face_rank",
    "parse_face",
    "parse_faces",
    "face_text",
    "count_face",
]

#: Poker-die faces from lowest to highest (AM-1, AM-4 superiority order).
POKER_FACES: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")

_RANK = {face: i for i, face in enumerate(POKER_FACES)}
_ALIASES = {"T": "10", "JACK": "J", "QUEEN": "Q", "KING": "K", "ACE": "A", "1": "A"}


def face_rank(face: str) -> int:
    """Return the superiority rank of a face: 0 for 9 up to 5 for A (AM-4)."""
    return _RANK[parse_face(face)]


def parse_face(text: str) -> str:
    """Return the canonical face for ``text`` (case-insensitive; ``T`` means 10).

    Raises:
        NotationError: ``text`` is not a poker-die face.
    """
    if not isinstance(text, str):
        text = str(text)
    key = text.strip().upper()
    key = _ALIASES.get(key, key)
    if key not in _RANK:
        raise NotationError(f"{text!r} is not a poker-die face: faces are {' '.join(POKER_FACES)} (AM-1)")
    return key


#: The most faces a written roll may hold.
MAX_ROLLED_FACES = 10_000


def parse_faces(text: str | Iterable[str]) -> tuple[str, ...]:
    """Return the faces of a roll written as ``"A K 10 9"``, ``"A,K,10,9"`` or a list.

    Raises:
        NotationError: one of the faces is not a poker-die face.
    """
    words = (m.group(0) for m in re.finditer(r"[^\s,]+", text)) if isinstance(text, str) else text
    parts = at_most_items(words, "a roll", MAX_ROLLED_FACES, "faces", error=NotationError)
    return tuple(parse_face(p) for p in parts)


def face_text(face: str) -> str:
    """Return a poker-die face as a designer reads it: the face as printed on the die
    (``'K'``, ``'10'``; ``t`` and ``king`` are read as ``'10'`` and ``'K'``), the one
    place a face is written for reading (AM-1).

    >>> face_text("t"), face_text("king")
    ('10', 'K')

    Raises:
        NotationError: not a poker-die face.
    """
    return parse_face(face)


def count_face(faces: Sequence[str], face: str) -> int:
    """Return how many dice of a roll show ``face``."""
    return sum(1 for f in faces if f == face)


# -- Savage Worlds trait rolls (the Durak battle, DB-2 and DB-8) -------------------------
#: The trait dice a Savage Worlds leader can have.
TRAIT_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)


def check_trait_die(die: int | str) -> int:
    """Return the number of sides of a trait die written ``8`` or ``"d8"``; only d4..d12.

    Raises:
        InvalidSetupError: not one of d4, d6, d8, d10, d12.
    """
    text = str(die).strip().lower()
    sides = text[1:] if text.startswith("d") else text
    if isinstance(die, bool) or not sides.isdigit() or int(sides) not in TRAIT_DICE:
        raise InvalidSetupError(
            f"{die!r} is not a trait die: use one of {', '.join(f'd{d}' for d in TRAIT_DICE)} (DB-2)"
        )
    return int(sides)


def trait_roll(die: int | str, wild_die: bool = True, modifier: int = 0) -> Distribution[int]:
    """Return the exact distribution of a Savage Worlds trait roll with no exploding dice:
    the trait die and, for a Wild Card, a d6 Wild Die, keeping the higher, plus ``modifier``
    (DB-2, DB-8).

    >>> trait_roll("d4", wild_die=False).items()[0]
    (1, Fraction(1, 4))
    >>> trait_roll(4)[6]  # the Wild Die's 6 beats any d4
    Fraction(1, 6)
    """
    sides = check_trait_die(die)
    whole_number(modifier, "modifier")
    wild = range(1, 7) if wild_die else (0,)
    weights: dict[int, int] = {}
    for a in range(1, sides + 1):
        for b in wild:
            total = max(a, b) + modifier
            weights[total] = weights.get(total, 0) + 1
    return Distribution(weights)
