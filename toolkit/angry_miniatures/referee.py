"""The referee of one opposed roll: hits compared, the tie-break chain, damage (AM-3..AM-5, AM-7).

This is the single place where a pair of rolls is judged; the engine, the stepper and
the rule-book transcripts all call it. The exact calculators in :mod:`.odds` use a
closed form instead and are cross-checked against this referee in the tests.

>>> c = compare_rolls(("A", "K", "9"), ("A", "Q", "10"))
>>> c.winner, c.decided_by
('attacker', 'Kings')
>>> damage_dealt(c, "melee")
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from toolkit.angry_miniatures.rules import FACE_PLURALS, Rules, check_attack_type
from toolkit.dice import count_face, face_rank, parse_faces
from toolkit.rulings import implements

__all__ = [
    "TIE_BREAK_ORDER",
    "Side",
    "Step",
    "Comparison",
    "compare_rolls",
    "super_tiebreak_winner",
    "damage_dealt",
    "is_crit",
    "crit_from_aces",
]

Side = Literal["attacker", "defender"]

_DEFAULT = Rules()

#: The AM-4 tie-break chain of the default rules: most Aces, then Kings, then Queens,
#: then Jacks (house rules: ``Rules.tie_break_order``).
TIE_BREAK_ORDER: tuple[tuple[str, str], ...] = (
    ("A", "Aces"),
    ("K", "Kings"),
    ("Q", "Queens"),
    ("J", "Jacks"),
)


@implements("AM-7")
def crit_from_aces(aces: int, rules: Rules | None = None) -> bool:
    """Return whether a roll with this many dice showing a crit face (Aces by default)
    crits: ``rules.crit_count`` (two) or more, hit or not (AM-7).

    The one statement of AM-7: :func:`is_crit` asks it on faces, the calculators of
    :mod:`.odds` on counts of crit faces.
    """
    return aces >= (rules or _DEFAULT).crit_count


def is_crit(faces: Sequence[str], rules: Rules | None = None) -> bool:
    """Return whether a roll crits: two or more Aces (``rules``: ``crit_count`` or more of
    ``crit_faces``), hit or not (AM-7, :func:`crit_from_aces`)."""
    rules = rules or _DEFAULT
    return crit_from_aces(rules.crit_count_of(faces), rules)


class Step(NamedTuple):
    """One step of a judgement, as the log shows it: the event ``kind`` (``"hits"``, then
    ``"tie_break"`` steps) and its payload as ``(name, value)`` pairs (``dict(step.data)``
    is the event's data, ``docs/event_data.md``), which the narrator (:mod:`.narration`)
    words; the sentence cites the step's ruling (AM-3, AM-4, AM-5). Pairs, not a mapping:
    the Monte Carlo calculators judge every sampled roll and never read them."""

    kind: str
    data: tuple[tuple[str, Any], ...]


def _step(kind: str, *data: tuple[str, Any]) -> Step:
    # tuple.__new__ skips the NamedTuple's Python-level constructor (a step per sampled roll).
    return tuple.__new__(Step, (kind, data))


@dataclass(frozen=True)
class Comparison:
    """The judgement of an attack roll against a defence roll, before any SuperTieBreaker.

    Attributes:
        attack_hits, defence_hits: hits counted (AM-1).
        winner: ``"attacker"``, ``"defender"``, or ``None`` when a SuperTieBreaker is
            needed or the attack simply missed (both 0 hits under AM-5's default).
        decided_by: ``"hits"``, ``"Aces"``, ``"Kings"``, ``"Queens"``, ``"Jacks"`` (the
            plural of the chain's face that decided, ``"10s"`` under house rules),
            ``"super_tiebreak"`` (still undecided: roll one die each) or ``"zero_hits"``.
        steps: each step of the judgement (:class:`Step`), for logs and rule books.
    """

    attack_faces: tuple[str, ...]
    defence_faces: tuple[str, ...]
    attack_hits: int
    defence_hits: int
    winner: Side | None
    decided_by: str
    steps: tuple[Step, ...]

    @property
    def needs_super_tiebreak(self) -> bool:
        """Whether the tie must go to a SuperTieBreaker (AM-4)."""
        return self.decided_by == "super_tiebreak"

    @property
    def tied_on_hits(self) -> bool:
        """Whether both sides rolled the same number of hits."""
        return self.attack_hits == self.defence_hits


@implements("AM-4", "AM-5")
def compare_rolls(attack: Sequence[str], defence: Sequence[str], rules: Rules | None = None) -> Comparison:
    """Judge an attack roll against a defence roll (AM-3, AM-4, AM-5), hits and the
    tie-break chain as ``rules`` say (AM-1: ``hit_faces``; AM-4: ``tie_break_order``).

    Returns a :class:`Comparison`; when its ``decided_by`` is ``"super_tiebreak"``, call
    :func:`super_tiebreak_winner` with one die per side until it names a winner.

    Raises:
        NotationError: a face is not a poker-die face.
    """
    rules = rules or _DEFAULT
    a, d = parse_faces(attack), parse_faces(defence)
    ah, dh = rules.count_hits(a), rules.count_hits(d)
    steps = [_step("hits", ("attack_hits", ah), ("defence_hits", dh))]

    def done(winner: Side | None, decided_by: str, *step: tuple[str, Any]) -> Comparison:
        steps.append(_step("tie_break", *step))
        return Comparison(a, d, ah, dh, winner, decided_by, tuple(steps))

    if ah != dh:
        winner: Side = "attacker" if ah > dh else "defender"
        return done(winner, "hits", ("step", "more_hits"), ("winner", winner))
    if ah == 0:
        decided_by = "zero_hits" if rules.zero_tie == "miss" else "super_tiebreak"
        return done(None, decided_by, ("step", "zero_hits"), ("zero_tie", rules.zero_tie))
    steps.append(_step("tie_break", ("step", "tie"), ("hits", ah)))
    if rules.tie_break == "coin_flip":
        return done(None, "super_tiebreak", ("step", "coin_flip"))
    for face in rules.tie_break_order:
        na, nd = count_face(a, face), count_face(d, face)
        won: Side | None = None if na == nd else "attacker" if na > nd else "defender"
        step = (("step", "face"), ("face", face), ("attack_count", na), ("defence_count", nd), ("winner", won))
        if won is not None:
            return done(won, FACE_PLURALS[face], *step)
        steps.append(_step("tie_break", *step))
    return done(None, "super_tiebreak", ("step", "super_tiebreak"))


@implements("AM-4 super-tiebreak")
def super_tiebreak_winner(attack_face: str, defence_face: str) -> Side | None:
    """Return who wins one SuperTieBreaker throw (higher face, A>K>Q>J>10>9), or ``None``
    when the faces are equal and both reroll (AM-4)."""
    ra, rd = face_rank(attack_face), face_rank(defence_face)
    if ra == rd:
        return None
    return "attacker" if ra > rd else "defender"


@implements("AM-3")
def damage_dealt(
    comparison: Comparison, attack_type: str, super_tiebreak: Side | None = None, rules: Rules | None = None
) -> tuple[int, int]:
    """Return ``(damage to the defender, damage to the attacker)`` for a judged roll.

    AM-3: more hits deal the difference; the defender deals it back only in melee (and
    only if ``rules.return_damage``).
    AM-4: a tie won deals exactly 1 (``rules.tie_damage``; back to the attacker only in melee).
    AM-5: both 0 hits under the default is a miss.

    Args:
        super_tiebreak: the SuperTieBreaker's winner, required when the comparison
            needs one.
    """
    check_attack_type(attack_type)
    winner = comparison.winner
    if comparison.needs_super_tiebreak:
        if super_tiebreak is None:
            raise ValueError("this tie needs a SuperTieBreaker winner (AM-4)")
        winner = super_tiebreak
    if winner is None:
        return (0, 0)
    rules = rules or _DEFAULT
    margin = abs(comparison.attack_hits - comparison.defence_hits) or rules.tie_damage
    if winner == "attacker":
        return (margin, 0)
    return (0, margin if attack_type == "melee" and rules.return_damage else 0)
