"""Durak battle calculators (toolkit.durak_battle.odds) against independent references.

References: hand arithmetic from the rule text (durak-mass-battle.en.md) and the rulings
DB-1..DB-9 (docs/rulings.md); brute force over every deal of small hands; the engine
(toolkit.durak_battle.engine, which steps the same clash state machine as the calculators),
enumerated exactly with toolkit.engine.enumerate_outcomes, and sampled by
Monte Carlo (start_clash / start_battle + play_out) within toolkit.montecarlo.tolerance.
"""

from __future__ import annotations

import importlib
import itertools
import random
import time
from collections import Counter
from fractions import Fraction

import pytest

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle import Army, Leader, Rules, start_battle, start_clash
from toolkit.durak_battle.initiative_rule import NO_CLASH, initiative_holder
from toolkit.durak_battle.odds import (
    EXACT_LIMIT,
    BattleEnd,
    ClashOutcome,
    battle_outcome,
    clash_losses,
    clash_value,
    exact_size,
    hand_size_distribution,
    initiative,
    morale_pass_probability,
    suit_composition,
)
from toolkit.durak_battle.odds.deal_classes import EXACT_REQUEST_LIMIT
from toolkit.durak_battle.policies import (
    POLICIES,
    greedy_policy,
    optimal_policy,
    random_policy,
)
from toolkit.durak_battle.position import ClashPosition, beat_losses
from toolkit.engine import enumerate_outcomes, play_out
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError, TooBigError
from toolkit.montecarlo import tolerance
from toolkit.prob import Distribution

A10 = Army("a", 10, Leader("Leader a"))
B10 = Army("b", 10, Leader("Leader b"))
DECK54 = standard_deck(jokers=True)
DECK52 = standard_deck()


def armies(ta: int = 10, tb: int = 10) -> tuple[Army, Army]:
    return Army("a", ta, Leader("Leader a")), Army("b", tb, Leader("Leader b"))


def holder_of(state) -> str | None:
    return None if state.first_attacked is None else "ab"[1 - state.first_attacked]


def destroyed_of(state) -> str | None:
    return state.outcome.split()[0] if state.outcome.endswith("destroyed") else None


def clash_result(state) -> ClashOutcome:
    return ClashOutcome(state.lost_clash[0], state.lost_clash[1], holder_of(state), destroyed_of(state))


# -- DB-2: reconnaissance ------------------------------------------------------------------------
def test_hand_size_extra_is_the_die_by_hand():
    # DB-2: an Extra rolls the die alone, no explosion: d4 -> 1..4 cards, 1/4 each.
    assert hand_size_distribution("d4", wild_die=False).items() == [(k, Fraction(1, 4)) for k in range(1, 5)]


def test_hand_size_wild_card_by_hand():
    # DB-2: a Wild Card keeps the higher of d4 and a d6 Wild Die: P(max <= k) = (k/4)(k/6) for k <= 4,
    # then k/6 (the d4 is always <= 4).
    d = hand_size_distribution("d4")
    cdf = {k: Fraction(min(k, 4), 4) * Fraction(k, 6) for k in range(0, 7)}
    for k in range(1, 7):
        assert d[k] == cdf[k] - cdf[k - 1]


def test_hand_size_floor_and_token_advantage():
    # DB-2: max(0, result) + 1 per token of advantage. d6 Extra - 3: 1, 2, 3 -> 0 cards.
    d = hand_size_distribution("d6", wild_die=False, modifier=-3, token_advantage=2)
    assert d.items() == [(2, Fraction(1, 2)), (3, Fraction(1, 6)), (4, Fraction(1, 6)), (5, Fraction(1, 6))]


def test_hand_size_matches_the_engine():
    # DB-2 in the engine: the recon roll's chance outcomes and the hand size it deals.
    north = Army("North", 7, Leader("V", battle_die="d8", battle_modifier=-2))
    south = Army("South", 4, Leader("I", battle_die="d6", wild_card=False))
    s = start_battle(north, south)
    engine = Distribution([(s.apply(r).hand_sizes[0], p) for r, p in s.chance_outcomes()])
    assert engine == hand_size_distribution("d8", True, -2, token_advantage=3)


def test_hand_size_bad_input():
    with pytest.raises(InvalidSetupError, match=r"'d7' is not a trait die: use one of d4, d6, d8, d10, d12 \(DB-2\)"):
        hand_size_distribution("d7")
    with pytest.raises(InvalidSetupError, match=r"token_advantage must be a whole number of 0 or more, got -1"):
        hand_size_distribution("d6", token_advantage=-1)
    with pytest.raises(InvalidSetupError, match="wild_die"):
        hand_size_distribution("d6", wild_die="yes")


# -- DB-1: suit composition -----------------------------------------------------------------------
def test_suit_composition_by_hand():
    # DB-1: 13 cards of each suit and 2 jokers.
    d = suit_composition(1)
    assert d[(1, 0, 0, 0, 0)] == Fraction(13, 54) and d[(0, 0, 0, 0, 1)] == Fraction(2, 54)
    assert suit_composition(2)[(0, 0, 0, 0, 2)] == Fraction(1, 1431)  # both jokers: 1 / C(54, 2)
    assert suit_composition(0).items() == [((0, 0, 0, 0, 0), Fraction(1))]
    assert suit_composition(54)[(13, 13, 13, 13, 2)] == 1
    assert suit_composition(3, Rules(jokers=False)).probability(lambda c: c.jokers > 0) == 0


