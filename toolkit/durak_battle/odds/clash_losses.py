"""Tokens lost in one clash for two hand sizes, averaged over every deal
(:func:`clash_losses`): exact over deal classes, or Monte Carlo.
"""

from __future__ import annotations

import html
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit.durak_battle.best_play import clear_solvers
from toolkit.durak_battle.engine import BattleState, start_clash
from toolkit.durak_battle.initiative_rule import NO_CLASH, initiative_of_ids
from toolkit.durak_battle.odds.checks import (
    SAMPLERS,
    check_policies,
    check_rules,
    check_sizes,
    check_tokens,
    policy_label,
)
from toolkit.durak_battle.odds.clash_value import clash_armies
from toolkit.durak_battle.odds.comparison_classes import clear_class_cache, comparison_classes
from toolkit.durak_battle.odds.deal_classes import (
    EXACT_LIMIT,
    EXACT_REQUEST_LIMIT,
    deal_classes,
    exact_size,
    random_deal,
)
from toolkit.durak_battle.odds.result import OddsResult
from toolkit.durak_battle.policies import (
    POLICIES,
    greedy_action,
    greedy_move,
    greedy_policy,
    greedy_rules,
    random_policy,
)
from toolkit.durak_battle.position import ClashPosition, move_of, sorted_hand
from toolkit.durak_battle.rules import CARD_ID, MAX_TOKENS, SIDES, Rules, settle_losses
from toolkit.engine import Policy, play_out
from toolkit.errors import IllegalActionError, InvalidSetupError
from toolkit.numbers import count, method_text
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
from toolkit.odds_samples import PLAY_SEED_BITS, Samples, play_seed, sample_runs
from toolkit.outcome_names import Side, field_values, sides
from toolkit.prob import Distribution
from toolkit.progress import tick
from toolkit.question import Question

if TYPE_CHECKING:
    import pandas as pd

    from toolkit.cards import Card


__all__ = [
    "DEFAULT_TRIALS",
    "Path",
    "ClashOutcome",
    "Losses",
    "ClashLosses",
    "clash_losses",
    "policy_choices",
    "loss_path",
    "PathMemo",
    "exact_clash_paths",
    "sampled_clash_paths",
    "clear_caches",
    "remember_cache",
]

#: Monte Carlo clashes played through the engine when :func:`clash_losses` is given none.
DEFAULT_TRIALS = 5_000


def policy_choices(node: ClashPosition, pols: tuple[Policy, Policy]) -> tuple[list[tuple[str, int]], int]:
    """The policy's actions at ``node`` with integer weights, and their total. The greedy
    and random policies are called without building a Distribution (the same functions
    underneath); any other policy's answer is checked for legality."""
    policy = pols[0] if node.current_player == "a" else pols[1]
    if policy is greedy_policy:
        return [(greedy_action(node), 1)], 1
    if policy is random_policy:
        legal = node.legal_actions()
        return [(a, 1) for a in legal], len(legal)
    try:
        choice = policy(node)
    except AttributeError as e:
        raise InvalidSetupError(
            f"policy {policy_label(policy)} read something a clash position does not show ({e}): the exact "
            "calculator gives policies only current_player, legal_actions(), stage, holder, attacking, table, "
            "hands, passes and rules; use method='monte_carlo' with sampler='engine' for other policies"
        ) from None
    if not isinstance(choice, Distribution):
        raise InvalidSetupError(
            f"policy {policy_label(policy)} returned {choice!r}, not a Distribution over legal actions"
        )
    legal = node.legal_actions()
    for action in choice:
        if action not in legal:
            raise IllegalActionError(
                f"policy {policy_label(policy)} chose {action!r}, which is not legal in {node!r}: " + ", ".join(legal)
            )
    return list(choice.weights().items()), choice.total


# -- a clash's losses as a path -------------------------------------------------------------
Path = tuple[tuple[int, int], ...]


def loss_path(events: Iterable[tuple[int, int]]) -> Path:
    """Cumulative losses after each loss, capped at MAX_TOKENS; once an army has lost
    MAX_TOKENS nothing later can matter to any army (DB-7)."""
    la = lb = 0
    out = []
    for da, db in events:
        if not (da or db):
            continue
        la += da
        lb += db
        if la > MAX_TOKENS:
            la = MAX_TOKENS
        if lb > MAX_TOKENS:
            lb = MAX_TOKENS
        out.append((la, lb))
        if la >= MAX_TOKENS or lb >= MAX_TOKENS:
            break
    return tuple(out)


