"""The game found as a user would point at it: the one visible window showing a fresh board
(controller/desktop/boards.py), with no title or class named. (``play`` learning the skin of that
window first: tests/controller/test_setup.py.)"""

from __future__ import annotations

import pytest
from conftest import LaunchGame

from controller.cli import main
from controller.desktop.boards import board_windows, the_board_window
from controller.desktop.display import VirtualDisplay
from controller.desktop.windows import desktop_windows
from controller.errors import WindowError
from vision.capture import ScreenGrabber

pytestmark = pytest.mark.realgame


def test_the_one_window_with_a_fresh_board_is_found_and_several_are_listed(
    launch: LaunchGame,
) -> None:
    winemine = launch("winemine", "beginner")
    with ScreenGrabber() as screen:
        found = the_board_window(desktop_windows(), screen)
        assert found.frame.left == winemine.geometry[0]
        assert found.title == "WineMine"
        launch("sgt-mines", (8, 10, 10)).move(400, 300)  # beside winemine, not over it
        shapes = sorted(shape for _, shape in board_windows(desktop_windows(), screen))
        assert shapes == [(8, 10), (9, 9)]
        with pytest.raises(WindowError, match=r"^2 visible windows on .* show a fresh board: "):
            the_board_window(desktop_windows(), screen)


def test_no_fresh_board_on_the_screen_is_one_line_naming_the_remedy(
    virtual_display: VirtualDisplay, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--mines", "10"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("autosweeper calibrate: no visible window on display ")
    assert "shows a fresh Minesweeper board" in error and "--window-title" in error
    assert error.count("\n") == 1
