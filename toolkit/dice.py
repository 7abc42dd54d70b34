"""Dice: the six-sided poker die of Angry Miniatures (AM-1) and face notation.

Faces are written as on the die: ``9 10 J Q K A``. Rolls are tuples of face
strings, in the order rolled.

>>> parse_faces("A K 10 9")
('A', 'K', '10', '9')
>>> count_hits(parse_faces("A K 10 9"))
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from toolkit.errors import NotationError

__all__ = [
    "POKER_FACES",
    "HIT_FACES",
    "face_rank",
    "parse_face",
    "parse_faces",
    "count_hits",
    "count_face",
]

#: Poker-die faces from lowest to highest (AM-1, AM-4 superiority order).
POKER_FACES: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
#: The faces that count as hits (AM-1): J, Q, K, A.
HIT_FACES: frozenset[str] = frozenset({"J", "Q", "K", "A"})

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


def parse_faces(text: str | Iterable[str]) -> tuple[str, ...]:
    """Return the faces of a roll written as ``"A K 10 9"``, ``"A,K,10,9"`` or a list.

    Raises:
        NotationError: one of the faces is not a poker-die face.
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return tuple(parse_face(p) for p in parts)


def count_hits(faces: Sequence[str]) -> int:
    """Return the number of hits (J, Q, K, A) in a roll (AM-1)."""
    return sum(1 for f in faces if f in HIT_FACES)


def count_face(faces: Sequence[str], face: str) -> int:
    """Return how many dice of a roll show ``face``."""
    return sum(1 for f in faces if f == face)