@pytest.mark.parametrize("n,rules", [(2, Rules()), (3, Rules()), (3, Rules(jokers=False))])
def test_suit_composition_matches_brute_force(n, rules):
    deck = DECK54 if rules.jokers else DECK52
    counts = Counter()
    for hand in itertools.combinations(deck, n):
        suits = Counter("J" if c.is_joker else c.suit for c in hand)
        counts[(suits["S"], suits["H"], suits["D"], suits["C"], suits["J"])] += 1
    assert suit_composition(n, rules) == Distribution(counts)


def test_suit_composition_bad_input():
    with pytest.raises(InvalidSetupError, match="more than the 54-card deck"):
        suit_composition(55)
    with pytest.raises(InvalidSetupError, match="whole number of 0 or more"):
        suit_composition(-1)


# -- DB-3: initiative -------------------------------------------------------------------------------
def test_initiative_one_card_each_by_hand():
    # DB-3: no clash when neither card is a spade or a joker: (39/54)(38/53); otherwise the
    # sides are symmetric. Without jokers (DB-1 variant): (39/52)(38/51).
    d = initiative(1, 1)
    assert d[None] == Fraction(39, 54) * Fraction(38, 53)
    assert d["a"] == d["b"] == (1 - d[None]) / 2
    assert initiative(1, 1, Rules(jokers=False))[None] == Fraction(39, 52) * Fraction(38, 51)
    assert initiative(3, 0)["b"] == 0 and initiative(0, 0)[None] == 1


def _initiative_brute(na: int, nb: int, rules: Rules) -> Distribution:
    """Every deal, judged by the engine's initiative_holder (DB-3); a coin gives 1/2 each."""
    deck = DECK54 if rules.jokers else DECK52
    counts: Counter = Counter()
    for a in itertools.combinations(deck, na):
        rest = [c for c in deck if c not in a]
        for b in itertools.combinations(rest, nb):
            who = initiative_holder(a, b)
            if who is NO_CLASH:
                counts[None] += 2
            elif who is None:
                counts["a"] += 1
                counts["b"] += 1
            else:
                counts["ab"[who]] += 2
    return Distribution(counts)


@pytest.mark.parametrize(
    "na,nb,rules", [(1, 1, Rules()), (1, 2, Rules()), (2, 1, Rules(jokers=False)), (0, 2, Rules())]
)
def test_initiative_matches_brute_force_over_every_deal(na, nb, rules):
    assert initiative(na, nb, rules) == _initiative_brute(na, nb, rules)


@pytest.mark.parametrize("na,nb", [(8, 6), (15, 15)])
def test_initiative_matches_sampled_deals(na, nb):
    started = time.perf_counter()
    exact = initiative(na, nb)
    assert time.perf_counter() - started < 0.5  # fast for big hands: it counts, never deals
    rng = random.Random(na * 100 + nb)
    trials = 4000
    counts: Counter = Counter()
    for _ in range(trials):
        cards = rng.sample(DECK54, na + nb)
        who = initiative_holder(cards[:na], cards[na:])
        counts[None if who is NO_CLASH else ("ab"[rng.randrange(2)] if who is None else "ab"[who])] += 1
    for outcome in ("a", "b", None):
        p = exact[outcome]
        assert abs(counts[outcome] / trials - float(p)) <= tolerance(p, trials), outcome


def test_initiative_bad_input():
    with pytest.raises(InvalidSetupError, match=r"30 \+ 30 cards is more than the 54-card deck"):
        initiative(30, 30)
    with pytest.raises(InvalidSetupError, match="cards_a"):
        initiative(-1, 2)


# -- DB-8: morale -------------------------------------------------------------------------------------
def test_morale_by_hand():
    # DB-8: success on 4+ after -1 per token lost; dice do not explode.
    assert morale_pass_probability("d6", wild_die=False) == Fraction(1, 2)  # 4, 5, 6 of 6
    assert morale_pass_probability("d4") == 1 - Fraction(3, 4) * Fraction(3, 6)  # max(d4, d6) >= 4: 5/8
    assert morale_pass_probability("d8", tokens_lost=2) == 1 - Fraction(5, 8) * Fraction(5, 6)  # >= 6
    assert morale_pass_probability("d4", wild_die=False, tokens_lost=1) == 0  # a d4 never makes 5
    assert morale_pass_probability("d6", wild_die=False, modifier=1, tokens_lost=1) == Fraction(1, 2)


def test_morale_matches_the_engine():
    # The engine's morale step (DB-8) after a clash where South loses 2: South rolls first.
    north = Army("North", 5, Leader("V", spirit_die="d6"))
    south = Army("South", 5, Leader("I", spirit_die="d8", wild_card=False))
    s = start_battle(north, south, deck="9S 3H")
    for step in (1, 1, Card("9S"), Card("3H"), "attack 9S", "defence 3H"):
        s = s.apply(step)
    assert s.stage == "morale" and s.lost_clash == (1, 2) and s.chance_side == 1
    stays = sum(p for roll, p in s.chance_outcomes() if not s.apply(roll).outcome)
    assert stays == morale_pass_probability("d8", wild_die=False, tokens_lost=2)


def test_morale_bad_input():
    with pytest.raises(InvalidSetupError, match="tokens_lost must be a whole number of 0 or more"):
        morale_pass_probability("d6", tokens_lost=-1)
    with pytest.raises(InvalidSetupError, match=r"is not a trait die"):
        morale_pass_probability("d20")


