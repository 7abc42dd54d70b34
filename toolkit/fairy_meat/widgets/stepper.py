"""The Fairy Meat combat stepper: setup controls, cards to click, one side's view, examples and Export.

Its parts, one job each: :mod:`.setup_panel` (the controls and the combat they describe),
:mod:`.card_panel` (the cards and decisions to click), :mod:`.hints` (optimal play),
:mod:`.example_files` (where examples are found); this module puts them together with the
generic example mode (:class:`~toolkit.widgets.example_mode.FollowsExample`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import parse_cards
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.fairy_meat.engine import PLAYERS, CombatState, start_combat
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
from toolkit.fairy_meat.widgets.card_panel import CardPanel
from toolkit.fairy_meat.widgets.cards import card_codes, card_html
from toolkit.fairy_meat.widgets.example_files import EXAMPLES_DIR, SETUP_KEYS, find_example
from toolkit.fairy_meat.widgets.hints import HintPanel
from toolkit.fairy_meat.widgets.setup_panel import FIT_BUTTONS, CombatSetup
from toolkit.numbers import count
from toolkit.widgets.common import ERROR, NOTE, OK, esc
from toolkit.widgets.example_mode import FollowsExample

__all__ = ["EXAMPLES_DIR", "find_example", "CombatStepper", "combat_stepper"]


class CombatStepper(CombatSetup, CardPanel, HintPanel, FollowsExample[CombatState]):
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
        unknown = set(options) - SETUP_KEYS
        if unknown:
            raise InvalidSetupError(
                f"unknown setup {', '.join(sorted(unknown))}; combat_stepper takes {', '.join(sorted(SETUP_KEYS))}"
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
            return "The whole combat; it replays to the same log.", OK
        return (
            "The combat so far, an unfinished example (unfinished: true): it replays to the same log and stops "
            f"where the combat stands ({count(len(replayed.results), 'attack')} played).",
            NOTE,
        )

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
            style=FIT_BUTTONS,
        )
        self.hands_view = widgets.HTML()
        self.view.observe(lambda change: self._show_log_to(change["new"]), names="value")
        self._build_example_and_export()
        self._build_hint()

    def _plan_example(self, start: GameState) -> tuple[list[PlannedMove], list[CombatState], str]:
        assert isinstance(start, CombatState) and self.example is not None
        return plan_example(replace(self.example, start=start))

    def _expectation_problems(self) -> list[str]:
        return check_expectations(self.example, self.state)

    def _show_log_to(self, view: str) -> None:
        """One side's view reads the log through her eyes (``Stepper.viewer``): the other
        fairy's hand as she draws it, and Trumps kept hidden, are not shown (FM-5)."""
        if hasattr(self, "stepper"):
            self.stepper.viewer = None if view == "both" else view

    def _show_more(self) -> None:
        self._show_hint()

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
        rules: the rule variants (default: docs/rulings.md's defaults, or the example's).
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
