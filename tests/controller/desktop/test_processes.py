"""Processes and run records (controller/desktop/processes.py): what a dead run left behind, its
processes (by pid and start time) and files, is cleaned up by the next run, and nothing else."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from conftest import REPO

from controller.desktop.processes import clean_up_dead_runs, find_binary, is_running, start_time


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """``sleep`` processes a test starts, killed by pid afterwards."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


def sleeper(started: list[subprocess.Popen[bytes]]) -> int:
    process = subprocess.Popen(["sleep", "60"])
    started.append(process)
    return process.pid


def write_record(folder: Path, owner: int, processes: list[int], files: list[Path]) -> Path:
    """A run record as a run of ``owner`` writes it, with a process's start time for each pid."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"run-{owner}.json"
    record = {
        "host": socket.gethostname(),
        "pid": owner,
        "started": start_time(owner),
        "processes": [[pid, start_time(pid)] for pid in processes],
        "files": [str(file) for file in files],
    }
    path.write_text(json.dumps(record))
    return path


def test_a_dead_runs_processes_and_files_are_cleaned_up(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    owner = subprocess.Popen(["sleep", "60"])
    leftover, left_file = sleeper(sleepers), tmp_path / "xauth"
    left_file.write_bytes(b"cookie")
    record = write_record(tmp_path / "runs", owner.pid, [leftover], [left_file])
    assert clean_up_dead_runs(tmp_path / "runs") == []  # its run is alive: hands off
    assert is_running(leftover, None) and left_file.exists()
    owner.kill()
    owner.wait()
    done = clean_up_dead_runs(tmp_path / "runs")
    assert done == [
        f"stopped process {leftover} left by dead run {owner.pid}",
        f"removed {left_file} left by dead run {owner.pid}",
    ]
    assert not is_running(leftover, None)
    assert not left_file.exists() and not record.exists()


def test_a_dead_runs_private_game_folder_is_removed_with_its_contents(tmp_path: Path) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    folder = tmp_path / "autosweeper-kmines-x"
    (folder / "config").mkdir(parents=True)
    (folder / "config" / "kminesrc").write_text("[KgDifficulty]\nLevel=Hard\n")
    write_record(tmp_path / "runs", gone.pid, [], [folder])
    assert clean_up_dead_runs(tmp_path / "runs") == [
        f"removed {folder} left by dead run {gone.pid}"
    ]
    assert not folder.exists()


def test_a_pid_now_owned_by_a_later_process_is_not_touched(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    stranger = sleeper(sleepers)
    record = write_record(tmp_path / "runs", gone.pid, [stranger], [])
    text = json.loads(record.read_text())
    started = start_time(stranger)
    assert started is not None
    text["processes"] = [[stranger, started - 3600]]  # ours started an hour ago
    record.write_text(json.dumps(text))
    assert clean_up_dead_runs(tmp_path / "runs") == []
    assert is_running(stranger, None) and not record.exists()


def test_a_record_of_another_host_or_unreadable_is_left_alone(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    elsewhere = write_record(tmp_path / "runs", gone.pid, [sleeper(sleepers)], [])
    text = json.loads(elsewhere.read_text())
    elsewhere.write_text(json.dumps({**text, "host": "another-machine"}))
    broken = tmp_path / "runs" / "run-1.json"
    broken.write_text("{not json")
    assert clean_up_dead_runs(tmp_path / "runs") == []
    assert elsewhere.exists() and broken.exists()
    assert all(process.poll() is None for process in sleepers)


KILLED_RUN = textwrap.dedent(
    """
    import json, sys, time
    from controller.desktop.display import VirtualDisplay
    from controller.desktop.games import launch_game
    display = VirtualDisplay(first_number=150)
    display.start()
    window = launch_game(sys.argv[1], "beginner" if sys.argv[1] == "winemine" else (9, 12, 10))
    helpers = [pid for pid, _ in window.helpers]
    pids = [display.pid, window.pid, window.launcher.pid, *helpers]
    print(json.dumps({"pids": pids}), flush=True)
    time.sleep(120)
    """
)


@pytest.mark.realgame
@pytest.mark.parametrize("game", ["winemine", "xdemineur", "kmines"])
def test_what_a_killed_run_started_is_stopped_by_the_next_start(game: str, tmp_path: Path) -> None:
    """SIGKILL leaves the bot's Xvfb, game (Wine's is not even its child), Xauthority file and
    (kmines) private bus and settings folder behind; the next process to start a display
    removes them."""
    if find_binary("Xvfb") is None or find_binary("wine" if game == "winemine" else game) is None:
        pytest.skip(f"Xvfb or {game} is not installed")
    environment = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    environment["XDG_DATA_HOME"] = str(tmp_path / "data")  # the run records' folder
    run = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, game],
        cwd=REPO,
        env=environment,
        stdout=subprocess.PIPE,
        text=True,
    )
    left: list[psutil.Process] = []
    try:
        assert run.stdout is not None
        started = json.loads(run.stdout.readline())
        left = [psutil.Process(pid) for pid in set(started["pids"])]
        assert len(left) == (4 if game == "kmines" else 3 if game == "winemine" else 2)
        (record,) = (tmp_path / "data" / "autosweeper" / "runs").iterdir()
        files = [Path(name) for name in json.loads(record.read_text())["files"]]
        assert len(files) == (2 if game == "kmines" else 1)  # the Xauthority file, a folder
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        assert all(process.is_running() for process in left), "nothing was left behind"
        assert all(file.exists() for file in files)
        subprocess.run(
            [sys.executable, "-c", "from controller.desktop.display import VirtualDisplay\n"
             "with VirtualDisplay(first_number=160): pass"],
            cwd=REPO, env=environment, check=True, timeout=60,
        )  # fmt: skip
        gone = [process for process in left if not is_running(process.pid, process.create_time())]
        assert gone == left
        assert not any(file.exists() for file in files) and not record.exists()
    finally:
        run.kill()
        run.wait()
        for process in left:
            with contextlib.suppress(psutil.Error):
                process.kill()
