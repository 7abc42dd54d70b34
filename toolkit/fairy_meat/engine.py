"""The Fairy Meat combat engine: deals, declarations, attacks, choices and the Spoils Heap.

One :class:`CombatState` is a whole combat between an attacking and a defending fairy
(FM-2..FM-14): both combat hands are dealt (chance nodes, one card each, from a
:class:`~toolkit.cards.Pile` that may be stacked for a rule-book example), each fairy
declares Add or Subtract (FM-3), then each attack goes: Trumps face down (FM-4, FM-5,
FM-7 Wild Trump points), Numbered cards or Wild Trumps (FM-6), cards turned up from
the deck (chance), the None-rule reveal (FM-5), the next-defence bonus (FM-11), the
cheating shifts (FM-8), the referee's judgement (:func:`~.referee.resolve_attack`),
damage, Nasty Hits and the defender's choice of how to keep her points (FM-11). Spent
cards go to the Spoils Heap; the deck is reshuffled only when it runs out (FM-13).

Actions are short strings, the same in the stepper, in example files and in logs:
``declare add``, ``trumps KS QC``, ``trumps none``, ``points black``, ``play 3D``,
``wild KS``, ``reveal all``, ``reveal none``, ``bonus yes``, ``shift +1 -1``,
``score bonus``, ``score cards``, ``escape``, ``damage``. Chance outcomes are cards.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from toolkit.cards import Card, Pile, check_distinct, parse_card, parse_cards
from toolkit.engine import CHANCE, TERMINAL, Event, GameState, replaced
from toolkit.errors import IllegalActionError, InvalidSetupError, ToolkitError
from toolkit.fairy_meat.attack import (
    NO_CHOICE,
    Attack,
    attack_seen,
    attacks_lost,
    card_types,
    extra_cards_spent,
    hidden_owner,
    score_options,
    spent_cards,
    wild_trump_points,
)
from toolkit.fairy_meat.deck import deck_cards, is_numbered, is_trump
from toolkit.fairy_meat.legality import (
    defence_without_cards,
    matches,
    playable_cards,
    trump_sets,
)
from toolkit.fairy_meat.narration import cast, narrate
from toolkit.fairy_meat.referee import AttackResult, Play, Side, resolve_attack
from toolkit.fairy_meat.rules import Fairy, Rules, Voice, combat_hand_sizes
from toolkit.narration import narrated_later
from toolkit.numbers import count
from toolkit.rulings import implements
from toolkit.whole_numbers import whole_number

__all__ = ["CombatState", "Setup", "start_combat", "PLAYERS"]

PLAYERS: tuple[Side, Side] = ("attacker", "defender")


def _cards_text(cards: Sequence[Card]) -> str:
    """The cards by their codes (``KS QC``), or ``none``: as actions and messages write them."""
    return " ".join(c.code for c in cards) if cards else "none"


def _signed(n: int) -> str:
    return f"{n:+d}"


def _set(pair: tuple, i: int, value: object) -> tuple:
    return (value, pair[1]) if i == 0 else (pair[0], value)


@dataclass(frozen=True)
class Setup:
    """How a combat was set up (what :func:`start_combat` was given), for export."""

    attacker: Fairy
    defender: Fairy
    attacker_modifiers: int = 0
    defender_modifiers: int = 0
    fluttered: bool = False
    holds_order_card: bool = False
    defender_has_attacked: bool = False
    wrestling: bool = False
    attacks: int | None = None


@dataclass(frozen=True)
class CombatState(GameState):
    """A Fairy Meat combat in progress. Build it with :func:`start_combat`."""

    rules: Rules
    fairies: tuple[Fairy, Fairy]
    hand_sizes: tuple[int, int]
    attacks: int
    pile: Pile
    wrestling: bool = False
    defender_has_attacked: bool = False
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    declared: tuple[str | None, str | None] = NO_CHOICE
    attack_no: int = 0
    cur: Attack = field(default_factory=Attack)
    bonus_points: int = 0  # FM-11 b: usable against this attack
    prev_points: int = 0  # FM-7: points scored against the previous attack
    extra_cards: int = 0  # FM-11 a: owed for the defender's attack back
    results: tuple[AttackResult, ...] = ()
    #: The attacks already made, as played (what each side may have seen of them: see
    #: :meth:`information_state`).
    past: tuple[Attack, ...] = ()
    nasty_hits: tuple[str, ...] = ()
    finished: bool = False
    log_events: tuple[Event, ...] = ()
    #: Every card dealt or turned up, in order (a stacked deck that replays this combat).
    cards_seen: tuple[Card, ...] = ()
    setup: Setup | None = None

    # -- what happens next ---------------------------------------------------------
    def phase(self) -> tuple[str, int]:
        """``(step, side)``: the step pending and whose it is (0 attacker, 1 defender).

        Worked out once per state (a state never changes; the engine, the policies and the
        enumerations ask it several times a step) and kept beside the fields, outside them:
        equality, hashing and :func:`dataclasses.replace` see only the fields."""
        known = self.__dict__.get("_phase")
        if known is None:
            known = self._pending_step()
            object.__setattr__(self, "_phase", known)
        return known

    def _pending_step(self) -> tuple[str, int]:
        if self.finished:
            return ("over", -1)
        for i in (0, 1):
            if len(self.hands[i]) < self.hand_sizes[i] and not self.declared[i]:
                return ("deal", i)
            if self.declared[i] is None:
                return ("declare", i)
        a = self.cur
        if a.result is None:
            for i in (0, 1):
                if a.trumps[i] is None:
                    return ("trumps", i)
            for i in (0, 1):
                if a.plays[i] is None:
                    return ("play", i)
            for i in (0, 1):
                if a.plays[i] in ("wild", "points", "blind") and a.number[i] is None:
                    return ("draw", i)
            owner = self._hidden_owner()
            if owner is not None and a.reveal is None:
                return ("reveal", owner)
            if self._bonus_available() and a.bonus is None:
                return ("bonus", 1)
            for i in (0, 1):
                if self._cheats_against(i) and a.shifts[i] is None:
                    return ("shift", i)
            if self.wrestling and a.escape is None:
                # FM-14: the Wrestling winner chooses to deal the damage or escape before
                # the attack is settled, so the result and the log say what happened.
                winner = self._resolve().winner
                if winner is not None:
                    return ("escape", PLAYERS.index(winner))
            return ("resolve", -1)
        if self._score_choice_needed() and a.score is None:
            return ("score", 1)
        return ("next", -1)

    @property
    def current_player(self) -> str:
        step, side = self.phase()
        if step == "over":
            return TERMINAL
        if step in ("deal", "draw"):
            return CHANCE
        return PLAYERS[side]

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log_events

    @property
    def names(self) -> tuple[str, str]:
        return (self.fairies[0].name, self.fairies[1].name)

    @property
    def moves(self) -> tuple[tuple[str, str], ...]:
        """Every decision of the history (:attr:`~toolkit.engine.GameState.history`), as
        (fairy name, action): what an example's ``moves`` list holds (:func:`~.notation.to_example`)."""
        return tuple(
            (self.names[PLAYERS.index(before.current_player)], str(action))
            for before, action in self.history_steps()
            if not before.is_chance_node
        )

    # -- chance ------------------------------------------------------------------------
    def _chance_outcomes(self) -> list[tuple[Hashable, Fraction]]:
        options = self._next_cards()
        p = Fraction(1, len(options))
        return [(c, p) for c in options]

    def _next_cards(self) -> list[Card]:
        """The cards that may come next, in order (:meth:`~toolkit.cards.Pile.next_options`),
        read from the rules' deck in order rather than sorted again at every card."""
        options = self.pile.next_options_in(_sorted_deck(self.rules))
        if not options:
            raise InvalidSetupError("the deck and the Spoils Heap are both empty: no card can be turned up")
        return options

    def sample_chance(self, rng: random.Random) -> Hashable:
        """The next card drawn with ``rng``: the draw :meth:`GameState.sample_chance
        <toolkit.engine.GameState.sample_chance>` makes (``rng.randrange`` over the cards in
        order, each equally likely), without building their distribution."""
        options = self._next_cards()
        return options[rng.randrange(len(options))]

    def action_to_string(self, action: Hashable) -> str:
        return action.code if isinstance(action, Card) else str(action)

    def parse_action(self, text: str) -> Hashable:
        if self.is_chance_node:
            card = parse_card(text)
            if card not in self.pile.next_options():
                raise IllegalActionError(f"{card} cannot be the next card: it is not in the deck here")
            return card
        wanted = " ".join(text.split()).lower()
        for action in self.legal_actions():
            if action.lower() == wanted:
                return action
        # the same cards in another order name the same action
        verb, _, rest = wanted.partition(" ")
        for action in self.legal_actions():
            a_verb, _, a_rest = action.lower().partition(" ")
            if a_verb == verb and sorted(a_rest.split()) == sorted(rest.split()):
                return action
        raise IllegalActionError(self._why_illegal(text))

    def parse_actions(self, text: str) -> list[Hashable]:
        """Cards for chance steps (``"KS QC 5C"``), otherwise one action string."""
        if self.is_chance_node:
            return [parse_card(t) for t in text.replace(",", " ").split()]
        return [self.parse_action(text)]

    def roll_group(self) -> int:
        step, side = self.phase()
        if step == "deal":
            return self.hand_sizes[side] - len(self.hands[side])
        return 1

    # -- decisions ---------------------------------------------------------------------
    def _legal_actions(self) -> list[str]:
        step, i = self.phase()
        hand = self.hands[i]
        a = self.cur
        if step == "declare":
            return ["declare add", "declare subtract"]
        if step == "trumps":
            if not hand and i == 1 and self.prev_points:
                return ["points red", "points black", "trumps none"]  # FM-7
            return [
                "trumps none",
                *[f"trumps {_cards_text(s)}" for s in trump_sets(hand, rules=self.rules)],
            ]  # FM-4, FM-6
        if step == "play":
            playable = playable_cards(hand, a.trumps[i] or (), self.rules)  # FM-6
            return [f"{'play' if is_numbered(c, self.rules) else 'wild'} {c.code}" for c in playable]
        if step == "reveal":
            trumps = a.trumps[i] or ()
            if self.rules.none_reveal == "subset":
                subsets = [s for k in range(len(trumps), 0, -1) for s in itertools.combinations(trumps, k)]
                return ["reveal all", *[f"reveal {_cards_text(s)}" for s in subsets[1:]], "reveal none"]
            return ["reveal all", "reveal none"]
        if step == "bonus":
            return ["bonus yes", "bonus no"]
        if step == "shift":
            n = len(self._cheats_against(i))
            steps = range(-n, n + 1, 2)
            return [f"shift {_signed(x)} {_signed(y)}" for x in steps for y in steps]
        if step == "escape":
            return ["damage", "escape"]
        if step == "score":
            return self._score_options()
        return []

    def _why_illegal(self, action: Hashable) -> str:
        """A message saying which rule an illegal action breaks (FM-4, FM-6, FM-13 ...)."""
        if self.is_chance_node:
            return super()._why_illegal(action)
        action = str(action)
        step, i = self.phase()
        name = self.names[i] if i >= 0 else ""
        legal = ", ".join(self.legal_actions())
        verb, _, rest = action.strip().partition(" ")
        hand = self.hands[i] if i >= 0 else ()
        try:
            names_cards = verb in ("trumps", "play", "wild") and rest != "none"
            cards = [parse_card(c) for c in rest.split()] if names_cards else []
        except ToolkitError as exc:
            return f"{exc}; {name} can: {legal}"
        missing = [c.code for c in cards if c not in hand]
        if missing:
            where = f"{name}'s hand ({_cards_text(hand)})"
            return f"{', '.join(missing)} is not in {where}; {self._v(i).subject} can: {legal}"
        if step == "trumps" and verb == "trumps":
            if any(not is_trump(c, self.rules) for c in cards):
                ranks = " ".join(self.rules.trump_ranks)
                return f"only Trumps ({ranks}) are placed face down (FM-4); {name} can: {legal}"
            if len({c.colour for c in cards if not c.is_joker}) > 1:
                return f"the Trumps placed must all be of one colour, red or black (FM-4); {name} can: {legal}"
            v = self._v(i)
            has = f"{v.subject} {v.verb('has', 'have')}"
            return f"{name} must keep a Trump back to play as a Wild Trump: {has} no Numbered card (FM-6)"
        if step == "play" and verb in ("play", "wild"):
            v = self._v(i)
            if any(is_numbered(c, self.rules) for c in playable_cards(hand, self.cur.trumps[i] or (), self.rules)):
                return f"{name} holds a Numbered card, so {v.subject} must play one (FM-6); {v.subject} can: {legal}"
            return (
                f"{name} has no Numbered card: {v.subject} {v.verb('plays')} a Trump as a Wild Trump (FM-6); "
                f"{v.subject} can: {legal}"
            )
        return f"{action!r} is not possible for {name or 'anyone'} now ({step}); choose one of: {legal}"

    def best_result(self, *, explain: bool = True) -> AttackResult | None:
        """Return the judgement of the current attack when every choice left in it — the
        reveal (FM-5), the bonus (FM-11), the cheating shifts (FM-8) — is made as
        :meth:`best_action` would make it; ``None`` until the cards are all on the table.
        ``explain=False`` leaves its explanation (``lines``) out: the same numbers, for solvers."""
        if self.phase()[0] not in ("reveal", "bonus", "shift", "resolve"):
            return None
        return self._resolve(choose_best=True, explain=explain)

    def best_action(self) -> str | None:
        """The referee's best choice at a reveal, bonus or shift step (what the stepper
        preselects and the default policies play), else ``None``."""
        step, i = self.phase()
        if step not in ("reveal", "bonus", "shift"):
            return None
        best = self._resolve(choose_best=True, explain=False)  # the choices only, no words
        if step == "reveal":
            shown = best.revealed[PLAYERS[i]]
            if set(shown) == set(self.cur.trumps[i] or ()):
                return "reveal all"
            return f"reveal {_cards_text(shown)}" if shown else "reveal none"
        if step == "bonus":
            return "bonus yes" if best.bonus_applied else "bonus no"
        x, y = best.shifts[PLAYERS[i]]
        return f"shift {_signed(x)} {_signed(y)}"

    # -- applying ----------------------------------------------------------------------
    def _apply(self, action: Hashable) -> CombatState:
        step, i = self.phase()
        if step == "deal":
            card = action
            assert isinstance(card, Card)
            hands = _set(self.hands, i, self.hands[i] + (card,))
            state = replaced(self, hands=hands, pile=self.pile.draw(card), cards_seen=self.cards_seen + (card,))
            if len(hands[i]) == self.hand_sizes[i]:
                state = state._log_deal(i)
            return state._advance()
        if step == "draw":
            card = action
            assert isinstance(card, Card)
            a = self.cur
            state = replaced(self, pile=self.pile.draw(card), cards_seen=self.cards_seen + (card,))
            numbered = is_numbered(card, self.rules)
            if numbered:
                a = replaced(a, number=_set(a.number, i, card))
            else:
                a = replaced(a, drawn=_set(a.drawn, i, a.drawn[i] + (card,)))
            before = self._hidden_owner()
            turned = {"side": PLAYERS[i], "card": card.code, "numbered": numbered}
            return replaced(state, cur=a)._log("draw", turned, "FM-6")._log_unhidden(before)._advance()
        text = str(action)
        verb, _, rest = text.partition(" ")
        a = self.cur
        if step == "declare":
            state = replaced(self, declared=_set(self.declared, i, rest))
            return state._log("declare", {"side": PLAYERS[i], "declared": rest}, "FM-3")._advance()
        if step == "trumps":
            if verb == "points":
                a = replaced(a, trumps=_set(a.trumps, i, ()), wild_colour=rest)
                points = {"side": PLAYERS[i], "wild_points": self.prev_points, "colour": rest}
                state = replaced(self, cur=a)._log("trumps", points, "FM-7")
                if a.trumps[0] is not None:
                    state = state._announce_trumps()
                return state._advance()
            chosen = () if rest == "none" else tuple(parse_card(c) for c in rest.split())
            a = replaced(a, trumps=_set(a.trumps, i, chosen))
            state = replaced(self, cur=a)
            if a.trumps[0] is not None and a.trumps[1] is not None:
                state = state._announce_trumps()
            return state._advance()
        if step == "play":
            card = parse_card(rest)
            if verb == "play":
                a = replaced(
                    a, plays=_set(a.plays, i, "play"), cards=_set(a.cards, i, card), number=_set(a.number, i, card)
                )
            else:
                a = replaced(a, plays=_set(a.plays, i, "wild"), cards=_set(a.cards, i, card))
            state = replaced(self, cur=a)
            if a.plays[0] is not None and a.plays[1] is not None:
                state = state._announce_plays()
            return state._advance()
        if step == "reveal":
            trumps = a.trumps[i] or ()
            shown = trumps if rest == "all" else () if rest == "none" else tuple(parse_card(c) for c in rest.split())
            return replaced(self, cur=replaced(a, reveal=shown))._advance()
        if step == "bonus":
            return replaced(self, cur=replaced(a, bonus=rest == "yes"))._advance()
        if step == "shift":
            x, y = (int(v) for v in rest.split())
            return replaced(self, cur=replaced(a, shifts=_set(a.shifts, i, (x, y))))._advance()
        if step == "escape":
            return replaced(self, cur=replaced(a, escape=text == "escape"))._advance()
        if step == "score":
            return replaced(self, cur=replaced(a, score=rest))._advance()
        raise IllegalActionError(f"nothing to apply at step {step!r}")  # pragma: no cover

    def _v(self, i: int) -> Voice:
        """Side ``i``'s pronoun forms for the narration (``Fairy.pronoun``, as the designer calls her)."""
        return self.fairies[i].voice

    def _log(
        self, kind: str, data: Mapping[str, object], ruling: str = "", audience: tuple[str, ...] | None = None
    ) -> CombatState:
        """Return the state with the event of ``kind`` whose payload is ``data`` logged, its
        sentence rendered from the data (:func:`toolkit.fairy_meat.narration.narrate`) when
        first read (:func:`toolkit.narration.narrated_later`)."""
        event = narrated_later(kind, data, cast(self), narrate, ruling=ruling, audience=audience)
        return replaced(self, log_events=self.log_events + (event,))

    def _log_deal(self, i: int) -> CombatState:
        """Log side ``i``'s combat hand as dealt: the cards for her eyes only, how many for
        the other side's (FM-2, FM-5: a hand is hidden until its cards are played face up)."""
        dealt = {"side": PLAYERS[i], "cards": tuple(c.code for c in self.hands[i])}
        return self._log("deal", dealt, "FM-2", audience=(PLAYERS[i],))

    def _announce_trumps(self) -> CombatState:
        """Log both sides' Trumps turned face up (FM-4), but those of a side whose Trumps stay
        hidden because the other said None: how many (FM-5)."""
        a = self.cur
        owner = self._hidden_owner()
        shown = tuple(() if i == owner else tuple(c.code for c in a.trumps[i] or ()) for i in (0, 1))
        announced = {
            "attack": self.attack_no + 1,
            "shown": shown,
            "hidden": None if owner is None else PLAYERS[owner],
            "face_down": 0 if owner is None else len(a.trumps[owner] or ()),
            "wild_colour": a.wild_colour,
        }
        return self._log("trumps", announced, "FM-4")

    def _announce_plays(self) -> CombatState:
        a = self.cur
        state = self._log("play", {"plays": a.plays, "cards": tuple(c and c.code for c in a.cards)}, "FM-6")
        return state._log_unhidden(hidden_owner(replaced(a, plays=(a.plays[0], None)), self.rules))

    @implements("FM-5 reveal")
    def _log_unhidden(self, before: int | None) -> CombatState:
        """Log the face-down Trumps of side ``before`` revealed because the other side has
        now played a Trump (a Wild Trump, or one turned up): she has not said None (FM-5)."""
        if before is None or self._hidden_owner() is not None:
            return self
        cards = tuple(c.code for c in self.cur.trumps[before] or ())
        return self._log("trumps", {"revealed": PLAYERS[before], "cards": cards}, "FM-5")

    # -- the automatic steps -----------------------------------------------------------
    def _advance(self) -> CombatState:
        state = self
        while True:
            step, i = state.phase()
            if step == "trumps" and not state.hands[i] and not (i == 1 and state.prev_points):
                if i == 0 and attacks_lost(state.hands[0]):
                    state = state._log("end", {"attacks_lost": True}, "FM-13")
                    return replaced(state, finished=True)
                state = replaced(state, cur=replaced(state.cur, trumps=_set(state.cur.trumps, 1, ())))
                if state.cur.trumps[0] is not None:
                    state = state._announce_trumps()
                continue
            if step == "play" and i == 1 and not [c for c in state.hands[1] if c not in (state.cur.trumps[1] or ())]:
                a = state.cur
                kind = defence_without_cards(bool(a.wild_colour), state.rules)
                state = replaced(state, cur=replaced(a, plays=_set(a.plays, 1, kind)))
                if state.cur.plays[0] is not None:
                    state = state._announce_plays()
                continue
            if step == "resolve":
                state = state._settle()
                continue
            if step == "next":
                state = state._next_attack()
                if state.finished:
                    return state
                continue
            return state

    def _hidden_owner(self) -> int | None:
        """The side whose face-down Trumps stay hidden because the other said None (FM-5)."""
        return hidden_owner(self.cur, self.rules)

    def _bonus_available(self) -> bool:
        return self.bonus_points > 0 and self.cur.plays[1] in ("play", "wild", "blind")

    def _plays(self) -> tuple[Play, Play | None]:
        a = self.cur
        out: list[Play | None] = []
        for i in (0, 1):
            if a.plays[i] == "unopposed":
                out.append(None)
                continue
            number = a.number[i]
            assert number is not None and self.declared[i] is not None
            out.append(
                Play(
                    number,
                    trumps=a.trumps[i] or (),
                    direction=self.declared[i],
                    drawn=a.drawn[i],
                    wild=a.cards[i] if a.plays[i] == "wild" else None,
                    wild_points=self.prev_points if (i == 1 and a.plays[i] == "points") else 0,
                    wild_colour=a.wild_colour if (i == 1 and a.plays[i] == "points") else None,
                    bonus=self.bonus_points if (i == 1 and self._bonus_available()) else 0,
                    rules=self.rules,
                )
            )
        attacker = out[0]
        assert attacker is not None
        return attacker, out[1]

    def _cheats_against(self, chooser: int) -> list[str]:
        """The opponent's cheating Trumps that ``chooser`` may use (FM-8), once the plays,
        reveal and bonus are settled."""
        a = self.cur
        if a.plays[0] is None or a.plays[1] is None or a.number[0] is None:
            return []
        other = 1 - chooser
        if "unopposed" in a.plays or a.number[other] is None:
            return []  # an unopposed defender chooses nothing: the referee moves the value (FM-7)
        owner = self._hidden_owner()
        if owner is not None and a.reveal is None:
            return []
        shown = a.trumps[other] or ()
        if owner == other:
            shown = a.reveal or ()
        colour = a.number[other].colour
        units = [c.code for c in shown if not matches(c.colour, colour)]
        if a.plays[other] == "wild" and a.cards[other] is not None and not matches(a.cards[other].colour, colour):
            units.append(a.cards[other].code)
        units += [c.code for c in a.drawn[other] if not matches(c.colour, colour)]
        if other == 1 and a.plays[1] == "points" and not matches(a.wild_colour, colour):
            units += ["point"] * self.prev_points
        return units

    def _resolve(self, choose_best: bool = False, explain: bool = True) -> AttackResult:
        attacker, defender = self._plays()
        a = self.cur
        owner = self._hidden_owner()
        kwargs: dict = {"explain": explain}
        if not choose_best:
            if owner is not None:
                kwargs["reveal"] = {PLAYERS[owner]: list(a.reveal or ())}
            if a.bonus is not None:
                kwargs["apply_bonus"] = a.bonus
            kwargs["shifts"] = {PLAYERS[i]: s for i, s in enumerate(a.shifts) if s is not None}
        else:
            if owner is not None and a.reveal is not None:
                kwargs["reveal"] = {PLAYERS[owner]: list(a.reveal)}
            if a.bonus is not None:
                kwargs["apply_bonus"] = a.bonus
        escape = bool(self.wrestling and a.escape)
        return resolve_attack(
            attacker, defender, self.rules, wrestling=self.wrestling, escape=escape, names=self.names, **kwargs
        )

    def _settle(self) -> CombatState:
        result = self._resolve()
        state = replaced(self, cur=replaced(self.cur, result=result))
        for step in result.explanation:  # FM-5: a step naming the Trumps she keeps hidden is hers alone
            audience = None if step.private_to is None else (step.private_to,)
            state = state._log("resolve", step.data, step.ruling, audience)
        return state

    def _score_options(self) -> list[str]:
        return score_options(self.attack_no, self.attacks)

    def _score_choice_needed(self) -> bool:
        r = self.cur.result
        return (
            r is not None
            and not self.wrestling
            and r.winner == "defender"
            and r.points > 0
            and len(self._score_options()) > 1
        )

    def _next_attack(self) -> CombatState:
        a, r = self.cur, self.cur.result
        assert r is not None
        fairies = (self.fairies[0].take_damage(r.attacker_damage), self.fairies[1].take_damage(r.damage))
        state = replaced(self, fairies=fairies)
        nasty = tuple(self.names[PLAYERS.index(s)] for s in r.nasty_hit_to)
        if nasty:
            state = replaced(state, nasty_hits=state.nasty_hits + nasty)
        bonus = 0
        extra = state.extra_cards - extra_cards_spent(
            self.past[-1] if self.past else None, a, self.prev_points, self.defender_has_attacked
        )
        if r.winner == "defender" and r.points and not self.wrestling:
            choice = a.score or self._score_options()[0]
            if choice == "bonus":
                bonus = r.points
                score = "bonus"
            elif self.defender_has_attacked:
                score = "no_effect"
            else:
                extra += r.points
                score = "extra_cards"
            state = state._log("score", {"side": "defender", "score": score, "points": r.points}, "FM-11")
        for side, fairy in zip(PLAYERS, fairies, strict=True):
            if fairy.is_down:
                state = state._log("down", {"side": side, "fairy": fairy.name}, "FM-10")
        spent = spent_cards(a)
        hands = tuple(tuple(c for c in self.hands[i] if c not in spent) for i in (0, 1))
        state = replaced(
            state,
            hands=hands,  # type: ignore[arg-type]
            pile=state.pile.discard(spent),
            results=state.results + (r,),
            past=state.past + (a,),
            bonus_points=bonus,
            prev_points=wild_trump_points(r),
            extra_cards=extra,
            attack_no=self.attack_no + 1,
            cur=Attack(),
        )
        if state.attack_no >= self.attacks or any(f.is_down for f in fairies):
            return replaced(state._log("end", {}), finished=True)
        return state

    # -- reading -----------------------------------------------------------------------
    def observation(self, player: Side | None = None) -> str:
        """What ``player`` may see (everything for ``None``, the designer's view): her own
        hand, both declarations, and of each attack the Trumps revealed so far (placed,
        played as a Wild Trump or turned up) — not the other's hand or face-down Trumps
        still hidden under the None rule (only how many, FM-5)."""
        lines = []
        for i, side in enumerate(PLAYERS):
            hand = self.hands[i]
            shown = _cards_text(hand) if hand and player in (None, side) else count(len(hand), "card", zero="no")
            lines.append(f"{self.names[i]} ({side}): hand {shown}; declared {self.declared[i] or '-'}")
        for n, a in enumerate((*self.past, self.cur), start=1):
            if a.trumps[0] is None or a.trumps[1] is None:
                continue  # face down until both have placed theirs (FM-4)
            shown_trumps = [self._trumps_face_up(a, i) for i in (0, 1)]
            parts = [f"{self.names[i]} {shown_trumps[i]}" for i in (0, 1)]
            lines.append(f"Attack {n}: Trumps revealed: " + "; ".join(parts))
        return "\n".join(lines)

    def _trumps_face_up(self, a: Attack, i: int) -> str:
        """Side ``i``'s Trumps of attack ``a`` that lie face up, as text (FM-4..FM-7): those
        placed unless they stay hidden under the None rule (then how many lie face down,
        until their owner reveals them), the Wild Trump and the Trumps turned up."""
        placed = a.trumps[i] or ()
        owner = hidden_owner(a, self.rules)
        if owner == i:
            up = list(a.reveal or ())
            down = len(placed) - len(up)
        else:
            up, down = list(placed), 0
        if a.plays[0] is not None and a.plays[1] is not None and a.plays[i] == "wild" and a.cards[i] is not None:
            up.append(a.cards[i])
        up += list(a.drawn[i])
        text = _cards_text(up)
        return text + (f" ({down} face down)" if down else "")

    def dealt(self, side: Side) -> tuple[Card, ...]:
        """Return the combat hand ``side`` was dealt: the cards she holds and those she has
        played from it in earlier attacks (not cards turned up from the deck)."""
        i = PLAYERS.index(side)
        spent = [c for a in self.past for c in (a.trumps[i] or ())]
        spent += [a.cards[i] for a in self.past if a.plays[i] in ("play", "wild") and a.cards[i] is not None]
        return tuple(sorted(self.hands[i] + tuple(spent)))

    def information_state(self, side: Side, *, hands_known: bool = False) -> tuple:
        """Return everything ``side`` knows here, as a hashable key (equal keys: she cannot
        tell the two states apart), in card types (:func:`card_type`): suits matter only
        by colour and the A♠ (FM-1, FM-12).

        She knows her own dealt hand (and the opponent's with ``hands_known``), both
        declarations (FM-3), and of each attack: her own choices; the opponent's Trumps
        once both sides have placed theirs — except that when exactly one side says
        None the other's stay face down and only their number shows (FM-5), until their
        owner reveals them; both Numbered cards once both are played (FM-5); cards
        turned up (FM-6), Wild Trump point colours (FM-7), the reveal, bonus, shifts and
        scoring choices (FM-5, FM-8, FM-11), which are all made in the open.
        """
        i = PLAYERS.index(side)
        key: list = [("hand", card_types(self.dealt(side), self.rules))]
        if hands_known:
            key.append(("other", card_types(self.dealt(PLAYERS[1 - i]), self.rules)))
        key.append(("declared", self.declared))
        for a in (*self.past, self.cur):
            key.append(attack_seen(a, i, self.rules))
        return tuple(key)

    def prompt(self) -> str:
        step, i = self.phase()
        who = self.names[i] if i >= 0 else ""
        v = self._v(max(i, 0))
        her, has = v.possessive, f"{v.subject} {v.verb('has', 'have')}"
        texts = {
            "over": "The combat is over.",
            "deal": f"Deal {who} {count(self.roll_group(), 'more card' if self.hands[max(i, 0)] else 'card')}.",
            "declare": f"{who}: declare Add or Subtract for {her} Trumps (FM-3).",
            "trumps": f"Attack {self.attack_no + 1}: {who} places Trumps of one colour face down, or says None (FM-4).",
            "play": f"{who} plays a Numbered card (or a Trump as a Wild Trump if {has} none, FM-6).",
            "draw": f"Turn up a card for {who} (FM-6).",
            "reveal": f"{who}: reveal the hidden face-down Trumps? (FM-5)",
            "bonus": f"{who}: apply the next-defence bonus of {self.bonus_points}? (FM-11)",
            "shift": f"{who}: move the two values with the opponent's cheating Trumps (FM-8).",
            "escape": f"{who}: deal the damage, or forgo it to escape the brawl? (FM-14)",
            "score": f"{who}: keep the points as extra cards or as a next-defence bonus? (FM-11)",
        }
        return texts.get(step, step)

    def summary(self) -> dict[str, object]:
        """Return the combat's results so far: damage taken, Nasty Hits, points, extra cards."""
        return {
            "attacks": len(self.results),
            "attacker_live": self.fairies[0].live,
            "defender_live": self.fairies[1].live,
            "damage_to_defender": sum(r.damage for r in self.results),
            "damage_to_attacker": sum(r.attacker_damage for r in self.results),
            "escapes": sum(r.escaped for r in self.results),
            "nasty_hits": self.nasty_hits,
            "extra_cards": self.extra_cards,
        }


