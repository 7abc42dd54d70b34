"""Tune: ask for the odds you want and get the house rules that give them.

``toolkit tune FILE.yaml -o DIR`` (or :func:`tune`) reads a tuning file (:mod:`.spec`):
a system, a calculator of the sweep registry, targets (a measure of the result at given
sizes, with a value and a tolerance, bounds, or "as large / small as possible"), knobs
(rules fields and arguments with their values) and constraints. It searches the knobs
(:mod:`.search`: exhaustive on the sweep runner, bisection, or Optuna), measuring each
setting on the sweep store (:mod:`.evaluate`, :mod:`.measures`), ranks the candidates
honestly (:mod:`.ranking`) and writes them (:mod:`.output`).

>>> text = '''
... system: angry-miniatures
... calculator: odds_table
... fixed: {attack_dice: 3, defence_dice: 2}
... targets:
...   - {row: hit, value: 75%, tolerance: 5%}
... knobs:
...   rules: {hit_faces: [[J, Q, K, A], ["10", J, Q, K, A]]}
... '''
>>> tuning = load_tuning(text)
>>> tuning.size, tuning.targets[0].describe_goal()
(2, '75% ± 5%')
"""

import sys
import types
from typing import Any

from toolkit.tune.measures import Measured, MeasureError
from toolkit.tune.ranking import Candidate
from toolkit.tune.run import TuneResult, tune
from toolkit.tune.spec import Knob, Measure, Target, Tuning, load_tuning, tuning_from_mapping

__all__ = [
    "Candidate",
    "Knob",
    "Measure",
    "MeasureError",
    "Measured",
    "Target",
    "TuneResult",
    "Tuning",
    "load_tuning",
    "tune",
    "tuning_from_mapping",
]


class _TuneModule(types.ModuleType):
    """This package, callable: ``import toolkit.tune`` then ``toolkit.tune("FILE.yaml", "DIR")``
    is :func:`tune` (the spelling of the command line, ``toolkit tune FILE.yaml -o DIR``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> TuneResult:
        return tune(*args, **kwargs)


sys.modules[__name__].__class__ = _TuneModule
