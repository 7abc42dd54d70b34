"""Reports that do not narrate noise: every estimate shown with its interval, no change
inside its interval told as a finding, and the rule-change report's defaults showing a
measured change on Run All.

Small parameterised reports are rendered with papermill (as tests/test_notebooks.py does),
at sizes where Monte Carlo is used, and their designer text is checked by
:func:`bare_estimates` and :func:`narrated_noise` (each shown to fail on a made-up page).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from honest_text import bare_estimates, blocks, narrated_noise

from toolkit.reports import run_report

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_checks_find_what_they_look_for():
    """Each check fails on a page that breaks it, and passes its honest form."""
    bad = (
        "<table><tr><td>North loses</td><td>2.14</td><td>estimated from 1,000 simulated clashes</td></tr>"
        "<tr><td>71.6%</td><td>70.8%</td><td>estimated (95% intervals)</td></tr></table>"
        "<p>Counting the whole battle's losses: no measurable change, so armies break sooner.</p>"
        "<p>Verdict: borne out. The cautious attacker keeps +0.001 (too small to matter).</p>"
        "<p>Simulated: 50% ± 2% → 49% ± 2%, a change of −1.0 ± 2.8 points (95%).</p>"
        "<p>The variant changes the mean length from 1.11 to 1.10 rounds: losses carry over, so armies break "
        "sooner.</p>"
    )
    assert len(bare_estimates(bad)) == 3, bare_estimates(bad)
    assert len(narrated_noise(bad)) == 4, narrated_noise(bad)
    good = (
        "<table><tr><td>2.14 ± 0.05</td><td>estimated from 1,000 simulated clashes</td></tr>"
        "<tr><td>71.6% ± 3.1%</td><td>0.0% (0.0% to 1.9%)</td><td>20/27 ≈ 74.1%</td>"
        "<td>no measurable change (within ±9.2 points)</td><td>estimated (95% intervals)</td></tr></table>"
        "<p>Simulated: 50% ± 1% → 45% ± 1%, a change of −5.0 ± 1.4 points (95%).</p>"
        "<p>Verdict: borne out. The cautious attacker keeps +0.200 more.</p>"
        "<p>The mean length goes from 1.11 ± 0.02 to 1.10 ± 0.02 rounds: no measurable change (within ±0.03).</p>"
    )
    assert bare_estimates(good) == [] and narrated_noise(good) == []


def _render(tmp_path: Path, report: str, parameters: dict) -> str:
    path = run_report(report, parameters, tmp_path, notebooks_dir=NOTEBOOKS, progress=lambda *_: None)
    return path.read_text()


# -- issue 23 item 1: the rule-change notebook's defaults show a measured change ----------------
def test_rule_change_defaults_show_a_measured_change(tmp_path):
    from toolkit.reports.rule_change import compare_rules

    change = compare_rules("angry-miniatures")  # the notebook's defaults: melee, 1..8 dice, the showcase file
    assert change.proposed.title == "Tens hit" and change.measured(1)
    markup = _render(tmp_path, "rule-change", {})  # Run All with every default
    text = " ".join(blocks(markup))
    # AM-1 by hand: 1 die against 1 hits 4/6 → 5/6; damage needs a hit the defender does not
    # beat; the largest change is listed and said in words
    assert "With Tens hit, " in text and " points)." in text
    assert "changes none of these odds" not in text
    assert bare_estimates(markup) == [] and narrated_noise(markup) == []


def test_rule_change_estimates_carry_intervals_and_noise_is_not_narrated(tmp_path):
    from toolkit.reports.rule_change import compare_rules

    parameters = {
        "system": "durak-battle",
        "proposed": "cheap_strikes",
        "sizes": {"clash_sizes": [1, 2], "tokens_a": [2], "tokens_b": [2], "max_rounds": 2, "trials": 60},
    }
    markup = _render(tmp_path, "rule-change", parameters)
    assert bare_estimates(markup) == [] and narrated_noise(markup) == []
    # the same comparison in-process (the same seed: the same numbers): a change that is
    # not measurable is never narrated as a finding, and reads so in the table
    change = compare_rules("durak-battle", None, "cheap_strikes", parameters["sizes"])
    noise = [c for c in change.largest(20) if not c.measurable]
    assert noise, "60 simulated clashes should leave some change inside its interval"
    narrated = [b for b in blocks(markup) if b.startswith("With Cheap strikes,")]
    for c in noise:
        assert not [s for s in narrated if c.situation in s and "→" in s], c.situation
    assert "no measurable change (within ±" in " ".join(blocks(markup))


# -- the Durak report's variants and battles -----------------------------------------------------
def test_durak_report_shows_estimates_with_intervals_and_explains_no_noise(tmp_path):
    markup = _render(
        tmp_path,
        "durak-battle",
        {"tokens_a": [2], "tokens_b": 2, "clash_sizes": [1, 2], "max_rounds": 2, "trials": 60, "suit_trials": 4},
    )
    assert bare_estimates(markup) == [] and narrated_noise(markup) == []
    text = " ".join(blocks(markup))
    assert "losses carry over" not in text and "break sooner" not in text
    # the battle rows add up: the outcome with no winner (both destroyed, DB-7) has its column
    assert "both destroyed" in text
    # DB-6 under greedy leaders: identical numbers, and why
    identical = "The initiative holder must attack (DB-6) gives exactly the default's numbers"
    assert f"{identical}: the greedy leaders never pass" in text
    assert re.search(r"mean length of a battle (is exactly the same|goes from \d\.\d\d ± \d\.\d\d)", text)


def test_fairy_meat_report_shows_estimates_with_intervals(tmp_path):
    markup = _render(
        tmp_path,
        "fairy-meat",
        {
            "rules": {"jokers": 2},
            "policies": ["random", "random"],  # with 2 jokers, random play is too many deals to count: simulated
            "attacker_kill": [2],
            "defender_live": [1, 2],
            "max_hand": 2,
            "trials": 150,
            "none_rule_trials": 10,
        },
    )
    assert "estimated from 150 simulated attacks" in markup
    assert bare_estimates(markup) == [] and narrated_noise(markup) == []
