"""Optimal play of Fairy Meat attacks between known hands: the bluffing duel, solved exactly.

:func:`solve_attack` builds the game of an attack (or a whole combat of several
attacks) from the combat engine — the Add/Subtract declarations (FM-3, attacker first,
in the open), the Trumps placed face down at the same time (FM-4), the Numbered cards
played at the same time (FM-6), with what each fairy really knows (FM-5: after a
"None" the other's face-down Trumps stay hidden, only their number shows), cards
turned up from the deck (FM-6, FM-7) and the defender's choice of how to keep her points
(FM-11) — and finds an equilibrium with a sequence-form linear program, then verifies it
exactly in fractions.

Both fairies know both hands (the "known hands" game: a designer's benchmark of what
the cards allow); :mod:`toolkit.fairy_meat.strategy.hidden` solves the game where each sees only
her own. The reveal of hidden Trumps (FM-5), the next-defence bonus (FM-11) and the
cheating shifts (FM-8) are played by the referee's best choice: each is made with every
card on the table known, so it is best for the chooser whatever the weights of the
payoff (:class:`~.payoff.Payoff`, which are never negative).

The draft's worked example (first attack): Dizzytwig's five cards against Sparklespaz's two.

>>> sol = solve_attack("KS QC 5C 4C 3D", "2D KC")
>>> sol.verified, sol.value
(True, Fraction(1, 1))
"""

from __future__ import annotations

import functools
import html
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.cards import Card, Pile, cards_text, check_distinct, codes_as_text, parse_cards
from toolkit.engine import GameState, Policy, enumerate_outcomes
from toolkit.equilibrium import (
    Equilibrium,
    GameTree,
    best_response,
    build_tree,
    policy_strategy,
    profile_value,
    solve,
)
from toolkit.errors import InvalidSetupError, TooBigError, ToolkitError
from toolkit.fairy_meat.attack import hidden_owner
from toolkit.fairy_meat.deck import card_type, is_trump, numbered_mask, trump_kind_caps
from toolkit.fairy_meat.engine import PLAYERS, CombatState, start_combat
from toolkit.fairy_meat.legality import trump_sets
from toolkit.fairy_meat.policies import PLAY_STYLES
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.fairy_meat.strategy.payoff import Payoff, PayoffTerms, payoff_terms
from toolkit.numbers import count, signed_text
from toolkit.prob import Distribution, format_probability
from toolkit.whole_numbers import whole_number

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AttackSolution",
    "solve_attack",
    "solve_combat",
    "attack_game",
    "clear_attack_games",
    "game_size",
    "draw_outcomes",
    "hint",
    "hint_reached",
    "same_choice",
    "NODE_LIMIT",
    "SIZE_LIMIT",
]

#: Largest game :func:`solve_attack` walks (nodes); a bigger one is refused before the
#: solve, with its size. 5 v 3 cards is a few hundred nodes.
NODE_LIMIT = 300_000

#: Largest :func:`game_size` solved without being asked for explicitly (about 15 s). A
#: side with no Numbered card turns up cards until one appears (FM-6, FM-7): every
#: count of red, black and A♠ Trumps turned up and every Numbered card ending the
#: draw is its own outcome (:func:`draw_outcomes`), each judged by the referee.
SIZE_LIMIT = 100_000


def draw_outcomes(rules: Rules | None = None) -> int:
    """Return the outcomes of one Wild Trump or blind draw (FM-6, FM-7) by card type under
    ``rules`` (FM-1, FM-12): every count of red Trumps, black Trumps but the death card, the
    death card (and jokers, when the deck holds them) turned up, times the Numbered card
    type that ends the draw.

    >>> draw_outcomes()  # the draft's deck: 9 x 8 x 2 Trump counts, 18 Numbered types
    2592
    """
    outcomes = bin(numbered_mask(rules)).count("1")
    for cap in trump_kind_caps(rules):
        outcomes *= cap + 1
    return outcomes


_STEP_NAMES = {
    "declare": "Declare Add or Subtract (FM-3)",
    "trumps": "Trumps face down (FM-4)",
    "play": "Numbered card (FM-6)",
    "score": "Keep the points as (FM-11)",
    "escape": "Escape or damage (FM-14)",
}


def _hand(cards: str | Sequence[str | Card], who: str) -> tuple[Card, ...]:
    hand = parse_cards(cards)
    if not hand:
        raise InvalidSetupError(f"the {who}'s hand is empty: give at least one card, e.g. '5C KS'")
    if any(c.is_joker for c in hand):
        raise InvalidSetupError(f"the {who}'s hand holds a joker: Fairy Meat uses 52 cards, no jokers (FM-1)")
    return hand


