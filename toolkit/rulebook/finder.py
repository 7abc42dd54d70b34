"""Find rule-book examples of a situation: ``find_examples(system, situation, ...)``.

Each system has a searcher (its registry hook ``searcher``, :mod:`toolkit.systems`) that
yields finished games through the system's own engine — rolls and deals chosen by the
search (every one where the space is small, seeded random choices beyond), decisions by
the system's play policies — from the smallest setups up. The finder keeps those that
show the situation, ranks them by simplicity (fewest cards or dice, fewest moves, fewest
events, small numbers), writes each as an example file with the system's notation
(``to_example``: the ``expect`` block is what happened), and keeps a file only if it
replays (:func:`toolkit.notation.ExampleNotation.replay_text` path: load, replay, check)
with every expectation met and still shows the situation.

The rules in force are any system ``Rules`` or house-rules source
(:func:`toolkit.house_rules.load_rules`); the file records them, so ``toolkit replay``
plays it under the same rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from toolkit import systems
from toolkit.engine import GameState
from toolkit.errors import InvalidSetupError, ToolkitError
from toolkit.house_rules import load_rules
from toolkit.notation import excerpt
from toolkit.rulebook.situations import Predicate, Situation, as_situation
from toolkit.whole_numbers import whole_number

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SEED",
    "CandidatePool",
    "FoundExample",
    "check_budget",
    "find_examples",
    "rules_for",
    "search",
    "verify",
]

#: Seconds a search may take by default (the goal: the first example in under 5 s).
DEFAULT_BUDGET = 5.0
#: The default seed of the random part of a search (the same seed finds the same examples).
DEFAULT_SEED = 15

#: A search collects at least this many matches per example wanted before ranking them...
POOL_FACTOR = 3
#: ... then looks at as many candidates again as it took to find them (at least
#: ``POLISH_MIN``, at most ``POLISH_MAX``; up to ``MAX_POOL_FACTOR`` matches per example),
#: so the ranking has simpler ones to choose from. Counted in candidates, not seconds,
#: so that one seed always finds the same examples (unless the budget runs out first).
MAX_POOL_FACTOR = 20
POLISH_MIN = 200
POLISH_MAX = 1000


@dataclass(frozen=True)
class FoundExample:
    """One example found: its file text, its replayed final state and its simplicity
    (smaller is simpler)."""

    text: str
    state: GameState = field(compare=False)
    simplicity: tuple[int, ...] = ()


def _searcher(system: str) -> Any:
    """The system's searcher (its registry hook ``searcher``)."""
    known = systems.names("searcher")
    if system not in known:
        raise InvalidSetupError(f"unknown system {excerpt(system)}: use one of {', '.join(known)}")
    return systems.system(system).hook("searcher")


def _with_notes(text: str, notes: str) -> str:
    """The example text with a ``notes:`` entry after its title (the notation writes none)."""
    entry = yaml.safe_dump({"notes": notes}, allow_unicode=True, width=1000, default_flow_style=False)
    lines = text.splitlines(keepends=True)
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("title:")), 1)
    return "".join(lines[:at]) + entry + "".join(lines[at:])


class CandidatePool:
    """Finished games that searches of one system share: the examples page searches every
    situation of a catalogue, and many of them ask the searcher for the same games (the
    same rules, hints and seed: the same seeded stream, e.g. every situation without hints).
    One simulated game can then witness several situations: a later search reads the games
    an earlier one played (in the same order, then plays on where it stopped), so it finds
    exactly the examples it finds alone, without playing them again.

    A stream is keyed by everything that makes it: the system, the rules, the hints and the
    seed. Rules or hints that cannot be a key (unhashable) are not shared.
    """

    def __init__(self) -> None:
        self._streams: dict[Any, tuple[list[GameState], Iterator[GameState]]] = {}

    def stream(
        self, system: str, rules: Any, hints: Mapping[str, Any], seed: int, play: Callable[[], Iterator[GameState]]
    ) -> Iterator[GameState]:
        """Yield the games of the stream ``(system, rules, hints, seed)``: those already
        played, then new ones from ``play()`` (called once per stream), kept for the next
        search of the same stream."""
        try:
            # repr tells 1, 1.0 and True apart, which equality and hashing do not
            steer = tuple(sorted((name, repr(value), value) for name, value in hints.items()))
            key = (system, type(rules), repr(rules), rules, steer, type(seed), seed)
            hash(key)
        except TypeError:
            yield from play()
            return
        if key not in self._streams:
            self._streams[key] = ([], play())
        played, source = self._streams[key]
        index = 0
        while True:
            if index == len(played):  # read by index: two searches may read one stream in turns
                try:
                    played.append(next(source))
                except StopIteration:
                    return
                except BaseException:
                    self._streams.pop(key, None)  # a broken stream is never read again
                    raise
            yield played[index]
            index += 1


