"""Cards, decks and piles (shared by FM-1 and DB-1)."""

from itertools import pairwise

import pytest

from toolkit.cards import Card, Pile, check_distinct, parse_cards, standard_deck
from toolkit.errors import InvalidSetupError, NotationError


def test_codes_colours_and_order():
    assert Card("10h").code == "10H" and Card("♠a".upper()[::-1]).code == "AS"
    assert [c.colour for c in parse_cards("AS 2H 3D KC")] == ["black", "red", "red", "black"]
    assert Card("QD").is_face and Card("10D").pips == 10 and Card("JK1").colour is None
    assert sorted(parse_cards("JK1 AS 2C 10H")) == list(parse_cards("2C 10H AS JK1"))  # DB-1 rank order
    assert repr(Card("10H")) == "Card('10H')" and Card("AS").name == "Ace of Spades"


def test_bad_code_names_the_accepted_values():
    with pytest.raises(NotationError, match=r"'1X' is not a card: ranks 2-10 J Q K A, suits S H D C"):
        Card("1X")
    with pytest.raises(NotationError, match="'Joker' listed more than twice"):
        parse_cards("Joker Joker Joker")


def test_decks():
    assert len(standard_deck()) == 52 and len(set(standard_deck())) == 52  # FM-1
    assert len(standard_deck(jokers=True)) == 54  # DB-1
    with pytest.raises(InvalidSetupError, match="AS appear more than once"):
        check_distinct(parse_cards("AS KD AS"))


def test_stacked_pile_then_shuffled_then_reshuffle():
    pile = Pile.full(stacked="KS 2D")
    assert pile.size == 52 and not pile.needs_chance and pile.next_options() == [Card("KS")]
    pile = pile.draw(Card("KS")).draw(Card("2D"))
    assert pile.needs_chance and len(pile.next_options()) == 50
    with pytest.raises(InvalidSetupError, match="KS is not in the draw pile"):
        pile.draw(Card("KS"))
    # FM-13: the discards come back only when the deck runs out.
    small = Pile((), frozenset(parse_cards("3H")), parse_cards("4H 5H"))
    assert small.next_options() == [Card("3H")]
    empty = small.draw(Card("3H"))
    assert empty.size == 0 and empty.next_options() == list(parse_cards("4H 5H"))
    after = empty.draw(Card("5H"))
    assert after.remaining() == {Card("4H")} and after.discards == ()


def test_stacking_a_card_twice_is_refused():
    with pytest.raises(InvalidSetupError, match="KS appear more than once in the stacked deck"):
        Pile.full(stacked="KS KS")


def test_next_cards_come_in_card_order_and_an_empty_pile_says_so():
    """``next_options`` lists the pile in the order ``sorted`` puts cards (rank, then suit;
    jokers last, DB-1), checked against pairwise comparisons of every card of a full deck;
    ``is_empty`` holds exactly when no card can come next (FM-13: the discards count)."""
    deck = standard_deck(jokers=True)
    pile = Pile((), frozenset(deck), ())
    listed = pile.next_options()
    assert len(listed) == 54 and all(a < b and not b < a for a, b in pairwise(listed))
    assert listed[0] == Card("2S") and listed[-2:] == [Card("JK1"), Card("JK2")]
    assert not pile.is_empty and not Pile.full(stacked="KS").is_empty
    only_discards = Pile((), frozenset(), parse_cards("4H 5H"))
    assert not only_discards.is_empty and only_discards.next_options() == list(parse_cards("4H 5H"))
    empty = Pile((), frozenset(), ())
    assert empty.is_empty and empty.next_options() == []
