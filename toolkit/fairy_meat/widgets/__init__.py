"""Fairy Meat in JupyterLab: a combat stepper with cards to click, and odds explorers.

:func:`combat_stepper` plays one combat (FM-2..FM-14) with the generic
:class:`~toolkit.widgets.Stepper`: setup controls on top (Live/Kill, weapons, Fluttered,
Order Card, Wrestling, the rule variants, a seeded or stacked deck), the deciding
fairy's hand as cards to click (Trumps of one colour to place face down, FM-4; the
Numbered card to play, or a Trump as a Wild Trump, FM-6), both hands or one fairy's
view (``state.observation``), and an **Export** of the combat as a rule-book example
(the YAML ``toolkit replay`` plays back). Given a rule-book example it starts at the
example's start and plays the example's moves one at a time. The toggle **What would
optimal play do here?** shows the equilibrium mix of the decision pending, both hands
known (:func:`toolkit.fairy_meat.strategy.optimal.hint`).

:func:`odds_explorer` charts one attack's exact outcome for hand sizes, policies and
variants; :func:`hand_composition_explorer` the make-up of a combat hand.

>>> st = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")
>>> st.play_all()
>>> "Final values: Dizzytwig 3, Sparklespaz 6." in st.stepper.log_text
True
>>> st.state.results[1].damage, st.state.nasty_hits
(2, ('Sparklespaz',))
>>> st = combat_stepper(deck="KS JH 5C 4C 3D 2D KC", fluttered=True, holds_order_card=True)
>>> st.stepper.roll(); st.choose("declare add"); st.stepper.roll(); st.choose("declare add")
>>> st.toggle("KS"); st.toggle("JH"); st.place_trumps()
>>> "FM-4" in st.stepper.error
True

Modules: :mod:`.stepper` (:func:`combat_stepper`), :mod:`.explorers` (:func:`odds_explorer`,
:func:`hand_composition_explorer`), :mod:`.cards` and :mod:`.hints` (what they draw).
"""

from __future__ import annotations

from toolkit.fairy_meat.widgets.explorers import POLICIES, can_place_trumps, hand_composition_explorer, odds_explorer
from toolkit.fairy_meat.widgets.stepper import EXAMPLES_DIR, CombatStepper, combat_stepper

__all__ = [
    "CombatStepper",
    "combat_stepper",
    "odds_explorer",
    "hand_composition_explorer",
    "can_place_trumps",
    "EXAMPLES_DIR",
    "POLICIES",
]
