"""Every Durak ruling is implemented once (issue 9): each id of RULINGS.md (DB-1..DB-9)
and each reading the README adds (DB-3, DB-6) names one function or table of the rules
layer, which exists and whose docstring cites the id. Everything else calls these.
"""

from __future__ import annotations

import importlib

import pytest

#: (ruling id, what it decides) -> the dotted path of its one implementation.
DURAK_RULINGS: dict[tuple[str, str], str] = {
    ("DB-1", "the deck: 52 cards and two jokers, or 52"): "toolkit.durak_battle.rules.Rules.deck",
    ("DB-1", "jokers in the deck"): "toolkit.durak_battle.rules.Rules.joker_count",
    ("DB-1", "rank order, a joker above every card"): "toolkit.durak_battle.clash.card_value",
    ("DB-1", "suit = action, a joker any of the four"): "toolkit.durak_battle.clash.actions_of",
    ("DB-2", "the Knowledge (Battle) roll"): "toolkit.durak_battle.recon.knowledge_roll",
    ("DB-2", "cards drawn = max(0, roll) + advantage"): "toolkit.durak_battle.recon.cards_drawn",
    ("DB-2", "the token advantage"): "toolkit.durak_battle.recon.token_advantage",
    ("DB-3", "highest attack card; joker v joker; no attack card"): (
        "toolkit.durak_battle.initiative_rule.initiative_holder"
    ),
    ("DB-3", "attack cards, highest first"): "toolkit.durak_battle.initiative_rule.attack_cards",
    ("DB-4", "declining: the strike"): "toolkit.durak_battle.clash.strike",
    ("DB-4", "no legal card: struck at once"): "toolkit.durak_battle.position.can_answer",
    ("DB-5", "answers judged, a counterattack of equal value"): "toolkit.durak_battle.clash.answer_attack",
    ("DB-6", "who may pass"): "toolkit.durak_battle.position.may_pass",
    ("DB-6", "both pass in a row: the clash ends"): "toolkit.durak_battle.position.clash_over",
    ("DB-6", "no attack card: she passes by herself"): "toolkit.durak_battle.position.can_attack",
    ("DB-6", "the course of a clash"): "toolkit.durak_battle.position.ClashPosition.step",
    ("DB-7", "losses floored at 0, destruction"): "toolkit.durak_battle.rules.settle_losses",
    ("DB-8", "the Spirit roll"): "toolkit.durak_battle.morale.spirit_roll",
    ("DB-8", "the side originally attacked rolls first"): "toolkit.durak_battle.morale.morale_order",
    ("DB-8", "the penalty: tokens lost in the clash or battle"): "toolkit.durak_battle.morale.morale_penalty",
    ("DB-8", "success on 4+"): "toolkit.durak_battle.morale.morale_holds",
    ("DB-9", "fresh hands from a reshuffled deck"): "toolkit.durak_battle.rules.fresh_deck",
}


def _resolve(path: str):
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for name in parts[k:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(path)


def test_every_durak_ruling_has_an_implementation():
    ids = {rid for rid, _ in DURAK_RULINGS}
    assert ids == {f"DB-{n}" for n in range(1, 10)}


@pytest.mark.parametrize("key", list(DURAK_RULINGS), ids=lambda k: f"{k[0]} {k[1]}")
def test_the_implementation_exists_and_cites_the_ruling(key):
    ruling, _ = key
    obj = _resolve(DURAK_RULINGS[key])
    if isinstance(obj, property):
        obj = obj.fget
    doc = obj.__doc__ or ""
    assert ruling in doc, (DURAK_RULINGS[key], doc)
