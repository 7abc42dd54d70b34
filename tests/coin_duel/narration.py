"""The coin duel's narrator: every log line rendered from its event's data (CD-1, CD-2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.engine import GameState, Sentence
from toolkit.narration import Narration

__all__ = ["cast", "narrate"]


def cast(state: GameState) -> Mapping[Any, str]:
    """Return the sides' names by index (``{0: "Ann", 1: "Bo"}``)."""
    return dict(enumerate(state.names))  # type: ignore[attr-defined]


def narrate(kind: str, data: Mapping[str, Any], cast: Mapping[Any, str]) -> Narration:
    """Return the sentence of a coin-duel event of ``kind`` with payload ``data``."""
    if kind == "setup":
        coins = data["coins"]
        text = f"{cast[0]} ({coins[0]} coins) duels {cast[1]} ({coins[1]} coins)."
    elif kind == "flip":
        text = f"{cast[data['side']]} flips {data['coins']} coins: {data['heads']} heads."
    elif kind == "tie":
        text = f"A tie at {data['heads']} heads: both flip again."
    elif kind == "draw":
        text = "Still tied after every reroll: the duel is drawn."
    elif kind == "win":
        text = f"{data['winner']} wins the duel."
    else:
        raise ValueError(f"a coin duel has no event of kind {kind!r}")
    return Narration(Sentence(text))