# -- the clash state machine (DB-1, DB-4..DB-7) ------------------------------------------------------
RULE_VARIANTS = [Rules(), Rules(counter_tie="loses"), Rules(holder_must_attack=True), Rules(jokers=False)]


def test_clash_model_counterattack_then_strike_is_two_losses():
    # DB-5 then DB-4: b's lower counterattack costs b 1 token; a, with no card left to answer,
    # is struck at once (4). The model keeps the two losses apart, so b at 1 token is
    # destroyed by the first (DB-7) before the strike — as the engine plays it.
    s = start_clash(*armies(10, 1), ("9S", "3C 4S"))
    node = ClashPosition.from_state(s)
    child, beats = node.step("attack 9S")
    assert beat_losses(beats) == () and child.legal_actions() == ["counter 3C", "take"]
    _, beats = child.step("counter 3C")
    assert beat_losses(beats) == ((0, 1), (4, 0))
    end = s.apply("attack 9S").apply("counter 3C")
    assert end.is_terminal and end.lost_clash == (0, 1) and end.outcome == "b destroyed"


def test_clash_model_refuses_illegal_actions():
    node = ClashPosition.from_state(start_clash(A10, B10, ("9S 2H", "3H")))
    with pytest.raises(IllegalActionError, match="not possible"):
        node.step("defence 2H")
    with pytest.raises(IllegalActionError, match="no clash decision"):
        ClashPosition.from_state(start_clash(A10, B10, ("2H", "3H")))


# -- policies -----------------------------------------------------------------------------------------
def test_greedy_policy_by_hand():
    s = start_clash(A10, B10, ("7S KS 9H QD 3C JK1", "10S 4S 4H 2C"))
    assert greedy_policy(s).items() == [("attack KS", 1)]  # DB-3 holder; highest spade first
    s = start_clash(A10, B10, ("7S", "10S 8D 9H JC 2C JK2"))  # b: the joker takes the initiative
    assert s.holder == 1 and greedy_policy(s).items() == [("attack 10S", 1)]
    s = start_clash(A10, B10, ("AS 9D", "KS 2H"))
    answer = s.apply("attack AS")  # b's only answer card fails, still better than the strike (DB-4)
    assert answer.current_player == "b" and greedy_policy(answer).items() == [("defence 2H", 1)]
    # Answers in the greedy order (DB-1, DB-5): a successful manoeuvre first...
    t = start_clash(A10, B10, ("2H 9D 10H JC JK1", "8S JK2")).apply("attack 8S")
    assert greedy_policy(t).items() == [("manoeuvre 9D", 1)]
    # ...then a successful defence, a free counterattack, a joker, a 1-token counterattack.
    cases = [
        ("2D 9H 10H JC JK1", "defence 9H"),
        ("2D 2H JC QC JK1", "counter JC"),
        ("2D 2H 3C JK1", "manoeuvre JK1"),
        ("2D 2H 3C 4C", "counter 3C"),
        ("2D 5H 3H", "defence 3H"),
        ("2D", "manoeuvre 2D"),
    ]
    for hand, expected in cases:
        t = start_clash(A10, B10, (hand, "8S JK2")).apply("attack 8S")
        assert greedy_policy(t).items() == [(expected, 1)], hand
    # An equal counterattack costs nothing by default but 1 with counter_tie="loses" (DB-5).
    t = start_clash(A10, B10, ("2D 2H 8C JK1", "8S JK2"), Rules(counter_tie="loses")).apply("attack 8S")
    assert greedy_policy(t).items() == [("manoeuvre JK1", 1)]
    # With no spade left she attacks with a joker (DB-9: kept back it may be wasted).
    s = start_clash(A10, B10, ("JK1 2H", "3S"))
    assert greedy_policy(s).items() == [("attack JK1", 1)]


def test_policies_choose_legal_actions_on_random_lines():
    rng = random.Random(8)
    for k in range(60):
        na, nb = rng.randint(1, 9), rng.randint(1, 9)
        cards = rng.sample(DECK54, na + nb)
        s = start_clash(A10, B10, (cards[:na], cards[na:]), RULE_VARIANTS[k % 3])
        while not s.is_terminal:
            if s.is_chance_node:
                s = s.apply(s.sample_chance(rng))
                continue
            for name in ("random", "greedy"):
                choice = POLICIES[name](s)
                assert set(choice) <= set(s.legal_actions()) and sum(p for _, p in choice.items()) == 1
            assert set(random_policy(s)) == set(s.legal_actions())
            s = s.apply(rng.choice(s.legal_actions()))


def _relabel(cards, ranks_map):
    return [c if c.is_joker else Card(ranks_map[c.rank] + c.suit) for c in cards]


def test_policies_only_compare_ranks():
    # What makes the exact calculator exact: a deal with the ranks moved (keeping their
    # order) plays alike — the greedy policy's every action, and the random policy's choices.
    rng = random.Random(12)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for _ in range(40):
        cards = rng.sample(list(DECK54), 9)
        used = sorted({c.rank for c in cards if not c.is_joker}, key=ranks.index)
        targets = sorted(rng.sample(ranks, len(used)), key=ranks.index)
        mapping = dict(zip(used, targets, strict=True))
        moved = _relabel(cards, mapping)
        s, t = start_clash(A10, B10, (cards[:5], cards[5:])), start_clash(A10, B10, (moved[:5], moved[5:]))
        while not s.is_terminal:
            if s.is_chance_node:
                side = rng.choice("ab")
                s, t = s.apply(side), t.apply(side)
                continue
            g = greedy_policy(s).outcomes()[0]
            verb, _, code = g.partition(" ")
            expected = g if not code else f"{verb} {_relabel([Card(code)], mapping)[0].code}"
            assert greedy_policy(t).outcomes() == [expected]
            assert len(random_policy(s)) == len(random_policy(t))
            s, t = s.apply(g), t.apply(expected)
        assert s.lost_clash == t.lost_clash


