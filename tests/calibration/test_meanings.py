"""What each appearance means (calibration/meanings.py): one appearance a tile, and boards read with
them obeying the counting rules."""

from __future__ import annotations

import pytest
from drawn_boards import MINE, REDRAWN

from calibration.errors import CalibrationError
from calibration.meanings import check_counting, new_meanings
from solver import Board, Tile


def test_counting_rules_name_the_cell_that_breaks_them() -> None:
    lost = Board.from_rows(["1X", "11"], mines=1)
    check_counting(lost, "fine")
    with pytest.raises(CalibrationError, match=r"cell \(1, 1\) reads 2"):
        check_counting(Board.from_rows(["1X", "12"], mines=1), "bad")
    with pytest.raises(CalibrationError, match=r"cell \(0, 0\) reads 0 but has 3 hidden"):
        check_counting(Board.from_rows(["0U", "UU"], mines=1), "playing")


def test_a_0_beside_a_flag_may_keep_hidden_neighbours() -> None:
    """UXBgtk opens a cell's neighbours only where the flags around it match its number, a 0's
    too: a 0 beside a wrong flag left its other neighbours hidden, and calibration stopped
    ("cell (0, 6) reads 0 but has 4 hidden neighbours"). Beside no flag it may not."""
    check_counting(Board.from_rows(["0F", "UU"], mines=1), "playing")
    with pytest.raises(CalibrationError, match=r"cell \(0, 0\) reads 0 but has 3 hidden"):
        check_counting(Board.from_rows(["0U", "UU"], mines=1), "playing")


def test_a_lost_board_with_a_question_mark_left_on_a_mine_obeys_the_counting_rules() -> None:
    lost = Board.from_rows(["?1", "3X", "@2"], mines=3)
    check_counting(lost, "a lost board")  # the 3 counts the mine shown, the hit one, the "?"
    with pytest.raises(CalibrationError, match=r"cell \(1, 0\) reads 3"):
        check_counting(Board.from_rows(["U1", "3X", "@2"], mines=3), "a lost board")


def test_a_tile_with_two_appearances_names_both_and_the_window_that_may_be_too_small() -> None:
    meanings = new_meanings()
    meanings.give(MINE, Tile.MINE, "a loss")
    with pytest.raises(CalibrationError, match=r"MINE has two appearances: #4 \(a loss\) and #6"):
        meanings.give(REDRAWN, Tile.MINE, "another loss")
    with pytest.raises(CalibrationError, match="draws past its cells .then enlarge the window"):
        meanings.give(REDRAWN, Tile.MINE, "another loss")
