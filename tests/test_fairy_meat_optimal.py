"""Optimal play of a Fairy Meat attack between known hands (issue 5, FM-3..FM-11).

References: an independent brute force — every pure strategy of each side written out
from the rule text (FM-3 declarations in the open, FM-4 Trumps of one colour, FM-5 the
None rule hiding face-down Trumps, FM-6 must play a Numbered card), payoffs from the
referee on real cards, and the matrix game solved as a normal-form LP — and the engine
enumerated with fixed policies (toolkit.engine.enumerate_outcomes), which never builds
the game tree.
"""

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog

import toolkit.fairy_meat.strategy.optimal as optimal
from toolkit.cards import parse_cards
from toolkit.engine import enumerate_outcomes
from toolkit.errors import InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.deck import card_type
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.policies import cautious_policy, greedy_policy, random_policy
from toolkit.fairy_meat.referee import Play, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.fairy_meat.strategy.optimal import draw_outcomes, game_size, hint, solve_attack
from toolkit.fairy_meat.strategy.payoff import Payoff


# -- the brute force -----------------------------------------------------------------------
def trump_sets(hand):
    """FM-4: None, or any non-empty set of Trumps of one colour (FM-6: keep a Trump back
    for a Wild Trump if there is no Numbered card — not needed here, hands hold one)."""
    trumps = [c for c in hand if c.rank in "JQKA"]
    out = [()]
    for colour in ("red", "black"):
        group = [c for c in trumps if c.colour == colour]
        for k in range(1, len(group) + 1):
            out += list(itertools.combinations(group, k))
    return out


def seen(mine, theirs):
    """FM-5: what one side sees of the other's Trumps once both are placed."""
    if bool(mine) == bool(theirs) or not theirs:
        return tuple(sorted(c.code for c in theirs))
    return ("face down", len(theirs))


def pure_strategies(hand, other_hand):
    """(Trump set, {what she saw: Numbered card}) for every way to fill the plan in."""
    out = []
    for t in trump_sets(hand):
        numbered = [c for c in hand if c.rank not in "JQKA"]
        views = sorted({seen(t, u) for u in trump_sets(other_hand)})
        for cards in itertools.product(numbered, repeat=len(views)):
            out.append((t, dict(zip(views, cards, strict=True))))
    return out


def matrix_value(m):
    """Value of the zero-sum matrix game (row maximises), by the textbook LP."""
    m = np.array(m, dtype=float)
    rows, cols = m.shape
    c = np.zeros(rows + 1)
    c[-1] = -1
    a_ub = np.hstack([-m.T, np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1], bounds=[(0, None)] * rows + [(None, None)])
    return res.x[-1]


def brute_value(a_codes, d_codes, rules, payoff):
    ha, hd = parse_cards(a_codes), parse_cards(d_codes)
    sa, sd = pure_strategies(ha, hd), pure_strategies(hd, ha)
    best = None
    for da in ("add", "subtract"):  # FM-3: the attacker declares first, in the open
        worst = None
        for dd in ("add", "subtract"):
            m = []
            for ta, pa in sa:
                row = []
                for td, pd in sd:
                    r = resolve_attack(
                        Play(pa[seen(ta, td)], trumps=ta, direction=da),
                        Play(pd[seen(td, ta)], trumps=td, direction=dd),
                        rules,
                    )
                    row.append(float(payoff.of(r)))
                m.append(row)
            v = matrix_value(m)
            worst = v if worst is None else min(worst, v)
        best = worst if best is None else max(best, worst)
    return best


CASES = [
    ("KS QC 5C 4C 3D", "2D KC", Rules(), Payoff()),  # the draft's worked example
    ("KS 5C 9H", "QH 3D 8S", Rules(), Payoff()),
    ("JH 4D 7C", "KD 6S", Rules(damage="table"), Payoff(defender_points=0)),
    ("AS QD 2C 10H", "JC 9D 5S", Rules(none_reveal="subset"), Payoff(nasty_hit=2)),
]