# -- clash_value: both hands known ----------------------------------------------------------------------
def _engine_minimax(state, payoff=lambda la, lb: lb - la):
    """Minimax straight over the engine's game tree (the coin of DB-3 as an expectation)."""
    if state.is_terminal:
        return Fraction(payoff(*state.lost_clash))
    if state.is_chance_node:
        return sum(p * _engine_minimax(state.apply(o), payoff) for o, p in state.chance_outcomes())
    values = [_engine_minimax(state.apply(a), payoff) for a in state.legal_actions()]
    return max(values) if state.current_player == "a" else min(values)


def test_clash_value_by_hand():
    # b's 10S beats a's 7S: b holds the initiative (DB-3). b attacks 10S: a manoeuvres with QD
    # (Q >= 10: b loses 1, DB-1). b may attack again (DB-6) but holds no spade: a must attack
    # with 7S; b's 4H defence fails (a -1, b -2). b lost 3, a 1: value 2 for a.
    cv = clash_value("7S 9H QD", "10S 4H")
    assert cv.value == 2 and (cv.lost_a, cv.lost_b) == (1, 3)
    assert cv.initiative == "b" and cv.best_action == "attack 10S"
    assert cv.line == ("attack 10S", "manoeuvre QD", "attack 7S", "defence 4H")
    best = cv.best_answers(cv.start.apply("attack 10S"))
    assert [a.action for a in best] == ["manoeuvre QD", "defence 9H", "take"]
    # defence 9H fails (9 < 10): a -2, b -1; then a must attack with 7S and b's 4H fails
    # (a -1, b -2): 3 - 3 = 0. Taking the strike: a -4, then the same 7S against 4H: 2 - 5 = -3.
    assert [a.value for a in best] == [2, 0, -3]
    assert cv.best_answers()[0] == (cv.best_action, cv.value)


def test_clash_value_coin_and_no_clash():
    # DB-3: identical attack cards (a joker each, nothing else to attack with): a coin.
    cv = clash_value("JK1 2H", "JK2 3D")
    assert cv.initiative == "coin" and set(cv.branches) == {"a", "b"}
    assert cv.value == (cv.branches["a"].value + cv.branches["b"].value) / 2
    assert cv.value == _engine_minimax(start_clash(A10, B10, ("JK1 2H", "JK2 3D")))
    with pytest.raises(IllegalActionError, match="coin flip"):
        cv.best_answers()
    none = clash_value("2H 3D", "4C")
    assert none.initiative is None and none.value == 0 and none.line == ()


def _random_hands(rng, na, nb, deck=DECK54):
    cards = rng.sample(deck, na + nb)
    return cards[:na], cards[na:]


def test_clash_value_matches_engine_minimax():
    rng = random.Random(21)
    for k in range(25):
        a, b = _random_hands(rng, rng.randint(1, 3), rng.randint(1, 3))
        rules = RULE_VARIANTS[k % 3]
        tokens = (10, 10) if k % 2 else (rng.randint(1, 5), rng.randint(1, 5))
        cv = clash_value(a, b, rules, tokens=tokens)
        start = start_clash(*armies(*tokens), (a, b), rules)
        assert cv.value == _engine_minimax(start), (a, b, rules)
        if cv.initiative in ("a", "b"):
            # every action's value at the start, and after the best one, against the engine
            for action, value in cv.best_answers():
                assert value == _engine_minimax(start.apply(action))
            after = start.apply(cv.best_action)
            if not after.is_terminal and not after.is_chance_node:
                for action, value in cv.best_answers(after):
                    assert value == _engine_minimax(after.apply(action))


def test_clash_value_without_floors_and_weighted_payoffs():
    rng = random.Random(5)
    for _ in range(10):
        a, b = _random_hands(rng, 2, 2)  # at most 2 strikes a side: never 10 tokens, no floor reached
        assert clash_value(a, b).value == clash_value(a, b, tokens=(10, 10)).value
        start = start_clash(A10, B10, (a, b))
        weighted = clash_value(a, b, payoff=(2, 1))  # a's losses count double
        assert weighted.value == _engine_minimax(start, lambda la, lb: lb - 2 * la)
        cubic = clash_value(a, b, payoff=lambda la, lb: lb**2 - la**2)
        assert cubic.value == _engine_minimax(start, lambda la, lb: lb**2 - la**2)
        # the optimal line's losses give the value
        assert weighted.lost_b - 2 * weighted.lost_a == weighted.value


