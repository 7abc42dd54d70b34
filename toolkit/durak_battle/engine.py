"""The Durak mass battle engine: reconnaissance, deal, initiative, clash, morale, rounds.

A :class:`BattleState` is a whole battle between two armies, ``a`` and ``b`` (the
player ids). Each round: both leaders roll Knowledge (Battle) (chance, DB-2) and draw
that many cards plus the token advantage (chance, one card at a time, from a
reshuffled deck, DB-9); the side with the highest attack card takes the initiative
(DB-3); the clash is played out (DB-4..DB-6) with tokens lost at once (DB-7); then the
side originally attacked rolls morale first (DB-8). Rounds go on until an army
retreats or is destroyed.

Decision actions are short strings: ``attack 7S``, ``attack JK1``, ``pass``,
``defence 9H``, ``manoeuvre QD``, ``counter 5C`` (a joker may be played as any of
them: ``defence JK2``), ``take`` (decline and take the strike). Chance outcomes are
roll totals (ints), cards, and ``"a"``/``"b"`` for a coin flip between tied jokers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from toolkit.cards import Card, Pile, check_distinct, parse_card, parse_cards
from toolkit.durak_battle.clash import actions_of, card_value
from toolkit.durak_battle.initiative_rule import NO_CLASH, TIE_COIN, attack_cards, initiative_holder
from toolkit.durak_battle.morale import morale_holds, morale_order, morale_penalty, spirit_roll
from toolkit.durak_battle.narration import cast, hand_sentence, narrate
from toolkit.durak_battle.position import OPENING, Beat, ClashPosition, clash_over
from toolkit.durak_battle.recon import cards_drawn, knowledge_roll, token_advantage
from toolkit.durak_battle.rules import SIDES, Army, Rules, fresh_deck, settle_losses
from toolkit.engine import CHANCE, TERMINAL, Event, GameState, replaced
from toolkit.errors import IllegalActionError, InvalidSetupError, ToolkitError, excerpt
from toolkit.narration import narrated
from toolkit.numbers import count
from toolkit.whole_numbers import whole_number

__all__ = ["BattleState", "start_battle", "start_clash"]

_PAIR: tuple[None, None] = (None, None)


def _set(pair: tuple, i: int, value: object) -> tuple:
    return (value, pair[1]) if i == 0 else (pair[0], value)


@dataclass(frozen=True)
class BattleState(GameState):
    """A Durak battle in progress. Build it with :func:`start_battle` or :func:`start_clash`."""

    rules: Rules
    armies: tuple[Army, Army]
    deck: Pile
    round_no: int = 1
    stage: str = "recon"
    recon: tuple[int | None, int | None] = _PAIR
    hand_sizes: tuple[int, int] = (0, 0)
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    holder: int | None = None  # the side holding the initiative
    first_attacked: int | None = None  # the side without the initiative at the clash's start (DB-8)
    table: Card | None = None  # the attack (or counterattack) card to be answered
    attacking: int | None = None  # the side whose card is on the table
    passes: int = 0  # attack turns passed in a row
    # the side the initiative was passed to: she must attack while she holds a spade (DB-6);
    # OPENING at the clash's first attack, which is compulsory (DB-3)
    forced: int | None = None
    lost_clash: tuple[int, int] = (0, 0)
    lost_battle: tuple[int, int] = (0, 0)
    morale: tuple[bool | None, bool | None] = _PAIR
    outcome: str = ""  # "a retreats", "b destroyed", ...
    winner: int | None = None
    clash_only: bool = False
    max_rounds: int = 50
    stacked: tuple[Card, ...] = ()  # cards stacked for later rounds of an example
    log_events: tuple[Event, ...] = ()

    # -- the engine API -------------------------------------------------------------
    @property
    def current_player(self) -> str:
        stage = self.stage
        if stage == "over":
            return TERMINAL
        if stage in ("recon", "deal", "coin", "morale"):
            return CHANCE
        if stage == "attack":
            return SIDES[self.holder]  # type: ignore[index]
        return SIDES[1 - self.attacking]  # type: ignore[operator]

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log_events

    @property
    def names(self) -> tuple[str, str]:
        return (self.armies[0].name, self.armies[1].name)

    @property
    def chance_side(self) -> int:
        """The side (0 or 1) a chance step is for: a's then b's Knowledge (Battle) roll and
        hand (DB-2), the morale rolls in :func:`~.morale.morale_order` (DB-8); -1 otherwise."""
        if self.stage == "recon":
            return 0 if self.recon[0] is None else 1
        if self.stage == "deal":
            return 0 if len(self.hands[0]) < self.hand_sizes[0] else 1
        if self.stage == "morale":
            first, second = morale_order(self.first_attacked or 0)
            return first if self.morale[first] is None else second
        return -1

    def clash_position(self) -> ClashPosition:
        """The clash position of this state at an attack or answer (DB-3..DB-6).

        Raises:
            IllegalActionError: not at a decision of a clash.
        """
        return ClashPosition.from_state(self)

    def _chance_outcomes(self) -> list[tuple[Hashable, Fraction]]:
        i = self.chance_side
        if self.stage == "recon":
            return knowledge_roll(self.armies[i].leader).items()
        if self.stage == "morale":
            return spirit_roll(self.armies[i].leader).items()
        if self.stage == "coin":
            return [("a", TIE_COIN), ("b", 1 - TIE_COIN)]
        options = self.deck.next_options()
        if not options:
            raise InvalidSetupError("the deck is empty: no card can be drawn")
        return [(c, Fraction(1, len(options))) for c in options]

    def action_to_string(self, action: Hashable) -> str:
        """A card by its code, the coin's outcome by the army it gives the initiative to
        (``"North"``), anything else as it is."""
        if self.stage == "coin" and action in SIDES:
            return self.names[SIDES.index(action)]  # type: ignore[arg-type]
        return action.code if isinstance(action, Card) else str(action)

    def parse_action(self, text: str) -> Hashable:
        if self.is_chance_node:
            if self.stage in ("recon", "morale"):
                try:
                    value = int(text)
                except ValueError:
                    raise IllegalActionError(f"{text!r} is not a roll total: give a whole number") from None
                possible = dict(self.chance_outcomes())
                if value not in possible:
                    raise IllegalActionError(
                        f"{excerpt(value)} is not a possible roll here: a total from {min(possible)} to "  # type: ignore[type-var]
                        f"{max(possible)} (DB-2, DB-8)"  # type: ignore[type-var]
                    )
                return value
            if self.stage == "coin":
                wanted = text.strip().lower()
                for i, name in enumerate(self.names):
                    if wanted in (name.lower(), SIDES[i]):
                        return SIDES[i]
                raise IllegalActionError(
                    f"the coin flip names the army that takes the initiative: {self.names[0]} or {self.names[1]}"
                )
            card = parse_card(text)
            if card not in self.deck.next_options():
                raise IllegalActionError(f"{card} cannot be drawn now: it is not in the deck")
            return card
        wanted = " ".join(text.split()).lower()
        for action in self.legal_actions():
            if str(action).lower() == wanted:
                return action
        raise IllegalActionError(self._why_illegal(text))

    def parse_actions(self, text: str) -> list[Hashable]:
        """Cards for a deal (``"7S 9H QD"``), otherwise one action or roll."""
        if self.is_chance_node and self.stage == "deal":
            return [self.parse_action(t) for t in text.replace(",", " ").split()]
        return [self.parse_action(text)]

    def roll_group(self) -> int:
        if self.stage == "deal":
            i = self.chance_side
            return self.hand_sizes[i] - len(self.hands[i])
        return 1

    def _legal_actions(self) -> list[str]:
        if self.stage in ("attack", "answer"):
            return self.clash_position().legal_actions()
        return []

    def _why_illegal(self, text: str) -> str:
        verb, _, rest = text.strip().lower().partition(" ")
        i = self.holder if self.stage == "attack" else 1 - (self.attacking or 0)
        name = self.names[i] if i is not None else ""
        legal = ", ".join(self.legal_actions())
        if self.stage == "answer" and verb == "attack":
            return f"an attack cannot be answered with an attack (DB-1); {name} can: {legal}"
        if rest:
            try:
                card = parse_card(rest)
            except ToolkitError as exc:
                return f"{exc}; {name} can: {legal}"
            if card not in self.hands[i or 0]:
                return f"{card} is not in {name}'s hand ({hand_sentence(self.hands[i or 0])}); she can: {legal}"
            if verb in ("defence", "manoeuvre", "counter", "attack") and verb not in actions_of(card, self.rules):
                return f"{card} cannot be played as {verb}: {self.rules.suits_text()} (DB-1)"
        if verb == "pass" and self.stage == "attack" and self.forced == OPENING:
            return f"{name} holds the initiative and must open the clash with an attack (DB-3); she can: {legal}"
        if verb == "pass" and self.stage == "attack":
            return f"{name} must attack while she holds a {self.rules.suit_word('attack')} (DB-6); she can: {legal}"
        return f"{text!r} is not possible for {name} now ({self.stage}); choose one of: {legal}"

    def apply(self, action: Hashable) -> BattleState:
        """Return the state after ``action``.

        Raises:
            IllegalActionError: not allowed here, with the ruling; this state is unchanged.
        """
        if not self.is_chance_node and not self.is_terminal and action not in self.legal_actions():
            raise IllegalActionError(self._why_illegal(str(action)))
        new = super().apply(action)
        assert isinstance(new, BattleState)
        return new

    # -- applying ---------------------------------------------------------------------
    def _log(
        self, kind: str, data: Mapping[str, Any], ruling: str = "", audience: tuple[str, ...] | None = None
    ) -> BattleState:
        """Append the event of ``kind`` with payload ``data``, its sentence rendered by the
        narrator (:mod:`.narration`); ``audience`` names the sides who may read it (the
        others read its public sentence), ``None`` for everyone."""
        event = narrated(kind, data, cast(self), narrate, ruling=ruling, audience=audience)
        return replaced(self, log_events=self.log_events + (event,))

    def _apply(self, action: Hashable) -> BattleState:
        stage = self.stage
        if stage == "recon":
            return self._recon(int(action))  # type: ignore[arg-type]
        if stage == "deal":
            return self._deal(action)  # type: ignore[arg-type]
        if stage == "coin":
            i = SIDES.index(str(action))
            state = self._log("initiative", {"decided": "coin", "holder": SIDES[i]}, "DB-3")
            return state._begin_clash(i)
        if stage == "morale":
            return self._morale(int(action))  # type: ignore[arg-type]
        _, beats = self.clash_position().advance(str(action))
        return self._play(beats)

    def _recon(self, total: int) -> BattleState:
        i = self.chance_side
        army, other = self.armies[i], self.armies[1 - i]
        advantage = token_advantage(army.tokens, other.tokens)
        cards = cards_drawn(total, advantage, self.rules)
        leader = army.leader
        state = replaced(self, recon=_set(self.recon, i, total), hand_sizes=_set(self.hand_sizes, i, cards))
        scouted = {
            "side": SIDES[i],
            "roll": total,
            "cards": cards,
            "advantage": advantage,
            "die": leader.battle_die,
            "wild": leader.wild_card,
        }
        state = state._log("recon", scouted, "DB-2")
        if state.recon[1] is not None:
            state = replaced(state, stage="deal")._after_deal_step()
        return state

    def _deal(self, card: Card) -> BattleState:
        i = self.chance_side
        state = replaced(self, deck=self.deck.draw(card), hands=_set(self.hands, i, self.hands[i] + (card,)))
        if len(state.hands[i]) == state.hand_sizes[i]:
            dealt = {"side": SIDES[i], "cards": tuple(c.code for c in state.hands[i])}
            state = state._log("deal", dealt, "DB-2", audience=(SIDES[i],))  # her hand is hers alone to see
        return state._after_deal_step()

    def _after_deal_step(self) -> BattleState:
        state = self
        for i in (0, 1):
            if len(state.hands[i]) < state.hand_sizes[i]:
                if state.deck.is_empty:
                    raise InvalidSetupError("the deck ran out while dealing: hands larger than the deck")
                return state
            if (
                len(state.hands[i]) == 0
                and state.hand_sizes[i] == 0
                and not any(e.kind == "deal" and e.data.get("side") == SIDES[i] for e in state.log_events[-3:])
            ):
                state = state._log("deal", {"side": SIDES[i], "cards": ()}, "DB-2")
        return state._initiative()

    def _initiative(self) -> BattleState:
        who = initiative_holder(*self.hands, self.rules)
        if who is NO_CLASH:
            state = self._log("initiative", {"decided": "no_clash"}, "DB-3")
            if state.clash_only:
                return replaced(state, stage="over", outcome="no clash", hands=((), ()))
            return state._next_round()
        if who is None:
            return replaced(self, stage="coin")
        mine, theirs = attack_cards(self.hands[who], self.rules), attack_cards(self.hands[1 - who], self.rules)
        took = {"decided": "card", "holder": SIDES[who], "card": mine[0].code}
        if theirs and card_value(theirs[0]) == card_value(mine[0]):
            k = next(k for k in range(len(mine)) if k >= len(theirs) or card_value(mine[k]) != card_value(theirs[k]))
            took.update(decided="next_card", next_card=mine[k].code)
        # the card is not played yet: the other side learns only who attacks
        state = self._log("initiative", took, "DB-3", audience=(SIDES[who],))
        return state._begin_clash(who)

    def _begin_clash(self, holder: int) -> BattleState:
        state = replaced(self, stage="attack", holder=holder, first_attacked=1 - holder, passes=0, forced=OPENING)
        _, beats = ClashPosition.begin(state.hands, holder, state.rules)
        return state._play(beats)

    def _play(self, beats: tuple[Beat, ...]) -> BattleState:
        """Narrate the beats of a clash step (:meth:`ClashPosition.step`) and apply them:
        cards leave the hands, tokens are lost (DB-7), the initiative moves (DB-6)."""
        state = self
        for beat in beats:
            state = state._beat(beat)
            if state.stage in ("over", "morale"):
                break
        return state

    def _beat(self, beat: Beat) -> BattleState:
        kind, i, card = beat.kind, beat.side, beat.card
        if kind == "pass":
            state = self._log("pass", {"side": SIDES[i], "declined": not beat.auto}, "DB-6")
            if clash_over(self.passes + 1):
                return replaced(state, passes=self.passes + 1)
            return replaced(state, holder=1 - i, passes=self.passes + 1, forced=1 - i)
        if kind == "end":
            state = self._log("clash", {"ended": True}, "DB-6")
            return state._end_clash()
        hands = self.hands
        if card is not None:
            hands = _set(hands, i, tuple(c for c in hands[i] if c != card))
        if kind == "attack":
            assert card is not None
            forced = None if self.forced == OPENING else self.forced  # the opening attack is made (DB-3)
            state = replaced(self, hands=hands, table=card, attacking=i, stage="answer", passes=0, forced=forced)
            return state._log("attack", {"side": SIDES[i], "card": card.code}, "DB-1")
        attacker = 1 - i
        result = beat.answer
        assert result is not None
        state = replaced(self, hands=hands)
        if kind == "strike":
            struck = {"side": SIDES[i], "declined": not beat.auto, "loss": result.defender_loss}
            state = state._log("strike", struck, "DB-4")._lose(beat.loss)
            return state._attack_done(attacker)
        assert card is not None and self.table is not None
        if kind == "counter":
            table = self.table
            countered = {
                "side": SIDES[i],
                "card": card.code,
                "against": table.code,
                "equal": card_value(card) == card_value(table),
                "counts_as": "lower" if result.defender_loss or not result.succeeded else "higher",
                "loss": result.defender_loss,
            }
            state = state._log("counter", countered, "DB-5")
            state = state._lose(beat.loss)
            if state.stage == "over":
                return state
            # The initiative passes by the counterattack, not by a pass: nobody is forced (DB-6).
            return replaced(state, table=card, attacking=i, holder=i, stage="answer", forced=None)
        answered = {
            "side": SIDES[i],
            "card": card.code,
            "succeeded": result.succeeded,
            "attacker_loss": result.attacker_loss,
            "defender_loss": result.defender_loss,
        }
        state = state._log(result.action, answered, "DB-1")._lose(beat.loss)
        return state._attack_done(attacker)

    def _lose(self, loss: tuple[int, int]) -> BattleState:
        """Apply the losses (a's, b's); an army at 0 is destroyed (DB-7, :func:`~.rules.settle_losses`)."""
        armies = self.armies
        la, lb, gone = settle_losses((armies[0].tokens, armies[1].tokens), (loss,))
        state = replaced(
            self,
            armies=(replace(armies[0], tokens=armies[0].tokens - la), replace(armies[1], tokens=armies[1].tokens - lb)),
            lost_clash=(self.lost_clash[0] + la, self.lost_clash[1] + lb),
            lost_battle=(self.lost_battle[0] + la, self.lost_battle[1] + lb),
        )
        if gone == "both":
            state = state._log("destroyed", {"destroyed": SIDES}, "DB-7")
            return replaced(state, stage="over", outcome="both destroyed", winner=None)
        if gone is not None:
            s = SIDES.index(gone)
            state = state._log("destroyed", {"destroyed": (gone,)}, "DB-7")
            return replaced(state, stage="over", outcome=f"{gone} destroyed", winner=1 - s)
        return state

    def _attack_done(self, attacker: int) -> BattleState:
        if self.stage == "over":
            return self
        # DB-6: the side whose attack was just settled holds the initiative.
        return replaced(self, stage="attack", holder=attacker, table=None, attacking=None, passes=0)

    def _end_clash(self) -> BattleState:
        state = self._log("clash", {"lost": self.lost_clash}, "DB-7")
        if self.clash_only:
            return replaced(state, stage="over", outcome="clash over", hands=((), ()))
        # DB-9: leftover cards are discarded.
        return replaced(state, stage="morale", hands=((), ()), table=None, attacking=None)

    def _morale(self, total: int) -> BattleState:
        i = self.chance_side
        penalty = morale_penalty(self.rules, self.lost_clash[i], self.lost_battle[i])
        ok = morale_holds(total, penalty, self.rules)
        rolled = {
            "side": SIDES[i],
            "roll": total,
            "penalty": penalty,
            "stays": ok,
            "die": self.armies[i].leader.spirit_die,
            "target": self.rules.morale_target,
        }
        state = replaced(self, morale=_set(self.morale, i, ok))._log("morale", rolled, "DB-8")
        if not ok:
            return replaced(state, stage="over", outcome=f"{SIDES[i]} retreats", winner=1 - i)
        if state.morale[1 - i] is None:
            return state
        return state._next_round()

    def _next_round(self) -> BattleState:
        if self.round_no >= self.max_rounds:
            state = self._log("end", {"rounds": self.max_rounds})
            return replaced(state, stage="over", outcome="undecided")
        # DB-9: every round deals fresh hands from a reshuffled deck.
        deck = fresh_deck(self.rules, self.stacked)
        state = replaced(
            self,
            round_no=self.round_no + 1,
            stage="recon",
            recon=_PAIR,
            hand_sizes=(0, 0),
            hands=((), ()),
            deck=deck,
            stacked=(),
            holder=None,
            first_attacked=None,
            table=None,
            attacking=None,
            passes=0,
            forced=None,
            lost_clash=(0, 0),
            morale=_PAIR,
        )
        return state._log("round", {"round": state.round_no})

    # -- reading ------------------------------------------------------------------------
    def prompt(self) -> str:
        stage = self.stage
        if stage == "over":
            return f"The battle is over: {self.result_text()}."
        if stage == "recon":
            return f"{self.armies[self.chance_side].leader.name} rolls Knowledge (Battle) (DB-2)."
        if stage == "deal":
            more = "more card" if self.hands[self.chance_side] else "card"  # "more" once some are in hand
            return f"Deal {self.names[self.chance_side]} {count(self.roll_group(), more)}."
        if stage == "coin":
            return "Joker against joker: a coin flip for the initiative (DB-3)."
        if stage == "morale":
            return f"{self.armies[self.chance_side].leader.name} rolls Spirit for morale (DB-8)."
        if stage == "attack":
            suit = self.rules.suit_word("attack")
            return (
                f"{self.names[self.holder or 0]} holds the initiative: attack with a {suit} or joker, or pass (DB-6)."
            )
        return f"{self.names[1 - (self.attacking or 0)]}: answer the {self.table.name if self.table else ''} (DB-4)."

    def result_text(self) -> str:
        """The outcome with the armies' names: ``"North retreats"``, ``"South destroyed"``,
        ``"both destroyed"``, ``"undecided"``, ``"clash over"``; ``"unfinished"`` before the end."""
        if not self.is_terminal:
            return "unfinished"
        side, _, rest = self.outcome.partition(" ")
        if side in SIDES and rest:
            return f"{self.names[SIDES.index(side)]} {rest}"
        return self.outcome

    def observation(self, player: str | None = None) -> str:
        """What ``player`` (``"a"`` or ``"b"``) may see: the armies' tokens, her own hand and
        the size of the other's, the card on the table (played face up); everything with
        ``None`` (the designer). The armies are named, never by their side ids."""
        lines = []
        for i, side in enumerate(SIDES):
            cards = self.hands[i]
            hand = hand_sentence(cards) if cards and player in (None, side) else count(len(cards), "card", zero="no")
            lines.append(f"{self.names[i]}: {count(self.armies[i].tokens, 'token')}; hand {hand}")
        if self.table is not None:
            lines.append(f"On the table: {self.table.code}")
        return "\n".join(lines)


def _check_armies(army_a: Army, army_b: Army) -> None:
    if army_a.name == army_b.name:
        raise InvalidSetupError(f"the two armies need different names, both are {army_a.name!r}")
    for army in (army_a, army_b):
        if army.destroyed:
            raise InvalidSetupError(f"{army.name} has no tokens and cannot fight (DB-7)")


def start_battle(
    army_a: Army,
    army_b: Army,
    rules: Rules | None = None,
    *,
    deck: Sequence[str | Card] = (),
    max_rounds: int = 50,
) -> BattleState:
    """Return a battle before the first reconnaissance roll.

    ``deck`` stacks cards on top of the first round's deck (side a's hand, then b's) for
    rule-book examples; the rest is shuffled.
    """
    rules = rules or Rules()
    _check_armies(army_a, army_b)
    max_rounds = whole_number(max_rounds, "max_rounds", 1)
    state = BattleState(rules=rules, armies=(army_a, army_b), deck=fresh_deck(rules, deck), max_rounds=max_rounds)
    return state._log("start", {"tokens": (army_a.tokens, army_b.tokens)}, "DB-7")


def start_clash(
    army_a: Army,
    army_b: Army,
    hands: tuple[Sequence[str | Card] | str, Sequence[str | Card] | str],
    rules: Rules | None = None,
    coin: str | None = None,
) -> BattleState:
    """Return the clash of one round with known hands, ready for the initiative (DB-3):
    the state ends when the clash does (no morale, no further rounds).

    ``coin`` settles a joker-against-joker tie (``"a"`` or ``"b"``); without it that tie
    is a chance step.
    """
    rules = rules or Rules()
    _check_armies(army_a, army_b)
    dealt = (parse_cards(hands[0]), parse_cards(hands[1]))
    check_distinct(dealt[0] + dealt[1], "the two hands")
    deck = fresh_deck(rules)
    missing = [c.code for c in dealt[0] + dealt[1] if c not in deck.remaining()]
    if missing:
        raise InvalidSetupError(f"{', '.join(missing)} not in the deck (jokers={rules.jokers}, DB-1)")
    pile = Pile((), deck.shuffled - set(dealt[0] + dealt[1]), ())
    state = BattleState(
        rules=rules,
        armies=(army_a, army_b),
        deck=pile,
        stage="deal",
        recon=(len(dealt[0]), len(dealt[1])),
        hand_sizes=(len(dealt[0]), len(dealt[1])),
        hands=dealt,
        clash_only=True,
    )
    hands = {"hands": tuple(tuple(c.code for c in hand) for hand in dealt)}
    state = state._log("start", hands, "DB-2", audience=())  # both hands: the designer's view only
    state = state._initiative()
    if coin is not None and state.stage == "coin":
        state = state.apply(coin)
    return state
