"""The Fairy Meat combat engine and rule-book examples (FM-1..FM-14)."""

import random
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.cards import Card, parse_cards
from toolkit.errors import IllegalActionError, InvalidSetupError, NotationError
from toolkit.fairy_meat import Fairy, Rules, Weapon
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.notation import check_expectations, load_example, replay, to_example
from toolkit.fairy_meat.rules import attacker_hand_size, defender_hand_size
from toolkit.replay import replay_file

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
VIBRO = Weapon("Vibro-Master", attack_bonus=1, defence_modifier=-1, attacks=2)


# -- the draft's worked example, from its data file ------------------------------------
def test_worked_example_replays_to_the_drafts_numbers():
    example = load_example(EXAMPLES / "dizzytwig_v_sparklespaz.yaml")
    state = replay(example)
    first, second = state.results
    # "The final values then are Dizzy 2, Sparky 3" ... 1 point to Sparky.
    assert (first.attacker_value, first.defender_value, first.winner, first.points) == (2, 3, "defender", 1)
    # "The final values then are Sparky 6, Dizzy 3" ... rounds up to 2 ... the Ace of Spades.
    assert (second.attacker_value, second.defender_value, second.winner, second.damage) == (3, 6, "attacker", 2)
    assert state.nasty_hits == ("Sparklespaz",)  # FM-12
    assert state.fairies[1].is_down  # 2 Live, 2 damage: "Sparky is down"
    assert check_expectations(example, state) == []
    assert state.hand_sizes == (5, 2)  # FM-2: 4+1+1-1 and 2+1-1


def test_counterfactual_5_of_clubs_replays_to_the_drafts_numbers():
    example = load_example(EXAMPLES / "dizzytwig_counterfactual_5c.yaml")
    state = replay(example)
    r = state.results[0]
    assert (r.attacker_value, r.defender_value, r.winner, r.damage) == (2, 3, "attacker", 1)
    assert check_expectations(example, state) == []
    # "left him completely without a defense against her second attack": a blind draw (FM-7)
    assert any("undefended and turns up cards blind" in e.text for e in state.events)


def test_replay_command_prints_rule_book_prose():
    text, problems = replay_file(EXAMPLES / "dizzytwig_v_sparklespaz.yaml")
    assert problems == []
    assert "Final values: Dizzytwig 2, Sparklespaz 3." in text
    assert "Sparklespaz turns up the Ace of Spades" in text
    assert "Sparklespaz suffers a Nasty Hit (FM-12)" in text


def test_export_replays_to_the_same_combat():
    state = replay(load_example(EXAMPLES / "dizzytwig_v_sparklespaz.yaml"))
    again = replay(load_example(to_example(state, "copy")))
    assert again.log() == state.log()


# -- setup (FM-2, FM-14) -------------------------------------------------------------------
def test_hand_sizes():
    dizzy = Fairy("Dizzytwig", live=3, kill=4, weapon=VIBRO)
    sparky = Fairy("Sparklespaz", live=2, kill=1)
    assert attacker_hand_size(dizzy) == 6 and attacker_hand_size(dizzy, fluttered=True) == 5
    assert defender_hand_size(sparky, dizzy) == 1 and defender_hand_size(sparky, dizzy, holds_order_card=True) == 2
    # FM-2/FM-14 (default wrestling_hand="as_usual"): Wrestling changes only the points drawn
    # by: Dizzytwig 4 Kill + 1 Vibro-Master + 1 attacking = 6; Sparklespaz 1 Kill - 1 Vibro = 0.
    assert attacker_hand_size(dizzy, wrestling=True) == 6 and defender_hand_size(sparky, dizzy, wrestling=True) == 0
    assert attacker_hand_size(dizzy, fluttered=True, wrestling=True) == 5  # -1 Fluttered as usual
    assert defender_hand_size(sparky, dizzy, holds_order_card=True, wrestling=True) == 1  # +1 Order Card
    # the variant wrestling_hand="kill_only": both draw exactly their Kill points
    kill_only = Rules(wrestling_hand="kill_only")
    assert attacker_hand_size(dizzy, wrestling=True, rules=kill_only) == 4
    assert defender_hand_size(sparky, dizzy, wrestling=True, rules=kill_only) == 1
    assert defender_hand_size(Fairy("Weak", live=0, kill=0), dizzy) == 0  # never below 0