#: The longest search budget, in seconds (a week).
MAX_BUDGET = 7 * 24 * 3600.0


def check_budget(budget_seconds: Any) -> float:
    """Return ``budget_seconds`` if it is a search budget: a number of seconds more than 0
    (at most a week).

    Raises:
        InvalidSetupError: anything else, in the one message the command line gives too.
    """
    ok = isinstance(budget_seconds, (int, float)) and not isinstance(budget_seconds, bool)
    if not ok or not 0 < budget_seconds <= MAX_BUDGET:  # NaN fails both comparisons
        shown = budget_seconds if ok else excerpt(budget_seconds)
        raise InvalidSetupError(f"budget must be more than 0 seconds (at most a week), got {shown}")
    return float(budget_seconds)


def rules_for(system: str, situation: str | Situation | Predicate, rules: Any = None) -> Any:
    """Return the rules to search ``situation`` under: ``rules`` (any source
    :func:`toolkit.house_rules.load_rules` reads) if it can happen there, else those rules
    with the situation's own variant (``Situation.variant``, e.g. AM-5's
    ``zero_tie="super_tiebreak"``) — what the examples page does for every situation.

    Raises:
        InvalidSetupError: the situation cannot happen under ``rules`` and names no variant.
    """
    wanted = as_situation(system, situation)
    rules_ = load_rules(system, rules)
    if wanted.possible_under(rules_):
        return rules_
    if not wanted.variant:
        raise InvalidSetupError(
            f"{wanted.label.rstrip('.')} cannot happen under these rules ({rules_.variant_name()}): "
            f"{wanted.why_impossible(rules_)}"
        )
    return load_rules(system, {**rules_.to_mapping(), **dict(wanted.variant)})


def verify(system: str, text: str, predicate: Predicate | None = None) -> GameState:
    """Replay an example file's text and return its final state.

    Raises:
        InvalidSetupError: the file does not replay, an expectation is not met, or the
            replayed game does not show ``predicate``.
    """
    notation = systems.notation(system)
    try:
        example = notation.load(text)
        state = notation.replay(example)
    except ToolkitError as exc:
        raise InvalidSetupError(f"the example does not replay: {exc}") from None
    problems = notation.check(example, state)
    if problems:
        raise InvalidSetupError(f"the example's expectations are not met: {'; '.join(problems)}")
    if predicate is not None and not predicate(state):
        raise InvalidSetupError("the replayed example does not show the situation")
    return state


