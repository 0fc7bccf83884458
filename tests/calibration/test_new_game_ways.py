"""Starting a new game while calibrating (calibration/new_game_ways.py): what counts as a way
that changed the finished board."""

from __future__ import annotations

import numpy as np

from calibration.catalogue import HIDDEN_ID
from calibration.new_game_ways import changed_inside_edge, shows_new_game

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


WON = np.array([[HIDDEN_ID, 1, 2], [3, 3, 1], [HIDDEN_ID, 1, 4]], dtype=np.int32)
"""A won board that leaves its mines hidden: only the face says it is over."""
LOST_MINE = 9


def test_a_key_typed_into_a_box_over_a_won_board_is_no_new_game() -> None:
    """Minesweeper Classic at Expert: its best-time box lies over part of a won board that
    leaves its mines hidden, and the N key tried for a new game typed an "n" into it; the board
    changed, still showed hidden cells and no mine, and was taken for a new game."""
    typed = WON.copy()
    typed[1, 0] = 17  # the box's text field with an "n" in it: an appearance never seen
    assert not shows_new_game(typed, WON, [LOST_MINE])


def test_a_board_hidden_again_is_a_new_game_unless_it_shows_an_end() -> None:
    fresh = np.full_like(WON, HIDDEN_ID)
    assert shows_new_game(fresh, WON, [LOST_MINE])
    with_a_start = fresh.copy()
    with_a_start[:2, :] = 1  # a game that opens a start by itself, larger than the game's
    early_loss = fresh.copy()
    early_loss[2, :] = (1, 1, LOST_MINE)
    assert shows_new_game(with_a_start, early_loss, [LOST_MINE])
    shows_a_mine = fresh.copy()
    shows_a_mine[2, 2] = LOST_MINE
    assert not shows_new_game(shows_a_mine, WON, [LOST_MINE])
