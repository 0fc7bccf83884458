"""The screens of the moment calibration failed (calibration/failure_screens.py): saved as PNG
files in a folder the error names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from drawn_game import (
    DRAWN_BUTTON,
    DrawnGame,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)
from pictures import read_picture

from calibration.errors import CalibrationError
from calibration.learn import calibrate
from solver.errors import AutosweeperError


def test_a_failed_calibration_saves_the_board_before_and_after_the_last_click() -> None:
    """No new game way works on this game: the error names a folder holding the board as it
    was before the last way was tried and after, readable, at the board's size."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True)
    with pytest.raises(CalibrationError, match="cannot start a new game") as raised:
        calibrated(screen, max_games=4)
    message = str(raised.value)
    assert "\n" not in message
    named = re.search(r" \(the screens of that moment: (.+)\)$", message)
    assert named is not None, message
    folder = Path(named[1])
    assert folder.name.startswith("autosweeper-calibration-")
    board = screen.scene().geometry.rect
    width, height = board.width, board.height
    at_board_size = f"{width}x{height}-at-{board.left},{board.top}.png"
    pictures = {
        path.name.split("-")[0]: read_picture(path) for path in folder.glob(f"*-{at_board_size}")
    }
    assert set(pictures) == {"before", "after"}, sorted(path.name for path in folder.iterdir())
    assert all(picture.shape == (height, width, 3) for picture in pictures.values())
    assert np.array_equal(pictures["after"], screen.grab(board))


def test_an_error_before_any_capture_names_no_folder() -> None:
    """Nothing was seen: there are no screens to save, and the error stays as it was."""
    with pytest.raises(CalibrationError) as raised:
        calibrate("none", DrawnGame(seed=0), DrawnGame(seed=0), [], progress=False)
    assert str(raised.value) == "no game window to calibrate"


class StuckDialog(AutosweeperError):
    """The error of a layer below calibration: a game's dialog that stays open."""


def test_a_dialog_that_stays_open_saves_the_screens_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialog no key closes stops calibration as any other failure does: with its screens."""
    screen = DrawnGame(seed=2, dialog_on_loss=True)

    def stuck() -> int:
        if screen.dialog_open:
            raise StuckDialog("the dialog '' (window 0xa00003) did not close on Escape")
        return 0

    monkeypatch.setattr(screen, "close_dialogs", stuck)
    with pytest.raises(CalibrationError, match="did not close on Escape") as raised:
        calibrated(screen, max_games=4)
    assert re.search(r" \(the screens of that moment: (.+)\)$", str(raised.value))
    assert isinstance(raised.value.__cause__, StuckDialog)
