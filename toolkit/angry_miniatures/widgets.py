"""Angry Miniatures in JupyterLab: an attack stepper and an odds explorer.

:func:`attack_stepper` plays one attack die by die (the generic
:class:`~toolkit.widgets.Stepper` under controls for the pools, the attack type, the
AM-9 modifiers, the AM-8 area and the rule variants); :func:`odds_explorer` charts
the exact outcome of one attack (:func:`~toolkit.angry_miniatures.opposed`) as the
sliders move.

Both follow house rules: ``rules=`` sets the rules they start from (a
``Rules``; :func:`toolkit.house_rules.load_rules` reads a file), and controls for the
main fields — the hit faces (AM-1), the dice a crit needs (AM-7), a won tie's damage
(AM-4) and melee return damage (AM-3) — change them on the spot. Every other field
stays as the given rules say. A house-rules picker plugs in through
:meth:`AttackStepper.set_rules` and the explorer's ``controls["rules"]`` (a hidden
:class:`RulesHolder`: set its ``value`` to a ``Rules`` and the controls follow).

>>> ex = odds_explorer(attack_dice=1, defence_dice=0)
>>> ex.summary_text.split(" · ")[0]
'P(hit) = 2/3 ≈ 66.7%'
>>> st = attack_stepper(seed=1)
>>> st.attack_dice.value = 3
>>> st.stepper.state.attack_dice
3

The generic :class:`~toolkit.widgets.stepper.Stepper` under it takes a rule-book example
typed in, roll by roll (AM-1: A K 9 against Q 10), and steps back:

>>> from toolkit.widgets.stepper import Stepper
>>> from toolkit.angry_miniatures import start_attack_from_pools
>>> stepper = Stepper(start_attack_from_pools(3, 2, "melee"))
>>> stepper.type_outcome("A K 9")
>>> stepper.type_outcome("Q 10")
>>> len(stepper.revealed_events) == len(stepper.state.events)  # typing reveals everything
True
>>> stepper.revealed_events[-1].text
'Attacker deals 1 damage to Defender.'
>>> stepper.back()
>>> stepper.revealed_events[-1].text
'Attacker rolls 3 dice ...: A K 9 — 2 hits.'
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import ipywidgets as widgets
import traitlets

from toolkit.angry_miniatures.engine import AttackState, start_attack
from toolkit.angry_miniatures.notation import SYSTEM, to_example
from toolkit.angry_miniatures.odds import opposed
from toolkit.angry_miniatures.outcomes import AttackOutcome
from toolkit.angry_miniatures.rules import (
    ATTACK_TYPES,
    FACE_NAMES,
    Character,
    Modifiers,
    Pools,
    Rules,
    attack_pools,
    check_attack_type,
)
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.house_rules import load_rules, rebuilt
from toolkit.numbers import count
from toolkit.odds_result import average_text, chance_text
from toolkit.prob import Distribution
from toolkit.whole_numbers import whole_number
from toolkit.widgets import OddsExplorer, Stepper
from toolkit.widgets.common import ToggleBar, control_grid, control_grid_style
from toolkit.widgets.rules_picker import set_control

__all__ = [
    "NOT_COUNTED",
    "RANGED_IS_MAGIC",
    "AttackStepper",
    "RulesHolder",
    "as_rules",
    "attack_stepper",
    "odds_explorer",
    "rule_controls",
]

#: Health of the anonymous sides built from pools: the engine announces no one "out"
#: at this Health or above (as in start_attack_from_pools).
_UNLIMITED = 10**6
_MAX_DICE = 15
_SQUARES = 6
_MAX_AREA = 4


#: The house-rules fields with a control of their own (besides the named variants).
_FIELD_CONTROLS = ("hit_faces", "crit_count", "tie_damage", "return_damage")
_VARIANTS = ("zero_tie", "melee_defence_bonus", "tie_break")

#: Why the explorer's ranged and magic odds are the same (said under both): with the pools
#: set by the sliders, the two differ only in what this explorer leaves out.
RANGED_IS_MAGIC = (
    "ranged and magic give the same odds here: the sliders set both pools, and the two differ only in "
    "magic's area (AM-8: one roll against each adjacent defender) and the stats that make the pools "
    "(AM-2: Mind against ranged, Spirit against magic) — the attack stepper plays both"
)

#: The rules fields the odds explorer's numbers do not depend on, with why: its sliders
#: set both pools and it has no AM-9 modifiers (a picked house-rules file that changes
#: only these says so).
NOT_COUNTED: dict[str, str] = {
    name: "the sliders set both pools and this explorer has no modifiers (AM-9); the attack stepper plays them"
    for name in ("charge_dice", "elevation_dice", "terrain_dice", "occupied_dice", "prone_dice")
}


class RulesHolder(widgets.Box):
    """An invisible control holding the rules an explorer starts from: the place a
    house-rules picker plugs in (set ``value`` to a ``Rules``; the visible controls of
    the main fields are then set from it)."""

    value = traitlets.Any()
    description = "House rules"

    def __init__(self, rules: Rules) -> None:
        super().__init__(layout=widgets.Layout(display="none"))
        self.value = rules


def _field_controls(rules: Rules) -> dict[str, widgets.ValueWidget]:
    """Controls for the main house-rules fields (AM-1 hit faces, AM-7 crit size, AM-4 a
    won tie's damage, AM-3 melee return damage), set from ``rules``."""
    style = {"description_width": "initial"}
    return {
        # a bar of toggles, one click a face (a native multi-select needs Ctrl-click: a plain
        # click on 10 would leave 10 the only hitting face)
        "hit_faces": ToggleBar(_die_options(rules), rules.hit_faces, "Hits (AM-1)", tooltip="a face that hits"),
        "crit_count": widgets.BoundedIntText(
            value=rules.crit_count,
            min=Rules.field_bounds("crit_count")[0],
            max=Rules.field_bounds("crit_count")[1],
            description=f"Crit: dice showing {'/'.join(rules.crit_faces)} (AM-7)",
            style=style,
        ),
        "tie_damage": widgets.BoundedIntText(
            value=rules.tie_damage,
            min=Rules.field_bounds("tie_damage")[0],
            max=Rules.field_bounds("tie_damage")[1],
            description="Won tie deals (AM-4)",
            style=style,
        ),
        "return_damage": widgets.Checkbox(
            value=rules.return_damage, description="Melee damage back (AM-3)", indent=False
        ),
    }


def _die_options(rules: Rules) -> list[str]:
    return [f for f in FACE_NAMES if f in rules.die_faces]


def as_rules(source: Any) -> Rules:
    """Return the Angry Miniatures rules ``source`` names: ``None`` (the rulings), a
    ``Rules``, a mapping of fields, or a house-rules file (a path or a shipped name such
    as ``"tens_hit"``; :func:`toolkit.house_rules.load_rules`).

    Raises:
        InvalidSetupError: a source of the wrong kind, a file not found, rules not valid.
    """
    if isinstance(source, Rules):
        return source
    return load_rules(SYSTEM, source)  # type: ignore[no-any-return]


def _rules_from(base: Any, values: Mapping[str, Any]) -> Rules:
    """Return ``base`` with the fields the controls set. The tie-break chain (AM-4) follows
    the hit faces: when ``base``'s chain is the one the Rules derive from its hit faces,
    the Rules derive it again from the new ones (ticking J under hits Q K A gives A K Q J);
    a chain of the house rules' own keeps its order, loses the faces that no longer hit and
    gains the faces that newly hit, in the default chain's order, after its own.

    Raises:
        RuleFieldError: the controls make rules that are not valid (no hit face, say).
    """
    base = as_rules(base)
    changed = {name: values[name] for name in (*_FIELD_CONTROLS, *_VARIANTS) if name in values}
    if base.tie_break_order == replace(base, tie_break_order=None).tie_break_order:
        changed["tie_break_order"] = None  # the default chain of the new hit faces (AM-4)
    else:
        hits = tuple(changed.get("hit_faces", base.hit_faces))
        kept = tuple(f for f in base.tie_break_order if f in hits)
        derived = replace(base, **changed, tie_break_order=None).tie_break_order
        changed["tie_break_order"] = kept + tuple(f for f in derived if f not in base.hit_faces)
    return rebuilt(replace(base, **changed), base)  # unchanged, it keeps its file's name


def _set_controls(controls: Mapping[str, widgets.ValueWidget], source: Any) -> None:
    """Set the field and variant controls from ``source`` (a picked house-rules file;
    rules that cannot be read leave the controls as they are: the explorer says why)."""
    try:
        rules = as_rules(source)
    except InvalidSetupError:
        return
    hits = controls["hit_faces"]
    options = _die_options(rules)
    if list(hits.options) != options:
        hits.options = tuple(options)
    hits.value = rules.hit_faces
    controls["crit_count"].description = f"Crit: dice showing {'/'.join(rules.crit_faces)} (AM-7)"
    for name in (*_FIELD_CONTROLS[1:], *_VARIANTS):
        set_control(controls[name], getattr(rules, name))  # a bound widened to a file's number


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
        hindering_terrain, occupied_squares, zero_tie, melee_defence_bonus, tie_break,
        hit_faces, crit_count, tie_damage, return_damage: the controls.
        base_rules: the rules the controls change (``rules=``, or :meth:`set_rules`).
        setup_line: the pools in force; error_line: why a setup cannot be played.
    """

    def __init__(
        self,
        attacker: Character | None = None,
        defender: Character | Sequence[Character] | None = None,
        attack_type: str = "melee",
        seed: int = 0,
        rules: Any = None,
        attack_dice: int = 3,
        defence_dice: int = 3,
    ) -> None:
        rules = as_rules(rules)
        self.base_rules = rules
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
        fields = _field_controls(rules)
        self.hit_faces = fields["hit_faces"]
        self.crit_count = fields["crit_count"]
        self.tie_damage = fields["tie_damage"]
        self.return_damage = fields["return_damage"]
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()

        self._stashed: dict[int, Any] = {}  # a cleared modifier's setting, by id(control), until it applies again
        self._adjusting = False
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
        #: The setup controls in one aligned grid (the one look of every stepper and explorer).
        self.controls_grid = control_grid(self._controls())
        self.widget = widgets.VBox(
            [*who, self.controls_grid, control_grid_style(), self.setup_line, self.error_line, self.stepper.widget]
        )

    # -- setup ---------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules in force: :attr:`base_rules` with the fields and variants the
        controls set.

        Raises:
            RuleFieldError: the controls make rules that are not valid (no hit face).
        """
        values = {name: getattr(self, name).value for name in (*_FIELD_CONTROLS, *_VARIANTS)}
        return _rules_from(self.base_rules, values)

    def set_rules(self, rules: Any) -> None:
        """Play under other rules — a ``Rules``, a mapping of fields or a house-rules file
        (a path or a shipped name, :func:`as_rules`) —: the controls are set from them
        and the attack restarts.

        Raises:
            InvalidSetupError: the rules cannot be read or are not valid.
        """
        rules = as_rules(rules)
        self.base_rules = rules
        controls = {name: getattr(self, name) for name in (*_FIELD_CONTROLS, *_VARIANTS)}
        _set_controls(controls, rules)
        self._changed()

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
            self.hit_faces,
            self.crit_count,
            self.tie_damage,
            self.return_damage,
        ]

    def _adjust(self) -> None:
        """Disable the controls that do not apply to the attack type (AM-8, AM-9, AM-6).

        An AM-9 modifier that does not apply is also cleared (Charge unticked for a ranged
        or magic attack, the terrain squares at 0 in melee), so that a greyed control never
        shows a modifier as set; the designer's setting comes back with an attack type it
        applies to."""
        melee, magic = self.attack_type.value == "melee", self.attack_type.value == "magic"
        self._adjusting = True
        try:
            self._applies(self.charge, melee)
            for control in (self.higher_elevation, self.hindering_terrain, self.occupied_squares):
                self._applies(control, not melee)
        finally:
            self._adjusting = False
        self.melee_defence_bonus.disabled = not melee
        self.return_damage.disabled = not melee
        self.area.disabled = not magic or self.area.max == 1

    def _applies(self, control: widgets.ValueWidget, applies: bool) -> None:
        """Enable a modifier's control (its stashed setting back), or disable and clear it."""
        stash = self._stashed
        if applies:
            control.disabled = False
            if id(control) in stash:
                control.value = stash.pop(id(control))
        elif not control.disabled:
            control.disabled = True
            off = type(control.value)()
            if control.value != off:
                stash[id(control)] = control.value
                control.value = off

    def _changed(self) -> None:
        if self._adjusting:
            return  # a modifier cleared or restored by _adjust: the change that caused it restarts
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
            f"Pools: {count(state.attack_dice, 'attack die')} against {dice} defence "
            f"({self.rules.variant_name()}; AM-2, AM-9)."
        )


