"""The Durak mass battle in JupyterLab: a battle stepper with cards to click, and an odds explorer.

:func:`battle_stepper` plays a whole battle (DB-1..DB-9) on the generic
:class:`~toolkit.widgets.Stepper`: setup controls on top (tokens, the leaders' dice, Wild
Card, the rule variants — every change restarts), the tokens of each army as a bar, the
deciding army's hand as toggle buttons coloured by suit (♠ attack, ♥ defence,
♦ manoeuvre, ♣ counter; a joker asks which action), **Pass** and **Take the strike**,
the stepper's Roll (Knowledge (Battle), the deal, a joker-tie coin, Spirit — with the
seed) or typed outcomes, Back, the narrated log, and **Export** of the battle as a
rule-book example (the YAML ``toolkit replay`` plays back). Given an example file it
starts at the example's start and plays its moves one at a time.

:func:`odds_explorer` charts how a whole battle ends (who wins, in which round) on
:func:`toolkit.durak_battle.odds.battle_outcome`, and :func:`round_explorer` one round's
hand sizes, initiative and morale, exactly, as the armies, leaders and variants change.

>>> st = battle_stepper(example="durak_counterattack_chain.yaml")
>>> st.play_all()
>>> st.state.outcome, st.token_bars["a"].value
('a retreats', 1)
>>> st = battle_stepper(seed=3)
>>> st.type_outcome("4"); st.type_outcome("4")
>>> st.type_outcome("10S 7S 6C 9H"); st.type_outcome("QC 4C 8S 5H")
>>> st.click_card("7S")
>>> st.click_card("8S")  # a spade cannot answer an attack
>>> "DB-1" in st.stepper.error
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card
from toolkit.dice import TRAIT_DICE
from toolkit.durak_battle.clash import ACTIONS, SUIT_ACTION, actions_of, card_value
from toolkit.durak_battle.engine import SIDES, BattleState, start_battle
from toolkit.durak_battle.notation import (
    Example,
    PlannedMove,
    TracedBattleState,
    battle_summary,
    check_expectations,
    load_example,
    outcome_text,
    plan_example,
    replay,
    to_example,
    traced,
)
from toolkit.durak_battle.rules import MAX_TOKENS, Army, Leader, Rules
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, NotationError, ToolkitError
from toolkit.prob import Distribution, format_probability
from toolkit.widgets import OddsExplorer
from toolkit.widgets.common import ERROR, OK
from toolkit.widgets.common import esc as _esc
from toolkit.widgets.common import field as _field
from toolkit.widgets.example_mode import FollowsExample

__all__ = [
    "BattleStepper",
    "battle_stepper",
    "odds_explorer",
    "EXAMPLES_DIR",
    "SUIT_SYMBOLS",
    "default_armies",
    "round_explorer",
    "LONGEST_SHOWN",
    "PRECISIONS",
    "EXPLORER_POLICIES",
]

#: Where the rule-book examples live; :func:`battle_stepper` also looks here for a bare file name.
EXAMPLES_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "examples"
#: How a suit is drawn on a card button.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: The button colour of each action (DB-1): the card buttons, the joker's choices, the legend.
_ACTION_STYLE = {"attack": "danger", "defence": "info", "manoeuvre": "warning", "counter": "success"}
_ACTION_COLOUR = {"attack": "#d9534f", "defence": "#5bc0de", "manoeuvre": "#f0ad4e", "counter": "#5cb85c"}
_ACTION_ORDER = {"attack": 0, "defence": 1, "manoeuvre": 2, "counter": 3}
_RED, _BLACK = "#c92a2a", "#212529"
_WIDE = {"description_width": "initial"}
_CARD_CODE = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b|\bJK[12]\b")
_DICE = [(f"d{d}", d) for d in TRAIT_DICE]


def default_armies() -> tuple[Army, Army]:
    """The armies a stepper or explorer starts with when given none: North (8 tokens,
    Knowledge (Battle) d8, Spirit d6) against South (8 tokens, d6, d8), Wild Card leaders."""
    return (
        Army("North", 8, Leader("Voivode Dobrynya", battle_die=8, spirit_die=6)),
        Army("South", 8, Leader("Khan Tugor", battle_die=6, spirit_die=8)),
    )


# -- small helpers ----------------------------------------------------------------------
def _label(card: Card) -> str:
    """A card as a button shows it: ``7♠``, ``Q♥``, ``🃏1``."""
    if card.is_joker:
        return "🃏" + card.code[-1]
    return card.rank + SUIT_SYMBOLS[card.suit or "S"]


def _card_action(card: Card) -> str:
    """The action a card's suit stands for (DB-1), ``"joker"`` for a joker."""
    return "joker" if card.is_joker else SUIT_ACTION[card.suit or "S"]


