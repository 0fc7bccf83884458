"""The places to try for a new game (calibration/buttons.py): what a finished game changed off the
board, and the buttons whose labels say new game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pictures import read_picture

from calibration import buttons
from calibration.buttons import blanked, button_points
from calibration.faces import find_face
from calibration.labels import read_words
from vision.geometry import Rect


def test_button_points_are_the_middles_of_what_a_finished_game_changed_off_the_board() -> None:
    playing = np.full((200, 300, 3), 190, dtype=np.uint8)
    board, face = Rect(20, 20, 160, 160), Rect(80, 2, 16, 14)
    ended = playing.copy()
    ended[30:60, 30:60] = 0  # cells of the board
    ended[4:12, 82:94] = 0  # the face
    ended[150:170, 200:260] = 40  # a button below ...
    ended[40:52, 200:212] = ended[40:52, 218:240] = 40  # ... a label of two words above it
    ended[100:102, 250:290] = 40  # a line too thin to click
    assert button_points(playing, ended, board, face, []).changed == [(220, 46), (230, 160)]
    # A change bent round the board's corner has its middle on the board: not a place to try.
    bent = playing.copy()
    bent[100:195, 184:200] = bent[184:195, 100:200] = 0
    assert button_points(playing, bent, board, face, []).changed == []
    many = playing.copy()
    for top in range(10, 190, 20):
        many[top : top + 8, 250:280] = 0
    assert len(button_points(playing, many, board, None, []).changed) == buttons.MAX_TRIES


HELPER = Path(__file__).parent.parent / "data" / "webhelper"
"""Captures of a Minesweeper page in Chromium (github.com/DavidNHill/JSMinesweeper, its hints
off), its Expert window's left 920 columns: during a game, and once it is lost."""


HELPER_BOARD = Rect(188, 172, 720, 384)


HELPER_FACE = Rect(266, 122, 40, 40)
"""Its face button, left of the board's middle."""


HELPER_SEND = Rect(493, 79, 310, 28)
"""Its "Send to Ptta Zini" and "Send to Llama Zini" buttons (links to other sites), shown above
the board once a game is over, where there was nothing during the game."""


def test_buttons_a_lost_game_shows_that_say_something_else_are_neither_face_nor_new_game() -> None:
    playing, lost = (read_picture(HELPER / f"{name}.png") for name in ("playing", "lost"))
    face = find_face(playing, lost, HELPER_BOARD)
    assert face is not None and HELPER_FACE.contains_rect(face), face
    words = read_words(lost, blanked(HELPER_BOARD, face))
    labelled, changed = button_points(playing, lost, HELPER_BOARD, face, words)
    points = labelled + changed
    assert not any(HELPER_SEND.contains(*point) for point in points), points