def attack_stepper(
    attacker: Character | None = None,
    defender: Character | Sequence[Character] | None = None,
    attack_type: str = "melee",
    seed: int = 0,
    rules: Any = None,
) -> AttackStepper:
    """Return a stepper for one Angry Miniatures attack, with its setup controls on top.

    Without characters the sides are anonymous and their pools are set with sliders
    (0-15 dice; a magic attack may hit 1-4 defenders with the same pool, AM-8). With
    characters, the pools come from their stats (AM-2) and Health counts (AM-10);
    ``defender`` may list the target then the creatures adjacent to it, all hit by a
    magic attack (AM-8), only the target otherwise. ``rules``: a ``Rules``, a mapping
    of fields or a house-rules file (a path or a shipped name such as ``"tens_hit"``).

    Raises:
        InvalidSetupError: only one of attacker/defender given, a bad attack type, a
            character who is out, or rules that cannot be read.
    """
    return AttackStepper(attacker, defender, attack_type, seed, rules)


# -- the odds explorer -----------------------------------------------------------------
def _score(outcome: AttackOutcome) -> int:
    """Damage to the defender, or minus the damage back to the attacker (AM-3: never both)."""
    return outcome.defender_damage - outcome.attacker_damage


def _pools(attack_dice: int, defence_dice: int, attack_type: str, rules: Rules) -> Pools:
    """Return the pools the explorer rolls (:func:`attack_pools`: AM-2, AM-6 for a melee
    defender who counts as a melee character), for its computation and its summary."""
    defender = Character("Defender", body=defence_dice, mind=defence_dice, spirit=defence_dice, melee_character=True)
    attacker = Character("Attacker", melee=attack_dice, ranged=attack_dice, magic=attack_dice)
    return attack_pools(attacker, defender, attack_type, rules=rules)


