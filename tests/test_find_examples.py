"""find_examples (issue 15 item 2): the same seed finds the same examples; house rules are
followed; searches are steered and bounded. That every catalogue situation of every system
is found, replays with its expectations met and shows its situation is part of the
systems' contract (test_system_contract.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.notation import load_yaml
from toolkit.replay import replay_file
from toolkit.rulebook import catalogue, find_examples, search, situation
from toolkit.rulebook.finder import rules_for, verify


def test_the_same_seed_finds_the_same_examples():
    for system, name in [
        ("fairy-meat", "both_cheat"),
        ("durak-battle", "counter_lower_loses_token"),
        ("angry-miniatures", "crit_on_defence"),
    ]:
        first = find_examples(system, name, n=2, seed=7, budget_seconds=30)
        assert find_examples(system, name, n=2, seed=7, budget_seconds=30) == first
        assert len(first) == 2 and first[0] != first[1]


def test_examples_are_ranked_simplest_first():
    found = search("angry-miniatures", "tie_decided_by_queens", n=3, budget_seconds=30)
    scores = [f.simplicity for f in found]
    assert scores == sorted(scores)
    # the simplest tie on Queens is one die each: Q against J (AM-1, AM-4)
    assert load_yaml(found[0].text).data["rolls"] == [{"Grunk": "Q"}, {"Pixie": "J"}]


def test_house_rules_are_followed_and_written_into_the_file():
    found = find_examples(
        "angry-miniatures", "zero_hits_super_tiebreak", rules={"zero_tie": "super_tiebreak"}, n=1, budget_seconds=30
    )
    assert load_yaml(found[0]).data["rules"] == {"zero_tie": "super_tiebreak"}
    found = find_examples("durak-battle", "strike_declined", rules={"jokers": False}, n=1, budget_seconds=30)
    data = load_yaml(found[0]).data
    assert data["rules"]["jokers"] is False and "JK" not in str(data["rounds"])
    verify("durak-battle", found[0], situation("durak-battle", "strike_declined").shows)


def test_a_situation_the_rules_make_impossible_is_refused_at_once():
    with pytest.raises(InvalidSetupError, match="cannot happen under these rules"):
        find_examples("durak-battle", "joker_coin_flip", rules={"jokers": False})
    with pytest.raises(InvalidSetupError, match="cannot happen under these rules"):
        rules_for("durak-battle", "joker_coin_flip", {"jokers": False})


def test_without_rules_a_situation_is_searched_under_its_own_variant(capsys, tmp_path):
    found = find_examples("fairy-meat", "undefended_unopposed", n=1)
    assert load_yaml(found[0]).data["rules"] == {"undefended": "unopposed"}
    assert main(["find-example", "durak-battle", "counter_equal_loses", "-n", "1", "-o", str(tmp_path)]) == 0
    assert "searched under counter_tie='loses'" in capsys.readouterr().err
    assert replay_file(tmp_path / "counter_equal_loses_1.yaml")[1] == []


def test_rules_for_takes_the_situations_own_variant_only_when_needed():
    assert rules_for("angry-miniatures", "zero_hits_super_tiebreak").zero_tie == "super_tiebreak"
    mixed = rules_for("angry-miniatures", "zero_hits_super_tiebreak", {"melee_defence_bonus": True})
    assert mixed.melee_defence_bonus and mixed.zero_tie == "super_tiebreak"
    assert rules_for("angry-miniatures", "crit_on_attack", {"zero_tie": "super_tiebreak"}).zero_tie == "super_tiebreak"


def test_a_designer_predicate_is_searched():
    def four_cards_dealt(state) -> bool:
        """Four cards are dealt in all."""
        return len(state.cards_seen) == 4

    found = search("fairy-meat", four_cards_dealt, n=1, budget_seconds=30)
    assert len(found) == 1 and len(found[0].state.cards_seen) == 4


def test_bad_arguments_are_refused():
    with pytest.raises(InvalidSetupError, match="n must be"):
        find_examples("fairy-meat", "draw", n=0)
    with pytest.raises(InvalidSetupError, match="budget must be more than 0 seconds"):
        find_examples("fairy-meat", "draw", budget_seconds=0)
    with pytest.raises(InvalidSetupError, match="unknown system"):
        find_examples("chess", "draw")


def test_verify_refuses_a_file_whose_expectations_fail():
    text = find_examples("angry-miniatures", "crit_on_attack", n=1)[0]
    broken = text.replace("damage: {Grunk: 0, Pixie: 2}", "damage: {Grunk: 0, Pixie: 1}")
    assert broken != text
    with pytest.raises(InvalidSetupError, match="expectations are not met"):
        verify("angry-miniatures", broken)


def test_cli_list_and_find(tmp_path, capsys):
    assert main(["find-example", "--list", "durak-battle"]) == 0
    listed = capsys.readouterr().out.split()
    assert listed == [s.name for s in catalogue("durak-battle")]
    assert main(["find-example", "fairy-meat", "nasty_hit", "-n", "2", "-o", str(tmp_path)]) == 0
    files = sorted(Path(tmp_path).glob("*.yaml"))
    assert [f.name for f in files] == ["nasty_hit_1.yaml", "nasty_hit_2.yaml"]
    for f in files:
        assert replay_file(f)[1] == []
        assert main(["replay", str(f)]) == 0
    assert main(["find-example", "fairy-meat", "no_such_thing"]) == 2
    assert "both_cheat" in capsys.readouterr().err
    assert main(["find-example", "chess"]) == 2


def test_the_examples_page_verifies_every_situation_and_escapes_names():
    from toolkit.rulebook.page import entry_html, examples_page

    page = examples_page("angry-miniatures", budget_seconds=30)
    assert [e.situation.name for e in page] == [s.name for s in catalogue("angry-miniatures")]
    assert all(e.verified for e in page)
    variant = next(e for e in page if e.situation.name == "zero_hits_super_tiebreak")
    assert "Both roll no hits: super tiebreak" in variant.rules  # searched under its own variant, and says so

    def shouting(state) -> bool:
        """<script>alert(1)</script>"""
        return False

    (none,) = examples_page("angry-miniatures", budget_seconds=0.2, situations=[shouting])
    assert not none.verified and "no example found" in none.note
    rendered = entry_html(none)
    assert "<script>" not in rendered and "&lt;script&gt;" in rendered
    fake_export = entry_html(page[0], export=lambda text: "<html><body><b>boxed</b></body></html>")
    assert "<iframe" not in fake_export and "<b>boxed</b>" in fake_export  # shown at its own height


def test_the_notebook_runs_under_papermill(tmp_path):
    import json

    import papermill

    notebook = Path(__file__).resolve().parent.parent / "notebooks" / "rulebook_examples.ipynb"
    out = tmp_path / "out.ipynb"
    papermill.execute_notebook(
        str(notebook),
        str(out),
        parameters={"system": "angry-miniatures", "situation": "crit_on_defence", "n": 2, "output_dir": str(tmp_path)},
        progress_bar=False,
        cwd=str(tmp_path),
    )
    outputs = [o for c in json.loads(out.read_text())["cells"] for o in c.get("outputs", [])]
    assert not [o for o in outputs if o["output_type"] == "error"]
    text = json.dumps(outputs, ensure_ascii=False)
    assert "16 of 16 situations have a verified example" in text
    assert "2 examples of “A crit on defence” found" in text
    # the export writes only the examples asked for (the situation's two), not the catalogue
    assert len(list(tmp_path.glob("*.yaml"))) == 2 and len(list(tmp_path.glob("*.html"))) == 2
    # no warning on the page (a frame used to raise IPython's "Consider using IFrame"), and the
    # finder, where no widget can show, says where it is instead of its Python repr
    assert not [o for o in outputs if o["output_type"] == "stream" and o["name"] == "stderr"]
    from toolkit.rulebook.picker import STATIC_NOTE

    assert STATIC_NOTE in text and "VBox(" not in text


def test_a_nasty_hit_example_states_it_in_its_expectations():
    """FM-12: the file carries the Nasty Hit, so a rule change that loses it is caught."""
    text = find_examples("fairy-meat", "nasty_hit", n=1)[0]
    assert any(item.get("nasty_hit") is True for item in load_yaml(text).data["expect"])
    with pytest.raises(InvalidSetupError, match="nasty_hit"):
        verify("fairy-meat", text.replace("nasty_hit: true", "nasty_hit: false"))


def test_next_options_in_lists_the_next_cards_as_the_pile_does():
    """The searchers' shortcuts for Pile.next_options (the same cards, in the same order, and
    with their weights:
    the seeded search depends on it), with and without jokers (DB-1), through a deck drawn down."""
    import random

    from toolkit.cards import Pile
    from toolkit.durak_battle.finder import DECK as WITH_JOKERS
    from toolkit.fairy_meat import Rules
    from toolkit.fairy_meat.engine import full_pile
    from toolkit.fairy_meat.finder import dealing

    rng = random.Random(3)
    piles = [
        (Pile.full(jokers=True, stacked=["7S"]), WITH_JOKERS),
        *(
            (full_pile(r, ["9S"]), dealing(r, 1.0, 1.0)[0])
            for r in (Rules(), Rules(jokers=2, numbered_ranks=("9", "10")))
        ),
    ]
    for pile, deck in piles:
        weight = {c: float(i + 1) for i, c in enumerate(deck)}  # a different weight for each card
        drawable = tuple((c.code, c, weight[c]) for c in deck)
        for _ in range(70):  # past the end of the deck: the discards are reshuffled (FM-13)
            assert pile.next_options_in(deck) == pile.next_options()
            cards = pile.next_options()
            assert pile.weighted_next_options(deck, weight, drawable) == (cards, [weight[c] for c in cards])
            card = rng.choice(pile.next_options())
            pile = pile.draw(card).discard([card])


def test_search_hints_steer_a_designer_predicate_and_are_checked():
    import importlib

    def escape_with_a_king(state) -> bool:
        """The Wrestling winner escapes after a King was played."""
        return any(r.escaped for r in state.results) and "King" in state.log()

    found = search("fairy-meat", escape_with_a_king, n=1, budget_seconds=30, hints={"wrestling": True, "trump": 3})
    assert len(found) == 1 and found[0].state.wrestling
    with pytest.raises(InvalidSetupError, match="unknown search hints 'wrestle'"):
        find_examples("fairy-meat", escape_with_a_king, hints={"wrestle": True})
    # the catalogue's own hints are ones its searcher reads (a typo would be ignored silently)
    for system, module in (
        ("angry-miniatures", "angry_miniatures"),
        ("fairy-meat", "fairy_meat"),
        ("durak-battle", "durak_battle"),
    ):
        accepted = set(importlib.import_module(f"toolkit.{module}.finder").HINTS)
        for entry in catalogue(system):
            assert set(entry.hints()) <= accepted, (system, entry.name)


def test_fairy_meat_searches_deal_from_the_house_rules_deck():
    """FM-1 jokers and FM-12's death card come from the rules: a search under two jokers
    deals one, and the Nasty Hit situation is found with the K of Clubs as the death card."""
    from toolkit.fairy_meat import Rules
    from toolkit.fairy_meat.finder import dealing

    deck, weight = dealing(Rules(jokers=2, death_card="KC"), 5.0, 20.0)
    assert len(deck) == 54 and {c.code for c in deck} >= {"JK1", "JK2"}
    assert weight[next(c for c in deck if c.code == "KC")] == 20.0 and weight[deck[0]] in (1.0, 5.0)
    # by hand: 16 J Q K A and 2 jokers are Trumps (FM-1), less the K of Clubs weighted as the death card
    assert sum(w == 20.0 for w in weight.values()) == 1 and sum(w == 5.0 for w in weight.values()) == 17

    def joker_dealt(state) -> bool:
        return any("Joker" in e.text or "JK" in e.text for e in state.events)

    found = find_examples("fairy-meat", joker_dealt, rules={"jokers": 2}, n=1, budget_seconds=30)
    assert len(found) == 1 and "jokers: 2" in found[0]
    found = find_examples("fairy-meat", "nasty_hit", rules={"death_card": "KC"}, n=1, budget_seconds=30)
    assert len(found) == 1 and "KC" in found[0]


def test_angry_miniatures_searches_roll_the_house_rules_die():
    """AM-1: the rolls and SuperTieBreaker throws (AM-4) come from ``rules.die_faces``; on a
    die without a 9 (10 J Q K A A) a search used to stop at a '9' the engine refuses."""
    from toolkit.angry_miniatures.rules import Rules

    rules = Rules(die_faces=("10", "J", "Q", "K", "A", "A"))
    found = find_examples("angry-miniatures", "super_tiebreak_after_two_rerolls", rules=rules, n=1, budget_seconds=30)
    assert len(found) == 1
    data = load_yaml(found[0]).data
    faces = {f for roll in data["rolls"] for text in roll.values() for f in str(text).split()}
    assert faces and faces <= {"10", "J", "Q", "K", "A"}  # by hand: this die's faces, never a 9
    assert sum("super_tiebreak" in roll for roll in data["rolls"]) >= 3  # two tied throws, then a winner
    verify("angry-miniatures", found[0], situation("angry-miniatures", "super_tiebreak_after_two_rerolls").shows)
    # the simplest tie decided by Queens is still one die each, Q against J (AM-1, AM-4)
    (queens,) = find_examples("angry-miniatures", "tie_decided_by_queens", rules=rules, n=1, budget_seconds=30)
    assert load_yaml(queens).data["rolls"] == [{"Grunk": "Q"}, {"Pixie": "J"}]


@pytest.mark.parametrize(
    ("system", "name", "field", "text"),
    [
        # AM-4 with tie_damage 2: the won tie deals 2 back, by the rule's own number
        ("angry-miniatures", "tie_won_by_defender_in_melee", "tie_damage", "wins the tie and deals 2 damage back"),
        # DB-5 with counter_lower_loss 2: the lower counterattack costs 2 tokens first
        ("durak-battle", "counter_lower_loses_token", "counter_lower_loss", "lower, she loses 2 tokens first"),
    ],
)
def test_situations_with_an_amount_follow_the_rules_number(system, name, field, text):
    """The amount in the log is the rules' field, not the draft's 1: under a field of 2
    the situation is found (it used to match "1" only, find nothing and burn the budget);
    with the field at 0 it cannot happen and is refused at once."""
    wanted = situation(system, name)
    found = find_examples(system, name, rules={field: 2}, n=1, budget_seconds=30)
    assert len(found) == 1 and f"{field}: 2" in found[0]
    state = verify(system, found[0], wanted.shows)
    assert any(text in e.text for e in state.events)
    with pytest.raises(InvalidSetupError, match="cannot happen under these rules"):
        find_examples(system, name, rules={field: 0}, n=1)


def test_fairy_meat_setups_deal_the_hand_sizes_under_the_rules_attacker_bonus():
    """FM-2: the attacker draws Kill points + attacker_bonus (+ modifiers); the search's
    hands of 1..5 cards stay 1..5 cards whatever the bonus (it used to assume a bonus of 1)."""
    from toolkit.fairy_meat import Rules
    from toolkit.fairy_meat.finder import setups

    def kill_and_modifiers(rules):
        found = setups({"defender_cards": (1,)}, rules)
        return [(s["attacker"].kill, s.get("attacker_modifiers", 0)) for s in found]

    # by hand, 1..5 cards: with a bonus of 1, Kill 0..4; of 3, 0+3-2, 0+3-1, 0+3, 1+3, 2+3
    assert kill_and_modifiers(Rules()) == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert kill_and_modifiers(Rules(attacker_bonus=3)) == [(0, -2), (0, -1), (0, 0), (1, 0), (2, 0)]
    assert kill_and_modifiers(Rules(attacker_bonus=-1)) == [(2, 0), (3, 0), (4, 0), (5, 0), (6, 0)]
    wrestling = setups({"defender_cards": (1,), "wrestling": True}, Rules(wrestling_hand="kill_only"))
    assert [s["attacker"].kill for s in wrestling] == [1, 2, 3, 4, 5]  # FM-14 kill_only: Kill points only
    # the simplest draw (FM-9) deals the attacker 2 cards and the defender 1, as under the draft's bonus
    (found,) = find_examples("fairy-meat", "draw", rules={"attacker_bonus": 3}, n=1, budget_seconds=30)
    data = load_yaml(found).data
    assert data["attacker"]["kill"] + 3 + data["attacker"].get("modifiers", 0) == 2
    assert len(data["deck"].split()) == 3


# -- issue 20 item 8: impossible situations, budgets, the report's situation ---------------------
def _deciding_faces(rules, most_dice: int = 3) -> set[str]:
    """Brute force from AM-1 and AM-4 alone: the faces whose step of the chain decides some
    tie on hits between two rolls of up to ``most_dice`` dice each (faces compared in
    ``tie_break_order``, the first unequal count decides)."""
    from itertools import combinations_with_replacement

    faces = sorted(set(rules.die_faces))
    rolls = [r for n in range(1, most_dice + 1) for r in combinations_with_replacement(faces, n)]
    hits = lambda roll: sum(f in rules.hit_faces for f in roll)
    found = set()
    for a in rolls:
        for b in rolls:
            if hits(a) != hits(b):
                continue
            for face in rules.tie_break_order:
                if a.count(face) != b.count(face):
                    found.add(face)
                    break
    return found


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"hit_faces": ["A"]},
        {"hit_faces": ["K", "A"]},
        {"hit_faces": ["Q", "K", "A"], "tie_break_order": ["Q", "A"]},
        {"tie_break": "coin_flip"},
    ],
    ids=["default", "aces", "kings-aces", "chain-q-a", "coin"],
)
def test_a_tie_step_is_possible_exactly_when_some_roll_shows_it(fields):
    """tie_decided_by_{aces,kings,queens} are possible exactly for the faces whose step
    decides some tie, by brute force over every pair of rolls of 1-3 dice."""
    from toolkit.angry_miniatures import Rules

    rules = Rules(**fields)
    deciding = set() if rules.tie_break != "chain" else _deciding_faces(rules)
    for face, name in (("A", "aces"), ("K", "kings"), ("Q", "queens")):
        assert situation("angry-miniatures", f"tie_decided_by_{name}").possible_under(rules) == (face in deciding)


@pytest.mark.parametrize(
    ("system", "name", "rules", "why"),
    [
        (
            "angry-miniatures",
            "tie_decided_by_kings",
            {"hit_faces": ["A"]},
            "Kings are not in the tie-break chain (A, AM-4)",
        ),
        ("angry-miniatures", "tie_decided_by_aces", {"hit_faces": ["A"]}, "have as many Aces (AM-1, AM-4)"),
        ("angry-miniatures", "tie_decided_by_queens", {"tie_break": "coin_flip"}, "ties on hits go to a coin flip"),
        ("fairy-meat", "nasty_hit", {"death_card": "none"}, "no card gives a Nasty Hit (Death card: none, FM-12)"),
        (
            "angry-miniatures",
            "zero_hits_miss",
            {"hit_faces": ["9", "10", "J", "Q", "K", "A"]},
            "every face of the die hits (9 10 J Q K A, AM-1): no roll has 0 hits",
        ),
    ],
)
def test_an_impossible_situation_is_refused_at_once_saying_why(system, name, rules, why, capsys, tmp_path):
    import time

    start = time.perf_counter()
    with pytest.raises(InvalidSetupError, match="cannot happen under these rules") as caught:
        find_examples(system, name, rules=rules, budget_seconds=30)
    assert why in str(caught.value) and time.perf_counter() - start < 1
    house = tmp_path / "house.yaml"
    house.write_text(f"system: {system}\n" + "".join(f"{k}: {v!r}\n" for k, v in rules.items()), encoding="utf-8")
    assert main(["find-example", system, name, "--rules", str(house), "--budget", "30"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and why in err[0]


@pytest.mark.parametrize("budget", ["0", "-1", "nan", "x"])
def test_a_budget_of_no_time_gets_one_message_everywhere(budget, capsys):
    assert main(["find-example", "fairy-meat", "draw", "--budget", budget]) == 2
    err = capsys.readouterr().err
    assert "budget must be more than 0 seconds (at most a week), got" in err
    with pytest.raises(InvalidSetupError, match=r"budget must be more than 0 seconds \(at most a week\), got"):
        search("fairy-meat", "draw", budget_seconds=float(budget) if budget != "x" else budget)


@pytest.mark.parametrize("system", ["angry-miniatures", "fairy-meat", "durak-battle"])
def test_a_search_that_finds_nothing_ends_within_its_budget(system):
    import time

    start = time.perf_counter()
    assert search(system, lambda state: False, budget_seconds=0.5) == []
    assert time.perf_counter() - start < 1.5


def test_the_rulebook_report_refuses_an_unknown_situation_before_the_run(capsys, tmp_path):
    from toolkit.reports.runner import find_report, validate_parameters

    path = find_report("rulebook-examples")
    with pytest.raises(InvalidSetupError, match=r"durak-battle has no situation 'nasty_hit'; use one of .*no_clash"):
        validate_parameters(path, {"system": "durak-battle", "situation": "nasty_hit"})
    assert validate_parameters(path, {"situation": "nasty_hit"}) == {"situation": "nasty_hit"}
    assert main(["report", "rulebook-examples", "-p", "situation", "nope", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fairy-meat has no situation 'nope'; use one of both_cheat" in err[0]
    assert not (tmp_path / "out").exists()
