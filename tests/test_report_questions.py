"""Every report table states its question: the caption's first line (the bold line
:func:`toolkit.reports.figures.table_html` writes) is the ``headline()`` of what the cell
computed, and changing one argument of the report changes that line. The report cells are
run in this process (tests/report_cells.py); the expected lines are written out by hand
from the report's parameters."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report_cells import run_cells

CAPTION_LINE = re.compile(r"<caption><b>(.*?)</b>")


def lines(shown) -> list[str]:
    """The first line of each table's caption, in the order shown (HTML entities read back)."""
    import html

    return [html.unescape(m) for m in CAPTION_LINE.findall(shown.text())]


def test_the_none_rule_table_states_sizes_policies_rules_and_its_sampled_attacks(monkeypatch):
    params = {"attacker_kill": [2, 3], "defender_live": [1, 2], "none_rule_trials": 20, "trials": 50}
    shown = run_cells("fairy_meat_report.ipynb", params, "none_rule_value(", monkeypatch=monkeypatch)
    # attacker Kill 2, 3 draw 3, 4 cards; the defender's two largest Live: 1, 2
    assert lines(shown) == [
        "Fairy Meat · 3–4 v 1–2 cards, first attack · value of the None rule (FM-5) · greedy v greedy · "
        "draft rules · Monte Carlo (20 simulated attacks, 95% intervals)"
    ]
    other = run_cells(
        "fairy_meat_report.ipynb",
        {**params, "policies": ["random", "greedy"], "none_means": "no_face_down"},
        "none_rule_value(",
        monkeypatch=monkeypatch,
    )
    assert lines(other) == [
        "Fairy Meat · 3–4 v 1–2 cards, first attack · value of the None rule (FM-5) · random v greedy · "
        "Saying None means: no face down · Monte Carlo (20 simulated attacks, 95% intervals)"
    ]


DURAK = {
    "name_a": "Horde",
    "name_b": "Elves",
    "tokens_a": [2, 3],
    "tokens_b": 2,
    "clash_sizes": [1, 2],
    "max_rounds": 3,
    "trials": 30,
    "suit_trials": 5,
}


def test_the_durak_suit_battle_and_variant_tables_state_their_questions(monkeypatch):
    shown = run_cells(
        "durak_battle_report.ipynb",
        DURAK,
        "suit_values(",
        "battle_outcome(Army(name_a, ta",
        "variants = {",
        monkeypatch=monkeypatch,
    )
    ns = shown.namespace
    leaders = "leaders d8/d6 v d8/d6"
    first, battles, variants, morale = lines(shown)
    assert first == (
        "Durak battle · 2 v 2 cards, one clash, one more card for Horde · value of each suit (DB-1) · "
        "best play with both hands known · draft rules · "
        "Monte Carlo (5 sampled deals, each clash solved exactly, 95% intervals)"
    )
    results = list(ns["battles"]["_result"])
    assert battles.startswith(
        f"Durak battle · Horde 2–3 v Elves 2 tokens · {leaders} · at most 3 rounds · greedy v greedy · draft rules · "
    )
    from toolkit.question import headline_over

    assert battles == headline_over(results[0].question.but(sizes="Horde 2–3 v Elves 2 tokens"), results)
    assert (
        variants.startswith("Durak battle · 2 v 2 cards, one clash · Horde 10 tokens, Elves 10 tokens · ")
        and "draft rules → each variant (3 rows)" in variants
    )
    assert morale == (
        f"Durak battle · Horde 2 v Elves 2 tokens · {leaders} · at most 3 rounds · greedy v greedy · "
        "draft rules → Tokens counted against Spirit: battle · "
        "partly Monte Carlo (30 simulated clashes per sampled table, 95% intervals)"
    )
    # the battles' columns are the armies' names, read from the outcomes' winners
    row = ns["battles"].iloc[0]
    assert results[0].probability(winner="Horde") == results[0].probability(lambda e: e.winner == "a")
    assert float(results[0].probability(winner="Horde")) == row["_wins"]
    assert ns["rows"] and "Horde wins" in ns["battles"].columns
    # one argument changed, the line changes with it
    other = run_cells(
        "durak_battle_report.ipynb",
        {**DURAK, "tokens_a": [3], "policies": ["random", "greedy"]},
        "battle_outcome(Army(name_a, ta",
        monkeypatch=monkeypatch,
    )
    assert lines(other)[0].startswith(
        f"Durak battle · Horde 3 v Elves 2 tokens · {leaders} · at most 3 rounds · random v greedy · draft rules · "
    )


