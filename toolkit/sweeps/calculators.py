"""The calculators a sweep can run: each public calculator of each system, its arguments
(with their types and bounds, checked before a sweep runs) and how its result becomes
rows of the sweep table.

A :class:`Calculator` wraps one public function of a system's package (the rulings it
implements are those of the function: AM-1..AM-10, FM-1..FM-14, DB-1..DB-9); it never
computes odds itself. Its :meth:`~Calculator.rows` turn the result into
:class:`Row`\\ s: one per outcome of a distribution (exact ``Fraction``), or one per
reported quantity (a game value, an exploitability).

>>> calc = calculator("angry-miniatures", "opposed")
>>> [p.name for p in calc.params]
['attack_dice', 'defense_dice', 'attack_type']
>>> rows = calc.rows(calc.call({"attack_dice": 1, "defense_dice": 0, "attack_type": "ranged"}, None))
>>> sum(r.exact for r in rows)
Fraction(1, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import floordiv, truediv
from typing import Any, NamedTuple

from toolkit.errors import ArgumentTypeError, InvalidSetupError
from toolkit.notation import excerpt

__all__ = [
    "Param",
    "Row",
    "Calculator",
    "CALCULATORS",
    "calculator",
    "calculators_of",
    "interval_of",
    "outcome_label",
    "result_columns",
    "result_rows",
    "rows_columns",
    "ROW_COLUMNS",
]

#: A range longer than this, of an argument that is not a number, is checked only up to
#: its first refused value.
LONG_RANGE = 1_000


class Row(NamedTuple):
    """One row of a point's result: an ``outcome`` label, its ``kind`` (``"probability"``:
    one outcome of a distribution, whose rows sum to 1; ``"chance"``: the probability of one
    event, not part of a distribution; or ``"value"``), the exact number (``Fraction``, or ``None`` when the calculator
    reports a float only), the float, whether the number is exact (a Monte Carlo
    frequency is a ``Fraction`` of the trials but not exact), and the interval
    ``low``..``high`` the calculator gives for it (``None``: it gives none; the table
    then holds the value itself when exact, an empty cell otherwise: :meth:`bounds`)."""

    outcome: str
    kind: str
    exact: Fraction | None
    value: float
    is_exact: bool
    low: float | None = None
    high: float | None = None

    def bounds(self) -> tuple[float | None, float | None]:
        """Return ``(low, high)`` as the table holds them: the calculator's interval, else
        the value twice when it is exact, else ``(None, None)`` (an estimate whose
        calculator gives no interval: not knowable here)."""
        if self.low is not None and self.high is not None:
            return self.low, self.high
        if self.is_exact:
            return self.value, self.value
        return None, None


@dataclass(frozen=True)
class Param:
    """One argument of a calculator: its ``kind`` (``"int"``, ``"choice"``, ``"bool"``,
    ``"float"``, ``"cards"``, ``"policies"`` or ``"die"``), its default (``None``: it
    must be given), bounds or choices, and a line of help."""

    name: str
    kind: str
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is None

    def accepted(self) -> str:
        """Return what the argument accepts, in words (for error messages and --list)."""
        if self.kind == "int":
            return f"a whole number from {int(self.low or 0):,} to {int(self.high or 0):,}"
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "cards":
            return 'card codes, e.g. "KS QC 5C"'
        if self.kind == "policies":
            return f"a policy ({', '.join(self.choices)}) or a pair [attacker's, defender's]"
        if self.kind == "die":
            return "a trait die: d4, d6, d8, d10 or d12"
        return self.kind

    def check(self, value: Any) -> Any:
        """Return ``value`` as the calculator takes it (a policy pair as a tuple).

        Raises:
            ArgumentTypeError: a value of the wrong type or out of bounds; the message
                names the argument and what it accepts.
        """
        bad = ArgumentTypeError(f"{self.name} must be {self.accepted()}, got {excerpt(value)}")
        kind = self.kind
        if kind == "int":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:  # type: ignore[operator]
                raise bad
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.low <= value <= self.high:  # type: ignore[operator]
                raise bad
            value = float(value)
        elif kind == "choice":
            if value not in self.choices:
                raise bad
        elif kind == "bool":
            if not isinstance(value, bool):
                raise bad
        elif kind == "cards":
            if isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value):
                value = " ".join(value)
            if not isinstance(value, str) or len(value) > 400:
                raise bad
        elif kind == "policies":
            pair = (value, value) if isinstance(value, str) else value
            if not isinstance(pair, (list, tuple)) or len(pair) != 2 or any(p not in self.choices for p in pair):
                raise bad
            value = tuple(pair)
        elif kind == "die":
            from toolkit.dice import check_trait_die

            try:
                value = f"d{check_trait_die(value)}"
            except InvalidSetupError:
                raise bad from None
        return value

    def bad_in_range(self, values: range) -> tuple[int | None, int | None]:
        """Return how many of the whole numbers ``values`` the argument refuses and the
        first of them (``(0, None)``: none). A number's bounds are compared with the range's
        ends (no value is checked one by one: a range may hold a million values); another
        kind is checked value by value, stopping at the first refused one of a long range
        (the count is then ``None``).

        >>> Param("dice", "int", low=0, high=200).bad_in_range(range(-5, 1_000_001))
        (999805, -5)
        >>> Param("dice", "int", low=0, high=200).bad_in_range(range(0, 201, 50))
        (0, None)
        """
        if self.kind in ("int", "float"):
            low, high = math.ceil(self.low), math.floor(self.high)  # type: ignore[arg-type]
            start, step, n = values.start, values.step, len(values)
            first_in = max(0, -((start - low) // step))  # the first index at or above low
            last_in = min(n - 1, (high - start) // step)  # the last index at or below high
            inside = max(0, last_in - first_in + 1)
            if inside == n:
                return 0, None
            first = values[0] if first_in > 0 or inside == 0 else values[last_in + 1]
            return n - inside, first
        count, first = 0, None
        for value in values:
            try:
                self.check(value)
            except InvalidSetupError:
                count += 1
                if first is None:
                    first = value
                    if len(values) > LONG_RANGE:
                        return None, first
        return count, first

    def column(self, value: Any) -> Any:
        """Return ``value`` as it is written in the sweep table's column (a policy pair as
        ``"greedy/random"``)."""
        if self.kind == "policies":
            return "/".join(value)
        return value


def outcome_label(outcome: Any) -> str:
    """Return a short, stable label of an outcome: ``"winner=attacker, points=1"`` for a
    named tuple, ``"a, b"`` for a plain tuple, its ``str`` otherwise (an Angry Miniatures
    outcome reads ``"1 damage to defender, attacker crits"``). Outcomes recur from point to
    point: each label is kept once made (:data:`LABELS` of them at most)."""
    try:
        return _LABELS[outcome]
    except KeyError:
        label = _label(outcome)
    except TypeError:  # not hashable
        return _label(outcome)
    if len(_LABELS) >= LABELS:
        _LABELS.clear()
    _LABELS[outcome] = label
    return label


#: The most outcome labels kept (:func:`outcome_label`).
LABELS = 100_000
_LABELS: dict[Any, str] = {}


def _label(outcome: Any) -> str:
    if hasattr(outcome, "_asdict"):
        return ", ".join(f"{k}={v}" for k, v in outcome._asdict().items())
    if isinstance(outcome, tuple):
        return ", ".join(map(str, outcome))
    return str(outcome)


def distribution_rows(dist: Any, is_exact: bool = True, result: Any = None) -> list[Row]:
    """One probability row per outcome of a :class:`~toolkit.prob.Distribution`, in its
    order, each with its interval read from ``result`` (:func:`interval_of`)."""
    rows = [
        Row(outcome_label(o), "probability", p if type(p) is Fraction else Fraction(p), float(p), is_exact)
        for o, p in dist.items()
    ]
    if result is None or is_exact:
        return rows
    return [r._replace(low=low, high=high) for r, (low, high) in zip(rows, intervals(result, dist), strict=True)]


#: The columns of a point's rows, as :func:`result_columns` and :meth:`Calculator.columns` give them.
ROW_COLUMNS = ("outcome", "kind", "numerator", "denominator", "value", "low", "high", "exact")


def rows_columns(rows: list[Row]) -> dict[str, list[Any]]:
    """Return rows as :data:`ROW_COLUMNS` (exact numbers as decimal text, ``low`` and
    ``high`` as :meth:`Row.bounds`)."""
    bounds = [r.bounds() for r in rows]
    return {
        "outcome": [r.outcome for r in rows],
        "kind": [r.kind for r in rows],
        "numerator": [None if r.exact is None else str(r.exact.numerator) for r in rows],
        "denominator": [None if r.exact is None else str(r.exact.denominator) for r in rows],
        "value": [r.value for r in rows],
        "low": [b[0] for b in bounds],
        "high": [b[1] for b in bounds],
        "exact": [r.is_exact for r in rows],
    }


def result_columns(result: Any) -> dict[str, list[Any]]:
    """Return the rows :func:`result_rows` gives, as :data:`ROW_COLUMNS`, built from the
    distribution's integer weights in bulk (no ``Fraction`` or :class:`Row` per outcome:
    what a sweep's worker writes). Each probability is ``weight / total`` reduced by their
    greatest common divisor, its float the correctly rounded quotient (as
    ``float(Fraction)`` gives it)."""
    dist = getattr(result, "distribution", result)
    is_exact = bool(getattr(result, "exact", True))
    outcomes = dist.outcomes()
    weights = list(map(dist.weights().__getitem__, outcomes))
    total = dist.total
    divisors = list(map(math.gcd, weights, repeat(total)))
    numerators = list(map(floordiv, weights, divisors))
    denominators = list(map(floordiv, repeat(total), divisors))
    shown: dict[int, str] = {}  # many outcomes share a denominator: written once
    count = len(outcomes)
    values = list(map(truediv, weights, repeat(total)))
    if is_exact:
        low, high = values, values
    else:
        low, high = [list(side) for side in zip(*intervals(result, dist), strict=True)] or ([], [])
    return {
        "outcome": list(map(outcome_label, outcomes)),
        "kind": ["probability"] * count,
        "numerator": list(map(str, numerators)),
        "denominator": [shown.get(d) or shown.setdefault(d, str(d)) for d in denominators],
        "value": values,
        "low": low,
        "high": high,
        "exact": [is_exact] * count,
    }


def result_rows(result: Any) -> list[Row]:
    """The :func:`distribution_rows` of a calculator's result, read duck-typed: its
    ``distribution`` (or the result itself when it is a distribution), ``exact`` (true
    when it does not say) and ``interval``."""
    dist = getattr(result, "distribution", result)
    return distribution_rows(dist, bool(getattr(result, "exact", True)), result)


def interval_of(result: Any, event: Any) -> tuple[float | None, float | None]:
    """Return the interval a calculator's result gives for an outcome or predicate,
    read duck-typed: ``result.interval(event)`` when the result has one (the exact value
    twice when ``result.exact``), else ``(None, None)``."""
    interval = getattr(result, "interval", None)
    if not callable(interval):
        return None, None
    low, high = interval(event)
    return float(low), float(high)


def intervals(result: Any, dist: Any) -> list[tuple[float | None, float | None]]:
    """The :func:`interval_of` ``result`` for each outcome of ``dist``, in its order."""
    return [interval_of(result, o) for o in dist.outcomes()]


def value_rows(values: Mapping[str, Any], is_exact: bool = True) -> list[Row]:
    """One value row per named quantity (a ``Fraction`` kept exactly, a float as a float)."""
    rows = []
    for name, v in values.items():
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            rows.append(Row(name, "value", Fraction(v), float(v), is_exact))
        else:
            rows.append(Row(name, "value", None, float(v), False))
    return rows


@dataclass(frozen=True)
class Calculator:
    """A public calculator of one system, as a sweep runs it.

    Attributes:
        system, name: ``"angry-miniatures"``, ``"opposed"`` (the function's public name).
        params: its arguments (the rules are not one of them: see ``takes_rules``).
        run: ``run(args, rules) -> result`` calls the system's function.
        to_rows: the result as :class:`Row`\\ s.
        takes_rules: whether the function takes the system's ``Rules``.
        size: ``size(args, rules) -> (size, limit, alternative)`` of the calculator's own
            exact-size check under the point's rules (``None`` when the point is not
            exact), or ``None`` (checked for every point before running).
        seconds: a rough time of one point, for chunking small points together.
        max_points: the most points of one sweep of this calculator.
        help: one line.
        shares: the arguments whose equal values share cached work (the same pools, the
            same hand sizes): a sweep runs points that agree on them in the same chunk.
    """

    system: str
    name: str
    params: tuple[Param, ...]
    run: Callable[[dict[str, Any], Any], Any]
    to_rows: Callable[[Any], list[Row]]
    takes_rules: bool = True
    size: Callable[[dict[str, Any], Any], tuple[int, int, str] | None] | None = None
    seconds: float = 0.01
    max_points: int = 2_000_000
    help: str = ""
    shares: tuple[str, ...] = ()

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def param(self, name: str) -> Param:
        """Return the argument called ``name``.

        Raises:
            InvalidSetupError: no such argument (the message lists them).
        """
        for p in self.params:
            if p.name == name:
                return p
        raise InvalidSetupError(
            f"{excerpt(name)} is not an argument of {self.name}; its arguments are {', '.join(self.param_names)}"
        )

    def call(self, args: Mapping[str, Any], rules: Any) -> Any:
        """Return the calculator's result for ``args`` (defaults filled in) and ``rules``."""
        full = {p.name: p.default for p in self.params}
        full.update(args)
        return self.run(full, rules)

    def rows(self, result: Any) -> list[Row]:
        """Return the rows of a result of :meth:`call`."""
        return self.to_rows(result)

    def columns(self, result: Any) -> dict[str, list[Any]]:
        """Return the rows of a result of :meth:`call` as :data:`ROW_COLUMNS`: in bulk
        (:func:`result_columns`) for a calculator whose rows are :func:`result_rows`, else
        through :meth:`rows`."""
        if self.to_rows is result_rows:
            return result_columns(result)
        return rows_columns(self.rows(result))

    def describe(self) -> str:
        """Return one line per argument: name, what it accepts, the default."""
        lines = [f"{self.system} {self.name}: {self.help}" + ("" if self.takes_rules else " (no rules)")]
        for p in self.params:
            default = "required" if p.required else f"default {p.column(p.default)!r}"
            lines.append(f"    {p.name}: {p.accepted()} ({default})")
        return "\n".join(lines)


