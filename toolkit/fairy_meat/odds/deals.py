"""The odds of one attack averaged over every deal: exact counting, the generic path and
Monte Carlo, one result type (:class:`DealOdds`)."""

from __future__ import annotations

import math
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from toolkit.engine import Policy, play_out
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    COLOURS,
    deck_cards,
    hands_by_type,
    numbered_mask,
    numbered_pips,
    representative_hand,
    type_caps,
    type_colour,
    type_pips,
)
from toolkit.fairy_meat.engine import start_combat
from toolkit.fairy_meat.odds.checks import check_hand_sizes, counting_applies, policy_label, resolve_policies
from toolkit.fairy_meat.odds.classes import DRAWS, none_readings, reading_free
from toolkit.fairy_meat.odds.compositions import composition_pairs, kind_caps, trump_comps
from toolkit.fairy_meat.odds.counting import count_numbered, drawn_counts
from toolkit.fairy_meat.odds.draws import double_draw_count, falling, single_draw_count
from toolkit.fairy_meat.odds.families import MODELS, NO_NUMBERED, Choice
from toolkit.fairy_meat.odds.known_hands import enumerate_attack, fairies_for, start_known_hands
from toolkit.fairy_meat.odds.outcomes import AttackOutcome, outcome_of, with_sides
from toolkit.fairy_meat.odds.weighing import Buckets, Pending, settle, two_turned_up, weigh_pair
from toolkit.fairy_meat.rules import Rules
from toolkit.garbage_collection import paused_collection
from toolkit.montecarlo import Estimate
from toolkit.odds_result import (
    DEFAULT_TIME_LIMIT,
    Odds,
    check_method,
    check_precision,
    check_seed,
    check_time_limit,
    check_trials,
    choose_method,
    counts_half_width,
)
from toolkit.odds_samples import Samples, play_seed, sample_runs
from toolkit.prob import Distribution
from toolkit.progress import tick
from toolkit.question import Question

__all__ = [
    "EXACT_LIMIT",
    "GENERIC_EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "counting_applies",
    "model_pair",
    "trump_contexts",
    "pair_diffs",
    "weight_scale",
    "exact_weights",
    "exact_buckets",
    "exact_plays",
    "PLAYS",
    "BUCKETS",
    "BUCKETS_KEPT",
    "SHARED",
    "SIZES",
    "generic_pairs",
    "generic_weights",
    "exact_size",
    "DealOdds",
    "monte_carlo",
    "deal_averaged_odds",
]


#: ``method="auto"`` computes exactly while :func:`exact_size` is at most this, and by
#: Monte Carlo above it (``method="exact"`` above it raises :class:`TooBigError` before
#: starting). The size counts what the exact calculation weighs: over the Trump counts
#: of both hands and the policies' choices, each pair of Numbered card types played and
#: each result of a Wild Trump draw. It costs about 1-3 microseconds of CPU a unit (the
#: draws of one pair of plays are weighed together, so their units are the cheapest),
#: so the limit keeps an exact answer under about 10 s. Greedy v greedy: 5 v 3 is about
#: 200,000 (exact, ~0.6 s), 10 v 6 about 790,000; with 2 jokers 5 v 3 is about 1.8
#: million, 8 v 5 2.7 million (exact, ~4 s). Random v random: 2 v 1 about 1 million and
#: 3 v 1 1.9 million (exact), 2 v 2 3.6 million (Monte Carlo); with 2 jokers 1 v 1 is 2.6
#: million (exact).
EXACT_LIMIT = 3_000_000


#: For policies the calculator has no counting model for (anything but
#: :data:`~.policies.POLICIES`), ``method="auto"`` and ``"exact"`` enumerate every pair
#: of hand *compositions* (counts of the 21 card types) and run :func:`attack_odds` on
#: each: allowed up to this many composition pairs (1 v 1: 440; 2 v 1: 4,792).
GENERIC_EXACT_LIMIT = 5_000


#: Monte Carlo trials when none are given (each plays one deal through the engine,
#: about 1-2 ms).
DEFAULT_TRIALS = 5_000


def model_pair(pols: tuple[Policy, Policy], rules: Rules | None = None) -> tuple[type, type] | None:
    """The counting models of both policies, or ``None`` (no model for a policy, or
    :func:`counting_applies` is false for ``rules``)."""
    models = tuple(MODELS.get(p) for p in pols)
    if None in models or not counting_applies(rules):
        return None
    return models  # type: ignore[return-value]


