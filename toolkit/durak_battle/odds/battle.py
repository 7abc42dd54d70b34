"""A whole battle as a Markov chain over rounds (:func:`battle_outcome`)."""

from __future__ import annotations

import html
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import lcm
from typing import TYPE_CHECKING, NamedTuple

from toolkit.durak_battle.morale import morale_holds, morale_order, morale_penalty, spirit_roll
from toolkit.durak_battle.odds.checks import (
    METHODS,
    check_policies,
    check_rules,
    whole_number,
)
from toolkit.durak_battle.odds.clash_losses import (
    Path,
    exact_clash_paths,
    remember_cache,
    sampled_clash_paths,
)
from toolkit.durak_battle.odds.deal_classes import BATTLE_EXACT_LIMIT, EXACT_LIMIT, exact_size
from toolkit.durak_battle.odds.result import OddsResult
from toolkit.durak_battle.recon import cards_drawn, knowledge_roll, token_advantage
from toolkit.durak_battle.rules import SIDES, Army, Rules, settle_losses
from toolkit.engine import Policy
from toolkit.errors import InvalidSetupError, TooBigError
from toolkit.prob import Distribution

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
        winner: ``"a"``, ``"b"``, or ``None`` when undecided or both armies were destroyed at once.
        how: ``"retreat"`` (the loser failed a morale check, DB-8), ``"destroyed"`` (the
            loser was reduced to 0 tokens, DB-7) or ``"undecided"`` (still going after
            ``max_rounds``).
        rounds: the round it ended in.
    """

    winner: str | None
    how: str
    rounds: int


@dataclass(frozen=True)
class BattleOdds(OddsResult):
    """The outcome of a whole battle, from the Markov chain over rounds.

    It reads like the :class:`~toolkit.prob.Distribution` of :class:`BattleEnd`.

    Attributes:
        distribution: the distribution of :class:`BattleEnd`.
        exact: whether every transition is exact. When some clashes were sampled the
            probabilities are exact arithmetic on Monte Carlo estimates: **approximate**.
        method: ``"exact"``, ``"monte_carlo"`` (every clash sampled) or ``"mixed"``.
        sampled: the (cards a, cards b) hand-size pairs whose clash odds are Monte Carlo.
        trials: Monte Carlo clashes per sampled pair (``None`` when exact).
        note: a sentence saying where the numbers come from.
        names: the armies' names, side a's first (what the text calls them).
    """

    distribution: Distribution[BattleEnd]
    exact: bool
    method: str
    sampled: tuple[tuple[int, int], ...] = ()
    trials: int | None = None
    note: str = ""
    states: int = 0
    seconds: float = field(default=0.0, compare=False)
    names: tuple[str, str] = ("army a", "army b")

    def winner(self) -> Distribution[str | None]:
        """The distribution of the winner (``None``: undecided)."""
        return self.distribution.marginal("winner")

    def to_frame(self, floats: bool = False) -> pd.DataFrame:
        """A table: ``winner``, ``how``, ``rounds``, ``probability`` and ``percent``."""
        return self.distribution.to_frame(floats)

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.note)}</p>" + self.distribution._repr_html_()

    def __str__(self) -> str:
        lines = [f"BattleOdds, {self.note}"]
        labels = (("a", f"{self.names[0]} wins"), ("b", f"{self.names[1]} wins"), (None, "undecided"))
        width = max(len(label) for _, label in labels)
        for key, label in labels:
            p = self.probability(lambda o, k=key: o.winner == k)
            lines.append(f"  {label:{width}} {float(p):.2%}")
        return "\n".join(lines)


#: Transitions of the battle chain already computed (integer weights over a denominator,
#: and the pairs of hand sizes met and sampled), by state and everything they depend on:
#: battles of the same leaders and rules share their states (a report's army sizes, the
#: morale variants). Cleared by :func:`~toolkit.durak_battle.odds.clash_losses.clear_caches`.
_TRANSITIONS: dict[tuple, tuple[int, dict, dict, frozenset, frozenset]] = remember_cache({})


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


def battle_outcome(
    army_a: Army,
    army_b: Army,
    rules: Rules | None = None,
    policies: Sequence[str | Policy] | str | Policy = ("greedy", "greedy"),
    max_rounds: int = 50,
    method: str = "auto",
    trials: int = DEFAULT_BATTLE_TRIALS,
    seed: int = 0,
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
    machine, :class:`~toolkit.durak_battle.position.ClashPosition`) above it; ``"exact"``
    raises :class:`~toolkit.errors.TooBigError` if any pair is above the limit;
    ``"monte_carlo"`` samples every pair. With any sampled pair the result is approximate:
    ``result.exact`` is ``False`` and ``result.note`` says so.

    Raises:
        InvalidSetupError: a destroyed army, bad rules, policies, method, trials or
            max_rounds; hands that could be larger than the deck.
        TooBigError: ``method="exact"`` when a reachable pair of hand sizes is above the limit.
    """
    started = time.perf_counter()
    rules = check_rules(rules)
    army_a, army_b = _check_army(army_a, "a"), _check_army(army_b, "b")
    if army_a.name == army_b.name:
        raise InvalidSetupError(f"the two armies need different names, both are {army_a.name!r}")
    pols = check_policies(policies)
    whole_number(max_rounds, "max_rounds", minimum=1)
    whole_number(trials, "trials", minimum=1)
    if method not in METHODS:
        raise InvalidSetupError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
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
        if method == "exact" and size > EXACT_LIMIT:
            raise TooBigError(
                f"the battle reaches clashes of {na} v {nb} cards, {size:,} deal classes, above the limit of "
                f"{EXACT_LIMIT:,} (EXACT_LIMIT): use method='auto' (Monte Carlo for those) or 'monte_carlo'"
            )
        if method == "monte_carlo" or (method == "auto" and size > BATTLE_EXACT_LIMIT):
            counts = sampled_clash_paths(na, nb, pols, clash_rules, trials, seed)
            found = (trials, [(h, path, n) for (h, path), n in counts.items()], True)
        else:
            exact = exact_clash_paths(na, nb, pols, clash_rules)
            den = lcm(*(q.denominator for q in exact.values()))
            found = (den, [(h, path, q.numerator * (den // q.denominator)) for (h, path), q in exact.items()], False)
        tables[(na, nb)] = found
        return found

    # settle_losses (DB-7) of each path, remembered by the armies' tokens, then by path
    settle_memo: dict[tuple[int, int], dict[Path, tuple[int, int, str | None]]] = defaultdict(dict)

    @cache
    def pass_chance(side: int, penalty: int) -> Fraction:
        return spirit[side].probability(lambda r: morale_holds(r, penalty, rules))

    def transition(ta: int, tb: int) -> tuple[dict[tuple[int, int], Fraction], dict[tuple[str, str], Fraction]]:
        """From tokens (ta, tb): next states, and endings (winner, how), for one round."""
        adv = (token_advantage(ta, tb), token_advantage(tb, ta))
        extra = (adv[0] + adv[1]) * rules.cards_per_token
        worst = largest[0] + largest[1] + extra
        if worst > deck:
            raise InvalidSetupError(
                f"with tokens {ta} v {tb} the hands could reach {worst} cards ({largest[0]} + {largest[1]} rolled "
                f"+ {extra} for outnumbering), more than the {deck}-card deck holds (DB-1, DB-2)"
            )
        sizes = (
            rolls[0]
            .map(lambda r: cards_drawn(r, adv[0], rules))
            .combine(rolls[1].map(lambda r: cards_drawn(r, adv[1], rules)))
        )
        nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        ends: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        # integer weights of each settled outcome by denominator, added up as fractions once
        by_den: dict[tuple[str | None, int, int, str | None], dict[int, int]] = defaultdict(dict)
        for (na, nb), p in sizes.items():
            den, rows, was_sampled = table(na, nb)
            pairs.add((na, nb))
            if was_sampled:
                sampled.add((na, nb))
            summed: dict[tuple[str | None, int, int, str | None], int] = defaultdict(int)
            settled_paths = settle_memo[(ta, tb)]
            for holder, path, x in rows:  # integers: exactly the sum of p * q over the paths
                got = settled_paths.get(path)
                if got is None:
                    got = settled_paths[path] = settle_losses((ta, tb), path)
                summed[(holder, *got)] += x
            num, scale = p.numerator, p.denominator * den  # p * x / den, exactly
            for k, x in summed.items():
                weights = by_den[k]
                weights[scale] = weights.get(scale, 0) + num * x
        settled = {k: sum((Fraction(x, d) for d, x in weights.items()), Fraction(0)) for k, weights in by_den.items()}
        for (holder, la, lb, destroyed), p in settled.items():
            if holder is None:  # DB-3: no clash, no morale roll
                nxt[(ta, tb)] += p
                continue
            if destroyed is not None:  # DB-7: both at once leaves no winner
                winner = None if destroyed == "both" else SIDES[1 - SIDES.index(destroyed)]
                ends[(winner, "destroyed")] += p
                continue
            left = (ta - la, tb - lb)
            lost = (
                morale_penalty(rules, la, start[0] - left[0]),
                morale_penalty(rules, lb, start[1] - left[1]),
            )
            first, second = morale_order(1 - SIDES.index(holder))  # DB-8: the side originally attacked first
            p_first = pass_chance(first, lost[first])
            p_second = pass_chance(second, lost[second])
            ends[(SIDES[second], "retreat")] += p * (1 - p_first)
            ends[(SIDES[first], "retreat")] += p * p_first * (1 - p_second)
            nxt[left] += p * p_first * p_second
        return dict(nxt), dict(ends)

    # Transitions as integer weights over one denominator per state, found as reached.
    trans: dict[tuple[int, int], tuple[int, dict[tuple[int, int], int], dict[tuple[str, str], int]]] = {}

    # A state's transition depends on the tokens, the leaders, the rules, the policies and
    # the clash tables' method; on the starting tokens only with morale_penalty="battle" (DB-8).
    chain_key = (leaders, rules, pols, method, trials, seed, None if rules.morale_penalty == "clash" else start)

    def weights_of(s: tuple[int, int]):
        if s not in trans:
            known = _TRANSITIONS.get((s, chain_key))
            if known is None:
                before = (set(pairs), set(sampled))
                pairs.clear()
                sampled.clear()
                nxt, ends = transition(*s)
                den = lcm(*(p.denominator for p in list(nxt.values()) + list(ends.values())))
                known = (
                    den,
                    {t: int(p * den) for t, p in nxt.items()},
                    {e: int(p * den) for e, p in ends.items()},
                    frozenset(pairs),
                    frozenset(sampled),
                )
                _TRANSITIONS[(s, chain_key)] = known
                pairs.update(before[0])
                sampled.update(before[1])
            trans[s] = known[:3]
            pairs.update(known[3])
            sampled.update(known[4])
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
    dist = Distribution({e: result[e] for e in ordered})
    how, note = _how(len(sampled), len(pairs), method, trials)
    return BattleOdds(
        dist,
        not sampled,
        how,
        tuple(sorted(sampled)),
        trials if sampled else None,
        note,
        len(trans),
        seconds=time.perf_counter() - started,
        names=(army_a.name, army_b.name),
    )
