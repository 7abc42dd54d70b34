"""Exact Angry Miniatures odds, by counting instead of enumerating faces.

The counting argument: a pool of ``n`` poker dice has ``C(n, h) 2^(n-h)`` ways to put
``h`` hits on the dice, and given ``h`` hits the hit faces are uniform over J Q K A
(AM-1) whatever ``n`` is. So the tie-break chain of AM-4 depends only on ``h``: its
win/tie counts are computed once per ``h`` (a recursion on the number of face kinds),
and crits (AM-7: 2+ Aces) are split out by counting Ace-free and one-Ace hit faces.
Hit differences are a convolution, done as one big-integer product.

Every calculator takes ``rules``, house rules included: the die's faces, the
hit faces, the chain, the crit, a won tie's damage, melee return damage. The counting
of one die under those rules is :mod:`.counting`: the closed form above where it holds
(``DieModel.fast``: checked, not assumed) and a general exact count otherwise.

Every distribution here is returned as the toolkit's one odds result,
:class:`~toolkit.odds_result.Odds` (a :class:`~toolkit.prob.Distribution` that also says
it is exact: ``.exact``, ``.interval(event)`` the exact value twice).

Every function here is cross-checked in the tests against a brute force over every
face sequence and against the engine (:mod:`.engine`).

>>> hit_distribution(2).items()
[(0, Fraction(1, 9)), (1, Fraction(4, 9)), (2, Fraction(4, 9))]
>>> d = opposed(1, 1, "melee")
>>> d.probability(lambda o: o.defender_damage > 0)
Fraction(4, 9)
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from math import comb, gcd
from typing import TYPE_CHECKING

from toolkit.angry_miniatures.counting import (
    DieModel,
    chain_keys,
    clear_caches,
    die_model,
    fast_tie_table,
    side_counts,
    tie_counts,
)
from toolkit.angry_miniatures.outcomes import AttackOutcome, attack_outcome
from toolkit.angry_miniatures.referee import crit_from_aces
from toolkit.angry_miniatures.rules import (
    Rules,
    check_attack_type,
    check_pool,
)
from toolkit.angry_miniatures.sampling import DEFAULT_TRIALS, opposed_run, sampled_attack, sampled_odds
from toolkit.errors import ArgumentTypeError, InvalidSetupError, TooBigError
from toolkit.odds_result import DEFAULT_TIME_LIMIT, Odds, check_method, choose_method, too_big
from toolkit.prob import Distribution
from toolkit.question import Question
from toolkit.whole_numbers import at_most_items

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MAX_AREA_WORK",
    "MAX_AREA_ATTACK",
    "MAX_AREA_DICE",
    "MAX_OPPOSED_DICE",
    "MAX_POOL",
    "MAX_SAMPLED_DICE",
    "hit_distribution",
    "crit_probability",
    "opposed",
    "area_attack",
    "odds_table",
    "MONTE_CARLO_HINT",
    "check_opposed_size",
    "check_rules",
    "check_sampled_size",
]

_DEFAULT = Rules()


def _counting_caches() -> None:
    """Clear the caches of :mod:`.counting` (the per-die counts every calculator here
    uses): a benchmark that clears each ``cache_clear`` of this module clears them too."""
    clear_caches()


_counting_caches.cache_clear = clear_caches  # type: ignore[attr-defined]

# -- size limits: each exact calculator checks its size before starting -------------------
#: The largest pool :func:`hit_distribution` and :func:`crit_probability` count exactly
#: (both closed forms, answering in well under a second up to here).
MAX_POOL = 10_000
#: The most dice (attacker + defenders) the opposed and area counts take exactly.
MAX_OPPOSED_DICE = 200
#: The most attack dice, and the most dice in all, of one area attack (AM-8).
MAX_AREA_ATTACK = 40
MAX_AREA_DICE = 100
MAX_AREA_WORK = 1_000_000

#: Where a refused exact request of one attack's odds can turn instead.
MONTE_CARLO_HINT = (
    "ask opposed(..., method='monte_carlo') (trials=, seed=, precision=) for a Monte Carlo estimate with its interval"
)

#: The most dice a Monte Carlo run rolls (attacker and defenders together): beyond it even
#: one run is slow, and the pools are far beyond any table.
MAX_SAMPLED_DICE = 10_000


def check_rules(rules: object) -> Rules:
    """Return ``rules`` (the defaults for None) if it is a :class:`Rules`."""
    if rules is None:
        return _DEFAULT
    if not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules must be an angry_miniatures Rules, got {type(rules).__name__}")
    return rules


def check_opposed_size(*pools: int, alternative: str = MONTE_CARLO_HINT) -> None:
    """Refuse (:func:`~toolkit.odds_result.too_big`) pools of more than :data:`MAX_OPPOSED_DICE`
    dice in all, which one attack's exact odds do not count."""
    total = sum(pools)
    if total > MAX_OPPOSED_DICE:
        raise too_big(
            f"exact odds of {' + '.join(map(str, pools))} dice rolled against each other",
            total,
            "dice",
            MAX_OPPOSED_DICE,
            alternative=alternative,
        )


