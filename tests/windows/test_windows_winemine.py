"""A Windows user's first session: Wine's winemine as a fresh install has it, then the installed
``autosweeper.exe calibrate`` and ``autosweeper.exe play --games 20`` from Windows CPython.

winemine runs in the same Wine prefix as that Python, so the Windows side sees its window as a
Windows window (found by pywinctl, captured by mss, clicked by pyautogui), on the session's
virtual display. A fresh install's best times are 999 s: the first fast win asks for a name and
then shows the best times, as a user meets it. Every game must end won or lost in the outcome
log: none misread, none left 'in progress'.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from game_screens import WindowsSeen

from controller.desktop.display import VirtualDisplay

from .conftest import WindowsPython, stop_session

pytestmark = [pytest.mark.wine, pytest.mark.realgame]

GAMES = 20
WINEMINE_KEY = r"HKCU\Software\Microsoft\WinMine"
FRESH_INSTALL = {"Difficulty": 0, "Time1": 999, "Time2": 999, "Time3": 999}
"""winemine's settings on a fresh install: Beginner, and no best time yet."""
WINDOW_TIMEOUT = 60.0
CALIBRATE_TIMEOUT = 900.0
PLAY_TIMEOUT = GAMES * 60.0
STOP_AFTER = 8.0
"""Seconds of a long run before the stop key is held down: its start, then a game or two."""
STOP_TIMEOUT = 30.0

# Where the installed product keeps its outcome log, and the Windows user's application data
# folders (platformdirs puts every autosweeper folder under one of them, in "autosweeper").
WHERE = """
import json, os
from controller.outcomes import default_db_path
print(json.dumps({
    "outcomes": str(default_db_path()),
    "local": os.path.join(os.environ["LOCALAPPDATA"], "autosweeper"),
    "roaming": os.path.join(os.environ["APPDATA"], "autosweeper"),
}))
"""


def windows_folders(python: WindowsPython) -> dict[str, Path]:
    """The product's outcome log and the user's autosweeper folders, as Linux paths."""
    result = python.run(python.python, "-c", WHERE)
    assert result.returncode == 0, result.describe()
    found: dict[str, str] = json.loads(result.stdout.strip().splitlines()[-1])
    return {key: python.linux_path(path) for key, path in found.items()}


def fresh_user(python: WindowsPython) -> dict[str, Path]:
    """Remove the Windows user's autosweeper folders (skins, outcome log, unreadable pictures)
    left by an earlier session in the cached prefix: a first session starts from nothing."""
    folders = windows_folders(python)
    for key in ("local", "roaming"):
        folder = folders[key]
        assert folder.is_relative_to(python.prefix.resolve() / "drive_c"), folder
        shutil.rmtree(folder, ignore_errors=True)
    return folders


def set_fresh_install(python: WindowsPython) -> None:
    """winemine's registry as a fresh install leaves it (set with Wine's own ``reg``)."""
    python.run("reg", "delete", WINEMINE_KEY, "/f")  # absent on the first run: fine
    for name, value in FRESH_INSTALL.items():
        result = python.run("reg", "add", WINEMINE_KEY, "/v", name, "/t", "REG_DWORD", "/d",
                            str(value), "/f")  # fmt: skip
        assert result.returncode == 0, result.describe()


def wait_for_window(process: subprocess.Popen[bytes]) -> None:
    """Wait until winemine's window is mapped on the display (xdotool searches the X tree)."""
    deadline = time.monotonic() + WINDOW_TIMEOUT
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", "^WineMine$"],
            capture_output=True,
            text=True,
            check=False,
        )
        if found.stdout.strip():
            time.sleep(1.0)  # mapped before it is painted
            return
        time.sleep(0.25)
    pytest.fail(f"winemine opened no window in {WINDOW_TIMEOUT:.0f} s (exit {process.poll()})")


