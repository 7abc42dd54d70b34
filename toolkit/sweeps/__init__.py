"""Parameter sweeps on Dask distributed, locally or on a cluster: ``toolkit sweep FILE.yaml -o DIR``.

A sweep file (:mod:`.spec`) names a system, one of its public calculators
(:mod:`.calculators`: Angry Miniatures opposed tables, opposed odds and attacks to take
out; Fairy Meat hand and attack odds and the known- and hidden-hands solvers; Durak clash
and battle odds) and a grid of its arguments and of rules fields and house-rules files.
:func:`run_sweep` (:mod:`.runner`) runs it on a local cluster of worker processes or any
running Dask scheduler, storing each finished chunk at once (:mod:`.store`: a rerun skips
what is done), and writes one tidy Parquet table, an HTML report (:mod:`.report`) and a
page to share (:mod:`.share`).

>>> text = "system: angry-miniatures\\ncalculator: opposed\\n"
>>> sweep = load_sweep(text + "grid: {attack_dice: {from: 1, to: 3}, defence_dice: [1, 2]}\\n")
>>> sweep.size, sweep.swept
(6, ('attack_dice', 'defence_dice'))
"""

from toolkit.sweeps.calculators import CALCULATORS, Calculator, Param, Row, calculator, calculators_of
from toolkit.sweeps.runner import Failure, SweepResult, default_workers, run_sweep
from toolkit.sweeps.spec import Point, Sweep, load_sweep, sweep_from_mapping
from toolkit.sweeps.store import PointStore, sweep_table

__all__ = [
    "CALCULATORS",
    "Calculator",
    "Failure",
    "Param",
    "Point",
    "PointStore",
    "Row",
    "Sweep",
    "SweepResult",
    "calculator",
    "calculators_of",
    "default_workers",
    "load_sweep",
    "run_sweep",
    "sweep_from_mapping",
    "sweep_table",
]
