"""The exact odds of one attack between known hands, by enumerating the engine (FM-2..FM-14)."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from toolkit.cards import Card, check_distinct
from toolkit.engine import Policy
from toolkit.errors import IllegalActionError, InvalidSetupError, TooBigError
from toolkit.fairy_meat.deck import (
    type_colour,
    type_pips,
)
from toolkit.fairy_meat.engine import CombatState, start_combat
from toolkit.fairy_meat.legality import (
    placed_type,
)
from toolkit.fairy_meat.odds.checks import parse_hand, policy_label, resolve_policies
from toolkit.fairy_meat.odds.classes import DRAWS
from toolkit.fairy_meat.odds.families import Family, type_key, type_keys
from toolkit.fairy_meat.odds.outcomes import AttackOutcome, outcome_of, with_sides
from toolkit.fairy_meat.odds.weighing import Pending, settle, weigh_pair
from toolkit.fairy_meat.policies import POLICIES, REFEREE_STEPS
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.odds_result import Odds
from toolkit.prob import Distribution
from toolkit.question import Question

__all__ = [
    "BEST_OUTCOMES",
    "fairies_for",
    "start_known_hands",
    "signature",
    "lumped_chance",
    "family_from_state",
    "finish_draws",
    "merge_state",
    "enumerate_attack",
    "attack_odds",
]

_DEFAULT = Rules()


def fairies_for(a: int, d: int, rules: Rules | None = None) -> tuple[Fairy, Fairy, int, int]:
    """Bare-handed fairies and modifiers whose combat hands are exactly ``a`` and ``d``
    cards (FM-2, the attacker's bonus of ``rules``)."""
    bonus = (rules or _DEFAULT).attacker_bonus
    return Fairy("Attacker", live=1, kill=0), Fairy("Defender", live=1, kill=1), a - bonus, d - 1


def start_known_hands(hand_a: Sequence[Card], hand_d: Sequence[Card], rules: Rules) -> CombatState:
    attacker, defender, mod_a, mod_d = fairies_for(len(hand_a), len(hand_d), rules)
    return start_combat(
        attacker,
        defender,
        rules,
        hands=(hand_a, hand_d),
        attacker_modifiers=mod_a,
        defender_modifiers=mod_d,
        attacks=1,
    )


def signature(state: CombatState) -> Hashable:
    """The state up to which cards of a type were used (policies and rules treat them alike)."""
    if state.is_terminal:
        return ("over", tuple(outcome_of(r) for r in state.results))
    a = state.cur

    keys = type_keys(state.rules)

    def types(cards: Iterable[Card] | None) -> tuple | None:
        return None if cards is None else tuple(sorted([str(keys[c.code]) for c in cards]))

    def one(card: Card | None) -> Any:
        return None if card is None else keys[card.code]

    return (
        state.phase(),
        state.declared,
        types(state.hands[0]),
        types(state.hands[1]),
        types(a.trumps[0]),
        types(a.trumps[1]),
        a.plays,
        one(a.cards[0]),
        one(a.cards[1]),
        types(a.drawn[0]),
        types(a.drawn[1]),
        one(a.number[0]),
        one(a.number[1]),
        types(a.reveal),
        a.bonus,
        a.shifts,
    )


def lumped_chance(state: CombatState) -> list[tuple[CombatState, Fraction]]:
    """Chance outcomes grouped by card type: one representative card per type."""
    options = state.chance_outcomes()
    groups: dict[Any, list[Card]] = defaultdict(list)
    keys = type_keys(state.rules)
    for card, _ in options:
        groups[keys[card.code]].append(card)
    total = len(options)
    return [(state.apply_listed(cards[0]), Fraction(len(cards), total)) for cards in groups.values()]


def family_from_state(state: CombatState, i: int) -> tuple[Family, int | None]:
    """What side ``i`` does in the current attack, by card type under the state's rules
    (FM-1, FM-12: a custom rank or death card changes a card's type), and the type of
    the Numbered card she plays (``None`` when she draws)."""
    a = state.cur
    rules = state.rules
    placed = placed_type(a.trumps[i] or (), rules)
    sign = 1 if state.declared[i] == "add" else -1
    kind = a.plays[i]
    if kind == "play":
        card = a.number[i]
        assert card is not None
        return Family("play", sign, placed, None, card.colour), type_key(card, rules)  # type: ignore[return-value]
    if kind == "wild":
        wild = a.cards[i]
        assert wild is not None
        return Family("wild", sign, placed, str(type_key(wild, rules)), None), None
    return Family(str(kind), sign, placed, None, None), None


def finish_draws(state: CombatState) -> Distribution[AttackOutcome] | None:
    """The outcome distribution from a state whose only chance left is the Wild Trump
    draws, by the draw law (FM-6) and the referee's best choices after it (what the
    standard policies play at the reveal, bonus and shift steps). ``None`` when the
    state is outside what the law covers (Wild Trump points, FM-7). The law counts the
    deck's Trumps by kind under the state's rules: red and black but the death card, the
    death card (of either colour, FM-12), and the jokers when the rules add them."""
    a = state.cur
    if any(kind == "points" for kind in a.plays) or a.drawn[0] or a.drawn[1]:
        return None
    if any(a.plays[i] in DRAWS and a.number[i] is not None for i in (0, 1)):
        return None
    fam_a, type_a = family_from_state(state, 0)
    fam_d, type_d = family_from_state(state, 1)
    pile = state.pile
    if pile.stacked or pile.discards:
        return None
    keys = type_keys(state.rules)
    left = Counter(keys[c.code] for c in pile.shuffled)  # the rules' types (FM-1, FM-12)
    trumps_left: tuple[int, ...] = (left["R"], left["B"], left["S"])
    if state.rules.jokers:
        trumps_left += (left["J"],)
    deck = pile.size
    k = min(deck, max(18, sum(trumps_left) + 2))  # the draw law's span (FM-6; 18 for the draft's deck)
    numbered = {t: left[t] for t in range(18) if left[t]}
    diffs: dict[tuple[str, str | None], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    draw_a, draw_d = fam_a.kind in DRAWS, fam_d.kind in DRAWS
    if fam_d.kind == "unopposed":
        for t, c in numbered.items():
            diffs[(type_colour(t), None)][type_pips(t)] += c
    elif draw_a and draw_d:
        for t1, c1 in numbered.items():
            for t2, c2 in numbered.items():
                c = c1 * (c2 - (t1 == t2))
                if c:
                    diffs[(type_colour(t1), type_colour(t2))][type_pips(t1) - type_pips(t2)] += c
    elif draw_a:
        assert isinstance(type_d, int)
        for t, c in numbered.items():
            diffs[(type_colour(t), type_colour(type_d))][type_pips(t) - type_pips(type_d)] += c
    else:
        assert isinstance(type_a, int)
        for t, c in numbered.items():
            diffs[(type_colour(type_a), type_colour(t))][type_pips(type_a) - type_pips(t)] += c
    if sum(numbered.values()) < draw_a + draw_d:
        raise InvalidSetupError("the deck holds too few Numbered cards for the Wild Trump draws (FM-6)")
    pending = Pending()
    pending.diffs[0] = diffs
    weigh_pair(pending, fam_a, fam_d, 0, 1, trumps_left, deck, k, state.rules)
    return Distribution.from_int_weights(settle(pending.buckets(), state.rules))


#: The outcome of an attack judged at its first referee step, by what the referee reads
#: (card types, choices so far); cleared by :func:`~toolkit.fairy_meat.odds.clear_caches`.
BEST_OUTCOMES: dict[Hashable, AttackOutcome | None] = {}


def merge_state(states: dict[Hashable, tuple[CombatState, Fraction]], state: CombatState, p: Fraction) -> None:
    """Add ``state`` with probability ``p``, merged with an equal state already there."""
    sig = signature(state)
    if sig in states:
        states[sig] = (states[sig][0], states[sig][1] + p)
    else:
        states[sig] = (state, p)


def enumerate_attack(
    state: CombatState, policies: tuple[Policy, Policy], draw_law: bool, max_states: int = 200_000
) -> Distribution[AttackOutcome]:
    """Exact outcome distribution of the (single) attack from ``state``, by enumerating the
    engine: every action the policies may take, chance outcomes grouped by card type,
    equal states merged. With ``draw_law`` the Wild Trump draws are finished by the
    draw law (:func:`finish_draws`) instead of card by card. The standard policies
    (:data:`~toolkit.fairy_meat.policies.POLICIES`) play the referee's best choice at the
    reveal, bonus and shift steps, so their attacks are judged there at once
    (:meth:`~toolkit.fairy_meat.engine.CombatState.best_result`)."""
    totals: dict[AttackOutcome, Fraction] = defaultdict(Fraction)
    standard = set(POLICIES.values())
    referee_steps = all(p in standard for p in policies)
    frontier: dict[Hashable, tuple[CombatState, Fraction]] = {signature(state): (state, Fraction(1))}
    seen = 0
    while frontier:
        nxt: dict[Hashable, tuple[CombatState, Fraction]] = {}
        for node, p in frontier.values():
            seen += 1
            if seen > max_states:
                raise TooBigError(
                    f"the engine enumeration of this attack passed {max_states:,} states; use the standard "
                    "policies (whose Wild Trump draws are counted by type) or Monte Carlo (toolkit.montecarlo)"
                )
            if referee_steps and node.phase()[0] in REFEREE_STEPS:
                # the standard policies play the referee's best choices from here (FM-5, FM-8, FM-11)
                sig = signature(node)
                key = (node.rules, node.wrestling, node.bonus_points, node.prev_points, node.cur.wild_colour)
                key += (sig[:2], sig[4:])  # the cards left in hand do not change this attack's judgement
                outcome = BEST_OUTCOMES.get(key)
                if outcome is None:
                    best = node.best_result(explain=False)
                    outcome = BEST_OUTCOMES[key] = None if best is None else outcome_of(best)
                if outcome is not None:
                    totals[outcome] += p
                    continue
            if node.is_terminal:
                if not node.results:
                    raise InvalidSetupError("the attacker had no card to attack with (FM-13)")  # pragma: no cover
                totals[outcome_of(node.results[0])] += p
            elif node.is_chance_node:
                if draw_law:
                    finished = finish_draws(node)
                    if finished is not None:
                        for outcome, q in finished.items():
                            totals[outcome] += p * q
                        continue
                for child, q in lumped_chance(node):
                    merge_state(nxt, child, p * q)
            else:
                who = node.current_player
                dist = policies[0 if who == "attacker" else 1](node)
                legal = node.legal_actions()
                for action, q in dist.items():
                    if action not in legal:
                        raise IllegalActionError(
                            f"the {who}'s policy chose {action!r}, which is not legal here: {legal}"
                        )
                    merge_state(nxt, node.apply_listed(action), p * q)
        frontier = nxt
    return Distribution(totals)


def attack_odds(
    attacker_hand: str | Iterable[str | Card],
    defender_hand: str | Iterable[str | Card],
    policies: Sequence[str | Policy] | str = ("greedy", "greedy"),
    rules: Rules | None = None,
) -> Odds[AttackOutcome]:
    """Return the exact distribution of the :class:`AttackOutcome` of one attack between
    two known combat hands (the first attack of a combat with ``attacks=1``), as the
    toolkit's odds result (:class:`~toolkit.odds_result.Odds`: always exact, so
    ``.interval(event)`` is the probability twice).

    The engine (:func:`~.engine.start_combat` with the hands dealt) is enumerated under
    the two policies (names from :data:`~.policies.POLICIES` or functions), with
    bare-handed fairies whose hand sizes match the hands (FM-2). Chance is the cards
    turned up by Wild Trumps (FM-6) or a blind draw (FM-7) from the rest of the deck.
    Those draws are counted by the draw law of card types (from a full deck a Trump-only
    hand could turn up 10^12 orderings), and after them the referee makes the reveal,
    bonus and shift choices (FM-5, FM-11, FM-8) best for the chooser — so a policy plugged
    in must play ``state.best_action()`` at those steps, as both standard policies do.
    Policies must also treat cards of one type alike (see :mod:`.policies`).

    Args:
        attacker_hand, defender_hand: card codes, ``"KS QC 5C"`` or a list; the
            defender's may be empty (FM-7: she turns up cards blind).
        policies: (attacker's, defender's) policy, or one for both.
        rules: the rules in force (default :class:`~.rules.Rules`).

    Raises:
        NotationError: a card code that is not a card.
        InvalidSetupError: an empty attacker's hand, a card in both hands or twice in one.
        IllegalActionError: a policy chose an action that is not legal.
        TooBigError: the policies' choices pass 200,000 distinct states.

    >>> attack_odds("5H 3D", "9H").items()  # greedy plays the 3; 3 v 9 both red: highest wins (FM-9)
    [(AttackOutcome(winner='defender', points=3, damage=0, nasty_hit=False), Fraction(1, 1))]
    >>> p = attack_odds("5H", "JD").probability(lambda o: o.winner == "attacker")  # JD: a Wild Trump (FM-6)
    >>> round(float(p), 4)
    0.5523
    """
    started = time.perf_counter()
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise InvalidSetupError(f"rules must be a fairy_meat Rules, got {rules!r}")
    hand_a = parse_hand(attacker_hand, "the attacker", rules)
    hand_d = parse_hand(defender_hand, "the defender", rules)
    if not hand_a:
        raise InvalidSetupError("the attacker's hand is empty: with no card she makes no attack (FM-13)")
    check_distinct(hand_a, "the attacker's hand")
    check_distinct(hand_d, "the defender's hand")
    check_distinct(hand_a + hand_d, "the two hands")
    pols = resolve_policies(policies)
    dist = enumerate_attack(start_known_hands(hand_a, hand_d, rules), pols, draw_law=True)
    hands = f"hands {' '.join(map(str, hand_a))} v {' '.join(map(str, hand_d)) or 'none (blind draw)'}"
    question = Question.about(rules, hands, policies=[policy_label(p) for p in pols])
    return Odds(dist.map(with_sides), seconds=time.perf_counter() - started, question=question)
