"""What the test modules share: this folder on the path (brute_force, random_play), a
small Dask cluster for the sweep tests, and the order the files run in (longest first)."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolkit.reports.notebook_libraries import notebook_library

sys.path.insert(0, str(Path(__file__).parent))
# the test modules import nbformat themselves: first without jsonschema's IRI parsers, as the
# report runs do (toolkit/reports/notebook_libraries.py: 2-3 s of CPU per process)
notebook_library("nbformat")

#: Not collected for doctests: importing the coin duel registers it (as a plug-in module
#: must), which would show a fourth system to every test collected after it; the tests
#: that use it register it for their own module only.
collect_ignore = ["coin_duel"]

#: The test files that take longest (about 20 s or more; from ``--durations=120`` of the main
#: part on 2 workers, 3 December 2026, less what was cut after it), longest first. They run
#: first: the main part runs a file to a pytest-xdist worker (``--dist loadfile`` in
#: scripts/test.py, which keeps this order), so a long file handed out last would keep one
#: worker busy while the other idles.
#: A file not listed runs after them, in the usual order.
LONGEST_FIRST = (
    "test_fairy_meat_hidden.py",
    "test_notebooks.py",
    "test_fairy_meat_optimal.py",
    "test_tune_examples.py",
    "test_hostile_renders.py",
    "test_fm_odds_every_rule.py",
    "test_parallel_reports.py",
    "test_fm_house_rules.py",
    "test_fm_shared_caches.py",
    "test_events_reworded.py",
    "test_fm_hidden_shared_build.py",
    "test_reports_honest.py",
    "test_fm_hidden_build_sharing.py",
    "test_angry_miniatures_odds.py",
    "test_durak_battle_odds.py",
    "test_fm_hidden_shared_judge.py",
    "test_durak_comparison_classes.py",
    "test_sweeps_run.py",
    "test_wheel_install.py",
    "test_tune_run.py",
    "test_layout.py",
    "test_fm_odds_brute_force.py",
    "test_fm_hidden_budget.py",
    "test_report_speed_equal.py",
    "test_reports.py",
    "test_fairy_meat_widgets.py",
    "test_fairy_meat_odds.py",
    "test_durak_house_rules.py",
    "test_explorer_says_why.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files of :data:`LONGEST_FIRST` first, in its order (a stable sort: the other
    files and the tests inside each file keep their order)."""
    here = Path(__file__).parent
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)) if item.path.parent == here else len(rank))


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    """A small Dask cluster of two threads in this process (no worker processes to start),
    for the sweep tests."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as c,
    ):
        yield c
