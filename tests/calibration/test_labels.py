"""The words beside a real game's board, read from captures of its window: the button to try
for a new game, and the one never to click."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytesseract
import pytest

from calibration.buttons import blanked, button_points
from calibration.labels import NoTextReader, new_game_labels, quitting_places, read_words
from vision.geometry import Rect

WINDOWS = Path(__file__).parent.parent / "data" / "windows"
XBOMB_BOARD = Rect(5, 37, 604, 322)
"""Where the cells are in the capture of xbomb's lost Expert game at its default size."""
XBOMB_RESTART, XBOMB_QUIT = Rect(5, 5, 88, 27), Rect(415, 5, 55, 27)
"""Its buttons "Restart" and "Quit", above the board (it has no face)."""
GNOME_BOARD = Rect(135, 68, 565, 565)
GNOME_PLAY_AGAIN = Rect(724, 445, 150, 60)
"""gnome-mines' "Play Again" button, right of its lost board, above "Best Times"."""


def window(name: str) -> np.ndarray:
    frame = cv2.imread(str(WINDOWS / f"{name}_lost.png"))
    assert frame is not None, name
    return frame


def test_xbomb_s_restart_is_the_button_to_try_and_its_quit_is_never_one() -> None:
    frame = window("xbomb")
    words = read_words(frame, blanked(XBOMB_BOARD, None))
    labels = new_game_labels(words)
    assert labels and XBOMB_RESTART.contains_rect(labels[0]), labels
    (quit_word,) = quitting_places(words)
    assert XBOMB_QUIT.contains_rect(quit_word)
    # Its buttons look the same during play: only the label finds one; the Quit button, though
    # drawn anew (as if the game had changed it), is not a place to try.
    playing = frame.copy()
    playing[XBOMB_QUIT.top : XBOMB_QUIT.bottom, XBOMB_QUIT.left : XBOMB_QUIT.right] = 255
    points = button_points(playing, frame, XBOMB_BOARD, None, words)
    assert points == [labels[0].centre]


def test_gnome_mines_play_again_is_tried_first_among_what_its_finished_game_changed() -> None:
    frame = window("gnome-mines")
    words = read_words(frame, blanked(GNOME_BOARD, None))
    points = button_points(frame, frame, GNOME_BOARD, None, words)
    assert points and GNOME_PLAY_AGAIN.contains(*points[0]), points
    assert not any(GNOME_BOARD.contains(*point) for point in points)


def test_no_tesseract_program_is_said_and_no_word_is_guessed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(NoTextReader, match="no words read beside the board"):
        read_words(window("xbomb"), [])