# -- the registry -------------------------------------------------------------------------
def _am_calculators() -> list[Calculator]:
    from toolkit.angry_miniatures import ATTACK_TYPES, attacks_to_take_out, odds_table, opposed
    from toolkit.angry_miniatures.odds import MAX_CAP, MAX_HEALTH, MAX_OPPOSED_DICE

    system = "angry-miniatures"
    pools = (
        Param("attack_dice", "int", low=0, high=MAX_OPPOSED_DICE, help="the attacker's pool (AM-2)"),
        Param("defense_dice", "int", low=0, high=MAX_OPPOSED_DICE, help="the defender's pool (AM-2)"),
        Param("attack_type", "choice", "melee", choices=tuple(ATTACK_TYPES), help="melee or ranged (AM-3)"),
    )

    def opposed_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str]:
        return (args["attack_dice"] + args["defense_dice"], MAX_OPPOSED_DICE, "fewer dice")

    def table_rows(frame: Any) -> list[Row]:
        row = frame.iloc[0]
        measures = [c for c in frame.columns if c not in ("attack_dice", "defense_dice")]
        return [
            Row(
                m,
                "chance" if m in ("hit", "return_hit", "attacker_crit", "defender_crit") else "value",
                Fraction(row[m]),
                float(row[m]),
                True,
            )
            for m in measures
        ]

    return [
        Calculator(
            system,
            "opposed",
            pools,
            lambda a, r: opposed(a["attack_dice"], a["defense_dice"], a["attack_type"], r),
            result_rows,
            size=opposed_size,
            seconds=0.002,
            help="the distribution of one attack's outcome (AM-3, AM-4, AM-5, AM-7)",
            shares=("attack_dice", "defense_dice"),
        ),
        Calculator(
            system,
            "odds_table",
            pools,
            lambda a, r: odds_table([a["attack_dice"]], [a["defense_dice"]], a["attack_type"], r),
            table_rows,
            size=opposed_size,
            seconds=0.003,
            help="the opposed table's measures (P hit, expected damage, crits) of one pair of pools",
            shares=("attack_dice", "defense_dice"),
        ),
        Calculator(
            system,
            "attacks_to_take_out",
            pools[:2]
            + (
                Param("health", "int", low=1, high=MAX_HEALTH, help="the target's Health (AM-10)"),
                pools[2],
                Param("cap", "int", 30, low=1, high=MAX_CAP, help="attacks counted before 'more than cap'"),
            ),
            lambda a, r: attacks_to_take_out(
                a["attack_dice"], a["defense_dice"], a["health"], a["attack_type"], r, a["cap"]
            ),
            result_rows,
            seconds=0.01,
            help="the distribution of the number of attacks to take out a target (AM-10)",
            shares=("attack_dice", "defense_dice"),
        ),
    ]


