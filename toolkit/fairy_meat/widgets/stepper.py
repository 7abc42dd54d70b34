"""The Fairy Meat combat stepper: setup controls, cards to click, one side's view, examples and Export."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card, parse_cards
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.fairy_meat.deck import is_numbered, is_trump
from toolkit.fairy_meat.engine import PLAYERS, CombatState, start_combat
from toolkit.fairy_meat.legality import playable_cards, trump_sets
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
from toolkit.fairy_meat.rules import Fairy, Rules
from toolkit.fairy_meat.strategy import optimal
from toolkit.fairy_meat.widgets.cards import (
    MAX_POINTS,
    WIDE,
    card_codes,
    card_html,
    colour_codes,
    colour_of,
    variant_controls,
    weapon_label,
    wrestling_hand_control,
)
from toolkit.fairy_meat.widgets.hints import HINTS_KEPT, action_label, hint_table, no_decision_text
from toolkit.numbers import count
from toolkit.shipped import shipped_path
from toolkit.widgets.common import ERROR, NOTE, OK, PICKED_STYLE, control_grid, esc, fitting_width, mark_picked
from toolkit.widgets.example_mode import FollowsExample

__all__ = ["EXAMPLES_DIR", "find_example", "CombatStepper", "combat_stepper"]

#: Toggle buttons as wide as their labels: a cut-off label hides what the button does.
_FIT_BUTTONS = {"description_width": "initial", "button_width": "auto"}


#: Where the rule-book examples live; :func:`combat_stepper` also looks here for a bare file name.
EXAMPLES_DIR = shipped_path("examples")


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


def find_example(source: str | Path) -> Path:
    path = Path(source)
    if path.is_file():
        return path
    if (EXAMPLES_DIR / path).is_file():
        return EXAMPLES_DIR / path
    if (EXAMPLES_DIR / path.name).is_file() and not path.parent.is_dir():
        return EXAMPLES_DIR / path.name
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the examples in {EXAMPLES_DIR} are: {known}")


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
        damage, none_reveal, none_means, undefended, nasty_hit: the variant Dropdowns;
        wrestling_hand: the Wrestling hand Dropdown (FM-2/FM-14).
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
                "deck": card_codes(example.start.pile.stacked),
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
            # "he", as the draft's worked example speaks of him (data/examples/dizzytwig_v_sparklespaz.yaml)
            defender = Fairy("Sparklespaz", live=2, kill=1, weapon=weapons["Moon Dagger"], pronoun="he")
        rules = rules or Rules()
        self._base_rules = rules  # every field the controls do not set keeps the house rules' value
        self.example = example
        self.names = (attacker.name, defender.name)
        self.pronouns = (attacker.pronoun, defender.pronoun)  # how the narration speaks of each (she, he, they)
        deck = options.pop("deck", "")
        hands = options.pop("hands", None)
        if hands is not None:
            # Check the hands against FM-2 once, then deal them as the top of a stacked deck.
            start_combat(attacker, defender, rules, hands=hands, **options)
            deck = [*parse_cards(hands[0]), *parse_cards(hands[1]), *parse_cards(deck or "")]
        deck_text = deck if isinstance(deck, str) else card_codes(parse_cards(deck))
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

    @property
    def rules(self) -> Rules:
        """The rules in force: those the stepper was given (an example's, or a house-rules
        ``Rules``), with the variants the controls select (RULINGS.md defaults and variants)."""
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
        action = f"trumps {card_codes(chosen)}"
        name, hand = state.names[i], state.hands[i]

        def reason() -> str:
            if any(not is_trump(c, state.rules) for c in chosen):
                ranks = " ".join(state.rules.trump_ranks)
                return f"Only Trumps ({ranks}) are placed face down; Numbered cards are played next (FM-1, FM-4)."
            if len({c.colour for c in chosen if not c.is_joker}) > 1:
                return (
                    f"{name}'s Trumps {card_codes(chosen)} are of two colours: the Trumps placed from the hand must "
                    "all be red or all black (FM-4)."
                )
            if set(chosen) not in [set(s) for s in trump_sets(hand, rules=state.rules)]:  # FM-6: the keep-back
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
        action = f"{'play' if is_numbered(card, state.rules) else 'wild'} {card.code}"
        name = state.names[i]
        placed = state.cur.trumps[i] or ()
        rest = [c for c in state.hands[i] if c not in placed]

        if card in placed or card not in rest:
            where = (
                "is face down as one of her Trumps for this attack (FM-4)" if card in placed else "is not in her hand"
            )
            self.stepper.refuse(f"{card} {where}: {name} plays one of {card_codes(rest)}.")
            return

        def reason() -> str:
            numbered = [c for c in playable_cards(rest, (), state.rules) if is_numbered(c, state.rules)]
            if is_trump(card, state.rules) and numbered:
                return (
                    f"{name} holds a Numbered card ({card_codes(numbered)}): she must play one. A Trump is played as a "
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
            again = load_example(text)
            replayed = replay(again)
            problems = check_expectations(again, replayed)
            same = [e.text for e in replayed.log_events] == [e.text for e in state.log_events]
            error = "; ".join(problems) or ("" if same else "the replayed log differs")
        except ToolkitError as e:
            error = str(e)
        if error:
            return f"Replaying this file stops: {error}", ERROR
        if state.is_terminal:
            return "The whole combat: save it as data/examples/<name>.yaml and run `toolkit replay <file>`.", OK
        return (
            "The combat so far, an unfinished example (unfinished: true): it replays to the same log and stops "
            f"where the combat stands ({count(len(replayed.results), 'attack')} played).",
            NOTE,
        )

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
            style=_FIT_BUTTONS,
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
            style=_FIT_BUTTONS,
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

    def _show_more(self) -> None:
        self._show_hint()

    def _paint_codes(self, escaped: str) -> str:
        return colour_codes(escaped)

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
                chips.append(card_html(c, note))
            hand = "".join(chips) if chips else "<i>no cards</i>"
            declared = state.declared[i] or "—"
            extra = []
            if i == 1 and state.bonus_points:
                extra.append(f"next-defence bonus {state.bonus_points} (FM-11)")
            if i == 1 and state.prev_points and state.cur.wild_colour:
                extra.append(f"{count(state.prev_points, state.cur.wild_colour + ' Wild Trump point')} (FM-7)")
            drawn = state.cur.drawn[i] + (
                (state.cur.number[i],) if state.cur.plays[i] not in (None, "play") and state.cur.number[i] else ()
            )
            if drawn:
                extra.append("turned up: " + "".join(card_html(c) for c in drawn))
            rows.append(
                f"<tr><td><b>{esc(fairy.name)}</b> ({side})</td><td>{fairy.live} Live, {fairy.kill} Kill</td>"
                f"<td>declared {esc(declared)}</td><td>{hand}</td><td>{'; '.join(extra)}</td></tr>"
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
            words, mix, seconds, reached = found
            self.hint_view.value = hint_table(state, words, mix, seconds, reached)
        elif kind == "error":
            self.hint_view.value = f'<span style="color:#e67700">{esc(found)}</span>'
        else:
            self.hint_view.value = f'<span style="color:#666">{esc(no_decision_text(state))}</span>'

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
            else:  # whether optimal play comes here at all (the same solution, cached)
                result = ("mix", (*found, time.perf_counter() - started, optimal.hint_reached(state)))
        self._hints[state] = result
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        return result

    def _clear_panel(self) -> None:
        self.card_buttons, self.action_buttons, self.best_button = {}, {}, None

    def _decision_widgets(self, state: CombatState) -> list[widgets.Widget]:
        """The deciding fairy's cards to click (Trumps step, Numbered-card step) or decision buttons."""
        step, i = state.phase()
        name = state.names[i]
        legal = state.legal_actions()
        rows: list[widgets.Widget] = []
        if step == "trumps" and not any(a.startswith("points") for a in legal):
            rows.append(
                widgets.HTML(f"{PICKED_STYLE}<b>{esc(name)}</b>: toggle Trumps of one colour, then Place Trumps (FM-4)")
            )
            toggles = []
            for c in state.hands[i]:
                t = widgets.ToggleButton(
                    description=c.code,
                    tooltip=c.name
                    if is_trump(c, state.rules)
                    else f"{c.name}: a Numbered card, played at the next step",
                    disabled=not is_trump(c, state.rules),
                    layout=widgets.Layout(width="5em"),
                    style={"text_color": colour_of(c), "font_weight": "bold"},
                )
                mark_picked(t)  # a picked card is filled and ticked, not the theme's faint grey
                # a refusal (two colours, FM-4) goes once the designer changes the cards picked
                t.observe(lambda _: self.stepper.clear_message(), names="value")
                self.card_buttons[c.code] = t
                toggles.append(t)
            # the action she can take is the primary one: Place Trumps only with Trumps to place (FM-4)
            can_place = any(a != "trumps none" for a in legal)
            place = widgets.Button(
                description="Place Trumps",
                button_style="primary" if can_place else "",
                tooltip="Place them face down" if can_place else f"{name} holds no Trumps to place (FM-4)",
                disabled=not can_place,
            )
            none = widgets.Button(
                description="None",
                button_style="" if can_place else "primary",
                tooltip="Place no Trumps this attack (FM-5)",
            )
            place.on_click(lambda _: self.place_trumps())
            none.on_click(lambda _: self.say_none())
            self.action_buttons = {"place trumps": place, "trumps none": none}
            rows += [widgets.HBox(toggles), widgets.HBox([place, none])]
        elif step == "play":
            placed = state.cur.trumps[i] or ()
            rest = [c for c in state.hands[i] if c not in placed]
            face_down = " — face down: " + "".join(card_html(c) for c in placed) if placed else ""
            rows.append(
                widgets.HTML(
                    f"<b>{esc(name)}</b>: click the Numbered card to play (a Trump only as a Wild Trump, "
                    f"FM-6){face_down}"
                )
            )
            buttons = []
            for c in rest:
                b = widgets.Button(
                    description=c.code,
                    tooltip=f"play the {c.name}"
                    if is_numbered(c, state.rules)
                    else f"play the {c.name} as a Wild Trump",
                    layout=widgets.Layout(width="4.5em"),
                    style={"text_color": colour_of(c), "font_weight": "bold"},
                )
                b.on_click(lambda _, code=c.code: self.play_card(code))
                self.card_buttons[c.code] = b
                buttons.append(b)
            rows.append(widgets.HBox(buttons))
        else:
            best = state.best_action()
            hand = "".join(card_html(c) for c in state.hands[i])
            head = f"<b>{esc(name)}</b>" + (f": hand {hand}" if hand and step == "declare" else "")
            if step == "shift":
                a, d = state.names
                head += (
                    f" moves both Numbered values with the other fairy's cheating Trumps (FM-8): each button says "
                    f"how far {esc(a)}'s value and {esc(d)}'s value move"
                )
            if best is not None:
                head += f" — the referee's best choice is <b>{esc(action_label(state, best))}</b> (highlighted)"
            rows.append(widgets.HTML(head))
            buttons = []
            for action in legal:
                b = widgets.Button(
                    description=action_label(state, action),
                    tooltip=self._explain(state, action),
                    layout=widgets.Layout(width="auto"),
                )
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
        example = load_example(find_example(example))
    return CombatStepper(example, attacker, defender, seed, rules, setup)