def same_choice(state: GameState | None, action: Hashable) -> Hashable:
    """Return what makes an action the choice it is: actions naming cards of the same types
    (:func:`~toolkit.fairy_meat.deck.card_type`) are the same choice (FM-1, FM-12)."""
    verb, _, rest = str(action).partition(" ")
    if verb in ("trumps", "play", "wild") and rest != "none":
        rules = getattr(state, "rules", None)
        return (verb, tuple(sorted(card_type(Card(c), rules) for c in rest.split())))
    return str(action)


def _chance_class(state: GameState, outcome: Hashable) -> Hashable:
    return card_type(outcome, getattr(state, "rules", None)) if isinstance(outcome, Card) else outcome


def _auto(state: GameState) -> Hashable | None:
    assert isinstance(state, CombatState)
    step, _ = state.phase()
    if step == "escape":
        return "damage"  # forgoing damage to escape is worth nothing in the payoff (FM-14)
    return state.best_action()  # reveal (FM-5), bonus (FM-11), shifts (FM-8)


def _settled(state: GameState) -> bool:
    assert isinstance(state, CombatState)
    return state.attack_no == state.attacks - 1 and None not in state.cur.plays


def _settled_key(state: GameState) -> Hashable:
    """Everything the rest of the last attack depends on: the declarations, points carried
    over (FM-7, FM-11), this attack as both sides see it, and the deck by card type."""
    assert isinstance(state, CombatState)
    pile = state.pile
    return (
        state.declared,
        state.bonus_points,
        state.prev_points,
        state.information_state("attacker", hands_known=True)[-1],
        state.information_state("defender", hands_known=True)[-1],
        tuple(card_type(c, state.rules) for c in pile.stacked),
        tuple(sorted(Counter(card_type(c, state.rules) for c in pile.shuffled).items())),
        tuple(sorted(Counter(card_type(c, state.rules) for c in pile.discards).items())),
    )


def _exact_key(state: GameState) -> Hashable:
    """:func:`_settled_key` with every card named (the ungrouped game)."""
    assert isinstance(state, CombatState)
    pile = state.pile
    return (
        *_settled_key(state)[:5],
        pile.stacked,
        tuple(sorted(c.code for c in pile.shuffled)),
        tuple(sorted(c.code for c in pile.discards)),
    )


def attack_game(
    state: CombatState,
    payoff: Payoff | None = None,
    *,
    node_limit: int = NODE_LIMIT,
    grouped: bool = True,
    judgement_limit: int | None = None,
) -> GameTree:
    """Return the game tree (sequence form) of the combat from ``state`` on, both hands known.

    ``state`` must have both hands dealt (any later point of a combat will do: the
    stepper's hint solves from the start of the current attack); a hand not dealt yet is
    dealt by chance.

    With ``grouped`` (the default) the cards dealt or turned up (FM-6, FM-7 draws) are
    merged by card type (:func:`~toolkit.fairy_meat.deck.card_type`: what the referee
    reads of a card, FM-1/FM-12), and so are the Trumps and cards played of one type;
    ``grouped=False`` walks every card on its own (the same game, many times bigger: a
    check of the grouping on small decks).

    ``judgement_limit`` bounds the referee judgements of the walk (the positions of the
    last attack weighed by :meth:`~.engine.CombatState.best_result`, most of the work):
    the size of the grouped game as walked, where :func:`game_size` is an estimate.

    Raises:
        TooBigError: more than ``node_limit`` nodes or ``judgement_limit`` judgements,
            said before the solve starts.
    """
    return _terms_game(state, node_limit, grouped, judgement_limit).priced((payoff or Payoff()).price)


#: Games walked in payoff terms (:func:`_terms_game`), the most recent :data:`_TERMS_KEPT`:
#: a study solving the same deals for a second payoff walks none of them again.
_TERMS_GAMES: OrderedDict[Hashable, GameTree] = OrderedDict()
_TERMS_KEPT = 64


def clear_attack_games() -> None:
    """Forget the games :func:`attack_game` remembers between payoffs (and the named ways
    of playing read on them)."""
    _TERMS_GAMES.clear()
    _STYLE_STRATEGIES.clear()


