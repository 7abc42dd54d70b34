"""The icepool evaluator of ``bench/bench_angry_miniatures.py`` and ``opposed`` agree exactly.

The evaluator is an independent implementation of AM-3, AM-4, AM-5 and AM-7 (it reads
both rolls face by face), so agreement on small pools is a correctness cross-check of
:func:`toolkit.angry_miniatures.odds.opposed`, not only of the benchmark.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

icepool = pytest.importorskip("icepool")

from toolkit.angry_miniatures.rules import Rules  # noqa: E402

BENCH_FILE = Path(__file__).resolve().parents[1] / "bench" / "bench_angry_miniatures.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_angry_miniatures", BENCH_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    sys.path.insert(0, str(BENCH_FILE.parent))  # the scripts share bench/_results.py
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)
        sys.path.remove(str(BENCH_FILE.parent))


def test_icepool_and_opposed_agree_on_small_pools(bench):
    ours = bench.our_table(4)
    theirs = bench.icepool_table(4)
    assert len(ours) == 4 * 4 * 2
    assert bench.differences(ours, theirs) == []


def test_agree_with_zero_tie_variant(bench):
    rules = Rules(zero_tie="super_tiebreak")  # AM-5 variant
    ours = bench.our_table(3, rules=rules)
    theirs = bench.icepool_table(3, zero_tie="super_tiebreak")
    assert bench.differences(ours, theirs) == []


def test_evaluator_matches_brute_force(bench):
    table = bench.icepool_table(3)
    for n in (1, 2, 3):
        for m in (1, 2):
            for attack_type in ("melee", "ranged"):
                assert table[n, m, attack_type] == bench.brute_force(n, m, attack_type)


def test_evaluator_gives_the_same_in_descending_order(bench):
    """icepool feeds faces in ascending order by default; the tie-break chain must also
    come out right when it is forced to see the Aces first."""

    class Descending(bench.OpposedEvaluator):
        def initial_state(self, order, *args, **kwargs):
            if order > 0:
                raise icepool.UnsupportedOrder("descending only")
            return super().initial_state(order, *args, **kwargs)

    die = bench.poker_die()
    for n in (1, 2, 3):
        for m in (1, 2, 3):
            forced = Descending().evaluate(die.pool(n), die.pool(m), melee=True)
            default = bench.OpposedEvaluator().evaluate(die.pool(n), die.pool(m), melee=True)
            assert bench.die_to_fractions(forced) == bench.die_to_fractions(default)
