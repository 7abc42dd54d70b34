"""The Fairy Meat odds explorers: one attack's exact outcome, and the make-up of a combat hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from toolkit.cards import Card
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.legality import trump_sets_by_type
from toolkit.fairy_meat.odds import deal_averaged_odds, hand_composition
from toolkit.fairy_meat.policies import POLICIES as _POLICY_FUNCTIONS
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.widgets.cards import WIDE, numeric_controls, variant_controls
from toolkit.house_rules import load_rules, rebuilt
from toolkit.numbers import count
from toolkit.odds_result import Odds, average_text, chance_text
from toolkit.prob import Distribution
from toolkit.question import Question, headline, headline_of
from toolkit.whole_numbers import whole_number
from toolkit.widgets import OddsExplorer
from toolkit.widgets.common import field as read_field
from toolkit.widgets.rules_picker import controls_follow_picks

__all__ = ["NOT_COUNTED", "POLICIES", "odds_explorer", "can_place_trumps", "hand_composition_explorer"]


#: Toggle buttons as wide as their labels: a cut-off label hides what the button does.
_FIT_BUTTONS = {"description_width": "initial", "button_width": "auto"}

#: The policies the odds explorer offers for each fairy (by name, :mod:`toolkit.fairy_meat.policies`).
POLICIES: tuple[str, ...] = tuple(_POLICY_FUNCTIONS)


#: The rules fields one attack's odds do not depend on, with why: the explorer's sliders
#: set both hand sizes, so the FM-2 terms that make a hand size do not enter (a picked
#: house-rules file that changes only these says so).
NOT_COUNTED: dict[str, str] = {
    name: "the sliders set both hand sizes directly, so the FM-2 hand-size terms do not enter; "
    "the combat stepper deals by them"
    for name in ("attacker_bonus", "order_card_bonus", "flutter_penalty", "wrestling_hand")
}


#: The rules fields the odds explorer has a control for (its variants, FM-5, FM-7, FM-10,
#: FM-12, and its numbers, FM-1, FM-10): the picked rules with these set are the rules in force.
_FIELD_CONTROLS = ("damage", "none_reveal", "none_means", "undefended", "nasty_hit", "points_divisor", "trump_value")


def _winner(outcome: Any) -> str:
    """``"attacker"``, ``"defender"`` or ``"draw"`` (an AttackOutcome says "draw", an
    AttackResult None, FM-9)."""
    return read_field(outcome, "winner") or "draw"


def _score(outcome: Any) -> int:
    """Damage to the defender when the attacker wins (FM-10), minus the points the
    defender scores when she wins (FM-11), 0 for a draw (FM-9)."""
    winner = _winner(outcome)
    if winner == "attacker":
        return int(read_field(outcome, "damage", 0))
    if winner == "defender":
        return -int(read_field(outcome, "points", 0))
    return 0


def _attack_summary(d: Distribution[Any], result: Any = None) -> list[str]:
    """The summary lines, every number read from the result's own exactness and intervals
    (:func:`toolkit.odds_result.chance_text`, :func:`~toolkit.odds_result.average_text`):
    exact, or an estimate with its ± (never a fraction of the trials); how they were
    obtained is the headline above them."""
    shown = result if isinstance(result, Odds) else d

    def p(test: Callable[[Any], bool]) -> str:
        return chance_text(shown, test)

    def damage(o: Any) -> int:
        return int(read_field(o, "damage", 0)) if _winner(o) == "attacker" else 0

    def points(o: Any) -> int:
        return int(read_field(o, "points", 0)) if _winner(o) == "defender" else 0

    lines = [
        f"P(attacker wins) = {p(lambda o: _winner(o) == 'attacker')}",
        f"P(draw) = {p(lambda o: _winner(o) == 'draw')}",
        f"P(defender wins) = {p(lambda o: _winner(o) == 'defender')}",
        f"expected damage {average_text(shown, damage)}",
        f"expected defender points {average_text(shown, points)}",
        f"P(Nasty Hit) = {p(lambda o: bool(read_field(o, 'nasty_hit', False)))}",
    ]
    return lines


def _deal_averaged(trials: int) -> Callable[..., Any]:
    def compute(a: int, d: int, policies: tuple[str, str], rules: Rules) -> Any:
        return deal_averaged_odds(a, d, policies, rules, method="auto", trials=trials)

    return compute


def odds_explorer(
    attacker_cards: int = 5,
    defender_cards: int = 2,
    policies: tuple[str, str] = ("greedy", "greedy"),
    rules: Any = None,
    view: str = "exactly",
    trials: int = 2_000,
    compute: Callable[..., Any] | None = None,
) -> OddsExplorer:
    """Return an explorer of one attack's outcome averaged over every deal of the two hands.

    Controls: hand sizes (attacker 1-8, defender 0-6 cards, FM-2), each fairy's policy
    (``"random"``: every legal choice equally likely; ``"greedy"``: go for the extreme,
    :mod:`toolkit.fairy_meat.policies`) and the variants (FM-5, FM-7, FM-10, FM-12). The
    chart puts damage to the defender on the right (FM-10) and the points the defender
    scores on the left (FM-11); the summary gives P(attacker wins), P(draw), P(defender
    wins), the expected damage and P(Nasty Hit) (FM-12), and says how they were found.

    The default calculator is :func:`toolkit.fairy_meat.odds.deal_averaged_odds` with
    ``method="auto"``: exact where the count is small enough (the greedy policies at
    every size here), else ``trials`` dealt attacks by Monte Carlo (the random policies
    at most sizes; 2,000 trials take about 2 s, and the summary gives the 95% interval).

    A house-rules picker above the controls ("Rules:", to try house rules) offers the default rules
    and every ``data/rules/fairy-meat/*.yaml``: picking one sets the controls from it, and
    the controls then change the picked rules field by field.

    Args:
        rules: the rules to start with (a house-rules :class:`~toolkit.fairy_meat.Rules`,
            a file path, a shipped name or a mapping; the picker shows it): the controls
            start from it and change its variants (FM-5, FM-7, FM-10, FM-12), points
            divisor (FM-10) and Trump worth (FM-1); every other field (the deck, the
            colour rule, the damage table, ...) holds as given.
        compute: another calculator, called as ``compute(attacker_cards, defender_cards,
            policies=(attacker's, defender's), rules=Rules(...))``, returning a
            :class:`~toolkit.prob.Distribution` of outcomes with ``winner``, ``points``,
            ``damage`` and ``nasty_hit`` — or a result holding one as ``.distribution``.

    Returns:
        An :class:`~toolkit.widgets.OddsExplorer` (``.distribution``, ``.table``,
        ``.summary_text`` and its controls by name).

    Raises:
        InvalidSetupError: hand sizes out of range or an unknown policy.
    """
    given, rules = rules, load_rules("fairy-meat", rules)
    for n, low, high, what in ((attacker_cards, 1, 8, "attacker_cards"), (defender_cards, 0, 6, "defender_cards")):
        whole_number(n, f"{what} (cards)", low, high)
    for policy in policies:
        if policy not in POLICIES:
            raise InvalidSetupError(f"{policy!r} is not a policy: use one of {', '.join(map(repr, POLICIES))}")
    calculator = compute or _deal_averaged(trials)
    controls: dict[str, widgets.ValueWidget] = {
        "attacker_cards": widgets.IntSlider(
            value=attacker_cards, min=1, max=8, description="Attacker's cards", style=WIDE
        ),
        "defender_cards": widgets.IntSlider(
            value=defender_cards, min=0, max=6, description="Defender's cards", style=WIDE
        ),
        "attacker_policy": widgets.ToggleButtons(
            options=list(POLICIES), value=policies[0], description="Attacker", style=_FIT_BUTTONS
        ),
        "defender_policy": widgets.ToggleButtons(
            options=list(POLICIES), value=policies[1], description="Defender", style=_FIT_BUTTONS
        ),
        **variant_controls(rules),
        **numeric_controls(rules),
    }
    last: dict[str, Any] = {}
    assert set(_FIELD_CONTROLS) == set(controls) & set(Rules.field_names())  # every field control, once

    def in_force(values: Mapping[str, Any]) -> Rules:
        """The picked rules with the fields the controls set (every other field holds)."""
        return replace(values.get("rules", rules), **{name: values[name] for name in _FIELD_CONTROLS if name in values})

    def explore(
        attacker_cards: int,
        defender_cards: int,
        attacker_policy: str,
        defender_policy: str,
        damage: str,
        none_reveal: str,
        none_means: str,
        undefended: str,
        nasty_hit: str,
        points_divisor: int = rules.points_divisor,
        trump_value: int = rules.trump_value,
        rules: Rules = rules,
    ) -> Distribution[Any]:
        chosen = replace(  # the controls change their fields; every other field of the picked rules holds
            rules,
            damage=damage,
            none_reveal=none_reveal,
            none_means=none_means,
            undefended=undefended,
            nasty_hit=nasty_hit,
            points_divisor=points_divisor,
            trump_value=trump_value,
        )
        chosen = rebuilt(chosen, rules)  # unchanged, it keeps its file's name
        result = calculator(attacker_cards, defender_cards, policies=(attacker_policy, defender_policy), rules=chosen)
        last["result"] = result
        return result if isinstance(result, Distribution) else result.distribution  # an estimate keeps its intervals

    explorer = OddsExplorer(
        controls,
        explore,
        _score,
        positive="damage to defender",
        negative=("point to defender", "points to defender"),
        zero="draw",
        summary=lambda d, values: _attack_summary(d, last.get("result")),
        headline=lambda d, values: headline_of(last.get("result", d)),
        view=view,
        title="Fairy Meat: one attack, averaged over every deal",
        rules_system="fairy-meat",
        rules=given,
        rules_in_force=in_force,
        not_counted=NOT_COUNTED,
    )
    return controls_follow_picks(explorer, controls)


def can_place_trumps(hand: Any) -> bool:
    """Whether a hand (``numbered``, ``red_trumps``, ``black_trumps``) can place Trumps of
    one colour face down (FM-4) and still have a card for the Numbered step: a Numbered
    card, or another Trump to play as a Wild Trump (FM-6)."""
    red, black = int(read_field(hand, "red_trumps", 0)), int(read_field(hand, "black_trumps", 0))
    numbered = int(read_field(hand, "numbered", 0)) >= 1
    return red + black >= 1 and len(trump_sets_by_type(max(0, red), max(0, black), 0, numbered)) > 1


def _makeup_summary(d: Distribution[Any], values: Mapping[str, Any], death_card: str | None = "AS") -> list[str]:
    def p(test: Callable[[Any], bool]) -> str:
        return chance_text(d, test)

    held = p(lambda h: bool(read_field(h, "ace_of_spades", False)))
    return [
        f"P(no Numbered card) = {p(lambda h: h.numbered == 0)} (FM-6)",
        f"P(no Trump) = {p(lambda h: h.red_trumps + h.black_trumps == 0)}",
        f"P(can place Trumps and still play a card) = {p(can_place_trumps)} (FM-4)",
        f"P(Trumps of both colours) = {p(lambda h: h.red_trumps > 0 and h.black_trumps > 0)}",
        *([f"P(the {Card(death_card).name}) = {held} (FM-12)"] if death_card else []),
        f"expected Numbered cards {average_text(d, lambda h: h.numbered)}",
    ]


def hand_composition_explorer(
    cards: int = 5,
    view: str = "exactly",
    compute: Callable[[int], Distribution[Any]] | None = None,
    rules: Any = None,
) -> OddsExplorer:
    """Return an explorer of what a combat hand of 0-12 cards holds (FM-1, FM-2), exactly,
    dealt from the rules' deck (its ranks, jokers and death card).

    The chart and table give the number of Numbered cards; the summary P(no Numbered
    card) (she must play a Wild Trump or turn up cards, FM-6), P(no Trump), P(Trumps of
    one colour she can place face down while keeping a card to play, FM-4, FM-6), P(Trumps
    of both colours) and P(the death card, FM-12:
    the A♠ by default; not shown under rules without one).

    Args:
        compute: ``compute(cards)`` returning a Distribution of hands with ``numbered``,
            ``red_trumps``, ``black_trumps`` and ``ace_of_spades`` (the death card is held;
            default: :func:`toolkit.fairy_meat.odds.hand_composition` under ``rules``).
        rules: the house rules (a :class:`~toolkit.fairy_meat.Rules`, a mapping, a
            house-rules file or a shipped name; default: the rulings).

    Returns:
        An :class:`~toolkit.widgets.OddsExplorer`.

    Raises:
        InvalidSetupError: a hand size outside 0-12.
    """
    whole_number(cards, "cards", 0, 12)
    rules = load_rules("fairy-meat", rules)
    calculator = compute or (lambda n: hand_composition(n, rules))
    controls = {"cards": widgets.IntSlider(value=cards, min=0, max=12, description="Cards in the hand", style=WIDE)}
    return OddsExplorer(
        controls,
        lambda cards: calculator(cards),
        lambda h: int(read_field(h, "numbered", 0)),
        positive=("Numbered card", "Numbered cards"),
        negative="",
        zero="no Numbered card",
        summary=lambda d, values: _makeup_summary(d, values, rules.death_card),
        headline=lambda d, values: headline(Question.about(rules, count(values["cards"], "card"), "one hand"), "exact"),
        view=view,
        title="Fairy Meat: what a combat hand holds",
    )
