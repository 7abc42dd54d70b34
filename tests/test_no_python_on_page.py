"""No Python on the page: what a designer reads in the widgets, the exports and the reports'
generated parts carries no Python repr, ``PosixPath``, ``None`` as a value, ``field=value``
or snake_case id (tests/python_on_page.py says exactly what is looked for). The rendered
reports are checked the same way in tests/test_notebooks.py and in the browser suite.
"""

from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets
import pytest
from python_on_page import page_text, python_on_page

from toolkit.examples import EXAMPLES_DIR
from toolkit.house_rules import rules_class, rules_files
from toolkit.rulebook.situations import catalogued_systems

ROOT = Path(__file__).resolve().parent.parent


# -- the check itself can fail ---------------------------------------------------------------
BAD = [
    "house rules: hit_faces=['10', 'J', 'Q', 'K', 'A']",
    "given: points_divisor=1",
    "All defaults: rules = None, max_dice = 8",
    "(AM-5 zero_tie='super_tiebreak')",
    "<code>none_keeps_cheating_hidden</code>",
    "(PosixPath('../sweeps/angry_miniatures_pools.html'), 0)",
    "defence_dice=1",
    "rules.tie_break = chain",
    "/work/.venv/lib/python3.11/site-packages/IPython/core/display.py:431: UserWarning: Consider using IFrame",
    "<IPython.core.display.HTML object>",
    "VBox(children=(HBox(children=(Dropdown(",
    "Dizzytwig wins by 5: ceil(5/2) = 3 points (FM-10).",
    "Health (both) 3 defender strikes back on her turn True",
    "d8 Wild Card False 2.5",
]
GOOD = [
    "Dizzytwig says None: the None rule keeps her Trumps hidden (FM-5). Sparklespaz has said None.",
    "Rules in force: Hit faces: 10, J, Q, K, A; Both roll no hits: super tiebreak (by default miss)",
    "Sparklespaz wins by 1: half of 1, rounded up, is 1 point (FM-10). 7/27 ≈ 25.9%",
    "Rules in force (Angry Miniatures): Tens hit <code>tens_hit.yaml</code>",
    '<details class="rb-source"><summary>Example file</summary><pre>zero_tie: super_tiebreak</pre></details>',
    "Run with max dice <b>4</b>; attack types <b>melee, ranged</b>.",
    "Run it again: <code>toolkit report durak-battle -p tokens_a [5, 7] -o reports</code>.",
]


@pytest.mark.parametrize("text", BAD)
def test_the_check_finds_python(text):
    assert python_on_page(text), text


@pytest.mark.parametrize("text", GOOD)
def test_the_check_passes_a_designers_words(text):
    assert python_on_page(text) == []


