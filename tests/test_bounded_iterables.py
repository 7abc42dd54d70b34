"""Any iterable argument is bounded before it is materialised: ``range(10**12)``, an endless
iterator and a 3-million-card hand are refused in one line stating the bound, having read at
most the bound plus one item (:func:`toolkit.whole_numbers.at_most_items`)."""

from __future__ import annotations

import itertools

import pytest

from toolkit.angry_miniatures.engine import start_attack_from_pools
from toolkit.angry_miniatures.odds import area_attack, odds_table
from toolkit.cards import MAX_CARDS, parse_cards
from toolkit.dice import MAX_ROLLED_FACES, parse_faces
from toolkit.errors import InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.odds.checks import parse_hand
from toolkit.plugin.headline import MAX_SIZES, size_list
from toolkit.whole_numbers import at_most_items


class Counted:
    """An iterator of ``item`` that counts how many were read (``n`` items, endless when None)."""

    def __init__(self, item, n=None):
        self.item, self.n, self.read = item, n, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.n is not None and self.read >= self.n:
            raise StopIteration
        self.read += 1
        return self.item


def test_at_most_items_reads_at_most_the_bound_plus_one():
    endless = Counted(1)
    with pytest.raises(InvalidSetupError, match=r"^pools has more than 5 values; at most 5$"):
        at_most_items(endless, "pools", 5)
    assert endless.read == 6
    assert at_most_items(Counted(1, 5), "pools", 5) == [1] * 5
    with pytest.raises(InvalidSetupError, match=r"^pools has 1,000,000,000,000 values; at most 5$"):
        at_most_items(range(10**12), "pools", 5)  # a sized one is measured, never read
    with pytest.raises(InvalidSetupError, match=r"^pools has more than 5 values; at most 5$"):
        at_most_items(range(10**30), "pools", 5)  # too long for len()


ENDLESS = {
    "odds_table attack": (
        lambda it: odds_table(it),
        TooBigError,
        "attack_dice has more than 10,000 pools; at most 10,000",
        1,
    ),
    "odds_table defence": (lambda it: odds_table([1], it), TooBigError, "defence_dice has more than 10,000 pools", 1),
    "area_attack": (lambda it: area_attack(3, it), TooBigError, "above the limit of 10,000: fewer defenders", 1),
    "start_attack": (
        lambda it: start_attack_from_pools(3, it),
        InvalidSetupError,
        "defence_dice has more than 10,000 values",
        1,
    ),
    "parse_cards": (parse_cards, NotationError, f"a list of cards has more than {MAX_CARDS} cards; at most", "KS"),
    "parse_hand": (
        lambda it: parse_hand(it, "attacker"),
        NotationError,
        "attacker's hand: a list of cards has more",
        "KS",
    ),
    "parse_faces": (parse_faces, NotationError, f"a roll has more than {MAX_ROLLED_FACES:,} faces", "A"),
    "headline sizes": (
        lambda it: size_list(list(itertools.islice(it, MAX_SIZES + 1)), "cards_a", 0),
        InvalidSetupError,
        f"cards_a has {MAX_SIZES + 1:,} sizes; at most {MAX_SIZES:,}",
        1,
    ),
}


@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_iterator_is_refused_in_one_line_after_the_bound(name):
    call, error, words, item = ENDLESS[name]
    endless = Counted(item)
    with pytest.raises(error) as info:
        call(endless)
    assert words in str(info.value) and "\n" not in str(info.value)
    assert endless.read <= 10_001 + 1


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: odds_table(range(10**12)), "attack_dice has 1,000,000,000,000 pools; at most 10,000"),
        (lambda: odds_table(range(1, 9), range(10**12)), "defence_dice has 1,000,000,000,000 pools"),
        (lambda: parse_cards(["KS"] * 3_000_000), "a list of cards has 3,000,000 cards; at most 500"),
        (lambda: parse_cards("KS " * 3_000_000), "a list of cards has more than 500 cards; at most 500"),
        (lambda: parse_hand("KS " * 3_000_000, "defender"), "defender's hand: a list of cards has more than 500"),
    ],
)
def test_huge_ranges_and_a_3_million_card_hand_are_refused_stating_the_bound(call, words):
    with pytest.raises((InvalidSetupError, NotationError, TooBigError), match=words):
        call()


def test_lists_within_the_bounds_still_read():
    assert len(parse_cards("KS, QC 5C")) == 3 and parse_faces("A,K 10") == ("A", "K", "10")
    assert list(odds_table(iter([1, 2]), (d for d in [1]))["attack_dice"]) == [1, 2]
