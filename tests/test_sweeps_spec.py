"""Sweep files (issue 14): validation before anything runs, the grid, the point keys,
the calculators' rows — no Dask here (see test_sweeps_run.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.errors import ArgumentTypeError, InvalidSetupError, NotationError, TooBigError
from toolkit.fairy_meat.rules import Rules as FairyRules
from toolkit.sweeps import CALCULATORS, calculator, fingerprint, load_sweep
from toolkit.sweeps.calculators import Row
from toolkit.sweeps.spec import point_key
from toolkit.sweeps.store import PointStore, encode_chunk, write_atomic

SHIPPED = sorted((Path(__file__).resolve().parent.parent / "data" / "sweeps").glob("*.yaml"))


def sweep_text(body: str, system: str = "angry-miniatures", calc: str = "opposed") -> str:
    return f"system: {system}\ncalculator: {calc}\n{body}"


# -- the shipped files -----------------------------------------------------------------------
def test_one_shipped_sweep_per_system() -> None:
    systems = {load_sweep(path).system for path in SHIPPED}
    assert systems == {"angry-miniatures", "fairy-meat", "durak-battle"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_sweeps_are_valid(path: Path) -> None:
    sweep = load_sweep(path)
    assert sweep.size > 1 and sweep.swept
    assert len({p.key for p in sweep.points}) == sweep.size


# -- the grid ----------------------------------------------------------------------------------
def test_grid_is_the_product_of_ranges_lists_and_rules_fields() -> None:
    sweep = load_sweep(
        sweep_text(
            "grid:\n  attack_dice: {from: 1, to: 6, step: 2}\n  defence_dice: [1, 2]\n"
            "  rules:\n    tie_break: [chain, coin_flip]\nfixed:\n  attack_type: ranged\n"
        )
    )
    assert sweep.size == 3 * 2 * 2
    assert sweep.swept == ("attack_dice", "defence_dice", "rules.tie_break")
    first = dict(sweep.points[0].columns)
    assert first == {
        "attack_dice": 1,
        "defence_dice": 1,
        "attack_type": "ranged",
        "rules": "default rules",
        "rules.tie_break": "chain",
    }
    assert {dict(p.columns)["attack_dice"] for p in sweep.points} == {1, 3, 5}
    assert {p.rules.tie_break for p in sweep.points} == {"chain", "coin_flip"}


def test_a_repeated_value_is_one_point() -> None:
    sweep = load_sweep(sweep_text("grid:\n  attack_dice: [2, 2, 3]\n  defence_dice: [1]\n"))
    assert sweep.size == 2


def test_point_keys_name_every_input_and_the_version() -> None:
    rules = calculator("angry-miniatures", "opposed")
    from toolkit.angry_miniatures import Rules

    args = {"attack_dice": 2, "defence_dice": 1, "attack_type": "melee"}
    key = point_key("angry-miniatures", rules.name, args, Rules(), "0.1.0")
    assert key == point_key("angry-miniatures", rules.name, dict(args), Rules(), "0.1.0")
    assert key != point_key("angry-miniatures", rules.name, {**args, "defence_dice": 2}, Rules(), "0.1.0")
    assert key != point_key("angry-miniatures", rules.name, args, Rules(tie_break="coin_flip"), "0.1.0")
    assert key != point_key("angry-miniatures", rules.name, args, Rules(), "0.2.0")
    assert key != point_key("angry-miniatures", "odds_table", args, Rules(), "0.1.0")


# -- validation: every problem before anything runs, at its line -------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [1]\ncolour: red\n"),
            ":6: unknown key 'colour'; keys are calculator, chunk, fixed, grid, notes",
        ),
        (sweep_text("grid: {}\n", calc="oposed"), "'oposed' is not a calculator of angry-miniatures; its "),
        ("system: chess\ncalculator: opposed\n", "system 'chess' is not known; the systems are angry-miniatures"),
        (
            sweep_text("grid:\n  attack_dice: [1]\n  defender_dice: [1]\n"),
            ":5: 'defender_dice' is not an argument of opposed; its arguments are attack_dice, defence_dice",
        ),
        (
            sweep_text("grid:\n  attack_dice: [1, two]\n  defence_dice: [1]\n"),
            ":4: attack_dice must be a whole number from 0 to 200, got 'two'",
        ),
        (sweep_text("grid:\n  attack_dice: [1]\n"), "opposed needs defence_dice: give them in grid or fixed"),
        (
            sweep_text("grid:\n  attack_dice: 3\n  defence_dice: [1]\n"),
            ":4: attack_dice: give a list of values or a range {from: 1, to: 12}, got 3",
        ),
        (
            sweep_text("grid:\n  attack_dice: {from: 5, to: 1}\n  defence_dice: [1]\n"),
            "'to' must not be below 'from'",
        ),
        (
            sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  attack_type: [melee, psychic]\n"),
            ":6: attack_type must be one of melee, ranged, magic, got 'psychic'",
        ),
        (
            sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules:\n    tie_brake: [chain]\n"),
            ":7: 'tie_brake' is not a field of the angry-miniatures rules; the fields are die_faces",
        ),
        (
            sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules:\n    tie_break: [chain, dice_off]\n"),
            "tie_break",
        ),
        (
            sweep_text("grid:\n  attack_dice: [1]\nfixed:\n  attack_dice: 2\n  defence_dice: 1\n"),
            "attack_dice is both in the grid and fixed",
        ),
    ],
)
def test_bad_sweep_files_say_what_is_accepted(text: str, expected: str) -> None:
    with pytest.raises(InvalidSetupError) as info:
        load_sweep(text)
    assert expected in str(info.value)
    assert "Traceback" not in str(info.value)


def test_a_rules_axis_for_a_calculator_without_rules_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shipped calculator takes the rules; one of a plug-in system may not."""
    from dataclasses import replace

    from toolkit.sweeps import calculators

    calculator("fairy-meat", "hand_composition")  # built
    plain = replace(calculator("fairy-meat", "hand_composition"), takes_rules=False)
    monkeypatch.setitem(calculators._BUILT["fairy-meat"], "hand_composition", plain)
    text = sweep_text("grid:\n  cards: [1]\n  rules:\n    damage: [table]\n", "fairy-meat", "hand_composition")
    with pytest.raises(InvalidSetupError, match="hand_composition takes no rules: remove rules"):
        load_sweep(text)


