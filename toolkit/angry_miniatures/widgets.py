"""Angry Miniatures in JupyterLab: an attack stepper and an odds explorer.

:func:`attack_stepper` plays one attack die by die (the generic
:class:`~toolkit.widgets.Stepper` under controls for the pools, the attack type, the
AM-9 modifiers, the AM-8 area and the rule variants); :func:`odds_explorer` charts
the exact outcome of one attack (:func:`~toolkit.angry_miniatures.opposed`) as the
sliders move.

>>> ex = odds_explorer(attack_dice=1, defence_dice=0)
>>> ex.summary_text.split(" · ")[0]
'P(hit) = 2/3 ≈ 66.7%'
>>> st = attack_stepper(seed=1)
>>> st.attack_dice.value = 3
>>> st.stepper.state.attack_dice
3
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from toolkit.angry_miniatures.engine import AttackState, start_attack
from toolkit.angry_miniatures.notation import to_example
from toolkit.angry_miniatures.odds import opposed
from toolkit.angry_miniatures.outcomes import AttackOutcome
from toolkit.angry_miniatures.rules import (
    ATTACK_TYPES,
    Character,
    Modifiers,
    Rules,
    attack_pools,
    check_attack_type,
)
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.prob import Distribution, format_probability
from toolkit.widgets import OddsExplorer, Stepper

__all__ = ["AttackStepper", "attack_stepper", "odds_explorer"]

#: Health of the anonymous sides built from pools: the engine announces no one "out"
#: at this Health or above (as in start_attack_from_pools).
_UNLIMITED = 10**6
_MAX_DICE = 15
_SQUARES = 6
_MAX_AREA = 4


def _variant_controls(rules: Rules) -> dict[str, widgets.ValueWidget]:
    """Checkbox/Dropdowns for the named variants, set from ``rules``."""
    return {
        "zero_tie": widgets.Dropdown(
            options=[("miss (default)", "miss"), ("SuperTieBreaker", "super_tiebreak")],
            value=rules.zero_tie,
            description="0 hits each (AM-5)",
            style={"description_width": "initial"},
        ),
        "melee_defence_bonus": widgets.Checkbox(
            value=rules.melee_defence_bonus,
            description="AM-6: melee defender rolls +1 die",
            indent=False,
        ),
        "tie_break": widgets.Dropdown(
            options=[("chain, then SuperTieBreaker", "chain"), ("coin flip (yardstick)", "coin_flip")],
            value=rules.tie_break,
            description="Ties (AM-4)",
            style={"description_width": "initial"},
        ),
    }


def _pool_slider(value: int, description: str, low: int = 0) -> widgets.IntSlider:
    return widgets.IntSlider(
        value=value, min=low, max=_MAX_DICE, description=description, style={"description_width": "initial"}
    )


class AttackStepper:
    """One Angry Miniatures attack, die by die: setup controls above a :class:`Stepper`.

    Build it with :func:`attack_stepper`. Every control change restarts the stepper
    with the new setup (same seed). Controls that do not apply to the attack type are
    disabled, never an error: charge for melee only; higher elevation, hindering
    terrain and occupied squares for ranged and magic only (AM-9); the area (AM-8)
    for magic only; the AM-6 variant matters in melee only.

    Attributes:
        stepper: the generic :class:`Stepper` playing the attack.
        widget: the whole thing, an ``ipywidgets.VBox``.
        attack_dice, defence_dice, attack_type, area, charge, higher_elevation, prone,
        hindering_terrain, occupied_squares, zero_tie, melee_defence_bonus, tie_break:
            the controls.
        setup_line: the pools in force; error_line: why a setup cannot be played.
    """

    def __init__(
        self,
        attacker: Character | None = None,
        defender: Character | Sequence[Character] | None = None,
        attack_type: str = "melee",
        seed: int = 0,
        rules: Rules | None = None,
        attack_dice: int = 3,
        defence_dice: int = 3,
    ) -> None:
        rules = rules or Rules()
        if (attacker is None) != (defender is None):
            raise InvalidSetupError("give both an attacker and a defender (Characters), or neither to set dice pools")
        self.attacker = attacker
        self.defenders: tuple[Character, ...] | None = (
            None if defender is None else (defender,) if isinstance(defender, Character) else tuple(defender)
        )
        if self.defenders == ():
            raise InvalidSetupError("an attack needs at least one defender")
        pools = self.defenders is None
        check_attack_type(attack_type)
        self.attack_dice = _pool_slider(attack_dice, "Attack dice")
        self.defence_dice = _pool_slider(defence_dice, "Defence dice")
        if not pools:  # the characters' stats set the pools (AM-2)
            self.attack_dice.layout.display = self.defence_dice.layout.display = "none"
        self.attack_type = widgets.ToggleButtons(options=list(ATTACK_TYPES), value=attack_type, description="Attack")
        most = _MAX_AREA if pools else len(self.defenders or ())
        self.area = widgets.IntSlider(
            value=1 if pools else most,
            min=1,
            max=max(most, 1),
            description="Defenders in the area (AM-8)",
            style={"description_width": "initial"},
        )
        self.charge = widgets.Checkbox(description="Charge (+1 attack, melee)", indent=False)
        self.higher_elevation = widgets.Checkbox(description="Higher elevation (+1 attack)", indent=False)
        self.prone = widgets.Checkbox(description="Defender prone (−1 defence)", indent=False)
        self.hindering_terrain = widgets.IntSlider(
            min=0, max=_SQUARES, description="Hindering terrain squares", style={"description_width": "initial"}
        )
        self.occupied_squares = widgets.IntSlider(
            min=0, max=_SQUARES, description="Occupied squares", style={"description_width": "initial"}
        )
        variants = _variant_controls(rules)
        self.zero_tie = variants["zero_tie"]
        self.melee_defence_bonus = variants["melee_defence_bonus"]
        self.tie_break = variants["tie_break"]
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()

        self._adjust()
        self.stepper = Stepper(self.setup(), seed=seed)
        self._show_pools()
        for control in self._controls():
            control.observe(lambda _: self._changed(), names="value")

        who = (
            []
            if pools
            else [
                widgets.HTML(
                    html.escape(f"{attacker.name} attacks " + ", ".join(d.name for d in self.defenders or ()))  # type: ignore[union-attr]
                )
            ]
        )
        self.widget = widgets.VBox(
            [
                *who,
                widgets.HBox([self.attack_dice, self.defence_dice]),
                widgets.HBox([self.attack_type, self.area]),
                widgets.HBox([self.charge, self.higher_elevation, self.prone]),
                widgets.HBox([self.hindering_terrain, self.occupied_squares]),
                widgets.HBox([self.zero_tie, self.melee_defence_bonus, self.tie_break]),
                self.setup_line,
                self.error_line,
                self.stepper.widget,
            ]
        )

    # -- setup ---------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules the variant controls select."""
        return Rules(
            zero_tie=self.zero_tie.value,
            melee_defence_bonus=self.melee_defence_bonus.value,
            tie_break=self.tie_break.value,
        )

    @property
    def modifiers(self) -> Modifiers:
        """The AM-9 modifiers set by the enabled controls (disabled ones count as off)."""

        def on(control: widgets.ValueWidget) -> Any:
            return control.value if not control.disabled else type(control.value)()

        return Modifiers(
            hindering_terrain=on(self.hindering_terrain),
            occupied_squares=on(self.occupied_squares),
            prone=on(self.prone),
            charge=on(self.charge),
            higher_elevation=on(self.higher_elevation),
        )

    def sides(self) -> tuple[Character, tuple[Character, ...]]:
        """Return the attacker and the defenders in the attack: the given characters, or
        anonymous ones with the slider pools (a defender counts as a melee character,
        so the AM-6 variant gives her +1 die in melee)."""
        attack_type = self.attack_type.value
        n = self.area.value if attack_type == "magic" else 1
        if self.attacker is not None and self.defenders is not None:
            return self.attacker, self.defenders[:n]
        a, d = self.attack_dice.value, self.defence_dice.value
        attacker = Character("Attacker", melee=a, ranged=a, magic=a, health=_UNLIMITED)
        names = ["Defender"] if n == 1 else [f"Defender {i + 1}" for i in range(n)]
        defenders = tuple(
            Character(name, body=d, mind=d, spirit=d, health=_UNLIMITED, melee_character=True) for name in names
        )
        return attacker, defenders

    def setup(self) -> AttackState:
        """Return the start of the attack the controls describe (AM-2, AM-8, AM-9, AM-6).

        Raises:
            InvalidSetupError: e.g. a character who is already out (AM-10).
        """
        attacker, defenders = self.sides()
        return start_attack(attacker, defenders, self.attack_type.value, self.modifiers, self.rules)

    def to_example(self, title: str = "An Angry Miniatures attack") -> str:
        """Return the attack played so far as an example file (YAML) that ``toolkit
        replay`` reads (:func:`~toolkit.angry_miniatures.notation.to_example`)."""
        state = self.stepper.state
        assert isinstance(state, AttackState)
        return to_example(state, title)

    # -- display -------------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- internals -----------------------------------------------------------------------
    def _controls(self) -> list[widgets.ValueWidget]:
        return [
            self.attack_dice,
            self.defence_dice,
            self.attack_type,
            self.area,
            self.charge,
            self.higher_elevation,
            self.prone,
            self.hindering_terrain,
            self.occupied_squares,
            self.zero_tie,
            self.melee_defence_bonus,
            self.tie_break,
        ]

    def _adjust(self) -> None:
        """Disable the controls that do not apply to the attack type (AM-8, AM-9, AM-6)."""
        melee, magic = self.attack_type.value == "melee", self.attack_type.value == "magic"
        self.charge.disabled = not melee
        for control in (self.higher_elevation, self.hindering_terrain, self.occupied_squares):
            control.disabled = melee
        self.melee_defence_bonus.disabled = not melee
        self.area.disabled = not magic or self.area.max == 1

    def _changed(self) -> None:
        self._adjust()
        try:
            start = self.setup()
        except ToolkitError as e:
            self.error_line.value = f'<span style="color:#c92a2a">{html.escape(str(e))}</span>'
            return
        self.error_line.value = ""
        self.stepper.set_start(start)
        self._show_pools()

    def _show_pools(self) -> None:
        state = self.stepper.state
        assert isinstance(state, AttackState)
        dice = ", ".join(str(n) for n in state.defence_dice)
        self.setup_line.value = html.escape(
            f"Pools: {state.attack_dice} attack dice against {dice} defence ({self.rules.variant_name()}; AM-2, AM-9)."
        )


