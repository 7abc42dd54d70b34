"""The shape every rules engine shares, after OpenSpiel's game API.

A state is immutable: :meth:`GameState.apply` returns a new state, so a stepper's
Back button and an enumerator's branching need no undo. A state is either a
*chance* node (a die rolled, a card turned up: :meth:`chance_outcomes` lists every
outcome with its exact probability), a *decision* node (``current_player`` names
who chooses among :meth:`legal_actions`), or *terminal*. Each state carries the
event log that led to it.

Systems write only the hooks (``_legal_actions``, ``_chance_outcomes``, ``_apply``
and the properties); the public methods here check the action first, so an illegal
action raises :class:`~toolkit.errors.IllegalActionError` and leaves nothing changed.

Every state keeps its history: the actions and chance outcomes applied since the state it
started from (:attr:`GameState.history`, :attr:`GameState.history_start`,
:meth:`GameState.history_steps`), whichever way they were applied. A system's example
notation writes a played game from it (:func:`toolkit.notation.write_example`), so no
system keeps its own record of the moves.

An event is a sentence and the data behind it (:class:`Event`): the sentence is built
with :class:`Sentence`, which records where it shows a card or a die face
(:class:`Mark`), so programs (the rule-book export's pictures) read the marks, never the
words, and a name that looks like a card code stays a name.

The generic consumers live here too: :func:`play_out` (one sampled game, for Monte
Carlo and the stepper's Roll button) and :func:`enumerate_outcomes` (the exact
distribution of any function of the terminal state by brute force over every chance
outcome — the reference the fast calculators are tested against).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit.errors import ArgumentTypeError, IllegalActionError, InvalidSetupError, TooBigError
from toolkit.prob import Distribution

if TYPE_CHECKING:
    from toolkit.cards import Card

__all__ = [
    "replaced",
    "policy_pair",
    "policy_name",
    "CHANCE",
    "TERMINAL",
    "Event",
    "EventData",
    "Mark",
    "MARK_KINDS",
    "Sentence",
    "GameState",
    "Policy",
    "play_out",
    "enumerate_outcomes",
]

#: ``current_player`` of a chance node.
CHANCE = "chance"
#: ``current_player`` of a terminal state.
TERMINAL = "terminal"

#: A policy maps a decision state to a distribution over its legal actions.
Policy = Callable[["GameState"], Distribution[Any]]


#: What a :class:`Mark` shows: a playing card or a poker-die face.
MARK_KINDS = ("card", "die")


class Mark(NamedTuple):
    """Where a sentence shows a card or a die face: ``text[start:end]``, its kind
    (``"card"`` or ``"die"``) and its code (``"KS"``, ``"JK1"``, ``"JK"`` for a joker whose
    words do not number it, or a face ``"10"``).

    The marked words are the code itself (``KS``, ``10``) or the thing in words (``5 of
    Clubs``, ``Joker``); a picture stands in place of the former and follows the latter.
    """

    start: int
    end: int
    kind: str
    code: str


def _check_marks(text: str, marks: tuple[Mark, ...]) -> tuple[Mark, ...]:
    """``marks`` as :class:`Mark` tuples, checked to lie in order inside ``text``."""
    out = []
    at = 0
    for m in marks:
        m = m if type(m) is Mark else Mark(*m)
        if not (at <= m.start < m.end <= len(text)) or m.kind not in MARK_KINDS or not isinstance(m.code, str):
            raise InvalidSetupError(
                f"mark {tuple(m)!r} does not fit {text!r}: marks are (start, end, kind, code) with kind one of "
                f"{', '.join(MARK_KINDS)}, in order, not overlapping, inside the text"
            )
        out.append(m)
        at = m.end
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Sentence:
    """A text with the :class:`Mark` of every card and die face it shows, built from
    pieces so that the two never disagree.

    >>> s = Sentence.of("Ann draws 2 cards: ", Sentence.listing("card", ["9H", "3C"]), ".")
    >>> s.text, s.marks[1]
    ('Ann draws 2 cards: 9H 3C.', Mark(start=22, end=24, kind='card', code='3C'))
    >>> (Sentence.die("K") + " wins").marks
    (Mark(start=0, end=1, kind='die', code='K'),)

    Raises:
        InvalidSetupError: (built from a text and marks) a mark outside the text, out
            of order, or of another kind.
    """

    text: str = ""
    marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ArgumentTypeError(f"a sentence's text must be a str, got {type(self.text).__name__}")
        object.__setattr__(self, "marks", _check_marks(self.text, tuple(self.marks)))

    @classmethod
    def shows(cls, kind: str, code: str, words: str = "") -> Sentence:
        """Return ``words`` (the code itself by default) marked as showing that card or face."""
        words = words or code
        return _sentence(words, (_mark(0, len(words), kind, code),))

    @classmethod
    def card_code(cls, card: Card | str) -> Sentence:
        """Return a card written as its code (``KS``), marked."""
        return cls.shows("card", card if isinstance(card, str) else card.code)

    @classmethod
    def card_name(cls, card: Card) -> Sentence:
        """Return a card written in words (``King of Spades``; ``Joker``, whose picture,
        like the words, does not say which joker), marked."""
        return cls.shows("card", "JK" if card.is_joker else card.code, card.name)

    @classmethod
    def die(cls, face: str) -> Sentence:
        """Return a poker-die face (``K``, ``10``), marked."""
        return cls.shows("die", face)

    @classmethod
    def listing(cls, kind: str, codes: Iterable[Card | str], sep: str = " ") -> Sentence:
        """Return cards (``kind="card"``, by their codes) or die faces (``"die"``) written
        one after the other with ``sep`` between, each marked."""
        texts: list[str] = []
        marks: list[Mark] = []
        at = 0
        for item in codes:
            code = item if isinstance(item, str) else item.code
            if texts:
                texts.append(sep)
                at += len(sep)
            texts.append(code)
            marks.append(_mark(at, at + len(code), kind, code))
            at += len(code)
        return _sentence("".join(texts), tuple(marks))

    @classmethod
    def of(cls, *pieces: str | Sentence) -> Sentence:
        """Return the pieces (plain strings and sentences) written one after the other."""
        if len(pieces) == 1 and type(pieces[0]) is Sentence:
            return pieces[0]
        texts: list[str] = []
        marks: list[Mark] = []
        at = 0
        for piece in pieces:
            if type(piece) is str:
                texts.append(piece)
                at += len(piece)
                continue
            if type(piece) is Sentence:
                if piece.marks:
                    marks += (
                        [_mark(m.start + at, m.end + at, m.kind, m.code) for m in piece.marks] if at else piece.marks
                    )
                piece = piece.text
            elif not isinstance(piece, str):
                raise ArgumentTypeError(f"a sentence is built of str and Sentence pieces, got {type(piece).__name__}")
            texts.append(piece)
            at += len(piece)
        return _sentence("".join(texts), tuple(marks))

    def join(self, pieces: Iterable[str | Sentence]) -> Sentence:
        """Return the pieces with this sentence between each two (``str.join``)."""
        items: list[str | Sentence] = []
        for piece in pieces:
            items += [self, piece] if items else [piece]
        return Sentence.of(*items)

    def without(self, start: int, end: int) -> Sentence:
        """Return the sentence with ``text[start:end]`` left out, and the marks inside it."""
        gone = end - start
        kept = [m for m in self.marks if m.end <= start or m.start >= end]
        return _sentence(
            self.text[:start] + self.text[end:],
            tuple(m if m.end <= start else _mark(m.start - gone, m.end - gone, m.kind, m.code) for m in kept),
        )

    def __add__(self, other: str | Sentence) -> Sentence:
        return Sentence.of(self, other)

    def __radd__(self, other: str) -> Sentence:
        return Sentence.of(other, self)

    def __str__(self) -> str:
        return self.text


def _mark(start: int, end: int, kind: str, code: str) -> Mark:
    # tuple.__new__ skips NamedTuple's Python-level constructor: narration is built on
    # every branch an enumeration visits.
    return tuple.__new__(Mark, (start, end, kind, code))


def _sentence(text: str, marks: tuple[Mark, ...]) -> Sentence:
    """A sentence whose marks are right by construction (no check)."""
    made = object.__new__(Sentence)
    object.__setattr__(made, "text", text)
    object.__setattr__(made, "marks", marks)
    return made


_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any, where: str) -> Any:
    """``value`` made immutable for :class:`EventData` (lists as tuples, mappings as
    EventData, sets as frozensets), or an error naming what cannot be."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Mapping):
        return EventData(value)
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v, where) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_frozen(v, where) for v in value)
    try:
        hash(value)
    except TypeError:
        raise ArgumentTypeError(
            f"event data {where} is a {type(value).__name__}, which cannot be frozen: use numbers, strings, "
            "cards, tuples, lists or mappings of them"
        ) from None
    return value


