"""The page to share (toolkit/sweeps/share_page.py): a sweep writes it beside its table;
its embedded numbers are the table's, written by the toolkit's one display rule
(estimates with their 95% interval); a hostile title or value stays text."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from toolkit.numbers import probability_text
from toolkit.sweeps import load_sweep, run_sweep
from toolkit.sweeps import share_page as share
from toolkit.sweeps.result import SweepResult

pytest.importorskip("distributed")

#: One to three attack dice against one, under the rulings and the shipped Tens hit file.
POOLS = (
    "title: Pools to share\nsystem: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_dice: [1, 2, 3]\n  defence_dice: [1]\n  rules_files: [default, tens_hit]\nchunk: 2\n"
)
HOSTILE = "</script><script>alert('title')</script><!--"


def embedded(page: str) -> dict:
    """The JSON block of a share page, read as the browser reads it."""
    found = re.search(r"<script type='application/json' id='share-data'>(.*?)</script>", page, re.S)
    assert found, "no data block"
    return json.loads(found.group(1))


def shown(data: dict, key: str) -> dict[str, str]:
    """{outcome: text} of one setting."""
    return {data["outcomes"][r[0]]: r[5] for r in data["points"][key]["rows"]}


def test_a_sweep_writes_its_page_to_share_beside_its_table(client: object, tmp_path: Path) -> None:
    result = run_sweep(POOLS, tmp_path, client=client, progress=None)
    assert result.share_path == tmp_path / "sweep.share.html" and result.share_path.is_file()
    page = result.share_path.read_text(encoding="utf-8")
    assert "plotly" not in page.lower() and "http" not in page  # nothing from the network
    data = embedded(page)
    assert [a["label"] for a in data["axes"]] == ["attack dice", "house rules"]
    assert [a["values"] for a in data["axes"]] == [["1", "2", "3"], ["default rules", "tens hit"]]
    # by hand: one die against one, 4 hit faces of 6 (AM-1); no damage when both miss
    # (1/3 * 1/3); under Tens hit 5 of 6 hit, both miss 1/36
    assert shown(data, "0,0")["no damage"] == "1/9 ≈ 11.1%"
    assert shown(data, "0,1")["no damage"] == "1/36 ≈ 2.8%"
    # every setting holds exactly its point's rows of the table, each as the toolkit writes it
    table = result.table
    assert len(data["points"]) == table["point"].nunique() == 6
    for _, part in table.groupby("point"):
        first = part.iloc[0]
        key = f"{[1, 2, 3].index(first['attack_dice'])},{['default', 'tens_hit'].index(first['rules_file'])}"
        expected = {
            o: probability_text(Fraction(int(n), int(d)))
            for o, n, d in zip(part["outcome"], part["numerator"], part["denominator"], strict=True)
        }
        assert shown(data, key) == expected, key


def test_a_sweep_too_big_for_a_page_says_so(client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(share, "MAX_SHARED_POINTS", 5)
    result = run_sweep(POOLS, tmp_path, client=client, progress=None)
    assert result.share_path is None and not (tmp_path / "sweep.share.html").exists()
    assert result.notices[-1] == (
        "no page to share: 6 points, a page holds at most 5 (a sweep file of fewer values writes one)"
    )


def hand_result(rows: list[dict], title: str = "Hands") -> SweepResult:
    """A sweep result with a table written by hand (no Dask): two hand sizes."""
    text = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: [1, 2]\n"
    sweep = load_sweep(f"title: {json.dumps(title)}\n{text}")
    base = {"system": "fairy-meat", "calculator": "hand_composition", "seconds": 0.0}
    return SweepResult(sweep, pd.DataFrame([{**base, **r} for r in rows]), 2, 0, (), 0.0, None, None, 1)


def estimate(point: int, cards: int, outcome: str, value: float, low: float | None, high: float | None) -> dict:
    return {
        "point": point, "cards": cards, "outcome": outcome, "kind": "probability", "numerator": None,
        "denominator": None, "value": value, "low": low, "high": high, "exact": False,
    }  # fmt: skip


def test_estimates_show_their_interval_and_no_fraction() -> None:
    result = hand_result(
        [
            estimate(0, 1, "win", 0.488, 0.481, 0.495),
            estimate(0, 1, "lose", 0.512, 0.505, 0.519),
            estimate(1, 2, "win", 0.01, 0.002, 0.036),
            estimate(1, 2, "lose", 0.99, None, None),
        ]
    )
    data = share.page_data(share.sweep_grid(result))
    assert data["axes"] == [{"label": "cards", "values": ["1", "2"]}]
    assert shown(data, "0") == {"win": "48.8% ± 0.7% (95%)", "lose": "51.2% ± 0.7% (95%)"}
    # a rare event's lopsided interval as a range; an estimate with no interval says so
    assert shown(data, "1") == {"win": "1.0% (0.2% to 3.6%, 95%)", "lose": "99.0% (estimate; no interval given)"}
    rows = data["points"]["0"]["rows"]
    assert rows[0][2:5] == [0.488, 0.481, 0.495]  # the bar and its whisker


def test_a_hostile_title_and_values_stay_text() -> None:
    result = hand_result(
        [
            {**estimate(0, 1, HOSTILE, 1.0, 1.0, 1.0), "exact": True, "numerator": "1", "denominator": "1"},
            {**estimate(1, 2, "</SCRIPT >&amp;", 1.0, 1.0, 1.0), "exact": True, "numerator": "1", "denominator": "1"},
        ],
        title=HOSTILE,
    )
    page = share.page_html(share.sweep_grid(result))
    # only the page's own two blocks end: the data block and the script
    assert len(re.findall(r"</script", page, re.I)) == 2
    assert "<!--" not in page and "alert('title')</script>" not in page
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(&#x27;title&#x27;)" in page
    data = embedded(page)
    assert data["outcomes"] == [HOSTILE, "</SCRIPT >&amp;"]  # read back exactly as written