def test_bad_setup_is_refused():
    with pytest.raises(InvalidSetupError, match="Live points must be a whole number from 0 to 100, got -1"):
        Fairy("Zed", live=-1, kill=2)
    with pytest.raises(InvalidSetupError, match="hand has 2 cards but her combat hand size is 3"):
        start_combat(Fairy("A", 3, 2), Fairy("B", 3, 2), hands=("2H 3H 4H", "5H 6H"))
    with pytest.raises(InvalidSetupError, match="2H appear more than once"):
        start_combat(Fairy("A", 3, 2), Fairy("B", 3, 2), hands=("2H 3H 4H", "2H 6H 7H"))
    with pytest.raises(InvalidSetupError, match="not a variant of FM-10"):
        Rules(damage="double")


# -- decisions and illegal plays -----------------------------------------------------------
def _declared(hands=("KS QH 5C 4C", "JD 2D 9S"), **kw):
    s = start_combat(Fairy("Ann", live=3, kill=3), Fairy("Bo", live=3, kill=3), hands=hands, attacks=2, **kw)
    return s.apply("declare add").apply("declare subtract")


def test_illegal_plays_name_the_rule_and_change_nothing():
    s = _declared()
    with pytest.raises(IllegalActionError, match=r"one colour.*\(FM-4\)"):
        s.apply("trumps KS QH")
    with pytest.raises(IllegalActionError, match=r"9H is not in Ann's hand"):
        s.parse_action("trumps 9H")
    s2 = s.apply("trumps KS").apply("trumps JD")
    with pytest.raises(IllegalActionError, match=r"holds a Numbered card, so she must play one \(FM-6\)"):
        s2.apply("wild QH")
    assert s2.phase() == ("play", 0) and s2.hands[0] == parse_cards("KS QH 5C 4C")


def test_without_a_numbered_card_she_keeps_a_trump_for_the_wild_trump():
    # FM-6: she must play a Trump in place of a Numbered card, so she cannot place all of them.
    s = _declared(hands=("KS QS JH AD", "2D 3D 9S"))
    assert "trumps KS QS" in s.legal_actions()
    s = start_combat(Fairy("Ann", 3, 1), Fairy("Bo", 3, 3), hands=("KS QS", "2D 3D 9S"))
    s = s.apply("declare add").apply("declare add")
    assert "trumps KS QS" not in s.legal_actions() and "trumps KS" in s.legal_actions()


def test_wild_trump_draws_until_a_numbered_card():
    # FM-6: every Trump turned up joins her Trumps; the Numbered card turned up is hers.
    s = start_combat(Fairy("Ann", 3, 0), Fairy("Bo", 1, 1), deck="KH  9S  QH AC 4H")
    s = s.apply(Card("KH")).apply("declare add").apply(Card("9S")).apply("declare add")
    s = s.apply("trumps none").apply("trumps none").apply("wild KH").apply("play 9S")
    assert s.is_chance_node
    s = _best(s.apply(Card("QH")).apply(Card("AC")).apply(Card("4H")))
    r = s.results[0]
    # 4♥ + K♥ (wild) + Q♥ = 6 (add); A♣ cheats: Bo lowers Ann... different colours, lowest wins:
    # Bo (9♠) moves Ann's value +1 and his own -1: Ann 7, Bo 8 -> Ann wins by 1.
    assert (r.attacker_value, r.defender_value, r.winner) == (7, 8, "attacker")


def test_chance_outcomes_of_a_shuffled_deck_are_uniform():
    s = start_combat(Fairy("Ann", 3, 0), Fairy("Bo", 1, 1))
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and all(p == Fraction(1, 52) for _, p in outcomes)


def test_spent_cards_go_to_the_spoils_heap():
    # FM-13: cards of an attack go to the Spoils Heap; the deck is not reshuffled.
    state = replay(load_example(EXAMPLES / "dizzytwig_v_sparklespaz.yaml"))
    spent = set(parse_cards("KS QC 3D 2D KC 5C AS JH 3H"))
    assert set(state.pile.discards) == spent
    assert state.hands[0] == parse_cards("4C")  # one combat hand for both attacks
    assert state.pile.size == 52 - 10


