"""One bot per desktop and per outcome log: a second run is refused naming the first; a lock
dies with its process; two runs creating one new log at once never break it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import controller.outcomes as outcomes
from controller.cli import main
from controller.errors import InUseError
from controller.locks import desktop_alone
from controller.outcomes import OutcomeLog

HOLD = """
import sys, time
from pathlib import Path
from controller.locks import desktop_alone, log_alone
with {lock}:
    print("held", flush=True)
    time.sleep(60)
"""


@pytest.fixture(autouse=True)
def own_locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "locks"
    monkeypatch.setenv("AUTOSWEEPER_LOCKS", str(folder))
    return folder


@contextlib.contextmanager
def held_elsewhere(lock: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``lock`` (Python source of a context manager) until the end."""
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(lock=lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        yield other
    finally:
        other.kill()
        other.wait()


def test_a_second_writer_of_a_log_is_refused_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with held_elsewhere(f"log_alone(Path({str(path)!r}))") as other:
        with pytest.raises(InUseError, match=rf"log {path} is in use .*\(pid {other.pid}, "):
            OutcomeLog(path)
        with OutcomeLog(path, read_only=True) as log:  # stats reads it meanwhile
            assert log.games() == []
    with OutcomeLog(path) as log:  # a lock dies with its process, killed included
        assert log.games() == []


def test_the_play_command_is_refused_on_a_log_in_use_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite3"
    with held_elsewhere(f"log_alone(Path({str(path)!r}))"):
        assert main(["play", "--db", str(path), "--games", "1"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is in use by another autosweeper run" in error


def test_one_bot_per_desktop_and_screens_of_a_display_are_that_display() -> None:
    with held_elsewhere("desktop_alone(':7', 'linux')") as other:
        refused = pytest.raises(InUseError, match=rf"X display :7 is in use .*pid {other.pid}")
        with refused, desktop_alone(":7.0", "linux"):
            pass
        with desktop_alone(":8", "linux"), desktop_alone(":7", "win32"):
            pass  # another display, and a desktop of another kind, are free


def test_two_runs_creating_one_new_log_at_once_both_find_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both once read version 0 and made the tables: the second failed ("table games already
    exists"). Without the run lock (two users, say), creation must still be atomic."""
    monkeypatch.setattr(outcomes, "log_alone", lambda path: contextlib.nullcontext())
    failures: list[BaseException] = []
    for attempt in range(10):
        path = tmp_path / f"new-{attempt}.sqlite3"
        start = threading.Barrier(4)

        def create(log_path: Path = path, barrier: threading.Barrier = start) -> None:
            barrier.wait()
            try:
                OutcomeLog(log_path).close()
            except BaseException as error:
                failures.append(error)

        threads = [threading.Thread(target=create) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        with OutcomeLog(path, read_only=True) as log:
            assert log.games() == []
