"""Wrong or doubled text on a page: each stepper has one Export; an export's note says what
fits its format; an untitled export is named after its system; an example inside a page
(a report, a preview) is no second page title; the rule-change report names no other
system's command."""

from __future__ import annotations

import json
from pathlib import Path

import ipywidgets as widgets
import pytest

ROOT = Path(__file__).resolve().parent.parent


def accordion_titles(widget: widgets.Widget) -> list[str]:
    """The titles of every accordion in a widget tree."""
    out = [str(t) for t in getattr(widget, "titles", ()) or ()] if isinstance(widget, widgets.Accordion) else []
    for child in getattr(widget, "children", ()):
        out += accordion_titles(child)
    return out


def _fairy_meat():
    from toolkit.fairy_meat.widgets import combat_stepper

    st = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")
    st.play_all()
    return st


def _durak():
    from toolkit.durak_battle.widgets import battle_stepper

    st = battle_stepper(example="durak_counterattack_chain.yaml")
    st.play_all()
    return st


@pytest.mark.parametrize("make", [_fairy_meat, _durak], ids=["fairy-meat", "durak-battle"])
def test_an_example_stepper_has_one_export_and_its_note_fits_the_format(make):
    st = make()
    exports = [t for t in accordion_titles(st.widget) if t.startswith("Export")]
    assert len(exports) == 1, exports
    st.export_format.value = "yaml"
    st.export()
    assert "data/examples/" in st.export_note.value  # an example file: where to save it
    for fmt in ("html", "markdown", "text"):
        st.export_format.value = fmt
        st.export()
        assert "data/examples/" not in st.export_note.value, (fmt, st.export_note.value)
    assert st.export_view.source.value == st.stepper.log_text and "log.txt" in st.export_view.link.value


def test_an_untitled_export_is_named_after_its_system():
    from toolkit.angry_miniatures.widgets import attack_stepper

    st = attack_stepper(seed=1)
    st.stepper.roll()
    download = st.stepper.export_download("html")
    assert download.file_name == "angry-miniatures-example.html", download.file_name
    assert "An example" not in download.preview and "Angry Miniatures example" in download.preview


def test_an_example_inside_a_page_is_no_second_page_title():
    from toolkit.examples import EXAMPLES_DIR
    from toolkit.rulebook.download import example_download
    from toolkit.rulebook.export import to_html

    text = (EXAMPLES_DIR / "grunk_charges_pixie.yaml").read_text(encoding="utf-8")
    fragment = to_html(text, fragment=True)
    assert (
        "<h1" not in fragment and "<h2" not in fragment and '<h4 class="rb-title">Grunk charges Pixie</h4>' in fragment
    )
    assert "<h1" not in example_download(text, "html").preview
    assert '<h1 class="rb-title">' in to_html(text)  # its own page keeps its title


def test_the_rule_change_report_names_no_system_of_its_own_in_its_command():
    """The Fairy Meat and Durak rule-change reports once printed the Angry Miniatures command."""
    nb = json.loads((ROOT / "notebooks" / "rule_change_report.ipynb").read_text(encoding="utf-8"))
    words = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "toolkit report rule-change" in words
    for name in ("angry-miniatures", "fairy-meat", "durak-battle", "tens_hit"):
        assert name not in words, name


def test_the_fairy_meat_rule_change_page_reads_as_a_designers(tmp_path, capsys):
    """The Fairy Meat page printed the Angry Miniatures command, its sizes as Python
    (``attacker_cards [2, 3, 4, 5]; … policies ['greedy', 'greedy']``), "fairy-meat" for
    Fairy Meat, and "The 10 largest changes" over fewer rows."""
    import re

    from python_on_page import page_text, python_on_page

    from toolkit.cli import main

    sizes = "{attacker_cards: [2, 3], defender_cards: [1], trials: 200}"
    argv = ["report", "rule-change", "-p", "system", "fairy-meat", "-p", "sizes", sizes, "-o", str(tmp_path)]
    assert main(argv) == 0, capsys.readouterr().err
    page = (tmp_path / "rule-change.html").read_text(encoding="utf-8")
    text = page_text(page)
    assert "angry-miniatures" not in text and "fairy-meat" not in text and "Fairy Meat" in text
    assert "Sizes: attacker cards: 2, 3; defender cards: 1;" in " ".join(text.split())
    assert python_on_page(page) == [], python_on_page(page)[:5]
    caption = re.search(r"<caption>(?:<b>[^<]*</b><br/?>)?The (\d+) largest changes", page)
    assert caption, "the proposal (Unhalved damage) changes the odds: a table of the largest changes"
    table = page[caption.end() : page.index("</table>", caption.end())]
    assert table.count("<tr>") - 1 == int(caption[1])  # the header row and one row per change
