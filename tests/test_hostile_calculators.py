"""Calculators under careless and extreme arguments (issue 13): each answers quickly
(closed forms) or refuses within a second with a TooBigError naming the size, the limit
and the alternative; wrong types are a TypeError naming the argument; no
RecursionError or MemoryError; huge fractions print."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from toolkit.angry_miniatures.odds import area_attack, crit_probability, hit_distribution, odds_table, opposed
from toolkit.angry_miniatures.repeated import attacks_to_take_out, expected_attacks_to_take_out, melee_exchange
from toolkit.angry_miniatures.rules import Character
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.prob import format_probability, fraction_text

ROOT = Path(__file__).resolve().parent.parent


def _quick(call, seconds: float = 1.0):
    start = time.perf_counter()
    result = call()
    assert time.perf_counter() - start < seconds
    return result


@pytest.mark.parametrize(
    "call",
    [
        lambda: hit_distribution(10**5),
        lambda: hit_distribution(10**18),
        lambda: crit_probability(10**6),
        lambda: opposed(10**6, 1),
        lambda: opposed(1000, 1000),
        lambda: area_attack(10**6, [1]),
        lambda: area_attack(40, [20, 20, 20]),
        lambda: attacks_to_take_out(4, 3, health=3, cap=10**6),
        lambda: attacks_to_take_out(100, 100, health=100, cap=100),
        lambda: expected_attacks_to_take_out(4, 3, health=10**6),
        lambda: expected_attacks_to_take_out(100, 100, health=200),
        lambda: melee_exchange(Character("A", melee=4, body=3, health=10**6), Character("B", melee=4, body=3)),
        lambda: melee_exchange(Character("A", melee=3, body=3, health=40), Character("B", melee=3, body=3, health=40)),
    ],
)
def test_too_big_is_refused_at_once_with_size_limit_and_alternative(call):
    start = time.perf_counter()
    with pytest.raises(TooBigError) as info:
        call()
    assert time.perf_counter() - start < 1
    message = str(info.value)
    alternatives = ("monte_carlo", "montecarlo", "Binomial", "opposed", "cap", "certain")
    assert "limit" in message and any(w in message for w in alternatives)


def test_closed_forms_answer_large_pools_quickly():
    d = _quick(lambda: hit_distribution(10_000))
    assert d.mean() == Fraction(2 * 10_000, 3)  # AM-1: 4 hit faces of 6
    small = hit_distribution(7)
    assert all(small[h] == Fraction(comb(7, h) * 2**h, 3**7) for h in range(8))
    n = 5_000
    assert _quick(lambda: crit_probability(n)) == 1 - Fraction(5**n + n * 5 ** (n - 1), 6**n)  # AM-7: 2+ Aces


def test_melee_exchange_with_large_health_has_no_recursion_error():
    a = Character("A", melee=3, body=3, health=20)
    b = Character("B", melee=3, body=3, health=20)
    d = _quick(lambda: melee_exchange(a, b), 5)
    assert sum(d[o] for o in d) == 1


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: opposed(1, 1, rules="x"), "rules"),
        (lambda: opposed("3", 1), "attack_dice"),
        (lambda: opposed(3, 2.0), "defence_dice"),
        (lambda: opposed(3, 2, 7), "attack_type"),
        (lambda: hit_distribution(None), "n"),
        (lambda: area_attack(3, 4.0), "defence_dice_list"),  # one pool as a whole number is one defender
        (lambda: attacks_to_take_out(3, 2, health="5"), "health"),
        (lambda: attacks_to_take_out(3, 2, health=5, cap=2.5), "cap"),
        (lambda: melee_exchange("a", "b"), "attacker"),
    ],
)
def test_wrong_types_are_type_errors_naming_the_argument(call, argument):
    with pytest.raises(TypeError, match=argument):
        call()


def test_odds_table_of_nothing_is_refused():
    with pytest.raises(InvalidSetupError):
        odds_table([], [])


def test_huge_fractions_print():
    d = hit_distribution(9100)
    p = d[4000]
    assert len(str(p.denominator).encode()) if p.denominator.bit_length() < 10_000 else True
    assert "digits" in fraction_text(p)
    assert "Distribution(" in repr(d) and "<table>" in d._repr_html_()
    assert format_probability(p).endswith("%")
    assert format_probability(p, max_fraction_chars=None).endswith("%")


def _refuses_in_a_second(code: str) -> None:
    """Run ``code`` in a fresh interpreter; it must end (raising what it checks) within a
    few seconds, imports included."""
    script = textwrap.dedent(code)
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=6,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("no answer in 6 s")
    assert done.returncode == 0, done.stderr[-500:]


def test_solve_attack_refuses_a_million_attacks_at_once():
    _refuses_in_a_second(
        """
        import time
        from toolkit.errors import TooBigError
        from toolkit.fairy_meat import solve_attack
        start = time.perf_counter()
        try:
            solve_attack("5C 4C 3D", "2D KC", attacks=10**6)
        except TooBigError:
            assert time.perf_counter() - start < 1
        else:
            raise SystemExit("accepted")
        """
    )


def test_clash_value_refuses_twelve_cards_each_at_once():
    _refuses_in_a_second(
        """
        import time
        from toolkit.errors import TooBigError
        from toolkit.durak_battle import clash_value
        a = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
        b = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
        start = time.perf_counter()
        try:
            clash_value(a, b)
        except TooBigError:
            assert time.perf_counter() - start < 1
        else:
            raise SystemExit("accepted")
        """
    )


def test_resolve_attack_wrong_types_are_type_errors():
    from toolkit.fairy_meat import resolve_attack

    with pytest.raises(TypeError, match="attacker"):
        resolve_attack("KS", 5)


def test_answer_attack_wrong_types_are_type_errors():
    from toolkit.durak_battle import answer_attack

    with pytest.raises(TypeError, match="attack"):
        answer_attack("7S", 5, "defence")


def test_start_battle_refuses_negative_max_rounds():
    from toolkit.durak_battle import Army, Leader, start_battle

    leader = Leader("L")
    with pytest.raises(InvalidSetupError, match="max_rounds"):
        start_battle(Army("N", 8, leader), Army("S", 8, leader), max_rounds=-1)


def test_fairy_refuses_absurd_kill_points():
    from toolkit.fairy_meat import Fairy

    with pytest.raises(InvalidSetupError, match="Kill"):
        Fairy("Grunk", 3, 10**20)
