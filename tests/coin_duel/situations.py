"""The coin duel's two rule-book situations, judged from the events' data (CD-2)."""

from __future__ import annotations

from toolkit.plugin.situation import events, make

__all__ = ["CATALOGUE"]

CATALOGUE = (
    make(
        "win_after_a_tie",
        "A tie is rerolled and the reroll has a winner.",
        lambda s: any(True for _ in events(s, "tie")) and any(True for _ in events(s, "win")),
        ("CD-2",),
        possible=lambda rules: rules.tie_rerolls > 0,
        coins=1,
    ),
    make(
        "drawn_duel",
        "Every reroll ties and the duel is drawn.",
        lambda s: any(True for _ in events(s, "draw")),
        ("CD-2",),
    ),
)
