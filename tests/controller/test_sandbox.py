"""The virtual display, the real-game launcher and the guarded mouse, against real programs."""

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mss
import numpy as np
import psutil
import pytest
from conftest import REPO

from controller.desktop import games
from controller.desktop.display import VirtualDisplay
from controller.desktop.games import GameWindow, launch_game
from controller.desktop.processes import clean_up_dead_runs, find_binary, is_running, start_time
from controller.desktop.wine import winemine_registry
from controller.errors import ClickOutsideError, SandboxError
from controller.mouse import Mouse
from vision.geometry import Rect
from vision.skin import NewGame


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return not state.stdout.strip().startswith("Z")


def _grab(window: GameWindow) -> np.ndarray:
    x, y, width, height = window.geometry
    with mss.MSS() as screen:
        return np.asarray(screen.grab({"left": x, "top": y, "width": width, "height": height}))


def test_winemine_registry_asks_for_the_exact_size_and_no_name_box() -> None:
    text = winemine_registry(16, 30, 99)
    assert '"Height"=dword:00000010' in text
    assert '"Width"=dword:0000001e' in text
    assert '"Mines"=dword:00000063' in text
    assert '"Difficulty"=dword:00000003' in text
    assert '"Time1"=dword:00000000' in text


@pytest.mark.parametrize("size", [(7, 9, 10), (9, 31, 10), (9, 9, 9), (9, 9, 65)])
def test_winemine_refuses_sizes_it_would_silently_change(size: tuple[int, int, int]) -> None:
    with pytest.raises(SandboxError, match="winemine cannot play"):
        winemine_registry(*size)


def test_unknown_game_and_level_are_named() -> None:
    with pytest.raises(SandboxError, match="unknown game 'nethack'"):
        launch_game("nethack")
    with pytest.raises(SandboxError, match="unknown level 'hard'"):
        launch_game("xdemineur", "hard")


@pytest.mark.realgame
def test_virtual_display_sets_and_restores_the_environment(virtual_display: VirtualDisplay) -> None:
    outer = os.environ["DISPLAY"]
    with VirtualDisplay(first_number=virtual_display.first_number + 5) as inner:
        assert os.environ["DISPLAY"] == inner.name != outer
        pid = inner.pid
        assert pid is not None
        answer = subprocess.run(["xdpyinfo"], capture_output=True, text=True)
        assert answer.returncode == 0 and "1280x1024" in answer.stdout
    assert os.environ["DISPLAY"] == outer
    assert not _alive(pid)


@pytest.mark.realgame
def test_only_holders_of_the_cookie_may_connect(virtual_display: VirtualDisplay) -> None:
    with_cookie = subprocess.run(["xdpyinfo"], capture_output=True)
    without = {key: value for key, value in os.environ.items() if key != "XAUTHORITY"}
    stranger = subprocess.run(["xdpyinfo"], capture_output=True, env=without)
    assert with_cookie.returncode == 0
    assert stranger.returncode != 0


@pytest.mark.realgame
def test_xdemineur_opens_moves_and_closes(xdemineur: GameWindow) -> None:
    x, y, width, height = xdemineur.geometry
    assert width > 12 * 20 and height > 9 * 20
    moved = xdemineur.move(x + 150, y + 90)
    assert (moved.x, moved.y) == (x + 150, y + 90)
    assert _grab(xdemineur)[:, :, :3].std() > 10, "the moved window shows no picture"
    xdemineur.close()
    assert not _alive(xdemineur.pid)


@pytest.mark.realgame
def test_xdemineur_refuses_fewer_than_twelve_columns(virtual_display: VirtualDisplay) -> None:
    if find_binary("xdemineur") is None:
        pytest.skip("xdemineur is not installed")
    with pytest.raises(SandboxError, match="at least 12 columns"):
        launch_game("xdemineur", (9, 9, 10))


@pytest.mark.realgame
def test_winemine_opens_at_the_asked_size_and_closes(launch) -> None:
    small = launch("winemine", (9, 9, 10))
    wide = launch("winemine", (9, 20, 10))
    assert small.window_id != wide.window_id
    # a launch returns once the game has painted its window, not merely mapped it
    assert _grab(small)[:, :, :3].std() > 10 and _grab(wide)[:, :, :3].std() > 10
    # 16 px cells: 11 more columns make the window 176 px wider, whatever the frame.
    assert wide.geometry.width - small.geometry.width == 11 * 16
    wide.close()
    assert not _alive(wide.pid) and _alive(small.pid)


@pytest.mark.realgame
def test_winemines_launched_at_once_each_open_at_their_own_size(launch) -> None:
    """Every winemine reads its size from the one shared registry: launches must not mix."""
    sizes = [(9, 9, 10), (9, 20, 10), (12, 14, 20)]
    with ThreadPoolExecutor(len(sizes)) as pool:
        windows = list(pool.map(lambda size: launch("winemine", size), sizes))
    frames = {
        (window.geometry.width - 16 * columns, window.geometry.height - 16 * rows)
        for window, (rows, columns, _) in zip(windows, sizes, strict=True)
    }
    assert len(frames) == 1, f"windows of other sizes than asked: frames {frames}"