def _not_in_deck(rules: Rules) -> str:
    ranks = " ".join((*rules.numbered_ranks, *rules.trump_ranks))
    jokers = f" and {count(rules.jokers, 'joker')}" if rules.jokers else ", no jokers"
    return f"not in the {len(deck_cards(rules))}-card deck of these rules (FM-1: ranks {ranks}{jokers})"


@cache
def _sorted_deck(rules: Rules) -> tuple[Card, ...]:
    """The rules' deck (FM-1) sorted as :meth:`~toolkit.cards.Pile.next_options` sorts a pile."""
    return tuple(sorted(deck_cards(rules)))


def full_pile(rules: Rules, stacked: Sequence[str | Card] = ()) -> Pile:
    """The rules' full deck (FM-1: :func:`~toolkit.fairy_meat.deck.deck_cards`) with
    ``stacked`` cards on top in that order, the rest shuffled.

    Raises:
        NotationError / InvalidSetupError: an unknown code, a card stacked twice or one
            not in the rules' deck.
    """
    return Pile.of_deck(deck_cards(rules), stacked, _not_in_deck(rules))


def start_combat(
    attacker: Fairy,
    defender: Fairy,
    rules: Rules | None = None,
    *,
    deck: Sequence[str | Card] = (),
    hands: tuple[Sequence[str | Card], Sequence[str | Card]] | None = None,
    attacker_modifiers: int = 0,
    defender_modifiers: int = 0,
    fluttered: bool = False,
    holds_order_card: bool = False,
    defender_has_attacked: bool = False,
    wrestling: bool = False,
    attacks: int | None = None,
) -> CombatState:
    """Return a combat before the first card is dealt (or with ``hands`` already dealt).

    Hand sizes follow FM-2 (by Kill points when ``wrestling``, FM-14; ``rules.wrestling_hand``). ``deck`` stacks
    cards on top of the deck in order — the attacker's hand, then the defender's, then
    any cards turned up — for rule-book examples; the rest of the 52 cards (FM-1) are
    shuffled. ``hands`` deals known hands directly (the rest of the deck shuffled).
    ``attacks`` defaults to the attacker's weapon's number of attacks (1 when Wrestling).

    Raises:
        NotationError / InvalidSetupError: bad cards, duplicates, impossible sizes.
    """
    rules = rules or Rules()
    sizes = combat_hand_sizes(
        attacker,
        defender,
        attacker_modifiers=attacker_modifiers,
        defender_modifiers=defender_modifiers,
        fluttered=fluttered,
        holds_order_card=holds_order_card,
        wrestling=wrestling,
        rules=rules,
    )
    n_attacks = attacks if attacks is not None else (1 if wrestling else attacker.weapon.attacks)
    n_attacks = whole_number(n_attacks, "attacks", 1, ruling="FM-13")
    if attacker.name == defender.name:
        raise InvalidSetupError(f"the two fairies need different names, both are {attacker.name!r}")
    for f in (attacker, defender):
        if f.is_down:
            raise InvalidSetupError(f"{f.name} has no Live points left and cannot fight")
    state = CombatState(
        rules=rules,
        fairies=(attacker, defender),
        hand_sizes=sizes,
        attacks=n_attacks,
        pile=full_pile(rules, deck),
        wrestling=wrestling,
        defender_has_attacked=defender_has_attacked,
        setup=Setup(
            attacker,
            defender,
            attacker_modifiers,
            defender_modifiers,
            fluttered,
            holds_order_card,
            defender_has_attacked,
            wrestling,
            attacks,
        ),
    )
    started = {
        "wrestling": wrestling,
        "live": (attacker.live, defender.live),
        "kill": (attacker.kill, defender.kill),
        "weapon": attacker.weapon.name,
        "hand_sizes": sizes,
        "attacks": n_attacks,
    }
    state = state._log("start", started, "FM-2")
    if hands is not None:
        dealt = [parse_cards(hand) for hand in hands]
        check_distinct([c for hand in dealt for c in hand], "the two hands")
        outside = [c.code for hand in dealt for c in hand if c not in state.pile.shuffled]
        if outside:
            raise InvalidSetupError(f"{', '.join(outside)} {_not_in_deck(rules)}")
        for i, cards in enumerate(dealt):
            if len(cards) != sizes[i]:
                raise InvalidSetupError(
                    f"{state.names[i]}'s hand has {len(cards)} cards but her combat hand size is {sizes[i]} (FM-2)"
                )
        if state.pile.stacked:
            raise InvalidSetupError("give either a stacked deck or dealt hands, not both")
        pile = Pile((), state.pile.shuffled - {c for hand in dealt for c in hand}, ())
        state = replaced(state, hands=(dealt[0], dealt[1]), pile=pile)
        for i in (0, 1):
            state = state._log_deal(i)
    return state
