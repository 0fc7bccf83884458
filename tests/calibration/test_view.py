"""The board as calibration sees it (calibration/view.py): where the pointer rests off the board."""

from __future__ import annotations

import pytest

from calibration.view import rest_point
from vision.geometry import Rect


@pytest.mark.parametrize(
    ("window", "board"),
    [
        (Rect(0, 0, 240, 302), Rect(30, 55, 180, 180)),  # room all round
        (Rect(10, 10, 100, 100), Rect(10, 10, 100, 98)),  # only a strip below
        (Rect(10, 10, 100, 100), Rect(12, 10, 98, 100)),  # only a strip on the left
    ],
)
def test_the_pointer_rests_in_the_window_off_the_board(window: Rect, board: Rect) -> None:
    point = rest_point(window, board)
    assert point is not None
    assert window.contains(*point) and not board.contains(*point)


def test_a_board_filling_its_window_leaves_no_place_to_rest() -> None:
    assert rest_point(Rect(0, 0, 50, 50), Rect(0, 0, 50, 50)) is None
