"""The referee of one Fairy Meat attack (FM-4..FM-12, FM-14), against the draft's numbers.

Expected values come from the draft's worked example and from hand arithmetic on the
rule text; the cheating-shift choice is checked against a brute force over every
per-card direction.
"""

import itertools
import random

import pytest

from toolkit.errors import IllegalActionError
from toolkit.fairy_meat import Play, Rules, resolve_attack

DIZZY_SPARKY = ("Dizzytwig", "Sparklespaz")


def test_worked_example_first_attack():
    # "The final values then are Dizzy 2, Sparky 3 ... The difference ... 1, halved ... rounds back up to 1."
    r = resolve_attack(
        Play("3D", trumps=("KS", "QC"), direction="subtract"), Play("2D", trumps=("KC",)), names=DIZZY_SPARKY
    )
    assert (r.attacker_value, r.defender_value, r.winner, r.difference) == (2, 3, "defender", 1)
    assert (r.points, r.damage) == (1, 0)
    assert r.shifts == {"defender": (-2, 2), "attacker": (1, -1)}  # FM-8, as narrated in the draft


def test_worked_example_counterfactual_5_of_clubs():
    # "Her 5 ... modified by her 2 Trumps to make it a 3 and by Sparky's cheated Trump ... a 2.
    #  Sparky's 2 ... a 3 ... lowest value the winner. This would have given Sparky 1 damage."
    r = resolve_attack(Play("5C", trumps=("KS", "QC"), direction="subtract"), Play("2D", trumps=("KC",)))
    assert (r.attacker_value, r.defender_value, r.winner, r.damage) == (2, 3, "attacker", 1)


def test_worked_example_second_attack_wild_trump_point_and_ace_of_spades():
    # FM-7 Wild Trump point (black), FM-6 turned-up A♠ and J♥, then 3♥: "Sparky 6, Dizzy 3",
    # "difference ... 3, halved ... rounds up to 2", and the Ace of Spades: a Nasty Hit (FM-12).
    r = resolve_attack(
        Play("5C", direction="subtract"),
        Play("3H", drawn=("AS", "JH"), wild_points=1, wild_colour="black"),
        names=DIZZY_SPARKY,
    )
    assert (r.attacker_value, r.defender_value, r.winner, r.points, r.damage) == (3, 6, "attacker", 2, 2)
    assert r.nasty_hit and r.nasty_hit_to == ("defender",)
    assert "Sparklespaz suffers a Nasty Hit (FM-12)" in r.explain()


def test_same_colour_highest_wins_different_lowest_wins_equal_draws():
    # FM-9
    assert resolve_attack(Play("9H"), Play("4D")).winner == "attacker"
    assert resolve_attack(Play("9H"), Play("4S")).winner == "defender"
    draw = resolve_attack(Play("7H"), Play("7C"))
    assert draw.winner is None and draw.points == 0 and draw.damage == 0


@pytest.mark.parametrize("difference,halved,table", [(1, 1, 1), (4, 2, 1), (5, 3, 2), (8, 4, 2), (9, 5, 3)])
def test_points_and_both_damage_rules(difference, halved, table):
    # FM-10: points = ceil(d/2); the "table" variant: 1-4 -> 1, 5-8 -> 2, 9+ -> 3, no halving.
    attacker = Play("10H", trumps=()) if difference <= 8 else Play("10H", trumps=("KH",))
    defender_pips = 10 - difference if difference <= 8 else 2
    r = resolve_attack(attacker, Play(f"{defender_pips}D"))
    assert r.difference == difference and r.points == halved and r.damage == halved
    assert resolve_attack(attacker, Play(f"{defender_pips}D"), Rules(damage="table")).damage == table


def test_matching_trumps_apply_in_declared_direction():
    r = resolve_attack(Play("6H", trumps=("KH", "QD"), direction="subtract"), Play("6D", trumps=("JD",)))
    assert (r.attacker_value, r.defender_value) == (4, 7)  # FM-8: 6-2 and 6+1
    assert r.winner == "defender"


def test_none_rule_hidden_trumps_revealed_only_if_better():
    # FM-5: the attacker said None, so the defender's face-down Trumps stay hidden; she
    # reveals them only if that helps her. Here her K♣ would cheat against her 5♥.
    attacker, defender = Play("8H"), Play("5H", trumps=("KC",))
    best = resolve_attack(attacker, defender)
    assert best.revealed["defender"] == () and best.hidden == {"defender": (Play("5H", trumps=("KC",)).trumps)}
    assert (best.attacker_value, best.defender_value) == (8, 5)
    forced = resolve_attack(attacker, defender, reveal={"defender": True})
    assert (forced.attacker_value, forced.defender_value) == (9, 4)  # the attacker uses the cheat (FM-8)
    with pytest.raises(IllegalActionError, match="FM-5"):
        resolve_attack(attacker, defender, reveal={"attacker": True})


