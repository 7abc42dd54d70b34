"""The Durak battle stepper: a whole battle card by card, with setup controls, cards to click,
examples to follow and Export (:func:`battle_stepper`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card, card_text, cards_text
from toolkit.durak_battle.clash import ACTIONS, actions_of
from toolkit.durak_battle.engine import SIDES, BattleState, start_battle
from toolkit.durak_battle.notation import (
    Example,
    PlannedMove,
    battle_summary,
    check_expectations,
    load_example,
    outcome_text,
    plan_example,
    replay,
    to_example,
)
from toolkit.durak_battle.position import OPENING
from toolkit.durak_battle.recon import token_advantage
from toolkit.durak_battle.rules import MAX_TOKENS, Army, Rules
from toolkit.durak_battle.widgets.pieces import (
    ACTION_STYLE,
    DICE,
    WIDE,
    as_rules,
    card_action,
    card_html,
    card_label,
    counter_tie_options,
    default_armies,
    hand_order,
    legend_html,
    morale_penalty_label,
    number_controls,
)
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.shipped import shipped_path
from toolkit.whole_numbers import whole_number
from toolkit.widgets.common import ERROR, NOTE, OK, control_grid, control_grid_style, count, esc, fitting_width
from toolkit.widgets.example_mode import FollowsExample
from toolkit.widgets.rules_picker import set_control

__all__ = ["EXAMPLES_DIR", "BattleStepper", "battle_stepper", "find_example", "as_example"]

#: Where the rule-book examples live; :func:`battle_stepper` also looks here for a bare file name.
EXAMPLES_DIR = shipped_path("examples")


def find_example(source: str | Path) -> Path:
    path = Path(source)
    if path.is_file():
        return path
    for candidate in (EXAMPLES_DIR / path, EXAMPLES_DIR / path.name):
        if candidate.is_file():
            return candidate
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("durak_*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the Durak examples in {EXAMPLES_DIR} are: {known}")


def as_example(source: str | Path | Example) -> Example:
    return source if isinstance(source, Example) else load_example(find_example(source))


# -- the stepper ----------------------------------------------------------------------------
class BattleStepper(FollowsExample[BattleState]):
    """A Durak battle, card by card: setup controls, the armies' tokens, the deciding army's
    cards to click, a :class:`Stepper`, an example to follow, and Export. Build it with
    :func:`battle_stepper`.

    Every setup change restarts the stepper (same seed). In example mode the example's
    rolls, cards and moves are replayed from the new setup, so "what if South had 6
    tokens?" is one click away; a move that no longer fits is reported when reached.

    Attributes:
        stepper: the generic :class:`Stepper` playing the battle (its Step, Roll, Back,
            Restart, Seed and typed outcomes work as for any game).
        widget: the whole thing, an ``ipywidgets.VBox``.
        tokens, battle_die, spirit_die, wild_card: the setup controls of each army, by
            side (``"a"``, ``"b"``): IntSliders 1-10 (DB-7), Dropdowns d4-d12 (DB-2,
            DB-8), Checkboxes (a Wild Card rolls a d6 Wild Die too).
        jokers, counter_tie, holder_must_attack, morale_penalty: the variant controls
            (DB-1, DB-5, DB-6, DB-8).
        numbers: controls of the main numeric fields of the rules, by field name
            (``strike_loss``, ``cards_per_token``, ``morale_target``, ``morale_per_token``);
            the other fields (the suits, the answer table) are those of the ``rules``
            given or the example's.
        token_bars, token_labels: each army's tokens as an ``IntProgress`` and a line.
        round_line: the round and what is on the table.
        view: ``"both"`` (designer: both hands) or one army's view (``"a"``, ``"b"``,
            drawn from ``state.observation``); hands_view: the hands, as HTML.
        card_buttons: the deciding army's cards by code, ToggleButtons coloured by suit
            (empty at chance steps).
        joker_buttons: the actions a clicked joker may be played as, by action.
        pass_button, take_button: Pass (DB-6) and Take the strike (DB-4), or None.
        example: the rule-book example followed, or None; next_move_button,
            play_all_button, example_line: its controls; example_picker, load_button:
            load an example file from ``data/examples``.
        export_title, export_button, export_box, export_note: Export.
        setup_line, error_line: the rules in force; why a setup cannot be played.
    """

    _load_hint = "No example is loaded: give battle_stepper(example=...) or use Load."
    _noun = "battle"
    _sides = SIDES
    _state_type = BattleState
    _export_height = "18em"

    def __init__(
        self,
        example: Example | None = None,
        army_a: Army | None = None,
        army_b: Army | None = None,
        seed: int = 0,
        rules: Rules | str | Path | Mapping[str, Any] | None = None,
        max_rounds: int = 50,
    ) -> None:
        rules = as_rules(rules) if rules is not None else None
        if example is not None and (army_a is not None or army_b is not None):
            raise InvalidSetupError("give an example or the armies, not both: the example names its armies")
        if (army_a is None) != (army_b is None):
            raise InvalidSetupError("give both armies (army_a and army_b), or neither")
        whole_number(max_rounds, "max_rounds", 1)
        if example is not None:
            army_a, army_b = example.start.armies
            rules = rules or example.start.rules
            max_rounds = example.start.max_rounds
        elif army_a is None or army_b is None:
            army_a, army_b = default_armies()
        self.example = example
        self._base = (army_a, army_b)
        self._max_rounds = max_rounds
        self._rules_base = rules or Rules()
        self._build_controls(army_a, army_b, self._rules_base)
        self._build_panels()
        self._syncing = False  # a card toggle set by code, not by a click
        self._loading = False  # the controls set from an example being loaded
        self.card_buttons: dict[str, widgets.ToggleButton] = {}
        self.joker_buttons: dict[str, widgets.Button] = {}
        self.pending_joker: str | None = None
        self.pass_button: widgets.Button | None = None
        self.take_button: widgets.Button | None = None
        self.joker_row = widgets.HBox()
        self._start(seed, self._title())
        self.view.observe(lambda change: self._follow_view(change["new"]), names="value")

    def _follow_view(self, view: str) -> None:
        """Show the stepper's log through the eyes of the view's side: one side's view never
        shows the other side's cards in the log (a hand as it is drawn, the initiative card)."""
        viewer = None if view == "both" else view
        if self.stepper.viewer != viewer:
            self.stepper.viewer = viewer
            self.stepper.refuse("")  # redraw the log (no message)

    # -- setup -------------------------------------------------------------------------
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

    # -- moves (what the buttons do) ----------------------------------------------------------
    def roll(self) -> None:
        """Roll the pending chance step with the seed: a Knowledge (Battle) or Spirit roll,
        a whole hand, or the coin of a joker tie (the stepper's Roll)."""
        self.stepper.roll()

    def type_outcome(self, text: str) -> None:
        """Apply a typed outcome: a roll total (``"4"``), a hand (``"10S 7S 6C 9H"``), the
        coin (the army that wins it, ``"North"``) — or a decision (``"attack 7S"``)."""
        state = self.state
        if not state.is_chance_node and not state.is_terminal:
            self.stepper.choose(" ".join(text.split()))
        else:
            self.stepper.type_outcome(text)

    def choose(self, action: str) -> None:
        """Take a decision by its action string (``"attack 7S"``, ``"defence JK1"``, ``"pass"``, ``"take"``)."""
        self.stepper.choose(action)

    def click_card(self, code: str) -> None:
        """Click a card of the deciding army's hand (as toggling its button does): a spade
        attacks, a heart defends, a diamond manoeuvres, a club counterattacks (DB-1); a
        joker asks which action (:attr:`joker_buttons`). A card that cannot be played now
        is refused with the ruling, and nothing changes."""
        try:
            card = Card(code)
        except ToolkitError as exc:
            self.stepper.refuse(str(exc))
            return
        button = self.card_buttons.get(card.code)
        if button is None:
            state = self.state
            if state.is_chance_node or state.is_terminal:
                self.stepper.refuse(f"No army is deciding now: {state.prompt()}")
            else:
                i = SIDES.index(state.current_player)
                hand = cards_text(state.hands[i], "no cards")
                self.stepper.refuse(f"{card_text(card)} is not in {state.names[i]}'s hand ({hand}).")
            return
        if button.value:  # already pressed (a joker waiting for its action): press again
            self._set_toggle(card.code, False)
        button.value = True

    def choose_joker(self, action: str) -> None:
        """Play the joker clicked last as ``action`` (``"attack"``, ``"defence"``,
        ``"manoeuvre"``, ``"counter"``, DB-1); refused with the ruling if not allowed now."""
        if self.pending_joker is None:
            self.stepper.refuse("Click a joker first, then choose its action (DB-1).")
            return
        state = self.state
        code = self.pending_joker
        if action not in ACTIONS:
            self.stepper.refuse(
                f"{action!r} is not an action: a joker is attack, defence, manoeuvre or counter (DB-1)."
            )
            return
        if state.stage == "attack" and action != "attack":
            name = state.names[state.holder or 0]
            self.stepper.refuse(
                f"{name} holds the initiative: a joker played now attacks (DB-1, DB-6); {action} answers an attack."
            )
            return
        self._play(f"{action} {code}", code)

    def pass_turn(self) -> None:
        """Pass the attack turn (DB-6): refused while the side the initiative passed to
        holds a spade (or with ``holder_must_attack``)."""
        self.stepper.choose("pass")

    def take_strike(self) -> None:
        """Decline to answer and take the strike: ``rules.strike_loss`` tokens, 4 by default (DB-4)."""
        self.stepper.choose("take")

    def load(self, example: str | Path | Example) -> None:
        """Load a rule-book example (a path, a file name in ``data/examples`` or an
        :class:`Example`): its armies, rules and moves replace the current setup, and the
        stepper restarts at its start."""
        try:
            loaded = as_example(example)
        except ToolkitError as exc:
            self.stepper.refuse(str(exc))
            return
        self.example = loaded
        self._base = loaded.start.armies
        self._rules_base = loaded.start.rules
        self._max_rounds = loaded.start.max_rounds
        self._loading = True
        try:
            self._set_controls(loaded.start.armies, loaded.start.rules)
        finally:
            self._loading = False
        self.export_title.value = loaded.title
        self.stepper.title.value = f"<b>{esc(loaded.title)}</b>"
        self.widget.children = self._layout().children
        self._own_start = None  # replanned below from the loaded example's own setup
        self._changed()

    def export(self) -> str:
        """Fill the export box with the battle so far as a rule-book example and return it
        (the YAML that ``toolkit replay`` and :func:`~toolkit.durak_battle.notation.load_example`
        read), and say whether it replays to the same log."""
        return self._export("A Durak battle")

    def _example_text(self, state: BattleState, title: str) -> str:
        return to_example(state, title)

    def _export_verdict(self, state: BattleState, text: str) -> tuple[str, str]:
        """The export note: whether the file replays to the same log, expectations met."""
        try:
            again = load_example(text)
            replayed = replay(again)
            same = replayed.log() == state.log()
            problems = check_expectations(again, replayed)
            error = "" if same and not problems else "; ".join(problems) or "the replayed log differs"
        except ToolkitError as exc:
            error = str(exc)
        if error:
            return f"Replaying this file stops: {error}", ERROR
        if state.is_terminal:
            return (
                "The whole battle; it replays to the same log. Save it as data/examples/durak_<name>.yaml and "
                "run `toolkit replay <file>`.",
                OK,
            )
        return (
            "The battle so far, an unfinished example (unfinished: true): it replays to the same log and "
            "stops where the battle stands.",
            NOTE,
        )

    # -- building ---------------------------------------------------------------------------
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
        self.example_picker = widgets.Dropdown(options=files, description="Example file", style=WIDE)
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

    # -- reacting ------------------------------------------------------------------------------
    def _plan_example(self, start: GameState) -> tuple[list[PlannedMove], list[BattleState], str]:
        assert isinstance(start, BattleState) and self.example is not None
        return plan_example(self.example, start)

    def _expectation_problems(self) -> list[str]:
        return check_expectations(self.example, self.state)

    def _move_label(self, move: PlannedMove) -> str:
        return f"{move.label} (line {move.line})"

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

    def _show_more(self) -> None:
        self._show_tokens()

    def _show_tokens(self) -> None:
        state = self.state
        start = self.stepper.start_state
        assert isinstance(start, BattleState)
        for i, side in enumerate(SIDES):
            army, first = state.armies[i], start.armies[i]
            bar = self.token_bars[side]
            bar.max = first.tokens
            bar.value = army.tokens
            share = army.tokens / first.tokens if first.tokens else 0
            bar.bar_style = "success" if share > 0.6 else "warning" if share > 0.3 else "danger"
            bits = [f"<b>{esc(army.name)}</b>: {army.tokens} of {count(first.tokens, 'token')}"]
            if state.lost_clash[i]:
                bits.append(f"lost {state.lost_clash[i]} this clash")
            if state.is_terminal:
                if state.winner == i:
                    bits.append(f"<b>holds the field</b> ({esc(outcome_text(state))})")
                elif state.winner is not None:
                    bits.append(f"<b>{esc(state.outcome.partition(' ')[2])}</b>")
            self.token_labels[side].value = " · ".join(bits)
        bits = [f"<b>Round {state.round_no}</b>"]
        if state.table is not None and state.attacking is not None:
            table = card_html(state.table, state.rules)
            bits.append(f"on the table: {table} ({esc(state.names[state.attacking])}'s attack)")
        elif state.holder is not None and state.stage == "attack":
            bits.append(f"{esc(state.names[state.holder])} holds the initiative (DB-6)")
        if state.is_terminal:
            bits.append(esc(battle_summary(state)))
        self.round_line.value = " · ".join(bits)

    def _hand_rows(self, state: BattleState) -> list[str]:
        """Each army's row: leader, tokens, hand (by action, high cards first)."""
        rows = []
        rules = state.rules
        for i in range(len(SIDES)):
            cards = sorted(state.hands[i], key=lambda c: hand_order(c, rules))
            hand = "".join(card_html(c, rules) for c in cards) or "<i>no cards</i>"
            leader = state.armies[i].leader
            rows.append(
                f"<tr><td><b>{esc(state.names[i])}</b></td><td>{esc(leader.name)}</td>"
                f"<td>{count(state.armies[i].tokens, 'token')}</td><td>{hand}</td></tr>"
            )
        return rows

    # -- the card panel -----------------------------------------------------------------------
    def _clear_panel(self) -> None:
        self.card_buttons, self.joker_buttons, self.pending_joker = {}, {}, None
        self.pass_button = self.take_button = None
        self.joker_row = widgets.HBox()

    def _decision_widgets(self, state: BattleState) -> list[widgets.Widget]:
        """The deciding army's cards as toggles coloured by action, the joker's row, Pass or Take."""
        i = SIDES.index(state.current_player)
        name = esc(state.names[i])
        legal = state.legal_actions()
        rules = state.rules
        spade = rules.suit_word("attack")
        if state.stage == "attack":
            must = (
                f" — {name} opens the clash: the first attack is compulsory (DB-3)"
                if state.forced == OPENING
                else f" — {name} must attack while she holds a {spade} (DB-6)"
            )
            head = f"<b>{name}</b> holds the initiative: click a {spade} (or a joker) to attack" + (
                ", or pass (DB-6)" if "pass" in legal else must
            )
        else:
            table = card_html(state.table, rules) if state.table is not None else ""
            head = (
                f"<b>{name}</b> answers {table}: click a {rules.suit_word('defence')} (defence), a "
                f"{rules.suit_word('manoeuvre')} (manoeuvre), a {rules.suit_word('counter')} "
                "(counterattack) or a joker, or take the strike (DB-1, DB-4)"
            )
        toggles = []
        for card in sorted(state.hands[i], key=lambda c: hand_order(c, rules)):
            action = card_action(card, rules)
            doing = "any action (click, then choose)" if card.is_joker else action
            toggle = widgets.ToggleButton(
                description=card_label(card),
                tooltip=f"{card.name}: {doing} (DB-1)",
                button_style=ACTION_STYLE.get(action, ""),
                layout=widgets.Layout(width="auto", min_width="4.5em"),
                style={"font_weight": "bold"},
            )
            toggle.observe(lambda change, code=card.code: self._on_toggle(code, change), names="value")
            self.card_buttons[card.code] = toggle
            toggles.append(toggle)
        actions: list[widgets.Widget] = []
        if state.stage == "attack":
            self.pass_button = widgets.Button(
                description="Pass",
                tooltip="Do not attack: the initiative passes (DB-6)"
                if "pass" in legal
                else "Not allowed: the opening attack is compulsory (DB-3)"
                if state.forced == OPENING
                else f"Not allowed: she must attack while she holds a {spade} (DB-6)",
                disabled="pass" not in legal,
            )
            self.pass_button.on_click(lambda _: self.pass_turn())
            actions.append(self.pass_button)
        else:
            self.take_button = widgets.Button(
                description="Take the strike",
                tooltip=f"Decline to answer: lose {count(rules.strike_loss, 'token')}, the attacker none (DB-4)",
                button_style="danger",
            )
            self.take_button.on_click(lambda _: self.take_strike())
            actions.append(self.take_button)
        return [
            widgets.VBox(
                [
                    widgets.HTML(head),
                    widgets.HTML(legend_html(rules)),
                    widgets.HBox(toggles, layout=widgets.Layout(flex_flow="row wrap")),
                    self.joker_row,
                    widgets.HBox(actions),
                ]
            )
        ]

    def _set_toggle(self, code: str, value: bool) -> None:
        button = self.card_buttons.get(code)
        if button is not None and button.value != value:
            self._syncing = True
            try:
                button.value = value
            finally:
                self._syncing = False

    def _on_toggle(self, code: str, change: Mapping[str, Any]) -> None:
        if self._syncing:
            return
        if not change["new"]:
            if self.pending_joker == code:  # the joker pressed again: take back the choice
                self.pending_joker = None
                self.joker_row.children = ()
            return
        state = self.state
        card = Card(code)
        for other in self.card_buttons:
            if other != code:
                self._set_toggle(other, False)
        i = SIDES.index(state.current_player)
        name = state.names[i]
        if card.is_joker:
            self._ask_joker(state, code)
            return
        self.pending_joker, self.joker_row.children = None, ()
        action = card_action(card, state.rules)
        if state.stage == "attack" and action != "attack":
            self._set_toggle(code, False)
            self.stepper.refuse(
                f"{name} holds the initiative: she attacks with a {state.rules.suit_word('attack')} or a joker, "
                "or passes (DB-6). The "
                f"{card.name} is a {action} card: it answers an attack (DB-1)."
            )
            return
        self._play(f"{action} {code}", code)

    def _ask_joker(self, state: BattleState, code: str) -> None:
        """Show the actions a joker may be played as now (DB-1); the others are disabled
        with the reason in their tooltip."""
        self.pending_joker = code
        self.joker_buttons = {}
        legal = state.legal_actions()
        for action in actions_of(Card(code)):
            allowed = f"{action} {code}" in legal
            why = (
                f"play the joker as {action}"
                if allowed
                else "an attack cannot be answered with an attack (DB-1)"
                if state.stage == "answer"
                else "a joker played on an attack turn attacks (DB-6)"
            )
            button = widgets.Button(
                description=f"{card_label(Card(code))} as {action}",
                tooltip=why,
                button_style=ACTION_STYLE[action] if allowed else "",
                disabled=not allowed,
            )
            button.on_click(lambda _, a=action: self.choose_joker(a))
            self.joker_buttons[action] = button
        head = widgets.HTML("<i>Play the joker as:</i>&nbsp;")
        self.joker_row.children = (head, *self.joker_buttons.values())

    def _play(self, action: str, code: str) -> None:
        before = self.stepper.state
        self.stepper.choose(action)
        if self.stepper.state is before and self.pending_joker != code:
            self._set_toggle(code, False)  # refused: nothing changed, the card springs back
        # a refused joker stays pressed with its choices shown, to choose another action


