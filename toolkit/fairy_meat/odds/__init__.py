"""Exact Fairy Meat hand and attack odds, by counting card *types* instead of cards.

Three questions, each answered exactly (``Fraction`` probabilities):

- :func:`hand_composition` / :func:`hand_compositions`: what a combat hand holds — how
  many Numbered cards, red and black Trumps, whether the A♠ (FM-1, FM-2).
- :func:`attack_odds`: the outcome of one attack between two known hands, under a pair
  of policies (:mod:`.policies`), by enumerating the engine (FM-3..FM-12).
- :func:`deal_averaged_odds`: the same averaged over every deal of two hand sizes from
  one deck — exactly while it is small enough, by Monte Carlo over the engine beyond
  (:data:`EXACT_LIMIT`).

The outcome of an attack is an :class:`AttackOutcome`: who won (FM-9), the points
(FM-10), the damage the defender takes (FM-10, either damage variant) and whether
someone suffers a Nasty Hit (FM-12).

How the exact calculation stays small
-------------------------------------
A deal is 5 + 3 cards from 52: about 4·10^10 deals. The calculator never lists them.

1. **Card types.** Cards of one type are interchangeable for the rules and for the
   policies: Numbered cards by (colour, pips), a red Trump, a black Trump other than
   the A♠, the A♠ (FM-1, FM-12). That is 21 types. Under house rules the same holds
   for every valid rule set: the rules' ranks, the death card of either colour (or
   none), and a 22nd type, the jokers — Trumps of no colour that match every card; what
   a Trump is worth only scales the offset matching Trumps add (FM-8).
2. **Trumps in hand.** A hand's Trumps only count by type: (red, black, A♠[, jokers]). The
   calculator loops over the Trump counts of both hands (a few hundred pairs),
   weighted by hypergeometric counts.
3. **What a policy reads.** A policy's play depends on the hand only through a small
   summary. The greedy fairy plays the highest type of a fixed ranking that she holds
   (:func:`~.policies.greedy_order`, which depends only on her Trump counts), so "she
   plays type k" means "she holds k and no type ranked above it": a product-form
   count. The random fairy plays each of her Numbered cards with chance 1/n, so
   "she plays type k" counts (hand, card of type k) pairs. Both counts, jointly for
   the two hands drawn from one deck, come from one closed form (:func:`_count`).
4. **Wild Trump draws (FM-6, FM-7).** Cards are turned up until a Numbered card
   appears. The Numbered card is uniform over the Numbered cards left in the deck
   (counted as a pinned card in (3)); the Trumps turned up before it depend only on how
   many Trumps of each type and Numbered cards the deck holds (a negative
   hypergeometric law, :func:`_single_draws`, :func:`_double_draws`).
5. **What the referee reads.** :func:`~.referee.resolve_attack` judges every attack;
   this module never decides an attack itself. It asks the referee once per class of
   attacks the referee cannot tell apart: a side's Trumps matter only by whether they
   match her Numbered card's colour, whether they can still be hidden (FM-5) and
   whether the A♠ is among them; matching Trumps that are always applied add to her
   value like pips (FM-8); and only the difference of the two values matters, not
   their level (FM-9, FM-10), nor which colour is red when the A♠ is not involved.
   Cheating Trumps that are always applied act only through the opponent's shifts
   (FM-8), which the referee makes whatever the values: a class with them is judged as
   the class without them at the difference moved by those shifts — an amount read
   from the referee's own judgement of a probe attack (:func:`_fold`). Each class is
   judged once, on a representative pair of plays (:func:`_rep_plays`).

The tests check these classes against the referee on random real plays (folded and
unfolded) and on items of the 5 v 3 calculation, the draw law against the engine
turning cards up one by one, and the whole calculation against a brute force over every
deal of small hands and against Monte Carlo over the engine. The Numbered cards a fairy
holds but does not play never need listing.

>>> d = attack_odds(["5H"], ["3D"])
>>> d.items()
[(AttackOutcome(winner='attacker', points=1, damage=1, nasty_hit=False), Fraction(1, 1))]
>>> hand_composition(2).probability(lambda h: h.numbered == 0)
Fraction(20, 221)

Modules, by concept:

- :mod:`.outcomes`: the records reported (:class:`AttackOutcome`, :class:`HandComposition`);
- :mod:`.compositions`: what combat hands hold (:func:`hand_composition`, :func:`hand_compositions`);
- :mod:`.known_hands`: one attack between known hands (:func:`attack_odds`), by the engine;
- :mod:`.deals`: averaged over every deal (:func:`deal_averaged_odds`, :class:`DealOdds`:
  one result type, exact or Monte Carlo), with :func:`exact_size` and the limits;
- the counting model behind it: :mod:`.families` (the policies' play by card type),
  :mod:`.counting` (Numbered cards of both hands), :mod:`.draws` (the Wild Trump draw law),
  :mod:`.classes` (what the referee reads, judged once per class), :mod:`.weighing`;
  :func:`clear_caches` forgets every cache.
"""

from __future__ import annotations

from toolkit.fairy_meat.odds.caches import clear_caches
from toolkit.fairy_meat.odds.compositions import composition_pairs, hand_composition, hand_compositions
from toolkit.fairy_meat.odds.deals import (
    DEFAULT_TRIALS,
    EXACT_LIMIT,
    GENERIC_EXACT_LIMIT,
    DealOdds,
    deal_averaged_odds,
    exact_size,
)
from toolkit.fairy_meat.odds.known_hands import attack_odds
from toolkit.fairy_meat.odds.outcomes import AttackOutcome, HandComposition, outcome_of

__all__ = [
    "AttackOutcome",
    "HandComposition",
    "DealOdds",
    "EXACT_LIMIT",
    "GENERIC_EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "hand_composition",
    "hand_compositions",
    "attack_odds",
    "deal_averaged_odds",
    "exact_size",
    "outcome_of",
    "clear_caches",
    "composition_pairs",
]
