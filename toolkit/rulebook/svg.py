"""The cards and poker dice a rule-book export draws: the toolkit's one drawing of them,
:mod:`toolkit.pictures` (the widgets draw the same pictures)."""

from toolkit.pictures import BLACK, CARD_SIZE, DIE_SIZE, JOKER, RED, Picture

__all__ = ["RED", "BLACK", "JOKER", "Picture", "CARD_SIZE", "DIE_SIZE"]
