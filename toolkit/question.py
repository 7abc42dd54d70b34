"""What a result answers: the system, the sizes, the policies, the rules, and how it was obtained.

Every odds result carries a :class:`Question` (``result.question``) and its first line,
wherever it is shown (``str``, the notebook view, the explorers' summaries, the reports'
table captions, the command line), is :func:`headline`: one line in a designer's words,

    Angry Miniatures · 3 v 2 dice · melee · draft rules · exact (size 7,776)

so that a number copied into a design document keeps its meaning. The rules are named
by :func:`rules_words`: the house-rules file they were read from, else the fields changed
from the draft, else "draft rules".

>>> q = Question("Angry Miniatures", "3 v 2 dice", ("melee",), size=7_776)
>>> headline(q, "exact")
'Angry Miniatures · 3 v 2 dice · melee · draft rules · exact (size 7,776)'
>>> headline(q.but(rules="Hit faces: 10, J"), "monte_carlo", 2_000, "simulated attacks")
'Angry Miniatures · 3 v 2 dice · melee · Hit faces: 10, J · Monte Carlo (2,000 simulated attacks, 95% intervals)'
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DRAFT_RULES",
    "Question",
    "compared",
    "compared_headline",
    "headline",
    "headline_of",
    "headline_over",
    "method_words",
    "policy_words",
    "size_words",
    "rules_words",
]

#: The rules part of a question under the draft's defaults.
DRAFT_RULES = "draft rules"
#: The longest list of changed fields :func:`rules_words` writes out in full.
_LONGEST_CHANGES = 60


@dataclass(frozen=True)
class Question:
    """What a calculator was asked, in a designer's words (each part one short phrase).

    Attributes:
        system: the system as a designer calls it (``"Fairy Meat"``).
        sizes: the sizes as the designer names them (``"3 v 2 cards"``, ``"Horde 6 v Elves
            6 tokens"``).
        asked: the other arguments that change the answer (``("melee",)``), in order.
        policies: who plays how (``"greedy v greedy"``); empty where nobody chooses.
        rules: :func:`rules_words` of the rules in force.
        size: the size of the exact calculation (what ``method="auto"`` compares with its
            limit), written after "exact"; ``None`` where a calculator has none to state.
    """

    system: str
    sizes: str
    asked: tuple[str, ...] = ()
    policies: str = ""
    rules: str = DRAFT_RULES
    size: int | None = None

    @classmethod
    def about(
        cls, rules: Any, sizes: str, *asked: str, policies: Sequence[str] = (), size: int | None = None
    ) -> Question:
        """The question of a calculator of ``rules``' system (a ``Rules`` of
        :mod:`toolkit.house_rules`: its :meth:`system_title` and :func:`rules_words`):
        ``sizes``, the other arguments that change the answer (empty ones left out), each
        side's policy by name and the exact size."""
        parts = tuple(a for a in asked if a)
        return cls(rules.system_title(), sizes, parts, policy_words(policies), rules_words(rules), size)

    def but(self, **changes: Any) -> Question:
        """The same question with some parts changed (``q.but(rules="tens_hit.yaml")``)."""
        return dataclasses.replace(self, **changes)

    def parts(self) -> list[str]:
        """The parts of the question, in the order the headline writes them."""
        return [p for p in (self.system, self.sizes, *self.asked, self.policies, self.rules) if p]


def method_words(
    method: str,
    trials: int | None = None,
    trial_name: str = "simulated runs",
    confidence: float = 0.95,
    size: int | None = None,
) -> str:
    """How a result was obtained, in a few words: ``"exact (size 7,776)"``, ``"Monte Carlo
    (2,000 simulated attacks, 95% intervals)"``, or for exact arithmetic on sampled parts
    ``"partly Monte Carlo (2,000 simulated clashes per sampled table, 95% intervals)"``, or
    for a hidden-hand equilibrium ``"solved by CFR+ (2,000 iterations)"`` (``trial_name``
    says what the runs are and what they are per).

    >>> method_words("solved", 2_000, "iterations")
    'solved by CFR+ (2,000 iterations)'
    """
    level = f"{confidence * 100:g}% intervals"
    runs = "" if trials is None else f"{trials:,} {trial_name}"
    if method == "exact":
        return "exact" if size is None else f"exact (size {size_words(size)})"
    if method == "monte_carlo":
        return f"Monte Carlo ({', '.join(filter(None, (runs, level)))})"
    if method == "solved":  # an equilibrium found by iteration: its error is stated with the numbers
        return f"solved by CFR+ ({runs})" if runs else "solved by CFR+"
    return f"partly Monte Carlo ({', '.join(filter(None, (runs, level)))})"


def size_words(size: int) -> str:
    """An exact calculation's size: ``"7,776"``; from 10^15 up its power of ten,
    ``"about 10^7081"`` (the digits of a huge size are no use to read, nor cheap to write).

    >>> size_words(7_776), size_words(6**9100), size_words(10**15), size_words(2**52)
    ('7,776', 'about 10^7081', 'about 10^15', 'about 10^15')
    """
    if size < 10**15:
        return f"{size:,}"
    shift = max(0, size.bit_length() - 53)  # log10 of the top 53 bits, then of the rest (none below 2^53)
    return f"about 10^{math.floor(math.log10(size >> shift) + shift * math.log10(2))}"


