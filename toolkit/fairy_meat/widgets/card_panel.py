"""The Fairy Meat stepper's decision panel: the deciding fairy's cards to click (Trumps of one
colour to place face down, FM-4; the Numbered card to play, or a Trump as a Wild Trump, FM-6)
and the other decisions as buttons, with why a move is refused."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from toolkit.cards import Card, card_text, cards_text
from toolkit.fairy_meat.deck import is_numbered, is_trump
from toolkit.fairy_meat.engine import CombatState
from toolkit.fairy_meat.legality import playable_cards, trump_sets
from toolkit.fairy_meat.widgets.cards import card_codes, card_html, dress_card_button, legend_html
from toolkit.fairy_meat.widgets.hints import action_label
from toolkit.widgets.common import PICKED_STYLE, esc, mark_picked

__all__ = ["CardPanel"]


class CardPanel:
    """The decision part of :class:`~toolkit.fairy_meat.widgets.stepper.CombatStepper`: its
    card buttons (``card_buttons``), decision buttons (``action_buttons``, ``best_button``)
    and the moves they make through the stepper."""

    def choose(self, action: str) -> None:
        """Take a decision by its action string (``"declare add"``, ``"shift +1 -1"``, ...)."""
        self.stepper.choose(action)

    def toggle(self, code: str) -> None:
        """Toggle a card of the deciding fairy's hand at the Trumps step (as clicking it does)."""
        button = self.card_buttons.get(Card(code).code)
        if not isinstance(button, widgets.ToggleButton) or button.disabled:
            self.stepper.refuse(
                f"{card_text(code)} cannot be toggled now: only Trumps are toggled, at the Trumps step (FM-4)."
            )
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
                    f"{name}'s Trumps {cards_text(chosen)} are of two colours: the Trumps placed from the hand must "
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
            self.stepper.refuse(f"{card_text(card)} {where}: {name} plays one of {cards_text(rest)}.")
            return

        def reason() -> str:
            numbered = [c for c in playable_cards(rest, (), state.rules) if is_numbered(c, state.rules)]
            if is_trump(card, state.rules) and numbered:
                return (
                    f"{name} holds a Numbered card ({cards_text(numbered)}): she must play one. A Trump is played as a "
                    "Wild Trump only by a fairy with no Numbered card (FM-6)."
                )
            return ""

        self._attempt(action, reason)

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
                    tooltip=c.name
                    if is_trump(c, state.rules)
                    else f"{c.name}: a Numbered card, played at the next step",
                    disabled=not is_trump(c, state.rules),
                    layout=widgets.Layout(width="auto", min_width="4.5em"),
                )
                dress_card_button(t, c, state.rules)
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
            rows += [widgets.HTML(legend_html(state.rules)), widgets.HBox(toggles), widgets.HBox([place, none])]
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
                    tooltip=f"play the {c.name}"
                    if is_numbered(c, state.rules)
                    else f"play the {c.name} as a Wild Trump",
                    layout=widgets.Layout(width="auto", min_width="4.5em"),
                )
                dress_card_button(b, c, state.rules)
                b.on_click(lambda _, code=c.code: self.play_card(code))
                self.card_buttons[c.code] = b
                buttons.append(b)
            rows += [widgets.HTML(legend_html(state.rules)), widgets.HBox(buttons)]
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