Events = tuple[tuple[int, int], ...]

#: Steps of a greedy line followed before its positions are remembered (:meth:`PathMemo.greedy_line`).
GREEDY_FOLLOWED = 3


class PathMemo:
    """The loss events of the rest of a clash by canonical position: integer weights of
    each sequence of losses, over a denominator."""

    def __init__(self, pols: tuple[Policy, Policy]) -> None:
        self.pols = pols
        self.memo: dict[Hashable, tuple[dict[Events, int], int]] = {}
        self.lines: dict[Hashable, Events] = {}

    def greedy_line(self, node: ClashPosition) -> Events:
        """The losses of the rest of the clash from ``node`` with both sides greedy (one
        line of play). The first :data:`GREEDY_FOLLOWED` steps are simply followed (the
        opening positions of different deals seldom meet); from there the rest of the line
        is remembered by canonical position, which plays exactly like the original."""
        evs: Events = ()
        for _ in range(GREEDY_FOLLOWED):
            node, step = node.losses_after_move(greedy_move(node))  # type: ignore[assignment]
            if step:
                evs += step
            if node is None:
                return evs
        lines = self.lines
        met: list[tuple[Hashable, Events]] = []  # the positions met, with the losses before each
        rest: Events | None = None
        while node is not None:
            key = node.memo_key
            rest = lines.get(key)
            if rest is not None:
                break
            met.append((key, evs))
            node, step = node.losses_after_move(greedy_move(node))  # type: ignore[assignment]
            if step:
                evs += step
        if rest is None:
            rest = ()
        full = evs + rest
        for key, before in met:
            lines[key] = full[len(before) :]
        return full

    def events(self, node: ClashPosition, remember: bool = False) -> tuple[dict[Events, int], int]:
        """(weights of each sequence of losses from ``node``, their denominator).

        Positions are remembered (by their canonical form) only where a policy chooses at
        random: a forced line (one action, as the greedy policy plays) is simply followed.
        """
        key: Hashable = ""
        if remember:
            key = node.memo_key
            found = self.memo.get(key)
            if found is not None:
                return found
            node = node.canonical()
        prefix: Events = ()  # the losses of the forced line followed so far
        while True:
            choices, total = policy_choices(node, self.pols)
            if len(choices) != 1:
                break
            child, evs = node.losses_after(choices[0][0])
            prefix += evs
            if child is None:
                found = ({prefix: 1}, 1)
                if remember:
                    self.memo[key] = found
                return found
            node = child
        parts: list[tuple[int, Events, dict[Events, int] | None, int]] = []
        for action, w in choices:
            child, evs = node.losses_after(action)
            if child is None:
                parts.append((w, evs, None, 1))
            else:
                sub, den = self.events(child, remember=True)
                parts.append((w, evs, sub, den))
        common = lcm(*(den for *_, den in parts))
        out: dict[Events, int] = defaultdict(int)
        for w, evs, sub, den in parts:
            scale = w * (common // den)
            if sub is None:
                out[prefix + evs] += scale
            else:
                for rest, x in sub.items():
                    out[prefix + evs + rest] += scale * x
        found = (dict(out), total * common)
        if remember:
            self.memo[key] = found
        return found


#: The policies that compare cards only as the referee does (:mod:`.comparison_classes`).
BUILT_IN = frozenset(POLICIES.values())

_PATH_MEMOS: dict[tuple, PathMemo] = {}
_EXACT: dict[tuple, dict[tuple[str | None, Path], Fraction]] = {}
_SAMPLED: dict[tuple, tuple] = {}


def clear_caches() -> None:
    """Forget every memoised position, exact clash table and sample (they are kept per
    rules and policies for the session)."""
    _PATH_MEMOS.clear()
    _EXACT.clear()
    _SAMPLED.clear()
    _DEALS.clear()
    clear_class_cache()
    for memo in _REMEMBERED:
        memo.clear()
    clear_solvers()


_REMEMBERED: list[dict] = []


def remember_cache(memo: dict) -> dict:
    """Register a cache built on these tables (e.g. the battle chain's transitions) so that
    :func:`clear_caches` clears it too; return it."""
    _REMEMBERED.append(memo)
    return memo


def _classes_to_play(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules
) -> Iterable[tuple[tuple[int, ...], tuple[int, ...], int, int]]:
    """The deals to play, one per class, as card ids, with the deals each stands for and
    those of its mirror image: comparison classes for the built-in policies (they compare
    only what the referee compares, see :mod:`.comparison_classes`; equal hands and one
    policy for both sides play a deal and its mirror once), the finer deal classes for a
    designer's own."""
    if all(p in BUILT_IN for p in pols):
        return comparison_classes(na, nb, rules, mirror=na == nb and pols[0] is pols[1], ids=True)
    return _unmirrored(deal_classes(na, nb, rules))


def _unmirrored(
    classes: Iterable[tuple[tuple[Card, ...], tuple[Card, ...], int]],
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int, int]]:
    """Deal classes as card ids, with no mirror image counted in them."""
    for a, b, w in classes:
        yield tuple(CARD_ID[c.code] for c in a), tuple(CARD_ID[c.code] for c in b), w, 0


