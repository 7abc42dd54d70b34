"""Repeated attacks (AM-10): how many attacks take a target out, and how a melee fight to
the finish ends. Exact by default; Monte Carlo on request or where exact is too big.

Each calculator takes ``method="exact" | "auto" | "monte_carlo"`` (the one dispatcher,
:func:`toolkit.odds_result.choose_method`: ``"auto"`` is exact within every size limit
below and Monte Carlo beyond, an exact request above a limit is refused before any work
with the size and the way out), ``trials=``, ``seed=``, ``precision=`` and ``time_limit=``
like :func:`~.odds.opposed`. The exact counts build on one attack's exact odds
(:func:`~.odds.opposed`); the Monte Carlo plays attacks out one by one through the
referee (:func:`~.sampling.take_out_run`, :func:`~.sampling.exchange_run`), every run
kept so that two rule sets drawn with the same seed are compared run by run.

A Monte Carlo run is as long as the fight, so it is refused when its expected dice exceed
:data:`~.odds.MAX_SAMPLED_DICE`: the bound is Wald's, (Health + the largest damage of one
attack) over the exact mean damage of one attack, times the dice of one attack.

>>> attacks_to_take_out(1, 0, health=1, cap=2).items()
[(1, Fraction(2, 3)), (2, Fraction(2, 9)), (MoreThan(cap=2), Fraction(1, 9))]
>>> expected_attacks_to_take_out(1, 0, health=1)
Fraction(3, 2)
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache

from toolkit.angry_miniatures.odds import (
    MAX_SAMPLED_DICE,
    check_opposed_size,
    check_rules,
    check_sampled_size,
    opposed,
)
from toolkit.angry_miniatures.outcomes import ExchangeEnd, MoreThan
from toolkit.angry_miniatures.rules import Character, Rules, attack_pools, check_attack_type, check_pool
from toolkit.angry_miniatures.sampling import DEFAULT_TRIALS, exchange_end, exchange_run, sampled_odds, take_out_run
from toolkit.errors import ArgumentTypeError, InvalidSetupError, TooBigError
from toolkit.odds_result import (
    DEFAULT_TIME_LIMIT,
    Expectation,
    Odds,
    check_method,
    choose_method,
    counts_mean_half_width,
    too_big,
)
from toolkit.outcome_names import sides
from toolkit.prob import Distribution
from toolkit.question import Question
from toolkit.whole_numbers import whole_number

__all__ = [
    "MAX_CAP",
    "MAX_EXCHANGE_WORK",
    "MAX_EXPECTED_WORK",
    "MAX_HEALTH",
    "MAX_REPEAT_WORK",
    "ExchangeEnd",
    "MoreThan",
    "attacks_to_take_out",
    "expected_attacks_to_take_out",
    "melee_exchange",
]

#: The largest work (about the bit operations) of :func:`expected_attacks_to_take_out`.
MAX_EXPECTED_WORK = 3 * 10**8
#: The largest Health, and the largest cap, of the exact repeated-attack calculators.
MAX_HEALTH = 1_000
MAX_CAP = 1_000
#: The largest amount of work (about the bit operations) of the repeated-attack counts.
MAX_REPEAT_WORK = 4 * 10**9
#: The most (damage, damage) states × dice rolled :func:`melee_exchange` solves (Health
#: 20 against 20 with 3 dice a side; about a second).
MAX_EXCHANGE_WORK = 8_000


def _damage_weights(attack_dice: int, defence_dice: int, attack_type: str, rules: Rules) -> tuple[dict[int, int], int]:
    d = opposed(attack_dice, defence_dice, attack_type, rules).marginal("defender_damage")
    return d.weights(), d.total


def _health_refusal(health: int, what: str = "health") -> TooBigError | None:
    if health > MAX_HEALTH:
        return too_big(f"the exact odds against a {what} of {health:,}", health, "Health", MAX_HEALTH)
    return None


def _repeat_work(n: int, m: int, health: int, cap: int) -> int:
    """About the bit operations of :func:`attacks_to_take_out`: for each of ``cap``
    attacks, every damage state (at most Health) times every damage, on numbers that
    grow by the bits of one attack's total each attack."""
    bits = (n + m + 1) * 26 // 10 + 1
    return cap * cap // 2 * min(health, n * cap + 1) * (n + 1) * bits


