"""Equilibrium of ONE Fairy Meat attack when each fairy sees only her own hand.

:func:`solve_hidden` deals an ``a``-card attacker's hand and a ``d``-card defender's hand
from one deck (FM-1, FM-2; optionally minus ``removed`` known cards, e.g. the Spoils
Heap, FM-13) and solves the attack as a two-player zero-sum game of imperfect
information:

1. the attacker declares Add or Subtract having seen her hand, publicly; then the
   defender, having seen hers and the attacker's declaration (FM-3);
2. both place Trumps of one colour face down or say None, simultaneously (FM-4); a
   fairy with no Numbered card keeps a Trump back for a Wild Trump (FM-6). If both
   placed Trumps, or both said None, both sets are seen (by card type); if exactly
   one said None, the other's Trumps stay hidden and the None-sayer sees only how many
   cards lie face down (FM-5);
3. both play a Numbered card (compulsory when held) or a Trump as a Wild Trump,
   simultaneously (FM-6); both are then seen;
4. Wild Trump draws (FM-6, exact draw law from the rest of the deck), the None-rule
   reveal (FM-5) and the cheating shifts (FM-8) follow; the reveal and the shifts are the
   referee's best choices (:func:`~.referee.resolve_attack`: every card is on the table
   then, so they are best for the chooser), and the attacker's payoff is
   ``Payoff().of(result)`` (zero-sum).

With at least one card each the defender is never undefended (FM-7): she always holds a
card to play, so ``Rules.undefended`` changes nothing here.

How it is solved
----------------
Cards count by *type* (21 types: 18 Numbered types = pips x colour, red Trump, black
Trump other than the A♠, the A♠; FM-1, FM-12). Deals are weighted exactly with card
removal, P(hA, hD) ∝ Π_t C(n_t, a_t) C(n_t − a_t, d_t) (:func:`deal_weights`).

The game is written in sequence form: an attacker's *sequence* is (hand, declarations,
her Trumps, what she saw of the defender's Trumps, her card); likewise for the defender.
The payoff matrix between the two players' sequences holds deal weight x expected payoff
for every consistent pair (the sparse part: most hands cannot reach most public
histories). Every attack class is judged once by the referee on representative cards,
through the card-type classes of :mod:`.odds` (``_view``/``_canon``/``_fold``), and
Wild Trump draws are averaged exactly for the deck left by *both* hands.

The solver is CFR+ (regret matching+, alternating updates, linear averaging of the
strategies), vectorised with numpy over every information set. Every few iterations it
measures the exploitability of the average profile with exact best responses over the
whole game (float64): ``lower`` = the defender's best response against the attacker's
average strategy, ``upper`` = the attacker's best response against the defender's; the
game value lies between them. These are measured figures, not estimates. It stops when the
exploitability reaches the target or after the iteration budget, both counted in iterations,
so a slow or loaded machine gives the same figures; the time limit is only a safety net, and
:attr:`HiddenSolution.stopped` says which of the three ended the solve.

>>> sol = solve_hidden(1, 1)  # one card each: a symmetric game, worth 0 to the attacker
>>> sol.exploitability_share <= 0.01, abs(sol.value) < 1e-9, sol.payoff_range
(True, True, 32.0)

Modules: :mod:`.hands` (hands, deals, legal plays by type), :mod:`.judge` (the referee by
class, the draw law), :mod:`.game` (sequence trees), :mod:`.matrix` (the payoff matrix),
:mod:`.policies` (engine policies as strategies), :mod:`.solution` (:class:`HiddenSolution`),
:mod:`.solve` (:func:`solve_hidden`); the CFR+ itself is :mod:`toolkit.equilibrium.cfr`.
"""

from __future__ import annotations

from toolkit.fairy_meat.deck import TYPE_NAMES, type_name
from toolkit.fairy_meat.strategy.hidden.hands import HIDDEN_LIMIT, deal_weights, hand_types, hidden_size, type_options
from toolkit.fairy_meat.strategy.hidden.policies import type_action
from toolkit.fairy_meat.strategy.hidden.solution import HiddenSolution
from toolkit.fairy_meat.strategy.hidden.solve import solve_hidden

__all__ = [
    "HiddenSolution",
    "solve_hidden",
    "hidden_size",
    "deal_weights",
    "hand_types",
    "type_options",
    "type_action",
    "HIDDEN_LIMIT",
    "TYPE_NAMES",
    "type_name",
]