@pytest.mark.realgame
def test_mouse_clicks_only_inside_allowed_areas(xdemineur: GameWindow, mouse: Mouse) -> None:
    x, y, width, height = xdemineur.geometry
    mouse.allow(Rect(x + 10, y + 10, 20, 20))
    mouse.click(x + 15, y + 15, "right")
    assert mouse.position() == (x + 15, y + 15)
    with pytest.raises(ClickOutsideError, match=r"\(500, 500\)"):
        mouse.click(500, 500)
    assert mouse.position() == (x + 15, y + 15)
    mouse.allow(Rect(0, 0, 5, 5))
    with pytest.raises(ClickOutsideError, match="corner"):
        mouse.click(0, 0)


def test_rect_intersection_is_the_shared_part_or_empty() -> None:
    screen = Rect(0, 0, 1280, 1024)
    assert Rect(1200, 1000, 200, 100).intersection(screen) == Rect(1200, 1000, 80, 24)
    assert Rect(10, 20, 30, 40).intersection(screen) == Rect(10, 20, 30, 40)
    empty = Rect(2000, 5, 10, 10).intersection(screen)
    assert empty.width == 0


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


def test_a_window_that_vanishes_during_the_search_is_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """xdotool fails with BadWindow when a window is destroyed while it walks the tree (a CI
    run's click-safety trials launched a game as the last one's killed window went away)."""
    answers = [
        subprocess.CompletedProcess([], 1, "", "X Error of failed request:  BadWindow"),
        subprocess.CompletedProcess([], 0, "41943046\n", ""),
    ]
    calls: list[list[str]] = []

    def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return answers.pop(0)

    monkeypatch.setattr(subprocess, "run", run)
    assert games.visible_windows("xdemineur") == {41943046}
    assert len(calls) == 2


@pytest.mark.parametrize(
    ("message", "searches"),
    [("X Error of failed request:  BadWindow", games.SEARCH_ATTEMPTS), ("Can't open display", 1)],
)
def test_a_search_that_keeps_failing_or_fails_otherwise_is_an_error(
    message: str, searches: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []

    def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 1, "", message)

    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(SandboxError, match=message):
        games.visible_windows("xdemineur")
    assert len(calls) == searches


def test_a_game_with_no_calibration_boards_is_named_not_a_traceback() -> None:
    from controller.learning import calibrate_game

    with pytest.raises(SandboxError, match="no calibration boards for sgt-mines yet"):
        calibrate_game("sgt-mines")


def test_a_game_with_no_calibration_boards_is_learned_from_one_window_of_the_size_to_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no display the bot learns a game it has no boards for as a user's window is: one
    window of the board it is about to play, for the usual budget (livebench and ``play
    --game`` could start only winemine and xdemineur before)."""
    from calibration.learn import BUDGET
    from controller import learning

    opened: list[tuple[int, int, int]] = []
    closed: list[int] = []

    width = 300

    class Window:
        def __init__(self) -> None:
            self.geometry = games.Geometry(0, 0, width, 200)

        def move(self, left: int, top: int) -> None:
            self.geometry = games.Geometry(left, top, width, 200)

        def close(self) -> None:
            closed.append(1)

    class Screen:
        screen = Rect(0, 0, 1280, 1024)

        def __enter__(self) -> Screen:
            return self

        def __exit__(self, *_: object) -> None:
            return None

    def launch(game: str, size: tuple[int, int, int]) -> Window:
        opened.append(size)
        return Window()

    calibrated: dict[str, object] = {}

    def calibrate_windows(name, rects, mines, max_games, seed, budget, new_game):
        calibrated.update(name=name, rects=rects, mines=mines, budget=budget, new_game=new_game)
        return "learned"

    monkeypatch.setattr(learning, "ScreenGrabber", Screen)
    monkeypatch.setattr(learning, "launch_game", launch)
    monkeypatch.setattr(learning, "calibrate_windows", calibrate_windows)
    monkeypatch.setattr(learning, "REDRAW_WAIT", 0.0)
    assert learning.calibrate_game("sgt-mines", size=(16, 30, 99)) == "learned"
    assert opened == [(16, 30, 99)] and closed == [1]
    assert calibrated == {
        "name": "sgt-mines",
        "rects": [Rect(learning.WINDOW_GAP, 2 * learning.WINDOW_GAP, 300, 200)],
        "mines": [99],
        "budget": BUDGET,
        "new_game": None,
    }
    # A game whose new-game key calibration would not find is told it, as its user would.
    assert learning.calibrate_game("xbomb", size=(8, 8, 10)) == "learned"
    assert calibrated["new_game"] == NewGame("key", "s")
    # A window too wide to stand at the usual margin is moved left until it fits (xbomb's
    # Expert window, 1275 px wide, stopped `play --game xbomb --level expert` before).
    width = 1275
    assert learning.calibrate_game("xbomb", size=(16, 30, 99)) == "learned"
    assert calibrated["rects"] == [Rect(5, 2 * learning.WINDOW_GAP, 1275, 200)]
