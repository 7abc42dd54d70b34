"""A whole battle as a Markov chain over rounds (:func:`battle_outcome`)."""

from __future__ import annotations

import html
import math
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from math import lcm
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from toolkit.durak_battle.morale import morale_holds, morale_order, morale_penalty, spirit_roll
from toolkit.durak_battle.odds.battle_bootstrap import battle_replicates
from toolkit.durak_battle.odds.checks import (
    check_policies,
    check_rules,
    policy_label,
)
from toolkit.durak_battle.odds.clash_losses import (
    Path,
    clash_runs,
    exact_clash_paths,
    remember_cache,
)
from toolkit.durak_battle.odds.deal_classes import BATTLE_EXACT_LIMIT, EXACT_LIMIT, exact_size
from toolkit.durak_battle.odds.result import OddsResult
from toolkit.durak_battle.recon import cards_drawn, knowledge_roll, token_advantage
from toolkit.durak_battle.rules import SIDES, Army, Rules, leader_words, settle_losses
from toolkit.engine import Policy
from toolkit.errors import InvalidSetupError, PrecisionNotReachedError
from toolkit.odds_result import (
    DEFAULT_TIME_LIMIT,
    Replicates,
    check_method,
    check_precision,
    check_seed,
    check_time_limit,
    check_trials,
    choose_method,
    next_batch,
    not_reached,
)
from toolkit.outcome_names import Side, field_values, sides
from toolkit.prob import Distribution
from toolkit.progress import shows_progress
from toolkit.question import Question
from toolkit.whole_numbers import whole_number

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "DEFAULT_BATTLE_TRIALS",
    "BattleEnd",
    "BattleOdds",
    "battle_outcome",
]

#: Monte Carlo clashes per pair of hand sizes in :func:`battle_outcome` (sampled with
#: :class:`~.position.ClashPosition`, the clash state machine the engine steps too).
DEFAULT_BATTLE_TRIALS = 1_000


