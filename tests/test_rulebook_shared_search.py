"""The examples page's cheaper searches give the same examples: searches that share their
games (:class:`toolkit.rulebook.finder.CandidatePool`), the searchers' draws found by card
code, Fairy Meat's simplicity without a replay, and the narration from the verified state.
"""

from __future__ import annotations

import itertools
import random

import pytest

from toolkit import systems
from toolkit.rulebook import catalogue, find_examples
from toolkit.rulebook.finder import CandidatePool, rules_for
from toolkit.rulebook.page import example_entry, examples_page


def _alone(system: str, name: str) -> str:
    found = find_examples(system, name, rules_for(system, name), n=1, seed=15, budget_seconds=300)
    return found[0]


def test_a_shared_pool_finds_what_each_search_finds_alone():
    """Angry Miniatures' situations without hints share one stream (the seed's games);
    each finds the example it finds alone, whichever search played the games first."""
    names = ["tie_decided_by_aces", "crit_on_defence", "tie_decided_by_kings", "zero_hits_miss"]
    pool = CandidatePool()
    shared = [
        find_examples("angry-miniatures", n, rules_for("angry-miniatures", n), 1, 15, 300, pool=pool)[0] for n in names
    ]
    assert shared == [_alone("angry-miniatures", n) for n in names]


def test_the_examples_page_is_the_page_of_searches_alone():
    """The page (its searches sharing one pool) writes, for every situation, the example,
    narration and problems of that situation's search on its own (no pool)."""
    page = examples_page("angry-miniatures", budget_seconds=300)
    assert [e.situation.name for e in page] == [s.name for s in catalogue("angry-miniatures")]
    notation = systems.notation("angry-miniatures")
    for entry in page:
        assert entry.text == _alone("angry-miniatures", entry.situation.name)
        assert (entry.narration, list(entry.problems)) == notation.replay_text(entry.text)
        alone = example_entry("angry-miniatures", entry.situation.name, budget_seconds=300)
        assert (alone.text, alone.narration, alone.problems) == (entry.text, entry.narration, entry.problems)


def test_fairy_meat_searches_sharing_a_stream_find_their_own_examples():
    names = ["draw", "fairy_down", "different_colours_lowest_wins"]  # no hints: one stream
    pool = CandidatePool()
    for name in names:
        assert find_examples("fairy-meat", name, None, 1, 15, 300, pool=pool)[0] == _alone("fairy-meat", name)


def test_a_pool_stream_is_the_searcher_stream_read_in_turns():
    searcher = systems.system("durak-battle").hook("searcher")
    rules = rules_for("durak-battle", "strike_declined")
    fresh = searcher.candidates(rules, {}, random.Random(5))
    expected = [next(fresh).history for _ in range(12)]
    pool = CandidatePool()

    def play():
        return searcher.candidates(rules, {}, random.Random(5))

    first, second = pool.stream("durak-battle", rules, {}, 5, play), pool.stream("durak-battle", rules, {}, 5, play)
    got_first = [next(first).history for _ in range(4)]
    got_second = [next(second).history for _ in range(9)]  # past where the first stopped
    got_first += [next(first).history for _ in range(8)]
    assert got_first == expected and got_second == expected[:9]


def test_a_stream_is_played_once_per_key_and_1_true_and_1_0_are_different_hints():
    pool = CandidatePool()
    calls = []

    def play():
        calls.append(1)
        yield from range(3)

    for hint in (1, 1, True, 1.0, True):
        assert list(pool.stream("x", None, {"a": hint}, 1, play)) == [0, 1, 2]
    assert len(calls) == 3  # equal and hashed alike, but a searcher may read them differently
    assert list(pool.stream("x", None, {"a": 1}, 2, play)) == [0, 1, 2] and len(calls) == 4  # another seed


def test_unhashable_hints_are_not_shared_and_a_broken_stream_is_dropped():
    pool = CandidatePool()
    calls = []

    def play():
        calls.append(1)
        yield from range(3)

    assert list(pool.stream("x", None, {"cards": [1, 2]}, 1, play)) == [0, 1, 2]
    assert list(pool.stream("x", None, {"cards": [1, 2]}, 1, play)) == [0, 1, 2]
    assert len(calls) == 2  # played again: never shared

    def broken():
        calls.append(1)
        yield 1
        raise RuntimeError("engine bug")

    with pytest.raises(RuntimeError):
        list(pool.stream("x", None, {}, 1, broken))
    with pytest.raises(RuntimeError):  # played again from its start, not read where it broke
        assert list(pool.stream("x", None, {}, 1, broken)) == [1]
    assert len(calls) == 4


