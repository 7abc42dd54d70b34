"""``--workers`` and ``--scheduler`` (issue 20): a local cluster no bigger than the machine
and the sweep can use; an address that is not a Dask scheduler with workers answers in
one line within the connect time-out (made 1 s here), never a hang or a traceback.

Every server here listens on 127.0.0.1 only and is closed by its test.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolkit import cluster as dask_cluster
from toolkit.cli import main
from toolkit.errors import InvalidSetupError
from toolkit.sweeps import runner
from toolkit.sweeps.runner import local_workers, parse_scheduler

distributed = pytest.importorskip("distributed")

HANDS = "system: fairy-meat\ncalculator: hand_composition\ngrid:\n  cards: {from: 0, to: 5}\nchunk: 2\n"
#: The most seconds a refused --scheduler may take here: the 1 s time-out and start-up.
DEADLINE = 8.0


# -- --workers ---------------------------------------------------------------------------------
def test_workers_are_capped_to_the_cores_and_the_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "default_workers", lambda: 2)
    assert local_workers(1000, 50) == (
        2,
        "workers: 1,000 asked for, 2 started (this machine has 2 cores for this sweep)",
    )
    assert local_workers(2, 50) == (2, None)
    assert local_workers(None, 50) == (2, None)  # the default: the cores, nothing to say
    assert local_workers(None, 1) == (1, None)
    monkeypatch.setattr(runner, "default_workers", lambda: 8)
    assert local_workers(4, 3) == (3, "workers: 4 asked for, 3 started (the sweep has 3 chunks to run)")
    assert local_workers(9, 1) == (
        1,
        "workers: 9 asked for, 1 started (the sweep has 1 chunk to run)",
    )
    with pytest.raises(InvalidSetupError, match="workers must be a whole number of 1 or more, got 0"):
        local_workers(0, 5)


def test_cli_workers_1000_starts_what_the_sweep_can_use(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """6 points in chunks of 2: 3 chunks, so at most 3 workers whatever the cores."""
    path = tmp_path / "hands.yaml"
    path.write_text(HANDS)
    used = min(3, runner.default_workers())
    assert main(["sweep", str(path), "-o", str(tmp_path / "out"), "--workers", "1000"]) == 0
    err = capsys.readouterr().err
    assert f"workers: 1,000 asked for, {used} started (" in err
    assert f"sweep: 6 points, 0 already done; {used} worker{'s' if used != 1 else ''}\n" in err


# -- --scheduler -------------------------------------------------------------------------------
@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 1)
    monkeypatch.setattr(dask_cluster, "WORKER_WAIT", 1)


def serve(reply: bytes | None) -> Iterator[int]:
    """A server on 127.0.0.1 that accepts, writes ``reply`` (``None``: nothing) and then
    holds the connection open without reading; yields its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if reply is not None:
                conn.sendall(reply)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        listener.close()


@pytest.fixture
def silent_server() -> Iterator[int]:
    yield from serve(None)


@pytest.fixture
def garbage_server() -> Iterator[int]:
    # read as Dask's frame length, these bytes would announce 2**64 - 1 bytes (16 EiB)
    yield from serve(b"\xff" * 16)


@pytest.fixture
def http_server() -> Iterator[int]:
    """A web server (what the dashboard address is): it waits for a request."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def sweep_on(tmp_path: Path, capsys: pytest.CaptureFixture, address: str) -> tuple[int, float, str]:
    """Run `toolkit sweep --scheduler ADDRESS`: its exit code, its time and what it printed on stderr."""
    path = tmp_path / "hands.yaml"
    path.write_text(HANDS)
    started = time.monotonic()
    code = main(["sweep", str(path), "-o", str(tmp_path / "out"), "--scheduler", address])
    return code, time.monotonic() - started, capsys.readouterr().err


def refused(tmp_path: Path, capsys: pytest.CaptureFixture, address: str) -> str:
    """The one line `toolkit sweep --scheduler ADDRESS` exits 2 with, within the deadline."""
    code, elapsed, err = sweep_on(tmp_path, capsys, address)
    assert code == 2, err
    assert elapsed < DEADLINE, elapsed
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0]


def test_a_server_that_never_answers(quick: None, silent_server: int, tmp_path: Path, capsys) -> None:
    line = refused(tmp_path, capsys, f"tcp://127.0.0.1:{silent_server}")
    assert line.startswith(
        f"error: scheduler 'tcp://127.0.0.1:{silent_server}': it is not a Dask scheduler: it accepted the connection "
    )
    assert "within 1 s (is it the dashboard's address, or another server?)" in line


def test_a_web_server_such_as_the_dashboard(quick: None, http_server: int, tmp_path: Path, capsys) -> None:
    line = refused(tmp_path, capsys, f"tcp://127.0.0.1:{http_server}")
    assert "is not a Dask scheduler: it accepted the connection but did not greet like one within 1 s" in line


def test_a_server_speaking_another_protocol_allocates_nothing(
    quick: None, garbage_server: int, tmp_path: Path, capsys
) -> None:
    line = refused(tmp_path, capsys, f"tcp://127.0.0.1:{garbage_server}")
    assert "is not a Dask scheduler: it answers in another protocol (not a Dask handshake)" in line


def test_a_scheduler_without_workers_says_so_and_stops(quick: None, tmp_path: Path, capsys) -> None:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        code, elapsed, err = sweep_on(tmp_path, capsys, address)
    assert code == 2 and elapsed < DEADLINE, (elapsed, err)
    assert f"the scheduler at '{address}' has no workers: waiting up to 1 s for one" in err
    assert f"error: the scheduler at '{address}' has no workers (none came within 1 s): start some with" in err
    assert "1 worker" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("tls://127.0.0.1:8786", "the 'tls' scheme is not supported (tls:// needs certificates"),
        ("ucx://127.0.0.1:8786", "the 'ucx' scheme is not supported"),
        ("inproc://127.0.0.1/1/1", "the 'inproc' scheme is not supported"),
        ("tcp://127.0.0.1:99999", "the port '99999' is not a whole number from 1 to 65535"),
        ("tcp://127.0.0.1:0", "the port '0' is not a whole number from 1 to 65535"),
        ("tcp://127.0.0.1:eighty", "the port 'eighty' is not a whole number from 1 to 65535"),
        ("tcp://127.0.0.1:8786/status", "the port '8786/status' is not a whole number"),
        ("tcp://127.0.0.1", "names no host and port"),
    ],
)
def test_unsupported_schemes_and_bad_ports(address: str, expected: str) -> None:
    with pytest.raises(InvalidSetupError) as info:
        parse_scheduler(address)
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_a_bad_port_on_the_command_line_is_one_line(quick: None, tmp_path: Path, capsys) -> None:
    line = refused(tmp_path, capsys, "tcp://127.0.0.1:70000")
    assert line == "error: scheduler 'tcp://127.0.0.1:70000': the port '70000' is not a whole number from 1 to 65535"