def test_defender_chooses_how_to_keep_her_points():
    # FM-11: extra cards for her attack back, or a next-defence bonus (only with attacks left).
    s = _declared(hands=("5H 4C 2C 3C", "9H 8D 7D"))
    s = _best(s.apply("trumps none").apply("trumps none").apply("play 5H").apply("play 9H"))
    assert s.phase() == ("score", 1) and s.legal_actions() == ["score cards", "score bonus"]
    cards = s.apply("score cards")
    assert cards.extra_cards == 2  # 9 v 5 same colour: difference 4, 2 points
    bonus = s.apply("score bonus")
    assert bonus.bonus_points == 2


def test_random_playouts_keep_the_engine_contract():
    rng = random.Random(4)
    vibro = Fairy("Ann", live=3, kill=3, weapon=VIBRO)
    for k in range(60):
        rules = Rules(
            damage=rng.choice(["halved", "table"]),
            none_reveal=rng.choice(["all_or_nothing", "subset"]),
            undefended=rng.choice(["blind_draw", "unopposed"]),
        )
        state = start_combat(vibro, Fairy("Bo", live=rng.randint(1, 3), kill=2), rules, wrestling=k % 7 == 0)
        while not state.is_terminal:
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == 1
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                assert legal, state.prompt()
                state = state.apply(rng.choice(legal))
        assert state.results or state.hand_sizes[0] == 0
        for r in state.results:
            assert r.points == -(-r.difference // 2)  # FM-10


def test_best_result_without_words_is_the_same_judgement():
    # The solvers ask best_result(explain=False) (no explanation built): the same choices
    # (FM-5 reveal, FM-8 shifts, FM-11 bonus) and numbers as the explained judgement, and
    # the referee steps the policies play from it are the same, over random play-outs.
    rng = random.Random(11)
    judged = 0
    for k in range(40):
        rules = Rules(
            damage=rng.choice(["halved", "table"]),
            none_reveal=rng.choice(["all_or_nothing", "subset"]),
            none_means=rng.choice(["no_trumps", "no_face_down"]),
        )
        state = start_combat(Fairy("Ann", 3, 3), Fairy("Bo", rng.randint(1, 3), 2), rules, wrestling=k % 9 == 0)
        while not state.is_terminal:
            explained = state.best_result()
            if explained is not None:
                quiet = state.best_result(explain=False)
                assert quiet == explained and quiet.lines == () and explained.lines
                assert (quiet.revealed, quiet.hidden, quiet.shifts) == (
                    explained.revealed,
                    explained.hidden,
                    explained.shifts,
                )
                judged += 1
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
    assert judged > 20  # 34 judgements: the comparison ran


def test_wrestling_winner_may_escape():
    # FM-14: both draw by Kill points; the winner damages the loser, or escapes.
    kill_only = Rules(wrestling_hand="kill_only")
    s = start_combat(Fairy("Ann", 3, 1), Fairy("Bo", 3, 1), kill_only, hands=("2H", "9H"), wrestling=True)
    s = s.apply("declare add").apply("declare add").apply("trumps none").apply("trumps none")
    s = _best(s.apply("play 2H").apply("play 9H"))
    assert s.phase() == ("escape", 1)
    hurt = s.apply("damage")
    assert hurt.fairies[0].live == 3 - 4 if 3 - 4 > 0 else hurt.fairies[0].live == 0
    assert s.apply("escape").fairies[0].live == 3


def test_an_escape_deals_no_damage():
    # FM-14: "the winner may forgo the damage to escape — then nobody takes damage, the
    # result records 0 damage and the escape, and the log says she escaped". Ann attacks
    # with 1 Kill + 1 for attacking = 2 cards (FM-2 as usual), Bo defends with 1 Kill.
    s = start_combat(Fairy("Ann", 5, 1), Fairy("Bo", 5, 1), hands=("9H 3C", "2H"), wrestling=True)
    s = s.apply("declare add").apply("declare add").apply("trumps none").apply("trumps none")
    s = _best(s.apply("play 9H").apply("play 2H"))
    assert s.phase() == ("escape", 0)  # 9 against 2, both red: Ann wins by 7 (4 damage)
    hit = s.apply("damage")
    assert hit.fairies[1].live == 1 and hit.results[0].damage == 4 and not hit.results[0].escaped
    assert "Bo takes 4 damage" in hit.log()
    gone = s.apply("escape")
    r = gone.results[0]
    assert (r.damage, r.attacker_damage, r.escaped) == (0, 0, True)
    assert gone.fairies[1].live == 5 and gone.fairies[0].live == 5
    assert "escapes" in gone.log() and "takes 4 damage" not in gone.log()
    summary = gone.summary()
    assert summary["damage_to_defender"] == 0 and summary["damage_to_attacker"] == 0 and summary["escapes"] == 1


def test_a_wrestling_defender_who_wins_gives_the_attacker_the_nasty_hit():
    # FM-12 with FM-14: Bo defends and wins, so Ann, the attacker, takes the damage and the
    # Nasty Hit of her own A♠ (both draw exactly 2 Kill points under kill_only). 2♠+A♠ = 3
    # against 9♠+J♠ = 10, both black: Bo wins by 7, ceil(7/2) = 4 damage to Ann (5 -> 1).
    # If Bo escapes nobody takes damage: no Nasty Hit, but under nasty_hit="loser" Ann lost.
    for rules, after_escape in (
        (Rules(wrestling_hand="kill_only"), ()),
        (Rules(wrestling_hand="kill_only", nasty_hit="loser"), ("Ann",)),
    ):
        s = start_combat(Fairy("Ann", 5, 2), Fairy("Bo", 5, 2), rules, hands=("2S AS", "9S JS"), wrestling=True)
        s = s.apply("declare add").apply("declare add").apply("trumps AS").apply("trumps JS")
        s = _best(s.apply("play 2S").apply("play 9S"))
        assert s.phase() == ("escape", 1)
        hit = s.apply("damage")
        assert [f.live for f in hit.fairies] == [1, 5] and hit.nasty_hits == ("Ann",)
        assert "Ann suffers a Nasty Hit (FM-12)" in hit.log()
        assert s.apply("escape").nasty_hits == after_escape


def _best(state):
    """Apply the referee's best choices (reveal, bonus, shifts) until none is pending."""
    while state.best_action() is not None:
        state = state.apply(state.best_action())
    return state


def _only(state):
    from toolkit.prob import Distribution

    best = state.best_action()
    return Distribution.certain(best if best is not None else state.legal_actions()[0])


# -- example files: clear errors with line numbers ---------------------------------------
def test_example_errors_have_line_numbers():
    bad = (EXAMPLES / "dizzytwig_v_sparklespaz.yaml").read_text().replace("play 3D", "play 9D")
    with pytest.raises(NotationError, match=r"<example>:\d+: Dizzytwig: 9D is not in Dizzytwig's hand"):
        replay(load_example(bad))
    with pytest.raises(NotationError, match=r"<example>:\d+: unknown key 'colour'"):
        load_example("attacker: {name: A, live: 1, kill: 1}\ndefender: {name: B, live: 1, kill: 1}\ncolour: red\n")
    with pytest.raises(NotationError, match="'1X' is not a card"):
        load_example("attacker: {name: A, live: 1, kill: 1}\ndefender: {name: B, live: 1, kill: 1}\ndeck: 1X\n")
    short = (EXAMPLES / "dizzytwig_v_sparklespaz.yaml").read_text().replace("AS JH 3H", "")
    with pytest.raises(NotationError, match="runs out of stacked cards"):
        replay(load_example(short))


def test_example_file_is_data_not_code():
    with pytest.raises(NotationError):
        load_example("!!python/object/apply:os.system ['echo hacked']\n")


def test_declaration_holds_for_the_whole_combat():
    # FM-3: each fairy declares once, after seeing her hand, attacker first; it applies to
    # all her own matching Trumps in every attack of the combat.
    s = start_combat(Fairy("Ann", 3, 3), Fairy("Bo", 3, 3), hands=("KH QH 5H 4H", "2C 3C 9S"), attacks=2)
    assert s.phase() == ("declare", 0)
    s = s.apply("declare subtract")
    assert s.phase() == ("declare", 1) and "declare add" in s.legal_actions()
    s = _best(s.apply("declare add").apply("trumps KH").apply("trumps none").apply("play 5H").apply("play 2C"))
    assert s.cur.result.attacker_value == 5 - 1  # subtract, first attack
    s = s.apply("score cards")  # Bo won (lowest wins): he keeps the point as extra cards (FM-11)
    s = _best(s.apply("trumps QH").apply("trumps none").apply("play 4H").apply("play 3C"))
    assert s.results[1].attacker_value == 4 - 1  # still subtract, second attack
    assert not any(a.startswith("declare") for a in s.legal_actions())


def test_points_are_spent_once_fm7_fm11():
    # docs/rulings.md FM-7: "points used as Wild Trump points are used up, so they no longer
    # count as extra cards or a next-defence bonus (FM-11)". Ann attacks twice (3 cards:
    # 2 Kill + 1); Bo defends with 1 card. Attack 1: 2♥ against 9♥, Bo wins by 7: 4 points,
    # kept as extra cards. Attack 2: Bo has no card, so her 4 points become red Wild Trump
    # points (FM-7); she turns up the 5♦: 5 + 4 = 9 against the 3♥, she wins by 6: 3 points.
    # She owes herself 3 extra cards, not 4 + 3.
    twice = Weapon("Twin Stings", attacks=2)
    s = start_combat(Fairy("Ann", 5, 2, twice), Fairy("Bo", 1, 1), hands=("2H 3H 4H", "9H"))
    s = s.apply("declare add").apply("declare add").apply("trumps none").apply("trumps none")
    s = _best(s.apply("play 2H").apply("play 9H"))
    s = s.apply("score cards")
    assert s.extra_cards == 4 and s.prev_points == 4
    s = s.apply("trumps none").apply("points red").apply("play 3H")
    s = _best(s.apply(Card("5D")))
    r = s.results[-1]
    assert (r.defender_value, r.attacker_value, r.winner, r.points) == (9, 3, "defender", 3)
    assert s.is_terminal and s.extra_cards == 3 and s.summary()["extra_cards"] == 3


@pytest.mark.parametrize("none_means", ["no_trumps", "no_face_down"])
def test_a_wild_trump_is_not_none_fm5(none_means):
    # FM-5: a fairy who plays a Wild Trump has not said None (default), so the attacker's
    # face-down K♣ is revealed and applied: 6♠ + 1 = 7 against Q♥-drawn 5♥ + 1 = 6; colours
    # differ, lowest wins: Bo by 1. Under none_means="no_face_down" Bo said None (nothing
    # face down) and Ann may keep the K♣ hidden: 6 against 6, a draw.
    rules = Rules(none_means=none_means)
    s = start_combat(Fairy("Ann", 3, 1), Fairy("Bo", 1, 1), rules, hands=("KC 6S", "QH"))
    s = s.apply("declare add").apply("declare add").apply("trumps KC").apply("trumps none")
    s = s.apply("play 6S").apply("wild QH").apply(Card("5H"))
    if none_means == "no_trumps":
        assert s.phase()[0] != "reveal"
        assert "Ann's face-down Trumps are revealed: KC (FM-5)" in s.log()
        s = _best(s)
        assert (s.results[0].attacker_value, s.results[0].defender_value, s.results[0].winner) == (7, 6, "defender")
    else:
        assert s.phase() == ("reveal", 0)
        s = _best(s)
        assert s.results[0].winner is None and s.results[0].hidden == {"attacker": (Card("KC"),)}


def test_the_escape_example_replays_fm14():
    # data/examples/fairy_meat_wrestling_escape.yaml, by the rule text: 2 cards against 1
    # (FM-2 as usual), 9 against 2, 4 points, escaped: no damage, both keep 5 Live points.
    example = load_example(Path(__file__).resolve().parent.parent / "data/examples/fairy_meat_wrestling_escape.yaml")
    assert example.start.hand_sizes == (2, 1)
    state = replay(example)
    assert check_expectations(example, state) == []
    assert state.results[0].escaped and [f.live for f in state.fairies] == [5, 5]
    assert "Ann forgoes the damage and escapes the brawl: Bo takes no damage (FM-14)." in state.log()
