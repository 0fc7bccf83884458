"""Shared real-game fixtures: one virtual display per test session and game launchers.

pyautogui binds to the X display that is current when it is first imported, so every test in a
session shares the one display made here. Real-game tests carry ``@pytest.mark.realgame``; they
are skipped (with the reason) only when Xvfb or the game itself is not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from calibration.learn import Calibration
from controller.desktop.display import VirtualDisplay
from controller.desktop.games import GameWindow, launch_game
from controller.desktop.launchers import LAUNCHERS
from controller.desktop.processes import find_binary
from controller.desktop.sizes import Size
from controller.learning import calibrate_game
from controller.mouse import Mouse
from vision.capture import ScreenGrabber
from vision.errors import UnreadableFaceError
from vision.read import BoardReader, Reading
from vision.skin import Image, Skin
from vision.stable import wait_stable

TESTS = Path(__file__).resolve().parent
"""The tests folder: its data (``boards/``, ``data/``) and helpers (``bruteforce``,
``captured_screen``, ``click_recorder``) serve the test folders below it, which mirror the
packages."""
REPO = TESTS.parent
BOARDS = TESTS / "boards"

LaunchGame = Callable[[str, "str | Size"], GameWindow]
CALIBRATION_ORIGIN = {"winemine": (250, 170), "xdemineur": (60, 330)}
"""Where each game's calibration windows start: away from the screen's top-left corner."""
CALIBRATION_SEED = 7
READ_TIMEOUT = 5.0
"""Seconds a click may take to show (Wine on a busy machine can take seconds)."""
FACE_REREADS = 3
"""Reads of a frame whose face is unreadable: winemine shows a pressed face for a moment."""


@pytest.fixture(scope="session")
def virtual_display() -> Iterator[VirtualDisplay]:
    """An Xvfb display, made the current DISPLAY for the whole session."""
    if find_binary("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb, or run .ci/setup.sh)")
    with VirtualDisplay() as display:
        yield display


@pytest.fixture
def launch(virtual_display: VirtualDisplay) -> Iterator[LaunchGame]:
    """A function ``launch(name, level)`` starting a game; every game is closed after the test."""
    started: list[GameWindow] = []

    def start(name: str, level: str | Size = "beginner") -> GameWindow:
        binary = LAUNCHERS[name].binary
        if find_binary(binary) is None:
            pytest.skip(f"{name} needs {binary}, which is not installed (run .ci/setup.sh)")
        window = launch_game(name, level)
        started.append(window)
        return window

    yield start
    for window in started:
        window.close()


@pytest.fixture
def winemine(launch: LaunchGame) -> GameWindow:
    """Wine's winemine at 9x9 with 10 mines."""
    return launch("winemine", "beginner")


@pytest.fixture
def xdemineur(launch: LaunchGame) -> GameWindow:
    """xdemineur at 9 rows by 12 columns (its narrowest) with 10 mines."""
    return launch("xdemineur", (9, 12, 10))


@pytest.fixture
def mouse(virtual_display: VirtualDisplay) -> Mouse:
    """A Mouse on the session display, allowed nowhere until the test calls ``mouse.allow``."""
    return Mouse()


class Calibrations:
    """Each game's calibration, learned once per test session and shared by the modules that
    read real games with it (calibrating takes about half a minute per game)."""

    def __init__(self) -> None:
        self.done: dict[str, Calibration] = {}
        self.seconds: dict[str, float] = {}
        """Wall time each calibration took."""

    def of(self, game: str) -> Calibration:
        """The calibration of ``game`` (skipping the test if the game is not installed)."""
        binary = LAUNCHERS[game].binary
        if find_binary(binary) is None:
            pytest.skip(f"{game} needs {binary}, which is not installed (run .ci/setup.sh)")
        if game not in self.done:
            started = time.monotonic()
            self.done[game] = calibrate_game(
                game, origin=CALIBRATION_ORIGIN[game], seed=CALIBRATION_SEED
            )
            self.seconds[game] = time.monotonic() - started
        return self.done[game]


@pytest.fixture(scope="session")
def calibrations(virtual_display: VirtualDisplay) -> Calibrations:
    """The session's calibrations, learned on the session display on first use."""
    return Calibrations()


def start_new_game(skin: Skin, reader: BoardReader, mouse: Mouse, grabber: ScreenGrabber) -> None:
    """A new game the skin's way, waiting until the board shows it. The key is pressed over
    the board, as the play loop presses it: the last click may have left the pointer outside
    a window that has moved since."""
    before = grabber.grab(reader.region)
    face = reader.geometry.face
    if skin.new_game.kind == "key" and skin.new_game.key:
        mouse.press(skin.new_game.key, *reader.geometry.rect.centre)
    else:
        assert face is not None
        mouse.click(*face.centre)
    wait_stable(
        grabber, reader.region, watch=reader.watched, timeout=READ_TIMEOUT, differs_from=before
    )


def read_when_settled(
    grabber: ScreenGrabber, reader: BoardReader, mines: int, before: Image | None = None
) -> tuple[Image, Reading]:
    """The frame once it holds still (and differs from ``before``, if given), and its reading."""
    attempt = 1
    while True:
        frame = wait_stable(
            grabber, reader.region, watch=reader.watched, timeout=READ_TIMEOUT, differs_from=before
        )
        try:
            return frame, reader.read(frame, mines)
        except UnreadableFaceError:
            if attempt == FACE_REREADS:
                raise
            attempt += 1
            time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended and not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return not state.stdout.strip().startswith("Z")


needs_xvfb_and_signals = pytest.mark.skipif(
    sys.platform == "win32" or find_binary("Xvfb") is None, reason="needs Xvfb and POSIX signals"
)
"""The mark of the tests that stop or kill an Xvfb of their own (:func:`own_display`)."""


@pytest.fixture
def own_display() -> Iterator[VirtualDisplay]:
    """An Xvfb of this test's own, to stop or kill."""
    with VirtualDisplay(first_number=150) as display:
        yield display