def _card_html(card: Card) -> str:
    """A card as a coloured chip, red for hearts and diamonds (its action in the tooltip)."""
    colour = _RED if card.colour == "red" else _BLACK
    action = "any action" if card.is_joker else _card_action(card)
    style = (
        f"color:{colour};border:1px solid #adb5bd;border-radius:4px;padding:0 4px;margin-right:4px;"
        "font-family:monospace;font-weight:bold"
    )
    return f'<span style="{style}" title="{_esc(card.name)}: {_esc(action)} (DB-1)">{_esc(_label(card))}</span>'


def _colour_codes(escaped: str) -> str:
    """Draw the card codes of already-escaped text as chips (the one-army views)."""
    return _CARD_CODE.sub(lambda m: _card_html(Card(m.group(0))), escaped)


def _hand_order(card: Card) -> tuple[int, int]:
    """Spades (attack) first, then hearts, diamonds, clubs, jokers last; high cards first."""
    return (_ACTION_ORDER.get(_card_action(card), 4), -card_value(card))


def _legend() -> str:
    chips = [
        f'<span style="background:{_ACTION_COLOUR[a]};color:white;border-radius:3px;padding:0 5px;margin-right:6px">'
        f"{symbol} {a}</span>"
        for symbol, a in zip(("♠", "♥", "♦", "♣"), ACTIONS, strict=True)
    ]
    return (
        '<span style="font-size:90%">'
        + "".join(chips)
        + '<span style="border:1px solid #adb5bd;border-radius:3px;padding:0 5px">🃏 joker: any action, '
        "highest card</span> (DB-1)</span>"
    )


def _find_example(source: str | Path) -> Path:
    path = Path(source)
    if path.is_file():
        return path
    for candidate in (EXAMPLES_DIR / path, EXAMPLES_DIR / path.name):
        if candidate.is_file():
            return candidate
    known = ", ".join(sorted(p.name for p in EXAMPLES_DIR.glob("durak_*.yaml")))
    raise NotationError(f"{str(source)!r} is not an example file; the Durak examples in {EXAMPLES_DIR} are: {known}")


def _as_example(source: str | Path | Example) -> Example:
    return source if isinstance(source, Example) else load_example(_find_example(source))