def test_the_rule_change_tables_state_both_questions(monkeypatch):
    params = {"system": "angry-miniatures", "proposed": "tens_hit", "sizes": {"max_dice": 2}}
    markers = "change.largest_shown(", "for compared in change.tables"
    shown = run_cells("rule_change_report.ipynb", params, *markers, monkeypatch=monkeypatch)
    both = "Angry Miniatures · 1–2 v 1–2 dice · melee · draft rules → house rules tens_hit.yaml (Tens hit) · exact"
    tables = shown.namespace["change"].tables
    assert lines(shown) == [both] * (1 + len(tables)) and len(tables) == 3  # damage, damage back, crits
    # the baseline and the attack changed: both parts of the line change with them
    other = run_cells(
        "rule_change_report.ipynb",
        {**params, "baseline": {"tie_break": "coin_flip"}, "sizes": {"max_dice": 2, "attack_type": "ranged"}},
        *markers,
        monkeypatch=monkeypatch,
    )
    assert lines(other)[0] == (
        "Angry Miniatures · 1–2 v 1–2 dice · ranged · "
        "Ties on hits: coin flip → house rules tens_hit.yaml (Tens hit) · exact"
    )


def test_the_strategy_tables_state_hands_payoff_policies_and_deals(monkeypatch):
    params = {"attacker_cards": 2, "defender_cards": 2, "deals": 3, "round_deals": 2}
    markers = "w = worked_example(", "sparky_choice = second.value_of", "study = style_study(", "rs = round_study("
    shown = run_cells("fairy_meat_strategy.ipynb", params, *markers, monkeypatch=monkeypatch)
    solved = shown.namespace["study"].solved
    worked = (
        "Fairy Meat · the draft's worked example, {} attack, hands known · payoff damage - defender points · "
        "optimal v optimal · draft rules · exact"
    )
    known = (
        "Fairy Meat · 2 v 2 cards, hands known · payoff damage - defender points · {} · draft rules · "
        f"Monte Carlo ({solved} random deals, each solved exactly, 95% intervals)"
    )
    assert lines(shown) == [
        *[worked.format("first")] * 2,
        *[worked.format("second")] * 2,
        known.format("each style (rows) v each style (columns)"),
        known.format("each style v optimal"),
        "Fairy Meat · X (Live 2, Kill 2) v Y (Live 2, Kill 2), one round · payoff damage - defender points · "
        f"optimal each attack, hands known · draft rules · Monte Carlo ({shown.namespace['rs'].net['X'].n} "
        "random deals per attack, each solved exactly, 95% intervals)",
    ]
    other = run_cells(
        "fairy_meat_strategy.ipynb",
        {**params, "nasty_hit_weight": "2", "damage": "table"},
        "rs = round_study(",
        monkeypatch=monkeypatch,
    )
    assert lines(other)[0].startswith(
        "Fairy Meat · X (Live 2, Kill 2) v Y (Live 2, Kill 2), one round · "
        "payoff damage - defender points + 2×Nasty Hits · optimal each attack, hands known · "
        "Damage from points: table · "
    ), lines(other)


def test_the_hidden_hand_tables_state_the_games_and_the_iterations(monkeypatch):
    params = {"hidden_sizes": [[1, 1], [2, 1]], "hidden_iterations": 30, "hidden_target": 0.5}
    shown = run_cells("fairy_meat_strategy.ipynb", params, "hidden = {(a, d): solve_hidden(", monkeypatch=monkeypatch)
    hb = shown.namespace["hb"]
    assert lines(shown) == [
        "Fairy Meat · 2 v 1 cards, hidden hands · payoff damage - defender points · "
        f"each style or optimal v optimal or exploiting · draft rules · solved by CFR+ ({hb.iterations:,} iterations)"
    ]
    other = run_cells(
        "fairy_meat_strategy.ipynb",
        {**params, "hidden_sizes": [[1, 1]]},
        "hidden = {(a, d): solve_hidden(",
        'table(pd.DataFrame(rows), caption="Hidden-hand equilibria',
        monkeypatch=monkeypatch,
    )
    most = max(h.iterations for h in other.namespace["hidden"].values())
    assert lines(other)[1] == (
        "Fairy Meat · 1 v 1 cards, hidden hands · payoff damage - defender points · optimal v optimal · "
        f"draft rules · solved by CFR+ ({most:,} iterations)"
    )
