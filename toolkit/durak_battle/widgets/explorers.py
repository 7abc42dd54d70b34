"""The Durak odds explorers: how a whole battle ends (:func:`odds_explorer`) and one round's hand
sizes, initiative and morale (:func:`round_explorer`), as the armies, leaders and variants change."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit.durak_battle.engine import SIDES
from toolkit.durak_battle.notation import SYSTEM
from toolkit.durak_battle.recon import token_advantage
from toolkit.durak_battle.rules import MAX_TOKENS, Army, Rules, leader_words
from toolkit.durak_battle.widgets.pieces import (
    DICE,
    WIDE,
    as_rules,
    counter_tie_options,
    default_armies,
    number_controls,
)
from toolkit.errors import InvalidSetupError, excerpt
from toolkit.house_rules import rebuilt
from toolkit.numbers import count, probability_text
from toolkit.odds_result import average_text, chance_text
from toolkit.prob import Distribution
from toolkit.question import Question, headline, headline_of
from toolkit.whole_numbers import whole_number
from toolkit.widgets import OddsExplorer
from toolkit.widgets.common import field as read_field
from toolkit.widgets.common import fitting_width
from toolkit.widgets.rules_picker import controls_follow_picks

__all__ = [
    "ARMY_GROUPS",
    "ROUND_NOT_COUNTED",
    "odds_explorer",
    "round_explorer",
    "LONGEST_SHOWN",
    "PRECISIONS",
    "EXPLORER_POLICIES",
    "army_controls",
    "variant_controls",
    "rules_from",
    "armies_from",
    "check_pair",
]

# -- the odds explorers ---------------------------------------------------------------------------
#: The clash odds the battle explorer asks :func:`toolkit.durak_battle.odds.battle_outcome`
#: for: ``"quick"`` samples 100 clashes per pair of hand sizes (about a second a change),
#: ``"careful"`` is exact where small and samples 1,000 clashes above (up to a minute).
PRECISIONS: dict[str, dict[str, Any]] = {
    "quick": {"method": "monte_carlo", "trials": 100},
    "careful": {"method": "auto", "trials": 1_000},
}
#: The rules fields one round's odds do not depend on, with why: they stop before the
#: first card is played (hand sizes, initiative, morale after given losses), so what the
#: clash costs (DB-1, DB-4, DB-5), DB-6, which suit does what (DB-1: every suit holds as
#: many cards) and how losses add up over a battle (DB-8) do not enter (a picked
#: house-rules file that changes only these says so).
ROUND_NOT_COUNTED: dict[str, str] = {
    **{
        name: "one round's odds stop before the first card is played; what the clash costs is counted "
        "by the battle explorer"
        for name in (
            "strike_loss",
            "defence_won",
            "defence_lost",
            "manoeuvre_won",
            "manoeuvre_lost",
            "counter_lower_loss",
            "counter_tie",
        )
    },
    "holder_must_attack": "one round's odds stop before the first card is played; whether the holder must "
    "attack is counted by the battle explorer",
    "suits": "every suit has as many cards, so which suit attacks changes no hand's odds of holding an "
    "attack card; which suit does what is counted by the battle explorer",
    "morale_penalty": "the morale chances here are for a given number of tokens lost, whichever clashes "
    "they were lost in",
}

#: What the battle explorer says when the initiative holder must attack (DB-6) and both
#: leaders play greedy: greedy play attacks whenever it can, so its numbers cannot show it.
GREEDY_MEETS_NO_DB6 = (
    "Initiative holder must attack (DB-6): not measured under greedy play, which attacks whenever it can "
    "(choose random play to see it)"
)

#: The leaders' policies the battle explorer offers (both armies play the same one).
EXPLORER_POLICIES: tuple[str, ...] = ("greedy", "random")


def _winner(outcome: Any) -> int | None:
    """The winning side (0 = a, 1 = b) of a battle outcome: a ``winner`` of ``"a"``/``"b"``
    (or 0/1), or an engine outcome string (``"b retreats"``, ``"a destroyed"``); None
    when undecided."""
    if isinstance(outcome, str):
        side, _, rest = outcome.partition(" ")
        return 1 - SIDES.index(side) if side in SIDES and rest else None
    winner = read_field(outcome, "winner")
    if winner in SIDES:
        return SIDES.index(winner)
    if winner in (0, 1) and not isinstance(winner, bool):
        return int(winner)
    return None


#: The battle explorer's chart gathers battles of this many rounds or more in one bar.
LONGEST_SHOWN = 5


def _rounds(outcome: Any) -> int:
    return max(1, int(read_field(outcome, "rounds", 1) or 1))


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


#: Each army's controls, one column of the explorers' controls grid (by control name).
ARMY_GROUPS: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{what}_{side}" for what in ("tokens", "battle_die", "spirit_die", "wild_card")) for side in SIDES
)


def army_controls(army_a: Army, army_b: Army) -> dict[str, widgets.ValueWidget]:
    """Each army's tokens, its leader's dice and Wild Card, by name (``tokens_a``, ...;
    :data:`ARMY_GROUPS` shows each army's together)."""
    controls: dict[str, widgets.ValueWidget] = {}
    for side, army in zip(SIDES, (army_a, army_b), strict=True):
        controls[f"tokens_{side}"] = widgets.IntSlider(
            value=army.tokens, min=1, max=MAX_TOKENS, description=f"{army.name}: tokens", style=WIDE
        )
        controls[f"battle_die_{side}"] = widgets.Dropdown(
            options=DICE, value=army.leader.battle_die, description="Knowledge (Battle)", style=WIDE
        )
        controls[f"spirit_die_{side}"] = widgets.Dropdown(
            options=DICE, value=army.leader.spirit_die, description="Spirit", style=WIDE
        )
        controls[f"wild_card_{side}"] = widgets.Checkbox(
            value=army.leader.wild_card, description=f"{army.name}'s leader is a Wild Card", indent=False
        )
    return controls


def variant_controls(rules: Rules) -> dict[str, widgets.ValueWidget]:
    """The controls of the rules' variants (DB-1, DB-5, DB-6, DB-8) and main numbers
    (:data:`~.pieces.NUMBER_FIELDS`), by field name, set from ``rules``."""
    return {
        "jokers": widgets.Checkbox(value=rules.jokers, description="DB-1: two jokers", indent=False),
        "counter_tie": widgets.Dropdown(
            options=(counter_tie := counter_tie_options(rules)),
            value=rules.counter_tie,
            description="Equal counterattack (DB-5)",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width("Equal counterattack (DB-5)", counter_tie)),
        ),
        "holder_must_attack": widgets.Checkbox(
            value=rules.holder_must_attack, description="DB-6: holder must attack", indent=False
        ),
        "morale_penalty": widgets.Dropdown(
            options=(morale := [("this clash (default)", "clash"), ("whole battle", "battle")]),
            value=rules.morale_penalty,
            description="Morale penalty (DB-8)",
            style=WIDE,
            layout=widgets.Layout(width=fitting_width("Morale penalty (DB-8)", morale)),
        ),
        **number_controls(rules),
    }


