"""Fairy Meat hand and attack odds against independent references.

References: hand arithmetic from the rule text (docs/rulings.md FM-1..FM-12), brute force
over every hand and every deal, the engine enumerated card type by card type (no draw
law), the referee on real plays, and the engine sampled by Monte Carlo.
"""

import itertools
import random
from collections import defaultdict
from fractions import Fraction
from math import ceil, comb

import pytest

import toolkit.fairy_meat.odds as odds
import toolkit.fairy_meat.odds.deals as deals
import toolkit.fairy_meat.odds.draws as draws
from toolkit.cards import Card, parse_cards, standard_deck
from toolkit.engine import play_out
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.deck import deck_cards
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.odds import (
    AttackOutcome,
    HandComposition,
    attack_odds,
    deal_averaged_odds,
    exact_size,
    hand_composition,
    hand_compositions,
)
from toolkit.fairy_meat.odds.checks import resolve_policies
from toolkit.fairy_meat.odds.classes import (
    DRAWS,
    bare_side,
    class_key,
    class_reach,
    fold_class,
    hidden_role,
    judge_one,
    side_view,
)
from toolkit.fairy_meat.odds.families import Family, type_key
from toolkit.fairy_meat.odds.known_hands import enumerate_attack, start_known_hands
from toolkit.fairy_meat.odds.weighing import settle
from toolkit.fairy_meat.policies import (
    POLICIES,
    greedy_order,
    greedy_policy,
    random_policy,
)
from toolkit.fairy_meat.referee import Play, is_numbered, is_trump, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.montecarlo import tolerance
from toolkit.prob import Distribution

DECK = standard_deck()
A, D = "attacker", "defender"


def win(points, damage=None, nasty=False):
    return AttackOutcome(A, points, points if damage is None else damage, nasty)


def loss(points, nasty=False):
    return AttackOutcome(D, points, 0, nasty)


DRAW = AttackOutcome("draw", 0, 0, False)


# -- hand compositions (FM-1) ---------------------------------------------------------------
def kind(card):
    if is_numbered(card):
        return "numbered"
    return "red" if card.colour == "red" else "black"


def composition_of(hand):
    kinds = [kind(c) for c in hand]
    return HandComposition(kinds.count("numbered"), kinds.count("red"), kinds.count("black"), Card("AS") in hand)


def test_hand_composition_by_hand_arithmetic():
    # FM-1: 36 Numbered cards, 16 Trumps (8 red, 8 black with the A♠).
    two = hand_composition(2)
    assert two.probability(lambda h: h.numbered == 0) == Fraction(comb(16, 2), comb(52, 2))
    assert two.probability(lambda h: h.red_trumps == 1 and h.black_trumps == 1) == Fraction(8 * 8, comb(52, 2))
    for n in (1, 3, 5, 8):
        d = hand_composition(n)
        assert d.probability(lambda h: h.ace_of_spades) == Fraction(n, 52)
        assert d.mean("numbered") == Fraction(36 * n, 52)
    five = hand_composition(5)
    for k in range(6):
        assert five.probability(lambda h, k=k: h.numbered == k) == Fraction(comb(36, k) * comb(16, 5 - k), comb(52, 5))
    assert hand_composition(0).items() == [(HandComposition(0, 0, 0, False), Fraction(1))]


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_hand_composition_matches_brute_force_over_every_hand(n):
    counts = defaultdict(int)
    for hand in itertools.combinations(DECK, n):
        counts[composition_of(hand)] += 1
    assert hand_composition(n) == Distribution(counts)


@pytest.mark.parametrize("a,d", [(1, 1), (2, 1), (1, 2), (0, 2)])
def test_hand_compositions_match_brute_force_over_every_deal(a, d):
    counts = defaultdict(int)
    for hand_a in itertools.combinations(DECK, a):
        rest = [c for c in DECK if c not in hand_a]
        for hand_d in itertools.combinations(rest, d):
            counts[(composition_of(hand_a), composition_of(hand_d))] += 1
    joint = hand_compositions(a, d)
    assert joint == Distribution(counts)
    assert joint.marginal(0) == hand_composition(a)
    assert joint.marginal(1) == hand_composition(d)  # the defender's hand alone is just as random


