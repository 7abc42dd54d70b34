"""Pluggable Durak clash policies: how an army's leader chooses, for the calculators and the stepper.

A policy is a function ``state -> Distribution`` over ``state.legal_actions()``
(:data:`toolkit.engine.Policy`), so it plugs into :func:`toolkit.engine.play_out`,
:func:`toolkit.engine.enumerate_outcomes`, :func:`toolkit.montecarlo.sample_outcomes`
and the calculators of :mod:`toolkit.durak_battle.odds`. One function serves both
sides: the side to move is ``state.current_player`` (``"a"`` or ``"b"``).

The policies by name, in :data:`POLICIES`:

- ``"random"`` (:func:`random_policy`) — every legal action equally likely;
- ``"greedy"`` (:func:`greedy_policy`) — the sensible heuristic a designer plays first
  (see its docstring): attack with the highest spade, answer with the cheapest answer
  that succeeds;
- ``"optimal"`` (:func:`optimal_policy`) — minimax with both hands known (cards are
  played face up and a perfect-information search sees both hands): it plays for the
  token difference of the rest of the clash.

What a policy may read. The exact calculators of :mod:`.odds` call policies on their
own light clash positions (:class:`~toolkit.durak_battle.position.ClashPosition`) as well as on
the engine's :class:`~toolkit.durak_battle.engine.BattleState`. Both offer the same
attributes, and a policy for the calculators must read only these:
``current_player``, ``legal_actions()``, ``stage`` (``"attack"`` or ``"answer"``),
``holder``, ``attacking``, ``table``, ``hands``, ``passes`` and ``rules``. It must not
read tokens, the log or the deck (the clash odds are computed once per pair of hand
sizes, whatever the armies' tokens), nor the order of cards in a hand. And it must
depend on card ranks only through how they compare (higher, equal, lower): the exact
calculator plays one representative deal for every deal with the same ordering of the
cards. All three policies here do; ``random`` and ``greedy`` look only at the mover's
own hand and the card on the table.

>>> from toolkit.durak_battle import Army, Leader, start_clash
>>> north = Army("North", 6, Leader("Vasilisa"))
>>> south = Army("South", 4, Leader("Ivan"))
>>> s = start_clash(north, south, ("7S 9H QD", "10S 4S 4H"))
>>> greedy_policy(s).items()
[('attack 10S', Fraction(1, 1))]
>>> greedy_policy(s.apply("attack 10S")).items()  # the cheapest answer that succeeds
[('manoeuvre QD', Fraction(1, 1))]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolkit.cards import Card, standard_deck
from toolkit.durak_battle.best_play import action_key, best_action
from toolkit.durak_battle.clash import judged_answer
from toolkit.durak_battle.position import ClashPosition, action_of, move_of
from toolkit.durak_battle.rules import CARD_ID, Rules
from toolkit.engine import GameState, Policy
from toolkit.errors import IllegalActionError
from toolkit.prob import Distribution

__all__ = [
    "POLICIES",
    "random_policy",
    "greedy_policy",
    "greedy_action",
    "greedy_move",
    "greedy_rules",
    "optimal_policy",
    "action_key",
]


def _stage(state: GameState) -> str:
    """The clash step of ``state``: ``"attack"`` or ``"answer"``."""
    stage = getattr(state, "stage", None)
    if stage not in ("attack", "answer") or not hasattr(state, "hands"):
        raise IllegalActionError(
            f"these policies choose at a Durak clash's attack or answer (a BattleState or a ClashPosition), "
            f"not at {type(state).__name__} stage {stage!r}"
        )
    return stage


def random_policy(state: GameState) -> Distribution[Any]:
    """Return every legal action with equal probability (the uniformly random leader):
    every attack card or a pass when attacking (DB-6), every card of the hand played as
    each action it allows, or taking the strike, when answering (DB-1, DB-4)."""
    return Distribution.uniform(state.legal_actions())


_SORT_KEY = {c.code: c.sort_key for c in standard_deck(jokers=True)}
_CARD = {c.code: c for c in standard_deck(jokers=True)}


# The greedy leader's preferences, by card code, as sortable ``(tier, key, action)``: the
# card she plays is the one with the least preference, the tiers in the order of
# :func:`greedy_policy`'s docstring and ``key`` the card's order within its tier; a card she
# would not play ranks last (tier 9) with what she does without one. Worked out once per
# rules and table card from the referee's judgements and remembered with them
# (``rules.judged["greedy"]``, by table card id; ``None`` for the attack), as runs of
# card ids in that order and each id's move (:func:`_ranked`).
Prefs = dict[str, tuple[int, tuple[int, int], str]]
_NEVER = 9
_GREEDY = "greedy"


def _attack_prefs(rules: Rules) -> Prefs:
    """Attack (DB-3, DB-6): her highest card of the attack suit, then her lowest joker;
    she passes only with no attack card."""
    attack = rules.tables.suit_of_action["attack"]
    prefs: Prefs = {}
    for code, (rank, suit) in _SORT_KEY.items():
        card = _CARD[code]
        if card.suit == attack:
            prefs[code] = (0, (-rank, -suit), f"attack {code}")
        elif card.is_joker:  # a joker kept back may be wasted: leftover cards are discarded (DB-9)
            prefs[code] = (1, (rank, suit), f"attack {code}")
        else:
            prefs[code] = (_NEVER, (0, 0), "pass")
    return prefs


def greedy_rules(rules: Rules) -> Rules:
    """The rules with the variants that cannot change a clash between two greedy leaders
    set to their defaults, so that calculators share the clashes: ``holder_must_attack``
    (DB-6) only takes away the pass from a side holding a card of the attack suit, and the
    greedy leader passes only with no attack card at all (:func:`_attack_prefs`), while
    nothing else in the course of a clash reads it: both rules play the same clashes."""
    return replace(rules, holder_must_attack=False) if rules.holder_must_attack else rules


def _answer_prefs(table: Card, rules: Rules) -> Prefs:
    """Answer (DB-1, DB-4, DB-5) to ``table``: every card of her hand may be played as each
    of its actions but attack, so every choice is legal; the referee judges each card."""
    suit = rules.tables.suit_of_action
    prefs: Prefs = {}
    for code, key in _SORT_KEY.items():
        card = _CARD[code]
        if card.is_joker:
            prefs[code] = (3, key, f"manoeuvre {code}")  # a joker as a manoeuvre always succeeds
        elif card.suit == suit["manoeuvre"]:
            won = judged_answer(table, card, "manoeuvre", rules).succeeded
            prefs[code] = (0 if won else 6, key, f"manoeuvre {code}")
        elif card.suit == suit["defence"]:
            won = judged_answer(table, card, "defence", rules).succeeded
            prefs[code] = (1 if won else 5, key, f"defence {code}")
        elif card.suit == suit["counter"]:
            free = judged_answer(table, card, "counter", rules).defender_loss == 0
            prefs[code] = (2 if free else 4, key, f"counter {code}")
        else:  # the attack suit cannot answer (DB-1)
            prefs[code] = (_NEVER, (0, 0), "take")
    return prefs


def greedy_action(state: GameState) -> str:
    """Return the greedy leader's action in ``state`` (see :func:`greedy_policy`).

    Raises:
        IllegalActionError: not a Durak clash decision.
    """
    if type(state) is not ClashPosition:
        _stage(state)
        state = ClashPosition.from_state(state)
    return action_of(greedy_move(state))  # type: ignore[arg-type]


def greedy_move(pos: ClashPosition) -> int:
    """The greedy leader's action (:func:`greedy_policy`) at a clash position, as a move
    (:func:`~.position.move_of`): what the calculators step by."""
    held, stage, holder, attacking, table, _, rules, _ = pos
    hand = held[holder] if stage == "attack" else held[1 - attacking]  # type: ignore[operator]
    memo = rules.judged.get(_GREEDY)
    if memo is None:
        memo = rules.judged[_GREEDY] = {}
    ranked = memo.get(table)
    if ranked is None:
        prefs = _attack_prefs(rules) if stage == "attack" else _answer_prefs(pos.table, rules)  # type: ignore[arg-type]
        ranked = memo[table] = _ranked(prefs)
    runs, moves, never = ranked
    for run, highest in runs:  # the first run of her preferences that she holds a card of
        cards = hand & run
        if cards:
            return moves[cards.bit_length() - 1 if highest else (cards & -cards).bit_length() - 1]
    return never  # no card she would play, or an empty hand (DB-4, DB-6)


def _ranked(prefs: Prefs) -> tuple[tuple[tuple[int, bool], ...], list[int], int]:
    """``prefs`` as the calculators read them: her order of preference cut into runs of
    card ids that go up or down (a run as a bitmask of ids, and whether its highest id comes
    first), so the card she plays is the first or last id she holds of the first run she
    holds a card of; each card id's move; and the move without a card she would play (the
    cards of the last preference, tier 9, share it: pass or take)."""
    order = sorted(prefs.items(), key=lambda item: item[1])
    never = move_of(order[-1][1][2])
    moves = [never] * len(CARD_ID)
    ids = []
    for code, p in order:
        if p[0] != _NEVER:
            ids.append(CARD_ID[code])
            moves[CARD_ID[code]] = move_of(p[2])
    runs: list[tuple[int, bool]] = []
    k = 0
    while k < len(ids):  # the longest run from ids[k] that goes one way
        end = k + 1
        highest = end < len(ids) and ids[end] < ids[k]
        while end < len(ids) and (ids[end] < ids[end - 1]) == highest:
            end += 1
        mask = 0
        for i in ids[k:end]:
            mask |= 1 << i
        runs.append((mask, highest))
        k = end
    return tuple(runs), moves, never


def greedy_policy(state: GameState) -> Distribution[Any]:
    """Return the greedy leader's action (one action with probability 1).

    The heuristic reads only her own hand and the card on the table:

    - **Attack** (DB-3, DB-6): with her highest spade while she holds one, then with a
      joker (leftover cards are discarded at the end of the clash, DB-9, so a joker kept
      back for an answer may be wasted); she passes only with no attack card. (Keeping
      jokers back for answers did slightly worse in head-to-head Monte Carlo.)
    - **Answer** (DB-1, DB-4, DB-5), the first that she can play, the referee
      (:func:`~toolkit.durak_battle.clash.answer_attack`) judging each card:
      a manoeuvre that succeeds (she loses nothing) with her lowest such diamond; a
      defence that succeeds (she loses 1, the attacker 2) with her lowest such heart; a
      counterattack that costs her nothing with her lowest such club; a joker as a
      manoeuvre (it always succeeds); a counterattack with her lowest club (she loses
      1); a failed defence with her lowest heart (she loses 2, the attacker 1); a failed
      manoeuvre with her lowest diamond (she loses 2); otherwise she takes the strike.

    Under house rules the suits are those of ``rules.suits`` (a "spade" is a card of the
    attack suit, and so on) and the referee judges with the rules' losses, but the order
    of preference above stays the draft's: a fixed heuristic, not a best reply to a
    changed answer table (the ``"optimal"`` policy is that).

    >>> from toolkit.durak_battle import Army, Leader, start_clash
    >>> s = start_clash(Army("N", 6, Leader("V")), Army("S", 4, Leader("I")), ("9S 3C 2H", "KS"))
    >>> greedy_policy(s.apply("attack KS")).items()  # no answer succeeds: the cheapest is a 1-token counter
    [('counter 3C', Fraction(1, 1))]
    """
    return Distribution.certain(greedy_action(state))


def optimal_policy(state: GameState) -> Distribution[Any]:
    """Return the minimax action with both hands known (perfect information): the side
    to move plays for the token difference of the rest of the clash — the other side's
    losses minus her own, unweighted — assuming the other side does the same
    (:func:`toolkit.durak_battle.best_play.best_action`, as
    :func:`toolkit.durak_battle.odds.clash_value` from this position). DB-7 floors are
    ignored: the clash is valued as if fought to the last card. Among equally good actions
    she takes the first by :func:`action_key`.

    Raises:
        TooBigError: the position has too many continuations to search.
    """
    _stage(state)
    return Distribution.certain(best_action(state))


#: The policies by name, as the calculators accept them.
POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "optimal": optimal_policy}
