"""Following a board that re-lays itself out (vision/relayout.py) up to the capture's edge."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import CaptureError
from vision.relayout import Relayout

SIDE = 10


def tile(width: int) -> np.ndarray:
    """A cell ``width`` pixels wide: a dark left and top edge, a light right and bottom one."""
    cell = np.full((SIDE, width, 3), 128, dtype=np.uint8)
    cell[:, 0], cell[0, :] = 50, 50
    cell[:, -1], cell[-1, 1:] = 200, 200
    return cell


def test_a_board_grown_past_the_captures_edge_is_a_capture_error_not_an_index_error() -> None:
    # mfranceschi-minesweeper at Expert: 30 columns of 34 px fit the screen fresh; opened,
    # they widen to 38-40 px and the board runs past the screen's right edge, which clips the
    # capture (an IndexError ended calibration with a traceback).
    fresh = np.concatenate([tile(SIDE)] * 3, axis=1)
    relayout = Relayout.even(tile(SIDE), (1, 3), fresh)
    grown = np.concatenate([tile(14)] * 3, axis=1)  # 42 px, of which the screen shows 34
    with pytest.raises(CaptureError, match="past the edge"):
        relayout.follow(grown[:, :34])