def _terms_game(state: CombatState, node_limit: int, grouped: bool, judgement_limit: int | None) -> GameTree:
    """:func:`attack_game` valued in :class:`~.payoff.PayoffTerms` (every payoff's values
    before its weights: the walk, the referee's judgements and its best choices do not
    depend on the payoff), remembered by the state and the limits."""
    key = (state, node_limit, grouped, judgement_limit)
    got = _TERMS_GAMES.get(key)
    if got is not None:
        _TERMS_GAMES.move_to_end(key)
        return got
    got = _TERMS_GAMES[key] = _walk_terms(state, node_limit, grouped, judgement_limit)
    while len(_TERMS_GAMES) > _TERMS_KEPT:
        _TERMS_GAMES.popitem(last=False)
    return got


def _walk_terms(state: CombatState, node_limit: int, grouped: bool, judgement_limit: int | None) -> GameTree:
    """The walk of :func:`attack_game`, its values in payoff terms."""
    base = len(state.results)
    judged = [0]

    def value(s: GameState) -> PayoffTerms:
        assert isinstance(s, CombatState)
        return sum((payoff_terms(r) for r in s.results[base:]), PayoffTerms())

    def judged_value(s: CombatState) -> PayoffTerms | None:
        """The value of a position of the last attack by the referee's judgement with every
        choice left in it made best (FM-5, FM-8, FM-11), or None (cards to come, Wrestling)."""
        result = s.best_result(explain=False)  # the numbers only: the walk reads no words
        if result is None or (s.wrestling and result.winner is not None):
            return None
        return value(s) + payoff_terms(result)

    def decided(s: GameState) -> PayoffTerms | None:
        assert isinstance(s, CombatState)
        if s.attack_no != s.attacks - 1:
            return None
        judged[0] += 1
        if judgement_limit is not None and judged[0] > judgement_limit:
            raise TooBigError(
                f"this game needs more than {judgement_limit:,} referee judgements: too big to solve quickly here"
            )
        return judged_value(s)

    def final(s: GameState) -> PayoffTerms | None:
        # a leaf judged at once rather than its reveal, bonus and shifts played one by one
        # as _auto plays them (the referee's best choices, FM-5/FM-8/FM-11): the same value;
        # not counted against judgement_limit, which keeps bounding what it bounded before
        assert isinstance(s, CombatState)
        return judged_value(s)

    return build_tree(
        state,
        players=PLAYERS,
        information=lambda s, p: s.information_state(PLAYERS[p], hands_known=True),  # type: ignore[attr-defined]
        value=value,
        auto=_auto,
        action_class=same_choice if grouped else None,
        chance_class=_chance_class if grouped else None,
        settled=_settled,
        settled_key=_settled_key if grouped else _exact_key,
        decided=decided,
        final=final,
        node_limit=node_limit,
    )


def _options(hand: Sequence[Card], rules: Rules | None = None) -> tuple[int, int, bool]:
    """(Trump sets, distinct plays, draws?) for a hand at one attack (FM-4, FM-6; card kinds by ``rules``)."""
    trumps = [c for c in hand if is_trump(c, rules)]
    numbered = {card_type(c, rules) for c in hand if not is_trump(c, rules)}
    # None and every set of one colour (FM-4). The FM-6 keep-back is not applied: this is
    # an upper estimate, and the refusals of SIZE_LIMIT stay as they were.
    sets = 1 + len(trump_sets(hand, keep_wild=False, rules=rules))
    plays = len(numbered) or len({card_type(c, rules) for c in trumps}) or 1
    return sets, plays, not numbered


def game_size(
    attacker_hand: Sequence[Card], defender_hand: Sequence[Card], attacks: int = 1, rules: Rules | None = None
) -> int:
    """Return an estimate of the work of solving these known hands exactly, in referee
    judgements: declarations (4) times, per attack, the Trump sets and plays of each side
    (hands shrinking by a card an attack), times :func:`draw_outcomes` for each side that
    must turn up cards (FM-6, FM-7)."""
    hands = [list(attacker_hand), list(defender_hand)]
    size = 4
    for _ in range(attacks):
        for h in hands:
            sets, plays, draws = _options(h, rules)
            size *= sets * plays * (draw_outcomes(rules) if draws else 1)
            if h:
                h.sort(key=lambda c: is_trump(c, rules))
                h.pop(0)
    return size