def test_clash_value_searches_again_when_the_kept_memo_leaves_no_room(monkeypatch):
    """The session's solver keeps its memo between clashes; a clash that would pass the
    state limit only because of what is kept is searched again with an empty memo, and
    gives the value a fresh session gives (the engine's minimax, independently)."""
    from toolkit.durak_battle import best_play

    clash_value_module = importlib.import_module("toolkit.durak_battle.odds.clash_value")  # the function hides it
    first, second = ("7S 9H QD KC", "10S 4H JD"), ("6S 8H QD AC", "10S 4H JD 9C")
    best_play.clear_solvers()
    clash_value(*second)
    alone = len(best_play.solver_for(Rules()).memo)  # the positions the second clash needs by itself
    best_play.clear_solvers()
    clash_value(*first)
    kept = len(best_play.solver_for(Rules()).memo)
    limit = alone + kept // 2  # room for the second alone, not beside the first's memo
    assert kept <= limit // 2 < alone < limit  # the first's memo is kept, the second fits only alone
    monkeypatch.setattr(best_play, "DEFAULT_MAX_STATES", limit)
    asked: list[bool] = []

    def solver_for(*args, fresh=False):
        asked.append(fresh)
        return best_play.solver_for(*args, fresh=fresh)

    monkeypatch.setattr(clash_value_module, "solver_for", solver_for)
    best_play.clear_solvers()
    clash_value(*first)
    cv = clash_value(*second)
    assert asked == [False, False, True]  # the second was searched again, from an empty memo
    assert cv.value == _engine_minimax(start_clash(A10, B10, second))
    best_play.clear_solvers()


def test_session_keeps_a_bounded_number_of_solvers(monkeypatch):
    from toolkit.durak_battle import best_play

    monkeypatch.setattr(best_play, "MAX_SOLVERS", 2)
    best_play.clear_solvers()
    one = best_play.solver_for(Rules(), (1, 1))
    two = best_play.solver_for(Rules(), (2, 1))
    assert best_play.solver_for(Rules(), (1, 1)) is one  # used again: now the most recent
    best_play.solver_for(Rules(), (1, 2))  # a third: the least recently used (2, 1) goes
    assert best_play.solver_for(Rules(), (1, 1)) is one
    assert best_play.solver_for(Rules(), (2, 1)) is not two
    best_play.clear_solvers()


def test_optimal_policy_plays_the_minimax_action():
    rng = random.Random(2)
    for _ in range(10):
        a, b = _random_hands(rng, 3, 3)
        s = start_clash(A10, B10, (a, b))
        if s.is_terminal or s.is_chance_node:
            continue
        cv = clash_value(a, b)
        (action,) = optimal_policy(s).outcomes()
        assert dict(cv.best_answers())[action] == cv.value


def test_clash_value_bad_input():
    with pytest.raises(InvalidSetupError, match="appear more than once in the two hands"):
        clash_value("7S 9H", "7S")
    with pytest.raises(InvalidSetupError, match=r"the deck has none \(jokers=False, DB-1\)"):
        clash_value("JK1", "2S", Rules(jokers=False))
    with pytest.raises(NotationError, match="side a's hand"):
        clash_value("1Z", "2S")
    with pytest.raises(InvalidSetupError, match=r"tokens \(0, 5\) must be a whole number from 1 to 10, got 0 \(DB-7\)"):
        clash_value("2S", "3S", tokens=(0, 5))
    with pytest.raises(InvalidSetupError, match="payoff must be a pair of weights"):
        clash_value("2S", "3S", payoff="tokens")


# -- clash_losses: averaged over deals -----------------------------------------------------------------
def _one_card_each_by_hand(counter_tie="no_loss", jokers=True):
    """Greedy v greedy, one card each, from the rule text (counts over ordered deals).

    - Neither card attacks (39 x 38): no clash (DB-3).
    - Spade v spade, joker v spade: the holder strikes (4, DB-4), then the other must attack
      (DB-6) and strikes back: (4, 4). Joker v joker: a coin; the holder's joker is answered
      by the other joker as a manoeuvre (13 >= 13: the attacker loses 1).
    - Spade of rank v v a card of rank w (13 - v ranks are >= v, v are lower): a heart defends
      (>=: attacker 2, defender 1; lower: 1, 2); a diamond manoeuvres (>=: attacker 1; lower:
      defender 2); a club counterattacks (>=: free, DB-5, lower: the defender pays 1) and
      strikes the attacker, who has nothing left (4). A joker attack beats every such card.
    """
    counts: Counter = Counter()
    counts[(0, 0, None)] += 39 * 38
    spade_spade = 13 * 12 + (2 * 13 * 2 if jokers else 0)
    counts[(4, 4, "a")] += spade_spade // 2
    counts[(4, 4, "b")] += spade_spade // 2
    if jokers:
        counts[(1, 0, "a")] += 1  # a wins the coin and attacks; b's joker manoeuvres
        counts[(0, 1, "b")] += 1
    hi, lo = 91, 78  # sum over v of (13 - v), and of v
    ties = 13 if counter_tie == "loses" else 0  # DB-5: equal counterattacks cost 1 with the variant
    j = 26 if jokers else 0  # a joker against each of the 13 cards of a suit, 2 jokers
    one_side = {(2, 1): hi, (1, 2): lo + j, (1, 0): hi, (0, 2): lo + j, (4, 0): hi - ties, (4, 1): lo + j + ties}
    for (att, dfn), n in one_side.items():
        counts[(att, dfn, "a")] += n
        counts[(dfn, att, "b")] += n
    return Distribution(counts)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(counter_tie="loses"), Rules(jokers=False)], ids=lambda r: r.variant_name()
)
def test_clash_losses_one_card_each_by_hand(rules):
    exact = clash_losses(1, 1, "greedy", rules, method="exact")
    assert exact.exact and exact.method == "exact"
    got = exact.joint.marginal(lambda o: (o.lost_a, o.lost_b, o.initiative))
    assert got == _one_card_each_by_hand(rules.counter_tie, rules.jokers)