def test_a_wrong_type_is_an_argument_type_error() -> None:
    param = calculator("fairy-meat", "deal_averaged_odds").param("policies")
    with pytest.raises(ArgumentTypeError, match="a policy \\(random, greedy\\) or a pair"):
        param.check(["greedy", "random", "greedy"])
    assert param.check("random") == ("random", "random")


def test_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [x]\n"))
    with pytest.raises(InvalidSetupError, match=f"^{path}:5: defence_dice must be a whole number"):
        load_sweep(path)
    with pytest.raises(NotationError, match="is not a file"):
        load_sweep(tmp_path / "missing.yaml")


def test_a_grid_too_big_for_its_calculator_says_its_size() -> None:
    text = sweep_text(
        "grid:\n  attacker_cards: {from: 1, to: 30}\n  defender_cards: {from: 0, to: 30}\n"
        "  trials: {from: 1, to: 40}\n",
        "fairy-meat",
        "deal_averaged_odds",
    )
    with pytest.raises(TooBigError, match=r"the grid has 37,200 points \(30 attacker_cards x 31 defender_cards x 40 "):
        load_sweep(text)


def test_points_above_the_calculators_exact_limit_are_refused_before_running() -> None:
    text = sweep_text("grid:\n  attack_dice: [100, 150]\n  defence_dice: [40, 60]\n")
    with pytest.raises(
        TooBigError,
        match=r"1 of the 4 points are too big for opposed exactly \(e.g. size 210 above the limit of 200\): "
        r"attack_dice=150, defence_dice=60",
    ):
        load_sweep(text)


def test_rules_fields_any_helper_adds_are_sweepable() -> None:
    """The rules axis goes through load_rules: every field of the system's Rules is accepted."""
    import json

    from toolkit.durak_battle import Rules

    defaults = Rules().to_mapping(changed_only=False)  # each field as YAML (JSON) writes it
    for field in Rules.field_names():
        sweep = load_sweep(
            sweep_text(
                f"grid:\n  cards_a: [1]\n  cards_b: [1]\n  rules:\n    {field}: [{json.dumps(defaults[field])}]\n",
                "durak-battle",
                "clash_losses",
            )
        )
        assert sweep.size == 1