def battle_stepper(
    example: str | Path | Example | None = None,
    army_a: Army | None = None,
    army_b: Army | None = None,
    seed: int = 0,
    rules: Rules | str | Path | Mapping[str, Any] | None = None,
    max_rounds: int = 50,
) -> BattleStepper:
    """Return a stepper for a Durak mass battle, with setup controls, clickable cards and Export.

    Args:
        example: a rule-book example (a path, a file name in ``data/examples``, or a
            loaded :class:`~toolkit.durak_battle.notation.Example`): the stepper starts at
            its start, with its armies and rules, and "Play the example's next move" /
            "Play all" play its rolls, cards and moves.
        army_a, army_b: the armies (both or neither; :func:`default_armies` by default).
            Not with ``example``.
        seed: the seed of Roll (Knowledge (Battle) and Spirit rolls, deals, the coin).
        rules: the rules (default: docs/rulings.md's, or the example's): a ``Rules``, a
            mapping of fields, or a house-rules file (a path or the name of a file in
            ``data/rules/durak-battle``, :func:`toolkit.house_rules.load_rules`). The
            controls start from them.
        max_rounds: the battle stops, undecided, after this many rounds.

    Returns:
        A :class:`BattleStepper`; display it (or its ``.widget``) in a notebook.

    Raises:
        NotationError: an example file that cannot be read.
        InvalidSetupError: only one army, armies with an example, or a setup the rules
            do not allow (DB-7).
    """
    if isinstance(example, (str, Path)):
        example = as_example(example)
    return BattleStepper(example, army_a, army_b, seed, rules, max_rounds)
