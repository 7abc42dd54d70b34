"""Every number a report parameter takes is bounded before the run: each numeric parameter of
every report declares its range at the end of its help comment (``[1 to 15]``), and a value
outside it (an 11-character exponent, NaN, infinity, a huge whole number, a million dice)
is refused in one line naming the parameter and the range, at once, with nothing written.
``-p damage_weight 1e999999999`` used to hang the kernel (``Fraction`` of it computes ten to
the billionth power)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.reports.parameters import ParameterSpec, parse_cli_value, validate_parameters
from toolkit.reports.runner import discover_reports, notebook_parameters


def _numeric():
    """Every parameter of every report that holds a number: a number, a list of numbers or
    a number written as text (a payoff weight such as ``"1/2"``)."""
    for report, path in discover_reports().items():
        for spec in notebook_parameters(path).values():
            default = spec.default_value()
            flat = str(default).replace("[", " ").replace("]", " ").replace(",", " ").split()
            numbers = spec.type_name in ("int", "float") or (
                spec.type_name in ("list", "str") and flat and all(x.lstrip("-").isdigit() for x in flat)
            )
            if numbers:
                yield pytest.param(path, spec, id=f"{report}-{spec.name}")


NUMERIC = list(_numeric())


def test_the_reports_have_numeric_parameters_of_every_kind():
    kinds = {p.values[1].type_name for p in NUMERIC}
    assert kinds == {"int", "float", "list", "str"} and len(NUMERIC) > 30


@pytest.mark.parametrize(("path", "spec"), NUMERIC)
def test_every_numeric_parameter_declares_a_range_that_holds_its_default(path, spec):
    assert spec.bounds is not None, f"{spec.name} declares no range: end its help comment with [LOW to HIGH]"
    assert spec.problem(spec.default_value()) is None
    validate_parameters(path, {spec.name: spec.default_value()})


def _edges(spec: ParameterSpec):
    """The range's ends (accepted) and the values just outside (refused), as the parameter's type."""
    low, high = (Fraction(b) for b in spec.bounds)
    step = Fraction(1) if spec.type_name in ("int", "list") else Fraction(1, 10**7)
    inside, outside = [low, high], [low - step, high + step]

    def typed(x: Fraction):
        if spec.type_name == "str":
            return str(x)
        if spec.type_name == "float":
            return float(x)
        n, default = int(x), spec.default_value()
        if spec.type_name == "int":
            return n
        return [[n] * len(default[0])] if isinstance(default[0], list) else [n] * len(default)

    return [typed(x) for x in inside], [typed(x) for x in outside]


@pytest.mark.parametrize(("path", "spec"), NUMERIC)
def test_the_range_ends_are_accepted_and_one_step_beyond_is_refused_naming_the_range(path, spec):
    inside, outside = _edges(spec)
    for value in inside:
        validate_parameters(path, {spec.name: value})
    words = f"from {spec.bounds[0]} to {spec.bounds[1]}"
    for value in outside:
        with pytest.raises(InvalidSetupError, match=rf"^parameter '{spec.name}' of .*{words}") as info:
            validate_parameters(path, {spec.name: value})
        assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("report", "name", "text"),
    [
        ("fairy-meat-strategy", "damage_weight", "1e999999999"),
        ("fairy-meat-strategy", "nasty_hit_weight", "1/0"),
        ("fairy-meat-strategy", "hidden_target", "1e-999999999"),
        ("fairy-meat-strategy", "hidden_target", ".nan"),
        ("fairy-meat-strategy", "hidden_time_limit", ".inf"),
        ("fairy-meat-strategy", "seed", "1" + "0" * 40),
        ("fairy-meat-strategy", "hidden_sizes", "[[1, 1], [2, 100000]]"),
        ("angry-miniatures", "max_dice", "100000"),
        ("angry-miniatures", "max_dice", "1e999999999"),
        ("durak-battle", "trials", "1000000000"),
        ("fairy-meat", "attacker_kill", "[2, .inf]"),
    ],
)
def test_the_hostile_numbers_are_one_line_at_once(report, name, text, tmp_path, capsys):
    start = time.perf_counter()
    code = main(["report", report, "-p", name, text, "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert time.perf_counter() - start < 10
    assert code == 2 and err.count("\n") == 1 and f"parameter '{name}'" in err, err
    assert " from " in err and " to " in err, f"the range is not named: {err}"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("system", "sizes", "words"),
    [
        ("angry-miniatures", "{max_dice: 100000}", "'max_dice' takes numbers from 0 to 100, got 100000"),
        ("durak-battle", "{trials: 1000000000}", "'trials' takes numbers from 1 to 100000"),
        ("fairy-meat", "{attacker_cards: [2, 1000]}", "'attacker_cards' takes numbers from 0 to 100, got 1000"),
    ],
)
def test_the_rule_change_sizes_are_bounded(system, sizes, words):
    path = discover_reports()["rule-change"]
    with pytest.raises(InvalidSetupError, match=words):
        validate_parameters(path, {"system": system, "sizes": parse_cli_value(sizes)})


def test_the_range_is_read_from_the_end_of_the_help_only():
    assert ParameterSpec("n", "int", "3", "pools from 1 to n [1 to 15]").bounds == ("1", "15")
    assert ParameterSpec("x", "list", "[2, 2]", "fairy X's [Live, Kill] [0 to 12]").bounds == ("0", "12")
    assert ParameterSpec("t", "float", "0.5", "a share [0.000001 to 1]").bounds == ("0.000001", "1")
    assert ParameterSpec("n", "int", "3", "[1 to 15] then more words").bounds is None
    assert ParameterSpec("n", "int", "3", "pools from 1 to 15").bounds is None
    weight = ParameterSpec("w", "str", '"1"', "a weight [-1000 to 1000]")
    assert [weight.problem(v) is None for v in ("1/3", "-2.5", "1000", "-1000", "1000.01", "1e3", "1/0", "")] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