def _brute_force_clash(na, nb, policies, rules, tokens=(10, 10)):
    """Every ordered deal through start_clash, every policy choice through enumerate_outcomes."""
    deck = DECK54 if rules.jokers else DECK52
    total: dict = Counter()
    deals = 0
    pmap = {"a": POLICIES[policies[0]], "b": POLICIES[policies[1]]}
    for a in itertools.combinations(deck, na):
        rest = [c for c in deck if c not in a]
        for b in itertools.combinations(rest, nb):
            deals += 1
            s = start_clash(*armies(*tokens), (a, b), rules)
            for outcome, p in enumerate_outcomes(s, clash_result, pmap).items():
                total[outcome] += p
    return Distribution({o: p / deals for o, p in total.items()})


@pytest.mark.parametrize(
    "na,nb,policies,rules",
    [
        (1, 1, ("greedy", "greedy"), Rules()),
        (1, 1, ("random", "greedy"), Rules(counter_tie="loses")),
        (1, 1, ("optimal", "random"), Rules(jokers=False)),
        (2, 0, ("random", "random"), Rules()),
        (0, 2, ("greedy", "greedy"), Rules(holder_must_attack=True)),
    ],
)
def test_clash_losses_matches_brute_force_over_every_deal(na, nb, policies, rules):
    exact = clash_losses(na, nb, policies, rules, method="exact")
    assert exact.joint == _brute_force_clash(na, nb, policies, rules)


def test_clash_losses_with_small_armies_matches_brute_force():
    # DB-7: armies of 1 and 3 tokens: losses floor at 0 and the clash stops at a destruction.
    exact = clash_losses(1, 1, ("random", "random"), method="exact", tokens=(1, 3))
    assert exact.joint == _brute_force_clash(1, 1, ("random", "random"), Rules(), tokens=(1, 3))
    assert exact.joint.probability(lambda o: o.destroyed == "a") > 0


@pytest.mark.parametrize("na,nb", [(2, 2), (3, 2), (4, 1)])
def test_clash_losses_weights_count_every_deal(na, nb):
    # The deal classes' weights, checked through the initiative they imply against the
    # combinatorial count of initiative() (DB-3).
    exact = clash_losses(na, nb, "greedy", method="exact")
    assert exact.joint.marginal("initiative") == initiative(na, nb)


def test_exact_size_counts_orderings_of_deals():
    # By brute force: deals of 1 v 1 and 2 v 1 cards told apart only by how their ranks
    # compare (each side's suits at each rank, jokers by count).
    def signature(a, b):
        ranks = sorted({c.sort_key[0] for c in a + b if not c.is_joker})
        level = {r: k for k, r in enumerate(ranks)}

        def side(h):
            return (
                tuple(sorted((level[c.sort_key[0]], c.suit) for c in h if not c.is_joker)),
                sum(c.is_joker for c in h),
            )

        return side(a), side(b)

    for na, nb in [(1, 1), (2, 1)]:
        seen = set()
        for a in itertools.combinations(DECK54, na):
            rest = [c for c in DECK54 if c not in a]
            for b in itertools.combinations(rest, nb):
                seen.add(signature(a, b))
        assert exact_size(na, nb) == len(seen)


def test_clash_losses_exact_matches_engine_monte_carlo():
    trials = 3000
    exact = clash_losses(2, 2, ("greedy", "random"), method="exact")
    sampled = clash_losses(2, 2, ("greedy", "random"), method="monte_carlo", trials=trials, seed=3)
    assert sampled.method == "monte_carlo" and sampled.sampler == "engine" and not sampled.exact
    for event in [lambda p: p[0] == 0, lambda p: p[1] >= 4, lambda p: p[0] > p[1], lambda p: p == (0, 0)]:
        p = exact.probability(event)
        assert abs(float(sampled.probability(event)) - float(p)) <= tolerance(p, trials)
        lo, hi = sampled.interval(event)
        assert lo <= float(sampled.probability(event)) <= hi
    # the initiative marginal too (DB-3)
    for side in ("a", "b", None):
        p = exact.joint.probability(lambda o, s=side: o.initiative == s)
        q = sampled.joint.probability(lambda o, s=side: o.initiative == s)
        assert abs(float(q) - float(p)) <= tolerance(p, trials)


def test_clash_losses_model_sampler_matches_exact():
    trials = 20000
    exact = clash_losses(2, 2, ("random", "greedy"), method="exact")
    sampled = clash_losses(2, 2, ("random", "greedy"), method="monte_carlo", trials=trials, sampler="model", seed=5)
    for pair, p in exact.items():
        assert abs(float(sampled[pair]) - float(p)) <= tolerance(p, trials), pair


def test_switch_over_to_monte_carlo():
    # EXACT_LIMIT deal classes: 3 v 3 is exact by default (tests/test_durak_comparison_classes.py
    # checks it), 4 v 3 only on request (EXACT_REQUEST_LIMIT), 4 v 4 never.
    assert exact_size(3, 3) <= EXACT_LIMIT < exact_size(4, 3) <= EXACT_REQUEST_LIMIT < exact_size(4, 4)
    assert clash_losses(2, 2).method == "exact"
    started = time.perf_counter()
    with pytest.raises(TooBigError, match=r"4 v 4 cards needs 40,674,790 deal classes.*method='monte_carlo'"):
        clash_losses(4, 4, method="exact")
    assert time.perf_counter() - started < 0.5  # refused before starting
    auto = clash_losses(4, 3, trials=300, seed=1)
    assert auto.method == "monte_carlo" and auto.trials == 300 and sum(p for _, p in auto.items()) == 1
    assert "Monte Carlo" in str(auto) and "± " in str(auto) and "300 simulated clashes" in str(auto)


