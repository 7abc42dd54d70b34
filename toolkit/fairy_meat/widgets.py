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
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card, parse_cards
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.fairy_meat.deck import is_numbered, is_trump
from toolkit.fairy_meat.engine import PLAYERS, CombatState, start_combat
from toolkit.fairy_meat.legality import playable_cards, trump_sets, trump_sets_by_type
from toolkit.fairy_meat.notation import (
    Example,
    PlannedMove,
    check_expectations,
    load_example,
    load_weapons,
    plan_example,
    replay,
    to_example,
)
from toolkit.fairy_meat.odds import deal_averaged_odds, hand_composition
from toolkit.fairy_meat.policies import POLICIES as _POLICY_FUNCTIONS
from toolkit.fairy_meat.rules import Fairy, Rules, Weapon
from toolkit.fairy_meat.strategy import optimal
from toolkit.prob import Distribution, format_probability
from toolkit.widgets import OddsExplorer
from toolkit.widgets.common import ERROR, OK
from toolkit.widgets.common import esc as _esc
from toolkit.widgets.common import field as _field
from toolkit.widgets.example_mode import FollowsExample

__all__ = [
    "CombatStepper",
    "combat_stepper",
    "odds_explorer",
    "hand_composition_explorer",
    "can_place_trumps",
    "EXAMPLES_DIR",
    "POLICIES",
]

#: Where the rule-book examples live; :func:`combat_stepper` also looks here for a bare file name.
EXAMPLES_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "examples"
#: The policies the odds explorer offers for each fairy (by name, :mod:`toolkit.fairy_meat.policies`).
POLICIES: tuple[str, ...] = tuple(_POLICY_FUNCTIONS)

_RED, _BLACK = "#c92a2a", "#212529"
_MAX_POINTS = 10
_SETUP_KEYS = {
    "deck",
    "hands",
    "attacker_modifiers",
    "defender_modifiers",
    "fluttered",
    "holds_order_card",
    "defender_has_attacked",
    "wrestling",
    "attacks",
}
_CARD_CODE = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b")
_WIDE = {"description_width": "initial"}
_GREY = "#adb5bd"
#: Optimal-play hints kept per stepper (by state), so Step, Back and the toggle never re-solve.
_HINTS_KEPT = 64
_OPTIMAL_NOTE = (
    "Optimal play with both hands known (FM-5 hidden Trumps respected), solved from the start of this "
    "attack, so it never sees a face-down choice still pending."
)


# -- small helpers ----------------------------------------------------------------------
def _colour_of(card: Card) -> str:
    return _RED if card.colour == "red" else _BLACK


def _card_html(card: Card, note: str = "") -> str:
    """A card code as a coloured chip (red for hearts and diamonds, black for spades and clubs)."""
    style = (
        f"color:{_colour_of(card)};border:1px solid #adb5bd;border-radius:4px;padding:0 4px;"
        "margin-right:4px;font-family:monospace;font-weight:bold"
    )
    if note:
        style += ";background:#e9ecef;text-decoration:underline dotted"
    title = f"{card.name}{' — ' + note if note else ''}"
    return f'<span style="{style}" title="{_esc(title)}">{_esc(card.code)}</span>'


def _colour_codes(escaped: str) -> str:
    """Colour the card codes in already-escaped text (the observation lines)."""

    def paint(m: re.Match[str]) -> str:
        colour = _RED if m.group(2) in "HD" else _BLACK
        return f'<b style="color:{colour};font-family:monospace">{m.group(0)}</b>'

    return _CARD_CODE.sub(paint, escaped)


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _variant_controls(rules: Rules) -> dict[str, widgets.Dropdown]:
    """Dropdowns for the named variants of RULINGS.md (FM-10, FM-5, FM-7, FM-12), set from ``rules``."""
    return {
        "damage": widgets.Dropdown(
            options=[("halved: 1 per point (default)", "halved"), ("damage table (p.11)", "table")],
            value=rules.damage,
            description="Damage (FM-10)",
            style=_WIDE,
        ),
        "none_reveal": widgets.Dropdown(
            options=[("all or nothing (default)", "all_or_nothing"), ("any subset", "subset")],
            value=rules.none_reveal,
            description="None-rule reveal (FM-5)",
            style=_WIDE,
        ),
        "undefended": widgets.Dropdown(
            options=[("blind draw (default)", "blind_draw"), ("attacker unopposed", "unopposed")],
            value=rules.undefended,
            description="Undefended (FM-7)",
            style=_WIDE,
        ),
        "nasty_hit": widgets.Dropdown(
            options=[("the damaged fairy (default)", "damaged"), ("the loser", "loser")],
            value=rules.nasty_hit,
            description="Nasty Hit to (FM-12)",
            style=_WIDE,
        ),
    }


def _weapon_label(w: Weapon) -> str:
    return f"{w.name} ({w.attack_bonus:+d} card, {w.defence_modifier:+d} to target, {w.attacks} attack(s))"