@pytest.mark.parametrize(("a", "d", "rules", "payoff"), CASES)
def test_value_matches_normal_form_brute_force(a, d, rules, payoff):
    sol = solve_attack(a, d, rules, payoff)
    assert sol.verified, sol.exploitability
    assert float(sol.value) == pytest.approx(brute_value(a, d, rules, payoff), abs=1e-9)


def draft_plan(declare, trumps, card):
    """The engine policy that plays one fixed plan (what a fairy did in the draft)."""
    from toolkit.prob import Distribution

    def policy(state):
        step, _ = state.phase()
        wanted = {"declare": f"declare {declare}", "trumps": f"trumps {trumps}", "play": f"play {card}"}.get(step)
        return Distribution.certain(wanted if wanted in state.legal_actions() else state.legal_actions()[0])

    return policy


def test_worked_example_first_attack():
    # The brute force above gives value 1: Dizzytwig can make sure of a point. What the
    # draft has her do — subtract, KS QC face down, then the 3D — Sparklespaz beats with
    # his bluff (add, KC, 2D): the draft's own result, Sparky scores 1 point (payoff -1).
    sol = solve_attack("KS QC 5C 4C 3D", "2D KC")
    assert sol.value == 1
    played = draft_plan("subtract", "KS QC", "3D")
    assert sol.value_of(played, draft_plan("add", "KC", "2D")) == -1
    assert sol.best_response_value("defender", played) <= -1
    # every reachable decision of Dizzy's equilibrium is pure
    assert all(max(d["mix"].values()) == 1 for d in sol.decisions("attacker"))


def known_state(a, d, attacks=1):
    ha, hd = parse_cards(a), parse_cards(d)
    return start_combat(
        Fairy("Attacker", live=1, kill=1),
        Fairy("Defender", live=1, kill=1),
        hands=(ha, hd),
        attacker_modifiers=len(ha) - 2,
        defender_modifiers=len(hd) - 1,
        attacks=attacks,
    )


def engine_value(state, policies):
    payoff = Payoff()
    dist = enumerate_outcomes(state, lambda s: sum((payoff.of(r) for r in s.results), Fraction(0)), policies)
    return dist.mean()


@pytest.mark.parametrize(("a", "d"), [("KS 5C 9H", "QH 3D 8S"), ("JH QH 4D 7C", "KD 6S 2H")])
def test_fixed_policies_match_the_engine_enumerated(a, d):
    sol = solve_attack(a, d)
    state = known_state(a, d)
    for pa, pd, fa, fd in [
        ("random", "random", random_policy, random_policy),
        ("greedy", "random", greedy_policy, random_policy),
        ("random", "greedy", random_policy, greedy_policy),
    ]:
        expected = engine_value(state, {"attacker": fa, "defender": fd})
        assert sol.value_of(pa, pd) == expected


def test_best_responses_bracket_the_value():
    sol = solve_attack("JH QH 4D 7C", "KD 6S 2H")
    for naive in ("random", "greedy"):
        # a strong attacker takes at least the value from a naive defender, and a naive
        # attacker gets no more than the value against the strong defender
        assert sol.best_response_value("attacker", naive) >= sol.value >= sol.value_of(naive, "equilibrium")
        assert sol.best_response_value("defender", naive) <= sol.value <= sol.value_of("equilibrium", naive)


#: Twelve of the sixteen Trumps out of the deck (in the Spoils Heap): draws end sooner,
#: which keeps the exact solves of draw-heavy games quick for the test suite.
FEW_TRUMPS = [f"{r}{s}" for r in "JQK" for s in "SHDC"]