# -- one pool -------------------------------------------------------------------------
def hit_distribution(n: int, rules: Rules | None = None) -> Odds[int]:
    """Return the exact distribution of the number of hits (J, Q, K, A; ``rules.hit_faces``)
    on ``n`` dice (AM-1).

    Raises:
        InvalidSetupError: ``n`` is not a whole number >= 0.
    """
    n = check_pool(n, "n")
    rules = check_rules(rules)
    model = die_model(rules)
    hits, blanks, faces = model.hits, model.blanks, model.faces
    if n > MAX_POOL:
        raise too_big(
            f"the exact hit_distribution of {n:,} dice",
            n,
            "dice",
            MAX_POOL,
            alternative=f"the hits are Binomial(n, {hits}/{faces}): mean {hits}n/{faces}, "
            f"variance n·{hits * blanks}/{faces**2}",
        )
    question = Question.about(rules, f"{n} {'die' if n == 1 else 'dice'}", "hits rolled", size=faces**n)
    if blanks == 0:
        return Odds(Distribution.from_int_weights({n: 1}), question=question)
    # Binomial(n, H/F) in integers: comb(n, h)·B^(n-h)·H^h over F^n, divided by the common
    # factor gcd(H, B)^n, built term by term (no comb() recomputed).
    g = gcd(hits, blanks)
    hit, blank = hits // g, blanks // g
    weights: dict[int, int] = {}
    w = blank**n
    for h in range(n + 1):
        weights[h] = w
        if h < n:
            w = w * (n - h) * hit // ((h + 1) * blank)
    return Odds(Distribution.from_int_weights(weights), question=question)


def crit_probability(n: int, rules: Rules | None = None) -> Fraction:
    """Return the probability that a roll of ``n`` dice crits: two or more Aces
    (``rules.crit_count`` or more of ``rules.crit_faces``) (AM-7)."""
    n = check_pool(n, "n")
    rules = check_rules(rules)
    model = die_model(rules)
    if n > MAX_POOL:
        raise too_big(
            f"the exact crit_probability of {n:,} dice",
            n,
            "dice",
            MAX_POOL,
            alternative="a crit is all but certain with such a pool",
        )
    # Closed form: the rolls without a crit are those with few crit faces (AM-7, asked of
    # crit_from_aces for 0, 1, ... until it says crit; more only add to it).
    crit, faces = model.hit_crit + model.blank_crit, model.faces
    plain, aces = 0, 0
    while aces <= n and not crit_from_aces(aces, rules):
        plain += comb(n, aces) * crit**aces * (faces - crit) ** (n - aces)
        aces += 1
    return 1 - Fraction(plain, faces**n)


# -- two pools ---------------------------------------------------------------------------
def _convolve(a: Sequence[int], b_reversed: Sequence[int], bound: int) -> list[int]:
    """Return the coefficients of the product of two integer polynomials, every
    coefficient < ``bound``, by one big-integer multiplication (Kronecker substitution)."""
    width = (bound.bit_length() + 8) // 8  # bytes per coefficient
    pa = int.from_bytes(b"".join(c.to_bytes(width, "little") for c in a), "little")
    pb = int.from_bytes(b"".join(c.to_bytes(width, "little") for c in b_reversed), "little")
    size = len(a) + len(b_reversed) - 1
    raw = (pa * pb).to_bytes(size * width, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size)]