@pytest.fixture
def winemine(
    windows_python: WindowsPython, virtual_display: VirtualDisplay
) -> Iterator[subprocess.Popen[bytes]]:
    """Wine's winemine as freshly installed, in the Windows Python's prefix, on the session's
    virtual display; stopped by pid (its session's processes) after the test."""
    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is not installed (run .ci/setup.sh)")
    set_fresh_install(windows_python)
    process = windows_python.start("winemine")
    try:
        wait_for_window(process)
        yield process
    finally:
        stop_session(process.pid)
        windows_python.wait_for_wine()


# Run by the Windows python: the window found by its executable's name, as pywinctl names it.
BY_EXECUTABLE = """
from controller.desktop.windows import desktop_windows, find_window
print(find_window(desktop_windows(), class_name="winemine.exe").describe())
"""


def test_first_session_plays_20_games(
    windows_python: WindowsPython, winemine: subprocess.Popen[bytes]
) -> None:
    folders = fresh_user(windows_python)
    # The user's folders follow Windows' conventions: AppData\Local\autosweeper, not doubled.
    assert folders["outcomes"] == folders["local"] / "outcomes.sqlite3"
    by_executable = windows_python.run(windows_python.python, "-c", BY_EXECUTABLE)
    assert by_executable.returncode == 0, by_executable.describe()
    assert by_executable.stdout.startswith("'WineMine' (class winemine.exe)")
    with WindowsSeen("winemine") as windows:
        # No window named: the one showing a fresh board is calibrated, its skin named so.
        calibrate = windows_python.run(
            windows_python.autosweeper, "calibrate", timeout=CALIBRATE_TIMEOUT
        )
        assert calibrate.returncode == 0, calibrate.describe()
        assert "saved skin 'WineMine'" in calibrate.stdout, calibrate.describe()
        play = windows_python.run(
            windows_python.autosweeper, "play", "--games", str(GAMES), timeout=PLAY_TIMEOUT
        )
    # winemine's name prompt and best-times table were met (and answered through user32)
    assert {"Congratulations!", "Fastest Times"} <= windows.titles(), windows.seen
    log = folders["outcomes"]
    assert log.is_file(), f"no outcome log at {log}\n{play.describe()}"
    with sqlite3.connect(f"file:{log}?mode=ro", uri=True) as db:
        games = db.execute("SELECT id, result, duration, clicks FROM games ORDER BY id").fetchall()
    results = Counter(result for _, result, _, _ in games)
    summary = f"{len(games)} games logged, {dict(results)}; " + "; ".join(
        f"#{id_} {result} ({clicks} clicks, {duration or 0:.1f} s)"
        for id_, result, duration, clicks in games
    )
    assert set(results) <= {"won", "lost"}, f"{summary}\n{play.describe()}"
    assert len(games) == GAMES, f"{summary}\n{play.describe()}"
    assert results["won"] > 0, summary
    assert play.returncode == 0, f"{summary}\n{play.describe()}"
    stopped_by_the_stop_key(windows_python, log)


def stopped_by_the_stop_key(windows_python: WindowsPython, log: Path) -> None:
    """The stop key, read with GetAsyncKeyState: held down during a long run, play stops before
    its next click (exit 130), saying so; a game it stopped in the middle is logged
    ``stopped``, every other won or lost."""
    run = windows_python.spawn(
        windows_python.autosweeper, "play", "--games", "500", "--stop-key", "Pause"
    )
    try:
        time.sleep(STOP_AFTER)
        subprocess.run(["xdotool", "keydown", "Pause"], check=True)
        try:
            out, err = run.communicate(timeout=STOP_TIMEOUT)
        finally:
            subprocess.run(["xdotool", "keyup", "Pause"], check=True)
    finally:
        stop_session(run.pid)
    stderr = err.decode("utf-8", "replace")
    assert run.returncode == 130, f"exit {run.returncode}\n{out!r}\n{stderr}"
    assert "stopped: stop key Pause pressed" in stderr, stderr
    with sqlite3.connect(f"file:{log}?mode=ro", uri=True) as db:
        results = [result for (result,) in db.execute("SELECT result FROM games ORDER BY id")]
    assert len(results) > GAMES, results
    assert set(results[GAMES:-1]) <= {"won", "lost"}, results[GAMES:]
    assert results[-1] in ("won", "lost", "stopped"), results[GAMES:]
