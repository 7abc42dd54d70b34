"""The smaller faults of the fourth round of hostile input, each with its fix where the
one function for it lives: a mean is written in its units; a probability target is from
0% to 100%; a max_changed that leaves nothing is named; problems are summarised after
ten; the tune CSV holds no formula; titles hold no bidirectional control; a symlink loop
is named; a long path keeps its file name."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.tune import load_tuning
from toolkit.tune.measures import Measured
from toolkit.tune.output import value_text
from toolkit.tune.ranking import Candidate
from toolkit.tune.search import describe_verdict

ROOT = Path(__file__).resolve().parent.parent
STRIKE_COST = ROOT / "data" / "tune" / "durak_strike_cost.yaml"


def test_a_mean_is_written_in_its_units_and_a_probability_in_percent():
    tuning = load_tuning(STRIKE_COST)
    mean, hold = tuning.every_target
    # the file: a mean of lost_a, value 1, tolerance 0.06; a probability of at least 45%
    assert mean.describe_goal() == "1 ± 0.06 tokens" and hold.describe_goal() == "at least 45%"
    # 53/54 of a token (by hand: within 1 ± 0.06), and a probability of 1/2
    measures = (Measured.of_exact(Fraction(53, 54)), Measured.of_exact(Fraction(1, 2)))
    assert value_text(mean, measures[0]) == "53/54 tokens" and value_text(hold, measures[1]) == "1/2 = 50%"
    best = Candidate(None, None, (), measures, (True, True), 0.0, targets=1)
    assert describe_verdict(tuning, best) == (  # the progress line writes them as the table does
        "1 of 1 targets met: tokens side a loses 53/54 tokens; two cards against one come out ahead 1/2 = 50%"
    )
    estimate = Measured(0.98, False, 0.95, 1.01)  # ± 0.03 each side: the one interval writer, its unit, its level
    assert value_text(mean, estimate) == "0.98 ± 0.03 tokens (95%)"


def test_a_probability_of_100_percent_and_a_share_row_read_as_percent():
    base = "system: angry-miniatures\ncalculator: odds_table\nfixed: {attack_dice: 3, defence_dice: 2}\n"
    knobs = "knobs:\n  rules:\n    hit_faces: [[J, Q, K, A], ['10', J, Q, K, A]]\n"
    row = load_tuning(base + "targets:\n  - {row: hit, value: 0.75, tolerance: 0.05}\n" + knobs).targets[0]
    assert row.describe_goal() == "75% ± 5%"  # P(hit) is a probability, written 0.75 or 75%
    damage = load_tuning(base + "targets:\n  - {row: expected_damage, at_least: 1}\n" + knobs).targets[0]
    assert damage.describe_goal() == "at least 1"
    certain = load_tuning(base + "targets:\n  - {row: hit, at_least: 1}\n" + knobs).targets[0]
    assert certain.describe_goal() == "at least 100%"


AM_TUNING = """\
system: angry-miniatures
calculator: attacks_to_take_out
fixed: {attack_dice: 4, health: 5}
targets:
  - name: out within three attacks
    at: {defence_dice: 2}
    probability: {outcome: {at_most: 3}}
GOAL
knobs:
  rules:
    tie_damage: [0, 1, 2]