def _summary(d: Distribution[AttackOutcome], values: Mapping[str, Any]) -> list[str]:
    # every number read from the result's own exactness and intervals (the one display rule)
    lines = [
        f"P(hit) = {chance_text(d, lambda o: o.defender_damage > 0)}",
        f"expected damage to defender {average_text(d, 'defender_damage')}",
    ]
    if values["attack_type"] == "melee":
        lines.append(f"P(damage back) = {chance_text(d, lambda o: o.attacker_damage > 0)}")
        lines.append(f"expected damage back to attacker {average_text(d, 'attacker_damage')}")
    lines.append(f"P(attacker crits) = {chance_text(d, lambda o: o.attacker_crit)}")
    lines.append(f"P(defender crits) = {chance_text(d, lambda o: o.defender_crit)}")
    rules = _rules_from(values["rules"], values)
    if values["attack_type"] == "melee" and rules.melee_defence_bonus:
        pools = _pools(values["attack_dice"], values["defence_dice"], values["attack_type"], rules)
        lines.append(f"AM-6: the defender rolls {count(pools.defence, 'die')}")
    if values["attack_type"] != "melee":
        lines.append(RANGED_IS_MAGIC)
    if rules.changes():
        lines.append(f"house rules: {rules.variant_name()}")
    return lines


