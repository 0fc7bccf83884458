"""The face (calibration/faces.py): the picture around what a finished game changed nearest the
middle above the board."""

from __future__ import annotations

import numpy as np

from calibration.faces import find_face
from vision.geometry import Rect
from vision.skin import MAX_SIDE


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


def toolbar_of_buttons() -> tuple[np.ndarray, np.ndarray, Rect]:
    """A toolkit's toolbar above a board (UXBgtk 1.1): a smiley that frowns on a loss at the
    left, an icon button and a wide level list that the loss greys out and in, nearer the
    board's middle; the window's background all round them."""
    playing = np.full((380, 460, 3), 240, dtype=np.uint8)
    playing[5:55, 5:65] = (0, 220, 220)  # the smiley
    playing[40:44, 20:50] = 0  # its smile
    playing[5:55, 75:135] = (0, 200, 200)  # an icon button
    playing[20:30, 95:115] = 40
    playing[15:45, 150:350] = 255  # the level list, its text
    playing[25:35, 160:300:4] = 30
    lost = playing.copy()
    lost[40:44, 20:50] = (0, 220, 220)
    lost[46:50, 20:50] = 0  # the smile turned down
    lost[5:55, 75:135] = 200  # the icon greyed
    lost[15:45, 150:350] = 230  # the list greyed
    lost[25:35, 160:300:4] = 120
    return playing, lost, Rect(147, 62, 305, 305)


def test_a_face_is_no_larger_than_a_skin_keeps_one() -> None:
    """The level list nearest the board's middle changed on the loss, and the colour round it
    spreads over the whole window: calibration kept a 451x370 "face" and, 150 s later, could
    not save the skin ("not 4 to 256 pixels a side"). A face grown past that is its changed
    patch alone."""
    playing, lost, board = toolbar_of_buttons()
    face = find_face(playing, lost, board)
    assert face is not None and max(face.width, face.height) <= MAX_SIDE


def test_the_face_is_at_the_new_game_point_the_user_named_where_a_loss_changed_it() -> None:
    """The user named the smiley as the way to a new game (`--new-game`): a picture there that a
    loss changed is the face, not the buttons nearer the middle."""
    playing, lost, board = toolbar_of_buttons()
    assert find_face(playing, lost, board, near=(36, 30)) == Rect(5, 5, 60, 50)
    assert find_face(playing, lost, board, near=(400, 30)) != Rect(5, 5, 60, 50)