# -- the stepper ----------------------------------------------------------------------------
class BattleStepper(FollowsExample[TracedBattleState]):
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
    _state_type = TracedBattleState
    _export_height = "18em"

    def __init__(
        self,
        example: Example | None = None,
        army_a: Army | None = None,
        army_b: Army | None = None,
        seed: int = 0,
        rules: Rules | None = None,
        max_rounds: int = 50,
    ) -> None:
        if example is not None and (army_a is not None or army_b is not None):
            raise InvalidSetupError("give an example or the armies, not both: the example names its armies")
        if (army_a is None) != (army_b is None):
            raise InvalidSetupError("give both armies (army_a and army_b), or neither")
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise InvalidSetupError(f"max_rounds must be a whole number of 1 or more, got {max_rounds!r}")
        if example is not None:
            army_a, army_b = example.start.armies
            rules = rules or example.start.rules
            max_rounds = example.start.max_rounds
        elif army_a is None or army_b is None:
            army_a, army_b = default_armies()
        self.example = example
        self._base = (army_a, army_b)
        self._max_rounds = max_rounds
        self._build_controls(army_a, army_b, rules or Rules())
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
        """The rules the variant controls select (RULINGS.md defaults and variants)."""
        return Rules(
            jokers=self.jokers.value,
            counter_tie=self.counter_tie.value,
            holder_must_attack=self.holder_must_attack.value,
            morale_penalty=self.morale_penalty.value,
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

    def setup(self) -> TracedBattleState:
        """Return the start of the battle the controls describe, recording its moves (for Export).

        Raises:
            InvalidSetupError: a setup the rules do not allow (DB-7).
        """
        army_a, army_b = self.armies
        return traced(start_battle(army_a, army_b, self.rules, max_rounds=self._max_rounds))

    # -- moves (what the buttons do) ----------------------------------------------------------
    def roll(self) -> None:
        """Roll the pending chance step with the seed: a Knowledge (Battle) or Spirit roll,
        a whole hand, or the coin of a joker tie (the stepper's Roll)."""
        self.stepper.roll()

    def type_outcome(self, text: str) -> None:
        """Apply a typed outcome: a roll total (``"4"``), a hand (``"10S 7S 6C 9H"``), the
        coin (``"a"``/``"b"``) — or a decision (``"attack 7S"``)."""
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
                hand = " ".join(c.code for c in state.hands[i]) or "no cards"
                self.stepper.refuse(f"{card.code} is not in {state.names[i]}'s hand ({hand}).")
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
        """Decline to answer and take the strike: 4 tokens (DB-4)."""
        self.stepper.choose("take")

    def load(self, example: str | Path | Example) -> None:
        """Load a rule-book example (a path, a file name in ``data/examples`` or an
        :class:`Example`): its armies, rules and moves replace the current setup, and the
        stepper restarts at its start."""
        try:
            loaded = _as_example(example)
        except ToolkitError as exc:
            self.stepper.refuse(str(exc))
            return
        self.example = loaded
        self._base = loaded.start.armies
        self._max_rounds = loaded.start.max_rounds
        self._loading = True
        try:
            self._set_controls(loaded.start.armies, loaded.start.rules)
        finally:
            self._loading = False
        self.export_title.value = loaded.title
        self.stepper.title.value = f"<b>{_esc(loaded.title)}</b>"
        self.widget.children = self._layout().children
        self._changed()

    def export(self) -> str:
        """Fill the export box with the battle so far as a rule-book example and return it
        (the YAML that ``toolkit replay`` and :func:`~toolkit.durak_battle.notation.load_example`
        read), and say whether it replays to the same log."""
        return self._export("A Durak battle")

    def _example_text(self, state: TracedBattleState, title: str) -> str:
        return to_example(state, title)

    def _export_verdict(self, state: TracedBattleState, text: str) -> tuple[str, str]:
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
        return "The battle so far (unfinished: true); it replays to the same log.", OK

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
            self.tokens[side] = widgets.IntSlider(value=army.tokens, min=1, max=MAX_TOKENS, description="", style=_WIDE)
            self.battle_die[side] = widgets.Dropdown(
                options=_DICE, value=army.leader.battle_die, description="", style=_WIDE
            )
            self.spirit_die[side] = widgets.Dropdown(
                options=_DICE, value=army.leader.spirit_die, description="", style=_WIDE
            )
            self.wild_card[side] = widgets.Checkbox(value=army.leader.wild_card, description="", indent=False)
        self.jokers = widgets.Checkbox(value=rules.jokers, description="DB-1: two jokers (54 cards)", indent=False)
        self.counter_tie = widgets.Dropdown(
            options=[("no loss (default)", "no_loss"), ("loses 1 token", "loses")],
            value=rules.counter_tie,
            description="Equal counterattack (DB-5)",
            style=_WIDE,
        )
        self.holder_must_attack = widgets.Checkbox(
            value=rules.holder_must_attack,
            description="DB-6: the initiative holder must attack while holding a spade",
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.morale_penalty = widgets.Dropdown(
            options=[("lost this clash (default)", "clash"), ("lost in the whole battle", "battle")],
            value=rules.morale_penalty,
            description="Morale −1 per token (DB-8)",
            style=_WIDE,
        )
        self.setup_line = widgets.HTML()
        self.error_line = widgets.HTML()
        self._describe_controls()

    def _describe_controls(self) -> None:
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
            options=[("both hands (designer)", "both"), ("side a's view", "a"), ("side b's view", "b")],
            value="both",
            description="Show",
        )
        self.hands_view = widgets.HTML()
        self._build_example_and_export()
        self.export_title.value = self._title()
        files = sorted(p.name for p in EXAMPLES_DIR.glob("durak_*.yaml"))
        self.example_picker = widgets.Dropdown(options=files, description="Example file", style=_WIDE)
        self.load_button = widgets.Button(description="Load", tooltip="Start over from this example")
        self.load_button.on_click(lambda _: self.load(self.example_picker.value) if self.example_picker.value else None)

    def _layout(self) -> widgets.VBox:
        armies = [
            widgets.HBox([self.tokens[s], self.battle_die[s], self.spirit_die[s], self.wild_card[s]]) for s in SIDES
        ]
        bars = [widgets.HBox([self.token_bars[s], self.token_labels[s]]) for s in SIDES]
        return widgets.VBox(
            [
                *armies,
                widgets.HBox([self.jokers, self.counter_tie, self.morale_penalty]),
                self.holder_must_attack,
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
        return [*per_side, self.jokers, self.counter_tie, self.holder_must_attack, self.morale_penalty]

    # -- reacting ------------------------------------------------------------------------------
    def _plan_example(self, start: GameState) -> tuple[list[PlannedMove], list[TracedBattleState], str]:
        assert isinstance(start, TracedBattleState) and self.example is not None
        return plan_example(self.example, start)

    def _expectation_problems(self) -> list[str]:
        return check_expectations(self.example, self.state)

    def _move_label(self, move: PlannedMove) -> str:
        return f"{move.label} (line {move.line})"

    def _show_setup(self) -> None:
        a, b = self.armies
        extra = max(0, a.tokens - b.tokens), max(0, b.tokens - a.tokens)
        more = [f"{army.name} draws +{n} card(s) for outnumbering" for army, n in zip((a, b), extra, strict=True) if n]
        text = f"{a.name} {a.tokens} tokens against {b.name} {b.tokens}"
        text += (" — " + ", ".join(more) + " (DB-2)") if more else " (DB-7)"
        text += f"; {self.rules.variant_name()}; at most {self._max_rounds} round(s)."
        self.setup_line.value = _esc(text)

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
            bits = [f"<b>{_esc(army.name)}</b> ({side}): {army.tokens} of {first.tokens} tokens"]
            if state.lost_clash[i]:
                bits.append(f"lost {state.lost_clash[i]} this clash")
            if state.is_terminal:
                if state.winner == i:
                    bits.append(f"<b>holds the field</b> ({_esc(outcome_text(state))})")
                elif state.winner is not None:
                    bits.append(f"<b>{_esc(state.outcome.partition(' ')[2])}</b>")
            self.token_labels[side].value = " · ".join(bits)
        bits = [f"<b>Round {state.round_no}</b>"]
        if state.table is not None and state.attacking is not None:
            bits.append(f"on the table: {_card_html(state.table)} ({_esc(state.names[state.attacking])}'s attack)")
        elif state.holder is not None and state.stage == "attack":
            bits.append(f"{_esc(state.names[state.holder])} holds the initiative (DB-6)")
        if state.is_terminal:
            bits.append(_esc(battle_summary(state)))
        self.round_line.value = " · ".join(bits)

    def _paint_codes(self, escaped: str) -> str:
        return _colour_codes(escaped)

    def _hand_rows(self, state: BattleState) -> list[str]:
        """Each army's row: leader, tokens, hand (by action, high cards first)."""
        rows = []
        for i, side in enumerate(SIDES):
            hand = "".join(_card_html(c) for c in sorted(state.hands[i], key=_hand_order)) or "<i>no cards</i>"
            leader = state.armies[i].leader
            rows.append(
                f"<tr><td><b>{_esc(state.names[i])}</b> ({side})</td><td>{_esc(leader.name)}</td>"
                f"<td>{state.armies[i].tokens} tokens</td><td>{hand}</td></tr>"
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
        name = _esc(state.names[i])
        legal = state.legal_actions()
        if state.stage == "attack":
            head = f"<b>{name}</b> holds the initiative: click a spade (or a joker) to attack" + (
                ", or pass (DB-6)" if "pass" in legal else f" — {name} must attack while she holds a spade (DB-6)"
            )
        else:
            table = _card_html(state.table) if state.table is not None else ""
            head = (
                f"<b>{name}</b> answers {table}: click a heart (defence), a diamond (manoeuvre), a club "
                "(counterattack) or a joker, or take the strike (DB-1, DB-4)"
            )
        toggles = []
        for card in sorted(state.hands[i], key=_hand_order):
            action = _card_action(card)
            doing = "any action (click, then choose)" if card.is_joker else action
            toggle = widgets.ToggleButton(
                description=_label(card),
                tooltip=f"{card.name}: {doing} (DB-1)",
                button_style=_ACTION_STYLE.get(action, ""),
                layout=widgets.Layout(width="4.5em"),
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
                else "Not allowed: she must attack while she holds a spade (DB-6)",
                disabled="pass" not in legal,
            )
            self.pass_button.on_click(lambda _: self.pass_turn())
            actions.append(self.pass_button)
        else:
            self.take_button = widgets.Button(
                description="Take the strike",
                tooltip="Decline to answer: lose 4 tokens, the attacker none (DB-4)",
                button_style="danger",
            )
            self.take_button.on_click(lambda _: self.take_strike())
            actions.append(self.take_button)
        return [
            widgets.VBox(
                [
                    widgets.HTML(head),
                    widgets.HTML(_legend()),
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
        action = _card_action(card)
        if state.stage == "attack" and action != "attack":
            self._set_toggle(code, False)
            self.stepper.refuse(
                f"{name} holds the initiative: she attacks with a spade or a joker, or passes (DB-6). The "
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
                description=f"{_label(Card(code))} as {action}",
                tooltip=why,
                button_style=_ACTION_STYLE[action] if allowed else "",
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
    rules: Rules | None = None,
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
        rules: the rule variants (default: RULINGS.md's defaults, or the example's).
        max_rounds: the battle stops, undecided, after this many rounds.

    Returns:
        A :class:`BattleStepper`; display it (or its ``.widget``) in a notebook.

    Raises:
        NotationError: an example file that cannot be read.
        InvalidSetupError: only one army, armies with an example, or a setup the rules
            do not allow (DB-7).
    """
    if isinstance(example, (str, Path)):
        example = _as_example(example)
    return BattleStepper(example, army_a, army_b, seed, rules, max_rounds)


# -- the odds explorers ---------------------------------------------------------------------------
#: The clash odds the battle explorer asks :func:`toolkit.durak_battle.odds.battle_outcome`
#: for: ``"quick"`` samples 100 clashes per pair of hand sizes (about a second a change),
#: ``"careful"`` is exact where small and samples 1,000 clashes above (up to a minute).
PRECISIONS: dict[str, dict[str, Any]] = {
    "quick": {"method": "monte_carlo", "trials": 100},
    "careful": {"method": "auto", "trials": 1_000},
}
#: The leaders' policies the battle explorer offers (both armies play the same one).
EXPLORER_POLICIES: tuple[str, ...] = ("greedy", "random")


def _winner(outcome: Any) -> int | None:
    """The winning side (0 = a, 1 = b) of a battle outcome: a ``winner`` of ``"a"``/``"b"``
    (or 0/1), or an engine outcome string (``"b retreats"``, ``"a destroyed"``); None
    when undecided."""
    if isinstance(outcome, str):
        side, _, rest = outcome.partition(" ")
        return 1 - SIDES.index(side) if side in SIDES and rest else None
    winner = _field(outcome, "winner")
    if winner in SIDES:
        return SIDES.index(winner)
    if winner in (0, 1) and not isinstance(winner, bool):
        return int(winner)
    return None


#: The battle explorer's chart gathers battles of this many rounds or more in one bar.
LONGEST_SHOWN = 5


def _rounds(outcome: Any) -> int:
    return max(1, int(_field(outcome, "rounds", 1) or 1))


def _battle_score(outcome: Any) -> int:
    """The round a battle ended in (up to :data:`LONGEST_SHOWN`), positive when side a won,
    negative when side b won, 0 when undecided (an outcome without ``rounds``: round 1)."""
    side = _winner(outcome)
    if side is None:
        return 0
    rounds = min(_rounds(outcome), LONGEST_SHOWN)
    return rounds if side == 0 else -rounds


class _BattleExplorer(OddsExplorer):
    """The odds explorer with the battle's own labels: "North wins in round 2", and
    "... in round 5 or later" for the last bar (it gathers the longer battles)."""

    def __init__(self, names: tuple[str, str], *args: Any, **kwargs: Any) -> None:
        self.names = names
        super().__init__(*args, **kwargs)

    def label(self, k: int, view: str = "exactly") -> str:
        if k == 0:
            return "undecided"
        name, r = self.names[0 if k > 0 else 1], abs(k)
        if view == "at least" or r == LONGEST_SHOWN:
            return f"{name} wins in round {r} or later" if r > 1 else f"{name} wins"
        return f"{name} wins in round {r}"


def _mean(x: Fraction) -> str:
    """An exact mean as ``7/3 ≈ 2.33`` (just ``≈ 2.33`` when the fraction is too long to read)."""
    if x.denominator == 1:
        return str(x)
    return f"{x} ≈ {float(x):.2f}" if len(str(x)) <= 21 else f"≈ {float(x):.2f}"


def _army_controls(army_a: Army, army_b: Army) -> dict[str, widgets.ValueWidget]:
    controls: dict[str, widgets.ValueWidget] = {}
    for side, army in zip(SIDES, (army_a, army_b), strict=True):
        controls[f"tokens_{side}"] = widgets.IntSlider(
            value=army.tokens, min=1, max=MAX_TOKENS, description=f"{army.name}: tokens", style=_WIDE
        )
        controls[f"battle_die_{side}"] = widgets.Dropdown(
            options=_DICE, value=army.leader.battle_die, description="Knowledge (Battle)", style=_WIDE
        )
        controls[f"spirit_die_{side}"] = widgets.Dropdown(
            options=_DICE, value=army.leader.spirit_die, description="Spirit", style=_WIDE
        )
        controls[f"wild_card_{side}"] = widgets.Checkbox(
            value=army.leader.wild_card, description=f"{army.name}'s leader is a Wild Card", indent=False
        )
    return controls


def _variant_controls(rules: Rules) -> dict[str, widgets.ValueWidget]:
    return {
        "jokers": widgets.Checkbox(value=rules.jokers, description="DB-1: two jokers", indent=False),
        "counter_tie": widgets.Dropdown(
            options=[("no loss (default)", "no_loss"), ("loses 1 token", "loses")],
            value=rules.counter_tie,
            description="Equal counterattack (DB-5)",
            style=_WIDE,
        ),
        "holder_must_attack": widgets.Checkbox(
            value=rules.holder_must_attack, description="DB-6: holder must attack", indent=False
        ),
        "morale_penalty": widgets.Dropdown(
            options=[("this clash (default)", "clash"), ("whole battle", "battle")],
            value=rules.morale_penalty,
            description="Morale penalty (DB-8)",
            style=_WIDE,
        ),
    }


def _rules_from(values: Mapping[str, Any]) -> Rules:
    return Rules(
        jokers=values["jokers"],
        counter_tie=values["counter_tie"],
        holder_must_attack=values["holder_must_attack"],
        morale_penalty=values["morale_penalty"],
    )


def _armies_from(base: tuple[Army, Army], values: Mapping[str, Any]) -> tuple[Army, Army]:
    out = []
    for i, side in enumerate(SIDES):
        leader = replace(
            base[i].leader,
            battle_die=values[f"battle_die_{side}"],
            spirit_die=values[f"spirit_die_{side}"],
            wild_card=values[f"wild_card_{side}"],
        )
        out.append(Army(base[i].name, values[f"tokens_{side}"], leader))
    return out[0], out[1]


def _check_pair(army_a: Army | None, army_b: Army | None) -> tuple[Army, Army]:
    if (army_a is None) != (army_b is None):
        raise InvalidSetupError("give both armies (army_a and army_b), or neither")
    if army_a is None or army_b is None:
        return default_armies()
    for army in (army_a, army_b):
        if not isinstance(army, Army):
            raise InvalidSetupError(f"an army must be an Army (name, tokens, Leader), got {army!r}")
    return army_a, army_b


def _battle_odds(
    army_a: Army, army_b: Army, rules: Rules, policy: str = "greedy", precision: str = "quick", max_rounds: int = 50
) -> Any:
    """The default calculator: :func:`toolkit.durak_battle.odds.battle_outcome` for both
    armies playing ``policy``, with the clash odds of :data:`PRECISIONS`."""
    try:
        from toolkit.durak_battle.odds import battle_outcome
    except ImportError as exc:  # pragma: no cover - written alongside these widgets
        raise InvalidSetupError(
            "toolkit.durak_battle.odds.battle_outcome is not available: pass compute=... to odds_explorer"
        ) from exc
    return battle_outcome(
        army_a, army_b, rules, policies=(policy, policy), max_rounds=max_rounds, **PRECISIONS[precision]
    )


def odds_explorer(
    army_a: Army | None = None,
    army_b: Army | None = None,
    rules: Rules | None = None,
    view: str = "exactly",
    compute: Callable[..., Any] | None = None,
    policy: str = "greedy",
    precision: str = "quick",
    max_rounds: int = 50,
) -> OddsExplorer:
    """Return an explorer of how a whole battle ends, recomputed as the armies (tokens
    1-10), the leaders' dice (Knowledge (Battle) and Spirit, d4-d12), Wild Card, the
    variants (DB-1, DB-5, DB-6, DB-8), the leaders' policy and the precision change.

    The chart puts side a's wins on the right and side b's on the left, by the round the
    battle ends in (DB-7 destruction or a DB-8 retreat; the last bar gathers round
    :data:`LONGEST_SHOWN` and later); the middle is undecided after ``max_rounds``. The
    summary gives P(each army wins), how (retreat or destroyed), P(undecided), the
    expected length, and where the numbers come from: the exact
    Markov chain over rounds of :func:`~toolkit.durak_battle.odds.battle_outcome`, on
    clash odds that are Monte Carlo estimates for the larger hands (then approximate).

    Args:
        army_a, army_b: the starting armies (both or neither: :func:`default_armies`);
            their names, leaders' names and flat modifiers are kept.
        policy: how both leaders play, ``"greedy"`` or ``"random"`` (:mod:`.policies`).
        precision: ``"quick"`` or ``"careful"`` (:data:`PRECISIONS`).
        compute: the calculator, called as ``compute(army_a, army_b, rules, policy=...,
            precision=..., max_rounds=...)`` and returning a
            :class:`~toolkit.prob.Distribution` of outcomes with ``winner`` (``"a"``,
            ``"b"`` or None), ``rounds`` and ``how`` — a
            :class:`~toolkit.durak_battle.odds.BattleEnd` — or an object holding one as
            ``.distribution`` (:class:`~toolkit.durak_battle.odds.BattleOdds`, whose
            ``note`` is shown). Default: ``battle_outcome``.

    Raises:
        InvalidSetupError: only one army, an unknown policy or precision, or a starting
            setup the calculator refuses.
    """
    army_a, army_b = _check_pair(army_a, army_b)
    rules = rules or Rules()
    if policy not in EXPLORER_POLICIES:
        raise InvalidSetupError(
            f"policy {policy!r} is not offered: use one of {', '.join(map(repr, EXPLORER_POLICIES))}"
        )
    if precision not in PRECISIONS:
        raise InvalidSetupError(f"precision {precision!r}: use one of {', '.join(map(repr, PRECISIONS))}")
    calculator = compute or _battle_odds
    base = (army_a, army_b)
    names = (army_a.name, army_b.name)
    controls = {
        **_army_controls(army_a, army_b),
        **_variant_controls(rules),
        "policy": widgets.ToggleButtons(options=list(EXPLORER_POLICIES), value=policy, description="Leaders play"),
        "precision": widgets.ToggleButtons(
            options=[("quick", "quick"), ("careful", "careful")],
            value=precision,
            description="Clash odds",
            tooltips=[
                "Monte Carlo: 100 clashes per pair of hand sizes (about a second)",
                "exact where small, 1,000 clashes per pair above (up to a minute)",
            ],
        ),
    }
    notes = {"note": ""}

    def explore(**values: Any) -> Distribution[Any]:
        a, b = _armies_from(base, values)
        result = calculator(
            a, b, _rules_from(values), policy=values["policy"], precision=values["precision"], max_rounds=max_rounds
        )
        notes["note"] = str(getattr(result, "note", "") or "")
        return result if isinstance(result, Distribution) else result.distribution

    def summary(d: Distribution[Any], values: Mapping[str, Any]) -> list[str]:
        lines = []
        for i in (0, 1):
            won = d.probability(lambda o, i=i: _winner(o) == i)
            how = []
            for h, word in (("retreat", "by retreat"), ("destroyed", "by destruction")):
                p = d.probability(lambda o, i=i, h=h: _winner(o) == i and _field(o, "how") == h)
                if p:
                    how.append(f"{word} {format_probability(p)}")
            lines.append(f"P({names[i]} wins) = {format_probability(won)}" + (f" ({', '.join(how)})" if how else ""))
        undecided = d.probability(lambda o: _winner(o) is None)
        if undecided:
            lines.append(f"P(undecided after {max_rounds} rounds) = {format_probability(undecided)}")
        lines.append(f"expected length {_mean(d.mean(_rounds))} round(s)")
        if notes["note"]:
            lines.append(notes["note"])
        return lines

    return _BattleExplorer(
        names,
        controls,
        explore,
        _battle_score,
        positive=f"{names[0]} wins",
        negative=f"{names[1]} wins",
        zero="undecided",
        summary=summary,
        view=view,
        title=f"Durak battle: how {names[0]} against {names[1]} ends",
    )


def _hand_sizes(a: Army, b: Army) -> Distribution[tuple[int, int]]:
    """The joint distribution of the two hand sizes of a round (DB-2): independent
    Knowledge (Battle) rolls, +1 card per token of advantage."""
    from toolkit.durak_battle.odds import hand_size_distribution

    sizes = [
        hand_size_distribution(
            army.leader.battle_die,
            wild_die=army.leader.wild_card,
            modifier=army.leader.battle_modifier,
            token_advantage=max(0, army.tokens - other.tokens),
        )
        for army, other in ((a, b), (b, a))
    ]
    return sizes[0].combine(sizes[1], lambda x, y: (x, y))


def round_explorer(
    army_a: Army | None = None,
    army_b: Army | None = None,
    rules: Rules | None = None,
    view: str = "exactly",
    losses: tuple[int, ...] = (0, 2, 4),
) -> OddsExplorer:
    """Return an explorer of one round's reconnaissance, initiative and morale, exact and
    instant, as the armies' tokens, the leaders' dice, Wild Card and the jokers change.

    The chart is the card advantage: side a's hand size minus side b's (DB-2: the
    Knowledge (Battle) roll without explosions, +1 card per token of advantage). The
    summary gives the expected hand sizes, who attacks first averaged over the deals
    (DB-3, :func:`~toolkit.durak_battle.odds.initiative`), P(no clash), and each army's
    chance to stay after losing each number of tokens in ``losses`` (DB-8,
    :func:`~toolkit.durak_battle.odds.morale_pass_probability`).

    Raises:
        InvalidSetupError: only one army, or ``losses`` not whole numbers of 0 or more.
    """
    army_a, army_b = _check_pair(army_a, army_b)
    rules = rules or Rules()
    if not losses or any(isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in losses):
        raise InvalidSetupError(f"losses must list whole numbers of tokens of 0 or more, got {losses!r}")
    base = (army_a, army_b)
    names = (army_a.name, army_b.name)
    controls = {**_army_controls(army_a, army_b), "jokers": _variant_controls(rules)["jokers"]}

    def explore(**values: Any) -> Distribution[tuple[int, int]]:
        return _hand_sizes(*_armies_from(base, values))

    def summary(d: Distribution[tuple[int, int]], values: Mapping[str, Any]) -> list[str]:
        from toolkit.durak_battle.odds import initiative, morale_pass_probability

        chosen = replace(rules, jokers=values["jokers"])
        first: dict[str | None, Fraction] = {"a": Fraction(0), "b": Fraction(0), None: Fraction(0)}
        for (na, nb), p in d.items():
            for who, q in initiative(na, nb, chosen).items():
                first[who] += p * q
        mean_a, mean_b = _mean(d.mean(lambda o: o[0])), _mean(d.mean(lambda o: o[1]))
        lines = [
            f"expected cards: {names[0]} {mean_a}, {names[1]} {mean_b} (DB-2)",
            f"P({names[0]} attacks first) = {format_probability(first['a'])}",
            f"P({names[1]} attacks first) = {format_probability(first['b'])}",
            f"P(no clash: no attack card) = {format_probability(first[None])} (DB-3)",
        ]
        for army in _armies_from(base, values):
            ld = army.leader
            chances = [morale_pass_probability(ld.spirit_die, ld.wild_card, k, ld.spirit_modifier) for k in losses]
            stays = [f"{k} lost {format_probability(p)}" for k, p in zip(losses, chances, strict=True)]
            lines.append(f"{army.name} stays (DB-8): {', '.join(stays)}")
        return lines

    return OddsExplorer(
        controls,
        explore,
        lambda pair: pair[0] - pair[1],
        positive=f"more card(s) for {names[0]}",
        negative=f"more card(s) for {names[1]}",
        zero="as many cards each",
        summary=summary,
        view=view,
        title=f"Durak battle, one round: {names[0]} against {names[1]}",
    )