def _explore(
    attack_dice: int,
    defence_dice: int,
    attack_type: str,
    rules: Rules,
    **fields: Any,
) -> Distribution[AttackOutcome]:
    rules = _rules_from(rules, fields)
    pools = _pools(attack_dice, defence_dice, attack_type, rules)
    return opposed(pools.attack, pools.defence, attack_type, rules)


def odds_explorer(
    attack_dice: int = 3,
    defence_dice: int = 3,
    attack_type: str = "melee",
    rules: Any = None,
    view: str = "exactly",
) -> OddsExplorer:
    """Return an explorer of one attack's exact outcome (:func:`opposed`) as the pool
    sliders (0-15 dice), the attack type, the variants and the main house-rules fields
    (hit faces, crit size, a won tie's damage, return damage) change.

    ``rules`` (default: the rulings) are the rules the controls start from and change;
    ``controls["rules"]`` (a hidden :class:`RulesHolder`) holds them: a house-rules
    picker sets its ``value`` and the controls follow.

    The chart puts damage to the defender on the right and, in melee, damage back to
    the attacker on the left (AM-3); the view shows P(exactly k) or P(at least k). The
    summary gives P(hit), the expected damage both ways and the crit chances (AM-7).
    With the AM-6 variant on, the defender counts as a melee character (+1 die in melee).

    Raises:
        InvalidSetupError: a pool outside 0-15 or an unknown attack type.
    """
    rules = as_rules(rules)
    for n, what in ((attack_dice, "attack_dice"), (defence_dice, "defence_dice")):
        whole_number(n, f"{what} (dice)", 0, _MAX_DICE)
    check_attack_type(attack_type)
    controls: dict[str, widgets.ValueWidget] = {
        "attack_dice": _pool_slider(attack_dice, "Attack dice"),
        "defence_dice": _pool_slider(defence_dice, "Defence dice"),
        "attack_type": widgets.ToggleButtons(options=list(ATTACK_TYPES), value=attack_type, description="Attack"),
        "rules": RulesHolder(rules),
        **_variant_controls(rules),
        **_field_controls(rules),
    }
    holder = controls["rules"]

    def picked(change: Mapping[str, Any]) -> None:
        """A picked house-rules file (or name, or mapping) is read once and held as
        ``Rules``; the controls are set from it."""
        try:
            rules = as_rules(change["new"])
        except InvalidSetupError:
            return  # the explorer's computation says why
        if rules is not change["new"]:
            holder.value = rules
        else:
            _set_controls(controls, rules)

    # Registered before the explorer's own observers: a picked file sets the controls first.
    holder.observe(picked, names="value")

    def adjust(values: Mapping[str, Any]) -> None:
        controls["melee_defence_bonus"].disabled = values["attack_type"] != "melee"
        controls["return_damage"].disabled = values["attack_type"] != "melee"

    explorer = OddsExplorer(
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
        rules_system=SYSTEM,
        rules=rules,
        rules_in_force=lambda values: _rules_from(values["rules"], values),
        not_counted=NOT_COUNTED,
    )
    # the picker's rules become the rules the controls start from (the controls follow)
    explorer.rules_picker.observe(lambda picked: setattr(holder, "value", picked), first=True)
    return explorer


def rule_controls(rules: Rules) -> dict[str, widgets.ValueWidget]:
    """Return the controls of the main house-rules fields as the explorer shows them, set
    from ``rules`` (the system's ``rule_controls`` hook, :mod:`toolkit.systems`)."""
    return _field_controls(rules)
