"""Notebook widgets shared by every game system: a step-by-step stepper for any
:class:`~toolkit.engine.GameState`, an explorer of exact odds and the house-rules picker
it shows (:class:`RulesPicker`)."""

from toolkit.widgets.explorer import VIEWS, OddsExplorer
from toolkit.widgets.rules_picker import RulesPicker
from toolkit.widgets.stepper import Stepper

__all__ = ["VIEWS", "OddsExplorer", "RulesPicker", "Stepper"]