def _hint_table(state: CombatState, words: str, mix: Mapping[str, Fraction], seconds: float) -> str:
    """The optimal mix as HTML: the most likely action first, those never played greyed."""
    i = state.phase()[1]
    listed = {optimal.same_choice(None, a): a for a in mix}
    also: dict[str, list[str]] = {}
    for action in state.legal_actions():
        if action not in mix and optimal.same_choice(None, action) in listed:
            also.setdefault(listed[optimal.same_choice(None, action)], []).append(action)
    rows = []
    for action, p in sorted(mix.items(), key=lambda kv: -kv[1]):
        names = " / ".join(_colour_codes(_esc(a)) for a in (action, *also.get(action, ())))
        if p:
            style = ""
        else:
            style = f' style="color:{_GREY}" title="never played by optimal play"'
        rows.append(f"<tr{style}><td>{names}</td><td>{_esc(format_probability(p))}</td></tr>")
    same = (
        '<div style="font-size:85%">A / B: cards of the same type, the same choice (FM-1); play either.</div>'
        if also
        else ""
    )
    return (
        f"<div><b>{_esc(words)}</b> — {_esc(state.names[i])} ({_esc(PLAYERS[i])}) to choose. "
        "Optimal play:</div>"
        '<table style="border-collapse:separate;border-spacing:12px 1px">'
        '<tr><th style="text-align:left">action</th><th style="text-align:left">probability</th></tr>'
        + "".join(rows)
        + "</table>"
        + same
        + f'<div style="color:#666;font-size:85%">{_esc(_OPTIMAL_NOTE)} Solved in {seconds:.2f} s.</div>'
    )


def _no_decision(state: CombatState) -> str:
    """Why there is no optimal mix to show at ``state`` (``hint`` returned None)."""
    if state.is_terminal:
        return "The combat is over: no decision left."
    step, _ = state.phase()
    if state.is_chance_node:
        what = "cards are turned up (FM-6, FM-7)" if step == "draw" else "a hand is dealt (FM-2)"
        return f"No decision here: the next step is chance, {what}. Press Step or Roll."
    best = state.best_action()
    if best is not None:
        return (
            f"No decision for optimal play here: the {step} step is the referee's, and the referee's best "
            f"choice ({best}) is preselected (highlighted)."
        )
    return "No decision for optimal play here."


def _find_example(source: str | Path) -> Path:
    path = Path(source)
    if path.is_file():
        return path
    if (EXAMPLES_DIR / path).is_file():
        return EXAMPLES_DIR / path
    if (EXAMPLES_DIR / path.name).is_file() and not path.parent.is_dir():
        return EXAMPLES_DIR / path.name
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the examples in {EXAMPLES_DIR} are: {known}")


