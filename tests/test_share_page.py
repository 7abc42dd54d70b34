"""The page to share (toolkit/share_page.py, toolkit/sweeps/share.py): a sweep writes it beside its table;
its embedded numbers are the table's, written by the toolkit's one display rule
(estimates with their 95% interval); a hostile title or value stays text."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from toolkit import share_page as share
from toolkit.numbers import probability_text
from toolkit.sweeps import load_sweep, run_sweep
from toolkit.sweeps.result import SweepResult
from toolkit.sweeps.share import sweep_grid
from toolkit.sweeps.words import outcome_words

pytest.importorskip("distributed")

#: One to three attack dice against one, under the rulings and the shipped Tens hit file.
POOLS = (
    "title: Pools to share\nsystem: angry-miniatures\ncalculator: opposed\n"
    "grid:\n  attack_dice: [2, 1, 3]\n  defence_dice: [1]\n  rules_files: [default, tens_hit]\nchunk: 2\n"
)
HOSTILE = "</script><script>alert('title')</script><!--"
#: The outcome of an attack that deals no damage, as the page words the table's label.
NO_DAMAGE = "defender damage 0, attacker damage 0, attacker crit no, defender crit no"


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
    assert "exact numbers are fractions (while short) and percents." in page  # no estimate to explain
    data = embedded(page)
    assert [a["label"] for a in data["axes"]] == ["attack dice", "house rules"]
    # the numbers in order (the file lists 2, 1, 3), the files as the sweep lists them
    assert [a["values"] for a in data["axes"]] == [["1", "2", "3"], ["default rules", "tens_hit.yaml (Tens hit)"]]
    # by hand: one die against one, 4 hit faces of 6 (AM-1); no damage when both miss
    # (1/3 * 1/3); under Tens hit 5 of 6 hit, both miss 1/36
    assert shown(data, "0,0")[NO_DAMAGE] == "1/9 ≈ 11.1%"
    assert shown(data, "0,1")[NO_DAMAGE] == "1/36 ≈ 2.8%"
    # every setting holds exactly its point's rows of the table, each as the toolkit writes it
    table = result.table
    assert len(data["points"]) == table["point"].nunique() == 6
    for _, part in table.groupby("point"):
        first = part.iloc[0]
        key = f"{[1, 2, 3].index(first['attack_dice'])},{['default', 'tens_hit'].index(first['rules_file'])}"
        expected = {
            outcome_words(o): probability_text(Fraction(int(n), int(d)))
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
    data = share.page_data(sweep_grid(result))
    assert data["axes"] == [{"label": "cards", "values": ["1", "2"]}]
    assert shown(data, "0") == {"win": "48.8% ± 0.7% (95%)", "lose": "51.2% ± 0.7% (95%)"}
    # a rare event's lopsided interval as a range; an estimate with no interval says so
    assert shown(data, "1") == {"win": "1.0% (0.2% to 3.6%, 95%)", "lose": "99.0% (estimate; no interval given)"}
    rows = data["points"]["0"]["rows"]
    assert rows[0][2:5] == [0.488, 0.481, 0.495]  # the bar and its whisker
    assert "estimates carry their 95% interval" in share.page_html(sweep_grid(result))


def test_a_hostile_title_and_values_stay_text() -> None:
    result = hand_result(
        [
            {**estimate(0, 1, HOSTILE, 1.0, 1.0, 1.0), "exact": True, "numerator": "1", "denominator": "1"},
            {**estimate(1, 2, "</SCRIPT >&amp;", 1.0, 1.0, 1.0), "exact": True, "numerator": "1", "denominator": "1"},
        ],
        title=HOSTILE,
    )
    page = share.page_html(sweep_grid(result))
    # only the page's own two blocks end: the data block and the script
    assert len(re.findall(r"</script", page, re.I)) == 2
    assert "<!--" not in page and "alert('title')</script>" not in page
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(&#x27;title&#x27;)" in page
    data = embedded(page)
    assert data["outcomes"] == [HOSTILE, "</SCRIPT >&amp;"]  # read back exactly as written


# -- the explorers' page to share ------------------------------------------------------------
def explorer_rows(key: tuple[int, ...], grid: share.SharedGrid) -> dict[str, str]:
    return {r.outcome: r.text for r in grid.points[key]}


def test_the_angry_miniatures_explorer_shares_its_grid(tmp_path: Path) -> None:
    from toolkit.angry_miniatures.widgets import odds_explorer

    ex = odds_explorer(attack_dice=2, defence_dice=1)
    grid = ex.share_grid({"attack_dice": [0, 1, 2], "defence_dice": [0, 1], "tie_break": ["chain", "coin_flip"]})
    assert [(a.label, a.values) for a in grid.axes] == [
        ("Attack dice", ("0", "1", "2")),
        ("Defence dice", ("0", "1")),
        ("Ties (AM-4)", ("chain, then SuperTieBreaker", "coin flip (yardstick)")),
    ]
    assert grid.start == (2, 1, 0)  # the explorer's own setting is the page's first
    assert ("Attack", "melee") in grid.facts and ("House rules", "default rules") in grid.facts
    assert not {label for label, _ in grid.facts} & {a.label for a in grid.axes}  # a picked control is no fact
    # by hand (AM-1: 4 hit faces of 6): one die against none hits 2/3; one against one, both miss 1/9
    assert explorer_rows((1, 0, 0), grid) == {"1 damage to defender": "2/3 ≈ 66.7%", "no damage": "1/3 ≈ 33.3%"}
    assert explorer_rows((1, 1, 0), grid)["no damage"] == "1/9 ≈ 11.1%"
    assert grid.lines[(1, 0, 0)][1].startswith("P(hit) = 2/3 ≈ 66.7%")
    assert ex.controls["attack_dice"].value == 2  # the explorer is left as it was
    # every setting reads as the explorer's own table when its controls are set so
    for (a, d, t), rows in grid.points.items():
        ex.controls["attack_dice"].value, ex.controls["defence_dice"].value = [0, 1, 2][a], [0, 1][d]
        ex.controls["tie_break"].value = ["chain", "coin_flip"][t]
        assert {r.outcome: r.text for r in rows} == dict(zip(ex.table["outcome"], ex.table["shown"], strict=True))
    page = ex.share_page(tmp_path / "attack.html", {"attack_dice": [1, 2]})
    assert shown(embedded(page.read_text(encoding="utf-8")), "0")["no damage"] == "1/9 ≈ 11.1%"


def test_an_explorer_page_refuses_before_computing_and_keeps_other_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolkit.angry_miniatures.widgets import odds_explorer
    from toolkit.errors import InvalidSetupError, TooBigError, ToolkitError

    ex = odds_explorer()
    with pytest.raises(ToolkitError, match="'dice' is not a control of this explorer: vary one of attack_dice, "):
        ex.share_grid({"dice": [1]})
    monkeypatch.setattr(share, "MAX_SHARED_POINTS", 3)
    with pytest.raises(TooBigError, match="this page has 4 settings; a page to share holds at most 3"):
        ex.share_grid({"attack_dice": [1, 2], "defence_dice": [1, 2]})
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my notes</p>", encoding="utf-8")
    with pytest.raises(InvalidSetupError, match="is not a page to share"):
        ex.share_page(notes, {"attack_dice": [1]})
    assert notes.read_text(encoding="utf-8") == "<p>my notes</p>"
    again = tmp_path / "again.html"
    ex.share_page(again, {"attack_dice": [1]})
    ex.share_page(again, {"attack_dice": [2]})  # its own page is written over
    assert embedded(again.read_text(encoding="utf-8"))["axes"][0]["values"] == ["2"]


def test_a_fairy_meat_explorer_shares_every_slider_by_default() -> None:
    from toolkit.fairy_meat.widgets import hand_composition_explorer

    ex = hand_composition_explorer()
    grid = ex.share_grid()
    assert [(a.label, a.values) for a in grid.axes] == [("Cards in the hand", tuple(str(n) for n in range(13)))]
    for cards in (0, 5, 12):
        ex.controls["cards"].value = cards
        assert explorer_rows((cards,), grid) == dict(zip(ex.table["outcome"], ex.table["shown"], strict=True))


def test_the_explorers_button_offers_the_page_or_says_why_not(monkeypatch: pytest.MonkeyPatch) -> None:
    import base64

    from toolkit.angry_miniatures.widgets import odds_explorer
    from toolkit.widgets import explorer

    ex = odds_explorer(attack_dice=1, defence_dice=1)
    ex.share_button.click()
    link = ex.share_link.value
    assert 'download="angry-miniatures-one-attack.share.html"' in link
    page = base64.b64decode(link.split("base64,", 1)[1].split('"', 1)[0]).decode("utf-8")
    data = embedded(page)
    assert [a["label"] for a in data["axes"]] == ["Attack dice", "Defence dice"]  # every slider, 0 to 15
    assert data["axes"][0]["values"] == [str(n) for n in range(16)] and data["start"] == [1, 1]
    assert shown(data, "1,1")["no damage"] == "1/9 ≈ 11.1%"  # by hand, as above
    monkeypatch.setattr(explorer, "SHARE_SECONDS", 0.0)  # any page is too slow now
    ex.share_button.click()
    assert "a page of every slider&#x27;s value has 256 settings" in ex.share_link.value
    assert "explorer.share_page(path, vary={...})" in ex.share_link.value and "href" not in ex.share_link.value


def test_who_wins_leads_an_exact_point_summed_exactly() -> None:
    text = (
        "system: fairy-meat\ncalculator: deal_averaged_odds\ngrid:\n  attacker_cards: [1, 2]\n  defender_cards: [1]\n"
    )
    sweep = load_sweep(text)
    assert sweep.calculator.headline == "winner"
    base = {"system": "fairy-meat", "calculator": "deal_averaged_odds", "defender_cards": 1, "seconds": 0.0}

    def row(point: int, outcome: str, n: int, d: int, exact: bool = True) -> dict:
        v = n / d
        return {
            **base, "point": point, "attacker_cards": point + 1, "outcome": outcome, "kind": "probability",
            "numerator": str(n), "denominator": str(d), "value": v, "low": v if exact else v - 0.01,
            "high": v if exact else v + 0.01, "exact": exact,
        }  # fmt: skip

    table = pd.DataFrame(
        [
            row(0, "winner=attacker, points=1", 1, 6),
            row(0, "winner=attacker, points=2", 1, 3),
            row(0, "winner=defender, points=1", 1, 2),
            row(1, "winner=attacker, points=1", 1, 2, exact=False),
            row(1, "winner=defender, points=1", 1, 2, exact=False),
        ]
    )
    data = share.page_data(sweep_grid(SweepResult(sweep, table, 2, 0, (), 0.0, None, None, 1)))
    heads = [r for r in data["points"]["0"]["rows"] if r[1] == "headline"]
    # 1/6 + 1/3 = 1/2 for the attacker, by hand
    assert [(data["outcomes"][r[0]], r[5]) for r in heads] == [
        ("winner: attacker", "1/2 = 50%"),
        ("winner: defender", "1/2 = 50%"),
    ]
    assert shown(data, "0")["winner attacker, points 2"] == "1/3 ≈ 33.3%"
    # an estimate's sum would need an interval the table does not hold: its outcomes alone
    assert not [r for r in data["points"]["1"]["rows"] if r[1] == "headline"]
