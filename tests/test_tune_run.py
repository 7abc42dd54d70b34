"""`toolkit tune` run on Dask: resuming from the store, exhaustive / bisection / Optuna
against hand arithmetic, the size refused before running, progress, the CLI, the notebook
(the shipped examples: tests/test_tune_examples.py).

One local cluster of two worker processes serves the module (the CLI test starts its own)."""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.errors import TooBigError
from toolkit.tune import load_tuning, tune

ROOT = Path(__file__).resolve().parent.parent
TUNE = ROOT / "data" / "tune"
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as c,
    ):
        yield c


# -- resuming, searching, bounding -----------------------------------------------------------------
SMALL = """\
system: angry-miniatures
calculator: opposed
fixed: {defence_dice: 0}
targets:
  - name: a lone attack misses
    probability: {defender_damage: 0}
    value: 0.5%
    tolerance: 0.5%
knobs:
  attack_dice: {from: 1, to: 12}
"""


def test_a_rerun_reuses_every_point(client, tmp_path):
    first = tune(SMALL, tmp_path, client=client, stream=None, progress=None)
    assert first.computed == 12 and first.reused == 0
    again = tune(SMALL, tmp_path, client=client, stream=None, progress=None)
    assert again.computed == 0 and again.reused == 12
    assert again.best.setting == first.best.setting


def test_the_candidates_table_reads_as_a_designers(client, tmp_path):
    # P(no damage) = (1/3)^n with no defence dice (AM-1): 1/243 at n = 5 is within 0.5% ± 0.5%,
    # 1/81 ≈ 1.2% at n = 4 is not; ranked from 1 (the index), verdicts ✓/✗, no float or bool
    table = tune(SMALL, tmp_path, client=client, stream=None, progress=None).table(12)
    assert list(table.index) == list(range(1, 13)) and table.index.name == "rank"
    column = "a lone attack misses (0.5% ± 0.5%)"
    assert table.loc[1, "attack_dice"] == "5" and table.loc[1, column] == "1/243 ≈ 0.4% ✓"
    assert table.loc[1, "targets met"] == "1 of 1" and table.loc[1, "constraints"] == "✓ kept"
    row = table.index[table["attack_dice"] == "4"][0]
    assert table.loc[row, column] == "1/81 ≈ 1.2% ✗"
    assert all(isinstance(v, str) for v in table.to_numpy().ravel())


def test_exhaustive_bisection_and_optuna_agree_with_hand_arithmetic(client, tmp_path):
    # With no defence dice an attack misses only when every die is a blank (AM-1: 9 and 10
    # of 6 faces): P(no damage) = (1/3)^n. It is first at most 1% at n = 5 (1/243 = 0.41%),
    # which is also the closest to 0.5% (n = 6: 1/729 = 0.14%).
    for search, extra in (("exhaustive", ""), ("bisection", ""), ("optuna", "trials: 16\nseed: 3\n")):
        result = tune(SMALL + f"search: {search}\n" + extra, tmp_path / search, client=client, stream=None)
        assert result.found, search
        assert result.best.setting.values == (("attack_dice", 5),), search
        assert result.best.measures[0].value == Fraction(1, 3**5)
        if search == "bisection":
            assert result.measured < 12  # it did not measure every setting


def test_toolkit_tune_is_callable(client, tmp_path):
    import toolkit.tune

    result = toolkit.tune(SMALL, tmp_path, client=client, stream=None)
    assert result.best.setting.values == (("attack_dice", 5),)


def test_optuna_rerun_reads_its_trials_back(client, tmp_path):
    text = SMALL + "search: optuna\ntrials: 8\nseed: 1\n"
    first = tune(text, tmp_path, client=client, stream=None)
    again = tune(text, tmp_path, client=client, stream=None)
    assert first.computed > 0 and again.computed == 0 and again.reused == first.computed
    assert again.best.setting == first.best.setting


def test_too_big_is_refused_before_anything_runs(tmp_path):
    text = SMALL.replace(
        "attack_dice: {from: 1, to: 12}", "attack_dice: {from: 0, to: 200}\n  rules: {tie_damage: {from: 0, to: 100}}"
    )
    with pytest.raises(TooBigError, match=r"201 attack_dice x 101 rules.tie_damage"):
        tune(text + "search: exhaustive\n", tmp_path / "out", stream=None)
    assert not (tmp_path / "out").exists()


def test_progress_lines_say_the_space_and_the_best(client, tmp_path):
    import io

    stream = io.StringIO()
    tune(SMALL, tmp_path, client=client, stream=stream, progress=None)
    lines = stream.getvalue().splitlines()
    assert lines[0].endswith("the knobs make 12 settings (12 attack_dice); search: exhaustive")
    assert lines[-1].startswith("tune: 12/12 settings tried, best so far: attack dice: 5 (1 of 1 targets met")


