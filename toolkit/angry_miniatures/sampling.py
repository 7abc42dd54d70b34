"""Angry Miniatures by Monte Carlo: the estimate a calculator gives where exact is too big.

Each run rolls the pools die by die with the die's faces and weights (AM-1,
``Rules.face_weights``) and asks the referee for everything else: the judgement
(:func:`~.referee.compare_rolls`, AM-3..AM-5), a SuperTieBreaker's throws
(:func:`~.referee.super_tiebreak_winner`, equal faces thrown again, AM-4), the damage
(:func:`~.referee.damage_dealt`) and the crits (:func:`~.referee.is_crit`, AM-7), so no rule
is written twice. A run takes one draw per die from the calculator's stream and then the seed
of its own stream for the SuperTieBreakers (:func:`~toolkit.odds_samples.play_seed`), so run
``i`` rolls the same numbers under two rule sets with the same pools (common random numbers)
and two results are compared run by run (:mod:`toolkit.comparison`). Cross-checked against
the exact calculators in ``tests/test_am_monte_carlo.py``.

Repeated attacks (AM-10: :func:`take_out_run`, :func:`exchange_run`) are one attack after
another, each rolled by :func:`opposed_run` on the run's own play stream, so run ``i`` still
takes one draw of the calculator's stream whatever the number of attacks in it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from itertools import accumulate
from typing import Any

from toolkit.angry_miniatures.outcomes import AttackOutcome, ExchangeEnd, MoreThan, attack_outcome
from toolkit.angry_miniatures.referee import compare_rolls, damage_dealt, is_crit, super_tiebreak_winner
from toolkit.angry_miniatures.rules import Character, Pools, Rules
from toolkit.odds_result import Odds, check_precision, check_seed, check_time_limit, check_trials, counts_half_width
from toolkit.odds_samples import Samples, play_seed, sample_runs
from toolkit.progress import tick

__all__ = [
    "DEFAULT_TRIALS",
    "exchange_end",
    "exchange_run",
    "opposed_run",
    "roll",
    "sampled_attack",
    "sampled_odds",
    "take_out_run",
]

#: Monte Carlo runs of an Angry Miniatures calculator unless asked otherwise.
DEFAULT_TRIALS = 5_000


def roll(rng: random.Random, dice: int, rules: Rules) -> tuple[str, ...]:
    """``dice`` faces rolled with the die's weights (AM-1): one draw of ``rng`` per die."""
    faces, weights = zip(*rules.face_weights(), strict=True)
    return tuple(rng.choices(faces, cum_weights=list(accumulate(weights)), k=dice))


def _super_tiebreak(play: random.Random, rules: Rules) -> str:
    """The winner of a SuperTieBreaker: one die each, thrown again while equal (AM-4)."""
    while True:
        a, d = roll(play, 2, rules)
        winner = super_tiebreak_winner(a, d)
        if winner is not None:
            return winner


def sampled_attack(
    rng: random.Random, attack_dice: int, defence_dice: Sequence[int], attack_type: str, rules: Rules
) -> tuple[tuple[tuple[int, int], ...], bool, tuple[bool, ...]]:
    """One attack rolled: ``(damage to each defender, damage back), ...``, whether the
    attacker crit and whether each defender crit (AM-7: one attack, so every crit counts).
    The attack roll is judged against each defender's roll in turn (AM-8: one roll, each tied
    pairing with its own SuperTieBreaker)."""
    attack = roll(rng, attack_dice, rules)
    defences = [roll(rng, m, rules) for m in defence_dice]
    play = play_seed(rng)
    settled = []
    for defence in defences:
        comparison = compare_rolls(attack, defence, rules)
        stb = _super_tiebreak(play, rules) if comparison.needs_super_tiebreak else None
        settled.append(damage_dealt(comparison, attack_type, stb, rules))
    return tuple(settled), is_crit(attack, rules), tuple(is_crit(d, rules) for d in defences)


def opposed_run(
    rng: random.Random, attack_dice: int, defence_dice: int, attack_type: str, rules: Rules
) -> AttackOutcome:
    """One attack against one defender, as :func:`~.odds.opposed` counts its outcomes."""
    settled, attacker_crit, defender_crits = sampled_attack(rng, attack_dice, (defence_dice,), attack_type, rules)
    ((dd, ad),) = settled
    return attack_outcome(dd, ad, attacker_crit, defender_crits[0])