def deck_counts(rules: Rules | None) -> tuple[int, int, int, int, int]:
    """(Numbered cards, red Trumps, black Trumps but the death card, death cards, jokers)
    of the rules' deck (FM-1, FM-12): (36, 8, 7, 1, 0) by default."""
    return kind_caps(rules)


def draw_span(deck: int, rules: Rules | None) -> int:
    """The ``k`` of the draw law's common factor deck_(k) (FM-6): at least every Trump of
    the deck and two Numbered cards (18 for the draft's deck), at most the deck."""
    _, *trumps = deck_counts(rules)
    return min(deck, max(18, sum(trumps) + 2))


def trump_contexts(a: int, d: int, models: tuple[type, type], rules: Rules) -> Iterable[tuple]:
    """Every (attacker Trumps, defender Trumps) pair with its count and both sides' choices.

    The Trumps of a hand are counted by kind — red and black Trumps but the death card,
    the death card (of either colour, FM-12), and the jokers when the rules add them
    (FM-1) — and the deck left for the draws by the same kinds (FM-6)."""
    numbered, *caps = deck_counts(rules)
    kinds = 4 if caps[3] else 3
    caps = caps[:kinds]
    pad = (0,) * (kinds - 3)
    for comp_a in trump_comps(a, *caps[:3], numbered, *caps[3:]):
        comp_a = (comp_a + pad)[:kinds]
        rest = tuple(c - x for c, x in zip(caps, comp_a, strict=True))
        na = a - sum(comp_a)
        for comp_d in trump_comps(d, *rest[:3], numbered - na, *rest[3:]):
            comp_d = (comp_d + pad)[:kinds]
            nd = d - sum(comp_d)
            count = 1
            for cap, left_a, xa, xd in zip(caps, rest, comp_a, comp_d, strict=True):
                count *= comb(cap, xa) * comb(left_a, xd)
            left = tuple(r - x for r, x in zip(rest, comp_d, strict=True))
            yield (
                count,
                na,
                nd,
                left,
                models[0].choices("attacker", a, comp_a, rules),
                models[1].choices("defender", d, comp_d, rules),
            )