def test_clash_losses_reads_like_a_distribution():
    r = clash_losses(1, 1, method="exact")
    assert r[(0, 0)] == Fraction(39 * 38, 54 * 53)
    assert sum(p for _, p in r.items()) == 1 and (0, 0) in r.outcomes()
    assert r.mean(0) == r.mean(1)  # one card each: the sides are alike
    assert r.interval((0, 0)) == (r[(0, 0)], r[(0, 0)])  # exact: the Fraction twice
    frame = r.to_frame()
    assert list(frame.columns[:4]) == ["lost_a", "lost_b", "initiative", "destroyed"]
    assert frame["probability"].sum() == 1 and "exact" in r._repr_html_()


def test_clash_losses_text_names_the_armies_issue12():
    # issue 12 item 4: "North loses 0, South loses 0", never "a loses / b loses".
    r = clash_losses(1, 1, method="exact", tokens=(1, 3), names=("North", "<South>"))
    text = str(r)
    assert "North 1 token, <South> 3 tokens" in text
    assert "  North loses  0, <South> loses  0: " in text
    assert " a loses" not in text and "b loses" not in text
    assert "Tokens lost (North, &lt;South&gt;)" in r._repr_html_()
    assert r[(0, 0)] == Fraction(39 * 38, 54 * 53)  # the names change no number
    assert "army a loses" in str(clash_losses(1, 1, method="exact"))  # no names given: "army a", "army b"
    with pytest.raises(InvalidSetupError, match="names must be two different army names"):
        clash_losses(1, 1, names=("North", "North"))


def test_clash_losses_bad_input():
    with pytest.raises(InvalidSetupError, match="unknown policy 'clever' for the side a"):
        clash_losses(1, 1, ("clever", "greedy"))
    with pytest.raises(InvalidSetupError, match="method must be one of"):
        clash_losses(1, 1, method="fast")
    with pytest.raises(InvalidSetupError, match="sampler must be"):
        clash_losses(1, 1, sampler="gpu")
    with pytest.raises(InvalidSetupError, match="trials must be a whole number from 1 to 10,000,000, got 0"):
        clash_losses(1, 1, method="monte_carlo", trials=0)
    with pytest.raises(
        InvalidSetupError, match=r"tokens \(11, 3\) must be a whole number from 1 to 10, got 11 \(DB-7\)"
    ):
        clash_losses(1, 1, tokens=(11, 3))
    with pytest.raises(InvalidSetupError, match="more than the 52-card deck"):
        clash_losses(30, 23, rules=Rules(jokers=False))

    def cheat(state):
        return Distribution.certain("attack AS")

    with pytest.raises(IllegalActionError, match="policy cheat chose 'attack AS', which is not legal"):
        clash_losses(1, 1, (cheat, "greedy"), method="exact")


# -- battle_outcome: the Markov chain over rounds ------------------------------------------------------
# Small armies whose hands stay within EXACT_LIMIT: max(0, d4 - 2) and max(0, d6 - 4) cards,
# +1 for the side ahead on tokens (DB-2). Every round deals fresh hands from a full deck
# (DB-9), so the rounds form a Markov chain over the armies' tokens.
SMALL_A = Army("a", 2, Leader("Ana", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-2))
SMALL_B = Army("b", 2, Leader("Bo", battle_die="d6", spirit_die="d8", wild_card=False, battle_modifier=-4))


def _engine_battles(army_a, army_b, rules, trials, max_rounds, seed):
    rng = random.Random(seed)
    pmap = {"a": greedy_policy, "b": greedy_policy}
    counts: Counter = Counter()
    for _ in range(trials):
        end = play_out(start_battle(army_a, army_b, rules, max_rounds=max_rounds), rng, pmap)
        winner = None if end.winner is None else "ab"[end.winner]
        how = end.outcome.split()[-1].replace("retreats", "retreat")
        counts[(winner, how, end.round_no)] += 1
    return counts


@pytest.mark.parametrize(
    "rules,trials",
    [(Rules(), 1500), (Rules(morale_penalty="battle", counter_tie="loses"), 700)],
    ids=["default", "variants"],
)
def test_battle_outcome_matches_engine_monte_carlo(rules, trials):
    odds = battle_outcome(SMALL_A, SMALL_B, rules, max_rounds=4)
    assert odds.exact and odds.method == "exact" and not odds.sampled
    assert sum(p for _, p in odds.items()) == 1
    counts = _engine_battles(SMALL_A, SMALL_B, rules, trials, 4, seed=17)
    events = {
        "a wins": lambda o: o.winner == "a",
        "b wins": lambda o: o.winner == "b",
        "retreat": lambda o: o.how == "retreat",
        "destroyed": lambda o: o.how == "destroyed",
        "undecided": lambda o: o.how == "undecided",
        "round 1": lambda o: o.rounds == 1,
        "round 4": lambda o: o.rounds == 4,
    }
    for name, event in events.items():
        p = odds.probability(event)
        q = sum(n for key, n in counts.items() if event(BattleEnd(*key))) / trials
        assert abs(q - float(p)) <= tolerance(p, trials), name


