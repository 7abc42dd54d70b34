"""The hidden-hands build shares work between draw groups (FM-6 Wild Trump draws).

Double draws whose families leave both sides the same views, offsets and groups of draws
share one set of parts (and the pairwise sums read the class keys from one table by view).
The reference here recomputes every group alone, with nothing remembered from the other
groups, on the same judge (every class and difference already judged, so the outcome ids
are the same numbers): the vectors must be equal bit for bit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import pytest

from toolkit.fairy_meat.odds.classes import hidden_owner, side_view
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.hands import deck_caps
from toolkit.fairy_meat.strategy.hidden.matrix import PAIRWISE_ROWS, Draws, build_game, clear_build_cache
from toolkit.fairy_meat.strategy.payoff import Payoff


@functools.cache
def _game(rules: Rules):
    # built once per module run: the tests below forget only what the draws remember between groups
    clear_build_cache()
    return build_game(2, 1, deck_caps((), rules), rules, Payoff())


@pytest.mark.parametrize("rules", [Rules(jokers=2), Rules()], ids=["two jokers (parts)", "draft's deck (pairwise)"])
def test_double_draws_equal_each_group_alone(rules):
    game = _game(rules)
    draws = game.draws
    assert game.double_cache
    for args, vec in game.double_cache.items():
        draws.doubles.clear()  # nothing shared with another group
        draws.signatures.clear()
        draws.kinds_by_number.clear()
        draws.phis.clear()
        alone = draws.double(*args)
        assert alone.tobytes() == vec.tobytes()


def test_double_draws_by_groups_equal_the_pair_by_pair_sums():
    # FM-6, both sides draw: the jokers' decks sum the double draws by groups of draws and of
    # pairs of groups (Draws.double_parts); the pair-by-pair sum over every (first draw, second
    # draw, colours and pips difference of the Numbered cards) is an independent reference
    # (Draws.double_pairwise, the draft's path). Sums in another order: equal to rounding.
    game = _game(Rules(jokers=2))
    draws = game.draws
    assert len(draws.turned) > PAIRWISE_ROWS  # the grouped path built these vectors
    checked = list(game.double_cache.items())[::8]
    assert len(checked) >= 40
    for args, vec in checked:
        pairwise = draws.double_pairwise(*args)
        grouped = np.zeros(len(pairwise))
        grouped[: len(vec)] = vec
        assert np.array_equal(grouped > 0, pairwise > 0)  # the same outcomes occur
        assert np.abs(grouped - pairwise).max() <= 1e-12


def test_double_draws_shared_across_families_of_one_deck_left():
    # Every attacker's family against every defender's family drawing from one deck left,
    # more pairs than the game holds (defenders who placed a Trump too, whose draws group
    # differently, and fewer red Numbered cards left than black, as after a Spoils Heap): what
    # the parts share between families (the pairs of groups, by the first draws' law and the
    # second draws' grouping) must give each pair of families the vector it gets alone, bit
    # for bit, and the pair-by-pair sum to rounding (FM-6).
    rules = Rules(jokers=2)
    game = _game(rules)
    draws = game.draws
    by_deck: dict[tuple, list] = {}
    for _, fam_a, fam_d, trumps_left, numbered_left in game.double_cache:
        fams = by_deck.setdefault((trumps_left, numbered_left), [set(), set()])
        fams[0].add(fam_a)
        fams[1].add(fam_d)
    (trumps_left, numbered_left), (attackers, defenders) = max(by_deck.items(), key=lambda kv: len(kv[1][1]))
    # defenders who also placed a Trump (a 2 v 2 game's): their second draws group differently
    defenders |= {fam_d._replace(placed=(colour, 1, False)) for fam_d in defenders for colour in ("red", "black")}
    # Numbered cards left with fewer red than black (a Spoils Heap's deck): the colours' laws differ
    numbered_left = tuple(n - (2 if t == 0 else 1 if t == 12 else 0) for t, n in enumerate(numbered_left))
    candidates = [
        (hidden_owner(fam_a, fam_d, rules), fam_a, fam_d, trumps_left, numbered_left)
        for fam_a in sorted(attackers, key=repr)[::3]
        for fam_d in sorted(defenders, key=repr)
    ]
    pairwise = {}
    for args in candidates:
        try:
            pairwise[args] = draws.double_pairwise(*args)
        except RuntimeError:  # families no deal brings together: classes without representative cards
            continue
    cases = list(pairwise)
    assert len(cases) >= 20
    _forget(draws)
    shared = [draws.double(*args) for args in cases]
    for args, vec in zip(cases, shared, strict=True):
        _forget(draws)
        alone = draws.double(*args)
        assert alone.tobytes() == vec.tobytes()
        pw = pairwise[args]
        assert np.abs(pw[: len(vec)] - vec).max() <= 1e-12 and not pw[len(vec) :].any()


def _forget(draws) -> None:
    """Nothing shared with another group (what the draws remember between groups while building)."""
    draws.doubles.clear()
    draws.signatures.clear()
    draws.kinds_by_number.clear()
    draws.phis.clear()


def test_judge_windows_are_one_read_per_position():
    # Judge.oids_window(starts, 17) is Judge.oids_at of the 17 positions from each start: where
    # every position is judged, a plain read of the judge's table, bit for bit; where some are
    # not, they are judged (none left unknown) and read as oids_at reads them afterwards.
    judge = _game(Rules(jokers=2)).judge
    width = judge.table.shape[1]
    flat = judge.table[: len(judge.keys)].ravel()
    known = np.lib.stride_tricks.sliding_window_view(flat != -2, 17).all(axis=1)
    known &= np.arange(len(known)) % width <= width - 17  # within one key's row
    rng = np.random.default_rng(7)
    starts = rng.choice(np.flatnonzero(known), 400)
    got = judge.oids_window(starts, 17)
    cells = starts[:, None] + np.arange(17)
    assert np.array_equal(got, flat[cells]) and got.dtype == flat.dtype
    unknown = np.flatnonzero(~known & (np.arange(len(known)) % width <= width - 17))
    starts = rng.choice(unknown, 3)
    got = judge.oids_window(starts, 17)
    cells = starts[:, None] + np.arange(17)
    assert (judge.table.ravel()[cells] != -2).all()
    assert np.array_equal(got, judge.oids_at(cells))


def test_double_draws_parts_read_again_for_another_deck_of_numbered_cards():
    # The parts of a double draw (FM-6) are kept while building, and a later group with the same
    # families and Trumps left but other Numbered cards left reads their kept table positions
    # (Draws.double, not the ids double_parts just read): its vector must equal the one built
    # from nothing remembered, bit for bit, and the pair-by-pair sum (an independent reference)
    # to rounding.
    rules = Rules(jokers=2)
    draws = _game(rules).draws
    checked = list(_game(rules).double_cache)[::16]
    assert len(checked) >= 10
    for owner, fam_a, fam_d, trumps_left, numbered_left in checked:
        # fewer red Numbered cards left than black (a Spoils Heap's deck): another law of colours
        other = tuple(n - (2 if t == 0 else 1 if t == 12 else 0) for t, n in enumerate(numbered_left))
        _forget(draws)
        draws.double(owner, fam_a, fam_d, trumps_left, numbered_left)
        again = draws.double(owner, fam_a, fam_d, trumps_left, other)  # from the kept parts
        _forget(draws)
        alone = draws.double(owner, fam_a, fam_d, trumps_left, other)
        assert again.tobytes() == alone.tobytes()
        pw = draws.double_pairwise(owner, fam_a, fam_d, trumps_left, other)
        assert np.abs(pw[: len(again)] - again).max() <= 1e-12 and not pw[len(again) :].any()


def test_single_draws_keep_each_plans_ids_once(monkeypatch):
    # FM-6, one side draws: a plan's outcome ids (both colours, int32) are remembered once per
    # plan while building, not also colour by colour (held and never read again: 276 MB at
    # 3 v 2 with two jokers). Each plan's ids must equal both colours' ids worked out again on
    # the same judge (every class judged already: the same numbers), bit for bit, and its
    # Numbered cards left must be the int8 counts it was given (the build makes them int8).
    calls = []
    single_plan = Draws.single_plan

    def watched(self, *args):
        plan = single_plan(self, *args)
        assert all(key[0] == "plan" for key in self.phis)  # nothing kept colour by colour
        calls.append((self, args, plan))
        return plan

    monkeypatch.setattr(Draws, "single_plan", watched)
    rules = Rules(jokers=2)
    clear_build_cache()
    game = build_game(2, 1, deck_caps((), rules), rules, Payoff())
    assert game.coo["oid"].dtype == np.int32  # the plain entries' ids, int32 chunk by chunk
    assert len(calls) >= 50
    for draws, (owner, fam_f, x_side, fam_x, _pips, numbered_left, trumps_left), plan in calls[::10]:
        assert numbered_left.dtype == np.int8 and plan.numbered_left.tobytes() == numbered_left.tobytes()
        v_f, off_f = side_view(
            fam_f, fam_f.colour, (0, 0, 0), owner == ("attacker", "defender")[1 - x_side], *draws.judge.terms
        )
        rmax = tuple(int(v) for v in trumps_left.max(axis=0))
        again = np.stack([draws.phi_oids(owner, v_f, off_f, fam_x, x_side, c, rmax) for c in ("red", "black")])
        assert plan.phis.dtype == np.int32 and plan.phis.tobytes() == again.tobytes()
    clear_build_cache()


def _pairs_by_hand(firsts_by_colour, seconds_by_colour):
    """The pairs of (first-draw group, second-draw group) summed one draw at a time: per colour
    of the second card, the (group, group) pairs with a weight, then every pair's colours
    (c2 · 2 + c1) and weight."""
    rows = [(c1, row) for c1, f in enumerate(firsts_by_colour) for row in f[2].tolist()]
    where, colours, weights = [], [], []
    for c2, (_, order, starts, *_) in enumerate(seconds_by_colour):
        bounds = [*starts.tolist(), len(order)]
        groups = [order[bounds[s] : bounds[s + 1]].tolist() for s in range(len(starts))]
        g_at, r_at = [], []
        for g, (c1, row) in enumerate(rows):
            for s, members in enumerate(groups):
                weight = sum(row[m] for m in members)
                if weight:
                    g_at.append(g)
                    r_at.append(s)
                    colours.append(2 * c2 + c1)
                    weights.append(weight)
        where.append((g_at, r_at))
    return where, colours, weights


def test_pairs_of_groups_are_kept_by_the_first_draws_laws_and_the_second_draws_grouping():
    # FM-6, both sides draw: the pairs of (first-draw group, second-draw group) are remembered
    # for every family whose first draws have the same laws and whose second draws group alike.
    # Families alike in one but not in the other must get their own pairs: each call below
    # equals the sum draw by draw (weights in eighths: exact in any order).
    def firsts(law, *rows_by_colour):
        return [
            (None, np.zeros(len(rows)), np.array(rows) / 8, None, None, law + c)
            for c, rows in enumerate(rows_by_colour)
        ]

    def seconds(grouping, order, starts):
        return [(None, np.array(order), np.array(starts), None, grouping + c2) for c2 in range(2)]

    one_law = firsts(10, [[1, 0, 2, 0], [0, 3, 0, 1]], [[2, 2, 0, 1]])
    other_law = firsts(20, [[0, 1, 1, 0], [4, 0, 0, 0]], [[1, 0, 3, 0]])
    by_pairs = seconds(100, [0, 1, 2, 3], [0, 2])  # second draws {0, 1} and {2, 3}
    by_ends = seconds(200, [0, 3, 1, 2], [0, 2])  # {0, 3} and {1, 2}
    kept = SimpleNamespace(doubles={})  # what Draws remembers between families
    for case in [(one_law, by_pairs), (one_law, by_ends), (other_law, by_ends), (other_law, by_pairs)]:
        where, colours, weights = Draws._pairs_of_groups(kept, *case)
        expected = _pairs_by_hand(*case)
        assert [(g.tolist(), r.tolist()) for g, r in where] == expected[0]
        assert colours.tolist() == expected[1]
        assert (weights * 8).tolist() == [w * 8 for w in expected[2]]
