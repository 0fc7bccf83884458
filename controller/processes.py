"""Processes known by pid *and* start time: a pid is reused once its process is gone, so a pid
alone may name a stranger that started later."""

from __future__ import annotations

import psutil

START_TIME_TOLERANCE = 1.0
"""Seconds two readings of one process's start time may differ by (the kernel's boot time, from
which it is counted, moves with clock adjustments)."""


def start_time(pid: int) -> float | None:
    """When process ``pid`` started, in seconds since the epoch; None if there is no such
    process (or it is a zombie: finished, waiting for its parent)."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process.create_time()
    except psutil.Error:
        return None


def is_running(pid: int, started: float | None) -> bool:
    """Whether the process that started at ``started`` still runs as ``pid``; with ``started``
    None (a record older than start times), whether any process runs as ``pid``. A process we
    may not inspect (another user's, on some systems) counts as running."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        return started is None or abs(process.create_time() - started) < START_TIME_TOLERANCE
    except psutil.AccessDenied:
        return True
    except psutil.NoSuchProcess:
        return False