# -- one attack between known hands, by hand --------------------------------------------------
def test_one_numbered_card_each_by_hand():
    # FM-9: same colour -> highest wins; FM-10: points ceil(diff / 2), 1 damage per point.
    assert attack_odds("5H", "3D").items() == [(win(1), 1)]
    # Different colours -> lowest wins: 5 beats 9 by 4 -> 2 points.
    assert attack_odds("5H", "9C").items() == [(win(2), 1)]
    assert attack_odds("9H", "5C").items() == [(loss(2), 1)]
    # Equal values: a draw, no points (FM-9).
    assert attack_odds("7H", "7D").items() == [(DRAW, 1)]
    # FM-10 table variant: 10 v 2 both red, difference 8 -> 2 damage (5-8), 4 points.
    assert attack_odds("10H", "2D", rules=Rules(damage="table")).items() == [(win(4, damage=2), 1)]
    # Any policy plays a one-card hand the same way (only the declaration differs, and
    # without Trumps it changes nothing).
    assert attack_odds("5H", "9C", ("random", "random")) == attack_odds("5H", "9C")


def test_none_rule_reveal_by_hand():
    # Greedy attacker KH 5H: 5 is 1 from the middle, +1 red Trump -> subtract, places KH.
    # Defender 3C says None (no Trumps): KH stays hidden (FM-5). Colours differ: lowest
    # wins. Revealed: 4 v 3, she loses by 1; hidden: 5 v 3, loses by 2 -> she reveals.
    assert attack_odds("KH 5H", "3C").items() == [(loss(1), 1)]
    # The draft's worked example hands, greedy: Dizzy plays 4C with KS QC subtracted (2);
    # Sparky plays 2D, says None, so her Trumps are hers to reveal: 2 v 2 is a draw, better
    # for her than 4 v 2 (different colours: lowest wins).
    assert attack_odds("KS QC 5C 4C 3D", "2D KC").items() == [(DRAW, 1)]


def test_wild_trump_draw_by_hand():
    # FM-6 with a deck of Numbered cards only: the attacker holds all 15 other Trumps and
    # the 5H; the defender holds only the A♠, so she plays it as a Wild Trump and turns up
    # exactly one card, uniform over the 35 Numbered cards left.
    # Attacker (greedy): 5H, 8 red Trumps (|5-6| + 8 = 9, subtract): 5 - 8 = -3 if revealed,
    # 5 if kept hidden. Defender declares Add. Under the default none_means="no_trumps" the
    # defender plays a Trump (her Wild Trump), so she has not said None: the attacker's
    # Trumps are revealed and applied, -3 against every card she turns up (FM-5).
    trumps = "JH QH KH AH JD QD KD AD JS QS KS JC QC KC AC"
    got = attack_odds(f"{trumps} 5H", "AS")
    expected = defaultdict(Fraction)
    for v in range(2, 11):
        # Black v (2 cards): the A♠ matches: v + 1. Lowest wins: -3 v v+1, by v + 4.
        expected[win(ceil((v + 4) / 2), nasty=True)] += Fraction(2, 35)  # A♠ applied, defender damaged (FM-12)
        # Red v: the A♠ cheats, the attacker shifts +1 / -1 (FM-8). Highest wins: -2 v v-1,
        # the defender wins by v + 1; nobody damaged: no Nasty Hit.
        expected[loss(ceil((v + 1) / 2))] += Fraction(1 if v == 5 else 2, 35)
    assert got == Distribution(expected)
    state = start_known_hands(parse_cards(f"{trumps} 5H"), parse_cards("AS"), Rules())
    assert enumerate_attack(state, (greedy_policy, greedy_policy), draw_law=False) == got
    # The variant none_means="no_face_down": she placed no Trump face down, so she said
    # None and the attacker keeps her Trumps hidden when that is better (5 if hidden).
    old = Rules(none_means="no_face_down")
    got = attack_odds(f"{trumps} 5H", "AS", rules=old)
    expected = defaultdict(Fraction)
    for v in range(2, 11):
        # Black v (2 cards): the A♠ matches: v + 1. Lowest wins; she reveals: -3 v v+1.
        expected[win(ceil((v + 4) / 2), nasty=True)] += Fraction(2, 35)  # A♠ applied, defender damaged (FM-12)
        # Red v (2 cards, one for the 5): the A♠ cheats: the attacker shifts +1 / -1 (FM-8).
        # Highest wins; she keeps her Trumps hidden: 6 v v-1.
        n = 1 if v == 5 else 2
        if v < 7:
            expected[win(ceil((7 - v) / 2), nasty=True)] += Fraction(n, 35)
        elif v == 7:
            expected[DRAW] += Fraction(n, 35)
        else:
            expected[loss(ceil((v - 7) / 2))] += Fraction(n, 35)  # nobody damaged: no Nasty Hit
    assert got == Distribution(expected)
    # The engine alone (card by card, no draw law) agrees.
    state = start_known_hands(parse_cards(f"{trumps} 5H"), parse_cards("AS"), old)
    assert enumerate_attack(state, (greedy_policy, greedy_policy), draw_law=False) == got