#: The named ways of playing (:data:`~toolkit.fairy_meat.policies.PLAY_STYLES`) read as
#: strategies of a game's decisions, by (the decisions, side, name): a policy reads only the
#: decisions (the engine states), never the payoff, so a game priced for a second payoff
#: (:meth:`GameTree.priced` shares the decisions) reads none of them again. Each entry
#: holds its decisions, so their ``id`` is not reused while it is kept.
_STYLE_STRATEGIES: OrderedDict[tuple[int, int, str], tuple[Any, list[dict[str, Fraction]]]] = OrderedDict()
_STYLES_KEPT = 2 * len(PLAY_STYLES) * _TERMS_KEPT  # both sides, every named style, every game kept


def _style_strategy(tree: GameTree, side: int, name: str) -> list[dict[str, Fraction]]:
    """:func:`policy_strategy` of the named way of playing, remembered by the decisions."""
    key = (id(tree.infosets), side, name)
    got = _STYLE_STRATEGIES.get(key)
    if got is not None and got[0] is tree.infosets:
        _STYLE_STRATEGIES.move_to_end(key)
        return got[1]
    strategy = policy_strategy(tree, side, PLAY_STYLES[name])
    _STYLE_STRATEGIES[key] = (tree.infosets, strategy)
    while len(_STYLE_STRATEGIES) > _STYLES_KEPT:
        _STYLE_STRATEGIES.popitem(last=False)
    return strategy


def _strategy_of(eq: Equilibrium, side: int, who: str | Policy) -> list[dict[str, Fraction]]:
    if who == "equilibrium":
        return eq.strategies[side]
    if isinstance(who, str):
        if who not in PLAY_STYLES:
            raise InvalidSetupError(f"unknown policy {who!r}: use 'equilibrium', " + ", ".join(map(repr, PLAY_STYLES)))
        return _style_strategy(eq.tree, side, who)
    return policy_strategy(eq.tree, side, who)


def _side(side: str | int) -> int:
    if side in (0, 1):
        return int(side)
    if side not in PLAYERS:
        raise InvalidSetupError(f"side must be 'attacker' or 'defender', got {side!r}")
    return PLAYERS.index(side)  # type: ignore[arg-type]


def _seen_text(state: CombatState, i: int) -> str:
    """What fairy ``i`` has seen of the current attack before her choice, in words."""
    a = state.cur
    o = 1 - i
    parts = []
    own, other = a.trumps[i], a.trumps[o]
    if own is not None:
        parts.append(f"her Trumps {cards_text(own)}")
    if own is not None and other is not None:
        if hidden_owner(a, state.rules) != o:  # FM-5 under state.rules
            parts.append(f"theirs {cards_text(other)}")
        else:
            parts.append(f"theirs {len(other)} face down (FM-5)")
        if a.wild_colour:
            parts.append(f"Wild Trump points {a.wild_colour} (FM-7)")
    return ", ".join(parts)


def describe(state: CombatState) -> tuple[str, str]:
    """Return (decision, situation) in words for the decision pending in ``state``."""
    step, i = state.phase()
    decision = _STEP_NAMES.get(step, step)
    if step != "declare":
        decision = f"Attack {state.attack_no + 1}: {decision}"
    bits = []
    if (state.declared[0] and step != "declare") or (step == "declare" and i == 1):
        bits.append("declared " + "/".join(d or "-" for d in state.declared))
    for n, (past, result) in enumerate(zip(state.past, state.results, strict=True), start=1):
        played = [cards_text([a]) for a in past.cards if a is not None]
        bits.append(f"attack {n}: {' v '.join(played)} → {result.winner or 'draw'} {result.points}")
    if step in ("play",):
        seen = _seen_text(state, i)
        if seen:
            bits.append(seen)
    if step == "score":
        bits.append(f"{count(state.cur.result.points if state.cur.result else 0, 'point')} won")
    return decision, "; ".join(bits) or "start"