def exact_clash_paths(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, *, classes: str = "comparison"
) -> dict[tuple[str | None, Path], Fraction]:
    """P(initiative, loss path) over every deal of ``na`` and ``nb`` cards, exactly.

    ``classes="comparison"`` plays one deal per comparison class for the built-in
    policies (:mod:`.comparison_classes`) and per deal class for others; ``"deal"``
    plays one per deal class whatever the policies (the finer count, kept as the reference
    the tests compare with; not remembered)."""
    if classes not in ("comparison", "deal"):
        raise ValueError(f"classes must be 'comparison' or 'deal', got {classes!r}")
    if classes == "deal":
        return _count_paths(na, nb, pols, rules, _unmirrored(deal_classes(na, nb, rules)))
    if pols[0] is greedy_policy and pols[1] is greedy_policy:  # the same table under variants greedy never meets
        rules = greedy_rules(rules)
    key = (na, nb, pols, rules)
    if key in _EXACT:
        return _EXACT[key]
    mirror = _EXACT.get((nb, na, (pols[1], pols[0]), rules))
    if mirror is not None:  # the same clashes with the sides swapped (the rules favour neither)
        _EXACT[key] = {
            (None if h is None else SIDES[1 - SIDES.index(h)], tuple((lb, la) for la, lb in path)): p
            for (h, path), p in mirror.items()
        }
        return _EXACT[key]
    _EXACT[key] = _count_paths(na, nb, pols, rules, _classes_to_play(na, nb, pols, rules))
    return _EXACT[key]


def _count_paths(
    na: int,
    nb: int,
    pols: tuple[Policy, Policy],
    rules: Rules,
    classes: Iterable[tuple[tuple[int, ...], tuple[int, ...], int, int]],
) -> dict[tuple[str | None, Path], Fraction]:
    """P(initiative, loss path): each class's deal (hands as card ids) played once, weighted
    by its deals, and read with the sides swapped for the deals of its mirror image."""
    memo = _PATH_MEMOS.setdefault((pols, rules), PathMemo(pols))
    both_greedy = pols[0] is greedy_policy and pols[1] is greedy_policy
    deck = rules.deck_size
    deals = comb(deck, na) * comb(deck - na, nb)
    # integer weights by denominator (so no fractions are added up deal class by class), each
    # (initiative, path) numbered once: the inner loop adds to small integer keys
    out: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    numbers: dict[tuple[str | None, Path], int] = {(None, ()): 0}

    def number(key: tuple[str | None, Path]) -> int:
        return numbers.setdefault(key, len(numbers))

    # each sequence of losses: the numbers of (a, path), (b, mirror path), (b, path), (a, mirror path)
    paths: dict[Events, tuple[int, int, int, int]] = {}
    counted = 0
    for a, b, w, w_mirror in classes:
        counted += w + w_mirror
        who = initiative_of_ids(a, b, rules)
        if who is NO_CLASH:  # DB-3: no attack card, no clash
            out[1][0] += 2 * (w + w_mirror)
            continue
        holders = (0, 1) if who is None else (who,)
        share = 2 // len(holders)  # weights are doubled: a coin (DB-3) halves a deal
        for h in holders:
            node = ClashPosition.begin_ids((a, b), h, rules)
            assert node is not None  # the side with the initiative has an attack card
            if both_greedy:  # one line of play: followed here, without the memo's bookkeeping
                sub, den = {memo.greedy_line(node): 1}, 1
            else:
                sub, den = memo.events(node)  # a deal class is met once: not remembered
            bucket = out[den]
            direct, mirrored = 2 * h, 2 * h + 1
            ws, wm = share * w, share * w_mirror
            for evs, x in sub.items():
                found = paths.get(evs)
                if found is None:
                    path = loss_path(evs)
                    flip = tuple((lb, la) for la, lb in path)
                    found = paths[evs] = (
                        number(("a", path)),
                        number(("b", flip)),
                        number(("b", path)),
                        number(("a", flip)),
                    )
                if ws:
                    bucket[found[direct]] += ws * x
                if wm:  # the same clash with the sides' names swapped
                    bucket[found[mirrored]] += wm * x
    if counted != deals:  # pragma: no cover - a bug in the class enumeration
        raise AssertionError(f"deal classes count {counted} deals, not {deals}")
    keys = list(numbers)
    result: dict[tuple[str | None, Path], Fraction] = defaultdict(Fraction)
    for den, bucket in out.items():
        for k, x in bucket.items():
            result[keys[k]] += Fraction(x, 2 * deals * den)
    return dict(result)