def test_blind_draw_and_unopposed_by_hand():
    # FM-7: a defender with no card turns up cards blind; with every Trump in the
    # attacker's hand the first card turned up is hers (uniform over 35 Numbered cards).
    hand = "JH QH KH AH JD QD KD AD JS QS KS JC QC KC AC AS 5H"
    got = attack_odds(hand, "")
    expected = defaultdict(Fraction)
    for v in range(2, 11):
        expected[win(ceil((v + 3) / 2))] += Fraction(2, 35)  # black: lowest wins, she reveals: -3 v v
        n = 1 if v == 5 else 2  # red: highest wins, she keeps them hidden: 5 v v
        outcome = win(ceil((5 - v) / 2)) if v < 5 else DRAW if v == 5 else loss(ceil((v - 5) / 2))
        expected[outcome] += Fraction(n, 35)
    assert got == Distribution(expected)
    # FM-7 variant "unopposed": the attacker wins with ceil(value / 2) points; the defender
    # said None, so the attacker keeps her Trumps hidden (FM-5): 5 -> 3 points, where
    # revealing them would give 5 - 8 = -3 -> 0 points.
    assert attack_odds(hand, "", rules=Rules(undefended="unopposed")).items() == [(win(3), 1)]


def test_unopposed_attacker_may_keep_her_trumps_hidden():
    # FM-5 with the FM-7 variant "unopposed": the defender has no card, so she says None;
    # the attacker's face-down KH stays hidden and she may leave it unrevealed: 5 -> 3
    # points, where revealing it gives 5 - 1 = 4 -> 2. (Regression: the referee used to
    # apply every Trump when unopposed, ignoring "reveal none".)
    state = start_combat(
        Fairy("A", live=3, kill=1),
        Fairy("D", live=1, kill=1),
        Rules(undefended="unopposed"),
        hands=(["5H", "KH"], []),
        defender_modifiers=-1,
        attacks=1,
    )
    for action in ("declare subtract", "declare add", "trumps KH", "play 5H"):
        state = state.apply(action)
    assert "reveal none" in state.legal_actions()
    result = state.apply("reveal none").results[0]
    assert (result.attacker_value, result.points) == (5, 3)


def test_unopposed_defender_is_not_asked_to_shift():
    # FM-7 variant "unopposed": the defender has no card and no choice. The attacker's KS
    # cheats against her 5H (FM-8) and the referee moves her value down itself.
    # (Regression: the engine used to stop at a "shift" step for the defender, whose
    # best_action() raised KeyError('defender') and whose every choice was ignored.)
    state = start_combat(
        Fairy("A", live=3, kill=1),
        Fairy("D", live=1, kill=1),
        Rules(undefended="unopposed"),
        hands=(["5H", "KS"], []),
        defender_modifiers=-1,
        attacks=1,
    )
    for action in ("declare add", "declare add", "trumps KS", "play 5H", "reveal all"):
        state = state.apply(action)
    assert state.phase()[0] != "shift", f"asked {state.legal_actions()}; best_action: {state.best_action()}"


@pytest.mark.parametrize(
    "hand_a,hand_d",
    [
        ("5H", "JD"),  # the defender's Wild Trump draw from a full deck (FM-6)
        ("JC", "5D"),  # the attacker's
        ("JH QH KH AH JD QD KD 4C", "JS QS KS JC QC KC"),  # both draw; 2 red Trumps left... and the A♠
        ("5H KD", ""),  # blind draw (FM-7)
    ],
)
@pytest.mark.parametrize("none_means", ["no_trumps", "no_face_down"])
def test_draw_law_matches_the_engine_card_type_by_type(hand_a, hand_d, none_means):
    # The draw law (FM-6) and the referee classes against the engine stepping through
    # every card turned up (grouped by type only), under both readings of FM-5.
    pols = (greedy_policy, greedy_policy)
    rules = Rules(none_means=none_means)
    state = start_known_hands(parse_cards(hand_a), parse_cards(hand_d), rules)
    assert enumerate_attack(state, pols, draw_law=False) == attack_odds(hand_a, hand_d, rules=rules)