# -- the stepper ----------------------------------------------------------------------------
class CombatStepper(FollowsExample[CombatState]):
    """One Fairy Meat combat, card by card: setup controls, the hands, the cards to click,
    a :class:`Stepper`, and Export. Build it with :func:`combat_stepper`.

    Every setup change restarts the stepper (same seed). In example mode the example's
    moves are replayed from the new setup, so "what if Sparklespaz had no Order Card?"
    is one click away; a move that no longer fits is reported when it is reached.

    Attributes:
        stepper: the generic :class:`Stepper` playing the combat (its Step, Roll, Back,
            Restart, Seed and typed outcomes work as for any game).
        widget: the whole thing, an ``ipywidgets.VBox``.
        attacker_live, attacker_kill, defender_live, defender_kill: IntSliders (FM-2).
        attacker_weapon, defender_weapon: Dropdowns of the weapons in ``data/fairy_meat``.
        fluttered, holds_order_card, wrestling: Checkboxes (FM-2, FM-14).
        damage, none_reveal, undefended, nasty_hit: the variant Dropdowns.
        deal: ``"seeded"`` (cards drawn with the stepper's seed) or ``"stacked"``
            (``deck_box``'s cards on top of the deck, in order, the rest seeded).
        view: ``"both"`` (designer: both hands) or one side's view (``"attacker"``,
            ``"defender"``), drawn from ``state.observation``.
        hands_view: the hands, as HTML.
        card_buttons: the deciding fairy's cards by code — ToggleButtons at the Trumps
            step, Buttons at the Numbered-card step; empty at other steps.
        action_buttons: the other decision buttons by action (``"declare add"``,
            ``"trumps none"``, ``"shift +1 -1"``, ...), including ``"place trumps"``.
        best_button: the button of the referee's best choice (reveal/bonus/shift), or None.
        hint_button, hint_view: "What would optimal play do here?" (a ToggleButton) and
            its panel: while on, the equilibrium mix of the decision pending
            (:func:`toolkit.fairy_meat.strategy.optimal.hint`: both hands known), refreshed after
            every move; why there is none at chance and referee steps; a game too big to
            solve quickly says so. Off, nothing is solved.
        example: the rule-book example followed, or None; next_move_button,
            play_all_button, example_line: its controls.
        export_title, export_button, export_box, export_note: Export.
        setup_line, error_line: the hand sizes in force; why a setup cannot be played.
    """

    _load_hint = "No example is loaded: give combat_stepper(example=...)."
    _noun = "combat"
    _sides = PLAYERS
    _state_type = CombatState

    def __init__(
        self,
        example: Example | None = None,
        attacker: Fairy | None = None,
        defender: Fairy | None = None,
        seed: int = 0,
        rules: Rules | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> None:
        options = dict(setup or {})
        unknown = set(options) - _SETUP_KEYS
        if unknown:
            raise InvalidSetupError(
                f"unknown setup {', '.join(sorted(unknown))}; combat_stepper takes {', '.join(sorted(_SETUP_KEYS))}"
            )
        if example is not None:
            if attacker is not None or defender is not None:
                raise InvalidSetupError("give an example or the fairies, not both: the example names its fairies")
            base = example.start.setup
            if base is None:  # pragma: no cover - load_example always records the setup
                raise InvalidSetupError("this example's start has no setup")
            attacker, defender = base.attacker, base.defender
            rules = rules or example.start.rules
            known = {
                "deck": _codes(example.start.pile.stacked),
                "attacker_modifiers": base.attacker_modifiers,
                "defender_modifiers": base.defender_modifiers,
                "fluttered": base.fluttered,
                "holds_order_card": base.holds_order_card,
                "defender_has_attacked": base.defender_has_attacked,
                "wrestling": base.wrestling,
                "attacks": base.attacks,
            }
            options = {**known, **options}
        elif (attacker is None) != (defender is None):
            raise InvalidSetupError("give both an attacker and a defender (Fairies), or neither")
        if attacker is None or defender is None:
            weapons = load_weapons()
            attacker = Fairy("Dizzytwig", live=3, kill=4, weapon=weapons["Vibro-Master"])
            defender = Fairy("Sparklespaz", live=2, kill=1, weapon=weapons["Moon Dagger"])
        rules = rules or Rules()
        self.example = example
        self.names = (attacker.name, defender.name)
        deck = options.pop("deck", "")
        hands = options.pop("hands", None)
        if hands is not None:
            # Check the hands against FM-2 once, then deal them as the top of a stacked deck.
            start_combat(attacker, defender, rules, hands=hands, **options)
            deck = [*parse_cards(hands[0]), *parse_cards(hands[1]), *parse_cards(deck or "")]
        deck_text = deck if isinstance(deck, str) else _codes(parse_cards(deck))
        self._extra = {
            k: options[k]
            for k in ("attacker_modifiers", "defender_modifiers", "defender_has_attacked", "attacks")
            if k in options
        }
        self._build_controls(attacker, defender, rules, options, deck_text)
        self._build_panels()
        self.card_buttons: dict[str, widgets.Widget] = {}
        self.action_buttons: dict[str, widgets.Button] = {}
        self.best_button: widgets.Button | None = None
        title = example.title if example is not None else f"Fairy Meat: {attacker.name} attacks {defender.name}"
        self.export_title.value = title
        self._start(seed, title)

    # -- setup -------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules the variant controls select (RULINGS.md defaults and variants)."""
        return Rules(
            damage=self.damage.value,
            none_reveal=self.none_reveal.value,
            undefended=self.undefended.value,
            nasty_hit=self.nasty_hit.value,
        )

    @property
    def fairies(self) -> tuple[Fairy, Fairy]:
        """The attacker and the defender as the controls set them."""
        a = Fairy(self.names[0], self.attacker_live.value, self.attacker_kill.value, self.attacker_weapon.value)
        d = Fairy(self.names[1], self.defender_live.value, self.defender_kill.value, self.defender_weapon.value)
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
            fluttered=self.fluttered.value and not self.wrestling.value,
            holds_order_card=self.holds_order_card.value and not self.wrestling.value,
            wrestling=self.wrestling.value,
            **self._extra,
        )

    # -- moves (what the buttons do) ----------------------------------------------------------
    def choose(self, action: str) -> None:
        """Take a decision by its action string (``"declare add"``, ``"shift +1 -1"``, ...)."""
        self.stepper.choose(action)

    def toggle(self, code: str) -> None:
        """Toggle a card of the deciding fairy's hand at the Trumps step (as clicking it does)."""
        button = self.card_buttons.get(Card(code).code)
        if not isinstance(button, widgets.ToggleButton) or button.disabled:
            self.stepper.refuse(f"{code} cannot be toggled now: only Trumps are toggled, at the Trumps step (FM-4).")
            return
        button.value = not button.value

    def selected(self) -> list[Card]:
        """The cards toggled at the Trumps step, in hand order."""
        state = self.state
        step, i = state.phase()
        if step != "trumps":
            return []
        return [
            c
            for c in state.hands[i]
            if isinstance(self.card_buttons.get(c.code), widgets.ToggleButton) and self.card_buttons[c.code].value
        ]

    def place_trumps(self) -> None:
        """Place the toggled Trumps face down (FM-4): applies ``"trumps <cards>"``, or shows
        why not (Trumps of two colours, FM-4; no Trump kept back for a fairy without a
        Numbered card, FM-6) and changes nothing."""
        state = self.state
        step, i = state.phase()
        if step != "trumps":
            self.stepper.refuse(f"Not the Trumps step: {state.prompt()}")
            return
        chosen = self.selected()
        if not chosen:
            self.stepper.refuse("Toggle the Trumps to place face down first, or press None (FM-4).")
            return
        action = f"trumps {_codes(chosen)}"
        name, hand = state.names[i], state.hands[i]

        def reason() -> str:
            if any(not is_trump(c) for c in chosen):
                return "Only Trumps (J Q K A) are placed face down; Numbered cards are played next (FM-1, FM-4)."
            if len({c.colour for c in chosen}) > 1:
                return (
                    f"{name}'s Trumps {_codes(chosen)} are of two colours: the Trumps placed from the hand must "
                    "all be red or all black (FM-4)."
                )
            if set(chosen) not in [set(s) for s in trump_sets(hand)]:  # FM-6: the keep-back
                return f"{name} holds no Numbered card: she must keep a Trump back to play as a Wild Trump (FM-6)."
            return ""

        self._attempt(action, reason)

    def say_none(self) -> None:
        """Say None at the Trumps step (FM-4, FM-5)."""
        self.stepper.choose("trumps none")

    def play_card(self, code: str) -> None:
        """Play a card at the Numbered-card step: a Numbered card (``"play 5C"``), or a
        Trump as a Wild Trump (``"wild KS"``) — refused while she holds a Numbered card (FM-6)."""
        state = self.state
        step, i = state.phase()
        if step != "play":
            self.stepper.refuse(f"Not the Numbered-card step: {state.prompt()}")
            return
        card = Card(code)
        action = f"{'play' if is_numbered(card) else 'wild'} {card.code}"
        name = state.names[i]
        placed = state.cur.trumps[i] or ()
        rest = [c for c in state.hands[i] if c not in placed]

        if card in placed or card not in rest:
            where = (
                "is face down as one of her Trumps for this attack (FM-4)" if card in placed else "is not in her hand"
            )
            self.stepper.refuse(f"{card} {where}: {name} plays one of {_codes(rest)}.")
            return

        def reason() -> str:
            numbered = [c for c in playable_cards(rest) if is_numbered(c)]
            if is_trump(card) and numbered:
                return (
                    f"{name} holds a Numbered card ({_codes(numbered)}): she must play one. A Trump is played as a "
                    "Wild Trump only by a fairy with no Numbered card (FM-6)."
                )
            return ""

        self._attempt(action, reason)

    def export(self) -> str:
        """Fill the export box with the combat so far as a rule-book example and return it
        (the YAML that ``toolkit replay`` and :func:`~toolkit.fairy_meat.notation.load_example`
        read; the deck is every card dealt or turned up, the moves every decision)."""
        return self._export("A Fairy Meat combat")

    def _example_text(self, state: CombatState, title: str) -> str:
        return to_example(state, title)

    def _export_verdict(self, state: CombatState, text: str) -> tuple[str, str]:
        """The export note: the whole combat, or how replaying the file finishes or stops."""
        try:
            replayed = replay(load_example(text))
        except ToolkitError as e:
            over = "" if state.is_terminal else "The combat is not over: "
            return f"{over}replaying this file stops: {e}", ERROR
        if state.is_terminal:
            return "The whole combat: save it as data/examples/<name>.yaml and run `toolkit replay <file>`.", OK
        return (
            "The combat is not over; replaying this file finishes it with the referee's best choices "
            f"({len(replayed.results)} attack(s)).",
            OK,
        )

    # -- building ---------------------------------------------------------------------------
    def _build_controls(
        self, attacker: Fairy, defender: Fairy, rules: Rules, options: Mapping[str, Any], deck: str
    ) -> None:
        def points(value: int, what: str, low: int) -> widgets.IntSlider:
            return widgets.IntSlider(value=value, min=low, max=max(_MAX_POINTS, value), description=what, style=_WIDE)

        a, d = self.names
        self.attacker_live = points(attacker.live, f"{a}: Live", 0)
        self.attacker_kill = points(attacker.kill, f"{a}: Kill", 0)
        self.defender_live = points(defender.live, f"{d}: Live", 0)
        self.defender_kill = points(defender.kill, f"{d}: Kill", 0)
        weapons = load_weapons()
        for w in (attacker.weapon, defender.weapon):
            weapons.setdefault(w.name, w)
        choices = [(_weapon_label(w), w) for w in weapons.values()]
        self.attacker_weapon = widgets.Dropdown(
            options=choices, value=weapons[attacker.weapon.name], description=f"{a}'s weapon", style=_WIDE
        )
        self.defender_weapon = widgets.Dropdown(
            options=choices, value=weapons[defender.weapon.name], description=f"{d}'s weapon", style=_WIDE
        )
        self.fluttered = widgets.Checkbox(
            value=bool(options.get("fluttered", False)), description=f"{a} Fluttered (−1 card)", indent=False
        )
        self.holds_order_card = widgets.Checkbox(
            value=bool(options.get("holds_order_card", False)),
            description=f"{d} still holds an Order Card (+1 card)",
            indent=False,
        )
        self.wrestling = widgets.Checkbox(
            value=bool(options.get("wrestling", False)), description="Wrestling (FM-14)", indent=False
        )
        variants = _variant_controls(rules)
        self.damage = variants["damage"]
        self.none_reveal = variants["none_reveal"]
        self.undefended = variants["undefended"]
        self.nasty_hit = variants["nasty_hit"]
        self.deal = widgets.ToggleButtons(
            options=[("deal seeded", "seeded"), ("stacked deck", "stacked")],
            value="stacked" if deck.strip() else "seeded",
            description="Cards",
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
            style=_WIDE,
        )
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()

    def _build_panels(self) -> None:
        a, d = self.names
        self.view = widgets.ToggleButtons(
            options=[
                ("both hands (designer)", "both"),
                (f"only {a}'s view", "attacker"),
                (f"only {d}'s view", "defender"),
            ],
            value="both",
            description="Show",
        )
        self.hands_view = widgets.HTML()
        self.view.observe(lambda change: self._show_log_to(change["new"]), names="value")
        self._build_example_and_export()
        self.hint_button = widgets.ToggleButton(
            value=False,
            description="What would optimal play do here?",
            icon="lightbulb-o",
            tooltip="The equilibrium mix for the decision pending, both hands known (solved exactly; may take seconds)",
            layout=widgets.Layout(width="auto"),
        )
        self.hint_view = widgets.HTML()
        self._hints: OrderedDict[CombatState, tuple[str, Any]] = OrderedDict()
        self.hint_button.observe(lambda _: self._show_hint(), names="value")

    def _layout(self) -> widgets.VBox:
        return widgets.VBox(
            [
                widgets.HBox([self.attacker_live, self.attacker_kill, self.attacker_weapon]),
                widgets.HBox([self.defender_live, self.defender_kill, self.defender_weapon]),
                widgets.HBox([self.fluttered, self.holds_order_card, self.wrestling]),
                widgets.HBox([self.damage, self.none_reveal]),
                widgets.HBox([self.undefended, self.nasty_hit]),
                widgets.HBox([self.deal, self.deck_box]),
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
            self.deal,
            self.deck_box,
        ]

    # -- reacting ------------------------------------------------------------------------------
    def _adjust(self) -> None:
        """Disable what does not apply: Fluttered and the Order Card when Wrestling (only
        Kill points count, FM-14); the deck box when dealing seeded."""
        self.fluttered.disabled = self.holds_order_card.disabled = self.wrestling.value
        self.deck_box.disabled = self.deal.value != "stacked"

    def _plan_example(self, start: GameState) -> tuple[list[PlannedMove], list[CombatState], str]:
        assert isinstance(start, CombatState) and self.example is not None
        return plan_example(replace(self.example, start=start))

    def _expectation_problems(self) -> list[str]:
        return check_expectations(self.example, self.state)

    def _attempt(self, action: str, reason: Callable[[], str]) -> None:
        """Apply ``action`` through the stepper. If the engine refuses it without naming
        the ruling broken, put ``reason()`` (which does) before its message; the state is
        unchanged either way."""
        before = self.stepper.state
        self.stepper.choose(action)
        engine = self.stepper.error
        if self.stepper.state is before and engine and "FM-" not in engine:
            why = reason()
            if why:
                self.stepper.refuse(f"{why} (The engine: {engine})")

    def _show_log_to(self, view: str) -> None:
        """One side's view reads the log through her eyes (``Stepper.viewer``): the other
        fairy's hand as she draws it, and Trumps kept hidden, are not shown (FM-5)."""
        if hasattr(self, "stepper"):
            self.stepper.viewer = None if view == "both" else view

    def _show_setup(self) -> None:
        state = self.stepper.start_state
        assert isinstance(state, CombatState)
        a, d = state.names
        sizes, n = state.hand_sizes, state.attacks
        kind = "Wrestling: Kill points only (FM-14)" if state.wrestling else "FM-2"
        self.setup_line.value = _esc(
            f"Combat hands: {a} {sizes[0]} cards, {d} {sizes[1]}; {n} attack(s) ({kind}; {self.rules.variant_name()})."
        )

    def _show_more(self) -> None:
        self._show_hint()

    def _paint_codes(self, escaped: str) -> str:
        return _colour_codes(escaped)

    def _hand_rows(self, state: CombatState) -> list[str]:
        """Each fairy's row: points, declaration, hand (face-down and played cards marked), extras."""
        rows = []
        for i, side in enumerate(PLAYERS):
            fairy = state.fairies[i]
            placed = set(state.cur.trumps[i] or ())
            played = state.cur.cards[i]
            chips = []
            for c in state.hands[i]:
                note = (
                    "face down as a Trump this attack" if c in placed else "played this attack" if c == played else ""
                )
                chips.append(_card_html(c, note))
            hand = "".join(chips) if chips else "<i>no cards</i>"
            declared = state.declared[i] or "—"
            extra = []
            if i == 1 and state.bonus_points:
                extra.append(f"next-defence bonus {state.bonus_points} (FM-11)")
            if i == 1 and state.prev_points and state.cur.wild_colour:
                extra.append(f"{state.prev_points} {state.cur.wild_colour} Wild Trump point(s) (FM-7)")
            drawn = state.cur.drawn[i] + (
                (state.cur.number[i],) if state.cur.plays[i] not in (None, "play") and state.cur.number[i] else ()
            )
            if drawn:
                extra.append("turned up: " + "".join(_card_html(c) for c in drawn))
            rows.append(
                f"<tr><td><b>{_esc(fairy.name)}</b> ({side})</td><td>{fairy.live} Live, {fairy.kill} Kill</td>"
                f"<td>declared {_esc(declared)}</td><td>{hand}</td><td>{'; '.join(extra)}</td></tr>"
            )
        return rows

    def _show_hint(self) -> None:
        """Fill the hint panel for the current state while the hint is on (else empty, unsolved)."""
        if not self.hint_button.value:
            self.hint_view.value = ""
            return
        state = self.state
        kind, found = self._hint(state)
        if kind == "mix":
            words, mix, seconds = found
            self.hint_view.value = _hint_table(state, words, mix, seconds)
        elif kind == "error":
            self.hint_view.value = f'<span style="color:#e67700">{_esc(found)}</span>'
        else:
            self.hint_view.value = f'<span style="color:#666">{_esc(_no_decision(state))}</span>'

    def _hint(self, state: CombatState) -> tuple[str, Any]:
        """``optimal.hint(state)`` as ``("mix", (words, mix, seconds))``, ``("none", None)``
        or ``("error", message)``, kept for the last states seen."""
        if state in self._hints:
            self._hints.move_to_end(state)
            return self._hints[state]
        if not (state.is_terminal or state.is_chance_node):
            self.hint_view.value = '<i style="color:#666">Solving…</i>'
        started = time.perf_counter()
        try:
            found = optimal.hint(state)
        except ToolkitError as e:  # TooBigError: the rest of the combat is too big to solve quickly
            result: tuple[str, Any] = ("error", f"No hint here: {e}")
        else:
            if found is None:
                result = ("none", None)
            else:
                result = ("mix", (*found, time.perf_counter() - started))
        self._hints[state] = result
        while len(self._hints) > _HINTS_KEPT:
            self._hints.popitem(last=False)
        return result

    # -- the card panel -----------------------------------------------------------------------
    def _clear_panel(self) -> None:
        self.card_buttons, self.action_buttons, self.best_button = {}, {}, None

    def _decision_widgets(self, state: CombatState) -> list[widgets.Widget]:
        """The deciding fairy's cards to click (Trumps step, Numbered-card step) or decision buttons."""
        step, i = state.phase()
        name = state.names[i]
        legal = state.legal_actions()
        rows: list[widgets.Widget] = []
        if step == "trumps" and not any(a.startswith("points") for a in legal):
            rows.append(widgets.HTML(f"<b>{_esc(name)}</b>: toggle Trumps of one colour, then Place Trumps (FM-4)"))
            toggles = []
            for c in state.hands[i]:
                t = widgets.ToggleButton(
                    description=c.code,
                    tooltip=c.name if is_trump(c) else f"{c.name}: a Numbered card, played at the next step",
                    disabled=not is_trump(c),
                    layout=widgets.Layout(width="4.5em"),
                    style={"text_color": _colour_of(c), "font_weight": "bold"},
                )
                self.card_buttons[c.code] = t
                toggles.append(t)
            place = widgets.Button(description="Place Trumps", button_style="primary", tooltip="Place them face down")
            none = widgets.Button(description="None", tooltip="Place no Trumps this attack (FM-5)")
            place.on_click(lambda _: self.place_trumps())
            none.on_click(lambda _: self.say_none())
            self.action_buttons = {"place trumps": place, "trumps none": none}
            rows += [widgets.HBox(toggles), widgets.HBox([place, none])]
        elif step == "play":
            placed = state.cur.trumps[i] or ()
            rest = [c for c in state.hands[i] if c not in placed]
            face_down = " — face down: " + "".join(_card_html(c) for c in placed) if placed else ""
            rows.append(
                widgets.HTML(
                    f"<b>{_esc(name)}</b>: click the Numbered card to play (a Trump only as a Wild Trump, "
                    f"FM-6){face_down}"
                )
            )
            buttons = []
            for c in rest:
                b = widgets.Button(
                    description=c.code,
                    tooltip=f"play the {c.name}" if is_numbered(c) else f"play the {c.name} as a Wild Trump",
                    layout=widgets.Layout(width="4.5em"),
                    style={"text_color": _colour_of(c), "font_weight": "bold"},
                )
                b.on_click(lambda _, code=c.code: self.play_card(code))
                self.card_buttons[c.code] = b
                buttons.append(b)
            rows.append(widgets.HBox(buttons))
        else:
            best = state.best_action()
            hand = "".join(_card_html(c) for c in state.hands[i])
            head = f"<b>{_esc(name)}</b>" + (f": hand {hand}" if hand and step == "declare" else "")
            if best is not None:
                head += f" — the referee's best choice is <b>{_esc(best)}</b> (highlighted)"
            rows.append(widgets.HTML(head))
            buttons = []
            for action in legal:
                b = widgets.Button(description=action, tooltip=self._explain(state, action))
                if action == best:
                    b.button_style, b.icon = "success", "star"
                    self.best_button = b
                b.on_click(lambda _, a=action: self.choose(a))
                self.action_buttons[action] = b
                buttons.append(b)
            rows.append(widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap")))
        return [widgets.VBox(rows)]

    @staticmethod
    def _explain(state: CombatState, action: str) -> str:
        """A tooltip for a decision button."""
        a, d = state.names
        verb, _, rest = action.partition(" ")
        if verb == "shift":
            x, y = rest.split()
            return f"move {a}'s value {x} and {d}'s {y} with the opponent's cheating Trumps (FM-8)"
        return {
            "declare add": "her matching Trumps add 1 each, all combat (FM-3)",
            "declare subtract": "her matching Trumps subtract 1 each, all combat (FM-3)",
            "trumps none": "no Trumps this attack (FM-5)",
            "points red": "her points become red Wild Trump points (FM-7)",
            "points black": "her points become black Wild Trump points (FM-7)",
            "reveal all": "reveal and apply all the face-down Trumps (FM-5)",
            "reveal none": "leave them face down: she cannot be caught cheating (FM-5)",
            "bonus yes": "apply the next-defence bonus to her Numbered card (FM-11)",
            "bonus no": "keep the bonus off this card (FM-11)",
            "score cards": "extra cards for her attack back at this fairy this turn (FM-11 a)",
            "score bonus": "keep the points for her next defence in this combat (FM-11 b)",
            "damage": "deal the damage (FM-14)",
            "escape": "forgo the damage to escape the brawl (FM-14)",
        }.get(action, action)


def combat_stepper(
    example: str | Path | Example | None = None,
    attacker: Fairy | None = None,
    defender: Fairy | None = None,
    seed: int = 0,
    rules: Rules | None = None,
    **setup: Any,
) -> CombatStepper:
    """Return a stepper for one Fairy Meat combat, with setup controls, clickable cards and Export.

    Args:
        example: a rule-book example (a path, a file name in ``data/examples``, or a
            loaded :class:`~toolkit.fairy_meat.notation.Example`): the stepper starts at
            its start, with its setup and stacked deck, and "Play the example's next
            move" / "Play all" play its moves (stacked cards at chance steps; the
            referee's best choice where the file leaves one out, as ``toolkit replay``).
        attacker, defender: the fairies (both or neither; the draft's Dizzytwig and
            Sparklespaz by default). Not with ``example``.
        seed: the seed of the stepper's draws (cards not stacked).
        rules: the rule variants (default: RULINGS.md's defaults, or the example's).
        setup: as :func:`~toolkit.fairy_meat.engine.start_combat` takes them —
            ``deck`` (stacked card codes), ``hands``, ``fluttered``, ``holds_order_card``,
            ``wrestling``, ``attacker_modifiers``, ``defender_modifiers``,
            ``defender_has_attacked``, ``attacks``.

    Returns:
        A :class:`CombatStepper`; display it (or its ``.widget``) in a notebook.

    Raises:
        NotationError: an example file that cannot be read, or a bad card code.
        InvalidSetupError: only one fairy, fairies with an example, an unknown setup
            key, or a setup the rules do not allow (FM-2).
    """
    if isinstance(example, (str, Path)):
        example = load_example(_find_example(example))
    return CombatStepper(example, attacker, defender, seed, rules, setup)


# -- odds explorers ---------------------------------------------------------------------------
def _winner(outcome: Any) -> str:
    """``"attacker"``, ``"defender"`` or ``"draw"`` (an AttackOutcome says "draw", an
    AttackResult None, FM-9)."""
    return _field(outcome, "winner") or "draw"


def _score(outcome: Any) -> int:
    """Damage to the defender when the attacker wins (FM-10), minus the points the
    defender scores when she wins (FM-11), 0 for a draw (FM-9)."""
    winner = _winner(outcome)
    if winner == "attacker":
        return int(_field(outcome, "damage", 0))
    if winner == "defender":
        return -int(_field(outcome, "points", 0))
    return 0


def _mean(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"{x} ≈ {float(x):.2f}"


def _attack_summary(d: Distribution[Any], how: str) -> list[str]:
    def p(test: Callable[[Any], bool]) -> str:
        return format_probability(d.probability(test))

    damage = d.mean(lambda o: int(_field(o, "damage", 0)) if _winner(o) == "attacker" else 0)
    points = d.mean(lambda o: int(_field(o, "points", 0)) if _winner(o) == "defender" else 0)
    lines = [
        f"P(attacker wins) = {p(lambda o: _winner(o) == 'attacker')}",
        f"P(draw) = {p(lambda o: _winner(o) == 'draw')}",
        f"P(defender wins) = {p(lambda o: _winner(o) == 'defender')}",
        f"expected damage {_mean(damage)}",
        f"expected defender points {_mean(points)}",
        f"P(Nasty Hit) = {p(lambda o: bool(_field(o, 'nasty_hit', False)))}",
    ]
    return [*lines, how] if how else lines


def _how(result: Any) -> str:
    """How a calculator's result was reached, from a DealOdds (exact or Monte Carlo)."""
    method = getattr(result, "method", None)
    if method == "monte_carlo":
        lo, hi = result.interval(lambda o: _winner(o) == "attacker")
        return (
            f"Monte Carlo: {result.trials:,} dealt attacks (too many deals to count exactly), so these are "
            f"observed frequencies; 99% interval for P(attacker wins) {lo:.1%} to {hi:.1%}"
        )
    if method == "exact":
        return "exact, over every deal"
    return ""


def _deal_averaged(trials: int) -> Callable[..., Any]:
    def compute(a: int, d: int, policies: tuple[str, str], rules: Rules) -> Any:
        return deal_averaged_odds(a, d, policies, rules, method="auto", trials=trials)

    return compute


def odds_explorer(
    attacker_cards: int = 5,
    defender_cards: int = 2,
    policies: tuple[str, str] = ("greedy", "greedy"),
    rules: Rules | None = None,
    view: str = "exactly",
    trials: int = 2_000,
    compute: Callable[..., Any] | None = None,
) -> OddsExplorer:
    """Return an explorer of one attack's outcome averaged over every deal of the two hands.

    Controls: hand sizes (attacker 1-8, defender 0-6 cards, FM-2), each fairy's policy
    (``"random"``: every legal choice equally likely; ``"greedy"``: go for the extreme,
    :mod:`toolkit.fairy_meat.policies`) and the variants (FM-5, FM-7, FM-10, FM-12). The
    chart puts damage to the defender on the right (FM-10) and the points the defender
    scores on the left (FM-11); the summary gives P(attacker wins), P(draw), P(defender
    wins), the expected damage and P(Nasty Hit) (FM-12), and says how they were found.

    The default calculator is :func:`toolkit.fairy_meat.odds.deal_averaged_odds` with
    ``method="auto"``: exact where the count is small enough (the greedy policies at
    every size here), else ``trials`` dealt attacks by Monte Carlo (the random policies
    at most sizes; 2,000 trials take about 2 s, and the summary gives the 99% interval).

    Args:
        compute: another calculator, called as ``compute(attacker_cards, defender_cards,
            policies=(attacker's, defender's), rules=Rules(...))``, returning a
            :class:`~toolkit.prob.Distribution` of outcomes with ``winner``, ``points``,
            ``damage`` and ``nasty_hit`` — or a result holding one as ``.distribution``.

    Returns:
        An :class:`~toolkit.widgets.OddsExplorer` (``.distribution``, ``.table``,
        ``.summary_text`` and its controls by name).

    Raises:
        InvalidSetupError: hand sizes out of range or an unknown policy.
    """
    rules = rules or Rules()
    for n, low, high, what in ((attacker_cards, 1, 8, "attacker_cards"), (defender_cards, 0, 6, "defender_cards")):
        if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
            raise InvalidSetupError(f"{what} must be a whole number of cards from {low} to {high}, got {n!r}")
    for policy in policies:
        if policy not in POLICIES:
            raise InvalidSetupError(f"{policy!r} is not a policy: use one of {', '.join(map(repr, POLICIES))}")
    calculator = compute or _deal_averaged(trials)
    controls: dict[str, widgets.ValueWidget] = {
        "attacker_cards": widgets.IntSlider(
            value=attacker_cards, min=1, max=8, description="Attacker's cards", style=_WIDE
        ),
        "defender_cards": widgets.IntSlider(
            value=defender_cards, min=0, max=6, description="Defender's cards", style=_WIDE
        ),
        "attacker_policy": widgets.ToggleButtons(options=list(POLICIES), value=policies[0], description="Attacker"),
        "defender_policy": widgets.ToggleButtons(options=list(POLICIES), value=policies[1], description="Defender"),
        **_variant_controls(rules),
    }
    last: dict[str, Any] = {}

    def explore(
        attacker_cards: int,
        defender_cards: int,
        attacker_policy: str,
        defender_policy: str,
        damage: str,
        none_reveal: str,
        undefended: str,
        nasty_hit: str,
    ) -> Distribution[Any]:
        chosen = Rules(damage=damage, none_reveal=none_reveal, undefended=undefended, nasty_hit=nasty_hit)  # type: ignore[arg-type]
        result = calculator(attacker_cards, defender_cards, policies=(attacker_policy, defender_policy), rules=chosen)
        last["result"] = result
        return getattr(result, "distribution", result)

    return OddsExplorer(
        controls,
        explore,
        _score,
        positive="damage to defender",
        negative="points to defender",
        zero="draw",
        summary=lambda d, values: _attack_summary(d, _how(last.get("result"))),
        view=view,
        title="Fairy Meat: one attack, averaged over every deal",
    )


# -- the make-up of a combat hand ---------------------------------------------------------------
def can_place_trumps(hand: Any) -> bool:
    """Whether a hand (``numbered``, ``red_trumps``, ``black_trumps``) can place Trumps of
    one colour face down (FM-4) and still have a card for the Numbered step: a Numbered
    card, or another Trump to play as a Wild Trump (FM-6)."""
    red, black = int(_field(hand, "red_trumps", 0)), int(_field(hand, "black_trumps", 0))
    numbered = int(_field(hand, "numbered", 0)) >= 1
    return red + black >= 1 and len(trump_sets_by_type(max(0, red), max(0, black), 0, numbered)) > 1


def _makeup_summary(d: Distribution[Any], values: Mapping[str, Any]) -> list[str]:
    def p(test: Callable[[Any], bool]) -> str:
        return format_probability(d.probability(test))

    return [
        f"P(no Numbered card) = {p(lambda h: h.numbered == 0)} (FM-6)",
        f"P(no Trump) = {p(lambda h: h.red_trumps + h.black_trumps == 0)}",
        f"P(Trumps of one colour to place) = {p(can_place_trumps)} (FM-4)",
        f"P(Trumps of both colours) = {p(lambda h: h.red_trumps > 0 and h.black_trumps > 0)}",
        f"P(the Ace of Spades) = {p(lambda h: bool(_field(h, 'ace_of_spades', False)))} (FM-12)",
        f"expected Numbered cards {_mean(d.mean(lambda h: h.numbered))}",
    ]


def hand_composition_explorer(
    cards: int = 5,
    view: str = "exactly",
    compute: Callable[[int], Distribution[Any]] | None = None,
) -> OddsExplorer:
    """Return an explorer of what a combat hand of 0-12 cards holds (FM-1, FM-2), exactly.

    The chart and table give the number of Numbered cards; the summary P(no Numbered
    card) (she must play a Wild Trump or turn up cards, FM-6), P(no Trump), P(Trumps of
    one colour she can place, FM-4), P(Trumps of both colours) and P(the A♠, FM-12).

    Args:
        compute: ``compute(cards)`` returning a Distribution of hands with ``numbered``,
            ``red_trumps``, ``black_trumps`` and ``ace_of_spades`` (default:
            :func:`toolkit.fairy_meat.odds.hand_composition`).

    Returns:
        An :class:`~toolkit.widgets.OddsExplorer`.

    Raises:
        InvalidSetupError: a hand size outside 0-12.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 12:
        raise InvalidSetupError(f"cards must be a whole number from 0 to 12, got {cards!r}")
    calculator = compute or hand_composition
    controls = {"cards": widgets.IntSlider(value=cards, min=0, max=12, description="Cards in the hand", style=_WIDE)}
    return OddsExplorer(
        controls,
        lambda cards: calculator(cards),
        lambda h: int(_field(h, "numbered", 0)),
        positive="Numbered card(s)",
        negative="",
        zero="no Numbered card",
        summary=_makeup_summary,
        view=view,
        title="Fairy Meat: what a combat hand holds",
    )
