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

The generic consumers live here too: :func:`play_out` (one sampled game, for Monte
Carlo and the stepper's Roll button) and :func:`enumerate_outcomes` (the exact
distribution of any function of the terminal state by brute force over every chance
outcome — the reference the fast calculators are tested against).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolkit.errors import IllegalActionError, InvalidSetupError, TooBigError
from toolkit.prob import Distribution

__all__ = [
    "policy_pair",
    "policy_name",
    "CHANCE",
    "TERMINAL",
    "Event",
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

    >>> e = Event("draw", "North draws 2 cards: 7S QD.", audience=("North",), public_text="North draws 2 cards.")
    >>> e.seen_by("North"), e.seen_by("South"), e.seen_by(None)
    ('North draws 2 cards: 7S QD.', 'North draws 2 cards.', 'North draws 2 cards: 7S QD.')
    """

    kind: str
    text: str
    ruling: str = ""
    audience: tuple[str, ...] | None = None
    public_text: str = ""

    def __str__(self) -> str:
        return self.text

    def seen_by(self, side: str | None) -> str | None:
        """Return the text ``side`` may read of this event (``None``: the designer, who sees
        everything), or ``None`` when the event is hidden from her altogether."""
        if side is None or self.audience is None or side in self.audience:
            return self.text
        return self.public_text or None


class GameState(ABC):
    """An immutable game state with explicit chance and decision steps."""

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

    def apply(self, action: Hashable) -> GameState:
        """Return the state after ``action`` (a legal action or a chance outcome).

        Raises:
            IllegalActionError: the action is not possible here; this state is unchanged.
        """
        if self.is_terminal:
            raise IllegalActionError(f"the game is over: {action!r} cannot be applied")
        if self.is_chance_node:
            possible = [o for o, _ in self.chance_outcomes()]
            what = "outcome"
        else:
            possible = self.legal_actions()
            what = f"action for {self.current_player}"
        if action not in possible and not self._also_accepts(action):
            raise IllegalActionError(
                f"{action!r} is not a possible {what} here: choose one of "
                + ", ".join(self.action_to_string(a) for a in possible)
            )
        return self._apply(action)

    def apply_listed(self, action: Hashable) -> GameState:
        """Return the state after an action or outcome taken from this state's own
        :meth:`legal_actions` or :meth:`chance_outcomes`, without checking it again
        (solvers walking every branch); nothing else differs from :meth:`apply`."""
        return self._apply(action)

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
            state = state._apply(state.sample_chance(rng))
        else:
            state = state._apply(_policy_for(state, policies)(state).sample(rng))
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
            stack.extend((node._apply(o), p * q) for o, q in node.chance_outcomes())
        else:
            for action, q in _policy_for(node, policies)(node).items():
                stack.append((node._apply(action), p * q))
    return Distribution(totals)
