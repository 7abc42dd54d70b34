"""The cycle collector is paused while an exact count builds its tables, and put back as it was."""

from __future__ import annotations

import gc
import threading

import pytest

import toolkit.fairy_meat.odds.deals as deals
from toolkit.fairy_meat import Rules
from toolkit.fairy_meat.odds import clear_caches, deal_averaged_odds
from toolkit.garbage_collection import paused_collection


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_on_again_after_also_when_the_count_raises(collector_on):
    with paused_collection():
        assert not gc.isenabled()
        with paused_collection():  # nested
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), paused_collection():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_an_application_that_keeps_the_collector_off_keeps_it_off(collector_on):
    gc.disable()
    with paused_collection():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_on_again_only_when_the_last_count_running_in_any_thread_ends(collector_on):
    first_in, second_done, release_first = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with paused_collection():
            first_in.set()
            release_first.wait(10)
        seen["after first"] = gc.isenabled()

    def second():
        first_in.wait(10)
        with paused_collection():
            pass
        seen["after second, first still counting"] = gc.isenabled()
        second_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert second_done.wait(10)
    release_first.set()
    for t in threads:
        t.join(10)
    assert seen == {"after second, first still counting": False, "after first": True}
    assert gc.isenabled()


def test_the_fairy_meat_exact_count_runs_with_the_collector_paused(collector_on, monkeypatch):
    seen = []
    original = deals.exact_weights

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(deals, "exact_weights", watched)
    clear_caches()
    deal_averaged_odds(1, 1, method="exact")  # its values: the brute-force tests over every deal
    assert seen == [False] and gc.isenabled()


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers=1, nasty_hit="loser", damage="table")], ids=["draft", "house"])
def test_the_exact_count_leaves_next_to_no_cyclic_garbage(collector_on, rules):
    # what the pause relies on: the count's tables are freed by reference counting, so the
    # collector finds next to nothing once it runs again (about a hundred objects: 3 v 2)
    clear_caches()
    gc.collect()
    gc.disable()
    deal_averaged_odds(3, 2, rules=rules, method="exact")
    assert gc.collect() < 2_000