HOARDER = "QH KH AH JD QD KD AD JS QS KS JC QC KC 5C"  # 13 Trumps: only the A♠ is left to turn up


@pytest.mark.parametrize(
    "policies,hand_a,hand_d,rules",
    [
        # The random fairy may place a cheating Trump face down and keep the other for her
        # Wild Trump (FM-4..FM-8); the greedy hoarder keeps the deck short of Trumps.
        (("greedy", "random"), HOARDER, "JH AC", Rules()),
        (("random", "greedy"), "JH AC", HOARDER, Rules(damage="table", nasty_hit="loser")),
        (("random", "random"), "5C KS", "", Rules(undefended="unopposed")),
    ],
)
def test_draw_law_matches_the_engine_for_random_policies(policies, hand_a, hand_d, rules):
    pols = tuple(POLICIES[p] for p in policies)
    state = start_known_hands(parse_cards(hand_a), parse_cards(hand_d), rules)
    expected = enumerate_attack(state, pols, draw_law=False)
    assert attack_odds(hand_a, hand_d, policies, rules) == expected


def test_attack_odds_is_the_same_for_cards_of_one_type():
    # The calculators count card types: suits of one colour, and Trumps of one colour other
    # than the A♠, are interchangeable for the rules and the policies.
    for pols in [("greedy", "greedy"), ("random", "random")]:
        assert attack_odds("KS 5C 4H", "QD 9S", pols) == attack_odds("QC 5S 4D", "JH 9C", pols)


# -- the referee classes: every shortcut is the referee's own judgement --------------------
def random_plays(rng, rules):
    """Two real plays with random cards: Numbered card, direction, Trumps face down (one
    colour), a Wild Trump, Trumps turned up; an unopposed defender sometimes."""
    deck = list(DECK)
    rng.shuffle(deck)
    numbered = [c for c in deck if is_numbered(c)]
    trumps = [c for c in deck if is_trump(c)]

    def side():
        number = numbered.pop()
        placed = []
        if rng.random() < 0.6:
            colour = rng.choice(["red", "black"])
            pool = [c for c in trumps if c.colour == colour]
            placed = pool[: rng.randint(1, min(3, len(pool)))] if pool else []
            for c in placed:
                trumps.remove(c)
        wild = trumps.pop() if rng.random() < 0.3 and len(trumps) > 2 else None
        drawn = [trumps.pop() for _ in range(min(len(trumps) - 2, rng.choice([0, 0, 1, 2, 4, 6])))]
        direction = rng.choice(["add", "subtract"])
        return Play(number, trumps=tuple(placed), direction=direction, drawn=tuple(drawn), wild=wild)

    play_a = side()
    play_d = None if (rules.undefended == "unopposed" and rng.random() < 0.3) else side()
    return play_a, play_d


def family(play):
    placed = None
    if play.trumps:
        ace = Card("AS") in play.trumps
        placed = (play.trumps[0].colour, len(play.trumps) - ace, ace)
    wild = None if play.wild is None else type_key(play.wild)
    fam = Family("wild" if wild else "play", play.sign, placed, wild, play.number.colour)
    types = [type_key(c) for c in play.drawn]
    return fam, (types.count("R"), types.count("B"), types.count("S"))


