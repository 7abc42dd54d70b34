"""What the test modules share: this folder on the path (brute_force, random_play), and a
small Dask cluster for the sweep tests."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


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