"""


def _tuning_error(goal: str) -> str:
    with pytest.raises(InvalidSetupError) as raised:
        load_tuning(AM_TUNING.replace("GOAL\n", goal))
    return str(raised.value)


@pytest.mark.parametrize(
    "goal, line, key, got",
    [
        ("    at_least: 120%\n", 8, "at_least", "'120%'"),
        ("    at_most: -5%\n", 8, "at_most", "'-5%'"),
        ("    value: 1.5\n    tolerance: 0.1\n", 8, "value", "1.5"),
    ],
)
def test_a_probability_target_outside_0_to_100_percent_is_refused(goal, line, key, got):
    message = _tuning_error(goal)
    assert f":{line}: {key} must be a probability from 0% to 100%, got {got}" in message
    assert len(message.splitlines()) == 1


def test_a_difference_of_probabilities_goes_from_minus_100_percent_and_a_share_row_is_a_probability():
    difference = "    than: {defence_dice: 3}\n    at_least: "
    assert load_tuning(AM_TUNING.replace("GOAL\n", difference + "-50%\n")).targets[0].describe_goal() == "at least -50%"
    assert "at_least must be a probability from -100% to 100% (a difference of two), got '-150%'" in _tuning_error(
        difference + "-150%\n"
    )
    base = "system: angry-miniatures\ncalculator: odds_table\nfixed: {attack_dice: 3, defence_dice: 2}\n"
    knobs = "knobs:\n  rules:\n    hit_faces: [[J, Q, K, A], ['10', J, Q, K, A]]\n"
    with pytest.raises(InvalidSetupError, match="at_least must be a probability from 0% to 100%, got 2"):
        load_tuning(base + "targets:\n  - {row: hit, at_least: 2}\n" + knobs)
    assert load_tuning(base + "targets:\n  - {row: expected_damage, at_least: 2}\n" + knobs)  # a number: any size


def test_a_max_changed_that_leaves_no_setting_is_named(tmp_path, capsys):
    # neither knob value is the default hit faces (J, Q, K, A; AM-1) and tie_damage 2 is not
    # the default (AM-4): by hand, every setting changes two rules fields
    path = tmp_path / "no_change.yaml"
    path.write_text(
        AM_TUNING.replace("GOAL\n", "    at_least: 60%\n").replace(
            "    tie_damage: [0, 1, 2]\n",
            "    hit_faces: [['10', J, Q, K, A], [Q, K, A]]\n    tie_damage: [2]\nconstraints:\n  max_changed: 1\n",
        )
    )
    assert main(["tune", str(path), "-o", str(tmp_path / "out")]) == 2
    (line,) = capsys.readouterr().err.splitlines()[-1:]
    assert line == (
        f"error: {path}: constraints: max_changed: 1 leaves none of the 2 settings of the knobs to measure "
        "(each changes more than 1 rules field from default rules): raise max_changed, or give a knob the "
        "baseline's value"
    )


def test_three_thousand_problems_are_ten_lines_and_a_count(tmp_path, capsys):
    knobs = "".join(f"    no_such_field_{k}: [1, 2]\n" for k in range(3000))
    path = tmp_path / "many.yaml"
    path.write_text(AM_TUNING.replace("GOAL\n", "    at_least: 60%\n").replace("    tie_damage: [0, 1, 2]\n", knobs))
    assert main(["tune", str(path), "-o", str(tmp_path / "out")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 11 and lines[-1] == "… and 2,990 more problems"
    assert (
        lines[0].startswith(f"error: {path}:11: ") and "no_such_field_0" in lines[0] and "no_such_field_9" in lines[9]
    )


def test_the_tune_csv_holds_no_formula_and_keeps_negative_numbers(client, tmp_path):
    import csv

    from toolkit.tune import tune
    from toolkit.tune.output import spreadsheet_cell

    hostile = '=HYPERLINK("http://example.com","click")'
    text = (
        AM_TUNING.replace("  - name: out within three attacks\n", f"  - name: '{hostile}'\n")
        .replace(
            "GOAL\n",
            "    at_least: 60%\n  - name: '@SUM(A1)'\n    at: {defence_dice: 3}\n"
            "    than: {defence_dice: 2}\n    probability: {outcome: {at_most: 3}}\n    at_most: 0%\n",
        )
        .replace("[0, 1, 2]", "[0, 1]")
    )
    result = tune(text, tmp_path, client=client, stream=None, progress=None, report=False)
    with open(tmp_path / f"{result.tuning.name}.csv", newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert f"'{hostile}" in header and "'@SUM(A1)" in header and hostile not in header
    every = [cell for row in rows for cell in row] + header
    assert not [cell for cell in every if cell[:1] in ("=", "+", "@", "\t", "\r")]
    # a three-die defender lasts longer than a two-die one (AM-2): a negative difference, still a number
    difference = [float(row[header.index("'@SUM(A1) (value)")]) for row in rows]
    assert difference and all(d < 0 for d in difference)
    assert [spreadsheet_cell(c) for c in ("-3", "+cmd|' /C calc'!A0", "\tx", "\r=1", "-", "x=1")] == [
        "-3",
        "'+cmd|' /C calc'!A0",
        "'\tx",
        "'\r=1",
        "'-",
        "x=1",
    ]


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows is shown backwards


@pytest.mark.parametrize("control", [RLO, "\u2066", "\u200f", "\u2028"])  # ESC: YAML refuses it itself
def test_bidirectional_and_other_controls_are_refused_in_titles(control, tmp_path):
    from toolkit.house_rules import load_rules
    from toolkit.replay import replay_file
    from toolkit.sweeps import load_sweep

    title = f"title: 'Strike cost {control}tsoc ekirts'\n"
    shown = repr(control)
    sweep = "system: angry-miniatures\ncalculator: opposed\ngrid: {attack_dice: [1], defence_dice: [1]}\n"
    example = (ROOT / "data" / "examples" / "grunk_charges_pixie.yaml").read_text()
    readers = [
        (lambda: load_tuning(title + AM_TUNING.replace("GOAL\n", "    at_least: 60%\n")), InvalidSetupError),
        (lambda: load_sweep(title + sweep), InvalidSetupError),
    ]
    rules = tmp_path / "house.yaml"
    rules.write_text(title + "tie_damage: 2\n")
    readers.append((lambda: load_rules("angry-miniatures", rules), InvalidSetupError))
    path = tmp_path / "example.yaml"
    path.write_text(
        "\n".join(line if not line.startswith("title:") else title.strip() for line in example.splitlines())
    )
    readers.append((lambda: replay_file(path), ToolkitError))
    for read, error in readers:
        with pytest.raises(error) as raised:
            read()
        assert f"control characters ({shown}) are not accepted" in str(raised.value)
        assert control not in str(raised.value)  # the message shows it escaped


def test_a_title_in_a_right_to_left_script_is_welcome():
    hebrew = "title: 'עלות מכה'\n"  # no control character: a script, not an override
    assert load_tuning(hebrew + AM_TUNING.replace("GOAL\n", "    at_least: 60%\n")).title == "עלות מכה"


def test_a_symlink_loop_as_rules_is_named_as_one(tmp_path, capsys):
    from toolkit.house_rules import load_rules

    loop = tmp_path / "loop.yaml"
    loop.symlink_to(tmp_path / "back.yaml")
    (tmp_path / "back.yaml").symlink_to(loop)
    told = f"house-rules file '{loop}' cannot be read: Too many levels of symbolic links"
    with pytest.raises(InvalidSetupError, match=f"^{re.escape(told)}$"):
        load_rules("fairy-meat", loop)
    assert main(["find-example", "fairy-meat", "fairy_down", "--rules", str(loop)]) == 2
    assert capsys.readouterr().err == f"error: {told}\n"
    dangling = tmp_path / "gone.yaml"
    dangling.symlink_to(tmp_path / "nowhere.yaml")
    with pytest.raises(InvalidSetupError, match=f"^house-rules file '{re.escape(str(dangling))}' does not exist$"):
        load_rules("fairy-meat", dangling)


def test_a_long_path_in_a_one_line_error_keeps_its_file_name(tmp_path, capsys):
    from toolkit.errors import PATH_CHARS, path_excerpt

    deep = tmp_path.joinpath(*(f"folder-{k:02d}-of-a-long-store" for k in range(12)))
    missing = deep / "store-table-path-of-the-sweep.yaml"
    assert len(str(missing)) > 2 * PATH_CHARS
    assert main(["replay", str(missing)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "store-table-path-of-the-sweep.yaml'" in line and f"'{str(missing)[:20]}" in line
    quoted = path_excerpt(missing)
    assert quoted in line and quoted.endswith(f"({len(str(missing)):,} characters)") and len(quoted) < PATH_CHARS + 25
    # by hand: a third of the limit from the start, the rest from the end, the middle left out
    assert path_excerpt("/a/" + "m" * 50 + "/name.yaml", 30) == "'/a/mmmmmmm…mmmmmmmmmm/name.yaml' (63 characters)"
    assert path_excerpt("/short/name.yaml") == "'/short/name.yaml'"
    assert path_excerpt(b"/bytes/" + b"\xff" * 300, 30).endswith("(307 characters)")
