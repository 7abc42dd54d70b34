"""The catalogue of Durak battle situations (DB-1..DB-8): one battle each.

Each predicate reads the finished battle (a :class:`~toolkit.durak_battle.engine.BattleState`):
its event log (``recon``, ``deal``, ``initiative``, ``attack``, ``counter``, ``defence``,
``manoeuvre``, ``strike``, ``pass``, ``clash``, ``morale``, ``destroyed`` events) and its
outcome. The hints steer :mod:`.finder`: ``tokens`` (the armies' tokens to
try), ``suits`` (how much more often each suit is dealt, ``S H D C``), ``joker`` (how much
more often a joker is dealt), ``rounds`` (rounds at most).
"""

from __future__ import annotations

from typing import Any

from toolkit.cards import Card
from toolkit.durak_battle.initiative_rule import attack_cards, initiative_holder
from toolkit.durak_battle.rules import SIDES
from toolkit.engine import GameState
from toolkit.plugin.situation import Situation, events, make

__all__ = ["CATALOGUE"]

_CLASH_KINDS = ("attack", "counter", "defence", "manoeuvre", "strike", "pass")


def _counter_chain(state: GameState, length: int = 3) -> bool:
    """DB-5: ``length`` counterattacks in a row, each answering the one before."""
    run = best = 0
    for e in events(state):
        if e.kind == "counter":
            run += 1
            best = max(best, run)
        elif e.kind in _CLASH_KINDS:
            run = 0
    return best >= length


def _joker_decides(state: Any) -> bool:
    """DB-3: a side takes the initiative with a joker where, without her jokers, the other
    side would have taken it (the other holds an attack card and hers are lower, or she has
    none); attack cards are the rules' attack suit (``Rules.suits``, spades by default, DB-1)."""
    rules = state.rules
    hands: dict[str, tuple[Card, ...]] = {}
    for e in events(state):
        if e.kind == "deal":
            hands[e.data["side"]] = tuple(Card(c) for c in e.data["cards"])
        elif e.kind == "initiative" and e.data.get("decided") == "card" and Card(e.data["card"]).is_joker:
            if len(hands) < 2:
                continue
            i = SIDES.index(e.data["holder"])
            mine = [c for c in hands.get(SIDES[i], ()) if not c.is_joker]
            theirs = hands.get(SIDES[1 - i], ())
            pair = (mine, theirs) if i == 0 else (theirs, mine)
            if attack_cards(theirs, rules) and initiative_holder(*pair, rules) == 1 - i:
                return True
    return False


def _counter_lower_loss(state: Any) -> bool:
    """DB-5: a counterattack lower than the attack costs ``rules.counter_lower_loss``
    tokens first (1 by default) — the amount the event carries, not a fixed 1."""
    loss = state.rules.counter_lower_loss
    return any(
        not e.data["equal"] and e.data["counts_as"] == "lower" and e.data["loss"] == loss > 0
        for e in events(state, "counter")
    )


def _has(state: GameState, kind: str, key: str, value: Any = True) -> bool:
    """Whether an event of ``kind`` carries ``key`` equal to ``value``."""
    return any(key in e.data and e.data[key] == value for e in events(state, kind))


def _counter_equal(state: GameState, counts_as: str) -> bool:
    """DB-5: a counterattack equal to the attack, counted as ``counts_as`` (``"higher"``: no
    loss; ``"lower"``: she loses tokens, the variant)."""
    return any(
        e.data["equal"] and e.data["counts_as"] == counts_as and (e.data["loss"] > 0) == (counts_as == "lower")
        for e in events(state, "counter")
    )


def _holds_other_retreats(state: Any) -> bool:
    """DB-8: the side originally attacked rolls first and stays; the other retreats."""
    return state.first_attacked is not None and state.outcome == f"{SIDES[1 - state.first_attacked]} retreats"


def _attacked_retreats(state: Any) -> bool:
    return state.first_attacked is not None and state.outcome == f"{SIDES[state.first_attacked]} retreats"


def _destroyed(state: Any) -> bool:
    return state.outcome.endswith(" destroyed") and state.outcome != "both destroyed"