def headline(
    question: Question,
    method: str,
    trials: int | None = None,
    trial_name: str = "simulated runs",
    confidence: float = 0.95,
) -> str:
    """The one line that states a result's question: its parts (:meth:`Question.parts`)
    and how it was obtained (:func:`method_words`), joined by `` · ``."""
    how = method_words(method, trials, trial_name, confidence, question.size)
    return " · ".join([*question.parts(), how])


def headline_over(question: Question, results: Iterable[Any]) -> str:
    """The headline of a table of several results answering one ``question`` (its sizes a
    range, ``"1–8 v 1–8 dice"``): how they were obtained, read from the results
    themselves — their one method, or ``"exact or Monte Carlo (up to 3,000 simulated
    attacks, 95% intervals)"`` when the table mixes them. A table of exact results
    states no size (each row has its own)."""
    kinds = {(r.method, r.trials, r.trial_name, r.confidence) for r in results}
    if not kinds:
        return headline(question, "exact")
    if len(kinds) == 1:
        method, trials, trial_name, confidence = kinds.pop()
        return headline(question, method, trials, trial_name, confidence)
    sampled = [k for k in kinds if k[0] != "exact"]
    most = max((k[1] or 0) for k in sampled)
    level = f"{min(k[3] for k in sampled) * 100:g}% intervals"
    runs = f"up to {most:,} {sampled[0][2]}, " if most else ""
    exact = "exact or " if len(sampled) < len(kinds) else ""
    return " · ".join([*question.parts(), f"{exact}Monte Carlo ({runs}{level})"])


def compared(before: Question, after: Question) -> Question:
    """The question of a comparison of two results: each part the two share once, each part
    that differs as ``"before → after"`` (``"draft rules → house rules tens_hit.yaml"``)."""

    def both(x: Any, y: Any) -> Any:
        return x if x == y else f"{x} → {y}"

    asked = tuple(both(x, y) for x, y in itertools.zip_longest(before.asked, after.asked, fillvalue=""))
    return Question(
        both(before.system, after.system),
        both(before.sizes, after.sizes),
        asked,
        both(before.policies, after.policies),
        both(before.rules, after.rules),
        before.size if before.size == after.size else None,
    )


def compared_headline(before: Any, after: Any) -> str:
    """The headline of a comparison of two results (:func:`compared` of their questions,
    and how each was obtained, once when alike); ``""`` unless both state a question."""
    qa, qb = getattr(before, "question", None), getattr(after, "question", None)
    if not isinstance(qa, Question) or not isinstance(qb, Question):
        return ""
    q = compared(qa, qb)
    how = [method_words(r.method, r.trials, r.trial_name, r.confidence, q.size) for r in (before, after)]
    return " · ".join([*q.parts(), how[0] if how[0] == how[1] else f"{how[0]} → {how[1]}"])


def headline_of(result: Any) -> str:
    """A result's first line (its ``headline()``: an :class:`~toolkit.odds_result.Odds`
    and every result combining them), or ``""`` for one that states no question (a plain
    :class:`~toolkit.prob.Distribution`)."""
    line = getattr(result, "headline", None)
    return line() if callable(line) else ""


def policy_words(names: Sequence[str]) -> str:
    """Who plays how: ``"greedy v greedy"`` (one name per side, in side order)."""
    return " v ".join(names)


def rules_words(rules: Any) -> str:
    """The rules of a question in a designer's words: the house-rules file they were read
    from (:meth:`toolkit.house_rules.HouseRules.file_title`), else the fields changed from
    the draft (their labels and values, or only their labels when that would be long);
    ``"draft rules"`` when no field differs from the draft (whatever file held them).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Toy:
    ...     changed: tuple = ()
    ...     def describe_changes(self): return list(self.changed)
    ...     def changes(self): return dict.fromkeys(c.split(":")[0] for c in self.changed)
    ...     def field_label(self, name): return name
    ...     def file_title(self): return "tens.yaml (Tens)" if self.changed == ("Tens: on",) else ""
    >>> rules_words(Toy()), rules_words(Toy(("Hit faces: 10, J",))), rules_words(Toy(("Tens: on",)))
    ('draft rules', 'Hit faces: 10, J', 'house rules tens.yaml (Tens)')
    """
    if rules is None:
        return DRAFT_RULES
    described = "; ".join(rules.describe_changes())
    if not described:
        return DRAFT_RULES
    title = rules.file_title() if hasattr(rules, "file_title") else ""
    if title:
        return f"house rules {title}"
    if len(described) <= _LONGEST_CHANGES:
        return described
    names = [rules.field_label(name) for name in rules.changes()]
    return f"{len(names)} fields changed from the draft: {', '.join(names)}"
