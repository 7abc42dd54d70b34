"""The referee of one Fairy Meat attack: two plays in, final values, winner, points, damage out.

This is the one place where an attack is judged (FM-4..FM-12, FM-14). The engine, the
stepper, the example transcripts and the calculators all call :func:`resolve_attack`.

The draft's worked example, first attack (Dizzytwig attacks Sparklespaz):

>>> r = resolve_attack(
...     attacker=Play("3D", trumps=("KS", "QC"), direction="subtract"),
...     defender=Play("2D", trumps=("KC",), direction="add"),
... )
>>> r.attacker_value, r.defender_value, r.winner, r.points
(2, 3, 'defender', 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from toolkit.cards import Card, parse_card, parse_cards
from toolkit.engine import EventData, Sentence
from toolkit.errors import ArgumentTypeError, IllegalActionError
from toolkit.fairy_meat.deck import is_death_card, is_numbered, is_trump
from toolkit.fairy_meat.legality import hidden_trumps_owner, matches
from toolkit.fairy_meat.narration import cast_of, narrate
from toolkit.fairy_meat.rules import Rules, check_direction
from toolkit.numbers import count
from toolkit.rulings import implements
from toolkit.whole_numbers import is_whole_number, whole_number

__all__ = [
    "Side",
    "Play",
    "AttackResult",
    "resolve_attack",
    "winner_of",
    "points_of",
    "damage_of",
    "wrestling_damage",
    "nasty_hit_to",
    "Step",
]

Side = Literal["attacker", "defender"]
SIDES: tuple[Side, Side] = ("attacker", "defender")
_DEFAULT = Rules()


def _other(side: Side) -> Side:
    return "defender" if side == "attacker" else "attacker"


def _trump_ranks(rules: Rules | None) -> str:
    """The Trump ranks of ``rules`` (the draft's when ``None``), for an error message (FM-1)."""
    return " ".join((rules or Rules()).trump_ranks)


def _cards(value: Iterable[str | Card] | str | Card) -> tuple[Card, ...]:
    if isinstance(value, Card):
        return (value,)
    return parse_cards(value)


@dataclass(frozen=True)
class Play:
    """What one fairy plays in one attack.

    Args:
        number: the Numbered card played — from the hand, or the one turned up by a
            Wild Trump draw (FM-6).
        trumps: Trumps placed face down from the hand, all of one colour (FM-4); none
            means she said "None" (FM-5).
        direction: her declaration for the combat, ``"add"`` or ``"subtract"`` (FM-3).
        drawn: Trumps turned up from the deck by a Wild Trump draw (FM-6); always revealed.
        wild: the Trump played from the hand as a Wild Trump in place of a Numbered
            card (FM-6); always revealed and applied.
        wild_points, wild_colour: Wild Trump points of a declared colour (FM-7), each
            counting as one Trump of that colour.
        bonus: next-defence bonus points she may apply (FM-11 b), in her direction,
            with no colour.
        rules: the rules whose Numbered and Trump ranks the cards are checked against
            (FM-1; the defaults when ``None``). :func:`resolve_attack` checks them again
            under the rules it judges by.

    Raises:
        IllegalActionError: a card that cannot be played that way, with the rule id.
    """

    number: Card
    trumps: tuple[Card, ...] = ()
    direction: str = "add"
    drawn: tuple[Card, ...] = ()
    wild: Card | None = None
    wild_points: int = 0
    wild_colour: str | None = None
    bonus: int = 0
    rules: Rules | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        number = parse_card(self.number)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "trumps", _cards(self.trumps))
        object.__setattr__(self, "drawn", _cards(self.drawn))
        if self.wild is not None:
            object.__setattr__(self, "wild", parse_card(self.wild))
        check_direction(self.direction)
        self.check_kinds(self.rules)
        if len({c.colour for c in self.trumps if not c.is_joker}) > 1:
            raise IllegalActionError(
                f"trumps {' '.join(c.code for c in self.trumps)} are of two colours: the Trumps placed from "
                "the hand must all be red or all black (FM-4)"
            )
        everything = [number, *self.trumps, *self.drawn] + ([self.wild] if self.wild else [])
        if len(set(everything)) != len(everything):
            raise IllegalActionError("a card appears twice in one play")
        for name in ("wild_points", "bonus"):
            value = getattr(self, name)
            whole_number(value, f"{name} (points)", 0)
        if self.wild_points and self.wild_colour not in ("red", "black"):
            raise IllegalActionError(
                f"Wild Trump points need a declared colour 'red' or 'black', got {self.wild_colour!r} (FM-7)"
            )

    def __repr__(self) -> str:
        parts = [repr(self.number.code)]
        if self.trumps:
            parts.append(f"trumps={tuple(c.code for c in self.trumps)!r}")
        if self.direction != "add":
            parts.append(f"direction={self.direction!r}")
        if self.drawn:
            parts.append(f"drawn={tuple(c.code for c in self.drawn)!r}")
        if self.wild is not None:
            parts.append(f"wild={self.wild.code!r}")
        if self.wild_points:
            parts.append(f"wild_points={self.wild_points}, wild_colour={self.wild_colour!r}")
        if self.bonus:
            parts.append(f"bonus={self.bonus}")
        return f"Play({', '.join(parts)})"

    def check_kinds(self, rules: Rules | None) -> None:
        """Raise :class:`IllegalActionError` unless the Numbered card is a Numbered card and
        every Trump a Trump under ``rules`` (FM-1; the defaults when ``None``)."""
        if not is_numbered(self.number, rules):
            numbered = " ".join((rules or Rules()).numbered_ranks)
            raise IllegalActionError(
                f"{self.number} is not a Numbered card: Numbered cards are {numbered}; Trumps are "
                f"{_trump_ranks(rules)} (FM-1)"
            )
        bad = [c.code for c in (*self.trumps, *self.drawn) if not is_trump(c, rules)]
        if self.wild is not None and not is_trump(self.wild, rules):
            bad.append(self.wild.code)
        if bad:
            raise IllegalActionError(
                f"{', '.join(bad)} cannot be played as Trumps: Trumps are {_trump_ranks(rules)} (FM-1)"
            )

    @property
    def says_none(self) -> bool:
        """Whether she placed no Trumps face down from her hand (FM-4); whether that is
        "None" depends on the other Trumps she applies and ``Rules.none_means`` (FM-5:
        :func:`~toolkit.fairy_meat.legality.hidden_trumps_owner`)."""
        return not self.trumps

    @property
    def other_trumps(self) -> bool:
        """Whether she applies a Trump not placed face down: a Wild Trump, Trumps turned
        up, Wild Trump points (FM-6, FM-7) — "playing Trump cards" for FM-5."""
        return bool(self.wild is not None or self.drawn or self.wild_points)

    @property
    def sign(self) -> int:
        return 1 if self.direction == "add" else -1


