"""Every report rendered with hostile text, with a real kernel (issue 13 item 4: scripts;
issue 20 item 1: Markdown and HTML links, images and remote addresses).

Each report runs once with both kinds of payload in its house-rules file's title and notes
and in its free text parameters (army names, a file path), at small sizes: no raw script
or other markup from a parameter reaches the HTML or the notebook's markup outputs, no
link, image, script or remote URL of the page comes from a payload, and the payloads show
as text (escaped). A parameter the report checks (an attack type, a die, a weight, a
system, a situation) refuses a script where it is read: that run fails, and its page
echoes the script only escaped. (One render for both checks: a render is a kernel start,
and the two kinds of payload are told apart by their own marks.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from test_hostile_reports import PAYLOAD as SCRIPT
from test_report_injection import PAYLOAD as LINKS
from test_report_injection import payload_tags
from widget_state import without_option_labels

from toolkit.reports.runner import ReportFailed, discover_reports, run_report

pytestmark = pytest.mark.slow

#: Scripts echoed raw would become markup; escaped they show as text.
RAW_MARKUP = re.compile(r"<script>alert\(|<svg onload")
ESCAPED_TITLE = re.compile(r"&lt;script&gt;alert\((?:'|&#x27;|&#39;)title")
#: The links payload's short form (a title is at most 200 characters).
SHORT_LINKS = "[N](javascript:alert(1)) ![s](http://127.0.0.1:9/t.png) <a href='http://127.0.0.1:9/d'>d</a>"
SMALL_AM = {"max_dice": 3, "health_values": [2], "cap": 10, "example_attack": 2, "example_defence": 2}
SMALL_FM = {"attacker_kill": [2], "defender_live": [1], "max_hand": 3, "trials": 50, "none_rule_trials": 10}
SMALL_DURAK = {"tokens_a": [2], "tokens_b": 2, "clash_sizes": [1], "max_rounds": 2, "trials": 20}
SMALL_STRATEGY = {
    "deals": 2,
    "round_deals": 2,
    "hidden_sizes": [[1, 1]],
    "counting_size": [1, 1],
    "hidden_time_limit": 5,
}


def hostile_rules(folder: Path, system: str, field: str, title: str) -> str:
    """A house-rules file whose title and notes hold both kinds of payload (it changes one field)."""
    path = folder / f"{system}-{field.split(':')[0]}.yaml"
    title = f"<script>alert('title')</script> {title} {SHORT_LINKS}"
    notes = f"<script>alert('notes')</script> notes <svg onload=alert(3)> {LINKS}"
    # a JSON string is a YAML double-quoted string
    text = f"system: {system}\ntitle: {json.dumps(title)}\nnotes: {json.dumps(notes)}\n{field}\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def hostile_cases(folder: Path) -> list[tuple[str, dict, bool]]:
    """(report, parameters, whether it must run to the end): every report with hostile
    house rules and hostile free text, and a script in each parameter it checks."""
    am = hostile_rules(folder, "angry-miniatures", "zero_tie: super_tiebreak", "House")
    fm = hostile_rules(folder, "fairy-meat", "damage: table", "House")
    db = hostile_rules(folder, "durak-battle", "counter_tie: loses", "House")
    db2 = hostile_rules(folder, "durak-battle", "jokers: false", "Proposed")
    durak = {**SMALL_DURAK, "suit_trials": 4}
    dice = dict.fromkeys(("battle_die_a", "spirit_die_a", "battle_die_b", "spirit_die_b"), SCRIPT)
    return [
        ("angry-miniatures", {"rules": am, "attack_types": ["melee"], **SMALL_AM}, True),
        ("angry-miniatures", {"attack_types": ["melee", SCRIPT], **SMALL_AM}, False),
        ("fairy-meat", {"rules": fm, **SMALL_FM}, True),
        # an army's name is at most 200 characters: the links in one run, the scripts in another
        ("durak-battle", {"rules": db, "name_a": "A " + LINKS, "name_b": "B " + LINKS, **durak}, True),
        ("durak-battle", {"rules": db, "name_a": SCRIPT, "name_b": "<script>alert(2)</script>", **durak}, True),
        ("durak-battle", {**dice, **durak}, False),
        ("fairy-meat-strategy", {"rules": fm, **SMALL_STRATEGY}, True),
        # a script as a payoff weight never reaches a kernel: a weight is a number in its range
        ("fairy-meat-strategy", {"counting_removed": SCRIPT, **SMALL_STRATEGY}, False),
        (
            "rule-change",
            {"system": "durak-battle", "baseline": db, "proposed": db2, "sizes": {**SMALL_DURAK, "tokens_b": [2]}},
            True,
        ),
        # a script as the system or situation never reaches a kernel: refused before the run
        # (tests/test_hostile_reports.py, test_script_payloads_in_string_parameters_are_refused_or_only_echoed_escaped)
        # the folder's name short enough for the parameter's limit, with both payloads' marks
        (
            "rulebook-examples",
            {
                "rules": fm,
                "budget_seconds": 0.2,
                "output_dir": str(
                    folder / "[N](javascript:alert(1)) ![s](http:127.0.0.1:9 x.png) <svg onload=alert(1)>"
                ),
            },
            True,
        ),
    ]


def markup_outputs(notebook: Path) -> str:
    """Every HTML and Markdown output of an executed notebook (what becomes markup)."""
    nb = nbformat.read(str(notebook), as_version=4)
    return "\n".join(
        str(output.get("data", {}).get(kind, ""))
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in ("text/html", "text/markdown")
    )


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> tuple[Path, list[tuple[str, dict, bool]]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, hostile_cases(folder)


CASE_IDS = [
    "am-rules",
    "am-attack-type",
    "fm-rules",
    "durak-links",
    "durak-scripts",
    "durak-dice",
    "strategy-rules",
    "strategy-removed-cards",
    "rule-change",
    "rulebook-folder",
]


def test_every_report_has_a_hostile_render(tmp_path):
    found = hostile_cases(tmp_path)
    assert len(found) == len(CASE_IDS)
    assert {report for report, _, runs in found if runs} == set(discover_reports()), "a report without a hostile render"


@pytest.mark.parametrize("case", range(len(CASE_IDS)), ids=CASE_IDS)
def test_a_report_rendered_with_hostile_text_shows_it_only_as_text(cases, case):
    folder, found = cases
    report, parameters, runs = found[case]
    out = folder / f"run-{case}"
    try:
        page_path = run_report(report, parameters, out, progress=lambda _: None, timeout=120)
        assert runs, f"{report} ran with {parameters}: a checked parameter took a script"
    except ReportFailed as exc:
        assert not runs, f"{report} failed: {exc}"
        assert "InvalidSetupError" in str(exc) or "NotationError" in str(exc), str(exc)  # refused, not crashed
        page_path = exc.html_path
    assert page_path is not None and page_path.is_file()
    page = page_path.read_text(encoding="utf-8")
    found_raw = RAW_MARKUP.findall(without_option_labels(page)) + RAW_MARKUP.findall(
        markup_outputs(out / f"{report}.ipynb")
    )
    assert not found_raw, f"{report}: raw markup from a parameter: {found_raw[:3]}"
    assert not payload_tags(page), f"{report}: the payloads made {payload_tags(page)[:3]}"
    if runs:
        assert "javascript:alert(1)" in page, f"{report}: the links payload is not shown as text"
        if report != "rulebook-examples":  # the rule-book page names the rules by their fields only
            assert ESCAPED_TITLE.search(page), f"{report}: the rules file's title is not shown (escaped)"