#: FEW_TRUMPS and the Numbered ♠ and ♦ but the 4♠ and 5♠ out too: the deck keeps one card or
#: more of every card type (FM-1: 2-10 red and black, a red Trump, a black Trump, the A♠) in
#: 22 cards, where the brute force of the engine enumerated turns up every one of them.
FEW_CARDS = [
    *FEW_TRUMPS,
    *(f"{r}{s}" for r in ("2", "3", "6", "7", "8", "9", "10") for s in "SD" if r + s != "3D"),
    "4D",
    "5D",
]


def test_two_attacks_with_a_blind_draw():
    # 2 v 1 over two attacks: the defender has no card for the second attack and turns up
    # cards blind (FM-7). Against the engine enumerated with fixed policies (chance
    # included), exactly.
    sol = solve_attack("5C 4C", "3D", attacks=2, removed=FEW_CARDS)
    assert sol.exploitability < Fraction(1, 10**9)
    state = known_state("5C 4C", "3D", attacks=2)
    pile = state.pile
    from toolkit.cards import Pile

    gone = set(parse_cards(FEW_CARDS))
    assert {card_type(c) for c in pile.shuffled - gone} == {card_type(c) for c in pile.shuffled}
    state = dataclasses.replace(state, pile=Pile((), pile.shuffled - gone, tuple(parse_cards(FEW_CARDS))))
    for pa, pd, fa, fd in [
        ("random", "greedy", random_policy, greedy_policy),
        ("greedy", "greedy", greedy_policy, greedy_policy),
    ]:
        assert sol.value_of(pa, pd) == engine_value(state, {"attacker": fa, "defender": fd})


def test_information_the_none_rule_hides():
    # FM-5: the attacker said None, the defender placed one Trump: the attacker knows
    # only that one card lies face down, not its colour.
    base = known_state("5C 9H", "QH KS 3D").apply("declare add").apply("declare add").apply("trumps none")
    red = base.apply("trumps QH")
    black = base.apply("trumps KS")
    assert red.information_state("attacker", hands_known=True) == black.information_state("attacker", hands_known=True)
    assert red.information_state("defender", hands_known=True) != black.information_state("defender", hands_known=True)
    # simultaneous choice: the defender's key does not show the attacker's pending Trumps
    s = known_state("5C 9H KD", "QH 3D").apply("declare add").apply("declare add")
    assert s.apply("trumps none").information_state("defender") == s.apply("trumps KD").information_state("defender")


def test_hint_at_the_defenders_step_ignores_the_attackers_pending_choice():
    s = known_state("KS QC 5C 4C 3D", "2D KC").apply("declare subtract").apply("declare add")
    h1 = hint(s.apply("trumps KS QC"))
    h2 = hint(s.apply("trumps none"))
    assert h1 is not None and h1 == h2
    assert sum(h1[1].values()) == 1
    assert hint(s.apply("trumps none").apply("trumps none").apply("play 5C").apply("play 2D")) is None


def test_bad_hands_are_refused_clearly():
    with pytest.raises(NotationError, match="1X"):
        solve_attack("1X 5C", "2D")
    with pytest.raises(InvalidSetupError, match="5C"):
        solve_attack("5C 4C", "5C")
    with pytest.raises(InvalidSetupError, match="empty"):
        solve_attack("", "2D")
    with pytest.raises(InvalidSetupError, match="attacks"):
        solve_attack("5C", "2D", attacks=0)


