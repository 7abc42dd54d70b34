"""A coin duel: a tiny fourth rule system that lives only in the tests and proves that a
system is a plug-in. Importing this package registers it (:func:`toolkit.systems.register`);
nothing outside this folder names it.

The rules (ruling ids CD-1, CD-2):

- CD-1: each side flips its pool of coins (1 to ``max_coins``); a head counts.
- CD-2: more heads wins; a tie is rerolled (both sides flip again), at most ``tie_rerolls``
  times, after which the duel is drawn.
"""

from __future__ import annotations

from toolkit.systems import System, register

SYSTEM = register(
    System(
        "coin-duel",
        "Coin duel",
        "coin_duel",
        situations="coin_duel.situations:CATALOGUE",
        searcher="coin_duel.finder",
        tables="coin_duel.headline:tables",
        sizes="coin_duel.headline:SIZES",
        reach="coin_duel.headline:REACH",
        calculators="coin_duel.headline:calculators",
        stepper="coin_duel.widgets:duel_stepper",
        explorer="coin_duel.widgets:odds_explorer",
        rule_controls="coin_duel.widgets:rule_controls",
        narration="coin_duel.narration",
    )
)
