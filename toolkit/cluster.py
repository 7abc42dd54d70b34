"""Starting a Dask client: a local cluster of worker processes on this machine's cores, or
a running scheduler reached by address. Sweeps, tuning searches and report batches all
start theirs here, so that each behaves the same way: one thread per worker (a worker
runs one task at a time), worker processes that ignore Ctrl-C (the command answers it, in
one line), a dashboard on a free port (several commands may run at once), and an address
that is not a Dask scheduler told in one line within a time-out, never a hang.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from toolkit.errors import InvalidSetupError
from toolkit.notation import excerpt

__all__ = [
    "CONNECT_TIMEOUT",
    "WORKER_CONFIG",
    "WORKER_WAIT",
    "MAX_HANDSHAKE",
    "default_workers",
    "parse_scheduler",
    "probe_scheduler",
    "connect",
    "start_local",
    "sigint_ignored_in_children",
    "dashboard_link",
    "worker_count",
    "worker_addresses",
    "close",
]

#: How long to wait for a scheduler given by address to answer (seconds).
CONNECT_TIMEOUT = 15
#: How long to wait for the first worker of a scheduler that has none (seconds).
WORKER_WAIT = 60
#: The largest handshake a scheduler's first frame may announce (bytes): the real one is
#: about 60.
MAX_HANDSHAKE = 64 * 1024
#: Seconds a closing client or cluster is waited for at most.
CLOSE_TIMEOUT = 5
#: The Dask settings the workers of a local cluster start with. Dask's statistical
#: profiler is off: every 10 ms it walks the stack of the running task and files each
#: frame in the profile's tree, which costs a deep recursive count (a Fairy Meat
#: deal-averaged point) much more than its own work would let it spare. Start the
#: workers of a cluster of your own with ``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``
#: for the same. The event loops' watchdog ticks every 500 ms, not every 20 ms: it only
#: warns of a loop blocked for seconds (``distributed.admin.tick.limit``). The workers'
#: memory is read every second, not every 100 ms (by each worker, against its limit, and by
#: its nanny, which restarts a worker above 95%), and the processes' load for the dashboard
#: every 2 s, not every 500 ms: what these monitors cost an idle cluster is measured in
#: ``bench/README.md`` (the sweeps section).
WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


def default_workers() -> int:
    """Return the cores this process may use (at least 1): the worker processes of a
    local cluster by default."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def parse_scheduler(address: str) -> tuple[str, int]:
    """Return the host and port of a scheduler address ``tcp://HOST:PORT`` (or ``HOST:PORT``).

    Raises:
        InvalidSetupError: another scheme (tls:// needs certificates this command does not
            take, ucx:// and inproc:// cannot be reached from it), no port, or a port that
            is not a whole number from 1 to 65535.

    >>> parse_scheduler("tcp://10.0.0.5:8786"), parse_scheduler("[::1]:8786")
    (('10.0.0.5', 8786), ('::1', 8786))
    """
    shown = excerpt(address)
    hint = "give it as tcp://HOST:PORT (what `dask scheduler` prints, e.g. tcp://10.0.0.5:8786)"
    text = address.strip() if isinstance(address, str) else ""
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme.lower() != "tcp":
        raise InvalidSetupError(
            f"scheduler {shown}: the {excerpt(scheme)} scheme is not supported (tls:// needs certificates, ucx:// "
            f"and inproc:// are not reachable from here): {hint}"
        )
    host, colon, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host:
        raise InvalidSetupError(f"scheduler {shown} names no host and port: {hint}")
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise InvalidSetupError(f"scheduler {shown}: the port {excerpt(port)} is not a whole number from 1 to 65535")
    return host, int(port)


def probe_scheduler(host: str, port: int, timeout: float) -> str | None:
    """Return why ``host:port`` is not a Dask scheduler — ``"cannot reach it: why"`` or
    ``"it is not a Dask scheduler: why"`` — or ``None`` if it greets like one.

    A scheduler writes its handshake as soon as a connection is accepted: a small frame
    (its length in 8 bytes, then a msgpack mapping naming its Python). Read with a raw
    socket and a deadline, and never trusting the announced length beyond
    :data:`MAX_HANDSHAKE`, a server that stays silent (a web dashboard waits for a request)
    or speaks another protocol is told in one line instead of hanging or allocating what
    its first bytes would announce."""
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except socket.gaierror:
        return f"cannot reach it: the host {excerpt(host)} is not known"
    except TimeoutError:
        return f"cannot reach it: nothing answered within {timeout:g} s"
    except OSError as exc:
        return f"cannot reach it: {(exc.strerror or str(exc)).lower()}"
    other = "it is not a Dask scheduler: it answers in another protocol (not a Dask handshake)"
    with sock:
        header = _receive(sock, 8, deadline)
        if header is None:
            return (
                "it is not a Dask scheduler: it accepted the connection but did not greet like one "
                f"within {timeout:g} s (is it the dashboard's address, or another server?)"
            )
        (length,) = struct.unpack("Q", header)
        if not 8 <= length <= MAX_HANDSHAKE:
            return other
        body = _receive(sock, length, deadline)
        if body is None or not _is_handshake(body):
            return other
    return None