# -- the whole battle -------------------------------------------------------------------------
class BattleEnd(NamedTuple):
    """How a battle ended.

    Attributes:
        winner: the winning army, a :class:`~toolkit.outcome_names.Side`: its name
            (``"Horde"``), equal to its side ``"a"``/``"b"`` too; ``None`` when undecided or
            both armies were destroyed at once.
        how: ``"retreat"`` (the loser failed a morale check, DB-8), ``"destroyed"`` (the
            loser was reduced to 0 tokens, DB-7) or ``"undecided"`` (still going after
            ``max_rounds``).
        rounds: the round it ended in.
    """

    winner: str | None
    how: str
    rounds: int

    #: What the fields hold besides numbers: the armies (:class:`~toolkit.outcome_names.Side`) or None, and the ends.
    FIELD_VALUES = field_values(winner=(Side, None), how=("retreat", "destroyed", "undecided"))


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class BattleOdds(OddsResult):
    """The outcome of a whole battle, from the Markov chain over rounds.

    It is the :class:`~toolkit.prob.Distribution` of :class:`BattleEnd` (an
    :class:`~toolkit.odds_result.Odds`: ``.probability(event)``, ``.interval(event)``,
    ``.exact``, ``.method``, ``.trials``).

    Attributes:
        distribution: the distribution of :class:`BattleEnd`.
        method: ``"exact"`` (every transition exact), ``"monte_carlo"`` (every clash table
            sampled) or ``"mixed"``. When some clashes were sampled the probabilities are
            exact arithmetic on Monte Carlo estimates, **approximate**, and
            :meth:`interval` comes from a parametric bootstrap over the sampled tables
            (see :func:`battle_outcome`).
        sampled: the (cards a, cards b) hand-size pairs whose clash odds are Monte Carlo.
        trials: Monte Carlo clashes per sampled pair (``None`` when exact).
        note: a sentence saying where the numbers come from.
        names: the armies' names, side a's first (what the text calls them).
    """

    sampled: tuple[tuple[int, int], ...] = ()
    note: str = ""
    states: int = 0
    names: tuple[str, str] = ("army a", "army b")
    trial_name: str = "simulated clashes per sampled table"

    def winner(self) -> Distribution[str | None]:
        """The distribution of the winner (``None``: undecided), with its intervals."""
        return self.marginal("winner")

    def headline_events(self) -> list[tuple[str, Callable[[BattleEnd], bool]]]:
        """Who wins (each army, or nobody: undecided or both destroyed)."""
        return [
            (f"{self.names[0]} wins", _wins_a),
            (f"{self.names[1]} wins", _wins_b),
            ("no winner", _no_winner),
        ]

    def how(self) -> str:
        if self.exact:
            return "exact"
        if self.method == "monte_carlo":
            runs = f"estimated (every clash table from {self.trials:,} simulated clashes)"
        else:
            runs = f"partly estimated ({len(self.sampled)} clash tables from {self.trials:,} simulated clashes each)"
        return f"{runs}; {self.confidence:.0%} intervals by a parametric bootstrap over the sampled clash tables"

    def to_frame(self, floats: bool = False) -> pd.DataFrame:
        """A table: ``winner``, ``how``, ``rounds``, ``probability`` and ``percent``."""
        return self.distribution.to_frame(floats)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td style='text-align:left'>{html.escape(label)}</td><td>{html.escape(self.text(ev))}</td></tr>"
            for label, ev in self.headline_events()
        )
        note = f"<p>{html.escape(self.note)}</p>" if not self.exact else ""
        if not self.exact:  # on sampled clash odds: every outcome with its interval, never the plain frequencies
            return self._heading_html() + note + super()._repr_html_().removeprefix(self._heading_html())
        return self._heading_html() + f"<table><tbody>{rows}</tbody></table>" + self.distribution._repr_html_()

    def __str__(self) -> str:
        lines = [self.headline()]
        if not self.exact:
            lines.append(f"  {self.note}")
        labels = self.headline_events()
        width = max(len(label) for label, _ in labels)
        for label, event in labels:
            lines.append(f"  {label:{width}} {self.text(event)}")
        return "\n".join(lines)


def _wins_a(end: BattleEnd) -> bool:
    return getattr(end.winner, "role", end.winner) == "a"


def _wins_b(end: BattleEnd) -> bool:
    return getattr(end.winner, "role", end.winner) == "b"


def _no_winner(end: BattleEnd) -> bool:
    return end.winner is None


#: Transitions of the battle chain already computed (integer weights over a denominator,
#: and the pairs of hand sizes met and sampled), by state and everything they depend on:
#: battles of the same leaders and rules share their states (a report's army sizes, the
#: morale variants). Cleared by :func:`~toolkit.durak_battle.odds.clash_losses.clear_caches`.
_TRANSITIONS: dict[tuple, tuple[int, dict, dict, frozenset, frozenset, tuple]] = remember_cache({})


def _check_army(army: object, who: str) -> Army:
    if not isinstance(army, Army):
        raise InvalidSetupError(f"army_{who} must be an Army (tokens and a Leader), got {army!r}")
    if army.destroyed:
        raise InvalidSetupError(f"{army.name} has no tokens and cannot fight (DB-7)")
    return army


def _how(sampled: int, all_pairs: int, method: str, trials: int) -> tuple[str, str]:
    """The method of a battle's odds and the note saying where its numbers come from."""
    if not sampled:
        return "exact", f"exact: every clash computed exactly ({all_pairs} pairs of hand sizes)"
    how = "monte_carlo" if sampled == all_pairs else "mixed"
    why = "as asked" if method == "monte_carlo" else f"each has more than {BATTLE_EXACT_LIMIT:,} deals to count exactly"
    return how, (
        f"APPROXIMATE: the clash odds of {sampled} of {all_pairs} pairs of hand sizes are Monte Carlo estimates "
        f"from {trials:,} simulated clashes each ({why}); the rest of the battle is computed exactly from them"
    )


