"""A new-game button whose label a read of the whole window misses (issue 49 item 7): read place
by place (calibration/label_boxes.py), it is found and tried for a new game."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from drawn_game import (
    DRAWN_WINDOW,
    DrawnGame,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)
from drawn_menus import ButtonLabel
from pictures import read_picture

from calibration import label_boxes
from calibration.buttons import blanked, button_points
from calibration.label_boxes import MAX_BOXES, boxed_words, label_places
from calibration.labels import new_game_labels, read_words
from vision.geometry import Rect

BUTTON = Rect(150, 80, 90, 24)
"""The drawn game's "Restart!" button: in its window, above the board (from x 100, y 117)."""
STYLES = {
    "browser": ButtonLabel("Restart!", fill=(239, 239, 239), ink=(0, 0, 0)),
    "coloured": ButtonLabel(
        "Restart!", fill=(40, 160, 40), ink=(255, 255, 255), font=cv2.FONT_HERSHEY_DUPLEX
    ),
}
"""Small black letters on a light grey button, as a browser draws one; white letters on green."""


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_restart_button_whose_label_the_window_read_misses_starts_the_new_games(
    style: str,
) -> None:
    """minesweeper-for-web in Chromium: its "Restart!" button beside the board (13-px letters,
    the same during play and after) was never tried: tesseract read no word of it in the whole
    window, and nothing else there changed when a game ended. A game with no face and no key
    reached "cannot start a new game". Read alone, its label is found, and it starts each new
    game."""
    screen = DrawnGame(seed=2, button=BUTTON, faceless=True, button_label=STYLES[style])
    frame = screen.grab(DRAWN_WINDOW)
    board = screen.scene().geometry.rect
    in_window = Rect(
        board.left - DRAWN_WINDOW.left, board.top - DRAWN_WINDOW.top, board.width, board.height
    )
    assert not new_game_labels(read_words(frame, blanked(in_window, None)))  # the miss
    result = calibrated(screen, max_games=4)
    assert result.usable and result.skin.new_game.kind == "point"
    at = result.skin.new_game.at
    assert at is not None and BUTTON.contains(board.left + at[0], board.top + at[1])
    assert screen.new_games == {"face": 0, "button": screen.new_games["button"]}
    assert screen.new_games["button"] >= 4
    assert screen.keys == ["f2", "n"]  # tried before the label was looked for, once


WINDOWS = Path(__file__).parent.parent / "data" / "windows"
WEB_BOARD = Rect(19, 144, 360, 360)
"""Where the cells are in the capture of minesweeper-for-web's fresh Beginner game in Chromium
(the package README's page: a mode menu and "10 Mines" above the board, "Restart!" right of
it; Chromium's bar about --no-sandbox above)."""
WEB_RESTART = Rect(394, 169, 63, 21)


def test_minesweeper_for_web_s_restart_button_is_read_place_by_place() -> None:
    frame = read_picture(WINDOWS / "minesweeper-for-web_fresh.png")
    blank = blanked(WEB_BOARD, None)
    words = read_words(frame, blank)
    assert not new_game_labels(words)
    words += boxed_words(frame, blank, words)
    points = button_points(frame, frame, WEB_BOARD, None, words).labelled
    assert len(points) == 1 and WEB_RESTART.contains(*points[0]), points


def test_at_most_a_few_places_are_read_the_nearest_the_board_first() -> None:
    """A window full of small labels: :data:`label_boxes.MAX_BOXES` are read, no more (each
    costs a read by tesseract), those nearest the board first; the board's frame, larger than
    a label, is none, and no button beside it is joined to it."""
    frame = np.full((300, 400, 3), 255, dtype=np.uint8)
    board = Rect(20, 20, 150, 150)
    frame[board.top - 6 : board.bottom + 6, board.left - 6 : board.right + 6] = 128  # its frame
    frame[board.top : board.bottom, board.left : board.right] = 200
    for index in range(20):
        top, left = 10 + 14 * index, 184 + 40 * (index % 2)
        frame[top : top + 8, left : left + 30] = 0
    places = label_places(frame, blanked(board, None), [])
    assert len(places) == MAX_BOXES
    assert places[0] == Rect(184, 10, 30, 8)  # 8 px right of the frame: its own place
    distances = [label_boxes.distance(place, board) for place in places]
    assert distances == sorted(distances)