def test_none_rule_subset_variant():
    # FM-5 variant: reveal any subset — K♥ matches the 5♥ (+1, add), K♣ would cheat.
    attacker, defender = Play("8H"), Play("5H", trumps=("KC", "QC"))
    assert resolve_attack(attacker, defender).revealed["defender"] == ()
    defender = Play("5H", trumps=("KH", "QH"))
    both = resolve_attack(attacker, defender, Rules(none_reveal="subset"))
    assert set(both.revealed["defender"]) == set(defender.trumps)
    with pytest.raises(IllegalActionError, match="none_reveal='subset'"):
        resolve_attack(attacker, defender, reveal={"defender": ["KH"]})
    one = resolve_attack(attacker, defender, Rules(none_reveal="subset"), reveal={"defender": ["KH"]})
    assert one.defender_value == 6


def test_next_defence_bonus_has_no_colour():
    # FM-11 b: all or none of the points, in her declared direction, never cheating.
    r = resolve_attack(Play("9H"), Play("4C", direction="subtract", bonus=2))
    assert r.bonus_applied and r.defender_value == 2 and r.winner == "defender"
    off = resolve_attack(Play("9H"), Play("4C", direction="subtract", bonus=2), apply_bonus=False)
    assert off.defender_value == 4


def test_cheating_shift_is_the_best_of_every_per_card_direction():
    # FM-8: each cheating Trump lets the opponent move each of the two values by 1, per
    # card. Brute force over every direction for every card: the referee's net shift must
    # be as good for the chooser as the best of them.
    rng = random.Random(2)
    numbers = [f"{p}{s}" for p in range(2, 11) for s in "HDSC"]
    trumps = [f"{r}{s}" for r in "JQKA" for s in "HDSC"]
    for _ in range(150):
        a_num, d_num = rng.sample(numbers, 2)
        pool = rng.sample(trumps, 4)
        a_tr = tuple(t for t in pool[:2] if t[-1] in "HD") or tuple(pool[:1])
        d_tr = tuple(t for t in pool[2:] if t[-1] in "SC") or tuple(pool[2:3])
        a = Play(a_num, trumps=a_tr, direction=rng.choice(["add", "subtract"]))
        d = Play(d_num, trumps=d_tr, direction=rng.choice(["add", "subtract"]))
        best = resolve_attack(a, d)
        for chooser in ("attacker", "defender"):
            cheater = "defender" if chooser == "attacker" else "attacker"
            play = d if cheater == "defender" else a
            n = sum(1 for t in play.trumps if t.colour != play.number.colour)
            if not n:
                continue
            options = set()
            for dirs in itertools.product((-1, 1), repeat=2 * n):
                options.add((sum(dirs[:n]), sum(dirs[n:])))
            given = dict(best.shifts)
            scores = []
            for shift in options:
                given[chooser] = shift
                scores.append(resolve_attack(a, d, shifts=given).utility(chooser))
            assert best.utility(chooser) == max(scores)


def test_impossible_plays_are_refused_with_the_rule():
    with pytest.raises(IllegalActionError, match=r"two colours.*\(FM-4\)"):
        Play("5C", trumps=("KS", "QH"))
    with pytest.raises(IllegalActionError, match=r"QS is not a Numbered card.*\(FM-1\)"):
        Play("QS")
    with pytest.raises(IllegalActionError, match=r"5C cannot be played as Trumps"):
        Play("4C", trumps=("5C",))
    with pytest.raises(IllegalActionError, match=r"net shift is one of \[-1, 1\] \(FM-8\)"):
        resolve_attack(Play("5C", trumps=("KH",)), Play("5D"), shifts={"defender": (0, 0)})
    with pytest.raises(IllegalActionError, match="Wild Trump points need a declared colour"):
        Play("5C", wild_points=1)