def _check_run_length(expected_dice: float, what: str) -> None:
    """Refuse a Monte Carlo whose runs are expected to roll more than :data:`MAX_SAMPLED_DICE` dice."""
    if expected_dice > MAX_SAMPLED_DICE:
        raise too_big(
            f"a Monte Carlo run of {what}",
            int(expected_dice),
            "dice expected (Wald's bound)",
            MAX_SAMPLED_DICE,
            "MAX_SAMPLED_DICE",
            "such a fight is beyond any table: lower the Health or the pools",
        )


def _wald_attacks(health: int, damage: Distribution[int]) -> float:
    """Wald's bound on the expected attacks to deal ``health`` damage with ``damage`` per
    attack: the damage dealt by the end is below Health plus the largest damage."""
    mean = float(damage.mean())
    return (health + max(damage.outcomes())) / mean if mean > 0 else float("inf")


def attacks_to_take_out(
    attack_dice: int,
    defence_dice: int,
    health: int,
    attack_type: str = "melee",
    rules: Rules | None = None,
    cap: int = 30,
    method: str = "exact",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Odds[int | MoreThan]:
    """Return the distribution of the number of attacks needed to take out a target of
    ``health`` (AM-10), each attack independent with the given pools: exact by default.

    Outcomes are 1..``cap`` and ``MoreThan(cap)``, which holds the probability that
    the target is still standing after ``cap`` attacks: it is reported, not dropped.

    Args:
        method: ``"exact"`` (refused above :data:`MAX_HEALTH`, :data:`MAX_CAP`,
            :data:`~.odds.MAX_OPPOSED_DICE` or :data:`MAX_REPEAT_WORK`, before starting),
            ``"monte_carlo"`` or ``"auto"`` (exact within every limit, Monte Carlo beyond).
        trials, seed, precision, time_limit: as for :func:`~.odds.opposed` (a run is one
            target attacked until she is out or ``cap`` attacks are spent).

    Raises:
        InvalidSetupError: a Health below 1, a cap below 1, a negative pool, an unknown
            attack type or method, bad trials or precision.
        TooBigError: an exact request above a limit; a Monte Carlo run of more than
            :data:`~.odds.MAX_SAMPLED_DICE` dice (``cap`` attacks).
    """
    rules = check_rules(rules)
    check_method(method)
    health = whole_number(health, "health", 1, ruling="AM-10", type_error=ArgumentTypeError)
    cap = whole_number(cap, "cap (attacks)", 1, type_error=ArgumentTypeError)
    n = check_pool(attack_dice, "attack_dice")
    m = check_pool(defence_dice, "defence_dice")
    check_attack_type(attack_type)
    refusal = _health_refusal(health)
    if refusal is None and cap > MAX_CAP:
        refusal = too_big(
            f"the exact attacks_to_take_out with a cap of {cap:,} attacks",
            cap,
            "attacks",
            MAX_CAP,
            alternative=f"a cap of {MAX_CAP:,} already reports the rest as MoreThan",
        )
    if refusal is None:
        check_opposed_size(n, m)
        work = _repeat_work(n, m, health, cap)
        if work > MAX_REPEAT_WORK:
            refusal = too_big(
                f"the exact attacks_to_take_out({n}, {m}, health={health}, cap={cap})",
                work,
                "steps (cap² × Health × pool × digits)",
                MAX_REPEAT_WORK,
                alternative="lower the cap (the rest is reported as MoreThan(cap)), or use method='monte_carlo' "
                "(or 'auto') for an estimate with its interval",
            )
    if refusal is not None and method == "exact":
        raise refusal  # the limit it is above, with its size, before any work
    size = None if refusal is not None else _repeat_work(n, m, health, cap)
    asked = (attack_type, f"Health {health}", f"up to {cap:,} attacks")
    question = Question.about(rules, f"{n} v {m} dice", *asked, size=size)
    # the one dispatcher, on "above a limit or not" (several limits, each with its own refusal)
    if choose_method(method, 0 if refusal is None else 1, 0) == "monte_carlo":
        check_sampled_size(n + m)
        _check_run_length(cap * (n + m), f"up to {cap:,} attacks of {n} + {m} dice")
        target = Character("target", health=health)
        return sampled_odds(
            lambda rng: take_out_run(rng, n, m, target, attack_type, rules, cap),
            ("angry miniatures attacks to take out", attack_type, n, m, health, cap),
            trials,
            seed,
            precision,
            time_limit,
            trial_name="simulated targets attacked",
        ).answering(question)
    started = time.perf_counter()
    weights, total = _damage_weights(n, m, attack_type, rules)
    alive = {0: 1}  # damage taken so far -> weight out of total**k
    out: dict[int | MoreThan, Fraction] = {}
    for k in range(1, cap + 1):
        nxt: dict[int, int] = defaultdict(int)
        finished = 0
        for dealt, x in alive.items():
            for d, w in weights.items():
                if dealt + d >= health:
                    finished += x * w
                else:
                    nxt[dealt + d] += x * w
        if finished:
            out[k] = Fraction(finished, total**k)
        alive = dict(nxt)
        if not alive:
            break
    if alive:
        out[MoreThan(cap)] = Fraction(sum(alive.values()), total**cap)
    return Odds(Distribution(out), seconds=time.perf_counter() - started, question=question)


def expected_attacks_to_take_out(
    attack_dice: int,
    defence_dice: int,
    health: int,
    attack_type: str = "melee",
    rules: Rules | None = None,
    method: str = "exact",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Expectation | None:
    """Return the expected number of attacks to take out a target of ``health`` (AM-10),
    or ``None`` when the attack can never deal damage (known exactly from one attack's odds).

    The result is an :class:`~toolkit.odds_result.Expectation`: the number itself (a
    ``Fraction``) that also says how it was computed. Exact, its interval is the value
    twice; by Monte Carlo it is the mean of ``trials`` runs (each a target attacked until
    she is out) and its interval the normal one of that mean
    (:meth:`toolkit.odds_result.Odds.mean_interval`).

    Args:
        method: ``"exact"`` (refused above :data:`MAX_HEALTH` or :data:`MAX_EXPECTED_WORK`,
            before starting), ``"monte_carlo"`` or ``"auto"`` (exact within the limits).
        trials, seed, time_limit: as for :func:`~.odds.opposed`.
        precision: the largest half-width of the mean's 95% interval **relative to the
            mean** (0.01 is ±1% of the expected attacks;
            :func:`toolkit.odds_result.counts_mean_half_width`).

    Raises:
        InvalidSetupError: a Health below 1, a negative pool, an unknown attack type or
            method, bad trials or precision.
        TooBigError: pools of more than :data:`~.odds.MAX_OPPOSED_DICE` dice (one
            attack's exact odds are needed either way); an exact request above a limit; a
            Monte Carlo whose runs are expected to roll more than
            :data:`~.odds.MAX_SAMPLED_DICE` dice.
    """
    rules = check_rules(rules)
    check_method(method)
    health = whole_number(health, "health", 1, ruling="AM-10", type_error=ArgumentTypeError)
    n = check_pool(attack_dice, "attack_dice")
    m = check_pool(defence_dice, "defence_dice")
    check_attack_type(attack_type)
    refusal = _health_refusal(health)
    check_opposed_size(n, m)
    work = health * health * (n + 1) * ((n + m + 1) * 26 // 10 + 1)
    if refusal is None and work > MAX_EXPECTED_WORK:
        refusal = too_big(
            f"the exact expected_attacks_to_take_out({n}, {m}, health={health})",
            work,
            "steps (Health² × pool × digits)",
            MAX_EXPECTED_WORK,
            alternative="attacks_to_take_out with a cap gives the odds of the first attacks; or use "
            "method='monte_carlo' (or 'auto') for an estimate with its interval",
        )
    if refusal is not None and method == "exact":
        raise refusal
    asked = (attack_type, f"Health {health}", "expected attacks to take out")
    question = Question.about(rules, f"{n} v {m} dice", *asked, size=None if refusal is not None else work)
    started = time.perf_counter()
    weights, total = _damage_weights(n, m, attack_type, rules)
    stay = weights.get(0, 0)
    if stay == total:
        return None
    if choose_method(method, 0 if refusal is None else 1, 0) == "monte_carlo":
        damage = Distribution.from_int_weights(weights)
        _check_run_length(_wald_attacks(health, damage) * (n + m), f"attacks of {n} + {m} dice on Health {health}")
        target = Character("target", health=health)
        sampled = sampled_odds(
            lambda rng: take_out_run(rng, n, m, target, attack_type, rules),
            ("angry miniatures expected attacks to take out", attack_type, n, m, health),
            trials,
            seed,
            precision,
            time_limit,
            trial_name="simulated targets attacked",
            half_width=counts_mean_half_width,
        ).answering(question)
        return Expectation.of(sampled, time.perf_counter() - started)
    # E[r] = expected attacks with r Health left: E[r] = (1 + sum_d p_d E[r - d]) / (1 - p_0),
    # E[r] = 0 for r <= 0. In integers (one division at the end, no Fraction per step):
    # E[r] = N[r] / D^r with D = total - w_0 and
    # N[r] = total·D^(r-1) + sum over 0 < d < r of w_d·N[r-d]·D^(d-1).
    dealt = sorted((d, w) for d, w in weights.items() if d > 0)
    big_d = total - stay
    powers = [big_d**k for k in range((dealt[-1][0] if dealt else 1) + 1)]
    numerators = [0] * (health + 1)
    d_power = 1  # D^(r-1)
    for r in range(1, health + 1):
        acc = total * d_power
        for d, w in dealt:
            if d >= r:
                break
            acc += w * numerators[r - d] * powers[d - 1]
        numerators[r] = acc
        d_power *= big_d
    value = Fraction(numerators[health], big_d**health)
    return Expectation(value, seconds=time.perf_counter() - started, question=question)


def melee_exchange(
    attacker: Character,
    defender: Character,
    rules: Rules | None = None,
    alternate: bool = True,
    method: str = "exact",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Odds[ExchangeEnd]:
    """Return the distribution of how a melee fight to the finish ends (AM-3, AM-10):
    exact by default.

    The attacker attacks first; with ``alternate`` the two take turns attacking each
    other in melee, otherwise only the attacker attacks and the defender fights back
    only through AM-3's return damage. Pools come from the characters' Melee and Body
    (AM-2, with AM-6 when the rules turn it on); damage already taken counts.

    Args:
        method: ``"exact"`` (refused above :data:`MAX_EXCHANGE_WORK`, before starting),
            ``"monte_carlo"`` or ``"auto"`` (exact within the limit, Monte Carlo beyond).
        trials, seed, precision, time_limit: as for :func:`~.odds.opposed` (a run is one
            fight; ``precision`` covers every outcome and who is out).

    Raises:
        InvalidSetupError: neither side can ever damage the other; an unknown method, bad
            trials or precision.
        TooBigError: an exact request above the limit; pools of more than
            :data:`~.odds.MAX_OPPOSED_DICE` dice; a Monte Carlo whose fights are expected
            to roll more than :data:`~.odds.MAX_SAMPLED_DICE` dice.
    """
    rules = check_rules(rules)
    check_method(method)
    for what, who in (("attacker", attacker), ("defender", defender)):
        if not isinstance(who, Character):
            raise ArgumentTypeError(f"{what} must be an angry_miniatures Character, got {type(who).__name__}")
    if attacker.is_out or defender.is_out:
        raise InvalidSetupError("both characters must still be standing (AM-10)")
    ab = attack_pools(attacker, defender, "melee", rules=rules)
    ba = attack_pools(defender, attacker, "melee", rules=rules)
    states = attacker.health_left * defender.health_left
    work = states * (ab.attack + ab.defence + ba.attack + ba.defence + 4)
    refusal = None
    if work > MAX_EXCHANGE_WORK:
        refusal = too_big(
            f"the exact melee exchange of Health {attacker.health_left:,} against {defender.health_left:,}",
            work,
            f"steps ({states:,} states × the dice rolled)",
            MAX_EXCHANGE_WORK,
        )
        if method == "exact":
            raise refusal
    check_opposed_size(ab.attack, ab.defence)
    check_opposed_size(ba.attack, ba.defence)
    sizes = f"{attacker.name} {ab.attack} v {ab.defence} dice, {defender.name} {ba.attack} v {ba.defence}"
    health = f"Health {attacker.health_left} v {defender.health_left}"
    turns = "melee to the finish, " + ("taking turns" if alternate else f"{attacker.name} attacking")
    question = Question.about(rules, sizes, health, turns, size=work)
    started = time.perf_counter()
    strike = opposed(ab.attack, ab.defence, "melee", rules).marginal(lambda o: (o.defender_damage, o.attacker_damage))
    back = opposed(ba.attack, ba.defence, "melee", rules).marginal(lambda o: (o.defender_damage, o.attacker_damage))
    if strike[(0, 0)] * (back[(0, 0)] if alternate else 1) == 1:
        raise InvalidSetupError(
            f"neither {attacker.name} nor {defender.name} can ever deal damage in this melee "
            f"({ab.attack} vs {ab.defence} dice, {ba.attack} vs {ba.defence}): the fight never ends"
        )
    if choose_method(method, 0 if refusal is None else 1, 0) == "monte_carlo":
        dice = max(sum(ab), sum(ba) if alternate else 0)
        check_sampled_size(dice)
        dealt = strike.map(sum)
        if alternate:  # one round: a strike and a strike back
            dealt = dealt + back.map(sum)
        rounds = _wald_attacks(attacker.health_left + defender.health_left, dealt)
        _check_run_length(rounds * dice * (2 if alternate else 1), "a melee fight to the finish")
        names = {attacker.name, defender.name}
        return _named_ends(
            sampled_odds(
                lambda rng: exchange_run(rng, attacker, defender, ab, ba, alternate, rules),
                ("angry miniatures melee exchange", attacker, defender, alternate),
                trials,
                seed,
                precision,
                time_limit,
                tuple(_out_is(name) for name in sorted(names)),
                trial_name="simulated fights",
            ).answering(question),
            attacker,
            defender,
        )
    solved = _solve_exchange(attacker, defender, strike, back, alternate)
    return _named_ends(
        Odds(Distribution(solved), seconds=time.perf_counter() - started, question=question), attacker, defender
    )


def _named_ends(odds: Odds[ExchangeEnd], attacker: Character, defender: Character) -> Odds[ExchangeEnd]:
    """The ends with ``out`` as the character's :class:`~toolkit.outcome_names.Side`: her
    name, equal to ``"attacker"``/``"defender"`` too (the side out is the one left at 0 Health)."""
    out = {s.role: s for s in sides(("attacker", attacker.name), ("defender", defender.name))}
    return odds.map(lambda e: replace(e, out=out["attacker" if e.attacker_health_left == 0 else "defender"]))


def _with_damage(character: Character, damage: int) -> Character:
    return character.take_damage(damage - character.damage)


def _out_is(name: str) -> Callable[[ExchangeEnd], bool]:
    return lambda end: end.out == name


def _solve_exchange(
    attacker: Character,
    defender: Character,
    strike: Distribution[tuple[int, int]],
    back: Distribution[tuple[int, int]],
    alternate: bool,
) -> dict[ExchangeEnd, Fraction]:
    """The exact ends of a melee exchange from each strike's (damage to the target, damage
    to the striker) odds: every state solved from the most damage down."""
    a_moves, a_stay = {k: v for k, v in strike.items() if k != (0, 0)}, strike[(0, 0)]
    b_moves, b_stay = {k: v for k, v in back.items() if k != (0, 0)}, back[(0, 0)]
    if not alternate:
        b_moves, b_stay = {}, Fraction(1)
    ha, hd = attacker.health, defender.health

    @cache
    def ended(da: int, dd: int) -> ExchangeEnd | None:
        """How the fight stands with ``da`` and ``dd`` damage taken (the one rule of
        :func:`~.sampling.exchange_end`, AM-10)."""
        return exchange_end(_with_damage(attacker, da), _with_damage(defender, dd))

    solved: dict[tuple[int, int], tuple[dict[ExchangeEnd, Fraction], dict[ExchangeEnd, Fraction]]] = {}

    def value(da: int, dd: int) -> tuple[dict[ExchangeEnd, Fraction], dict[ExchangeEnd, Fraction]]:
        """The solved state (every state it leads to has more damage on one side, so
        solving from the most damage down needs no recursion)."""
        return solved[(da, dd)]

    def solve(da: int, dd: int) -> tuple[dict[ExchangeEnd, Fraction], dict[ExchangeEnd, Fraction]]:
        """(ends if the attacker is to strike, ends if the defender is to strike)."""

        def after(moves: dict[tuple[int, int], Fraction], strikes_first: bool) -> dict[ExchangeEnd, Fraction]:
            acc: dict[ExchangeEnd, Fraction] = defaultdict(Fraction)
            for (to_target, to_striker), p in moves.items():
                nda, ndd = (da + to_striker, dd + to_target) if strikes_first else (da + to_target, dd + to_striker)
                end = ended(nda, ndd)
                if end is not None:
                    acc[end] += p
                else:
                    # after the attacker's strike it is the defender's turn, if alternating
                    nxt = value(nda, ndd)[1 if (strikes_first and alternate) else 0]
                    for e, q in nxt.items():
                        acc[e] += p * q
            return acc

        ra, rb = after(a_moves, True), after(b_moves, False)
        # x = ra + a_stay·y ; y = rb + b_stay·x  (alternating); x = ra + a_stay·x (not)
        if alternate:
            denom = 1 - a_stay * b_stay
            x = {e: (ra.get(e, 0) + a_stay * rb.get(e, 0)) / denom for e in set(ra) | set(rb)}
            y = {e: rb.get(e, 0) + b_stay * x.get(e, 0) for e in set(rb) | set(x)}
        else:
            x = {e: p / (1 - a_stay) for e, p in ra.items()}
            y = x
        return x, y

    for da in range(ha - 1, attacker.damage - 1, -1):
        for dd in range(hd - 1, defender.damage - 1, -1):
            solved[(da, dd)] = solve(da, dd)
    return value(attacker.damage, defender.damage)[0]
