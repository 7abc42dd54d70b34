"""The narration's wording as a designer reads it (issue 23 item 4): a count meets its noun
in the singular for one, an empty hand is "no cards" in every view, "more" only once
something has been dealt or rolled, and a one-side view names its side instead of
giving every side a pronoun. Every expected string is written by hand from the rule text.
"""

from __future__ import annotations

from toolkit.angry_miniatures.engine import start_attack_from_pools
from toolkit.durak_battle import Army, Leader
from toolkit.durak_battle.engine import start_battle
from toolkit.fairy_meat import Fairy
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.widgets import combat_stepper


def _wrestling():
    # FM-14: Wrestling hands by Kill points, +1 for attacking: Ann 0 + 1 = 1 card, Bo 2 cards.
    return start_combat(Fairy("Ann", 5, 0), Fairy("Bo", 5, 2), wrestling=True, deck="9H 3C 2H")


def test_one_card_against_two_is_singular():
    state = _wrestling()
    assert state.events[0].text == (
        "Wrestling: Ann (5 Live, 0 Kill, bare hands) attacks Bo (5 Live, 2 Kill): 1 card against 2, 1 attack (FM-2)."
    )


def test_fairy_meat_deal_says_more_only_after_a_card_is_dealt():
    assert _wrestling().prompt() == "Deal Ann 1 card."
    # FM-2: Kill 4 + 1 for attacking = 5 cards for Dizzytwig.
    state = start_combat(Fairy("Dizzytwig", 3, 4), Fairy("Sparklespaz", 2, 1))
    assert state.prompt() == "Deal Dizzytwig 5 cards."
    for left in (4, 3, 2):
        state = state.apply(state.chance_outcomes()[0][0])
        assert state.prompt() == f"Deal Dizzytwig {left} more cards."
    state = state.apply(state.chance_outcomes()[0][0])
    assert state.prompt() == "Deal Dizzytwig 1 more card."


def test_an_empty_hand_reads_no_cards_in_every_view():
    state = _wrestling()
    expected = ["Ann (attacker): hand no cards; declared -", "Bo (defender): hand no cards; declared -"]
    for viewer in (None, "attacker", "defender"):
        assert state.observation(viewer).splitlines()[:2] == expected, viewer


def _armies():
    return (
        Army("North", 5, Leader("Ilya", battle_die="d6", spirit_die="d8")),
        Army("South", 5, Leader("Ostap", battle_die="d6", spirit_die="d8")),
    )


def test_durak_empty_hands_and_first_deal():
    state = start_battle(*_armies())
    while state.stage != "deal":  # the Knowledge (Battle) rolls come first (DB-2)
        state = state.apply(state.chance_outcomes()[0][0])
    for viewer in (None, "a", "b"):
        lines = state.observation(viewer).splitlines()
        assert [line.partition("; ")[2] for line in lines[:2]] == ["hand no cards", "hand no cards"], viewer
    first = state.prompt()
    assert first.startswith(f"Deal {state.names[state.chance_side]} ") and " more " not in first, first
    state = state.apply(state.chance_outcomes()[0][0])
    if state.stage == "deal" and state.hands[state.chance_side]:
        assert " more card" in state.prompt(), state.prompt()


def test_angry_miniatures_more_dice_only_after_a_roll():
    state = start_attack_from_pools(3, 2)
    assert state.prompt() == "Attacker rolls 3 attack dice (melee)."
    state = state.apply(state.chance_outcomes()[0][0])
    assert state.prompt() == "Attacker rolls 2 more attack dice (melee)."


def test_points_to_defender_is_singular_for_one():
    from toolkit.fairy_meat.widgets import odds_explorer

    explorer = odds_explorer()
    assert explorer.label(-1) == "1 point to defender"
    assert explorer.label(-2) == "2 points to defender"


def test_free_stepper_speaks_of_sparklespaz_as_the_draft_does_and_views_name_the_side():
    st = combat_stepper(seed=1)
    assert st.fairies[1].pronoun == "he"  # the draft's worked example: "he"
    st.view.value = "defender"
    assert st.hands_view.value.startswith("<div><i>What Sparklespaz may see:</i></div>")
    assert "she may see" not in st.hands_view.value


def test_no_report_tells_a_static_page_reader_to_change_the_parameters_below():
    import json
    from pathlib import Path

    for path in sorted(Path(__file__).parent.parent.joinpath("notebooks").glob("*_report.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        words = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        assert "parameters below" not in words, path.name  # a rendered report has no cell to edit