def test_ace_of_spades_nasty_hit_variants():
    # FM-12: applied A♠, the damaged fairy suffers it; with the attacker losing nobody is damaged.
    # Both place Trumps, so both are revealed; 9♠+A♠ = 10 against 2♥+J♥ = 3: lowest wins.
    lose = resolve_attack(Play("9S", trumps=("AS",)), Play("2H", trumps=("JH",)))
    assert lose.winner == "defender" and lose.damage == 0 and not lose.nasty_hit
    loser = resolve_attack(Play("9S", trumps=("AS",)), Play("2H", trumps=("JH",)), Rules(nasty_hit="loser"))
    assert loser.nasty_hit_to == ("attacker",)
    win = resolve_attack(Play("2S", trumps=("AS",)), Play("9H", trumps=("JH",)))
    assert win.winner == "attacker" and win.nasty_hit_to == ("defender",)
    hidden = resolve_attack(Play("2H"), Play("9S", trumps=("AS",)))  # hidden and not revealed (FM-5)
    assert not hidden.revealed["defender"] and not hidden.nasty_hit


# FM-12 by hand: who suffers the Nasty Hit. Each case is an attack with the A♠ applied
# (placed face down by either side, cheating or matching, turned up by a Wild Trump draw)
# and what the rule text gives: under the default the fairy who takes damage (FM-10: the
# defender when the attacker wins, nobody when the defender wins or in a draw; FM-14: when
# Wrestling the loser whoever attacked, both in a draw, nobody after an escape), under
# nasty_hit="loser" the loser even without damage (nobody in a draw). Both sides place
# Trumps (or play a Wild Trump), so nobody has said None and every Trump is revealed (FM-5).
# Values: same colour (spades and clubs are black), highest wins; different colours, lowest
# wins (FM-9); each Trump 1 (FM-1); a cheating Trump lets the opponent move each value by 1
# (FM-8). (attacker, defender, wrestling, escape, under "damaged", under "loser").
A, D = "attacker", "defender"
NASTY_HIT_CASES = {
    # 9♠+A♠ = 10 against 2♠+J♠ = 3: the attacker wins, the defender takes 4 damage
    "attacker's A♠, attacker wins": (Play("9S", trumps=("AS",)), Play("2S", trumps=("JS",)), False, False, (D,), (D,)),
    # 2♠+A♠ = 3 against 9♠+J♠ = 10: the defender wins, nobody takes damage (FM-10, FM-11)
    "attacker's A♠, defender wins": (Play("2S", trumps=("AS",)), Play("9S", trumps=("JS",)), False, False, (), (A,)),
    # the defender's own A♠ hits her when she loses ...
    "defender's A♠, attacker wins": (Play("9S", trumps=("JS",)), Play("2S", trumps=("AS",)), False, False, (D,), (D,)),
    # ... and, when she wins, hits nobody, or the losing attacker under "loser"
    "defender's A♠, defender wins": (Play("2S", trumps=("JS",)), Play("9S", trumps=("AS",)), False, False, (), (A,)),
    # 2♥ against 9♥+J♥ = 10, the attacker's A♠ cheats: the defender moves 2 -> 1, 10 -> 11
    "cheating A♠, defender wins": (Play("2H", trumps=("AS",)), Play("9H", trumps=("JH",)), False, False, (), (A,)),
    # 9♥+J♥ = 10 against 2♥, the defender's A♠ cheats: 11 against 1, the defender takes 5
    "cheating A♠, attacker wins": (Play("9H", trumps=("JH",)), Play("2H", trumps=("AS",)), False, False, (D,), (D,)),
    # a Wild Trump J♠ turns up the A♠, then the 9♠: 9+1+1 = 11 against 2♠+Q♠ = 3
    "A♠ turned up": (Play("9S", wild="JS", drawn=("AS",)), Play("2S", trumps=("QS",)), False, False, (D,), (D,)),
    # 5♠+A♠ = 6 against 5♣+J♣ = 6: a draw, no damage and no loser
    "A♠ in a draw": (Play("5S", trumps=("AS",)), Play("5C", trumps=("JC",)), False, False, (), ()),
    # FM-14: the winner damages the loser whoever attacked
    "Wrestling, attacker wins": (Play("9S", trumps=("AS",)), Play("2S", trumps=("JS",)), True, False, (D,), (D,)),
    "Wrestling, defender wins": (Play("2S", trumps=("AS",)), Play("9S", trumps=("JS",)), True, False, (A,), (A,)),
    "Wrestling, defender's A♠ wins": (Play("2S", trumps=("JS",)), Play("9S", trumps=("AS",)), True, False, (A,), (A,)),
    # the winner forgoes the damage to escape: nobody takes damage, the loser still lost
    "Wrestling, attacker escapes": (Play("9S", trumps=("AS",)), Play("2S", trumps=("JS",)), True, True, (), (D,)),
    "Wrestling, defender escapes": (Play("2S", trumps=("AS",)), Play("9S", trumps=("JS",)), True, True, (), (A,)),
}
# Not listed: a Wrestling draw (both take 1 damage, nobody lost): both suffer it, under either
# variant (test_a_wrestling_draw_gives_both_a_nasty_hit).