def judged_by_class(play_a, play_d, rules, fold):
    fam_a, drawn_a = family(play_a)
    if play_d is None:
        owner = "attacker" if play_a.trumps else None
        va, off_a = side_view(fam_a, play_a.number.colour, drawn_a, owner == "attacker")
        key, delta = class_key("unopposed", va, None), play_a.number.pips + off_a
    else:
        fam_d, drawn_d = family(play_d)
        owner = hidden_role(fam_a, fam_d, rules, (drawn_a, drawn_d))  # FM-5: the one function
        va, off_a = side_view(fam_a, play_a.number.colour, drawn_a, owner == A)
        vd, off_d = side_view(fam_d, play_d.number.colour, drawn_d, owner == D)
        key = class_key(owner, va, vd)
        delta = play_a.number.pips + off_a - play_d.number.pips - off_d
    weights = settle({key: {delta: 1}}, rules, workers=1, fold=fold)
    (outcome,) = weights
    return outcome


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(damage="table", nasty_hit="loser"),
        Rules(none_reveal="subset"),
        Rules(undefended="unopposed"),
        Rules(none_means="no_face_down"),
    ],
)
def test_referee_classes_agree_with_the_referee_on_real_plays(rules):
    # A side counts for the referee only by: colour, her Trumps matching / cheating / the
    # A♠ (hidden or applied), the applied matching Trumps folded into her value (FM-8), the
    # difference of the two values (FM-9, FM-10), colours swapped when the A♠ is not in
    # play, and (folded) the shifts from applied cheating Trumps. Each shortcut is checked
    # against resolve_attack on the real plays.
    rng = random.Random(7)
    for _ in range(400):
        play_a, play_d = random_plays(rng, rules)
        expected = odds.outcome_of(resolve_attack(play_a, play_d, rules))
        assert judged_by_class(play_a, play_d, rules, fold=False) == expected, (play_a, play_d)
        assert judged_by_class(play_a, play_d, rules, fold=True) == expected, (play_a, play_d)


def test_folded_classes_of_5_v_3_agree_with_their_unfolded_judgement():
    # The benchmark case: every class the exact 5 v 3 greedy calculation folds, at 1,500
    # of its (class, difference) items drawn at random, judged folded and unfolded.
    captured = {}
    real_settle = deals.settle

    def capture(buckets, rules, workers=None, fold=True):
        captured["buckets"] = buckets
        return real_settle(buckets, rules, workers, fold)

    deals.settle = capture
    try:
        deal_averaged_odds(5, 3, method="exact")
    finally:
        deals.settle = real_settle
    rules = Rules()
    items = []
    for key, bucket in captured["buckets"].items():
        reduced, shift = fold_class(key, rules)
        lo, hi = class_reach(reduced, bare_side(reduced, rules))
        items += [(key, reduced, delta, shift) for delta in bucket if reduced != key and lo <= delta + shift <= hi]
    assert len({key for key, *_ in items}) > 200
    for key, reduced, delta, shift in random.Random(3).sample(items, 1500):
        assert judge_one(rules, reduced, delta + shift) == judge_one(rules, key, delta), (key, delta)


# -- averaged over deals: exact against a brute force over every deal ------------------------
def card_type(card):
    return (card.colour, card.pips) if is_numbered(card) else ("A♠" if card == Card("AS") else card.colour)


def brute_force_deals(a, d, policies, rules=None):
    """Every deal of an a-card and a d-card hand, each played through attack_odds (the engine
    enumerated), counted once. Deals with the same card types share one attack_odds call
    (on the first such deal), weighted by how many deals they are."""
    types = {c: str(card_type(c)) for c in DECK}
    counted = defaultdict(int)  # deals of the same card types, counted together
    first = {}
    for hand_a in itertools.combinations(DECK, a):
        rest = [c for c in DECK if c not in hand_a]
        for hand_d in itertools.combinations(rest, d):
            key = (tuple(sorted(types[c] for c in hand_a)), tuple(sorted(types[c] for c in hand_d)))
            counted[key] += 1
            first.setdefault(key, (hand_a, hand_d))
    assert sum(counted.values()) == comb(52, a) * comb(52 - a, d)
    totals = defaultdict(Fraction)
    for key, n in counted.items():
        for outcome, p in attack_odds(*first[key], policies, rules).items():
            totals[outcome] += p * n
    return Distribution(totals)


@pytest.mark.parametrize("policies", [("greedy", "greedy"), ("random", "random"), ("greedy", "random")])
def test_one_v_one_exact_matches_brute_force_over_every_deal(policies):
    exact = deal_averaged_odds(1, 1, policies, method="exact")
    assert exact.method == "exact"
    assert exact.distribution == brute_force_deals(1, 1, policies)


@pytest.mark.parametrize("rules", [Rules(), Rules(none_means="no_face_down")], ids=["no_trumps", "no_face_down"])
def test_two_v_one_exact_matches_brute_force_over_every_deal(rules):
    exact = deal_averaged_odds(2, 1, ("greedy", "greedy"), rules, method="exact")
    assert exact.distribution == brute_force_deals(2, 1, ("greedy", "greedy"), rules)