def search(
    system: str,
    situation: str | Situation | Predicate,
    rules: Any = None,
    n: int = 3,
    seed: int = DEFAULT_SEED,
    budget_seconds: float = DEFAULT_BUDGET,
    title: str | None = None,
    hints: Mapping[str, Any] | None = None,
    pool: CandidatePool | None = None,
) -> list[FoundExample]:
    """Return up to ``n`` verified examples of ``situation``, simplest first (see
    :func:`find_examples`), with their replayed states; with a ``pool``, the games are
    shared with the other searches of that pool (the same examples, found sooner)."""
    whole_number(n, "n", 1, hint="n is how many examples to find")
    check_budget(budget_seconds)
    searcher = _searcher(system)
    wanted = as_situation(system, situation)
    # No rules given: the defaults, or the situation's own variant if it needs one.
    rules_ = rules_for(system, wanted) if rules is None else load_rules(system, rules)
    why = wanted.why_impossible(rules_)
    if why is not None:
        raise InvalidSetupError(
            f"{wanted.label.rstrip('.')} cannot happen under these rules ({rules_.variant_name()}): {why}"
        )
    deadline = time.perf_counter() + budget_seconds
    stop_at = None
    rng = random.Random(seed)
    found: dict[str, tuple[tuple[int, ...], GameState]] = {}
    notation = systems.notation(system)
    heading = title or wanted.description.rstrip(".")
    unknown = sorted(set(hints or {}) - set(searcher.HINTS))
    if unknown:
        raise InvalidSetupError(
            f"unknown search hints {', '.join(map(repr, unknown))} for {system}: use {', '.join(searcher.HINTS)}"
        )
    steer = {**wanted.hints(), **dict(hints or {})}
    stream: Iterator[GameState]
    if pool is None:
        stream = searcher.candidates(rules_, steer, rng)
    else:
        stream = pool.stream(system, rules_, steer, seed, lambda: searcher.candidates(rules_, steer, rng))
    for examined, state in enumerate(stream, 1):
        if wanted.shows(state):
            text = notation.to_example(state, title=heading)
            if hasattr(searcher, "complete"):  # expectations the notation checks but does not write
                text = searcher.complete(text, state)
            if text not in found:
                found[text] = (searcher.simplicity(state), state)
            if len(found) >= MAX_POOL_FACTOR * n:
                break
            if stop_at is None and len(found) >= POOL_FACTOR * n:
                stop_at = examined + min(max(examined, POLISH_MIN), POLISH_MAX)
        if examined == stop_at or time.perf_counter() > deadline:
            break
    ranked = sorted(found.items(), key=lambda item: item[1][0])
    out: list[FoundExample] = []
    notes = _notes(wanted)
    for text, (score, _) in ranked:
        if out and time.perf_counter() > deadline:
            break  # the budget is spent: what is verified so far (at least one) is the answer
        full = _with_notes(text, notes) if notes else text
        try:
            replayed = verify(system, full, wanted.shows)
        except InvalidSetupError:
            continue  # never hand out an example that does not replay to its situation
        out.append(FoundExample(full, replayed, score))
        if len(out) == n:
            break
    return out


def _notes(wanted: Situation) -> str:
    rulings = f" ({', '.join(wanted.rulings)})" if wanted.rulings else ""
    return f"Found by toolkit find-example{rulings}, checked by replaying it."


def find_examples(
    system: str,
    situation: str | Situation | Predicate,
    rules: Any = None,
    n: int = 3,
    seed: int = DEFAULT_SEED,
    budget_seconds: float = DEFAULT_BUDGET,
    title: str | None = None,
    hints: Mapping[str, Any] | None = None,
    pool: CandidatePool | None = None,
) -> list[str]:
    """Return up to ``n`` example files (YAML text) showing ``situation``, simplest first.

    Args:
        system: the name of a registered system with a searcher (:mod:`toolkit.systems`).
        situation: a name of the system's catalogue (:func:`~toolkit.rulebook.situations.catalogue`),
            a :class:`~toolkit.rulebook.situations.Situation`, or the designer's own
            predicate ``state -> bool`` over a finished game.
        rules: the rules in force: a system ``Rules``, a mapping of fields, a house-rules
            file or shipped name (:func:`toolkit.house_rules.load_rules`). ``None``: the
            default rules, or — for a situation that cannot happen under them — the
            situation's own variant (:func:`rules_for`); the file records the rules.
        n: how many examples.
        seed: the seed of the random part of the search (same seed, same examples).
        budget_seconds: the time the search may take; fewer than ``n`` examples (maybe
            none) are returned when it runs out.
        title: the examples' title (default: the situation's description).
        hints: where the system's searcher looks first, added to the situation's own
            (``{"wrestling": True}``, ``{"attack": ("magic",), "defenders": 3}``: the keys
            of each searcher module's docstring) — for a designer's own predicate.
        pool: a :class:`CandidatePool` shared by several searches (the examples page's):
            the same examples, each game played once for all the searches of its stream.

    Returns:
        Example files that ``toolkit replay`` replays with every expectation of their
        ``expect`` block met (the notation's ``to_example``), each showing the situation.

    Raises:
        InvalidSetupError: an unknown system or situation, bad rules, a situation the
            rules make impossible, bad ``n`` or ``budget_seconds``.
    """
    return [f.text for f in search(system, situation, rules, n, seed, budget_seconds, title, hints, pool)]


#: A searcher's candidates function: ``(rules, hints, rng) -> finished games``.
Candidates = Callable[[Any, dict[str, Any], random.Random], Iterator[GameState]]
