"""The rule-change report (issue 11 item 4): the comparison's numbers against hand
arithmetic, its sentences, the house-rules report parameters, the main job, and the
notebook run from the command line on tiny sizes.

Hand arithmetic (AM-1, AM-3, AM-4, AM-5), one die against one: a face hits with 4/6.
The attack deals damage when it hits and the defender misses (2/3 · 1/3 = 2/9), when both
hit and its face beats hers (4/9 · 6/16 = 1/6), or both hit the same face and it wins the
SuperTieBreaker (4/9 · 4/16 · 1/2 = 1/18): 4/9. With ``zero_tie="super_tiebreak"`` two
misses (1/9) go to a SuperTieBreaker as well: 4/9 + 1/18 = 1/2. In melee the defender's
side is the mirror image (AM-3): the same 4/9 and 1/2.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.angry_miniatures import Rules
from toolkit.angry_miniatures.headline import AM_DAMAGE, AM_RETURN
from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.headline import FM_WINS
from toolkit.house_rules import rules_files
from toolkit.reports.jobs import Job, main_jobs
from toolkit.reports.parameters import notebook_system, read_rules_parameter, validate_parameters, with_variants
from toolkit.reports.rule_change import Change, Compared, RuleChange, compare_rules, sentence, short

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
RULE_CHANGE = NOTEBOOKS / "rule_change_report.ipynb"
HOUSE = Path(__file__).parent / "fixtures" / "house_rules"
ZERO_TIE = HOUSE / "angry-miniatures" / "zero_tie.yaml"
BAD = HOUSE / "bad_field.yaml"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# -- the comparison's numbers -------------------------------------------------------------
def test_one_die_each_against_hand_arithmetic():
    change = compare_rules("angry-miniatures", None, str(ZERO_TIE), {"max_dice": 1})
    damage, back, _crit = change.tables
    assert damage.spec == AM_DAMAGE and back.spec == AM_RETURN
    for table in (damage, back):
        (cell,) = table.changes
        assert (cell.before, cell.after, cell.delta) == (Fraction(4, 9), Fraction(1, 2), Fraction(1, 18))
        assert cell.exact
    assert change.titles == ("default rules", "SuperTieBreaker on no hits")
    assert change.proposed.rules == Rules(zero_tie="super_tiebreak")


def test_two_dice_each_the_change_is_two_misses_then_a_coin():
    # 2 v 2: both sides roll no hits with (1/3)^2 · (1/3)^2 = 1/81; a SuperTieBreaker gives
    # the attacker half of that: the change is exactly 1/162, everywhere a miss-miss can happen.
    change = compare_rules("angry-miniatures", None, {"zero_tie": "super_tiebreak"}, {"max_dice": 2})
    damage = {(c.row, c.column): c.delta for c in change.tables[0].changes}
    assert damage[(2, 2)] == Fraction(1, 162)
    assert damage[(1, 2)] == Fraction(1, 3) * Fraction(1, 9) / 2 and damage[(2, 1)] == damage[(1, 2)]
    assert change.baseline.title == "default rules" and change.proposed.title == "inline house rules"


def test_ranged_has_no_return_table_and_the_same_rules_change_nothing():
    change = compare_rules("angry-miniatures", str(ZERO_TIE), str(ZERO_TIE), {"max_dice": 2, "attack_type": "ranged"})
    assert [t.spec.key for t in change.tables] == ["damage", "crit"]
    assert change.largest() == [] and change.unchanged() == ["P(the attack deals damage)", "P(a crit on either roll)"]
    assert change.titles == ("SuperTieBreaker on no hits", "SuperTieBreaker on no hits (proposed)")
    assert change.sentences() == [
        "SuperTieBreaker on no hits (proposed) changes none of these odds: P(the attack deals damage), "
        "P(a crit on either roll) are exactly as with SuperTieBreaker on no hits."
    ]


def test_fairy_meat_damage_by_the_table_changes_damage_not_winners():
    # FM-10: the points rule turns the winner's points into damage; who wins is decided
    # before it (FM-9), so both winners' tables are unchanged, exactly. The table deals at
    # most 1 damage below 5 points where halving deals 2 for 3 or 4, so 2+ damage is rarer.
    change = compare_rules(
        "fairy-meat",
        None,
        str(HOUSE / "fairy-meat" / "damage_table.yaml"),
        {"attacker_cards": [2], "defender_cards": [1]},
    )
    wins, damage, defender, _ = change.tables
    assert [t.spec.key for t in change.tables] == ["attacker_wins", "damage", "defender_wins", "nasty_hit"]
    assert wins.changes[0].delta == 0 and defender.changes[0].delta == 0 and wins.changes[0].exact
    assert damage.changes[0].after < damage.changes[0].before
    assert change.unchanged() == ["P(the attacker wins)", "P(the defender wins)"]  # a Nasty Hit needs damage (FM-12)
    assert change.sentences(1)[0].startswith(
        "With Damage by the table, an attacker with a 2-card hand against 1 card deals 2 damage or more: "
    )


def test_durak_tables_are_the_calculators_numbers():
    from toolkit.durak_battle import Army, Leader, battle_outcome, clash_losses
    from toolkit.durak_battle import Rules as DurakRules

    sizes = {"clash_sizes": [1], "tokens_a": [1], "tokens_b": [2], "max_rounds": 2, "trials": 20}
    change = compare_rules("durak-battle", None, str(HOUSE / "durak-battle" / "counter_tie.yaml"), sizes)
    clash, battle, *_ = change.tables
    (cell,) = clash.changes
    for rules, value in ((DurakRules(), cell.before), (DurakRules(counter_tie="loses"), cell.after)):
        assert value == clash_losses(1, 1, ("greedy", "greedy"), rules).probability(lambda lost: lost[0] < lost[1])
    (cell,) = battle.changes
    leader = {"battle_die": "d8", "spirit_die": "d6", "wild_card": True}
    a, b = Army("a", 1, Leader("Leader A", **leader)), Army("b", 2, Leader("Leader B", **leader))
    end = battle_outcome(a, b, DurakRules(counter_tie="loses"), ("greedy", "greedy"), max_rounds=2, trials=20)
    assert cell.after == end.probability(lambda e: e.winner == "a") and cell.exact == end.exact


def _made_up() -> RuleChange:
    def cell(spec, r, c, before, after, exact=True):
        return Change(spec, r, c, Fraction(before), Fraction(after), exact)

    wins = Compared(FM_WINS, (cell(FM_WINS, 2, 0, "1/2", "3/5"), cell(FM_WINS, 2, 1, "1/4", "1/8", False)))
    damage = Compared(AM_DAMAGE, (cell(AM_DAMAGE, 1, 1, "1/3", "1/3"), cell(AM_DAMAGE, 3, 2, "1/5", "1/10")))
    return RuleChange("made-up", read_rules_parameter("angry-miniatures", None), None, (wins, damage), {})


def test_largest_changes_first_exactly_ties_in_table_order():
    made = _made_up()
    assert [(c.spec.key, c.row, c.column, c.delta) for c in made.largest()] == [
        ("attacker_wins", 2, 1, Fraction(-1, 8)),
        ("attacker_wins", 2, 0, Fraction(1, 10)),
        ("damage", 3, 2, Fraction(-1, 10)),  # as large as the one above: table order
    ]
    assert len(made.largest(1)) == 1
    frame = _made_up().tables[0].frame()
    assert frame["change"].tolist() == [Fraction(1, 10), Fraction(-1, 8)]
    assert made.tables[1].grid("proposed").loc[3, 2] == Fraction(1, 10)


# -- the sentences ------------------------------------------------------------------------
def test_sentence_names_the_file_the_situation_and_the_points():
    c = Change(AM_DAMAGE, 3, 2, Fraction(52, 100), Fraction(66, 100))
    assert sentence(c, "Tens hit") == (
        "With Tens hit, a 3-die attack against 2 dice deals damage: 13/25 = 52% → 33/50 = 66% (+14 points)."
    )
    one = Change(AM_DAMAGE, 1, 1, Fraction(4, 9), Fraction(1, 2))
    assert sentence(one, "SuperTieBreaker on no hits") == (
        "With SuperTieBreaker on no hits, a 1-die attack against 1 die deals damage: "
        "4/9 ≈ 44.4% → 1/2 = 50% (+5.6 points)."
    )


def test_sentence_less_often_against_another_baseline_and_estimates():
    c = Change(FM_WINS, 4, 1, Fraction(1, 2), Fraction(1, 4), exact=False)
    assert sentence(c, "Big hands", "Small hands") == (
        "With Big hands instead of Small hands, an attacker with a 4-card hand against 1 card wins: "
        "50% → 25% (−25 points, Monte Carlo estimates)."
    )
    # with the estimates' 95% intervals: each value with its ±, the change with its interval
    c = Change(FM_WINS, 4, 1, Fraction(1, 2), Fraction(1, 4), False, (0.45, 0.55), (0.21, 0.29))
    assert sentence(c, "Big hands") == (
        "With Big hands, an attacker with a 4-card hand against 1 card wins: 50% ± 5% (95%) → 25% ± 4% (95%), "
        "a change of −25.0 ± 6.4 points (95%), Monte Carlo estimates."
    )
    # a change inside its interval is said to be no measurable change, and nothing more
    noise = Change(FM_WINS, 4, 1, Fraction(1, 2), Fraction(12, 25), False, (0.45, 0.55), (0.43, 0.53))
    assert sentence(noise, "Big hands") == (
        "With Big hands, an attacker with a 4-card hand against 1 card wins: "
        "no measurable change (within ±7.1 points), Monte Carlo estimates."
    )
    same = Change(FM_WINS, 4, 1, Fraction(1, 2), Fraction(1, 2))
    assert (
        sentence(same, "X")
        == "With X, an attacker with a 4-card hand against 1 card wins exactly as often (1/2 = 50%)."
    )


def test_short_values():
    assert short(Fraction(1, 3)) == "1/3 ≈ 33.3%"
    assert short(Fraction(123456, 1000003)) == "12.3%"  # a long fraction: the percent only


def test_figures_are_diverging_and_before_after():
    change = compare_rules("angry-miniatures", None, str(ZERO_TIE), {"max_dice": 2})
    heat = change.tables[0].heatmap("default rules", "SuperTieBreaker")
    assert heat.data[0].zmid == 0 and heat.data[0].zmin == -heat.data[0].zmax
    assert heat.data[0].z[1][1] == pytest.approx(100 / 162)
    curves = change.tables[0].curves("default rules", "SuperTieBreaker")
    assert len(curves.data) == 4 and {t.line.dash for t in curves.data} == {"dash", "solid"}


def test_figures_show_a_monte_carlo_cell_as_a_percent_never_a_fraction():
    wins = _made_up().tables[0]  # column 0 exact 1/2 -> 3/5, column 1 estimated 1/4 -> 1/8
    hover = wins.heatmap().data[0].customdata
    assert hover[0] == ["1/2 = 50% → 3/5 = 60%: +10 points", "25% → 12.5%: −12.5 points (Monte Carlo)"]
    curves = wins.curves()
    assert [list(t.hovertext) for t in curves.data] == [["1/2 = 50%", "25%"], ["3/5 = 60%", "12.5%"]]


def test_compare_rules_errors(monkeypatch):
    with pytest.raises(InvalidSetupError, match="unknown system 'chess'"):
        compare_rules("chess", None, {})
    with pytest.raises(InvalidSetupError, match=r"bad_field.yaml:3: 'zero_ties' is not a field"):
        compare_rules("angry-miniatures", None, str(BAD))
    # no proposed rules: the system's showcase file (one that changes its headline odds), and
    # without any shipped file a clear error
    showcase = next(f for f in rules_files("angry-miniatures") if f.stem == "tens_hit")
    assert compare_rules("angry-miniatures", sizes={"max_dice": 1}).proposed.path == showcase.resolve()
    monkeypatch.setattr("toolkit.house_rules.rules_files", lambda system: [])
    with pytest.raises(InvalidSetupError, match="give the proposed rules"):
        compare_rules("angry-miniatures")


def test_the_sizes_are_one_mapping_checked_by_the_systems_hook():
    """The report takes one ``sizes`` mapping: a size the system's tables do not read is
    refused with the sizes they read, in-process and before a notebook runs."""
    with pytest.raises(InvalidSetupError, match="unknown size 'tokens_a' for angry-miniatures: its sizes are max_dice"):
        compare_rules("angry-miniatures", None, str(ZERO_TIE), {"max_dice": 1, "tokens_a": [2]})
    with pytest.raises(InvalidSetupError, match="sizes must be a mapping of fairy-meat's sizes"):
        compare_rules("fairy-meat", None, None, [2, 3])
    with pytest.raises(
        InvalidSetupError, match=r"parameter 'sizes' of rule_change_report\.ipynb: unknown size 'max_dice'"
    ):
        validate_parameters(RULE_CHANGE, {"system": "durak-battle", "sizes": {"max_dice": 2}})
    checked = validate_parameters(RULE_CHANGE, {"system": "durak-battle", "sizes": {"tokens_b": [4]}})
    assert checked["sizes"] == {"tokens_b": [4]}
    # a size left out keeps its default (AM: 1..8 dice, melee)
    assert compare_rules("angry-miniatures", None, str(ZERO_TIE), {"max_dice": 1}).sizes == {
        "max_dice": 1,
        "attack_type": "melee",
    }


# -- house-rules parameters ---------------------------------------------------------------
def test_the_system_of_a_report():
    specs = {}
    assert notebook_system(NOTEBOOKS / "fairy_meat_strategy.ipynb", specs, {}) == "fairy-meat"
    assert notebook_system(NOTEBOOKS / "durak_battle_report.ipynb", specs, {}) == "durak-battle"
    assert notebook_system(NOTEBOOKS / "sample_report.ipynb", specs, {}) is None


@pytest.mark.parametrize(
    ("notebook", "params", "words"),
    [
        (
            "rule_change_report.ipynb",
            {"proposed": str(BAD)},
            ["parameter 'proposed'", "bad_field.yaml:3:", "zero_ties"],
        ),
        (
            "rule_change_report.ipynb",
            {"system": "fairy-meat", "proposed": str(ZERO_TIE)},
            ["zero_tie.yaml:3: this file is for 'angry-miniatures', not fairy-meat"],
        ),
        (
            "rule_change_report.ipynb",
            {"system": "chess", "proposed": "x"},
            ["parameter 'system'", "unknown system 'chess'"],
        ),
        ("rule_change_report.ipynb", {"baseline": "nope"}, ["parameter 'baseline'", "no house-rules file 'nope'"]),
        (
            "angry_miniatures_report.ipynb",
            {"rules": {"zero_ties": "super_tiebreak"}},
            ["parameter 'rules' of angry_miniatures_report.ipynb: inline rules:", "'zero_ties' is not a field"],
        ),
        ("durak_battle_report.ipynb", {"rules": 3}, ["parameter 'rules'", "rules must be a house-rules file"]),
    ],
)
def test_house_rules_parameters_are_read_before_the_run(notebook, params, words):
    with pytest.raises(InvalidSetupError) as caught:
        validate_parameters(NOTEBOOKS / notebook, params)
    for word in words:
        assert word in str(caught.value)


def test_a_rules_file_given_relative_to_here_reaches_the_notebook_by_its_full_path(monkeypatch):
    monkeypatch.chdir(HOUSE)
    checked = validate_parameters(
        NOTEBOOKS / "angry_miniatures_report.ipynb", {"rules": "angry-miniatures/zero_tie.yaml"}
    )
    assert checked["rules"] == str(ZERO_TIE.resolve())
    inline = {"zero_tie": "super_tiebreak"}
    assert validate_parameters(NOTEBOOKS / "angry_miniatures_report.ipynb", {"rules": inline}) == {"rules": inline}


def test_every_report_notebook_takes_house_rules():
    from toolkit.reports import discover_reports, notebook_parameters

    for name, path in discover_reports(NOTEBOOKS).items():
        rules = [s.name for s in notebook_parameters(path).values() if s.is_rules]
        assert rules == (["baseline", "proposed"] if name == "rule-change" else ["rules"]), name


def test_variant_parameters_change_house_rules_only_where_not_at_their_defaults():
    house = Rules(zero_tie="super_tiebreak")
    assert with_variants(house, zero_tie="miss", melee_defence_bonus=False) == house
    assert with_variants(house, melee_defence_bonus=True) == Rules(zero_tie="super_tiebreak", melee_defence_bonus=True)


# -- the main job -------------------------------------------------------------------------
def test_the_main_job_renders_the_rule_change_report_once_per_system():
    jobs = main_jobs(NOTEBOOKS)
    changes = [j for j in jobs if j.report == "rule-change"]
    assert [(j.parameters["system"], j.parameters["proposed"]) for j in changes] == [
        ("durak-battle", "cheap_strikes"),  # longest first: the start order of a fresh folder
        ("fairy-meat", "unhalved_damage"),
        ("angry-miniatures", "tens_hit"),
    ]
    assert len({j.output_name for j in jobs}) == len(jobs)
    pages = [j for j in jobs if j.report == "rulebook-examples"]  # one page of examples per system
    assert sorted(j.parameters["system"] for j in pages) == ["angry-miniatures", "durak-battle", "fairy-meat"]
    others = [j for j in jobs if j.report not in ("rule-change", "rulebook-examples")]
    assert others and all(j.parameters == {} for j in others)
    assert {j.report for j in others} == {"angry-miniatures", "durak-battle", "fairy-meat", "fairy-meat-strategy"}


def test_the_main_job_leaves_out_reports_of_another_folder(tmp_path):
    fixtures = Path(__file__).parent / "fixtures"
    assert main_jobs(fixtures) == [Job("failing"), Job("sample")]
    (tmp_path / "main.yaml").write_text("reports:\n  - report: sample\n    parameters: {n: 2}\n")
    assert main_jobs(fixtures, tmp_path / "main.yaml") == [Job("failing"), Job("sample", {"n": 2})]


@pytest.mark.parametrize("job", [j for j in main_jobs(NOTEBOOKS) if j.report == "rule-change"], ids=str)
def test_the_main_jobs_house_rules_are_valid_once_shipped(job):
    system, name = job.parameters["system"], job.parameters["proposed"]
    assert name in {p.stem for p in rules_files(system)}  # data/rules/<system>/<name>.yaml ships
    validate_parameters(RULE_CHANGE, job.parameters)


# -- the notebook, from the command line --------------------------------------------------
def test_the_report_runs_from_the_command_line(tmp_path, capsys):
    argv = ["report", "rule-change", "-p", "system", "angry-miniatures", "-p", "proposed", str(ZERO_TIE)]
    assert main([*argv, "-p", "sizes", "{max_dice: 2}", "-o", str(tmp_path)]) == 0, capsys.readouterr().err
    html = (tmp_path / "rule-change.html").read_text()
    assert (
        "With SuperTieBreaker on no hits, a 1-die attack against 1 die deals damage: "
        "4/9 ≈ 44.4% → 1/2 = 50% (+5.6 points)." in html
    )
    # 4/9 → 1/2 is +1/18 = +5.555... percentage points: in points, never the fraction 50/9 nor "%"
    assert "<td>+5.6 points</td>" in html and "50/9" not in html
    assert "&lt;b&gt;not bold&lt;/b&gt;" in html and "<b>not bold" not in html  # the notes, escaped
    assert html.count("Plotly.newPlot(") >= 4  # a heatmap and curves per table
    assert "<td>+0.6 points</td>" in html  # the 2 v 2 change, 1/162 = 0.617 points (see test_two_dice_each...)


# -- issue 23: each change said once, positively; mirrored cells listed once ----------------
def test_a_durak_clash_change_reads_positively_without_a_double_negative():
    from toolkit.durak_battle.headline import DB_CLASH

    c = Change(DB_CLASH, 2, 3, Fraction(3, 10), Fraction(1, 4))
    text = sentence(c, "Cheap strikes")
    expected = (
        "With Cheap strikes, North with a 2-card hand against 3 cards comes out of the clash ahead: "
        "3/10 = 30% → 1/4 = 25% (−5 points)."
    )
    assert text == expected
    assert "fewer" not in text and "less often" not in text


def test_mirrored_cells_are_listed_once_and_changes_shown_in_points():
    from toolkit.durak_battle.headline import DB_BATTLE, DB_CLASH

    def cell(spec, r, c, before, after):
        return Change(spec, r, c, Fraction(before), Fraction(after))

    # North 2 v South 3 and North 3 v South 2 are one pair (the sides play alike): one row.
    clash = Compared(
        DB_CLASH,
        (cell(DB_CLASH, 2, 3, "1/2", "1/4"), cell(DB_CLASH, 3, 2, "1/2", "3/4"), cell(DB_CLASH, 2, 2, "1/2", "2/5")),
    )
    battle = Compared(DB_BATTLE, (cell(DB_BATTLE, 4, 2, "1/2", "1/3"),))
    default = read_rules_parameter("durak-battle", None)
    made = RuleChange("durak-battle", default, default, (clash, battle), {})
    # North 4 v South 2 has no mirror (South 4 v North 2) in its table: it is listed (the main
    # job's one column of battles, tokens_b [4], lists 6 v 4 so)
    assert [(c.spec.key, c.row, c.column) for c in made.largest()] == [
        ("clash", 2, 3),
        ("battle", 4, 2),
        ("clash", 2, 2),
    ]
    frame = made.largest_frame()
    assert [str(v) for v in frame["change"]] == ["−25 points", "−16.7 points", "−10 points"]
    assert frame["change"][0].delta == Fraction(-1, 4)  # the exact value stays in the data


# -- issue 24 item 4: estimated changes carry their interval; noise ranks last -----------------
def test_a_change_inside_its_interval_ranks_after_the_measured_ones_and_is_not_narrated():
    from toolkit.durak_battle.headline import DB_BATTLE

    def estimated(r, c, before, after, half):
        return Change(
            DB_BATTLE,
            r,
            c,
            Fraction(before),
            Fraction(after),
            False,
            (float(Fraction(before)) - half, float(Fraction(before)) + half),
            (float(Fraction(after)) - half, float(Fraction(after)) + half),
        )

    # 71.6% → 70.8% at ±6.7 points each (the main job's 200 clashes): not measurable;
    # 50% → 40% at ±2 points: measured (Newcombe: −10 ± 2.8 points); an exact −1 point change
    noise = estimated(6, 4, "179/250", "177/250", 0.067)
    real = estimated(4, 4, "1/2", "2/5", 0.02)
    exact = Change(DB_BATTLE, 2, 4, Fraction(1, 2), Fraction(49, 100))
    default = read_rules_parameter("durak-battle", None)
    made = RuleChange("durak-battle", default, default, (Compared(DB_BATTLE, (noise, real, exact)),), {})
    assert made.largest() == [real, exact, noise] and made.measured() == [real, exact]
    assert noise.difference.text() == "no measurable change (within ±9.5 points)"
    assert real.difference.text() == "−10.0 ± 2.8 points (95%)"
    sentences = made.sentences(5)
    assert len(sentences) == 2 and not any("6 tokens" in s for s in sentences)
    shown = made.largest_shown()
    assert list(shown["change"]) == [
        "−10.0 ± 2.8 points (95%)",
        "−1 point",
        "no measurable change (within ±9.5 points)",
    ]
    assert shown["default rules"].iloc[0] == "50% ± 2% (95%)"  # an estimate with its ±, never 1/2
    # the heatmap leaves the change that is not measurable white, written "–"
    heat = made.tables[0].heatmap()
    z = {
        (int(y), int(x)): v
        for y, row in zip(heat.data[0].y, heat.data[0].z, strict=True)
        for x, v in zip(heat.data[0].x, row, strict=True)
    }
    assert z[(6, 4)] == 0 and z[(4, 4)] == pytest.approx(-10)
    assert "–" in [t for row in heat.data[0].text for t in row]


def test_nothing_measured_says_so():
    from toolkit.durak_battle.headline import DB_BATTLE

    noise = Change(DB_BATTLE, 6, 4, Fraction(179, 250), Fraction(177, 250), False, (0.65, 0.78), (0.64, 0.77))
    default = read_rules_parameter("durak-battle", None)
    made = RuleChange("durak-battle", default, default, (Compared(DB_BATTLE, (noise,)),), {})
    assert made.measured() == [] and made.unmeasured() == ["P(North wins the battle)"]
    (line,) = made.sentences()
    assert "changes none of these odds measurably" in line and "inside its 95% interval" in line


def test_a_paired_change_inside_its_interval_is_written_after_the_measured_ones():
    """Two tables of 20 runs drawn with one seed (aligned, so each change is compared run by
    run) and one exact cell, through :func:`compare`. Agresti and Min's interval for matched
    proportions by hand (95%, z = 1.96; m = 20 + 2 runs, half a run added to the runs lost
    and gained):

    - 2-die cell: 10/20 hit before, 2 runs lost and 3 gained: 11/20, +5 points; centre
      (3.5 - 2.5)/22 = 0.0455, half 1.96·sqrt((6/22 - 0.0455²)/22) = 0.2174, so -0.1719 to
      0.2628: holds 0, not measurable, within max(0.05 + 0.1719, 0.2628 - 0.05) = ±22.2
      points (Newcombe from the cells' own ±21% would say ±29.7);
    - 3-die cell: 4/20 before, 12 runs gained and none lost: 16/20, +60 points; centre
      12/22 = 0.5455, half 1.96·sqrt((13/22 - 0.5455²)/22) = 0.2263, so 0.3191 to 0.7718:
      measured, ± max(0.6 - 0.3191, 0.7718 - 0.6) = 28.1 points;
    - 1-die cell: exact 1/2 -> 49/100, −1 point: smaller than the +5 above, yet listed
      before it, since it is measured."""
    from toolkit.odds_samples import Samples
    from toolkit.reports.rule_change import compare
    from toolkit.reports.rule_change_systems import Cell, Table, TableSpec

    spec = TableSpec(
        "hits", "P(the attack hits)", "attack dice", "defence dice", "a {row}-die attack against {column_dice}", "hits"
    )
    stream = ("made-up", 0, (20,))

    def runs(hits):
        return Samples.of(stream, ["hit" if i in hits else "miss" for i in range(20)])

    def estimate(row, hits, low, high):
        return Cell(row, 2, Fraction(len(hits), 20), False, low, high, runs(hits), "hit")

    before = Table(
        spec,
        (
            Cell(1, 2, Fraction(1, 2)),
            estimate(2, set(range(10)), 0.29, 0.71),
            estimate(3, set(range(4)), 0.05, 0.35),
        ),
    )
    after = Table(
        spec,
        (
            Cell(1, 2, Fraction(49, 100)),
            estimate(2, set(range(2, 13)), 0.34, 0.76),  # runs 0, 1 lost; 10, 11, 12 gained
            estimate(3, set(range(16)), 0.65, 0.95),
        ),
    )
    default = read_rules_parameter("angry-miniatures", None)
    made = RuleChange("made-up", default, default, compare([before], [after]), {})
    exact, noise, real = made.tables[0].changes
    assert made.largest() == [real, exact, noise] and made.measured() == [real, exact]
    assert (noise.difference.method, noise.difference.runs, noise.measurable) == ("paired", 20, False)
    assert sentence(noise, "Tens hit") == (
        "With Tens hit, a 2-die attack against 2 dice hits: no measurable change (within ±22.2 points), "
        "Monte Carlo estimates."
    )
    assert sentence(real, "Tens hit") == (
        "With Tens hit, a 3-die attack against 2 dice hits: 20% ± 15% (95%) → 80% ± 15% (95%), "
        "a change of +60.0 ± 28.1 points (95%), Monte Carlo estimates."
    )
    # the table writes all three, the one that is not measurable last; the story tells only two
    shown = made.largest_shown()
    assert list(shown["change"]) == [
        "+60.0 ± 28.1 points (95%)",
        "−1 point",
        "no measurable change (within ±22.2 points)",
    ]
    assert list(shown["how"]) == [
        "paired: the same 20 runs under both rules",
        "exact",
        "paired: the same 20 runs under both rules",
    ]
    told = made.sentences(5)
    assert len(told) == 2 and told[0].startswith("With default rules (proposed), a 3-die attack against 2 dice hits:")
    assert not any("2-die" in s for s in told)