@pytest.mark.parametrize(
    "a,policies,rules",
    [
        (2, ("greedy", "greedy"), Rules()),
        (2, ("greedy", "greedy"), Rules(undefended="unopposed", nasty_hit="loser", damage="table")),
        (1, ("random", "random"), Rules()),
        (1, ("random", "random"), Rules(undefended="unopposed")),
        (2, ("greedy", "greedy"), Rules(none_means="no_face_down")),  # FM-5: a blind Trump is not None by default
    ],
)
def test_blind_defender_exact_matches_brute_force(a, policies, rules):
    # d = 0: the defender always turns up cards blind (FM-7), or is unopposed.
    exact = deal_averaged_odds(a, 0, policies, rules, method="exact")
    assert exact.distribution == brute_force_deals(a, 0, policies, rules)


def test_generic_path_for_other_policies_matches_the_counting_path():
    # A policy the calculator has no counting model for goes through every pair of hand
    # compositions and the engine (no draw law): same answer as the greedy model.
    def my_greedy(state):
        return greedy_policy(state)

    generic = deal_averaged_odds(1, 1, (my_greedy, my_greedy), method="exact")
    assert generic.distribution == deal_averaged_odds(1, 1, method="exact").distribution
    assert generic.size == 440  # compositions of 1 card over 21 types, both hands: 21 * 21, less A♠ twice


def test_greedy_plays_agree_with_an_icepool_evaluator():
    # The benchmark's icepool MultisetEvaluator re-implements the greedy ranking on
    # Deck.deal((a, d)): the joint of both hands' plays must equal our counting model's.
    pytest.importorskip("icepool")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "bench_fairy_meat.py"
    spec = importlib.util.spec_from_file_location("bench_fairy_meat", path)
    bench = importlib.util.module_from_spec(spec)
    import sys

    sys.path.insert(0, str(path.parent))  # the scripts share bench/_results.py
    try:
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(path.parent))
    for a, d in [(1, 0), (2, 1), (3, 1), (2, 2)]:
        assert bench.weights_to_table(bench.our_plays(a, d)) == bench.die_to_table(bench.icepool_plays(a, d))


# -- exact against Monte Carlo over the engine ---------------------------------------------
def test_exact_matches_monte_carlo_on_3_v_2():
    # Monte Carlo deals random hands and plays the attack out through the engine, every
    # Wild Trump draw card by card: independent of the counting.
    trials = 1500
    exact = deal_averaged_odds(3, 2, method="exact")
    sampled = deal_averaged_odds(3, 2, method="monte_carlo", trials=trials, seed=5)
    assert sampled.method == "monte_carlo" and sampled.trials == trials
    events = {
        "attacker wins": lambda o: o.winner == A,
        "defender wins": lambda o: o.winner == D,
        "draw": lambda o: o.winner == "draw",
        "2+ damage": lambda o: o.damage >= 2,
        "nasty hit": lambda o: o.nasty_hit,
    }
    for name, event in events.items():
        p = exact.probability(event)
        assert abs(float(sampled.probability(event)) - float(p)) <= tolerance(p, trials), name
    lo, hi = sampled.interval(events["attacker wins"])
    assert lo < float(sampled.probability(events["attacker wins"])) < hi


# -- the switch-over between exact and Monte Carlo ------------------------------------------
def test_auto_switches_at_the_limit(monkeypatch):
    small, big = exact_size(1, 1), exact_size(3, 2)
    assert small < big
    monkeypatch.setattr(deals, "EXACT_LIMIT", small)
    assert deal_averaged_odds(1, 1).method == "exact"
    auto = deal_averaged_odds(3, 2, trials=40, seed=1)
    assert auto.method == "monte_carlo" and auto.size == big and auto.trials == 40
    with pytest.raises(TooBigError) as err:
        deal_averaged_odds(3, 2, method="exact")
    message = str(err.value)
    assert f"{big:,}" in message and "monte_carlo" in message and "3 v 2" in message


def test_generic_policies_switch_by_composition_pairs(monkeypatch):
    def mine(state):
        return random_policy(state)

    assert exact_size(2, 1, (mine, mine)) == 4792
    with pytest.raises(TooBigError, match="4,792 pairs of hand compositions"):
        monkeypatch.setattr(deals, "GENERIC_EXACT_LIMIT", 4791)
        deal_averaged_odds(2, 1, (mine, mine), method="exact")
    assert deal_averaged_odds(2, 1, (mine, mine), trials=20).method == "monte_carlo"


