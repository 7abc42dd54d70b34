"""A rules field named in an error as the designer writes it in a file and by its label
(declared on ``rule_field(label=...)``): ``hit_faces (Hit faces): ...`` — in a value the
rules refuse, in a house-rules file (file, line and field), and on the command line."""

from __future__ import annotations

import pytest

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.house_rules import RuleFieldError, labelled_field_message, rules_class

#: (system, field, a value its rules refuse) — one of each kind of check per system.
REFUSED = [
    ("angry-miniatures", "hit_faces", ("Z",)),
    ("angry-miniatures", "crit_count", 0),
    ("angry-miniatures", "zero_tie", "sometimes"),
    ("fairy-meat", "nasty_hit", "sometimes"),
    ("fairy-meat", "damage_table", "1-4: 1"),
    ("fairy-meat", "death_card", "5S"),
    ("durak-battle", "strike_loss", 99),
    ("durak-battle", "counter_tie", "sometimes"),
]


@pytest.mark.parametrize(("system", "field", "value"), REFUSED)
def test_a_refused_value_names_the_key_and_its_label_once(system, field, value):
    cls = rules_class(system)
    label = cls.field_label(field)
    assert label and label != field  # every shipped field declares its label
    with pytest.raises(RuleFieldError) as info:
        cls(**{field: value})
    message = str(info.value)
    assert message.startswith(f"{field} ({label})") and info.value.field == field
    assert message.count(f"({label})") == 1 and message.count(field) == 1 + message.count(f"{field}=")


def test_the_message_keeps_what_was_said_after_the_name():
    assert labelled_field_message("x_y", "X", "x_y: too big") == "x_y (X): too big"
    assert labelled_field_message("x_y", "X", "x_y=3: too big") == "x_y (X) = 3: too big"
    assert labelled_field_message("x_y", "X", "x_y has 3 rows") == "x_y (X) has 3 rows"


def test_a_house_rules_file_names_file_line_key_and_label(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("system: angry-miniatures\ntitle: t\nnotes: n\nhit_faces: [Z]\n")
    with pytest.raises(InvalidSetupError) as info:
        rules_class("angry-miniatures").from_yaml(path)
    assert f"{path}:4: hit_faces (Hit faces): 'Z' is not a face" in str(info.value)


def test_the_command_line_names_the_key_and_its_label(tmp_path, capsys):
    path = tmp_path / "house.yaml"
    path.write_text("system: durak-battle\ntitle: t\nnotes: n\nstrike_loss: 99\n")
    code = main(["find-example", "durak-battle", "strike_no_answer", "--rules", str(path), "--budget", "1"])
    err = capsys.readouterr().err
    assert code != 0 and "strike_loss (Tokens lost to a strike) = 99" in err, err
