"""A rules picker that tells the truth (issue 23 items 1 and 5): a picked house-rules file
that changes nothing an explorer counts says why, the fields it names as not counted
really change nothing (computed, not assumed), a change made by hand shows in the "Rules
in force" panel, the notes read as paragraphs, and the Angry Miniatures explorer says why
its ranged and magic odds are the same."""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.angry_miniatures import Rules as AMRules
from toolkit.angry_miniatures import widgets as am_widgets
from toolkit.durak_battle import Rules as DBRules
from toolkit.durak_battle.widgets import round_explorer
from toolkit.durak_battle.widgets.explorers import ROUND_NOT_COUNTED
from toolkit.fairy_meat import Rules as FMRules
from toolkit.fairy_meat.widgets import odds_explorer as fm_explorer
from toolkit.fairy_meat.widgets.explorers import NOT_COUNTED as FM_NOT_COUNTED
from toolkit.house_rules import RulesFile, rules_files
from toolkit.widgets.rules_picker import notes_paragraphs

#: A valid value other than the default for each field said not to count (by its type).
OTHER = {
    "wrestling_hand": "kill_only",
    "counter_tie": "loses",
    "holder_must_attack": True,
    "morale_penalty": "battle",
    "defence_won": (1, 0),
    "defence_lost": (0, 2),
    "manoeuvre_won": (1, 1),
    "manoeuvre_lost": (0, 3),
    "suits": (("attack", "C"), ("defence", "D"), ("manoeuvre", "H"), ("counter", "S")),
}


def _other(rules, name):
    value = OTHER.get(name, getattr(rules, name) + 1 if isinstance(getattr(rules, name), int) else None)
    assert value is not None and value != getattr(rules, name), name
    return dataclasses.replace(rules, **{name: value})


def _numbers(ex):
    """The exact distribution and the summary's numbers (without its line naming the house
    rules in force, which names any change)."""
    return ex.distribution, [part for part in ex.summary_text.split(" · ") if not part.startswith("house rules:")]


def _pick(ex, title):
    value = dict(ex.rules_picker.options)[title]
    ex.rules_picker.dropdown.value = value


@pytest.mark.parametrize(
    ("make", "rules", "not_counted"),
    [
        (lambda **kw: fm_explorer(attacker_cards=3, defender_cards=2, **kw), FMRules(), FM_NOT_COUNTED),
        (round_explorer, DBRules(), ROUND_NOT_COUNTED),
        (am_widgets.odds_explorer, AMRules(), am_widgets.NOT_COUNTED),
    ],
    ids=["fairy-meat", "durak-round", "angry-miniatures"],
)
def test_the_fields_said_not_to_count_change_no_number(make, rules, not_counted):
    """Each field an explorer says it does not count, set to another valid value, gives
    the very same exact distribution and summary as the default rules."""
    base = _numbers(make())
    for name in not_counted:
        assert _numbers(make(rules=_other(rules, name))) == base, name


def test_a_counted_field_is_never_said_not_to_count():
    """The converse: a field the explorer counts changes its numbers (one per system)."""
    assert _numbers(fm_explorer(3, 2, rules=FMRules(points_divisor=1))) != _numbers(fm_explorer(3, 2))
    assert _numbers(round_explorer(rules=DBRules(morale_per_token=2))) != _numbers(round_explorer())
    assert "points_divisor" not in FM_NOT_COUNTED and "morale_per_token" not in ROUND_NOT_COUNTED


@pytest.mark.parametrize(
    ("make", "system"),
    [
        (lambda: fm_explorer(3, 2), "fairy-meat"),
        (round_explorer, "durak-battle"),
        (am_widgets.odds_explorer, "angry-miniatures"),
    ],
    ids=["fairy-meat", "durak-round", "angry-miniatures"],
)
def test_every_shipped_file_changes_the_numbers_or_says_why(make, system):
    ex = make()
    default = _numbers(ex)
    for path in rules_files(system):
        title = RulesFile.read(path).title
        _pick(ex, title)
        said = "toolkit-not-counted" in ex.rules_picker.notes.value
        assert (_numbers(ex) != default) or said, f"{title} changes nothing and says nothing"
        if _numbers(ex) == default:
            assert "the numbers are those of the default rules" in ex.rules_picker.notes.value, title


def test_attacker_draws_2_and_cheap_strikes_say_why():
    """The two files the issue names: picked, they change nothing, and the panel says why."""
    fm = fm_explorer(3, 2)
    before = _numbers(fm)
    _pick(fm, "Attacker draws +2")
    assert _numbers(fm) == before
    assert "the sliders set both hand sizes directly" in fm.rules_picker.notes.value
    durak = round_explorer()
    before = _numbers(durak)
    _pick(durak, "Cheap strikes")
    assert _numbers(durak) == before
    notes = durak.rules_picker.notes.value
    assert "Tokens lost to a strike (DB-4)" in notes and "before the first card is played" in notes


def test_a_change_by_hand_shows_in_the_rules_in_force():
    """Issue 23 item 5: after a hand-made change the panel names it ("set here"), not
    only the picked file; setting it back to the default says so too."""
    fm = fm_explorer(1, 1)  # the notes do not depend on the hand sizes
    assert "no field changed" in fm.rules_picker.notes.value
    fm.controls["points_divisor"].value = 1
    notes = fm.rules_picker.notes.value
    assert "no field changed" not in notes and "changed here by hand" in notes
    assert "Points divisor: 1 (by default 2) — set here" in notes
    durak = round_explorer(rules="harsh_morale")
    changed = next(iter(durak.rules_picker.rules.changes()))
    control = durak.controls[changed]
    control.value = getattr(DBRules(), changed)
    label = DBRules.field_label(changed)
    assert f"{label}: set back to the default here" in durak.rules_picker.notes.value


def test_notes_read_as_paragraphs_not_the_files_lines():
    fm = fm_explorer(1, 1)  # the notes do not depend on the hand sizes
    _pick(fm, "Attacker draws +2")
    notes = fm.rules_picker.notes.value
    assert "instead of 1 (FM-2)? A bigger hand" in notes  # the file's line break is gone
    assert "pre-wrap" not in notes
    assert notes_paragraphs("a\nb\n\n\nc") == ["a b", "c"]


def test_ranged_and_magic_say_why_their_odds_are_the_same():
    """The explorer's ranged and magic odds are identical (same pools, no area): said
    under both, and not in melee."""
    ex = am_widgets.odds_explorer(attack_dice=3, defence_dice=2)
    melee = _numbers(ex)
    assert am_widgets.RANGED_IS_MAGIC not in melee[1]
    ex.controls["attack_type"].value = "ranged"
    ranged = _numbers(ex)
    ex.controls["attack_type"].value = "magic"
    magic = _numbers(ex)
    assert ranged[0] == magic[0] and am_widgets.RANGED_IS_MAGIC in ranged[1] and am_widgets.RANGED_IS_MAGIC in magic[1]