# -- the calculators' rows, against hand arithmetic --------------------------------------------
def test_every_system_has_its_public_calculators() -> None:
    names = {key for key in CALCULATORS}
    assert {
        ("angry-miniatures", "opposed"),
        ("angry-miniatures", "odds_table"),
        ("angry-miniatures", "attacks_to_take_out"),
        ("fairy-meat", "hand_composition"),
        ("fairy-meat", "attack_odds"),
        ("fairy-meat", "deal_averaged_odds"),
        ("fairy-meat", "solve_attack"),
        ("fairy-meat", "solve_hidden"),
        ("durak-battle", "clash_value"),
        ("durak-battle", "clash_losses"),
        ("durak-battle", "battle_outcome"),
    } <= names


def test_opposed_rows_one_die_against_none() -> None:
    """AM-1: 4 hit faces (J Q K A) of 6; no defence dice, so one hit is one damage (AM-3)."""
    calc = calculator("angry-miniatures", "opposed")
    rows = {r.outcome: r for r in calc.rows(calc.call({"attack_dice": 1, "defence_dice": 0}, None))}
    # the labels name the outcome's fields, as Python does (AttackOutcome)
    one, none = (f"defender_damage={d}, attacker_damage=0, attacker_crit=False, defender_crit=False" for d in (1, 0))
    assert rows[one].exact == Fraction(4, 6)
    assert rows[none].exact == Fraction(2, 6)
    assert all(r.kind == "probability" and r.is_exact for r in rows.values())


def test_hand_composition_rows_one_card() -> None:
    """FM-1: 36 Numbered cards, 8 red and 8 black Trumps (the A♠ one of them) in 52."""
    calc = calculator("fairy-meat", "hand_composition")
    rows = {r.outcome: r.exact for r in calc.rows(calc.call({"cards": 1}, None))}
    assert rows["numbered=1, red_trumps=0, black_trumps=0, ace_of_spades=False, jokers=0"] == Fraction(36, 52)
    assert rows["numbered=0, red_trumps=1, black_trumps=0, ace_of_spades=False, jokers=0"] == Fraction(8, 52)
    assert rows["numbered=0, red_trumps=0, black_trumps=1, ace_of_spades=True, jokers=0"] == Fraction(1, 52)


def test_hand_composition_rows_follow_the_rules_deck() -> None:
    """FM-1 with two jokers: 54 cards, one card a joker 2 times in 54 (the draft's deck: never)."""
    from toolkit.fairy_meat import Rules

    calc = calculator("fairy-meat", "hand_composition")
    rows = {r.outcome: r.exact for r in calc.rows(calc.call({"cards": 1}, Rules(jokers=2)))}
    assert rows["numbered=0, red_trumps=0, black_trumps=0, ace_of_spades=False, jokers=1"] == Fraction(2, 54)
    assert rows["numbered=1, red_trumps=0, black_trumps=0, ace_of_spades=False, jokers=0"] == Fraction(36, 54)


def test_clash_value_rows_are_exact_values() -> None:
    """The docstring's worked clash (DB-4): b attacks with 10S, a manoeuvres with QD; a's 7S beats 4H."""
    calc = calculator("durak-battle", "clash_value")
    rows = {r.outcome: r for r in calc.rows(calc.call({"hand_a": "7S 9H QD", "hand_b": "10S 4H"}, None))}
    assert (rows["lost_a"].exact, rows["lost_b"].exact, rows["value"].exact) == (1, 3, 2)
    assert rows["value"].kind == "value"


