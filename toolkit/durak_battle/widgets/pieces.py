"""Pieces the Durak widgets share: cards drawn as everywhere (:mod:`toolkit.pictures`), their
buttons coloured by action (DB-1), the default armies, control styles."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.cards import SUIT_SYMBOLS, Card, card_text
from toolkit.dice import TRAIT_DICE
from toolkit.durak_battle.clash import ACTIONS, card_value
from toolkit.durak_battle.rules import Army, Leader, Rules
from toolkit.house_rules import load_rules
from toolkit.numbers import count
from toolkit.pictures import Picture, paint_codes

__all__ = [
    "SUIT_SYMBOLS",
    "ACTION_STYLE",
    "ACTION_COLOUR",
    "ACTION_ORDER",
    "RED",
    "BLACK",
    "WIDE",
    "DICE",
    "default_armies",
    "card_label",
    "card_action",
    "card_html",
    "colour_codes",
    "hand_order",
    "legend_html",
    "NUMBER_FIELDS",
    "number_controls",
    "counter_tie_options",
    "morale_penalty_label",
    "as_rules",
]

#: The button colour of each action (DB-1): the card buttons, the joker's choices, the legend.
ACTION_STYLE = {"attack": "danger", "defence": "info", "manoeuvre": "warning", "counter": "success"}
ACTION_COLOUR = {"attack": "#d9534f", "defence": "#5bc0de", "manoeuvre": "#f0ad4e", "counter": "#5cb85c"}
ACTION_ORDER = {"attack": 0, "defence": 1, "manoeuvre": 2, "counter": 3}
RED, BLACK = "#c92a2a", "#212529"
WIDE = {"description_width": "initial"}
DICE = [(f"d{d}", d) for d in TRAIT_DICE]


def default_armies() -> tuple[Army, Army]:
    """The armies a stepper or explorer starts with when given none: North (8 tokens,
    Knowledge (Battle) d8, Spirit d6) against South (8 tokens, d6, d8), Wild Card leaders."""
    return (
        Army("North", 8, Leader("Voivode Dobrynya", battle_die=8, spirit_die=6)),
        Army("South", 8, Leader("Khan Tugor", battle_die=6, spirit_die=8)),
    )


# -- small helpers ----------------------------------------------------------------------
def card_label(card: Card) -> str:
    """A card as a button shows it, as everywhere: ``7♠``, ``Q♥``, ``Joker 1``
    (:func:`toolkit.cards.card_text`)."""
    return card_text(card)


_DEFAULT = Rules()


def card_action(card: Card, rules: Rules | None = None) -> str:
    """The action a card's suit stands for under ``rules`` (DB-1, ``Rules.suits``),
    ``"joker"`` for a joker."""
    return "joker" if card.is_joker else (rules or _DEFAULT).tables.action_of_suit[card.suit or "S"]


def card_html(card: Card, rules: Rules | None = None) -> str:
    """A card drawn as everywhere (:meth:`toolkit.pictures.Picture.html`), its action under
    ``rules`` in the tooltip (DB-1)."""
    action = "any action" if card.is_joker else card_action(card, rules)
    return Picture.card(card).html(f"{action} (DB-1)")


def colour_codes(escaped: str) -> str:
    """Draw the card codes of already-escaped text as pictures (the one-army views,
    :func:`toolkit.pictures.paint_codes`)."""
    return paint_codes(escaped)


def hand_order(card: Card, rules: Rules | None = None) -> tuple[int, int]:
    """Attack cards (spades by default) first, then defence, manoeuvre and counter cards
    (hearts, diamonds, clubs), jokers last; high cards first."""
    return (ACTION_ORDER.get(card_action(card, rules), 4), -card_value(card))


def legend_html(rules: Rules | None = None) -> str:
    """The suit of each action as coloured chips (DB-1, under ``rules``)."""
    rules = rules or _DEFAULT
    chips = [
        f'<span style="background:{ACTION_COLOUR[a]};color:white;border-radius:3px;padding:0 5px;margin-right:6px">'
        f"{SUIT_SYMBOLS[rules.suit_of(a)]} {a}</span>"
        for a in ACTIONS
    ]
    return (
        '<span style="font-size:90%">'
        + "".join(chips)
        + '<span style="border:1px solid #adb5bd;border-radius:3px;padding:0 5px">🃏 joker: any action, '
        "highest card</span> (DB-1)</span>"
    )


#: The main numeric fields of the rules the stepper and the explorers offer as controls
#: (field: description; the bounds are the rules', ``Rules.field_bounds``); every other
#: field comes from the ``rules`` given.
NUMBER_FIELDS: dict[str, str] = {
    "strike_loss": "Strike costs (DB-4)",
    "cards_per_token": "Cards per token ahead (DB-2)",
    "morale_target": "Morale needs (DB-8)",
    "morale_per_token": "Morale − per token lost (DB-8)",
}


def number_controls(rules: Rules, fields: tuple[str, ...] = tuple(NUMBER_FIELDS)) -> dict[str, widgets.BoundedIntText]:
    """Controls for the main numeric fields of the rules (:data:`NUMBER_FIELDS`), by field
    name, over the values the rules accept (``Rules.field_bounds``)."""
    out = {}
    for name in fields:
        low, high = Rules.field_bounds(name)
        out[name] = widgets.BoundedIntText(
            value=getattr(rules, name),
            min=low,
            max=high,
            description=NUMBER_FIELDS[name],
            style=WIDE,
            layout=widgets.Layout(width="22em"),  # the label at its full width, room for the number
            tooltip=Rules.field_info()[name]["help"],
        )
    return out


def counter_tie_options(rules: Rules) -> list[tuple[str, str]]:
    """Return the Equal counterattack choices (DB-5) as (label, value): no loss, or the
    loss of a lower counter (``rules.counter_lower_loss`` tokens, DB-1), stated from the rules."""
    return [("no loss (default)", "no_loss"), (f"loses {count(rules.counter_lower_loss, 'token')}", "loses")]


def morale_penalty_label(rules: Rules) -> str:
    """Return the label of the Morale penalty choice (DB-8): the Spirit penalty per token
    lost, ``rules.morale_per_token``, stated from the rules (``"Morale −1 per token (DB-8)"``)."""
    return f"Morale −{rules.morale_per_token} per token (DB-8)"


def as_rules(rules: Rules | str | Path | Mapping[str, Any] | None) -> Rules:
    """The rules a widget is given: ``None`` (the defaults), a ``Rules``, a mapping of
    fields, or a house-rules file (a path, or the name of a file in ``data/rules/durak-battle``).

    Raises:
        InvalidSetupError: a source of the wrong kind, a missing file, or rules not valid.
    """
    return load_rules("durak-battle", rules)
