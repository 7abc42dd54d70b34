"""Waiting on a process by what can be seen of it, never by the clock alone: a wait goes on
while the process (or a process it started) is using the processor, and gives up only once
it has ended or has used none for :data:`STALL` seconds. A loaded machine slows a process
down; it does not stop it, so this never fails a slow run and still ends a stuck one. A
process that works without end (a kernel's loop) is given up on after :data:`CEILING`."""

from __future__ import annotations

import time
from collections.abc import Callable

import psutil

#: Seconds without any processor time used after which a wait gives up.
STALL = 60.0
#: Seconds after which a wait gives up however busy the process is.
CEILING = 600.0
#: Seconds an ended process's last output and exit status are waited for.
GRACE = 10.0


def cpu_seconds(pid: int) -> float:
    """The processor seconds used so far by process ``pid`` and every process it started."""
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def wait_while_working(
    done: Callable[[], bool], pid: int, stall: float = STALL, ceiling: float = CEILING, poll: float = 0.1
) -> bool:
    """Wait until ``done()`` is true and return True; return False once process ``pid`` has
    ended, or it and its children have used no processor time for ``stall`` seconds, or
    ``ceiling`` seconds have passed."""
    used, since = cpu_seconds(pid), time.monotonic()
    end = since + ceiling
    while not done():
        if time.monotonic() > end:
            return done()
        try:
            ended = psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.Error:
            ended = True
        if ended:  # what it did may still be on its way (a pipe's last lines, its exit status)
            return _within(done, GRACE, poll)
        now_used = cpu_seconds(pid)
        if now_used > used:
            used, since = now_used, time.monotonic()
        elif time.monotonic() - since > stall:
            return done()
        time.sleep(poll)
    return True


def _within(done: Callable[[], bool], seconds: float, poll: float) -> bool:
    """Whether ``done()`` becomes true within ``seconds``."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(poll)
    return True
