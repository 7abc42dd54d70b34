"""The Durak battle stepper: a whole battle card by card, with setup controls, cards to click,
examples to follow and Export (:func:`battle_stepper`).

Its parts, one job each: :mod:`.setup_panel` (the controls, the layout and the battle they
describe), :mod:`.card_panel` (the cards and decisions to click), :mod:`.example_files`
(where examples are found), :mod:`.pieces` (cards, dice and controls as drawn); this module
puts them together with the generic example mode
(:class:`~toolkit.widgets.example_mode.FollowsExample`) and draws the armies' tokens and hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.durak_battle.engine import SIDES, BattleState
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
from toolkit.durak_battle.rules import Army, Rules
from toolkit.durak_battle.widgets.card_panel import CardPanel
from toolkit.durak_battle.widgets.example_files import EXAMPLES_DIR, as_example, find_example
from toolkit.durak_battle.widgets.pieces import as_rules, card_html, default_armies, hand_order
from toolkit.durak_battle.widgets.setup_panel import BattleSetup
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.whole_numbers import whole_number
from toolkit.widgets.common import ERROR, NOTE, OK, count, esc
from toolkit.widgets.example_mode import FollowsExample

__all__ = ["EXAMPLES_DIR", "BattleStepper", "battle_stepper", "find_example", "as_example"]


# -- the stepper ----------------------------------------------------------------------------
class BattleStepper(BattleSetup, CardPanel, FollowsExample[BattleState]):
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

    # -- moves (what the buttons do; the cards' own: the card panel) ---------------------------
    def roll(self) -> None:
        """Roll the pending chance step with the seed: a Knowledge (Battle) or Spirit roll,
        a whole hand, or the coin of a joker tie (the stepper's Roll)."""
        self.stepper.roll()

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
            return "The whole battle; it replays to the same log.", OK
        return (
            "The battle so far, an unfinished example (unfinished: true): it replays to the same log and "
            "stops where the battle stands.",
            NOTE,
        )

    # -- reacting ------------------------------------------------------------------------------
    def _plan_example(self, start: GameState) -> tuple[list[PlannedMove], list[BattleState], str]:
        assert isinstance(start, BattleState) and self.example is not None
        return plan_example(self.example, start)

    def _expectation_problems(self) -> list[str]:
        return check_expectations(self.example, self.state)

    def _move_label(self, move: PlannedMove) -> str:
        return f"{move.label} (line {move.line})"

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
