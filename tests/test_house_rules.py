"""House-rules files (toolkit.house_rules): every system's Rules read from and written to
YAML, errors naming the file, line and field (issue 11). Every system's fields naming
their rulings and the round trip of its files are part of the systems' contract
(test_system_contract.py)."""

from __future__ import annotations

import pytest

from toolkit import systems
from toolkit.errors import InvalidSetupError
from toolkit.house_rules import RulesFile, load_rules, rules_class, rules_files

SYSTEMS = systems.names()


@pytest.mark.parametrize("system", SYSTEMS)
def test_shipped_files_read(system):
    for path in rules_files(system):
        read = RulesFile.read(path)
        assert system == read.rules.SYSTEM and read.notes.strip(), path
        assert read.rules.changes(), f"{path} changes nothing"
        assert load_rules(system, path.stem) == read.rules


def test_an_unknown_field_names_the_file_line_and_fields(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("system: durak-battle\nnotes: cheaper strikes\n\nstrike_costs: 1\n")
    with pytest.raises(InvalidSetupError) as caught:
        rules_class("durak-battle").from_yaml(path)
    message = str(caught.value)
    assert f"{path}:4: 'strike_costs' is not a field of the durak-battle rules" in message
    assert "jokers" in message  # the fields are listed


def test_a_bad_value_names_its_line_and_field(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("system: fairy-meat\nnotes: x\ndamage: halved\nnasty_hit: sometimes\n")
    with pytest.raises(
        InvalidSetupError,
        match=r"house.yaml:4: nasty_hit \(Nasty Hit goes to\) = 'sometimes' " r"is not a variant of FM-12",
    ):
        load_rules("fairy-meat", path)


def test_a_file_for_another_system_is_refused(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("system: fairy-meat\nnotes: x\n")
    with pytest.raises(InvalidSetupError, match=r"house.yaml:1: this file is for 'fairy-meat', not angry-miniatures"):
        load_rules("angry-miniatures", path)


def test_load_rules_sources():
    cls = rules_class("durak-battle")
    assert load_rules("durak-battle") == cls()
    assert load_rules("durak-battle", {"jokers": False}) == cls(jokers=False)
    assert load_rules("durak-battle", cls(jokers=False)) == cls(jokers=False)
    with pytest.raises(InvalidSetupError, match="not durak-battle rules"):
        load_rules("durak-battle", rules_class("fairy-meat")())
    with pytest.raises(InvalidSetupError, match="no house-rules file 'nowhere'"):
        load_rules("durak-battle", "nowhere")
    with pytest.raises(InvalidSetupError, match="unknown system"):
        load_rules("chess")
    with pytest.raises(InvalidSetupError, match="must be a house-rules file"):
        load_rules("durak-battle", 3)


def test_an_example_may_name_a_house_rules_file(tmp_path):
    notation = systems.notation("durak-battle")
    (tmp_path / "no_jokers.yaml").write_text("system: durak-battle\nnotes: no jokers\njokers: false\n")
    armies = (
        "armies:\n"
        "  - {name: North, tokens: 2, leader: {name: A, battle_die: d6, spirit_die: d6}}\n"
        "  - {name: South, tokens: 2, leader: {name: B, battle_die: d6, spirit_die: d6}}\n"
    )
    source = tmp_path / "ex.yaml"
    source.write_text("system: durak-battle\nrules: no_jokers.yaml\n" + armies)
    assert notation.load(source).start.rules == rules_class("durak-battle")(jokers=False)
    source.write_text("system: durak-battle\nrules: {jokers: false}\n" + armies)
    assert notation.load(source).start.rules == rules_class("durak-battle")(jokers=False)
    source.write_text("system: durak-battle\nrules: missing.yaml\n" + armies)
    with pytest.raises(Exception, match=r"ex.yaml:2: rules: no house-rules file 'missing.yaml'"):
        notation.load(source)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_fields_page_lists_every_field_as_the_code_declares_it(system):
    from pathlib import Path

    from toolkit.house_rules import fields_markdown

    page = (Path(__file__).resolve().parent.parent / "docs" / "house_rules.md").read_text(encoding="utf-8")
    section = page.split(f"<!-- fields: {system} -->\n", 1)[1].split("\n<!-- end -->", 1)[0]
    assert section == fields_markdown(system), f"docs/house_rules.md: regenerate the {system} table"


# -- control characters (issue 20 item 8): a title reaches terminals, pickers and reports -----
def test_a_house_rules_title_or_notes_with_a_terminal_escape_is_refused_at_its_line(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text('system: angry-miniatures\ntitle: "Tens\\e]0;owned\\a"\nnotes: "x\\e[2J"\nzero_tie: miss\n')
    with pytest.raises(InvalidSetupError) as info:
        RulesFile.read(path)
    assert str(info.value).splitlines() == [
        f"{path}:2: title holds 'Tens\\x1b]0;owned\\x07': control characters ('\\x1b') are not accepted "
        "(newlines and tabs only in notes)",
        f"{path}:3: notes holds 'x\\x1b[2J': control characters ('\\x1b') are not accepted",
    ]
    with pytest.raises(InvalidSetupError, match=r"house.yaml:2: title holds"):  # every reader: load_rules too
        load_rules("angry-miniatures", str(path))


def test_house_rules_notes_keep_their_newlines_and_tabs(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text('system: angry-miniatures\ntitle: Tens\nnotes: "one\\ttwo\\nthree"\nzero_tie: miss\n')
    assert RulesFile.read(path).notes == "one\ttwo\nthree"
    path.write_text('system: angry-miniatures\ntitle: "Tens\\nhit"\nnotes: n\n')
    with pytest.raises(InvalidSetupError, match=r"house.yaml:2: title holds 'Tens\\nhit': control characters"):
        RulesFile.read(path)  # a title is one line


# -- the Fairy Meat damage table given in Python, and its size (issue 20 item 8) --------------
def test_fairy_meat_damage_table_is_accepted_as_a_mapping_as_the_yaml_form_gives_it():
    from toolkit.fairy_meat.referee import table_damage
    from toolkit.fairy_meat.rules import Rules

    given = Rules(damage_table={"1-4": 1, "5-8": 2, "9+": 3})
    assert given == Rules.from_mapping({"damage_table": {"1-4": 1, "5-8": 2, "9+": 3}})
    assert given.damage == "table" and given.damage_table == (("1-4", 1), ("5-8", 2), ("9+", 3))
    assert [table_damage(d, given.table) for d in (0, 1, 4, 5, 8, 9, 40)] == [0, 1, 1, 2, 2, 3, 3]  # FM-10 by hand
    assert Rules(damage_table=[["1-2", 0], ["3+", 1]]).damage_table == (("1-2", 0), ("3+", 1))  # pairs, too
    assert hash(given) == hash(Rules(damage_table=(("1-4", 1), ("5-8", 2), ("9+", 3))))  # still a frozen value
    with pytest.raises(InvalidSetupError) as info:
        Rules(damage_table="1-4: 1")
    assert str(info.value) == (
        "damage_table (Damage table) = '1-4: 1' is not valid (FM-10): give a mapping of differences to damage, "
        "e.g. {'1-4': 1, '5-8': 2, '9+': 3} (or (range, damage) pairs): ranges from 1, no gap, last one open"
    )


def test_fairy_meat_damage_table_is_bounded(tmp_path):
    import time

    from toolkit.fairy_meat.rules import MAX_DAMAGE_TABLE_ROWS, Rules

    assert MAX_DAMAGE_TABLE_ROWS == 100
    table = {str(d): d % 3 for d in range(1, 100)} | {"100+": 4}  # 100 rows: the most
    assert len(Rules(damage_table=table).damage_table) == 100
    huge = {str(d): 1 for d in range(1, 150_000)} | {"150000+": 2}
    start = time.perf_counter()
    with pytest.raises(InvalidSetupError) as info:
        Rules(damage_table=huge)
    assert time.perf_counter() - start < 1
    assert str(info.value) == (
        "damage_table (Damage table) has 150,000 rows (FM-10): at most 100; make the last range open ('9+') "
        "instead of listing every difference"
    )
    path = tmp_path / "long.yaml"
    rows = "".join(f"  {d}: 1\n" for d in range(1, 101)) + "  101+: 2\n"
    path.write_text(f"system: fairy-meat\nnotes: n\ndamage_table:\n{rows}")
    with pytest.raises(
        InvalidSetupError, match=r"long.yaml:[34]: damage_table \(Damage table\) has 101 rows \(FM-10\): at most 100"
    ):
        RulesFile.read(path)
