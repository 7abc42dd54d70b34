"""The hidden-hands game's structure: both players' sequence trees of information sets (FM-3..FM-6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np
import scipy.sparse as sp

from toolkit.equilibrium.cfr import SequenceTree
from toolkit.fairy_meat.legality import (
    Placed,
)
from toolkit.fairy_meat.rules import Rules
from toolkit.fairy_meat.strategy.hidden.hands import count_matrix, hand_types, observed, type_options
from toolkit.fairy_meat.strategy.hidden.judge import Judge
from toolkit.fairy_meat.strategy.payoff import Payoff

__all__ = ["Game", "build_structure"]


@dataclass
class Game:
    """Everything the solver iterates on. The payoff-free part (structure, ``judge``,
    ``coo``, ``draw_groups``, ``draws``, ``double_cache``, ``pattern``) is shared, read
    only, by the games of one (a, d, deck, rules) with other payoffs
    (:func:`~.matrix.build_game`); ``payoff``, ``matrix``, ``payoff_range`` and
    ``policy_cache`` are each game's own."""

    a: int
    d: int
    caps: tuple[int, ...]
    rules: Rules
    payoff: Payoff
    hands: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]
    weights: np.ndarray  # deal probabilities, nA x nD
    sides: tuple[SequenceTree, SequenceTree]
    seqs: tuple[dict[str, np.ndarray], dict[str, np.ndarray]]  # terminal sequence attributes
    infos: tuple[list[list[tuple]], list[list[tuple]]]  # per level, per information set: its history
    actions: tuple[list[list[Any]], list[list[Any]]]  # per level, per slot: the action
    placed: list[Placed]
    obs: list[tuple]
    matrix: sp.csr_matrix = field(default=None)  # type: ignore[assignment]
    judge: Judge = field(default=None)  # type: ignore[assignment]
    coo: dict[str, np.ndarray] = field(default_factory=dict)
    draw_groups: list[tuple] = field(default_factory=list)
    draws: Any = None  # the Draws helper
    double_cache: dict[tuple, np.ndarray] = field(default_factory=dict)
    pattern: Any = None  # the matrix's CSR pattern: (entry of each stored value, indices, indptr, shape)
    policy_cache: dict[tuple, list[np.ndarray]] = field(default_factory=dict)
    payoff_range: float = 0.0


def build_structure(a: int, d: int, caps: tuple[int, ...], rules: Rules, payoff: Payoff) -> Game:
    hands_a, hands_d = hand_types(a, caps), hand_types(d, caps)
    ha, hd = np.array(hands_a), np.array(hands_d)
    total = comb(sum(caps), a) * comb(sum(caps) - a, d)
    weights = count_matrix(ha, hd, caps) / float(total)
    opts = ([type_options(h, rules) for h in hands_a], [type_options(h, rules) for h in hands_d])
    placed_all: list[Placed] = [None]
    for side_opts in opts:
        for o in side_opts:
            for p in o:
                if p not in placed_all:
                    placed_all.append(p)
    pid = {p: i for i, p in enumerate(placed_all)}
    # What each side may see of the other's Trumps (FM-5), given her own choice.
    other_placed = (
        sorted({p for o in opts[1] for p in o if p is not None}, key=pid.get),
        sorted({p for o in opts[0] for p in o if p is not None}, key=pid.get),
    )
    obs_all: list[tuple] = []
    obs_id: dict[tuple, int] = {}

    def oid(o: tuple) -> int:
        if o not in obs_id:
            obs_id[o] = len(obs_all)
            obs_all.append(o)
        return obs_id[o]

    seen_by: dict[tuple[int, Placed], list[int]] = {}

    def observations(me: int, mine: Placed) -> list[int]:
        got = seen_by.get((me, mine))  # the same for every hand (numbered the first time, as then)
        if got is None:
            seen = [("none",)]
            for p in other_placed[me]:
                o = observed(p, mine)
                if o not in seen:
                    seen.append(o)
            got = seen_by[(me, mine)] = [oid(o) for o in seen]
        return got

    sides = (SequenceTree(), SequenceTree())
    seqs: list[dict[str, np.ndarray]] = []
    infos: list[list[list[tuple]]] = []
    actions: list[list[list[Any]]] = []
    for me, hands in ((0, hands_a), (1, hands_d)):
        side = sides[me]
        l0_slot_inf, l0_parent, l0_info, l0_act = [], [], [], []
        l1_slot_inf, l1_parent, l1_info, l1_act = [], [], [], []
        l2_slot_inf, l2_parent, l2_info, l2_act = [], [], [], []
        t_hand, t_da, t_dd, t_pl, t_obs, t_card = [], [], [], [], [], []
        for h in range(len(hands)):
            for da in (0, 1) if me == 1 else (None,):
                # level 0: the attacker's declaration (hand), or the defender's (hand, dA)
                inf0 = len(l0_parent)
                l0_parent.append(-1)
                l0_info.append((h, da))
                for x in (0, 1):
                    slot0 = len(l0_slot_inf)
                    l0_slot_inf.append(inf0)
                    l0_act.append(x)
                    dA, dD = (x, None) if me == 0 else (da, x)
                    for y in (0, 1) if me == 0 else (None,):
                        dA2, dD2 = (dA, y) if me == 0 else (dA, dD)
                        inf1 = len(l1_parent)
                        l1_parent.append(slot0)
                        l1_info.append((h, dA2, dD2))
                        for p, cards in opts[me][h].items():
                            slot1 = len(l1_slot_inf)
                            l1_slot_inf.append(inf1)
                            l1_act.append(p)
                            for o in observations(me, p):
                                inf2 = len(l2_parent)
                                l2_parent.append(slot1)
                                l2_info.append((h, dA2, dD2, pid[p], o))
                                for c in cards:
                                    l2_slot_inf.append(inf2)
                                    l2_act.append(c)
                                    t_hand.append(h)
                                    t_da.append(dA2)
                                    t_dd.append(dD2)
                                    t_pl.append(pid[p])
                                    t_obs.append(o)
                                    t_card.append(c)
        side.add_level(l0_slot_inf, l0_parent)
        side.add_level(l1_slot_inf, l1_parent)
        side.add_level(l2_slot_inf, l2_parent)
        seqs.append(
            {
                "hand": np.array(t_hand, dtype=np.int64),
                "da": np.array(t_da, dtype=np.int64),
                "dd": np.array(t_dd, dtype=np.int64),
                "placed": np.array(t_pl, dtype=np.int64),
                "obs": np.array(t_obs, dtype=np.int64),
                "card": np.array(t_card, dtype=np.int64),
            }
        )
        infos.append([l0_info, l1_info, l2_info])
        actions.append([l0_act, l1_act, l2_act])
    return Game(
        a,
        d,
        caps,
        rules,
        payoff,
        (hands_a, hands_d),
        weights,
        sides,
        (seqs[0], seqs[1]),
        (infos[0], infos[1]),
        (actions[0], actions[1]),
        placed_all,
        obs_all,
    )
