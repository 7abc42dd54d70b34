"""The catalogue of Fairy Meat situations (FM-3..FM-14): one combat each.

Each predicate reads the finished combat (a :class:`~toolkit.fairy_meat.engine.CombatState`):
its event log (``deal``, ``declare``, ``trumps``, ``play``, ``draw``, ``resolve``,
``score``, ``down``, ``end`` events), its attacks as played (``past``) and their
judgements (``results``, :class:`~toolkit.fairy_meat.referee.AttackResult`). The hints
steer :mod:`.finder`: ``attacks`` (attacks in the combat), ``wrestling``
(FM-14), ``defender_cards`` (the defender's hand sizes to try), ``trump`` and
``ace_of_spades`` (how much more often those cards are dealt or turned up).
"""

from __future__ import annotations

from typing import Any

from toolkit.engine import GameState
from toolkit.fairy_meat.engine import PLAYERS
from toolkit.fairy_meat.legality import matches
from toolkit.fairy_meat.referee import winner_of
from toolkit.plugin.situation import Situation, events, make

__all__ = ["CATALOGUE"]


def _both_cheat(state: Any) -> bool:
    """FM-8: in one attack each fairy applies a Trump not matching her Numbered card."""
    return any(len(r.shifts) == 2 for r in state.results)


def _none_keeps_cheating_hidden(state: Any) -> bool:
    """FM-5: the other said None, so face-down Trumps that would cheat stay hidden."""
    for attack, result in zip(state.past, state.results, strict=False):
        for side, cards in result.hidden.items():
            number = attack.number[PLAYERS.index(side)]
            if number is not None and any(not matches(c.colour, number.colour) for c in cards):
                return True
    return False


def _bonus_wins(state: Any) -> bool:
    """FM-11: the defender applies her next-defence bonus and wins an attack she would
    not have won without it (who wins without it by the rules' FM-9 colour rule:
    ``same_colour_wins`` / ``different_colour_wins``)."""
    sign = 1 if state.declared[1] == "add" else -1
    for k, result in enumerate(state.results):
        if not (result.bonus_applied and result.winner == "defender" and k > 0):
            continue
        bonus = state.results[k - 1].points
        without = winner_of(
            result.attacker_value, result.defender_value - sign * bonus, result.same_colour, state.rules
        )
        if without != "defender":
            return True
    return False


def _lowest_wins(state: Any) -> bool:
    return any(not r.same_colour and r.winner is not None for r in state.results)


def _highest_wins(state: Any) -> bool:
    return any(r.same_colour and r.winner is not None and not r.shifts for r in state.results)


def _draw(state: Any) -> bool:
    return not state.wrestling and any(r.winner is None for r in state.results)


def _nasty(state: Any) -> bool:
    return any(r.nasty_hit for r in state.results)


def _escape(state: Any) -> bool:
    return any(r.escaped for r in state.results)


def _wrestling_draw(state: Any) -> bool:
    return state.wrestling and any(r.winner is None for r in state.results)


def _down(state: GameState) -> bool:
    return any(True for _ in events(state, "down"))


def _turned_up(state: GameState, code: str) -> bool:
    """FM-6: a card turned up from the pile is ``code`` (the event's ``card``)."""
    return any(e.data.get("card") == code for e in events(state, "draw"))


def _played(state: GameState, kind: str) -> bool:
    """FM-6, FM-7: a side's play as revealed is ``kind`` (``"wild"``, ``"points"``, ``"blind"``,
    ``"unopposed"``; the ``play`` event's ``plays``)."""
    return any(kind in e.data.get("plays", ()) for e in events(state, "play"))


def _has(state: GameState, kind: str, key: str, value: Any = True) -> bool:
    """Whether an event of ``kind`` carries ``key`` (equal to ``value`` when given)."""
    return any(key in e.data and (value is True or e.data[key] == value) for e in events(state, kind))


CATALOGUE: tuple[Situation, ...] = (
    make("both_cheat", "Both fairies cheat.", _both_cheat, ("FM-8",), trump=3),
    make(
        "none_keeps_cheating_hidden",
        "The None rule keeps cheating Trumps hidden.",
        _none_keeps_cheating_hidden,
        ("FM-5",),
        trump=3,
    ),
    make(
        "wild_trump_turns_up_ace_of_spades",
        "A Wild Trump turns up the Ace of Spades.",
        lambda s: _turned_up(s, "AS"),
        ("FM-6", "FM-12"),
        trump=2,
        ace_of_spades=20,
    ),
    make(
        "next_defence_bonus_wins",
        "The next-defence bonus wins the following attack.",
        _bonus_wins,
        ("FM-11",),
        attacks=2,
    ),
    make(
        "different_colours_lowest_wins",
        "Numbered cards of different colours: the lowest value wins.",
        _lowest_wins,
        ("FM-9",),
    ),
    make(
        "same_colour_highest_wins",
        "Numbered cards of one colour: the highest value wins.",
        _highest_wins,
        ("FM-9",),
    ),
    make(
        "wild_trump_points",
        "Wild Trump points: a fairy with no cards defends with her points.",
        lambda s: _has(s, "trumps", "wild_points"),
        ("FM-7",),
        attacks=2,
        defender_cards=(1,),
    ),
    make(
        "wild_trump_played",
        "A fairy with no Numbered card plays a Trump as a Wild Trump.",
        lambda s: _played(s, "wild"),
        ("FM-6",),
        trump=4,
    ),
    make(
        "turned_up_trump_reveals_hidden",
        "A Trump turned up means she has not said None: the hidden Trumps are revealed.",
        lambda s: _has(s, "trumps", "revealed"),
        ("FM-5",),
        lambda r: r.none_means == "no_trumps",
        trump=4,
    ),
    make("draw", "Equal values: a draw, no points.", _draw, ("FM-9",)),
    make(
        "nasty_hit",
        "The Ace of Spades gives a Nasty Hit.",
        _nasty,
        ("FM-12",),
        lambda r: r.death_card is not None,
        why=lambda r: "no card gives a Nasty Hit (Death card: none, FM-12)",
        ace_of_spades=20,
    ),
    make(
        "points_as_extra_cards",
        "The defender keeps her points as extra cards for her attack back.",
        lambda s: _has(s, "score", "score", "extra_cards"),
        ("FM-11",),
    ),
    make("fairy_down", "A fairy loses her last Live points.", _down, ("FM-10",)),
    make(
        "undefended_blind_draw",
        "An undefended fairy turns up cards blind.",
        lambda s: _played(s, "blind"),
        ("FM-7",),
        lambda r: r.undefended == "blind_draw",
        defender_cards=(0,),
    ),
    make(
        "undefended_unopposed",
        "An undefended fairy under the unopposed variant: the attack is unopposed.",
        lambda s: _played(s, "unopposed"),
        ("FM-7",),
        lambda r: r.undefended == "unopposed",
        variant={"undefended": "unopposed"},
        defender_cards=(0,),
    ),
    make(
        "attacks_lost",
        "The attacker runs out of cards: her remaining attacks are lost.",
        lambda s: _has(s, "end", "attacks_lost"),
        ("FM-13",),
        attacks=3,
    ),
    make("wrestling_escape", "The Wrestling winner escapes the brawl.", _escape, ("FM-14",), wrestling=True),
    make(
        "wrestling_draw",
        "A Wrestling draw: both fairies take 1 damage.",
        _wrestling_draw,
        ("FM-14",),
        wrestling=True,
    ),
)
