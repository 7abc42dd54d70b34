"""The Fairy Meat stepper's setup: the fairies' and the rules' controls, their grid, and the
combat they describe (FM-2, FM-14 and the variants of docs/rulings.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from toolkit.cards import parse_cards
from toolkit.fairy_meat.engine import CombatState, start_combat
from toolkit.fairy_meat.notation import load_weapons
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.fairy_meat.widgets.cards import (
    MAX_POINTS,
    WIDE,
    variant_controls,
    weapon_label,
    wrestling_hand_control,
)
from toolkit.numbers import count
from toolkit.widgets.common import control_grid, control_grid_style, esc, fitting_width

__all__ = ["FIT_BUTTONS", "CombatSetup"]

#: Toggle buttons as wide as their labels: a cut-off label hides what the button does.
FIT_BUTTONS = {"description_width": "initial", "button_width": "auto"}


class CombatSetup:
    """The setup part of :class:`~toolkit.fairy_meat.widgets.stepper.CombatStepper`: builds
    the controls, lays out the stepper, and reads the rules, the fairies and the start of
    the combat from the controls (it uses the stepper's ``names``, ``pronouns``,
    ``_base_rules``, ``_extra`` and panels)."""

    @property
    def rules(self) -> Rules:
        """The rules in force: those the stepper was given (an example's, or a house-rules
        ``Rules``), with the variants the controls select (docs/rulings.md defaults and variants)."""
        return replace(
            self._base_rules,
            damage=self.damage.value,
            none_reveal=self.none_reveal.value,
            none_means=self.none_means.value,
            undefended=self.undefended.value,
            nasty_hit=self.nasty_hit.value,
            wrestling_hand=self.wrestling_hand.value,
        )

    @property
    def fairies(self) -> tuple[Fairy, Fairy]:
        """The attacker and the defender as the controls set them."""
        a = Fairy(
            self.names[0],
            self.attacker_live.value,
            self.attacker_kill.value,
            self.attacker_weapon.value,
            self.pronouns[0],
        )
        d = Fairy(
            self.names[1],
            self.defender_live.value,
            self.defender_kill.value,
            self.defender_weapon.value,
            self.pronouns[1],
        )
        return a, d

    def setup(self) -> CombatState:
        """Return the start of the combat the controls describe (FM-2 hand sizes; FM-14
        when Wrestling; a stacked deck's cards come first, the rest are shuffled).

        Raises:
            NotationError / InvalidSetupError: a bad card code, a card stacked twice, a
                fairy with no Live points.
        """
        attacker, defender = self.fairies
        deck = parse_cards(self.deck_box.value) if self.deal.value == "stacked" else ()
        return start_combat(
            attacker,
            defender,
            self.rules,
            deck=deck,
            fluttered=self.fluttered.value and not self._kill_only(),
            holds_order_card=self.holds_order_card.value and not self._kill_only(),
            wrestling=self.wrestling.value,
            **self._extra,
        )

    def _kill_only(self) -> bool:
        """Whether Wrestling hands are exactly Kill points (``wrestling_hand="kill_only"``, FM-2/FM-14)."""
        return bool(self.wrestling.value) and self.wrestling_hand.value == "kill_only"

    def _build_controls(
        self, attacker: Fairy, defender: Fairy, rules: Rules, options: Mapping[str, Any], deck: str
    ) -> None:
        def points(value: int, what: str, low: int) -> widgets.IntSlider:
            return widgets.IntSlider(value=value, min=low, max=max(MAX_POINTS, value), description=what, style=WIDE)

        a, d = self.names
        self.attacker_live = points(attacker.live, f"{a}: Live", 0)
        self.attacker_kill = points(attacker.kill, f"{a}: Kill", 0)
        self.defender_live = points(defender.live, f"{d}: Live", 0)
        self.defender_kill = points(defender.kill, f"{d}: Kill", 0)
        weapons = load_weapons()
        for w in (attacker.weapon, defender.weapon):
            weapons.setdefault(w.name, w)
        choices = [(weapon_label(w), w) for w in weapons.values()]
        self.attacker_weapon = widgets.Dropdown(
            options=choices,
            value=weapons[attacker.weapon.name],
            description=f"{a}'s weapon",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width(f"{a}'s weapon", choices)),  # weapon names shown whole
        )
        self.defender_weapon = widgets.Dropdown(
            options=choices,
            value=weapons[defender.weapon.name],
            description=f"{d}'s weapon",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width(f"{d}'s weapon", choices)),
        )
        self.fluttered = widgets.Checkbox(
            value=bool(options.get("fluttered", False)),
            description=f"{a} Fluttered (−{count(rules.flutter_penalty, 'card')})",  # FM-2
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.holds_order_card = widgets.Checkbox(
            value=bool(options.get("holds_order_card", False)),
            description=f"{d} still holds an Order Card (+{count(rules.order_card_bonus, 'card')})",  # FM-2
            indent=False,
            layout=widgets.Layout(width="auto"),  # the label shown whole
        )
        self.wrestling = widgets.Checkbox(
            value=bool(options.get("wrestling", False)),
            description="Wrestling (FM-14)",
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        variants = variant_controls(rules)
        self.damage = variants["damage"]
        self.none_reveal = variants["none_reveal"]
        self.undefended = variants["undefended"]
        self.nasty_hit = variants["nasty_hit"]
        self.none_means = variants["none_means"]
        self.wrestling_hand = wrestling_hand_control(rules)
        self.deal = widgets.ToggleButtons(
            options=[("deal seeded", "seeded"), ("stacked deck", "stacked")],
            value="stacked" if deck.strip() else "seeded",
            description="Cards",
            style=FIT_BUTTONS,
            tooltips=[
                "every card is drawn at random with the stepper's seed",
                "the cards typed here come first, in order (attacker's hand, defender's, cards turned up)",
            ],
        )
        self.deck_box = widgets.Text(
            value=deck,
            placeholder="KS QC 5C 4C 3D 2D KC AS JH 3H",
            description="Stacked deck",
            continuous_update=False,
            layout=widgets.Layout(width="36em"),
            style=WIDE,
        )
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()

    def _layout(self) -> widgets.VBox:
        # the title first, then the setup in one grid: each fairy's controls a column of their own
        self.controls_grid = control_grid(
            [
                [self.attacker_live, self.attacker_kill, self.fluttered],
                [self.defender_live, self.defender_kill, self.holds_order_card],
                self.attacker_weapon,
                self.defender_weapon,
                self.wrestling,
                self.wrestling_hand,
                self.damage,
                self.none_reveal,
                self.undefended,
                self.nasty_hit,
                self.none_means,
                self.deal,
            ]
        )
        return widgets.VBox(
            [
                self._title_first(),
                self.controls_grid,
                control_grid_style(),
                self.deck_box,
                self.setup_line,
                self.error_line,
                *self._example_rows(),
                self.view,
                self.hands_view,
                self.hint_button,
                self.hint_view,
                self.stepper.widget,
                self._export_accordion(),
            ]
        )

    def _controls(self) -> list[widgets.ValueWidget]:
        return [
            self.attacker_live,
            self.attacker_kill,
            self.attacker_weapon,
            self.defender_live,
            self.defender_kill,
            self.defender_weapon,
            self.fluttered,
            self.holds_order_card,
            self.wrestling,
            self.damage,
            self.none_reveal,
            self.undefended,
            self.nasty_hit,
            self.none_means,
            self.wrestling_hand,
            self.deal,
            self.deck_box,
        ]

    def _adjust(self) -> None:
        """Disable what does not apply: Fluttered and the Order Card when Wrestling with
        ``wrestling_hand="kill_only"`` (only Kill points count, FM-2/FM-14); the Wrestling
        hand when not Wrestling; the deck box when dealing seeded."""
        self.fluttered.disabled = self.holds_order_card.disabled = self._kill_only()
        self.wrestling_hand.disabled = not self.wrestling.value
        self.deck_box.disabled = self.deal.value != "stacked"

    def _show_setup(self) -> None:
        state = self.stepper.start_state
        assert isinstance(state, CombatState)
        a, d = state.names
        sizes, n = state.hand_sizes, state.attacks
        if not state.wrestling:
            kind = "FM-2"
        elif self._kill_only():
            kind = "Wrestling: Kill points only (FM-14)"
        else:
            kind = "Wrestling: by Kill points (FM-2, FM-14)"
        self.setup_line.value = esc(
            f"Combat hands: {a} {count(sizes[0], 'card')}, {d} {sizes[1]}; {count(n, 'attack')} "
            f"({kind}; {self.rules.variant_name()})."
        )
