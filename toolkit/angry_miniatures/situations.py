"""The catalogue of Angry Miniatures situations (AM-1..AM-10): one attack each.

Each predicate reads the finished attack (an :class:`~toolkit.angry_miniatures.engine.AttackState`):
its event log (``roll``, ``hits``, ``tie_break``, ``super_tiebreak``, ``damage``,
``crit``, ``out`` events) and its results (``settled``, ``crits``). The hints steer
:mod:`.finder`: ``attack`` (attack types to try), ``defenders`` (1, or
3 for a magic area, AM-8), ``health``, ``crit_before`` (the attacker has already crit
this turn, AM-7), ``rerolls`` (tied SuperTieBreaker throws to try, AM-4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit.engine import GameState
from toolkit.plugin.situation import Situation, events, make

# No "decided by Jacks": hits are the J, Q, K and A rolled (AM-1), so two rolls tied on
# hits, Aces, Kings and Queens have as many Jacks: the Jacks step of AM-4 never decides.

__all__ = ["CATALOGUE"]


def _judged(state: GameState, **wanted: Any) -> bool:
    """Whether a ``damage`` event's judgement (AM-3, AM-4, AM-5) has every ``wanted`` value."""
    return any(all(e.data[k] == v for k, v in wanted.items()) for e in events(state, "damage"))


def _tie_won_by(face_name: str) -> Callable[[GameState], bool]:
    def predicate(state: GameState) -> bool:
        return _judged(state, decided_by=face_name)

    predicate.__name__ = f"tie_decided_by_{face_name.lower()}"
    return predicate


#: The face each tie-break situation names (AM-4's steps).
_FACES = {"Aces": "A", "Kings": "K", "Queens": "Q"}


def _step_decides(face_name: str) -> Callable[[Any], bool]:
    """Whether the chain's step for ``face_name`` can ever decide a tie on hits (AM-4): the
    chain breaks ties, the face is in it, and some other hit face comes after it (two rolls
    tied on hits and on every other hit face have as many of this one)."""
    face = _FACES[face_name]

    def possible(rules: Any) -> bool:
        order = tuple(rules.tie_break_order)
        if rules.tie_break != "chain" or face not in order:
            return False
        return any(f != face and f not in order[: order.index(face)] for f in rules.hit_faces)

    return possible


def _step_why(face_name: str) -> Callable[[Any], str]:
    """Why the step for ``face_name`` never decides under the rules :func:`_step_decides` refuses."""
    face = _FACES[face_name]

    def why(rules: Any) -> str:
        order = " ".join(rules.tie_break_order)
        if rules.tie_break != "chain":
            return f"ties on hits go to a {rules.tie_break.replace('_', ' ')} (Ties on hits, AM-4)"
        if face not in rules.tie_break_order:
            return f"{face_name} are not in the tie-break chain ({order}, AM-4)"
        return (
            f"with hit faces {' '.join(rules.hit_faces)} and the chain {order}, two rolls tied on hits and "
            f"on the faces before {face_name} have as many {face_name} (AM-1, AM-4)"
        )

    return why


def _can_miss(rules: Any) -> bool:
    """Whether a roll can have no hit (AM-1): some face of the die is not a hit."""
    return any(f not in rules.hit_faces for f in rules.die_faces)


def _every_face_hits(rules: Any) -> str:
    return f"every face of the die hits ({' '.join(rules.hit_faces)}, AM-1): no roll has 0 hits"


def _tie_back(state: Any) -> bool:
    """AM-4: the defender wins a tie on hits in melee and deals the tie's damage back
    (``rules.tie_damage``, 1 by default) — the amount the event carries, not a fixed 1."""
    tie = state.rules.tie_damage
    return any(
        e.data["attack_hits"] == e.data["defence_hits"] and e.data["damage_back"] == tie > 0
        for e in events(state, "damage")
    )


def _rerolls(state: GameState) -> int:
    return sum(e.data["winner"] is None for e in events(state, "super_tiebreak"))


def _stb_won(state: GameState) -> bool:
    return any(e.data["winner"] is not None for e in events(state, "super_tiebreak"))


def _return_damage(state: Any) -> bool:
    return state.attack_type == "melee" and any(ad > 0 for _, ad in state.settled)


def _crit_on_defence(state: Any) -> bool:
    return any(d.name in state.crits for d in state.defenders)


def _crit_on_attack(state: Any) -> bool:
    return state.attacker.name in state.crits