@shows_progress(lambda asked: ("simulated clashes", None))  # the sampled tables tick it
def battle_outcome(
    army_a: Army,
    army_b: Army,
    rules: Rules | None = None,
    policies: Sequence[str | Policy] | str | Policy = ("greedy", "greedy"),
    max_rounds: int = 50,
    method: str = "auto",
    trials: int = DEFAULT_BATTLE_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> BattleOdds:
    """Return the distribution of how a whole battle ends: the winner, how (``"retreat"``,
    ``"destroyed"``, ``"undecided"`` after ``max_rounds``) and the round.

    The battle is a Markov chain over rounds whose state is both armies' tokens (the
    tokens lost in the whole battle, for ``morale_penalty="battle"``, are the tokens
    each army started with minus what it holds). Each round:

    1. Both leaders roll Knowledge (Battle) and draw that many cards plus 1 per token
       their army outnumbers the other by (DB-2, :func:`hand_size_distribution`), from a
       fresh deck (DB-9).
    2. The clash for those hand sizes (:func:`clash_losses`' tables, exact or Monte Carlo,
       computed once per pair of hand sizes): who held the initiative (DB-3) and the
       losses as they happened. No attack card on either side: no clash and no morale
       roll; the next round starts.
    3. Losses never go below 0; an army at 0 is destroyed and the battle ends at once
       (DB-7, :func:`~toolkit.durak_battle.rules.settle_losses`: both at 0 in the same
       step destroys both).
    4. Morale (DB-8): the side originally attacked — without the initiative — rolls
       Spirit first, -1 per token lost (in the clash, or the battle with the variant),
       4+ to stay; if it stays the other side rolls. A failure is a retreat.

    Every number above is the default of a field of ``rules`` (house rules: the tokens
    each answer costs, the cards per token of advantage, the morale target and penalty).

    ``method="auto"`` computes each clash table exactly within :data:`BATTLE_EXACT_LIMIT` and by
    Monte Carlo (``trials`` clashes per pair of hand sizes, played with the clash state
    machine, :class:`~toolkit.durak_battle.position.ClashPosition`, seeded by ``seed``)
    above it; ``"exact"`` raises :class:`~toolkit.errors.TooBigError` if any pair is above
    the limit; ``"monte_carlo"`` samples every pair. With any sampled pair the result is
    approximate: ``result.exact`` is ``False`` and ``result.note`` says so.

    **The uncertainty of an estimated battle** (``result.interval(event)``) comes from a
    parametric bootstrap over the sampled clash tables: each sampled pair's counts are
    drawn again from the multinomial law of its observed frequencies (the same number
    of clashes), the whole chain is rerun on those tables
    (:data:`~toolkit.odds_result.BOOTSTRAP_REPLICATES` times, in floating point, all
    replicates at once), and the interval of an event is its estimate ± the replicates'
    standard deviation times the Student quantile of the confidence (95%). The exact
    tables stay fixed. It is computed when an interval is first asked for. Its coverage
    is tested on battles small enough to be exact: the 95% interval of P(a wins) covers
    the exact value in at least 90 of 100 seeds.

    ``precision`` (the largest half-width of a 95% interval, in probability: 0.01 is ±1
    point) samples more clashes per sampled pair, in batches (batch ``k`` seeded by
    ``f"{seed}:{k}"``), until each army's chance of winning, of no winner and of every
    outcome reaches it; ``trials`` is the first batch. Past ``time_limit`` seconds it
    stops with :class:`~toolkit.errors.PrecisionNotReachedError`, saying the precision
    reached.

    Raises:
        InvalidSetupError: a destroyed army, bad rules, policies, method, trials,
            precision, time_limit or max_rounds; hands that could be larger than the deck.
        TooBigError: ``method="exact"`` when a reachable pair of hand sizes is above the limit.
        PrecisionNotReachedError: ``precision`` not reached within ``time_limit``.
    """
    started = time.perf_counter()
    rules = check_rules(rules)
    army_a, army_b = _check_army(army_a, "a"), _check_army(army_b, "b")
    if army_a.name == army_b.name:
        raise InvalidSetupError(f"the two armies need different names, both are {army_a.name!r}")
    pols = check_policies(policies)
    max_rounds = whole_number(max_rounds, "max_rounds", 1)
    trials = check_trials(trials)
    seed = check_seed(seed)
    check_method(method)
    precision = check_precision(precision)
    time_limit = check_time_limit(time_limit)
    plan: tuple[int, ...] = (trials,)
    sizes = f"{army_a.name} {army_a.tokens} v {army_b.name} {army_b.tokens} tokens"
    leaders = f"leaders {leader_words(army_a.leader)} v {leader_words(army_b.leader)}"
    question = Question.about(
        rules, sizes, leaders, f"at most {max_rounds} rounds", policies=[policy_label(p) for p in pols]
    )
    while True:
        odds = _chain(army_a, army_b, rules, pols, max_rounds, method, plan, seed, started, question, time_limit)
        if precision is None or odds.exact:
            return odds
        reached = odds.half_width()
        if reached <= precision:
            return odds
        spent = time.perf_counter() - started
        runs = sum(plan)
        if spent >= time_limit:
            raise not_reached(time_limit, spent, runs, "simulated clashes per sampled pair", reached, precision)
        more = next_batch(runs, reached, precision)
        if math.isfinite(time_limit):
            more = min(more, int((time_limit - spent) / max(spent / runs, 1e-9)))
        plan += (max(1, more),)


def clash_counts(
    na: int,
    nb: int,
    pols: tuple[Policy, Policy],
    rules: Rules,
    plan: tuple[int, ...],
    seed: Any,
    started: float = 0.0,
    time_limit: float = math.inf,
) -> Counter:
    """The sampled clash table of ``na`` v ``nb`` cards over the batches of ``plan``: batch
    0 is the clashes of :func:`~.clash_losses.sampled_clash_paths` with ``seed``, batch ``k``
    with ``f"{seed}:{k}"``.

    Raises:
        PrecisionNotReachedError: ``time_limit`` seconds after ``started`` (the clock is
            read between two clashes) before the table is whole: every sampled pair of hand
            sizes needs all its clashes, so a battle is never the estimate of fewer.
    """
    total: Counter = Counter()
    for k, n in enumerate(plan):
        for i, run in enumerate(clash_runs(na, nb, pols, rules, n, seed if k == 0 else f"{seed}:{k}")):
            total[run] += 1
            if i % 8 == 7 and time.perf_counter() - started > time_limit:
                raise PrecisionNotReachedError(
                    f"stopped at the time limit of {time_limit:g} s sampling the clashes of {na} v {nb} cards: the "
                    f"battle needs {sum(plan):,} simulated clashes for each sampled pair of hands; allow more time "
                    "(time_limit=) or give fewer trials"
                )
    return total


#: The sampled clash tables of :func:`clash_counts` as the chain reads them (clashes, rows
#: (holder, path, count), True), by everything they depend on: the battles of a report
#: share them. Cleared by :func:`~toolkit.durak_battle.odds.clash_losses.clear_caches`.
_SAMPLED_TABLES: dict[tuple, tuple[int, list[tuple[str | None, Path, int]], bool]] = remember_cache({})


def _sampled_table(
    na: int,
    nb: int,
    pols: tuple[Policy, Policy],
    rules: Rules,
    plan: tuple[int, ...],
    seed: Any,
    started: float = 0.0,
    time_limit: float = math.inf,
) -> tuple[int, list[tuple[str | None, Path, int]], bool]:
    key = (na, nb, pols, rules, plan, seed)
    found = _SAMPLED_TABLES.get(key)
    if found is None:
        counts = clash_counts(na, nb, pols, rules, plan, seed, started, time_limit)
        found = _SAMPLED_TABLES[key] = (sum(plan), [(h, path, n) for (h, path), n in counts.items()], True)
    return found


def _chain(
    army_a: Army,
    army_b: Army,
    rules: Rules,
    pols: tuple[Policy, Policy],
    max_rounds: int,
    method: str,
    plan: tuple[int, ...],
    seed: int,
    started: float,
    question: Question,
    time_limit: float = math.inf,
) -> BattleOdds:
    """The battle chain with the sampled clash tables of ``plan`` (:func:`battle_outcome`),
    answering ``question`` (its size: the chain's states)."""
    trials = sum(plan)
    leaders = (army_a.leader, army_b.leader)
    rolls = [knowledge_roll(ld) for ld in leaders]
    spirit = [spirit_roll(ld) for ld in leaders]
    start = (army_a.tokens, army_b.tokens)
    deck = rules.deck_size
    largest = [cards_drawn(max(r.outcomes()), 0, rules) for r in rolls]

    sampled: set[tuple[int, int]] = set()
    pairs: set[tuple[int, int]] = set()  # the pairs of hand sizes the chain meets
    tables: dict[tuple[int, int], tuple[int, list[tuple[str | None, Path, int]], bool]] = {}
    # DB-8 applies after the clash and the clash never reads it: one table serves both variants
    clash_rules = replace(rules, morale_penalty="clash")

    def table(na: int, nb: int) -> tuple[int, list[tuple[str | None, Path, int]], bool]:
        """The clash table of ``na`` v ``nb`` cards as integer weights over one denominator,
        and whether it was sampled."""
        if (na, nb) in tables:
            return tables[(na, nb)]
        size = exact_size(na, nb, rules)
        how = choose_method(
            method,
            size,
            BATTLE_EXACT_LIMIT,
            f"the battle reaches clashes of {na} v {nb} cards: an exact clash table",
            "deal classes",
            "EXACT_LIMIT",
            exact_limit=EXACT_LIMIT,
        )
        if how == "monte_carlo":
            found = _sampled_table(na, nb, pols, clash_rules, plan, seed, started, time_limit)
        else:
            exact = exact_clash_paths(na, nb, pols, clash_rules)
            den = lcm(*(q.denominator for q in exact.values()))
            found = (den, [(h, path, q.numerator * (den // q.denominator)) for (h, path), q in exact.items()], False)
        tables[(na, nb)] = found
        ids = np.array([row_id(h, path) for h, path, _ in found[1]], dtype=np.int64)
        counts = [x for *_, x in found[1]]
        # a sampled table's counts (at most its clashes) add up exactly as floats: bincount
        rows_of[(na, nb)] = (ids, np.array(counts, dtype=float) if found[2] else counts)
        return found

    # each (holder, path) of the tables numbered once: a state settles each once (DB-7),
    # whatever tables it appears in, and looks it up by its number
    row_ids: dict[tuple[str | None, Path], int] = {}
    row_list: list[tuple[str | None, Path]] = []
    rows_of: dict[tuple[int, int], tuple[np.ndarray, Any]] = {}

    def row_id(holder: str | None, path: Path) -> int:
        found = row_ids.get((holder, path))
        if found is None:
            found = row_ids[(holder, path)] = len(row_list)
            row_list.append((holder, path))
        return found

    @cache
    def pass_chance(side: int, penalty: int) -> Fraction:
        return spirit[side].probability(lambda r: morale_holds(r, penalty, rules))

    def hand_sizes(ta: int, tb: int) -> Distribution[tuple[int, int]]:
        """Both hand sizes from tokens (ta, tb) (DB-2), checked against the deck (DB-1)."""
        adv = (token_advantage(ta, tb), token_advantage(tb, ta))
        extra = (adv[0] + adv[1]) * rules.cards_per_token
        worst = largest[0] + largest[1] + extra
        if worst > deck:
            raise InvalidSetupError(
                f"with tokens {ta} v {tb} the hands could reach {worst} cards ({largest[0]} + {largest[1]} rolled "
                f"+ {extra} for outnumbering), more than the {deck}-card deck holds (DB-1, DB-2)"
            )
        return (
            rolls[0]
            .map(lambda r: cards_drawn(r, adv[0], rules))
            .combine(rolls[1].map(lambda r: cards_drawn(r, adv[1], rules)))
        )

    def consequences(ta: int, tb: int, key: tuple[str | None, int, int, str | None]) -> list[tuple[tuple, Fraction]]:
        """What a settled clash (holder, lost a, lost b, destroyed) from tokens (ta, tb) leads
        to, with its probability: ``("state", tokens)`` (the next round) or ``("end", (winner,
        how))`` (DB-3, DB-7, DB-8)."""
        holder, la, lb, destroyed = key
        if holder is None:  # DB-3: no clash, no morale roll
            return [(("state", (ta, tb)), Fraction(1))]
        if destroyed is not None:  # DB-7: both at once leaves no winner
            winner = None if destroyed == "both" else SIDES[1 - SIDES.index(destroyed)]
            return [(("end", (winner, "destroyed")), Fraction(1))]
        left = (ta - la, tb - lb)
        lost = (
            morale_penalty(rules, la, start[0] - left[0]),
            morale_penalty(rules, lb, start[1] - left[1]),
        )
        first, second = morale_order(1 - SIDES.index(holder))  # DB-8: the side originally attacked first
        p_first = pass_chance(first, lost[first])
        p_second = pass_chance(second, lost[second])
        return [
            (("end", (SIDES[second], "retreat")), 1 - p_first),
            (("end", (SIDES[first], "retreat")), p_first * (1 - p_second)),
            (("state", left), p_first * p_second),
        ]

    def transition(ta: int, tb: int) -> tuple[dict, dict, tuple]:
        """From tokens (ta, tb): next states, and endings (winner, how), for one round; and
        what the bootstrap needs (:func:`~.battle_bootstrap.battle_replicates`): for each
        sampled pair the settled clash of each row of its table, the exact pairs' settled
        clashes as floats, and what each settled clash leads to."""
        sizes = hand_sizes(ta, tb)
        nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        ends: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        # integer weights of each settled outcome (by its number in keys) by denominator,
        # added up as fractions once
        by_den: dict[int, dict[int, int]] = defaultdict(dict)
        keys: dict[tuple[str | None, int, int, str | None], int] = {}  # numbered as first met
        settled = np.full(len(row_list), -1, dtype=np.int64)  # the settled clash of each row (by its id); -1: not yet
        sampled_rows: list[tuple[tuple[int, int], float, np.ndarray]] = []
        fixed: dict[int, float] = defaultdict(float)
        for (na, nb), p in sizes.items():
            den, _, was_sampled = table(na, nb)
            ids, counts = rows_of[(na, nb)]
            pairs.add((na, nb))
            if len(settled) < len(row_list):  # the table brought rows not met before
                settled = np.concatenate((settled, np.full(len(row_list) - len(settled), -1, dtype=np.int64)))
            ks = settled[ids]
            for rid in ids[ks < 0].tolist():  # DB-7: settled once per state, in the table's order
                holder, path = row_list[rid]
                settled[rid] = keys.setdefault((holder, *settle_losses((ta, tb), path)), len(keys))
            ks = settled[ids]
            summed: dict[int, int]  # integers: exactly the sum of p * q over the paths
            if was_sampled:
                present = np.unique(ks)
                sums = np.bincount(ks, weights=counts)[present].astype(np.int64)
                summed = dict(zip(present.tolist(), sums.tolist(), strict=True))
                sampled.add((na, nb))
                sampled_rows.append(((na, nb), float(p), ks.astype(np.int32)))
            else:
                summed = {}
                for k, x in zip(ks.tolist(), counts, strict=True):
                    summed[k] = summed.get(k, 0) + x
                share = float(p)
                for k, x in summed.items():
                    fixed[k] += share * (x / den)
            num, scale = p.numerator, p.denominator * den  # p * x / den, exactly
            for k, x in summed.items():
                weights = by_den[k]
                weights[scale] = weights.get(scale, 0) + num * x
        effects: dict[int, list[tuple[tuple, Fraction]]] = {}
        for key, k in keys.items():  # by_den holds every key, first met first
            p = sum((Fraction(x, d) for d, x in by_den[k].items()), Fraction(0))
            effects[k] = consequences(ta, tb, key)
            for (kind, target), c in effects[k]:
                if kind == "state":
                    nxt[target] += p * c
                else:
                    ends[target] += p * c
        floats = [[(t, float(c)) for t, c in effects[k]] for k in keys.values()]
        return dict(nxt), dict(ends), (tuple(sampled_rows), dict(fixed), floats)

    # Transitions as integer weights over one denominator per state, found as reached.
    trans: dict[tuple[int, int], tuple[int, dict[tuple[int, int], int], dict[tuple[str, str], int]]] = {}
    parts_of: dict[tuple[int, int], tuple] = {}  # what the bootstrap needs, by state

    # A state's transition depends on the tokens, the leaders, the rules, the policies and
    # the clash tables' method; on the starting tokens only with morale_penalty="battle" (DB-8).
    chain_key = (leaders, rules, pols, method, plan, seed, None if rules.morale_penalty == "clash" else start)

    def weights_of(s: tuple[int, int]):
        if s not in trans:
            known = _TRANSITIONS.get((s, chain_key))
            if known is None:
                before = (set(pairs), set(sampled))
                pairs.clear()
                sampled.clear()
                nxt, ends, parts = transition(*s)
                den = lcm(*(p.denominator for p in list(nxt.values()) + list(ends.values())))
                known = (
                    den,
                    {t: int(p * den) for t, p in nxt.items()},
                    {e: int(p * den) for e, p in ends.items()},
                    frozenset(pairs),
                    frozenset(sampled),
                    parts,
                )
                _TRANSITIONS[(s, chain_key)] = known
                pairs.update(before[0])
                sampled.update(before[1])
            trans[s] = known[:3]
            pairs.update(known[3])
            sampled.update(known[4])
            parts_of[s] = known[5]
        return trans[s]

    alive: dict[tuple[int, int], int] = {start: 1}
    scale = 1  # alive weights are over this denominator
    result: dict[BattleEnd, Fraction] = defaultdict(Fraction)
    for round_no in range(1, max_rounds + 1):
        if not alive:
            break
        dens = {s: weights_of(s)[0] for s in alive}
        common = lcm(*dens.values())
        new_alive: dict[tuple[int, int], int] = defaultdict(int)
        ended: dict[tuple[str, str], int] = defaultdict(int)
        for s, w in alive.items():
            den, nxt, ends = trans[s]
            factor = w * (common // den)
            for t, x in nxt.items():
                new_alive[t] += factor * x
            for e, x in ends.items():
                ended[e] += factor * x
        scale *= common
        for (winner, how), x in ended.items():
            if x:
                result[BattleEnd(winner, how, round_no)] += Fraction(x, scale)
        alive = {s: w for s, w in new_alive.items() if w}
    if alive:
        result[BattleEnd(None, "undecided", max_rounds)] += Fraction(sum(alive.values()), scale)
    ordered = sorted(result, key=lambda e: (e.winner or "~", e.how, e.rounds))
    by_role = dict(zip(SIDES, sides(("a", army_a.name), ("b", army_b.name)), strict=True))
    dist = Distribution({e._replace(winner=by_role.get(e.winner)): result[e] for e in ordered})
    how, note = _how(len(sampled), len(pairs), method, trials)

    def bootstrap() -> Replicates:
        for pair in sampled:  # the tables of states whose transitions were remembered
            table(*pair)
        return battle_replicates(start, parts_of, tables, dist.outcomes(), max_rounds, f"{seed}:{plan}")

    return BattleOdds(
        distribution=dist,
        method=how,
        sampled=tuple(sorted(sampled)),
        trials=trials if sampled else None,
        note=note,
        states=len(trans),
        seconds=time.perf_counter() - started,
        names=(army_a.name, army_b.name),
        replicates=bootstrap if sampled else None,
        question=question.but(size=len(trans)),
    )