@dataclass(frozen=True)
class AttackSolution:
    """An exact, verified equilibrium of a Fairy Meat attack (or combat) between known hands.

    Attributes:
        hands: the attacker's and the defender's cards.
        value: the game value for the attacker (exact ``Fraction``) — what she earns on
            average, by the :attr:`payoff`, when both play optimally.
        lower, upper: exact bounds proved by the verification (equal when verified).
        exploitability: ``upper - lower``, exact; 0 means each side's best response to
            the other's strategy gains nothing (an exact equilibrium).
        seconds: time to build, solve and verify.
    """

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    rules: Rules
    payoff: Payoff
    attacks: int
    equilibrium: Equilibrium
    root: CombatState
    seconds: float

    @property
    def value(self) -> Fraction:
        return self.equilibrium.value

    @property
    def lower(self) -> Fraction:
        return self.equilibrium.lower

    @property
    def upper(self) -> Fraction:
        return self.equilibrium.upper

    @property
    def exploitability(self) -> Fraction:
        return self.equilibrium.exploitability

    @property
    def verified(self) -> bool:
        return self.equilibrium.verified

    @property
    def tree(self) -> GameTree:
        return self.equilibrium.tree

    def decisions(self, side: str, *, reachable: bool = True) -> list[dict[str, Any]]:
        """Return the side's equilibrium strategy, one record per decision she can face:
        ``decision``, ``situation`` (what she knows), ``chance`` (exact probability the game
        comes there under optimal play), ``mix`` (action -> exact probability) and ``state``
        (one engine state of the decision).
        With ``reachable`` only decisions optimal play can reach are listed."""
        p = _side(side)
        reach = self.equilibrium.reach(p)
        out = []
        for info, mix, r in zip(self.tree.infosets[p], self.equilibrium.strategies[p], reach, strict=True):
            if reachable and r == 0:
                continue
            assert isinstance(info.state, CombatState)
            decision, situation = describe(info.state)
            out.append({"decision": decision, "situation": situation, "chance": r, "mix": mix, "state": info.state})
        return out

    def table(self, side: str, *, reachable: bool = True) -> pd.DataFrame:
        """Return the side's equilibrium strategy as a table: one row per decision and
        action played with positive probability (``probability`` exact, ``shown`` in words)."""
        import pandas as pd

        rows = []
        for d in self.decisions(side, reachable=reachable):
            for action, p in d["mix"].items():
                if p or not reachable:
                    rows.append(
                        {
                            "decision": d["decision"],
                            "situation": d["situation"],
                            "comes up": format_probability(d["chance"]),
                            "action": codes_as_text(action),  # "play 3♦", as every other text draws cards
                            "probability": p,
                            "shown": format_probability(p),
                        }
                    )
        return pd.DataFrame(rows, columns=["decision", "situation", "comes up", "action", "probability", "shown"])

    def mix(self, state: CombatState) -> dict[str, Fraction] | None:
        """Return the equilibrium mix for the decision pending in ``state`` (a state of this
        combat: same hands), or ``None`` if optimal play never has to decide there."""
        if state.is_terminal or state.is_chance_node:
            return None
        p = PLAYERS.index(state.current_player)  # type: ignore[arg-type]
        info = self.tree.infoset(p, state.information_state(PLAYERS[p], hands_known=True))
        if info is None:
            return None
        return dict(self.equilibrium.strategies[p][self.tree.index[p][info.key]])

    @functools.cached_property
    def _reaches(self) -> tuple[list[Fraction], list[Fraction]]:
        """Per side, the exact probability that optimal play reaches each of its decisions."""
        return self.equilibrium.reach(0), self.equilibrium.reach(1)

    def reached(self, state: CombatState) -> bool | None:
        """Whether optimal play by both sides reaches the decision pending in ``state``
        with a chance above 0 (``False``: only an earlier choice optimal play does not
        make leads here, so its mix here is no advice), or ``None`` if there is no such
        decision in this solution."""
        if state.is_terminal or state.is_chance_node:
            return None
        p = PLAYERS.index(state.current_player)  # type: ignore[arg-type]
        info = self.tree.infoset(p, state.information_state(PLAYERS[p], hands_known=True))
        if info is None:
            return None
        return self._reaches[p][self.tree.index[p][info.key]] > 0

    @functools.cached_property
    def _played(self) -> dict[tuple[int, Hashable], list[dict[str, Fraction]]]:
        """The strategies read from named ways of playing and policies, by (side, who)."""
        return {}

    def _strategy(self, side: int, who: str | Policy) -> list[dict[str, Fraction]]:
        """:func:`_strategy_of`, read once per side and way of playing (a study values every
        pair of styles and the best replies to each: the same strategy many times)."""
        try:
            found = self._played.get((side, who))
        except TypeError:  # an unhashable policy object: not remembered
            return _strategy_of(self.equilibrium, side, who)
        if found is None:
            found = self._played[(side, who)] = _strategy_of(self.equilibrium, side, who)
        return found

    def value_of(self, attacker: str | Policy = "equilibrium", defender: str | Policy = "equilibrium") -> Fraction:
        """Return the exact expected payoff when each side plays ``"equilibrium"``, a named
        policy (``"random"``, ``"greedy"``, ``"cautious"``) or any engine policy."""
        return profile_value(self.tree, (self._strategy(0, attacker), self._strategy(1, defender)))

    def policy(self) -> Policy:
        """Return the equilibrium as an engine policy (both sides; the referee's best choice
        at the reveal, bonus and shift steps), for :func:`toolkit.engine.enumerate_outcomes`,
        play-outs and the stepper."""

        def play(state: GameState) -> Distribution[Any]:
            assert isinstance(state, CombatState)
            best = _auto(state)
            if best is not None:
                return Distribution.certain(best)
            mix = self.mix(state)
            if mix is None:
                raise ToolkitError("optimal play never reaches this decision; no equilibrium mix is known here")
            by_class = {same_choice(state, a): a for a in state.legal_actions()}
            out: dict[Hashable, Fraction] = {}
            for label, p in mix.items():
                if p:
                    action = by_class[same_choice(state, label)]
                    out[action] = out.get(action, Fraction(0)) + p
            return Distribution(out)

        return play

    def outcomes(self, result: Callable[[CombatState], Hashable] | None = None) -> Distribution[Any]:
        """Return the exact distribution of ``result(final state)`` under optimal play (by
        default each attack's (winner, points, damage) in order), every card turned up
        included."""

        def default(s: CombatState) -> Hashable:
            return tuple((r.winner or "draw", r.points, r.damage) for r in s.results[len(self.root.results) :])

        return enumerate_outcomes(self.root, result or default, self.policy())  # type: ignore[arg-type]

    def best_response_value(self, side: str, against: str | Policy) -> Fraction:
        """Return what ``side`` earns (attacker's payoff, exact) by the best possible play
        against the other side's fixed ``against`` play."""
        p = _side(side)
        value, _ = best_response(self.tree, p, self._strategy(1 - p, against))
        return value

    def _repr_html_(self) -> str:
        status = "verified exact equilibrium" if self.verified else f"exploitability {self.exploitability}"
        hands = " v ".join(cards_text(h) for h in self.hands)
        head = (
            f"<p><b>{html.escape(hands)}</b>: value for the attacker "
            f"<b>{html.escape(str(self.value))}</b> ({signed_text(self.value)}, {html.escape(self.payoff.label())}); "
            f"{status}; {self.tree.nodes:,} nodes, {self.seconds:.2f} s.</p>"
        )
        return head + "".join(
            f"<h4>{side}</h4>" + self.table(side).drop(columns=["probability"]).to_html(index=False, escape=True)
            for side in PLAYERS
        )