#: The deals of :func:`sampled_clash_runs` by (deck, sizes, trials, seed), as each run's hands' card ids
#: sorted (bytes) and its play seed: two rule sets with the same deck (the rule-change
#: report's baseline and proposal) draw them once. Cleared by :func:`clear_caches`.
_DEALS: dict[tuple, tuple[bytes, tuple[int, ...]]] = {}


def _sampled_deals(
    deck: Sequence[Card], na: int, nb: int, trials: int, seed: Any
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Each of ``trials`` runs' deal of ``na`` and ``nb`` cards from ``deck``, as card ids
    (:data:`~.rules.CARD_ORDER`) lowest first (the order of :func:`sorted_hand`), and its play
    seed: the stream ``f"{seed}:{na}:{nb}"`` draws the deal (:func:`random_deal`), then
    :data:`PLAY_SEED_BITS` bits, run by run."""
    by_place = sorted_hand(deck)  # the deck's cards lowest first, as the calculators hold them
    key = (tuple(c.code for c in by_place), na, nb, trials, seed)
    found = _DEALS.get(key)
    n = na + nb
    if found is not None:
        ids_drawn, seeds = found
        for i, bits in enumerate(seeds):
            at = i * n
            yield tuple(ids_drawn[at : at + na]), tuple(ids_drawn[at + na : at + n]), bits
        return
    # drawn run by run as they are asked for (a sample stopped at its time limit draws no
    # more), kept for the next call only once every run is drawn
    place = {c.code: k for k, c in enumerate(by_place)}
    places = [place[c.code] for c in deck]  # sampled instead of the deck: the same draws
    # places lowest first are ids lowest first: a place's id is as high as its place's card
    ids = bytes(CARD_ID[c.code] for c in by_place) + bytes(256 - len(by_place))
    rng = random.Random(f"{seed}:{na}:{nb}")
    drawn = bytearray()
    played = []
    for _ in range(trials):
        a, b = random_deal(rng, places, na, nb)
        deal = (bytes(sorted(a)) + bytes(sorted(b))).translate(ids)
        drawn += deal
        bits = rng.getrandbits(PLAY_SEED_BITS)
        played.append(bits)
        yield tuple(deal[:na]), tuple(deal[na:]), bits
    _DEALS[key] = (bytes(drawn), tuple(played))


def sampled_clash_paths(na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: Any) -> Counter:
    """Counts of (initiative, loss path) over ``trials`` random deals played with
    :class:`ClashPosition` (each policy's choice sampled): :func:`sampled_clash_runs` counted."""
    return Counter(sampled_clash_runs(na, nb, pols, rules, trials, seed))


def sampled_clash_runs(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: Any
) -> tuple[tuple[str | None, Path], ...]:
    """The (initiative, loss path) of each of ``trials`` random deals played with
    :class:`ClashPosition`, in order. Run ``i`` takes the same draws from the deal stream
    whatever the rules do with it (its deal, then the seed of its own play stream, as
    :func:`~toolkit.odds_samples.play_seed` draws it; the stream is started only for a random
    choice, and a tied initiative's coin is the seed's lowest bit), so under two rule sets
    with the same deck run ``i`` is the same deal with the same coin for a tied initiative
    (DB-3) and the same random choices: common random numbers."""
    key = (na, nb, pols, rules, trials, seed)
    if key not in _SAMPLED:
        for _ in clash_runs(na, nb, pols, rules, trials, seed):
            pass
    return _SAMPLED[key]


def clash_runs(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, trials: int, seed: Any
) -> Iterator[tuple[str | None, Path]]:
    """:func:`sampled_clash_runs` one run at a time, each drawn only when asked for (a
    sample stopped at its time limit plays no more); kept for the next call once all are drawn."""
    key = (na, nb, pols, rules, trials, seed)
    if key in _SAMPLED:
        yield from _SAMPLED[key]
        return
    runs: list[tuple[str | None, Path]] = []
    both_greedy = pols[0] is greedy_policy and pols[1] is greedy_policy
    begin = ClashPosition.begin_ids
    step = ClashPosition.losses_after_move
    for a, b, bits in _sampled_deals(rules.deck(), na, nb, trials, seed):
        tick()  # a clash: the progress of long work (toolkit.progress); the table is kept only whole
        play: random.Random | None = None
        who = initiative_of_ids(a, b, rules)
        if who is NO_CLASH:
            runs.append((None, ()))
            yield runs[-1]
            continue
        if who is None:  # DB-3: a fair coin, the lowest bit of the run's play seed
            who = bits & 1
        node = begin((a, b), who, rules)
        events: list[tuple[int, int]] = []
        if both_greedy:  # one line of play, no policy to look up at each step
            la = lb = 0
            while node is not None:
                node, evs = step(node, greedy_move(node))
                if evs:
                    events.extend(evs)
                    for da, db in evs:
                        la += da
                        lb += db
                    if la >= MAX_TOKENS or lb >= MAX_TOKENS:  # nothing later counts (DB-7, loss_path)
                        break
            runs.append((SIDES[who], loss_path(events)))
            yield runs[-1]
            continue
        while node is not None:
            policy = pols[node.holder if node.stage == "attack" else 1 - node.attacking]  # the side to move
            if policy is greedy_policy:  # what policy_choices gives, without building its list
                move = greedy_move(node)
            elif policy is random_policy:  # the same draw as sampling the uniform Distribution
                legal = node.legal_moves()
                if len(legal) == 1:
                    move = legal[0]
                else:
                    play = play or random.Random(bits)
                    move = legal[play.randrange(len(legal))]
            else:
                choice, _ = policy_choices(node, pols)
                if len(choice) == 1:
                    move = move_of(choice[0][0])
                else:
                    play = play or random.Random(bits)
                    move = move_of(Distribution.from_int_weights(dict(choice)).sample(play))
            node, evs = step(node, move)
            if evs:
                events.extend(evs)
        runs.append((SIDES[who], loss_path(events)))
        yield runs[-1]
    _SAMPLED[key] = tuple(runs)


# -- clash losses ---------------------------------------------------------------------------
class ClashOutcome(NamedTuple):
    """How one clash ended for the armies.

    Attributes:
        lost_a, lost_b: tokens lost by each side in the clash (never more than it had, DB-7).
        initiative: the side that held the initiative at the start (DB-3) — the other side
            was originally attacked and rolls morale first (DB-8) — or ``None``: no clash.
        destroyed: the side reduced to 0 tokens (DB-7), which ends the clash, ``"both"``, or ``None``.

    In a :class:`ClashLosses`' ``joint`` the sides are the armies'
    :class:`~toolkit.outcome_names.Side`: the name (``names=``), equal to ``"a"``/``"b"`` too.
    """

    lost_a: int
    lost_b: int
    initiative: str | None
    destroyed: str | None

    #: What the fields hold besides numbers: the armies (:class:`~toolkit.outcome_names.Side`),
    #: "both" armies destroyed, or None.
    FIELD_VALUES = field_values(destroyed=(Side, "both", None), initiative=(Side, None))


class Losses(NamedTuple):
    """The tokens each army lost in one clash (DB-7): what :class:`ClashLosses` is the
    distribution of. It equals the plain pair (``result[(1, 2)]``) and unpacks as one.

    Attributes:
        lost_a, lost_b: tokens lost by side a and by side b (never more than it had).
    """

    lost_a: int
    lost_b: int


def _outcome_key(o: ClashOutcome) -> tuple:
    return (o.lost_a, o.lost_b, o.initiative or "", o.destroyed or "")


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ClashLosses(OddsResult):
    """Tokens lost in one clash for two hand sizes, averaged over deals (exact or Monte Carlo).

    It is the :class:`~toolkit.prob.Distribution` of :class:`Losses` ``(lost_a, lost_b)``
    (``result[(1, 2)]``, ``.items()``, ``.probability(lost_a=0)``, ``.mean("lost_a")``), an
    :class:`~toolkit.odds_result.Odds` (``.exact``, ``.interval(event)``: Wilson's 95%
    interval for Monte Carlo, the exact value twice when exact); the joint law with who
    held the initiative and who was destroyed is :attr:`joint` (an ``Odds`` too).

    Attributes:
        joint: the odds of :class:`ClashOutcome` — exact, or (Monte Carlo) the observed
            frequencies as exact fractions of the trials.
        method: ``"exact"`` or ``"monte_carlo"``.
        size: :func:`exact_size` of the request (what ``method="auto"`` compared with
            :data:`EXACT_LIMIT`).
        trials: Monte Carlo trials (``None`` when exact); ``sampler`` says what played them.
        tokens: the armies' tokens the losses are floored at (DB-7).
        confidence: the level of :meth:`interval` (0.95).
        names: the armies' names, side a's first (what the text calls them, so it reads
            "North loses 2, South loses 0", never the side ids).
    """

    joint: Odds[ClashOutcome]
    size: int
    tokens: tuple[int, int]
    sampler: str | None = None
    names: tuple[str, str] = ("army a", "army b")
    trial_name: str = "simulated clashes"

    def headline_events(self) -> list[tuple[str, Callable[[tuple[int, int]], bool]]]:
        """Which army comes out of the clash ahead (fewer tokens lost), or neither."""
        a, b = self.names
        return [(f"{a} comes out ahead", _a_ahead), (f"{b} comes out ahead", _b_ahead), ("even", _even)]

    def to_frame(self, floats: bool = False) -> pd.DataFrame:
        """A table of the joint outcomes: ``lost_a``, ``lost_b``, ``initiative``,
        ``destroyed``, ``probability`` and ``percent``."""
        return self.joint.distribution.to_frame(floats)

    def how(self) -> str:
        if self.exact:
            return "exact"
        return f"Monte Carlo through the {self.sampler}: " + method_text("monte_carlo", self.trials, self.trial_name)

    def _repr_html_(self) -> str:
        a, b = self.names
        title = self._heading_html() + f"<p>Tokens lost ({html.escape(a)}, {html.escape(b)})</p>"
        if self.exact:
            return title + self.distribution._repr_html_()
        rows = "".join(
            f"<tr><td style='text-align:left'>{html.escape(a)} loses {pair[0]}, {html.escape(b)} loses {pair[1]}</td>"
            f"<td>{html.escape(self.text(pair))}</td></tr>"
            for pair in self.outcomes()
        )
        return title + f"<table><tbody>{rows}</tbody></table>"

    def __str__(self) -> str:
        a, b = self.names
        lines = [self.headline()]
        width = max(len(a), len(b))
        for pair in self.outcomes():
            lines.append(f"  {a:>{width}} loses {pair[0]:2}, {b:>{width}} loses {pair[1]:2}: {self.text(pair)}")
        return "\n".join(lines)


def _a_ahead(pair: tuple[int, int]) -> bool:
    return pair[0] < pair[1]


def _b_ahead(pair: tuple[int, int]) -> bool:
    return pair[1] < pair[0]


def _even(pair: tuple[int, int]) -> bool:
    return pair[0] == pair[1]


def _pair(o: ClashOutcome) -> Losses:
    return Losses(o.lost_a, o.lost_b)


def _named(joint: Odds[ClashOutcome], names: tuple[str, str]) -> Odds[ClashOutcome]:
    """The joint odds with the initiative and the destroyed army as the armies'
    :class:`~toolkit.outcome_names.Side` (the name, equal to ``"a"``/``"b"`` too)."""
    by_role = dict(zip(SIDES, sides(("a", names[0]), ("b", names[1]), words=("both",)), strict=True))
    return joint.map(
        lambda o: o._replace(
            initiative=by_role.get(o.initiative, o.initiative), destroyed=by_role.get(o.destroyed, o.destroyed)
        )
    )


def _sorted_joint(weights: Mapping[ClashOutcome, Any]) -> Distribution[ClashOutcome]:
    return Distribution({o: weights[o] for o in sorted(weights, key=_outcome_key)})


def _engine_sample(
    na: int, nb: int, pols: tuple[Policy, Policy], rules: Rules, tokens: tuple[int, int], trials: int, seed: Any
) -> Iterator[ClashOutcome]:
    """Each of ``trials`` clashes played through the engine, in order, one at a time: run ``i`` draws its
    deal, then the seed of its own play stream (common random numbers, as
    :func:`sampled_clash_runs`)."""
    rng = random.Random(seed)
    deck = list(rules.deck())
    army_a, army_b = clash_armies(tokens)
    policy_map = {"a": pols[0], "b": pols[1]}
    for _ in range(trials):
        a, b = random_deal(rng, deck, na, nb)
        end = play_out(start_clash(army_a, army_b, (a, b), rules), play_seed(rng), policy_map)
        assert isinstance(end, BattleState)
        holder = None if end.first_attacked is None else SIDES[1 - end.first_attacked]
        destroyed = end.outcome.split()[0] if end.outcome.endswith("destroyed") else None  # a, b or both
        outcome = ClashOutcome(end.lost_clash[0], end.lost_clash[1], holder, destroyed)
        tick()  # a clash done: the progress of long work (toolkit.progress)
        yield outcome


def clash_losses(
    cards_a: int,
    cards_b: int,
    policies: Sequence[str | Policy] | str | Policy = ("greedy", "greedy"),
    rules: Rules | None = None,
    method: str = "auto",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    *,
    tokens: tuple[int, int] = (MAX_TOKENS, MAX_TOKENS),
    sampler: str = "engine",
    names: tuple[str, str] = ("army a", "army b"),
    precision: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> ClashLosses:
    """Return the tokens lost by each side in one clash when side a is dealt ``cards_a``
    cards and side b ``cards_b`` from one deck (DB-1, DB-2), averaged over every deal,
    with the initiative (DB-3) and the clash (DB-4..DB-7) played under ``policies``.

    Args:
        cards_a, cards_b: hand sizes.
        policies: (side a's, side b's) policy — names from
            :data:`~toolkit.durak_battle.policies.POLICIES` (``"random"``, ``"greedy"``,
            ``"optimal"``) or functions state -> Distribution (see :mod:`.policies` for
            what a policy may read) — or one for both.
        rules: the rules in force (DB-1 jokers, DB-5, DB-6 variants).
        method: ``"exact"``, ``"monte_carlo"``, or ``"auto"``: exact while
            :func:`exact_size` is at most :data:`EXACT_LIMIT`, Monte Carlo above.
        trials, seed: Monte Carlo clashes and random seed (repeatable).
        tokens: the armies' tokens (default 10 each, the most an army has): losses
            never take an army below 0, and a clash stops when an army is destroyed (DB-7).
        sampler: Monte Carlo through the ``"engine"`` (:func:`~.engine.start_clash` and
            :func:`~toolkit.engine.play_out`, the reference) or the ``"model"``
            (:class:`~.position.ClashPosition` without the engine's log and tokens, many times faster).
        names: the armies' names, side a's first: what the result's text calls them
            (``"North loses 2, South loses 0"``).
        precision: sample in batches (batch ``k`` seeded by ``f"{seed}:{k}"``, ``trials``
            the first) until the 95% interval of every pair of losses and of which army
            comes out ahead has a half-width of at most this (0.01 is ±1 point); ``None``:
            ``trials`` clashes.
        time_limit: seconds of sampling towards ``precision`` before giving up.

    Returns:
        A :class:`ClashLosses`: the distribution of :class:`Losses` ``(lost_a, lost_b)``
        (``.items()``, ``result[(la, lb)]``, ``.mean("lost_a")``), the joint law with the
        initiative and destruction (``.joint``), ``.method``, and for Monte Carlo 95% Wilson
        intervals (``.interval(event)``).

    Raises:
        InvalidSetupError: bad sizes, tokens, method, sampler, trials, precision or policy.
        TooBigError: ``method="exact"`` above :data:`EXACT_REQUEST_LIMIT`, before starting.
        PrecisionNotReachedError: ``precision`` not reached within ``time_limit``.

    >>> r = clash_losses(1, 1, method="exact")
    >>> r[(0, 0)], r[(0, 4)]  # no clash (39·38 of 54·53 deals); a's club counters b's spade and strikes
    (Fraction(247, 477), Fraction(91, 2862))
    """
    started = time.perf_counter()
    rules = check_rules(rules)
    na, nb = check_sizes(cards_a, cards_b, rules)
    pols = check_policies(policies)
    checked = check_tokens(tokens)
    if checked is None:
        raise InvalidSetupError(f"tokens must be a pair of whole numbers from 1 to {MAX_TOKENS} (DB-7), got None")
    check_method(method)
    if sampler not in SAMPLERS:
        raise InvalidSetupError(f"sampler must be 'engine' or 'model', got {sampler!r}")
    trials = check_trials(trials)
    seed = check_seed(seed)
    precision = check_precision(precision)
    time_limit = check_time_limit(time_limit)
    names = _check_names(names)
    size = exact_size(na, nb, rules)
    sizes = f"{na} v {nb} cards, one clash"
    tokens_words = f"{names[0]} {count(checked[0], 'token')}, {names[1]} {count(checked[1], 'token')}"
    question = Question.about(rules, sizes, tokens_words, policies=[policy_label(p) for p in pols], size=size)
    how = choose_method(
        method,
        size,
        EXACT_LIMIT,
        f"an exact clash for {na} v {nb} cards",
        "deal classes",
        "EXACT_REQUEST_LIMIT",
        exact_limit=EXACT_REQUEST_LIMIT,
    )
    if how == "monte_carlo":

        def draw(n: int, batch: int) -> Iterator[ClashOutcome]:
            run_seed = seed if batch == 0 else f"{seed}:{batch}"
            if sampler == "engine":
                return _engine_sample(na, nb, pols, rules, checked, n, run_seed)
            settled: dict[tuple[str | None, Path], ClashOutcome] = {}

            def settle(run: tuple[str | None, Path]) -> ClashOutcome:
                if run not in settled:
                    la, lb, destroyed = settle_losses(checked, run[1])
                    settled[run] = ClashOutcome(la, lb, run[0], destroyed)
                return settled[run]

            return (settle(run) for run in clash_runs(na, nb, pols, rules, n, run_seed))

        def widest(counts: Counter, runs: int) -> float:
            pairs: Counter = Counter()
            for o, k in counts.items():
                pairs[_pair(o)] += k
            return counts_half_width(pairs, runs, (_a_ahead, _b_ahead, _even))

        results, batches = sample_runs(draw, trials, precision, widest, time_limit, "simulated clashes")
        # the stream: what picks each run's draws (the seed, the sizes and, for the model, the
        # deck's deal stream named by them; the batches); never the rules, so that two rule
        # sets drawn with the same seed are compared run by run
        samples = Samples.of(("durak clash", sampler, seed, na, nb, batches), results)
        joint = Odds.from_counts(_sorted_counts(samples.counts()), trial_name="simulated clashes", samples=samples)
        return ClashLosses(
            distribution=joint.distribution.map(_pair),
            method="monte_carlo",
            trials=len(results),
            samples=samples.map(_pair),
            joint=_named(joint, names),
            size=size,
            tokens=checked,
            sampler=sampler,
            seconds=time.perf_counter() - started,
            names=names,
            question=question,
        )
    weights: dict[ClashOutcome, Fraction] = defaultdict(Fraction)
    for (holder, path), p in exact_clash_paths(na, nb, pols, rules).items():
        la, lb, destroyed = settle_losses(checked, path)
        weights[ClashOutcome(la, lb, holder, destroyed)] += p
    joint = Odds(_sorted_joint(weights))
    return ClashLosses(
        distribution=joint.distribution.map(_pair),
        joint=_named(joint, names),
        size=size,
        tokens=checked,
        seconds=time.perf_counter() - started,
        names=names,
        question=question,
    )


def _sorted_counts(counts: Mapping[ClashOutcome, int]) -> dict[ClashOutcome, int]:
    return {o: counts[o] for o in sorted(counts, key=_outcome_key)}


def _check_names(names: object) -> tuple[str, str]:
    """``names`` as two different, non-empty army names (side a's first)."""
    if (
        not isinstance(names, (tuple, list))
        or len(names) != 2
        or not all(isinstance(n, str) and n.strip() for n in names)
        or names[0] == names[1]
    ):
        raise InvalidSetupError(f"names must be two different army names, side a's first, got {str(names)[:60]!r}")
    return (names[0], names[1])
