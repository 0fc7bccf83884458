"""One bot per desktop and one per outcome log: a second run is refused with a line naming the
first, instead of two bots fighting over one pointer and logging every game twice.

A lock is an operating-system file lock (filelock: ``flock`` on POSIX, ``msvcrt.locking`` on
Windows), so it is let go when its process ends in any way, killed included: a lock never
outlives its run. Beside each lock a small text file names the run holding it, for the refusal.
Locks live in the user's cache folder (``~/.cache/autosweeper/locks``); a virtual display this
run started needs none, as no other program can connect to it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import platformdirs
from filelock import FileLock, Timeout

from controller.errors import InUseError


def locks_dir() -> Path:
    """Where the locks are (``AUTOSWEEPER_LOCKS`` overrides it, for tests and sandboxes)."""
    override = os.environ.get("AUTOSWEEPER_LOCKS")
    if override:
        return Path(override)
    return platformdirs.user_cache_path("autosweeper", appauthor=False) / "locks"


@contextlib.contextmanager
def desktop_alone(display: str | None, platform: str = sys.platform) -> Iterator[None]:
    """Hold the desktop this run clicks on: the X ``display`` (its name as DISPLAY gives it),
    or the user's desktop where there is no X."""
    if platform.startswith("linux"):
        name = re.sub(r"\.\d+$", "", display or "")  # ":0.0" is the screen 0 of ":0"
        what, key = f"the X display {name}", f"desktop-x{re.sub(r'[^A-Za-z0-9]+', '-', name)}"
    else:
        what, key = "the desktop", "desktop"
    with _held_alone(key, what):
        yield


@contextlib.contextmanager
def log_alone(path: Path) -> Iterator[None]:
    """Hold the outcome log at ``path`` for writing (reading it, as ``stats`` does, needs no
    lock)."""
    place = str(path.resolve())
    with _held_alone(f"log-{hashlib.sha256(place.encode()).hexdigest()[:16]}", f"log {path}"):
        yield


@contextlib.contextmanager
def _held_alone(key: str, what: str) -> Iterator[None]:
    folder = locks_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InUseError(f"cannot make the locks folder {folder}: {error.strerror}") from error
    lock = FileLock(folder / f"{key}.lock", timeout=0)
    owner = folder / f"{key}.owner"
    try:
        lock.acquire()
    except Timeout:
        raise InUseError(f"{what} is in use by another autosweeper run ({_read(owner)})") from None
    try:
        owner.write_text(f"pid {os.getpid()}, '{_command()}', since {time.strftime('%H:%M:%S')}")
        yield
    finally:
        with contextlib.suppress(OSError):
            owner.unlink()
        lock.release()


def _command() -> str:
    words = [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else ["?"]
    return " ".join(words)


def _read(owner: Path) -> str:
    try:
        return owner.read_text(errors="replace").strip()[:200] or "which did not say which"
    except OSError:
        return "which did not say which"