def test_cli_tune(tmp_path, capsys):
    """The shipped Angry Miniatures example on the command line, without its rule-change
    section (``rule_change: false``): nothing here reads that section, and a report that
    fails does not fail the run (it is told in the page); the section is checked in
    tests/test_tune_examples.py and by the notebook below."""
    from toolkit.cli import main

    shipped = (TUNE / "angry_miniatures_hit_faces.yaml").read_text(encoding="utf-8")
    assert "\nrule_change: {max_dice: 4}\n" in shipped
    example = tmp_path / "angry_miniatures_hit_faces.yaml"
    example.write_text(shipped.replace("\nrule_change: {max_dice: 4}\n", "\nrule_change: false\n"), encoding="utf-8")
    assert main(["tune", str(example), "-o", str(tmp_path / "out"), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "done: 6 settings measured (exhaustive" in out and "every target met" in out
    assert main(["tune", str(tmp_path / "missing.yaml"), "-o", str(tmp_path)]) == 2
    assert "is not a file" in capsys.readouterr().err


def test_tuning_examples_name_their_question():
    for path in sorted(TUNE.glob("*.yaml")):
        tuning = load_tuning(path)
        assert tuning.title.endswith("?") and tuning.notes


def test_the_tune_notebook_runs(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks" / "tune.ipynb", as_version=4)
    parameters = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    parameters.source = (
        f'tuning_file = "{TUNE / "angry_miniatures_hit_faces.yaml"}"\noutput = "{tmp_path}"\nworkers = 1'
    )
    NotebookClient(
        nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
    ).execute()
    text = "\n".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
        for c in nb.cells
        for o in c.get("outputs", [])
    )
    assert "every target met" in text and "hit_faces: [J, Q, K, A] -> [10, J, Q, K, A]" in text
    plots = [o for c in nb.cells for o in c.get("outputs", []) if "application/vnd.plotly.v1+json" in o.get("data", {})]
    assert len(plots) == 6  # each of the three targets against each of the two knobs


def test_search_figures_one_per_target_and_knob(client, tmp_path):
    from toolkit.tune.plots import search_figures, search_frame

    result = tune(SMALL, tmp_path, client=client, stream=None)
    frame = search_frame(result.tuning, result.candidates)
    assert len(frame) == 12 and list(frame["attack_dice"][:1]) == [5]
    (figure,) = search_figures(result.tuning, result.candidates)
    assert figure.layout.title.text == "a lone attack misses (0.5% ± 0.5%) against attack_dice"


ESTIMATED = """\
system: fairy-meat
calculator: deal_averaged_odds
fixed: {method: monte_carlo, trials: 400, seed: 1, attacker_cards: 2, defender_cards: 1}
targets:
  - name: some winner
    probability: {winner: [attacker, defender, draw]}
    at_least: 0
  - name: the attacker wins half
    probability: {winner: attacker}
    value: 50%
    tolerance: 20%
  - name: the attacker wins 49%
    probability: {winner: attacker}
    value: 49%
    tolerance: 0.1%
knobs:
  rules: {points_divisor: [2]}
"""


def test_an_estimate_counts_only_with_its_whole_interval(client, tmp_path):
    from toolkit.tune.output import value_text

    result = tune(ESTIMATED, tmp_path, client=client, stream=None)
    best = result.best
    some, half, narrow = best.measures
    assert narrow.value == half.value  # the same estimate, judged against a narrower band
    assert not some.exact and some.low is not None and some.low <= some.high <= 1
    # 400 deals: the interval is about ±7 points wide; it lies within 30%..70% but not within 48.9%..49.1%
    assert half.low < half.value < half.high and half.high - half.low < 0.2
    assert best.met == (True, True, False)
    assert re.fullmatch(r"\d+\.?\d*% ± \d+\.?\d*% \(95%\)", value_text(result.tuning.targets[1], half))


# -- out of reach: the closest first, said in one line, the search plotted ------------------------
OUT_OF_REACH = """\
system: angry-miniatures
calculator: opposed
fixed: {attack_dice: 1, defence_dice: 0}
targets:
  - name: a lone die misses
    probability: {defender_damage: 0}
    value: 90%
    tolerance: 1%
knobs:
  rules:
    hit_faces: [[J, Q, K, A], [Q, K, A], [K, A], [A]]
    tie_damage: [1, 0, 2]
"""


def test_out_of_reach_ranks_the_closest_first_and_says_so(client, tmp_path):
    # One die against no defence misses when it shows a face that is not a hit (AM-1: six
    # faces 9 10 J Q K A): P(no damage) = (6 - hits) / 6 = 1/3, 1/2, 2/3, 5/6 for four, three,
    # two and one hit faces, whatever the tie damage. None is within 90% ± 1%; the closest is
    # A alone (5/6), the unchanged J Q K A (1/3) the furthest: never the best for changing least.
    result = tune(OUT_OF_REACH, tmp_path, client=client, stream=None, report=False)
    assert not result.found
    best = result.best
    assert dict(best.setting.values)["rules.hit_faces"] == ("A",)
    assert best.measures[0].value == Fraction(5, 6)
    assert dict(best.setting.values)["rules.tie_damage"] == 1  # the unchanged tie damage: equal distance, fewer changes
    order = [c.measures[0].value for c in result.candidates]
    assert order == sorted(order, key=lambda v: abs(v - Fraction(9, 10)))
    assert result.candidates[-1].measures[0].value == Fraction(1, 3)
    summary = result.summary()
    assert "no setting reaches the targets; closest: Hit faces: A; Damage for winning a tie: 1" in summary
    assert "(a lone die misses 5/6 ≈ 83.3%, aimed at 90% ± 1%)" in summary
    page = (tmp_path / f"{result.tuning.name}.html").read_text(encoding="utf-8")
    assert "no setting reaches the targets; closest: Hit faces: A;" in page
    assert page.count("plotly-graph-div") >= 2  # a lone die misses against each of the two knobs


def test_search_axes_run_in_order(client, tmp_path):
    from toolkit.tune.plots import search_figures

    result = tune(OUT_OF_REACH, tmp_path, client=client, stream=None, report=False)
    faces, tie = search_figures(result.tuning, result.candidates)
    assert list(faces.layout.xaxis.categoryarray) == ["J Q K A", "Q K A", "K A", "A"]
    assert tie.layout.xaxis.type == "linear"  # 0, 1, 2 along a number axis, not 1, 0, 2 as written or ranked
    band = faces.layout.shapes[0]
    assert (band.y0, band.y1) == (0.89, 0.91)
    assert [t.name for t in faces.data] == ["not met", "closest"]


def test_out_of_reach_with_two_targets_ranks_by_targets_met_then_distance(client, tmp_path):
    # The second target (a miss at most 50%) holds for J Q K A (1/3) and Q K A (1/2) only; of
    # those, Q K A is nearer the first target's 90% (40 tolerances away, against 56.7).
    text = OUT_OF_REACH.replace(
        "knobs:",
        "  - name: a miss at most half the time\n    probability: {defender_damage: 0}\n    at_most: 50%\nknobs:",
    )
    result = tune(text, tmp_path, client=client, stream=None, report=False)
    assert not result.found and result.best.met == (False, True)
    assert dict(result.best.setting.values)["rules.hit_faces"] == ("Q", "K", "A")
    assert (
        "no setting reaches the targets; closest: Hit faces: Q, K, A; Damage for winning a tie: 1 (1 of 2 targets met: "
        in (result.summary())
    )


def test_search_plot_shows_the_band_and_the_points_together(client, tmp_path):
    from toolkit.tune.plots import search_figures

    result = tune(OUT_OF_REACH, tmp_path, client=client, stream=None, report=False)
    faces, _ = search_figures(result.tuning, result.candidates)
    low, high = faces.layout.yaxis.range
    assert low < 1 / 3 and high > 0.91  # every value (1/3 to 5/6) and the band 89%..91%


def test_the_page_states_what_was_tuned_and_the_line_follows_the_file(client, tmp_path):
    import html

    from toolkit.tune.output import tune_question

    result = tune(SMALL, tmp_path / "a", client=client, stream=None, report=False)
    line = tune_question(result.tuning, result.candidates)
    assert line == "Angry Miniatures · defence dice 0 · opposed · tuning attack dice 1–12 · from draft rules · exact"
    page = (tmp_path / "a" / f"{result.tuning.name}.html").read_text(encoding="utf-8")
    assert f"<p class='question'><strong>{html.escape(line)}</strong></p>" in page
    other = SMALL.replace("{defence_dice: 0}", "{defence_dice: 1}").replace("{from: 1, to: 12}", "[2, 3, 5]")
    again = tune(other, tmp_path / "b", client=client, stream=None, report=False)
    assert tune_question(again.tuning, again.candidates) == (
        "Angry Miniatures · defence dice 1 · opposed · tuning attack dice 2, 3, 5 · from draft rules · exact"
    )
