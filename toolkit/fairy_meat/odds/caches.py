"""Forgetting every cached count and judgement of the odds calculators (for benchmarks timing a cold start)."""

from __future__ import annotations

from toolkit.fairy_meat.deck import (
    wild_draw_ways,
)
from toolkit.fairy_meat.legality import (
    trump_sets_by_type,
)
from toolkit.fairy_meat.odds.classes import (
    JUDGED,
    SHIFTS,
    build_play,
    class_reach,
    class_values,
    realisations_cache_clear,
    side_needs,
)
from toolkit.fairy_meat.odds.compositions import hand_splits, trump_comps
from toolkit.fairy_meat.odds.counting import count_numbered, drawn_counts, split_count
from toolkit.fairy_meat.odds.deals import BUCKETS, PLAYS, SHARED, SIZES
from toolkit.fairy_meat.odds.draws import double_draws, single_draws
from toolkit.fairy_meat.odds.families import GreedyModel, RandomModel, type_keys
from toolkit.fairy_meat.odds.known_hands import BEST_OUTCOMES
from toolkit.fairy_meat.odds.weighing import FOLDS, clear_views, two_turned_up

__all__ = ["clear_caches"]


def clear_caches() -> None:
    """Forget every cached count and judgement (for benchmarks that time a cold start)."""
    JUDGED.clear()
    BUCKETS.clear()
    PLAYS.clear()
    SHARED.clear()
    SIZES.clear()
    SHIFTS.clear()
    for fn in (
        split_count,
        count_numbered,
        drawn_counts,
        single_draws,
        double_draws,
        GreedyModel.choices,
        RandomModel.choices,
        two_turned_up,
        build_play,
        class_reach,
        class_values,
        side_needs,
        wild_draw_ways,
        trump_sets_by_type,
        hand_splits,
        trump_comps,
        type_keys,
    ):
        fn.cache_clear()
    realisations_cache_clear()
    clear_views()
    FOLDS.clear()
    BEST_OUTCOMES.clear()
    # The hidden-hands solver's shared game builds too (imported here: strategy imports odds).
    from toolkit.fairy_meat.strategy.hidden.matrix import clear_build_cache

    clear_build_cache()