def _fm_reference(rules, hints, rng):
    """The Fairy Meat searcher's stream as it was written before its draws were found by
    card code: next_options_in(deck) and a weight per card looked up by the card."""
    from toolkit.errors import ToolkitError
    from toolkit.fairy_meat.engine import start_combat
    from toolkit.fairy_meat.finder import dealing, setups
    from toolkit.fairy_meat.policies import POLICIES

    starts = [start_combat(rules=rules, **setup) for setup in setups(hints, rules)]
    trump, death = float(hints.get("trump", 1)), float(hints.get("ace_of_spades", 1))
    for rep in itertools.count():
        for start in starts[: 2 + rep]:
            deck, weight = dealing(start.rules, trump, death)
            policy = POLICIES["random" if rng.random() < 0.6 else "greedy"]
            state = start
            try:
                while not state.is_terminal:
                    if state.is_chance_node:
                        cards = state.pile.next_options_in(deck)
                        state = state.apply_listed(rng.choices(cards, [weight[c] for c in cards])[0])
                    else:
                        state = state.apply(policy(state).sample(rng))
            except ToolkitError:
                continue
            yield state


def _durak_reference(rules, hints, rng):
    """The Durak searcher's stream as it was written before (see :func:`_fm_reference`)."""
    from toolkit.durak_battle.engine import start_battle
    from toolkit.durak_battle.finder import DECK, LEADERS, NAMES, TOKENS
    from toolkit.durak_battle.policies import POLICIES
    from toolkit.durak_battle.rules import Army, Leader
    from toolkit.errors import ToolkitError

    def armies(tokens):
        leaders = [Leader(name, battle_die="d4", spirit_die="d6", wild_card=False) for name in LEADERS]
        return Army(NAMES[0], tokens[0], leaders[0]), Army(NAMES[1], tokens[1], leaders[1])

    starts = [
        start_battle(*armies(t), rules, max_rounds=int(hints.get("rounds", 1))) for t in hints.get("tokens", TOKENS)
    ]
    suits, joker = dict(hints.get("suits", ())), float(hints.get("joker", 1))
    for rep in itertools.count():
        for start in starts[: 2 + rep]:
            weight = {c: joker if c.is_joker else suits.get(c.suit or "", 1.0) for c in DECK}
            policy = POLICIES["random" if rng.random() < 0.6 else "greedy"]
            state = start
            try:
                while not state.is_terminal:
                    if state.is_chance_node:
                        if state.stage == "deal":
                            cards = state.deck.next_options_in(DECK)
                            choice = rng.choices(cards, [weight[c] for c in cards])[0]
                        else:
                            outcomes = state.chance_outcomes()
                            choice = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
                        state = state.apply_listed(choice)
                    else:
                        state = state.apply(policy(state).sample(rng))
            except ToolkitError:
                continue
            yield state


@pytest.mark.parametrize(("system", "reference"), [("fairy-meat", _fm_reference), ("durak-battle", _durak_reference)])
def test_the_searchers_play_the_games_they_played_before(system, reference):
    """The draws found by card code (a card compares and hashes its code alone) deal the
    same cards: every situation's stream is game for game the stream written the old way."""
    module = systems.system(system).hook("searcher")
    for entry in catalogue(system):
        rules = rules_for(system, entry)
        ours = module.candidates(rules, entry.hints(), random.Random(11))
        theirs = reference(rules, entry.hints(), random.Random(11))
        for _ in range(15):
            a, b = next(ours), next(theirs)
            assert (a.history, a.history_start) == (b.history, b.history_start), entry.name


def test_fairy_meat_simplicity_counts_the_moves_of_the_history():
    module = systems.system("fairy-meat").hook("searcher")
    for entry in catalogue("fairy-meat")[::3]:
        rules = rules_for("fairy-meat", entry)
        for k, state in enumerate(module.candidates(rules, entry.hints(), random.Random(4))):
            if k == 30:
                break
            assert module.simplicity(state)[1] == len(state.moves)