def take_out_run(
    rng: random.Random,
    attack_dice: int,
    defence_dice: int,
    target: Character,
    attack_type: str,
    rules: Rules,
    cap: int | None = None,
) -> int | MoreThan:
    """How many attacks took ``target`` out (AM-10: damage accumulates until it reaches her
    Health), each attack rolled by :func:`opposed_run`; ``MoreThan(cap)`` when she still
    stands after ``cap`` attacks (no cap: attack until she is out)."""
    play = play_seed(rng)
    attacks = 0
    while cap is None or attacks < cap:
        attacks += 1
        dealt = opposed_run(play, attack_dice, defence_dice, attack_type, rules).defender_damage
        if dealt:
            target = target.take_damage(dealt)
            if target.is_out:
                return attacks
    return MoreThan(cap)


def exchange_end(attacker: Character, defender: Character) -> ExchangeEnd | None:
    """How a melee exchange stands (AM-10): who is out with the Health each side has left,
    or ``None`` while both stand."""
    if attacker.is_out:
        return ExchangeEnd(attacker.name, 0, defender.health_left)
    if defender.is_out:
        return ExchangeEnd(defender.name, attacker.health_left, 0)
    return None


def exchange_run(
    rng: random.Random,
    attacker: Character,
    defender: Character,
    strikes: Pools,
    strikes_back: Pools,
    alternate: bool,
    rules: Rules,
) -> ExchangeEnd:
    """One melee fight to the finish: the attacker strikes with ``strikes`` (her pools against
    the defender), then, with ``alternate``, the defender with ``strikes_back``, in turn until
    one is out; each strike deals its damage and its melee return damage (AM-3)."""
    play = play_seed(rng)
    turns = ((strikes, False), (strikes_back, True)) if alternate else ((strikes, False),)
    while True:
        for pools, struck_back in turns:
            struck = opposed_run(play, pools.attack, pools.defence, "melee", rules)
            if not (struck.defender_damage or struck.attacker_damage):
                continue
            to_attacker, to_defender = struck.attacker_damage, struck.defender_damage
            if struck_back:  # the defender strikes: her target is the attacker
                to_attacker, to_defender = to_defender, to_attacker
            if to_attacker:
                attacker = attacker.take_damage(to_attacker)
            if to_defender:
                defender = defender.take_damage(to_defender)
            end = exchange_end(attacker, defender)
            if end is not None:
                return end


def sampled_odds(
    run: Callable[[random.Random], Hashable],
    stream: tuple[Any, ...],
    trials: int,
    seed: int | str,
    precision: float | None,
    time_limit: float,
    events: Sequence[Callable[[Any], bool]] = (),
    trial_name: str = "simulated attacks",
    half_width: Callable[[Mapping[Any, int], int], float] | None = None,
) -> Odds[Any]:
    """The Monte Carlo odds of ``run(rng)`` over ``trials`` runs (batch 0 seeded by
    ``f"{seed}:{stream}"``, batch ``k`` by ``f"{seed}:{k}:{stream}"``), sampled until every
    outcome and ``events`` reach ``precision`` (:func:`~toolkit.odds_samples.sample_runs`),
    with every run kept (:class:`~toolkit.odds_samples.Samples`, named by ``stream`` — the
    calculator and the pools, never the rules — the seed and the batches). ``half_width``
    replaces the Wilson half-widths of the outcomes and ``events`` as what is compared
    with ``precision`` (a calculator of a mean: :func:`~toolkit.odds_result.counts_mean_half_width`)."""
    started = time.perf_counter()
    trials = check_trials(trials)
    seed = check_seed(seed)
    precision = check_precision(precision)
    time_limit = check_time_limit(time_limit)

    def draw(n: int, batch: int) -> Iterator[Hashable]:  # run by run: a time limit stops it between two
        rng = random.Random(f"{seed}:{stream}" if batch == 0 else f"{seed}:{batch}:{stream}")
        for _ in range(n):
            outcome = run(rng)
            tick()  # a run done: the progress of long work (toolkit.progress)
            yield outcome

    def widest(counts: Any, runs: int) -> float:
        return counts_half_width(counts, runs, events)

    results, batches = sample_runs(draw, trials, precision, half_width or widest, time_limit, trial_name)
    samples = Samples.of((*stream, seed, batches), results)
    return Odds.from_samples(samples, trial_name=trial_name, seconds=time.perf_counter() - started)
