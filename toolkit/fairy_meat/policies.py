"""Pluggable Fairy Meat policies: how a fairy decides, for the calculators and the stepper.

A policy is a function ``state -> Distribution`` over ``state.legal_actions()``
(:data:`toolkit.engine.Policy`), so it plugs into :func:`toolkit.engine.play_out`,
:func:`toolkit.engine.enumerate_outcomes`, :func:`toolkit.montecarlo.sample_outcomes`
and the odds calculators of :mod:`toolkit.fairy_meat.odds`. The same function serves
both fairies: it reads ``state.phase()`` to know whose decision it is.

Two policies are provided, by name in :data:`POLICIES`:

- :func:`random_policy` — every legal action equally likely;
- :func:`greedy_policy` — the "go for the extreme" heuristic a designer would play
  first (see its docstring).

The reveal (FM-5), bonus (FM-11) and cheating-shift (FM-8) steps are not play
decisions: the draft makes each of them a choice that is simply best for the chooser
once the cards are on the table, and the referee knows that best choice
(``state.best_action()``). Both policies play it there.

Information: a policy may read only what the fairy to move may know — her own hand,
her own declaration and the opponent's (FM-3 declarations are public), Trumps revealed
so far. The engine asks the attacker first at simultaneous steps (Trumps face down,
Numbered card face down), so the defender's policy must never look at the
attacker's choice at the same step; neither policy here looks at the opponent at all.

Policies must treat cards of one *type* alike — Numbered cards by colour and pips, a
red Trump, a black Trump other than the A♠, the A♠ — for the odds calculators to
be exact (they enumerate card types, not cards). Both policies here do.

>>> from toolkit.fairy_meat.engine import start_combat
>>> from toolkit.fairy_meat.rules import Fairy
>>> state = start_combat(Fairy("A", live=3, kill=2), Fairy("D", live=2, kill=1),
...                      hands=(["KS", "QC", "4C"], ["2D", "KC"]), attacks=1)
>>> greedy_policy(state).items()
[('declare subtract', Fraction(1, 1))]
>>> state = state.apply("declare subtract").apply("declare add")
>>> greedy_policy(state).items()
[('trumps KS QC', Fraction(1, 1))]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolkit.cards import Card
from toolkit.engine import GameState, Policy
from toolkit.errors import IllegalActionError
from toolkit.fairy_meat.deck import is_death_card
from toolkit.fairy_meat.referee import is_numbered, is_trump
from toolkit.prob import Distribution

__all__ = [
    "POLICIES",
    "PLAY_STYLES",
    "cautious_policy",
    "cautious_plan",
    "MIDPOINT",
    "random_policy",
    "greedy_policy",
    "greedy_order",
    "greedy_plan",
    "greedy_wild",
    "REFEREE_STEPS",
]

#: Steps where both policies play the referee's best choice (``state.best_action()``).
REFEREE_STEPS = ("reveal", "bonus", "shift")

#: The middle of the Numbered cards 2..10: how far a value is from it is how
#: "extreme" it is (the draft's Tactical Considerations).
MIDPOINT = 6


def _phase(state: GameState) -> tuple[str, int]:
    phase = getattr(state, "phase", None)
    if phase is None:
        raise IllegalActionError(f"these policies play Fairy Meat combats, not {type(state).__name__}")
    return phase()


def _referee_choice(state: GameState) -> Distribution[Any] | None:
    step, _ = _phase(state)
    if step in REFEREE_STEPS:
        best = state.best_action()  # type: ignore[attr-defined]
        if best is not None:
            return Distribution.certain(best)
    return None


def random_policy(state: GameState) -> Distribution[Any]:
    """Return every legal action with equal probability (the uniformly random fairy).

    At the reveal (FM-5), bonus (FM-11) and shift (FM-8) steps it plays
    ``state.best_action()`` instead: those choices are made after the cards are on the
    table and the draft leaves no reason to play them badly, so they are the
    referee's, not a play decision. Everything else — the declaration (FM-3), which
    Trumps to place (FM-4, any legal set or None), which Numbered card or Wild Trump
    to play (FM-6), how to keep points (FM-11) — is uniformly random over the legal
    actions.
    """
    fixed = _referee_choice(state)
    if fixed is not None:
        return fixed
    return Distribution.uniform(state.legal_actions())


# -- the greedy heuristic --------------------------------------------------------------
def _colour_key(colour: str) -> int:
    return 1 if colour == "red" else 0


def greedy_order(red_trumps: int, black_trumps: int) -> list[tuple[str, int, str]]:
    """Return the 18 Numbered card types ``(colour, pips, direction)``, most extreme first,
    for a hand holding ``red_trumps`` red and ``black_trumps`` black Trumps (the A♠ counts
    as black).

    A card's extremeness is how far it ends from the middle value 6 when all her
    Trumps of its colour are applied in its better direction: ``pips - 6 + t`` going up
    (Add), ``6 - pips + t`` going down (Subtract), ``t`` = her Trumps of that colour.
    Ties go to Add, then to red. The greedy fairy plays the first type of this list that
    she holds.

    >>> greedy_order(0, 2)[:3]
    [('black', 10, 'add'), ('black', 2, 'subtract'), ('black', 9, 'add')]
    """
    out = []
    for colour, t in (("red", red_trumps), ("black", black_trumps)):
        for pips in range(2, 11):
            direction = "add" if pips >= MIDPOINT else "subtract"
            out.append((abs(pips - MIDPOINT) + t, direction == "add", _colour_key(colour), colour, pips, direction))
    out.sort(reverse=True)
    return [(colour, pips, direction) for *_, colour, pips, direction in out]


def _trumps_by_colour(hand: Sequence[Card], rules: Any = None) -> dict[str, list[Card]]:
    """Her Trumps by colour (FM-1, FM-4; a joker, matching any card, in both groups)."""
    groups: dict[str, list[Card]] = {"red": [], "black": []}
    for c in hand:
        if is_trump(c, rules):
            for colour in (c.colour,) if c.colour else ("red", "black"):
                groups[colour].append(c)
    return groups


def greedy_plan(
    hand: Sequence[Card], direction: str | None = None, rules: Any = None
) -> tuple[Card, tuple[Card, ...]] | None:
    """Return the greedy fairy's plan for ``hand``: ``(Numbered card, Trumps to place)``,
    or ``None`` without a Numbered card (then she plays a Wild Trump, :func:`greedy_wild`).

    The card is the most extreme one (:func:`greedy_order`); with ``direction`` given
    (her declaration, FM-3) only that direction counts: Add maximises ``pips + t``,
    Subtract maximises ``t - pips`` (ties to red). The Trumps are all her Trumps of the
    card's colour, so they always match it (never cheating, FM-8). Numbered and Trump
    ranks by ``rules`` (FM-1).
    """
    numbered = [c for c in hand if is_numbered(c, rules)]
    if not numbered:
        return None
    groups = _trumps_by_colour(hand, rules)
    t = {colour: len(cards) for colour, cards in groups.items()}
    if direction is None:
        order = greedy_order(t["red"], t["black"])
        rank = {(colour, pips): i for i, (colour, pips, _) in enumerate(order)}
        card = min(numbered, key=lambda c: rank[(c.colour, c.pips)])
    else:
        sign = 1 if direction == "add" else -1
        card = max(numbered, key=lambda c: (sign * (c.pips or 0) + t[c.colour or "black"], _colour_key(c.colour)))
    return card, tuple(groups[card.colour or "black"])


def greedy_direction(hand: Sequence[Card], rules: Any = None) -> str:
    """Return the greedy declaration (FM-3): the direction of her most extreme card;
    Add without a Numbered card."""
    numbered = [c for c in hand if is_numbered(c, rules)]
    if not numbered:
        return "add"
    plan = greedy_plan(hand, None, rules)
    assert plan is not None
    return "add" if (plan[0].pips or 0) >= MIDPOINT else "subtract"


def ace_is_upside(role: str, rules: Any, wrestling: bool) -> bool:
    """Whether applying the A♠ can only hurt the opponent (FM-12): the attacker outside
    Wrestling under the default ``nasty_hit="damaged"`` (only the defender takes damage)."""
    return role == "attacker" and not wrestling and getattr(rules, "nasty_hit", "damaged") == "damaged"


def greedy_wild(trumps: Sequence[Card], ace_upside: bool, rules: Any = None) -> Card:
    """Return the Trump the greedy fairy plays as a Wild Trump (FM-6): the A♠ when it can
    only hurt the opponent (:func:`ace_is_upside`); otherwise a red Trump, else a black
    one, keeping the A♠ back while she can. (The card turned up is as likely red as
    black, so the colour of the Wild Trump does not change her odds.) The A♠ is the
    rules' death card (FM-12); a joker comes after both colours."""
    if not trumps:
        raise IllegalActionError("a Wild Trump needs a Trump in hand (FM-6)")
    death = [c for c in trumps if is_death_card(c, rules)]
    if ace_upside and death:
        return death[0]
    for wanted in ("red", "black", None):
        for c in trumps:
            if c.colour == wanted and not is_death_card(c, rules):
                return c
    return trumps[0]


