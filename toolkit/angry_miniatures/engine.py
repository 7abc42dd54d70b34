"""The Angry Miniatures rules engine: one attack, die by die, with its event log.

An attack (AM-2) is a sequence of chance nodes — each attack die, then each
defender's defence dice (AM-8: a magic attack rolls once against the target and
every adjacent creature), then any SuperTieBreaker throws (AM-4) — after which the
referee (:mod:`.referee`) judges each defender, damage is applied to Health (AM-10)
and crits are announced, at most once per character per turn (AM-7).

>>> state = start_attack_from_pools(3, 2, "melee")
>>> state = state.apply_all(parse_faces("A K 9") + parse_faces("Q 10"))
>>> state.is_terminal, state.outcome()
(True, AttackOutcome(defender_damage=1, attacker_damage=0, attacker_crit=False, defender_crit=False))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any

from toolkit.angry_miniatures import narration
from toolkit.angry_miniatures.outcomes import AttackOutcome, attack_outcome
from toolkit.angry_miniatures.referee import (
    Comparison,
    compare_rolls,
    damage_dealt,
    is_crit,
    super_tiebreak_winner,
)
from toolkit.angry_miniatures.rules import (
    Character,
    Modifiers,
    Rules,
    attack_pools,
    check_attack_type,
    check_pool,
)
from toolkit.dice import parse_face, parse_faces
from toolkit.engine import CHANCE, TERMINAL, Event, EventData, GameState
from toolkit.errors import IllegalActionError, InvalidSetupError
from toolkit.numbers import count
from toolkit.rulings import implements
from toolkit.whole_numbers import at_most_items, is_whole_number

__all__ = ["AttackState", "start_attack", "start_attack_from_pools"]


@cache
def _die(rules: Rules) -> list[tuple[str, Fraction]]:
    """One die's faces and their chances (AM-1; ``rules.die_faces``, a repeated face
    counting once per copy)."""
    weights = rules.face_weights()
    total = sum(w for _, w in weights)
    return [(face, Fraction(w, total)) for face, w in weights]


@cache
def _throws(rules: Rules) -> list[tuple[tuple[str, str], Fraction]]:
    """The SuperTieBreaker throws that settle it (AM-4): two different faces, the chance
    of each pair given that the faces differ (equal faces are thrown again)."""
    weights = rules.face_weights()
    pairs = [((a, d), wa * wd) for a, wa in weights for d, wd in weights if a != d]
    total = sum(w for _, w in pairs)
    return [(pair, Fraction(w, total)) for pair, w in pairs]


# Large enough that no calculator cross-check ever takes the anonymous sides out.
_NO_LIMIT = 10**6


@dataclass(frozen=True)
class AttackState(GameState):
    """One attack in progress. Build it with :func:`start_attack`.

    In a magic area attack (AM-8) each defender is judged in turn against the one
    attack roll; the toolkit's reading of AM-8 gives each tied pairing of attacker and
    defender its own SuperTieBreaker throws (``throws``, cleared once that defender is
    judged).

    Attributes:
        attacker, defenders: the characters as they stand (damage applied at the end).
        attack_dice, defence_dice: pool sizes (AM-2, AM-9), one defence pool per defender.
        attack_roll, defence_rolls: faces rolled so far, in order.
        throws: SuperTieBreaker throws ``(attacker face, defender face)`` for the
            defender being judged.
        settled: ``(damage to defender, damage to attacker)`` per defender judged so far.
        crits_this_turn: names of characters who already crit this turn (AM-7).
        modifiers: the AM-9 modifiers the pools were built with (None: built from pools).
        all_throws: every SuperTieBreaker throw so far, for every defender, in order
            (what an exported example writes).
    """

    rules: Rules
    attack_type: str
    attacker: Character
    defenders: tuple[Character, ...]
    attack_dice: int
    defence_dice: tuple[int, ...]
    attack_roll: tuple[str, ...] = ()
    defence_rolls: tuple[tuple[str, ...], ...] = ()
    throws: tuple[tuple[str, str], ...] = ()
    settled: tuple[tuple[int, int], ...] = ()
    announced: int = 0
    finished: bool = False
    crits_this_turn: frozenset[str] = frozenset()
    crits: tuple[str, ...] = ()
    log_events: tuple[Event, ...] = ()
    modifiers: Modifiers | None = field(default=None, compare=False)
    all_throws: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    # -- engine hooks ----------------------------------------------------------------
    @property
    def current_player(self) -> str:
        return TERMINAL if self.finished else CHANCE

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log_events

    def _chance_outcomes(self) -> list[tuple[Hashable, Fraction]]:
        return _throws(self.rules) if self._rolling() is None else _die(self.rules)

    def _also_accepts(self, action: Hashable) -> bool:
        # A tied SuperTieBreaker throw is rerolled (AM-4): accepted when typed from an example.
        return (
            self._rolling() is None
            and isinstance(action, tuple)
            and len(action) == 2
            and action[0] == action[1]
            and action[0] in self.rules.die_faces
        )

    def _apply(self, action: Hashable) -> AttackState:
        who = self._rolling()
        if who is None:  # a SuperTieBreaker throw
            a, d = action  # type: ignore[misc]
            i = len(self.settled)
            throw = {"faces": (a, d), "defender": self.defenders[i].name, "winner": super_tiebreak_winner(a, d)}
            state = replace(
                self,
                throws=self.throws + (action,),
                all_throws=self.all_throws + (action,),
                log_events=self._with("super_tiebreak", throw, "AM-4"),
            )
        elif who == -1:
            state = replace(self, attack_roll=self.attack_roll + (action,))
            if len(state.attack_roll) == self.attack_dice:
                state = state._announce_roll(-1)
        else:
            rolls = list(self.defence_rolls)
            rolls[who] = rolls[who] + (action,)
            state = replace(self, defence_rolls=tuple(rolls))
            if len(rolls[who]) == self.defence_dice[who]:
                state = state._announce_roll(who)
        return state._advance()

    def action_to_string(self, action: Hashable) -> str:
        if isinstance(action, tuple):
            return f"{action[0]}/{action[1]}"
        return str(action)

    def parse_action(self, text: str) -> Hashable:
        if self.is_chance_node and self._rolling() is None:
            faces = parse_faces(text.replace("/", " "))
            if len(faces) != 2:
                raise IllegalActionError(
                    f"{text!r}: a SuperTieBreaker throw is two faces, the attacker's then the "
                    "defender's, e.g. 'A 10' (AM-4)"
                )
            return faces
        return parse_face(text)

    def parse_actions(self, text: str) -> list[Hashable]:
        """Return the faces (or SuperTieBreaker throws, ``"K K, A 10"``) written in ``text``.

        Faces are for the roll being made only: more faces than its dice still
        to roll are refused, naming how many dice the roll has, rather than spilling over
        into the next pool (a fourth face for a three-die attack is not the defender's
        first die).

        Raises:
            NotationError: a word that is not a face.
            IllegalActionError: the attack is over, or more faces than the roll has dice left.
        """
        if self.is_terminal:
            raise IllegalActionError("the attack is over: nothing more to roll")
        who = self._rolling()
        if who is None:
            return [self.parse_action(part) for part in text.split(",") if part.strip()]
        faces = list(parse_faces(text))
        left = self.roll_group()
        if len(faces) > left:
            if who == -1:
                name, what, dice = self.attacker.name, "attack", self.attack_dice
            else:
                name, what, dice = self.defenders[who].name, "defence", self.defence_dice[who]
            still = "" if left == dice else f", {left} still to roll"
            raise IllegalActionError(
                f"{count(len(faces), 'face')} typed ({' '.join(faces)}), but {name}'s {what} roll has "
                f"{count(dice, 'die')}{still}: type one face per die, at most {left} (AM-2)"
            )
        return faces

    def roll_group(self) -> int:
        who = self._rolling()
        if who is None:
            return 1
        if who == -1:
            return self.attack_dice - len(self.attack_roll)
        return self.defence_dice[who] - len(self.defence_rolls[who])

    def prompt(self) -> str:
        if self.is_terminal:
            return "The attack is resolved."
        who = self._rolling()
        if who is None:
            i = len(self.settled)
            return f"SuperTieBreaker: {self.attacker.name} and {self.defenders[i].name} each roll one die (AM-4)."
        if who == -1:
            more = "more " if self.attack_roll else ""  # "more" once some dice are rolled
            return f"{self.attacker.name} rolls {count(self.roll_group(), more + 'attack die')} ({self.attack_type})."
        more = "more " if self.defence_rolls[who] else ""
        return f"{self.defenders[who].name} rolls {count(self.roll_group(), more + 'defence die')}."

    @property
    def roller(self) -> str | None:
        """Who rolls next: the attacker's or a defender's name (a whole pool, AM-2), or
        None for a SuperTieBreaker throw (AM-4) and once the attack is resolved."""
        if self.is_terminal:
            return None
        who = self._rolling()
        if who is None:
            return None
        return self.attacker.name if who == -1 else self.defenders[who].name

    # -- results ---------------------------------------------------------------------
    def outcome(self, defender: int = 0) -> AttackOutcome:
        """Return the outcome against one defender, in the calculators' terms.

        Crit flags say whether the roll crit *and* counted (AM-7: once per turn).
        """
        if not self.is_terminal:
            raise IllegalActionError("the attack is not resolved yet")
        dd, ad = self.settled[defender]
        return attack_outcome(dd, ad, self.attacker.name in self.crits, self.defenders[defender].name in self.crits)

    def defender_damage(self) -> tuple[int, ...]:
        """Return the damage dealt to each defender, in order (the ``area_attack`` outcome)."""
        if not self.is_terminal:
            raise IllegalActionError("the attack is not resolved yet")
        return tuple(dd for dd, _ in self.settled)

    # -- internals -------------------------------------------------------------------
    def _told(self, kind: str, data: Mapping[str, Any] | tuple[tuple[str, Any], ...], ruling: str = "") -> Event:
        """The event of ``kind`` with payload ``data`` (a mapping or ``(name, value)``
        pairs), its sentence rendered by the narrator from the data and the cast alone.

        What :func:`toolkit.narration.narrated` does, with the event built directly (an
        attack has no hidden information): the engine logs events on every branch of an
        enumeration and every Monte Carlo playout."""
        payload = EventData(data if type(data) is dict else dict(data))
        told = narration.narrate(kind, payload, narration.cast(self))
        text, public = told.text, told.public
        return Event(kind, text.text, ruling, None, public.text, text.marks, public.marks, payload)

    def _with(self, kind: str, data: Mapping[str, Any], ruling: str = "") -> tuple[Event, ...]:
        return self.log_events + (self._told(kind, data, ruling),)

    def _rolling(self) -> int | None:
        """-1 while the attacker rolls, i while defender i rolls, None for a SuperTieBreaker."""
        if len(self.attack_roll) < self.attack_dice:
            return -1
        for i, (roll, n) in enumerate(zip(self.defence_rolls, self.defence_dice, strict=True)):
            if len(roll) < n:
                return i
        return None

    def _announce_roll(self, who: int) -> AttackState:
        if who == -1:
            name, roll, what = self.attacker.name, self.attack_roll, self.attack_type
        else:
            name, roll, what = self.defenders[who].name, self.defence_rolls[who], "defence"
        data = {"side": name, "roll": what, "faces": roll, "hits": self.rules.count_hits(roll)}
        return replace(self, log_events=self._with("roll", data, "AM-1"))

    def _comparison(self, i: int) -> Comparison:
        return compare_rolls(self.attack_roll, self.defence_rolls[i], self.rules)

    @implements("AM-8 own-tiebreak")
    def _advance(self) -> AttackState:
        """Judge each defender in turn against the one attack roll (AM-8), with her own
        SuperTieBreaker throws when tied (the toolkit's reading), until a roll or a throw
        is the next chance node; then finish the attack."""
        state = self
        if state._rolling() is not None:
            return state
        while len(state.settled) < len(state.defenders):
            i = len(state.settled)
            comparison = state._comparison(i)
            if state.announced == i:
                events = state.log_events
                if len(state.defenders) > 1:
                    events += (state._told("target", {"defender": state.defenders[i].name}, "AM-8"),)
                # The steps' sentences cite their rulings; their events have carried none.
                events += tuple(state._told(kind, data) for kind, data in comparison.steps)
                state = replace(state, announced=i + 1, log_events=events)
            stb = None
            if comparison.needs_super_tiebreak:
                for a, d in state.throws:
                    stb = super_tiebreak_winner(a, d) or stb
                if stb is None:
                    return state  # a SuperTieBreaker throw is the next chance node
            dd, ad = damage_dealt(comparison, state.attack_type, stb, state.rules)
            state = replace(
                state,
                settled=state.settled + ((dd, ad),),
                throws=(),
                log_events=state._with(
                    "damage",
                    _judgement(state.defenders[i].name, comparison, stb, dd, ad, state.rules),
                    _damage_ruling(comparison),
                ),
            )
        return state._finish()

    def _finish(self) -> AttackState:
        events = list(self.log_events)
        crits = list(self.crits)
        seen = set(self.crits_this_turn)
        rolls = [(self.attacker, self.attack_roll)] + list(zip(self.defenders, self.defence_rolls, strict=True))
        for character, roll in rolls:
            if is_crit(roll, self.rules):
                counts = character.name not in seen
                crit = {
                    "character": character.name,
                    "counts": counts,
                    "crit_count": self.rules.crit_count,
                    "crit_faces": self.rules.crit_faces,
                }
                events.append(self._told("crit", crit, "AM-7"))
                if counts:
                    seen.add(character.name)
                    crits.append(character.name)
        attacker = self.attacker.take_damage(sum(ad for _, ad in self.settled))
        defenders = tuple(d.take_damage(dd) for d, (dd, _) in zip(self.defenders, self.settled, strict=True))
        for character in (attacker, *defenders):
            if character.is_out and character.health < _NO_LIMIT:
                out = {"character": character.name, "damage": character.damage, "health": character.health}
                events.append(self._told("out", out, "AM-10"))
        return replace(
            self,
            attacker=attacker,
            defenders=defenders,
            finished=True,
            crits=tuple(crits),
            crits_this_turn=frozenset(seen),
            log_events=tuple(events),
        )


def _judgement(defender: str, c: Comparison, stb: str | None, dd: int, ad: int, rules: Rules) -> dict[str, Any]:
    """The ``damage`` event's payload: the judgement of the attack roll against one
    defender's roll (AM-3, AM-4, AM-5), the damage it deals and the damage a won tie
    deals under these rules (AM-4)."""
    return {
        "defender": defender,
        "attack_hits": c.attack_hits,
        "defence_hits": c.defence_hits,
        "decided_by": c.decided_by,
        "winner": c.winner or stb,
        "damage": dd,
        "damage_back": ad,
        "tie_damage": rules.tie_damage,
    }


def _damage_ruling(c: Comparison) -> str:
    if c.decided_by == "zero_hits":
        return "AM-5"
    return "AM-3" if c.decided_by == "hits" else "AM-4"


@implements("AM-8")
def start_attack(
    attacker: Character,
    defenders: Character | Sequence[Character],
    attack_type: str,
    modifiers: Modifiers | None = None,
    rules: Rules | None = None,
    crits_this_turn: frozenset[str] = frozenset(),
) -> AttackState:
    """Return the state before any die of an attack is rolled.

    A magic attack may list the target and every creature adjacent to it (AM-8); melee
    and ranged attacks have one defender. Pools follow AM-2, AM-9 and AM-6.
    ``crits_this_turn`` carries AM-7 across several attacks of one turn.

    Raises:
        InvalidSetupError: a bad attack type, an out character, or an area for a
            non-magic attack.
    """
    rules = rules or Rules()
    check_attack_type(attack_type)
    targets = (defenders,) if isinstance(defenders, Character) else tuple(defenders)
    if not targets:
        raise InvalidSetupError("an attack needs at least one defender")
    if len(targets) > 1 and attack_type != "magic":
        raise InvalidSetupError(
            f"only magic attacks hit a target and its adjacent creatures (AM-8); a {attack_type} "
            f"attack has one defender, got {len(targets)}"
        )
    names = [attacker.name, *(t.name for t in targets)]
    if len(set(names)) != len(names):
        raise InvalidSetupError(f"every character in an attack needs a different name, got {names}")
    for c in (attacker, *targets):
        if c.is_out:
            raise InvalidSetupError(f"{c.name} is out (damage {c.damage} of Health {c.health}, AM-10) and cannot fight")
    pools = [attack_pools(attacker, t, attack_type, modifiers, rules) for t in targets]
    state = AttackState(
        rules=rules,
        attack_type=attack_type,
        attacker=attacker,
        defenders=targets,
        attack_dice=pools[0].attack,
        defence_dice=tuple(p.defence for p in pools),
        defence_rolls=tuple(() for _ in targets),
        crits_this_turn=frozenset(crits_this_turn),
        modifiers=modifiers,
    )
    opening = {
        "attack_type": attack_type,
        "defenders": tuple(t.name for t in targets),
        "attack_dice": state.attack_dice,
        "defence_dice": state.defence_dice,
    }
    state = replace(state, log_events=(state._told("start", opening, "AM-2"),))
    # A pool of 0 dice is rolled as soon as the attack starts (AM-2: never below 0).
    for who in [-1, *range(len(targets))]:
        if (state.attack_dice if who == -1 else state.defence_dice[who]) == 0:
            state = state._announce_roll(who)
    return state._advance()


def start_attack_from_pools(
    attack_dice: int,
    defence_dice: int | Sequence[int],
    attack_type: str = "melee",
    rules: Rules | None = None,
) -> AttackState:
    """Return an attack between anonymous sides with the given pools (no Health limit).

    The calculators' cross-checks start here.
    """
    check_pool(attack_dice, "attack_dice")
    pools = (
        (defence_dice,) if is_whole_number(defence_dice) else tuple(at_most_items(defence_dice, "defence_dice", 10_000))
    )
    for p in pools:
        check_pool(p, "defence_dice")
    attacker = Character("Attacker", melee=attack_dice, ranged=attack_dice, magic=attack_dice, health=_NO_LIMIT)
    names = ["Defender"] if len(pools) == 1 else [f"Defender {i + 1}" for i in range(len(pools))]
    defenders = [Character(n, body=p, mind=p, spirit=p, health=_NO_LIMIT) for n, p in zip(names, pools, strict=True)]
    return start_attack(attacker, defenders, attack_type, rules=rules)
