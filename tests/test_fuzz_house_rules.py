"""Fuzzing the house-rules reader (issue 13 item 6, issue 11): any YAML a designer may write
as a house-rules file gives rules or one clear error naming the file and line — never a
traceback, never a value silently ignored."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit import systems
from toolkit.errors import InvalidSetupError
from toolkit.house_rules import RulesFile, rules_class

FUZZ = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=60),
    st.sampled_from(["9", "10", "J", "Q", "K", "A", "S", "H", "D", "C", "AS", "halved", "table", "lowest", "x"]),
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["attack", "1-4", "9+", "defence"]), inner, max_size=4),
    ),
    max_leaves=10,
)


def _fields(system: str) -> st.SearchStrategy[dict]:
    names = [*rules_class(system).field_names(), "notes", "title", "no_such_field"]
    return st.dictionaries(st.sampled_from(names), VALUES, max_size=4)


@FUZZ
@given(system=st.sampled_from(systems.names()), data=st.data())
def test_any_house_rules_file_reads_or_fails_with_one_clear_error(system, data):
    import yaml

    fields = data.draw(_fields(system))
    text = yaml.safe_dump({"system": system, **fields}, allow_unicode=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            read = RulesFile.read(path)
        except InvalidSetupError as exc:
            message = str(exc)
            assert message.startswith(str(path)) and "Traceback" not in message, message
            return
    rules = read.rules
    assert type(rules) is rules_class(system)
    hash(rules)  # rules are cache keys: every field hashable
    for name in fields:
        if name not in ("notes", "title"):
            assert name in rules.field_names()  # an unknown field is never ignored
    # what it read, it writes back the same
    assert rules_class(system).from_mapping(rules.to_mapping()) == rules