def _combat_start(
    attacker_hand: tuple[Card, ...],
    defender_hand: tuple[Card, ...],
    rules: Rules,
    attacks: int,
    removed: tuple[Card, ...],
) -> CombatState:
    check_distinct(attacker_hand + defender_hand + removed, "the two hands and the removed cards")
    state = start_combat(
        Fairy("Attacker", live=1, kill=1),
        Fairy("Defender", live=1, kill=1),
        rules,
        hands=(attacker_hand, defender_hand),
        attacker_modifiers=len(attacker_hand) - 2,  # FM-2: Kill 1 + 1 for attacking + modifiers
        defender_modifiers=len(defender_hand) - 1,  # FM-2: Live 1 + modifiers
        attacks=attacks,
    )
    if removed:
        pile = state.pile
        state = replace(state, pile=Pile((), pile.shuffled - set(removed), tuple(removed)))
    return state


def solve_combat(
    state: CombatState,
    payoff: Payoff | None = None,
    *,
    node_limit: int = NODE_LIMIT,
    size_limit: int | None = SIZE_LIMIT,
    judgement_limit: int | None = None,
) -> AttackSolution:
    """Return the verified equilibrium of the combat from ``state`` on (both hands dealt and
    known to both). See :func:`solve_attack`.

    Raises:
        InvalidSetupError: the hands are not dealt yet.
        TooBigError: :func:`game_size` of the rest of the combat is above ``size_limit``
            (``None``: no limit but ``node_limit`` and ``judgement_limit``, see
            :func:`attack_game`), said before starting.
    """
    if (len(state.hands[0]) == 0 and state.attack_no == 0) or state.phase()[0] == "deal":
        raise InvalidSetupError("deal both combat hands before solving: optimal play is solved for known hands")
    left = state.attacks - state.attack_no
    size = game_size(state.hands[0], state.hands[1], left, state.rules)
    if size_limit is not None and size > size_limit:
        raise TooBigError(
            f"{len(state.hands[0])} v {count(len(state.hands[1]), 'card')} over {count(left, 'attack')} is about "
            f"{size:,} referee "
            f"judgements to solve exactly (limit {size_limit:,}; a side with no Numbered card turns up cards, "
            "FM-6/FM-7, which multiplies the outcomes): pass size_limit= to wait for it, or use fewer attacks or "
            "cards, toolkit.fairy_meat.strategy.hidden.solve_hidden, or Monte Carlo play-outs (toolkit.montecarlo)"
        )
    started = time.perf_counter()
    pay = payoff or Payoff()
    try:
        tree = attack_game(state, pay, node_limit=node_limit, judgement_limit=judgement_limit)
    except TooBigError as exc:
        raise TooBigError(
            f"{len(state.hands[0])} v {count(len(state.hands[1]), 'card')} over {count(left, 'attack')}: {exc}"
        ) from None
    eq = solve(tree)
    hands = (state.dealt("attacker"), state.dealt("defender"))
    return AttackSolution(hands, state.rules, pay, state.attacks, eq, state, time.perf_counter() - started)