@dataclass(frozen=True)
class _Unit:
    """One Trump (or Wild Trump point: no card) applied in an attack."""

    card: Card | None
    colour: str | None  # None: a joker, which matches every card
    ace_of_spades: bool = False  # the death card (FM-12)
    how: str = "placed"  # "wild", "turned_up", "point": how it came to be applied

    @property
    def data(self) -> tuple[str | None, str]:
        """The Trump in an explanation step's data: ``(card code, how)``, ``(None, "point")``."""
        return (None if self.card is None else self.card.code, self.how)


@dataclass(frozen=True)
class Step:
    """One step of an attack's explanation, as the referee decides it: its ``data`` (a
    ``resolve`` event's payload, keyed by ``step``: ``docs/event_data.md``), the ruling it
    applies, and the side it is meant for alone (``None``: everyone), as when it names the
    Trumps she keeps hidden (FM-5). :func:`toolkit.fairy_meat.narration.narrate` words it."""

    data: EventData
    ruling: str = ""
    private_to: Side | None = None


def _step(ruling: str, **data: object) -> Step:
    return Step(EventData(data), ruling)


@dataclass(frozen=True)
class AttackResult:
    """The judgement of one attack.

    Attributes:
        attacker_value, defender_value: final values after Trumps, bonus and cheating.
        winner: ``"attacker"``, ``"defender"``, or ``None`` for a draw (FM-9).
        difference: |attacker value - defender value|.
        points: ceil(difference / divisor), scored by the winner (FM-10; divisor 2 by default).
        damage: damage dealt to the defender (FM-10; FM-14 when Wrestling).
        attacker_damage: damage dealt to the attacker (Wrestling only, FM-14).
        nasty_hit: whether the Ace of Spades gave someone a Nasty Hit (FM-12).
        nasty_hit_to: who suffers it (both in a Wrestling draw).
        revealed: per side, the face-down Trumps that were revealed and applied.
        hidden: per side, face-down Trumps left hidden under the None rule (FM-5).
        bonus_applied: whether the defender applied her next-defence bonus (FM-11).
        shifts: per side, the net shifts she made with the opponent's cheating Trumps,
            as (on the attacker's value, on the defender's value) (FM-8).
        escaped: whether the Wrestling winner forwent the damage to escape (FM-14).
        wrestling: whether the attack was a Wrestling one (FM-14: the winner damages the
            loser; a winning defender scores no FM-11 points to keep).
        wins: the colour rule in force for these Numbered cards, ``"highest"`` or
            ``"lowest"`` (FM-9: the rules' same- or different-colour rule).
        explanation: the explanation, one :class:`Step` of data each (what the log's
            ``resolve`` events carry); :attr:`lines` words them.
        names: how the explanation calls the attacker and the defender.
    """

    attacker_value: int
    defender_value: int
    winner: Side | None
    difference: int
    points: int
    damage: int
    attacker_damage: int = 0
    nasty_hit: bool = False
    nasty_hit_to: tuple[Side, ...] = ()
    same_colour: bool = True
    revealed: dict[Side, tuple[Card, ...]] = field(default_factory=dict, compare=False)
    hidden: dict[Side, tuple[Card, ...]] = field(default_factory=dict, compare=False)
    bonus_applied: bool = False
    shifts: dict[Side, tuple[int, int]] = field(default_factory=dict, compare=False)
    escaped: bool = False
    wrestling: bool = False
    wins: str = "highest"
    explanation: tuple[Step, ...] = field(default=(), compare=False, repr=False)
    names: tuple[str, str] = field(default=("Attacker", "Defender"), compare=False, repr=False)

    @property
    def lines(self) -> tuple[Sentence, ...]:
        """The explanation, one sentence per step, each with the cards it shows marked
        (:class:`~toolkit.engine.Sentence`, rendered from :attr:`explanation` by
        :func:`toolkit.fairy_meat.narration.narrate`; :attr:`steps` has their texts)."""
        cast = cast_of(self.names)
        return tuple(narrate("resolve", step.data, cast).text for step in self.explanation)

    @property
    def steps(self) -> tuple[str, ...]:
        """The explanation, one sentence per step, as text."""
        return tuple(line.text for line in self.lines)

    def explain(self) -> str:
        """Return the step-by-step explanation as a designer reads it: cards written as
        ``K♠``, ``10♥``, ``Joker 1`` (:func:`toolkit.pictures.sentence_text`), one step a line."""
        from toolkit.pictures import sentence_text  # the drawing module, only when explained

        return "\n".join(sentence_text(line) for line in self.lines)

    def utility(self, side: Side) -> tuple[int, int, int]:
        """How good the result is for ``side``, the engine's default choices maximising it
        (FM-5: the reveal chosen is "whichever is better for her"; also the FM-11 bonus):

        1. what she gets less what the other gets: the damage each deals (FM-10 under the
           rules in force: halved or by the damage table; FM-14 when Wrestling) and the
           points a winning defender scores to keep (FM-11);
        2. a Nasty Hit on the other (+1) or on her (-1) (FM-12);
        3. her margin: how far her final value beats the other's under the colour rule in
           force (FM-9: the higher or the lower value wins), negative when it is beaten.

        >>> a = resolve_attack(Play("9H", trumps=("KH",)), Play("4H"), Rules(damage="table"))
        >>> a.damage, a.utility("attacker"), a.utility("defender")
        (2, (2, 0, 6), (-2, 0, -6))
        """
        other = _other(side)
        taken = {"defender": self.damage, "attacker": self.attacker_damage}
        scored = {"attacker": 0, "defender": self.points if self.winner == "defender" and not self.wrestling else 0}
        gets = taken[other] - taken[side] + scored[side] - scored[other]
        nasty = sum(1 if s != side else -1 for s in self.nasty_hit_to)
        margin = self.attacker_value - self.defender_value
        if self.wins == "lowest":
            margin = -margin
        return (gets, nasty, margin if side == "attacker" else -margin)


