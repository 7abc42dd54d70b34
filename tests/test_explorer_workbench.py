"""Save and compare in every explorer, driven through the widgets (no browser).

"Save as house rules…" writes the rules in force: read back through
``toolkit.house_rules.read_house_rules`` they equal them, for each system; the file holds
only the fields changed from the rulings with the title and notes typed; a file already
there is never overwritten unless "replace a file already there" is ticked. "Compare
with…" computes a second rule set beside the rules in force; the difference shown is
checked against the independent brute force of ``tests/brute_force.py`` (Angry
Miniatures hit faces 10-A against the draft's J-A, AM-1, at 3 v 2 in melee).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from brute_force import DRAFT, opposed_with
from test_durak_battle_widgets import _stand_in
from test_fm_house_rules_widgets import _recording

from toolkit.angry_miniatures import Rules as AMRules
from toolkit.angry_miniatures.widgets import odds_explorer as am_explorer
from toolkit.durak_battle.widgets import odds_explorer as durak_explorer
from toolkit.house_rules import read_house_rules, rules_files
from toolkit.prob import Distribution
from toolkit.widgets.rules_picker import DEFAULT, RulesPicker
from toolkit.widgets.workbench import BEFORE, NOTHING

ROOT = Path(__file__).resolve().parent.parent
TENS = ("10", "J", "Q", "K", "A")
TENS_HIT = ROOT / "data" / "rules" / "angry-miniatures" / "tens_hit.yaml"


def _am():
    return am_explorer(attack_dice=3, defence_dice=2, attack_type="melee")


def _fm():
    return _recording()[0]


def _durak():
    return durak_explorer(compute=_stand_in)


#: Each system's explorer and one hand change by a control: (control, value, changed field).
EXPLORERS = {
    "angry-miniatures": (_am, "hit_faces", TENS),
    "fairy-meat": (_fm, "nasty_hit", "loser"),
    "durak-battle": (_durak, "morale_penalty", "battle"),
}


def _save(ex, folder: Path | None, title: str = "My rules", notes: str = "Why: to see.\nWhat I found.", replace=False):
    wb = ex.workbench
    wb.save_button.click()
    assert wb.form.layout.display == "flex"
    wb.title_box.value, wb.notes_box.value, wb.path_box.value = title, notes, str(folder or "")
    wb.replace_box.value = replace
    wb.write_button.click()
    ex.flush()
    return wb.saved if 'role="alert"' not in wb.message.value else None


@pytest.mark.parametrize("system", list(EXPLORERS))
def test_saved_rules_read_back_equal_to_the_rules_in_force(system, tmp_path):
    make, control, value = EXPLORERS[system]
    ex = make()
    ex.controls[control].value = value  # a hand change
    ex.flush()
    in_force = ex.rules_in_force
    assert in_force.changes() and getattr(in_force, control) == value
    path = _save(ex, tmp_path)
    assert path == tmp_path / "my_rules.yaml"
    assert "another explorer loads it by this path" in ex.workbench.message.value  # not the rules folder
    read = read_house_rules(system, path)
    assert read.rules == in_force and read.title == "My rules" and read.notes == "Why: to see.\nWhat I found."
    # only the fields changed from the rulings, with the system, title and notes
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) == {"system", "title", "notes", *in_force.changes()}
    assert data["system"] == system
    # every tool reads it: the Rules dropdown of this explorer picks it, another lists it
    assert ex.rules_picker.dropdown.label == "My rules" and ex.rules_picker.rules == in_force
    assert ex.rules_in_force == in_force  # the controls still say the same rules
    assert path in rules_files(system, tmp_path)
    assert "My rules" in [label for label, _ in RulesPicker(system, directory=tmp_path).options]


def test_a_hand_change_and_a_picked_file_save_only_what_differs_from_the_rulings(tmp_path):
    ex = _am()
    ex.rules_picker.dropdown.value = str(TENS_HIT.resolve())  # hit faces 10-A (AM-1)
    ex.controls["tie_damage"].value = 2  # and by hand a won tie deals 2 (AM-4)
    ex.flush()
    path = _save(ex, tmp_path, title="Tens and twos")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {k: v for k, v in data.items() if k not in ("system", "title", "notes")} == {
        "hit_faces": list(TENS),
        "tie_damage": 2,
    }
    assert read_house_rules("angry-miniatures", path).rules == AMRules(hit_faces=TENS, tie_damage=2)


def test_saving_never_overwrites_a_file_unless_replace_is_ticked(tmp_path):
    ex = _am()
    ex.controls["tie_damage"].value = 2
    first = _save(ex, tmp_path, title="Mine")
    text = first.read_text(encoding="utf-8")
    ex.controls["tie_damage"].value = 3
    assert _save(ex, tmp_path, title="Mine") is None
    assert "already exists" in ex.workbench.message.value and 'role="alert"' in ex.workbench.message.value
    assert first.read_text(encoding="utf-8") == text  # untouched
    assert _save(ex, tmp_path / "mine.yaml", title="Mine") is None  # a path given: the same
    assert _save(ex, tmp_path, title="Mine", replace=True) == first
    assert read_house_rules("angry-miniatures", first).rules == AMRules(tie_damage=3)
    assert ex.workbench.replace_box.value is False  # the next save asks again


def test_saving_into_the_rules_folder_by_default_and_every_tool_reads_it(tmp_path, monkeypatch):
    import toolkit.house_rules as house_rules
    from toolkit.house_rules import load_rules

    monkeypatch.setattr(house_rules, "RULES_DIR", tmp_path)  # the shipped rules folder, for this test
    ex = _am()
    assert ex.rules_picker.directory == tmp_path / "angry-miniatures"
    ex.controls["return_damage"].value = False  # AM-3 off by hand
    ex.flush()
    path = _save(ex, None, title="Quiet melee")
    assert path == tmp_path / "angry-miniatures" / "quiet_melee.yaml"
    assert "the Rules dropdown of every Angry Miniatures explorer lists it" in ex.workbench.message.value
    assert "(Melee damage back: no)" in ex.workbench.message.value  # what the file changes, in words
    quiet = AMRules(return_damage=False)
    assert read_house_rules("angry-miniatures", path).rules == quiet
    # by its name, as reports, sweeps and example files read house rules
    assert load_rules("angry-miniatures", "quiet_melee") == quiet
    other = _am()  # a new explorer lists it by its title, and starts from it by name
    assert "Quiet melee" in [label for label, _ in other.rules_picker.options]
    started = am_explorer(attack_dice=1, defence_dice=1, rules="quiet_melee")
    assert started.rules_in_force == quiet


@pytest.mark.parametrize("title", ["bad\x1b]0;owned\x07", "two\nlines", "tod\u202egnik", "  "])
def test_a_title_with_a_control_character_or_none_is_refused(title, tmp_path):
    ex = _am()
    assert _save(ex, tmp_path, title=title) is None
    assert not list(tmp_path.iterdir())
    message = ex.workbench.message.value
    assert ("control character" in message or "give the house rules a title" in message) and "\x1b" not in message


def test_notes_with_a_control_character_are_refused(tmp_path):
    ex = _am()
    assert _save(ex, tmp_path, notes="fine\x07") is None
    assert "control character" in ex.workbench.message.value and not list(tmp_path.iterdir())


def test_titles_and_notes_are_escaped_wherever_shown(tmp_path):
    ex = _am()
    ex.controls["tie_damage"].value = 2
    _save(ex, tmp_path, title="<b>Bold</b> & <script>x</script>", notes="<i>n</i>")
    ex.workbench.compare.value = DEFAULT
    ex.flush()
    shown = ex.rules_picker.notes.value + ex.table_view.value + ex.workbench.message.value
    assert "<script>" not in shown and "<b>Bold" not in shown and "<i>n" not in shown
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; &lt;script&gt;" in ex.table_view.value
    assert "<b>" not in ex.shown_figure.data[0].name


def _score_distribution(n: int, m: int, hits: tuple[str, ...]) -> dict[int, Fraction]:
    """Damage to the defender minus damage back (the explorer's score), by brute force."""
    out: dict[int, Fraction] = {}
    for (to_defender, back, _, _), p in opposed_with(n, m, "melee", {**DRAFT, "hits": set(hits)}).items():
        out[to_defender - back] = out.get(to_defender - back, Fraction(0)) + p
    return out


def _check_against_brute_force(ex, tens_in_force: bool) -> None:
    tens, draft = _score_distribution(3, 2, TENS), _score_distribution(3, 2, DRAFT["hits"])
    now, other = (tens, draft) if tens_in_force else (draft, tens)
    for view in ("exactly", "at least"):
        ex.view.value = view
        table = ex.table
        checked = 0
        for k, label, d in zip([int(s) for s in _scores(ex, view)], table["outcome"], ex.differences, strict=True):
            if label.startswith("at least") or view == "at least":
                inside = [s for s in {*now, *other} if (s >= k if k > 0 else s <= k)]
            else:
                inside = [k]
            expected = sum(now.get(s, 0) for s in inside) - sum(other.get(s, 0) for s in inside)
            assert d.exact and d.delta == expected, (view, label)
            checked += 1
        assert checked >= 4
        assert list(table["difference"]) == [d.delta for d in ex.differences]


def _scores(ex, view):
    return [k for k, _, _ in ex._view_rows(view)]


def test_compare_with_the_rules_before_the_hand_changes_matches_the_brute_force():
    ex = _am()
    ex.controls["hit_faces"].value = TENS  # by hand: 10s hit too (AM-1)
    ex.workbench.compare.value = BEFORE  # the draft's J-A
    ex.flush()
    _check_against_brute_force(ex, tens_in_force=True)
    ex.view.value = "exactly"
    # 3 v 2: one damage to the defender, 9805/15552 with tens against 122/243 (brute force):
    # +1997/15552, 12.84 points
    first = ex.table.set_index("outcome").loc["1 damage to defender"]
    assert first["difference"] == Fraction(1997, 15552) and first["difference_shown"] == "+12.8 points"
    html = ex.table_view.value
    assert "before the hand changes (default rules)" in html and "default rules (changed here by hand)" in html
    assert "+12.8 points" in html


def test_compare_with_a_shipped_file_and_back_to_nothing():
    ex = _am()  # the draft in force
    ex.workbench.compare_with("tens_hit")
    ex.flush()
    assert ex.workbench.compare.label == "Tens hit"
    _check_against_brute_force(ex, tens_in_force=False)
    figure = ex.shown_figure
    assert len(figure.data) == 4 and figure.data[3].name == "Tens hit" and figure.layout.showlegend
    tens = _score_distribution(3, 2, TENS)
    ex.view.value = "exactly"
    bars = dict(zip(ex.shown_figure.data[3].x, ex.shown_figure.data[3].y, strict=True))
    assert bars[1] == pytest.approx(float(tens[1]) * 100)
    ex.workbench.compare.value = NOTHING
    ex.flush()
    assert len(ex.shown_figure.data) == 3 and "difference" not in ex.table and ex.differences == []


def test_compare_with_a_file_just_saved(tmp_path):
    ex = _am()
    ex.controls["hit_faces"].value = TENS
    ex.workbench.compare.value = BEFORE
    path = _save(ex, tmp_path, title="My tens")
    # the saved file is now picked; the comparison stays with the rules the changes were made to
    assert ex.rules_picker.dropdown.label == "My tens" and ex.workbench.compare.label == "default rules"
    _check_against_brute_force(ex, tens_in_force=True)
    ex.rules_picker.dropdown.value = DEFAULT
    ex.workbench.compare.value = str(path)
    ex.flush()
    _check_against_brute_force(ex, tens_in_force=False)


def test_compare_in_the_fairy_meat_and_durak_explorers():
    # Durak stand-in: "battle" morale penalty gives a win by retreat in round 1 5/8, else 3/4
    ex = _durak()
    ex.controls["morale_penalty"].value = "battle"
    ex.workbench.compare.value = BEFORE
    ex.flush()
    row = ex.table.set_index("outcome").loc["North wins in round 1"]
    assert row["difference"] == Fraction(5, 8) - Fraction(3, 4)
    # Fairy Meat: the same calculator for both sides, nasty hit to the loser (FM-12)
    fm = _fm()
    fm.workbench.compare.value = DEFAULT
    fm.controls["nasty_hit"].value = "loser"
    fm.flush()
    assert fm.differences and all(d.exact for d in fm.differences)
    assert isinstance(fm.scores, Distribution) and "compared" in fm.table


def test_where_a_file_is_saved(tmp_path):
    from toolkit.errors import InvalidSetupError
    from toolkit.house_rules import load_rules, write_house_rules

    rules = AMRules(crit_count=3)
    assert (
        write_house_rules(rules, "Hard crits", "", tmp_path / "new" / "folder")
        == tmp_path / "new/folder/hard_crits.yaml"
    )
    assert write_house_rules(rules, "Hard crits", "", tmp_path / "mine.yml") == tmp_path / "mine.yml"
    assert load_rules("angry-miniatures", str(tmp_path / "mine.yml")) == rules
    with pytest.raises(InvalidSetupError, match=r"as a \.yaml file or into a folder"):
        write_house_rules(rules, "Hard crits", "", tmp_path / "mine.txt")
    with pytest.raises(InvalidSetupError, match="a letter or digit"):
        write_house_rules(rules, "!!!", "", tmp_path)
    with pytest.raises(InvalidSetupError, match="too long"):
        write_house_rules(rules, "x" * 201, "", tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["hard_crits.yaml", "mine.yml"]


def test_two_estimates_are_compared_run_by_run_with_an_interval():
    # Fairy Meat, random play at 3 v 2: Monte Carlo under both rule sets with the same
    # seed, so the comparison pairs the runs (toolkit.comparison: the rule-change report's)
    from toolkit.fairy_meat.widgets import odds_explorer

    ex = odds_explorer(attacker_cards=3, defender_cards=2, policies=("random", "random"), trials=300)
    assert not ex.distribution.exact
    ex.workbench.compare.value = DEFAULT
    ex.controls["points_divisor"].value = 1  # FM-10: the whole difference scores
    ex.flush()
    assert ex.differences and all(d.method == "paired" and not d.exact and d.runs == 300 for d in ex.differences)
    for d, shown in zip(ex.differences, ex.table["difference_shown"], strict=True):
        assert d.low <= d.delta <= d.high and ("±" in shown or shown == "identical")
    assert "paired: the same 300 runs under both rules" in ex.table_view.value
    # a draw stays a draw whatever the divisor (FM-10 only turns a difference into points)
    draw = ex.table.set_index("outcome").loc["draw"]
    assert draw["difference"] == 0 and draw["difference_shown"] == "identical"


def test_the_headline_states_both_rule_sets():
    ex = _am()
    ex.workbench.compare_with(TENS_HIT)
    ex.flush()
    line = ex.summary_line.value.split("<br>")[0]
    assert "Angry Miniatures" in line and "3 v 2" in line and "Tens hit" in line and "→ draft rules" in line
    ex.workbench.compare.value = NOTHING
    ex.flush()
    assert "→" not in ex.summary_line.value.split("<br>")[0]


def test_the_hand_makeup_explorer_compares_decks():
    # tens_are_trumps (FM-1): one card is a Trump with 20/52 = 5/13; the draft's deck 16/52 = 4/13
    from toolkit.fairy_meat.widgets import hand_composition_explorer

    ex = hand_composition_explorer(cards=1, rules="tens_are_trumps")
    ex.workbench.compare.value = DEFAULT
    ex.flush()
    table = ex.table.set_index("outcome")
    assert table.loc["no Numbered card", "difference"] == Fraction(5, 13) - Fraction(4, 13)
    assert table.loc["1 Numbered card", "difference"] == Fraction(8, 13) - Fraction(9, 13)
    assert "Tens are Trumps" in ex.table_view.value and "default rules" in ex.table_view.value


def test_controls_that_make_no_rules_are_one_line_not_a_traceback(tmp_path):
    ex = _am()
    ex.workbench.compare.value = DEFAULT
    ex.controls["hit_faces"].value = ()  # no face hits: not rules (AM-1)
    ex.flush()
    assert "hit_faces" in ex.error
    ex.view.value = "at least"  # redrawn beside the default rules: no error raised
    assert _save(ex, tmp_path, title="No hits") is None
    assert "hit_faces" in ex.workbench.message.value and not list(tmp_path.iterdir())
