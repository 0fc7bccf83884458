"""The dialogs a game draws in its own window (calibration/dialogs.py): the button that keeps the
game, read on real captures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pictures import read_picture

from calibration.dialogs import DialogAnswer, DialogButton, answer_dialog_over, dismissing_button
from vision.geometry import Rect
from vision.skin import Image
from vision.veil import find_veil


def web_capture(game: str, name: str) -> Image:
    """A capture of a game in a browser's window (web98: a Windows-98 look drawn in HTML;
    webcanvas: a game drawn on a canvas)."""
    picture = read_picture(Path(__file__).parent.parent / "data" / game / f"{name}.png")
    return np.asarray(picture)


@pytest.mark.parametrize(
    ("game", "dialog", "label"),
    [("web98", "prompt", "cancel"), ("web98", "scores", "ok"), ("webcanvas", "boom", "ok")],
)
def test_the_button_that_keeps_the_game_is_read_in_a_dialog_over_a_veil(
    game: str, dialog: str, label: str
) -> None:
    """Real captures of two browser games: one's name prompt for a best time ("Cancel" chosen
    over "OK", white on blue) and its score table ("OK", never "Reset Scores"), the other's
    "Boom!" after a loss (an "OK" in a focus ring), each over the page the browser or the game
    dims."""
    before, now = web_capture(game, "window"), web_capture(game, dialog)
    veil = find_veil(before, now)
    assert veil is not None
    button = dismissing_button(now, veil.off(before, now))
    assert button is not None and button.label == label


class StillWindow:
    """A screen that shows one capture of a window, at ``window``."""

    def __init__(self, picture: Image, window: Rect) -> None:
        self.picture, self.window = picture, window

    def grab(self, region: Rect | None = None) -> Image:
        assert region == self.window
        return self.picture


@pytest.mark.parametrize("clicked", [True, False])
def test_a_dialog_is_answered_by_its_button_in_screen_coordinates(clicked: bool) -> None:
    """Play and calibration answer a dialog through one function: it is given the button where
    the screen shows it (the window's offset added), and a button the click found gone is no
    dialog answered."""
    before, now = web_capture("web98", "window"), web_capture("web98", "prompt")
    window = Rect(100, 50, now.shape[1], now.shape[0])
    offered: list[DialogButton] = []

    def click(button: DialogButton) -> bool:
        offered.append(button)
        return clicked

    answer = answer_dialog_over(StillWindow(now, window), window, before, None, click)
    assert answer is (DialogAnswer.ANSWERED if clicked else DialogAnswer.NO_VEIL)
    (button,) = offered
    veil = find_veil(before, now)
    assert veil is not None
    in_window = dismissing_button(now, veil.off(before, now))
    assert in_window is not None and button.label == in_window.label == "cancel"
    shifted = (in_window.rect.left + 100, in_window.rect.top + 50)
    assert (button.rect.left, button.rect.top) == shifted


def test_a_window_without_a_veil_is_not_clicked() -> None:
    """A board played since the window was captured is pasted over it first: what is left
    differing is no veil, and nothing is clicked."""
    window_picture = web_capture("web98", "window")
    window = Rect(0, 0, window_picture.shape[1], window_picture.shape[0])
    board_at = Rect(10, 80, 60, 40)
    played = window_picture.copy()
    played[board_at.top : board_at.bottom, board_at.left : board_at.right] = (
        255 - played[board_at.top : board_at.bottom, board_at.left : board_at.right]
    )
    board = played[board_at.top : board_at.bottom, board_at.left : board_at.right]

    def click(button: DialogButton) -> bool:
        raise AssertionError(f"clicked {button}")

    grabber = StillWindow(played, window)
    answer = answer_dialog_over(grabber, window, window_picture, (board, board_at), click)
    assert answer is DialogAnswer.NO_VEIL