def _pick(state: GameState, action: str, fallback: Callable[[list[Any]], Any] | None = None) -> Distribution[Any]:
    legal = state.legal_actions()
    if action in legal:
        return Distribution.certain(action)
    if fallback is not None:
        return Distribution.certain(fallback(legal))
    raise IllegalActionError(f"greedy_policy chose {action!r}, which is not legal here: {legal}")  # pragma: no cover


def greedy_policy(state: GameState) -> Distribution[Any]:
    """Return the greedy fairy's action (one action with probability 1).

    The heuristic, using only her own hand and declaration:

    - **Declare** (FM-3) the direction of her most extreme card: with ``t`` her Trumps
      of a card's colour (A♠ counted as black), a card goes up to ``pips + t`` or down
      to ``pips - t``; she picks the card and direction ending furthest from the middle
      value 6 (:func:`greedy_order`; ties: Add, then red). Without a Numbered card she
      declares Add.
    - **Trumps** (FM-4): all her Trumps of that card's colour, face down (so they always
      match it: she never cheats, FM-8); None if she has none of that colour. Without a
      Numbered card she says None (a face-down Trump would cheat half the time).
    - **Play** (FM-6): the Numbered card most extreme in her declared direction with
      those Trumps; without one, a Wild Trump (:func:`greedy_wild`: the A♠ if she is
      the attacker and it can only hurt the defender, else a red Trump, else black).
    - **Wild Trump points** (FM-7, later attacks only): she says None — a point of a
      guessed colour cheats half the time, and a cheating point moves both values
      against her.
    - **Reveal, bonus, shifts** (FM-5, FM-11, FM-8): the referee's best choice.
    - **Keeping points** (FM-11): the next-defence bonus when another attack is coming,
      else extra cards. **Wrestling** (FM-14): she deals the damage.

    She never reads the opponent's hand or face-down cards.
    """
    fixed = _referee_choice(state)
    if fixed is not None:
        return fixed
    step, i = _phase(state)
    hand: tuple[Card, ...] = state.hands[i]  # type: ignore[attr-defined]
    rules = getattr(state, "rules", None)
    if step == "declare":
        return _pick(state, f"declare {greedy_direction(hand, rules)}")
    if step == "trumps":
        plan = greedy_plan(hand, state.declared[i], rules)  # type: ignore[attr-defined]
        if plan is None or not plan[1]:
            return _pick(state, "trumps none")
        return _pick(state, "trumps " + " ".join(c.code for c in plan[1]))
    if step == "play":
        placed = state.cur.trumps[i] or ()  # type: ignore[attr-defined]
        plan = greedy_plan(hand, state.declared[i], rules)  # type: ignore[attr-defined]
        if plan is not None:
            return _pick(state, f"play {plan[0].code}")
        rest = [c for c in hand if c not in placed and is_trump(c, rules)]
        role = ("attacker", "defender")[i]
        upside = ace_is_upside(role, state.rules, state.wrestling)  # type: ignore[attr-defined]
        return _pick(state, f"wild {greedy_wild(rest, upside, rules).code}")
    if step == "score":
        return _pick(state, "score bonus", fallback=lambda legal: legal[0])
    if step == "escape":
        return _pick(state, "damage")
    return Distribution.certain(state.legal_actions()[0])  # pragma: no cover - no other decision steps