@cache
def _differences(n: int, m: int, model: DieModel) -> dict[tuple[bool, bool], list[int]]:
    """Face-sequence counts (out of F^(n+m)) by (attacker crit, defender crit) and hit
    difference: index ``d + m`` holds attacker hits − defender hits = d."""
    side_a, side_d = side_counts(n, model), side_counts(m, model)
    bound = model.faces ** (n + m) + 1
    out = {}
    for ca in (False, True):
        for cd in (False, True):
            out[(ca, cd)] = _convolve([w[ca] for w in side_a], [w[cd] for w in reversed(side_d)], bound)
    return out


@cache
def _opposed_weights(n: int, m: int, melee: bool, rules: Rules) -> dict[AttackOutcome, int]:
    """Outcome weights out of 2·F^(n+m) (the 2 for the SuperTieBreaker's even split)."""
    model = die_model(rules)
    back = melee and rules.return_damage  # AM-3: damage back, in melee only
    won = rules.tie_damage  # AM-4: a won tie deals exactly this
    out: dict[tuple[int, int, bool, bool], int] = defaultdict(int)
    for (ca, cd), counts in _differences(n, m, model).items():
        for index, w in enumerate(counts):
            d = index - m
            if w == 0 or d == 0:
                continue  # ties are counted below, split by the tie-break chain
            if d > 0:
                out[(d, 0, ca, cd)] += 2 * w
            else:
                out[(0, -d if back else 0, ca, cd)] += 2 * w
    won_back = won if back else 0
    # AM-5: both rolled 0 hits (no crit without a hit on the fast path).
    if model.fast:
        zeros = [(False, False, model.blanks ** (n + m))]
    else:
        zeros = [(ca, cd, w) for (_, ca, cd), w in tie_counts(0, n, m, model).items()]
    for ca, cd, w in zeros:
        if rules.zero_tie == "miss":
            out[(0, 0, ca, cd)] += 2 * w
        else:
            out[(won, 0, ca, cd)] += w
            out[(0, won_back, ca, cd)] += w
    # AM-4: ties on h >= 1 hits; the winner deals exactly 1 (tie_damage; back only in
    # melee); a SuperTieBreaker is won by each side with probability exactly 1/2.
    blanks, kinds, k, coin = model.blanks, model.hit_kinds, model.crit_count, model.coin_flip
    for h in range(1, min(n, m) + 1):
        if model.fast:
            ways = comb(n, h) * blanks ** (n - h) * comb(m, h) * blanks ** (m - h)
            for (winner, ca, cd), t in fast_tie_table(h, coin, kinds, k).items():
                if winner == "attacker":
                    out[(won, 0, ca, cd)] += 2 * ways * t
                elif winner == "defender":
                    out[(0, won_back, ca, cd)] += 2 * ways * t
                else:
                    out[(won, 0, ca, cd)] += ways * t
                    out[(0, won_back, ca, cd)] += ways * t
            continue
        for (sign, ca, cd), t in tie_counts(h, n, m, model).items():
            if sign > 0:
                out[(won, 0, ca, cd)] += 2 * t
            elif sign < 0:
                out[(0, won_back, ca, cd)] += 2 * t
            else:
                out[(won, 0, ca, cd)] += t
                out[(0, won_back, ca, cd)] += t
    # Tuples while counting (cheap to hash), outcomes once at the end.
    return {attack_outcome(*key): w for key, w in out.items()}


