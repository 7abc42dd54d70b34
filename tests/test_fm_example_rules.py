"""An example file carries every variant of the Fairy Meat rules in force (FM-2
``wrestling_hand``, FM-5 ``none_means`` and ``none_reveal``, FM-7, FM-10, FM-12): exported
and read back, the combat replays under the same rules, not the defaults."""

from __future__ import annotations

import pytest

from toolkit.fairy_meat import Fairy, Rules, load_example, start_combat, to_example


@pytest.mark.parametrize(
    "rules",
    [
        Rules(none_means="no_face_down"),
        Rules(wrestling_hand="kill_only", damage="table"),
        Rules(none_reveal="subset", undefended="unopposed", nasty_hit="loser"),
    ],
)
def test_an_exported_example_keeps_its_rules(rules):
    state = start_combat(Fairy("Dizzytwig", 3, 4), Fairy("Sparklespaz", 2, 1), rules, deck="KS QC 5C 4C 3D 2D KC")
    example = load_example(to_example(state, "variants"))
    assert example.start.rules == rules


def test_a_rules_block_names_the_accepted_variants():
    text = to_example(start_combat(Fairy("A", 3, 4), Fairy("B", 2, 1)), "t").replace(
        "system: fairy-meat", "system: fairy-meat\nrules: {none_means: sometimes}"
    )
    with pytest.raises(Exception, match="none_means"):
        load_example(text)