def _two_of_three(state: Any) -> bool:
    return state.attack_type == "magic" and len(state.defenders) == 3 and sum(dd > 0 for dd, _ in state.settled) == 2


def _miss(state: GameState) -> bool:
    return _judged(state, decided_by="zero_hits", winner=None)


def _out(state: GameState) -> bool:
    return any(True for _ in events(state, "out"))


def _crit_again(state: GameState) -> bool:
    return any(not e.data["counts"] for e in events(state, "crit"))


def _margin(state: Any) -> bool:
    return any(dd >= 2 for dd, _ in state.settled) and _judged(state, decided_by="hits")


def _no_damage_back(state: Any) -> bool:
    return state.attack_type != "melee" and _judged(state, decided_by="hits", winner="defender")


def _zero_tie_stb(state: GameState) -> bool:
    zero = _judged(state, decided_by="super_tiebreak", attack_hits=0, defence_hits=0)
    return zero and _stb_won(state)


CATALOGUE: tuple[Situation, ...] = (
    make(
        "tie_decided_by_aces",
        "A tie on hits decided by Aces.",
        _tie_won_by("Aces"),
        ("AM-1", "AM-4"),
        _step_decides("Aces"),
        why=_step_why("Aces"),
    ),
    make(
        "tie_decided_by_kings",
        "A tie on hits and Aces, decided by Kings.",
        _tie_won_by("Kings"),
        ("AM-4",),
        _step_decides("Kings"),
        why=_step_why("Kings"),
    ),
    make(
        "tie_decided_by_queens",
        "A tie decided by Queens.",
        _tie_won_by("Queens"),
        ("AM-4",),
        _step_decides("Queens"),
        why=_step_why("Queens"),
    ),
    make(
        "tie_won_by_defender_in_melee",
        "The defender wins a tie in melee and deals the tie's damage back (exactly 1 by default).",
        _tie_back,
        ("AM-4", "AM-3"),
        lambda r: r.tie_damage > 0 and r.return_damage,
        attack=("melee",),
    ),
    make("super_tiebreak", "A tie that only a SuperTieBreaker settles.", _stb_won, ("AM-4",), rerolls=0),
    make(
        "super_tiebreak_after_two_rerolls",
        "A SuperTieBreaker decided after two rerolls.",
        lambda s: _rerolls(s) >= 2 and _stb_won(s),
        ("AM-4",),
        rerolls=2,
    ),
    make(
        "return_damage_in_melee",
        "The defender wins in melee and deals damage back.",
        _return_damage,
        ("AM-3",),
        attack=("melee",),
    ),
    make("crit_on_defence", "A crit on defence.", _crit_on_defence, ("AM-7",)),
    make("crit_on_attack", "A crit on attack.", _crit_on_attack, ("AM-7",)),
    make(
        "magic_area_two_of_three",
        "A magic attack damaging two of its three targets.",
        _two_of_three,
        ("AM-8",),
        attack=("magic",),
        defenders=3,
    ),
    make(
        "zero_hits_miss",
        "Both sides roll no hits: the attack misses.",
        _miss,
        ("AM-5",),
        lambda r: r.zero_tie == "miss" and _can_miss(r),
        why=lambda r: _every_face_hits(r) if not _can_miss(r) else "it needs the rule Both roll no hits: miss (AM-5)",
    ),
    make("character_out", "A character is taken out.", _out, ("AM-10",), health=1),
    make(
        "crit_already_this_turn",
        "A second crit in one turn does not count.",
        _crit_again,
        ("AM-7",),
        crit_before=True,
    ),
    make("more_hits_deal_the_difference", "More hits deal the difference as damage.", _margin, ("AM-3",)),
    make(
        "no_damage_back_at_range",
        "The defender wins a ranged or magic attack but deals no damage back.",
        _no_damage_back,
        ("AM-3",),
        attack=("ranged", "magic"),
    ),
    make(
        "zero_hits_super_tiebreak",
        "Both sides roll no hits and a SuperTieBreaker decides (AM-5's SuperTieBreaker variant).",
        _zero_tie_stb,
        ("AM-5", "AM-4"),
        lambda r: r.zero_tie == "super_tiebreak" and _can_miss(r),
        variant={"zero_tie": "super_tiebreak"},
        why=lambda r: (
            _every_face_hits(r) if not _can_miss(r) else "it needs the rule Both roll no hits: super tiebreak (AM-5)"
        ),
    ),
)
