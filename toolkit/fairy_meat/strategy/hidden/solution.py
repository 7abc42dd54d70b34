"""The solved hidden-hands game: values, bounds, strategies, outcomes (:class:`HiddenSolution`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from toolkit.cards import parse_cards
from toolkit.engine import Policy
from toolkit.equilibrium.cfr import best_response_value, profile_value, reaches
from toolkit.errors import InvalidSetupError
from toolkit.fairy_meat.deck import (
    ACE_TRUMP,
    BLACK_TRUMP,
    JOKER_TRUMP,
    RED_TRUMP,
    death_card_name,
    death_colour,
    n_types,
    type_colour,
    type_index,
    type_name_under,
    type_pips,
)
from toolkit.fairy_meat.legality import (
    trumps_seen,
)
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.game import Game
from toolkit.fairy_meat.strategy.hidden.hands import observation_name, placed_name, placed_size
from toolkit.fairy_meat.strategy.hidden.matrix import draw_values, plain_cells
from toolkit.fairy_meat.strategy.hidden.policies import DECLS, SIDES, policy_strategy, type_action
from toolkit.fairy_meat.strategy.payoff import Payoff
from toolkit.numbers import count as counted

__all__ = ["hand_features", "HiddenSolution"]


def _hand_text(hand: Sequence[int], rules: Rules | None = None) -> str:
    parts = []
    for t in range(len(hand)):
        parts += [type_name_under(t, rules)] * hand[t]
    return ", ".join(parts)


def _action_text(level: int, action: Any, rules: Rules | None = None) -> str:
    if level == 0:
        return DECLS[action]
    if level == 1:
        return placed_name(action, rules)
    name = type_name_under(action, rules)
    return name if action < 18 else f"Wild Trump: {name}"


def _action_kind(level: int, action: Any, hand: Sequence[int], rules: Rules | None = None) -> str:
    if level == 0:
        return DECLS[action]
    if level == 1:
        if action is None:
            return "None"
        return f"{placed_size(action)} {action[0]}" + (f" incl. {death_card_name(rules)}" if action[2] else "")
    if action >= 18:
        return "Wild Trump"
    pips = type_pips(action)
    band = "low 2-5" if pips <= 5 else "middle 6-7" if pips <= 7 else "high 8-10"
    return f"{type_colour(action)} {band}"


def hand_features(hand: Sequence[int], rules: Rules | None = None) -> str:
    """What a hand holds in words (FM-1): Numbered cards, red and black Trumps (the death
    card with its colour, FM-12), jokers."""
    n = sum(hand[:18])
    death_red = death_colour(rules) == "red"
    red = hand[RED_TRUMP] + hand[ACE_TRUMP] * death_red
    black = hand[BLACK_TRUMP] + hand[ACE_TRUMP] * (not death_red)
    text = f"{n} Numbered, {red} red / {black} black Trumps"
    if len(hand) > JOKER_TRUMP and hand[JOKER_TRUMP]:
        text += f", {hand[JOKER_TRUMP]} joker" + ("s" if hand[JOKER_TRUMP] > 1 else "")
    return text + (f" ({death_card_name(rules)})" if hand[ACE_TRUMP] else "")


@dataclass(frozen=True)
class HiddenSolution:
    """An approximate equilibrium of one attack with hidden hands (:func:`solve_hidden`).

    Attributes:
        value: the attacker's expected payoff when both play the average strategies.
        lower, upper: bounds on the game value, measured exactly in float64: the
            defender's best response against the attacker's average strategy, and the
            attacker's best response against the defender's (lower ≤ game value ≤ upper).
        exploitability: ``upper - lower`` (payoff units): how much the two best
            responses together gain on the average profile.
        exploitability_share: ``exploitability / payoff_range``.
        payoff_range: max − min of the payoff over every attack that can occur.
        iterations, seconds: CFR+ iterations run and wall time (build included).
        curve: ``(iteration, seconds, exploitability)`` at every check.
        build_seconds: time to build the game (referee judgements, draw law, matrix).
        stopped: what ended the solve: ``"target"`` (the exploitability reached
            ``target`` x the payoff range), ``"iterations"`` (the iteration budget) — both
            the same on any machine — or ``"time"`` (the ``time_limit`` safety net: the
            figures then depend on the machine's speed and load, :meth:`stop_note`).
        target, time_limit: the solve's exploitability target (share of the payoff
            range) and its time limit (seconds).
    """

    attacker_cards: int
    defender_cards: int
    value: float
    lower: float
    upper: float
    exploitability: float
    exploitability_share: float
    payoff_range: float
    iterations: int
    seconds: float
    curve: tuple[tuple[int, float, float], ...]
    build_seconds: float
    rules: Rules = field(default_factory=Rules)
    payoff: Payoff = field(default_factory=Payoff)
    removed: tuple[str, ...] = ()
    stopped: str = "target"
    target: float = 0.01
    time_limit: float = 60.0
    _game: Game | None = field(default=None, repr=False, compare=False)
    _strat: tuple[list[np.ndarray], list[np.ndarray]] | None = field(default=None, repr=False, compare=False)

    def stop_note(self) -> str:
        """Return a sentence for a report when the time limit, not the deterministic
        budget, stopped the solve (its figures then depend on the machine's speed and
        load), else ``""``."""
        if self.stopped != "time":
            return ""
        return (
            f"The hidden-hands game {self.attacker_cards} v {self.defender_cards} stopped on its time limit of "
            f"{self.time_limit:g} seconds after {counted(self.iterations, 'iteration')}, before its exploitability "
            f"reached {self.target:.2%} of the payoff range (it is {abs(self.exploitability_share):.2%}): its figures "
            "depend on how fast this machine ran, and another run can give others. Give it more time or fewer "
            "cards for figures that are the same on every machine."
        )

    @property
    def game(self) -> Game | None:
        """The game solved: both sequence trees and the payoff matrix (to check the value
        with another solver, e.g. the sequence-form LP)."""
        return self._game

    def _side(self, side: str) -> int:
        if side not in SIDES:
            raise InvalidSetupError(f"side must be 'attacker' or 'defender', got {side!r}")
        return SIDES.index(side)

    def _profile(self, p: int, who: str | Policy) -> list[np.ndarray]:
        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        if who == "equilibrium":
            return strat[p]
        cache = game.policy_cache
        if isinstance(who, str):
            from toolkit.fairy_meat.policies import POLICIES

            if who not in POLICIES:
                raise InvalidSetupError(
                    f"unknown strategy {who!r}: use 'equilibrium', "
                    + ", ".join(repr(k) for k in POLICIES)
                    + " or a policy function"
                )
            fn = POLICIES[who]
        elif callable(who):
            fn = who
        else:
            raise InvalidSetupError(
                f"a strategy is 'equilibrium', 'random', 'greedy' or a policy function, got {who!r}"
            )
        key = (p, fn)
        if key not in cache:
            cache[key] = policy_strategy(game, p, fn)
        return cache[key]

    def evaluate(self, attacker: str | Policy = "equilibrium", defender: str | Policy = "equilibrium") -> float:
        """The attacker's expected payoff (float64, over every deal and draw) when each side
        plays the equilibrium average strategy, ``"random"``, ``"greedy"`` or an engine
        policy (:mod:`.policies`), converted to card types on representative states."""
        assert self._game is not None
        return profile_value(
            self._game.sides, self._game.matrix, self._profile(0, attacker), self._profile(1, defender)
        )

    def policy(self) -> Policy:
        """Return the equilibrium (average strategy) as an engine policy for either side: at
        a declaration, Trumps or card decision it reads only the fairy's own hand, the
        declarations and what she saw of the opponent's Trumps (FM-3, FM-5), and returns
        :meth:`strategy`'s mix on the legal actions; elsewhere the referee's best choice.
        A fairy who plays it in another deck (``removed`` cards) plays as if she did not
        count cards."""
        from toolkit.prob import Distribution

        def play(state: Any) -> Any:
            best = state.best_action()
            if best is not None:
                return Distribution.certain(best)
            step, i = state.phase()
            side = ("attacker", "defender")[i]
            hand = [c.code for c in state.hands[i]]
            declared = [d for d in state.declared if d is not None]
            placed = seen = None
            level = {"declare": 0, "trumps": 1, "play": 2}.get(step)
            if level is None:
                return Distribution.uniform(state.legal_actions())
            if level == 1:
                declared = declared[:2]
            if level == 2:
                mine, other = state.cur.trumps[i] or (), state.cur.trumps[1 - i] or ()
                placed = [c.code for c in mine]
                if trumps_seen(bool(mine), bool(other)) != "count":
                    seen = [c.code for c in other] or "none"
                else:
                    seen = len(other)
                hand = [c.code for c in state.hands[i]]
            mix = self.strategy(side, hand, declared, placed, seen)
            out: dict[Any, Fraction] = {}
            taken: set[str] = set()
            for action in state.legal_actions():
                text = _action_text(level, type_action(str(action), self.rules), self.rules)
                if text in mix and text not in taken and mix[text] > 0:
                    taken.add(text)  # one legal action per card type
                    out[action] = Fraction(mix[text]).limit_denominator(10**9)
            return Distribution(out) if out else Distribution.uniform(state.legal_actions())

        return play

    def best_response_value(self, side: str, against: str | Policy = "equilibrium") -> float:
        """The attacker's expected payoff when ``side`` plays her best response (knowing the
        opponent's strategy, exactly) against a fixed opponent: the attacker's best, or
        the defender's best (the lowest for the attacker)."""
        p = self._side(side)
        assert self._game is not None
        return best_response_value(self._game.sides, self._game.matrix, p, self._profile(1 - p, against))

    def outcomes(self, attacker: str | Policy = "equilibrium", defender: str | Policy = "equilibrium") -> Any:
        """The distribution of (winner, points, damage, nasty_hit) of the attack under a
        profile, as a pandas DataFrame of float probabilities (``points`` are the
        defender's when she wins, FM-10, FM-11)."""
        import pandas as pd

        game = self._game
        assert game is not None
        ra = reaches(game.sides[0], self._profile(0, attacker))[1][-1]
        rd = reaches(game.sides[1], self._profile(1, defender))[1][-1]
        n_out = len(game.judge.outcomes)
        coo = game.coo
        rows, cols = plain_cells(game)
        probs = np.bincount(coo["oid"], weights=coo["w"] * ra[rows] * rd[cols], minlength=n_out)
        eye = np.eye(n_out)
        for g in game.draw_groups:
            weight = g[2] * ra[g[0]] * rd[g[1]]
            if not weight.any():
                continue
            probs += weight @ draw_values(game, g, lambda: eye)
        rows = [
            {"winner": o[0], "points": o[1], "damage": o[2], "nasty_hit": o[3], "probability": float(q)}
            for o, q in zip(game.judge.outcomes, probs, strict=True)
            if q > 0
        ]
        df = pd.DataFrame(rows, columns=["winner", "points", "damage", "nasty_hit", "probability"])
        df = df.groupby(["winner", "points", "damage", "nasty_hit"], as_index=False)["probability"].sum()
        return df.sort_values(["winner", "points", "damage", "nasty_hit"]).reset_index(drop=True)

    def strategy_table(self, side: str, detail: str = "summary", min_reach: float = 1e-9) -> Any:
        """The equilibrium of ``side`` as a pandas DataFrame.

        ``detail="summary"`` (default): per decision (declaration FM-3, Trumps FM-4/FM-5,
        card FM-6) and hand features (Numbered cards, red and black Trumps), the
        probability of each kind of action, averaged over the hands and histories
        weighted by ``reach``. ``detail="hands"``: one row per hand type, history and
        action (hands shown by type, e.g. ``'5 black, red Trump'``) with its probability.
        ``reach`` = the probability of the hand x her own probability of making the
        choices of the history (the opponent's are not included); rows with reach at
        most ``min_reach`` are left out. With a single legal action (one Numbered card,
        say) the "card" rows show what is played, not a choice.
        """
        p = self._side(side)
        if detail not in ("summary", "hands"):
            raise InvalidSetupError(f"detail must be 'summary' or 'hands', got {detail!r}")
        import pandas as pd

        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        sd = game.sides[p]
        inf_r, _ = reaches(sd, strat[p])
        # weight of each information set: the probability of the hand x her own probability
        # of getting there (the opponent's choices on the way are not included).
        hand_prob = game.weights.sum(axis=1 - p)
        names = ("declaration", "trumps", "card")
        rows = []
        # the words of each hand and action, worked out once each (many rows share them)
        hand_words: dict[int, tuple[str, str]] = {}
        action_words: dict[tuple[int, Any], str] = {}
        kind_words: dict[tuple[int, Any, int], str] = {}
        seen_words: dict[tuple[int, int], tuple[str, str]] = {}
        for level, lv in enumerate(sd.levels):
            infos, acts = game.infos[p][level], game.actions[p][level]
            for i, info in enumerate(infos):
                reach = inf_r[level][i] * hand_prob[info[0]]
                if reach <= min_reach:
                    continue
                hand = game.hands[p][info[0]]
                words = hand_words.get(info[0])
                if words is None:
                    words = hand_words[info[0]] = (_hand_text(hand, self.rules), hand_features(hand, self.rules))
                hist = []
                if (level >= 1 or p == 1) and info[1] is not None:
                    hist.append(f"attacker {DECLS[info[1]]}")
                if level >= 1:
                    hist.append(f"defender {DECLS[info[2]]}")
                if level == 2:
                    seen = seen_words.get(info[3:5])
                    if seen is None:
                        seen = seen_words[info[3:5]] = (
                            f"placed {placed_name(game.placed[info[3]], self.rules)}",
                            f"saw {observation_name(game.obs[info[4]], self.rules)}",
                        )
                    hist += seen
                start, count = int(lv["starts"][i]), int(lv["counts"][i])
                history = "; ".join(hist)
                for j in range(start, start + count):
                    act = acts[j]
                    text = action_words.get((level, act))
                    if text is None:
                        text = action_words[(level, act)] = _action_text(level, act, self.rules)
                    kind = kind_words.get((level, act, info[0]))
                    if kind is None:
                        kind = kind_words[(level, act, info[0])] = _action_kind(level, act, hand, self.rules)
                    rows.append(
                        {
                            "decision": names[level],
                            "hand": words[0],
                            "features": words[1],
                            "history": history,
                            "action": text,
                            "kind": kind,
                            "probability": float(strat[p][level][j]),
                            "reach": float(reach),
                        }
                    )
        df = pd.DataFrame(rows)
        if detail == "hands":
            return df.drop(columns=["features", "kind"])
        df["weighted"] = df["probability"] * df["reach"]
        g = df.groupby(["decision", "features", "kind"], as_index=False).agg(weighted=("weighted", "sum"))
        # total reach of each (decision, features) group, counted once per information set
        per_inf = df.drop_duplicates(["decision", "hand", "history"])
        tot = per_inf.groupby(["decision", "features"], as_index=False).agg(reach=("reach", "sum"))
        g = g.merge(tot, on=["decision", "features"])
        g["probability"] = g["weighted"] / g["reach"]
        order = {n: i for i, n in enumerate(names)}
        g["_o"] = g["decision"].map(order)
        g = g.sort_values(["_o", "features", "kind"]).drop(columns=["_o", "weighted"])
        return g.reset_index(drop=True)[["decision", "features", "kind", "probability", "reach"]]

    def strategy(
        self,
        side: str,
        hand: Sequence[str] | str,
        declarations: Sequence[str] = (),
        placed: Sequence[str] | str | None = None,
        seen: str | Sequence[str] | int | None = None,
    ) -> dict[str, float]:
        """One hand's equilibrium mix at its next decision, as {action: probability}.

        Args:
            side: ``"attacker"`` or ``"defender"``.
            hand: her cards (codes); only their types matter.
            declarations: the declarations made so far, attacker first (FM-3): none for
                the attacker's declaration, one for the defender's, two for Trumps.
            placed: her Trumps placed (codes, ``"none"`` or ``[]``) — give it, and
                ``seen``, for the card decision.
            seen: what she saw of the opponent's Trumps (FM-5): ``"none"``, the cards (a
                set seen when both placed), or how many lie face down (an int).
        """
        p = self._side(side)
        game, strat = self._game, self._strat
        assert game is not None and strat is not None
        cards = parse_cards(hand) if isinstance(hand, str) else parse_cards(list(hand))
        counts = [0] * n_types(self.rules)
        for c in cards:
            counts[type_index(c, self.rules)] += 1
        h_t = tuple(counts)
        if h_t not in game.hands[p]:
            raise InvalidSetupError(f"{side}'s hand must hold {(game.a, game.d)[p]} cards of this deck, got {hand!r}")
        h = game.hands[p].index(h_t)
        decl = [DECLS.index(x) if x in DECLS else -1 for x in declarations]
        if -1 in decl or len(decl) > 2:
            raise InvalidSetupError(
                f"declarations are up to two of 'add'/'subtract', attacker first, got {declarations!r}"
            )
        if placed is None:
            level = 0 if len(decl) < 2 else 1
            if level == 0 and len(decl) != p:
                follows = counted(p, "declaration")
                raise InvalidSetupError(f"the {side}'s declaration follows {follows}, got {len(decl)}")
            info = (h, None) if p == 0 and level == 0 else (h, decl[0]) if level == 0 else (h, decl[0], decl[1])
        else:
            if len(decl) != 2:
                raise InvalidSetupError("the card decision needs both declarations")
            pc = [] if placed in ("none", "None") else parse_cards(placed if isinstance(placed, str) else list(placed))
            pl = type_action("trumps " + (" ".join(c.code for c in pc) or "none"), self.rules)
            if isinstance(seen, int):
                ob: tuple = ("count", seen)
            elif seen in (None, "none", "None", ()):
                ob = ("none",)
            else:
                sc = parse_cards(seen if isinstance(seen, str) else list(seen))
                ob = ("set", type_action("trumps " + " ".join(c.code for c in sc), self.rules))
            if pl not in game.placed or ob not in game.obs:
                raise InvalidSetupError(f"no such history: placed {placed!r}, seen {seen!r}")
            level = 2
            info = (h, decl[0], decl[1], game.placed.index(pl), game.obs.index(ob))
        # each information set's position, by its history (first of equal ones, as list.index)
        where = game.policy_cache.get(("infoset", p, level))
        if where is None:
            where = game.policy_cache[("infoset", p, level)] = {}
            for j, inf in enumerate(game.infos[p][level]):
                where.setdefault(inf, j)
        i = where.get(info)
        if i is None:
            raise InvalidSetupError(f"the {side} cannot reach that decision with this hand")
        lv = game.sides[p].levels[level]
        start, count = int(lv["starts"][i]), int(lv["counts"][i])
        acts = game.actions[p][level]
        return {
            _action_text(level, acts[j], self.rules): float(strat[p][level][j]) for j in range(start, start + count)
        }
