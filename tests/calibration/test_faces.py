"""The face (calibration/faces.py): the picture around what a finished game changed nearest the
middle above the board."""

from __future__ import annotations

import numpy as np

from calibration.faces import find_face
from vision.geometry import Rect


def test_face_is_the_whole_picture_around_the_change_nearest_the_middle() -> None:
    playing = np.full((120, 200, 3), 190, dtype=np.uint8)
    playing[10:38, 86:114] = (0, 220, 220)  # a yellow face 28 px across
    playing[28:31, 93:107] = 0  # its mouth
    playing[12:30, 10:40] = (0, 0, 200)  # a counter
    lost = playing.copy()
    lost[28:31, 93:107] = (0, 220, 220)
    lost[31:34, 93:107] = 0  # the mouth turned down
    lost[15:25, 20:30] = 0  # the counter changed too
    face = find_face(playing, lost, Rect(20, 50, 160, 60))
    assert face == Rect(86, 10, 28, 28)
    assert find_face(playing, playing, Rect(20, 50, 160, 60)) is None


def test_a_window_whose_background_turns_another_colour_on_a_loss_still_shows_its_face() -> None:
    """PyMines 1.2.3 paints its whole window red when a game is lost, behind a face whose
    eyes turn to crosses and beside a label drawn smooth on the background. Calibration took
    the whole window for the face (every pixel above the board changed), a picture taller
    than the band above the board play looks for it in. The background taking another plain
    colour is not a change of what is drawn there."""
    white, red = (250, 250, 250), (0, 0, 250)
    playing = np.full((120, 200, 3), white, dtype=np.uint8)
    playing[8:25, 92:109] = (0, 220, 220)  # a yellow face, 17 px across
    playing[14:16, 96:99] = playing[14:16, 102:105] = 0  # its eyes
    playing[10:20, 10:60:3] = 0  # a label of thin strokes ...
    playing[10:20, 11:61:3] = 128  # ... smoothed into the background
    lost = np.full_like(playing, red)
    lost[8:25, 92:109] = (0, 220, 220)
    lost[13:17, 96:99] = lost[13:17, 102:105] = 0  # the eyes crossed
    lost[10:20, 10:60:3] = 0
    lost[10:20, 11:61:3] = (0, 0, 125)  # the smoothing now blends into red
    board = Rect(2, 30, 196, 88)
    lost[board.top : board.bottom, board.left : board.right] = playing[
        board.top : board.bottom, board.left : board.right
    ]
    assert find_face(playing, lost, board) == Rect(92, 8, 17, 17)


def test_a_button_a_loss_shows_where_there_was_nothing_is_not_the_face() -> None:
    """A page shows buttons above the board once a game is over ("Send to ..." links to other
    sites, nearer the board's middle than its face): calibration took one for the face and
    clicked it, which opened another browser window (a page in Chromium, 2026-11-27). A face
    shows a picture during play; a patch that was one plain colour then is something that
    appeared, never the face."""
    playing = np.full((120, 240, 3), 190, dtype=np.uint8)
    playing[10:38, 30:58] = (0, 220, 220)  # a yellow face left of the middle
    playing[28:31, 37:51] = 0  # its mouth
    lost = playing.copy()
    lost[28:31, 37:51] = (0, 220, 220)
    lost[31:34, 37:51] = 0  # the mouth turned down
    lost[12:36, 100:180] = (60, 60, 60)  # a button drawn where there was nothing
    lost[20:28, 110:170] = 0  # its label
    board = Rect(20, 50, 200, 60)
    assert find_face(playing, lost, board) == Rect(30, 10, 28, 28)
    nothing_changed_in_play = playing.copy()
    nothing_changed_in_play[28:34, 37:51] = lost[28:34, 37:51]
    assert find_face(nothing_changed_in_play, lost, board) is None
