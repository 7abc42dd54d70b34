"""Exact Durak mass-battle odds: hand sizes, initiative, morale, a clash, a whole battle.

Seven calculators in four modules (:mod:`.round`, :mod:`.clash_value`, :mod:`.clash_losses`,
:mod:`.battle`), each
cross-checked in ``tests/test_durak_battle_odds.py`` against hand arithmetic from the
rule text, brute force over every deal, and the engine (:mod:`toolkit.durak_battle.engine`)
enumerated or sampled:

- :func:`hand_size_distribution` — cards drawn at reconnaissance (DB-2);
- :func:`suit_composition` — what an ``n``-card hand holds, by suit (DB-1);
- :func:`initiative` — who attacks first, or no clash, for two hand sizes (DB-3);
- :func:`morale_pass_probability` — a Spirit check after ``k`` tokens lost (DB-8);
- :func:`clash_value` — one clash with both hands known, as a perfect-information game:
  the minimax value, the optimal line, and the value of every action in any position;
- :func:`clash_losses` — tokens lost in one clash for two hand sizes, averaged over every
  deal, under a pair of policies (:mod:`.policies`): exact while small
  (:data:`EXACT_LIMIT`), Monte Carlo over the engine beyond;
- :func:`battle_outcome` — the whole battle as a Markov chain over rounds.

How a clash is computed exactly
-------------------------------
The referee (:func:`~.clash.answer_attack`) judges every answer; this module never
decides one itself. The course of a clash — who attacks next, passes, automatic strikes
(DB-4, DB-6), losses as they happen (DB-7) — is played by the clash state machine,
:class:`~.position.ClashPosition`, the same one the engine's :class:`~.engine.BattleState`
steps (the engine adds tokens, the log, rounds and morale around it). The tests check
the calculators against brute force over every deal of small hands through
:func:`~.engine.start_clash` and :func:`~toolkit.engine.enumerate_outcomes`, and Monte
Carlo over the engine.

1. **Only the order of the cards matters.** The referee compares card values (higher,
   equal, lower) and nothing else (DB-1, DB-5); the policies must too (see
   :mod:`.policies`). So every deal whose cards are in the same order — the same suits
   held by the same side at each distinct rank, the same jokers — plays alike. The
   calculator lists these *deal classes*: a sequence of ``k`` rank levels, each naming
   which side holds which suits at that rank. A class stands for ``C(13, k)`` deals (the
   ranks its levels take), times the ways to hand out the jokers. :func:`exact_size`
   counts the classes; the weights add up to every deal, ``C(N, na) C(N - na, nb)``.
   For the built-in policies most of an ordering does not matter either: only a card on
   the table against the card answering it, and the attack cards for the initiative, are
   ever compared, so one deal is played per *comparison class*
   (:mod:`.comparison_classes`: a quarter of the deal classes at 3 v 3, a sixth at 4 v 3).
2. **Positions are shared.** Where a policy chooses at random, the positions after each
   choice are renumbered the same way (ranks squeezed to 2, 3, 4, ..., jokers renamed in
   order) and memoised, so a position reached from many deals is played once; a forced
   line (the greedy policy) is simply followed. Swapping the sides (and their policies)
   mirrors a table: 2 v 3 is read off 3 v 2.
3. **Losses as a path.** A clash's result is kept as the sequence of cumulative losses
   ``(a, b)`` after each loss (capped at :data:`~.rules.MAX_TOKENS`), plus who held the
   initiative. From the path, the losses for any armies follow without replaying: DB-7
   floors, and the clash stops when an army reaches 0 (side ``a`` is checked first, as
   the engine does). So a battle needs each pair of hand sizes once, whatever the tokens.

The switch-over: ``method="auto"`` is exact while :func:`exact_size` (the number of deal
classes) is at most :data:`EXACT_LIMIT` (3 v 3 cards), and Monte Carlo above it;
``method="exact"`` goes further (``deal_classes.EXACT_REQUEST_LIMIT``, 4 v 3) and above
that raises :class:`~toolkit.errors.TooBigError` before starting. Figures: docs/exactness.md.

>>> hand_size_distribution("d4", wild_die=False).items()
[(1, Fraction(1, 4)), (2, Fraction(1, 4)), (3, Fraction(1, 4)), (4, Fraction(1, 4))]
>>> morale_pass_probability("d4")  # max(d4, d6) >= 4: 1 - (3/4)(3/6)
Fraction(5, 8)
>>> initiative(1, 1, Rules(jokers=False))[None]  # neither card a spade: (39/52)(38/51)
Fraction(19, 34)
"""

from toolkit.durak_battle.best_play import best_action
from toolkit.durak_battle.odds.battle import DEFAULT_BATTLE_TRIALS, BattleEnd, BattleOdds, battle_outcome
from toolkit.durak_battle.odds.clash_losses import (
    DEFAULT_TRIALS,
    ClashLosses,
    ClashOutcome,
    clash_losses,
    clear_caches,
)
from toolkit.durak_battle.odds.clash_value import ActionValue, ClashValue, clash_value
from toolkit.durak_battle.odds.deal_classes import EXACT_LIMIT, exact_size
from toolkit.durak_battle.odds.result import OddsResult
from toolkit.durak_battle.odds.round import (
    SuitComposition,
    hand_size_distribution,
    initiative,
    morale_pass_probability,
    suit_composition,
)
from toolkit.durak_battle.rules import Rules  # noqa: F401 (the doctests use it)

__all__ = [
    "EXACT_LIMIT",
    "DEFAULT_TRIALS",
    "DEFAULT_BATTLE_TRIALS",
    "OddsResult",
    "SuitComposition",
    "ActionValue",
    "ClashValue",
    "ClashOutcome",
    "ClashLosses",
    "BattleEnd",
    "BattleOdds",
    "hand_size_distribution",
    "suit_composition",
    "initiative",
    "morale_pass_probability",
    "clash_value",
    "best_action",
    "exact_size",
    "clash_losses",
    "battle_outcome",
    "clear_caches",
]