def test_battle_outcome_one_round_by_hand():
    # Equal armies of 3 tokens (no card for outnumbering, DB-2); each Extra leader draws
    # max(0, d4 - 3) cards: one card with 1/4, none with 3/4. One round (max_rounds=1).
    leader = Leader("L", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-3)
    a, b = Army("a", 3, leader), Army("b", 3, Leader("M", "d4", "d6", False, -3))
    ends: Counter = Counter()
    undecided = Fraction(9, 16)  # no cards at all: no clash, no morale (DB-3)
    # One side draws a card: a spade or joker (15 of 54) strikes the empty-handed side for 4
    # (DB-4): at 3 tokens it is destroyed (DB-7). Any other card: no clash.
    for side in "ab":
        ends[(side, "destroyed")] += Fraction(3, 16) * Fraction(15, 54)
        undecided += Fraction(3, 16) * Fraction(39, 54)

    def stays(lost):  # DB-8: d6 - lost >= 4
        return Fraction(max(0, 3 - lost), 6)

    # One card each (1/16): the by-hand clash table. A loss of 4 destroys (DB-7): with
    # (4, 4) the side attacked first is struck first; otherwise the side losing 4.
    for (la, lb, holder), p in _one_card_each_by_hand().items():
        w = p / 16
        if holder is None:
            undecided += w
            continue
        other = "b" if holder == "a" else "a"
        if (la, lb) == (4, 4):
            ends[(holder, "destroyed")] += w
        elif la >= 3 or lb >= 3:
            ends[("b" if la >= 3 else "a", "destroyed")] += w
        else:  # morale: the side originally attacked rolls first (DB-8)
            first_lost, second_lost = (la, lb) if other == "a" else (lb, la)
            ends[(holder, "retreat")] += w * (1 - stays(first_lost))
            ends[(other, "retreat")] += w * stays(first_lost) * (1 - stays(second_lost))
            undecided += w * stays(first_lost) * stays(second_lost)
    expected = {BattleEnd(winner, how, 1): p for (winner, how), p in ends.items()}
    expected[BattleEnd(None, "undecided", 1)] = undecided
    assert dict(battle_outcome(a, b, max_rounds=1).items()) == expected


def test_battle_outcome_flags_monte_carlo_transitions():
    odds = battle_outcome(SMALL_A, SMALL_B, max_rounds=3, method="monte_carlo", trials=400, seed=2)
    assert not odds.exact and odds.approximate and odds.method == "monte_carlo"
    assert odds.sampled and odds.note.startswith("APPROXIMATE") and "Monte Carlo" in odds.note
    assert sum(p for _, p in odds.items()) == 1
    assert "APPROXIMATE" in str(odds)
    # Wild Card leaders with d8: hands far above EXACT_LIMIT, so auto samples them (mixed)
    big_a = Army("North", 6, Leader("V", battle_die="d8"))
    big_b = Army("South", 5, Leader("I", battle_die="d6"))
    mixed = battle_outcome(big_a, big_b, max_rounds=2, trials=60)
    assert mixed.method in ("mixed", "monte_carlo") and not mixed.exact and (6, 6) in mixed.sampled
    with pytest.raises(TooBigError, match="above the limit"):
        battle_outcome(big_a, big_b, max_rounds=2, method="exact")


def test_battle_outcome_bad_input():
    with pytest.raises(InvalidSetupError, match=r"has no tokens and cannot fight \(DB-7\)"):
        battle_outcome(Army("x", 0, SMALL_A.leader), SMALL_B)
    with pytest.raises(InvalidSetupError, match="different names"):
        battle_outcome(SMALL_A, SMALL_A)
    with pytest.raises(InvalidSetupError, match="max_rounds must be a whole number of 1 or more"):
        battle_outcome(SMALL_A, SMALL_B, max_rounds=0)
    with pytest.raises(InvalidSetupError, match="method must be one of"):
        battle_outcome(SMALL_A, SMALL_B, method="guess")
    giant = Leader("G", battle_die="d12", battle_modifier=25)
    with pytest.raises(InvalidSetupError, match=r"more than the 54-card deck holds \(DB-1, DB-2\)"):
        battle_outcome(Army("x", 5, giant), Army("y", 5, giant))


# -- engine findings ---------------------------------------------------------------------------------
def test_engine_mutual_destruction_has_no_winner():
    # DB-7: a successful defence costs the attacker 2 and the defender 1 (DB-1). With a at 2
    # tokens and b at 1, a's attack on b's higher heart leaves both armies at 0 in the same
    # step: neither army survives, so the battle has no winner.
    s = start_clash(*armies(2, 1), ("9S", "10H"))
    end = s.apply("attack 9S").apply("defence 10H")
    assert end.armies[0].tokens == 0 and end.armies[1].tokens == 0
    assert end.winner is None


def test_engine_side_given_the_initiative_keeps_attacking_while_she_holds_a_spade():
    # DB-6: "if she passes or has none, the initiative passes, and the other side **must**
    # attack while she holds a spade" (rule text 3: "He must attack, laying spade cards").
    # a holds the initiative (9S) and must open (DB-3): she attacks with 9S, b's manoeuvre
    # 6D fails (6 < 9); a, holding no attack card, passes by herself (DB-6); b must attack
    # (no pass) and does, with 5S; a's defence 2H fails. b still holds 4S, so she must go on
    # attacking.
    s = start_clash(A10, B10, ("9S 2H 3H", "5S 4S 6D"))
    s = s.apply("attack 9S").apply("manoeuvre 6D")
    assert s.current_player == "b" and s.legal_actions() == ["attack 5S", "attack 4S"]
    s = s.apply("attack 5S").apply("defence 2H")
    assert s.current_player == "b" and s.hands[1] == (Card("4S"),)
    assert s.legal_actions() == ["attack 4S"]