def attack_stepper(
    attacker: Character | None = None,
    defender: Character | Sequence[Character] | None = None,
    attack_type: str = "melee",
    seed: int = 0,
    rules: Rules | None = None,
) -> AttackStepper:
    """Return a stepper for one Angry Miniatures attack, with its setup controls on top.

    Without characters the sides are anonymous and their pools are set with sliders
    (0-15 dice; a magic attack may hit 1-4 defenders with the same pool, AM-8). With
    characters, the pools come from their stats (AM-2) and Health counts (AM-10);
    ``defender`` may list the target then the creatures adjacent to it, all hit by a
    magic attack (AM-8), only the target otherwise.

    Raises:
        InvalidSetupError: only one of attacker/defender given, a bad attack type, or
            a character who is out.
    """
    return AttackStepper(attacker, defender, attack_type, seed, rules)


# -- the odds explorer -----------------------------------------------------------------
def _score(outcome: AttackOutcome) -> int:
    """Damage to the defender, or minus the damage back to the attacker (AM-3: never both)."""
    return outcome.defender_damage - outcome.attacker_damage


def _mean(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"{x} ≈ {float(x):.2f}"


def _summary(d: Distribution[AttackOutcome], values: Mapping[str, Any]) -> list[str]:
    lines = [
        f"P(hit) = {format_probability(d.probability(lambda o: o.defender_damage > 0))}",
        f"expected damage to defender {_mean(d.mean('defender_damage'))}",
    ]
    if values["attack_type"] == "melee":
        lines.append(f"P(damage back) = {format_probability(d.probability(lambda o: o.attacker_damage > 0))}")
        lines.append(f"expected damage back to attacker {_mean(d.mean('attacker_damage'))}")
    lines.append(f"P(attacker crits) = {format_probability(d.probability(lambda o: o.attacker_crit))}")
    lines.append(f"P(defender crits) = {format_probability(d.probability(lambda o: o.defender_crit))}")
    if values["attack_type"] == "melee" and values["melee_defence_bonus"]:
        lines.append(f"AM-6: the defender rolls {values['defence_dice'] + 1} dice")
    return lines


def _explore(
    attack_dice: int,
    defence_dice: int,
    attack_type: str,
    zero_tie: str,
    melee_defence_bonus: bool,
    tie_break: str,
) -> Distribution[AttackOutcome]:
    rules = Rules(zero_tie=zero_tie, melee_defence_bonus=melee_defence_bonus, tie_break=tie_break)  # type: ignore[arg-type]
    defender = Character("Defender", body=defence_dice, mind=defence_dice, spirit=defence_dice, melee_character=True)
    attacker = Character("Attacker", melee=attack_dice, ranged=attack_dice, magic=attack_dice)
    pools = attack_pools(attacker, defender, attack_type, rules=rules)
    return opposed(pools.attack, pools.defence, attack_type, rules)


def odds_explorer(
    attack_dice: int = 3,
    defence_dice: int = 3,
    attack_type: str = "melee",
    rules: Rules | None = None,
    view: str = "exactly",
) -> OddsExplorer:
    """Return an explorer of one attack's exact outcome (:func:`opposed`) as the pool
    sliders (0-15 dice), the attack type and the variants change.

    The chart puts damage to the defender on the right and, in melee, damage back to
    the attacker on the left (AM-3); the view shows P(exactly k) or P(at least k). The
    summary gives P(hit), the expected damage both ways and the crit chances (AM-7).
    With the AM-6 variant on, the defender counts as a melee character (+1 die in melee).

    Raises:
        InvalidSetupError: a pool outside 0-15 or an unknown attack type.
    """
    rules = rules or Rules()
    for n, what in ((attack_dice, "attack_dice"), (defence_dice, "defence_dice")):
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= _MAX_DICE:
            raise InvalidSetupError(f"{what} must be a whole number of dice from 0 to {_MAX_DICE}, got {n!r}")
    check_attack_type(attack_type)
    controls: dict[str, widgets.ValueWidget] = {
        "attack_dice": _pool_slider(attack_dice, "Attack dice"),
        "defence_dice": _pool_slider(defence_dice, "Defence dice"),
        "attack_type": widgets.ToggleButtons(options=list(ATTACK_TYPES), value=attack_type, description="Attack"),
        **_variant_controls(rules),
    }

    def adjust(values: Mapping[str, Any]) -> None:
        controls["melee_defence_bonus"].disabled = values["attack_type"] != "melee"

    return OddsExplorer(
        controls,
        _explore,
        _score,
        positive="damage to defender",
        negative="damage back to attacker",
        zero="no damage",
        summary=_summary,
        adjust=adjust,
        view=view,
        title="Angry Miniatures: one attack",
    )