def rules_from(values: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """The rules the controls select: ``base`` (the explorer's ``rules``: its suits and
    answer table) with every field that has a control in ``values`` set from it.

    Raises:
        InvalidSetupError: a value the rules refuse (the field named).
    """
    fields = Rules.field_names()
    picked = values.get("rules")  # the explorer's house-rules picker, when it has one
    base = picked if isinstance(picked, Rules) else base
    return rebuilt(replace(base or Rules(), **{k: v for k, v in values.items() if k in fields}), base)


def armies_from(base: tuple[Army, Army], values: Mapping[str, Any]) -> tuple[Army, Army]:
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


def check_pair(army_a: Army | None, army_b: Army | None) -> tuple[Army, Army]:
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
    rules: Rules | str | Path | Mapping[str, Any] | None = None,
    view: str = "exactly",
    compute: Callable[..., Any] | None = None,
    policy: str = "greedy",
    precision: str = "quick",
    max_rounds: int = 50,
) -> OddsExplorer:
    """Return an explorer of how a whole battle ends, recomputed as the armies (tokens
    1-10), the leaders' dice (Knowledge (Battle) and Spirit, d4-d12), Wild Card, the
    variants (DB-1, DB-5, DB-6, DB-8), the main numbers of the rules (the strike, cards
    per token ahead, the morale target and penalty), the leaders' policy and the
    precision change.

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
        rules: the rules the controls start from, and the fields without a control (the
            suits, the answer table): a ``Rules``, a mapping of fields or a house-rules
            file (a path or a name in ``data/rules/durak-battle``); default: docs/rulings.md.
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
    army_a, army_b = check_pair(army_a, army_b)
    rules = as_rules(rules)
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
        **army_controls(army_a, army_b),
        **variant_controls(rules),
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
    notes: dict[str, Any] = {"note": "", "result": None}

    def explore(**values: Any) -> Distribution[Any]:
        a, b = armies_from(base, values)
        result = calculator(
            a,
            b,
            rules_from(values, rules),
            policy=values["policy"],
            precision=values["precision"],
            max_rounds=max_rounds,
        )
        notes["note"] = str(getattr(result, "note", "") or "")
        notes["result"] = result
        return result if isinstance(result, Distribution) else result.distribution

    def summary(d: Distribution[Any], values: Mapping[str, Any]) -> list[str]:
        """Every number read from the result's own exactness and intervals (a battle over
        sampled clash odds is an estimate: each number with its ±)."""
        lines = []
        for i in (0, 1):
            how = []
            for h, word in (("retreat", "by retreat"), ("destroyed", "by destruction")):
                by = lambda o, i=i, h=h: _winner(o) == i and read_field(o, "how") == h
                if d.probability(by):
                    how.append(f"{word} {chance_text(d, by)}")
            won = chance_text(d, lambda o, i=i: _winner(o) == i)
            lines.append(f"P({names[i]} wins) = {won}" + (f" ({', '.join(how)})" if how else ""))
        if d.probability(lambda o: _winner(o) is None):
            undecided = chance_text(d, lambda o: _winner(o) is None)
            lines.append(f"P(undecided after {count(max_rounds, 'round')}) = {undecided}")
        length = d.mean(_rounds)
        lines.append(f"expected length {average_text(d, _rounds)} {'round' if length == 1 else 'rounds'}")
        if values["policy"] == "greedy" and rules_from(values, rules).holder_must_attack:
            lines.append(GREEDY_MEETS_NO_DB6)
        if notes["note"]:
            lines.append(notes["note"])
        return lines

    explorer = _BattleExplorer(
        names,
        controls,
        explore,
        _battle_score,
        positive=f"{names[0]} wins",
        negative=f"{names[1]} wins",
        zero="undecided",
        summary=summary,
        headline=lambda d, values: headline_of(notes["result"]),
        view=view,
        title=f"Durak battle: how {names[0]} against {names[1]} ends",
        rules_system=SYSTEM,
        rules=rules,
        rules_in_force=lambda values: rules_from(values, rules),
        groups=ARMY_GROUPS,
    )
    return controls_follow_picks(explorer, controls)


def _hand_sizes(a: Army, b: Army, rules: Rules) -> Distribution[tuple[int, int]]:
    """The joint distribution of the two hand sizes of a round (DB-2): independent
    Knowledge (Battle) rolls, +``rules.cards_per_token`` cards per token of advantage."""
    from toolkit.durak_battle.odds import hand_size_distribution

    sizes = [
        hand_size_distribution(
            army.leader.battle_die,
            wild_die=army.leader.wild_card,
            modifier=army.leader.battle_modifier,
            token_advantage=token_advantage(army.tokens, other.tokens),
            rules=rules,
        )
        for army, other in ((a, b), (b, a))
    ]
    return sizes[0].combine(sizes[1], lambda x, y: (x, y))


def round_explorer(
    army_a: Army | None = None,
    army_b: Army | None = None,
    rules: Rules | str | Path | Mapping[str, Any] | None = None,
    view: str = "exactly",
    losses: tuple[int, ...] = (0, 2, 4),
) -> OddsExplorer:
    """Return an explorer of one round's reconnaissance, initiative and morale, exact and
    instant, as the armies' tokens, the leaders' dice, Wild Card, the jokers, the cards
    per token ahead and the morale target and penalty change (``rules``: as for
    :func:`odds_explorer`).

    The chart is the card advantage: side a's hand size minus side b's (DB-2: the
    Knowledge (Battle) roll without explosions, +1 card per token of advantage). The
    summary gives the expected hand sizes, who attacks first averaged over the deals
    (DB-3, :func:`~toolkit.durak_battle.odds.initiative`), P(no clash), and each army's
    chance to stay after losing each number of tokens in ``losses`` (DB-8,
    :func:`~toolkit.durak_battle.odds.morale_pass_probability`).

    Raises:
        InvalidSetupError: only one army, or ``losses`` not whole numbers of 0 or more.
    """
    army_a, army_b = check_pair(army_a, army_b)
    rules = as_rules(rules)
    if not losses:
        raise InvalidSetupError(f"losses must list whole numbers of tokens of 0 or more, got {excerpt(losses)}")
    for k in losses:
        whole_number(k, f"each of losses {excerpt(losses)} (tokens)", 0)
    base = (army_a, army_b)
    names = (army_a.name, army_b.name)
    controls = {
        **army_controls(army_a, army_b),
        "jokers": variant_controls(rules)["jokers"],
        **number_controls(rules, ("cards_per_token", "morale_target", "morale_per_token")),
    }

    def explore(**values: Any) -> Distribution[tuple[int, int]]:
        return _hand_sizes(*armies_from(base, values), rules_from(values, rules))

    def round_headline(d: Distribution[tuple[int, int]], values: Mapping[str, Any]) -> str:
        a, b = armies_from(base, values)
        sizes = f"{a.name} {a.tokens} v {b.name} {b.tokens} tokens"
        leaders = f"leaders {leader_words(a.leader)} v {leader_words(b.leader)}"
        return headline(Question.about(rules_from(values, rules), sizes, "one round", leaders), "exact")

    def summary(d: Distribution[tuple[int, int]], values: Mapping[str, Any]) -> list[str]:
        from toolkit.durak_battle.odds import initiative, morale_pass_probability

        chosen = rules_from(values, rules)
        first: dict[str | None, Fraction] = {"a": Fraction(0), "b": Fraction(0), None: Fraction(0)}
        for (na, nb), p in d.items():
            for who, q in initiative(na, nb, chosen).items():
                first[who] += p * q
        mean_a, mean_b = average_text(d, lambda o: o[0]), average_text(d, lambda o: o[1])
        lines = [
            f"expected cards: {names[0]} {mean_a}, {names[1]} {mean_b} (DB-2)",
            f"P({names[0]} attacks first) = {probability_text(first['a'])}",
            f"P({names[1]} attacks first) = {probability_text(first['b'])}",
            f"P(no clash: no attack card) = {probability_text(first[None])} (DB-3)",
        ]
        for army in armies_from(base, values):
            ld = army.leader
            chances = [
                morale_pass_probability(ld.spirit_die, ld.wild_card, k, ld.spirit_modifier, chosen) for k in losses
            ]
            stays = [f"{k} lost {probability_text(p)}" for k, p in zip(losses, chances, strict=True)]
            lines.append(f"{army.name} stays (DB-8): {', '.join(stays)}")
        return lines

    explorer = OddsExplorer(
        controls,
        explore,
        lambda pair: pair[0] - pair[1],
        positive=(f"more card for {names[0]}", f"more cards for {names[0]}"),
        negative=(f"more card for {names[1]}", f"more cards for {names[1]}"),
        zero="as many cards each",
        summary=summary,
        headline=round_headline,
        view=view,
        title=f"Durak battle, one round: {names[0]} against {names[1]}",
        rules_system=SYSTEM,
        rules=rules,
        rules_in_force=lambda values: rules_from(values, rules),
        not_counted=ROUND_NOT_COUNTED,
        groups=ARMY_GROUPS,
    )
    return controls_follow_picks(explorer, controls)