# -- the store -------------------------------------------------------------------------------
def test_store_skips_unreadable_files_and_writes_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = PointStore(tmp_path)
    row = Row("hit", "probability", Fraction(2, 3), 2 / 3, True)
    store.save(encode_chunk([("a", [row], 0.1)]), ["a"])
    (tmp_path / ".points" / "broken.parquet").write_bytes(b"PAR1 half a file")
    assert store.done() == {"a"}
    rows = store.rows()
    assert rows[["key", "outcome", "numerator", "denominator"]].values.tolist() == [["a", "hit", "2", "3"]]

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("toolkit.sweeps.store.os.replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "table.parquet", b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".points"]


# -- progress ----------------------------------------------------------------------------------
def test_terminal_progress_shows_done_total_rate_and_time_left() -> None:
    import io

    from toolkit.sweeps.progress import TerminalProgress

    stream = io.StringIO()
    progress = TerminalProgress(stream, every=0.0)
    progress.start(10, 2, "http://127.0.0.1:8787/status", 2)
    progress.started -= 2.0  # two seconds ago
    progress.update(4, 1)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "sweep: 10 points, 2 already done; 2 workers"
    assert lines[1] == "dashboard: http://127.0.0.1:8787/status"
    assert lines[-1].startswith("6/10 points (60%), 2.0 points/s, about 2 s left, 1 failed")


def test_notebook_progress_is_a_widget() -> None:
    pytest.importorskip("ipywidgets")
    from toolkit.sweeps.progress import WidgetProgress, make_progress

    progress = make_progress("widget")
    assert isinstance(progress, WidgetProgress)
    progress.start(4, 0, "http://host/<status>", 1)
    progress.update(3, 0)
    assert (progress.bar.value, progress.bar.max) == (3, 4)
    assert "3/4 points (75%)" in progress.label.value and "&lt;status&gt;" in progress.label.value
    progress.close()
    assert progress.bar.bar_style == "success"


def test_rules_files_are_an_axis_with_the_fields_on_top(tmp_path: Path) -> None:
    (tmp_path / "coin.yaml").write_text(
        "system: angry-miniatures\nnotes: Ties by a coin.\ntie_break: coin_flip\n", encoding="utf-8"
    )
    path = tmp_path / "sweep.yaml"
    path.write_text(
        sweep_text(
            "grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules_files: [default, coin.yaml]\n"
            "  rules:\n    zero_tie: [miss, super_tiebreak]\n"
        )
    )
    sweep = load_sweep(path)
    assert sweep.swept == ("rules_file", "rules.zero_tie")
    got = {(dict(p.columns)["rules_file"], p.rules.tie_break, p.rules.zero_tie) for p in sweep.points}
    assert got == {
        ("default", "chain", "miss"),
        ("default", "chain", "super_tiebreak"),
        ("coin", "coin_flip", "miss"),
        ("coin", "coin_flip", "super_tiebreak"),
    }
    path.write_text(sweep_text("grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules_files: [nowhere.yaml]\n"))
    with pytest.raises(InvalidSetupError, match=r":6: rules_files: no house-rules file 'nowhere.yaml'"):
        load_sweep(path)


def test_solver_rows_keep_exact_values_exact_and_floats_as_floats() -> None:
    known = calculator("fairy-meat", "solve_attack")
    rows = {r.outcome: r for r in known.rows(known.call({"attacker_hand": "5H", "defender_hand": "3D"}, None))}
    # FM-9/FM-10 by hand: 5 against 3 with no Trumps wins by 2 — 1 point, 1 damage; no choice on either side.
    assert rows["value"].exact == rows["lower"].exact == rows["upper"].exact == 1
    assert rows["exploitability"].exact == 0 and rows["value"].is_exact
    hidden = calculator("fairy-meat", "solve_hidden")
    rows = {r.outcome: r for r in hidden.rows(hidden.call({"attacker_cards": 1, "defender_cards": 1}, None))}
    assert rows["value"].exact is None and not rows["value"].is_exact
    assert rows["lower"].value - 1e-9 <= rows["value"].value <= rows["upper"].value + 1e-9
    assert rows["exploitability"].value == pytest.approx(rows["upper"].value - rows["lower"].value)


def test_table_from_stored_chunks_in_grid_order_without_duplicates_or_strangers() -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from toolkit.sweeps.store import sweep_table

    sweep = load_sweep("system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: [2, 1]\n")
    calc = sweep.calculator

    def chunk(points: list, keys: list[str]) -> object:
        done = [(k, calc.rows(calc.call(p.arguments(), None)), 0.5) for p, k in zip(points, keys, strict=True)]
        return pq.read_table(pa.BufferReader(encode_chunk(done)))

    first, second = sweep.points
    stored = [chunk([second], [second.key]), chunk([first, second], [first.key, second.key]), chunk([first], ["x"])]
    table = sweep_table(sweep, stored)
    assert table["point"].tolist() == sorted(table["point"].tolist())
    assert table.groupby("point")["cards"].first().tolist() == [2, 1]
    assert len(table) == len(calc.rows(calc.call({"cards": 2}, None))) + len(calc.rows(calc.call({"cards": 1}, None)))
    # FM-1 by hand: two cards are both Numbered with probability C(36, 2) / C(52, 2) = 630 / 1326.
    both = table[(table["cards"] == 2) & (table["outcome"].str.startswith("numbered=2,"))]
    assert (both["numerator"].tolist(), both["denominator"].tolist()) == (["105"], ["221"])


# -- bounded before anything is built (issue 20) -----------------------------------------------
def timed_refusal(text: str, kind: type[Exception]) -> str:
    """The one-line message ``load_sweep(text)`` refuses with, before anything is built
    (within 10 s even on a loaded machine: building the refused grid would take minutes)."""
    import time

    started = time.perf_counter()
    with pytest.raises(kind) as info:
        load_sweep(text)
    assert time.perf_counter() - started < 10.0
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_huge_grid_is_refused_from_its_axes_lengths_rules_included() -> None:
    # 2,000,001 values on each of three axes: 8.0e18 points, never built.
    message = timed_refusal(
        sweep_text(
            "grid:\n  attack_dice: {from: -1000000, to: 1000000}\n  defence_dice: {from: -1000000, to: 1000000}\n"
            "  rules:\n    crit_count: {from: -1000000, to: 1000000}\n"
        ),
        TooBigError,
    )
    assert message == (
        "<sweep>: the grid has 8,000,012,000,006,000,001 points (2,000,001 attack_dice x 2,000,001 defence_dice"
        " x 2,000,001 rules.crit_count); a sweep of opposed runs at most 2,000,000: narrow the ranges or split"
        " the sweep into several files"
    )
    # A rules axis alone makes a grid too big: 10 x 10 x 2 files x 101 values = 20,200 > 20,000.
    message = timed_refusal(
        sweep_text(
            "grid:\n  attacker_cards: {from: 1, to: 10}\n  defender_cards: {from: 1, to: 10}\n"
            "  rules_files: [default, default]\n  rules:\n    jokers: {from: 0, to: 100}\n",
            "fairy-meat",
            "deal_averaged_odds",
        ),
        TooBigError,
    )
    assert "the grid has 20,200 points (10 attacker_cards x 10 defender_cards x 2 rules_files x 101 rules.jokers)" in (
        message
    )


def test_a_range_of_bad_values_is_one_line() -> None:
    # 0..200 dice accepted: of 201..1,000,000, every one of the 999,800 values is refused.
    message = timed_refusal(
        sweep_text("grid:\n  attack_dice: {from: 201, to: 1000000}\n  defence_dice: [1]\n"), InvalidSetupError
    )
    assert message == (
        "<sweep>:4: attack_dice must be a whole number from 0 to 200, got 201 (and 999,799 more of the range's "
        "999,800 values)"
    )
    # -5..205 step 5: -5 and 205 are out (43 values, 2 refused), the first one said.
    message = timed_refusal(
        sweep_text("grid:\n  attack_dice: {from: -5, to: 205, step: 5}\n  defence_dice: [1]\n"), InvalidSetupError
    )
    assert message.endswith("got -5 (and 1 more of the range's 43 values)")
    # A list: the first bad value at its line, and how many more.
    message = timed_refusal(
        sweep_text("grid:\n  attack_dice: [1, x, 2, y, z]\n  defence_dice: [1]\n"), InvalidSetupError
    )
    assert (
        message
        == "<sweep>:4: attack_dice must be a whole number from 0 to 200, got 'x' (and 2 more bad values of attack_dice)"
    )


def test_a_rules_range_of_bad_values_is_one_line() -> None:
    # crit_count is 1..20 (AM-7): a million values below 1, checked until 1,000 are refused.
    message = timed_refusal(
        sweep_text(
            "grid:\n  attack_dice: [1]\n  defence_dice: [1]\n  rules:\n    crit_count: {from: -1000000, to: -1}\n"
        ),
        InvalidSetupError,
    )
    assert message.startswith("<sweep>:7: rules: crit_count (Dice showing a crit face to crit) = -1000000: ")
    assert message.endswith("(and at least 999 more rules variants refused)")


def test_the_exact_size_check_uses_each_points_rules() -> None:
    """FM 10 v 6 exactly: 785,964 weighed items with the standard deck; with two Jokers
    4,083,984 (the counting model holds for every rule set: exact_size and the limit under
    each point's rules), above the limit of 3,000,000: refused before running."""
    text = sweep_text(
        "grid:\n  attacker_cards: [10]\n  defender_cards: [6]\n  rules:\n    jokers: [0, 2]\nfixed:\n  method: exact\n",
        "fairy-meat",
        "deal_averaged_odds",
    )
    with pytest.raises(TooBigError) as info:
        load_sweep(text)
    message = str(info.value)
    assert message.startswith(
        "<sweep>: 1 of the 2 points are too big for deal_averaged_odds exactly "
        "(e.g. size 4,083,984 above the limit of 3,000,000): "
    )
    assert "rules.jokers=2" in message and "rules.jokers=0" not in message
    assert load_sweep(text.replace("[0, 2]", "[0]")).size == 1


def test_a_calculator_measures_a_point_only_when_it_is_computed_exactly() -> None:
    """``Calculator.measure``: FM 10 v 6 exactly under two Jokers is 4,083,984 weighed
    items against the limit of 3,000,000 (as above); Monte Carlo, hand sizes the rules
    refuse and a calculator without a size give None."""
    deal = calculator("fairy-meat", "deal_averaged_odds")
    jokers = FairyRules(jokers=2)
    args = {"attacker_cards": 10, "defender_cards": 6, "policies": "greedy"}
    assert deal.measure({**args, "method": "exact"}, jokers) == (
        4_083_984,
        3_000_000,
        "method: auto or monte_carlo",
    )
    assert deal.measure({**args, "method": "monte_carlo"}, jokers) is None
    assert deal.measure({**args, "attacker_cards": 99, "method": "exact"}, jokers) is None  # not in a 54-card deck
    assert calculator("fairy-meat", "hand_composition").measure({"cards": 3}, None) is None


# -- defence_dice was defense_dice: files written before the rename ------------------------------
BEFORE_THE_RENAME = """\
system: angry-miniatures
calculator: opposed
grid:
  attack_dice: [1, 2]
  defense_dice: {from: 1, to: 3}
fixed: {attack_type: ranged}
"""


def test_a_sweep_file_with_the_old_name_defense_dice_loads_as_defence_dice() -> None:
    old = load_sweep(BEFORE_THE_RENAME)
    new = load_sweep(BEFORE_THE_RENAME.replace("defense_dice", "defence_dice"))
    assert old.swept == new.swept == ("attack_dice", "defence_dice")
    assert [p.arguments() for p in old.points] == [p.arguments() for p in new.points]
    assert [p.arguments()["defence_dice"] for p in old.points] == [1, 2, 3, 1, 2, 3]
    assert (old.identity, [p.key for p in old.points]) == (new.identity, [p.key for p in new.points])
    fixed = load_sweep(
        BEFORE_THE_RENAME.replace("  defense_dice: {from: 1, to: 3}\n", "").replace(
            "ranged}", "ranged, defense_dice: 2}"
        )
    )
    assert {p.arguments()["defence_dice"] for p in fixed.points} == {2}


def test_a_sweep_stored_before_the_rename_resumes(monkeypatch: pytest.MonkeyPatch) -> None:
    # The identity its table records and its points' keys (under a fixed code fingerprint), as
    # the toolkit computed them before the rename (commit dd2f464, the file above): the same,
    # so the stored table is its own (no refusal) and a rerun by the same code skips its points.
    monkeypatch.setattr(fingerprint, "code_fingerprint", lambda: "0" * 16)
    sweep = load_sweep(BEFORE_THE_RENAME.replace("defense_dice", "defence_dice"))
    assert sweep.identity == "90594001311aa5befb78cdaca38ab716"
    assert [p.key for p in sweep.points][:2] == ["38f764a43b7fc3ce56c1c2c58354914c", "64adaea4a8ac5c0a4b01dae5c73c09aa"]
    first = sweep.points[0]
    assert point_key("angry-miniatures", "opposed", first.arguments(), first.rules, "0" * 16) == first.key


def test_both_names_of_one_argument_are_refused() -> None:
    text = BEFORE_THE_RENAME.replace(
        "fixed: {attack_type: ranged}", "  defence_dice: [4]\nfixed: {attack_type: ranged}"
    )
    with pytest.raises(InvalidSetupError, match="defence_dice and defense_dice name one argument: give it once"):
        load_sweep(text)