@pytest.mark.parametrize("case", list(NASTY_HIT_CASES))
def test_the_nasty_hit_falls_on_the_fairy_the_rule_text_names(case):
    attacker, defender, wrestling, escape, damaged, loser = NASTY_HIT_CASES[case]
    for rules, expected in ((Rules(), damaged), (Rules(nasty_hit="loser"), loser)):
        r = resolve_attack(attacker, defender, rules, wrestling=wrestling, escape=escape, names=("Ann", "Bo"))
        assert (r.nasty_hit_to, r.nasty_hit) == (expected, bool(expected)), rules.nasty_hit
        named = {A: "Ann", D: "Bo"}
        hit = [line for line in r.explain().splitlines() if "Nasty Hit" in line]
        assert hit == [
            f"The Ace of Spades was applied: {named[expected[0]]} suffers a Nasty Hit (FM-12)."
            if expected
            else "The Ace of Spades was applied, but nobody takes damage: no Nasty Hit (FM-12)."
        ], rules.nasty_hit


@pytest.mark.parametrize("nasty_hit", ["damaged", "loser"])
def test_a_wrestling_draw_gives_both_a_nasty_hit(nasty_hit):
    # FM-14 and FM-12: a draw deals 1 damage to each, so both take damage from the attack.
    # Under "loser" (which names no case without a loser) the toolkit reads the same: the
    # variant adds a loser who takes no damage, it spares nobody the default hits.
    rules = Rules(nasty_hit=nasty_hit)
    r = resolve_attack(
        Play("5S", trumps=("AS",)), Play("5C", trumps=("JC",)), rules, wrestling=True, names=("Ann", "Bo")
    )
    assert (r.damage, r.attacker_damage) == (1, 1) and sorted(r.nasty_hit_to) == [A, D]
    assert "The Ace of Spades was applied: Bo and Ann suffer a Nasty Hit (FM-12)." in r.explain().splitlines()


def test_no_nasty_hit_without_the_death_card_applied():
    # FM-12 needs the A♠ among the cards applied: the same attacks with the K♠ in its place,
    # and an A♠ held face down but left hidden (the other side said None, FM-5).
    for attacker, defender, wrestling, escape, *_ in NASTY_HIT_CASES.values():
        swap = {"AS": "KS"}
        attacker, defender = (
            Play(
                p.number,
                trumps=tuple(swap.get(c.code, c.code) for c in p.trumps),
                drawn=tuple(swap.get(c.code, c.code) for c in p.drawn),
                wild=p.wild,
            )
            for p in (attacker, defender)
        )
        for rules in (Rules(), Rules(nasty_hit="loser")):
            r = resolve_attack(attacker, defender, rules, wrestling=wrestling, escape=escape)
            assert (r.nasty_hit_to, r.nasty_hit) == ((), False)
            assert "Nasty Hit" not in r.explain()
    hidden = resolve_attack(Play("2H"), Play("9S", trumps=("AS",)), Rules(nasty_hit="loser"))
    assert hidden.winner == A and not hidden.revealed[D] and hidden.nasty_hit_to == ()


def test_wrestling_winner_damages_loser_and_draw_hurts_both():
    # FM-14
    r = resolve_attack(Play("2H"), Play("9H"), wrestling=True)
    assert r.winner == "defender" and r.attacker_damage == 4 and r.damage == 0
    assert resolve_attack(Play("2H"), Play("9H"), wrestling=True, escape=True).attacker_damage == 0
    draw = resolve_attack(Play("5H"), Play("5D"), wrestling=True)
    assert (draw.damage, draw.attacker_damage) == (1, 1)


def test_unopposed_variant():
    # FM-7 variant: the attacker wins, points = ceil(value / 2).
    r = resolve_attack(Play("7H", trumps=("KH",)), None, Rules(undefended="unopposed"))
    assert (r.winner, r.attacker_value, r.points, r.damage) == ("attacker", 8, 4, 4)
    with pytest.raises(IllegalActionError, match="blind draw"):
        resolve_attack(Play("7H"), None)