def solve_attack(
    attacker_hand: str | Sequence[str | Card],
    defender_hand: str | Sequence[str | Card],
    rules: Rules | None = None,
    payoff: Payoff | None = None,
    *,
    attacks: int = 1,
    removed: str | Sequence[str | Card] = (),
    node_limit: int = NODE_LIMIT,
    size_limit: int = SIZE_LIMIT,
) -> AttackSolution:
    """Return the exact equilibrium of an attack between two known combat hands.

    Args:
        attacker_hand, defender_hand: card codes (``"KS QC 5C"`` or a list).
        rules: the variants in force (default docs/rulings.md readings).
        payoff: the weights (default: damage to the defender minus the defender's points).
        attacks: attacks made from these hands (FM-13): 2 solves a whole combat of two
            attacks, the defender choosing how to keep her points (FM-11) in between.
        removed: cards known to be out of the deck (the Spoils Heap): only Wild Trump
            draws (FM-6, FM-7) can tell.
        node_limit: stop walking a game bigger than this (nodes).
        size_limit: refuse, before starting, a game whose :func:`game_size` is bigger.

    Returns:
        An :class:`AttackSolution`: exact value, verified exploitability (0 for an exact
        equilibrium), strategy tables.

    Raises:
        NotationError: a card code that is not a card.
        InvalidSetupError: duplicate cards, an empty hand, a bad ``attacks``.
        TooBigError: more attacks than the attacker's cards, or the game is too big to solve exactly (with its size).
    """
    hands = (_hand(attacker_hand, "attacker"), _hand(defender_hand, "defender"))
    gone = parse_cards(removed)
    attacks = whole_number(attacks, "attacks", 1, ruling="FM-13")
    if attacks > len(hands[0]):
        raise TooBigError(
            f"attacks={attacks:,} from a hand of {count(len(hands[0]), 'card')}: an attacker with no cards left "
            "loses her "
            f"remaining attacks (FM-13), so at most {len(hands[0])} can be played; for long combats use "
            "toolkit.montecarlo with the engine"
        )
    state = _combat_start(hands[0], hands[1], rules or Rules(), attacks, gone)
    return solve_combat(state, payoff, node_limit=node_limit, size_limit=size_limit)


#: Largest game (referee judgements of the grouped game :func:`attack_game` walks, about
#: 0.2 ms each) a hint solves for the whole rest of the combat; beyond it the hint looks
#: ahead to the current attack only (and says so). The size counted is the walked one, not
#: :func:`game_size`: the walk merges the cards turned up by what the referee reads of them
#: (card types, FM-1/FM-12: value and colour of a Numbered card, a Trump's colour, the A♠),
#: so a Wild Trump draw (FM-6, FM-7) costs a few dozen judgements, not :func:`draw_outcomes`.
HINT_JUDGEMENT_LIMIT = 6_000
_HINT_STEPS = ("declare", "trumps", "play", "score")
_solved: OrderedDict[Hashable, AttackSolution | TooBigError] = OrderedDict()