def _fm_calculators() -> list[Calculator]:
    from toolkit.fairy_meat import (
        DEFAULT_TRIALS,
        EXACT_LIMIT,
        GENERIC_EXACT_LIMIT,
        HIDDEN_LIMIT,
        POLICIES,
        attack_odds,
        deal_averaged_odds,
        exact_size,
        hand_composition,
        hidden_size,
        solve_attack,
        solve_hidden,
    )

    system = "fairy-meat"
    policies = Param(
        "policies", "policies", ("greedy", "greedy"), choices=tuple(POLICIES), help="the two fairies' play"
    )
    hands = (
        Param("attacker_hand", "cards", help="the attacker's combat hand"),
        Param("defender_hand", "cards", help="the defender's combat hand (may be empty, FM-7)"),
    )
    method = Param("method", "choice", "auto", choices=("auto", "exact", "monte_carlo"), help="exact or Monte Carlo")

    def deal_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str] | None:
        if args["method"] != "exact":
            return None
        from toolkit.fairy_meat.odds.checks import resolve_policies
        from toolkit.fairy_meat.odds.deals import model_pair

        # the limit deal_averaged_odds applies: the standard policies' models, or the generic count
        limit = (
            EXACT_LIMIT if model_pair(resolve_policies(args["policies"]), rules) is not None else GENERIC_EXACT_LIMIT
        )
        return (
            exact_size(args["attacker_cards"], args["defender_cards"], args["policies"], rules),
            limit,
            "method: auto or monte_carlo",
        )

    def deal_rows(result: Any) -> list[Row]:
        return result_rows(result)

    def solution_rows(s: Any) -> list[Row]:
        return value_rows({"value": s.value, "lower": s.lower, "upper": s.upper, "exploitability": s.exploitability})

    def hidden_rows(s: Any) -> list[Row]:
        return value_rows(
            {
                "value": s.value,
                "lower": s.lower,
                "upper": s.upper,
                "exploitability": s.exploitability,
                "iterations": float(s.iterations),
            }
        )

    sizes = (
        Param("attacker_cards", "int", low=1, high=52, help="the attacker's hand size (FM-2)"),
        Param("defender_cards", "int", low=0, high=51, help="the defender's hand size (FM-2, FM-7)"),
    )
    return [
        Calculator(
            system,
            "hand_composition",
            (Param("cards", "int", low=0, high=52, help="the hand size (FM-1)"),),
            lambda a, r: hand_composition(a["cards"], r),
            result_rows,
            seconds=0.001,
            help="what a combat hand holds: Numbered cards, red and black Trumps, the death card, jokers (FM-1, FM-12)",
        ),
        Calculator(
            system,
            "attack_odds",
            hands + (policies,),
            lambda a, r: attack_odds(a["attacker_hand"], a["defender_hand"], a["policies"], r),
            result_rows,
            seconds=0.01,
            help="one attack between two known hands under two policies (FM-3..FM-12)",
        ),
        Calculator(
            system,
            "deal_averaged_odds",
            sizes
            + (
                policies,
                method,
                Param("trials", "int", DEFAULT_TRIALS, low=1, high=10**7, help="Monte Carlo trials"),
                Param("seed", "int", 0, low=0, high=2**31, help="Monte Carlo seed"),
            ),
            lambda a, r: deal_averaged_odds(
                a["attacker_cards"], a["defender_cards"], a["policies"], r, a["method"], a["trials"], a["seed"]
            ),
            deal_rows,
            size=deal_size,
            seconds=0.5,
            max_points=20_000,
            help="one attack averaged over every deal of two hand sizes (FM-1, FM-2)",
            shares=("attacker_cards", "defender_cards"),
        ),
        Calculator(
            system,
            "solve_attack",
            hands[:1]
            + (
                Param("defender_hand", "cards", help="the defender's combat hand"),
                Param("attacks", "int", 1, low=1, high=52, help="attacks from these hands (FM-13)"),
            ),
            lambda a, r: solve_attack(a["attacker_hand"], a["defender_hand"], r, attacks=a["attacks"]),
            solution_rows,
            seconds=0.5,
            max_points=20_000,
            help="the exact equilibrium of an attack between known hands (known-hands solver)",
        ),
        Calculator(
            system,
            "solve_hidden",
            (
                Param("attacker_cards", "int", low=1, high=52, help="the attacker's hand size"),
                Param("defender_cards", "int", low=1, high=51, help="the defender's hand size"),
                Param("target", "float", 0.01, low=1e-9, high=1.0, help="stop at this exploitability share"),
                Param("max_iterations", "int", 2000, low=1, high=10**6, help="CFR+ iterations at most"),
                Param("time_limit", "float", 60.0, low=0.1, high=86_400.0, help="seconds per point at most"),
            ),
            lambda a, r: solve_hidden(
                a["attacker_cards"],
                a["defender_cards"],
                r,
                target=a["target"],
                max_iterations=a["max_iterations"],
                time_limit=a["time_limit"],
            ),
            hidden_rows,
            size=lambda a, r: (
                hidden_size(a["attacker_cards"], a["defender_cards"]),
                HIDDEN_LIMIT,
                "smaller hands, or deal_averaged_odds with fixed policies",
            ),
            seconds=5.0,
            max_points=5_000,
            help="one attack with hidden hands, solved by CFR+ (hidden-hands solver; floats, measured bounds)",
        ),
    ]


