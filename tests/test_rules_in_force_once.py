"""The rules a report used are printed once (issue 23 item 4: the house-rules box and a
"Rules in force" line both printed them): every report notebook shows them with one
:func:`~toolkit.reports.parameters.rules_html` call, after the report's own variant
parameters are applied, and says "Rules in force" nowhere else; the box names the
parameters that changed the house rules. The rendered reports are checked in the browser
(tests/browser/test_reports_offline.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.house_rules import RulesFile
from toolkit.reports.discovery import discover_reports
from toolkit.reports.parameters import rules_html

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


@pytest.mark.parametrize("name", sorted(discover_reports(NOTEBOOKS)))
def test_each_report_prints_the_rules_in_force_once(name):
    code = _code(discover_reports(NOTEBOOKS)[name])
    shown = [line for line in code.splitlines() if "rules_html(" in line and "import" not in line]
    if name == "rule-change":  # two rule sets compared: a baseline and a change, each printed once
        assert "Rules in force" not in code
        return
    assert code.count("Rules in force") + len(shown) == 1, (name, shown)
    if shown:  # after the report's variant parameters are applied, with them
        assert "rules=rules" in shown[0] and code.index("with_variants(house.rules") < code.index(shown[0])


def test_the_box_names_the_reports_own_parameters():
    from toolkit.durak_battle.rules import Rules

    house = RulesFile(Rules(), "default rules", "", None)
    plain = rules_html(house)
    assert plain.count("Rules in force") == 1 and "no field changed" in plain
    varied = rules_html(house, rules=Rules(counter_tie="loses"))
    assert varied.count("Rules in force") == 1
    assert "default rules, with this report&#x27;s parameters" in varied
    assert "An equal Counterattack: loses (by default no loss)" in varied
