"""Every Fairy Meat ruling is implemented once, by a named function whose docstring cites it.

:func:`toolkit.fairy_meat.ruling_book` lists each id (FM-1..FM-14) and each reading the
toolkit adds, and one function claims each (``@implements``); here: every id is there,
every claimed function is callable and its docstring cites the id (tests/test_rulings_index.py
checks every system's index the same way). The copies issue 9 removed are checked against the one
function on every small hand.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from toolkit.cards import Card, standard_deck
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    ACE_TRUMP,
    card_type,
    deck_cards,
    hands_by_type,
    is_death_card,
    is_trump,
    representative_hand,
    type_caps,
    type_index,
    wild_draw_probability,
)
from toolkit.fairy_meat.legality import placed_type, playable_cards, playable_types, trump_sets, trump_sets_by_type
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.rulings import implementation, ruling_book

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("ruling", [f"FM-{n}" for n in range(1, 15)])
def test_every_ruling_has_one_implementation(ruling):
    assert ruling in ruling_book().ids()
    assert callable(implementation(ruling))


@pytest.mark.parametrize("key", [p.key for p in ruling_book().parts])
def test_each_implementation_exists_and_cites_its_ruling(key):
    obj = implementation(key)
    assert callable(obj)
    ids = re.findall(r"FM-\d+", key)
    assert all(i in (obj.__doc__ or "") for i in ids), key


def test_no_module_imports_another_modules_private_names():
    for path in (ROOT / "toolkit" / "fairy_meat").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("toolkit"):
                assert not [a.name for a in node.names if a.name.startswith("_")], (path, node.module)
            module_alias = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if module_alias and node.value.id.lstrip("_") in {"odds", "hidden", "engine"} and node.attr.startswith("_"):
                pytest.fail(f"{path}: {node.value.id}.{node.attr}")


def test_card_types_one_definition():
    deck = standard_deck()
    assert sorted({type_index(c) for c in deck}) == list(range(21))
    # FM-1: two of each Numbered type (two suits a colour), 8 red Trumps, 7 black but the A♠, the A♠
    draft = [2] * 18 + [8, 7, 1]
    assert [sum(type_index(c) == t for c in deck) for t in range(21)] == draft == list(type_caps())
    assert len({card_type(c) for c in deck}) == 21


def test_the_death_card_type_stands_for_the_rules_death_card():
    # FM-12: the type ACE_TRUMP is the rules' death card; rules without one have no card of it
    counts = [0] * 21
    counts[ACE_TRUMP] = 1
    assert representative_hand(counts, 0) == [Card("AS")]
    assert representative_hand(counts, 0, Rules(death_card="AH")) == [Card("AH")]
    assert type_caps(Rules(death_card=None))[ACE_TRUMP] == 0
    with pytest.raises(InvalidSetupError, match="no death card"):
        representative_hand(counts, 0, Rules(death_card=None))


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_by_type_legality_is_the_card_legality(size):
    # FM-4/FM-6 on card-type counts is the same function as on cards, for every hand type.
    for counts, _ in hands_by_type(size, type_caps()):
        cards = representative_hand(counts, 0)
        numbered = any(counts[:18])
        by_type = trump_sets_by_type(counts[18], counts[19], counts[20], numbered)
        by_cards: dict = {None: 1}
        for s in trump_sets(cards):
            by_cards[placed_type(s)] = by_cards.get(placed_type(s), 0) + 1
        assert by_type == by_cards, counts
        for placed in by_type:
            chosen = [] if placed is None else next(s for s in trump_sets(cards) if placed_type(s) == placed)
            expected = tuple(dict.fromkeys(type_index(c) for c in playable_cards(cards, chosen)))
            assert playable_types(counts, placed) == expected


@pytest.mark.parametrize("rules", [Rules(jokers=2, death_card="AH"), Rules(jokers=1), Rules(death_card="KD")])
def test_by_type_legality_is_the_card_legality_under_house_rules(rules):
    # FM-4/FM-6 with jokers (a joker joins a set of either colour; a set of jokers only is
    # one set) and a red death card: trump_sets_by_type counts what trump_sets lists.
    deck = deck_cards(rules)
    trumps = [c for c in deck if is_trump(c, rules)]
    death = Card(rules.death_card).colour
    for size in (1, 2, 3, 4):
        for hand in itertools.combinations(dict.fromkeys([*trumps[::3], *trumps[-3:], Card(rules.death_card)]), size):
            for numbered in (False, True):
                cards = list(hand) + ([Card("5C")] if numbered else [])
                red = sum(1 for c in hand if c.colour == "red" and not is_death_card(c, rules))
                black = sum(1 for c in hand if c.colour == "black" and not is_death_card(c, rules))
                aces = sum(1 for c in hand if is_death_card(c, rules))
                jokers = sum(1 for c in hand if c.is_joker)
                by_type = trump_sets_by_type(red, black, aces, numbered, jokers, death)
                by_cards: dict = {None: 1}
                for s in trump_sets(cards, rules=rules):
                    by_cards[placed_type(s, rules)] = by_cards.get(placed_type(s, rules), 0) + 1
                assert by_type == by_cards, (hand, numbered)


def test_keep_back_only_without_a_numbered_card():
    # FM-6 reading: without a Numbered card she keeps a Trump back for her Wild Trump.
    hand = [Card("KH"), Card("QH")]
    assert (Card("KH"), Card("QH")) not in trump_sets(hand)
    assert (Card("KH"), Card("QH")) in trump_sets([*hand, Card("5C")])
    assert (Card("KH"), Card("QH")) in trump_sets(hand, keep_wild=False)


def test_wild_draw_law_sums_to_one():
    # FM-6: the Trumps turned up before the first Numbered card, over every count.
    left, deck = (3, 2, 1), 10
    total = sum(
        wild_draw_probability(left, deck, t)
        for t in itertools.product(range(left[0] + 1), range(left[1] + 1), range(left[2] + 1))
    )
    assert total == 1