# -- the cautious heuristic ----------------------------------------------------------------
def cautious_plan(hand: Sequence[Card], direction: str, rules: Any = None) -> tuple[Card, tuple[Card, ...]] | None:
    """Return the cautious fairy's plan: ``(Numbered card, Trumps to place)`` ending as near
    the middle value 6 as her Trumps of the card's colour, applied in her declared
    direction, can bring it (the draft's "safe option": values back around 5 or 6); the
    fewest Trumps on a tie, then the lower card, then red. ``None`` without a Numbered card.
    Numbered and Trump ranks by ``rules`` (FM-1).
    """
    numbered = [c for c in hand if is_numbered(c, rules)]
    if not numbered:
        return None
    groups = _trumps_by_colour(hand, rules)
    sign = 1 if direction == "add" else -1
    options = []
    for card in numbered:
        trumps = groups[card.colour or "black"]
        for k in range(len(trumps) + 1):
            end = (card.pips or 0) + sign * k
            options.append((abs(end - MIDPOINT), k, card.pips or 0, _colour_key(card.colour or "black") == 0, card))
    *_, card = min(options, key=lambda o: o[:4])
    k = min(options, key=lambda o: o[:4])[1]
    return card, tuple(groups[card.colour or "black"][:k])


def cautious_direction(hand: Sequence[Card], rules: Any = None) -> str:
    """Return the cautious declaration (FM-3): the direction that lets her end nearest 6."""
    best = {d: cautious_plan(hand, d, rules) for d in ("add", "subtract")}
    if best["add"] is None:
        return "add"

    def gap(d: str) -> int:
        card, trumps = best[d]  # type: ignore[misc]
        return abs((card.pips or 0) + (len(trumps) if d == "add" else -len(trumps)) - MIDPOINT)

    return min(("add", "subtract"), key=gap)


