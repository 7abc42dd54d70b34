"""Durak battle house rules (issue 11): every number of the draft is a field of ``Rules``,
validated, and every calculator follows it.

The exact clash calculators are checked against an independent brute force written
here from the rule text (docs/rulings.md DB-1, DB-3..DB-7 and the toolkit's readings of
DB-3 and DB-6), parameterised by the rules — it shares no code with the clash state
machine, the referee or the initiative rule — on many random valid rule sets (seeded).
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import pytest
from random_play import random_step

from toolkit.cards import RANKS, Card, standard_deck
from toolkit.durak_battle import (
    Army,
    Leader,
    Rules,
    answer_attack,
    battle_outcome,
    clash_losses,
    clash_value,
    greedy_policy,
    hand_size_distribution,
    morale_pass_probability,
    start_battle,
    start_clash,
)
from toolkit.engine import play_out
from toolkit.errors import IllegalActionError, InvalidSetupError
from toolkit.house_rules import RuleFieldError, load_rules, rules_files
from toolkit.montecarlo import tolerance

ACTIONS = ("attack", "defence", "manoeuvre", "counter")


# -- the fields, validated ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "value", "accepted"),
    [
        ("suits", {"attack": "S", "defence": "S", "manoeuvre": "D", "counter": "C"}, "spades are used twice"),
        ("suits", {"attack": "S", "defence": "H", "manoeuvre": "D"}, "counter has no suit"),
        ("suits", {"attack": "S", "defence": "H", "manoeuvre": "D", "counter": "X"}, "'X' is not a suit"),
        ("suits", {"attack": "S", "defence": "H", "manoeuvre": "D", "counter": "C", "rally": "S"}, "not an action"),
        ("suits", "SHDC", "its own suit"),
        ("strike_loss", -1, "from 0 to 10"),
        ("strike_loss", 11, "from 0 to 10"),
        ("strike_loss", 2.5, "whole number"),
        ("strike_loss", True, "whole number"),
        ("defence_won", (2,), "[the attacker, the defender]"),
        ("defence_lost", (1, -2), "from 0 to 10"),
        ("manoeuvre_won", "1 0", "[the attacker, the defender]"),
        ("manoeuvre_lost", (0, 2, 1), "[the attacker, the defender]"),
        ("counter_lower_loss", -1, "from 0 to 10"),
        ("counter_tie", "maybe", "'no_loss' or 'loses'"),
        ("holder_must_attack", "yes", "True or False"),
        ("cards_per_token", 6, "from 0 to 5"),
        ("morale_target", 0, "from 1 to 20"),
        ("morale_per_token", -1, "from 0 to 5"),
        ("morale_penalty", "war", "'clash' or 'battle'"),
        ("jokers", 2, "True or False"),
    ],
)
def test_every_field_is_validated_naming_the_field_and_what_is_accepted(field, value, accepted):
    with pytest.raises(RuleFieldError) as info:
        Rules(**{field: value})
    assert info.value.field == field
    assert str(info.value).startswith(field) and accepted in str(info.value)


def test_fields_from_yaml_shapes_and_suit_names():
    rules = Rules.from_mapping(
        {
            "suits": {"attack": "hearts", "defence": "♠", "manoeuvre": "d", "counter": "Clubs"},
            "defence_won": {"attacker": 3, "defender": 0},
            "manoeuvre_lost": [0, 3],
        }
    )
    assert rules.suits == (("attack", "H"), ("defence", "S"), ("manoeuvre", "D"), ("counter", "C"))
    assert rules.defence_won == (3, 0) and rules.manoeuvre_lost == (0, 3)
    assert hash(rules) == hash(Rules(**{f: getattr(rules, f) for f in Rules.field_names()}))
    assert Rules().variant_name() == "default rules"


def test_house_rules_file_errors_name_file_line_and_field(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("system: durak-battle\nnotes: two attack suits\nsuits: {attack: S, defence: S}\n")
    with pytest.raises(InvalidSetupError) as info:
        Rules.from_yaml(path)
    assert f"{path}:3: suits (Suits of the actions): manoeuvre, counter have no suit" in str(info.value)


@pytest.mark.parametrize("path", rules_files("durak-battle"), ids=lambda p: p.stem)
def test_shipped_files_change_something_explain_it_and_round_trip(path, tmp_path):
    rules = Rules.from_yaml(path)
    assert rules.changes(), path
    assert "notes:" in path.read_text()
    again = tmp_path / "again.yaml"
    again.write_text(rules.to_yaml(notes="again"))
    assert Rules.from_yaml(again) == rules


def test_at_least_three_shipped_files():
    assert {p.stem for p in rules_files("durak-battle")} >= {"cheap_strikes", "harsh_morale", "no_jokers"}
    assert load_rules("durak-battle", "cheap_strikes").strike_loss == 1


# -- the referee and the engine follow the rules, by hand ---------------------------------------
def _losses(answer):
    return (answer.attacker_loss, answer.defender_loss)


def test_referee_reads_the_answer_table():
    rules = Rules(defence_won=(3, 0), defence_lost=(0, 3), manoeuvre_won=(2, 1), manoeuvre_lost=(1, 1))
    assert _losses(answer_attack(Card("9S"), Card("10H"), "defence", rules)) == (3, 0)
    assert _losses(answer_attack(Card("9S"), Card("8H"), "defence", rules)) == (0, 3)
    assert _losses(answer_attack(Card("9S"), Card("9D"), "manoeuvre", rules)) == (2, 1)
    assert _losses(answer_attack(Card("9S"), Card("2D"), "manoeuvre", rules)) == (1, 1)
    low = Rules(counter_lower_loss=3, counter_tie="loses")
    assert answer_attack(Card("9S"), Card("2C"), "counter", low).defender_loss == 3
    assert answer_attack(Card("9S"), Card("9C"), "counter", low).defender_loss == 3
    assert answer_attack(Card("9S"), Card("10C"), "counter", low).defender_loss == 0


def test_suits_move_the_actions():
    swapped = Rules(suits={"attack": "H", "defence": "S", "manoeuvre": "D", "counter": "C"})
    assert answer_attack(Card("9H"), Card("10S"), "defence", swapped).succeeded
    with pytest.raises(IllegalActionError, match="spades defend"):
        answer_attack(Card("9S"), Card("10H"), "defence", swapped)
    north, south = Army("North", 6, Leader("V")), Army("South", 6, Leader("Ivan"))
    state = start_clash(north, south, ("7H 9S", "10H 3C"), swapped)
    assert state.legal_actions() == ["attack 10H"]  # South's 10 of hearts takes the initiative (DB-3)
    assert state.prompt().endswith("attack with a heart or joker, or pass (DB-6).")
    state = state.apply("attack 10H")
    assert state.legal_actions() == ["defence 9S", "take"]
    # the same hands under the default rules: North's 9 of spades attacks
    assert start_clash(north, south, ("7H 9S", "10H 3C")).legal_actions() == ["attack 9S"]


def test_engine_strike_and_narration_follow_the_rules():
    rules = Rules(strike_loss=1)
    north, south = Army("North", 6, Leader("V")), Army("South", 6, Leader("Ivan"))
    end = start_clash(north, south, ("9S", "2H"), rules).apply("attack 9S").apply("take")
    assert end.armies[1].tokens == 5
    assert "South declines to answer: North strikes, South loses 1 token (DB-4)." in [e.text for e in end.events]


def test_engine_recon_and_morale_follow_the_rules():
    rules = Rules(cards_per_token=2, morale_target=6, morale_per_token=2)
    north, south = Army("North", 8, Leader("V", battle_die="d4")), Army("South", 6, Leader("Ivan"))
    state = start_battle(north, south, rules).apply(3)
    assert state.hand_sizes[0] == 3 + 2 * 2
    assert "3 + 4 for outnumbering by 2 tokens, 2 per token" in state.events[-1].text
    # a failed manoeuvre costs South 2 tokens: a penalty of 4, and she needs 6 (DB-8)
    north = Army("North", 6, Leader("V"))
    state = start_battle(north, south, rules, deck=("9S", "2D")).apply(1).apply(1)
    state = state.apply(Card("9S")).apply(Card("2D")).apply("attack 9S").apply("manoeuvre 2D")
    assert state.stage == "morale" and state.chance_side == 1
    end = state.apply(6)
    assert end.events[-1].text == "Ivan rolls Spirit d6: 6 - 4 for tokens lost = 2 (needs 6): the army retreats (DB-8)."
    assert end.outcome == "b retreats"


# -- an independent brute force, parameterised by the rules ------------------------------------
def _value(code: str) -> int:
    return 13 if code.startswith("JK") else RANKS.index(code[:-1])


class Brute:
    """The clash from the rule text, for hands of card codes (no floors: DB-7 is applied
    by :meth:`distribution` only)."""

    def __init__(self, rules: Rules) -> None:
        self.r = rules
        self.action_of = {suit: action for action, suit in rules.suits}
        self.attack_suit = dict(rules.suits)["attack"]

    def actions(self, code: str) -> tuple[str, ...]:
        return ACTIONS if code.startswith("JK") else (self.action_of[code[-1]],)

    # The moves: ("attack", holder, passes, must, hands) or ("answer", attacker, table, must, hands);
    # ``must`` is "open" (the opening attack, DB-3), a side forced to attack (DB-6) or None.
    def options(self, node):
        """(mover, [(events, next node or None)]) — events are (loss a, loss b) in order."""
        kind = node[0]
        if kind == "attack":
            _, h, passes, must, hands = node
            hand = hands[h]
            attacks = [c for c in hand if "attack" in self.actions(c)]
            out = []
            for c in attacks:
                rest = _without(hands, h, c)
                out.append(((), ("answer", h, c, None if must == "open" else must, rest)))
            suited = any(c[-1] == self.attack_suit and not c.startswith("JK") for c in hand)
            if must == "open":
                may_pass = False
            elif not suited:
                may_pass = True
            else:
                may_pass = must != h and not self.r.holder_must_attack
            if may_pass or not attacks:
                out.append(((), self.passed(h, passes, hands)))
            return (h, out) if attacks else (None, out)
        _, att, table, must, hands = node
        d = 1 - att
        hit = _loss(d, self.r.strike_loss)
        strike = ((hit,), self.turn(att, must, hands))
        answers = [(c, a) for c in hands[d] for a in self.actions(c) if a != "attack"]
        if not answers:
            return None, [strike]
        out = [strike]
        for c, a in answers:
            rest = _without(hands, d, c)
            high = _value(c) >= _value(table)
            if a == "counter":
                lower = _value(c) < _value(table)
                tie = _value(c) == _value(table)
                cost = self.r.counter_lower_loss if lower or (tie and self.r.counter_tie == "loses") else 0
                follow = self.attacked(d, c, rest)
                out.append(((_loss(d, cost), *follow[0]), follow[1]))
                continue
            won, lost = (
                (self.r.defence_won, self.r.defence_lost)
                if a == "defence"
                else (self.r.manoeuvre_won, self.r.manoeuvre_lost)
            )
            mine, theirs = won if high else lost
            loss = (mine, theirs) if att == 0 else (theirs, mine)
            out.append(((loss,), self.turn(att, must, rest)))
        return d, out

    def turn(self, h, must, hands):
        return ("attack", h, 0, must, hands)

    def passed(self, h, passes, hands):
        return None if passes + 1 >= 2 else ("attack", 1 - h, passes + 1, 1 - h, hands)

    def attacked(self, att, card, hands):
        """A counterattack's card is the attack: the other side answers, or is struck at
        once without a card that can answer (DB-4); nobody is forced (DB-6)."""
        d = 1 - att
        if any(a != "attack" for c in hands[d] for a in self.actions(c)):
            return (), ("answer", att, card, None, hands)
        return (_loss(d, self.r.strike_loss),), self.turn(att, None, hands)

    def holders(self, a, b):
        """The initiative (DB-3): [0], [1], [0, 1] for a coin, [] for no clash."""
        va = sorted((_value(c) for c in a if "attack" in self.actions(c)), reverse=True)
        vb = sorted((_value(c) for c in b if "attack" in self.actions(c)), reverse=True)
        if not va and not vb:
            return []
        if va == vb:
            return [0, 1]
        return [0] if va > vb else [1]

    def start(self, h, a, b):
        return ("attack", h, 0, "open", (tuple(sorted(a)), tuple(sorted(b))))

    def minimax(self, a, b) -> Fraction:
        """b's losses minus a's, both playing best (a maximises), averaged over the coin."""

        @cache
        def value(node):
            if node is None:
                return 0
            mover, options = self.options(node)
            vals = [sum(lb - la for la, lb in evs) + value(nxt) for evs, nxt in options]
            if mover is None:
                return vals[0]
            return max(vals) if mover == 0 else min(vals)

        holders = self.holders(a, b)
        if not holders:
            return Fraction(0)
        return sum((Fraction(value(self.start(h, a, b))) for h in holders), Fraction(0)) / len(holders)

    def distribution(self, a, b, tokens=(10, 10)) -> dict[tuple[int, int], Fraction]:
        """(lost a, lost b) under uniformly random play, floored at ``tokens`` (DB-7)."""
        out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)

        def walk(node, lost, p):
            if node is None:
                out[lost] += p
                return
            mover, options = self.options(node)
            if mover is None:
                options = options[:1]
            share = p / len(options)
            for evs, nxt in options:
                la, lb = lost
                over = False
                for da, db in evs:
                    la, lb = min(la + da, tokens[0]), min(lb + db, tokens[1])
                    if la >= tokens[0] or lb >= tokens[1]:
                        over = True
                        break
                walk(None if over else nxt, (la, lb), share)

        holders = self.holders(a, b)
        if not holders:
            return {(0, 0): Fraction(1)}
        for h in holders:
            walk(self.start(h, a, b), (0, 0), Fraction(1, len(holders)))
        return dict(out)


def _without(hands, i, card):
    rest = tuple(c for c in hands[i] if c != card)
    return (rest, hands[1]) if i == 0 else (hands[0], rest)


def _loss(side, n):
    return (n, 0) if side == 0 else (0, n)


def random_rules(rng: random.Random) -> Rules:
    """A random valid rule set: any suits, any answer table, the variants."""

    def pair():
        return (rng.randint(0, 4), rng.randint(0, 4))

    suits = rng.sample("SHDC", 4)
    return Rules(
        jokers=rng.random() < 0.6,
        suits=dict(zip(ACTIONS, suits, strict=True)),
        strike_loss=rng.randint(0, 6),
        defence_won=pair(),
        defence_lost=pair(),
        manoeuvre_won=pair(),
        manoeuvre_lost=pair(),
        counter_lower_loss=rng.randint(0, 3),
        counter_tie=rng.choice(["no_loss", "loses"]),
        holder_must_attack=rng.random() < 0.5,
        cards_per_token=rng.randint(0, 3),
        morale_target=rng.randint(2, 7),
        morale_per_token=rng.randint(0, 3),
        morale_penalty=rng.choice(["clash", "battle"]),
    )


RULE_SETS = [random_rules(random.Random(f"durak-house-{k}")) for k in range(24)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=[f"rules{k}" for k in range(len(RULE_SETS))])
def test_clash_value_matches_the_brute_force_on_random_rule_sets(rules):
    rng = random.Random(repr(rules))
    deck = [c.code for c in standard_deck(jokers=rules.jokers)]
    brute = Brute(rules)
    for _ in range(4):
        na, nb = rng.randint(1, 4), rng.randint(1, 4)
        dealt = rng.sample(deck, na + nb)
        if rules.jokers and rng.random() < 0.5:  # jokers make the interesting ties (DB-3, DB-5)
            dealt = ["JK1", *[c for c in dealt if c != "JK1"]][: na + nb]
        a, b = dealt[:na], dealt[na:]
        assert clash_value(a, b, rules).value == brute.minimax(a, b), (a, b, rules.variant_name())


@pytest.mark.parametrize("rules", RULE_SETS[:8], ids=[f"rules{k}" for k in range(8)])
def test_clash_losses_match_the_brute_force_over_every_deal(rules):
    """Every 1 v 1 deal (and, for the first rule sets, 2 v 1), random play, DB-7 floors."""
    brute = Brute(rules)
    deck = [c.code for c in standard_deck(jokers=rules.jokers)]
    sizes = [(1, 1), (2, 1)] if rules in RULE_SETS[:3] else [(1, 1)]
    for na, nb in sizes:
        total: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        deals = 0
        for a in combinations(deck, na):
            rest = [c for c in deck if c not in a]
            for b in combinations(rest, nb):
                deals += 1
                for pair, p in brute.distribution(a, b, (3, 4)).items():
                    total[pair] += p
        expected = {k: v / deals for k, v in total.items() if v}
        got = clash_losses(na, nb, "random", rules, method="exact", tokens=(3, 4))
        assert dict(got.items()) == expected, (na, nb, rules.variant_name())


def test_suits_do_not_move_the_odds_over_random_deals():
    """Every suit has 13 cards: swapping the actions' suits leaves the deal-averaged odds
    alone (an independent check that the suits are read consistently everywhere)."""
    base = clash_losses(2, 2, ("greedy", "random"), method="exact")
    for perm in list(permutations("SHDC"))[1:4]:
        swapped = Rules(suits=dict(zip(ACTIONS, perm, strict=True)))
        assert clash_losses(2, 2, ("greedy", "random"), swapped, method="exact").joint == base.joint


# -- recon, morale and whole battles --------------------------------------------------------------
def test_hand_sizes_and_morale_by_hand():
    rules = Rules(cards_per_token=2, morale_target=5, morale_per_token=2)
    d = hand_size_distribution("d4", wild_die=False, token_advantage=2, rules=rules)
    assert d.items() == [(k + 4, Fraction(1, 4)) for k in range(1, 5)]
    # d6 Extra: 5 or 6 holds with nothing lost (1/3); one token lost is -2: 7+ impossible
    assert morale_pass_probability("d6", wild_die=False, rules=rules) == Fraction(1, 3)
    assert morale_pass_probability("d6", wild_die=False, tokens_lost=1, rules=rules) == 0
    assert morale_pass_probability("d6", wild_die=False) == Fraction(1, 2)  # default: 4+


@pytest.mark.parametrize(
    "rules",
    [
        Rules(strike_loss=1, cards_per_token=2, morale_target=3),
        Rules(morale_target=5, morale_per_token=2, manoeuvre_won=(2, 0), counter_lower_loss=0, jokers=False),
    ],
    ids=["cheap-strikes", "harsh-morale"],
)
def test_battle_outcome_matches_engine_monte_carlo(rules):
    # small hands, so that every clash is exact: each draws 0-1 (+2 per token of advantage)
    a = Army("A", 2, Leader("L", battle_die="d4", spirit_die="d6", wild_card=False, battle_modifier=-3))
    b = Army("B", 2, Leader("M", battle_die="d4", spirit_die="d8", wild_card=False, battle_modifier=-3))
    exact = battle_outcome(a, b, rules, max_rounds=4, method="exact")
    assert exact.exact
    rng = random.Random(5)
    trials = 1500
    wins = {"a": 0, "b": 0}
    for _ in range(trials):
        end = play_out(start_battle(a, b, rules, max_rounds=4), rng, {"a": greedy_policy, "b": greedy_policy})
        if end.winner is not None:
            wins["ab"[end.winner]] += 1
    for side in "ab":
        p = exact.winner()[side]
        assert abs(wins[side] / trials - float(p)) <= tolerance(p, trials), (side, p, wins)


# -- the widgets and the notation follow -----------------------------------------------------------
def test_stepper_takes_house_rules_and_its_number_controls_change_them():
    from toolkit.durak_battle.widgets import battle_stepper

    st = battle_stepper(rules="cheap_strikes", seed=2)
    assert st.rules.strike_loss == 1 and st.numbers["strike_loss"].value == 1
    assert "Tokens lost to a strike: 1" in st.setup_line.value
    st.numbers["morale_target"].value = 6
    assert st.rules == Rules(strike_loss=1, morale_target=6)
    assert st.state.rules == st.rules  # a setup change restarts under the new rules
    swapped = battle_stepper(rules={"suits": {"attack": "H", "defence": "S", "manoeuvre": "D", "counter": "C"}})
    swapped.numbers["strike_loss"].value = 2
    assert swapped.rules.suits[0] == ("attack", "H")  # a field without a control is kept
    with pytest.raises(InvalidSetupError, match="no house-rules file"):
        battle_stepper(rules="no_such_rules")


def test_stepper_export_under_house_rules_replays():
    from toolkit.durak_battle import load_example, replay
    from toolkit.durak_battle.widgets import battle_stepper

    rules = Rules(suits={"attack": "D", "defence": "S", "manoeuvre": "H", "counter": "C"}, defence_won=(3, 0))
    st = battle_stepper(rules=rules, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        if not random_step(st, rng):
            break
    again = load_example(st.export())
    assert again.start.rules == rules
    assert replay(again).log() == st.state.log()


def test_explorers_start_from_the_rules_given():
    from toolkit.durak_battle.widgets import odds_explorer, round_explorer

    ex = round_explorer(rules="harsh_morale")
    assert ex.controls["morale_target"].value == 5 and ex.controls["morale_per_token"].value == 2
    # North's d6 Wild Card leader needs 5+ on max(d6, d6): 1 - (4/6)^2 = 5/9; 2 lost is -4: 9+ never
    assert "North stays (DB-8): 0 lost 5/9" in ex.summary_text
    assert "2 lost 0 = 0%" in ex.summary_text
    ex.controls["morale_target"].value = 4  # the default target again: 4+ is 1 - (3/6)^2 = 3/4
    assert "North stays (DB-8): 0 lost 3/4" in ex.summary_text
    calls = []

    def compute(a, b, rules, **kw):
        calls.append(rules)
        from toolkit.durak_battle.odds import BattleEnd
        from toolkit.prob import Distribution

        return Distribution.certain(BattleEnd("a", "retreat", 1))

    ex = odds_explorer(rules=Rules(strike_loss=2, counter_lower_loss=3), compute=compute)
    assert calls[-1] == Rules(strike_loss=2, counter_lower_loss=3)
    ex.controls["strike_loss"].value = 5
    assert calls[-1] == Rules(strike_loss=5, counter_lower_loss=3)


def test_the_morale_line_states_a_target_only_when_it_is_not_the_rulings():
    """DB-8: a Spirit total of 4 keeps the army by default; the log says "(needs N)" only
    for a house target N other than the default (the default log stays as it was)."""
    assert Rules().morale_target == 4  # the rulings' target (docs/rulings.md, DB-8)
    north, south = Army("North", 6, Leader("V")), Army("South", 6, Leader("Ivan"))

    def morale_line(rules: Rules) -> str:
        state = start_battle(north, south, rules, deck=("9S", "2D")).apply(1).apply(1)
        state = state.apply(Card("9S")).apply(Card("2D")).apply("attack 9S").apply("manoeuvre 2D")
        assert state.stage == "morale" and state.chance_side == 1
        return state.apply(6).events[-1].text

    # a failed manoeuvre costs South 2 tokens: 6 - 2 = 4 (DB-8, 1 per token)
    stays = "Ivan rolls Spirit d6: 6 - 2 for tokens lost = 4: the army stays (DB-8)."
    assert morale_line(Rules()) == morale_line(Rules(morale_target=4)) == stays
    assert morale_line(Rules(morale_target=5)) == (
        "Ivan rolls Spirit d6: 6 - 2 for tokens lost = 4 (needs 5): the army retreats (DB-8)."
    )
    assert morale_line(Rules(morale_target=3)) == (
        "Ivan rolls Spirit d6: 6 - 2 for tokens lost = 4 (needs 3): the army stays (DB-8)."
    )
