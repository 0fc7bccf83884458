"""The words beside a real game's board, read from captures of its window: the button to try
for a new game, and the one never to click."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytesseract
import pytest
from pictures import read_picture

from calibration.buttons import ButtonPoints, blanked, button_points
from calibration.labels import (
    NoTextReader,
    Word,
    dismissing_rank,
    end_told,
    menu_labels,
    new_game_labels,
    plain_letters,
    quitting_places,
    read_words,
    says_new_game,
)
from solver import GameState
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
    frame = read_picture(WINDOWS / f"{name}_lost.png")
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
    assert points == ButtonPoints(labelled=[labels[0].centre], changed=[])


def test_gnome_mines_play_again_is_a_labelled_button_to_try() -> None:
    frame = window("gnome-mines")
    words = read_words(frame, blanked(GNOME_BOARD, None))
    points = button_points(frame, frame, GNOME_BOARD, None, words).labelled
    assert points and GNOME_PLAY_AGAIN.contains(*points[0]), points
    assert not any(GNOME_BOARD.contains(*point) for point in points)


def test_a_word_near_a_new_game_word_is_one_and_others_are_not() -> None:
    assert says_new_game("pray")  # "Play" misread
    assert says_new_game("again") and says_new_game("restart") and says_new_game("rejouer")
    assert not any(says_new_game(word) for word in ("send", "ptta", "zini", "llama", "share"))


def test_no_tesseract_program_is_said_and_no_word_is_guessed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(NoTextReader, match="no words read beside the board"):
        read_words(window("xbomb"), [])


def drawn_buttons(labels: dict[str, Rect]) -> np.ndarray:
    """A grey window with a framed button for each label, drawn where given."""
    frame = np.full((160, 420, 3), 230, dtype=np.uint8)
    for text, rect in labels.items():
        cv2.rectangle(frame, (rect.left, rect.top), (rect.right, rect.bottom), (0, 0, 0), 1)
        at = (rect.left + 8, rect.top + 28)
        cv2.putText(frame, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2, cv2.LINE_AA)
    return frame


def test_labels_of_a_game_in_another_language_are_read_too() -> None:
    buttons = {
        "Beenden": Rect(10, 20, 180, 40),
        "Neues Spiel": Rect(230, 20, 180, 40),
        "Quitter": Rect(10, 100, 180, 40),
        "Jugar otra vez": Rect(200, 100, 215, 40),
    }
    frame = drawn_buttons(buttons)
    words = read_words(frame, [])
    labels = new_game_labels(words)
    assert len(labels) == 2, labels
    assert buttons["Neues Spiel"].contains_rect(labels[0])
    assert buttons["Jugar otra vez"].contains_rect(labels[1])
    quits = quitting_places(words)
    assert len(quits) == 2 and all(
        any(buttons[text].contains_rect(place) for place in quits)
        for text in ("Beenden", "Quitter")
    )
    board = Rect(0, 150, 420, 10)
    points = button_points(frame, frame, board, None, words)
    assert points == ButtonPoints(labelled=[label.centre for label in labels], changed=[])


def test_a_word_s_accents_and_case_do_not_keep_it_from_its_label() -> None:
    assert plain_letters("Réessayer") == "reessayer"
    assert plain_letters("Schließen") == "schliessen"
    assert plain_letters("Zakończ") == "zakoncz"
    assert plain_letters("Ri_gioca!") == "rigioca"


@pytest.mark.parametrize(
    ("label", "rank"),
    [("cancel", 0), ("annuler", 0), ("no", 1), ("nein", 1), ("ok", 2), ("quit", None)]
    + [("reset scores", None), ("close", None), ("cancel game", None), ("", None)],
)
def test_only_a_button_of_one_dismissing_word_answers_a_dialog(
    label: str, rank: int | None
) -> None:
    assert dismissing_rank(label) == rank


def test_a_message_over_a_board_gone_tells_how_the_game_ended_only_one_way() -> None:
    assert end_told(["you", "win"]) is GameState.WON
    assert end_told(["you", "wih"]) is GameState.WON  # a pixel font's "WIN!"
    assert end_told(["game", "over"]) is GameState.LOST
    assert end_told(["over"]) is None
    assert end_told(["hih"]) is None
    assert end_told(["won", "lost"]) is None


def test_the_labels_of_a_menu_are_each_line_but_a_quitting_one_top_to_bottom() -> None:
    words = [
        Word("quit", Rect(20, 90, 30, 10), (1, 1, 3)),
        Word("medium", Rect(20, 60, 50, 10), (1, 1, 2)),
        Word("easy", Rect(20, 30, 30, 10), (1, 1, 1)),
        Word("o", Rect(90, 30, 8, 10), (1, 1, 4)),
    ]
    assert menu_labels(words) == [Rect(20, 30, 30, 10), Rect(20, 60, 50, 10)]