def test_draw_counts_are_the_draws_made():
    # the counts exact_size uses, against the lists the count weighs (FM-6): every kind's
    # count of Trumps left from 0 to 3, three kinds and four (jokers), two decks and spans
    for kinds in (3, 4):
        for trumps in itertools.product(range(4), repeat=kinds):
            for deck, k in ((30, 18), (12, 12)):
                assert draws.single_draw_count(trumps) == len(draws.single_draws(trumps, deck, k)), trumps
                assert draws.double_draw_count(trumps) == len(draws.double_draws(trumps, deck, k)), trumps


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers=2)], ids=["draft", "two jokers"])
def test_exact_size_is_the_sum_over_every_pair_of_choices(rules):
    # the size summed pair of choices by pair, with the draws' lists themselves: 4 items per
    # double draw, 2 per single draw, else the pair's Numbered card types (at least 1 each)
    pols = resolve_policies("greedy")
    for a, d in itertools.product(range(1, 5), range(1, 4)):
        models = deals.model_pair(pols, rules)
        deck = len(deck_cards(rules)) - a - d
        k = deals.draw_span(deck, rules)
        total = 0
        for _, _, _, left, choices_a, choices_d in deals.trump_contexts(a, d, models, rules):
            for ca, cd in itertools.product(choices_a, choices_d):
                draw_a, draw_d = ca.family.kind in DRAWS, cd.family.kind in DRAWS
                if draw_a and draw_d:
                    total += 4 * len(draws.double_draws(left, deck, k))
                elif draw_a or draw_d:
                    total += 2 * len(draws.single_draws(left, deck, k))
                else:
                    total += max(len(ca.types), 1) * max(len(cd.types), 1)
        assert exact_size(a, d, "greedy", rules) == total, (a, d)


def test_standard_sizes_run_exact_by_default():
    # 5 v 3 with the greedy policies is exact under "auto"; random 5 v 3 is not.
    assert exact_size(5, 3) <= odds.EXACT_LIMIT
    assert exact_size(5, 3, ("random", "random")) > odds.EXACT_LIMIT


def test_deal_odds_reports_exact_intervals():
    result = deal_averaged_odds(1, 1, method="exact")
    p = result.probability(lambda o: o.winner == A)
    assert result.interval(lambda o: o.winner == A) == (p, p)  # exact: the Fraction twice
    assert result.estimate(lambda o: o.winner == A) is None
    assert sum(result.distribution.weights().values()) == result.distribution.total
    assert "exact" in str(result)


# -- bad input ------------------------------------------------------------------------------
def test_bad_hands():
    with pytest.raises(InvalidSetupError, match="5H appear more than once"):
        attack_odds("5H 5H", "3D")
    with pytest.raises(InvalidSetupError, match="5H appear more than once in the two hands"):
        attack_odds("5H", "5H")
    with pytest.raises(NotationError, match="'1X' is not a card"):
        attack_odds("1X", "3D")
    with pytest.raises(InvalidSetupError, match="empty"):
        attack_odds("", "3D")
    with pytest.raises(InvalidSetupError, match="no jokers"):
        attack_odds("JK1", "3D")
    with pytest.raises(InvalidSetupError, match="unknown policy 'clever'"):
        attack_odds("5H", "3D", ("clever", "greedy"))


def test_a_policy_choosing_an_illegal_action_is_reported():
    def cheat(state):
        return Distribution.certain("declare sideways")

    with pytest.raises(IllegalActionError, match="declare sideways"):
        attack_odds("5H", "3D", (cheat, "greedy"))


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: hand_composition(-1), r"\(cards\) must be a whole number of 0 or more, got -1"),
        (lambda: hand_composition(53), "the deck holds 52"),
        (lambda: hand_composition(2.0), "whole number"),
        (lambda: hand_compositions(30, 30), "need 60 cards"),
        (lambda: deal_averaged_odds(-1, 2), r"\(cards\) must be a whole number of 0 or more, got -1"),
        (lambda: deal_averaged_odds(3, -2), r"\(cards\) must be a whole number of 0 or more, got -2"),
        (lambda: deal_averaged_odds(0, 2), "no attack"),
        (lambda: deal_averaged_odds(30, 22), "at least 1 must stay"),
        (lambda: deal_averaged_odds(1, 1, method="fast"), "method must be"),
        (lambda: deal_averaged_odds(1, 1, trials=0), "trials must be"),
        (lambda: deal_averaged_odds(1, 1, policies=("greedy",)), "must be a pair"),
    ],
)
def test_bad_sizes_and_options(call, match):
    with pytest.raises(InvalidSetupError, match=match):
        call()


