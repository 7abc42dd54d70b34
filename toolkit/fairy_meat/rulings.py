"""Where each Fairy Meat ruling is implemented: one named function or table per id.

:data:`RULINGS` maps every ruling id of ``RULINGS.md`` (FM-1..FM-14) and every reading
docs/implementation.md adds (ids with a short tag, e.g. ``"FM-6 keep-back"``) to the dotted
path of the one function that implements it; every other module calls that function. A test checks
that each path exists and that its docstring cites the id.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["RULINGS", "implementation"]

RULINGS: dict[str, str] = {
    "FM-1": "toolkit.fairy_meat.deck.type_index",
    "FM-2": "toolkit.fairy_meat.rules.combat_hand_sizes",
    "FM-3": "toolkit.fairy_meat.rules.check_direction",
    "FM-4": "toolkit.fairy_meat.legality.trump_sets",
    "FM-5": "toolkit.fairy_meat.legality.hidden_trumps_owner",
    "FM-6": "toolkit.fairy_meat.legality.playable_cards",
    "FM-7": "toolkit.fairy_meat.legality.defence_without_cards",
    "FM-8": "toolkit.fairy_meat.legality.matches",
    "FM-9": "toolkit.fairy_meat.referee.winner_of",
    "FM-10": "toolkit.fairy_meat.referee.damage_of",
    "FM-11": "toolkit.fairy_meat.attack.score_options",
    "FM-12": "toolkit.fairy_meat.referee.nasty_hit_to",
    "FM-13": "toolkit.fairy_meat.attack.spent_cards",
    "FM-14": "toolkit.fairy_meat.referee.wrestling_damage",
    # Readings the toolkit adds (docs/implementation.md, "Readings the toolkit adds")
    "FM-5 spoils": "toolkit.fairy_meat.attack.spent_cards",
    "FM-5 seen": "toolkit.fairy_meat.legality.trumps_seen",
    "FM-5/FM-11 order": "toolkit.fairy_meat.referee.resolve_attack",
    "FM-6 keep-back": "toolkit.fairy_meat.legality.trump_sets",
    "FM-6 draw law": "toolkit.fairy_meat.deck.wild_draw_ways",
    "FM-7 points": "toolkit.fairy_meat.attack.wild_trump_points",
    "FM-7 spent once": "toolkit.fairy_meat.attack.extra_cards_spent",
    "FM-14 escape": "toolkit.fairy_meat.referee.wrestling_damage",
    "FM-10 down": "toolkit.fairy_meat.rules.Fairy.take_damage",
    "FM-13 no cards": "toolkit.fairy_meat.attack.attacks_lost",
}


def implementation(ruling: str) -> Any:
    """Return the function (or table) implementing ``ruling`` (a key of :data:`RULINGS`).

    >>> implementation("FM-4").__name__
    'trump_sets'
    """
    module, _, name = RULINGS[ruling].rpartition(".")
    try:
        obj: Any = importlib.import_module(module)
    except ModuleNotFoundError:  # a method: module.Class.name
        module, _, cls = module.rpartition(".")
        obj = getattr(importlib.import_module(module), cls)
    return getattr(obj, name)