CATALOGUE: tuple[Situation, ...] = (
    make(
        "counterattack_chain_of_three",
        "A counterattack chain of three cards.",
        _counter_chain,
        ("DB-1", "DB-5"),
        suits=(("C", 6), ("S", 2)),
    ),
    make(
        "joker_decides_initiative",
        "A joker decides the initiative.",
        _joker_decides,
        ("DB-3",),
        lambda r: r.jokers,
        joker=12,
    ),
    make(
        "joker_coin_flip",
        "Joker against joker and no other spade: a coin decides the initiative.",
        lambda s: _has(s, "initiative", "decided", "coin"),
        ("DB-3",),
        lambda r: r.jokers,
        joker=25,
        suits=(("S", 0.2),),
    ),
    make(
        "initiative_tie_broken",
        "Equal best attack cards: the next attack card decides the initiative.",
        lambda s: _has(s, "initiative", "decided", "next_card"),
        ("DB-3",),
        lambda r: r.jokers,
        joker=12,
        suits=(("S", 3),),
    ),
    make(
        "strike_no_answer",
        "A strike on a side with no answer.",
        lambda s: _has(s, "strike", "declined", False),
        ("DB-4",),
    ),
    make(
        "strike_declined",
        "A side declines to answer and takes the strike.",
        lambda s: _has(s, "strike", "declined", True),
        ("DB-4",),
    ),
    make(
        "both_destroyed",
        "Both armies destroyed.",
        lambda s: getattr(s, "outcome", "") == "both destroyed",
        ("DB-7",),
        tokens=((1, 2), (2, 1), (1, 1), (2, 2)),
    ),
    make("army_destroyed", "An army is destroyed.", _destroyed, ("DB-7",), tokens=((1, 1), (2, 2), (1, 3), (3, 1))),
    make(
        "attacked_holds_other_retreats",
        "The attacked side holds its morale and the other retreats.",
        _holds_other_retreats,
        ("DB-8",),
    ),
    make(
        "attacked_side_retreats",
        "The side originally attacked fails its morale and retreats.",
        _attacked_retreats,
        ("DB-8",),
    ),
    make(
        "defence_succeeds",
        "A defence that succeeds.",
        lambda s: _has(s, "defence", "succeeded", True),
        ("DB-1",),
        suits=(("H", 3),),
    ),
    make(
        "manoeuvre",
        "A manoeuvre answers an attack.",
        lambda s: any(True for _ in events(s, "manoeuvre")),
        ("DB-1",),
        suits=(("D", 3),),
    ),
    make(
        "counter_lower_loses_token",
        "A lower counterattack costs tokens first (1 by default).",
        _counter_lower_loss,
        ("DB-5",),
        lambda r: r.counter_lower_loss > 0,
        suits=(("C", 3),),
    ),
    make(
        "counter_equal_no_loss",
        "A counterattack equal to the attack costs nothing.",
        lambda s: _counter_equal(s, "higher"),
        ("DB-5",),
        lambda r: r.counter_tie == "no_loss",
        variant={"counter_tie": "no_loss"},
        suits=(("C", 6), ("S", 3)),
    ),
    make(
        "counter_equal_loses",
        "A counterattack equal to the attack costs a token (DB-5's variant).",
        lambda s: _counter_equal(s, "lower"),
        ("DB-5",),
        lambda r: r.counter_tie == "loses",
        variant={"counter_tie": "loses"},
        suits=(("C", 6), ("S", 3)),
    ),
    make(
        "initiative_passes",
        "The initiative holder passes and the initiative passes to the other side.",
        lambda s: _has(s, "pass", "declined", True),
        ("DB-6",),
    ),
    make(
        "no_clash",
        "Neither side holds an attack card: no clash this round.",
        lambda s: _has(s, "initiative", "decided", "no_clash"),
        ("DB-3",),
        suits=(("S", 0.1),),
        joker=0.1,
    ),
    make(
        "outnumbering_draws_extra_cards",
        "The army with more tokens draws extra cards.",
        lambda s: any(e.data["advantage"] > 0 for e in events(s, "recon")),
        ("DB-2",),
        tokens=((3, 2), (2, 3), (4, 3)),
    ),
)