# -- the policies -----------------------------------------------------------------------------
def states_of_random_playouts(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        a, d = rng.randint(1, 6), rng.randint(0, 4)
        cards = rng.sample(DECK, a + d)
        state = start_known_hands(cards[:a], cards[a:], Rules())
        while not state.is_terminal:
            yield state
            if state.is_chance_node:
                state = state.apply_listed(state.sample_chance(rng))
            else:
                state = state.apply_listed(random_policy(state).sample(rng))


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_policies_only_choose_legal_actions(name):
    policy = POLICIES[name]
    for state in states_of_random_playouts(150, seed=3):
        if state.is_chance_node:
            continue
        dist = policy(state)
        assert set(dist.outcomes()) <= set(state.legal_actions())
        assert sum(p for _, p in dist.items()) == 1
        if state.phase()[0] in ("reveal", "bonus", "shift"):
            assert dist.items() == [(state.best_action(), 1)]  # the referee's choice


def test_greedy_plays_the_drafts_example_like_dizzy_planned():
    # Dizzy's KS QC 5C 4C 3D: the 4 of clubs with both black Trumps subtracted is the most
    # extreme (4 - 2 = 2, four below the middle) — "going low on the 4" as in the draft.
    state = start_known_hands(parse_cards("KS QC 5C 4C 3D"), parse_cards("2D KC"), Rules())
    state = state.apply(greedy_policy(state).outcomes()[0])
    assert state.declared[0] == "subtract"
    state = state.apply(greedy_policy(state).outcomes()[0])
    assert state.declared[1] == "subtract"  # Sparky's 2D is his most extreme card
    assert greedy_policy(state).outcomes() == ["trumps KS QC"]
    state = state.apply("trumps KS QC")
    assert greedy_policy(state).outcomes() == ["trumps none"]  # no red Trump for the 2D
    state = state.apply("trumps none")
    assert greedy_policy(state).outcomes() == ["play 4C"]


def test_greedy_order_by_hand():
    # Extremeness |pips - 6| + Trumps of the colour; ties: Add first, then red.
    order = greedy_order(1, 0)
    assert order[:4] == [
        ("red", 10, "add"),  # 4 + 1
        ("red", 2, "subtract"),  # 4 + 1, Subtract after Add
        ("red", 9, "add"),  # 3 + 1 ...
        ("black", 10, "add"),  # ... ties 4 + 0: red first
    ]
    assert len(set(order)) == 18


def test_greedy_never_reads_the_opponent():
    # The defender decides the same whatever the attacker's hand and her face-down choice
    # at the same step; the attacker the same whatever the defender holds.
    def run(hand_a, hand_d, actions):
        state = start_known_hands(parse_cards(hand_a), parse_cards(hand_d), Rules())
        for action in actions:
            state = state.apply(action)
        return greedy_policy(state).items()

    decl = ["declare add", "declare add"]
    assert run("KH 9H", "3C 8D", decl + ["trumps KH"]) == run("QS 2C", "3C 8D", decl + ["trumps QS"])
    assert run("KH 9H", "3C 8D", decl + ["trumps KH", "trumps none", "play 9H"]) == run(
        "KH 2C", "3C 8D", decl + ["trumps KH", "trumps none", "play 2C"]
    )
    assert run("KH 9H", "3C 8D", ["declare add"]) == run("KH 9H", "JS QS 2D", ["declare add"])


def test_monte_carlo_playouts_use_the_policies():
    # The engine with the greedy policy plays a known deal the way attack_odds counts it.
    rng = random.Random(1)
    state = start_known_hands(parse_cards("KH 5H"), parse_cards("3C"), Rules())
    end = play_out(state, rng, {A: greedy_policy, D: greedy_policy})
    assert odds.outcome_of(end.results[0]) == loss(1)
