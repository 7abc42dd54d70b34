"""Cards and rule controls as the Fairy Meat widgets draw them: coloured card codes, the variant dropdowns."""

from __future__ import annotations

import re
from collections.abc import Sequence

import ipywidgets as widgets

from toolkit.cards import Card
from toolkit.fairy_meat.rules import Rules, Weapon
from toolkit.numbers import count
from toolkit.widgets.common import esc, fitting_width

__all__ = [
    "MAX_POINTS",
    "WIDE",
    "GREY",
    "colour_of",
    "card_html",
    "colour_codes",
    "card_codes",
    "variant_controls",
    "numeric_controls",
    "wrestling_hand_control",
    "weapon_label",
]


_RED, _BLACK = "#c92a2a", "#212529"


MAX_POINTS = 10


_CARD_CODE = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b")


WIDE = {"description_width": "initial"}


GREY = "#adb5bd"


def colour_of(card: Card) -> str:
    return _RED if card.colour == "red" else _BLACK


def card_html(card: Card, note: str = "") -> str:
    """A card code as a coloured chip (red for hearts and diamonds, black for spades and clubs)."""
    style = (
        f"color:{colour_of(card)};border:1px solid #adb5bd;border-radius:4px;padding:0 4px;"
        "margin-right:4px;font-family:monospace;font-weight:bold"
    )
    if note:
        style += ";background:#e9ecef;text-decoration:underline dotted"
    title = f"{card.name}{' — ' + note if note else ''}"
    return f'<span style="{style}" title="{esc(title)}">{esc(card.code)}</span>'


def colour_codes(escaped: str) -> str:
    """Colour the card codes in already-escaped text (the observation lines)."""

    def paint(m: re.Match[str]) -> str:
        colour = _RED if m.group(2) in "HD" else _BLACK
        return f'<b style="color:{colour};font-family:monospace">{m.group(0)}</b>'

    return _CARD_CODE.sub(paint, escaped)


def card_codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _fitted_dropdown(options: list[tuple[str, str]], value: str, description: str) -> widgets.Dropdown:
    """A Dropdown wide enough for its description and its longest option
    (a cut-off label hides what the control chooses)."""
    return widgets.Dropdown(
        options=options,
        value=value,
        description=description,
        style=WIDE,
        layout=widgets.Layout(width=fitting_width(description, options)),
    )


def variant_controls(rules: Rules) -> dict[str, widgets.Dropdown]:
    """Dropdowns for the named variants of one attack in RULINGS.md (FM-10, FM-5, FM-7,
    FM-12), set from ``rules``; the Wrestling hand (FM-2/FM-14) is
    :func:`wrestling_hand_control`."""
    return {
        "damage": _fitted_dropdown(
            options=[("halved: 1 per point (default)", "halved"), ("damage table (p.11)", "table")],
            value=rules.damage,
            description="Damage (FM-10)",
        ),
        "none_reveal": _fitted_dropdown(
            options=[("all or nothing (default)", "all_or_nothing"), ("any subset", "subset")],
            value=rules.none_reveal,
            description="None-rule reveal (FM-5)",
        ),
        "none_means": _fitted_dropdown(
            options=[("no Trump of any kind (default)", "no_trumps"), ("no face-down Trumps", "no_face_down")],
            value=rules.none_means,
            description="Who said None (FM-5)",
        ),
        "undefended": _fitted_dropdown(
            options=[("blind draw (default)", "blind_draw"), ("attacker unopposed", "unopposed")],
            value=rules.undefended,
            description="Undefended (FM-7)",
        ),
        "nasty_hit": _fitted_dropdown(
            options=[("the damaged fairy (default)", "damaged"), ("the loser", "loser")],
            value=rules.nasty_hit,
            description="Nasty Hit to (FM-12)",
        ),
    }


def numeric_controls(rules: Rules) -> dict[str, widgets.IntSlider]:
    """Sliders for the main numbers of one attack (the house rules a designer tries), set from
    ``rules``, over the values the Rules accept (``Rules.field_bounds``): the points divisor
    (FM-10: 2, or 1 for the full difference) and what a matching Trump is worth (FM-1/FM-8)."""
    return {
        "points_divisor": widgets.IntSlider(
            value=rules.points_divisor,
            min=Rules.field_bounds("points_divisor")[0],
            max=Rules.field_bounds("points_divisor")[1],
            description="Points divisor (FM-10)",
            style=WIDE,
        ),
        "trump_value": widgets.IntSlider(
            value=rules.trump_value,
            min=Rules.field_bounds("trump_value")[0],
            max=Rules.field_bounds("trump_value")[1],
            description="Trump worth (FM-1)",
            style=WIDE,
        ),
    }


def wrestling_hand_control(rules: Rules) -> widgets.Dropdown:
    """The Dropdown for the Wrestling hand variant (FM-2/FM-14), set from ``rules``."""
    return _fitted_dropdown(
        options=[("by Kill points, as usual (default)", "as_usual"), ("Kill points only", "kill_only")],
        value=rules.wrestling_hand,
        description="Wrestling hand (FM-2)",
    )


def weapon_label(w: Weapon) -> str:
    """The weapon as a dropdown option: its name, the cards it adds, its target modifier and
    attacks (FM-2, FM-13)."""
    cards = "card" if abs(w.attack_bonus) == 1 else "cards"
    return f"{w.name} ({w.attack_bonus:+d} {cards}, {w.defence_modifier:+d} to target, {count(w.attacks, 'attack')})"
