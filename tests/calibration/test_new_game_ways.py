"""Starting a new game while calibrating (calibration/new_game_ways.py): what counts as a way
that changed the finished board."""

from __future__ import annotations

import numpy as np

from calibration.new_game_ways import changed_inside_edge

PITCH = (38, 38)


def finished_board() -> np.ndarray:
    """An 8x8 board of 38-px cells, each a different grey: any change inside shows."""
    levels = np.arange(64, dtype=np.uint8).reshape(8, 8) * 3 + 40
    return np.repeat(np.repeat(levels, 38, axis=0), 38, axis=1)[..., None].repeat(3, axis=2)


def test_a_shadow_drawn_over_the_boards_edge_leaves_the_finished_board_as_it_was() -> None:
    """UXBgtk: a click on a toolbar button above the board draws its pressed shadow over the
    board's top two rows of pixels (21 pixels changed), which calibration took for a board
    changed into "something that is not a new game" and stopped, the face untried."""
    before = finished_board()
    after = before.copy()
    after[:2, 226:270] = 255
    assert not changed_inside_edge(before, after, PITCH)


def test_a_cell_changed_inside_the_board_is_a_change() -> None:
    before = finished_board()
    after = before.copy()
    after[50:60, 100:110] = 255  # a dialog's corner, a cell's new picture
    assert changed_inside_edge(before, after, PITCH)