def _units(play: Play, revealed: Sequence[Card], rules: Rules | None = None) -> list[_Unit]:
    units = [_Unit(c, c.colour, is_death_card(c, rules)) for c in revealed]
    if play.wild is not None:
        units.append(_Unit(play.wild, play.wild.colour, is_death_card(play.wild, rules), "wild"))
    units += [_Unit(c, c.colour, is_death_card(c, rules), "turned_up") for c in play.drawn]
    units += [_Unit(None, play.wild_colour or "", how="point") for _ in range(play.wild_points)]
    return units


def table_damage(difference: int, table: Sequence[tuple[str, int]]) -> int:
    """The damage of a ``difference`` by a damage table (FM-10 variant ``"table"``): the
    damage of the range holding it (0 for a draw). ``table`` is checked
    (:func:`~toolkit.fairy_meat.rules.check_damage_table`): ranges from 1, no gap, the last open."""
    if difference <= 0:
        return 0
    for key, damage in table:
        lo, _, hi = key.partition("-")
        top = None if key.endswith("+") else int(hi or lo)
        if top is None or difference <= top:
            return damage
    raise AssertionError(f"damage table {table!r} does not cover {difference}")  # pragma: no cover


def points_of(difference: int, rules: Rules | None = None) -> int:
    """The points the winner scores (FM-10): ceil(difference / 2), or
    ceil(difference / ``rules.points_divisor``)."""
    return -(-difference // (rules or _DEFAULT).points_divisor)


@implements("FM-10")
def damage_of(difference: int, rules: Rules) -> int:
    """The damage a won attack deals (FM-10): 1 per point, ceil(difference / divisor), or with
    ``Rules(damage="table")`` by the damage table (the rule book's: 1 for a difference of
    1-4, 2 for 5-8, 3 for 9+, no halving)."""
    return table_damage(difference, rules.table) if rules.damage == "table" else points_of(difference, rules)


@implements("FM-9")
def winner_of(attacker_value: int, defender_value: int, same_colour: bool, rules: Rules | None = None) -> Side | None:
    """Who wins (FM-9): with Numbered cards of the same colour the highest final value,
    of different colours the lowest (or as ``rules.same_colour_wins`` /
    ``different_colour_wins`` say); equal values are a draw (``None``)."""
    if attacker_value == defender_value:
        return None
    beats = (rules or _DEFAULT).beats(attacker_value, defender_value, same_colour)
    return "attacker" if beats else "defender"


@implements("FM-14", "FM-14 escape")
def wrestling_damage(winner: Side | None, difference: int, escape: bool, rules: Rules) -> tuple[int, int]:
    """Damage (to the defender, to the attacker) of a Wrestling attack (FM-14): the winner
    damages the loser whoever attacked (FM-10 amounts), unless she forgoes it to escape
    (then nobody takes damage); a draw deals 1 damage to each."""
    if winner is None:
        return 1, 1
    if escape:
        return 0, 0
    dealt = damage_of(difference, rules)
    return (dealt, 0) if winner == "attacker" else (0, dealt)


@implements("FM-12")
def nasty_hit_to(
    ace_applied: bool, winner: Side | None, damage: int, attacker_damage: int, rules: Rules
) -> tuple[Side, ...]:
    """Who suffers a Nasty Hit (FM-12): when the A♠ is among the cards applied, the fairy
    who takes damage from the attack (both in a Wrestling draw, FM-14); with
    ``Rules(nasty_hit="loser")`` the loser, even without damage.

    A gap the variant leaves, read here: under ``"loser"`` an attack with no loser (a
    draw) gives the Nasty Hit as the default does, to whoever takes damage (both fairies
    in a Wrestling draw, nobody in any other draw): the variant widens who suffers it to a
    loser without damage, it does not spare a fairy the default would hit."""
    if not ace_applied:
        return ()
    if rules.nasty_hit == "loser" and winner is not None:
        return (_other(winner),)
    return tuple(s for s, d in (("defender", damage), ("attacker", attacker_damage)) if d > 0)


def _best_shift(chooser: Side, n: int, highest_wins: bool) -> tuple[int, int]:
    """The chooser's best net shifts (on attacker value, on defender value) with ``n``
    cheating Trumps: raise her own and lower the other's when highest wins (same
    colour by default), the reverse when lowest wins (FM-8, FM-9). Each Trump shifts both values
    by 1, so this is best whatever the rest of the attack is."""
    own, theirs = (n, -n) if highest_wins else (-n, n)
    return (own, theirs) if chooser == "attacker" else (theirs, own)


def _check_shift(chooser: Side, shift: tuple[int, int], n: int) -> tuple[int, int]:
    ok = (
        isinstance(shift, tuple)
        and len(shift) == 2
        and all(is_whole_number(s) and abs(s) <= n and (s - n) % 2 == 0 for s in shift)
    )
    if not ok:
        raise IllegalActionError(
            f"{chooser}'s shifts {shift!r} are not possible with {count(n, 'cheating Trump')}: each Trump moves each "
            f"value by exactly 1 up or down, so each net shift is one of {list(range(-n, n + 1, 2))} (FM-8)"
        )
    return shift


def _judge_attack(
    plays: dict[Side, Play],
    revealed: dict[Side, tuple[Card, ...]],
    bonus_applied: bool,
    shifts: dict[Side, tuple[int, int] | None],
    rules: Rules,
    wrestling: bool,
    escape: bool,
    names: tuple[str, str],
    explain: bool = True,
) -> AttackResult:
    """Judge one attack with its choices made; ``explain=False`` leaves the explanation
    out (:func:`resolve_attack` judges every choice, then explains the one made)."""
    steps: list[Step] | None = [] if explain else None
    units = {s: _units(plays[s], revealed[s], rules) for s in SIDES}
    worth = rules.trump_value
    colour = {s: plays[s].number.colour for s in SIDES}
    value = {s: plays[s].number.pips or 0 for s in SIDES}
    cheats = {s: [u for u in units[s] if not matches(u.colour, colour[s])] for s in SIDES}
    for s in SIDES:
        p = plays[s]
        matching = [u for u in units[s] if matches(u.colour, colour[s])]
        value[s] += p.sign * len(matching) * worth
        with_trumps = value[s]
        bonus = s == "defender" and bonus_applied and p.bonus
        if bonus:
            value[s] += p.sign * p.bonus
        if steps is not None:
            steps.append(
                _step(
                    "",
                    step="value",
                    side=s,
                    card=p.number.code,
                    colour=colour[s],
                    direction=p.direction,
                    matching=tuple(u.data for u in matching),
                    trump_total=len(matching) * worth,
                    with_trumps=with_trumps,
                    bonus=p.bonus if bonus else 0,
                    value=value[s],
                )
            )
    same = colour["attacker"] == colour["defender"]
    wins = rules.same_colour_wins if same else rules.different_colour_wins
    if steps is not None:
        steps.append(_step("FM-9", step="colours", colours=(colour["attacker"], colour["defender"]), wins=wins))
    applied_shifts: dict[Side, tuple[int, int]] = {}
    for cheater in SIDES:
        n = len(cheats[cheater])
        if not n:
            continue
        chooser = _other(cheater)
        given = shifts.get(chooser)
        shift = _best_shift(chooser, n, wins == "highest") if given is None else _check_shift(chooser, given, n)
        applied_shifts[chooser] = shift
        value["attacker"] += shift[0]
        value["defender"] += shift[1]
        if steps is not None:
            cheating = tuple(u.data for u in cheats[cheater])
            card = plays[cheater].number.code
            steps.append(
                _step("FM-8", step="cheat", side=cheater, cheats=cheating, card=card, chooser=chooser, shift=shift)
            )
    va, vd = value["attacker"], value["defender"]
    if steps is not None:
        steps.append(_step("", step="final", values=(va, vd)))
    winner = winner_of(va, vd, same, rules)
    difference = abs(va - vd)
    points = points_of(difference, rules)
    damage, attacker_damage = _damage_steps(winner, difference, rules, wrestling, escape, steps)
    ace = any(u.ace_of_spades for s in SIDES for u in units[s])
    nasty = nasty_hit_to(ace, winner, damage, attacker_damage, rules)
    if ace and steps is not None:
        steps.append(_step("FM-12", step="nasty_hit", death_card=rules.death_card, to=nasty))
    return AttackResult(
        attacker_value=va,
        defender_value=vd,
        winner=winner,
        difference=difference,
        points=points,
        damage=damage,
        attacker_damage=attacker_damage,
        nasty_hit=bool(nasty),
        nasty_hit_to=nasty,
        same_colour=same,
        revealed=dict(revealed),
        bonus_applied=bonus_applied,
        shifts=applied_shifts,
        escaped=escape and winner is not None and wrestling,
        wrestling=wrestling,
        wins=wins,
        explanation=tuple(steps or ()),
        names=names,
    )


def _damage_steps(
    winner: Side | None,
    difference: int,
    rules: Rules,
    wrestling: bool,
    escape: bool,
    steps: list[Step] | None,
) -> tuple[int, int]:
    """Damage (to the defender, to the attacker) of a judged attack, its steps appended
    (FM-9, FM-10, FM-11, FM-14) unless ``steps`` is ``None``."""
    say = steps.append if steps is not None else lambda step: None
    points = points_of(difference, rules)
    if winner is None:
        say(_step("FM-9", step="draw"))
        if not wrestling:
            return 0, 0
        both = wrestling_damage(None, difference, escape, rules)
        say(_step("FM-14", step="wrestling_draw", damage=both[0]))
        return both
    loser = _other(winner)
    say(_step("FM-10", step="wins", winner=winner, difference=difference, divisor=rules.points_divisor, points=points))
    if wrestling:
        damage, attacker_damage = wrestling_damage(winner, difference, escape, rules)
        if escape:
            say(_step("FM-14", step="escape", winner=winner, loser=loser))
        else:
            say(_step("FM-14", step="wrestling_damage", loser=loser, damage=damage + attacker_damage))
        return damage, attacker_damage
    if winner == "attacker":
        damage = damage_of(difference, rules)
        # The ruling is left blank as it always was: the damage rule is named inside the sentence.
        say(
            _step(
                "", step="damage", side="defender", damage=damage, by="table" if rules.damage == "table" else "points"
            )
        )
        return damage, 0
    say(_step("", step="scores", side="defender", points=points))
    return 0, 0


def _reveal_options(trumps: tuple[Card, ...], rules: Rules) -> list[tuple[Card, ...]]:
    if rules.none_reveal == "subset":
        return [c for k in range(len(trumps), -1, -1) for c in itertools.combinations(trumps, k)]
    return [trumps, ()]


@implements("FM-5 order")
def resolve_attack(
    attacker: Play,
    defender: Play | None,
    rules: Rules | None = None,
    *,
    reveal: dict[Side, Sequence[str | Card] | bool] | None = None,
    apply_bonus: bool | None = None,
    shifts: dict[Side, tuple[int, int]] | None = None,
    wrestling: bool = False,
    escape: bool = False,
    names: tuple[str, str] = ("Attacker", "Defender"),
    explain: bool = True,
) -> AttackResult:
    """Judge one attack between two plays (FM-4..FM-12; FM-14 with ``wrestling``).

    The choices the draft gives the players after the Numbered cards are revealed are
    made best for the chooser unless given:

    - ``reveal``: when one side said None, the other side's face-down Trumps stay
      hidden and their owner reveals all or none (FM-5; any subset with
      ``Rules(none_reveal="subset")``): ``{"attacker": True}`` or a list of cards.
    - ``apply_bonus``: the defender's next-defence bonus, all or none (FM-11 b).
    - ``shifts``: what each side does with the opponent's cheating Trumps, as net
      shifts (on the attacker's value, on the defender's value) (FM-8).

    Best choices: the attacker (whose turn it is) decides her reveal first, then the
    defender her reveal and bonus; each maximises :meth:`AttackResult.utility`.

    ``defender=None`` is an undefended defender under ``Rules(undefended="unopposed")``
    (FM-7): the attacker wins and scores ceil(her value / 2). Under the default
    ``"blind_draw"`` an undefended defender plays the Numbered card and Trumps she turned
    up, as a :class:`Play` with ``drawn``.

    ``explain=False`` leaves the explanation out (``lines`` and ``steps`` empty; the same
    judgement): for the calculators, which read only the outcome.

    Raises:
        IllegalActionError: a choice the rules do not allow.
        ArgumentTypeError: ``attacker`` not a Play, ``defender`` not a Play or None,
            ``rules`` not Rules or None.
    """
    if not isinstance(attacker, Play):
        raise ArgumentTypeError(f"attacker must be a Play (e.g. Play('3D')), got {type(attacker).__name__}")
    if defender is not None and not isinstance(defender, Play):
        raise ArgumentTypeError(f"defender must be a Play or None, got {type(defender).__name__}")
    if rules is not None and not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules must be a fairy_meat Rules or None, got {type(rules).__name__}")
    rules = rules or Rules()
    for play in (attacker, defender):
        if play is not None and (play.rules or _DEFAULT) != rules:
            play.check_kinds(rules)  # FM-1 under the rules judged by
    names = (names[0], names[1])
    if defender is None:
        # FM-5: the defender has nothing, so she says None; face-down Trumps stay hidden and
        # the attacker reveals all or none of them (any subset with none_reveal="subset").
        chosen = (reveal or {}).get("attacker")
        if chosen is None:
            options = _reveal_options(attacker.trumps, rules) if attacker.trumps else [()]
        elif chosen is True:
            options = [attacker.trumps]
        elif chosen is False:
            options = [()]
        else:
            options = [tuple(c for c in attacker.trumps if c in _cards(chosen))]  # type: ignore[arg-type]
        return max(
            (_unopposed(attacker, shown, rules, names) for shown in options), key=lambda r: r.utility("attacker")
        )
    plays: dict[Side, Play] = {"attacker": attacker, "defender": defender}
    common = set(attacker.trumps + attacker.drawn + (attacker.number,)) & set(
        defender.trumps + defender.drawn + (defender.number,)
    )
    if common:
        raise IllegalActionError(f"{', '.join(sorted(c.code for c in common))} cannot be played by both sides")
    # FM-5: if one side said None (no Trump of any kind by default), the other's face-down Trumps stay hidden.
    hidden_side = hidden_trumps_owner(
        (not attacker.says_none, not defender.says_none), (attacker.other_trumps, defender.other_trumps), rules
    )
    owner: Side | None = None if hidden_side is None else SIDES[hidden_side]
    reveal = dict(reveal or {})
    for side in reveal:
        if side not in SIDES:
            raise IllegalActionError(f"reveal is keyed by 'attacker' or 'defender', got {side!r}")
        if side != owner:
            raise IllegalActionError(
                f"the {side}'s Trumps are not hidden: only when the other side said None may their owner "
                "choose what to reveal (FM-5)"
            )
    if apply_bonus and not defender.bonus:
        raise IllegalActionError("the defender has no next-defence bonus to apply (FM-11)")

    def options(side: Side) -> list[tuple[Card, ...]]:
        trumps = plays[side].trumps
        if side != owner:
            return [trumps]
        if side in reveal:
            chosen = reveal[side]
            if chosen is True:
                return [trumps]
            if chosen is False:
                return [()]
            picked = _cards(chosen)  # type: ignore[arg-type]
            if any(c not in trumps for c in picked):
                raise IllegalActionError(f"{picked} are not all among the face-down Trumps {trumps}")
            if rules.none_reveal == "all_or_nothing" and picked and set(picked) != set(trumps):
                raise IllegalActionError(
                    "reveal all the face-down Trumps or none (FM-5); a subset needs Rules(none_reveal='subset')"
                )
            return [tuple(c for c in trumps if c in picked)]
        return _reveal_options(trumps, rules)

    bonus_options = [apply_bonus] if apply_bonus is not None else ([True, False] if defender.bonus else [False])
    given_shifts: dict[Side, tuple[int, int] | None] = dict(shifts or {})

    def judge(ra: tuple[Card, ...], rd: tuple[Card, ...], bonus: bool, explain: bool = False) -> AttackResult:
        revealed = {"attacker": ra, "defender": rd}
        return _judge_attack(plays, revealed, bonus, given_shifts, rules, wrestling, escape, names, explain)

    def defender_best(ra: tuple[Card, ...]) -> AttackResult:
        candidates = [judge(ra, rd, b) for rd in options("defender") for b in bonus_options]
        return max(candidates, key=lambda r: r.utility("defender"))

    choices = (options("attacker"), options("defender"), bonus_options)
    if all(len(c) == 1 for c in choices):
        result = judge(choices[0][0], choices[1][0], choices[2][0], explain=explain)
    else:  # every choice judged without words, then the one made judged again, explained
        best = max((defender_best(ra) for ra in choices[0]), key=lambda r: r.utility("attacker"))
        result = (
            judge(best.revealed["attacker"], best.revealed["defender"], best.bonus_applied, explain=True)
            if explain
            else best
        )
    if owner is not None:
        hidden = tuple(c for c in plays[owner].trumps if c not in result.revealed[owner])
        shown = result.revealed[owner]
        if not explain:
            return _with(result, hidden={owner: hidden})
        kept = hidden if shown else ()  # named, for her eyes only, beside those she reveals
        note = Step(
            EventData(
                step="none_rule", side=owner, revealed=tuple(c.code for c in shown), kept=tuple(c.code for c in hidden)
            ),
            "FM-5",
            owner if kept else None,
        )
        result = _with(result, hidden={owner: hidden}, explanation=(note, *result.explanation))
    return result


def _with(result: AttackResult, **changes: object) -> AttackResult:
    from dataclasses import replace

    return replace(result, **changes)


def _unopposed(attacker: Play, shown: tuple[Card, ...], rules: Rules, names: tuple[str, str]) -> AttackResult:
    if rules.undefended != "unopposed":
        raise IllegalActionError(
            "an undefended defender turns up cards as a Wild Trump (FM-7 blind draw): give her a Play with the "
            "cards drawn, or use Rules(undefended='unopposed')"
        )
    units = _units(attacker, shown, rules)
    colour = attacker.number.colour
    matching = [u for u in units if matches(u.colour, colour)]
    cheats = len(units) - len(matching)
    value = (attacker.number.pips or 0) + attacker.sign * len(matching) * rules.trump_value - cheats  # shifted down
    points = points_of(max(value, 0), rules)
    damage = damage_of(max(value, 0), rules)
    ace = any(u.ace_of_spades for u in units)
    nasty = nasty_hit_to(ace, "attacker", damage, 0, rules)
    steps = (
        _step("FM-7 variant", step="unopposed"),
        _step(
            "",
            step="unopposed_value",
            value=value,
            difference=max(value, 0),
            divisor=rules.points_divisor,
            points=points,
        ),
        _step("FM-10", step="damage", side="defender", damage=damage, by=None),
    )
    return AttackResult(
        attacker_value=value,
        defender_value=0,
        winner="attacker",
        difference=max(value, 0),
        points=points,
        damage=damage,
        nasty_hit=bool(nasty),
        nasty_hit_to=nasty,
        revealed={"attacker": shown, "defender": ()},
        hidden={"attacker": tuple(c for c in attacker.trumps if c not in shown)} if attacker.trumps else {},
        explanation=steps,
        names=names,
    )
