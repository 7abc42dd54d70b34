"""The Durak battle stepper's setup: the armies' and the rules' controls, their grid, the
layout of the stepper, and the battle they describe (DB-1, DB-2, DB-5..DB-8)."""

from __future__ import annotations

from dataclasses import replace

import ipywidgets as widgets

from toolkit.durak_battle.engine import SIDES, BattleState, start_battle
from toolkit.durak_battle.recon import token_advantage
from toolkit.durak_battle.rules import MAX_TOKENS, Army, Rules
from toolkit.durak_battle.widgets.example_files import EXAMPLES_DIR
from toolkit.durak_battle.widgets.pieces import (
    DICE,
    WIDE,
    counter_tie_options,
    morale_penalty_label,
    number_controls,
)
from toolkit.widgets.common import control_grid, control_grid_style, count, esc, fitting_width
from toolkit.widgets.rules_picker import set_control

__all__ = ["BattleSetup"]


class BattleSetup:
    """The setup part of :class:`~toolkit.durak_battle.widgets.stepper.BattleStepper`: builds
    the controls and panels, lays out the stepper, and reads the rules, the armies and the
    start of the battle from the controls (it uses the stepper's ``example``, ``_base``,
    ``_rules_base``, ``_max_rounds`` and its example and export parts)."""

    @property
    def names(self) -> tuple[str, str]:
        """The two armies' names, side a first."""
        return (self._base[0].name, self._base[1].name)

    @property
    def rules(self) -> Rules:
        """The rules in force: those given (or the example's), with the variant and number
        controls' values (defaults: docs/rulings.md).

        Raises:
            InvalidSetupError: a number the rules refuse (the field named).
        """
        return replace(
            self._rules_base,
            jokers=self.jokers.value,
            counter_tie=self.counter_tie.value,
            holder_must_attack=self.holder_must_attack.value,
            morale_penalty=self.morale_penalty.value,
            **{name: control.value for name, control in self.numbers.items()},
        )

    @property
    def armies(self) -> tuple[Army, Army]:
        """The armies as the controls set them (names and flat modifiers kept from the
        armies or example given)."""
        out = []
        for i, side in enumerate(SIDES):
            base = self._base[i]
            leader = replace(
                base.leader,
                battle_die=self.battle_die[side].value,
                spirit_die=self.spirit_die[side].value,
                wild_card=self.wild_card[side].value,
            )
            out.append(Army(base.name, self.tokens[side].value, leader))
        return out[0], out[1]

    def setup(self) -> BattleState:
        """Return the start of the battle the controls describe, recording its moves (for Export).

        Raises:
            InvalidSetupError: a setup the rules do not allow (DB-7).
        """
        army_a, army_b = self.armies
        return start_battle(army_a, army_b, self.rules, max_rounds=self._max_rounds)

    def _title(self) -> str:
        if self.example is not None:
            return self.example.title
        return f"Durak battle: {self.names[0]} against {self.names[1]}"

    def _build_controls(self, army_a: Army, army_b: Army, rules: Rules) -> None:
        self.tokens: dict[str, widgets.IntSlider] = {}
        self.battle_die: dict[str, widgets.Dropdown] = {}
        self.spirit_die: dict[str, widgets.Dropdown] = {}
        self.wild_card: dict[str, widgets.Checkbox] = {}
        for side, army in zip(SIDES, (army_a, army_b), strict=True):
            self.tokens[side] = widgets.IntSlider(value=army.tokens, min=1, max=MAX_TOKENS, description="", style=WIDE)
            self.battle_die[side] = widgets.Dropdown(
                options=DICE, value=army.leader.battle_die, description="", style=WIDE
            )
            self.spirit_die[side] = widgets.Dropdown(
                options=DICE, value=army.leader.spirit_die, description="", style=WIDE
            )
            self.wild_card[side] = widgets.Checkbox(value=army.leader.wild_card, description="", indent=False)
        self.jokers = widgets.Checkbox(value=rules.jokers, description="DB-1: two jokers (54 cards)", indent=False)
        self.counter_tie = widgets.Dropdown(
            options=(counter_tie := counter_tie_options(rules)),
            value=rules.counter_tie,
            description="Equal counterattack (DB-5)",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width("Equal counterattack (DB-5)", counter_tie)),
        )
        self.holder_must_attack = widgets.Checkbox(
            value=rules.holder_must_attack,
            description=f"DB-6: the initiative holder must attack while holding a {rules.suit_word('attack')}",
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.morale_penalty = widgets.Dropdown(
            options=(morale := [("lost this clash (default)", "clash"), ("lost in the whole battle", "battle")]),
            value=rules.morale_penalty,
            description=morale_penalty_label(rules),
            style=WIDE,
            layout=widgets.Layout(width=fitting_width(morale_penalty_label(rules), morale)),
        )
        self.numbers = number_controls(rules)
        self.numbers["morale_per_token"].observe(lambda _: self._describe_controls(), names="value")
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()
        self._describe_controls()

    def _view_options(self) -> list[tuple[str, str]]:
        """The Show choices: both hands, or one army's view, by the army's name (the designer's word, not a side id)."""
        views = [(f"{name}'s view", side) for name, side in zip(self.names, SIDES, strict=True)]
        return [("both hands (designer)", "both"), *views]

    def _describe_controls(self) -> None:
        if hasattr(self, "view") and [label for label, _ in self.view.options] != [
            label for label, _ in self._view_options()
        ]:
            shown = self.view.value
            self.view.options = self._view_options()
            self.view.value = shown
        stated = replace(self._rules_base, morale_per_token=self.numbers["morale_per_token"].value)
        if self.counter_tie.options != tuple(options := counter_tie_options(stated)):
            shown = self.counter_tie.value
            self.counter_tie.options = options
            self.counter_tie.value = shown
        self.morale_penalty.description = morale_penalty_label(stated)  # the controls' grid re-aligns
        for i, side in enumerate(SIDES):
            name, leader = self.names[i], self._base[i].leader.name
            self.tokens[side].description = f"{name}: tokens"
            self.battle_die[side].description = f"{leader}: Knowledge (Battle)"
            self.spirit_die[side].description = "Spirit"
            self.wild_card[side].description = "Wild Card (d6 Wild Die)"

    def _set_controls(self, armies: tuple[Army, Army], rules: Rules) -> None:
        for side, army in zip(SIDES, armies, strict=True):
            self.tokens[side].value = army.tokens
            self.battle_die[side].value = army.leader.battle_die
            self.spirit_die[side].value = army.leader.spirit_die
            self.wild_card[side].value = army.leader.wild_card
        self.jokers.value = rules.jokers
        self.counter_tie.value = rules.counter_tie
        self.holder_must_attack.value = rules.holder_must_attack
        self.morale_penalty.value = rules.morale_penalty
        for name, control in self.numbers.items():
            set_control(control, getattr(rules, name))
        self._describe_controls()

    def _build_panels(self) -> None:
        self.token_bars: dict[str, widgets.IntProgress] = {}
        self.token_labels: dict[str, widgets.HTML] = {}
        for i, side in enumerate(SIDES):
            self.token_bars[side] = widgets.IntProgress(
                value=self._base[i].tokens,
                min=0,
                max=self._base[i].tokens,
                description="",
                layout=widgets.Layout(width="16em"),
            )
            self.token_labels[side] = widgets.HTML()
        self.round_line = widgets.HTML()
        self.view = widgets.ToggleButtons(
            options=self._view_options(),
            value="both",
            description="Show",
            style={"button_width": "auto"},  # "both hands (designer)" shown whole: a cut-off label hides the choice
        )
        self.hands_view = widgets.HTML()
        self._build_example_and_export()
        self.export_title.value = self._title()
        files = sorted(p.name for p in EXAMPLES_DIR.glob("durak_*.yaml"))
        self.example_picker = widgets.Dropdown(
            options=files,
            description="Example file",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width("Example file", files)),  # the file name shown whole
        )
        self.load_button = widgets.Button(description="Load", tooltip="Start over from this example")
        self.load_button.on_click(lambda _: self.load(self.example_picker.value) if self.example_picker.value else None)

    def _layout(self) -> widgets.VBox:
        bars = [widgets.HBox([self.token_bars[s], self.token_labels[s]]) for s in SIDES]
        # the title first, then the setup in one grid: each army's controls a column of their own
        armies = [[d[s] for d in (self.tokens, self.battle_die, self.spirit_die, self.wild_card)] for s in SIDES]
        rest = [c for c in self._controls() if not any(c in army for army in armies)]
        self.controls_grid = control_grid([*armies, *rest])
        return widgets.VBox(
            [
                self._title_first(),
                self.controls_grid,
                control_grid_style(),
                self.setup_line,
                self.error_line,
                widgets.HBox([self.example_picker, self.load_button]),
                *self._example_rows(),
                *bars,
                self.round_line,
                self.view,
                self.hands_view,
                self.stepper.widget,
                self._export_accordion(),
            ]
        )

    def _controls(self) -> list[widgets.ValueWidget]:
        per_side = [d[s] for d in (self.tokens, self.battle_die, self.spirit_die, self.wild_card) for s in SIDES]
        return [
            *per_side,
            self.jokers,
            self.counter_tie,
            self.holder_must_attack,
            self.morale_penalty,
            *self.numbers.values(),
        ]

    def _show_setup(self) -> None:
        a, b = self.armies
        per = self.rules.cards_per_token
        extra = per * token_advantage(a.tokens, b.tokens), per * token_advantage(b.tokens, a.tokens)
        more = [
            f"{army.name} draws +{count(n, 'card')} for outnumbering"
            for army, n in zip((a, b), extra, strict=True)
            if n
        ]
        text = f"{a.name} {count(a.tokens, 'token')} against {b.name} {b.tokens}"
        text += (" — " + ", ".join(more) + " (DB-2)") if more else " (DB-7)"
        text += f"; {self.rules.variant_name()}; at most {count(self._max_rounds, 'round')}."
        self.setup_line.value = esc(text)