def _cached_solve(start: CombatState, payoff: Payoff, limit: int) -> AttackSolution:
    """:func:`solve_combat` without the :func:`game_size` estimate (the walk counts the
    grouped game), remembered for the last few combats, a refusal as well (a stepper asks
    again at every decision of an attack, from the same start).

    Raises:
        TooBigError: the grouped game needs more than ``limit`` referee judgements.
    """
    key = (
        start.information_state("attacker", hands_known=True),
        start.information_state("defender", hands_known=True),
        start.rules,
        payoff,
        start.attacks,
        start.bonus_points,
        start.prev_points,
        _settled_key(start)[-3:],
        limit,
    )
    if key not in _solved:
        try:
            _solved[key] = solve_combat(start, payoff, size_limit=None, judgement_limit=limit)
        except TooBigError as exc:
            _solved[key] = exc
        while len(_solved) > 32:
            _solved.popitem(last=False)
    _solved.move_to_end(key)
    found = _solved[key]
    if isinstance(found, TooBigError):
        raise found
    return found


def hint(
    state: CombatState, payoff: Payoff | None = None, *, judgement_limit: int = HINT_JUDGEMENT_LIMIT
) -> tuple[str, dict[str, Fraction]] | None:
    """Return (decision in words, equilibrium mix) for the decision pending in ``state``,
    solving the rest of the combat from the start of the current attack with both hands
    known (a hand not dealt yet is dealt by chance in the solved game) — or, when that
    game needs more than ``judgement_limit`` referee judgements (:func:`attack_game`),
    the current attack alone, as the words then say. At the defender's FM-11 choice the
    rest of the combat is the attacks still to come: no one-attack fallback there.

    ``None`` at chance steps, at the referee's steps (reveal, bonus, shifts: their best
    choice is :meth:`~.engine.CombatState.best_action`), at the Wrestling escape (FM-14:
    the payoff counts damage, so optimal play always deals it) and when the combat is over.

    Raises:
        TooBigError: even the current attack alone is too big to solve quickly.
    """
    found = _hint_solution(state, payoff or Payoff(), judgement_limit)
    if found is None:
        return None
    words, sol = found
    mix = sol.mix(state)
    if mix is None:  # pragma: no cover - every decision of the walked game has a mix
        raise ToolkitError("this decision is not in the solved game")
    return words, mix


def hint_reached(
    state: CombatState, payoff: Payoff | None = None, *, judgement_limit: int = HINT_JUDGEMENT_LIMIT
) -> bool | None:
    """Whether optimal play by both sides reaches the decision whose mix :func:`hint`
    gives (the same solution, cached): ``False`` when only an earlier choice optimal play
    does not make leads here — its mix there keeps the equilibrium whatever it is, so it
    is no advice. ``None`` where :func:`hint` gives none.

    Raises:
        TooBigError: as :func:`hint`.
    """
    found = _hint_solution(state, payoff or Payoff(), judgement_limit)
    return None if found is None else found[1].reached(state)


def _hint_solution(state: CombatState, pay: Payoff, judgement_limit: int) -> tuple[str, AttackSolution] | None:
    """The words and the solution :func:`hint` reads (None where it gives no hint)."""
    if state.is_terminal or state.is_chance_node or state.phase()[0] not in _HINT_STEPS:
        return None
    start = _attack_start(state)
    words = describe(state)[0]
    try:
        sol = _cached_solve(start, pay, judgement_limit)
    except TooBigError:
        one = replace(start, attacks=start.attack_no + 1)
        if start.cur.result is not None or one.attacks == start.attacks:
            raise TooBigError(
                f"the rest of the combat from here ({len(start.hands[0])} v {len(start.hands[1])} cards) needs more "
                f"than {judgement_limit:,} referee judgements: too big for a quick hint; solve it with "
                "toolkit.fairy_meat.strategy.optimal.solve_combat or use Monte Carlo play-outs"
            ) from None
        try:
            sol = _cached_solve(one, pay, judgement_limit)
        except TooBigError:
            raise TooBigError(
                f"solving this attack with {len(start.hands[0])} v {len(start.hands[1])} cards needs more than "
                f"{judgement_limit:,} referee judgements: too big for a quick hint"
            ) from None
        words += " — looking ahead to this attack only (the whole combat is too big to solve quickly)"
    return words, sol


def _attack_start(state: CombatState) -> CombatState:
    """The same combat at the start of the current attack (before this attack's first
    choice), so a hint never sees the opponent's pending face-down choice."""
    from toolkit.fairy_meat.attack import Attack

    if state.declared[0] is None or state.declared[1] is None:
        return replace(state, declared=(None, None), cur=Attack())
    if state.cur.result is not None:
        return state
    return replace(state, cur=Attack())
