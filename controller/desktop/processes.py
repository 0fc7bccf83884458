"""Processes known by pid *and* start time, and the run record of what this process started.

A pid is reused once its process is gone, so a pid alone may name a stranger that started later.
Every process started here runs in a session of its own (a Ctrl-C in the terminal reaches only
the bot, which then stops them itself) and is written down in a run record (:class:`RunRecord`),
so that what a bot killed outright (SIGKILL) left behind is stopped by the next start.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import IO

import platformdirs
import psutil

ERROR_LINES = 5
"""Lines of a game's error output kept, to say why it failed to open."""
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
        return float(process.create_time())
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


_SEARCH_BINARIES = ("/usr/games",)
"""Debian installs xdemineur here, which is not on root's PATH."""


def find_binary(name: str) -> str | None:
    """The path of program ``name`` on PATH or in /usr/games, or None."""
    found = shutil.which(name)
    if found:
        return found
    for folder in _SEARCH_BINARIES:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def stop_process(process: subprocess.Popen[bytes], grace: float = 3.0) -> None:
    """Terminate one process we started (by its pid), then kill it if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(grace)
    this_run().forget_process(process.pid)


def kill_pid(pid: int, started: float | None, grace: float = 3.0) -> None:
    """Terminate a process we did not spawn directly (Wine's game process, a dead run's
    leftovers), known by its pid and start time, then kill it if it lingers."""
    for stop in (psutil.Process.terminate, psutil.Process.kill):  # SIGTERM, SIGKILL on POSIX
        if not is_running(pid, started):
            return
        with contextlib.suppress(psutil.NoSuchProcess):
            stop(psutil.Process(pid))
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and is_running(pid, started):
            time.sleep(0.05)


def start_alone(
    command: list[str],
    env: dict[str, str] | None = None,
    pass_fds: tuple[int, ...] = (),
    stderr: int = subprocess.DEVNULL,
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (a Ctrl-C in our terminal does not reach it)
    with no terminal input or output (``stderr``: subprocess.PIPE to read its errors, see
    :class:`ErrorTail`), and write it in this run's record."""
    process = subprocess.Popen(
        command,
        env=env,
        pass_fds=pass_fds,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    this_run().remember_process(process.pid)
    return process


class ErrorTail:
    """The last lines a process wrote to its error pipe, read by a thread of its own until the
    pipe closes, so that a chatty program (Wine) never blocks on a full pipe and memory stays
    bounded."""

    def __init__(self, stream: IO[bytes], lines: int = ERROR_LINES) -> None:
        self._lines: deque[str] = deque(maxlen=lines)
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        with stream:
            for line in stream:
                self._lines.append(line.decode("utf-8", "replace").rstrip())

    def text(self, wait: float = 1.0) -> str:
        """The lines kept, on one line; waits up to ``wait`` seconds for a process that has
        ended to have its last lines read."""
        self._thread.join(wait)
        return " | ".join(line for line in list(self._lines) if line)


def runs_dir() -> Path:
    """Where run records are kept: the user's data folder (e.g. ``~/.local/share/autosweeper``)."""
    return platformdirs.user_data_path("autosweeper", appauthor=False) / "runs"


class RunRecord:
    """What this process started that would outlive it: processes (pid and start time, so a
    reused pid is never taken for one of ours) and files or folders. Kept as a JSON file named
    after the process, rewritten on every change and removed once nothing is left to clean."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / f"run-{os.getpid()}.json"
        self._owner = {"host": socket.gethostname(), "pid": os.getpid()}
        self._owner_started = start_time(os.getpid())
        self._processes: dict[int, float] = {}
        self._files: set[str] = set()
        self._lock = threading.Lock()

    def remember_process(self, pid: int) -> None:
        """Record ``pid`` with its start time; one already gone is not recorded (its pid may
        soon be another process's)."""
        started = start_time(pid)
        if started is None:
            return
        with self._lock:
            self._processes[pid] = started
            self._save()

    def forget_process(self, pid: int) -> None:
        with self._lock:
            if pid in self._processes:
                del self._processes[pid]
                self._save()

    def remember_file(self, path: Path) -> None:
        with self._lock:
            self._files.add(str(path))
            self._save()

    def forget_file(self, path: Path) -> None:
        with self._lock:
            if str(path) in self._files:
                self._files.discard(str(path))
                self._save()

    def _save(self) -> None:
        if not self._processes and not self._files:
            self.path.unlink(missing_ok=True)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = {
            **self._owner,
            "started": self._owner_started,
            "processes": [[pid, started] for pid, started in self._processes.items()],
            "files": sorted(self._files),
        }
        partial = self.path.with_suffix(".partial")
        partial.write_text(json.dumps(record))
        os.replace(partial, self.path)


def clean_up_dead_runs(folder: Path) -> list[str]:
    """Stop the processes and remove the files that runs now dead recorded in ``folder``; return
    what was done, one line each. A run still alive, a record of another host and a process
    whose pid now belongs to a later process are left alone."""
    done: list[str] = []
    for path in sorted(folder.glob("run-*.json")):
        try:
            record = json.loads(path.read_text())
            owner, owner_started = int(record["pid"]), record["started"]
            processes = [(int(pid), float(started)) for pid, started in record["processes"]]
            files = [Path(name) for name in record["files"]]
            host = record["host"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being replaced right now, or not a record of ours
        if host != socket.gethostname() or is_running(owner, owner_started):
            continue
        for pid, started in processes:
            if is_running(pid, started):
                kill_pid(pid, started)
                done.append(f"stopped process {pid} left by dead run {owner}")
        for file in files:
            if file.is_dir() and not file.is_symlink():  # a game's private settings folders
                shutil.rmtree(file, ignore_errors=True)
            elif file.exists():
                file.unlink(missing_ok=True)
            else:
                continue
            done.append(f"removed {file} left by dead run {owner}")
        path.unlink(missing_ok=True)
    return done


_this_run: RunRecord | None = None
_this_run_lock = threading.Lock()


def this_run() -> RunRecord:
    """This process's run record; made on first use, after cleaning up after dead runs."""
    global _this_run
    with _this_run_lock:
        if _this_run is None:
            folder = runs_dir()
            if folder.is_dir():
                clean_up_dead_runs(folder)
            _this_run = RunRecord(folder)
        return _this_run