def opposed(
    attack_dice: int,
    defence_dice: int,
    attack_type: str = "melee",
    rules: Rules | None = None,
    method: str = "exact",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Odds[AttackOutcome]:
    """Return the distribution of one attack's outcome: exact by default.

    Each :class:`AttackOutcome` has ``defender_damage``, ``attacker_damage`` (melee
    return damage, AM-3), ``attacker_crit`` and ``defender_crit`` (AM-7). Ties follow
    AM-4 (the chain, then a SuperTieBreaker won half the time) and AM-5.

    Args:
        method: ``"exact"`` (the default: refused above :data:`MAX_OPPOSED_DICE` dice in
            all, before starting), ``"monte_carlo"`` or ``"auto"`` (exact up to the limit,
            Monte Carlo above it; :func:`toolkit.odds_result.choose_method`).
        trials, seed, precision, time_limit: the Monte Carlo runs, their seed, the largest
            half-width of a 95% interval to sample to (0.01 is ±1 point) and the seconds
            allowed for it (:mod:`.sampling`: every run kept, so two rule sets drawn with
            the same seed are compared run by run).

    Raises:
        InvalidSetupError: a negative pool, an unknown attack type or method, bad trials.
        TooBigError: an exact request above the limit, or a Monte Carlo run of more than
            :data:`MAX_SAMPLED_DICE` dice.
    """
    attack_dice = check_pool(attack_dice, "attack_dice")
    defence_dice = check_pool(defence_dice, "defence_dice")
    check_attack_type(attack_type)
    rules = check_rules(rules)
    check_method(method)
    total = attack_dice + defence_dice
    how = choose_method(
        method,
        total,
        MAX_OPPOSED_DICE,
        f"the exact opposed({attack_dice}, {defence_dice})",
        "dice",
        "MAX_OPPOSED_DICE",
    )
    sizes = f"{attack_dice} v {defence_dice} dice"
    question = Question.about(rules, sizes, attack_type, size=die_model(rules).faces ** total)
    if how == "monte_carlo":
        check_sampled_size(total)
        return sampled_odds(
            lambda rng: opposed_run(rng, attack_dice, defence_dice, attack_type, rules),
            ("angry miniatures opposed", attack_type, attack_dice, defence_dice),
            trials,
            seed,
            precision,
            time_limit,
            (_hit, _hit_back),
        ).answering(question)
    started = time.perf_counter()
    weights = _opposed_weights(attack_dice, defence_dice, attack_type == "melee", rules)
    return Odds(Distribution.from_int_weights(weights), seconds=time.perf_counter() - started, question=question)


def _hit(o: AttackOutcome) -> bool:
    return o.defender_damage > 0


def _hit_back(o: AttackOutcome) -> bool:
    return o.attacker_damage > 0


def check_sampled_size(dice: int) -> None:
    """Refuse a Monte Carlo run of more than :data:`MAX_SAMPLED_DICE` dice."""
    if dice > MAX_SAMPLED_DICE:
        raise too_big(
            "a Monte Carlo run",
            dice,
            "dice",
            MAX_SAMPLED_DICE,
            "MAX_SAMPLED_DICE",
            "such pools are beyond any table: roll fewer dice",
        )


# -- one attack roll, several defenders (AM-8) -----------------------------------------
@cache
def _win_moments(h: int, k: int, model: DieModel) -> dict[tuple[int, int], int]:
    """Moments of the chance u that a defender tied on ``h`` hits loses the tie to the
    attacker's roll, over the attacker's hit faces: for w + l <= k,
    sum over attacker faces of U^w (2·H^h − U)^l with U = 2·#(defender loses) + #(equal),
    all out of H^h (2·H^h)^(w+l) (H hit faces, :func:`~.counting.chain_keys`). Tied
    pairings each get their own SuperTieBreaker."""
    full = 2 * model.hits**h  # 2: the SuperTieBreaker's even split
    keys = chain_keys(h, model)
    return {
        (w, l): sum(ways * u**w * (full - u) ** l for ways, u in keys) for w in range(k + 1) for l in range(k + 1 - w)
    }


def _area_refusal(n: int, pools: list[int], max_outcomes: int) -> TooBigError | None:
    """The refusal of an exact area attack above one of its limits, or ``None`` within them."""
    joint = (
        "area_attack(..., method='monte_carlo') for a Monte Carlo estimate, or opposed() per defender for the marginals"
    )
    total = n + sum(pools)
    if n > MAX_AREA_ATTACK:
        return too_big(
            f"an exact area_attack with {n} attack dice", n, "attack dice", MAX_AREA_ATTACK, alternative=joint
        )
    if len(pools) > MAX_OPPOSED_DICE:
        return too_big("an exact area attack", len(pools), "defenders", MAX_OPPOSED_DICE, alternative=joint)
    if total > MAX_AREA_DICE:
        return too_big(
            f"an exact area_attack with {n} + {sum(pools)} dice", total, "dice", MAX_AREA_DICE, alternative=joint
        )
    work = (n + 1) ** (len(pools) + 1)
    if work > MAX_AREA_WORK:
        what = f"an exact area_attack of {n} dice against {len(pools)} defenders"
        return too_big(what, work, "steps ((attack dice + 1)^(defenders + 1))", MAX_AREA_WORK, alternative=joint)
    size = (n + 1) ** len(pools)
    if size > max_outcomes:
        what = f"an exact area attack of {len(pools)} defenders against {n} attack dice"
        return too_big(what, size, "joint outcomes at most", max_outcomes, alternative=joint)
    return None


def area_attack(
    attack_dice: int,
    defence_dice_list: Iterable[int] | int,
    rules: Rules | None = None,
    max_outcomes: int = 2_000_000,
    method: str = "exact",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Odds[tuple[int, ...]]:
    """Return the distribution of the damage dealt to each defender by one magic attack
    roll against the target and its adjacent creatures (AM-8): exact by default.
    ``defence_dice_list`` is each defender's pool (one whole number: one defender).

    The attack is rolled once, so the defenders' damages are correlated: this is not
    the product of the single-defender distributions. Ties on hits follow AM-4 per
    defender (each tied pairing has its own SuperTieBreaker) and AM-5.

    ``method``, ``trials``, ``seed``, ``precision`` and ``time_limit`` as for
    :func:`opposed`: ``"auto"`` is exact within every limit below and Monte Carlo beyond.

    Raises:
        InvalidSetupError: a negative pool or no defenders.
        TooBigError: an exact request with more than :data:`MAX_AREA_ATTACK` attack dice,
            :data:`MAX_AREA_DICE` dice in all, :data:`MAX_AREA_WORK` steps or a joint table
            of more than ``max_outcomes`` rows; a Monte Carlo run of more than
            :data:`MAX_SAMPLED_DICE` dice.
    """
    rules = check_rules(rules)
    check_method(method)
    n = check_pool(attack_dice, "attack_dice")
    if isinstance(defence_dice_list, (str, bytes)) or not isinstance(defence_dice_list, Iterable | int):
        raise ArgumentTypeError(f"defence_dice_list must be a list of pools, got {type(defence_dice_list).__name__}")
    if isinstance(defence_dice_list, int):  # one defender
        defence_dice_list = _pools(defence_dice_list, "defence dice", MAX_SAMPLED_DICE)
    pools = []
    for m in defence_dice_list:
        pools.append(check_pool(m, "defence dice"))
        if len(pools) > MAX_SAMPLED_DICE:
            raise too_big("an area attack", len(pools), "defenders", MAX_SAMPLED_DICE, alternative="fewer defenders")
    if not pools:
        raise InvalidSetupError("area_attack needs at least one defender's dice (AM-8)")
    refusal = _area_refusal(n, pools, max_outcomes)
    if refusal is not None and method == "exact":
        raise refusal  # the limit it is above, with its size, before any work
    sizes = f"{n} v {', '.join(map(str, pools))} dice"
    question = Question.about(rules, sizes, "magic area attack", size=die_model(rules).faces ** (n + sum(pools)))
    # the one dispatcher, on "above a limit or not" (several limits, each with its own refusal)
    if choose_method(method, 0 if refusal is None else 1, 0) == "monte_carlo":
        check_sampled_size(n + sum(pools))
        return sampled_odds(
            lambda rng: tuple(dd for dd, _ in sampled_attack(rng, n, pools, "magic", rules)[0]),
            ("angry miniatures area attack", n, tuple(pools)),
            trials,
            seed,
            precision,
            time_limit,
        ).answering(question)
    k = len(pools)
    model = die_model(rules)
    hits, blanks, won_tie = model.hits, model.blanks, rules.tie_damage
    denominator = model.faces ** (n + sum(pools))
    result: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for ha in range(n + 1):
        pa = comb(n, ha) * blanks ** (n - ha) * hits**ha
        tie_possible = ha > 0 or rules.zero_tie == "super_tiebreak"
        states: dict[tuple[tuple[int, ...], int, int], int] = {((), 0, 0): 1}
        for m in pools:
            fixed: dict[int, int] = defaultdict(int)
            tie = 0
            for hd in range(m + 1):
                ways = comb(m, hd) * blanks ** (m - hd) * hits**hd
                if hd == ha and tie_possible:
                    tie += ways
                else:
                    fixed[max(ha - hd, 0)] += ways  # magic: no damage back (AM-3)
            nxt: dict[tuple[tuple[int, ...], int, int], int] = defaultdict(int)
            for (dmg, won, lost), x in states.items():
                for d, ways in fixed.items():
                    nxt[(dmg + (d,), won, lost)] += x * ways
                if tie:  # AM-4: the tie's winner deals exactly 1 (tie_damage)
                    nxt[(dmg + (won_tie,), won + 1, lost)] += x * tie
                    nxt[(dmg + (0,), won, lost + 1)] += x * tie
            states = nxt
        moments = _win_moments(ha, k, model)
        for (dmg, won, lost), x in states.items():
            scale = hits**ha * (2 * hits**ha) ** (won + lost)
            result[dmg] += Fraction(pa * x * moments[(won, lost)], denominator * scale)
    return Odds(Distribution(result), question=question)


def _pools(dice: object, what: str, most: int) -> list[int]:
    """``dice`` as a list of pools: one whole number (``3``) or a list of them (AM-2), read
    no further than ``most`` pools (an endless iterator is refused, not read to the end)."""
    if isinstance(dice, Iterable) and not isinstance(dice, str | bytes):
        return [check_pool(n, what) for n in at_most_items(dice, what, most, "pools", error=TooBigError)]
    return [check_pool(dice, what)]


def odds_table(
    attack_dice: Iterable[int] | int = range(1, 9),
    defence_dice: Iterable[int] | int = range(1, 9),
    attack_type: str = "melee",
    rules: Rules | None = None,
    floats: bool = False,
    max_cells: int = 10_000,
) -> pd.DataFrame:
    """Return a pandas table over a grid of pool sizes, one row per (attack, defence) pair.
    Each of ``attack_dice`` and ``defence_dice`` is a list of pools or one pool
    (``odds_table(3, 2)``: one row, as the command line takes it).

    Columns: ``attack_dice``, ``defence_dice``, ``hit`` (P the defender takes damage),
    ``return_hit`` (P the attacker takes damage, melee only), ``expected_damage``,
    ``expected_return_damage``, ``attacker_crit``, ``defender_crit`` — exact
    ``Fraction``s, or floats with ``floats=True`` (for plots).

    Raises:
        TooBigError: more than ``max_cells`` pairs.
    """
    import pandas as pd

    rules = rules or _DEFAULT
    check_attack_type(attack_type)
    attacks, defences = _pools(attack_dice, "attack_dice", max_cells), _pools(defence_dice, "defence_dice", max_cells)
    if not attacks or not defences:
        raise InvalidSetupError("odds_table needs at least one attack pool and one defence pool")
    if len(attacks) * len(defences) > max_cells:
        raise TooBigError(
            f"{len(attacks)} x {len(defences)} = {len(attacks) * len(defences):,} pool pairs "
            f"(limit {max_cells:,}): narrow the ranges"
        )
    rows = []
    for n in attacks:
        for m in defences:
            d = opposed(n, m, attack_type, rules)
            row = {
                "attack_dice": n,
                "defence_dice": m,
                "hit": d.probability(lambda o: o.defender_damage > 0),
                "return_hit": d.probability(lambda o: o.attacker_damage > 0),
                "expected_damage": d.mean("defender_damage"),
                "expected_return_damage": d.mean("attacker_damage"),
                "attacker_crit": d.probability(lambda o: o.attacker_crit),
                "defender_crit": d.probability(lambda o: o.defender_crit),
            }
            if floats:
                row = {k: (float(v) if isinstance(v, Fraction) else v) for k, v in row.items()}
            rows.append(row)
    return pd.DataFrame(rows)