def _db_calculators() -> list[Calculator]:
    from toolkit.durak_battle import (
        DEFAULT_BATTLE_TRIALS,
        DEFAULT_TRIALS,
        EXACT_LIMIT,
        MAX_TOKENS,
        POLICIES,
        Army,
        Leader,
        battle_outcome,
        clash_losses,
        clash_value,
        exact_size,
    )

    system = "durak-battle"
    policies = Param("policies", "policies", ("greedy", "greedy"), choices=tuple(POLICIES), help="each side's play")
    method = Param("method", "choice", "auto", choices=("auto", "exact", "monte_carlo"), help="exact or Monte Carlo")
    seed = Param("seed", "int", 0, low=0, high=2**31, help="Monte Carlo seed")

    def losses_size(args: dict[str, Any], rules: Any) -> tuple[int, int, str] | None:
        if args["method"] != "exact":
            return None
        return (exact_size(args["cards_a"], args["cards_b"], rules), EXACT_LIMIT, "method: auto or monte_carlo")

    def losses_rows(result: Any) -> list[Row]:
        pairs = result.distribution.map(lambda o: (o[0], o[1]))
        rows = [Row(f"lost_a={a}, lost_b={b}", "probability", p, float(p), result.exact) for (a, b), p in pairs.items()]
        if result.exact:
            return rows
        bounds = [interval_of(result, lambda o, pair=pair: (o[0], o[1]) == pair) for pair in pairs.outcomes()]
        return [r._replace(low=low, high=high) for r, (low, high) in zip(rows, bounds, strict=True)]

    def battle_rows(result: Any) -> list[Row]:
        ends = result.distribution.map(lambda e: (e.winner or "none", e.how))
        rows = [Row(f"winner={w}, how={h}", "probability", p, float(p), result.exact) for (w, h), p in ends.items()]
        if not result.exact:
            bounds = [
                interval_of(result, lambda e, end=end: (e.winner or "none", e.how) == end) for end in ends.outcomes()
            ]
            rows = [r._replace(low=low, high=high) for r, (low, high) in zip(rows, bounds, strict=True)]
        rounds = result.distribution.mean("rounds")
        return rows + [Row("mean rounds", "value", rounds, float(rounds), result.exact)]

    def army(name: str, a: dict[str, Any], side: str) -> Army:
        leader = Leader(f"{name}'s leader", a[f"battle_die_{side}"], a[f"spirit_die_{side}"], a[f"wild_card_{side}"])
        return Army(name, a[f"tokens_{side}"], leader)

    side_params: tuple[Param, ...] = ()
    for side in ("a", "b"):
        side_params += (
            Param(f"tokens_{side}", "int", low=1, high=MAX_TOKENS, help=f"army {side}'s tokens (DB-7)"),
            Param(f"battle_die_{side}", "die", "d6", help=f"army {side}'s leader's Knowledge (Battle) die (DB-2)"),
            Param(f"spirit_die_{side}", "die", "d6", help=f"army {side}'s leader's Spirit die (DB-8)"),
            Param(f"wild_card_{side}", "bool", True, help=f"whether army {side}'s leader is a Wild Card"),
        )
    return [
        Calculator(
            system,
            "clash_value",
            (Param("hand_a", "cards", help="side a's cards"), Param("hand_b", "cards", help="side b's cards")),
            lambda a, r: clash_value(a["hand_a"], a["hand_b"], r),
            lambda v: value_rows({"value": v.value, "lost_a": v.lost_a, "lost_b": v.lost_b}),
            seconds=0.01,
            help="one clash with both hands known: the exact minimax value and losses (DB-3..DB-7)",
        ),
        Calculator(
            system,
            "clash_losses",
            (
                Param("cards_a", "int", low=0, high=27, help="side a's hand size"),
                Param("cards_b", "int", low=0, high=27, help="side b's hand size"),
                policies,
                method,
                Param("trials", "int", DEFAULT_TRIALS, low=1, high=10**7, help="Monte Carlo clashes"),
                seed,
            ),
            lambda a, r: clash_losses(
                a["cards_a"], a["cards_b"], a["policies"], r, a["method"], a["trials"], a["seed"]
            ),
            losses_rows,
            size=losses_size,
            seconds=1.0,
            max_points=20_000,
            help="the tokens each side loses in one clash of two hand sizes (clash odds, DB-1..DB-7)",
            shares=("cards_a", "cards_b"),
        ),
        Calculator(
            system,
            "battle_outcome",
            side_params
            + (
                policies,
                Param("max_rounds", "int", 50, low=1, high=1000, help="rounds before 'undecided'"),
                method,
                Param("trials", "int", DEFAULT_BATTLE_TRIALS, low=1, high=10**7, help="Monte Carlo clashes per pair"),
                seed,
            ),
            lambda a, r: battle_outcome(
                army("a", a, "a"),
                army("b", a, "b"),
                r,
                a["policies"],
                a["max_rounds"],
                a["method"],
                a["trials"],
                a["seed"],
            ),
            battle_rows,
            seconds=5.0,
            max_points=5_000,
            help="how a whole battle ends: winner and how (retreat, destroyed, undecided), mean rounds (DB-1..DB-9)",
        ),
    ]