# -- widgets -------------------------------------------------------------------------------------
def widget_texts(widget: widgets.Widget, out: list[str] | None = None) -> list[str]:
    """Every text a widget tree shows: HTML and text values, descriptions, option labels,
    tooltips, placeholders and accordion titles (not an export's folded source: a file)."""
    out = [] if out is None else out
    if "rb-export-source" in getattr(widget, "_dom_classes", ()):
        return out
    for name in ("description", "tooltip", "placeholder"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            out.append(value)
    if isinstance(widget, widgets.widgets.widget_selection._Selection):
        out += [str(label) for label in widget._options_labels]
    elif isinstance(getattr(widget, "value", None), str):
        out.append(widget.value)
    out += [str(t) for t in getattr(widget, "titles", ()) or ()]
    for child in getattr(widget, "children", ()):
        widget_texts(child, out)
    return out


def assert_reads_as_a_designers(widget: widgets.Widget, where: str) -> None:
    found = [p for text in widget_texts(widget) for p in python_on_page(text, where)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.parametrize("system", catalogued_systems())
def test_the_rules_picker_names_rules_given_as_a_mapping_in_words(system):
    from toolkit.widgets.rules_picker import RulesPicker

    cls = rules_class(system)
    field, value = next((n, v) for n, (_, v) in _a_change(cls).items())
    picker = RulesPicker(system, {field: value})
    assert picker.dropdown.label.startswith("as given (")
    assert_reads_as_a_designers(picker.widget, f"{system} rules picker")


def _a_change(cls):
    """The changes of the system's first shipped house-rules file."""
    from toolkit.house_rules import RulesFile

    return RulesFile.read(rules_files(cls.SYSTEM)[0], cls).rules.changes()


def test_the_angry_miniatures_stepper_under_house_rules_reads_as_a_designers():
    from toolkit.angry_miniatures.widgets import attack_stepper

    st = attack_stepper(rules="tens_hit", seed=1)
    st.zero_tie.value = "super_tiebreak"
    st.stepper.roll()
    for fmt in ("text", "html", "markdown"):
        st.stepper.log_format.value = fmt
        assert_reads_as_a_designers(st.widget, f"attack stepper ({fmt})")


def test_the_fairy_meat_stepper_and_its_exports_read_as_a_designers():
    from toolkit.fairy_meat.widgets import combat_stepper

    fm = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")
    fm.play_all()
    for fmt in ("yaml", "html", "markdown"):
        fm.export_format.value = fmt
        fm.export()
        assert fm.export_view.link.value and fm.export_view.preview.value
        assert_reads_as_a_designers(fm.widget, f"combat stepper export ({fmt})")


def test_the_durak_stepper_under_house_rules_reads_as_a_designers():
    from toolkit.durak_battle.widgets import battle_stepper

    st = battle_stepper(rules="cheap_strikes", seed=2)
    st.export_format.value = "markdown"
    st.export()
    assert_reads_as_a_designers(st.widget, "battle stepper")


def test_the_example_picker_reads_as_a_designers():
    from toolkit.rulebook.picker import ExamplePicker

    picker = ExamplePicker("angry-miniatures", "zero_hits_super_tiebreak", n=2, budget_seconds=10)
    picker.find()
    assert len(picker.found) == 2 and "Both roll no hits: super tiebreak" in picker.status.value
    for fmt in ("html", "markdown", "yaml"):
        picker.export_format.value = fmt
        assert_reads_as_a_designers(picker.widget, f"example picker ({fmt})")


# -- exports and the reports' generated parts ------------------------------------------------
@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_example_exports_without_python(path):
    from toolkit.rulebook.download import example_download

    text = path.read_text(encoding="utf-8")
    for fmt in ("html", "markdown"):
        download = example_download(text, fmt)
        assert python_on_page(download.preview, f"{path.name} {fmt} preview") == []
        shown = download.source if fmt == "markdown" else page_text(download.source)
        assert python_on_page(shown.split("\n<!--", 1)[0], f"{path.name} {fmt}") == []


def test_the_rule_book_page_names_situations_and_variants_in_words():
    from toolkit.rulebook.page import entry_html, example_entry, export_function

    entry = example_entry("angry-miniatures", "zero_hits_super_tiebreak", budget_seconds=10)
    page = entry_html(entry, export_function(fragment=True), "angry-miniatures")
    assert "Both roll no hits: super tiebreak" in page and "<iframe" not in page
    assert python_on_page(page) == []


@pytest.mark.parametrize("system", catalogued_systems())
def test_every_shipped_house_rules_file_is_listed_in_words(system):
    from toolkit.reports.parameters import read_rules_parameter, rules_html

    for path in rules_files(system):
        house = read_rules_parameter(system, str(path))
        assert python_on_page(rules_html(house), path.name) == []
        assert python_on_page(house.rules.variant_name(), path.name) == []


def test_every_rules_field_has_a_designers_label():
    for system in catalogued_systems():
        cls = rules_class(system)
        for name, info in cls.field_info().items():
            assert info["label"] and "_" not in info["label"], (system, name)


@pytest.mark.parametrize(
    "notebook", sorted((ROOT / "notebooks").glob("*_report.ipynb")) + [ROOT / "notebooks" / "fairy_meat_strategy.ipynb"]
)
def test_the_parameters_line_of_every_report_reads_as_a_designers(notebook):
    """The line under a report's title once said "All defaults: rules = None, …"."""
    from toolkit.reports.running import parameter_summary, parameters_cell

    given = {"rules": str(ROOT / "data" / "rules" / "angry-miniatures" / "tens_hit.yaml")}
    for values in ({}, given):
        cell = parameters_cell(parameter_summary(notebook, values))
        assert python_on_page(cell.source, notebook.name) == []


# -- a sweep's report ------------------------------------------------------------------------------
SWEEP = (
    "title: Pools\nsystem: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_dice: [1, 2]\n  defence_dice: [1, 2]\n  attack_type: [melee, ranged]\n"
    "  rules:\n    tie_break: [chain, coin_flip]\nchunk: 4\n"
)


def test_a_sweeps_charts_name_fields_and_values_in_words(client, tmp_path):
    """Facets once read ``defence_dice=1`` and titles ``rules.tie_break = chain``; plotly
    draws them from the figure's JSON, so the JSON is read as well as the page's text."""
    import re

    from toolkit.sweeps import run_sweep

    page = run_sweep(SWEEP, tmp_path, client=client, progress=None).report_path.read_text(encoding="utf-8")
    assert python_on_page(page) == []
    drawn = " ".join(re.findall(r'"text":"([^"]*)"', page))
    assert "defence dice: 1" in drawn and "Ties on hits: coin flip" in drawn, drawn[:300]
    assert "defence_dice" not in drawn and "rules.tie_break" not in drawn and "coin_flip" not in drawn


def test_a_sweeps_rows_as_the_notebook_shows_them_read_as_a_designers(client, tmp_path):
    """The sweeps notebook once showed the raw table: "toolkit version 0.1.0", "exact True",
    numerator and denominator apart, snake_case column names."""
    from toolkit.reports.figures import table_html
    from toolkit.sweeps import run_sweep

    result = run_sweep(SWEEP, tmp_path, client=client, progress=None)
    page = table_html(result.shown(attack_dice=2, defence_dice=1, attack_type="melee"), percent_columns=["probability"])
    assert python_on_page(page) == [] and "0.1.0" not in page and "True" not in page
    assert "Ties on hits" in page and "%" in page


# -- report tables -------------------------------------------------------------------------------
def test_a_report_table_shows_no_python_values_nor_rows_of_index_names():
    """Tables once read "defender strikes back … True", "Wild Card True", a ``None`` cell,
    and a strategy table's pivot showed rows of its index and column names (``features``,
    ``kind``) above its numbers."""
    import pandas as pd

    from toolkit.reports.figures import table_html

    page = table_html(pd.DataFrame([{"die": "d8", "Wild Card": True, "policies": ["greedy", "greedy"], "note": None}]))
    assert python_on_page(page) == [] and "True" not in page and "None" not in page
    assert "<td" in page and ">yes<" in page.replace(' style="text-align: left;"', "") and "greedy, greedy" in page
    mixes = pd.DataFrame(
        [{"features": "two Trumps", "kind": k, "p": p} for k, p in (("bluff", 0.25), ("honest", 0.75))]
    ).pivot_table(index="features", columns="kind", values="p")
    page = table_html(mixes)
    header = page.split("</thead>")[0]
    assert header.count("<tr") == 1 and "features" in header and "kind" not in page, page


def test_a_report_tables_words_are_aligned_left_and_its_numbers_right():
    """Notebook pages align every table cell right: a column of words read ragged."""
    import re

    import pandas as pd

    from toolkit.reports.figures import table_html

    page = table_html(pd.DataFrame([{"situation": "A Wild Trump is played", "seconds": 0.5}]))
    cells = re.findall(r"<td([^>]*)>", page)
    assert cells == [' style="text-align: left;"', ""], page


def test_an_expectation_of_no_winner_reads_in_words():
    """The rule-book page's checklist once read "winner None" for a file's ``winner: null``."""
    from toolkit.rulebook.export_model import _item_words

    assert _item_words({"round": 2, "winner": None, "tokens": {"North": 1}}) == "round 2: no winner; tokens North 1"