def test_too_big_is_said_before_starting(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the solver started walking the game")

    monkeypatch.setattr(optimal, "build_tree", never)
    size = game_size(parse_cards("7H KD 7D 8D AH"), parse_cards("JH QD KS"))
    with pytest.raises(TooBigError, match=f"{size:,}"):
        solve_attack("7H KD 7D 8D AH", "JH QD KS")


@pytest.mark.parametrize(
    ("rules", "outcomes"),
    [
        # FM-1: 8 red Trumps, 7 black but the A♠, the A♠; 18 Numbered types (2-10, two colours)
        (Rules(), 9 * 8 * 2 * 18),
        # 10s are Trumps: 10 red, 9 black but the A♠, the A♠; 16 Numbered types (2-9)
        (Rules(numbered_ranks=tuple("23456789"), trump_ranks=("10", "J", "Q", "K", "A")), 11 * 10 * 2 * 16),
        # no death card: the A♠ is one more black Trump (FM-12)
        (Rules(death_card=None), 9 * 9 * 1 * 18),
        # two jokers: a fourth Trump kind turned up 0, 1 or 2 times
        (Rules(jokers=2), 9 * 8 * 2 * 3 * 18),
    ],
)
def test_draw_outcomes_count_the_rules_deck(rules, outcomes):
    assert draw_outcomes(rules) == outcomes
    if rules == Rules():
        assert draw_outcomes() == outcomes


def test_removed_cards_change_only_draw_odds():
    # Known hands with Numbered cards on both sides: no card is turned up, so removing
    # cards from the deck changes nothing; with a blind draw it does.
    assert solve_attack("5C 9H", "3D 8S", removed="2C 2D 2H").value == solve_attack("5C 9H", "3D 8S").value
    full = solve_attack("5C 4C", "AH", removed=FEW_TRUMPS).value
    no_low_red = solve_attack("5C 4C", "AH", removed=[*FEW_TRUMPS, *(f"{r}{s}" for r in "2345" for s in "HD")]).value
    assert full != no_low_red


def test_outcomes_under_optimal_play_average_to_the_value():
    # the engine enumerated with the equilibrium as a policy (no game tree) gives the
    # outcomes; their mean payoff must be the value the LP and the verification found
    for a, d in [("JH QH 4D 7C", "KD 6S 2H"), ("KS 5C 9H", "QH 3D 8S")]:
        sol = solve_attack(a, d)
        dist = sol.outcomes(lambda s: sum((Payoff().of(r) for r in s.results), Fraction(0)))
        assert dist.mean() == sol.value


def test_cautious_plays_towards_six():
    # KS QC are black: subtracting brings the 9C to 7 (1 from 6); adding brings the 4C
    # to 6 exactly, so the cautious fairy declares Add and plays 4C with both Trumps.
    from toolkit.fairy_meat.policies import cautious_direction, cautious_plan

    hand = parse_cards("KS QC 9C 4C 3D")
    assert cautious_direction(hand) == "add"
    assert cautious_plan(hand, "add") == (parse_cards("4C")[0], tuple(parse_cards("KS QC")))
    assert cautious_plan(hand, "subtract") == (parse_cards("9C")[0], tuple(parse_cards("KS QC")))
    sol = solve_attack("KS 9C 4C", "QH 3D 8S")
    state = known_state("KS 9C 4C", "QH 3D 8S")
    assert sol.value_of("cautious", "greedy") == engine_value(
        state, {"attacker": cautious_policy, "defender": greedy_policy}
    )


def test_extremeness_by_hand():
    # one card each, no Trumps: the attacker aims at 5 (1 from 6), the defender at 9 (3)
    from toolkit.fairy_meat.strategy.tactics import extremeness

    sol = solve_attack("5C", "9H")
    assert extremeness(sol, "attacker") == 1
    assert extremeness(sol, "defender") == 3


def test_hint_looks_ahead_one_attack_when_the_combat_is_too_big():
    # The draft's hands with fairies of Live 1 over two attacks: too big for a quick hint, so the
    # hint solves the first attack alone and says so; its mix is that attack's equilibrium.
    s = known_state("KS QC 5C 4C 3D", "2D KC", attacks=2).apply("declare subtract").apply("declare add")
    words, mix = hint(s)  # the whole combat: over 200,000 referee judgements
    assert "this attack only" in words
    one = solve_attack("KS QC 5C 4C 3D", "2D KC")
    assert mix == one.mix(known_state("KS QC 5C 4C 3D", "2D KC").apply("declare subtract").apply("declare add"))


def test_no_hint_at_the_wrestling_escape():
    # FM-14: the payoff counts damage, so optimal play always deals it: nothing to hint
    ha, hd = parse_cards("5C 6H"), parse_cards("9C")  # FM-2: the attacker's +1 applies when Wrestling
    s = start_combat(Fairy("A", live=2, kill=1), Fairy("D", live=2, kill=1), hands=(ha, hd), wrestling=True)
    s = s.apply("declare add").apply("declare add").apply("trumps none").apply("trumps none")
    s = s.apply("play 5C").apply("play 9C")
    s = s.apply(s.best_action()) if s.best_action() else s
    assert s.phase()[0] == "escape"
    assert hint(s) is None


# -- the hint along the worked example (issue 12 item 2) -------------------------------------
EXAMPLE = "data/examples/dizzytwig_v_sparklespaz.yaml"


def example_decisions():
    """(move, state) at every decision of the worked example a fairy makes (FM-3, FM-4,
    FM-6, FM-7 Wild Trump points, FM-11), as the stepper walks it."""
    from toolkit.fairy_meat.notation import load_example, plan_example

    moves, states, error = plan_example(load_example(EXAMPLE))
    assert not error
    return [
        (m, s)
        for m, s in zip(moves, states, strict=False)
        if not m.chance and s.phase()[0] in ("declare", "trumps", "play", "score")
    ]


def test_the_worked_example_has_ten_decisions():
    # by hand from the file: 2 declarations, 2 Trump steps, 2 cards, Sparky's FM-11
    # choice, then in attack 2 Dizzy's "trumps none", Sparky's Wild Trump points, Dizzy's 5C
    texts = [m.text for m, _ in example_decisions()]
    assert texts == [
        "declare subtract",
        "declare add",
        "trumps KS QC",
        "trumps KC",
        "play 3D",
        "play 2D",
        "score bonus",
        "trumps none",
        "points black",
        "play 5C",
    ]


def test_hint_at_every_decision_of_the_worked_example():
    # Both attacks solved whole (no "this attack only"), each mix a probability
    # distribution over the fairy's legal choices, exact.
    for move, state in example_decisions():
        found = hint(state)
        assert found is not None, move
        words, mix = found
        assert "this attack only" not in words, move
        assert sum(mix.values()) == 1 and all(isinstance(p, Fraction) and p >= 0 for p in mix.values()), move
        legal = {optimal.same_choice(state, a) for a in state.legal_actions()}
        assert {optimal.same_choice(state, a) for a in mix} <= legal, move


def test_fm11_hint_from_the_worked_example():
    # Issue 12: at Sparky's FM-11 choice the hint raised "a choice remains after the game
    # was declared settled: []" (it fell back to solving an attack that is already over).
    # The choice is about attack 2 (Dizzy 5C 4C against no card: Wild Trump points and a
    # draw, FM-6/FM-7): the hint must pick what the two sub-games say. Each is solved on
    # its own from the state after the choice (the defender minimises the attacker's payoff).
    (_, state) = next((m, s) for m, s in example_decisions() if m.text == "score bonus")
    words, mix = hint(state)
    assert "FM-11" in words
    after = {a: optimal.solve_combat(state.apply(a), size_limit=None).value for a in ("score bonus", "score cards")}
    best = min(after.values())
    assert sum(mix.values()) == 1
    assert {a for a, p in mix.items() if p} <= {a for a, v in after.items() if v == best}
    with pytest.raises(TooBigError, match="too big for a quick hint") as err:
        hint(state, judgement_limit=5)
    assert "settled" not in str(err.value)


def few_cards_removed(keep):
    """Every card but ``keep`` (and the hands) out of the deck, in the Spoils Heap."""
    return [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC" if f"{r}{s}" not in keep.split()]


@pytest.mark.parametrize(
    ("a", "d", "deck", "attacks"),
    [
        # the defender has no Numbered card: she turns up cards (FM-6, FM-7)
        ("5C 4C", "AH", "KD JH QS AS 7H 7D 2C 9S", 1),
        ("KS 5C 4C", "QH", "KD JH JC AS 7H 7D 2C 9D 3S", 1),
        # the worked example's attack 2 shape over two attacks: a blind draw in attack 2
        ("5C 4C", "3D", "KH QH QD QS KC AS 6H 6D 8C 8S", 2),
    ],
)
def test_grouped_draws_give_the_ungrouped_values(a, d, deck, attacks):
    # The grouped game merges cards turned up by type (FM-1, FM-12); the ungrouped one
    # walks every card on its own. Same value, exactly, on small decks.
    from toolkit.equilibrium import solve

    hands = f"{a} {d}".split()
    state = optimal._combat_start(
        parse_cards(a),
        parse_cards(d),
        Rules(),
        attacks,
        tuple(parse_cards(few_cards_removed(deck + " " + " ".join(hands)))),
    )
    grouped = optimal.attack_game(state)
    ungrouped = optimal.attack_game(state, grouped=False)
    assert grouped.nodes < ungrouped.nodes
    g, u = solve(grouped), solve(ungrouped)
    assert g.verified and u.verified
    assert g.value == u.value


@pytest.mark.parametrize(
    "a, d, rules",
    [
        ("KS QC 5C 4C 3D", "2D KC", Rules()),
        ("AS 9H 3C", "KD 7S", Rules(nasty_hit="loser")),
        ("KS QC 5C 4C 3D", "2D KC", Rules(damage="table")),
    ],
)
def test_a_game_priced_for_another_payoff_equals_its_cold_walk(a, d, rules):
    """attack_game walks once in payoff terms and prices the walk for each payoff: a game
    valued for a second payoff after a first is the cold game of that payoff (the same
    pairs of sequences in the same order, the same exact payoffs and bounds), and so is
    its solution."""
    first, second = Payoff(), Payoff(damage=2, defender_points="1/3", nasty_hit=5)
    optimal.clear_attack_games()
    cold = solve_attack(a, d, rules, second)
    optimal.clear_attack_games()
    solve_attack(a, d, rules, first)
    warm = solve_attack(a, d, rules, second)
    assert warm.tree is not cold.tree
    assert list(warm.tree.payoff.items()) == list(cold.tree.payoff.items())
    assert (warm.tree.low, warm.tree.high, warm.tree.leaves, warm.tree.nodes) == (
        cold.tree.low,
        cold.tree.high,
        cold.tree.leaves,
        cold.tree.nodes,
    )
    assert all(isinstance(v, Fraction) for v in warm.tree.payoff.values())
    assert (warm.value, warm.lower, warm.upper) == (cold.value, cold.lower, cold.upper)
    assert warm.equilibrium.strategies == cold.equilibrium.strategies
    assert warm.value_of("greedy", "cautious") == cold.value_of("greedy", "cautious")


def test_payoff_prices_terms_as_it_values_results():
    """Payoff.of is Payoff.price of the result's terms, and pricing is linear over exact
    probabilities (FM-10..FM-12, FM-14)."""
    from toolkit.fairy_meat.strategy.payoff import PayoffTerms, payoff_terms

    r = resolve_attack(
        Play("3D", trumps=("KS", "QC"), direction="subtract"), Play("2D", trumps=("KC",), direction="add")
    )
    pay = Payoff(damage=3, defender_points="1/2", nasty_hit=7)
    assert pay.of(r) == pay.price(payoff_terms(r)) == Fraction(-1, 2)
    t, u = PayoffTerms(2, -1, 1), PayoffTerms(Fraction(1, 3), 0, -1)
    p = Fraction(2, 7)
    assert pay.price(p * t + (1 - p) * u) == p * pay.price(t) + (1 - p) * pay.price(u)
    assert sum([t, u], Fraction(0)) == t + u == PayoffTerms(Fraction(7, 3), -1, 0)