# -- FM-5: who has said None (none_means) ---------------------------------------------------
# docs/rulings.md FM-5: "a fairy who applies no Trump of any kind in this attack — no face-down
# Trumps, no Wild Trump played from the hand, no Trumps turned up by a draw, no Wild Trump
# points" has said None; "a blind draw that turns up no Trump is None".
# The attacker plays the 6♠ with the K♣ face down (black matches black: 6 + 1 = 7, Add).
# The defender has no Numbered card; with the Q♥ as a Wild Trump she turns up the 5♥
# (red matches red: 5 + 1 = 6). Different colours: the lowest value wins (FM-9).
# K♣ revealed: 7 against 6, the defender wins by 1. K♣ hidden: 6 against 6, a draw.
_FACE_DOWN = Play("6S", trumps=("KC",))


@pytest.mark.parametrize(
    "defender",
    [
        Play("5H", wild="QH"),  # a Wild Trump played from the hand
        Play("5H", drawn=("QH",)),  # a Trump turned up by a (blind) draw
        Play("5H", wild_points=1, wild_colour="red"),  # one Wild Trump point (FM-7)
    ],
    ids=["wild trump", "trump turned up", "wild trump points"],
)
def test_fm5_a_fairy_playing_any_trump_has_not_said_none(defender):
    r = resolve_attack(_FACE_DOWN, defender)
    assert r.hidden == {} and r.revealed["attacker"] == _FACE_DOWN.trumps
    assert (r.attacker_value, r.defender_value, r.winner, r.points) == (7, 6, "defender", 1)
    with pytest.raises(IllegalActionError, match="not hidden"):
        resolve_attack(_FACE_DOWN, defender, reveal={"attacker": False})
    # the variant none_means="no_face_down": she placed nothing face down, so she said
    # None and the attacker keeps the K♣ hidden (a draw is better for her than a loss)
    old = resolve_attack(_FACE_DOWN, defender, Rules(none_means="no_face_down"))
    assert old.hidden == {"attacker": _FACE_DOWN.trumps} and old.winner is None


def test_fm5_a_blind_draw_turning_up_no_trump_is_none():
    r = resolve_attack(_FACE_DOWN, Play("6H"))  # nothing face down, nothing turned up but the 6♥: 6 against 6
    assert r.hidden == {"attacker": _FACE_DOWN.trumps} and r.winner is None


def test_fm5_hidden_trumps_owner_reads_the_rule():
    from toolkit.fairy_meat.legality import hidden_trumps_owner

    old = Rules(none_means="no_face_down")
    # (placed face down per side), (other Trumps applied per side)
    assert hidden_trumps_owner((True, False)) == 0 and hidden_trumps_owner((False, True)) == 1
    assert hidden_trumps_owner((True, False), (False, True)) is None
    assert hidden_trumps_owner((False, True), (True, False)) is None
    assert hidden_trumps_owner((True, False), (False, True), old) == 0
    assert hidden_trumps_owner((True, True)) is None and hidden_trumps_owner((False, False), (True, True)) is None
    # her own Wild Trump does not reveal her face-down Trumps: only the other side's play counts
    assert hidden_trumps_owner((True, False), (True, False)) == 0


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(damage="table"), Rules(none_reveal="subset"), Rules(same_colour_wins="lowest")],
    ids=["default", "table", "subset", "lowest"],
)
def test_an_attack_judged_without_words_is_the_same_judgement(rules):
    """``explain=False`` (what the calculators ask) gives the same result field by field,
    reveal and hidden Trumps included, with no explanation; 400 random real attacks."""
    from dataclasses import fields

    rng = random.Random(20)
    numbered = [f"{r}{s}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10") for s in "SHDC"]
    trumps = {
        "red": ["JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD"],
        "black": ["JS", "QS", "KS", "JC", "QC", "KC", "AC"],
    }
    judged = 0
    while judged < 400:
        na, nd = rng.sample(numbered, 2)
        pool = rng.sample(trumps["red"], 4) + rng.sample(trumps["black"], 4)
        plays = [
            Play(n, trumps=tuple(t for t in ts if t), direction=rng.choice(("add", "subtract")))
            for n, ts in ((na, pool[: rng.randint(0, 2)]), (nd, pool[4 : 4 + rng.randint(0, 2)]))
        ]
        wrestling = rng.random() < 0.3
        try:
            told = resolve_attack(plays[0], plays[1], rules, wrestling=wrestling)
        except IllegalActionError:
            continue
        quiet = resolve_attack(plays[0], plays[1], rules, wrestling=wrestling, explain=False)
        assert quiet.lines == () and told.lines and quiet.explanation == ()
        for f in fields(told):
            if f.name != "explanation":
                assert getattr(quiet, f.name) == getattr(told, f.name), (f.name, plays)
        judged += 1
