"""The Durak battle stepper's cards to click: the deciding army's hand as toggles coloured
by action, a joker's choice of action, Pass and Take the strike, and the moves they make
through the stepper (DB-1, DB-4, DB-6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card, card_text, cards_text
from toolkit.durak_battle.clash import ACTIONS, actions_of
from toolkit.durak_battle.engine import SIDES, BattleState
from toolkit.durak_battle.position import OPENING
from toolkit.durak_battle.widgets.pieces import (
    ACTION_STYLE,
    card_action,
    card_html,
    card_label,
    hand_order,
    legend_html,
)
from toolkit.errors import ToolkitError
from toolkit.widgets.common import count, esc

__all__ = ["CardPanel"]


class CardPanel:
    """The decision part of :class:`~toolkit.durak_battle.widgets.stepper.BattleStepper`: its
    card buttons (``card_buttons``), a joker's action buttons (``joker_buttons``), Pass and
    Take the strike (``pass_button``, ``take_button``), and the moves they make through the
    stepper."""

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
