"""Cards and rule controls as the Fairy Meat widgets draw them: cards drawn as everywhere
(:mod:`toolkit.pictures`), Trumps marked by what they do (FM-1), the variant dropdowns."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from toolkit.cards import Card, card_text, cards_text
from toolkit.fairy_meat.deck import is_trump
from toolkit.fairy_meat.rules import Rules, Weapon
from toolkit.numbers import count
from toolkit.pictures import Picture, paint_codes
from toolkit.widgets.common import esc, fitting_width

__all__ = [
    "MAX_POINTS",
    "WIDE",
    "GREY",
    "TRUMP_ACCENT",
    "TRUMP_FILL",
    "NUMBERED_FILL",
    "colour_of",
    "card_html",
    "TRUMP_CLASS",
    "NUMBERED_CLASS",
    "CARD_BUTTON_STYLE",
    "dress_card_button",
    "legend_html",
    "colour_codes",
    "card_codes",
    "cards_text",
    "variant_controls",
    "numeric_controls",
    "wrestling_hand_control",
    "weapon_label",
]


_RED, _BLACK = "#c92a2a", "#212529"


MAX_POINTS = 10


WIDE = {"description_width": "initial"}


GREY = "#adb5bd"


#: The outline and fill of a Trump's button (FM-1: J Q K A by default, ``Rules.trump_ranks``);
#: a Numbered card's button is grey. The suit's red or black stays the ink, since the Trumps
#: placed together must be of one colour (FM-4).
TRUMP_ACCENT, TRUMP_FILL, NUMBERED_FILL = "#f08c00", "#ffe8cc", "#f1f3f5"

_DEFAULT = Rules()


def colour_of(card: Card) -> str:
    """The ink of a card: red for hearts and diamonds, black for spades and clubs."""
    return _RED if card.colour == "red" else _BLACK


def card_html(card: Card, note: str = "") -> str:
    """A card drawn as everywhere (:meth:`toolkit.pictures.Picture.html`); ``note`` (face
    down, played) in its tooltip and drawn dashed."""
    return Picture.card(card).html(note, set_aside=bool(note))


#: The CSS classes of a Trump's and a Numbered card's button, and the page style that fills
#: them (in :func:`legend_html`, shown beside the buttons); a picked card's fill wins.
TRUMP_CLASS, NUMBERED_CLASS = "toolkit-card-trump", "toolkit-card-numbered"
CARD_BUTTON_STYLE = (
    f"<style>.jupyter-button.{TRUMP_CLASS}{{background:{TRUMP_FILL};box-shadow:inset 0 0 0 2px {TRUMP_ACCENT}}}"
    f".jupyter-button.{NUMBERED_CLASS}{{background:{NUMBERED_FILL}}}</style>"
)


def dress_card_button(button: widgets.Button | widgets.ToggleButton, card: Card, rules: Rules | None = None) -> None:
    """Draw a card's button as everywhere: its words (``K♠``, :func:`toolkit.cards.card_text`)
    in its suit's ink, filled by what it does (a Trump or a Numbered card, FM-1), as the Durak
    hands are coloured by action. The page needs :data:`CARD_BUTTON_STYLE` once."""
    button.description = card_text(card)
    button.style.text_color = colour_of(card)
    button.style.font_weight = "bold"
    button.add_class(TRUMP_CLASS if is_trump(card, rules or _DEFAULT) else NUMBERED_CLASS)


def legend_html(rules: Rules | None = None) -> str:
    """What the colours of the card buttons mean (FM-1, FM-4, FM-6)."""
    rules = rules or _DEFAULT
    chip = "border-radius:3px;padding:0 5px;margin-right:6px"
    trump = f"background:{TRUMP_FILL};box-shadow:inset 0 0 0 2px {TRUMP_ACCENT};{chip}"
    return (
        f'{CARD_BUTTON_STYLE}<span style="font-size:90%"><span style="background:{NUMBERED_FILL};{chip}">'
        f'Numbered card: played to attack or defend</span><span style="{trump}">'
        f"Trump ({esc(' '.join(rules.trump_ranks))}): placed face down, or played as a Wild Trump</span>"
        "(FM-1, FM-4, FM-6)</span>"
    )


def colour_codes(escaped: str) -> str:
    """Draw the card codes in already-escaped text (a side's view, a hint's choices) as
    pictures (:func:`toolkit.pictures.paint_codes`)."""
    return paint_codes(escaped)


def card_codes(cards: Sequence[Card]) -> str:
    """Cards as codes, the way an action is typed (``trumps KS QC``)."""
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
    """Dropdowns for the named variants of one attack in docs/rulings.md (FM-10, FM-5, FM-7,
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
