"""The work Fairy Meat calculations share between rule sets, and events narrated when read.

- Deal-averaged odds cache the classes of attacks by ``Rules.before_judgement()`` (FM-10) and
  the plays by ``Rules.deals_and_plays()`` (FM-5 too): a rule set computed after another one
  that shares that work must give exactly what it gives computed cold (every cache emptied),
  and the rule sets chosen here do change the odds, so a result taken from the wrong rules
  would fail.
- ``toolkit.narration.narrated_later``: an event whose sentences are rendered when first
  read equals, hashes and pickles as the event rendered at once, and renders only once.
"""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from toolkit.engine import Sentence
from toolkit.fairy_meat import Rules, deal_averaged_odds
from toolkit.fairy_meat.odds.caches import clear_caches
from toolkit.narration import Narration, narrated, narrated_later

#: Rule sets that share work with the default: the damage rule and divisor (FM-10: the
#: judgement only) and who has said None (FM-5: the reading too).
SHARING = {
    "damage table": replace(Rules(), damage="table"),
    "points divisor 1": replace(Rules(), points_divisor=1),
    "None: none face down": replace(Rules(), none_means="no_face_down"),
}
SIZES = [(2, 1), (3, 2)]


@pytest.fixture(scope="module")
def default_cold() -> dict:
    """The default rules' odds at each size, each computed cold (every cache emptied): once
    for the file, not once per rule set."""
    out = {}
    for a, d in SIZES:
        clear_caches()
        out[(a, d)] = deal_averaged_odds(a, d, ("greedy", "greedy"), Rules(), "exact").distribution
    return out


@pytest.mark.parametrize("name", list(SHARING))
def test_a_rule_set_after_one_that_shares_its_work_gives_what_it_gives_cold(name: str, default_cold: dict) -> None:
    rules = SHARING[name]
    assert rules.before_judgement() == Rules() or rules.deals_and_plays() == Rules()
    clear_caches()
    after = {}
    for a, d in SIZES:
        default = deal_averaged_odds(a, d, ("greedy", "greedy"), Rules(), "exact")  # fills the shared caches
        # the default after the other rule set's smaller size: what it gives cold too
        assert dict(default.distribution.items()) == dict(default_cold[(a, d)].items()), (name, a, d)
        after[(a, d)] = deal_averaged_odds(a, d, ("greedy", "greedy"), rules, "exact").distribution
    changed = False
    for a, d in SIZES:
        clear_caches()
        cold = deal_averaged_odds(a, d, ("greedy", "greedy"), rules, "exact").distribution
        assert dict(after[(a, d)].items()) == dict(cold.items()), (name, a, d)
        changed = changed or dict(default_cold[(a, d)].items()) != dict(cold.items())
    assert changed, f"{name} gives the default's odds at every size: the test could not tell them apart"


def _narrator(calls: list[str]):
    def narrate(kind, data, cast):
        calls.append(kind)
        return Narration(Sentence.of(f"{cast[data['who']]} {kind}s {data['n']} cards."), Sentence.of("Someone moves."))

    return narrate


def test_an_event_narrated_when_read_is_the_event_narrated_at_once() -> None:
    calls: list[str] = []
    data, cast = {"who": "a", "n": 2}, {"a": "Dizzytwig"}
    later = narrated_later("draw", data, cast, _narrator(calls), ruling="FM-2", audience=("attacker",))
    assert calls == []  # nothing rendered yet
    now = narrated("draw", data, cast, _narrator([]), ruling="FM-2", audience=("attacker",))
    assert later.kind == "draw" and later.data == now.data and calls == []
    assert later.text == "Dizzytwig draws 2 cards." == now.text
    assert later.public_text == "Someone moves." == now.public_text
    assert calls == ["draw"]  # rendered once, on the first read
    assert later == now and hash(later) == hash(now)
    assert later.public_text == now.public_text and calls == ["draw"]
    again = pickle.loads(pickle.dumps(narrated_later("draw", data, cast, _narrator([]), ruling="FM-2")))
    assert again.text == "Dizzytwig draws 2 cards." and again.ruling == "FM-2"
    other = narrated_later("draw", {"who": "a", "n": 3}, cast, _narrator([]), ruling="FM-2", audience=("attacker",))
    assert other != now


def test_judgements_are_kept_for_the_latest_rule_sets_only():
    # A designer trying rule after rule keeps the judgements of the JUDGED_KEPT rule sets used
    # last, not of every one; a rule set forgotten is judged again, to the same odds.
    from toolkit.fairy_meat.odds.classes import JUDGED, JUDGED_KEPT, judged

    clear_caches()
    first = Rules(attacker_bonus=2)
    cold = deal_averaged_odds(1, 1, ("greedy", "greedy"), first, method="exact").distribution
    assert first in JUDGED and judged(first)  # its judgements are kept
    others = [Rules(trump_value=v, attacker_bonus=b) for v in range(1, 11) for b in (0, 1)]
    judged(others[0])
    judged(first)  # used again: now the latest, so it outlives others[0]
    for rules in others[1:JUDGED_KEPT]:
        judged(rules)
    assert len(JUDGED) == JUDGED_KEPT and first in JUDGED and others[0] not in JUDGED
    for rules in others[JUDGED_KEPT:]:
        judged(rules)
    assert len(JUDGED) == JUDGED_KEPT and first not in JUDGED
    again = deal_averaged_odds(1, 1, ("greedy", "greedy"), first, method="exact").distribution
    assert again == cold and judged(first)  # judged again from nothing, the same odds


def test_views_past_their_bound_are_forgotten_with_their_ids(monkeypatch: pytest.MonkeyPatch):
    # A weighing that starts with more than VIEWS_KEPT cached views forgets them and the class
    # and view ids they name, together: a rule set that would have read them (the other Nasty
    # Hit rule, FM-12: other plays, the same views) then gives its cold odds.
    from toolkit.fairy_meat.odds import weighing

    loser = Rules(nasty_hit="loser")
    clear_caches()
    cold = deal_averaged_odds(3, 2, ("greedy", "greedy"), loser, method="exact").distribution
    clear_caches()
    deal_averaged_odds(3, 2, ("greedy", "greedy"), Rules(), method="exact")
    assert weighing.VIEWS_CACHE and weighing.CLASS_KEYS
    forgotten = []
    monkeypatch.setattr(weighing, "VIEWS_KEPT", 0)
    monkeypatch.setattr(weighing, "clear_views", lambda real=weighing.clear_views: forgotten.append(1) or real())
    again = deal_averaged_odds(3, 2, ("greedy", "greedy"), loser, method="exact").distribution
    assert forgotten and again == cold
    monkeypatch.setattr(weighing, "VIEWS_KEPT", 10**9)
    forgotten.clear()
    deal_averaged_odds(3, 3, ("greedy", "greedy"), loser, method="exact")
    assert not forgotten  # within the bound: kept
