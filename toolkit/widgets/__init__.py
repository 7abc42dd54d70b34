"""Notebook widgets shared by every game system: a step-by-step stepper for any
:class:`~toolkit.engine.GameState` and an explorer of exact odds."""

from toolkit.widgets.explorer import VIEWS, OddsExplorer
from toolkit.widgets.stepper import Stepper

__all__ = ["VIEWS", "OddsExplorer", "Stepper"]