def _receive(sock: socket.socket, size: int, deadline: float) -> bytes | None:
    """Exactly ``size`` bytes from ``sock`` before ``deadline``, or ``None``."""
    data = b""
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        sock.settimeout(left)
        try:
            part = sock.recv(size - len(data))
        except OSError:  # a time-out or a reset
            return None
        if not part:
            return None
        data += part
    return data


def _is_handshake(body: bytes) -> bool:
    """Whether a first frame's bytes hold Dask's handshake (a mapping naming the Python)."""
    import msgpack
    from distributed.protocol.utils import unpack_frames

    try:
        frames = unpack_frames(memoryview(body), partial=True)[0]
        info = msgpack.loads(bytes(frames[0]))
    except Exception:  # any bytes a peer sends: not a handshake
        return False
    return isinstance(info, dict) and "python" in info


def connect(scheduler: str, notice: Callable[[str], Any] | None = None) -> tuple[Any, str | None]:
    """Return (client, dashboard address) of the scheduler at ``scheduler``, once it has a
    worker; each failure in one line within :data:`CONNECT_TIMEOUT` (and
    :data:`WORKER_WAIT` for a first worker). ``notice`` is told when it waits for one.

    Raises:
        InvalidSetupError: a bad address, nothing there, not a Dask scheduler, or no
            worker within :data:`WORKER_WAIT`.
    """
    import dask
    from distributed import Client

    host, port = parse_scheduler(scheduler)
    shown_address = excerpt(scheduler)
    problem = probe_scheduler(host, port, CONNECT_TIMEOUT)
    if problem is not None:
        raise InvalidSetupError(
            f"scheduler {shown_address}: {problem}; give the address a running `dask scheduler` prints "
            "(tcp://HOST:8786)"
        )
    address = f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s"}):
            client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InvalidSetupError(f"cannot reach the Dask scheduler at {shown_address}: {_first_line(exc)}") from None
    if worker_count(client) == 0:
        if notice is not None:
            notice(f"the scheduler at {shown_address} has no workers: waiting up to {WORKER_WAIT:g} s for one")
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT)
        except Exception:  # a time-out (its type varies across versions of distributed) or a lost scheduler
            with contextlib.suppress(Exception):
                client.close(timeout=2)
            raise InvalidSetupError(
                f"the scheduler at {shown_address} has no workers (none came within {WORKER_WAIT:g} s): start some "
                f"with `dask worker {address}`"
            ) from None
    return client, client.dashboard_link


def _first_line(exc: BaseException) -> str:
    """An error's first line, shortened (its type when it has no message)."""
    text = str(exc)
    return excerpt(text.splitlines()[0]) if text else type(exc).__name__


@contextlib.contextmanager
def sigint_ignored_in_children() -> Iterator[None]:
    """Start worker processes with Ctrl-C ignored (inherited at their start): the terminal
    sends it to the whole process group, and the command, not each worker, answers it
    (one line, no worker tracebacks). Outside the main thread: nothing to protect."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # signals are not ours to set here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def start_local(workers: int, *, memory_limit: Any = "auto", quiet: bool = False) -> tuple[Any, Any]:
    """Return (client, cluster): a local cluster of ``workers`` worker processes, one
    thread each, that ignore Ctrl-C and start with :data:`WORKER_CONFIG`, its dashboard
    on a free port.

    ``memory_limit`` is Dask's (``0``: never pause or restart a worker for its memory,
    for workers whose work runs in processes of their own); ``quiet`` silences the
    cluster's log lines below critical."""
    import dask
    from distributed import Client, LocalCluster

    options: dict[str, Any] = {"memory_limit": memory_limit}
    if quiet:
        options["silence_logs"] = logging.CRITICAL
    with sigint_ignored_in_children(), dask.config.set(WORKER_CONFIG):  # the nannies pass it to their workers
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: several commands (or helpers) may run at once
            **options,
        )
    try:
        client = Client(cluster, set_as_default=False)
    except BaseException:
        close(None, cluster)
        raise
    return client, cluster


def dashboard_link(client: Any) -> str | None:
    """The address of the cluster's dashboard (``None`` when Dask's dashboard cannot run
    here: it needs bokeh)."""
    import importlib.util

    with contextlib.suppress(Exception):
        return client.dashboard_link if importlib.util.find_spec("bokeh") else None
    return None


def worker_count(client: Any) -> int:
    """The workers the scheduler has now (0 when it cannot say)."""
    return len(worker_addresses(client))


def worker_addresses(client: Any) -> list[str]:
    """The addresses of the workers the scheduler has now, sorted (none when it cannot say)."""
    with contextlib.suppress(Exception):
        return sorted(client.scheduler_info(n_workers=-1).get("workers", {}))
    with contextlib.suppress(Exception):
        return sorted(client.scheduler_info().get("workers", {}))
    return []


def close(client: Any, cluster: Any = None) -> None:
    """Close ``client`` and then ``cluster`` (either may be ``None``), each within a
    bounded time (a worker still busy is killed by its nanny); closing after a failure
    never raises: the failure is what gets reported."""
    if client is not None:
        with contextlib.suppress(Exception):
            client.close(timeout=CLOSE_TIMEOUT)
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close(timeout=CLOSE_TIMEOUT)