#: Each system's calculators, built when first asked for (a worker imports only its system).
_BUILDERS: dict[str, Callable[[], list[Calculator]]] = {
    "angry-miniatures": _am_calculators,
    "fairy-meat": _fm_calculators,
    "durak-battle": _db_calculators,
}
_BUILT: dict[str, dict[str, Calculator]] = {}


def _of(system: str) -> dict[str, Calculator]:
    if system not in _BUILT:
        _BUILT[system] = {c.name: c for c in _BUILDERS[system]()}
    return _BUILT[system]


class _Registry(Mapping[tuple[str, str], Calculator]):
    """Every calculator by ``(system, name)``, each system's built on first use."""

    def __getitem__(self, key: tuple[str, str]) -> Calculator:
        system, name = key
        if system not in _BUILDERS:
            raise KeyError(key)
        return _of(system)[name]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter([(system, name) for system in _BUILDERS for name in _of(system)])

    def __len__(self) -> int:
        return sum(len(_of(system)) for system in _BUILDERS)


#: Every calculator a sweep can run, by ``(system, name)``.
CALCULATORS: Mapping[tuple[str, str], Calculator] = _Registry()


def calculators_of(system: str) -> list[Calculator]:
    """Return the calculators of ``system`` (``"fairy-meat"``), in the registry's order."""
    return list(_of(system).values()) if system in _BUILDERS else []


def calculator(system: str, name: str) -> Calculator:
    """Return the calculator ``name`` of ``system`` (importing only that system).

    Raises:
        InvalidSetupError: an unknown system or calculator (the message lists the accepted ones).
    """
    if not isinstance(system, str) or system not in _BUILDERS:
        raise InvalidSetupError(
            f"system {excerpt(system)} is not known; the systems are {', '.join(sorted(_BUILDERS))}"
        )
    try:
        return _of(system)[name]
    except (KeyError, TypeError):
        names = ", ".join(_of(system))
        raise InvalidSetupError(
            f"{excerpt(name)} is not a calculator of {system}; its calculators are {names}"
        ) from None