def pair_diffs(
    choice_a: Choice, choice_d: Choice, na: int, nd: int, rules: Rules | None = None
) -> dict[tuple[str, str | None], dict[int, int]]:
    """Numbered-card counts by (colours, pips difference) for one pair of choices (the
    Numbered types of the rules' deck, FM-1)."""
    present = numbered_mask(rules)
    fa, fd = choice_a.family, choice_d.family
    out: dict[tuple[str, str | None], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    if fd.kind == "unopposed":
        if fa.kind in DRAWS:
            for t in range(18):
                if not present >> t & 1:
                    continue
                c = count_numbered(0, 0, NO_NUMBERED, NO_NUMBERED, (t,))
                out[(type_colour(t), None)][type_pips(t)] += c
        else:
            for t, spec in choice_a.types:
                out[(type_colour(t), None)][type_pips(t)] += count_numbered(na, 0, spec, NO_NUMBERED)
        return out
    draw_a, draw_d = fa.kind in DRAWS, fd.kind in DRAWS
    if draw_a and draw_d:
        for ca in COLOURS:
            for cd in COLOURS:
                out[(ca, cd)] = defaultdict(int, two_turned_up(ca == cd, numbered_pips(rules)))
        return out
    if draw_d:
        for ta, spec_a in choice_a.types:
            for t, c in enumerate(drawn_counts(na, nd, spec_a, NO_NUMBERED, present)):
                if c:
                    out[(type_colour(ta), type_colour(t))][type_pips(ta) - type_pips(t)] += c
        return out
    if draw_a:
        for td, spec_d in choice_d.types:
            for t, c in enumerate(drawn_counts(na, nd, NO_NUMBERED, spec_d, present)):
                if c:
                    out[(type_colour(t), type_colour(td))][type_pips(t) - type_pips(td)] += c
        return out
    for ta, spec_a in choice_a.types:
        for td, spec_d in choice_d.types:
            c = count_numbered(na, nd, spec_a, spec_d)
            if c:
                out[(type_colour(ta), type_colour(td))][type_pips(ta) - type_pips(td)] += c
    return out


def weight_scale(choices: Iterable[Choice]) -> int:
    return math.lcm(1, *(c.weight.denominator for c in choices))


#: The weighed classes of attacks (:func:`exact_buckets`) by (sizes, policies, the rules
#: before the judgement: :meth:`~toolkit.fairy_meat.rules.Rules.before_judgement`), the
#: latest :data:`BUCKETS_KEPT`: rule sets that differ only in how a difference becomes
#: points and damage (FM-10) deal, play and class attacks alike, and share them. Cleared
#: by :func:`~.caches.clear_caches`.
BUCKETS: dict[tuple, tuple[Buckets, int]] = {}

#: How many calculations :data:`BUCKETS` keeps (a report's grid of hand sizes).
BUCKETS_KEPT = 64


def exact_weights(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> dict[AttackOutcome, int]:
    """The exact outcome weights of ``a`` v ``d`` (their sum checked against every deal):
    the classes of attacks of :func:`exact_buckets`, judged by the referee under ``rules``."""
    buckets, expected = exact_buckets(a, d, pols, rules)
    weights = settle(buckets, rules)
    got = sum(weights.values())
    if got != expected:  # pragma: no cover - a counting bug, never a user error
        raise AssertionError(f"deal weights add up to {got}, expected {expected} ({a} v {d})")
    return weights


def exact_buckets(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> tuple[Buckets, int]:
    """Every class of attacks of ``a`` v ``d`` the referee tells apart, weighed by pips
    difference over every deal and play, and the total weight (every deal, FM-1, FM-2);
    cached in :data:`BUCKETS` by the rules before the judgement (FM-10)."""
    return _kept(BUCKETS, (a, d, pols, rules.before_judgement()), lambda: _weigh_every_deal(a, d, pols, rules))


def _kept(cache: dict, key: tuple, compute: Callable[[], Any]) -> Any:
    """``cache[key]``, computed by ``compute()`` when missing; the cache keeps the latest
    :data:`BUCKETS_KEPT` entries."""
    got = cache.get(key)
    if got is None:
        got = cache[key] = compute()
        while len(cache) > BUCKETS_KEPT:
            del cache[next(iter(cache))]
    return got


#: Every pair of plays of a calculation (:func:`exact_plays`) by (sizes, policies, the rules'
#: deals and plays: :meth:`~toolkit.fairy_meat.rules.Rules.deals_and_plays`), the latest
#: :data:`BUCKETS_KEPT`: rule sets that differ only in how the referee reads or judges an
#: attack (FM-5, FM-10) share them. Cleared by :func:`~.caches.clear_caches`.
PLAYS: dict[tuple, tuple[dict[tuple, int], dict[Hashable, Any], int, int, int]] = {}


#: The weighed classes of the pairs of plays that every reading of who has said None
#: weighs alike (:func:`~.classes.reading_free`, FM-5), and the other pairs of plays, by
#: (sizes, policies, the rules' deals and plays), the latest :data:`BUCKETS_KEPT`: the two
#: readings of a calculation weigh only the pairs they read apart. Cleared by
#: :func:`~.caches.clear_caches`.
SHARED: dict[tuple, tuple[Buckets, dict[tuple, int]]] = {}


def _weigh_every_deal(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> tuple[Buckets, int]:
    plays, diffs, deck, k, expected = exact_plays(a, d, pols, rules)

    def split() -> tuple[Buckets, dict[tuple, int]]:
        readings = none_readings(rules)
        free, own = {}, {}
        alike: dict[tuple, bool] = {}  # reading_free by pair of families
        for play, weight in plays.items():
            fams = play[:2]
            same = alike.get(fams)
            if same is None:
                same = alike[fams] = reading_free(play[0], play[1], readings)
            (free if same else own)[play] = weight
        return _weigh(free, diffs, deck, k, rules), own

    shared, own = _kept(SHARED, (a, d, pols, rules.deals_and_plays()), split)
    buckets = {key: dict(bucket) for key, bucket in shared.items()}  # the cached ones stay as they are
    for key, bucket in _weigh(own, diffs, deck, k, rules).items():
        into = buckets.get(key)
        if into is None:
            buckets[key] = bucket
            continue
        for delta, w in bucket.items():
            into[delta] = into.get(delta, 0) + w
    return buckets, expected


def _weigh(plays: dict[tuple, int], diffs: dict[Hashable, Any], deck: int, k: int, rules: Rules) -> Buckets:
    """The weighed classes of these pairs of plays (:func:`~.weighing.weigh_pair`)."""
    pending = Pending()
    pending.diffs = diffs  # read only
    for (fam_a, fam_d, diffs_id, left), weight in plays.items():
        weigh_pair(pending, fam_a, fam_d, diffs_id, weight, left, deck, k, rules)
    return pending.buckets()


def exact_plays(
    a: int, d: int, pols: tuple[Policy, Policy], rules: Rules
) -> tuple[dict[tuple, int], dict[Hashable, Any], int, int, int]:
    """Every pair of plays of ``a`` v ``d`` over every deal (FM-1..FM-7): {(attacker's
    family, defender's family, Numbered-card counts id, Trumps left in the deck when one
    draws, else ``()``): weight}, the Numbered-card counts by id (:func:`pair_diffs`), the
    deck left, the draw law's span and the total weight; cached in :data:`PLAYS` by the
    rules' deals and plays (FM-5 and FM-10 read by the referee only)."""
    return _kept(PLAYS, (a, d, pols, rules.deals_and_plays()), lambda: _every_play(a, d, pols, rules))


def _every_play(
    a: int, d: int, pols: tuple[Policy, Policy], rules: Rules
) -> tuple[dict[tuple, int], dict[Hashable, Any], int, int, int]:
    models = model_pair(pols, rules)
    assert models is not None
    size = len(deck_cards(rules))
    numbered = deck_counts(rules)[0]
    deck = size - a - d
    k = draw_span(deck, rules)
    contexts = list(trump_contexts(a, d, models, rules))
    scale_a = math.lcm(1, *(weight_scale(c[4]) for c in contexts))
    scale_d = math.lcm(1, *(weight_scale(c[5]) for c in contexts))
    diffs: dict[Hashable, Any] = {}
    # each pair of Numbered-card specs gets a small int id: the weighing hashes the id in
    # its inner loops, where hashing the nested specs themselves cost more than the sums
    ids: dict[tuple, int] = {}
    plays: dict[tuple, int] = defaultdict(int)
    for count, na, nd, left, choices_a, choices_d in contexts:
        numbered_left = numbered - na - nd
        # each choice's weight times its side's scale is a whole number (the scale is the
        # lcm of the weights' denominators): the products stay integers
        whole_d = [int(cd.weight * scale_d) for cd in choices_d]
        for ca in choices_a:
            wa = count * int(ca.weight * scale_a)
            for cd, wd in zip(choices_d, whole_d, strict=True):
                draw_a, draw_d = ca.family.kind in DRAWS, cd.family.kind in DRAWS
                if draw_a + draw_d > numbered_left:
                    raise InvalidSetupError(
                        f"hands of {a} and {d} cards can leave no Numbered card in the deck for a Wild Trump "
                        "draw (FM-6); the engine cannot play such a deal"
                    )
                spec = (ca.types, cd.types, draw_a, draw_d, cd.family.kind == "unopposed", na, nd)
                key = ids.get(spec)
                if key is None:
                    key = ids[spec] = len(ids)
                    diffs[key] = pair_diffs(ca, cd, na, nd, rules)
                weight = wa * wd
                # the Trumps left in the deck only matter to a draw (FM-6)
                plays[(ca.family, cd.family, key, left if (draw_a or draw_d) else ())] += weight
    expected = comb(size, a) * comb(size - a, d) * scale_a * scale_d * falling(deck, k)
    return dict(plays), diffs, deck, k, expected


def generic_pairs(a: int, d: int, rules: Rules | None = None) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every pair of hand compositions over the card types of the rules' deck (21, 22 with
    jokers: :func:`~toolkit.fairy_meat.deck.type_caps`), with its number of deals."""
    caps = list(type_caps(rules))
    out = []
    for ca, wa in hands_by_type(a, caps):
        avail = [c - x for c, x in zip(caps, ca, strict=True)]
        for cd, wd in hands_by_type(d, avail):
            out.append((ca, cd, wa * wd))
    return out


def generic_weights(a: int, d: int, pols: tuple[Policy, Policy], rules: Rules) -> dict[AttackOutcome, Fraction]:
    out: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    for ca, cd, w in generic_pairs(a, d, rules):
        hand_a, hand_d = representative_hand(ca, 0, rules), representative_hand(cd, 1, rules)
        dist = enumerate_attack(start_known_hands(hand_a, hand_d, rules), pols, draw_law=True)
        for o, p in dist.items():
            out[o] += w * p
    return out


def exact_size(
    a: int, d: int, policies: Sequence[str | Policy] | str = ("greedy", "greedy"), rules: Rules | None = None
) -> int:
    """Return the size of the exact calculation of :func:`deal_averaged_odds` for hand
    sizes ``a`` v ``d`` — what :data:`EXACT_LIMIT` (or :data:`GENERIC_EXACT_LIMIT`) is
    compared with — without doing it.

    For the standard policies: the items the calculation weighs, summed over the Trump
    counts of both hands and the policies' choices — a pair of Numbered card types when
    both play one, each result of a Wild Trump draw (Trumps turned up, colour of the
    card) when one or both draw (FM-6). For other policies: the number of pairs of hand
    compositions (counts of the 21 card types), each an :func:`attack_odds` run.

    >>> exact_size(1, 1), exact_size(5, 3) <= EXACT_LIMIT < exact_size(2, 2, "random")
    (73616, True)
    """
    rules = rules or Rules()
    a, d = check_hand_sizes(a, d, rules)
    pols = resolve_policies(policies)
    models = model_pair(pols, rules)
    if models is None:
        return composition_pairs(a, d, type_caps(rules))
    return _kept(SIZES, (a, d, pols, rules.deals_and_plays()), lambda: _size(a, d, models, rules))


#: :func:`exact_size` of the standard policies by (sizes, policies, the rules' deals and
#: plays: what it counts), the latest :data:`BUCKETS_KEPT`. Cleared by :func:`~.caches.clear_caches`.
SIZES: dict[tuple, int] = {}


def _size(a: int, d: int, models: tuple[type, type], rules: Rules) -> int:
    total = 0
    counted: dict[int, tuple[Sequence[Choice], int, int]] = {}  # by id, each held: ids stay unique
    for _, _, _, left, choices_a, choices_d in trump_contexts(a, d, models, rules):
        # each pair of choices: 4 items per double draw when both draw, 2 per single draw
        # when one does, else a pair of Numbered card types (at least one each); summed
        # side by side rather than pair by pair
        _, draws_a, types_a = counted.get(id(choices_a)) or counted.setdefault(id(choices_a), _counts(choices_a))
        _, draws_d, types_d = counted.get(id(choices_d)) or counted.setdefault(id(choices_d), _counts(choices_d))
        total += 4 * draws_a * draws_d * double_draw_count(left)
        one_draws = draws_a * (len(choices_d) - draws_d) + draws_d * (len(choices_a) - draws_a)
        total += 2 * one_draws * single_draw_count(left)
        total += types_a * types_d
    return total


def _counts(choices: Sequence[Choice]) -> tuple[Sequence[Choice], int, int]:
    """``choices``, those of them that draw (FM-6), and the sum over the others of their
    Numbered card types (at least one each)."""
    draws, types = 0, 0
    for choice in choices:
        if choice.family.kind in DRAWS:
            draws += 1
        else:
            types += max(len(choice.types), 1)
    return choices, draws, types


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class DealOdds(Odds[AttackOutcome]):
    """Deal-averaged odds of one attack, exact or by Monte Carlo: an
    :class:`~toolkit.odds_result.Odds` (the distribution of :class:`AttackOutcome`,
    ``.exact``, ``.probability(event)``, ``.interval(event)``: the exact value twice when
    exact, Wilson's 95% interval for Monte Carlo).

    Attributes:
        distribution: the distribution of :class:`AttackOutcome`: exact, or (Monte Carlo)
            the observed frequencies, as exact fractions of the trials.
        method: ``"exact"`` or ``"monte_carlo"``.
        size: :func:`exact_size` of the request (what ``method="auto"`` compared with
            the limit).
        trials: Monte Carlo trials (``None`` when exact).
        estimates: Monte Carlo: an :class:`~toolkit.montecarlo.Estimate` per outcome seen.
        confidence: the confidence level of :meth:`interval` (0.95).
        seconds: wall time of the calculation.
    """

    size: int
    estimates: dict[AttackOutcome, Estimate] | None = field(default=None, repr=False)
    trial_name: str = "simulated attacks"

    def estimate(self, event: AttackOutcome | Callable[[AttackOutcome], bool]) -> Estimate | None:
        """Monte Carlo: the hits of an outcome or event out of the trials (``None`` when exact)."""
        if self.exact or self.trials is None:
            return None
        hits = self.distribution.probability(event) * self.trials
        return Estimate(int(hits), self.trials)

    @property
    def intervals(self) -> dict[AttackOutcome, tuple[Any, Any]]:
        """The :meth:`interval` of every outcome."""
        return {o: self.interval(o) for o in self.distribution}

    def headline_events(self) -> list[tuple[str, Callable[[AttackOutcome], bool]]]:
        """Who wins (or a draw), 2 damage or more, a Nasty Hit (:data:`HEADLINE_EVENTS`)."""
        return list(HEADLINE_EVENTS)

    def __str__(self) -> str:
        lines = [self.headline()]
        for o in self.distribution:
            lines.append(
                f"  winner={o.winner!s:8} points={o.points:<2} damage={o.damage:<2} nasty_hit={o.nasty_hit!s:5}  "
                + self.text(o)
            )
        return "\n".join(lines)


def _attacker_wins(o: AttackOutcome) -> bool:
    return o.winner == "attacker"


def _defender_wins(o: AttackOutcome) -> bool:
    return o.winner == "defender"


def _draw(o: AttackOutcome) -> bool:
    return o.winner == "draw"


def _two_damage(o: AttackOutcome) -> bool:
    return (o.damage or 0) >= 2


def _nasty(o: AttackOutcome) -> bool:
    return bool(o.nasty_hit)


#: The events a deal-averaged result reports besides its outcomes (and ``precision=`` covers).
HEADLINE_EVENTS: tuple[tuple[str, Callable[[AttackOutcome], bool]], ...] = (
    ("the attacker wins", _attacker_wins),
    ("the defender wins", _defender_wins),
    ("a draw", _draw),
    ("2 damage or more", _two_damage),
    ("a Nasty Hit", _nasty),
)


def monte_carlo(
    a: int, d: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: int | str
) -> tuple[Counter[AttackOutcome], int]:
    """Deal random hands and play each attack out through the engine (both the deal and
    every Wild Trump draw sampled card by card): the counts of :func:`monte_carlo_runs`."""
    return Counter(monte_carlo_runs(a, d, pols, rules, trials, seed)), trials


def monte_carlo_runs(
    a: int, d: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: int | str
) -> Iterator[AttackOutcome]:
    """The outcome of each of ``trials`` random deals played out through the engine, in
    order, one at a time (a sample stopped at its time limit plays no more). Run ``i`` draws
    its deal, then the seed of its own play stream (Wild Trump draws, random policies:
    :func:`~toolkit.odds_samples.play_seed`), so under two rule sets with the same deck run
    ``i`` is the same deal, and its play draws start alike (common random numbers)."""
    rng = random.Random(seed)
    deck = list(deck_cards(rules))
    attacker, defender, mod_a, mod_d = fairies_for(a, d, rules)
    policy_map = {"attacker": pols[0], "defender": pols[1]}
    for _ in range(trials):
        cards = rng.sample(deck, a + d)
        state = start_combat(
            attacker,
            defender,
            rules,
            hands=(cards[:a], cards[a:]),
            attacker_modifiers=mod_a,
            defender_modifiers=mod_d,
            attacks=1,
        )
        end = play_out(state, play_seed(rng), policy_map)
        outcome = outcome_of(end.results[0])  # type: ignore[attr-defined]
        tick()  # a run done: the progress of long work (toolkit.progress)
        yield outcome


def deal_averaged_odds(
    a: int,
    d: int,
    policies: Sequence[str | Policy] | str = ("greedy", "greedy"),
    rules: Rules | None = None,
    method: str = "auto",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> DealOdds:
    """Return the odds of one attack averaged over every deal of an ``a``-card attacker's
    hand and a ``d``-card defender's hand from one deck (FM-1, FM-2: 52 cards, or the
    rules' deck).

    Each deal is played as :func:`attack_odds` plays known hands: the first attack of a
    combat, under the two policies, with Wild Trump draws from the rest of the deck.

    Args:
        a, d: hand sizes (``d`` may be 0: the defender turns up cards blind, FM-7).
        policies: (attacker's, defender's) policy — names from
            :data:`~.policies.POLICIES` or functions — or one for both.
        rules: the rules in force.
        method: ``"exact"``, ``"monte_carlo"``, or ``"auto"``: exact while
            :func:`exact_size` is at most :data:`EXACT_LIMIT` (:data:`GENERIC_EXACT_LIMIT`
            for non-standard policies), Monte Carlo above.
        trials, seed: Monte Carlo trials and random seed (repeatable).
        precision: sample in batches (batch ``k`` seeded by ``f"{seed}:{k}"``, ``trials``
            the first) until the 95% interval of every outcome, of who wins, of 2 damage or
            more and of a Nasty Hit has a half-width of at most this (0.01 is ±1 point);
            ``None``: ``trials`` attacks.
        time_limit: seconds of sampling towards ``precision`` before giving up.

    Returns:
        A :class:`DealOdds`: ``.distribution`` (exact, or observed frequencies),
        ``.method``, ``.exact`` and ``.interval(event)`` (the exact value twice, or
        Wilson's 95% interval for Monte Carlo).

    Raises:
        InvalidSetupError: bad sizes (negative, an empty attacker's hand, more cards than
            the deck), an unknown policy or method, bad trials.
        TooBigError: ``method="exact"`` on a request above the limit, before starting.
        PrecisionNotReachedError: ``precision`` not reached within ``time_limit``.

    >>> odds = deal_averaged_odds(1, 1, ("greedy", "greedy"), method="exact")
    >>> odds.method, round(float(odds.probability(lambda o: o.winner == "attacker")), 4)
    ('exact', 0.4563)
    """
    started = time.perf_counter()
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    a, d = check_hand_sizes(a, d, rules)
    check_method(method)
    trials = check_trials(trials)
    seed = check_seed(seed)
    precision = check_precision(precision)
    time_limit = check_time_limit(time_limit)
    pols = resolve_policies(policies)
    models = model_pair(pols, rules)
    size = exact_size(a, d, pols, rules)
    limit = EXACT_LIMIT if models is not None else GENERIC_EXACT_LIMIT
    what = "weighed play combinations" if models is not None else "pairs of hand compositions"
    request = f"the exact odds of {a} v {d} with policies ({policy_label(pols[0])}, {policy_label(pols[1])})"
    sizes = f"{a} v {d} cards, every deal"
    question = Question.about(rules, sizes, policies=[policy_label(p) for p in pols], size=size)
    if choose_method(method, size, limit, request, what) == "monte_carlo":

        def draw(n: int, batch: int) -> Iterator[AttackOutcome]:
            return monte_carlo_runs(a, d, pols, rules, n, seed if batch == 0 else f"{seed}:{batch}")

        events = [ev for _, ev in HEADLINE_EVENTS]

        def widest(counts: Counter, runs: int) -> float:
            return counts_half_width(counts, runs, events)

        results, batches = sample_runs(draw, trials, precision, widest, time_limit, "simulated attacks")
        # the stream names what picks each run's draws, never the rules: two rule sets drawn
        # with the same seed and sizes are compared run by run
        samples = Samples.of(("fairy meat deal", seed, a, d, batches), results).map(with_sides)
        counts = samples.counts()
        n = len(results)
        estimates = {o: Estimate(c, n) for o, c in counts.items()}
        return DealOdds(
            distribution=Distribution.from_int_weights(dict(counts)),
            method="monte_carlo",
            size=size,
            trials=n,
            samples=samples,
            estimates=estimates,
            seconds=time.perf_counter() - started,
            question=question,
        )
    # the count's tables never form garbage cycles: the collector would walk them again and
    # again as they grow (about 15% of a cold count)
    with paused_collection():
        if models is not None:
            dist = Distribution.from_int_weights(exact_weights(a, d, pols, rules))
        else:
            dist = Distribution(generic_weights(a, d, pols, rules))
    return DealOdds(
        distribution=dist.map(with_sides), size=size, seconds=time.perf_counter() - started, question=question
    )