def cautious_policy(state: GameState) -> Distribution[Any]:
    """Return the cautious fairy's action: the draft's "safe option" (Tactical
    Considerations) played straight — her values brought back towards the middle value 6
    (:func:`cautious_plan`) with matching Trumps only (never cheating, FM-8). Wild Trumps,
    points and the referee's steps as :func:`greedy_policy`. Only her own cards are read."""
    step, i = _phase(state)
    hand: tuple[Card, ...] = state.hands[i]  # type: ignore[attr-defined]
    rules = getattr(state, "rules", None)
    plan = cautious_plan(hand, state.declared[i] or "add", rules)  # type: ignore[attr-defined]
    if step == "declare":
        return _pick(state, f"declare {cautious_direction(hand, rules)}")
    if plan is not None and step == "trumps":
        return _pick(state, "trumps " + (" ".join(c.code for c in plan[1]) or "none"))
    if plan is not None and step == "play":
        return _pick(state, f"play {plan[0].code}")
    return greedy_policy(state)


#: The policies by name, as the calculators accept them.
POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}

#: Every named way of playing, for the strategy solvers' comparisons (the odds
#: calculators count only :data:`POLICIES`).
PLAY_STYLES: dict[str, Policy] = {**POLICIES, "cautious": cautious_policy}