class EventData(Mapping[str, Any]):
    """The structured payload of an :class:`Event`: an immutable, hashable, picklable
    mapping (lists given become tuples, mappings become EventData).

    >>> d = EventData({"faces": ["K", "9"], "hits": 1})
    >>> d["faces"], d == EventData(hits=1, faces=("K", "9")), hash(d) == hash(EventData(d))
    (('K', '9'), True, True)
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]] = (), **more: Any) -> None:
        if type(items) is dict and not more:  # what engines pass, on every event of every branch
            plain = {}
            for key, value in items.items():
                if type(key) is not str:
                    break
                plain[key] = value if type(value) in _PLAIN else _frozen(value, repr(key))
            else:
                self._items = plain
                return
        pairs = dict(items)
        pairs.update(more)
        for key in pairs:
            if not isinstance(key, str):
                raise ArgumentTypeError(f"event data is keyed by names (str), got {key!r}")
        self._items: dict[str, Any] = {k: _frozen(v, repr(k)) for k, v in pairs.items()}

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventData):
            return self._items == other._items
        return isinstance(other, Mapping) and self._items == dict(other)

    def __repr__(self) -> str:
        return f"EventData({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EventData, (self._items,))


_NO_DATA = EventData()


@dataclass(frozen=True)
class Event:
    """One line of a state's log.

    Attributes:
        kind: what happened, for filtering (``"roll"``, ``"hits"``, ``"tie_break"``,
            ``"damage"``, ``"crit"``, ``"out"``, ...).
        text: the sentence a rule book would print.
        ruling: the ruling id this step applies, if any (``"AM-4"``).
        audience: the sides who may read ``text``; ``None`` (the default) for everyone.
            A private event (a fairy's hand as she draws it) names its owner here.
        public_text: what every other side reads instead (``"North draws 5 cards."``);
            ``""`` hides the event from them altogether.
        marks: where ``text`` shows a card or a die face (:class:`Mark`), as the
            referee wrote it: what the rule-book export draws, never read off the words.
        public_marks: the same for ``public_text``.
        data: the event's structured payload (:class:`EventData`; a mapping given is frozen),
            built by the engine beside the sentence: cards as codes, faces, sides, losses,
            winners. What a situation's predicate reads (never ``text``, which may be reworded);
            ``docs/event_data.md`` lists each system's keys.

    Build an event from :class:`Sentence` texts with :meth:`told`, so that its text and
    marks agree.

    >>> e = Event("draw", "North draws 2 cards: 7S QD.", audience=("North",), public_text="North draws 2 cards.")
    >>> e.seen_by("North"), e.seen_by("South"), e.seen_by(None)
    ('North draws 2 cards: 7S QD.', 'North draws 2 cards.', 'North draws 2 cards: 7S QD.')
    >>> e.marks  # a plain text shows no card: the marks say what it shows, not its words
    ()
    """

    kind: str
    text: str
    ruling: str = ""
    audience: tuple[str, ...] | None = None
    public_text: str = ""
    marks: tuple[Mark, ...] = ()
    public_marks: tuple[Mark, ...] = ()
    data: Mapping[str, Any] = field(default=_NO_DATA)

    def __post_init__(self) -> None:
        # Engines log an event at every step of every enumerated branch: a plain one costs nothing more.
        if self.marks:
            object.__setattr__(self, "marks", _check_marks(self.text, tuple(self.marks)))
        if self.public_marks:
            object.__setattr__(self, "public_marks", _check_marks(self.public_text, tuple(self.public_marks)))
        if self.data is not _NO_DATA and type(self.data) is not EventData:
            if type(self.data) is not dict and not isinstance(self.data, Mapping):
                raise ArgumentTypeError(f"event data must be a mapping, got {type(self.data).__name__}")
            object.__setattr__(self, "data", EventData(self.data))

    @classmethod
    def told(
        cls,
        kind: str,
        text: str | Sentence,
        ruling: str = "",
        audience: tuple[str, ...] | None = None,
        public_text: str | Sentence = "",
        data: Mapping[str, Any] | None = None,
    ) -> Event:
        """Return the event of a sentence (its text and marks) and, for a private event,
        of the sentence the other sides read."""
        said, public = Sentence.of(text), Sentence.of(public_text)
        return cls(kind, said.text, ruling, audience, public.text, said.marks, public.marks, data or _NO_DATA)

    def __str__(self) -> str:
        return self.text

    @property
    def sentence(self) -> Sentence:
        """The text with its marks."""
        return Sentence(self.text, self.marks)

    def seen_by(self, side: str | None) -> str | None:
        """Return the text ``side`` may read of this event (``None``: the designer, who sees
        everything), or ``None`` when the event is hidden from her altogether."""
        seen = self.seen_as(side)
        return None if seen is None else seen.text

    def seen_as(self, side: str | None) -> Sentence | None:
        """Return the sentence (text and marks) ``side`` may read of this event, or ``None``
        when it is hidden from her (see :meth:`seen_by`)."""
        if side is None or self.audience is None or side in self.audience:
            return self.sentence
        return Sentence(self.public_text, self.public_marks) if self.public_text else None


#: The field names of the engine's frozen records (:func:`replaced`), by class.
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def replaced(record: Any, **changes: object) -> Any:
    """Return ``record`` with ``changes``: :func:`dataclasses.replace` for an engine's frozen
    records (a state, an attack), which check nothing when built (no ``__post_init__``,
    every field set by ``__init__``): their fields copied, ``changes`` set, nothing else
    carried over (what lies beside the fields of a state, its pending step and its
    history, belongs to that state alone). The same record as ``replace`` builds, without
    running ``__init__`` (a step of every enumerated branch builds several); a name that
    is not a field raises ``TypeError`` as ``replace`` does."""
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(set(changes) - names))}")
    made = object.__new__(cls)
    now = record.__dict__
    made.__dict__.update({name: now[name] for name in names})
    made.__dict__.update(changes)
    return made


class GameState(ABC):
    """An immutable game state with explicit chance and decision steps, and the history
    that led to it."""

    #: ``(the state the history starts from, the actions applied since)``; ``None`` on a
    #: state built otherwise than by applying an action (it starts its own history). Kept
    #: beside the system's fields, not among them: two states reached by different paths
    #: are still equal.
    _record: tuple[GameState, tuple[Hashable, ...]] | None = None

    # -- hooks a system writes ----------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> str:
        """``CHANCE``, ``TERMINAL``, or the name of the player to decide."""

    @property
    @abstractmethod
    def events(self) -> tuple[Event, ...]:
        """The event log from the start of the game to this state.

        A state's events always begin with its parent's events: ``apply`` only appends,
        so ``child.events[len(parent.events):]`` is what one step added (the stepper
        reveals those one at a time)."""

    def _legal_actions(self) -> Sequence[Hashable]:
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Hashable, Fraction]]:
        return ()

    @abstractmethod
    def _apply(self, action: Hashable) -> GameState:
        """Return the state after a legal action or chance outcome (already checked)."""

    def action_to_string(self, action: Hashable) -> str:
        """Return how an action or chance outcome is written in logs and notation."""
        return str(action)

    def parse_action(self, text: str) -> Hashable:
        """Return the action or chance outcome written as ``text`` here (inverse of
        :meth:`action_to_string`)."""
        options = self.chance_outcomes() if self.is_chance_node else None
        legal = [a for a, _ in options] if options is not None else self.legal_actions()
        for action in legal:
            if self.action_to_string(action).lower() == text.strip().lower():
                return action
        raise IllegalActionError(
            f"{text!r} is not possible here: choose one of " + ", ".join(self.action_to_string(a) for a in legal)
        )

    def parse_actions(self, text: str) -> list[Hashable]:
        """Return the actions written in ``text`` from here on (a whole roll, say); by
        default a single action."""
        return [self.parse_action(text)]

    def _also_accepts(self, action: Hashable) -> bool:
        """Hook: accept an action that is not among the listed outcomes (e.g. a tied
        SuperTieBreaker throw typed from a rule-book example, which is rerolled)."""
        return False

    def roll_group(self) -> int:
        """How many chance nodes in a row form the roll now pending (all dice of one
        pool, say); a stepper's Roll button applies that many. 1 by default."""
        return 1

    def prompt(self) -> str:
        """One sentence saying what happens next (for the stepper)."""
        if self.is_terminal:
            return "Finished."
        if self.is_chance_node:
            return "Chance: roll."
        return f"{self.current_player} to choose."

    # -- the public API -------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def legal_actions(self) -> list[Hashable]:
        """Return the actions the player to decide may take (empty at chance and terminal)."""
        if self.is_chance_node or self.is_terminal:
            return []
        return list(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[Hashable, Fraction]]:
        """Return ``(outcome, exact probability)`` pairs of this chance node; they sum to 1."""
        if not self.is_chance_node:
            return []
        return list(self._chance_outcomes())

    def _why_illegal(self, action: Hashable) -> str:
        """Hook: the message of the error :meth:`apply` raises for an action that is not
        possible here (a system names the ruling it breaks)."""
        if self.is_chance_node:
            possible = [o for o, _ in self.chance_outcomes()]
            what = "outcome"
        else:
            possible = self.legal_actions()
            what = f"action for {self.current_player}"
        return f"{action!r} is not a possible {what} here: choose one of " + ", ".join(
            self.action_to_string(a) for a in possible
        )

    def apply(self, action: Hashable) -> GameState:
        """Return the state after ``action`` (a legal action or a chance outcome).

        Raises:
            IllegalActionError: the action is not possible here; this state is unchanged.
        """
        if self.is_terminal:
            raise IllegalActionError(f"the game is over: {action!r} cannot be applied")
        possible = [o for o, _ in self.chance_outcomes()] if self.is_chance_node else self.legal_actions()
        if action not in possible and not self._also_accepts(action):
            raise IllegalActionError(self._why_illegal(action))
        return self._apply_recorded(action)

    def apply_listed(self, action: Hashable) -> GameState:
        """Return the state after an action or outcome taken from this state's own
        :meth:`legal_actions` or :meth:`chance_outcomes`, without checking it again
        (solvers walking every branch); nothing else differs from :meth:`apply`."""
        return self._apply_recorded(action)

    def _apply_recorded(self, action: Hashable) -> GameState:
        """The state after an action already checked, with the action added to its history."""
        new = self._apply(action)
        if new is self:  # a system that answers a step with the same state: the history still grows
            new = copy.copy(self)
        record = self._record
        # every state has a __dict__ (GameState declares no __slots__): the history goes beside the fields
        object.__setattr__(new, "_record", (self, (action,)) if record is None else (record[0], (*record[1], action)))
        return new

    # -- the history ------------------------------------------------------------------
    @property
    def history(self) -> tuple[Hashable, ...]:
        """Every action and chance outcome applied, in order, since :attr:`history_start`
        (``()`` for a state built otherwise than by applying an action)."""
        record = self._record
        return () if record is None else record[1]

    @property
    def history_start(self) -> GameState:
        """The state the history starts from: the first one not reached by applying an
        action (this state itself when its history is empty)."""
        record = self._record
        return self if record is None else record[0]

    def history_steps(self) -> list[tuple[GameState, Hashable]]:
        """Return each step of the history as ``(the state it was applied to, the action)``,
        by playing the history again from :attr:`history_start` (who moved is that
        state's ``current_player``: ``CHANCE`` for an outcome)."""
        state = self.history_start
        steps = []
        for action in self.history:
            steps.append((state, action))
            state = state._apply(action)
        return steps

    def apply_all(self, actions: Sequence[Hashable]) -> GameState:
        """Return the state after applying each action in turn."""
        state: GameState = self
        for action in actions:
            state = state.apply(action)
        return state

    def sample_chance(self, rng: random.Random) -> Hashable:
        """Return a chance outcome drawn with its exact probability."""
        outcomes = self.chance_outcomes()
        return Distribution(dict(outcomes)).sample(rng)

    def log(self, side: str | None = None) -> str:
        """Return the narrated log, one event a line: all of it (``side=None``), or what
        ``side`` may see of it (private events of the other side in their public form)."""
        seen = (e.seen_by(side) for e in self.events)
        return "\n".join(text for text in seen if text is not None)


def policy_pair(
    policies: Sequence[str | Policy] | str | Policy,
    registry: Mapping[str, Policy],
    roles: tuple[str, str],
) -> tuple[Policy, Policy]:
    """Return the two sides' policies from names in ``registry`` or functions; one name or
    function stands for both sides.

    Raises:
        InvalidSetupError: an unknown name (listing the known ones), a value that is not a
            policy, or not a pair.
    """
    if isinstance(policies, str) or callable(policies):
        policies = (policies, policies)  # type: ignore[assignment]
    if not isinstance(policies, Sequence) or len(policies) != 2:
        raise InvalidSetupError(
            f"policies must be a pair ({roles[0]}'s, {roles[1]}'s), e.g. ('greedy', 'random'), got {policies!r}"
        )

    def one(p: str | Policy, who: str) -> Policy:
        if isinstance(p, str):
            if p not in registry:
                raise InvalidSetupError(
                    f"unknown policy {p!r} for the {who}: use one of {', '.join(map(repr, registry))} or a "
                    "function state -> Distribution over state.legal_actions()"
                )
            return registry[p]
        if not callable(p):
            raise InvalidSetupError(f"the {who}'s policy must be a name or a function, got {p!r}")
        return p

    return one(policies[0], roles[0]), one(policies[1], roles[1])


def policy_name(policy: Policy, registry: Mapping[str, Policy]) -> str:
    """Return a policy's name in ``registry``, or its function name."""
    for name, known in registry.items():
        if policy is known:
            return name
    return getattr(policy, "__name__", repr(policy))


def _policy_for(state: GameState, policies: Mapping[str, Policy] | Policy | None) -> Policy:
    if policies is None:
        return lambda s: Distribution.uniform(s.legal_actions())
    if callable(policies):
        return policies
    try:
        return policies[state.current_player]
    except KeyError:
        raise IllegalActionError(f"no policy given for player {state.current_player!r}") from None


def play_out(
    state: GameState,
    rng: random.Random,
    policies: Mapping[str, Policy] | Policy | None = None,
) -> GameState:
    """Return a terminal state reached by sampling chance and the players' policies
    (uniformly random legal actions where no policy is given)."""
    while not state.is_terminal:
        if state.is_chance_node:
            state = state._apply_recorded(state.sample_chance(rng))
        else:
            state = state._apply_recorded(_policy_for(state, policies)(state).sample(rng))
    return state


def enumerate_outcomes(
    state: GameState,
    result: Callable[[GameState], Hashable],
    policies: Mapping[str, Policy] | Policy | None = None,
    max_nodes: int = 2_000_000,
) -> Distribution[Any]:
    """Return the exact distribution of ``result(terminal state)`` by visiting every
    chance outcome and every action the policies can take — a brute force, for small
    cases and for testing the fast calculators.

    Raises:
        TooBigError: more than ``max_nodes`` states would be visited.
    """
    totals: dict[Hashable, Fraction] = {}
    visited = 0
    stack: list[tuple[GameState, Fraction]] = [(state, Fraction(1))]
    while stack:
        node, p = stack.pop()
        visited += 1
        if visited > max_nodes:
            raise TooBigError(
                f"brute-force enumeration passed {max_nodes:,} states; use the exact "
                "calculator for this system or Monte Carlo (toolkit.montecarlo)"
            )
        if node.is_terminal:
            key = result(node)
            totals[key] = totals.get(key, Fraction(0)) + p
        elif node.is_chance_node:
            stack.extend((node._apply_recorded(o), p * q) for o, q in node.chance_outcomes())
        else:
            for action, q in _policy_for(node, policies)(node).items():
                stack.append((node._apply_recorded(action), p * q))
    return Distribution(totals)
